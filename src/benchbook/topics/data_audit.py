"""The data audit's logic: every defect of the raw files, found by code (`checks.audit_all`), and
every number the parsers set aside, so the notebook is calls only."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from benchbook import checks, config, ingest
from benchbook.claims import Ledger
from benchbook.topics import Page, write_table, written

CHAPTER = "data_audit"


@dataclass
class Result:
    """The files audited, their defects and the numbers set aside."""

    params: dict
    files: list
    audit: pd.DataFrame
    set_aside: pd.DataFrame


def analyse(p: dict) -> Result:
    """Audit the inputs and write the full table where `csv_out` says."""
    files = checks.expand(p["source"])
    audit = checks.audit_all(files)
    write_table(audit, p["csv_out"])
    return Result(p, files, audit, ingest.set_aside(files))


def page(r: Result) -> Page:
    """The counts the prose quotes, the defects by class, their consequences, one table per file, and
    the numbers set aside."""
    from benchbook.presentation import audit as show
    from benchbook.presentation import outputs, tables, wording

    counts = show.defect_counts(r.audit)

    def say(name: str, **values) -> None:
        outputs.display(wording.sentence(CHAPTER, name, **values), markdown=True)

    def defects():
        if len(counts):
            outputs.display(tables.show(counts.rename(columns={"count": "defects found"})))

    def consequences():
        if r.audit.empty:
            say("no_defect")
        else:
            outputs.display(tables.show(show.consequence_table(r.audit)))

    def per_file():  # one table per file, so evidence reads wide
        for (audited, tool), found in r.audit.groupby(["source", "tool"], sort=False):
            say("file_heading", file=audited, tool=tool, n=len(found))
            outputs.display(tables.show(show.audit_table(found, ["defect", "line", "value", "evidence"])))

    def set_aside():
        if r.set_aside.empty:
            say("none_set_aside")
        else:
            outputs.display(
                tables.show(show.set_aside_counts(r.set_aside, r.set_aside["reason"].map(ingest.reason_kind)))
            )
            outputs.display(tables.show(show.set_aside_table(r.set_aside)))

    return Page(
        Ledger(CHAPTER, [config.relative(f) for f in r.files]),
        texts={
            "n_defects": str(len(r.audit)),
            "n_classes": str(r.audit["defect"].nunique()),
            "n_files": str(len(r.files)),
            "n_set_aside": str(len(r.set_aside)),
            "found": wording.sentence(CHAPTER, "found", n=len(r.audit), k=r.audit["defect"].nunique(), f=len(r.files)),
        },
        markdown={
            "written": written(CHAPTER, r.params["csv_out"]),
            "set_aside_count": wording.sentence(CHAPTER, "set_aside_count", n=len(r.set_aside)),
        },
        figures={"fig_defects": show.defects_figure(counts)},
        tables={"defects": defects, "consequences": consequences, "per_file": per_file, "set_aside": set_aside},
    )
