"""tritonbench operator tables in the attention chapter (numbers only).

tritonbench (`--op flash_attention`, tritonbench/operators/flash_attention/operator.py, its `flops`
metric) credits a forward pass with 2 matmuls of 2 x B x H x S x S x D FLOPs each, 4 x B x H x S^2 x D
in all, half of it with `--causal`, 2.5 times it for the backward pass (`--bwd`: 2 for the backward
matmuls, 0.5 for recomputing the forward). Its backends run plain (or causal) attention with no
block mask, so every backend does the work it is credited with: unlike attention-gym's SDPA with a
dense mask, the printed TFLOP/s are FLOPs performed. The rule is applied only to the flash_attention
operator at a shape the table or its command line gives in full (B, H, S, D); its TFLOP/s are then
recomputed from the latency, and set against the printed ones where both are there.

flash-attention's benchmark scripts (`ingest.flash_attn_bench`) credit every method with the same
FLOPs (`flops()` in each script: 4 x B x H x S^2 x D forward, half causal, 2.5 times it backward and
3.5 times it for fwd + bwd), so their lines are read by the same rule, every row of theirs an attention
call; their tidy rows name no operator.

attention-gym's selected-attention benchmark (`ingest.selected_attention`) credits each query with the
keys it attends, `topk` selected and up to `window` local ones (its `seq_len_kv`): 4 x B x H x S x kv x D
forward, and twice the forward backward (`useful_flops` and its backward comment); no causal halving.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from benchbook.ingest import core, flash_attn_bench, score_mod, selected_attention, tritonbench

TOOL = "tritonbench"
#: flash-attention's benchmark scripts: every row an attention call, by the same FLOPs rule.
FLASH = "flash-attn-benchmark"
#: PyTorch's score_mod.py sweep: times per backend; its TFLOP/s are its own rule's (softmax counted, no
#: causal halving), shown as printed, its rows naming no operator.
SCORE_MOD = "pytorch-score-mod"
#: attention-gym's selected_attention_benchmark.py: its own operator, by its useful-FLOPs rule.
SELECTED = selected_attention.NAME
TOOLS = (TOOL, FLASH, SCORE_MOD, SELECTED)
#: The operator whose FLOPs rule is known here (tritonbench's flash_attention `flops` metric).
OPERATOR = "flash_attention"
#: FLOPs per B x H x S^2 x D: forward 4 (two matmuls of 2 each), backward 2.5 times that, a forward
#: and a backward together 3.5 times it (flash-attention's fwd + bwd).
MULTIPLIER = {"fwd": 4.0, "bwd": 10.0, "fwd_bwd": 14.0}
#: PyTorch's sdpa.py times scaled_dot_product_attention with no mask, causal or not: the work the
#: flash_attention rule counts, so its rows are recomputed by it.
SDPA_OPERATOR = score_mod.SDPA_OP
#: The selected-attention operator and its FLOPs per B x H x S x kv x D: forward 4, backward twice it.
SELECTED_OPERATOR = selected_attention.OPERATOR
#: The operators whose FLOPs rule is applied here; another tritonbench operator credits FLOPs of its own
#: (flex_attention's compiled kernel only the block mask's kept share, operators/flex_attention/operator.py).
RULED = (OPERATOR, SDPA_OPERATOR, SELECTED_OPERATOR)
SELECTED_MULTIPLIER = {"fwd": 4.0, "bwd": 8.0}
#: Relative gap between printed and recomputed TFLOP/s beyond the printing's rounding (tabulate keeps
#: six significant digits): 1 %, beyond which the shape the rule used is not the one the kernel ran.
AGREE = 0.01
#: A timing's identity: a case timed in two data types (score_mod.py's bf16 and fp16 rows of one shape) is
#: two measurements, never one.
_KEYS = ["tool", "source", "op", "input", "backend", "causal", "pass", "dtype"]
_DIMS = ["batch", "heads", "seq_len", "seq_len_kv", "d_head"]
_MORE = ["shape_from"]
_COLUMNS = [
    *_KEYS,
    *_DIMS,
    *_MORE,
    "latency_ms",
    "printed_tflops",
    "flops",
    "tflops",
    "tflops_from",
    "agrees",
    "accurate",
    "spread_pct",
    "line",
]
#: tritonbench's `with_variance` latency, as its parser notes it: the median, and the farthest timed run's
#: distance from it (`Latency.to_str`'s `(±pct%)`).
_SPREAD = re.compile(re.escape(tritonbench.SPREAD_NOTE).replace(re.escape("{pct}"), r"([0-9.]+)"))


def table(df: pd.DataFrame) -> pd.DataFrame:
    """One row per (file, operator, input, backend, data type; an input where a backend is timed in several
    data types named with its type): latency (ms), the printed TFLOP/s, the FLOPs by
    tritonbench's rule (`flops`; NaN where the operator or the shape is not known), the TFLOP/s
    the page shows (`tflops`: recomputed from the latency where the rule applies, else the printed,
    `tflops_from` says which; a shape whose batch, heads or head size only the command line gives is
    used only where printed TFLOP/s confirm it, else the printed stand) and whether the printed and the recomputed agree (None where one is
    missing), and `accurate`: tritonbench's accuracy check, the output against the baseline's (None: not
    printed). A table row's order is kept."""
    d = df[df["tool"].isin(TOOLS)].copy() if "tool" in df else df.iloc[0:0].copy()
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
        op = OPERATOR if first["tool"] == FLASH else first["op"]  # a flash-attention script times attention
        f = flops(op, first["pass"], first["causal"], *(first[k] for k in _DIMS))
        pieced = first.get("shape_from") not in (None, "table") and pd.notna(first.get("shape_from"))
        if pieced and not printed > 0:
            f = np.nan  # a shape pieced from the command or the script is used only where printed TFLOP/s confirm it
        computed = f / (lat / 1e3) / 1e12 if np.isfinite(f) and lat > 0 else np.nan
        agrees = bool(abs(computed / printed - 1) <= AGREE) if np.isfinite(computed) and printed > 0 else None
        if pieced and agrees is False:
            computed = np.nan  # the printed TFLOP/s say the pieced shape is not the one the kernel ran
        row.update(
            latency_ms=lat,
            printed_tflops=printed,
            flops=f,
            tflops=computed if np.isfinite(computed) else printed,
            tflops_from="recomputed" if np.isfinite(computed) else ("printed" if np.isfinite(printed) else ""),
            agrees=agrees,
            # tritonbench's accuracy metric: the output matched the baseline's within tolerance (None: not checked)
            accurate=bool(val["accuracy"]) if pd.notna(val.get("accuracy", np.nan)) else None,
            spread_pct=_spread(g),
            line=int(g["line"].min()),
        )
        rows.append(row)
    out = pd.DataFrame(rows, columns=_COLUMNS)
    # an input where one backend is timed in several data types (score_mod.py's bf16 and fp16 rows) names its
    # type: each type is its own case (`fastest`, the counts); backends that each run in one type (an FP8
    # kernel beside a bf16 reference) stay one case, compared
    twice = out.groupby(["source", "input", "backend", "pass"], dropna=False)["dtype"].transform(
        lambda x: x.nunique() > 1
    )
    cases = set(zip(out.loc[twice, "source"], out.loc[twice, "input"], strict=True))
    typed = pd.Series([(s, i) in cases for s, i in zip(out["source"], out["input"], strict=True)], index=out.index)
    out.loc[typed, "input"] = out.loc[typed, "input"].astype(str) + ", " + out.loc[typed, "dtype"].astype(str)
    return out


def _spread(g: pd.DataFrame) -> float:
    """The latency's printed spread (%, the farthest timed run from the median), NaN where none is printed."""
    notes = g.loc[g["metric"] == "latency", "note"] if "note" in g else pd.Series(dtype=object)
    m = next((_SPREAD.search(n) for n in notes if isinstance(n, str) and _SPREAD.search(n)), None)
    return float(m.group(1)) if m else np.nan


def flops(op, pass_, causal, batch, heads, seq_len, seq_len_kv, d_head) -> float:
    """FLOPs of one flash_attention call by tritonbench's rule, or of one selected_attention call by
    attention-gym's (module docstring); NaN for another operator, a shape not given in full, or a
    flash_attention causal setting not known (no command line)."""
    dims = [batch, heads, seq_len, d_head]
    if op == SELECTED_OPERATOR:
        if pass_ not in SELECTED_MULTIPLIER or any(pd.isna(x) for x in [*dims, seq_len_kv]):
            return np.nan
        return SELECTED_MULTIPLIER[pass_] * float(batch) * heads * seq_len * seq_len_kv * d_head
    if op not in (OPERATOR, SDPA_OPERATOR) or causal not in ("causal", "non-causal") or any(pd.isna(x) for x in dims):
        return np.nan
    kv = seq_len_kv if pd.notna(seq_len_kv) else seq_len
    f = MULTIPLIER.get(pass_, MULTIPLIER["fwd"]) * float(batch) * heads * seq_len * kv * d_head
    return f * (0.5 if causal == "causal" else 1.0)


def fastest(t: pd.DataFrame) -> pd.DataFrame:
    """Per (file, operator, input, pass): the backend of lowest time, its latency, the slowest backend
    and the slowest's time over the fastest's (above 1: how many times faster the fastest is).
    Where every backend there has a latency, latencies are compared; where none has one, the
    printed TFLOP/s, inverted: every backend is credited with the same FLOPs at one input and pass
    (the tool's rule), so their times stand as the inverse of their TFLOP/s (`by` says which).
    Inputs timed by one backend are left out (nothing to compare). `tied`: the backends that share the
    lowest time as printed (two or more: no one backend is the fastest there; `fastest` names them all);
    `margin`: the next fastest backend's time over the fastest's (1 for a tie)."""
    out = []
    keys = ["source", "op", "input", "pass"]
    for key, g in t.groupby(keys, sort=False, dropna=False):
        if g["backend"].nunique() < 2:
            continue
        if g["latency_ms"].notna().all():
            time, by = g["latency_ms"].astype(float), "latency"
        elif g["latency_ms"].isna().all() and (g["printed_tflops"] > 0).all():
            time, by = 1 / g["printed_tflops"].astype(float), "printed TFLOP/s"
        else:
            continue
        lo, hi = g.loc[time.idxmin()], g.loc[time.idxmax()]
        tied = list(dict.fromkeys(g.loc[time == time.min(), "backend"]))
        out.append(
            dict(
                zip(keys, key, strict=True),
                seq_len=lo["seq_len"],
                fastest=" and ".join(tied) if len(tied) > 1 else lo["backend"],
                tied=len(tied) > 1,
                fastest_ms=lo["latency_ms"],
                slowest=hi["backend"],
                slowest_ms=hi["latency_ms"],
                ratio=time.max() / time.min(),
                margin=time.nsmallest(2).iloc[-1] / time.min(),
                by=by,
            )
        )
    cols = ["source", "op", "input", "pass", "seq_len", "fastest", "tied", "fastest_ms", "slowest", "slowest_ms"]
    cols += ["ratio", "margin", "by"]
    return pd.DataFrame(out, columns=cols)


def failed(rejected: pd.DataFrame) -> pd.DataFrame:
    """The timings a flash-attention script printed as failed (0.00 TFLOP/s, its mark for a time of
    NaN: out of memory, or the method not run), from the set-aside report: backend, pass and line."""
    r = rejected[rejected["reason"] == flash_attn_bench.ZERO] if len(rejected) else rejected
    parts = [str(x).rsplit(" ", 3) for x in r["text"]] if len(r) else []
    return pd.DataFrame(
        {
            "source": list(r["source"]),
            "line": list(r["line"]),
            "backend": [p[0] for p in parts],
            "pass": [p[1] for p in parts],
        },
        columns=["source", "line", "backend", "pass"],
    )


def conflicts(rejected: pd.DataFrame) -> list[int]:
    """The lines of the rows set aside for giving one configuration (input, backend, pass) different values
    (`ingest.core.CONFLICT`: two runs that nothing in the file tells apart), so the page names them."""
    if not len(rejected):
        return []
    r = rejected[rejected["tool"].isin(TOOLS) & rejected["reason"].str.startswith(core.CONFLICT)]
    return sorted({int(x) for x in r["line"]})
