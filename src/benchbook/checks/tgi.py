"""text-generation-benchmark: recompute what the tool derived, and list the defects of its tables.

reproduce(path):
* throughput from latency, every row: the tool's throughput is a mean of per-run ratios, so
  max throughput = batch / lowest latency and min throughput = batch / highest latency hold exactly
  (up to print rounding), while Average differs from batch / mean latency by Jensen's gap; the
  `why_not` column says by how much;
* Decode (total) = (decode_length - 1) x Decode (token) for mean, min and max.

audit(path): percentile inversions (p90 < p50, p90 < mean), p90 == p99 everywhere, p90 below
Highest (an unsorted vector), NaN rows, merged blank rows, batch sizes never run, blank numeric cells.
"""

from __future__ import annotations

import math

import pandas as pd

from benchbook import checks, ingest
from benchbook.analysis.tp import KEYS, wide
from benchbook.checks import AUDIT_COLUMNS, REPRODUCTION_COLUMNS, frame, tolerance
from benchbook.ingest.tgi import NAME

#: How far a printed latency can be from the one TGI divided by: the table rounds to 0.01 ms
#: (0.005), and the stored latency is truncated to whole microseconds (`as_micros`, a further
#: 0.001 ms) while throughput divides by the untruncated duration.
LATENCY_SLACK_MS = 0.005 + 0.001


def _carried(value: float, lat: float) -> float:
    """What the printed latency `lat` (ms) moves a throughput recomputed from it: its slack carried
    through the division (the throughput's own 0.005 print rounding is added by `tolerance`)."""
    return abs(value) * LATENCY_SLACK_MS / lat


def reproduce(path) -> pd.DataFrame:
    df = ingest.read(path, tool=NAME)
    w = wide(df)
    rows = []
    idx = KEYS
    lat = {
        m: w[w.metric == m].set_index(idx) for m in ("prefill_latency", "decode_total_latency", "decode_token_latency")
    }
    for metric, lat_metric in (
        ("prefill_throughput", "prefill_latency"),
        ("decode_throughput", "decode_total_latency"),
    ):
        thr = w[w.metric == metric]
        for _, r in thr.iterrows():
            key = tuple(r[k] for k in idx)
            if key not in lat[lat_metric].index:
                continue
            L = lat[lat_metric].loc[key]
            if isinstance(L, pd.DataFrame):
                L = L.iloc[0]
            steps = (
                1
                if metric == "prefill_throughput"
                else (r["decode_length"] - 1 if pd.notna(r["decode_length"]) else math.nan)
            )
            work = r["batch_size"] * steps
            for stat, lat_stat, exact in (("max", "min", True), ("min", "max", True), ("mean", "mean", False)):
                pub, lv = r.get(stat), L.get(lat_stat)
                if pd.isna(pub) or pd.isna(lv) or lv == 0 or pd.isna(work):
                    continue
                rec = work / (lv / 1000.0)
                tol = tolerance(2, _carried(rec, lv))
                ok = checks.agrees(pub, rec, 2, _carried(rec, lv))
                why = None
                if not ok:
                    gap = (pub - rec) / rec * 100
                    why = (
                        f"TGI averages per-run ratios, not batch / mean latency: published is {gap:+.2f}% "
                        "from the ratio of means"
                        if not exact
                        else f"differs by {pub - rec:+.3f} beyond print rounding"
                    )
                rows.append(
                    {
                        "source": r["source"],
                        "tool": NAME,
                        "line": int(r["line"]),
                        "quantity": f"{metric} {stat} (tp {r['tp']}, bs {r['batch_size']}, {r['section'] or 'main'})",
                        "published": pub,
                        "recomputed": rec,
                        "tolerance": tol,
                        "agrees": bool(ok),
                        "why_not": why,
                    }
                )
    tok = lat["decode_token_latency"]
    for key, r in lat["decode_total_latency"].iterrows():
        if key not in tok.index:
            continue
        t = tok.loc[key]
        if isinstance(t, pd.DataFrame):
            t = t.iloc[0]
        steps = key[KEYS.index("decode_length")] - 1 if pd.notna(key[KEYS.index("decode_length")]) else math.nan
        for stat in ("mean", "min", "max"):
            if pd.isna(r.get(stat)) or pd.isna(t.get(stat)) or pd.isna(steps):
                continue
            rec = steps * t[stat]
            tol = tolerance(2, steps * 0.005)
            ok = checks.agrees(r[stat], rec, 2, steps * 0.005)
            rows.append(
                {
                    "source": key[0],
                    "tool": NAME,
                    "line": int(r["line"]),
                    "quantity": f"decode_total_latency {stat} = {steps} x decode_token (tp {key[2]}, bs {key[-1]})",
                    "published": r[stat],
                    "recomputed": rec,
                    "tolerance": tol,
                    "agrees": bool(ok),
                    "why_not": None if ok else "Decode (total) is not (decode_length - 1) x Decode (token)",
                }
            )
    return frame(rows, REPRODUCTION_COLUMNS)


def _element(p: int, n: int) -> int:
    """Index of TGI's p-th percentile in a vector of n runs (benchmark/src/table.rs: p / 100 x n, truncated)."""
    return int(p / 100 * n)


def _p90_under_mean(n) -> str:
    """What a p90 below the mean says: with N runs whose p90 index is the last, a sorted vector's p90 is
    its largest run, which no mean exceeds; with more runs it takes one run far above the rest."""
    if pd.notna(n) and _element(90, int(n)) == int(n) - 1:
        return (
            f"with N Runs = {int(n)}, a sorted vector's p90 is its largest run, which no mean exceeds: the vector "
            "was not sorted; percentile cells untrustworthy"
        )
    return "a true p90 under the mean needs one run far above all others; percentile cells untrustworthy"


def audit(path) -> pd.DataFrame:
    df = ingest.read(path, tool=NAME)
    w = wide(df)
    lat = w[w.metric.str.endswith("latency")]
    runs_at = df.groupby(["source", "line"])["n_runs"].first()
    rows = []

    def add(r, defect, value, evidence, consequence):
        rows.append(
            {
                "source": r["source"],
                "tool": NAME,
                "defect": defect,
                "line": int(r["line"]),
                "value": value,
                "evidence": evidence,
                "consequence": consequence,
            }
        )

    def where(r):
        return f"tp {r['tp']}, {r['metric']}, bs {r['batch_size']}" + (f", {r['section']}" if r["section"] else "")  # noqa: E731

    for _, r in lat.iterrows():
        if pd.notna(r.get("p90")) and pd.notna(r.get("p50")) and r["p90"] < r["p50"]:
            add(
                r,
                "p90 < p50",
                r["p90"],
                f"{where(r)}: p50 {r['p50']:.2f} ms, p90 {r['p90']:.2f} ms",
                "percentiles read from an unsorted vector: p50/p90/p99 unusable; use Average/Lowest/Highest",
            )
        if pd.notna(r.get("p90")) and pd.notna(r.get("mean")) and r["p90"] < r["mean"]:
            add(
                r,
                "p90 < mean",
                r["p90"],
                f"{where(r)}: mean {r['mean']:.2f} ms, p90 {r['p90']:.2f} ms",
                _p90_under_mean(runs_at.get((r["source"], r["line"]))),
            )
        n = runs_at.get((r["source"], r["line"]))
        # TGI's p90 is element int(0.9 x n) of the run vector: the last one only for some n
        if (
            pd.notna(n)
            and _element(90, n) == n - 1
            and pd.notna(r.get("p90"))
            and pd.notna(r.get("max"))
            and r["p90"] < r["max"]
        ):
            add(
                r,
                "p90 below Highest",
                r["p90"],
                f"{where(r)}: Highest {r['max']:.2f} ms, p90 {r['p90']:.2f} ms",
                f"with {n} runs p90 is element [{n - 1}], the last; below the maximum means the vector was never sorted",
            )
    ok = lat[lat["p90"].notna() & lat["p99"].notna()]
    same = ok[ok["p90"] == ok["p99"]]
    if len(same):
        r0 = same.iloc[0]
        n = runs_at.get((r0["source"], r0["line"]))
        why = (
            f"with N Runs = {n}, int(0.9 x {n}) = int(0.99 x {n}) = {_element(90, n)}: both read the same element"
            if pd.notna(n) and _element(90, n) == _element(99, n)
            else "p90 and p99 are different elements of the run vector: equal values are tied runs"
        )
        add(r0, "p90 == p99", float(len(same)), f"{len(same)} of {len(ok)} latency rows have p90 == p99", why)
    for _, r in w.iterrows():
        note = r["note"] or ""
        if pd.isna(r.get("mean")):
            kind = "blank row after NaN (merged)" if "blank row after a NaN" in note else "NaN row"
            add(r, kind, math.nan, f"{where(r)}: no value", "no runs recorded for this batch size: it never ran")
        if "merged it with the identical cell above" in note:
            add(
                r,
                "blank numeric cell",
                r.get("p90"),
                f"{where(r)}: blank where the cell above holds the same value (tabled's Merge::vertical)",
                "value equals the cell above; kept with a note",
            )
    # batch sizes never run, per section
    for _key, g in w[w.metric == "prefill_latency"].groupby(["source", "tp", "section"], dropna=False):
        missing = g[g["mean"].isna()]
        for _, r in missing.iterrows():
            add(
                r,
                "batch size never run",
                float(r["batch_size"]),
                f"tp {r['tp']} {r['section'] or ''}: batch {r['batch_size']} has no runs; ran "
                f"{sorted(int(b) for b in g[g['mean'].notna()]['batch_size'])}",
                "no measurement at this batch size: scaling comparisons stop below it",
            )
    return frame(rows, AUDIT_COLUMNS)
