"""Each run's latency statistics as printed (`serving.latency_stats`): the median is the printed median,
or the p50 of a tool that names it so; p99 over the median (`tail_ratios`) only where both are printed
and the median is above 0."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from benchbook import config, ingest
from benchbook.analysis import serving


def runs(**cols) -> pd.DataFrame:
    n = len(next(iter(cols.values())))
    return pd.DataFrame({"run": [f"r{i}" for i in range(n)], **cols})


def test_the_median_is_the_printed_median_else_the_p50():
    r = runs(ttft_median=[100.0, np.nan, np.nan], ttft_p50=[101.0, 90.0, np.nan], ttft_mean=[120.0, 95.0, 80.0])
    s = serving.latency_stats(r, "ttft")
    assert s["median"].tolist()[:2] == [100.0, 90.0]
    assert math.isnan(s["median"].iat[2])
    assert s["mean"].tolist() == [120.0, 95.0, 80.0]


def test_a_statistic_no_run_prints_is_all_missing_not_absent():
    s = serving.latency_stats(runs(tpot_mean=[20.0]), "tpot")
    assert list(s.columns) == ["run", *serving.LATENCY_STATS]
    assert s[["median", "p90", "p95", "p99"]].isna().all(axis=None)


def test_the_tail_ratio_is_p99_over_the_median_where_both_are_printed():
    r = runs(ttft_median=[200.0, 200.0, 0.0, np.nan], ttft_p99=[500.0, np.nan, 30.0, 400.0])
    ratio = serving.tail_ratios(r, "ttft")
    assert ratio.iat[0] == pytest.approx(2.5)
    assert ratio.iloc[1:].isna().all()  # no p99; a median of 0; no median


def test_a_run_of_one_request_has_no_tail_to_read():
    r = runs(ttft_median=[200.0, 200.0, 200.0], ttft_p99=[500.0, 200.0, 500.0], completed=[2.0, 1.0, np.nan])
    ratio = serving.tail_ratios(r, "ttft")
    assert ratio.iat[0] == pytest.approx(2.5)
    assert np.isnan(ratio.iat[1])
    assert ratio.iat[2] == pytest.approx(2.5)  # no count printed: the printed percentiles stand


def test_seconds_printed_by_the_token_position_script_reach_the_runs_in_ms():
    path = config.FIXTURES_DIR / "vllm-bench-serve" / "token_position_slo_glm5_fp8_vllm_tp8_isl1024_osl128_conc8.json"
    r = serving.runs(ingest.read(path, tool="vllm-bench-serve"))
    s = serving.latency_stats(r, "e2el")
    assert s["median"].iat[0] == pytest.approx(3459.710185416043)
    assert s["p99"].iat[0] == pytest.approx(4460.860403906552)
    assert math.isnan(s["mean"].iat[0])  # the file prints no mean


def test_the_screen_s_conflicting_latency_rows_are_named_and_others_are_not():
    from benchbook.ingest import core

    base = dict(tool="t", source="f", run="a", unit="ms", note=None)
    t = pd.DataFrame(
        [
            {**base, "line": 1, "metric": "ttft", "statistic": "mean", "value": 10.0},
            {**base, "line": 2, "metric": "ttft", "statistic": "mean", "value": 12.0},  # same run, another value
            {**base, "line": 3, "metric": "tpot", "statistic": "mean", "value": 5.0},
            {**base, "line": 4, "metric": "output_throughput", "statistic": "value", "value": -1.0},
        ]
    )
    _, out, _ = core.screen(t)
    report = [{"text": x, "reason": y} for x, y in zip(out["text"], out["reason"].astype(str), strict=True)]
    assert serving.screened_latencies(report) == ["ttft"]
    assert (
        serving.screened_latencies([{"text": "P75 TTFT (ms): 80", "reason": "percentile P75 is not a tidy statistic"}])
        == []
    )


def test_every_printed_percentile_is_in_the_latency_table_by_rank():
    r = runs(ttft_mean=[10.0], ttft_p99=[30.0], ttft_p25=[8.0], **{"ttft_p99.9": [40.0], "ttft_p1": [5.0]})
    s = serving.latency_stats(r, "ttft", every=True)
    assert list(s.columns) == ["run", "mean", "median", "p1", "p25", "p90", "p95", "p99", "p99.9"]
    assert list(serving.latency_stats(r, "ttft").columns) == ["run", *serving.LATENCY_STATS]


def test_the_count_and_the_max_of_a_latency_are_columns_of_their_own():
    """AIPerf prints a latency's sample count and its max: `ttft_count` and `ttft_max`, never one `ttft`
    column holding whichever came first; a metric that is itself a peak keeps its bare name."""
    rows = [
        ("ttft", "count", 100.0),
        ("ttft", "max", 950.0),
        ("ttft", "mean", 400.0),
        ("peak_output_throughput", "max", 1600.0),
        ("completed", "count", 100.0),
    ]
    df = pd.DataFrame(
        [
            {"tool": "aiperf", "source": "x", "run": "a", "format": "json", "metric": m, "statistic": s, "value": v}
            for m, s, v in rows
        ]
    )
    w = serving.runs(df)
    assert w.at[0, "ttft_count"] == 100.0 and w.at[0, "ttft_max"] == 950.0 and "ttft" not in w
    assert w.at[0, "peak_output_throughput"] == 1600.0 and w.at[0, "completed"] == 100.0


def test_a_median_under_one_millisecond_still_has_a_tail_ratio():
    r = runs(itl_median=[0.5], itl_p99=[2.0])
    assert serving.tail_ratios(r, "itl").iat[0] == pytest.approx(4.0)
