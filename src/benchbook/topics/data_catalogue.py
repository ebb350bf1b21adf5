"""The data catalogue appendix's logic: the raw files' manifests checked against their bytes, and
the tidy tables' dictionary generated from the parsers' schemas, so the notebook is calls only."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from benchbook import catalogue, config
from benchbook.claims import Ledger
from benchbook.parameters import ParameterError
from benchbook.topics import Page

CHAPTER = "data_catalogue"


@dataclass
class Result:
    """One row per raw file with its manifest's facts and whether its bytes match its sha256."""

    params: dict
    files: pd.DataFrame


def analyse(p: dict) -> Result:
    """Read the manifests of the one folder `raw_dir` names (anything else is one sentence)."""
    if len(p["raw_dir"]) != 1 or not p["raw_dir"][0].is_dir():
        got = ", ".join(config.relative(x) for x in p["raw_dir"])
        raise ParameterError(f"parameter 'raw_dir' must be one folder, got {got}.")
    return Result(p, catalogue.manifests(p["raw_dir"][0]))


def page(r: Result) -> Page:
    """The counts the prose quotes, the files, what each holds, and the tidy tables' dictionary."""
    from benchbook.presentation import outputs, tables

    return Page(
        Ledger(CHAPTER, [config.relative(r.params["raw_dir"][0])]),
        texts={
            "n_files": str(len(r.files)),
            "n_ok": str(int(r.files["sha256_ok"].sum())),
            "n_tools": str(catalogue.data_dictionary()["tool"].nunique()),
        },
        tables={
            "files": lambda: tables.show(catalogue.files_table(r.files)),
            "described": lambda: outputs.display(catalogue.describe(r.files), markdown=True),
            "dictionary": lambda: tables.show(catalogue.dictionary_table()),
            "metrics": lambda: tables.show(catalogue.metric_table()),
        },
    )
