"""A run sent at a finite request rate has an arrival process, which the serving page says (stop 59, cg, class
1/5): vLLM's `--burstiness` B draws each gap between arrivals from a gamma distribution of shape B and mean
1 / rate (1: a Poisson process; under 1 burstier; over 1 smoother). Where the output prints no burstiness, the
tool's default (vLLM: 1.0, a Poisson process) is said as the default; a tool that declares none says nothing;
a run with no rate limit (all at once) has no arrival process to say.

Stop 60, cj: A finite request rate whose prompts all go out within 1 % of the run's duration (num_prompts / rate: Ray Serve's
`--request-rate 1e9`, 320 prompts in 3.2e-7 s of a 73.5 s run) sends them as good as all at once: the page says so
rather than a Poisson process at that rate. A rate whose prompts take a real share of the run keeps its process.
vLLM's 2023 `benchmark_serving.py` had no `--burstiness` (its `get_request` drew each gap from
`np.random.exponential(1.0 / request_rate)`): its runs are a Poisson process by that draw, not by a flag's default;
a later format keeps the `--burstiness` wording.
"""

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


def _runs(tmp_path, pre: str):
    path = tmp_path / "bench.log"
    path.write_text(pre + BLOCK)
    return serving.load([path])[0]


def _text(tmp_path, text: str):
    path = tmp_path / "bench.log"
    path.write_text(text)
    return serving.load([path])[0]


def test_a_stated_burstiness_under_one_is_said_burstier_than_poisson(tmp_path):
    r = _runs(tmp_path, "Traffic request rate: 0.3\nBurstiness factor: 0.7 (Gamma distribution)\n")
    assert serving.arrivals(r) == [
        dict(burstiness=0.7, stated=True, option=True, at_once=False, runs=[str(r["run"].iat[0])])
    ]
    note = show.assumed_rate_note(r)
    assert "has a burstiness of 0.7" in note and "burstier than a Poisson process" in note
    assert "default" not in note


def test_a_stated_burstiness_of_one_is_a_poisson_process(tmp_path):
    note = show.assumed_rate_note(
        _runs(tmp_path, "Traffic request rate: 0.3\nBurstiness factor: 1.0 (Poisson process)\n")
    )
    assert "has a burstiness of 1 " in note and "a Poisson process, each gap drawn from an exponential" in note


def test_a_stated_burstiness_over_one_is_smoother(tmp_path):
    note = show.assumed_rate_note(
        _runs(tmp_path, "Traffic request rate: 0.3\nBurstiness factor: 4.0 (Gamma distribution)\n")
    )
    assert "smoother than a Poisson process" in note


def test_a_rate_without_a_burstiness_takes_the_tools_default(tmp_path):
    r = _runs(tmp_path, "Traffic request rate: 0.3\n")
    assert serving.arrivals(r)[0]["stated"] is False
    note = show.assumed_rate_note(r)
    assert (
        "has the tool's default burstiness of 1, as the output prints no burstiness" in note
        and "a Poisson process" in note
    )


def test_a_tool_without_a_declared_default_says_no_process(tmp_path):
    r = _runs(tmp_path, "Traffic request rate: 0.3\n")
    r["tool"] = "some-other-tool"
    assert serving.arrivals(r) == []
    assert "burstiness" not in show.assumed_rate_note(r)


def test_a_run_sent_all_at_once_has_no_arrival_process(tmp_path):
    r = _runs(tmp_path, "Traffic request rate: inf\nBurstiness factor: 1.0 (Poisson process)\n")
    assert serving.arrivals(r) == []
    assert "burstiness" not in show.assumed_rate_note(r)


def test_a_rate_that_issues_every_prompt_within_a_sliver_of_the_run_is_said_all_at_once(tmp_path):
    r = _runs(tmp_path, "Traffic request rate: 1000000000.0\n")
    (a,) = serving.arrivals(r)
    assert a["at_once"] and a["issue_s"] < 1e-6 and a["duration"] == 680
    note = show.assumed_rate_note(r)
    assert "issues all its prompts within" in note and "as good as all at once" in note
    assert "Poisson" not in note and "burstiness" not in note


def test_a_rate_whose_prompts_take_a_real_share_of_the_run_keeps_its_process(tmp_path):
    # 200 prompts at 0.3 req/s: 667 s of a 680 s run
    r = _runs(tmp_path, "Traffic request rate: 0.3\n")
    (a,) = serving.arrivals(r)
    assert not a["at_once"] and a["option"]
    note = show.assumed_rate_note(r)
    assert "all at once" not in note and "the tool's default burstiness of 1" in note and "`--burstiness`" in note


def test_the_2023_script_is_a_poisson_process_by_its_own_draw_not_a_flags_default(tmp_path):
    r = _text(tmp_path, OLD.format(rate="5.0"))
    (a,) = serving.arrivals(r)
    assert a["option"] is False and not a["at_once"]
    note = show.assumed_rate_note(r)
    assert "exponential distribution of mean 1 / rate" in note and "had no `--burstiness` option" in note
    assert "default burstiness" not in note and "a Poisson process" in note


def test_the_2023_script_at_a_rate_that_issues_all_at_once_says_so(tmp_path):
    # 1,000 prompts at 1e6 req/s: 1 ms of a 400 s run
    note = show.assumed_rate_note(_text(tmp_path, OLD.format(rate="1000000.0")))
    assert "as good as all at once" in note and "exponential" not in note
