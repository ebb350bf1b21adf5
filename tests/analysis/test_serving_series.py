"""Runs of two workloads at one load are two series, never repeats of one load."""

import pandas as pd

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


def _caps(inputs, outputs, caps=(1, 2, 4, 8), label="c") -> pd.DataFrame:
    """Runs at `caps` whose 100 requests take `inputs` / `outputs` tokens a request on average."""
    return pd.DataFrame(
        dict(
            run=[f"{label}={c}" for c in caps],
            model="m",
            max_concurrency=[float(c) for c in caps],
            request_rate=float("inf"),
            completed=100.0,
            total_input_tokens=[100.0 * i for i in inputs],
            total_generated_tokens=[100.0 * o for o in outputs],
            output_throughput=[100.0, 190.0, 300.0, 320.0],
        )
    )


def test_runs_of_two_workloads_are_two_series_never_loads_of_one_sweep():
    # caps 1 and 2 at 127 in / 32 out, caps 4 and 8 at 506 in / 258 out: two workloads, not a sweep of four
    r = _caps([127, 127, 506, 506], [32, 32, 258, 258])
    assert serving.series_key(r).value_counts().to_dict() == {
        "m, 127 in / 32 out tokens a request": 2,
        "m, 506 in / 258 out tokens a request": 2,
    }
    assert serving.knees(r, "max_concurrency", 0.25)["n"].tolist() == [2, 2]


def test_a_sweep_resampling_its_prompts_within_the_spread_stays_one_series():
    # the other way: means that vary by less than WORKLOAD_SPREAD are one workload, and nothing is said of it
    r = _caps([127, 140, 118, 150], [32, 40, 30, 45])
    assert serving.series_key(r).tolist() == ["m"] * 4
    assert serving.knees(r, "max_concurrency", 0.25)["n"].tolist() == [4]


def test_one_load_of_two_workloads_is_two_points_not_two_repeats():
    # the same cap twice: one workload makes them repeats of one load, two workloads two series of one point
    same = _caps([127, 127, 127, 127], [32, 32, 32, 32], caps=(8, 8, 16, 16))
    assert serving.repeats(same).tolist() == [2, 2]
    mixed = _caps([127, 506, 127, 506], [32, 258, 32, 258], caps=(8, 8, 16, 16))
    assert serving.repeats(mixed).tolist() == [1, 1, 1, 1]
    assert serving.knees(mixed, "max_concurrency", 0.25)["n"].tolist() == [2, 2]


def test_two_workloads_each_at_one_cap_are_said_to_be_no_sweep():
    r, _ = serving.load([FIX / "pp2tp2_baseline_short_long_two_caps.md"])
    text = show.inputs_sentence("f", r, "max_concurrency", 0)
    assert "swept over" not in text and "so no sweep" in text
    assert "127 in / 32 out tokens a request (1 run)" in text and "506 in / 258 out tokens a request (1 run)" in text


def test_an_offline_target_qps_sizes_the_query_and_is_no_issue_rate():
    """LoadGen's Server issues queries at target_qps; its Offline issues every sample at t=0 in one
    query, target_qps only sizing it: the run's request rate is all at once (inf), never target_qps."""
    mlperf = config.FIXTURES_DIR / "mlperf-loadgen"
    off, _ = serving.load([mlperf / "google_dgx_h100x8_mixtral_8x7b_offline_summary.txt"])  # target_qps : 368
    assert off["target_qps"].tolist() == [368.0] and off["request_rate"].tolist() == [float("inf")]
    assert not off["rate_assumed"].any()
    server, _ = serving.load([mlperf / "nvidia_dgx_h100x8_mixtral_8x7b_server_summary.txt"])  # the other way
    assert server["request_rate"].tolist() == server["target_qps"].tolist() and server["request_rate"].notna().all()


LIVINFLY = FIX / "livinfly_a100_40g_sglang047_r1_qwen3_8b_offline_15_workloads.jsonl"


def test_uncapped_runs_of_several_workloads_are_no_single_load_level_and_are_named_by_their_workload():
    # 15 lines, each with its own random_input_len / random_output_len (256/256 ... 4096/4096), all at rate
    # inf: every run is kept apart, and still they are 10 series, not one load level
    r, _ = serving.load([LIVINFLY])
    text = show.inputs_sentence("f", r, "max_concurrency", len(r))
    assert "single load level" not in text and "in 10 series" in text
    assert "random, 129 in / 127 out, rate=inf" in set(r["run"])
    assert not any(run.startswith("random, rate=inf") for run in r["run"])


def test_uncapped_runs_of_one_workload_stay_at_a_single_load_level_with_plain_names():
    # the other way: the three sharegpt lines are one workload, so neither the sentence nor the names change
    r, _ = serving.load([LIVINFLY])
    one, _ = serving.settings_labels(
        r[r["dataset"] == "sharegpt"].assign(run=["json line 1", "json line 2", "json line 3"]), pd.DataFrame()
    )
    assert "single load level" in show.inputs_sentence("f", one, "max_concurrency", len(one))
    assert sorted(one["run"]) == [f"rate=inf, run {n}" for n in (1, 2, 3)]
