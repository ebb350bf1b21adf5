"""Tests written to fail for the deliberate bugs that once left every unit test green (issue 19;
benchmarks/mutation/README.md lists them): a comparator that always agrees, an inverted winner-set
rule, and TGI prefill tokens/s without the sequence length. Each uses data with a known answer and
checks the rule both ways."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from benchbook import checks, config, ingest
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
    g = tp.prefill_example(_tgi_wide(seq))
    assert g["batch_size"] == 4 and g["sequence_length"] == seq and g["seq_s"] == pytest.approx(40.0)
    assert g["tok_s"] == pytest.approx(4 * seq / 0.100)  # 20,480 or 40,960 prompt tokens/s, not 40


def test_roofline_prefill_work_scales_with_the_sequence_length():
    """Prefill of 4 x 512 tokens on a 7B model: 2 x 7e9 x 4 x 512 FLOPs; decode: 2 x 7e9 x 4."""
    pts = tp.roofline_points(
        _tgi_wide(512), params_b=7.0, bytes_per_param=2.0, bandwidth_gb_s=2000.0, peak_tflops=300.0
    )
    pre = pts[pts["metric"] == "prefill_latency"].set_index("batch_size")
    assert pre.loc[4, "tflop"] == pytest.approx(2 * 7e9 * 4 * 512 / 1e12)
    assert pre.loc[4, "achieved_tflops"] == pytest.approx(2 * 7e9 * 4 * 512 / 0.100 / 1e12)
    assert pre.loc[8, "achieved_tflops"] == pytest.approx(2 * 7e9 * 8 * 512 / 0.160 / 1e12)
    dec = pts[pts["metric"] == "decode_token_latency"].iloc[0]
    assert dec["tflop"] == pytest.approx(2 * 7e9 * 4 / 1e12)


# --------------------------------------------------------------------------------------------
# Survivors of `make mutation` (benchmarks/mutation/README.md), killed here
# --------------------------------------------------------------------------------------------


def test_frontier_keeps_a_tie_broken_on_another_axis():
    """(2, 5) dominates (1, 5): as good on y, better on x. Missing coordinates never count."""
    from benchbook.analysis import pareto

    assert list(pareto.frontier([1, 2], [5, 5])) == [False, True]
    assert list(pareto.frontier([1.0, None, 3.0], [3.0, 5.0, 1.0])) == [True, False, True]
    assert pareto.frontier().shape == (0,)


def test_fraction_of_peak_on_both_sides_of_its_rule():
    from benchbook.analysis import pareto

    y = [50.0, 90.0, 96.0, 100.0, 99.0]
    x = [1, 2, 4, 8, 16]
    assert pareto.fraction_of_peak(x, y, 0.95) == 2  # 96 >= 95: the smallest x that reaches the fraction
    assert pareto.fraction_of_peak(x, y, 0.96) == 2  # exactly on the line counts
    assert pareto.fraction_of_peak(x, y, 0.97) == 3
    assert pareto.fraction_of_peak(x, y, 1.0) == 3  # the peak itself
    assert pareto.fraction_of_peak(["10", "9", "8"], [1, 1, 1], 1.0) == 2  # numbers, not text order
    assert pareto.fraction_of_peak([1, 2, 3], [None, 10, 9.6], 0.95) == 1  # a missing y is skipped
    for bad in (0, -0.5, 1.5, 2):
        with pytest.raises(ValueError, match=r"fraction must be in \(0, 1\]"):
            pareto.fraction_of_peak(x, y, bad)
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match="no point with a known value"):
            pareto.fraction_of_peak([1, 2], [math.nan, math.nan], 0.9)


@pytest.mark.parametrize("x, places", [(22.07, 2), (0.5, 1), (1e-07, 0), (1.5e-07, 0), (1e20, 0), (2.5e20, 0)])
def test_printed_decimals(x, places):
    assert checks.printed_decimals(x) == places


def test_expand_keeps_files_and_expands_folders_in_order(tmp_path):
    first = tmp_path / "first.txt"
    first.write_text("x", encoding="utf-8")
    folder = tmp_path / "runs"
    (folder / "sub").mkdir(parents=True)
    for name in ("b.md", "a.txt", "README.md", "m.yml", "n.yaml", "sub/c.txt"):
        (folder / name).write_text("x", encoding="utf-8")
    want = [first, folder / "a.txt", folder / "b.md", folder / "sub" / "c.txt"]
    assert checks.expand(f"{first}, {folder}") == want
    assert checks.expand([str(first), str(folder)]) == want
    assert checks.expand((str(first),)) == [first]


def test_conflicts_count_missing_settings_as_a_value():
    """Two rows with the same (missing) TP and different values conflict; a lone row does not."""
    from benchbook.ingest import core

    df = pd.DataFrame(
        {
            "tp": [np.nan, np.nan, 2.0, 4.0],
            "metric": ["tok_s"] * 4,
            "statistic": ["mean"] * 4,
            "value": [10.0, 12.0, 10.0, 11.0],
            "source": ["a", "b", "a", "a"],
            "line": [1, 1, 2, 3],
        }
    )
    out = core.conflicts(df, ["tp"])
    assert sorted(out["value"]) == [10.0, 12.0] and out["tp"].isna().all()


def test_register_puts_the_tool_in_the_registry():
    from benchbook import ingest
    from benchbook.ingest import core

    tool = core.Tool(name="zz-test-tool", settings={}, sniff=lambda text: False, parse=lambda text, source: None)
    try:
        assert core.register(tool) is tool
        assert ingest.tools()["zz-test-tool"] is tool
    finally:
        core.REGISTRY.pop("zz-test-tool", None)


def _reproduction() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "source": ["b.txt", "b.txt", "a.txt", "a.txt", "a.txt", "a.txt"],
            "tool": ["llama", "llama", "tgi", "tgi", "tgi", "tgi"],
            "published": [50.0, np.nan, 100.0, 100.0, 0.0, 1.0],
            "recomputed": [55.0, 50.0, 101.0, 100.0, 1.0, 1.0],
            "agrees": [False, False, False, True, False, True],
            "why_not": ["off by 10 %", "not printed", "off by 1 %", np.nan, "printed 0", np.nan],
        }
    )


def test_summary_counts_agreement_per_source_and_tool():
    s = checks.summary(_reproduction()).set_index(["source", "tool"])
    none = {"not checkable": 0, "repeated": 0}
    assert s.loc[("a.txt", "tgi")].to_dict() == {"recomputed": 4, "agree": 2, "disagree": 2, **none}
    assert s.loc[("b.txt", "llama")].to_dict() == {"recomputed": 2, "agree": 0, "disagree": 2, **none}
    assert list(s.index) == [("b.txt", "llama"), ("a.txt", "tgi")]  # in the order of the table, not sorted


@pytest.mark.parametrize(
    "published, recomputed, decimals, expected",
    [
        (0.0, 0.5, 0, True),  # exactly half a unit off: inside
        (0.0, checks.tolerance(0) + 1e-9, 0, True),  # on the edge, binary slack included
        (0.0, 0.5 + 1.5e-9, 0, False),  # past the slack of 1e-9 (relative to max(1, |published|))
        (1e9, 1e9 + 1.2, 0, True),  # the slack grows with the value: 0.5 + 1e-9 x 1e9
        (1e9, 1e9 + 1.6, 0, False),
    ],
)
def test_agrees_at_the_edge_of_its_tolerance(published, recomputed, decimals, expected):
    assert checks.agrees(published, recomputed, decimals) is expected


def test_reproduce_all_counts_an_unrecomputable_quantity_as_a_disagreement(monkeypatch):
    """A tool module that could not recompute a published number (agrees missing) gives False, not
    True; the table has exactly the reproduction columns and a fresh index over all files."""
    from benchbook.checks import hf_batch

    def fake(path):
        rows = [{"line": 1, "published": 1.0, "agrees": np.nan}, {"line": 2, "published": 2.0, "agrees": True}]
        rows.append({"line": 3, "published": np.nan, "agrees": True})  # not published: left out
        return checks.frame(
            [{"source": path.name, "tool": "hf-batch-sweep", **r} for r in rows], checks.REPRODUCTION_COLUMNS
        )

    monkeypatch.setattr(hf_batch, "reproduce", fake)
    table = checks.reproduce_all([config.seed("003"), config.seed("003")])
    assert list(table.columns) == checks.REPRODUCTION_COLUMNS
    assert list(table.index) == [0, 1, 2, 3]
    assert table["agrees"].dtype == bool and list(table["agrees"]) == [False, True, False, True]


def test_audit_all_indexes_the_rows_of_all_files_afresh(monkeypatch):
    from benchbook.checks import hf_batch

    monkeypatch.setattr(hf_batch, "audit", lambda path: checks.frame([{"source": path.name}] * 2, checks.AUDIT_COLUMNS))
    table = checks.audit_all([config.seed("003"), config.seed("003")])
    assert list(table.index) == [0, 1, 2, 3] and list(table.columns) == checks.AUDIT_COLUMNS


# --------------------------------------------------------------------------------------------
# analysis/quant: the source's own ranking, the metric sensitivity, speed-ups and their intervals
# (functions the mutation run found without any test)
# --------------------------------------------------------------------------------------------


def test_published_ranking_of_the_seed():
    """Seed 002 ranks 7 schemes in each of 7 regimes by output throughput, in its own order."""
    pub = quant.published_ranking(ingest.read(config.seed("002")))
    assert list(pub.columns) == ["regime", "rank", "scheme", "value", "line"] and len(pub) == 49
    assert pub.groupby("regime")["rank"].apply(list).map(lambda r: r == [1, 2, 3, 4, 5, 6, 7]).all()
    first, last = pub.iloc[0], pub.iloc[6]
    assert (first["regime"], first["rank"], first["scheme"], first["value"], first["line"]) == (
        "interactive",
        1,
        "w8a8_sparse_smooth_gptq",
        193.82,
        1479,
    )
    assert (last["rank"], last["scheme"], last["value"], last["line"]) == (7, "original", 132.75, 1485)


def test_published_ranking_follows_the_lines_per_regime():
    rows = [("a", "x", 30), ("a", "y", 10), ("b", "z", 15), ("a", "w", 20)]
    df = pd.DataFrame(
        [{"section": "ranking", "regime": r, "scheme": s, "value": 1.0, "line": ln} for r, s, ln in rows]
        + [{"section": "summary", "regime": "a", "scheme": "v", "value": 2.0, "line": 1}]
    )
    pub = quant.published_ranking(df)
    assert pub[["regime", "rank", "scheme", "line"]].values.tolist() == [
        ["a", 1, "y", 10],
        ["b", 1, "z", 15],
        ["a", 2, "w", 20],
        ["a", 3, "x", 30],
    ]
    none = quant.published_ranking(df[df["section"] == "summary"])
    assert none.empty and list(none.columns) == ["regime", "rank", "scheme", "value"]


def _two_metric_runs() -> pd.DataFrame:
    """Regime base: A has the higher throughput, B the lower latency; regime interactive: B wins both."""
    cells = {
        ("base", "A"): ([100.0, 101.0, 99.0], [2.0, 2.1, 1.9]),
        ("base", "B"): ([80.0, 81.0, 79.0], [1.0, 1.1, 0.9]),
        ("interactive", "A"): ([10.0, 10.5, 9.5], [3.0, 3.1, 2.9]),
        ("interactive", "B"): ([20.0, 20.5, 19.5], [1.0, 1.1, 0.9]),
    }
    return pd.DataFrame(
        [
            {"regime": r, "scheme": s, "batch_size": 8, "run": i, "overall_throughput": t, "latency": lat}
            for (r, s), (tput, lats) in cells.items()
            for i, (t, lat) in enumerate(zip(tput, lats, strict=True))
        ]
    )


def test_metric_sensitivity_names_the_best_per_metric_in_regime_order():
    ms = quant.metric_sensitivity(_two_metric_runs(), metrics=["overall_throughput", "latency"])
    assert ms.index.name == "regime" and list(ms.index) == ["interactive", "base"]  # the driver's order
    assert list(ms.columns) == ["overall_throughput", "latency"]
    assert ms.loc["base"].tolist() == ["A", "B"] and ms.loc["interactive"].tolist() == ["B", "B"]


def test_first_place_differs_and_membership_changes():
    pub = pd.DataFrame({"regime": ["a", "a", "b", "c"], "rank": [1, 2, 1, 1], "scheme": ["X", "Y", "Y", "Z"]})
    ours = pd.DataFrame({"regime": ["a", "b", "b"], "rank": [1, 1, 2], "scheme": ["X", "W", "Y"]})
    assert quant.first_place_differs(pub, ours) == ["b"]  # c is not ranked by us
    assert quant.first_place_differs(pub.iloc[:0], ours) == []
    w1 = pd.DataFrame({"regime": ["a", "a", "b"], "scheme": ["X", "Y", "Z"], "in_winner_set": [True, True, False]})
    w2 = pd.DataFrame({"regime": ["a", "a", "b"], "scheme": ["X", "Y", "Z"], "in_winner_set": [True, False, True]})
    assert quant.membership_changes(w1, w2) == 2 and quant.membership_changes(w1, w1) == 0


def test_speedups_against_the_default_baseline_with_an_interval():
    runs = _runs({"original": [100.0, 104.0, 96.0], "fast": [150.0, 156.0, 144.0], "two": [200.0, 210.0]})
    runs = pd.concat([_runs({"original": [1.0, 1.0]}, regime="zz"), runs], ignore_index=True)
    s = quant.speedups(runs, {"base": "overall_throughput", "zz": "overall_throughput"})
    assert s["regime"].tolist() == ["zz", "base", "base", "base"]  # the input's order, not sorted
    fast = s.set_index(["regime", "scheme"]).loc[("base", "fast")]
    assert fast["speedup"] == pytest.approx(1.5)
    assert fast["ci_low"] < 1.5 < fast["ci_high"] and np.isfinite([fast["ci_low"], fast["ci_high"]]).all()
    two = s.set_index(["regime", "scheme"]).loc[("base", "two")]
    assert two["speedup"] == pytest.approx(2.05) and np.isfinite(two["ci_low"])  # two runs are enough
    wide = quant.speedups(runs, {"base": "overall_throughput"}, "original", alpha=0.01).set_index("scheme")
    narrow = quant.speedups(runs, {"base": "overall_throughput"}, "original", alpha=0.2).set_index("scheme")
    assert wide.loc["fast", "ci_low"] < narrow.loc["fast", "ci_low"] < 1.5 < narrow.loc["fast", "ci_high"]
    assert narrow.loc["fast", "ci_high"] < wide.loc["fast", "ci_high"]


def test_a_speedup_needs_runs_on_both_sides():
    one = _runs({"original": [100.0], "fast": [150.0, 156.0, 144.0], "empty": [np.nan, np.nan]})
    s = quant.speedups(one, {"base": "overall_throughput"}, "original").set_index("scheme")
    assert s.loc["fast", "speedup"] == pytest.approx(1.5) and np.isnan(s.loc["fast", "ci_low"])  # one baseline run
    assert np.isnan(s.loc["empty", "speedup"])
    nobase = _runs({"original": [np.nan], "fast": [150.0, 156.0]})
    assert quant.speedups(nobase, {"base": "overall_throughput"}, "original")["speedup"].isna().all()
    single = _runs({"original": [100.0, 104.0, 96.0], "fast": [150.0]})
    assert quant.speedups(single, {"base": "overall_throughput"}, "original").set_index("scheme").loc[
        "fast", "speedup"
    ] == pytest.approx(1.5)


def test_outlier_physics_implies_the_prefill_rate():
    """2 x 4e9 params x 8 x 256 tokens in 0.5 s is 32.768 TFLOP/s; a run flagged twice is one row;
    a run the table lacks, or with no positive TTFT, gives no rate."""
    runs = pd.DataFrame(
        [
            {"source": "s", "line": 10, "model": "w8a8_x_base", "run": "run1", "scheme": "w8a8_x", "batch_size": 8,
             "input_len": 256, "implied_ttft": 0.5},
            {"source": "s", "line": 20, "model": "original_base", "run": "run2", "scheme": "original", "batch_size": 8,
             "input_len": 256, "implied_ttft": 0.0},
        ]
    )  # fmt: skip
    flagged = pd.DataFrame(
        {
            "source": ["t", "s", "s", "s"],  # the first flagged run is not in the table: the others are still read
            "line": [10, 10, 10, 20],
            "metric": ["latency"] * 4,
            "value": [4.0, 1.0, 2.0, 3.0],
        }
    )
    phys = quant.outlier_physics(runs, flagged, 4.0)
    assert list(phys.columns) == [
        "model",
        "run",
        "line",
        "metric",
        "value",
        "implied_ttft",
        "implied_prefill_tflops",
        "peak",
    ]
    assert phys["line"].tolist() == [10, 20] and phys["metric"].tolist() == ["latency", "latency"]
    assert phys.loc[0, "implied_prefill_tflops"] == pytest.approx(32.768, rel=1e-12)
    assert phys["peak"].tolist() == ["int8", "fp16"] and np.isnan(phys.loc[1, "implied_prefill_tflops"])
    assert list(quant.outlier_physics(runs, flagged.iloc[:1], 4.0).columns) == list(phys.columns)  # none found


def test_slowest_at_largest_batch_and_decode_trend():
    shape = pd.DataFrame({"batch_size": [1, 64, 8]}, index=["interactive", "high_concurrency", "medium_batch"])
    spd = pd.DataFrame(
        {
            "regime": ["high_concurrency"] * 3 + ["interactive"] * 2,
            "scheme": ["a", "b", "c", "a", "b"],
            "speedup": [1.2, 0.9, np.nan, 0.5, 2.0],
        }
    )
    assert quant.slowest_at_largest_batch(spd, shape, ["a", "b", "c"]) == "b"
    assert quant.slowest_at_largest_batch(spd, shape, ["a", "c"]) == "a"
    assert quant.slowest_at_largest_batch(spd, shape, ["c"]) is None
    assert quant.slowest_at_largest_batch(spd, shape, []) is None
    assert quant.slowest_at_largest_batch(spd, shape.iloc[:0], ["a"]) is None
    ratios = pd.DataFrame(
        {
            "phase": ["decode", "decode", "decode", "prefill", "decode"],
            "regime": ["a", "b", "c", "a", "d"],
            "batch_size": [1, 1, 8, 1, 8],
            "ratio": [1.2, 1.4, 0.9, 3.0, np.nan],
            "intensity": [4.0, 4.0, 32.0, 9.0, 64.0],
            "intensity_baseline": [1.0, 1.0, 8.0, 9.0, 16.0],
        }
    )
    trend = quant.decode_trend(ratios)
    assert trend.to_dict("list") == {
        "batch_size": [1, 8], "ratio": [pytest.approx(1.3), 0.9], "intensity": [4.0, 32.0],
        "intensity_baseline": [1.0, 8.0], "n_regimes": [2, 1],
    }  # fmt: skip
    assert quant.placement({}) == {"hardware": None, "own_gpu_each": None}
    empty = quant.decode_trend(pd.DataFrame({"phase": ["prefill"], "ratio": [1.0]}))
    assert empty.empty and list(empty.columns) == [
        "batch_size",
        "ratio",
        "intensity",
        "intensity_baseline",
        "n_regimes",
    ]


def test_timestamp_outliers_need_a_low_output_throughput_alone():
    flagged = pd.DataFrame(
        {
            "regime": ["base"] * 4,
            "scheme": ["a", "b", "c", "d"],
            "metric": ["output_throughput", "output_throughput", "latency", "output_throughput"],
            "value": [10.0, 20.0, 1.0, 30.0],
            "others_median": [20.0, 20.0, 2.0, 20.0],
        }
    )
    ts = quant.timestamp_outliers(flagged)
    assert ts.to_dict() == {("base", "a"): True, ("base", "b"): False, ("base", "c"): False, ("base", "d"): False}
    assert quant.excludable(flagged)["scheme"].tolist() == ["a"]
    empty = quant.timestamp_outliers(flagged.iloc[:0])
    assert empty.empty and empty.dtype == bool


def _phase_runs(scheme: str, ttft_base, ttft_scheme) -> pd.DataFrame:
    """Regime base (32 x 256): each run's latency is 4 x its TTFT; interactive has baseline runs only."""
    rows = [("base", "original", t) for t in ttft_base] + [("base", scheme, t) for t in ttft_scheme]
    rows += [("interactive", "original", 0.1), ("interactive", "original", 0.1)]
    return pd.DataFrame(
        [
            {"regime": r, "scheme": s, "batch_size": 32 if r == "base" else 1, "input_len": 256 if r == "base" else 128,
             "implied_ttft": t, "latency": 4 * t if t == t else 1.0}
            for r, s, t in rows
        ]
    )  # fmt: skip


def test_phase_ratios_of_a_four_bit_scheme():
    """Times halve: every ratio is 2; a zero or missing time is left out; intensities are 2 x tokens /
    bytes per weight (0.5 for w4a16, 2 for the 16-bit baseline)."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # an empty side gives NaN, not a mean of nothing
        r = quant.phase_ratios(_phase_runs("w4a16_x", [0.5, 0.5, 0.0], [0.25, 0.25, 0.0]), "w4a16_x", "original")
        gone = quant.phase_ratios(_phase_runs("w4a16_x", [0.5, 0.5], [np.nan, np.nan]), "w4a16_x", "original")
    assert r["regime"].tolist() == ["base"] * 3 and r["phase"].tolist() == ["prefill", "decode", "total"]
    assert r.loc[0, "ratio"] == pytest.approx(2.0) and r.loc[0, "tokens_per_pass"] == 32 * 256
    assert r.loc[0, "intensity"] == 2 * 32 * 256 / 0.5 and r.loc[0, "intensity_baseline"] == 2 * 32 * 256 / 2
    assert r.loc[1, "intensity"] == 2 * 32 / 0.5
    assert np.isnan(gone.loc[0, "ratio"])
    none = quant.phase_ratios(_phase_runs("w4a16_x", [0.5], [0.25]), "nosuch", "original")
    assert none.empty and list(none.columns) == [
        "regime", "phase", "batch_size", "tokens_per_pass", "ratio", "ci_low", "ci_high", "intensity", "intensity_baseline"
    ]  # fmt: skip


def test_latency_speedups_turn_the_ratio_over_with_an_interval():
    """For latency lower is better: the baseline's time / the scheme's; a scheme with no runs is NaN
    without a warning about an empty mean."""
    import warnings

    runs = _runs({"original": [2.0, 2.1, 1.9], "fast": [1.0, 1.05, 0.95], "none": [np.nan]}, "latency", "interactive")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        s = quant.speedups(runs, {"interactive": "latency"}).set_index("scheme")
    assert s.loc["fast", "speedup"] == pytest.approx(2.0)
    assert s.loc["fast", "ci_low"] < 2.0 < s.loc["fast", "ci_high"] and np.isfinite(s.loc["fast", "ci_high"])
    assert np.isnan(s.loc["none", "speedup"])


def test_model_size_peaks_and_the_regime_table():
    assert quant.model_size("Qwen3-4B (a note)", ["bloom-7b1"]) == (pytest.approx(4.02), "Qwen3-4B", "parameter")
    assert quant.model_size("", ["", "no size", "bloom-7b1"]) == (pytest.approx(7.07), "bloom-7b1", "detected")
    named = quant.peaks("H100-SXM5-80GB", ["NVIDIA A100-SXM4-80GB"])
    assert (named.device, named.source, named.bandwidth_gb_s) == ("H100-SXM5-80GB", "parameter", 3350.0)
    assert named.tflops == pytest.approx(989.4) and named.int8_tops == pytest.approx(1978.9)
    own = quant.peaks("", ["NVIDIA A100-SXM4-80GB"], peak_bandwidth_gb_s=1000.0)
    assert (own.device, own.source, own.bandwidth_gb_s) == ("A100-SXM4-80GB", "parameter", 1000.0)
    shape = pd.DataFrame({"batch_size": [1, 32]}, index=["interactive", "base"])
    t = quant.regime_table(shape, pd.Series({"interactive": 0.01234, "base": 0.5}), {"base": "latency"})
    assert t["metric"].tolist() == ["latency", "latency"] and t["median_implied_ttft_ms"].tolist() == [12.3, 500.0]
    assert quant.regime_table(shape, pd.Series(dtype=float), {"interactive": "output_throughput"})[
        "metric"
    ].tolist() == [
        "output_throughput",
        "overall_throughput",
    ]


@pytest.mark.parametrize(
    "a, b, level, expected",
    [
        # relative variances 4/432 each, Welch df 4: 2 x exp(-+ t(0.975, 4) x sqrt(8/432))
        ([10.0, 12.0, 14.0], [5.0, 6.0, 7.0], 0.95, (2.0, 1.370699040122191, 2.9182190130106314)),
        # unequal sizes (df 3.262) and a 90 % interval; two runs on one side are enough
        ([10.0, 12.0, 14.0, 16.0], [5.0, 6.0], 0.90, (13 / 5.5, 1.7392839753090348, 3.212113110230593)),
        # no spread on one side: df from the other alone (2)
        ([10.0, 10.0, 10.0], [5.0, 6.0, 7.0], 0.95, (10 / 6, 1.101642966956147, 2.5214864171945037)),
        ([10.0, 10.0], [5.0, 5.0], 0.95, (2.0, 2.0, 2.0)),
    ],
)
def test_log_ratio_interval_known_values(a, b, level, expected):
    got = quant._log_ratio_ci(np.array(a), np.array(b), level)
    assert got == pytest.approx(expected, rel=1e-12)


def test_roofline_points_of_a_four_bit_scheme():
    """2e9 params, batch 8, input 256, w4a16 (0.5 byte/weight): decode at 100 +- 10 tok/s is 0.4 +-
    0.04 TFLOP/s and 12.5 +- 1.25 GB/s of weights at 32 FLOP/byte; prefill in 0.5 s and 0.25 s (a zero TTFT
    left out) is 8.192 / 0.375 TFLOP/s at 8192 FLOP/byte. Groups keep the input's order."""
    rows = [("zz", "original", 50.0, 1.0)] + [
        ("base", "w4a16_x", t, s) for t, s in ((100.0, 0.5), (110.0, 0.25), (90.0, np.nan), (np.nan, 0.0))
    ]
    runs = pd.DataFrame(
        [
            {"regime": r, "scheme": s, "batch_size": 8, "input_len": 256, "output_throughput": t, "implied_ttft": f}
            for r, s, t, f in rows
        ]
    )
    pts = quant.roofline_points(runs, 2.0)
    assert pts["regime"].tolist() == ["zz", "zz", "base", "base"]
    dec = pts[(pts["regime"] == "base") & (pts["phase"] == "decode")].iloc[0]
    pre = pts[(pts["regime"] == "base") & (pts["phase"] == "prefill")].iloc[0]
    assert (dec["tokens_per_pass"], dec["n"], dec["intensity_flop_per_byte"], dec["peak"]) == (8, 3, 32.0, "fp16")
    assert [
        dec[c] for c in ("achieved_tflops", "achieved_tflops_std", "weight_gb_s", "weight_gb_s_std")
    ] == pytest.approx([0.4, 0.04, 12.5, 1.25], rel=1e-12)
    assert (pre["tokens_per_pass"], pre["n"], pre["intensity_flop_per_byte"]) == (2048, 2, 8192.0)
    assert pre["achieved_tflops"] == pytest.approx(8.192 / 0.375, rel=1e-12)  # over the mean TTFT
    assert pre["achieved_tflops_std"] == pytest.approx(16.384 / 2**0.5, rel=1e-12)  # of 16.384 and 32.768


def test_precision_from_the_scheme_name():
    int8 = {"bytes_per_weight": 1.0, "peak": "int8", "label": "int8 weights, int8 compute"}
    w8a16 = {"bytes_per_weight": 1.0, "peak": "fp16", "label": "int8 weights, fp16 compute"}
    int4 = {"bytes_per_weight": 0.5, "peak": "fp16", "label": "int4 weights, fp16 compute"}
    assert quant.precision("W8A8_smooth") == int8 and quant.precision("model_int8") == int8
    assert quant.precision("w8a16_awq") == w8a16 and quant.precision("fp8_dynamic") == w8a16
    assert quant.precision("x_awq4") == int4 and quant.precision("int4_x") == int4 and quant.precision("w4a16") == int4
    assert quant.precision("original") == {
        "bytes_per_weight": 2.0,
        "peak": "fp16",
        "label": "16-bit weights and compute",
    }


# --------------------------------------------------------------------------------------------
# analysis/tp.py survivors (benchmarks/mutation/README.md, third session)
# --------------------------------------------------------------------------------------------


def _pct_row(line: int, mean: float, p50: float, p90: float, metric: str = "decode_token_latency") -> dict:
    base = {"source": "s", "tp": 2, "section": "", "batch_size": 1, "p99": 99.0, "max": 100.0}
    return {**base, "line": line, "metric": metric, "mean": mean, "p50": p50, "p90": p90}


def test_percentile_inversions_name_each_kind_and_keep_ties_out():
    w = pd.DataFrame(
        [
            _pct_row(1, 10.0, 12.0, 11.0),  # below p50 only
            _pct_row(2, 12.0, 10.0, 11.0),  # below the mean only
            _pct_row(3, 12.0, 12.0, 11.0),  # below both
            _pct_row(4, 10.0, 11.0, 11.0),  # equal to p50: no inversion
            _pct_row(5, 11.0, 10.0, 11.0),  # equal to the mean: no inversion
            _pct_row(6, 12.0, 12.0, 11.0, metric="decode_throughput"),  # not a latency
        ]
    )
    inv = tp.percentile_inversions(w)
    assert inv["line"].tolist() == [1, 2, 3]
    assert inv["kind"].tolist() == ["p90 < p50", "p90 < mean", "p90 < p50 and p90 < mean"]
    counts = tp.percentile_counts(w)
    assert (counts["p90_lt_p50"], counts["p90_lt_mean"], counts["latency_rows"]) == (2, 2, 5)


def test_prefill_example_needs_a_printed_throughput():
    w = _tgi_wide()
    assert tp.prefill_example(w[w["metric"] != "prefill_throughput"]) is None
    w.loc[w["metric"] == "prefill_throughput", "mean"] = np.nan
    assert tp.prefill_example(w) is None


def test_nearest_measured_is_the_largest_tp_without_a_per_gpu_cost():
    flat = tp.ScalingFit(a=40.0, b=0.0, c=6.0, a_err=0, b_err=0, c_err=0, n_points=4, dof=1)
    assert flat.tp_optimum == math.inf and flat.nearest_measured([8, 1, 4, 2]) == 8
    fit = tp.ScalingFit(a=40.0, b=2.5, c=6.0, a_err=0, b_err=0, c_err=0, n_points=4, dof=1)
    assert fit.tp_optimum == pytest.approx(4.0) and fit.nearest_measured([8, 1, 2, 4]) == 4


def test_device_peaks_from_the_input_text_and_a_cpu_without_fp16():
    h = tp.device_peaks(texts=["", "NVIDIA H100 80GB HBM3"])
    assert (h["device"], h["source"], h["tflops"], h["bandwidth_gb_s"]) == ("H100-SXM5-80GB", "detected", 989.4, 3350.0)
    a = tp.device_peaks(texts=[""])
    assert (a["device"], a["source"], a["tflops"]) == ("A100-SXM4-80GB", "assumed", 312.0)
    cpu = tp.device_peaks(gpu="EPYC-7763")
    assert cpu["device"] == "EPYC-7763" and math.isnan(cpu["tflops"])


def test_combine_drops_only_a_repeated_measurement_and_keeps_the_columns():
    w = _tgi_wide()
    again = w.iloc[[0, 1]].assign(source="t", line=[50, 51])  # the same means printed in a second file
    other = w.iloc[[3]].assign(source="t", line=52, mean=21.0)  # a new measurement
    out, dropped = tp.combine(pd.concat([w, again, other], ignore_index=True))
    assert dropped == 2 and list(out.columns) == list(w.columns)
    assert out["line"].tolist() == [10, 11, 12, 13, 52] and out.index.tolist() == [0, 1, 2, 3, 4]


def _budget_rows() -> pd.DataFrame:
    """Prefill rows: TP 2 section a ran batch 1 and 2, failed at 4; section b ran 1 to 8; TP 4 ran 1 to 4,
    failed at 8; an unstated TP ran 1, failed at 2. Decode rows of TP 2 section a ran up to 16."""
    rows = []
    for tp_, sec, ran, failed in ((2, "a", (1, 2), (4,)), (2, "b", (1, 2, 4, 8), ()), (4, "a", (1, 2, 4), (8,))):
        rows += [{"tp": tp_, "section": sec, "batch_size": b, "mean": 10.0 * b} for b in ran]
        rows += [{"tp": tp_, "section": sec, "batch_size": b, "mean": np.nan} for b in failed]
    rows += [{"tp": np.nan, "section": "c", "batch_size": 1, "mean": 5.0}]
    rows += [{"tp": np.nan, "section": "c", "batch_size": 2, "mean": np.nan}]
    w = pd.DataFrame(rows).assign(metric="prefill_latency")
    dec = pd.DataFrame({"tp": 2, "section": "a", "batch_size": [1, 16], "mean": 1.0, "metric": "decode_token_latency"})
    return pd.concat([w, dec], ignore_index=True)


def test_ran_last_before_failure_both_ways():
    w = _budget_rows()
    assert tp.ran_last_before_failure(w, 2, "a", 2)
    assert tp.ran_last_before_failure(w, 4, "a", 4)
    assert tp.ran_last_before_failure(w, np.nan, "c", 1)
    assert not tp.ran_last_before_failure(w, 2, "a", 1)  # not the largest that ran
    assert not tp.ran_last_before_failure(w, 2, "b", 8)  # nothing larger failed
    assert not tp.ran_last_before_failure(w, 2, "a", 16, metric="prefill_latency")
    assert tp.ran_last_before_failure(w, 2, "a", 16, metric="decode_token_latency") is False


def test_percentile_inversion_ties_on_the_other_side_name_one_kind():
    w = pd.DataFrame([_pct_row(7, 12.0, 11.0, 11.0), _pct_row(8, 11.0, 12.0, 11.0)])
    assert tp.percentile_inversions(w)["kind"].tolist() == ["p90 < mean", "p90 < p50"]


def test_fit_scaling_keeps_parameters_non_negative_and_reads_missing_values():
    tps = np.array([1, 2, 4, 8, 16])
    f = tp.fit_scaling(tps, 40.0 / tps + 1.5 * (tps - 1))  # no fixed overhead: c = 0, not 1
    assert (f.a, f.b) == pytest.approx((40.0, 1.5), rel=1e-4) and abs(f.c) < 0.01
    assert (f.n_points, f.dof) == (5, 2) and max(f.a_err, f.b_err, f.c_err) < 1e-3
    g = tp.fit_scaling(tps, 3.0 * (tps - 1) + 6.0)  # nothing splits across GPUs: a = 0, not 1
    assert abs(g.a) < 0.01 and (g.b, g.c) == pytest.approx((3.0, 6.0), rel=1e-3)
    h = tp.fit_scaling(tps, 40.0 / tps + 6.0 - 0.5 * (tps - 1))  # a negative per-GPU cost is held at 0
    assert 0 <= h.b < 1e-9
    t = pd.Series([1, 2, 4, 8, 16, pd.NA], dtype="Int64")  # the wide table's TP column, one missing
    y = pd.Series([46.0, 27.5, 20.5, 21.5, 31.0, 1.0], dtype="Float64")
    m = tp.fit_scaling(t, y)
    assert m.n_points == 5 and (m.a, m.b, m.c) == pytest.approx((40.0, 1.5, 6.0), rel=1e-4)
    y[0] = pd.NA
    assert tp.fit_scaling(t, y).n_points == 4


def test_scaling_fits_use_one_phase_each():
    tps = [1, 2, 4, 8]
    rows = [
        {"metric": "decode_token_latency", "batch_size": 1, "tp": t, "mean": 40.0 / t + 1.5 * (t - 1) + 6} for t in tps
    ]
    rows += [{"metric": "prefill_latency", "batch_size": 1, "tp": t, "mean": 400.0 / t + 10.0} for t in tps]
    rows += [{"metric": "decode_throughput", "batch_size": 1, "tp": t, "mean": 1.0} for t in tps]
    fits = {f["metric"]: f["fit"] for f in tp.scaling_fits(pd.DataFrame(rows))}
    assert sorted(fits) == ["decode_token_latency", "prefill_latency"]
    assert fits["decode_token_latency"].a == pytest.approx(40.0, rel=1e-4) and fits["prefill_latency"].n_points == 4


def test_roofline_points_kv_traffic_and_an_unstated_tp():
    w = _tgi_wide(512)
    w.loc[3, "tp"] = np.nan  # the decode row: TP not stated, counted as tp_unknown
    pts = tp.roofline_points(
        w, params_b=7.0, bytes_per_param=2.0, bandwidth_gb_s=2000.0, peak_tflops=300.0, kv_bytes_per_token=1000.0
    )
    dec = pts[pts["metric"] == "decode_token_latency"].iloc[0]
    # weights 14e9 bytes + 4 sequences x (512 + 64 / 2) tokens x 1000 bytes, on one GPU
    assert dec["tp"] == 1 and dec["bytes_gb"] == pytest.approx((14e9 + 4 * 544 * 1000) / 1e9, rel=1e-12)
    pre = pts[pts["metric"] == "prefill_latency"].set_index("batch_size")
    assert pre.loc[4, "bytes_gb"] == pytest.approx((14e9 + 4 * 512 * 1000) / 1e9, rel=1e-12)
    assert pre.loc[4, "tflop"] == pytest.approx(2 * 7e9 * 4 * 512 / 1e12, rel=1e-12)
    plain = tp.roofline_points(_tgi_wide(512), 7.0, 2.0, 2000.0, 300.0).set_index(["metric", "batch_size"])
    p4 = plain.loc[("prefill_latency", 4)]  # no KV traffic counted: the weights alone
    assert p4["sequence_length"] == 512 and bool(pre.loc[4, "tp_stated"]) and not dec["tp_stated"]
    assert list(tp.roofline_points(_tgi_wide(512), 7.0, 2.0, 2000.0, 300.0).columns) == [
        "metric",
        "tp",
        "tp_stated",
        "batch_size",
        "sequence_length",
        "quantize",
        "latency_ms",
        "rel_se",
        "line",
        "bytes_gb",
        "bytes_per_gpu",
        "tflop",
        "achieved_gb_s_per_gpu",
        "achieved_tflops",
        "intensity_flop_per_byte",
        "kv_bytes_per_token",
        "bandwidth_fraction",
        "compute_fraction",
    ]
    assert (p4["quantize"], p4["latency_ms"], p4["line"], p4["kv_bytes_per_token"]) == ("none", 100.0, 10, 0.0)
    assert p4["bytes_per_gpu"] == pytest.approx(14e9, rel=1e-14)
    assert p4["intensity_flop_per_byte"] == pytest.approx(2 * 7e9 * 4 * 512 / 14e9, rel=1e-14)
    assert p4["bandwidth_fraction"] == pytest.approx(140.0 / 2000.0, rel=1e-14)
    assert p4["compute_fraction"] == pytest.approx(2 * 7e9 * 4 * 512 / 0.1 / 1e12 / 300.0, rel=1e-14)
    stated = tp.roofline_points(_tgi_wide(512).assign(tp_stated=True), 7.0, 2.0, 2000.0, 300.0)
    assert stated["tp_stated"].tolist() == [True] * 3
    assert p4["bytes_gb"] == pytest.approx(14.0, rel=1e-14)
    assert p4["achieved_gb_s_per_gpu"] == pytest.approx(14e9 / 0.1 / 1e9, rel=1e-14)
    assert p4["achieved_tflops"] == pytest.approx(2 * 7e9 * 4 * 512 / 0.1 / 1e12, rel=1e-14)
    w.loc[3, "decode_length"] = np.nan  # no decode length: the context is the prompt alone
    d2 = tp.roofline_points(w, 7.0, 2.0, 2000.0, 300.0, kv_bytes_per_token=1000.0, tp_unknown=2)
    d2 = d2[d2["metric"] == "decode_token_latency"].iloc[0]
    assert d2["bytes_per_gpu"] == pytest.approx((14e9 + 4 * 512 * 1000) / 2, rel=1e-12)
    assert d2["tp"] == 2 and d2["bytes_gb"] == pytest.approx((14e9 + 4 * 512 * 1000) / 1e9, rel=1e-12)


def test_model_size_from_the_parameter_the_table_or_nothing():
    assert tp.model_size("anything", params_b=0.5) == {
        "total_b": 0.5,
        "active_b": 0.5,
        "architecture": None,
        "source": "the params_b parameter",
    }
    assert tp.model_size("no-such-model") == {
        "total_b": None,
        "active_b": None,
        "architecture": None,
        "source": "no parameter count is known for no-such-model",
    }
    from benchbook import hardware

    s = hardware.model_size("bigscience/bloomz-7b1")
    assert tp.model_size("bigscience/bloomz-7b1") == {
        "total_b": s.total_b,
        "active_b": s.active_b,
        "architecture": s.architecture,
        "source": s.source,
    }


def test_ranked_latency_fastest_first_at_the_smallest_batch():
    base = {"metric": "decode_token_latency", "min": 9.0, "max": 11.0, "n_runs": 10, "line": 1}
    rows = [{**base, "tp": t, "batch_size": b, "mean": m} for t, b, m in ((1, 1, 10.0), (2, 1, 8.0), (4, 1, 9.0))]
    rows += [{**base, "tp": 8, "batch_size": 2, "mean": 1.0}, {**base, "tp": 8, "batch_size": 1, "mean": np.nan}]
    rows += [{**base, "metric": "prefill_latency", "tp": 8, "batch_size": 1, "mean": 0.5}]
    r = tp.ranked_latency(pd.DataFrame(rows, index=[10, 11, 12, 13, 14, 15]), "decode_token_latency")
    assert r["tp"].tolist() == [2, 4, 1] and r.index.tolist() == [0, 1, 2] and "index" not in r
    assert r["rel_se"].tolist() == pytest.approx([tp.rel_se(m, 9.0, 11.0, 10) for m in (8.0, 9.0, 10.0)])
    empty = tp.ranked_latency(pd.DataFrame(rows), "decode_total_latency")
    assert empty.empty and empty["rel_se"].dtype == float


def test_roofline_extremes_pick_the_prefill_and_one_tp_has_no_large_tp():
    cols = ["metric", "tp", "batch_size", "bandwidth_fraction", "compute_fraction"]
    rp = pd.DataFrame(
        [
            ("decode_token_latency", 2, 1, 0.6, 0.9),
            ("prefill_latency", 2, 1, 0.1, 0.3),
            ("prefill_latency", 2, 4, 0.1, 0.5),
        ],
        columns=cols,
    )
    ex = tp.roofline_extremes(rp)
    assert ex["prefill_best"]["batch_size"] == 4 and ex["prefill_best"]["compute_fraction"] == 0.5
    assert ex["decode_small_tp"]["tp"] == 2 and ex["decode_large_tp"] is None
    assert ex["highest"]["metric"] == "decode_token_latency" and ex["highest"]["peak_kind"] == "compute"
    assert (ex["highest"]["fraction"], ex["n_over_peak"]) == (0.9, 0)


def test_roofline_extremes_with_two_tps_and_a_point_over_the_peak():
    cols = ["metric", "tp", "batch_size", "bandwidth_fraction", "compute_fraction"]
    rp = pd.DataFrame(
        [("decode_token_latency", 4, 1, 1.2, 0.1), ("decode_token_latency", 2, 1, 0.6, 0.2)], columns=cols
    )
    ex = tp.roofline_extremes(rp)
    assert (ex["decode_small_tp"]["tp"], ex["decode_large_tp"]["tp"], ex["prefill_best"]) == (2, 4, None)
    assert (ex["highest"]["peak_kind"], ex["highest"]["fraction"], ex["n_over_peak"]) == ("bandwidth", 1.2, 1)
    tie = tp.roofline_extremes(pd.DataFrame([("prefill_latency", 1, 1, 0.5, 0.5)], columns=cols))
    assert tie["highest"]["peak_kind"] == "bandwidth" and tie["decode_small_tp"] is None  # a tie counts as bandwidth


def test_at_smallest_batch_needs_two_tps():
    rows = [(1, 1), (2, 2), (2, 1), (4, 1), (4, 2), (4, 4)]  # (batch size, TP)
    sc = pd.DataFrame(
        [{"metric": "decode_token_latency", "batch_size": b, "tp": t} for b, t in rows], index=range(5, 11)
    )
    r = tp.at_smallest_batch(sc, "decode_token_latency")
    assert r["batch_size"].tolist() == [2, 2] and r["tp"].tolist() == [1, 2] and list(r.columns) == list(sc.columns)
