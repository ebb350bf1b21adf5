"""Winner sets, speed-ups, outliers, and the reproduce/audit checks of the quantization report."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from benchbook import config, ingest
from benchbook.analysis import quant, roofline
from benchbook.chapter import declared
from benchbook.checks import sglang_quant as checks

#: The chapter's default metric per regime, read from its parameters cell (its one source).
METRIC_BY_REGIME = declared("quantization_regimes")["metric_by_regime"]["default"]

FIX = config.FIXTURES_DIR / "sglang-quant-report"


def _synthetic(values: dict[str, list[float]], regime="decode_bound", bs=1, inp=256, out=512):
    rows = []
    for scheme, vals in values.items():
        for i, v in enumerate(vals, start=1):
            rows.append(
                {
                    "source": "s",
                    "model": f"{scheme}_{regime}",
                    "scheme": scheme,
                    "regime": regime,
                    "run": f"run{i}",
                    "batch_size": bs,
                    "input_len": inp,
                    "output_len": out,
                    "line": len(rows) + 1,
                    "latency": bs * (inp + out) / v,
                    "output_throughput": v,
                    "overall_throughput": v,
                    "implied_ttft": 0.0,
                }
            )
    return pd.DataFrame(rows)


def test_winner_set_known_answer():
    rt = _synthetic({"a": [100.0, 101.0, 99.0], "b": [99.5, 100.5, 98.5], "c": [80.0, 81.0, 79.0]})
    w = quant.winner_sets(rt, {"decode_bound": "output_throughput"}, alpha=0.05).set_index("scheme")
    assert w.loc["a", "rank"] == 1 and w.loc["a", "in_winner_set"]
    assert w.loc["b", "in_winner_set"]  # 0.5 apart with sd 1: indistinguishable
    assert not w.loc["c", "in_winner_set"]  # 20 apart with sd 1
    assert w.loc["c", "ratio_to_best"] == pytest.approx(0.8)
    # latency: lower is better, the same data ranks the same way
    wl = quant.winner_sets(rt, {"decode_bound": "latency"}).set_index("scheme")
    assert wl.loc["a", "rank"] == 1 and not wl.loc["c", "in_winner_set"]


def test_winner_set_alpha_widens_and_untestable():
    rt = _synthetic({"a": [100.0, 101.0, 99.0], "b": [97.0, 98.0, 96.0]})
    assert (
        not quant.winner_sets(rt, {"decode_bound": "output_throughput"}, 0.05)
        .set_index("scheme")
        .loc["b", "in_winner_set"]
    )
    assert (
        quant.winner_sets(rt, {"decode_bound": "output_throughput"}, 1e-6).set_index("scheme").loc["b", "in_winner_set"]
    )
    one = _synthetic({"a": [100.0], "b": [99.0]})
    w = quant.winner_sets(one, {"decode_bound": "output_throughput"}).set_index("scheme")
    assert w.loc["a", "in_winner_set"] and not w.loc["b", "in_winner_set"] and not w.loc["b", "testable"]


def test_speedup_ci_contains_true_ratio():
    rt = _synthetic({"original": [100.0, 102.0, 98.0], "q": [150.0, 153.0, 147.0]})
    s = quant.speedups(rt, {"decode_bound": "output_throughput"}, "original", 0.05).set_index("scheme")
    assert s.loc["q", "speedup"] == pytest.approx(1.5)
    assert s.loc["q", "ci_low"] < 1.5 < s.loc["q", "ci_high"]
    assert s.loc["original", "speedup"] == pytest.approx(1.0)
    lat = quant.speedups(rt, {"decode_bound": "latency"}, "original").set_index("scheme")
    assert lat.loc["q", "speedup"] == pytest.approx(1.5, rel=1e-2)  # baseline/scheme for latency


def test_outlier_rule_names_the_run():
    rt = _synthetic({"a": [4000.0, 1500.0, 4100.0]})
    o = quant.outliers(rt, "cv>0.10", metrics=["output_throughput"])
    assert list(o["run"]) == ["run2"] and o["mean_without"].item() == pytest.approx(4050.0)
    assert quant.outliers(rt, "cv>0.9", metrics=["output_throughput"]).empty
    assert list(quant.outliers(rt, "mad>3.5", metrics=["output_throughput"])["run"]) == ["run2"]
    with pytest.raises(ValueError):
        quant.parse_outlier_rule("zscore")


@pytest.fixture(scope="module")
def seed_runs():
    return quant.runs(ingest.read(config.seed("002")))


def test_seed_runs_and_implied_ttft(seed_runs):
    assert len(seed_runs) == 147
    r = seed_runs[(seed_runs["model"] == "original_base") & (seed_runs["run"] == "run1")].iloc[0]
    # 32 x 288 / 14493.95 = 0.6359 s; TTFT = 0.6359 - 32 x 32 / 3755.92
    assert r["latency"] == pytest.approx(32 * 288 / 14493.95)
    assert r["implied_ttft"] == pytest.approx(32 * 288 / 14493.95 - 32 * 32 / 3755.92)
    assert seed_runs.groupby("regime")["implied_ttft"].median()["long_context"] > 0.7


def test_seed_winners(seed_runs):
    w = quant.winner_sets(seed_runs, METRIC_BY_REGIME, 0.05)
    hc = w[w["regime"] == "high_concurrency"].set_index("scheme")
    assert hc["rank"].idxmin() == "w8a8_smooth_gptq"
    assert not hc.loc["original", "in_winner_set"] and not hc.loc["w8a16_awq", "in_winner_set"]
    s = quant.speedups(seed_runs, METRIC_BY_REGIME, "original").set_index(["regime", "scheme"])
    assert s.loc[("high_concurrency", "w8a16_awq"), "speedup"] < 1 < s.loc[("interactive", "w8a16_awq"), "speedup"]
    assert s.loc[("high_concurrency", "w8a16_awq"), "ci_high"] < 1


def test_duplicate_label_detector():
    d = checks.duplicate_labels(ingest.read(config.seed("002"))).set_index("model")
    assert len(d) == 9
    assert d.loc["original_interactive", "duplicated"] == "run3"
    assert d.loc["original_interactive", "missing"] == "run2"
    assert d.loc["w8a16_awq_interactive", "missing"] == "run1"
    assert d.loc["w8a8_smooth_gptq_interactive", "labels"] == "run2, run2, run3"


def test_reproduce_summary_matches_published():
    rep = checks.reproduce(config.seed("002"))
    summ = rep[rep["quantity"].str.startswith("summary")]
    assert len(summ) == 49 * 7  # runs excluded; 3 metrics x (mean, std) + input throughput mean
    assert summ["agrees"].dropna().all() and summ["agrees"].notna().sum() == 49 * 6
    one = rep[rep["quantity"] == "summary std output_throughput of w8a16_sparse_awq_base"].iloc[0]
    assert one["published"] == 1450.51 and one["recomputed"] == pytest.approx(1450.51, abs=0.01)
    rank = rep[rep["quantity"].str.startswith("ranking")]
    assert len(rank) == 98 and rank["agrees"].all()
    lat = rep[rep["quantity"].str.startswith("latency implied")]
    assert len(lat) == 147 and lat["agrees"].all()


def test_reproduce_detects_a_changed_mean(tmp_path):
    text = (
        config.seed("002")
        .read_text(encoding="utf-8")
        .replace("| 3 | 0.40 Â± 0.00 | 177.93 Â± 1.24 |", "| 3 | 0.40 Â± 0.00 | 178.93 Â± 1.24 |")
    )
    p = tmp_path / "changed.txt"
    p.write_text(text, encoding="utf-8")
    rep = checks.reproduce(p)
    bad = rep[rep["agrees"].eq(False)]
    assert sorted(bad["quantity"]) == [
        "ranking value of w8a16_awq_interactive",
        "summary mean output_throughput of w8a16_awq_interactive",
    ]


def test_reproduce_last_ttft_on_fixture():
    rep = checks.reproduce(FIX / "dsv4_flash_1k8k.md")
    t = rep[rep["quantity"].str.startswith("TTFT")]
    assert list(t["published"]) == [250.2049, 243.0794] and t["agrees"].all()
    assert rep["agrees"].all()


def test_audit_seed():
    a = checks.audit(config.seed("002"))
    hv = a[a["defect"] == "high-variance cell"].set_index("line")
    assert set(hv["value"]) == {1526.74, 2898.23}
    assert "w8a16_sparse_awq_base" in hv.loc[1161, "evidence"] and "run1" in hv.loc[1161, "evidence"]
    assert (a["defect"] == "duplicated run label").sum() == 9
    assert (a["defect"] == "mojibake").sum() == 1
    assert a.loc[a["defect"] == "not-measured values printed as numbers", "value"].item() == 196
    assert not (a["defect"] == "summary disagrees with runs").any()


def test_decision_and_roofline(seed_runs):
    w = quant.winner_sets(seed_runs, METRIC_BY_REGIME)
    s = quant.speedups(seed_runs, METRIC_BY_REGIME, "original")
    d = quant.decision_table(w, s, "original")
    assert len(d) == 7 and list(d["regime"])[0] == "interactive"
    pts = quant.roofline_points(seed_runs, 4.02)
    dec = pts[(pts["phase"] == "decode") & (pts["regime"] == "high_concurrency")].set_index("scheme")
    assert dec.loc["original", "intensity_flop_per_byte"] == 64 and dec.loc["w8a8_smooth_gptq", "peak"] == "int8"
    assert np.isfinite(pts["achieved_tflops"]).all()


def test_cut_jsonl_line_is_not_a_truncated_ranking(tmp_path):
    lines = (FIX / "seed002_three_schemes.jsonl").read_text().splitlines()
    lines[1] = lines[1][: lines[1].index('"overall_throughput"')]
    f = tmp_path / "result.jsonl"
    f.write_text("\n".join(lines) + "\n")
    assert any("truncated?" in m for m in ingest.read_parsed(f, tool="sglang-quant-report")[0].messages)
    assert "truncated ranking" not in set(checks.audit(f)["defect"])


def test_cut_ranking_is_a_truncated_ranking(tmp_path):
    lines = config.seed("002").read_text(encoding="utf-8").splitlines()
    f = tmp_path / "report.md"
    f.write_text("\n".join(lines[:-3]) + "\n")
    hit = checks.audit(f)
    hit = hit[hit["defect"] == "truncated ranking"]
    assert len(hit) == 1 and hit["evidence"].iat[0].endswith("lists 4 of 7 models (truncated?)")


def test_high_variance_sentence_branches():
    assert quant.high_variance_sentence(pd.Series(dtype=bool)) == "No cell varies that much here."
    assert "TTFT timestamp of that run" in quant.high_variance_sentence(pd.Series([True, True]))
    mixed = quant.high_variance_sentence(pd.Series([True, False, False]))
    assert mixed.startswith("In 2 of the 3 flagged cells latency or overall throughput vary too")
    # the seed: both flagged cells are late-timestamp cells
    seed = quant.runs(ingest.read(config.seed("002")))
    ts = quant.timestamp_outliers(quant.outliers(seed, "cv>0.10"))
    assert quant.high_variance_sentence(ts).startswith("In each flagged cell, one run's output throughput")


def test_published_comparison_seed_and_without_ranking(seed_runs):
    df = ingest.read(config.seed("002"))
    w = quant.winner_sets(seed_runs, METRIC_BY_REGIME)
    sens = quant.metric_sensitivity(seed_runs)
    table, n, text = quant.published_comparison(sens, quant.published_ranking(df), w)
    assert (n, text) == (4, "prefill_bound, long_context, medium_batch, base")
    assert table.loc["decode_bound", "source_ranking"] == table.loc["decode_bound", "output_throughput"]
    table, n, text = quant.published_comparison(sens, quant.published_ranking(df.iloc[0:0]), w)
    assert table is sens and (n, text) == (0, "none (the input has no published ranking)")
    # a ranking that agrees everywhere says "none"
    agree = w[w["rank"] == 1][["regime", "rank", "scheme"]]
    assert quant.published_comparison(sens, agree, w)[1:] == (0, "none")


def test_outlier_effect_counts_changed_memberships():
    rt = _synthetic({"a": [100.0, 101.0, 99.0], "b": [99.5, 100.5, 98.5], "c": [80.0, 81.0, 79.0]})
    w = quant.winner_sets(rt, {"decode_bound": "output_throughput"})
    assert quant.outlier_effect(w, w) == "does not change any winning set"
    changed = w.assign(in_winner_set=w["scheme"] == "a")  # b drops out of the set
    assert quant.outlier_effect(w, changed) == "changes the winning sets (1 regime/scheme memberships differ)"


def test_prefill_sentence_and_story_seed(seed_runs):
    pts = quant.roofline_points(seed_runs, 4.02)
    ridge = roofline.gpu("A100-SXM4-80GB").ridge_flop_per_byte
    assert quant.prefill_sentence(pts, ridge) == "48 of 49 prefill points sit right of the ridge."
    assert quant.prefill_sentence(pts, 0.0) == "Prefill points sit right of the ridge."
    s = quant.speedups(seed_runs, METRIC_BY_REGIME, "original")
    story = quant.w8a16_story(s, quant.shapes(seed_runs), "original")
    assert story == (
        "In this input the slowest w8a16 scheme, w8a16_sparse_awq, runs at 0.78x [0.77, 0.79] of original in "
        "high_concurrency (batch 64), against 1.31x for w8a16_awq in interactive (batch 1)."
    )


def test_w8a16_story_says_what_is_missing():
    lacks = "This input lacks the w8a16 schemes, the baseline or two batch sizes needed to show the cross-over."
    rt = pd.concat(
        [
            _synthetic({"original": [100.0, 101.0, 99.0], "w8a16_x": [90.0, 91.0, 89.0]}, "interactive", bs=1),
            _synthetic({"original": [100.0, 101.0, 99.0], "w8a16_x": [80.0, 81.0, 79.0]}, "base", bs=32),
        ]
    )
    mbr = {"interactive": "output_throughput", "base": "output_throughput"}
    shape = quant.shapes(rt)
    told = quant.w8a16_story(quant.speedups(rt, mbr, "original"), shape, "original")
    assert told.startswith("In this input the slowest w8a16 scheme, w8a16_x, runs at 0.80x")
    assert told.endswith("against 0.90x for w8a16_x in interactive (batch 1).")
    assert quant.w8a16_story(quant.speedups(rt, mbr, "none"), shape, "none") == lacks  # no baseline
    one = rt[rt["regime"] == "base"]
    assert quant.w8a16_story(quant.speedups(one, mbr, "original"), quant.shapes(one), "original") == lacks
    plain = rt[rt["scheme"] == "original"]
    assert quant.w8a16_story(quant.speedups(plain, mbr, "original"), quant.shapes(plain), "original") == lacks


def test_regime_table_metric_and_ttft(seed_runs):
    shape = quant.shapes(seed_runs)
    ttft = seed_runs.groupby("regime")["implied_ttft"].median().reindex(shape.index)
    t = quant.regime_table(shape, ttft, {"interactive": "latency"})
    assert t.loc["interactive", "metric"] == "latency" and t.loc["high_concurrency", "metric"] == "overall_throughput"
    assert t.loc["long_context", "median_implied_ttft_ms"] == round(1000 * ttft["long_context"], 1)


def test_plots_return_labelled_figures(seed_runs):
    from matplotlib.figure import Figure

    w = quant.winner_sets(seed_runs, METRIC_BY_REGIME)
    s = quant.speedups(seed_runs, METRIC_BY_REGIME, "original")
    figs = [
        quant.plot_heatmap(s, w, "original", 0.05),
        quant.plot_quant_roofline(quant.roofline_points(seed_runs, 4.02), roofline.gpu("A100-SXM4-80GB"), "Qwen3-4B"),
    ]
    for fig in figs:
        assert isinstance(fig, Figure)
        ax = fig.axes[0]
        assert ax.get_xlabel() and ax.get_ylabel() and ax.get_title()
    missing = quant.plot_heatmap(quant.speedups(seed_runs, METRIC_BY_REGIME, "fp4"), w, "fp4", 0.05)
    assert isinstance(missing, Figure)
    assert [t.get_text() for t in missing.axes[0].texts] == [quant.no_baseline_message("fp4")]
    plt.close("all")
