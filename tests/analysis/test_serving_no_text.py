"""SGLang's retokenized output count is the length of the text the client received (bench_serving
re-tokenizes each request's generated_text): a run with 0 there got no text, whatever count the server
gave, so its TTFT and ITL (0.0, no chunk to time) and TPOT (the whole latency over the server's count)
are no latencies (sglang issue 12389's shape); the same record with text keeps them."""

from __future__ import annotations

import json
import math
import re

from benchbook import ingest
from benchbook.analysis import serving
from benchbook.claims import serving as claims
from benchbook.presentation import serving as show
from benchbook.presentation import wording


def record(retokenized: int, ttft: float) -> str:
    """One --output-file line (synthetic numbers), under a line the author's script printed."""
    obj = {
        "backend": "sglang",
        "dataset_name": "random",
        "request_rate": None,
        "max_concurrency": 16,
        "duration": 91.8,
        "completed": 300,
        "total_input_tokens": 75_000_000,
        "total_output_tokens": 300_000,
        "total_output_tokens_retokenized": retokenized,
        "request_throughput": 3.27,
        "input_throughput": 816773.1,
        "output_throughput": 3267.1,
        "mean_e2e_latency_ms": 4760.2,
        "median_e2e_latency_ms": 4825.6,
        "mean_ttft_ms": ttft,
        "median_ttft_ms": ttft,
        "p99_ttft_ms": ttft,
        "mean_tpot_ms": 4.76,
        "median_tpot_ms": 4.83,
        "mean_itl_ms": 0.0 if ttft == 0 else 4.7,
        "median_itl_ms": 0.0 if ttft == 0 else 4.6,
        "concurrency": 15.55,
    }
    return "max_prefill:8192,max_running_requests:64\n" + json.dumps(obj) + "\n"


def _runs(tmp_path, text):
    p = tmp_path / "run.txt"
    p.write_text(text)
    return serving.runs(ingest.read(p, tool="sglang-bench-serving"))


def test_no_text_received_leaves_no_latency_but_e2el(tmp_path):
    r = _runs(tmp_path, record(0, 0.0))
    assert bool(r["no_text"].iat[0]) and bool(r["no_output"].iat[0])
    assert math.isnan(r["ttft_mean"].iat[0]) and math.isnan(r["tpot_mean"].iat[0]) and r["e2el_mean"].iat[0] > 0
    said = show.figures_sentence(serving.littles_law(r), serving.goodput_bounds(r, 450.0, 40.0), 450.0, 40.0)
    assert "no text reached the client" in said and "within both" not in said
    assert "not one output token generated" not in said  # the server counted 300,000
    c = wording.word("serving_saturation", claims.tpot_itl(r))
    assert "client received any text" in c.text


def test_text_received_keeps_the_latencies(tmp_path):
    r = _runs(tmp_path, record(298_911, 875.9))
    assert not bool(r["no_text"].iat[0]) and r["ttft_mean"].iat[0] == 875.9


def test_the_zero_latencies_are_set_aside_only_where_the_copy_prints_them(tmp_path):
    # a copy cut before its latency rows prints no 0 ms: the page sets none aside (sglang issue 6525's copy)
    bare = json.loads(record(0, 0.0).splitlines()[1])
    bare = {k: v for k, v in bare.items() if not re.match(r"(mean|median|p99)_(ttft|tpot|itl)_ms", k)}
    for text, printed in ((record(0, 0.0), True), ("x\n" + json.dumps(bare) + "\n", False)):
        r = _runs(tmp_path, text)
        said = show.figures_sentence(serving.littles_law(r), serving.goodput_bounds(r, 450.0, 40.0), 450.0, 40.0)
        assert ("the TTFT and ITL it prints (0 ms" in said) is printed and "no share within an SLO" in said
        c = wording.word("serving_saturation", claims.tpot_itl(r))
        assert ("the 0 ms printed is no latency" in c.text) is printed
