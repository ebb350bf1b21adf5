"""InferenceX parser: real points, aggregates and agentic results in the serving contract (seconds to
ms), per-GPU throughput kept and scaled by the GPUs a point spans, interactivity and untidy
percentiles set aside, a broken file refused in one sentence."""

from __future__ import annotations

import json

import pytest
from conftest import cell
from typer.testing import CliRunner

from benchbook import config, ingest
from benchbook.cli import app
from benchbook.ingest import ParseError
from benchbook.ingest import inferencex as ix

FIX = config.FIXTURES_DIR / "inferencex"
KIMI_1K = FIX / "agg_kimik2.5_1k1k_int4_vllm_tp8_conc4_mi355x.json"
KIMI_8K = FIX / "agg_kimik2.5_8k1k_int4_vllm_tp8_conc32_mi355x.json"
GLM_16 = FIX / "glm5.1_tp2_conc16_offloadnone_fp4_sglang_mi355x_agentic.json"
QWEN_MI300X = FIX / "agg_bmk_qwen3.5_mi300x_agentic.json"
QWEN_MI355X = FIX / "agg_bmk_qwen3.5_mi355x_agentic_trimmed.json"
TOOL = "inferencex"


def parsed(path):
    return ingest.read_parsed(path, tool=TOOL)[0]


@pytest.mark.parametrize("path", sorted(FIX.glob("*.json")), ids=lambda p: p.name)
def test_detected_as_inferencex_only_and_every_number_counted(path):
    assert ingest.detect(path.read_text()) == [TOOL]
    p = parsed(path)
    assert p.cells_read == len(p.table) + len(p.rejected)


def test_a_point_in_the_contract_per_gpu_and_per_run():
    t = parsed(KIMI_1K).table
    assert cell(t, "ttft", "median")["value"] == pytest.approx(296.9768075272441)  # 0.2969... s
    assert cell(t, "e2el", "p99")["value"] == pytest.approx(18323.80557443248)
    assert cell(t, "total_token_throughput_per_gpu", "value")["value"] == 55.62670336516291
    out = cell(t, "output_throughput", "value")
    assert out["value"] == pytest.approx(8 * 27.678011491816765) and out["note"] == "output_tput_per_gpu x 8 GPUs"
    assert set(t["max_concurrency"]) == {4.0} and t["request_rate"].isna().all()
    assert set(t["model"]) == {"moonshotai/Kimi-K2.5"} and set(t["dataset"]) == {"ISL 1024 / OSL 1024"}
    meta = t["metadata"].iat[0]
    assert meta.startswith("gpus=8xmi355x;") and "quantization=int4" in meta and "speculative=mtp" in meta
    assert set(parsed(KIMI_8K).table["dataset"]) == {"ISL 8192 / OSL 1024"}


def test_interactivity_is_set_aside_with_the_reason_and_p99_9_kept():
    p = parsed(KIMI_1K)
    reasons = dict(zip(p.rejected["text"].str.split(":").str[0], p.rejected["reason"], strict=True))
    assert "p99.9_e2el" not in reasons and cell(p.table, "e2el", "p99.9")["unit"] == "ms"
    assert reasons["std_intvty"].startswith("interactivity: 1000 / this TPOT statistic")  # 1000 / 0.707 ms
    assert (p.table["metric"] != "output_token_throughput_per_user").all()


def test_lines_point_at_the_key():
    p = parsed(KIMI_8K)
    lines = KIMI_8K.read_text().splitlines()
    assert '"p90_itl": 0.7198493110015989' in lines[cell(p.table, "itl", "p90")["line"] - 1]


def test_an_aggregate_of_points_as_collect_results_writes_it(tmp_path):
    agg = tmp_path / "agg_kimik2.5.json"
    agg.write_text(json.dumps([json.loads(KIMI_1K.read_text()), json.loads(KIMI_8K.read_text())], indent=2))
    t = parsed(agg).table
    assert set(t["format"]) == {ix.AGGREGATE} and t["run"].nunique() == 2
    assert sorted(set(t["max_concurrency"])) == [4.0, 32.0]
    assert ingest.read(agg).attrs["detected"] == ["inferencex, 2 runs"]


def test_agentic_point_totals_as_printed_and_request_throughput():
    t = parsed(GLM_16).table
    assert set(t["format"]) == {ix.AGENTIC_POINT} and set(t["dataset"]) == {"agentic-coding"}
    assert cell(t, "completed", "count")["value"] == 87
    assert t["num_prompts"].isna().all()  # AIPerf's replay: its total is the requests kept, not sent
    assert cell(t, "output_throughput", "value")["value"] == 39.245662155911816  # output_tput_tps, not scaled
    assert cell(t, "request_throughput", "value")["value"] == pytest.approx(87 / 1818.697814715)
    assert cell(t, "ttft", "mean")["value"] == pytest.approx(183963.19790064368)
    assert cell(t, "output_token_throughput_per_user", "mean")["value"] == 11.447968687343609
    assert "prefix_reuse=multi-turn trace replay" in t["metadata"].iat[0]
    assert "gpus=2xmi355x" in t["metadata"].iat[0]


def test_agentic_aggregate_two_servers_at_one_concurrency():
    t = parsed(QWEN_MI300X).table
    assert set(t["format"]) == {ix.AGENTIC_AGGREGATE}
    assert {m.split("kv_offloading=")[1].split(";")[0] for m in t["metadata"]} == {"none", "hicache"}
    assert t[t["metric"] == "theoretical_cache_hit_rate"]["value"].round(4).tolist() == [0.9467, 0.9469]
    assert len(parsed(QWEN_MI355X).table.drop_duplicates("run")) == 4


def test_multinode_output_per_decode_gpu_input_per_prefill_gpu():
    point = {
        "hw": "gb200",
        "conc": 64,
        "model": "m",
        "is_multinode": True,
        "num_prefill_gpu": 4,
        "num_decode_gpu": 8,
        "tput_per_gpu": 100.0,
        "output_tput_per_gpu": 50.0,
        "input_tput_per_gpu": 75.0,
    }
    t = ix.parse(json.dumps(point), "x.json").table
    assert cell(t, "total_token_throughput", "value")["value"] == 1200.0  # 12 GPUs
    assert cell(t, "output_throughput", "value")["value"] == 400.0  # 8 decode GPUs
    assert cell(t, "input_throughput", "value")["value"] == 300.0  # 4 prefill GPUs
    assert "gpus=12xgb200" in t["metadata"].iat[0]


@pytest.mark.parametrize(
    "text",
    ["[", '{"hw": "h100", "conc": 4}', "[1, 2]", '{"hw": "h100", "request_metrics": {}, "tput_per_gpu": 1}'],
)
def test_bad_input_raises_parse_error(text):
    with pytest.raises(ParseError):
        ix.parse(text, "x.json")


def test_a_broken_file_is_one_sentence_naming_it_and_a_non_zero_exit(tmp_path):
    bad = tmp_path / "agg_broken.json"
    bad.write_text(KIMI_1K.read_text().replace('"conc": 4', '"conc": "four"'))
    res = CliRunner().invoke(app, ["ingest", str(bad), "--tool", TOOL])
    assert res.exit_code != 0 and len(res.output.strip().splitlines()) == 1
    assert res.output.startswith("error: agg_broken.json:") and "conc and tput_per_gpu" in res.output


def test_a_byte_order_mark_is_read_and_an_infinite_number_set_aside():
    p = ix.parse('\ufeff{"hw": "h100", "conc": 4, "tp": 1, "tput_per_gpu": 1, "mean_ttft": 1e999}', "x.json")
    assert p.rejected["reason"].tolist() == ["not a finite number"]
    assert cell(p.table, "total_token_throughput", "value")["value"] == 1.0


@pytest.mark.parametrize(
    "hw,label",
    [("mi355x", "mi355x"), ("mi355x-amds_05", "mi355x"), ("cluster:h100-dgxc", "h100-sxm"), ("h200", "h200-sxm")],
)
def test_runner_labels_name_the_device_the_hardware_table_knows(hw, label):
    from benchbook.analysis import roofline

    assert ix.device_label(hw) == label
    expected = {"mi355x": "MI355X", "h100-sxm": "H100-SXM5-80GB", "h200-sxm": "H200-SXM-141GB"}[label]
    assert roofline.detect([f"gpus=8x{label}; hw={hw}"]) == (expected, 8)


#: A nested agentic point in the shape of process_agentic_result.py's `build_agg` (synthetic values).
NESTED = {
    "hw": "cluster:h100-dgxc",
    "conc": 4,
    "model": "m",
    "scenario_type": "agentic-coding",
    "num_gpus": 8,
    "tp": 8,
    "kv_offloading": "none",
    "num_requests_total": 149,
    "num_requests_successful": 105,
    "request_accounting": {"records_total": 149, "records_warmup_dropped": 44, "records_error_dropped": 3},
    "request_metrics": {
        "qps": {"window_seconds": 1, "samples": 3524, "mean": 0.03},
        "latency": {"ttft": {"mean": 114.5, "p50": 1.5, "p75": 262.5}, "e2e_norm_intvty": {"mean": 1.05}},
        "throughput": {
            "output": {"tokens_per_second": 25.6},
            "total": {"tokens_per_second": 3200.0},
            "duration_seconds": 3500.0,
            "per_gpu": {"total_tput_tps": 400.0, "output_tput_tps": 3.2},
        },
    },
    "avg_power_w": 320.17,
}


def test_nested_agentic_schema_through_the_flat_names():
    text = json.dumps(NESTED, indent=2)
    assert ix.sniff(text)
    p = ix.parse(text, "x.json")
    t = p.table
    assert set(t["format"]) == {ix.AGENTIC_NESTED} and set(t["num_prompts"]) == {105.0}  # 149 less 44 warm-up
    assert cell(t, "ttft", "p50")["value"] == 1500.0 and cell(t, "failed", "count")["value"] == 3
    assert cell(t, "total_token_throughput", "value")["value"] == 3200.0
    assert cell(t, "total_token_throughput_per_gpu", "value")["value"] == 400.0
    assert cell(t, "request_throughput", "value")["value"] == pytest.approx(105 / 3500)
    assert '"p50": 1.5' in text.splitlines()[cell(t, "ttft", "p50")["line"] - 1]
    assert sorted(p.rejected["text"].str.split(":").str[0]) == [
        "avg_power_w",
        "request_metrics.latency.e2e_norm_intvty.mean",
    ]
    assert cell(t, "ttft", "p75")["value"] > 0  # every percentile keeps its rank
    assert p.messages == ["x.json: the point: 44 warm-up requests not counted; 3 failed"]
    assert p.cells_read == len(t) + len(p.rejected)
