"""Tests written to fail for the deliberate bugs that once left every unit test green (issue 19;
benchmarks/mutation/README.md lists them): a comparator that always agrees, an inverted winner-set
rule, and TGI prefill tokens/s without the sequence length. Each uses data with a known answer and
checks the rule both ways."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from benchbook import checks, config
from benchbook.analysis import quant, tp

# --------------------------------------------------------------------------------------------
# The reproduction comparator
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "published, recomputed, decimals, carried, expected",
    [
        (22.07, 22.070183, 2, 0.0, True),  # within half a unit in the last printed place
        (22.07, 22.0749, 2, 0.0, True),
        (22.07, 22.0751, 2, 0.0, False),  # just past it
        (22.07, 22.17, 2, 0.0, False),
        (22.07, 21.97, 2, 0.0, False),  # on the other side
        (22.07, 22.17, 2, 0.1, True),  # the inputs' printed precision carries 0.1
        (22.07, 22.18, 2, 0.1, False),
        (100.0, 100.4, 0, 0.0, True),
        (100.0, 100.6, 0, 0.0, False),
        (math.nan, 22.07, 2, 0.0, False),  # a missing side never agrees
        (22.07, math.inf, 2, 0.0, False),
        (None, 22.07, 2, 0.0, False),
        ("n/a", 22.07, 2, 0.0, False),
    ],
)
def test_agrees_within_the_printed_precision_only(published, recomputed, decimals, carried, expected):
    assert checks.agrees(published, recomputed, decimals, carried) is expected


def test_a_doctored_published_number_is_caught_by_the_reproduction(tmp_path):
    """Seed 003 reproduces 70 of 70; with one printed msec/token changed (22.07 -> 22.17), exactly
    that quantity stops agreeing and the other 69 still do."""
    text = config.seed("003").read_text(encoding="utf-8")
    assert "| 45.31 \\| 22.07  |" in text
    doctored = tmp_path / "003_doctored.txt"
    doctored.write_text(text.replace("| 45.31 \\| 22.07  |", "| 45.31 \\| 22.17  |"), encoding="utf-8")
    clean = checks.reproduce_all([config.seed("003")])
    bad = checks.reproduce_all([doctored])
    assert clean["agrees"].all() and len(clean) == len(bad) == 70
    wrong = bad[~bad["agrees"].astype(bool)]
    assert len(wrong) == 1
    row = wrong.iloc[0]
    assert row["line"] == 10 and row["published"] == pytest.approx(22.17)
    assert row["recomputed"] == pytest.approx(1000 / 45.31)


# --------------------------------------------------------------------------------------------
# Winner sets: the best, plus every scheme the Welch test cannot tell from it (p >= alpha)
# --------------------------------------------------------------------------------------------


def _runs(cells: dict[str, list[float]], metric: str = "overall_throughput", regime: str = "base") -> pd.DataFrame:
    rows = []
    for scheme, values in cells.items():
        for i, v in enumerate(values):
            rows.append({"regime": regime, "scheme": scheme, "batch_size": 8, "run": i, metric: v})
    return pd.DataFrame(rows)


def test_winner_set_holds_the_indistinguishable_and_not_the_slow():
    runs = _runs(
        {
            "best": [100.0, 101.0, 99.0],
            "close": [99.5, 100.5, 98.5],  # p ~ 0.6 against best: cannot be told apart
            "slow": [50.0, 51.0, 49.0],  # p ~ 1e-5: clearly worse
        }
    )
    win = quant.winner_sets(runs, {"base": "overall_throughput"}, alpha=0.05).set_index("scheme")
    assert win.loc["best", "rank"] == 1 and win.loc["best", "in_winner_set"]
    assert win.loc["close", "p_vs_best"] > 0.05 and win.loc["close", "in_winner_set"]
    assert win.loc["slow", "p_vs_best"] < 0.05 and not win.loc["slow", "in_winner_set"]


def test_winner_set_follows_alpha_both_ways():
    """The same 'close' scheme leaves the set once alpha exceeds its p-value."""
    runs = _runs({"best": [100.0, 101.0, 99.0], "close": [98.0, 99.0, 97.0]})
    p = (
        quant.winner_sets(runs, {"base": "overall_throughput"}, alpha=0.05)
        .set_index("scheme")
        .loc["close", "p_vs_best"]
    )
    assert 0.01 < p < 0.5
    inside = quant.winner_sets(runs, {"base": "overall_throughput"}, alpha=p / 2).set_index("scheme")
    outside = quant.winner_sets(runs, {"base": "overall_throughput"}, alpha=min(0.99, p * 2)).set_index("scheme")
    assert inside.loc["close", "in_winner_set"] and not outside.loc["close", "in_winner_set"]


def test_winner_set_for_latency_keeps_the_lowest():
    runs = _runs({"fast": [1.00, 1.01, 0.99], "slow": [2.0, 2.02, 1.98]}, metric="latency", regime="interactive")
    win = quant.winner_sets(runs, {"interactive": "latency"}).set_index("scheme")
    assert win.loc["fast", "in_winner_set"] and not win.loc["slow", "in_winner_set"]
    assert win.loc["slow", "ratio_to_best"] == pytest.approx(0.5, rel=1e-3)


def test_an_untestable_scheme_is_not_a_winner():
    runs = _runs({"best": [100.0, 101.0, 99.0], "single": [100.0]})
    win = quant.winner_sets(runs, {"base": "overall_throughput"}).set_index("scheme")
    assert not win.loc["single", "testable"] and not win.loc["single", "in_winner_set"]


# --------------------------------------------------------------------------------------------
# TGI prefill: the printed "tokens/secs" is sequences/s; tokens/s needs the sequence length
# --------------------------------------------------------------------------------------------


def _tgi_wide(seq: int = 512) -> pd.DataFrame:
    """Two batch sizes at TP 1: prefill of 4 x 512 tokens in 100 ms, of 8 x 512 in 160 ms."""
    base = {"tp": 1, "sequence_length": seq, "decode_length": 64, "quantize": "none", "model": "m", "source": "s"}
    rows = [
        {**base, "metric": "prefill_latency", "batch_size": 4, "mean": 100.0, "line": 10},
        {**base, "metric": "prefill_throughput", "batch_size": 4, "mean": 40.0, "line": 11},
        {**base, "metric": "prefill_latency", "batch_size": 8, "mean": 160.0, "line": 12},
        {**base, "metric": "decode_token_latency", "batch_size": 4, "mean": 20.0, "line": 13},
    ]
    return pd.DataFrame(rows)


@pytest.mark.parametrize("seq", [512, 1024])
def test_prefill_example_multiplies_by_the_sequence_length(seq):
    g = tp.prefill_example(_tgi_wide(seq), tp_unknown=1)
    assert g["pf_bs"] == 4 and g["pf_seq_s"] == pytest.approx(40.0)
    assert g["pf_tok_s"] == pytest.approx(4 * seq / 0.100)  # 20,480 or 40,960 prompt tokens/s


def test_roofline_prompt_tokens_per_second_multiply_by_the_sequence_length():
    from types import SimpleNamespace

    gpu = SimpleNamespace(name="test", bandwidth_gb_s=2000.0, fp16_tflops=300.0)
    pts = tp.roofline_points(_tgi_wide(512), params_b=7.0, bytes_per_param=2.0, gpu=gpu, kv_bytes_per_token=0.0)
    pre = pts[pts["metric"] == "prefill_latency"].set_index("batch_size")
    assert pre.loc[4, "prompt_tok_s"] == pytest.approx(4 * 512 / 0.100)
    assert pre.loc[8, "prompt_tok_s"] == pytest.approx(8 * 512 / 0.160)
    assert pre.loc[4, "tflop"] == pytest.approx(2 * 7e9 * 4 * 512 / 1e12)
    assert np.isnan(pts.loc[pts["metric"] == "decode_token_latency", "prompt_tok_s"]).all()
