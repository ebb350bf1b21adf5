"""ML.ENERGY's per-model summary JSON (leaderboard v3): one configuration per GPU model, GPU count
and batch cap, GPU energy at steady state. Values read from the real files; the file's own numbers
fix what its power covers (all the configuration's GPUs: power / throughput = J per output token)."""

from __future__ import annotations

import pytest

from benchbook import config, ingest
from benchbook.analysis import energy as energy_analysis
from benchbook.claims import energy as energy_claims
from benchbook.ingest import ml_energy_v3

FIX = config.FIXTURES_DIR / "ml-energy"
QWEN8 = FIX / "Qwen__Qwen3-8B__gpqa.json"
QWEN235 = FIX / "Qwen__Qwen3-235B-A22B-Instruct-2507-FP8__lm-arena-chat.json"


def _parsed(path):
    (p,) = ingest.read_parsed(path)
    assert p.tool == "ml-energy" and p.version == "leaderboard v3 per-model JSON"
    assert p.cells_read == len(p.table) + len(p.rejected)
    return p


def _wide(t):
    return t.pivot_table(index="run", columns="metric", values="value", aggfunc="first")


def test_each_configuration_is_read_with_its_gpus_batch_cap_and_steady_state():
    t = _parsed(QWEN8).table
    assert t["run"].nunique() == 10
    assert set(t["interval"]) == {"steady_state"} and set(t["precision"]) == {"bfloat16"}
    first = t[t["run"] == "1x B200, max_num_seqs 8"].set_index("metric")["value"]
    assert first["energy_per_output_token"] == pytest.approx(1.1709007963039468)
    assert first["energy_per_request"] == pytest.approx(9706.6138467097)
    assert first["output_throughput"] == pytest.approx(251.01215981787306)
    energies = t[t["scope"] == "gpu"]
    assert set(energies["metric"]) == {"energy_per_output_token", "energy_per_request", "mean_power"}
    assert t.loc[t["metric"] == "output_throughput", "scope"].isna().all()


def test_the_power_is_all_the_gpus_together_as_the_files_own_numbers_show():
    w = _wide(_parsed(QWEN235).table)
    assert len(w) == 23
    ratio = w["mean_power"] / w["output_throughput"] / w["energy_per_output_token"]
    assert ratio.to_numpy() == pytest.approx(1.0, rel=1e-9)
    eight = _parsed(QWEN235).table
    row = eight[eight["run"] == "8x H100 (EP 8), max_num_seqs 512"]
    assert set(row["device"]) == {"H100"} and set(row["device_count"]) == {8.0} and set(row["batch_size"]) == {512.0}


def test_the_itl_percentiles_are_read_and_the_running_batch_set_aside_with_its_reason():
    """`median_itl_ms` .. `p99_itl_ms` are the contract's `itl` at those statistics (ms); the running
    batch has no column and is set aside, never read as a latency."""
    p = _parsed(QWEN8)
    text = p.rejected["text"].astype(str)
    assert not text.str.contains("itl").any()
    itl = p.table[p.table["metric"] == "itl"]
    assert sorted(itl["statistic"].unique()) == ["median", "p90", "p95", "p99"] and len(itl) == 40
    first = itl[itl["run"] == itl["run"].iloc[0]].set_index("statistic")["value"]
    assert round(first["median"], 2) == 32.5 and round(first["p99"], 2) == 61.83
    assert set(itl["unit"]) == {"ms"} and itl["scope"].isna().all()
    assert text.str.startswith("avg_batch_size").sum() == 10
    # the H100 run capped at 96 held 82 on average: a fact the report keeps, not a load setting
    held = [float(t.split()[1]) for t in text if t.startswith("avg_batch_size")]
    assert any(81.5 < h < 82.5 for h in held)


def test_the_floor_uses_the_precision_the_file_states():
    stated = energy_analysis.weights_bytes("Qwen/Qwen3-235B-A22B-Instruct-2507", 2.0, None, "fp8")
    assert stated["bytes_source"] == "precision" and stated["precision"] == "fp8"
    none = energy_analysis.weights_bytes("Qwen/Qwen3-235B-A22B-Instruct-2507", 2.0, None, None)
    assert none["weights_gb"] == pytest.approx(2 * stated["weights_gb"])


def test_no_per_request_ranking_is_said_missing_where_every_row_ranks_per_token():
    rows = energy_analysis.runs(_parsed(QWEN8).table)
    c = energy_claims.per_request(rows)
    assert c.status == "withheld" and "has one per output token" in c.reason
    no_tokens = rows.assign(j_per_output_token=float("nan"))
    assert energy_claims.per_request(no_tokens).evidence["a_run"] is not None


def test_a_configuration_that_is_not_an_object_is_refused(tmp_path):
    p = tmp_path / "m.json"
    p.write_text('{"model_id": "x", "configurations": [{"energy_per_token_joules": 1.0}, 3]}')
    with pytest.raises(ingest.ParseError, match="configuration 2 is not an object"):
        ingest.read(p)


def test_a_per_task_file_reads_each_configuration_with_its_own_model_precision_and_parallelism():
    """The per-task file (public/data/tasks/<task>.json) lists every model's configurations on one
    task; each configuration names its model and precision and gives its parallelism as flat keys."""
    t = ingest.read(FIX / "tasks_sourcegraph-fim.json")
    assert set(t["model"]) == {
        "Qwen/Qwen3-Coder-30B-A3B-Instruct",
        "Qwen/Qwen3-Coder-480B-A35B-Instruct",
        "Qwen/Qwen3-Coder-480B-A35B-Instruct-FP8",
    }
    fp8 = t[t["model"].str.endswith("-FP8")]
    assert set(fp8["precision"]) == {"fp8"} and set(t[~t.index.isin(fp8.index)]["precision"]) == {"bfloat16"}
    assert "Qwen/Qwen3-Coder-30B-A3B-Instruct on 2x H100 (EP 2), max_num_seqs 8" in set(t["run"])
    first = t[t["run"] == "Qwen/Qwen3-Coder-30B-A3B-Instruct on 1x B200, max_num_seqs 8"]
    row = first[first["metric"] == "energy_per_output_token"].iloc[0]
    assert (row["value"], row["line"], row["device"]) == (0.8442158286231319, 11, "B200")
    # the model's own facts (parameters, nickname, flat parallelism) are settings, not cells
    p = ingest.read_parsed(FIX / "tasks_sourcegraph-fim.json")[0]
    assert (
        p.cells_read == len(p.table) + len(p.rejected) == 50 * 10
    )  # five kept, five set aside (ITL percentiles, running batch)


def test_a_list_of_configurations_without_a_model_in_each_is_no_per_task_file():
    assert ml_energy_v3.is_task({"task": "x", "configurations": [{"model_id": "a"}, {"gpu_model": "B200"}]}) is False
    assert ml_energy_v3.is_task({"configurations": [{"model_id": "a"}]}) is False
    assert ml_energy_v3.is_task({"task": "x", "configurations": [{"model_id": "a"}]}) is True


def test_the_first_benchmarks_records_are_one_response_each_on_one_gpu():
    """ml-energy/benchmark's benchmark.py (2023) writes one record per response, generated alone on one
    GPU: each is a run of batch 1 whose per-request figures are its own; latency is printed in s."""
    p = ingest.read_parsed(FIX / "benchmark_v0_lmsys--vicuna-7B_benchmark.json")[0]
    t = p.table
    assert p.version == "benchmark v0 per-response JSON" and p.cells_read == len(t) == 16
    r2 = t[t["run"] == "lmsys--vicuna-7B response 2"].set_index("metric")
    assert r2.loc["energy_per_request", "value"] == 640.4210000038147 and r2.loc["energy_per_request", "line"] == 16
    assert (
        r2.loc["e2el", "value"] == pytest.approx(3109.673395752907)
        and r2.loc["output_tokens_per_request", "value"] == 98
    )
    assert set(t["batch_size"]) == {1.0} and set(t["device_count"]) == {1.0} and t["device"].isna().all()


def test_a_json_list_without_the_benchmarks_keys_is_not_ml_energy():
    assert "ml-energy" not in ingest.detect('[\n{"model": "x", "latency": 1.0, "energy": 2.0}\n]\n')
    assert "ml-energy" in ingest.detect(
        '[\n{"model": "x", "throughput": 3.0, "response_length": 3, "latency": 1.0, "energy": 2.0}\n]\n'
    )


def test_two_configurations_sharing_every_setting_are_repeats_of_one_never_a_conflict():
    t = _parsed(FIX / "openai__gpt-oss-20b__gpqa.json").table
    assert t["run"].nunique() == 26  # both H100 x 1 at max_num_seqs 96 kept, none set aside as conflicting
    runs = ["1x H100, max_num_seqs 96", "1x H100, max_num_seqs 96, repeat 2"]
    per = t[(t["run"].isin(runs)) & (t["metric"] == "energy_per_output_token")].set_index("run")["value"]
    assert per[runs[0]] == pytest.approx(0.0876, abs=1e-4) and per[runs[1]] == pytest.approx(0.0922, abs=1e-4)
    assert set(t.loc[t["run"].isin(runs), "configuration"]) == {runs[0]}
    # a configuration met once is its own: no configuration column value
    assert t.loc[t["run"] == "1x H100, max_num_seqs 128", "configuration"].isna().all()
    assert _parsed(QWEN8).table["configuration"].isna().all()
