"""Recomputations of what the sources derived, and the defects found in them, one module per tool.

Each tool module offers `reproduce(path) -> DataFrame` with REPRODUCTION_COLUMNS and
`audit(path) -> DataFrame` with AUDIT_COLUMNS; the appendices stack them over every source.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

#: One recomputed quantity per row: a number the source printed on the cited line (`published`), the
#: same quantity recomputed from other numbers it printed, the printed precision (`tolerance`, see
#: `tolerance`), whether they agree within it (`agrees`), and why not when they do not. `agrees` is
#: True or False only for a row that could fail; it is empty (None) for a row that is no check: one
#: whose tolerance covers the published value (`checkable`), or whose "recomputed" value is the same
#: number printed again elsewhere (`copied`: a number compared with itself). Comparisons of unlike
#: things (Little's law against a cap, a rate against a datasheet peak) are analysis and never rows here.
REPRODUCTION_COLUMNS = [
    "source",
    "tool",
    "line",
    "quantity",
    "published",
    "recomputed",
    "tolerance",
    "agrees",
    "why_not",
]

#: One defect per row, with its evidence and its consequence for the analysis.
AUDIT_COLUMNS = ["source", "tool", "defect", "line", "value", "evidence", "consequence"]


def frame(rows: list[dict], columns: list[str]) -> pd.DataFrame:
    """A checks table with exactly `columns` (missing keys become NaN)."""
    return pd.DataFrame(rows, columns=columns)


def tolerance(decimals: int, carried: float = 0.0) -> float:
    """How far a recomputed value may sit from one printed with `decimals` places: half a unit in
    the last printed place (the source's own rounding), plus `carried`, what the printed precision
    of the inputs (or a documented truncation) moves the recomputed value. Nothing else."""
    return 0.5 * 10 ** (-decimals) + abs(carried)


def agrees(published: float, recomputed: float, decimals: int, carried: float = 0.0) -> bool:
    """True when `recomputed` is within `tolerance(decimals, carried)` of `published`; a missing
    value on either side never agrees. The one comparator every reproduction row uses."""
    try:
        pub, rec = float(published), float(recomputed)
    except (TypeError, ValueError):
        return False
    if not (math.isfinite(pub) and math.isfinite(rec)):
        return False
    # 1e-9 relative: the binary representation of a printed decimal, not a tolerance
    return abs(rec - pub) <= tolerance(decimals, carried) + 1e-9 * max(1.0, abs(pub))


def copied(line) -> str:
    """The `why_not` of a row whose "recomputed" value is a number the source printed on `line` and
    printed again on the row's line (a ranking that repeats a summary mean): no arithmetic links the
    two, so the row is no check and its `agrees` is None."""
    return f"{COPY} (line {line})"


#: How `why_not` starts for a row that compares a number with a printed copy of itself.
COPY = "a copy of the number printed on another line, not a recomputation"


def printed_decimals(x: float) -> int:
    """Places after the decimal point in the shortest text of `x` (what a tool printing full floats
    printed); 0 for integers and exponent notation."""
    s = repr(float(x))
    return len(s.split(".")[1]) if "." in s and "e" not in s else 0


def _module_for(tool: str):
    """The checks module of a tool (same name as the ingest module that registered it), or None
    for a tool the book reads but has no reproduction or audit for yet (see `unchecked_tools`)."""
    import importlib

    from benchbook import ingest

    name = ingest.tools()[tool].parse.__module__.replace(".ingest.", ".checks.")
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise
        return None


def unchecked_tools(paths) -> list[str]:
    """Tools found in `paths` that have no checks module: their numbers are read, not reproduced."""
    from benchbook import config, ingest

    found = {t for p in paths for t in ingest.detect(ingest._load_text(config.resolve(p)))}
    return sorted(t for t in found if _module_for(t) is None)


def _over(paths, what: str, columns: list[str]) -> pd.DataFrame:
    from benchbook import config, ingest

    frames = []
    for path in paths:
        p = config.resolve(path)
        for tool in ingest.detect(ingest._load_text(p)):
            module = _module_for(tool)
            if module is not None:
                frames.append(getattr(module, what)(p))
    frames = [f for f in frames if len(f)]
    return pd.concat(frames, ignore_index=True)[columns] if frames else frame([], columns)


def reproduce_all(paths) -> pd.DataFrame:
    """The reproduction table over every tool found in every file: only quantities the source
    published. `agrees` is True or False where the row could fail (one that cannot be recomputed,
    e.g. a printed 0.00 that was never measured, is False with its reason), and None where it is no
    check (`checkable`: a tolerance that covers the published value, or a copied number)."""
    table = _over(paths, "reproduce", REPRODUCTION_COLUMNS)
    table = table[table["published"].notna()].reset_index(drop=True)
    ok = checkable(table)
    table["agrees"] = [bool(a) if c else None for a, c in zip(table["agrees"].fillna(False), ok, strict=True)]
    return table


def audit_all(paths) -> pd.DataFrame:
    """The audit table over every tool found in every file."""
    return _over(paths, "audit", AUDIT_COLUMNS)


def expand(source) -> list:
    """Files named by a `source` parameter: files as given, folders expanded to the tool outputs
    inside them (a write-up .md is a tool output; only READMEs and .yml manifests are skipped). A
    listed folder is logged as read, so that the build's cache re-runs the chapter when a file is
    added to it."""
    from pathlib import Path

    from benchbook import config

    items = source if isinstance(source, (list, tuple)) else [s.strip() for s in str(source).split(",") if s.strip()]
    out: list[Path] = []
    for item in items:
        p = config.resolve(item)
        if p.is_dir():
            config.log_read(p)
            out += sorted(
                f
                for f in p.rglob("*")
                if f.is_file() and f.name.lower() != "readme.md" and not f.name.endswith((".yml", ".yaml"))
            )
        else:
            out.append(p)
    return out


def checkable(table: pd.DataFrame) -> pd.Series:
    """Whether each row could fail: its tolerance is below |published|, and its recomputed value is
    not a copy of a printed number (`copied`). A row whose tolerance is at least the published value
    (a standard deviation printed as 0.01, within 0.011) agrees with any recomputed value from 0 to
    twice it, and a number agrees with a printed copy of itself: neither is checkable, and both are
    counted apart, never as agreement. A row with no tolerance is checkable."""
    why = table["why_not"] if "why_not" in table else pd.Series("", index=table.index)
    copy = why.astype(object).fillna("").astype(str).str.startswith(COPY)
    if "tolerance" not in table:
        return ~copy
    tol = pd.to_numeric(table["tolerance"], errors="coerce")
    return ~(tol >= pd.to_numeric(table["published"], errors="coerce").abs()) & ~copy


def repeats(table: pd.DataFrame) -> pd.Series:
    """For each row, "SOURCE line N" of an earlier file's row that published the same number (same
    tool and quantity, the same published and recomputed values), else "": a file that repeats part
    of another (seed 001 repeats seed 000's TP 1 section) must not count its numbers twice. The
    quantity is compared by its first word (its metric): files label their sections differently."""
    if table.empty or "source" not in table:
        return pd.Series("", index=table.index, dtype=object)
    key = (
        pd.DataFrame(
            {
                "tool": table["tool"].astype(str),
                "metric": table.get("quantity", pd.Series("", index=table.index)).astype(str).str.split().str[0],
                "published": pd.to_numeric(table["published"], errors="coerce").round(12),
                "recomputed": pd.to_numeric(table["recomputed"], errors="coerce").round(12),
            }
        )
        .astype(str)
        .fillna("")
    )
    pos = pd.Series(range(len(table)), index=table.index)
    first = pos.groupby([key[c] for c in key], sort=False, dropna=False).transform("first").to_numpy(dtype=int)
    src = table["source"].astype(str).to_numpy()
    line = table["line"].astype(str).to_numpy() if "line" in table else np.full(len(table), "?")
    out = [f"{src[f]} line {line[f]}" if src[f] != src[i] else "" for i, f in enumerate(first)]
    return pd.Series(out, index=table.index, dtype=object)


def summary(table: pd.DataFrame) -> pd.DataFrame:
    """Per source and tool: how many published quantities were recomputed (each counted once:
    `repeated` rows of a file that repeats another are left out), how many agree and disagree at
    the printed precision, and how many are `not checkable` at it (`checkable`), counted apart."""
    rep = repeats(table) != ""
    ok = checkable(table) & ~rep
    agrees = table["agrees"].eq(True)
    t = table.assign(
        _once=~rep, _agree=agrees & ok, _disagree=~agrees & ok, _vacuous=~checkable(table) & ~rep, _rep=rep
    )
    g = t.groupby(["source", "tool"], sort=False)
    out = pd.DataFrame(
        {
            "recomputed": g["_once"].sum(),
            "agree": g["_agree"].sum(),
            "disagree": g["_disagree"].sum(),
            "not checkable": g["_vacuous"].sum(),
            "repeated": g["_rep"].sum(),
        }
    ).astype(int)
    return out.reset_index()
