"""The reproduction appendix's logic: every number a source derived, recomputed from the numbers it
printed (`checks.reproduce_all`), counted and drawn, so the notebook is calls only."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from benchbook import checks, config
from benchbook.claims import Ledger
from benchbook.topics import Page, write_table, written

CHAPTER = "reproduction"


@dataclass
class Result:
    """The files checked, the table of recomputed quantities and the tools read but not recomputed."""

    params: dict
    files: list
    table: pd.DataFrame
    unchecked: list[str]

    @property
    def counts(self) -> pd.DataFrame:
        return checks.summary(self.table)


def analyse(p: dict) -> Result:
    """Recompute every derived number of the inputs and write the full table where `csv_out` says."""
    files = checks.expand(p["source"])
    table = checks.reproduce_all(files)
    write_table(table, p["csv_out"])
    return Result(p, files, table, checks.unchecked_tools(files))


def page(r: Result) -> Page:
    """The counts the prose quotes, the summary, the agreement figure and the disagreements."""
    from benchbook.presentation import outputs, tables, wording
    from benchbook.presentation import reproduction as show

    counts = r.counts
    once = r.table[(checks.repeats(r.table) == "") & checks.checkable(r.table)]
    n_repeated = int(counts["repeated"].sum())
    n_unchecked = int(counts["not checkable"].sum())

    def say(name: str, **values) -> None:
        outputs.display(wording.sentence(CHAPTER, name, **values), markdown=True)

    def disagreements() -> None:
        explained = show.disagreements(r.table)
        say("none_disagree") if explained.empty else outputs.display(tables.show(explained))

    return Page(
        Ledger(CHAPTER, [config.relative(f) for f in r.files]),
        texts={
            "n_quantities": f"{int(counts['recomputed'].sum()):,}",
            "n_agree": f"{int(counts['agree'].sum()):,}",
            "n_disagree": f"{int(counts['disagree'].sum()):,}",
            "n_unchecked": f"{n_unchecked:,}",
            "n_files": f"{len(r.files):,}",
            "n_explained": f"{int((once['agrees'].eq(False) & once['why_not'].fillna('').ne('')).sum()):,}",
        },
        markdown={
            "written": written(CHAPTER, r.params["csv_out"]),
            "repeated": wording.sentence(CHAPTER, "repeated", n=n_repeated) if n_repeated else "",
            "files": wording.sentence(CHAPTER, "files", n=len(r.files)),
            "apart": wording.sentence(CHAPTER, "apart", n=n_unchecked) if n_unchecked else "",
        },
        figures={"fig_agreement": show.agreement_figure(r.table)},
        tables={
            "unchecked": lambda: say("unchecked", tools=r.unchecked) if r.unchecked else None,
            "summary": lambda: tables.show(show.summary_display(counts)),
            "disagreements": disagreements,
        },
    )
