"""llama-bench: recompute what the tool derived, and find defects by code.

reproduce(path)
    * from JSON/JSONL per-repetition samples: the mean (avg_ts) and the sample standard deviation
      (stddev_ts) llama-bench printed, recomputed from samples_ts (printed to about 6 significant
      digits, so agreement is judged at that precision);
    * the coefficient of variation (std / mean) of every test, from the printed mean and ±;
    * the weight-streaming bandwidth the shared notes quote for seed 004 (tool-semantics.md §3),
      recomputed from the table: file size x tg rate.
audit(path)
    * high-CV cells (CV above `HIGH_CV`): the mean of such a test is a poor summary;
    * markdown tables without a `build:` line (the llama.cpp version is unknown);
    * partial offload (ngl below the model's layers + output, or a file larger than GPU memory):
      its rates measure the host's memory as much as the GPU.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from benchbook import config, ingest
from benchbook.analysis import bandwidth
from benchbook.checks import AUDIT_COLUMNS, REPRODUCTION_COLUMNS, agrees, frame
from benchbook.ingest.llama_bench import NAME
from benchbook.analysis.power import RATE_METRICS

#: A test whose std exceeds this fraction of its mean is flagged.
HIGH_CV = 0.05

#: Figures the shared notes (../shared/notes/tool-semantics.md §3) quote for seed 004:
#: (model, power limit or None, GB/s, % of the 1,792 GB/s peak).
NOTES_BANDWIDTH = [
    ("llama 7B Q4_0", 600.0, 1066.0, 60.0),
    ("llama 7B Q4_0", 200.0, 726.0, None),
    ("llama 70B Q4_K - Medium", None, 1447.0, 81.0),
]


def _table(path) -> pd.DataFrame:
    return ingest.read_all([path], tool=NAME)[0]


def _sample_std(x: np.ndarray) -> float:
    return float(np.std(x, ddof=1)) if len(x) > 1 else 0.0


def reproduce(path) -> pd.DataFrame:
    df = _table(path)
    src = df["source"].iloc[0] if len(df) else config.resolve(path).name
    rows: list[dict] = []
    rates = df[df["metric"].isin(RATE_METRICS)]
    # a test is identified by the line of its mean; samples sit on nearby lines of the same record
    for (model, test, pw, _build, _ngl, _threads, _fa), g in rates.groupby(
        ["model", "test", "power_limit_w", "build", "ngl", "threads", "fa"], dropna=False, sort=False
    ):
        means = g[g["statistic"] == "mean"]
        stds = g[g["statistic"] == "std"]
        samples = g[g["statistic"] == "value"]
        blocks = [b for _, b in samples.groupby((samples["rep"] == 1).cumsum())] if len(samples) else []
        for m in means.itertuples():
            name = f"{model} {test}" + (f" @ {pw:g} W" if pd.notna(pw) else "")
            # the same record: ± on the mean's line or just below it (pretty JSON), samples a few lines below
            near = stds[(stds["line"] >= m.line) & (stds["line"] <= m.line + 2)]
            std = near.iloc[0] if len(near) else None
            smp = next((b["value"].to_numpy() for b in blocks if m.line <= b["line"].iloc[0] <= m.line + 4), None)
            if smp is not None and len(smp):
                rec_mean = float(np.mean(smp))
                tol = 1e-5 * abs(m.value) + 1e-6
                rows.append(
                    dict(
                        source=src,
                        tool=NAME,
                        line=m.line,
                        quantity=f"mean t/s of samples_ts: {name}",
                        published=m.value,
                        recomputed=rec_mean,
                        tolerance=tol,
                        agrees=abs(rec_mean - m.value) <= tol,
                        why_not=None,
                    )
                )
                if std is not None and np.isfinite(std.value):
                    rec_std = _sample_std(smp)
                    tol = 2e-5 * abs(m.value) + 1e-6
                    ok = abs(rec_std - std.value) <= tol
                    rows.append(
                        dict(
                            source=src,
                            tool=NAME,
                            line=std.line,
                            quantity=f"sample std t/s: {name}",
                            published=std.value,
                            recomputed=rec_std,
                            tolerance=tol,
                            agrees=ok,
                            why_not=None if ok else "stddev_ts is not the Bessel-corrected std of samples_ts",
                        )
                    )
    # the notes' bandwidth figures
    pts = bandwidth.decode_points(df, "RTX-PRO-6000-Blackwell-WS") if len(df) else pd.DataFrame()
    if len(pts) and df["source"].iloc[0] == config.seed("004").name:
        for model, pw, gbs, pct in NOTES_BANDWIDTH:
            hit = pts[(pts["model"] == model) & ((pts["power_limit_w"] == pw) if pw else pts["power_limit_w"].isna())]
            if hit.empty:
                continue
            h = hit.iloc[0]
            rows.append(
                dict(
                    source=src,
                    tool=NAME,
                    line=h["line"],
                    quantity=f"notes: tg128 GB/s, {model}" + (f" @ {pw:g} W" if pw else ""),
                    published=gbs,
                    recomputed=h["bandwidth_gb_s"],
                    tolerance=0.5,
                    agrees=agrees(gbs, h["bandwidth_gb_s"], 0),
                    why_not=None,
                )
            )
            if pct is not None:
                rows.append(
                    dict(
                        source=src,
                        tool=NAME,
                        line=h["line"],
                        quantity=f"notes: % of peak, {model}",
                        published=pct,
                        recomputed=100 * h["fraction_of_peak"],
                        tolerance=0.5,
                        agrees=agrees(pct, 100 * h["fraction_of_peak"], 0),
                        why_not=None,
                    )
                )
    return frame(rows, REPRODUCTION_COLUMNS)


def audit(path) -> pd.DataFrame:
    df = _table(path)
    rows: list[dict] = []
    if df.empty:
        return frame(rows, AUDIT_COLUMNS)
    src = df["source"].iloc[0]
    rates = df[df["metric"].isin(RATE_METRICS)]
    wide = (
        rates[rates["statistic"].isin(["mean", "std"])]
        .pivot_table(
            index=["line", "model", "test", "power_limit_w"],
            columns="statistic",
            values="value",
            aggfunc="first",
            dropna=False,
        )
        .reset_index()
    )
    wide = wide.dropna(subset=[c for c in ("mean",) if c in wide.columns])
    if {"mean", "std"} <= set(wide.columns):
        wide["cv"] = wide["std"] / wide["mean"]
        for r in wide[wide["cv"] > HIGH_CV].itertuples():
            rows.append(
                dict(
                    source=src,
                    tool=NAME,
                    defect="high coefficient of variation",
                    line=r.line,
                    value=r.cv,
                    evidence=f"{r.model} {r.test}"
                    + (f" @ {r.power_limit_w:g} W" if pd.notna(r.power_limit_w) else "")
                    + f": {r.mean:.2f} ± {r.std:.2f} t/s (CV {100 * r.cv:.1f}%)",
                    consequence="repetitions disagree; the mean hides a wide spread (report the ± or the samples)",
                )
            )
    no_build = rates[rates["build"].isna()].drop_duplicates(subset=["model", "section"])
    for r in no_build.itertuples():
        rows.append(
            dict(
                source=src,
                tool=NAME,
                defect="no build line",
                line=r.line,
                value=np.nan,
                evidence=f"table for {r.model} ({r.section}) has no 'build: <commit> (<n>)' line",
                consequence="the llama.cpp version is unknown; comparisons with other builds are unsafe",
            )
        )
    for gname, sub in df.groupby("gpu", dropna=False, sort=False):
        gname = gname if isinstance(gname, str) else None
        # the GPU's memory only matters for the "file larger than memory" test; unknown GPUs use the
        # seed's card, which can only miss (not invent) that reason
        hw = bandwidth.hardware_name(gname) or "RTX-PRO-6000-Blackwell-WS"
        pts = bandwidth.decode_points(sub, hw)
        if pts.empty:
            continue
        for r in pts[pts["offload"] == "partial"].drop_duplicates(subset=["model", "model_file", "ngl"]).itertuples():
            rows.append(
                dict(
                    source=src,
                    tool=NAME,
                    defect="partial offload",
                    line=r.line,
                    value=r.ngl,
                    evidence=r.offload_why,
                    consequence="generation streams part of the weights from host RAM: its rate is not "
                    "a GPU-bandwidth figure",
                )
            )
    return frame(rows, AUDIT_COLUMNS)
