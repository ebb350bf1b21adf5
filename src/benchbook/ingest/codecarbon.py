"""CodeCarbon's `emissions.csv`: one row per tracked run (the file is appended to), in the energy
contract.

What the columns are (mlco2/codecarbon, codecarbon/output_methods/emissions_data.py and
emissions_tracker.py): `duration` (s), `cpu_energy`, `gpu_energy`, `ram_energy` and their sum
`energy_consumed` (kWh, read as J), `cpu_power`, `gpu_power`, `ram_power` (W: the power of the last
measurement interval, neither a mean nor a peak: `power_reading`), `emissions` (kg CO2eq) and
`water_consumed` (estimates from the grid's intensity, not in the contract), `gpu_count` and
`gpu_model` ("8 x Tesla V100-SXM2-32GB"), `tracking_mode`. The columns are found by name: their
order and set changed between releases (3.x added experiment_id, water and utilisation columns).

What the numbers cover:

* GPU energy is read from the GPU (NVML on NVIDIA boards, powermetrics on Apple silicon): scope GPU only.
* The CPU figure is RAPL's where the machine exposes it, else CodeCarbon's model of the CPU's TDP,
  and the file does not say which: its scope names it so (`cpu-codecarbon`). CodeCarbon reads RAPL
  on Linux only (`ResourceTracker._try_platform_cpu_backend`: `is_linux_os() and
  is_rapl_available()`, the powercap files under /sys/class/powercap); on macOS it tries
  powermetrics or Intel Power Gadget, on Windows the system's energy meter or Intel Power Gadget,
  else the TDP model. So a row whose `os` column names Windows or macOS is never RAPL's, and its
  scope says so (`cpu-codecarbon-off-linux`); a row with no `os` column keeps `cpu-codecarbon`. `tracking_mode`
  (docs/edit/parameters.rst): `machine` "measure the power consumptions of the entire machine" (the
  default), `process` "try and isolate the tracked processes": the CPU figure is then the process's
  estimated share (`cpu-codecarbon-process`).
* RAM power is CodeCarbon's model of the memory size (3 W per 8 GB in 2.x, `RAM.power_per_GB`),
  never a meter: RAM energy is set aside as an estimate, and so is `energy_consumed`, the sum that
  includes it.
* A GPU present (`gpu_count` >= 1) that reads 0 W drew no 0 W: no sample was taken in the run (a
  run shorter than CodeCarbon's interval); its power and energy are set aside, not kept as zero. A
  row with no GPU tracked has no GPU figures.
"""

from __future__ import annotations

import csv
import io
import re

from benchbook.ingest import energy
from benchbook.ingest.core import Parsed, ParseError, Tool, register
from benchbook.ingest.text import Lines, head, split_n, whole

NAME = "codecarbon"

_REQUIRED = ("duration", "cpu_energy", "gpu_energy", "ram_energy", "energy_consumed", "tracking_mode")
_MEASURED = ("gpu_energy", "cpu_energy", "ram_energy", "gpu_power", "cpu_power", "ram_power")
#: Numbers that are not measurements of the run (where it ran, what it had), not counted as cells.
_NOT_CELLS = {"cpu_count", "gpu_count", "longitude", "latitude", "ram_total_size", "pue", "wue"}
_ESTIMATES = {
    "emissions": "CO2 emissions (kg), an estimate from the grid's carbon intensity: not in the energy contract",
    "emissions_rate": "CO2 emissions per second, an estimate: not in the energy contract",
    "water_consumed": "water use (L), an estimate from the energy: not in the energy contract",
}
#: The scope of the CPU figure in each tracking mode.
_CPU_SCOPE = {"machine": "cpu-codecarbon", "process": "cpu-codecarbon-process"}
#: The `os` column's platform string (Python's `platform.platform()`) of a system CodeCarbon reads no RAPL on.
_OFF_LINUX = re.compile(r"^\s*(Windows|macOS|Darwin)\b", re.I)
RAM_ESTIMATE = "RAM energy is CodeCarbon's model of the memory size (3 W per 8 GB), not a measurement"
TOTAL_ESTIMATE = "CPU + GPU + RAM, and the RAM part is CodeCarbon's model of the memory size, not a measurement"
NO_SAMPLE = "a GPU present read 0 W: no GPU sample was taken in the run (shorter than CodeCarbon's interval), not 0 J"
_GPUS = re.compile(r"^\s*(\d+)\s*x\s*(.+?)\s*$")


def _header(text: str | Lines) -> list[str]:
    first = next((s for s in split_n(head(text, 4000)) if s.strip()), "")
    return [c.strip().lower() for c in first.lstrip("\ufeff").split(",")]


def sniff(text: str | Lines) -> bool:
    cols = _header(text)
    return all(c in cols for c in _REQUIRED)


def parse(text: str | Lines, source: str) -> Parsed:
    lines = split_n(whole(text))
    h = next((i for i, s in enumerate(lines) if s.strip()), 0)
    reader = csv.reader(io.StringIO("\n".join(lines[h:])))
    try:
        rows = list(reader)
    except csv.Error as exc:
        raise ParseError(source, h + reader.line_num, f"not CSV ({exc})") from None
    header = [c.strip().lower() for c in rows[0]] if rows else []
    if not all(c in header for c in _REQUIRED):
        raise ParseError(source, h + 1, f"expected a CodeCarbon emissions.csv header with {', '.join(_REQUIRED)}")
    records, rejects, cells, modes = [], [], 0, set()
    for k, row in enumerate(rows[1:], start=h + 2):
        if not any(c.strip() for c in row):
            continue
        if len(row) != len(header):
            raise ParseError(source, k, f"expected {len(header)} cells, found {len(row)}")
        cell = dict(zip(header, (c.strip() for c in row), strict=True))
        mode = cell["tracking_mode"]
        modes.add(mode)
        count, device = _gpus(cell)
        base = dict(
            run=cell.get("timestamp") or f"row {k}",
            model=None,
            device=device,
            device_count=count,
            backend=None,
            batch_size=None,
            request_rate=None,
            interval="run",
        )
        values = {}
        for col, raw in cell.items():
            v = _number(raw)
            if v is None or col in _NOT_CELLS:
                continue
            cells += 1
            values[col] = v
            if col not in (*_MEASURED, "duration", "energy_consumed"):
                why = _ESTIMATES.get(col, f"column {col!r} is not in the energy contract")
                rejects.append((k, f"{col} {raw}", why))

        def keep(metric, unit, value, scope, note, base=base, row_line=k):
            records.append(
                dict(
                    base,
                    scope=scope,
                    line=row_line,
                    metric=metric,
                    statistic="value",
                    value=value,
                    unit=unit,
                    note=note,
                )
            )

        no_gpu = count is None or count == 0
        unsampled = not no_gpu and values.get("gpu_power") == 0
        cpu_scope = _CPU_SCOPE.get(mode)
        if cpu_scope == "cpu-codecarbon" and _OFF_LINUX.match(cell.get("os") or ""):
            cpu_scope = "cpu-codecarbon-off-linux"
        for col, kind in (("gpu_power", "gpu"), ("gpu_energy", "gpu"), ("cpu_power", "cpu"), ("cpu_energy", "cpu")):
            if col not in values:
                continue
            if kind == "gpu" and (no_gpu or unsampled):
                why = NO_SAMPLE if unsampled else "no GPU tracked (gpu_count empty)"
                rejects.append((k, f"{col} {cell[col]}", why))
            elif kind == "cpu" and cpu_scope is None:
                rejects.append(
                    (k, f"{col} {cell[col]}", f"tracking_mode {mode!r}: what the CPU figure covers is unknown")
                )
            elif col.endswith("_power"):
                keep(
                    "power_reading",
                    "W",
                    values[col],
                    kind if kind == "gpu" else cpu_scope,
                    "power of the last measurement interval",
                )
            else:
                keep(
                    "energy", "J", values[col] * energy.J_PER_KWH, kind if kind == "gpu" else cpu_scope, energy.KWH_NOTE
                )
        for col, why in (
            ("ram_power", RAM_ESTIMATE),
            ("ram_energy", RAM_ESTIMATE),
            ("energy_consumed", TOTAL_ESTIMATE),
        ):
            if col in values:
                rejects.append((k, f"{col} {cell[col]}", why))
        if "duration" in values:
            keep("duration", "s", values["duration"], None, "tracked duration")
    messages = []
    if not records and not rejects:
        raise ParseError(source, h + 1, "no CodeCarbon row found")
    if len(modes) > 1:
        messages.append(
            f"{source}: rows tracked in different modes ({', '.join(sorted(modes))}): their CPU figures cover different things"
        )
    return energy.finish(TOOL, source, records, rejects, messages, cells, _version(rows, header))


def _gpus(cell: dict) -> tuple[float | None, str | None]:
    """(GPU count, GPU name) as `gpu_count` and `gpu_model` give them ("2 x NVIDIA RTX A6000")."""
    count = _number(cell.get("gpu_count", ""))
    model = cell.get("gpu_model") or None
    m = _GPUS.match(model) if model else None
    if m:
        return (count if count is not None else float(m[1])), m[2]
    return count, model


def _number(raw: str) -> float | None:
    try:
        v = float(raw)
    except (TypeError, ValueError):
        return None
    return v


def _version(rows: list[list[str]], header: list[str]) -> str | None:
    if "codecarbon_version" not in header or len(rows) < 2:
        return None
    i = header.index("codecarbon_version")
    versions = sorted({r[i].strip() for r in rows[1:] if len(r) > i and r[i].strip()})
    return f"CodeCarbon {', '.join(versions)}" if versions else None


TOOL = register(
    Tool(
        name=NAME,
        settings=energy.SETTINGS,
        sniff=sniff,
        parse=parse,
        description="CodeCarbon emissions.csv: energy of the GPU, CPU and RAM (kWh, read as J) with its tracking "
        "mode, and their last power readings",
        command="codecarbon's EmissionsTracker (or `codecarbon monitor`) around a run: emissions.csv",
        metrics={m: energy.METRICS[m] for m in ("energy", "power_reading", "duration")},
    )
)
