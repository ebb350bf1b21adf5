"""Runs of two workloads at one load are two series, never repeats of one load."""

from benchbook import config
from benchbook.analysis import serving
from benchbook.presentation import serving as show

FIX = config.FIXTURES_DIR / "sglang-bench-serving"


def test_two_datasets_at_the_same_rates_are_two_series_not_repeats():
    # datacrunch: lines 1-5 random 1024/1024 at rates 1-16, lines 6-7 sharegpt at rates 4 and 8
    r, _ = serving.load([FIX / "datacrunch_llama33_70b_online.jsonl"])
    assert serving.series_key(r).value_counts().to_dict() == {
        "the unnamed model, dataset random": 5,
        "the unnamed model, dataset sharegpt": 2,
    }
    assert serving.repeats(r).max() == 1
    k = serving.knees(r, "request_rate", 0.25).set_index("series")
    assert k.loc["the unnamed model, dataset random", "n"] == 5
    assert k.loc["the unnamed model, dataset sharegpt", "n"] == 2
    text = show.inputs_sentence("f", r, "request_rate", 0)
    assert "They form 2 series" in text and "dataset sharegpt (2 runs)" in text


def test_one_dataset_is_one_series_and_says_nothing_of_series():
    r, _ = serving.load([FIX / "datacrunch_llama33_70b_online.jsonl"])
    one = r[r["dataset"] == "random"]
    assert serving.series_key(one).nunique() == 1 and "dataset" not in serving.series_key(one).iloc[0]
    assert "series" not in show.inputs_sentence("f", one, "request_rate", 0)


def test_repeats_are_numbered_in_the_tables_and_single_runs_are_not():
    sweep = sorted((config.FIXTURES_DIR / "vllm-bench-serve" / "synthetic_sweep").rglob("run=*.json"))
    r, _ = serving.load(sweep)
    for t in (show.runs_table(r), show.littles_table(serving.littles_law(r))):
        assert list(t.columns[:2]) == ["run", "repeat"]
        assert t.groupby("run")["repeat"].apply(sorted).map(list).tolist() == [[1, 2]] * t["run"].nunique()
    one, _ = serving.load([FIX / "datacrunch_llama33_70b_online.jsonl"])
    assert "repeat" not in show.runs_table(one).columns
