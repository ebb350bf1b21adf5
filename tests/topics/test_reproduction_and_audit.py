"""The reproduction appendix's and the data audit's logic, run without a notebook: the counts their
prose quotes come from the tables, the full table goes where `csv_out` says (nowhere for ""), and
no page names a machine path for it."""

from __future__ import annotations

import pandas as pd
import pytest

from benchbook import config
from benchbook.chapter import setup
from benchbook.topics import data_audit, reproduction, written

TGI = "data/raw/tgi_bloomz_tp"


def test_reproduction_counts_add_up_and_the_table_is_written_where_asked(tmp_path):
    out = tmp_path / "sub" / "repro.csv"
    r = reproduction.analyse(setup("reproduction", {"source": TGI, "csv_out": str(out)}))
    pg = reproduction.page(r)
    t = pg.texts
    n = {k: int(v.replace(",", "")) for k, v in t.items()}
    assert n["n_agree"] + n["n_disagree"] + n["n_unchecked"] == n["n_quantities"]
    assert n["n_disagree"] > 0  # the TGI throughput averages are means of ratios (see the appendix)
    assert len(pd.read_csv(out)) == len(r.table)
    assert pg.markdown["written"] == "The full table is written to `repro.csv`."  # a name, never a machine path


def test_the_counts_the_prose_quotes_are_grouped_as_every_number_in_prose():
    """The appendix said "1193 derived quantities ... 1038 agree" beside tables that print 1,091."""
    t = reproduction.page(reproduction.analyse(setup("reproduction", {"csv_out": ""}))).texts
    assert "," in t["n_quantities"] and int(t["n_quantities"].replace(",", "")) >= 1000
    assert t["n_files"] == f"{int(t['n_files']):,}"  # under a thousand: no separator


def test_no_table_is_written_for_an_empty_csv_out(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = reproduction.analyse(setup("reproduction", {"source": TGI, "csv_out": ""}))
    assert reproduction.page(r).markdown["written"] == "" and not list(tmp_path.iterdir())


def test_a_relative_csv_out_is_named_as_the_reader_gave_it():
    assert written("data_audit", "_build/audit.csv") == "The full table is written to `_build/audit.csv`."


@pytest.mark.parametrize("source", [TGI, "tests/fixtures/llama-bench"])
def test_audit_counts_are_the_rows_of_its_table(source):
    r = data_audit.analyse(setup("data_audit", {"source": source, "csv_out": ""}))
    t = data_audit.page(r).texts
    assert int(t["n_defects"]) == len(r.audit) and int(t["n_classes"]) == r.audit["defect"].nunique()
    assert int(t["n_set_aside"]) == len(r.set_aside)
    # the count is said over a table of them; with none, only "nothing was set aside" says so, once
    said = data_audit.page(r).markdown["set_aside_count"]
    assert said == (f"In these files {len(r.set_aside):,} numbers were set aside." if len(r.set_aside) > 1 else said)
    assert (said == "") == r.set_aside.empty


def test_the_set_aside_count_is_said_only_over_numbers_set_aside():
    from benchbook.presentation import wording

    assert wording.sentence("data_audit", "set_aside_count", n=0) == ""
    assert wording.sentence("data_audit", "set_aside_count", n=1) == "In these files 1 number was set aside."
    assert wording.sentence("data_audit", "set_aside_count", n=3) == "In these files 3 numbers were set aside."


def test_counts_are_said_with_nouns_that_agree_and_no_zero_sentence():
    """'From 1 raw files' and 'The other 0 are no check' were said on one TGI file; a count's noun
    agrees with it, and the paragraph on unchecked quantities is said only where there are some."""
    one = reproduction.page(reproduction.analyse(setup("reproduction", {"source": TGI, "csv_out": ""})))
    assert one.markdown["files"] == "1 raw file" and one.texts["n_unchecked"] == "0" and one.markdown["apart"] == ""
    book = reproduction.page(reproduction.analyse(setup("reproduction", {"csv_out": ""})))
    assert book.markdown["files"].endswith(" raw files") and book.markdown["apart"].startswith("The other ")
    assert " quantities cannot be checked and are counted apart" in book.markdown["apart"]


def test_the_audit_count_agrees_with_its_numbers():
    from benchbook.presentation import wording

    assert wording.sentence("data_audit", "found", n=1, k=1, f=1) == "The audit found 1 defect of 1 kind in 1 file."
    assert wording.sentence("data_audit", "found", n=9, k=2, f=3) == "The audit found 9 defects of 2 kinds in 3 files."


def test_the_tgi_exercise_answers_with_what_the_table_gives_and_calls_no_agreement_exact():
    """The solution said the decode totals are "exactly" 7 x the per-token means and gave no "at most";
    on the TGI seed the throughput averages differ by up to 5.1 % (TP 8 prefill, batch 4: 123.00 against
    4 / 34.17 ms) and the totals sit up to 0.04 ms from 7 x the per-token means."""
    table = reproduction.analyse(setup("reproduction", {"source": TGI, "csv_out": ""})).table
    off = table[table["agrees"] == False]  # noqa: E712 (a column of True, False and empty)
    assert (off["published"] / off["recomputed"] - 1).abs().max() == pytest.approx(123.00 / (4 / 0.03417) - 1)
    totals = table[table["quantity"].str.startswith("decode_total_latency")]
    gap = (totals["published"] - totals["recomputed"]).abs()
    assert gap.max() == pytest.approx(0.04, abs=1e-6) and (gap > 0).any()
    text = " ".join((config.NOTEBOOKS_DIR / "reproduction.md").read_text(encoding="utf-8").split())
    assert "by 5.1% at most" in text and "0.04 ms apart at most" in text and "are exactly 7 x" not in text
