"""Reproduce and audit the quantization report (and result.jsonl files) of `sglang-quant-report`.

reproduce(path):
* every summary mean and std (and every "Statistics" line) from the individual runs
  (statistics.mean / statistics.stdev, as analyze_results.py does), at the printed precision; the
  runs are themselves printed to 0.01, so the tolerance adds the worst-case effect of that rounding
  (0.005 on a mean, 0.005 x sqrt(n / (n - 1)) on a standard deviation);
* each ranking value against its summary mean: a printed copy, listed but no check (`checks.copied`);
* overall throughput = bs x (in + out) / latency, checked as the latency it implies against the
  printed latency (0.01 s);
* the implied TTFT (latency - bs x out / output throughput), against `last_ttft` where a
  result.jsonl row carries it; otherwise listed with no published value.

audit(path): duplicated and missing run labels, high-variance cells with the outlying run, the
mojibake, not-measured zeros, truncated rankings, and summary disagreements.
"""

from __future__ import annotations

import math
import statistics

import numpy as np
import pandas as pd

from benchbook import checks, ingest
from benchbook.analysis.quant import outliers, runs
from benchbook.checks import AUDIT_COLUMNS, REPRODUCTION_COLUMNS, frame, printed_decimals, tolerance
from benchbook.ingest.sglang_quant import NAME
from benchbook.nouns import counted

_DEC = 2


def _read(path) -> tuple[pd.DataFrame, list[str]]:
    p = ingest.read_parsed(path, tool=NAME)[0]
    return p.table, p.messages


def _run_values(df: pd.DataFrame) -> pd.DataFrame:
    """Per-run values as printed (not the latency recovered from overall throughput)."""
    return df[(df["section"] == "run") & (df["statistic"] == "value")]


def reproduce(path) -> pd.DataFrame:
    df, _ = _read(path)
    src = df["source"].iloc[0] if len(df) else str(path)
    rows: list[dict] = []
    rv = _run_values(df)
    cfg = ["batch_size", "input_len", "output_len"]
    groups = {k: g for k, g in rv.groupby(["model", *cfg, "metric"])}
    for section in ("summary", "statistics"):
        pub = df[(df["section"] == section) & df["statistic"].isin(["mean", "std"]) & (df["metric"] != "runs")]
        for r in pub.itertuples(index=False):
            g = groups.get((r.model, r.batch_size, r.input_len, r.output_len, r.metric))
            vals = [] if g is None else [v for v in g["value"] if not math.isnan(v)]
            base = {
                "source": src,
                "tool": NAME,
                "line": r.line,
                "quantity": f"{section} {r.statistic} {r.metric} of {r.model}",
                "published": r.value,
            }
            if math.isnan(r.value):
                rows.append(
                    {
                        **base,
                        "recomputed": np.nan,
                        "tolerance": np.nan,
                        "agrees": np.nan,
                        "why_not": "not measured (no such key in result.jsonl)",
                    }
                )
                continue
            if len(vals) < (2 if r.statistic == "std" else 1):
                rows.append(
                    {
                        **base,
                        "recomputed": np.nan,
                        "tolerance": np.nan,
                        "agrees": False,
                        "why_not": f"only {counted(len(vals), 'run value')} printed",
                    }
                )
                continue
            n = len(vals)
            if r.statistic == "mean":
                rec, carried = statistics.mean(vals), 0.005
            else:
                rec, carried = statistics.stdev(vals), 0.005 * math.sqrt(n / (n - 1))
            tol = tolerance(_DEC, carried)
            ok = checks.agrees(r.value, rec, _DEC, carried)
            rows.append(
                {
                    **base,
                    "recomputed": rec,
                    "tolerance": tol,
                    "agrees": ok,
                    "why_not": None if ok else "differs by more than printing and rounding allow",
                }
            )
    # rankings from the summary means
    summ = df[(df["section"] == "summary") & (df["metric"] == "output_throughput") & (df["statistic"] == "mean")]
    rank = df[df["section"] == "ranking"].sort_values("line")
    for key, g in rank.groupby(cfg, sort=False):
        s = summ[(summ[cfg] == pd.Series(dict(zip(cfg, key, strict=True)))).all(axis=1)]
        means = dict(zip(s["model"], zip(s["value"], s["line"], strict=True), strict=True))
        # a ranking line prints a medal, the run label and its value; analyze_results.py prints the
        # same summary mean there again, so the value is a copy, not a recomputation: no check
        for r in g.itertuples(index=False):
            m, at = means.get(r.model, (np.nan, None))
            rows.append(
                {
                    "source": src,
                    "tool": NAME,
                    "line": r.line,
                    "quantity": f"ranking value of {r.model}",
                    "published": r.value,
                    "recomputed": m,
                    "tolerance": 0.5 * 10**-_DEC,
                    "agrees": None,
                    "why_not": checks.copied(at) if at is not None else "no summary mean of this label",
                }
            )
    # overall = bs (in + out) / latency, and the implied TTFT
    rt = runs(df)
    for r in rt.itertuples(index=False):
        if np.isfinite(r.overall_throughput) and np.isfinite(r.latency_printed):
            implied = r.batch_size * (r.input_len + r.output_len) / r.overall_throughput
            # half a unit of the printed latency, plus what the overall throughput's 0.005 rounding moves it
            places = _DEC if r.latency_printed == round(r.latency_printed, 2) else 4
            carried = implied * 0.005 / r.overall_throughput
            tol = tolerance(places, carried)
            ok = checks.agrees(r.latency_printed, implied, places, carried)
            rows.append(
                {
                    "source": src,
                    "tool": NAME,
                    "line": r.line,
                    "quantity": f"latency implied by overall throughput, {r.model} {r.run}",
                    "published": r.latency_printed,
                    "recomputed": implied,
                    "tolerance": tol,
                    "agrees": ok,
                    "why_not": None if ok else "overall throughput is not bs x (in + out) / latency",
                }
            )
        if np.isfinite(r.implied_ttft):
            last = getattr(r, "last_ttft", np.nan)
            has = isinstance(last, float) and np.isfinite(last)
            # latency - bs x out / output throughput: the printed places of both inputs carry through
            thr = r.output_throughput
            carried = r.batch_size * r.output_len / thr**2 * 0.5 * 10.0 ** -printed_decimals(thr) + 0.5 * 10.0 ** (
                -printed_decimals(r.latency_printed)
            )
            places = printed_decimals(last) if has else 0
            ok = bool(has and checks.agrees(last, r.implied_ttft, places, carried))
            rows.append(
                {
                    "source": src,
                    "tool": NAME,
                    "line": r.line,
                    "quantity": f"TTFT implied by output throughput (s), {r.model} {r.run}",
                    "published": last if has else np.nan,
                    "recomputed": r.implied_ttft,
                    "tolerance": tolerance(places, carried) if has else np.nan,
                    "agrees": ok if has else np.nan,
                    "why_not": None
                    if ok
                    else (
                        "not printed by the source (derived)"
                        if not has
                        else "output throughput does not exclude last_ttft"
                    ),
                }
            )
    return frame(rows, REPRODUCTION_COLUMNS)


def duplicate_labels(df: pd.DataFrame) -> pd.DataFrame:
    """Per (model, shape) with duplicated run labels: the labels, the duplicates and the missing."""
    rt = runs(df)
    out = []
    for (model, bs, inp, outl), g in rt.groupby(["model", "batch_size", "input_len", "output_len"], sort=False):
        labels = list(g["run"])
        dup = sorted({x for x in labels if labels.count(x) > 1})
        if not dup:
            continue
        expected = [f"run{i}" for i in range(1, len(labels) + 1)]
        missing = [x for x in expected if x not in labels] if all(x.startswith("run") for x in labels) else []
        out.append(
            {
                "model": model,
                "batch_size": bs,
                "input_len": inp,
                "output_len": outl,
                "labels": ", ".join(labels),
                "duplicated": ", ".join(dup),
                "missing": ", ".join(missing),
                "line": int(g["line"].min()),
            }
        )
    return pd.DataFrame(
        out, columns=["model", "batch_size", "input_len", "output_len", "labels", "duplicated", "missing", "line"]
    )


def audit(path, outlier_rule: str = "cv>0.10") -> pd.DataFrame:
    df, messages = _read(path)
    src = df["source"].iloc[0] if len(df) else str(path)
    rows: list[dict] = []
    for d in duplicate_labels(df).itertuples(index=False):
        rows.append(
            {
                "source": src,
                "tool": NAME,
                "defect": "duplicated run label",
                "line": d.line,
                "value": d.duplicated,
                "evidence": f"{d.model}: runs labelled {d.labels}" + (f"; {d.missing} missing" if d.missing else ""),
                "consequence": "the runs are distinct measurements (their values differ) and are all kept; "
                "labels cannot pair runs across schemes",
            }
        )
    for o in outliers(runs(df), outlier_rule).itertuples(index=False):
        rows.append(
            {
                "source": src,
                "tool": NAME,
                "defect": "high-variance cell",
                "line": o.line,
                "value": o.value,
                "evidence": f"{o.model} {o.metric}: {o.run} = {o.value:.2f} vs median of the others "
                f"{o.others_median:.2f} (CV {o.cv:.0%})",
                "consequence": f"mean {o.mean:.2f} becomes {o.mean_without:.2f} without that run",
            }
        )
    for m in messages:
        if m.startswith("repaired mojibake"):
            rows.append(
                {
                    "source": src,
                    "tool": NAME,
                    "defect": "mojibake",
                    "line": int(m.split("first at line ")[1].split(":")[0]),
                    "value": None,
                    "evidence": m,
                    "consequence": "repaired on reading; no number affected",
                }
            )
        elif m.startswith("ranking for "):
            rows.append(
                {
                    "source": src,
                    "tool": NAME,
                    "defect": "truncated ranking",
                    "line": np.nan,
                    "value": None,
                    "evidence": m,
                    "consequence": "rankings recomputed from the runs instead",
                }
            )
    nm = df[df["value"].isna() & df["note"].fillna("").str.contains("not measured")]
    if len(nm):
        zero = nm[nm["section"] == "summary"]
        rows.append(
            {
                "source": src,
                "tool": NAME,
                "defect": "not-measured values printed as numbers",
                "line": int(nm["line"].min()),
                "value": len(nm),
                "evidence": f"{len(zero)} summary cells print 0.00 and {len(nm) - len(zero)} other cells N/A or "
                f"null for {', '.join(sorted(nm['metric'].unique()))}",
                "consequence": "left out as missing: no input-throughput analysis is possible from this file",
            }
        )
    rep = reproduce(path)
    bad = rep[rep["agrees"].eq(False) & ~rep["quantity"].str.startswith("TTFT")]
    for r in bad.itertuples(index=False):
        rows.append(
            {
                "source": src,
                "tool": NAME,
                "defect": "summary disagrees with runs",
                "line": r.line,
                "value": r.published,
                "evidence": f"{r.quantity}: printed {r.published}, recomputed {r.recomputed:.4f}",
                "consequence": "the chapter uses the runs",
            }
        )
    # a ranking value is a copy of its summary mean: two prints of one number that differ contradict each other
    copies = rep[rep["why_not"].fillna("").str.startswith(checks.COPY)]
    differ = [not checks.agrees(p, c, _DEC) for p, c in zip(copies["published"], copies["recomputed"], strict=True)]
    for r in copies[differ].itertuples(index=False):
        rows.append(
            {
                "source": src,
                "tool": NAME,
                "defect": "ranking disagrees with summary",
                "line": r.line,
                "value": r.published,
                "evidence": f"{r.quantity}: printed {r.published}, the summary mean {r.recomputed} ({r.why_not})",
                "consequence": "the chapter uses the summary mean",
            }
        )
    return frame(rows, AUDIT_COLUMNS)
