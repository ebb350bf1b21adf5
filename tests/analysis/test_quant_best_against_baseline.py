"""The best of several schemes against the baseline, by the regime's metric and its direction."""

import pandas as pd
import pytest

from benchbook.analysis import quant


def _runs(metric, values):
    rows = [(s, v) for s, vs in values.items() for v in vs]
    return pd.DataFrame(
        {"regime": "decode_bound", "scheme": [s for s, _ in rows], "batch_size": 1, metric: [v for _, v in rows]}
    )


def test_the_best_by_latency_is_the_quickest_scheme():
    rt = _runs("latency", {"original": [10.0, 10.2, 9.8], "w8a8_a": [5.0, 5.1, 4.9], "w8a8_b": [8.0, 8.1, 7.9]})
    best = quant.best_against_baseline(rt, {"decode_bound": "latency"}, "original", ["w8a8_a", "w8a8_b"])
    assert best["scheme"].tolist() == ["w8a8_a"] and best["speedup"].iat[0] == pytest.approx(2.0)


def test_the_best_by_throughput_is_the_fastest_scheme():
    rt = _runs("output_throughput", {"original": [100.0, 101, 99], "w8a8_a": [150.0, 151, 149], "w8a8_b": [120.0] * 3})
    best = quant.best_against_baseline(rt, {"decode_bound": "output_throughput"}, "original", ["w8a8_a", "w8a8_b"])
    assert best["scheme"].tolist() == ["w8a8_a"] and best["speedup"].iat[0] == pytest.approx(1.5)


def test_a_regime_where_only_the_baseline_or_only_a_scheme_ran_has_no_row():
    alone = _runs("latency", {"original": [10.0, 10.2, 9.8]})
    assert quant.best_against_baseline(alone, {"decode_bound": "latency"}, "original", ["w8a8_a"]).empty
    orphan = _runs("latency", {"w8a8_a": [5.0, 5.1, 4.9]})
    assert quant.best_against_baseline(orphan, {"decode_bound": "latency"}, "original", ["w8a8_a"]).empty


def test_the_throughput_speedup_has_its_95_percent_interval_around_it():
    rt = _runs("output_throughput", {"original": [100.0, 101, 99], "w8a8_a": [150.0, 151, 149]})
    best = quant.best_against_baseline(rt, {"decode_bound": "output_throughput"}, "original", ["w8a8_a"]).iloc[0]
    assert 1.45 < best["ci_low"] < best["speedup"] < best["ci_high"] < 1.55


def test_runs_that_do_not_vary_and_agree_are_no_evidence_of_a_difference():
    rt = _runs("latency", {"original": [10.0, 10.0, 10.0], "w8a8_a": [10.0, 10.0, 10.0]})
    assert quant.best_against_baseline(rt, {"decode_bound": "latency"}, "original", ["w8a8_a"])["p"].iat[0] == 1.0
    apart = _runs("latency", {"original": [10.0, 10.0, 10.0], "w8a8_a": [5.0, 5.0, 5.0]})
    assert quant.best_against_baseline(apart, {"decode_bound": "latency"}, "original", ["w8a8_a"])["p"].iat[0] == 0.0
