"""tritonbench operator tables in the attention chapter (numbers only).

tritonbench (`--op flash_attention`, tritonbench/operators/flash_attention/operator.py, its `flops`
metric) credits a forward pass with 2 matmuls of 2 x B x H x S x S x D FLOPs each, 4 x B x H x S^2 x D
in all, half of it with `--causal`, 2.5 times it for the backward pass (`--bwd`: 2 for the backward
matmuls, 0.5 for recomputing the forward). Its backends run plain (or causal) attention with no
block mask, so every backend does the work it is credited with: unlike attention-gym's SDPA with a
dense mask, the printed TFLOP/s are FLOPs performed. The rule is applied only to the flash_attention
operator at a shape the table or its command line gives in full (B, H, S, D); its TFLOP/s are then
recomputed from the latency, and set against the printed ones where both are there.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

TOOL = "tritonbench"
#: The operator whose FLOPs rule is known here (tritonbench's flash_attention `flops` metric).
OPERATOR = "flash_attention"
#: FLOPs per B x H x S^2 x D: forward 4 (two matmuls of 2 each), backward 2.5 times that.
MULTIPLIER = {"fwd": 4.0, "bwd": 10.0}
#: Relative gap between printed and recomputed TFLOP/s beyond the printing's rounding (tabulate keeps
#: six significant digits): 1 %, beyond which the shape the rule used is not the one the kernel ran.
AGREE = 0.01
_KEYS = ["source", "op", "input", "backend", "causal", "pass"]
_DIMS = ["batch", "heads", "seq_len", "seq_len_kv", "d_head"]
_MORE = ["shape_from"]
_COLUMNS = [
    *_KEYS,
    *_DIMS,
    "shape_from",
    "latency_ms",
    "printed_tflops",
    "flops",
    "tflops",
    "tflops_from",
    "agrees",
    "line",
]


def table(df: pd.DataFrame) -> pd.DataFrame:
    """One row per (file, operator, input, backend): latency (ms), the printed TFLOP/s, the FLOPs by
    tritonbench's rule (`flops`; NaN where the operator or the shape is not known), the TFLOP/s
    the page shows (`tflops`: recomputed from the latency where the rule applies, else the printed,
    `tflops_from` says which; a shape whose batch, heads or head size only the command line gives is
    used only where printed TFLOP/s confirm it, else the printed stand) and whether the printed and the recomputed agree (None where one is
    missing). A table row's order is kept."""
    d = df[df["tool"] == TOOL].copy() if "tool" in df else df.iloc[0:0].copy()
    if d.empty:
        return pd.DataFrame(columns=_COLUMNS)
    for c in [*_KEYS, *_DIMS, *_MORE]:
        if c not in d:
            d[c] = np.nan
    keys = d[_KEYS].astype(object).where(d[_KEYS].notna(), None)
    d["_key"] = list(map(tuple, keys.values.tolist()))
    rows = []
    for _, g in d.groupby("_key", sort=False):
        val = dict(zip(g["metric"], g["value"], strict=True))
        first = g.iloc[0]
        row = {k: first[k] for k in [*_KEYS, *_DIMS, *_MORE]}
        lat, printed = val.get("latency", np.nan), val.get("tflops", np.nan)
        f = flops(first["op"], first["pass"], first["causal"], *(first[k] for k in _DIMS))
        if first.get("shape_from") == "command line" and not printed > 0:
            f = np.nan  # a shape pieced from the command is used only where printed TFLOP/s confirm it
        computed = f / (lat / 1e3) / 1e12 if np.isfinite(f) and lat > 0 else np.nan
        agrees = bool(abs(computed / printed - 1) <= AGREE) if np.isfinite(computed) and printed > 0 else None
        if first.get("shape_from") == "command line" and agrees is False:
            computed = np.nan  # the printed TFLOP/s say the command's shape is not the one the kernel ran
        row.update(
            latency_ms=lat,
            printed_tflops=printed,
            flops=f,
            tflops=computed if np.isfinite(computed) else printed,
            tflops_from="recomputed" if np.isfinite(computed) else ("printed" if np.isfinite(printed) else ""),
            agrees=agrees,
            line=int(g["line"].min()),
        )
        rows.append(row)
    return pd.DataFrame(rows, columns=_COLUMNS)


def flops(op, pass_, causal, batch, heads, seq_len, seq_len_kv, d_head) -> float:
    """FLOPs of one flash_attention call by tritonbench's rule (module docstring); NaN for another
    operator, a shape not given in full, or a causal setting not known (no command line)."""
    dims = [batch, heads, seq_len, d_head]
    if op != OPERATOR or causal not in ("causal", "non-causal") or any(pd.isna(x) for x in dims):
        return np.nan
    kv = seq_len_kv if pd.notna(seq_len_kv) else seq_len
    f = MULTIPLIER["bwd" if pass_ == "bwd" else "fwd"] * float(batch) * heads * seq_len * kv * d_head
    return f * (0.5 if causal == "causal" else 1.0)


def fastest(t: pd.DataFrame) -> pd.DataFrame:
    """Per (file, operator, input): the backend of lowest latency, its latency, the slowest backend
    and the slowest's latency over the fastest's (above 1: how many times faster the fastest is).
    Inputs timed by one backend are left out (nothing to compare)."""
    out = []
    for key, g in t.dropna(subset=["latency_ms"]).groupby(["source", "op", "input"], sort=False, dropna=False):
        if g["backend"].nunique() < 2:
            continue
        lo, hi = g.loc[g["latency_ms"].idxmin()], g.loc[g["latency_ms"].idxmax()]
        out.append(
            dict(
                zip(["source", "op", "input"], key, strict=True),
                seq_len=lo["seq_len"],
                fastest=lo["backend"],
                fastest_ms=lo["latency_ms"],
                slowest=hi["backend"],
                slowest_ms=hi["latency_ms"],
                ratio=hi["latency_ms"] / lo["latency_ms"],
            )
        )
    cols = ["source", "op", "input", "seq_len", "fastest", "fastest_ms", "slowest", "slowest_ms", "ratio"]
    return pd.DataFrame(out, columns=cols)
