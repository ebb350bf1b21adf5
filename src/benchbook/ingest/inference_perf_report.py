"""The "Inference-Perf Benchmark Report" (`benchmark_report.md`) that llm-d-kv-cache-manager's analysis script
writes from inference-perf's `stage_N_lifecycle_metrics.json` files, read in inference-perf's serving contract.

The script (its `aggregate_per_qps`) groups the stage files by (experiment, requested_qps): the experiment is
the folder each run's files sit under (one scheduler configuration, say `precise-scheduling`), the QPS the
stage's `load_summary.requested_rate`. Under `## Per-QPS Results`, one `### QPS = N` table per rate, one row
per experiment: `Output toks/s` (the stage files' `output_tokens_per_sec`, their mean), `Requests/s`
(`completed_rps`: by default (successes + failures) / the stages' send duration), `Success Rate` (successes /
(successes + failures), printed `{:.2%}`; some reports leave the column out), `TTFT p90 (s)`, `TTFT mean (s)`,
`ITL mean (s)` (the stage files' statistics, their mean) and `ITL p50/ p90 (s)` (two numbers in one cell).
The script prints no count of requests (sent, succeeded or failed) anywhere in the report.

Mapping: each row is one run, its experiment a deployment of its own (`deployment=<experiment>` in the
metadata: each experiment is a sweep of its own, never a repeat of another's), its `QPS` the `request_rate`
setting; `Output toks/s` -> `output_throughput` (tok/s), `Requests/s` -> `request_throughput` (req/s),
`TTFT p90` / `TTFT mean` -> `ttft` p90 / mean, `ITL mean` -> `itl` mean, in ms (converted from s); `Success
Rate` -> `success_rate` (%, as printed: a share of a count the report does not print, so no count of failed
requests, `claims.serving.failed` says what it gives). Set aside, each with its reason: the `ITL p50/ p90` pair, every number of `### Summary
across QPS` (each experiment's stages pooled over every QPS) and of the EPP queue / KV-cache table (the
router's metrics, not in the serving contract). The model is the workload profile's `server.model_name`.
"""

from __future__ import annotations

import re

from benchbook.ingest.text import Lines, split_n

#: The format's name (`Tool.carries`).
FORMAT = "inference-perf benchmark report (markdown)"
#: What the report records: no count of requests sent, completed or failed, no concurrency cap.
CARRIES = frozenset({"model", "request_rate", "ttft", "itl", "request_throughput", "output_throughput", "success_rate"})

_TITLE = re.compile(r"^#\s+Inference-Perf Benchmark Report\s*$")
_QPS = re.compile(r"^#{2,4}\s+QPS\s*=\s*(\d+(?:\.\d+)?)\s*$")
_SUMMARY = re.compile(r"^#{2,4}\s+Summary across QPS\b", re.I)
_HEADING = re.compile(r"^#{1,6}\s")
_MODEL = re.compile(r"^\s*model_name:\s*['\"]?([^\s'\"#]+)")
_NUMBER = re.compile(r"^-?\d+(?:\.\d+)?$")
_PERCENT = re.compile(r"^(\d+(?:\.\d+)?)\s*%$")
_PAIR = re.compile(r"^-?\d+(?:\.\d+)?\s*/\s*-?\d+(?:\.\d+)?$")

#: Column header -> (metric, statistic, unit, scale to the table's unit).
COLUMNS = {
    "output toks/s": ("output_throughput", "value", "tok/s", 1.0),
    "requests/s": ("request_throughput", "value", "req/s", 1.0),
    "ttft p90 (s)": ("ttft", "p90", "ms", 1000.0),
    "ttft mean (s)": ("ttft", "mean", "ms", 1000.0),
    "itl mean (s)": ("itl", "mean", "ms", 1000.0),
}
NOTES = {
    "request_throughput": "completed_rps: (successes + failures) / the stages' send duration, as the script's "
    "default --served-mode total counts it",
    "output_throughput": "the stage files' output_tokens_per_sec (their mean over the stages at this QPS)",
    "ttft": "converted from s; the stage files' statistic (their mean over the stages at this QPS)",
    "itl": "converted from s; the stage files' statistic (their mean over the stages at this QPS)",
    "success_rate": "successes / (successes + failures) of the stages at this QPS, printed to 0.01 %; the report "
    "prints no count of requests",
}
PAIR = "ITL p50 and p90 printed as one cell (`p50/p90`), set aside"
SUMMARY = "the summary across QPS: each experiment's stages pooled over every QPS, not one load level"
OTHER = "not a per-QPS serving metric (EPP queue / KV-cache metrics of the router)"


def sniff(text: str | Lines) -> bool:
    """The report's title on its first non-empty line and a `### QPS = N` table heading."""
    lines = split_n(text)
    first = next((x for x in lines if x.strip()), "")
    return bool(_TITLE.match(first)) and any(_QPS.match(x) for x in lines)


def _cells(line: str) -> list[str] | None:
    s = line.strip()
    if not (s.startswith("|") and s.endswith("|")):
        return None
    return [c.strip() for c in s[1:-1].split("|")]


def _rule(cells: list[str]) -> bool:
    return all(re.fullmatch(r":?-{3,}:?", c) for c in cells)


def model(lines) -> str | None:
    """The workload profile's `server.model_name` (inference-perf's config), the first the file states."""
    for x in lines:
        m = _MODEL.match(x)
        if m:
            return m.group(1)
    return None


def read(text: str | Lines, settings_base: dict):
    """(records, rejects) of the report: one run per per-QPS row, each number of the other tables set aside."""
    lines = split_n(text)
    the_model = model(lines)
    records: list[dict] = []
    rejects: list[tuple[int, str, str]] = []
    qps: float | None = None
    section = None  # "qps", "summary" or "other"
    header: list[str] | None = None
    for i, line in enumerate(lines):
        n = i + 1
        if _HEADING.match(line):
            m = _QPS.match(line.strip())
            qps = float(m.group(1)) if m else None
            section = "qps" if m else ("summary" if _SUMMARY.match(line.strip()) else "other")
            header = None
            continue
        cells = _cells(line)
        if cells is None:
            header = None if line.strip() else header
            continue
        if header is None:
            header = [c.lower() for c in cells]
            continue
        if _rule(cells):
            continue
        label = cells[0]
        if len(cells) != len(header):  # a ragged row: which column a cell is under is not known
            why = f"a row of {len(cells)} cells under a header of {len(header)}"
            rejects.extend((n, f"{label}: {c}"[:80], why) for c in cells[1:] if c)
            continue
        for col, cell in zip(header[1:], cells[1:], strict=True):
            if not cell:
                continue
            shown = f"{label} | {col}: {cell}"[:80]
            if section != "qps" or qps is None:
                if _NUMBER.match(cell) or _PERCENT.match(cell) or "/" in cell:
                    rejects.append((n, shown, SUMMARY if section == "summary" else OTHER))
                continue
            rate = _PERCENT.match(cell) if col == "success rate" else None
            if (col in COLUMNS and _NUMBER.match(cell)) or rate:
                metric, stat, unit, scale = COLUMNS[col] if not rate else ("success_rate", "value", "%", 1.0)
                records.append(
                    {
                        **settings_base,
                        "run": f"{label}, QPS {qps:g}",
                        "model": the_model,
                        "request_rate": qps,
                        "metadata": f"deployment={label}",
                        "line": n,
                        "metric": metric,
                        "statistic": stat,
                        "value": float(rate.group(1) if rate else cell) * scale,
                        "unit": unit,
                        "note": NOTES.get(metric),
                    }
                )
            elif _PAIR.match(cell):
                rejects.append((n, shown, PAIR))
            else:
                rejects.append((n, shown, f"{col}: not a column of the serving contract"))
    return records, rejects
