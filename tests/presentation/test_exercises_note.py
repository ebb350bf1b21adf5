"""The exercises' solutions describe the book's data: a page run on other data says so above them."""

from benchbook.chapter import changed_parameters, declared
from benchbook.presentation import wording


def test_defaults_change_nothing_and_a_new_source_is_named():
    spec = declared("perf_per_watt")
    defaults = {k: v["default"] for k, v in spec.items()}
    assert changed_parameters("perf_per_watt", defaults) == {}
    mine = dict(defaults, source="my_run.txt", peak_fraction=0.9)
    assert changed_parameters("perf_per_watt", mine) == {"source": "my_run.txt", "peak_fraction": 0.9}
    # names outside the parameters cell (the notebook's own variables) are not parameters
    assert changed_parameters("perf_per_watt", dict(defaults, df=1)) == {}


def test_an_output_file_elsewhere_changes_nothing_the_exercises_describe():
    spec = declared("reproduction")
    defaults = {k: v["default"] for k, v in spec.items()}
    assert changed_parameters("reproduction", dict(defaults, csv_out="runs/reproduction.csv")) == {}
    assert changed_parameters("reproduction", dict(defaults, source="mine")) == {"source": "mine"}


def test_the_note_names_the_books_data_and_this_run(tmp_path):
    spec = declared("tp_scaling")
    note = wording.exercises_note(spec, {"source": str(tmp_path / "my_run.txt"), "gpu": "H100-SXM5-80GB"})
    assert note.startswith("> **These exercises are about the book's data.**") and ":::" not in note
    assert spec["source"]["default"] in note and "other values of `source` and `gpu`" in note
    assert str(tmp_path) not in note  # a reader's path never reaches the page


def test_claims_withheld_for_one_reason_are_said_once(worded):
    from benchbook.claims import Ledger, make

    ledger = Ledger("t", [])
    for cid, topic in [("a", "The decode bandwidth"), ("b", "The prefill compute"), ("c", "TP scaling")]:
        ledger.add(worded(make(cid, "anomaly", "r", {"n": 1, "count": 0}), "shown", topic=topic))
    ledger.add(worded(make("d", "anomaly", "r", {"n": 2, "count": 1}), "Two of them.", topic="x"))
    ledger.add(worded(make("e", "anomaly", "r", {"n": 0}), "shown", topic="The last"))
    text = wording.together(ledger, ["a", "b", "c", "d", "e"])
    assert text == (
        "The decode bandwidth, the prefill compute and TP scaling: not stated for this input, because no "
        "instance found. Two of them. The last: not stated for this input, because nothing to check."
    )
