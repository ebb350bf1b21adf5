"""vllm bench serve: recompute the throughputs from the totals, audit the runs.

Reproduce: request_throughput = completed / duration, output_throughput = generated tokens /
duration, total_token_throughput = (input + generated) / duration (the tool's own formulas, in
`calculate_metrics` of vllm/benchmarks/serve.py). A text block prints the duration rounded to
0.01 s, so the tolerance is the printed half-unit plus the rounding of the duration carried
through (value x 0.005 / duration); a JSON result prints full floats, so half a unit of their
last printed place. Little's law (mean in flight = request throughput x mean E2EL) is analysis,
not a number the tool printed: the audit and the serving chapter use it, the reproduction does not.

Audit: the uncapped run's TTFT includes server-side queueing (all requests sent at t=0); mean TPOT
far above mean ITL (TPOT averages per request, ITL pools chunks); failed requests; a nominal
concurrency that the run never reached.
"""

from __future__ import annotations

import math

import pandas as pd

from benchbook import checks, ingest
from benchbook.analysis import serving
from benchbook.checks import AUDIT_COLUMNS, REPRODUCTION_COLUMNS, frame, printed_decimals, tolerance
from benchbook.ingest.vllm_serve import NAME


def _line(df: pd.DataFrame, run: str, metric: str, nth: int = 0) -> int | float:
    """The line of `metric` in the `nth` run labelled `run` (two blocks under one heading share a label:
    each keeps its own line)."""
    hit = df[(df["run"] == run) & (df["metric"] == metric)].sort_values("line")
    return int(hit["line"].iloc[nth]) if len(hit) > nth else math.nan


def reproduce(path) -> pd.DataFrame:
    df = ingest.read(path, tool=NAME)
    r = serving.runs(df)
    nth = r.groupby("run", sort=False).cumcount()
    rows = []
    for i, row in r.iterrows():
        dur = row["duration"]
        text = row["format"] == "text"
        carried = 0.005 / dur if text else 0.0
        tot_out = row.get("total_generated_tokens", math.nan)
        formulas = {
            "request_throughput": row["completed"] / dur,
            "output_throughput": tot_out / dur,
            "total_token_throughput": (row["total_input_tokens"] + tot_out) / dur,
        }
        for q, rec in formulas.items():
            pub = row.get(q, math.nan)
            line = _line(df, row["run"], q, nth[i])
            # a value the output does not print (a total the analysis sums from the input and output rates) is
            # no published figure to reproduce
            if not math.isfinite(pub) or not math.isfinite(rec) or not math.isfinite(line):
                continue
            places = 2 if text else printed_decimals(pub)
            tol = tolerance(places, abs(rec) * carried)
            ok = checks.agrees(pub, rec, places, abs(rec) * carried)
            rows.append(
                dict(
                    source=row["source"],
                    tool=NAME,
                    line=line,
                    quantity=f"{row['run']}: {q}",
                    published=pub,
                    recomputed=rec,
                    tolerance=tol,
                    agrees=ok,
                    why_not=None if ok else "differs beyond the printed rounding",
                )
            )
    return frame(rows, REPRODUCTION_COLUMNS)


def audit(path, tpot_itl_ratio: float = 1.5, utilisation_floor: float = 0.6) -> pd.DataFrame:
    df = ingest.read(path, tool=NAME)
    r = serving.runs(df)
    rows = []
    capped = r[r["max_concurrency"].notna()]
    lit = serving.littles_law(r)
    nth = r.groupby("run", sort=False).cumcount()
    for i, row in r.iterrows():
        run, k = row["run"], nth[i]
        if math.isnan(row["max_concurrency"]) and math.isinf(row.get("request_rate", math.nan)) and len(capped):
            best = capped["ttft_mean"].min()
            rows.append(
                dict(
                    source=row["source"],
                    tool=NAME,
                    defect="TTFT includes server queueing",
                    line=_line(df, run, "ttft", k),
                    value=row["ttft_mean"],
                    evidence=f"{run}: all {row['num_prompts']:g} requests sent at t=0 with no cap; mean TTFT "
                    f"{row['ttft_mean']:.0f} ms vs {best:.0f} ms in the best capped run",
                    consequence="TTFT here measures queueing in the server, not prefill speed; "
                    "capped runs exclude client-side waiting from TTFT",
                )
            )
        tp, it = row.get("tpot_mean", math.nan), row.get("itl_mean", math.nan)
        if math.isfinite(tp) and math.isfinite(it) and it > 0 and tp / it > tpot_itl_ratio:
            rows.append(
                dict(
                    source=row["source"],
                    tool=NAME,
                    defect="TPOT much greater than ITL",
                    line=_line(df, run, "tpot", k),
                    value=tp / it,
                    evidence=f"{run}: mean TPOT {tp:.1f} ms vs mean ITL {it:.1f} ms",
                    consequence="TPOT weights every request equally (short, stalled requests count "
                    "fully); ITL pools chunks, so long requests dominate it. Quote both.",
                )
            )
        failed = row.get("failed", math.nan)
        lost = row["num_prompts"] - row["completed"] if math.isfinite(row["num_prompts"]) else math.nan
        if (math.isfinite(failed) and failed > 0) or (math.isfinite(lost) and lost > 0):
            rows.append(
                dict(
                    source=row["source"],
                    tool=NAME,
                    defect="requests_failed",
                    line=_line(df, run, "completed", k),
                    value=failed if math.isfinite(failed) else lost,
                    evidence=f"{run}: {row['completed']:g} of {row['num_prompts']:g} requests completed",
                    consequence="throughputs count only completed requests",
                )
            )
        u = lit.loc[i, "utilisation"]
        if math.isfinite(row["max_concurrency"]) and math.isfinite(u) and u < utilisation_floor:
            rows.append(
                dict(
                    source=row["source"],
                    tool=NAME,
                    defect="nominal concurrency not reached",
                    line=_line(df, run, "request_throughput", k),
                    value=lit.loc[i, "in_flight"],
                    evidence=f"{run}: Little's law gives {lit.loc[i, 'in_flight']:.0f} in flight on average "
                    f"for a cap of {row['max_concurrency']:g}",
                    consequence="the run spends much of its time ramping up or draining; label it by "
                    "the measured concurrency, or use more prompts",
                )
            )
    return frame(rows, AUDIT_COLUMNS)
