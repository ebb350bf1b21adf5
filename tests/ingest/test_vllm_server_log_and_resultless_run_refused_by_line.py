"""Two vLLM texts with no benchmark result to read, each refused in one sentence naming its line instead of
"no known tool output found" (stop 46): a server log's engine-stats lines (vllm/v1/metrics/loggers.py logs
prompt and generation tokens/s over each 10-second interval: a monitor, not a benchmark's result), and a
latency run's settings (`Namespace(... num_iters=...)`) whose copy ends before its `Avg latency` line. A file
that also holds the tool's result is read as before."""

from __future__ import annotations

import pytest

from benchbook import ingest
from benchbook.ingest import vllm_offline, vllm_serve

STATS = (
    "(APIServer pid=3646) INFO 05-19 10:13:11 [loggers.py:271] Engine 000: Avg prompt throughput: 0.0 tokens/s, "
    "Avg generation throughput: 1055.3 tokens/s, Running: 18 reqs, Waiting: 43 reqs, GPU KV cache usage: 95.9%, "
    "Prefix cache hit rate: 0.0%\n"
)
NAMESPACE = (
    "Namespace(model='meta-llama/Llama-2-7b-hf', tokenizer=None, quantization=None, tensor_parallel_size=1, "
    "input_len=512, output_len=32, batch_size=1, n=1, use_beam_search=False, num_iters=100, dtype='auto')\n"
)


def test_a_server_log_of_engine_stats_is_refused_naming_its_first_stats_line(tmp_path):
    f = tmp_path / "log.md"
    f.write_text("# MTP seems slow\n```\n" + STATS * 3 + "```\n", encoding="utf-8")
    with pytest.raises(ingest.ParseError) as err:
        ingest.read(f)
    assert not isinstance(err.value, ingest.UnknownFormat) and err.value.line == 3
    assert "server log" in err.value.message and "not a benchmark's result" in err.value.message
    # the other way: a V0 stats line is one too, and a line that only speaks of throughput is none
    v0 = "INFO 08-20 02:39:37 metrics.py:411] Avg prompt throughput: 871.4 tokens/s, Avg generation throughput: 88.1 tokens/s"
    assert vllm_serve.refuses(v0)[0] == 1 and vllm_serve.refuses("Avg prompt throughput was low\n") is None


def test_a_latency_runs_settings_with_no_result_after_them_are_refused_naming_the_line(tmp_path):
    f = tmp_path / "run.md"
    f.write_text("python benchmark_latency.py --model m --num-iters 100\n" + NAMESPACE, encoding="utf-8")
    with pytest.raises(ingest.ParseError) as err:
        ingest.read(f)
    assert err.value.line == 2 and "no result after them" in err.value.message
    # the other way: the same settings followed by the tool's result are read, not refused
    text = f.read_text(encoding="utf-8") + "Avg latency: 0.45 seconds\n"
    assert vllm_offline.refuses(text) is None
    f.write_text(text, encoding="utf-8")
    assert ingest.read(f)["metric"].tolist() == ["latency"]
