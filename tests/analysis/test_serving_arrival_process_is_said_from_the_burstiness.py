"""A run sent at a finite request rate has an arrival process, which the serving page says (stop 59, cg, class
1/5): vLLM's `--burstiness` B draws each gap between arrivals from a gamma distribution of shape B and mean
1 / rate (1: a Poisson process; under 1 burstier; over 1 smoother). Where the output prints no burstiness, the
tool's default (vLLM: 1.0, a Poisson process) is said as the default; a tool that declares none says nothing;
a run with no rate limit (all at once) has no arrival process to say."""

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


def _runs(tmp_path, pre: str):
    path = tmp_path / "bench.log"
    path.write_text(pre + BLOCK)
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
