"""trtllm-bench's `--report_json` object (`ReportUtility.get_statistics_dict`: the dictionary its text report
is printed from) is read as that report: the same metrics, each at the line of its key; a JSON object
without the report's sections is not claimed."""

import json

from benchbook.ingest import trtllm_bench

REPORT = {
    "engine": {"model": "Qwen/Qwen2.5-0.5B-Instruct", "version": "1.2.0", "backend": "TRT", "dtype": "bfloat16"},
    "machine": {"name": "NVIDIA GeForce RTX 4070 Ti", "memory.total": 11.59},
    "world_info": {"tp_size": 1, "pp_size": 1, "ep_size": 1, "max_batch_size": 1, "issue_rate": 1.8e17},
    "request_info": {"num_requests": 100, "avg_num_concurrent_requests": 1.0, "avg_input_length": 1024.0},
    "performance": {
        "total_latency_ms": 18619.2,
        "avg_request_latency_ms": 186.2,
        "request_throughput_req_s": 5.37,
        "system_output_throughput_tok_s": 214.8,
        "request_latency_percentiles_ms": {"p50": 149.3, "p99": 674.9, "average": 186.2},
        "new_key_tok_s": 3.0,
    },
    "streaming_metrics": {"avg_ttft_ms": 31.4, "ttft_percentiles": {"p50": 13.9, "p99": 214.0}},
}


def _parsed(doc):
    text = json.dumps(doc, indent=4)
    return text, trtllm_bench.parse(text, "report.json")


def test_the_report_json_is_sniffed_and_read_with_its_lines():
    text, parsed = _parsed(REPORT)
    assert trtllm_bench.sniff(text)
    t = parsed.table
    got = {(r.metric, r.statistic): r.value for r in t.itertuples()}
    assert got[("completed", "count")] == 100
    assert got[("duration", "value")] == 18.6192  # ms as printed, seconds in the contract
    assert got[("output_throughput", "value")] == 214.8
    assert got[("e2el", "p99")] == 674.9
    assert got[("ttft", "p50")] == 13.9
    lines = text.split("\n")
    line = int(t[t.metric == "request_throughput"].line.iloc[0])
    assert '"request_throughput_req_s"' in lines[line - 1]
    assert set(t.model) == {"Qwen/Qwen2.5-0.5B-Instruct"}
    assert "machine=NVIDIA GeForce RTX 4070 Ti" in t.metadata.iloc[0]
    assert parsed.version == "TensorRT-LLM 1.2.0"
    # an unknown number of a measured section is rejected, named; the issue rate is a burst, not a rate kept
    assert any("performance.new_key_tok_s" in str(x) for x in parsed.rejected.to_numpy().ravel())
    assert set(t.request_rate) == {float("inf")}


def test_a_json_object_without_the_reports_sections_is_not_claimed():
    other = {"engine": REPORT["engine"], "performance": REPORT["performance"]}  # no world_info, no request_info
    assert not trtllm_bench.sniff(json.dumps(other, indent=4))
    assert not trtllm_bench.sniff(json.dumps({"world_info": 1, "request_info": 2, "performance": 3}))


def test_speculative_decodings_statistics_and_mode_are_read():
    doc = dict(REPORT)
    doc["decoding_stats"] = {
        "mode": "Eagle",
        "acceptance_length_percentiles": {"average": 2.5, "p50": 2.4},
        "num_draft_tokens_percentiles": None,
    }
    _text, parsed = _parsed(doc)
    t = parsed.table
    al = t[t.metric == "spec_decode_acceptance_length"]
    assert sorted(al.statistic) == ["mean", "p50"]
    assert "speculative=Eagle" in t.metadata.iloc[0]
