"""A run's arrival process said by what its rate and its version do (stop 60, cj, class 1/5).

A finite request rate whose prompts all go out within 1 % of the run's duration (num_prompts / rate: Ray Serve's
`--request-rate 1e9`, 320 prompts in 3.2e-7 s of a 73.5 s run) sends them as good as all at once: the page says so
rather than a Poisson process at that rate. A rate whose prompts take a real share of the run keeps its process.
vLLM's 2023 `benchmark_serving.py` had no `--burstiness` (its `get_request` drew each gap from
`np.random.exponential(1.0 / request_rate)`): its runs are a Poisson process by that draw, not by a flag's default;
a later format keeps the `--burstiness` wording."""

from __future__ import annotations

from benchbook.analysis import serving
from benchbook.presentation import serving as show

BLOCK = """\
============ Serving Benchmark Result ============
Successful requests:                     200
Benchmark duration (s):                  680.00
Total input tokens:                      800000
Total generated tokens:                  100000
Request throughput (req/s):              0.29
Output token throughput (tok/s):         147.06
Total Token throughput (tok/s):          1323.53
---------------Time to First Token----------------
Mean TTFT (ms):                          575.00
Median TTFT (ms):                        534.00
P99 TTFT (ms):                           1370.00
-----Time per Output Token (excl. 1st token)------
Mean TPOT (ms):                          29.00
Median TPOT (ms):                        29.00
P99 TPOT (ms):                           39.00
==================================================
"""

OLD = """\
Namespace(backend='vllm', host='localhost', port=8000, dataset='ShareGPT_V3.json', tokenizer='llama-7b', \
best_of=1, use_beam_search=False, num_prompts=1000, request_rate={rate}, seed=0, trust_remote_code=False)
Total time: 400.00 s
Throughput: 2.50 requests/s
Average latency: 60.00 s
Average latency per token: 0.20 s
Average latency per output token: 1.00 s
"""


def _runs(tmp_path, text: str):
    path = tmp_path / "bench.log"
    path.write_text(text)
    return serving.load([path])[0]


def test_a_rate_that_issues_every_prompt_within_a_sliver_of_the_run_is_said_all_at_once(tmp_path):
    r = _runs(tmp_path, "Traffic request rate: 1000000000.0\n" + BLOCK)
    (a,) = serving.arrivals(r)
    assert a["at_once"] and a["issue_s"] < 1e-6 and a["duration"] == 680
    note = show.assumed_rate_note(r)
    assert "issues all its prompts within" in note and "as good as all at once" in note
    assert "Poisson" not in note and "burstiness" not in note


def test_a_rate_whose_prompts_take_a_real_share_of_the_run_keeps_its_process(tmp_path):
    # 200 prompts at 0.3 req/s: 667 s of a 680 s run
    r = _runs(tmp_path, "Traffic request rate: 0.3\n" + BLOCK)
    (a,) = serving.arrivals(r)
    assert not a["at_once"] and a["option"]
    note = show.assumed_rate_note(r)
    assert "all at once" not in note and "the tool's default burstiness of 1" in note and "`--burstiness`" in note


def test_the_2023_script_is_a_poisson_process_by_its_own_draw_not_a_flags_default(tmp_path):
    r = _runs(tmp_path, OLD.format(rate="5.0"))
    (a,) = serving.arrivals(r)
    assert a["option"] is False and not a["at_once"]
    note = show.assumed_rate_note(r)
    assert "exponential distribution of mean 1 / rate" in note and "had no `--burstiness` option" in note
    assert "default burstiness" not in note and "a Poisson process" in note


def test_the_2023_script_at_a_rate_that_issues_all_at_once_says_so(tmp_path):
    # 1,000 prompts at 1e6 req/s: 1 ms of a 400 s run
    note = show.assumed_rate_note(_runs(tmp_path, OLD.format(rate="1000000.0")))
    assert "as good as all at once" in note and "exponential" not in note
