"""The roofline, in one place: the device a run is measured against and its peaks (with where they
came from), the ridge, what a run can attain, bytes per weight, and the batch at which decode meets
the ridge. Every chapter takes these from here.

A kernel (or a whole decode step) that does F floating-point operations while moving B bytes has
arithmetic intensity I = F / B. On a device with peak compute P and memory bandwidth W it cannot run
faster than min(P, W x I): that is the roofline, and it turns at the ridge I = P / W. Decode at small
batch reads every weight once per step for 2 FLOPs per weight per sequence, so it sits far left
(bandwidth-bound) until the batch reaches ridge x bytes per weight / 2.


`source` is `parameter` (the reader named the device or gave a peak) or `detected` (the output names
a device the hardware table knows); with neither there is no device (`choose` gives None). Names and
aliases come from data/hardware.csv, through `benchbook.hardware`.
"""

from __future__ import annotations

import dataclasses
import math
import re
from dataclasses import dataclass, replace

import numpy as np

from benchbook import hardware, ingest
from benchbook.ingest import context


@dataclass(frozen=True)
class Peaks:
    """A device (or `count` identical devices: GPUs a run spans, CPU sockets its threads fill) and
    its peaks, each per device; None where the table has none. `source` says where the device came
    from: "parameter" or "detected" (None for `NO_DEVICE`). `variants`: where the name the input
    gives fits several rows of the table whose peaks differ (`hardware.variants`), (name, GB/s) of
    each, the device used (the highest peaks) first; its shares of a peak are then floors. Every
    chapter's device is one of these."""

    device: str | None
    bandwidth_gb_s: float | None
    tflops: dict
    source: str | None
    count: int = 1
    memory_gb: float | None = None
    llc_mb: float | None = None  # last-level cache
    threads: int | None = None  # a CPU's hardware threads
    variants: tuple = ()

    def peak_tflops(self, precision: str) -> float | None:
        """Dense peak (TFLOP/s or TOP/s) for `precision`, times `count`; fp16 stands in for bf16."""
        v = self.tflops.get(precision)
        if v is None and precision in ("bf16", "fp16"):
            v = self.tflops.get("fp16") or self.tflops.get("bf16")
        return None if v is None else v * self.count

    @property
    def dense_tflops(self) -> float | None:
        """The 16-bit dense peak of all `count` devices; a CPU's fp32 peak where it lists no 16-bit one."""
        return self.peak_tflops("bf16") or self.peak_tflops("fp32")

    @property
    def int8_tops(self) -> float | None:
        return self.peak_tflops("int8")

    def compute_peak(self, kind: str) -> float | None:
        """The peak a scheme computes on: "int8" or the dense 16-bit one."""
        return self.int8_tops if kind == "int8" else self.dense_tflops

    @property
    def total_bandwidth_gb_s(self) -> float | None:
        return None if self.bandwidth_gb_s is None else self.bandwidth_gb_s * self.count

    @property
    def total_memory_gb(self) -> float | None:
        return None if self.memory_gb is None else self.memory_gb * self.count

    @property
    def total_llc_mb(self) -> float | None:
        return None if self.llc_mb is None else self.llc_mb * self.count

    @property
    def total_threads(self) -> int | None:
        return None if self.threads is None else self.threads * self.count

    def ridge(self, precision: str | None = None) -> float | None:
        """FLOP per byte where the roofline turns from bandwidth to compute (`precision` None: the
        dense 16-bit peak)."""
        p = self.dense_tflops if precision is None else self.peak_tflops(precision)
        bw = self.total_bandwidth_gb_s
        return None if not p or not bw else ridge(p, bw)

    def share(self, achieved: float | None, of: str = "tflops") -> float | None:
        """`achieved` (TFLOP/s, or GB/s with `of="bandwidth"`) as a fraction of the run's peak;
        None where either is unknown."""
        peak = self.total_bandwidth_gb_s if of == "bandwidth" else self.dense_tflops
        if achieved is None or not peak or not math.isfinite(achieved):
            return None
        return achieved / peak


#: No device: neither the reader nor the input names one, and none is assumed.
NO_DEVICE = Peaks(None, None, {}, None)


def of_device(dev: hardware.Device, source: str, count: int = 1, label: str | None = None) -> Peaks:
    """The table device `dev` as `Peaks` (`count` of them), named `label` where given."""
    threads = dev.threads if dev.kind == "cpu" and dev.threads else None
    return Peaks(
        label or dev.name, dev.bandwidth_gb_s, dict(dev.peaks), source, count, dev.memory_gb, dev.llc_mb, threads
    )


def _device(name: str) -> hardware.Device | None:
    """The table device `name` is (a name or alias) or names (`hardware.detect`: its longest alias
    as whole words), else None."""
    return hardware.known(name) or hardware.detect(name)  # not a table name or alias: matched by words


#: A bracketed aside in a fact's value (`NVIDIA H200 (replacing our A100 80GB)`).
_ASIDE = re.compile(r"\([^()]*\)")


def _value_device(value: str) -> hardware.Device | None:
    """The table device a fact's value names. Where the name outside the brackets is a device and an
    aside in brackets names another (`H200 (replacing our A100 80GB)`), the aside says something beside
    the run's device, so the outside one is the value's; an aside that names none or the same part
    (`A100 (80GB)`, `Radeon Graphics (gfx1151)`) is part of the name."""
    value = value.replace("_", " ")
    outside = _device(" ".join(_ASIDE.sub(" ", value).split()) or "-")
    asides = [d for a in _ASIDE.findall(value) if (d := hardware.detect(a)) is not None]
    if outside is not None and any(d.name != outside.name for d in asides):
        return outside
    return _device(value)


def _alias(line: str) -> hardware.Device | None:
    """The table device a short line is the exact name or alias of (`A100 80GB`), else None."""
    line = line.strip(" #*`-")
    if not line or len(line) > 40:
        return None
    return hardware.known(line)


@dataclass(frozen=True)
class Named:
    """What a file's text says of its device (`ingest.context`): the table `device` and `count` it
    names, with the `fact` they were read from; else `unlisted`, a device it names that the hardware
    table lacks, or `sign`, a line that speaks of a device without a name this book can read. All
    None: no sign anywhere, the only case a page may call "names no device"."""

    device: str | None = None
    count: int = 1
    fact: context.Fact | None = None
    unlisted: context.Fact | None = None
    sign: context.Sign | None = None
    counted: bool = False  # the count is stated, not taken as 1
    several: tuple[str, ...] = ()  # the devices one line names side by side (`4×H800 and 4×H200`): no one is the run's
    headed: tuple[int, ...] = ()  # the lines of the headings that name `several`, one each, where they do
    alone: tuple[int, ...] = ()  # the lines that name `several`, each a device's name and nothing else, where they do
    listed: tuple[int, ...] = ()  # the lines of the list items that name `several`, one or more each, where they do
    #: (device named, its smXY, a run's printed compute_cap, that line) where the two differ: not the run's device
    architecture: tuple = ()


#: A line that counts the devices a machine has, not those a run used (`GPUs Available | 2 x L40S`):
#: context only, never the devices a run spans.
MACHINE_COUNT = re.compile(
    r"(?i)\b(?:gpus?|devices?|cards?|accelerators?)\W+(?:available|installed)\b"
    r"|\b(?:available|installed)\W+(?:\d+\s*x?\s*)?(?:gpus?|devices?|cards?|accelerators?)\b"
)  # the devices the machine has ("GPUs Available 2 x L40S"), not "Available KV cache memory in each GPU"
#: A count of the devices a run used: a line that says so (`GPUs Used | 1`, `one GPU ... is in use`).
USED_COUNT = re.compile(r"(?i)\b(?:used|in use|using)\b")


def _count(ctx: context.Context, fact: context.Fact) -> int:
    """The devices a device fact's run spans, which are the devices it used: a count on the
    device's own line (`4 x H100`) unless that line counts the devices the machine has (`GPUs
    Available`, `MACHINE_COUNT`), else the one count of used devices the file states (a command's
    `--gpus N`, a line that says `used`), else the one count an environment dump states
    (nvidia-smi's rows, ggml's `found N CUDA devices`), else 1. Before all of them, where no count of
    used devices is stated: the one count of every machine's devices (`5x servers, each with 8x MI300X`,
    `40 GPUs in total`) above the device line's own, which is then one machine's."""
    used = _used(ctx)
    same = [f.value for f in ctx.get("device_count") if f.line == fact.line and f.value > 0]
    total = _total(ctx, fact)
    if total is not None and used is None and (not same or total > same[0]):
        return total
    if same and not MACHINE_COUNT.search(fact.text):
        return same[0]
    if used is not None:
        return used
    dumped = {f.value for f in ctx.get("device_count") if f.source == "env-dump" and f.value > 0}
    if len(dumped) == 1:
        return dumped.pop()
    stated = _stated_count(ctx, fact) if fact.source == "prose" else None
    return stated or 1


def _total(ctx: context.Context, fact: context.Fact) -> int | None:
    """The one count of all machines' devices (scope "all GPUs") the file states of `fact`'s device, else None."""
    counts = {
        f.value
        for f in ctx.get("device_count")
        if f.scope == "all GPUs" and not MACHINE_COUNT.search(f.text) and not _of_another(ctx, f, fact)
    }
    return counts.pop() if len(counts) == 1 else None


def _stated_count(ctx: context.Context, fact: context.Fact) -> int | None:
    """For a device named in prose: the one count of devices the file states anywhere (a heading's
    `4 GPU pods`, `Each MI355X platform comes with 8 MI355X GPUs`), none of them on a line that counts
    the machine's devices or names another device than `fact`'s (a count of that one); else None."""
    counts = {
        f.value
        for f in ctx.get("device_count")
        if f.value > 0 and not MACHINE_COUNT.search(f.text) and not _of_another(ctx, f, fact)
    }
    return counts.pop() if len(counts) == 1 else None


def _of_another(ctx: context.Context, count: context.Fact, fact: context.Fact) -> bool:
    """Whether the line of `count` names a device other than `fact`'s (`Each DGX A100 comes with 8 A100
    GPUs` beside a run on an MI300X): its count is that device's."""
    return any(_kind(d) != _kind(fact) for d in ctx.get("device") if d.line == count.line)


def _used(ctx: context.Context) -> int | None:
    """The one count of devices used the file states (a command's flag, or a line saying `used`),
    else None (none, or counts that disagree)."""
    counts = {
        f.value
        for f in ctx.get("device_count")
        if f.value > 0 and (f.source == "command" or USED_COUNT.search(f.text)) and not MACHINE_COUNT.search(f.text)
    }
    return counts.pop() if len(counts) == 1 else None


def named(texts) -> Named:
    """The device the texts name, in `ingest.context`'s precedence (commands and metadata,
    environment dumps, labelled lines, then headings and lines that speak of GPUs), resolved
    against the hardware table; a line or short text that is itself a table name or alias counts
    too. Over several texts (a file and its runs' metadata), a device named with its count (`8x
    H100`) wins over one named without: it says how many devices the run spans."""
    found: list[Named] = []
    unlisted = sign = None
    for text in texts:
        text = str(text or "")
        ctx = ingest.context_of_text(text)
        headed = _headed(ctx, context.sections(text.splitlines()))
        if len(headed) > 1:  # sections per machine: which of them ran the run, the file does not say
            return Named(
                fact=headed[0][1], several=tuple(v for v, _ in headed), headed=tuple(f.line for _, f in headed)
            )
        hit = None
        for fact in [*ctx.get("device"), *ctx.headings]:
            beside = _beside(ctx, fact)
            if len(beside) > 1:  # which of them ran the run, the file does not say
                return Named(fact=fact, several=tuple(beside))
            items = _listed(ctx, fact)
            if len({v for v, _ in items}) > 1:  # a list of machines (`1. 2x H100 NVL`, `2. 1x H200`): likewise,
                names = tuple(dict.fromkeys(v for v, _ in items))
                # unless the headings name one of them (`### Build engine optimized for dual A100s`)
                picked = {label(h): h for h in (_heading_pick(f) for f in ctx.headings) if h and label(h) in names}
                if len(picked) == 1:
                    return next(iter(picked.values()))
                return Named(fact=fact, several=names, listed=tuple(dict.fromkeys(n for _, n in items)))
            d = _value_device(str(fact.value))
            if d is not None:
                hit = Named(d.name, _count(ctx, fact), fact, counted=_counted(ctx, fact))
                break
            if fact.name == "device" and unlisted is None:
                unlisted = fact
        hit = hit or _in_prose(ctx, text)
        if hit is not None:
            found.append(hit)
        sign = sign or context.states(ctx, "device").sign
    if found:
        return next((f for f in found if f.counted), found[0])
    return Named(unlisted=unlisted, sign=None if unlisted else sign)


def headed_at(text: str, lines) -> list[Named] | None:
    """Per line of `lines` (where a result block starts), the device the nearest heading above it
    names, as a write-up heads each machine's part (`### FP8 Benchmark on 16xH800`, later `### FP8
    Benchmark on 16xH200`): the block ran there. A heading of a higher level (fewer `#`) between the
    two closes that part: the block then takes what the whole file says (`named`). None where the
    file's headings (outside code blocks) name fewer than two devices, named the table's way or not:
    every block then takes the file's device."""
    rows = str(text or "").splitlines()
    ctx = ingest.context_of_text(str(text or ""))
    level = context.sections(rows)
    facts = _heading_devices(ctx, level)
    captioned = [_captioned(ctx, at) for at in lines]
    if len({_kind(f) for f in facts}) < 2 and not any(captioned):
        return None
    whole = named([text])
    out = []
    for at, cap in zip(lines, captioned, strict=True):
        if cap is not None:  # the caption of the block the result is in names its device: that block ran there
            out.append(_heading_named(ctx, cap))
            continue
        if len({_kind(f) for f in facts}) < 2:
            out.append(whole)
            continue
        above = [f for f in facts if f.line < at]
        f = max(above, key=lambda f: f.line) if above else None
        closed = f is not None and any(f.line < k < at and lv < level[f.line] for k, lv in level.items())
        out.append(_heading_named(ctx, f) if f is not None and not closed else whole)
    return out


def _captioned(ctx: context.Context, at) -> context.Fact | None:
    """The device the caption of the block holding line `at` names (`ingest.context`: the sentence right above
    a pasted output, `Sample output ..., with the FP8 model on H200:`, `**14B** full ... output (TP=1,
    MI300X):`, its facts labelling the block up to `until`), the nearest caption where several hold it; None
    where no caption over that block names a device, or `at` is no line."""
    if at is None or at != at:
        return None
    held = [f for f in ctx.get("device") if f.until is not None and f.line < int(at) <= f.until]
    return max(held, key=lambda f: f.line) if held else None


def _kind(fact: context.Fact) -> str:
    """A device fact as one machine: the table device it is, else its name as written."""
    d = _device(str(fact.value).replace("_", " "))
    return d.name if d is not None else re.sub(r"[^a-z0-9]+", "", str(fact.value).lower())


def _heading_named(ctx: context.Context, fact: context.Fact) -> Named:
    """What a heading that names a device says of the blocks under it: the table device (with the
    count on its line), two devices side by side (none chosen), or a device the table lacks."""
    beside = _beside(ctx, fact)
    if len(beside) > 1:
        return Named(fact=fact, several=tuple(beside))
    d = _device(str(fact.value).replace("_", " "))
    if d is None:
        return Named(unlisted=fact)
    return Named(d.name, _count(ctx, fact), fact, counted=_counted(ctx, fact))


def of_named(found: Named) -> Peaks | None:
    """The peaks of the device `found` names (`named`, `headed_at`), detected; a name several table
    rows fit takes the highest peaks and says so (`Peaks.variants`). None where it names none."""
    if found.device is None:
        return None
    dev = _device(found.device)
    fits = fits_of(found, dev)
    p = of_device(fits[0] if fits else dev, "detected", found.count)
    return dataclasses.replace(p, variants=tuple((d.name, d.bandwidth_gb_s) for d in fits)) if fits else p


def fits_of(found: Named, dev) -> list:
    """The table rows the name `found` reads could be (`hardware.variants`: `MI300`, AMD's series of the
    MI300A and the MI300X), highest peaks first, where `dev` is one of them; [] for a name of one row."""
    fits = hardware.variants(found.fact.text) if found.fact is not None else []
    return fits if dev is not None and dev.name in [d.name for d in fits] else []


def _headed(ctx: context.Context, level: dict[int, int]) -> list[tuple[str, context.Fact]]:
    """(as written, fact) of each distinct device the file's headings (`level`: outside code blocks)
    name, the table's or not, first line first: a write-up that heads one section `## GB10` and another
    `## GH200`, or `### Benchmark on 16xH800` and `### Benchmark on 16xH200`, ran its blocks on
    different machines."""
    found: dict[str, tuple[str, context.Fact]] = {}
    for f in _heading_devices(ctx, level):
        found.setdefault(_kind(f), (str(f.value).strip(" *_`"), f))
    return sorted(found.values(), key=lambda vf: vf[1].line)


def _heading_devices(ctx: context.Context, level: dict[int, int]) -> list[context.Fact]:
    """The device facts of the headings outside code blocks (`level`), first line first, and each
    other heading that is or names a table device (`## GB10 (DGX spark)`, as `named` reads a heading)."""
    facts = [f for f in ctx.get("device") if f.source == "heading" and f.line in level]
    lines = {f.line for f in facts}
    facts += [
        h
        for h in ctx.headings
        if h.line in level and h.line not in lines and _device(str(h.value).replace("_", " ")) is not None
    ]
    return sorted(facts, key=lambda f: f.line)


def _beside(ctx: context.Context, fact: context.Fact) -> list[str]:
    """The distinct devices a sentence or heading names side by side with `fact` (`4×H800 and 4×H200`),
    as written; labelled lines (`gpus=8xh100; hw=h100-dgxc`) name one device in several words."""
    if fact.name != "device" or fact.source not in ("prose", "heading"):
        return []
    same = [str(f.value) for f in ctx.get("device") if f.line == fact.line and f.source == fact.source]
    kinds = {}
    for v in same:
        d = _device(v.replace("_", " "))
        kinds.setdefault(d.name if d is not None else v, v)
    return list(kinds.values())


def _heading_pick(heading: context.Fact) -> Named | None:
    """The one device a heading names, with its count (`dual A100s`: 2 x A100), read from the heading's
    words alone (a table device, or one it names that the table has several rows of); None where it
    names none or several."""
    found = named([heading.text])
    if found.device is not None and found.fact is not None:
        return replace(found, fact=replace(found.fact, line=heading.line, source="heading"))
    if found.unlisted is not None:
        return replace(found, unlisted=replace(found.unlisted, line=heading.line, source="heading"))
    return None


#: A list item: `1. ...`, `2) ...`, `- ...`, `* ...`.
LIST_ITEM = re.compile(r"^\s*(?:\d+[.)]|[-*+])\s+\S")


def _listed(ctx: context.Context, fact: context.Fact) -> list[tuple[str, int]]:
    """(device, line) of every device the items of the list holding `fact` name, a device written as
    the table's row where it is one: a write-up that lists the machines it has (`1. 2x H100 NVL`,
    `4. 1x H200 NVL`, `8. 2x A100 SXM4`) names no one of them as the run's. Items are the list lines of
    one block (no more than one line apart); [] where `fact` is no list item."""
    if fact.name != "device" or fact.source != "prose" or not LIST_ITEM.match(fact.text):
        return []
    items = sorted((f.line, str(f.value)) for f in ctx.get("device") if f.source == "prose" and LIST_ITEM.match(f.text))
    block, out = [], []
    for line, value in items:
        if block and line - block[-1][0] > 2:
            if any(n == fact.line for n, _ in block):
                break
            block = []
        block.append((line, value))
    for line, value in block if any(n == fact.line for n, _ in block) else []:
        d = _device(value.replace("_", " "))
        out.append((d.name if d is not None else value, line))
    return out


def _in_prose(ctx: context.Context, text: str) -> Named | None:
    """A device named where no label says so: a line that speaks of a GPU (`run on a single L40s
    GPU`), a line that is a device's name and nothing else, or a short text that names one."""
    lines = text.splitlines()
    alone = [(k, line, d) for k, line in enumerate(lines, start=1) if (d := _alias(line)) is not None]
    names = list(dict.fromkeys(d.name for _, _, d in alone))
    if len(names) > 1:  # `RTX 4090` over one pasted block, `7900 XTX` over the next: no one device is every run's
        k, line, _ = alone[0]
        return Named(
            fact=context.Fact("device", names[0], k, "prose", line),
            several=tuple(names),
            alone=tuple(dict.fromkeys(k for k, _, _ in alone)),
        )
    signs = [s for s in ctx.signs if s.name == "device"]
    per_line = {n: sum(s.line == n for s in signs) for n in {s.line for s in signs}}
    for sign in signs:
        # the whole line: a sign keeps only its first 200 characters, and a write-up's device is often later
        whole = lines[sign.line - 1] if 0 < sign.line <= len(lines) else sign.text
        apart = hardware.named_apart(whole)
        if len(apart) > 1:  # a line listing several devices (`applicable to H200, H100, ...`) names no run's one
            return Named(fact=context.Fact("device", apart[0], sign.line, "prose", whole), several=tuple(apart))
        # `Unlike the RTX 4090 we tried`, or a line the reader found two devices on (`A100 80GB and H100`):
        # which ran the run, the line does not say; `can you check ... on b200` asks for a run
        if context.compares(whole) or context.asks(whole) or per_line[sign.line] > 1:
            continue
        d = hardware.detect(whole)
        if d is not None:
            fact = context.Fact("device", d.name, sign.line, "prose", whole)
            return Named(d.name, _count(ctx, fact), fact, counted=_counted(ctx, fact))
    if alone:
        k, line, d = alone[0]
        return Named(d.name, 1, context.Fact("device", d.name, k, "prose", line))
    if "\n" not in text and len(text) <= 100:  # a short device label, e.g. a table's GPU column
        d = _device(text.replace("_", " "))
        if d is not None:
            return Named(d.name, 1)
    return None


def _counted(ctx: context.Context, fact: context.Fact) -> bool:
    """Whether the file states how many devices `fact`'s run spans (see `_count`)."""
    same = any(f.line == fact.line for f in ctx.get("device_count")) and not MACHINE_COUNT.search(fact.text)
    dumped = {f.value for f in ctx.get("device_count") if f.source == "env-dump"}
    return (
        same
        or _used(ctx) is not None
        or _total(ctx, fact) is not None
        or len(dumped) == 1
        or (fact.source == "prose" and bool(_stated_count(ctx, fact)))
    )


def named_in_files(paths) -> dict[str, Named]:
    """Per file (by its name in the tidy table), what its text says of its device (`named`): for the
    chapters whose tool's table has no device column (vLLM bench latency and throughput)."""
    from pathlib import Path

    from benchbook import config
    from benchbook.ingest.vllm_serve import source_name

    return {
        source_name(Path(p)): named([config.resolve(p).read_text(encoding="utf-8", errors="replace")]) for p in paths
    }


def label(found: Named | None) -> str | None:
    """The device a `Named` names, as the table spells it, else as the file writes one the table lacks."""
    if found is None:
        return None
    return found.device or (str(found.unlisted.value) if found.unlisted is not None else None)


def said(found: Named) -> dict:
    """The evidence fields a claim's reason reads when no device was taken (`claims.rules.
    no_device_reason`): the family of table rows the file names (`hardware.family`), the device the
    file names that the table lacks and its line, the line that asks for a run on one, or the line that
    speaks of one unread; empty when
    the file names a table device or shows no sign."""
    if found.device is None and found.architecture:
        named, sm, cap, line = found.architecture
        return {
            "device_arch": named,
            "device_arch_line": found.fact.line if found.fact is not None else None,
            "device_arch_sm": sm,
            "device_arch_cap": cap,
            "device_arch_cap_line": line,
        }
    if found.device is None and found.several:
        where = f"side by side (line {found.fact.line})"
        if found.headed:  # one device a heading, each in its own section
            where = "in the headings of lines " + " and ".join(str(n) for n in found.headed)
        elif found.alone:  # each a label line of its own, as a write-up puts one over each pasted block
            where = "each alone on its line (lines " + " and ".join(str(n) for n in found.alone) + ")"
        elif found.listed:  # the items of one list, as a write-up lists the machines it has
            where = "in the items of a list (lines " + ", ".join(str(n) for n in found.listed) + ")"
        out = {
            "device_several": " and ".join(found.several),
            "device_several_line": found.fact.line,
            "device_several_where": where,
        }
        return {**out, "device_several_apart": True} if found.alone else out
    if found.device is None and found.unlisted is not None and hardware.family(str(found.unlisted.value)):
        # a family several rows of the table are (`H100`: PCIe, SXM5, NVL), their peaks apart: named, none chosen
        return {
            "device_family": str(found.unlisted.value),
            "device_family_line": found.unlisted.line,
            "device_family_rows": [d.name for d in hardware.family(str(found.unlisted.value))],
        }
    if found.device is None and found.unlisted is not None:
        # vLLM writes a device's name with `_` for spaces in its config file names (`device_name=`)
        return {
            "device_unlisted": str(found.unlisted.value).replace("_", " "),
            "device_unlisted_line": found.unlisted.line,
        }
    if found.device is None and found.sign is not None and context.asks(found.sign.text):
        # `can you check ... on b200`: where a run is asked for, not where this one ran
        return {"device_asked_line": found.sign.line}
    if found.device is None and found.sign is not None:
        # a sign with its words is one of several devices the file names, tied to no run: named, not unnamed
        words = {"device_sign_words": found.sign.words} if found.sign.words else {}
        return {"device_sign_line": found.sign.line, **words}
    return {}


def fits_said(found: Named) -> dict:
    """The name several table rows fit (`fits_of`: `MI300`) as the file writes it, and its line; {} otherwise."""
    if found.device is not None and fits_of(found, _device(found.device)):
        return {"device_fits": str(found.fact.value), "device_fits_line": found.fact.line}
    return {}


def detect(texts) -> tuple[str, int] | None:
    """(table name, device count) of the first device the texts name (`named`), else None."""
    found = named(texts)
    return (found.device, found.count) if found.device else None


def choose(gpu: str, texts, bandwidth_gb_s: float = 0.0, peak_tflops: float = 0.0) -> Peaks | None:
    """The device to measure against: `gpu` (a parameter) when given, else the one the texts name.
    A positive `bandwidth_gb_s` or `peak_tflops` replaces the table's figure (peak_tflops for every
    precision) and makes the source `parameter`. Nothing named and no peak given: None (a page about
    someone else's run assumes no device)."""
    p = None if gpu else of_named(named(texts))
    if not gpu and p is None:
        if bandwidth_gb_s <= 0 and peak_tflops <= 0:
            return None
        tf = {k: peak_tflops for k in hardware.PEAK_COLUMNS} if peak_tflops > 0 else {}
        return Peaks("device of the given peaks", bandwidth_gb_s if bandwidth_gb_s > 0 else None, tf, "parameter")
    if gpu:
        dev = _device(gpu)
        if dev is None:
            raise KeyError(f"unknown GPU {gpu!r}: not a name or alias in data/hardware.csv")
        p = of_device(dev, "parameter")
    count = p.count
    if bandwidth_gb_s > 0 or peak_tflops > 0:
        tf = {k: peak_tflops / count for k in hardware.PEAK_COLUMNS} if peak_tflops > 0 else p.tflops
        bw = bandwidth_gb_s / count if bandwidth_gb_s > 0 else p.bandwidth_gb_s
        p = Peaks(p.device, bw, tf, "parameter", count, p.memory_gb, p.llc_mb, p.threads)
    return p


#: Bytes per weight of each precision a run's weights are stored in (the element's width: the scales of
#: a block format add a little, so a block format's figure is a slight floor; GGUF's Q2..Q6 as int2..int6).
BYTES_PER_WEIGHT = {"fp32": 4.0, "bf16": 2.0, "fp16": 2.0, "fp8": 1.0, "int8": 1.0, "fp4": 0.5, "int4": 0.5}
BYTES_PER_WEIGHT |= {f"int{n}": n / 8 for n in (2, 3, 5, 6)}


def bytes_per_weight(precision: str) -> float:
    """Bytes per weight of `precision` ("int8 weight-only" reads 1 byte too); NaN when unknown."""
    return BYTES_PER_WEIGHT.get(str(precision).removesuffix(" weight-only"), math.nan)


def ridge(peak_tflops: float, peak_gb_s: float) -> float:
    """The ridge point in FLOP/byte: peak compute over peak bandwidth."""
    return peak_tflops * 1e12 / (peak_gb_s * 1e9)


def critical_batch(ridge_flop_per_byte: float, bytes_per_weight: float, flops_per_weight: float = 2.0) -> float:
    """The batch at which a decode step's intensity (`flops_per_weight` x batch / bytes per weight)
    meets the ridge: below it the weights' bytes set the pace, above it the FLOPs."""
    return ridge_flop_per_byte * bytes_per_weight / flops_per_weight


def device_ridge(d: hardware.Device, precision: str = "bf16") -> float | None:
    """A table device's ridge at `precision` (None where the table has no such peak)."""
    peak = d.peak(precision)
    return None if peak is None else ridge(peak, d.bandwidth_gb_s)


def lowest_ridge() -> tuple[float, str]:
    """(FLOP/byte, device) of the lowest ridge point of any device in the table, at its 16-bit peak or,
    for a device with none (a CPU), its FP32 peak: a step whose intensity is below it cannot be
    compute-bound on any of them, whichever device ran it."""
    ridges = [(device_ridge(d, "fp16") or device_ridge(d, "fp32"), d.name) for d in hardware.devices()]
    return min((r, n) for r, n in ridges if r)


def highest_ridge() -> tuple[float, str]:
    """(FLOP/byte, device) of the highest ridge point of any device in the table (16-bit peak, else
    FP32): a step whose intensity is above it is right of the ridge on every one of them."""
    ridges = [(device_ridge(d, "fp16") or device_ridge(d, "fp32"), d.name) for d in hardware.devices()]
    return max((r, n) for r, n in ridges if r)


def highest_dense_peak() -> tuple[float, str]:
    """(TFLOP/s, device) of the highest dense 16-bit peak of any device in the table: a 16-bit figure
    above it is beyond every device the table knows, whichever of them ran it (the bound where an
    input names no device the table has)."""
    return max((d.peak("bf16"), d.name) for d in hardware.devices() if d.peak("bf16"))


def highest_peak_any_precision() -> tuple[float, str]:
    """(TFLOP/s or TOP/s, device) of the highest dense peak at any precision (16-bit, int8, fp8, fp4) of any
    device in the table: a rate of FLOPs above it is beyond every device the table knows, whatever ran it and
    at whatever precision (the bound of a prompt rate where the input names no device)."""
    return max((max(d.peaks.values()), d.name) for d in hardware.devices() if d.peaks)


def attainable_tflops(intensity: np.ndarray | float, g, peak_tflops: float | None = None) -> np.ndarray:
    """The roofline: min(peak, bandwidth x intensity), in TFLOP/s, for intensity in FLOP/byte."""
    peak = g.fp16_tflops if peak_tflops is None else peak_tflops
    return np.minimum(peak, g.bandwidth_gb_s * 1e9 * np.asarray(intensity, dtype=float) / 1e12)


def achieved_bandwidth_gb_s(nbytes: float, seconds: float) -> float:
    """Achieved bandwidth (GB/s) of a step that must move `nbytes` (weights + KV cache) in `seconds`."""
    return nbytes / seconds / 1e9
