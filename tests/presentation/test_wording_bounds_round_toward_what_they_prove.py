"""A bound on a share is printed rounded toward what it proves: a lower bound down, an upper bound up.
The own-limits sentence of an MLPerf Server run printed 'at least 99%' for a union bound of 98.9%
(p99.9 TTFT within its limit, 99.9%, and p99 TPOT within its, 99%: 99.9 + 99 - 100)."""

from __future__ import annotations

import pytest

from benchbook import config
from benchbook.analysis import serving
from benchbook.claims import serving as cs
from benchbook.presentation import wording


@pytest.mark.parametrize(
    "share, down, up",
    [(0.989, "98%", "99%"), (0.99, "99%", "99%"), (0.5, "50%", "50%"), (0.501, "50%", "51%"), (1.0, "100%", "100%")],
)
def test_a_lower_bound_rounds_down_and_an_upper_bound_up(share, down, up):
    assert wording._pct_down(share) == down and wording._pct_up(share) == up
    assert wording._pct_down(0.9894, 1) == "98.9%" and wording._pct_up(0.9894, 1) == "99.0%"


def _own_limits(name):
    r, _ = serving.load([config.FIXTURES_DIR / "mlperf-loadgen" / name])
    claim = cs.own_slos(serving.own_slo_bounds(r))
    return wording.word("serving_saturation", claim).text


def test_a_union_bound_short_of_a_printed_digit_is_not_rounded_up_to_it():
    """The two-node H200 run: the bound is 98.9%, so 'at least 98%', never 'at least 99%'; the L40S run's
    bound is 99% exactly (its TTFT maximum is within the limit), and it still reads 99%."""
    h200 = _own_limits("krai_open_v51_pysut_h200x16_vllm092_llama31_70b_fp8_server_summary.txt")
    assert "at least 98% of its requests meet both limits" in h200 and "at least 99%" not in h200
    l40s = _own_limits("redhat_v51_ibm_cloud_2xl40s_vllm_llama31_8b_server_summary.txt")
    assert "at least 99% of its requests meet both limits" in l40s
