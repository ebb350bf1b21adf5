"""llama-bench: recompute what the tool derived, and find defects by code.

reproduce(path)
    * from JSON/JSONL per-repetition samples: the mean (avg_ts) and the sample standard deviation
      (stddev_ts) llama-bench printed, recomputed from samples_ts (printed to about 6 significant
      digits, so agreement is judged at that precision);
    A markdown table prints only each test's mean ± std, nothing derived from other printed
    numbers, so it has no reproduction rows; the bandwidth a rate implies is analysis (the
    bandwidth_roofline chapter), not a number the tool printed.
audit(path)
    * high-CV cells (CV above `HIGH_CV`): the mean of such a test is a poor summary;
    * markdown tables without a `build:` line (the llama.cpp version is unknown);
    * partial offload (ngl below the model's layers + output, or a file larger than GPU memory):
      its rates measure the host's memory as much as the GPU.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from benchbook import checks, config, ingest
from benchbook.analysis import bandwidth
from benchbook.analysis.power import RATE_METRICS
from benchbook.checks import AUDIT_COLUMNS, REPRODUCTION_COLUMNS, frame, printed_decimals, tolerance
from benchbook.ingest.llama_bench import NAME

#: A test whose std exceeds this fraction of its mean is flagged.
HIGH_CV = 0.05


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
                # samples_ts are printed to about 6 significant digits: their last printed place carries
                half = max(0.5 * 10.0 ** -printed_decimals(v) for v in smp)
                ok = checks.agrees(m.value, rec_mean, printed_decimals(m.value), half)
                rows.append(
                    dict(
                        source=src,
                        tool=NAME,
                        line=m.line,
                        quantity=f"mean t/s of samples_ts: {name}",
                        published=m.value,
                        recomputed=rec_mean,
                        tolerance=tolerance(printed_decimals(m.value), half),
                        agrees=ok,
                        why_not=None if ok else "avg_ts is not the mean of samples_ts",
                    )
                )
                if std is not None and np.isfinite(std.value):
                    rec_std = _sample_std(smp)
                    carried = half * np.sqrt(len(smp) / max(len(smp) - 1, 1))
                    tol = tolerance(printed_decimals(std.value), carried)
                    ok = checks.agrees(std.value, rec_std, printed_decimals(std.value), carried)
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
    # the device each row printed (a GPU's memory only matters for the "file larger than memory"
    # test: an unknown device can only miss, not invent, that reason)
    pts = bandwidth.decode_points(df) if len(df) else pd.DataFrame()
    if len(pts):
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
