"""Recomputations of what the sources derived, and the defects found in them, one module per tool.

Each tool module offers `reproduce(path) -> DataFrame` with REPRODUCTION_COLUMNS and
`audit(path) -> DataFrame` with AUDIT_COLUMNS; the appendices stack them over every source.
"""

from __future__ import annotations

import math

import pandas as pd

#: One recomputed quantity per row: a number the source printed on the cited line (`published`), the
#: same quantity recomputed from other numbers it printed, the printed precision (`tolerance`, see
#: `tolerance`), whether they agree within it (`agrees`), and why not when they do not. Comparisons
#: of unlike things (Little's law against a cap, a rate against a datasheet peak) are analysis and
#: never rows here.
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
    published; one that cannot be recomputed (e.g. a printed 0.00 that was never measured) counts
    as a disagreement, with its reason."""
    table = _over(paths, "reproduce", REPRODUCTION_COLUMNS)
    table = table[table["published"].notna()].reset_index(drop=True)
    table["agrees"] = table["agrees"].astype(object).where(table["agrees"].notna(), False).astype(bool)
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


def summary(table: pd.DataFrame) -> pd.DataFrame:
    """Per source and tool: how many quantities were recomputed and how many agree."""
    g = table.groupby(["source", "tool"], sort=False)["agrees"]
    return (
        pd.DataFrame({"recomputed": g.size(), "agree": g.sum().astype(int)})
        .assign(disagree=lambda d: d["recomputed"] - d["agree"])
        .reset_index()
    )
