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


def test_runs_the_output_leaves_unnamed_are_named_by_their_settings():
    """A JSON line is named by its load and, where they vary, its dataset or model, never by its place
    in the file ("json line 3")."""
    r, _ = serving.load([FIX / "datacrunch_llama33_70b_online.jsonl"])
    assert list(r["run"]) == [
        "random, rate=1",
        "random, rate=2",
        "random, rate=4",
        "random, rate=8",
        "random, rate=16",
        "sharegpt, rate=4",
        "sharegpt, rate=8",
    ]
    # three passes over the same three rates in one file: told apart, not merged into repeats
    llmd, _ = serving.load([config.FIXTURES_DIR / "vllm-bench-serve" / "llmd_results.jsonl"])
    assert list(llmd["run"][:4]) == ["rate=10, run 1", "rate=30, run 1", "rate=inf, run 1", "rate=10, run 2"]
    assert not llmd["run"].str.contains("json").any() and serving.repeats(llmd).max() == 1
    # MLPerf names its scenario; its Offline target_qps is no request rate
    mlperf = config.FIXTURES_DIR / "mlperf-loadgen"
    assert serving.load([mlperf / "amd_mi300x_llama2_70b_server_summary.txt"])[0]["run"].tolist() == [
        "Server, rate=73.5"
    ]
    assert serving.load([mlperf / "amd_mi300x_llama2_70b_offline_summary.txt"])[0]["run"].tolist() == ["Offline"]


def test_per_request_rows_follow_their_run_when_it_is_renamed():
    r, req = serving.load([config.FIXTURES_DIR / "vllm-bench-serve" / "synthetic_save_detailed.json"])
    assert r["run"].tolist() == ["c=4, rate=inf"] and set(req["run"]) == {"c=4, rate=inf"}
    assert serving.littles_law(r, req)["e2el_from"].tolist() == ["requests"]  # the join still finds them
    named = serving.settings_labels(r.assign(run="my run"), req)[0]
    assert named["run"].tolist() == ["my run"]  # a run the output names keeps its name


def test_two_servers_at_one_load_are_two_series_and_a_run_without_settings_has_no_empty_brackets():
    # issue 23896: EAGLE on pure TP 4 (its YAML command above the blocks) and a DP-attention server whose
    # block has no command of its own, only its Accept length row, both at cap 100: two servers
    r, _ = serving.load([FIX / "sglang_issue23896_dsv4_flash_h20_eagle_tp4_vs_dp4.md"])
    keys = serving.series_key(r).drop_duplicates().tolist()
    assert sorted(keys) == [
        "DeepSeek-V4-Flash-FP8 (tp=4; speculative=EAGLE)",
        "the unnamed model (speculative=method not named)",
    ]
    assert serving.repeats(r).max() == 1
    # two blocks at cap 512, one printing an acceptance length: the other states no setting at all
    r, _ = serving.load([FIX / "nvfp4_sglang_oai_two_blocks_cap512.md"])
    assert sorted(serving.series_key(r).drop_duplicates()) == [
        "the unnamed model",
        "the unnamed model (speculative=method not named)",
    ]
    assert serving.repeats(r).max() == 1
