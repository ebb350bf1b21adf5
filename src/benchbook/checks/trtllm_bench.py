"""trtllm-bench: recompute the run-level rates from the numbers the report prints, audit the issue rate.

Reproduce (the tool's formulas, tensorrt_llm/bench/dataclasses/statistics.py and reporting.py):
request throughput = requests / total latency; output throughput = requests x average output
length / total latency (the average is total output tokens / requests); total token throughput =
requests x (average input + average output length) / total latency; per-GPU output throughput =
output throughput / (TP x PP). The report prints 4 decimals: the tolerance is half a unit of the
4th place plus what the 4-decimal averages carry through (requests x 0.00005 / latency per
average). The per-user rates are means of per-request ratios: the report does not print what they
are computed from, so they are not reproduced.

Audit: an issue rate above any physical rate (the tool divides requests by the nanoseconds between
the first and the last submission; with all requests submitted at once that is near zero).
"""

from __future__ import annotations

import math

import pandas as pd

from benchbook import checks, ingest
from benchbook.checks import AUDIT_COLUMNS, REPRODUCTION_COLUMNS, frame, tolerance
from benchbook.ingest.trtllm_bench import NAME

PLACES = 4


def _value(run: pd.DataFrame, metric: str, statistic: str) -> tuple[float, int | float]:
    hit = run[(run["metric"] == metric) & (run["statistic"] == statistic)]
    return (float(hit["value"].iloc[0]), int(hit["line"].iloc[0])) if len(hit) else (math.nan, math.nan)


def _world(metadata) -> float:
    """TP x PP from the report's metadata, NaN when either is not printed."""
    meta = dict(p.split("=", 1) for p in str(metadata or "").split("; ") if "=" in p)
    try:
        return float(int(meta["tp"]) * int(meta["pp"]))
    except (KeyError, ValueError):
        return math.nan


def reproduce(path) -> pd.DataFrame:
    df = ingest.read(path, tool=NAME)
    rows = []
    for run_name, run in df.groupby("run", sort=False):
        n, _ = _value(run, "completed", "count")
        dur, _ = _value(run, "duration", "value")
        ins, _ = _value(run, "input_length", "mean")
        outs, _ = _value(run, "output_length", "mean")
        out_tp, _ = _value(run, "output_throughput", "value")
        half = 0.5 * 10**-PLACES
        formulas = {
            "request_throughput": (n / dur, 0.0),
            "output_throughput": (n * outs / dur, n * half / dur),
            "total_token_throughput": (n * (ins + outs) / dur, 2 * n * half / dur),
            "output_throughput_per_gpu": (
                out_tp / _world(run["metadata"].iat[0]),
                half / _world(run["metadata"].iat[0]),
            ),
        }
        for q, (rec, carried) in formulas.items():
            pub, line = _value(run, q, "value")
            if not (math.isfinite(pub) and math.isfinite(rec)):
                continue
            # the places the value is printed with: trtllm-bench prints 4, a copy pasted into a table may keep fewer
            places = min(PLACES, checks.printed_decimals(pub))
            ok = checks.agrees(pub, rec, places, carried)
            rows.append(
                dict(
                    source=run["source"].iat[0],
                    tool=NAME,
                    line=line,
                    quantity=f"{run_name}: {q}",
                    published=pub,
                    recomputed=rec,
                    tolerance=tolerance(places, carried),
                    agrees=ok,
                    why_not=None if ok else "differs beyond the printed rounding",
                )
            )
    return frame(rows, REPRODUCTION_COLUMNS)


def audit(path) -> pd.DataFrame:
    df = ingest.read(path, tool=NAME)
    rej = ingest.set_aside_frame(df)
    rows = [
        dict(
            source=r["source"],
            tool=NAME,
            defect="issue rate is not a physical rate",
            line=r["line"],
            value=r["text"].split()[-1],
            evidence=r["reason"],
            consequence="requests were submitted at once (offline load); the issue rate is set aside, not read",
        )
        for _, r in rej.iterrows()
        if r["text"].startswith("issue_rate ")
    ]
    return frame(rows, AUDIT_COLUMNS)
