"""Winner sets, speed-ups, outliers, phases, peaks, figures, and the reproduce/audit checks of the
quantization report."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from benchbook import config, ingest
from benchbook.analysis import quant, roofline
from benchbook.chapter import declared
from benchbook.checks import COPY
from benchbook.checks import sglang_quant as checks
from benchbook.presentation import quant as show

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


def test_a_metric_not_in_the_data_is_refused_naming_the_ones_there_are():
    rt = _synthetic({"a": [4000.0, 1500.0, 4100.0]})
    with pytest.raises(ValueError, match="metric 'tok_s' is not in the data \\(have latency, output_throughput"):
        quant.cell_stats(rt, {"decode_bound": "tok_s"})


def test_outlier_rule_names_the_run():
    rt = _synthetic({"a": [4000.0, 1500.0, 4100.0]})
    o = quant.outliers(rt, "cv>0.10", metrics=["output_throughput"])
    assert list(o["run"]) == ["run2"] and o["mean_without"].item() == pytest.approx(4050.0)
    assert quant.outliers(rt, metrics=["output_throughput"]).equals(o)  # the default rule is cv>0.10
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
    # a ranking value prints its summary mean again: a copy, no check (a medal is not a printed number)
    assert len(rank) == 49 and rank["agrees"].isna().all()
    assert rank["why_not"].str.startswith(COPY).all() and (rank["published"] == rank["recomputed"]).all()
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
    assert sorted(bad["quantity"]) == ["summary mean output_throughput of w8a16_awq_interactive"]
    # the ranking still prints 177.93: two prints of one mean that differ are a defect of the file
    found = checks.audit(p)
    assert list(found[found["defect"] == "ranking disagrees with summary"]["value"]) == [177.93]


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


def test_regime_table_metric_and_ttft(seed_runs):
    shape = quant.shapes(seed_runs)
    ttft = seed_runs.groupby("regime")["implied_ttft"].median().reindex(shape.index)
    t = quant.regime_table(shape, ttft, {"interactive": "latency"})
    assert t.loc["interactive", "metric"] == "latency" and t.loc["high_concurrency", "metric"] == "overall_throughput"
    assert t.loc["long_context", "median_implied_ttft_ms"] == round(1000 * ttft["long_context"], 1)


def test_decision_table_and_roofline_points(seed_runs):
    w = quant.winner_sets(seed_runs, METRIC_BY_REGIME)
    s = quant.speedups(seed_runs, METRIC_BY_REGIME, "original")
    d = show.decision_table(w, s, "original")
    assert len(d) == 7 and list(d["regime"])[0] == "interactive"
    hc = d.set_index("regime").loc["high_concurrency"]
    assert hc["recommended"] == "w8a8_smooth_gptq" and "w8a8_sparse_smooth_gptq" in hc["statistically tied"]
    # with the ledger: a regime whose winner claim is withheld recommends nothing, and says why
    from benchbook.claims import Ledger, make

    ledger = Ledger("quantization_regimes", [])
    ledger.add(make("winner_high_concurrency", "winner", "r", {}).withhold("one run per scheme"))
    d = show.decision_table(w, s, "original", ledger).set_index("regime")
    assert d.loc["high_concurrency", "recommended"] == "–"
    assert d.loc["high_concurrency", "statistically tied"] == "none stated: one run per scheme"
    assert (
        d.loc["interactive", "recommended"] == "w8a8_sparse_smooth_gptq"
    )  # no claim about it here: the best mean stays
    pts = quant.roofline_points(seed_runs, 4.02)
    dec = pts[(pts["phase"] == "decode") & (pts["regime"] == "high_concurrency")].set_index("scheme")
    assert dec.loc["original", "intensity_flop_per_byte"] == 64 and dec.loc["w8a8_smooth_gptq", "peak"] == "int8"
    # weights stream at params x bytes/weight x steps/s: 4.02e9 x 2 x (tok/s / 64)
    tok_s = seed_runs[(seed_runs["model"] == "original_high_concurrency")]["output_throughput"]
    assert dec.loc["original", "weight_gb_s"] == pytest.approx(4.02 * 2 * tok_s.mean() / 64)
    assert dec.loc["original", "achieved_tflops_std"] == pytest.approx(2 * 4.02e9 * tok_s.std() / 1e12)


def test_flagged_values_leave_every_figure(seed_runs):
    """The flagged run implies 825 TFLOP/s of prefill; once left out, no prefill point of its cell
    is above the device's peak, and the roofline figure draws exactly the points that are left."""
    flag = quant.outliers(seed_runs, "cv>0.10")
    phys = quant.outlier_physics(seed_runs, flag, 4.02).set_index("model")
    assert phys.loc["w8a16_sparse_awq_base", "implied_prefill_tflops"] == pytest.approx(824.8, abs=0.5)
    clean = quant.drop_outliers(seed_runs, flag)
    assert clean.loc[clean["line"] == 1161, ["output_throughput", "implied_ttft"]].isna().all(axis=None)
    assert clean.loc[clean["line"] == 1161, "latency"].notna().all()  # only the flagged metric and what rests on it
    dirty = quant.roofline_points(seed_runs, 4.02)
    pts = quant.roofline_points(clean, 4.02)
    cell = (pts["regime"] == "base") & (pts["scheme"] == "w8a16_sparse_awq") & (pts["phase"] == "prefill")
    assert pts.loc[cell, "n"].item() == 2 and pts.loc[cell, "achieved_tflops"].item() < 312
    assert dirty.loc[cell.to_numpy(), "achieved_tflops"].item() > pts.loc[cell, "achieved_tflops"].item()
    peaks = roofline.Peaks("A100-SXM4-80GB", 2039.0, {"bf16": 312.0, "int8": 624.0}, "parameter")
    fig = show.roofline_figure(pts, peaks, "Qwen3-4B")
    ys = sorted(y for c in fig.axes[0].containers for y in c.lines[0].get_ydata())
    assert ys == pytest.approx(sorted(pts["achieved_tflops"]))
    plt.close("all")


def test_winners_figure_draws_sd_error_bars(seed_runs):
    w = quant.winner_sets(seed_runs, METRIC_BY_REGIME)
    fig = show.winners_figure(w)
    ax = fig.axes[list(quant.regime_order(w["regime"].unique())).index("decode_bound")]
    g = w[w["regime"] == "decode_bound"].sort_values("rank", ascending=False)
    xs = [c.lines[0].get_xdata()[0] for c in ax.containers]
    assert xs == pytest.approx(list(g["mean"]))
    # each bar spans mean +- the sample std of the runs (the report's sigma)
    seg = ax.containers[0].lines[2][0].get_segments()[0]
    assert (seg[1][0] - seg[0][0]) / 2 == pytest.approx(g["std"].iloc[0])
    plt.close("all")


def test_heatmap_figure_and_placeholder(seed_runs):
    from matplotlib.figure import Figure

    w = quant.winner_sets(seed_runs, METRIC_BY_REGIME)
    s = quant.speedups(seed_runs, METRIC_BY_REGIME, "original")
    fig = show.heatmap_figure(s, w, "original", 0.05)
    arr = fig.axes[0].images[0].get_array()
    hc = s[(s["regime"] == "high_concurrency") & (s["scheme"] == "w8a16_awq")]["speedup"].item()
    regimes = quant.regime_order(s["regime"].unique())
    schemes = ["original", *sorted(set(s["scheme"]) - {"original"})]
    assert arr[regimes.index("high_concurrency"), schemes.index("w8a16_awq")] == pytest.approx(hc)
    missing = show.heatmap_figure(quant.speedups(seed_runs, METRIC_BY_REGIME, "fp4"), w, "fp4", 0.05)
    assert isinstance(missing, Figure)
    assert "no runs of the baseline 'fp4'" in missing.axes[0].texts[0].get_text().replace("\n", " ")
    plt.close("all")


def test_phase_ratios_known_answer():
    """Baseline prefill 1.0 s and decode 1.0 s; the scheme prefills in 1.25 s and decodes in 0.5 s."""
    rows = []
    for scheme, pre, dec in (("original", 1.0, 1.0), ("w8a16_x", 1.25, 0.5)):
        for i, eps in enumerate((-0.01, 0.0, 0.01)):
            lat = pre + dec + eps
            rows.append(
                {
                    "source": "s",
                    "scheme": scheme,
                    "regime": "r",
                    "batch_size": 4,
                    "input_len": 100,
                    "output_len": 10,
                    "line": len(rows),
                    "run": f"run{i}",
                    "latency": lat,
                    "implied_ttft": pre + eps,
                }
            )
    r = quant.phase_ratios(pd.DataFrame(rows), "w8a16_x", "original").set_index("phase")
    assert r.loc["prefill", "ratio"] == pytest.approx(1.0 / 1.25) and r.loc["prefill", "tokens_per_pass"] == 400
    assert r.loc["decode", "ratio"] == pytest.approx(2.0) and r.loc["decode", "tokens_per_pass"] == 4
    assert r.loc["decode", "intensity"] == 8 and r.loc["decode", "intensity_baseline"] == 4
    assert r.loc["prefill", "ci_low"] < 0.8 < r.loc["prefill", "ci_high"]


def test_manifest_placement_peaks_and_model():
    meta = quant.manifest(config.seed("002"))
    where = quant.placement(meta)
    assert where["own_gpu_each"] is True and "A100" in where["hardware"]
    assert quant.placement({"hardware": "NVIDIA H100, the same GPU for all schemes"})["own_gpu_each"] is False
    assert quant.placement({})["own_gpu_each"] is None
    assert quant.manifest(FIX / "seed002_three_schemes.jsonl") == {}
    pk = quant.peaks("", [where["hardware"]])
    assert (pk.device, pk.dense_tflops, pk.int8_tops, pk.source) == ("A100-SXM4-80GB", 312.0, 624.0, "detected")
    assert pk.ridge() == pytest.approx(312e12 / 2039e9)
    assert quant.peaks("", []) is None  # nothing named: no device assumed
    mine = quant.peaks("H100-SXM5-80GB", [where["hardware"]], peak_tflops=500.0)
    assert mine.source == "parameter" and mine.dense_tflops == 500.0 and mine.int8_tops is None
    assert quant.model_size("", [meta["model"]])[0] == pytest.approx(4.02)
    assert quant.model_size("", ["default"]) == (None, None, None)
    assert quant.choose_baseline(["a", "original"]) == "original"
    assert quant.choose_baseline(["a", "b"]) == "" and quant.choose_baseline(["a"], "a") == "a"


def test_prefill_position_and_words(seed_runs):
    pts = quant.roofline_points(seed_runs, 4.02)
    ridge = 312e12 / 2039e9
    assert show.prefill_position(pts, ridge) == "48 of 49 prefill points sit right of the ridge."
    assert show.prefill_position(pts, 0.0) == "All 49 prefill points sit right of the ridge."
    words = show.prefill_words(seed_runs, quant.shapes(seed_runs))
    assert "in long_context (81%" in words
    early = quant.runs(ingest.read(FIX / "pr5822_flashinfer_mla.jsonl"))
    assert "earliest release" in show.prefill_words(early, quant.shapes(early))


def test_only_timestamp_cells_are_left_out(seed_runs):
    """The seed's two flagged cells have the timestamp signature and are left out; a real file whose
    flagged cell varies in latency too (a fast and a slow mode) keeps every run."""
    flag = quant.outliers(seed_runs, "cv>0.10")
    assert set(quant.excludable(flag)["line"]) == {1161, 1247}
    other = quant.runs(ingest.read(FIX / "sglang_disagg_result.jsonl"))
    flag = quant.outliers(other, "cv>0.10")
    assert len(flag) and quant.excludable(flag).empty
    words = show.excluded_words(flag, quant.excludable(flag))
    assert words.startswith("Kept, because the runs of their cells differ") and "Left out" not in words


def test_duplicate_words_numbered_and_unnamed():
    seed = show.duplicate_words(checks.duplicate_labels(ingest.read(config.seed("002"))))
    assert seed.startswith("9 configurations repeat a numbered run label (e.g. original_interactive: run1, run3")
    unnamed = show.duplicate_words(checks.duplicate_labels(ingest.read(FIX / "sglang_reproduce_bs8192.jsonl")))
    assert unnamed.startswith("1 configuration gives every run the same name (default)")
    assert show.duplicate_words(checks.duplicate_labels(ingest.read(FIX / "pr5822_flashinfer_mla.jsonl"))) == (
        "No configuration repeats a run label."
    )


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


def test_a_metric_changes_the_winner_only_beyond_the_noise():
    runs = _two_metric_runs()
    m = ["overall_throughput", "latency"]
    # base: A's throughput (100 +- 1) beats B's (80 +- 1) and B's latency beats A's, both far beyond the noise
    assert quant.metric_dependent(runs, 0.05, m).to_dict() == {"interactive": False, "base": True}
    # B's throughput now inside A's noise: A still wins throughput, but B is in its winning set
    close = runs.assign(
        overall_throughput=runs["overall_throughput"].where(
            ~((runs["regime"] == "base") & (runs["scheme"] == "B")), runs["overall_throughput"] + 19.0
        )
    )
    assert quant.metric_sensitivity(close, metrics=m).loc["base"].tolist() == ["A", "B"]
    assert quant.metric_dependent(close, 0.05, m).to_dict() == {"interactive": False, "base": False}


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
    trend = quant.decode_trend(ratios.assign(ci_low=ratios["ratio"] * 0.9, ci_high=ratios["ratio"] * 1.2))
    assert trend.to_dict("list") == {
        "batch_size": [1, 8], "ratio": [pytest.approx(1.3), 0.9], "intensity": [4.0, 32.0],
        "intensity_baseline": [1.0, 8.0], "n_regimes": [2, 1], "half_width": [pytest.approx(0.15)] * 2,
    }  # fmt: skip
    assert quant.placement({}) == {"hardware": None, "own_gpu_each": None}
    empty = quant.decode_trend(pd.DataFrame({"phase": ["prefill"], "ratio": [1.0]}))
    assert empty.empty and list(empty.columns) == [
        "batch_size",
        "ratio",
        "intensity",
        "intensity_baseline",
        "n_regimes",
        "half_width",
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
    assert named.dense_tflops == pytest.approx(989.4) and named.int8_tops == pytest.approx(1978.9)
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


def test_winner_set_keeps_a_scheme_at_p_equal_alpha():
    """Identical runs give p = 1 against the best; at alpha = 1 the rule `p >= alpha` keeps them."""
    rt = pd.DataFrame(
        {
            "regime": ["r"] * 9,
            "scheme": ["a"] * 3 + ["b"] * 3 + ["c"] * 3,
            "batch_size": [1] * 9,
            "latency": [10.0, 12.0, 14.0, 10.0, 12.0, 14.0, 100.0, 101.0, 102.0],
        }
    )
    w = quant.winner_sets(rt, {}, alpha=1.0).set_index("scheme")
    assert w.loc["b", "p_vs_best"] == 1.0
    assert w.loc["a", "in_winner_set"] and w.loc["b", "in_winner_set"]
    assert not w.loc["c", "in_winner_set"]


def test_a_run_keeps_its_latency_from_the_overall_throughput_beside_the_printed_one():
    r = quant.runs(ingest.read(config.seed("002"))).iloc[0]
    # the report prints latency to 0.01 s; batch x (input + output) / overall throughput carries more digits
    expected = r["batch_size"] * (r["input_len"] + r["output_len"]) / r["overall_throughput"]
    assert r["latency_from_overall"] == pytest.approx(expected) and r["latency"] == pytest.approx(expected)
    assert abs(r["latency_printed"] - expected) <= 0.005 + 1e-9


def test_roofline_counts_are_floats_from_the_run_count_on():
    pts = quant.roofline_points(_synthetic({"original": [136.0, 137.0]}), 4.02)
    assert all(pts[c].dtype == float for c in quant.ROOFLINE_COLUMNS[quant.ROOFLINE_COLUMNS.index("n") :])


def test_the_mad_rule_on_a_cell_of_equal_runs_flags_the_odd_one_without_a_warning():
    """Runs 100, 100, 100, 150: the median absolute deviation is 0, so the odd run is infinitely far
    (flagged) and a cell of equal runs is not; neither divides by zero."""
    import warnings

    odd = _synthetic({"original": [100.0, 100.0, 100.0, 150.0]})
    same = _synthetic({"original": [100.0, 100.0, 100.0]})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        flagged = quant.outliers(odd, "mad>3.5", metrics=["output_throughput"])
        assert quant.outliers(same, "mad>3.5", metrics=["output_throughput"]).empty
    assert flagged["run"].tolist() == ["run4"] and flagged["value"].tolist() == [150.0]


def test_the_mad_rule_flags_a_run_far_from_the_median_and_not_one_within_the_spread():
    def cell(values):
        n = len(values)
        return pd.DataFrame(
            {"source": "s", "regime": "r", "scheme": "fp8", "model": "m", "run": range(n), "line": range(1, n + 1)}
            | {"output_throughput": values}
        )

    # evenly spread runs: the farthest is 2 from the median of 12, 1.35 median absolute deviations
    assert quant.outliers(cell([10.0, 11.0, 12.0, 13.0, 14.0]), "mad>3.5", ["output_throughput"]).empty
    # the other way: a run 10 away where the others lie within 0.15
    flag = quant.outliers(cell([10.0, 10.1, 9.9, 10.05, 20.0]), "mad>3.5", ["output_throughput"])
    assert flag["value"].tolist() == [20.0]
