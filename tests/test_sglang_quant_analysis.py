"""Winner sets, speed-ups, outliers, phases, peaks, figures, and the reproduce/audit checks of the
quantization report."""

from __future__ import annotations

import matplotlib.pyplot as plt
import pandas as pd
import pytest

from benchbook import config, ingest
from benchbook.analysis import quant
from benchbook.chapter import declared
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
    assert len(rank) == 49 and rank["agrees"].all()  # the printed values; a medal is not a printed number
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
    peaks = quant.Peaks("A100-SXM4-80GB", 312.0, 624.0, 2039.0, "parameter")
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
    assert (pk.device, pk.tflops, pk.int8_tops, pk.source) == ("A100-SXM4-80GB", 312.0, 624.0, "detected")
    assert pk.ridge == pytest.approx(312e12 / 2039e9)
    assert quant.peaks("", []).source == "assumed"
    mine = quant.peaks("H100-SXM5-80GB", [where["hardware"]], peak_tflops=500.0)
    assert mine.source == "parameter" and mine.tflops == 500.0 and mine.int8_tops is None
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
    assert seed.startswith("9 configuration(s) repeat a numbered run label (e.g. original_interactive: run1, run3")
    unnamed = show.duplicate_words(checks.duplicate_labels(ingest.read(FIX / "sglang_reproduce_bs8192.jsonl")))
    assert unnamed.startswith("1 configuration(s) give every run the same name (default)")
    assert show.duplicate_words(checks.duplicate_labels(ingest.read(FIX / "pr5822_flashinfer_mla.jsonl"))) == (
        "No configuration repeats a run label."
    )
