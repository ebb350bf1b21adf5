"""The claims ledger appendix's logic: every chapter's ledger loaded, counted and laid out, so the
notebook is calls only (a folder with no ledger is one sentence: `ParameterError`)."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from benchbook import config
from benchbook.claims import Ledger
from benchbook.parameters import ParameterError
from benchbook.topics import Page

CHAPTER = "claims_ledger"


@dataclass
class Result:
    """The ledgers read, one row per claim, and the per-chapter summary."""

    params: dict
    ledgers: list[dict]
    table: pd.DataFrame
    summary: pd.DataFrame


def analyse(p: dict) -> Result:
    from benchbook.presentation import ledger as L

    ledgers = L.load(p["source"])
    if not ledgers:
        raise ParameterError(
            "parameter 'source' holds no claims ledger (*.json); build the book or run a chapter first."
        )
    return Result(p, ledgers, L.claims_table(ledgers), L.summary(ledgers))


def page(r: Result) -> Page:
    """The counts the prose quotes, the summary table and one folded section per chapter."""
    from benchbook.presentation import ledger as L
    from benchbook.presentation import tables

    status = r.table["status"]
    counts = {
        "n_claims": len(r.table),
        "n_chapters": r.table["chapter"].nunique(),
        "n_shown": int((status == "shown").sum()),
        "n_withheld": int((status == "withheld").sum()),
        "n_not_applicable": int((status == "not applicable").sum()),
        "n_implausible": int((status == "implausible").sum()),
        "n_problems": int(r.summary["problems on re-judging"].sum()),
    }
    return Page(
        Ledger(CHAPTER, [config.relative(x) for x in r.params["source"]]),
        texts={k: str(v) for k, v in counts.items()},
        markdown={"ledger_sections": L.sections(r.ledgers)},
        tables={"summary": lambda: tables.show(r.summary)},
    )
