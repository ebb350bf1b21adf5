"""A run kept apart from a request-rate curve is said to have an infinite rate only where it was sent at
one (an MLPerf Offline run: every sample at t=0). An MLPerf Server summary whose offered rate this copy
lacks (its two `Scheduled samples per second` rows disagree, and no Test Parameters section is kept) is
kept apart too, but is no all-at-once run: it is not counted among the infinite ones."""

from __future__ import annotations

from benchbook import config
from benchbook.analysis import serving
from benchbook.presentation import serving as show

AMD = (
    config.FIXTURES_DIR
    / "mlperf-loadgen/amd_rocm_blog_v60_repro_mi355x_llama2_70b_offline_server_interactive_excerpt.md"
)


def _sentence(r):
    apart = r[serving.apart(r, "request_rate")]
    return show.inputs_sentence(AMD.name, r, "request_rate", len(apart))


def test_a_server_run_whose_rate_the_copy_lacks_is_not_said_infinite():
    r = serving.load([AMD])[0]
    assert "one run with infinite request rate kept apart" in _sentence(r)


def test_two_runs_sent_all_at_once_are_both_said_infinite():
    r = serving.load([AMD])[0]
    r.loc[r["run"] == "summary 2", ["scenario", "rate_assumed"]] = ["Offline", False]
    assert "2 runs with infinite request rate kept apart" in _sentence(r)
