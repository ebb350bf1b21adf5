"""NVIDIA AIPerf's GPU telemetry (`telemetry_data` in `profile_export_aiperf.json`), in the energy
contract: what the GPUs drew while AIPerf drove the server.

AIPerf scrapes a DCGM exporter (or pynvml) during the run and exports, per GPU, the statistics of
each sampled field (`telemetry_data.endpoints.<host:port>.gpus.gpu_<i>.metrics.<field>`: `avg`,
`min`, `max`, percentiles, `std`, `count`, `unit`), with the collection window in
`telemetry_data.summary` (`start_time`, `end_time`). Schema 1.5 renamed the fields `nvidia_*` /
`amd_*`; both spellings are read.

What the numbers are (AIPerf's docs, docs/tutorials/gpu-telemetry.md and
docs/reference/json-export-schema.md):

* `gpu_power_usage` (W, DCGM_FI_DEV_POWER_USAGE) is sampled board power: its `avg` is the mean power
  over the samples (scope GPU only), its `max` the highest sample.
* `energy_consumption` (MJ) samples DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION, a counter of the energy
  since the driver loaded: its `avg` and percentiles are statistics of readings of a running total,
  not energies of the run. The energy drawn between the first and the last sample is `max - min`
  (the counter only rises), which is what this parser keeps.
* The window is the telemetry collection's (it can start before the first request and end after
  the last); the request counts and throughputs beside it cover AIPerf's profiling phase. A figure
  per token formed from both is therefore an approximation, which the page says.

Newer exports also print AIPerf's own totals (`total_gpu_energy`, J: the counters' deltas over the
benchmark phase, all GPUs; `output_tokens_per_joule`; `nvidia_`-prefixed from schema 1.5): where
present, that energy is kept instead of the counter's rise over the longer telemetry window.

Tokens and requests come from the same export's serving records where the file has them
(`request_count`, `total_osl` incl. reasoning tokens, `total_isl`, the two throughputs); the rest of
the serving metrics belong to the `aiperf` tool. AIPerf measures no idle power: none is emitted.
Several GPUs: their powers and energies are summed (a peak of the sum is unknown, so no peak).
"""

from __future__ import annotations

import math
import re
from datetime import datetime

from benchbook.ingest import aiperf, energy
from benchbook.ingest.core import Parsed, ParseError, Tool, register
from benchbook.ingest.text import Lines, contains, csv_rows, first_char, json_object, search, whole

NAME = "aiperf-telemetry"

#: Telemetry field names (legacy and schema 1.5 vendor-scoped) of the fields this parser reads.
POWER = ("gpu_power_usage", "nvidia_power_usage", "amd_power_usage")
ENERGY = ("energy_consumption", "nvidia_energy_consumption", "amd_energy_consumption")
UTILISATION = ("gpu_utilization", "nvidia_gpu_utilization", "amd_gpu_utilization")
#: Energy units of the counter -> joules.
TO_J = {"MJ": 1e6, "kJ": 1e3, "J": 1.0, "mJ": 1e-3}
#: Serving record (AIPerf tag) -> (contract metric, unit, note): the counts a figure per token or
#: per request divides by.
SERVED = {
    "request_count": ("requests", "req", "AIPerf request_count (profiling phase)"),
    "total_osl": ("output_tokens", "tok", "AIPerf total_osl: output tokens incl. reasoning tokens (profiling phase)"),
    "total_isl": ("prompt_tokens", "tok", "AIPerf total_isl (profiling phase)"),
    "output_token_throughput": ("output_throughput", "tok/s", "AIPerf output_token_throughput (profiling phase)"),
    "request_throughput": ("request_throughput", "req/s", "AIPerf request_throughput (profiling phase)"),
}


#: The GPU telemetry section of `profile_export_aiperf.csv` (after the metric sections).
_CSV_HEADER = re.compile(r"(?m)^Endpoint,GPU_Index,GPU_Name,GPU_UUID,Metric,")
#: A Markdown code fence (```, ~~~), which closes a section pasted into a page.
_FENCE = re.compile(r"^\s*(?:```|~~~)")
#: That header followed by a row: AIPerf writes the header even when it scraped no GPU (the JSON of
#: the same run then has `telemetry_data.endpoints: {}`), and a header alone holds no telemetry.
_CSV_SECTION = re.compile(r"(?m)^Endpoint,GPU_Index,GPU_Name,GPU_UUID,Metric,[^\r\n]*\r?\n[ \t]*\S")
#: CSV metric labels (AIPerf's headers) -> the field kinds read here.
CSV_LABELS = {"GPU Power Usage (W)": "power", "Energy Consumption (MJ)": "energy", "GPU Utilization (%)": "util"}
#: The counter's rise is kept from a CSV only when its printed resolution is under this share of it.
CSV_RESOLUTION = 0.05


def sniff(text: str | Lines) -> bool:
    if first_char(text) == "{":
        return contains('"telemetry_data"', text) and any(contains(f'"{k}"', text) for k in POWER)
    return search(_CSV_SECTION, text)


def _gpus(obj: dict) -> list[tuple[str, dict]]:
    tel = obj.get("telemetry_data") if isinstance(obj.get("telemetry_data"), dict) else {}
    ends = tel.get("endpoints") if isinstance(tel.get("endpoints"), dict) else {}
    out = []
    for host, ep in ends.items():
        gpus = ep.get("gpus") if isinstance(ep, dict) and isinstance(ep.get("gpus"), dict) else {}
        out += [(f"{host}/{gid}", g) for gid, g in gpus.items() if isinstance(g, dict)]
    return out


def _field(metrics: dict, names: tuple[str, ...]) -> tuple[str | None, dict]:
    for n in names:
        if isinstance(metrics.get(n), dict):
            return n, metrics[n]
    return None, {}


def _num(v) -> float | None:
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) else None


def _window(obj: dict) -> float | None:
    """Seconds between the telemetry summary's start_time and end_time."""
    summ = (obj.get("telemetry_data") or {}).get("summary")
    try:
        start, end = (datetime.fromisoformat(summ[k]) for k in ("start_time", "end_time"))
    except (TypeError, KeyError, ValueError):
        return None
    s = (end - start).total_seconds()
    return s if s > 0 else None


def _line(text: str, key: str, after: int = 0) -> tuple[int, int]:
    at = text.find(f'"{key}"', after)
    at = at if at >= 0 else after
    return text.count("\n", 0, at) + 1, at


def combine(seen: dict[str, list[tuple[int, float]]], n: int, keep, rejects: list) -> None:
    """One row per figure from the n GPUs' values (`seen[kind]`: (line, value) per GPU): powers and
    energies summed, utilisation averaged, the peak only for one GPU; the other GPUs' values are
    rejected as combined into that row (or, where a GPU lacks the figure, all of them, as no total)."""
    several = f" (sum over {n} GPUs)" if n > 1 else ""

    def one(kind, metric, stat, unit, scope, note, combine=sum):
        vals = seen[kind]
        if not vals or len(vals) != n:
            rejects.extend((ln, f"{kind}: {v}", "not given for every GPU, so no total") for ln, v in vals)
            return
        keep(metric, stat, combine(v for _, v in vals), unit, vals[0][0], scope, note)
        rejects.extend((ln, f"{kind}: {v}", "combined with the first GPU's into one row") for ln, v in vals[1:])

    one("power", "mean_power", "mean", "W", "gpu", f"mean of the samples{several}")
    if n == 1:
        one("peak", "peak_power", "max", "W", "gpu", "highest sample")
    else:
        why = "the peak of a sum of GPUs is not the sum of their peaks"
        rejects.extend((ln, f"power max: {v}", why) for ln, v in seen["peak"])
    note = "energy counter's rise between the first and the last sample (max - min)" + several
    one("energy", "energy", "value", "J", "gpu", note)
    mean_note = "mean over the GPUs" if n > 1 else "mean of the samples"
    one("util", "gpu_utilization", "mean", "%", None, mean_note, lambda xs: sum(xs) / n)


def counter_rises(counters: dict, energy: list, rejects: list, name) -> None:
    """Each GPU's energy counter rise (max - min of its printed `(line, text)` readings, MJ -> J), kept in
    `energy` where the printed decimals resolve it; `name(gpu)` labels the readings set aside."""
    for gpu, c in counters.items():
        if set(c) != {"min", "max"}:
            rejects += [
                (ln, f"{name(gpu)} energy {k}: {raw}", "min and max not both given") for k, (ln, raw) in c.items()
            ]
            continue
        (ln, lo), (_, hi) = c["min"], c["max"]
        step = 10.0 ** -max(len(lo.partition(".")[2]), len(hi.partition(".")[2]))
        rise = float(hi) - float(lo)
        if rise > 0 and step < CSV_RESOLUTION * rise:
            energy.append((ln, rise * 1e6))
            rejects.append((ln, f"{name(gpu)} energy min: {lo}", "the counter's first reading, subtracted"))
        else:
            why = f"printed to {step:g} MJ: a rise of {rise:g} MJ is not known to better than {step:g} MJ"
            rejects += [(ln2, f"{name(gpu)} energy {k}: {raw}", why) for k, (ln2, raw) in c.items()]


def parse(text: str | Lines, source: str) -> Parsed:
    text = whole(text).replace("\r\n", "\n")
    if first_char(text) != "{" and _CSV_HEADER.search(text):
        return _parse_csv(text, source)
    obj = json_object(
        text,
        source,
        "not valid JSON (AIPerf telemetry_data)",
        "expected one JSON object (AIPerf profile_export_aiperf.json)",
    )
    gpus = _gpus(obj)
    if not gpus:
        raise ParseError(source, 1, "no GPU under telemetry_data.endpoints: no GPU telemetry to read")
    cfg = obj.get("input_config") if isinstance(obj.get("input_config"), dict) else {}
    names = ((cfg.get("endpoint") or {}).get("model_names") if isinstance(cfg.get("endpoint"), dict) else None) or []
    loadgen = cfg.get("loadgen") if isinstance(cfg.get("loadgen"), dict) else {}
    kinds = list(dict.fromkeys(str(g.get("gpu_name")) for _, g in gpus if g.get("gpu_name")))
    base = dict(
        run="aiperf",
        model=str(names[0]) if names and isinstance(names[0], str) else None,
        device=kinds[0] if len(kinds) == 1 else ", ".join(kinds) or None,
        device_count=float(len(gpus)),
        backend=None,
        batch_size=None,
        request_rate=_num(loadgen.get("request_rate")),
        interval="run",
    )
    records: list[dict] = []
    rejects: list[tuple[int, str, str]] = []
    messages: list[str] = []

    def keep(metric, stat, value, unit, line, scope=None, note=None):
        records.append(
            dict(base, scope=scope, line=line, metric=metric, statistic=stat, value=value, unit=unit, note=note)
        )

    at = max(text.find('"telemetry_data"'), 0)
    first_line = text.count("\n", 0, at) + 1
    #: per kept figure: [(line, value)] one per GPU, summed (or averaged) into one row below
    seen: dict[str, list[tuple[int, float]]] = {"power": [], "peak": [], "energy": [], "util": []}
    for gid, g in gpus:
        metrics = g.get("metrics") if isinstance(g.get("metrics"), dict) else {}
        read = {n for n, _ in (_field(metrics, POWER), _field(metrics, ENERGY), _field(metrics, UTILISATION)) if n}
        counter: dict[str, tuple[int, float]] = {}
        for name, m in metrics.items():
            ln, at = _line(text, name, at)
            for k, v in m.items() if isinstance(m, dict) else []:
                if _num(v) is None:
                    continue
                where = f"{gid}.{name}.{k}: {v}"
                if name in POWER and k == "avg":
                    seen["power"].append((ln, float(v)))
                elif name in POWER and k == "max":
                    seen["peak"].append((ln, float(v)))
                elif name in UTILISATION and k == "avg":
                    seen["util"].append((ln, float(v)))
                elif name in ENERGY and k in ("min", "max"):
                    counter[k] = (ln, float(v))
                elif name in ENERGY:
                    rejects.append((ln, where, "a statistic of a cumulative energy counter's readings, not an energy"))
                elif name in read:
                    rejects.append((ln, where, f"statistic {k} of {name} is not in the energy contract"))
                else:
                    rejects.append((ln, where, f"GPU telemetry field {name} is not in the energy contract"))
        e_name, e = _field(metrics, ENERGY)
        scale = TO_J.get(str(e.get("unit", "")))
        if "min" in counter and "max" in counter and scale is not None and counter["max"][1] >= counter["min"][1]:
            ln = counter["min"][0]
            seen["energy"].append((ln, (counter["max"][1] - counter["min"][1]) * scale))
            rejects.append((ln, f"{gid}.{e_name}.min: {counter['min'][1]}", "the counter's first reading, subtracted"))
        else:
            why = f"unit {e.get('unit')!r} unknown" if scale is None else "min and max not both given, or max below min"
            rejects += [
                (ln, f"{gid}.{e_name}.{k}: {v}", f"energy counter not read: {why}") for k, (ln, v) in counter.items()
            ]
    combine(seen, len(gpus), keep, rejects)
    window = _window(obj)
    if window is not None:
        keep("duration", "value", window, "s", first_line, None, "telemetry window (summary start_time to end_time)")
    for tag, (metric, unit, note) in SERVED.items():
        recs = obj.get("records") if isinstance(obj.get("records"), dict) else {}
        m = obj.get(tag) if isinstance(obj.get(tag), dict) else recs.get(tag)
        v = _num(m.get("avg")) if isinstance(m, dict) else None
        if v is not None:
            keep(metric, "value", v, unit, _line(text, tag)[0], None, note)
    _own_totals(obj, text, records, rejects, keep)
    if not any(r["scope"] for r in records):
        raise ParseError(source, first_line, "GPU telemetry without power or energy readings")
    if window is not None and not seen["energy"]:
        messages.append(
            f"{source}: no energy counter in the telemetry; energy per token is formed from the mean power "
            "over the telemetry window and the profiling phase's throughput"
        )
    return energy.finish(TOOL, source, records, rejects, messages, None, _version(obj))


def _parse_csv(text: str, source: str) -> Parsed:
    """The GPU telemetry section of `profile_export_aiperf.csv`: one row per GPU and field, numbers
    rounded to 2 decimals. The energy counter is printed in MJ, so its rise is kept only where 0.01 MJ
    is under CSV_RESOLUTION of it. Counts and throughputs come from the serving sections (the
    `aiperf` parser's reading of the same file), where there are any."""
    lines = text.split("\n")
    h = next(i for i, ln in enumerate(lines) if _CSV_HEADER.match(ln))
    # the section ends at its blank line, or at the fence of a page that pasted it in a code block (AIPerf
    # writes no backticks): a fence is no GPU's row
    end = next((i for i in range(h + 1, len(lines)) if not lines[i].strip() or _FENCE.match(lines[i])), len(lines))
    table = csv_rows(lines[h:end], source, h + 1)
    if len(table) == 1:
        raise ParseError(source, h + 1, aiperf.EMPTY_TELEMETRY)
    header = table[0]
    records: list[dict] = []
    rejects: list[tuple[int, str, str]] = []
    seen: dict[str, list[tuple[int, float]]] = {"power": [], "peak": [], "energy": [], "util": []}
    gpus: dict[tuple[str, str], str] = {}
    counters: dict[tuple[str, str], dict[str, tuple[int, str]]] = {}
    for ln, row in enumerate(table[1:], start=h + 2):
        cells = dict(zip(header, row, strict=False))
        gpu = (cells.get("Endpoint", ""), cells.get("GPU_Index", ""))
        gpus[gpu] = cells.get("GPU_Name", "")
        label = cells.get("Metric", "")
        kind = CSV_LABELS.get(label)
        for k in header[5:]:
            raw = (cells.get(k) or "").strip()
            if _num_text(raw) is None:
                continue
            v = float(raw)
            where = f"{'/'.join(gpu)}.{label}.{k}: {raw}"
            if kind == "power" and k == "avg":
                seen["power"].append((ln, v))
            elif kind == "power" and k == "max":
                seen["peak"].append((ln, v))
            elif kind == "util" and k == "avg":
                seen["util"].append((ln, v))
            elif kind == "energy" and k in ("min", "max"):
                counters.setdefault(gpu, {})[k] = (ln, raw)
            elif kind == "energy":
                rejects.append((ln, where, "a statistic of a cumulative energy counter's readings, not an energy"))
            elif kind:
                rejects.append((ln, where, f"statistic {k} of {label} is not in the energy contract"))
            else:
                rejects.append((ln, where, f"GPU telemetry field {label} is not in the energy contract"))
    counter_rises(counters, seen["energy"], rejects, lambda gpu: "/".join(gpu))
    kinds = list(dict.fromkeys(n for n in gpus.values() if n))
    base = dict(
        run="aiperf",
        model=None,
        device=kinds[0] if len(kinds) == 1 else ", ".join(kinds) or None,
        device_count=float(len(gpus)),
        backend=None,
        batch_size=None,
        request_rate=None,
        interval="run",
    )

    def keep(metric, stat, value, unit, line, scope=None, note=None):
        records.append(
            dict(base, scope=scope, line=line, metric=metric, statistic=stat, value=value, unit=unit, note=note)
        )

    combine(seen, len(gpus), keep, rejects)
    _served_from_csv(text, source, keep)
    if not any(r["scope"] for r in records):
        raise ParseError(source, h + 1, "GPU telemetry without power or energy readings")
    return energy.finish(TOOL, source, records, rejects, [], None, "csv")


#: The `aiperf` parser's serving metric -> (contract metric, unit) of the counts read from a CSV.
_CSV_SERVED = {
    "completed": ("requests", "req"),
    "total_generated_tokens": ("output_tokens", "tok"),
    "total_input_tokens": ("prompt_tokens", "tok"),
    "output_throughput": ("output_throughput", "tok/s"),
    "request_throughput": ("request_throughput", "req/s"),
}


def _served_from_csv(text: str, source: str, keep) -> None:
    """The counts and throughputs of the file's serving sections (the `aiperf` reading), where it has any:
    the CSV itself, or its sections a page pasted in code fences (`_fenced_sections`)."""
    lines = None
    if not aiperf.sniff(text):
        text, lines = _fenced_sections(text)
        if not text or not aiperf.sniff(text):
            return
    try:
        t = aiperf.parse(text, source).table
    except ParseError:
        return
    for metric, (name, unit) in _CSV_SERVED.items():
        d = t[(t["metric"] == metric) & t["statistic"].isin(["count", "value"])]
        if len(d):
            r = d.iloc[0]
            line = int(r["line"]) if lines is None else lines[int(r["line"]) - 1]
            keep(name, "value", float(r["value"]), unit, line, None, f"AIPerf {metric} (the `aiperf` reading)")


def _fenced_sections(text: str) -> tuple[str, list[int]]:
    """The serving sections of `profile_export_aiperf.csv` a page pasted one per code fence (AIPerf's docs
    show them so), joined as AIPerf writes them, a blank line between sections, with each joined line's line
    in the page: ("", []) where no fence opens with a section's `Metric,` header."""
    out: list[str] = []
    at: list[int] = []
    rows = text.split("\n")
    i = 0
    while i < len(rows):
        if _FENCE.match(rows[i]) and i + 1 < len(rows) and rows[i + 1].startswith("Metric,"):
            if out:
                out.append("")
                at.append(i + 1)
            j = i + 1
            while j < len(rows) and not _FENCE.match(rows[j]):
                out.append(rows[j])
                at.append(j + 1)
                j += 1
            i = j
        i += 1
    return "\n".join(out), at


def _num_text(raw: str) -> float | None:
    try:
        v = float(raw)
    except ValueError:
        return None
    return v if math.isfinite(v) else None


#: AIPerf's own efficiency metrics (2026 exports; `nvidia_` / `amd_` prefixed from schema 1.5): the GPUs'
#: energy over the benchmark phase from the counters' deltas (J), and output tokens over it (tokens/J).
OWN = {
    "energy": ("total_gpu_energy", "nvidia_total_gpu_energy", "amd_total_gpu_energy"),
    "tokens_per_joule": ("output_tokens_per_joule", "nvidia_output_tokens_per_joule", "amd_output_tokens_per_joule"),
}
OWN_UNITS = {"energy": ("J", "J"), "tokens_per_joule": ("tokens/J", "tok/J")}


def _own_totals(obj: dict, text: str, records: list[dict], rejects: list, keep) -> None:
    """AIPerf's own GPU energy over the benchmark phase, where the export has it, in place of the
    counter's rise over the telemetry window (a longer window); its tokens per joule beside it."""
    recs = obj.get("records") if isinstance(obj.get("records"), dict) else {}
    for metric, tags in OWN.items():
        for tag in tags:
            m = obj.get(tag) if isinstance(obj.get(tag), dict) else recs.get(tag)
            v = _num(m.get("avg")) if isinstance(m, dict) else None
            if v is None:
                continue
            ln = _line(text, tag)[0]
            printed, unit = OWN_UNITS[metric]
            if str(m.get("unit")) != printed:
                rejects.append((ln, f"{tag}: {v}", f"unit {m.get('unit')!r}, expected {printed!r}"))
                break
            if metric == "energy":
                for r in [r for r in records if r["metric"] == "energy"]:
                    records.remove(r)
                    rejects.append((r["line"], f"counter rise: {r['value']}", f"AIPerf's own {tag} is kept instead"))
            keep(metric, "value", v, unit, ln, "gpu", f"AIPerf {tag} (benchmark phase, all GPUs)")
            break


def _version(obj: dict) -> str | None:
    v = obj.get("schema_version")
    return f"schema {v}" if isinstance(v, str) and re.fullmatch(r"\d+(\.\d+)*", v) else None


TOOL = register(
    Tool(
        name=NAME,
        settings=energy.SETTINGS,
        sniff=sniff,
        parse=parse,
        description="NVIDIA AIPerf GPU telemetry (telemetry_data of profile_export_aiperf.json: DCGM board power "
        "and energy counter per GPU)",
        command="aiperf profile --model MODEL --url URL --gpu-telemetry [DCGM_URL] (profile_export_aiperf.json)",
        metrics={m: energy.METRICS[m] for m in ("energy", "mean_power", "peak_power", "duration", "output_tokens")},
    )
)
