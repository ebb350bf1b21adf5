"""Batch saturation: throughput vs batch size from bigcode-inference-benchmark sweeps.

The sweep raises the batch of one `generate()` call (100 new tokens per sequence) until memory
runs out. Aggregate throughput grows while decode is bandwidth-bound (every step reads the weights
once for the whole batch) and flattens once the GPU is compute-bound. The tool's "msec/token" is
1000 / aggregate throughput; the time a user waits per token is latency / new tokens.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from benchbook.checks.hf_batch import NEW_TOKENS
from benchbook.analysis.pareto import fraction_of_peak

_KEYS = ["model", "framework", "gpu", "dtype", "batch_size"]


def sweep(df: pd.DataFrame) -> pd.DataFrame:
    """One row per (model, framework, gpu, dtype, batch_size) with throughput_tok_s,
    tool_ms_per_token, latency_s and per_sequence_ms_per_token (= latency / new tokens x 1000);
    batch sizes with no result (oom, blank) are kept with NaN and `has_result` False."""
    d = df[df["tool"] == "hf-batch-sweep"].copy()
    d.attrs = {}
    for k in ("model", "framework", "gpu"):
        d[k] = d[k].fillna("")
    w = d.pivot_table(index=_KEYS, columns="metric", values="value", aggfunc="first", dropna=False)
    w = w.reindex(columns=["throughput", "ms_per_token", "latency"]).reset_index()
    w = w.rename(
        columns={"throughput": "throughput_tok_s", "ms_per_token": "tool_ms_per_token", "latency": "latency_s"}
    )
    w["per_sequence_ms_per_token"] = w["latency_s"] / NEW_TOKENS * 1000.0
    w["has_result"] = w["throughput_tok_s"].notna()
    w["batch_size"] = w["batch_size"].astype(int)
    return w.sort_values(["model", "framework", "dtype", "batch_size"]).reset_index(drop=True)


def knee(sw: pd.DataFrame, fraction: float = 0.95) -> pd.DataFrame:
    """Per series (model, framework, dtype): the peak throughput and the saturation batch size,
    i.e. the smallest batch size whose throughput reaches `fraction` of the peak (the
    fraction-of-peak rule, `pareto.fraction_of_peak`). Series with no result are left out."""
    out = []
    for key, g in sw[sw["has_result"]].groupby(["model", "framework", "dtype"], sort=False):
        g = g.sort_values("batch_size")
        peak = g["throughput_tok_s"].max()
        hit = g.iloc[fraction_of_peak(g["batch_size"], g["throughput_tok_s"], fraction)]
        out.append(
            {
                "model": key[0],
                "framework": key[1],
                "dtype": key[2],
                "peak_tok_s": peak,
                "peak_batch_size": int(g.loc[g["throughput_tok_s"].idxmax(), "batch_size"]),
                "knee_batch_size": int(hit["batch_size"]),
                "knee_tok_s": hit["throughput_tok_s"],
                "fraction": fraction,
            }
        )
    return pd.DataFrame(out)


def marginal_gain(sw: pd.DataFrame) -> pd.DataFrame:
    """Tokens/s gained per added sequence between consecutive measured batch sizes
    (d throughput / d batch), per series."""
    parts = []
    for _, g in sw[sw["has_result"]].groupby(["model", "framework", "dtype"], sort=False):
        g = g.sort_values("batch_size").copy()
        g["gain_tok_s_per_seq"] = g["throughput_tok_s"].diff() / g["batch_size"].diff()
        parts.append(g)
    return pd.concat(parts, ignore_index=True) if parts else sw.assign(gain_tok_s_per_seq=np.nan)


def memory_limit(sw: pd.DataFrame) -> pd.DataFrame:
    """Per series: the largest batch size with a result and the first one without (None when the
    sweep never ran out); series with no result at all say so."""
    out = []
    for key, g in sw.groupby(["model", "framework", "dtype"], sort=False):
        g = g.sort_values("batch_size")
        ok = g[g["has_result"]]
        if ok.empty:
            out.append(
                {
                    "model": key[0],
                    "framework": key[1],
                    "dtype": key[2],
                    "last_ok": None,
                    "first_missing": None,
                    "status": "no results (column blank)",
                }
            )
            continue
        last = int(ok["batch_size"].max())
        after = g[(g["batch_size"] > last) & ~g["has_result"]]
        first = int(after["batch_size"].min()) if len(after) else None
        out.append(
            {
                "model": key[0],
                "framework": key[1],
                "dtype": key[2],
                "last_ok": last,
                "first_missing": first,
                "status": "ran out between the two" if first else "no limit reached in the sweep",
            }
        )
    return pd.DataFrame(out)


def plot_throughput(ax, sw: pd.DataFrame, knees: pd.DataFrame | None = None) -> None:
    """Throughput vs batch size (log x), one line per dtype, knees marked, missing results as x."""
    from benchbook.presentation.plotting import color

    for i, ((model, fw, dtype), g) in enumerate(sw.groupby(["model", "framework", "dtype"], sort=False)):
        ok = g[g["has_result"]]
        if ok.empty:
            continue
        label = f"{dtype}" if sw["framework"].nunique() == 1 else f"{fw} {dtype}"
        ax.plot(ok["batch_size"], ok["throughput_tok_s"], marker="o", ms=4, color=color(i), label=label)
        miss = g[~g["has_result"] & (g["batch_size"] > ok["batch_size"].max())]
        if len(miss):
            ax.scatter(
                miss["batch_size"].min(), ok["throughput_tok_s"].iloc[-1], marker="x", s=60, color=color(i), zorder=4
            )
        if knees is not None:
            k = knees[(knees["dtype"] == dtype) & (knees["framework"] == fw) & (knees["model"] == model)]
            if len(k):
                ax.axvline(k["knee_batch_size"].iat[0], color=color(i), ls=":", lw=1)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("batch size (sequences per generate call, log scale)")
    ax.set_ylabel("throughput (tok/s, whole batch)")
    ax.legend(title="dtype (x: first batch with no result)", fontsize=8)


def plot_ms_per_token(ax, sw: pd.DataFrame) -> None:
    """The tool's msec/token (1000 / aggregate rate) vs the per-sequence time per token."""
    from benchbook.presentation.plotting import color

    for i, ((_, _fw, dtype), g) in enumerate(sw.groupby(["model", "framework", "dtype"], sort=False)):
        ok = g[g["has_result"]]
        if ok.empty:
            continue
        ax.plot(
            ok["batch_size"],
            ok["per_sequence_ms_per_token"],
            marker="o",
            ms=4,
            color=color(i),
            label=f"{dtype}: per-sequence (sec / {NEW_TOKENS})",
        )
        ax.plot(ok["batch_size"], ok["tool_ms_per_token"], ls="--", color=color(i), label=f"{dtype}: tool's msec/token")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("batch size (log scale)")
    ax.set_ylabel("milliseconds per token (log scale)")
    ax.legend(fontsize=8)
