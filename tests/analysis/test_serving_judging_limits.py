"""A run is judged by the latency limits its own output states (MLPerf LoadGen prints the benchmark's
`ttft_latency` and `tpot_latency` for the model), never by another benchmark's; the page's SLOs
(the book's defaults) judge only a run whose output states none (issue #35)."""

import pandas as pd

from benchbook import config
from benchbook.analysis import serving
from benchbook.presentation import serving as show

MI300X = config.FIXTURES_DIR / "mlperf-loadgen" / "amd_mi300x_llama2_70b_server_summary.txt"
PREFILL = config.FIXTURES_DIR / "aiperf" / "aiperf_docs_prefill_concurrency_three_runs.md"


def _row(**limits) -> pd.DataFrame:
    return pd.DataFrame(
        {"run": ["a"], "request_throughput": [10.0], "ttft_p99": [1600.0], "tpot_p99": [190.0], **limits}
    )


def test_a_run_with_its_own_limits_is_judged_by_them():
    g = serving.goodput_bounds(
        _row(ttft_limit_ms=[2000.0], tpot_limit_ms=[200.0], scenario=["Server"]), 450.0, 40.0
    ).iloc[0]
    assert g["slo_whose"] == "output" and (g["slo_ttft_ms"], g["slo_tpot_ms"]) == (2000.0, 200.0)
    assert g["share_lo"] > 0.97  # p99 within both of its own limits


def test_a_run_without_limits_is_judged_by_the_pages_slos():
    offline = _row(ttft_limit_ms=[2000.0], tpot_limit_ms=[200.0], scenario=["Offline"])  # printed, not held to
    for r in (_row(), _row(ttft_limit_ms=[2000.0], tpot_limit_ms=[float("nan")]), offline):
        g = serving.goodput_bounds(r, 450.0, 40.0).iloc[0]
        assert g["slo_whose"] == "page" and (g["slo_ttft_ms"], g["slo_tpot_ms"]) == (450.0, 40.0)
        assert g["share_lo"] == 0.0


def _figures(path, book=True) -> str:
    r, _ = serving.load([path])
    lit = serving.littles_law(r)
    return show.figures_sentence(lit, serving.goodput_bounds(lit, 450.0, 40.0), 450.0, 40.0, book=book)


def test_the_page_says_whose_limits_judge_a_run():
    own = _figures(MI300X)
    assert "within both of the limits its output states (TTFT at most 2,000 ms, TPOT at most 200 ms)" in own
    assert "450" not in own
    book = _figures(PREFILL)
    assert "within both of the book's default SLOs (TTFT at most 450 ms" in book
    assert "this page's SLOs (TTFT at most 450 ms" in _figures(PREFILL, book=False)


def test_the_goodput_section_names_the_runs_judged_by_their_own_limits():
    r, _ = serving.load([MI300X])
    said = show.goodput_limits(serving.goodput_bounds(r, 450.0, 40.0), book=True)
    assert "TTFT at most 2,000 ms and TPOT at most 200 ms (its output's limits)" in said
    r, _ = serving.load([PREFILL])
    assert show.goodput_limits(serving.goodput_bounds(r, 450.0, 40.0), book=True) == ""
