"""GenAI-Perf's GPU telemetry tables (`genai-perf profile --verbose` with a DCGM exporter), in the
energy contract: what the GPUs drew while GenAI-Perf drove the server.

How GenAI-Perf prints them (triton-inference-server/perf_analyzer, genai-perf
`export_data/telemetry_data_exporter_util.py`): one box per group, titled `NVIDIA GenAI-Perf |
Power Metrics` (then `Memory Metrics`, `Utilization Metrics`), holding one sub-table per metric
titled `<Name> (<unit>)`, a row per GPU index and a column per statistic (avg, min, max, p99, ...;
`N/A` for a constant metric's spread). What the numbers are (`metrics/telemetry_statistics.py`, and
the DCGM fields in genai-perf/docs/gpu_telemetry.md):

* GPU Power Usage (W, DCGM_FI_DEV_POWER_USAGE): statistics of the power samples over the run: `avg`
  is the mean power (scope GPU only), `max` the highest sample.
* GPU Power Limit (W): the board's power management limit, a cap and not a draw: set aside.
* Energy Consumption (MJ): DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION, a counter of the energy since
  boot (mJ, scaled by 1e-9): its statistics are readings of a running total, not the run's energy.
  The rise between its first and last reading (`max - min`) is the run's, kept only where the
  printed two decimals (10 kJ) resolve it (`aiperf_telemetry.CSV_RESOLUTION`), as for AIPerf's CSV.
* GPU Utilization (%): its `avg` is the mean utilisation.
* Memory tables: not in the energy contract.

Several GPUs: their powers and energies are summed (`aiperf_telemetry.combine`). The tables name
no device, model or load; a file with several Power Metrics boxes holds several runs. GenAI-Perf's
own metrics tables above them are the `genai-perf` parser's.
"""

from __future__ import annotations

import re

from benchbook.ingest import aiperf_telemetry, energy
from benchbook.ingest.core import Parsed, ParseError, Tool, register
from benchbook.ingest.text import Lines, search, split_n, whole

NAME = "genai-perf-telemetry"

#: A telemetry group's title (GenAI-Perf's TELEMETRY_GROUPS).
GROUP_TITLE = re.compile(r"NVIDIA GenAI-Perf \| (Power|Memory|Utilization) Metrics\s*$", re.M)
_SUBTITLE = re.compile(r"^([A-Za-z][A-Za-z ]*?) \(([^()]+)\)$")
#: Sub-table title -> the kind `aiperf_telemetry.combine` sums.
KINDS = {"GPU Power Usage": "power", "Energy Consumption": "energy", "GPU Utilization": "util"}
_ROW, _HEAD = "\u2502", "\u2503"  # │ ┃


def sniff(text: str | Lines) -> bool:
    return search(GROUP_TITLE, text)


def _inner(line: str) -> str:
    """A line of a group's box without its outer frame (`│ ... │`), or "" for a frame line."""
    s = line.strip()
    return s[1:-1].strip() if len(s) > 1 and s[0] == _ROW and s[-1] == _ROW else ""


def _cells(inner: str, sep: str) -> list[str]:
    return [c.strip() for c in inner.strip(sep).split(sep)]


def parse(text: str | Lines, source: str) -> Parsed:
    lines = split_n(whole(text))
    runs: list[dict] = []  # per Power Metrics box: its line and seen figures per kind
    records: list[dict] = []
    rejects: list[tuple[int, str, str]] = []
    cells = 0
    run = None
    metric = unit = header = None
    for n, line in enumerate(lines, start=1):
        if m := GROUP_TITLE.search(line):
            if m[1] == "Power" or run is None:
                run = {"line": n, "gpus": set(), "seen": {"power": [], "peak": [], "energy": [], "util": []}, "c": {}}
                runs.append(run)
            metric = header = None
            continue
        if run is None:
            continue
        inner = _inner(line)
        if (t := _SUBTITLE.match(inner)) and not inner.startswith((_ROW, _HEAD)):
            metric, unit, header = t[1], t[2], None
            continue
        if inner.startswith(_HEAD) and "GPU Index" in inner:
            header = _cells(inner, _HEAD)
            continue
        if not inner.startswith(_ROW) or metric is None:
            continue
        row = _cells(inner, _ROW)
        if header is None or len(row) != len(header):
            raise ParseError(source, n, f"a row of '{metric}' with {len(row)} cells under no header of as many")
        gpu = row[0]
        kind = KINDS.get(metric)
        for stat, raw in zip(header[1:], row[1:], strict=True):
            try:
                v = float(raw)
            except ValueError:
                continue
            cells += 1
            where = f"GPU {gpu} {metric} ({unit}) {stat}: {raw}"
            if kind == "power" and unit != "W" or kind == "energy" and unit != "MJ":
                rejects.append((n, where, f"unit {unit!r}, expected {'W' if kind == 'power' else 'MJ'}"))
            elif kind == "power" and stat == "avg":
                run["gpus"].add(gpu)
                run["seen"]["power"].append((n, v))
            elif kind == "power" and stat == "max":
                run["seen"]["peak"].append((n, v))
            elif kind == "util" and stat == "avg":
                run["seen"]["util"].append((n, v))
            elif kind == "energy" and stat in ("min", "max"):
                run["c"].setdefault(gpu, {})[stat] = (n, raw)
            elif kind == "energy":
                rejects.append((n, where, "a statistic of a cumulative energy counter's readings, not an energy"))
            elif metric == "GPU Power Limit":
                rejects.append((n, where, "the board's power limit: a cap, not a measured draw"))
            elif kind:
                rejects.append((n, where, f"statistic {stat} of {metric} is not in the energy contract"))
            else:
                rejects.append((n, where, f"GPU telemetry metric {metric} is not in the energy contract"))
    if not runs:
        raise ParseError(source, 1, "no GenAI-Perf telemetry table found")
    for r in runs:
        aiperf_telemetry.counter_rises(r["c"], r["seen"]["energy"], rejects, lambda gpu: f"GPU {gpu}")
        base = dict(
            run=f"telemetry at line {r['line']}" if len(runs) > 1 else "telemetry",
            model=None,
            device=None,
            device_count=float(len(r["gpus"])) if r["gpus"] else None,
            backend=None,
            batch_size=None,
            request_rate=None,
            interval="run",
        )

        def keep(metric, stat, value, unit, line, scope=None, note=None, base=base):
            records.append(
                dict(base, scope=scope, line=line, metric=metric, statistic=stat, value=value, unit=unit, note=note)
            )

        aiperf_telemetry.combine(r["seen"], max(len(r["gpus"]), 1), keep, rejects)
    if not any(r["scope"] for r in records):
        raise ParseError(source, runs[0]["line"], "GenAI-Perf telemetry without a power or energy reading")
    return energy.finish(TOOL, source, records, rejects, [], cells, "console")


TOOL = register(
    Tool(
        name=NAME,
        settings=energy.SETTINGS,
        sniff=sniff,
        parse=parse,
        description="GenAI-Perf GPU telemetry tables (--verbose with a DCGM exporter: power per GPU index, "
        "the energy counter, utilisation)",
        command="genai-perf profile -m MODEL --server-metrics-urls http://localhost:9400/metrics --verbose",
        metrics={m: energy.METRICS[m] for m in ("energy", "mean_power", "peak_power")},
    )
)
