"""Runs kept apart for want of a concurrency cap are worded by the tool that sent them (stop 59, cg, class 4/6):
trtllm-bench queues every request at once and hands them to the engine up to its `--concurrency` (it has no
`--max-concurrency` or `--request-rate`), and an engine whose max batch size is 1 (`trtllm-bench latency`, the
report's `max_batch_size`) serves one request at a time. vLLM's runs keep vLLM's wording."""

from __future__ import annotations

from benchbook import config
from benchbook.analysis import serving
from benchbook.presentation import serving as show

JSON = config.FIXTURES_DIR / "trtllm-bench/rtx4070ti_qwen25_05b_bf16_trtllm_bench_latency_in1024_out40_bs1_report.json"


def _apart():
    r = serving.load([JSON])[0]
    return r[serving.apart(r, "max_concurrency")].copy()


def test_a_trtllm_bench_run_with_max_batch_size_one_is_said_to_serve_one_request_at_a_time():
    ap = _apart()
    assert serving.engine_batch(ap).tolist() == [1]
    note = show.apart_message(ap, "max_concurrency", drawn=False)
    assert note.startswith("trtllm-bench puts every request in its queue at once (the issue rate it prints says so)")
    assert "The engine's max batch size is 1" in note and "one request at a time" in note
    assert "--max-concurrency" not in note and "--request-rate" not in note


def test_a_larger_engine_batch_is_not_said_to_serve_one_at_a_time():
    ap = _apart()
    ap["metadata"] = ap["metadata"].str.replace("max_batch_size=1;", "max_batch_size=64;")
    assert serving.engine_batch(ap).tolist() == [64]
    note = show.apart_message(ap, "max_concurrency", drawn=False)
    assert note.startswith("trtllm-bench puts every request") and "one request at a time" not in note


def test_another_tools_runs_keep_its_own_flags():
    ap = _apart()
    ap["tool"] = "vllm-bench-serve"
    note = show.apart_message(ap, "max_concurrency", drawn=False)
    assert note.startswith("With no `--max-concurrency`") and "trtllm-bench" not in note
