"""Reproduce and audit attention-gym `examples/benchmark.py` tables (tool "attention-gym").

reproduce: every TF/s cell from its time (printed to 4 places), the shape (B=16, H=16, D=64, S
from the block mask or inferred), the block density (1 - sparsity) and the multiplier (4 forward,
10 backward); causal FA2 is credited 0.5 S^2 whatever the mask. Compared at the printed 2
decimals, with the tolerance widened by what the printed precision of time and of the sparsity
(2 decimals of a percent) carry (`checks.agrees`).

audit: runs that stopped in a traceback, sections whose S had to be inferred, and the FLOP
accounting of the sdpa + mask row (credited useful work, computes dense work).
"""

from __future__ import annotations

import math

import pandas as pd

from benchbook import checks, ingest
from benchbook.analysis.attention import MULTIPLIER
from benchbook.checks import AUDIT_COLUMNS, REPRODUCTION_COLUMNS, frame, printed_decimals, tolerance
from benchbook.ingest.attention_gym import DEFAULT_B, DEFAULT_D, DEFAULT_H, NAME

#: Places benchmark.py formats a time with (f"{ms:.4f}").
TIME_PLACES = 4


def credited_flops(
    operation: str, seq_len: float, density: float, b: int = DEFAULT_B, h: int = DEFAULT_H, d: int = DEFAULT_D
) -> float:
    """FLOPs of one attention matmul pair as the tool credits them (before the fw/bw multiplier)."""
    if operation == "causal_fa2":
        return 0.5 * b * h * d * seq_len * seq_len
    return density * b * h * d * seq_len * seq_len


def tflops(operation: str, pass_: str, time_ms: float, seq_len: float, density: float) -> float:
    """The tool's TF/s: multiplier x credited FLOPs x (1e3 / time_ms) / 1e12."""
    return MULTIPLIER[pass_] * credited_flops(operation, seq_len, density) * (1e3 / time_ms) / 1e12


def reproduce(path) -> pd.DataFrame:
    """One row per TF/s cell recomputed from its time."""
    df = ingest.read(path, tool=NAME)
    keys = ["line", "mask", "operation", "pass"]
    wide = df.pivot_table(
        index=keys + ["seq_len", "density", "source"], columns="metric", values="value", aggfunc="first", dropna=False
    ).reset_index()
    rows = []
    for _, r in wide.iterrows():
        if pd.isna(r.get("time")) or pd.isna(r.get("tflops")):
            continue
        if pd.isna(r["seq_len"]) or (r["operation"] != "causal_fa2" and pd.isna(r["density"])):
            rows.append(
                {
                    "source": r["source"],
                    "tool": NAME,
                    "line": int(r["line"]),
                    "quantity": f"{r['mask']} {r['operation']} {r['pass']} TF/s",
                    "published": r["tflops"],
                    "recomputed": math.nan,
                    "tolerance": math.nan,
                    "agrees": False,
                    "why_not": "sequence length or mask density not printed: cannot recompute",
                }
            )
            continue
        dens = 1.0 if r["operation"] == "causal_fa2" else r["density"]
        rec = tflops(r["operation"], r["pass"], r["time"], r["seq_len"], dens)
        # benchmark.py formats times with 4 places and TF/s with 2, and tabulate drops trailing zeros
        # (108.282 is 108.2820, 331.3 is 331.30); the time's 4th place and the sparsity's (0.01 %)
        # carry into the recomputed value
        t_half = 0.5 * 10 ** -max(TIME_PLACES, printed_decimals(r["time"]))
        d_rel = 0.0 if r["operation"] == "causal_fa2" or dens == 1.0 else 0.00005 / dens
        carried = rec * (t_half / r["time"] + d_rel)
        tol = tolerance(2, carried)
        ok = checks.agrees(r["tflops"], rec, 2, carried)
        rows.append(
            {
                "source": r["source"],
                "tool": NAME,
                "line": int(r["line"]),
                "quantity": f"{r['mask']} {r['operation']} {r['pass']} TF/s "
                f"(S={int(r['seq_len'])}, density={dens:.4f})",
                "published": r["tflops"],
                "recomputed": rec,
                "tolerance": tol,
                "agrees": bool(ok),
                "why_not": None
                if ok
                else "not the tool's formula at B=16, H=16, D=64: another shape, "
                "or a time and a TF/s from different runs",
            }
        )
    return frame(rows, REPRODUCTION_COLUMNS)


def audit(path) -> pd.DataFrame:
    """Partial runs, inferred shapes and the sdpa + mask accounting, one row per defect."""
    parsed = ingest.read_parsed(path, tool=NAME)[0]
    df = parsed.table
    src = df["source"].iat[0]
    rows = []
    for msg in parsed.messages:
        if msg.startswith("warning: the run stopped"):
            line = int(msg.split("at line ")[1].split(" ")[0])
            rows.append(
                {
                    "source": src,
                    "tool": NAME,
                    "defect": "run ended in a traceback",
                    "line": line,
                    "value": None,
                    "evidence": msg,
                    "consequence": "only the completed sections are analysed; later masks are missing",
                }
            )
        elif "inferred" in msg:
            line = int(msg.split("(line ")[1].split(")")[0])
            rows.append(
                {
                    "source": src,
                    "tool": NAME,
                    "defect": "sequence length not printed",
                    "line": line,
                    "value": None,
                    "evidence": msg,
                    "consequence": "S taken from the FA2 row at the default shape; density 1 (no block mask)",
                }
            )
    sd = df[(df["operation"] == "sdpa_mask") & (df["metric"] == "tflops") & (df["density"] < 1)]
    for _, r in sd.drop_duplicates(["mask", "pass"]).iterrows():
        rows.append(
            {
                "source": src,
                "tool": NAME,
                "defect": "useful-FLOP credit",
                "line": int(r["line"]),
                "value": r["value"],
                "evidence": f"{r['mask']} sdpa + mask {r['pass']}: credited density {r['density']:.4f} "
                "x S^2 although the dense mask makes it compute all of S^2",
                "consequence": "its TF/s understates the work done by 1/density; compare times, "
                "or its dense-equivalent TF/s",
            }
        )
    return frame(rows, AUDIT_COLUMNS)
