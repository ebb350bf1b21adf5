"""The tracking chapter's logic: one metric over runs in time order, each run against the one before
it (judged by the tools' own spread), and where the level changes (binary segmentation with a
permutation test), each verdict a claim."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from benchbook import config, warehouse
from benchbook.analysis import tracking
from benchbook.analysis.changes import Change, change_points
from benchbook.claims import Ledger
from benchbook.claims import tracking as claims
from benchbook.parameters import ParameterError
from benchbook.topics import Page

CHAPTER = "tracking"


@dataclass
class Result:
    """The series, its changes and steps, and the ledger of every verdict."""

    params: dict
    inputs: list[str]
    series: tracking.Series
    changes: list[Change]
    steps: pd.DataFrame
    smallest_p: float
    ledger: Ledger

    @property
    def runs(self) -> pd.DataFrame:
        return self.series.runs


def analyse(p: dict) -> Result:
    """Load the runs (a bad filter or metric is one sentence: `ParameterError`), find the changes in
    level and the steps, and judge every claim."""
    from benchbook.presentation import wording

    try:
        s = tracking.load(p["source"], p["metric"], tracking.parse_where(p["where"]))
    except (ValueError, warehouse.WarehouseError) as exc:
        raise ParameterError(f"{exc}.") from None
    runs = s.runs
    changes = change_points(runs["value"].to_numpy(), alpha=p["alpha"]) if len(runs) >= 4 else []
    steps = tracking.steps(runs)
    smallest = tracking.smallest_p(len(runs))
    inputs = [config.relative(x) for x in p["source"]]
    ledger = wording.ledger(CHAPTER, inputs, claims.build(runs, changes, steps, p["alpha"], p["metric"], smallest))
    return Result(p, inputs, s, changes, steps, smallest, ledger)


def page(r: Result) -> Page:
    """Every text, figure and table of the chapter, drawn from the result."""
    from benchbook.presentation import bottom_line, outputs, placement, tables, wording
    from benchbook.presentation import tracking as show

    led, s = r.ledger, r.series
    boxed = {c["id"] for c in bottom_line.pick(led)}  # what the box says, no block says again
    shown = [c for c in led.claims if c.shown and c.id not in boxed]
    texts = {
        "files": ", ".join(r.inputs),
        "n_runs": str(len(r.runs)),
        "metric_name": f"{r.params['metric']} ({s.statistic})",
        "order_words": show.order_words(s.order, len(r.runs), s.undated),
        "where_words": r.params["where"] or "no filter",
        "smallest_p_words": f"{r.smallest_p:.2g}",
        "fewest_05": str(tracking.fewest_runs(0.05)),
        "fewest_01": str(tracking.fewest_runs(0.01)),
    }
    markdown = {
        "change_block": wording.block(led, [c.id for c in shown if c.id.startswith("change_")]),
        "step_block": wording.block(led, [c.id for c in shown if c.id.startswith("step_")]),
        "withheld": placement.folded_box(led),
    }
    figures = {
        "fig_series": show.series_figure(r.runs, r.changes, r.params["metric"], s.statistic),
        "fig_smallest_p": show.smallest_p_figure(len(r.runs), r.params["alpha"]),
    }

    def runs_table():
        shown_runs = show.runs_table(r.runs, r.params["metric"], s.statistic)
        # the value as the sentences print it
        outputs.display(tables.show(shown_runs, missing=show.RUNS_MISSING, digits={shown_runs.columns[3]: 4}))

    return Page(led, texts=texts, markdown=markdown, figures=figures, tables={"runs": runs_table})
