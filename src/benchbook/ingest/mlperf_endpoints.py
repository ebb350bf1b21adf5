"""MLPerf Inference Endpoints' `report.txt`, read into the LoadGen summary's tidy names (`mlperf` finishes it).

MLCommons' endpoints harness (the successor of LoadGen's Python harness for LLMs, whose reports the v6.1
results hold beside each run) writes `Report.display` (metrics/report.py): a `Summary` banner, `Version:`,
`Run config:` with its `load_pattern` (`type=poisson, target_qps=...` for an online run, `max_throughput` for
an offline one, `concurrency` with `target_concurrency`), the samples issued, completed and failed, the
duration, `QPS` and `TPS`, the accuracy entries, then `Latency Breakdowns`: for TTFT, TPOT and Latency (ms,
ns x 1e-6) and the output sequence lengths (tokens) the min, max, median, mean and std, a histogram, the
percentiles and, by default, LoadGen's early-stopping estimates of the tail percentiles.

Tidy names: `QPS` is completed samples over the run's window (`(completed - 1) / window` where
`use_legacy_loadgen_qps_metrics` keeps LoadGen Server's completed window), so `request_throughput`; `TPS` is
the output tokens over the same window, `output_throughput`; the completed and failed samples are
`completed` and `failed`, the duration `duration`. A poisson run is the Server scenario at its `target_qps`,
a max_throughput run the Offline scenario (the harness's README names them so). Every number is a cell:
the histograms' edges and counts, the early-stopping estimates (bounds, not measured percentiles), the
output lengths and the accuracy scores are set aside with their reason.
"""

from __future__ import annotations

import math
import re

from benchbook.ingest.core import NUMBER, ParseError, percentile
from benchbook.ingest.text import Lines, head, split_n

#: The report's first two lines as `Report.display` writes them.
SNIFF_RE = re.compile(r"^-+ Summary -+\s*\nVersion: \S+", re.MULTILINE)
ROW_RE = re.compile(rf"^(?P<label>[A-Za-z][\w .]*?):\s*(?P<value>{NUMBER})(?:\s*(?P<unit>seconds|ms|tokens))?\s*$")
LOAD_RE = re.compile(r"^load_pattern:\s*type=(?P<type>\w+)(?P<rest>.*)$")
SCENARIOS = {"poisson": "Server", "max_throughput": "Offline"}
COUNTS = {
    "Total samples completed": ("completed", "count", "req"),
    "Total samples failed": ("failed", "count", "req"),
    "Duration": ("duration", "value", "s"),
    "QPS": ("request_throughput", "value", "req/s"),
    "TPS": ("output_throughput", "value", "tok/s"),
}
SECTIONS = {"TTFT": "ttft", "TPOT": "tpot", "Latency": "e2el", "Output sequence lengths": None}
STATS = {"Min": "min", "Max": "max", "Median": "median", "Avg.": "mean", "Std Dev.": "std"}
NUMBERS = re.compile(rf"(?<![\w.]){NUMBER}(?![\w.])")
#: A percentile row (`99.9: 14969.10 ms`), or an early-stopping estimate's (`N/A` where too few samples).
RANK_RE = re.compile(rf"^(?P<p>\d+(?:\.\d+)?):\s*(?P<value>{NUMBER}|N/A)\s*(?:ms|tokens)?$")


def sniff(text: str | Lines) -> bool:
    return bool(SNIFF_RE.search(head(text, 2000)))


def read(text: str | Lines, source: str) -> tuple[list[dict], list[tuple[int, str, str]], list[str], str | None]:
    """The records (each with the run's settings), the numbers set aside, the messages and the harness's
    version, for `mlperf` to finish as its own."""
    lines = split_n(text)
    settings = {k: None for k in ("run", "scenario", "mode", "sut", "model", "result", "checks")}
    settings.update(run="endpoints report", loadgen_file="endpoints report", target_qps=math.nan)
    settings.update(parameters_line=math.nan, errors_logged=math.nan, sut_line=math.nan, errors_line=math.nan)
    settings.update(samples_per_query=math.nan, result_percentile=math.nan)
    settings.update(dict.fromkeys(("latency_limit_ms", "ttft_limit_ms", "tpot_limit_ms"), math.nan))
    records, rejects, messages = [], [], []
    version, section, part = None, None, None
    for i, raw in enumerate(lines):
        s, ln = raw.strip(), i + 1
        if not s or s.startswith("---"):
            continue
        if s.startswith("Version:"):
            version = s.split(":", 1)[1].strip()
            continue
        if m := LOAD_RE.match(s):
            settings["scenario"] = SCENARIOS.get(m["type"], m["type"])
            qps = re.search(rf"target_qps=({NUMBER})", m["rest"])
            settings["target_qps"] = float(qps.group(1)) if qps else math.nan
            continue
        if raw[:1] not in (" ", "\t") and s.rstrip(":") in SECTIONS:
            section, part = s.rstrip(":"), None
            continue
        if s in ("Histogram:", "Percentiles:") or s.startswith("Early-stopping percentile estimates"):
            part = s.split(":")[0].split(" (")[0]
            continue
        if section is None:
            m = ROW_RE.match(s)
            if m and m["label"] in COUNTS:
                metric, stat, unit = COUNTS[m["label"]]
                records.append(dict(line=ln, metric=metric, statistic=stat, value=float(m["value"]), unit=unit))
            else:
                _aside(rejects, ln, s, _why_summary(s))
            continue
        kind = SECTIONS[section]
        m = ROW_RE.match(s)
        if part is None and m and m["label"] in STATS and kind:
            records.append(dict(line=ln, metric=kind, statistic=STATS[m["label"]], value=float(m["value"]), unit="ms"))
        elif part == "Percentiles" and kind and (r := RANK_RE.match(s)) and r["value"] != "N/A":
            if stat := percentile(r["p"]):
                records.append(dict(line=ln, metric=kind, statistic=stat, value=float(r["value"]), unit="ms"))
            else:
                _aside(rejects, ln, s, f"percentile P{r['p']} is no rank between 0 and 100")
        elif part == "Early-stopping percentile estimates":
            _aside(rejects, ln, s, "an early-stopping estimate: a bound on the percentile, not a measured one")
        elif part == "Histogram":
            _aside(rejects, ln, s, "a histogram bucket: its edges and count, not a statistic")
        else:
            _aside(rejects, ln, s, "an output length, not a rate or a latency")
    if settings["scenario"] is None or not records:
        raise ParseError(source, 1, "an MLPerf endpoints report without a load_pattern or any result")
    failed = [r["value"] for r in records if r["metric"] == "failed"]
    if failed and failed[0] > 0:
        messages.append(f"{source}: {failed[0]:g} samples failed")
    return [{**settings, **r, "note": None} for r in records], rejects, messages, version


def _why_summary(line: str) -> str:
    """Why a number of the Summary block is no tidy measurement."""
    if line.startswith("Total samples issued"):
        return "the samples issued: the completed and failed counts say what came of them"
    if "random_seed" in line or line.startswith(("warmup:", "scheduler", "dataloader")):
        return "the run's configuration, not a measurement"
    return "an accuracy entry, not a performance measurement"


def _aside(rejects: list, ln: int, text: str, why: str) -> None:
    """Each number of `text` set aside with the reason (a cell counted once)."""
    for _ in NUMBERS.findall(text):
        rejects.append((ln, text, why))
