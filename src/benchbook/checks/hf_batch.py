"""Reproduce and audit bigcode-inference-benchmark batch sweeps (tool "hf-batch-sweep").

reproduce: msec/token = 1000 / tokens-per-sec (at the printed 2 decimals), and
tokens/sec = batch x 100 new tokens / sec. Both columns come from the same timing (all new tokens
of the 5 timed calls / their total time, and that total time / 5), so they agree up to the
rounding of "sec" to 0.01 s: the tolerance is the throughput range that rounding allows.

audit: `oom` padding cells, empty dtype columns, and where memory ran out.
"""

from __future__ import annotations

import math

import pandas as pd

from benchbook import checks, ingest
from benchbook.analysis.batch import NEW_TOKENS
from benchbook.checks import AUDIT_COLUMNS, REPRODUCTION_COLUMNS, frame, tolerance
from benchbook.ingest.hf_batch import EMPTY_NOTE, NAME, OOM_NOTE

_KEYS = ["model", "framework", "gpu", "dtype", "batch_size"]


def _read(path) -> pd.DataFrame:
    return ingest.read(path, tool=NAME)


def reproduce(path) -> pd.DataFrame:
    """One row per recomputed msec/token and per recomputed tokens/sec."""
    df = _read(path)
    rows = []
    thr = df[(df["metric"] == "throughput") & df["value"].notna()]
    ms = df[(df["metric"] == "ms_per_token") & df["value"].notna()]
    lat = df[(df["metric"] == "latency") & df["value"].notna()]
    msk = ms.set_index(_KEYS + ["line"])["value"]
    for _, r in thr.iterrows():
        key = tuple(r[k] for k in _KEYS) + (r["line"],)
        if key in msk.index:
            pub = float(msk.loc[key])
            rec = 1000.0 / r["value"]
            rows.append(
                {
                    "source": r["source"],
                    "tool": NAME,
                    "line": int(r["line"]),
                    "quantity": f"{r['model']} {r['dtype']} bs={r['batch_size']} msec/token = 1000 / tokens/sec",
                    "published": pub,
                    "recomputed": rec,
                    "tolerance": tolerance(2),
                    "agrees": checks.agrees(pub, rec, 2),
                    "why_not": None
                    if checks.agrees(pub, rec, 2)
                    else "msec/token is not 1000 / the printed tokens/sec",
                }
            )
    latk = lat.set_index(_KEYS)["value"]
    for _, r in thr.iterrows():
        key = tuple(r[k] for k in _KEYS)
        if key not in latk.index:
            continue
        sec = float(latk.loc[key])
        rec = r["batch_size"] * NEW_TOKENS / sec
        lo, hi = rounding_interval(r["batch_size"], sec)
        # the throughputs that "sec" rounded to 0.01 s allows, plus the throughput's own 0.005
        carried = max(hi - rec, rec - lo)
        ok = checks.agrees(r["value"], rec, 2, carried)
        rows.append(
            {
                "source": r["source"],
                "tool": NAME,
                "line": int(r["line"]),
                "quantity": f"{r['model']} {r['dtype']} bs={r['batch_size']} tokens/sec = batch x {NEW_TOKENS} / sec",
                "published": float(r["value"]),
                "recomputed": rec,
                "tolerance": tolerance(2, carried),
                "agrees": bool(ok),
                "why_not": None
                if ok
                else (
                    "outside the range that rounding sec to 0.01 s allows: fewer than "
                    f"{NEW_TOKENS} new tokens per sequence, or the two columns come from different runs"
                ),
            }
        )
    return frame(rows, REPRODUCTION_COLUMNS)


def audit(path) -> pd.DataFrame:
    """oom padding, empty columns and the memory limit, one row per defect."""
    df = _read(path)
    rows = []
    for (model, framework, _gpu, table, dtype), g in df.groupby(
        ["model", "framework", "gpu", "table", "dtype"], sort=False, dropna=False
    ):
        first = g.drop_duplicates("batch_size")
        oom = first[first["note"] == OOM_NOTE]
        empty = first[first["note"] == EMPTY_NOTE]
        if len(empty) == len(first):
            rows.append(
                {
                    "source": g["source"].iat[0],
                    "tool": NAME,
                    "defect": "empty column",
                    "line": int(first["line"].min()),
                    "value": None,
                    "evidence": f"{model}, {table} table: the {framework} {dtype} column is blank in all {len(first)} rows",
                    "consequence": f"no {dtype} result: reported as missing, never as zero",
                }
            )
        elif len(oom):
            ok = first[first["value"].notna()]
            last_ok = int(ok["batch_size"].max()) if len(ok) else None
            rows.append(
                {
                    "source": g["source"].iat[0],
                    "tool": NAME,
                    "defect": "oom padding",
                    "line": int(oom["line"].min()),
                    "value": "oom",
                    "evidence": f"{model}, {table} table, {framework} {dtype}: {len(oom)} 'oom' cell{'s' if len(oom) != 1 else ''} from batch size "
                    f"{int(oom['batch_size'].min())} (last result at {last_ok})",
                    "consequence": "'oom' is padding for a missing result line, not a measured error: "
                    "the memory limit lies between the last result and the first oom",
                }
            )
    return frame(rows, AUDIT_COLUMNS)


def rounding_interval(batch_size: int, sec: float, decimals: int = 2) -> tuple[float, float]:
    """The tokens/sec range consistent with a latency printed as `sec` at `decimals` places."""
    h = 0.5 * 10 ** (-decimals)
    return batch_size * NEW_TOKENS / (sec + h), batch_size * NEW_TOKENS / max(sec - h, math.ulp(1.0))
