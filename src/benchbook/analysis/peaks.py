"""The device a run is measured against and its peaks, with where they came from.

`source` is `parameter` (the reader named the device or gave a peak) or `detected` (the output names
a device the hardware table knows); with neither there is no device (`choose` gives None). Names and
aliases come from data/hardware.csv, through `benchbook.hardware`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from benchbook import hardware

_DEVICE_LINE = re.compile(r"Device \d+:\s*([^,\n]+)")
_LABELLED = re.compile(r"\b(hardware|gpu|device)\b", re.IGNORECASE)
_COUNTED = re.compile(r"\b(\d+)\s*x\s*([A-Za-z][\w .-]*)", re.IGNORECASE)


@dataclass(frozen=True)
class Peaks:
    """A device (or `count` identical devices) and its peaks; None where the table has none. `source`
    says where the device came from: "parameter" or "detected"."""

    device: str | None
    bandwidth_gb_s: float | None
    tflops: dict
    source: str
    count: int = 1

    def peak_tflops(self, precision: str) -> float | None:
        """Dense peak (TFLOP/s or TOP/s) for `precision`, times `count`; fp16 stands in for bf16."""
        v = self.tflops.get(precision)
        if v is None and precision in ("bf16", "fp16"):
            v = self.tflops.get("fp16") or self.tflops.get("bf16")
        return None if v is None else v * self.count

    @property
    def total_bandwidth_gb_s(self) -> float | None:
        return None if self.bandwidth_gb_s is None else self.bandwidth_gb_s * self.count

    def ridge(self, precision: str) -> float | None:
        """FLOP per byte where the roofline turns from bandwidth to compute."""
        p, bw = self.peak_tflops(precision), self.total_bandwidth_gb_s
        return None if p is None or not bw else p * 1e12 / (bw * 1e9)


def _device(name: str) -> hardware.Device | None:
    """The table device `name` is (a name or alias) or names (`hardware.detect`: its longest alias
    as whole words), else None."""
    try:
        return hardware.device(name)
    except (KeyError, ValueError, TypeError):  # not a table name or alias: matched by words
        return hardware.detect(name)


def _peaks(dev: hardware.Device, source: str, count: int = 1) -> Peaks:
    return Peaks(dev.name, dev.bandwidth_gb_s, dict(dev.peaks), source, count)


def detect(texts) -> tuple[str, int] | None:
    """(table name, device count) of the first device the texts name, else None: a `Device N:`
    line, a `gpu=4xNVIDIA_L40S` style label, a short text that is a table name or alias, or a short
    line labelled hardware, GPU or device that names one."""
    for text in texts:
        text = str(text or "")
        for m in _DEVICE_LINE.finditer(text):
            d = _device(m.group(1))
            if d is not None:
                return d.name, 1
        for m in _COUNTED.finditer(text.replace("_", " ")):
            d = _device(m.group(2))
            if d is not None:
                return d.name, int(m.group(1))
        d = _device(text) if len(text) <= 100 else None  # a short device label, e.g. a table's GPU line
        if d is not None:
            return d.name, 1
        for line in text.splitlines():
            if len(line) <= 120 and _LABELLED.search(line):
                d = _device(line.replace("_", " "))
                if d is not None:
                    return d.name, 1
    return None


def choose(gpu: str, texts, bandwidth_gb_s: float = 0.0, peak_tflops: float = 0.0) -> Peaks | None:
    """The device to measure against: `gpu` (a parameter) when given, else the one the texts name.
    A positive `bandwidth_gb_s` or `peak_tflops` replaces the table's figure (peak_tflops for every
    precision) and makes the source `parameter`. Nothing named and no peak given: None (a page about
    someone else's run assumes no device)."""
    count = 1
    found = None if gpu else detect(texts)
    if not gpu and not found:
        if bandwidth_gb_s <= 0 and peak_tflops <= 0:
            return None
        tf = {k: peak_tflops for k in hardware.PEAK_COLUMNS} if peak_tflops > 0 else {}
        return Peaks("device of the given peaks", bandwidth_gb_s if bandwidth_gb_s > 0 else None, tf, "parameter")
    if gpu:
        dev, source = _device(gpu), "parameter"
        if dev is None:
            raise KeyError(f"unknown GPU {gpu!r}: not a name or alias in data/hardware.csv")
    else:
        dev, source, count = _device(found[0]), "detected", found[1]
    p = _peaks(dev, source, count)
    if bandwidth_gb_s > 0 or peak_tflops > 0:
        tf = {k: peak_tflops / count for k in hardware.PEAK_COLUMNS} if peak_tflops > 0 else p.tflops
        bw = bandwidth_gb_s / count if bandwidth_gb_s > 0 else p.bandwidth_gb_s
        p = Peaks(p.device, bw, tf, "parameter", count)
    return p
