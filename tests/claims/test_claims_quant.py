"""The quantization chapter's claims: each verdict comes out both ways on synthetic data with a
known answer, and the seed's ledger holds what the page says."""

from __future__ import annotations

import pandas as pd
import pytest

from benchbook import config, ingest
from benchbook.analysis import quant, roofline
from benchbook.chapter import declared
from benchbook.claims import make, rules
from benchbook.claims import quant as cq
from benchbook.claims import quant as verdicts
from benchbook.claims.rules import MISSING_WORDS, check
from benchbook.presentation import wording

METRIC_BY_REGIME = declared("quantization_regimes")["metric_by_regime"]["default"]
A100 = roofline.Peaks("A100-SXM4-80GB", 2039.0, {"bf16": 312.0, "int8": 624.0}, "detected")


def _runs(values: dict[str, list[float]], regime="decode_bound", bs=1, inp=256, out=512, ttft=0.05):
    """Runs whose output and overall throughput are `values` (tok/s), with a fixed prefill time."""
    rows = []
    for scheme, vals in values.items():
        for i, v in enumerate(vals, start=1):
            lat = ttft + bs * out / v
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
                    "latency": lat,
                    "output_throughput": v,
                    "overall_throughput": bs * (inp + out) / lat,
                    "implied_ttft": ttft,
                }
            )
    return pd.DataFrame(rows)


def _worded(claim):
    c = wording.word("quantization_regimes", claim)
    assert not MISSING_WORDS.search(c.text), c.text
    return c


# --- winner ---------------------------------------------------------------------------------------


def test_winner_set_holds_a_tied_scheme_and_not_a_distinct_one():
    rt = _runs({"a": [100.0, 101.0, 99.0], "b": [99.5, 100.5, 98.5], "c": [80.0, 81.0, 79.0]})
    win = quant.winner_sets(rt, {"decode_bound": "output_throughput"}, 0.05)
    c = _worded(verdicts.winner(win, "decode_bound", 0.05))
    assert c.status == "shown" and c.evidence["best"] == "a"
    assert c.evidence["winners"] == ["a", "b"]  # b inside the set, c outside
    assert c.evidence["p_values"]["b"] >= 0.05 > c.evidence["p_values"]["c"]
    assert sorted(win.loc[win["in_winner_set"], "scheme"]) == sorted(c.evidence["winners"])  # rule == analysis
    assert "cannot tell b from it" in c.text and "a set of 2 wins" in c.text
    assert check({"chapter": "q", "claims": [c.to_dict()]}) == []


def test_winner_outright_when_every_other_differs():
    rt = _runs({"a": [100.0, 101.0, 99.0], "c": [80.0, 81.0, 79.0]})
    c = _worded(verdicts.winner(quant.winner_sets(rt, {"decode_bound": "output_throughput"}), "decode_bound", 0.05))
    assert c.status == "shown" and c.evidence["winners"] == ["a"] and "wins outright" in c.text


@pytest.mark.parametrize("alpha", [0.0, 1.0, 1.5, -0.1, None])
def test_alpha_outside_zero_one_never_shows_a_winner(alpha):
    rt = _runs({"a": [100.0, 101.0, 99.0], "b": [99.5, 100.5, 98.5], "c": [80.0, 81.0, 79.0]})
    win = quant.winner_sets(rt, {"decode_bound": "output_throughput"}, 0.05)
    c = _worded(verdicts.winner(win, "decode_bound", alpha))
    assert c.status == "withheld" and "alpha" in c.reason
    assert check({"chapter": "q", "claims": [c.to_dict()]}) == []


def test_winner_withheld_with_one_run_each():
    rt = _runs({"a": [100.0], "b": [90.0]})
    c = _worded(verdicts.winner(quant.winner_sets(rt, {"decode_bound": "output_throughput"}), "decode_bound", 0.05))
    assert c.status == "withheld" and "too few repeated runs" in c.reason and c.evidence["p_values"] == {"b": None}


def test_winner_latency_lower_is_better():
    rt = _runs({"fast": [200.0, 201.0, 199.0], "slow": [100.0, 101.0, 99.0]})
    c = verdicts.winner(quant.winner_sets(rt, {"decode_bound": "latency"}), "decode_bound", 0.05)
    assert c.evidence["best"] == "fast" and c.evidence["lower_is_better"] is True and c.evidence["winners"] == ["fast"]


# --- anomalies --------------------------------------------------------------------------------------


def test_confound_from_the_manifest_three_ways():
    own = _worded(
        verdicts.confound({"hardware": "NVIDIA A100-SXM4-80GB, one GPU per model, TP1", "own_gpu_each": True})
    )
    # the bottom line's caveat, one line: the page's setting sentence quotes the manifest's hardware
    assert own.status == "shown" and "one GPU per model" not in own.text and "its own GPU" in own.text
    shared = _worded(verdicts.confound({"hardware": "one H100, the same GPU for all", "own_gpu_each": False}))
    assert shared.status == "withheld" and "shared one GPU" in shared.text
    unknown = _worded(verdicts.confound({"hardware": None, "own_gpu_each": None}))
    assert unknown.status == "withheld" and "does not say" in unknown.text


@pytest.mark.parametrize(
    ("text", "status", "words"),
    [
        ("Hardware: 1x H100 80GB\n", "stated", "Line 1 states one GPU (`Hardware: 1x H100 80GB`): if every scheme"),
        ("Ran on 8 GPUs\n", "stated", "Line 1 states 8 GPUs (`Ran on 8 GPUs`); if the schemes ran on different"),
        ("docker run --gpus all sglang\n", "unread", "Line 1 speaks of the GPUs (`docker run --gpus all sglang`)"),
        ("w8a8 beats bf16\n", "absent", "The input does not say whether the schemes ran on one GPU or each"),
    ],
)
def test_where_no_manifest_places_the_schemes_the_gpu_count_goes_through_the_absence_rule(
    tmp_path, text, status, words
):
    path = tmp_path / "report.md"
    path.write_text(text, encoding="utf-8")
    said = quant.count_said(path)
    c = _worded(verdicts.confound({"hardware": None, "own_gpu_each": None} | said))
    assert said["count_status"] == status and c.status == "withheld" and words in c.text
    assert status == "absent" or "does not say" not in c.text


def test_metric_changes_counts_only_regimes_with_two_schemes():
    sens = pd.DataFrame(
        {"latency": ["a", "a", "x"], "output_throughput": ["b", "a", "x"], "overall_throughput": ["a", "a", "x"]},
        index=["r1", "r2", "solo"],
    )
    c = _worded(verdicts.metric_changes(sens, pd.Series({"r1": 2, "r2": 2, "solo": 1})))
    assert (c.status, c.evidence["count"], c.evidence["n"], c.evidence["regimes"]) == ("shown", 1, 2, ["r1"])
    assert c.rule == "regimes whose best scheme differs between metrics"
    noisy = _worded(verdicts.metric_changes(sens, pd.Series({"r1": 2, "r2": 2, "solo": 1}), pd.Series({"r1": False})))
    assert noisy.status == "withheld" and noisy.evidence["within_noise"] == ["r1"]
    assert "in r1 the three metrics crown different schemes, but one scheme is among the winners" in noisy.text
    c = _worded(verdicts.metric_changes(sens.loc[["r2"]], pd.Series({"r2": 2})))
    assert c.status == "withheld" and "agree" in c.text
    c = _worded(verdicts.metric_changes(sens.loc[["solo"]], pd.Series({"solo": 1})))
    assert c.status == "withheld" and "No regime has two schemes" in c.text


# --- physics of flagged runs -------------------------------------------------------------------------


def _flagged(out_tp: float):
    """Three runs of a bs 32 x in 256 cell; run 2's output throughput is `out_tp` (flagged)."""
    rt = _runs({"w8a16_x": [4000.0, out_tp, 4050.0]}, regime="base", bs=32, inp=256, out=32, ttft=0.35)
    rt.loc[1, "latency"] = rt.loc[0, "latency"]  # latency and overall unchanged: only output throughput is off
    rt["implied_ttft"] = rt["latency"] - 32 * 32 / rt["output_throughput"]
    return rt, quant.outliers(rt, "cv>0.10", metrics=["output_throughput"])


def test_outlier_physics_implausible_beyond_the_peak():
    rt, flag = _flagged(1750.0)  # leaves 21 ms for a 8192-token prefill: ~3,100 TFLOP/s
    phys = quant.outlier_physics(rt, flag, 4.02)
    c = _worded(verdicts.outlier_physics(phys, A100))
    assert c.status == "implausible" and c.evidence["fraction"] > 1
    assert c.evidence["device"] == "A100-SXM4-80GB" and c.evidence["peak_source"] == "detected"
    assert "TTFT timestamp" in c.text and "not measurements of the GPU" in c.text


def test_outlier_physics_shown_when_possible_and_withheld_without_flags():
    rt, flag = _flagged(3000.0)  # leaves 265 ms for the prefill: ~250 TFLOP/s, below the peak
    phys = quant.outlier_physics(rt, flag, 4.02)
    c = _worded(verdicts.outlier_physics(phys, A100))
    assert c.status == "shown" and c.evidence["fraction"] <= 1 and "physically possible" in c.text
    none = _worded(verdicts.outlier_physics(phys.iloc[0:0], A100))
    assert none.status == "withheld" and "nothing to check against physics" in none.text
    # an int8 scheme is held against the int8 peak
    assert roofline.Peaks("d", 1000.0, {"bf16": 100.0, "int8": 200.0}, "parameter").compute_peak("int8") == 200.0


def test_outlier_effect_and_cells():
    c = _worded(verdicts.outlier_effect(0, 10, 2))
    assert c.status == "withheld" and c.text == "Leaving the flagged values out changes no winning set."
    c = _worded(verdicts.outlier_effect(1, 10, 2))
    assert c.status == "shown" and "changes 1 of 10 winning-set memberships" in c.text
    rt, flag = _flagged(1750.0)
    c = _worded(verdicts.outlier_cells(flag, quant.timestamp_outliers(flag), 1, "cv>0.10"))
    assert c.status == "shown" and c.evidence["timestamp_cells"] == 1 and "TTFT timestamp" in c.text


# --- fraction of peak ---------------------------------------------------------------------------------


def test_decode_bandwidth_names_device_and_source_and_flips():
    rt = _runs({"original": [136.0, 137.0, 136.5]})
    pts = quant.roofline_points(rt, 4.02)
    c = _worded(verdicts.decode_bandwidth(pts, A100, 4.02))
    assert c.status == "shown" and c.evidence["fraction"] == pytest.approx(4.02 * 2 * 136.5 / 2039)
    assert c.evidence["streaming"] and c.evidence["bytes_per_token"] == pytest.approx(8.04e9)
    assert c.evidence["unit"] == "GB/s"
    assert "A100-SXM4-80GB" in c.text and "named in the input's manifest" in c.text
    slow = roofline.Peaks("tiny", 500.0, {"bf16": 10.0}, "parameter")
    bad = _worded(verdicts.decode_bandwidth(pts, slow, 4.02))
    assert bad.status == "implausible" and "not a result" in bad.text
    none = _worded(verdicts.decode_bandwidth(pts.iloc[0:0], A100, None))
    assert none.status == "withheld" and "model_id" in none.text


def test_no_device_states_the_decode_bandwidth_and_withholds_its_share_and_bound():
    """A report without a manifest naming its GPU: no device is assumed. The weight streaming needs
    only the model and is stated; its share of a peak, and the large-batch bound, are withheld
    naming the gpu parameter; with the device named, both are stated."""
    assert quant.peaks("", []) is None and quant.peaks("", ["no known device"]) is None
    rt = _runs({"original": [136.0, 137.0, 136.5]})
    pts = quant.roofline_points(rt, 4.02)
    c = _worded(verdicts.decode_bandwidth(pts, None, 4.02))
    assert c.status == "withheld" and c.reason == rules.NO_DEVICE
    assert c.text.startswith(
        "At batch 1, the fastest decode (original, decode_bound) streams its weights at 1,097 GB/s"
    )
    assert "`gpu`" in c.text and "A100" not in c.text
    assert _worded(verdicts.decode_bandwidth(pts, A100, 4.02)).status == "shown"
    big = quant.roofline_points(_runs({"w8a16_awq": [2000.0, 2010.0, 2005.0]}, bs=256), 4.02)
    bound = _worded(verdicts.large_batch_bound(big, "w8a16_awq", None, 4.02, 0.5))
    assert bound.status == "withheld" and bound.reason == rules.NO_DEVICE
    assert _worded(verdicts.large_batch_bound(big, "w8a16_awq", A100, 4.02, 0.5)).status == "shown"


def test_the_fastest_decode_is_the_highest_rate_not_the_highest_bandwidth():
    # fp16 at 136 tok/s streams 2 bytes per weight (1,093 GB/s); w4a16 at 150 tok/s streams 0.5 (302 GB/s)
    rt = _runs({"original": [136.0, 136.0], "w4a16_awq": [150.0, 150.0]})
    c = _worded(verdicts.decode_bandwidth(quant.roofline_points(rt, 4.02), A100, 4.02))
    assert c.evidence["scheme"] == "w4a16_awq" and c.evidence["tok_s"] == pytest.approx(150.0)
    slower = _runs({"original": [136.0, 136.0], "w4a16_awq": [120.0, 120.0]})
    c = _worded(verdicts.decode_bandwidth(quant.roofline_points(slower, 4.02), A100, 4.02))
    assert c.evidence["scheme"] == "original"


# --- the mechanism ----------------------------------------------------------------------------------


def _trend(ys, bss=(1, 8, 32, 64)):
    return pd.DataFrame(
        {
            "batch_size": list(bss),
            "ratio": list(ys),
            "intensity": [2.0 * b for b in bss],
            "intensity_baseline": [1.0 * b for b in bss],
            "n_regimes": 1,
        }
    )


def test_decode_trend_falls_left_of_the_ridge():
    c = _worded(verdicts.decode_trend(_trend([1.38, 1.31, 1.06, 0.83]), "w8a16_x", "original", A100))
    assert c.status == "shown" and c.evidence["left_of_ridge"] is True
    assert c.evidence["max_intensity"] == 128 and c.evidence["ridge"] == pytest.approx(312e12 / 2039e9)
    assert "no earlier than batch 153" in c.text and "the weight-only kernel, not the device's roofs" in c.text
    # a device whose ridge the largest batch crosses: the roofline does explain it
    low = roofline.Peaks("low-ridge", 2000.0, {"bf16": 100.0}, "parameter")  # ridge 50 FLOP/byte
    c = _worded(verdicts.decode_trend(_trend([1.38, 1.31, 1.06, 0.83]), "w8a16_x", "original", low))
    assert c.status == "shown" and c.evidence["left_of_ridge"] is False and "beyond the ridge" in c.text


def test_decode_trend_withheld_when_it_does_not_fall():
    # a step that rises beyond the tolerance (no noise given): the trend is not a fall
    c = _worded(verdicts.decode_trend(_trend([1.38, 1.70, 1.06, 0.83]), "w8a16_x", "original", A100))
    assert c.status == "withheld" and "not seen to fall" in c.text
    # a rise inside the tolerance does not break a fall judged from the first batch to the last
    c = _worded(verdicts.decode_trend(_trend([1.38, 1.39, 1.06, 0.83]), "w8a16_x", "original", A100))
    assert c.status == "shown" and c.evidence["steps_inside_noise"] == ["1 to 8"]
    c = _worded(verdicts.decode_trend(_trend([1.3, 1.0], (1, 64)), "w8a16_x", "original", A100))
    assert c.status == "withheld" and "at least 3" in c.reason
    c = _worded(verdicts.decode_trend(_trend([], ()), None, "original", A100))
    assert c.status == "withheld" and "lacks a weight-only" in c.text


def _decode_pts(tok_s: float, bs=64, bpw_scheme="w8a16_x"):
    rt = _runs({bpw_scheme: [tok_s, tok_s * 1.01, tok_s * 0.99]}, regime="high_concurrency", bs=bs, out=128)
    return quant.roofline_points(rt, 4.02)


def test_large_batch_bound_three_verdicts():
    c = _worded(verdicts.large_batch_bound(_decode_pts(5239.0), "w8a16_x", A100, 4.02, 0.5))
    assert c.status == "shown" and c.evidence["verdict"] == "overhead" and c.evidence["intensity"] == 128
    assert "neither roof" in c.text
    # weights streaming at 80 % of the bandwidth: bandwidth-bound
    tok_s = 0.8 * 2039e9 * 64 / 4.02e9
    c = verdicts.large_batch_bound(_decode_pts(tok_s), "w8a16_x", A100, 4.02, 0.5)
    assert c.evidence["verdict"] == "memory-bandwidth"
    # right of a low ridge at 60 % of a small compute peak: compute-bound
    low = roofline.Peaks("low-ridge", 20000.0, {"bf16": 50.0}, "parameter")  # ridge 2.5 FLOP/byte
    tok_s = 0.6 * 50e12 / (2 * 4.02e9)
    c = _worded(verdicts.large_batch_bound(_decode_pts(tok_s), "w8a16_x", low, 4.02, 0.5))
    assert c.evidence["verdict"] == "compute" and "does explain" in c.text
    none = _worded(verdicts.large_batch_bound(_decode_pts(5239.0), None, A100, 4.02, 0.5))
    assert none.status == "withheld" and "no such scheme" in none.text


def _prefill_ratios(ratio, lo, hi):
    return pd.DataFrame(
        {
            "regime": ["long", "long", "long"],
            "phase": ["prefill", "decode", "total"],
            "batch_size": [1, 1, 1],
            "tokens_per_pass": [16384.0, 1.0, float("nan")],
            "ratio": [ratio, 1.33, 0.84],
            "ci_low": [lo, 1.28, 0.8],
            "ci_high": [hi, 1.38, 0.9],
            "intensity": [32768.0, 2.0, float("nan")],
            "intensity_baseline": [16384.0, 1.0, float("nan")],
        }
    )


def test_long_prefill_slower_beyond_its_interval_and_not_within():
    c = _worded(verdicts.long_prefill(_prefill_ratios(0.76, 0.74, 0.78), "w8a16_x", "original"))
    assert c.status == "shown" and c.evidence["slower"] and c.evidence["decode_ratio"] == 1.33
    assert "0.76x" in c.text and "1.33x" in c.text and "(slower)" in c.text
    # 32,768 FLOP/byte is right of every device's ridge: said without naming one
    from benchbook import hardware

    highest = max(d.peak("bf16") * 1000 / d.bandwidth_gb_s for d in hardware.devices() if d.peak("bf16"))
    assert (
        f"right of the ridge of every device in the hardware table (the highest is {highest:.0f} FLOP/byte)" in c.text
    )
    short = _prefill_ratios(0.76, 0.74, 0.78).assign(intensity=[256.0, 2.0, float("nan")])
    c = _worded(verdicts.long_prefill(short, "w8a16_x", "original"))
    assert c.status == "shown" and "ridge" not in c.text and c.text.endswith("(256 FLOP/byte).")
    c = _worded(verdicts.long_prefill(_prefill_ratios(0.97, 0.80, 1.15), "w8a16_x", "original"))
    assert c.status == "withheld" and "no difference is called" in c.text


# --- the seed -------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def seed_claims():
    path = config.seed("002")
    rt = quant.runs(ingest.read(path))
    flag = quant.outliers(rt, "cv>0.10")
    clean = quant.drop_outliers(rt, flag)
    spd = quant.speedups(clean, METRIC_BY_REGIME, "original")
    w8 = quant.slowest_at_largest_batch(spd, quant.shapes(clean), quant.weight_only_schemes(clean["scheme"]))
    ratios = quant.phase_ratios(clean, w8, "original")
    pts = quant.roofline_points(clean, 4.02)
    win = quant.winner_sets(clean, METRIC_BY_REGIME)
    claims = [
        verdicts.confound(quant.placement(quant.manifest(path))),
        verdicts.outlier_physics(quant.outlier_physics(rt, flag, 4.02), A100),
        *[verdicts.winner(win, r, 0.05) for r in quant.regime_order(win["regime"].unique())],
        verdicts.decode_bandwidth(pts, A100, 4.02),
        verdicts.decode_trend(quant.decode_trend(ratios), w8, "original", A100),
        verdicts.large_batch_bound(pts, w8, A100, 4.02, 0.5),
        verdicts.long_prefill(ratios, w8, "original"),
    ]
    return wording.ledger("quantization_regimes", ["seed"], claims)


def test_seed_ledger(seed_claims):
    led = seed_claims
    assert check(led.to_dict()) == []
    assert sum(c.shown for c in led.claims) >= 5
    assert led.get("confound").status == "shown"
    phys = led.get("outlier_physics")
    assert phys.status == "implausible" and phys.evidence["fraction"] == pytest.approx(824.8 / 312, abs=0.01)
    assert phys.evidence["run"] == "run1" and phys.evidence["line"] == 1161
    trend = led.get("w8a16_decode_trend")
    assert trend.evidence["xs"] == [1, 8, 32, 64]
    assert trend.evidence["ys"][-1] == pytest.approx(0.83, abs=0.01) and trend.evidence["left_of_ridge"]
    # no single step is beyond its own noise (the first, -4 %, inside 16 %), but the fall from batch 1 to 64
    # (1.38 to 0.83, -40 %) is far beyond the two ends' (15 % and 1 % combined): shown, judged over its range
    assert trend.status == "shown" and trend.evidence["judged"] == "ends"
    assert led.get("w8a16_large_batch_bound").evidence["verdict"] == "overhead"
    pre = led.get("w8a16_long_prefill")
    assert pre.evidence["regime"] == "long_context" and pre.evidence["ratio"] == pytest.approx(0.76, abs=0.01)
    assert pre.evidence["total_ratio"] == pytest.approx(0.84, abs=0.01) and pre.status == "shown"
    hc = led.get("winner_high_concurrency")
    assert hc.evidence["best"] == "w8a8_smooth_gptq" and "original" not in hc.evidence["winners"]


def test_rule_rejudges_a_tampered_winner(seed_claims):
    d = seed_claims.get("winner_high_concurrency").to_dict()
    d["evidence"]["winners"] = [d["evidence"]["best"]]  # drop the tied schemes by hand
    assert any("winners" in p for p in check({"chapter": "q", "claims": [d]}))
    ev = dict(seed_claims.get("winner_high_concurrency").evidence)
    ev.pop("winners")
    assert make("w", "winner", "r", {**ev, "alpha": 1.0}).status == "withheld"


def test_decode_trend_without_peaks_or_scheme():
    empty = pd.DataFrame(columns=["batch_size", "ratio", "intensity", "intensity_baseline"])
    ev = cq.decode_trend(empty, None, "bf16", None).evidence
    assert (ev["ridge"], ev["device"], ev["peak_source"]) == (None, None, None)
    ev = cq.decode_trend(empty, None, "bf16", roofline.Peaks("H100", 2000.0, {"bf16": 1000.0}, "parameter")).evidence
    assert (ev["ridge"], ev["device"], ev["peak_source"]) == (500.0, "H100", "parameter")


def test_long_prefill_slower_only_below_one():
    """a = baseline time / scheme time: 1.5 means the scheme is faster, 0.8 slower."""

    def ratios(prefill):
        return pd.DataFrame(
            {
                "regime": ["r"] * 3,
                "phase": ["prefill", "decode", "total"],
                "ratio": [prefill, 0.9, 1.2],
                "batch_size": [1] * 3,
                "tokens_per_pass": [4096] * 3,
                "ci_low": [prefill - 0.1, 0.8, 1.1],
                "ci_high": [prefill + 0.1, 1.0, 1.3],
                "intensity": [100.0] * 3,
            }
        )

    ev = cq.long_prefill(ratios(1.5), "w8a16", "bf16").evidence
    assert ev["slower"] is False and ev["a"] == 1.5 and ev["decode_ratio"] == 0.9 and ev["total_ratio"] == 1.2
    assert cq.long_prefill(ratios(0.8), "w8a16", "bf16").evidence["slower"] is True


def test_source_first_place_counts_regimes():
    c = cq.source_first_place(["r2"], pd.DataFrame({"regime": ["r1", "r2", "r2"]}))
    assert c.id == "source_first_place" and c.kind == "anomaly"
    assert (c.evidence["count"], c.evidence["n"], c.evidence["regimes"]) == (1, 2, ["r2"])


def test_winner_metric_from_the_best_row():
    win = pd.DataFrame(
        {
            "regime": ["r", "r"],
            "scheme": ["b", "a"],
            "rank": [2, 1],
            "metric": ["latency", "latency"],
            "p_vs_best": [0.5, 1.0],
            "mean": [11.0, 10.0],
            "ratio_to_best": [10 / 11, 1.0],
            "n": [3, 3],
        }
    )
    ev = cq.winner(win, "r", 0.05).evidence
    assert (ev["best"], ev["metric"], ev["lower_is_better"]) == ("a", "latency", True)
    ev = cq.winner(win, "absent", 0.05).evidence
    assert (ev["best"], ev["metric"], ev["candidates"]) == (None, None, [])


# --- what the claims record (mutation sample, seed 2026) -------------------------------------------------------


def test_an_int8_scheme_is_held_against_the_int8_peak_in_tops():
    """A flagged int8 run implying 312 TOP/s of prefill is half the A100's 624 TOP/s int8 peak."""
    phys = pd.DataFrame(
        {
            "peak": ["int8"],
            "implied_prefill_tflops": [312.0],
            "model": ["w8a8_x"],
            "run": [2],
            "line": [10],
            "value": [1750.0],
            "implied_ttft": [0.021],
        }
    )
    ev = verdicts.outlier_physics(phys, A100).evidence
    assert (ev["unit"], ev["peak"], ev["fraction"]) == ("TOP/s (int8)", 624.0, 0.5)
    ev = verdicts.outlier_physics(phys.assign(peak="16bit"), A100).evidence
    assert (ev["unit"], ev["peak"], ev["fraction"]) == ("TFLOP/s", 312.0, 1.0)


def test_decode_bandwidth_without_a_parameter_count_states_no_rate():
    rt = _runs({"original": [136.0, 137.0, 136.5]})
    ev = verdicts.decode_bandwidth(quant.roofline_points(rt, 4.02), A100, None).evidence
    assert ev["tok_s"] is None and ev["bytes_per_token"] is None and ev["scheme"] == "original"


def test_the_quant_claims_state_their_rules_and_the_parameter_count():
    c = verdicts.large_batch_bound(_decode_pts(5239.0), "w8a16_x", A100, 4.02, 0.5)
    assert c.evidence["params_b"] == 4.02
    assert (
        c.rule
        == "bandwidth and compute fractions of the decode step against the threshold, intensity against the ridge"
    )
    rt, flag = _flagged(1750.0)
    assert verdicts.outlier_cells(flag, quant.timestamp_outliers(flag), 1, "cv>0.10").rule == (
        "cells flagged by the outlier rule"
    )
    lp = verdicts.long_prefill(_prefill_ratios(0.76, 0.74, 0.78), "w8a16_x", "original")
    assert (
        lp.rule == "baseline prefill time / scheme prefill time differs from 1 by more than its interval's half-width"
    )


def test_a_w8a8_gain_counts_only_regimes_faster_with_a_welch_p_below_alpha():
    best = pd.DataFrame(
        {
            "regime": ["decode", "prefill", "mixed"],
            "scheme": ["w8a8_a", "w8a8_b", "w8a8_a"],
            "speedup": [1.5, 1.2, 0.9],  # faster and significant; faster inside the noise; slower and significant
            "p": [0.01, 0.2, 0.001],
            "batch_size": [8, 64, 32],
        }
    )
    c = verdicts.w8a8_gain(best, "original", 0.05, "bf16")
    assert (c.evidence["count"], c.evidence["n"], c.evidence["schemes"]) == (1, 3, ["w8a8_a"])
    assert c.evidence["regimes_not"] == ["prefill", "mixed"] and c.evidence["batch_low"] == 8
    assert (
        c.rule == "regimes where the best w8a8 scheme beats the baseline: speed-up above 1 with a Welch p below alpha"
    )
    assert verdicts.w8a8_gain(best, "original", 0.5, "bf16").evidence["count"] == 2  # alpha 0.5 lets 0.2 in


def test_a_decode_fall_inside_the_ends_interval_half_widths_is_not_a_fall():
    # 1.38 to 1.30 is 5.8 % down: beyond the 2 % tolerance, inside ends that are each +-5 % (7.1 % combined)
    ys = [1.38, 1.36, 1.33, 1.30]
    wide = verdicts.decode_trend(_trend(ys).assign(half_width=0.05), "w8a16_x", "original", A100)
    assert wide.evidence["point_noise"] == [0.05] * 4 and wide.status == "withheld"
    narrow = verdicts.decode_trend(_trend(ys).assign(half_width=0.01), "w8a16_x", "original", A100)
    assert narrow.status == "shown"


def test_decode_trend_carries_the_device_s_dense_peak():
    c = verdicts.decode_trend(_trend([1.38, 1.31, 1.06, 0.83]), "w8a16_x", "original", A100)
    assert (c.evidence["tflops"], c.evidence["bandwidth_gb_s"]) == (312.0, 2039.0)


def test_the_baseline_s_rate_is_its_own_decode_in_the_fastest_decode_s_regime():
    """At batch 1, the baseline bf16 decodes at 1 TFLOP/s in the fastest scheme's regime `r1` and at 0.5
    in another, listed first: its rate in `r1` is 1e12 / (2 x 4e9) = 125 tokens a second."""
    pts = pd.DataFrame(
        {
            "phase": ["decode"] * 3,
            "batch_size": [1, 1, 1],
            "scheme": ["bf16", "w8a16_x", "bf16"],
            "regime": ["r2", "r1", "r1"],
            "achieved_tflops": [0.5, 2.0, 1.0],
            "weight_gb_s": [500.0, 1000.0, 1000.0],
            "weight_gb_s_std": [0.0, 0.0, 0.0],
        }
    )
    ev = verdicts.decode_bandwidth(pts, A100, 4.0, "bf16", 2.0).evidence
    assert (ev["scheme"], ev["regime"], ev["baseline_step_gb"]) == ("w8a16_x", "r1", 8.0)
    assert ev["baseline_tok_s"] == pytest.approx(125.0)


def test_each_step_s_noise_combines_its_two_batches_half_widths():
    trend = pd.DataFrame({"half_width": [0.03, 0.04, None]})
    assert verdicts._step_noise(trend) == [pytest.approx(0.05), None]  # a batch without an interval: none
    assert verdicts._step_noise(pd.DataFrame({"x": [1, 2]})) == [None]
