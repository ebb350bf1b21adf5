"""The serving_saturation claims: each verdict on synthetic data both ways, and the seed's values."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from benchbook import config, ingest
from benchbook.analysis import roofline, serving
from benchbook.analysis.roofline import Peaks
from benchbook.claims import Ledger, rules
from benchbook.claims import serving as cs
from benchbook.presentation import serving as show
from benchbook.presentation import wording

FIX = config.FIXTURES_DIR / "vllm-bench-serve"
RTX = roofline.choose("RTX-PRO-6000-Blackwell-WS", [])


@pytest.fixture(scope="module")
def seed():
    r = serving.runs(ingest.read(config.seed("004"), tool="vllm-bench-serve"))
    return r.assign(x=serving.sweep_x(r, "max_concurrency"))


def runs(caps, tput, rate=math.inf, model="m", **cols):
    n = len(caps)
    d = dict(
        run=[f"c={c}" for c in caps],
        max_concurrency=caps,
        request_rate=[rate] * n,
        num_prompts=[1000] * n,
        output_throughput=tput,
        model=[model] * n,
        order=list(range(n)),
    )
    d.update(cols)
    return pd.DataFrame(d)


# --- knee and growth ------------------------------------------------------------------------------


def test_knee_seed_is_shown_at_128(seed):
    c = wording.word(
        "serving_saturation", cs.knee(serving.knees(seed, "max_concurrency", 0.25), 0.25, "max_concurrency")
    )
    assert c.status == "shown" and c.evidence["x"] == 128 and c.evidence["n_points"] == 5
    assert "after max concurrency 128" in c.text and "74%" in c.text
    # the answer first (where throughput stops paying), the elasticity that decides it after
    assert c.text.startswith("For shisa-v2-unphi4-14b, throughput stops paying after max concurrency 128, where")
    assert "the next step raises throughput by less than 0.25 times its relative rise in load" in c.text


def test_knee_withheld_with_three_levels_and_on_a_straight_line():
    r = runs([1, 2, 4], [10.0, 20.0, 22.0])
    assert cs.knee(serving.knees(r, "max_concurrency", 0.25), 0.25, "max_concurrency").status == "withheld"
    # log-log slopes 0.45, 0.40, 0.35, 0.30: the elasticity (2**slope - 1) crosses 0.3 after 4, a gentle bend
    r = runs([1, 2, 4, 8, 16], list(10 * np.cumprod([1, 2**0.45, 2**0.40, 2**0.35, 2**0.30])))
    c = cs.knee(serving.knees(r, "max_concurrency", 0.3), 0.3, "max_concurrency")
    assert c.evidence["x"] == 4 and c.evidence["strength"] == pytest.approx(0.1) and c.status == "withheld"
    assert "bends too little" in c.reason


def test_knee_never_reached_is_said_without_a_number_missing():
    r = runs([1, 2, 4, 8], [10.0, 20.0, 40.0, 80.0])
    c = wording.word("serving_saturation", cs.knee(serving.knees(r, "max_concurrency", 0.25), 0.25, "max_concurrency"))
    assert c.status == "withheld" and "never falls below 0.25" in c.text and "nan" not in c.text


def test_growth_rises_and_falls(seed):
    assert cs.growth(seed[seed["x"].notna()], "x").status == "shown"
    falls = runs([1, 2, 4], [10.0, 20.0, 15.0]).assign(x=[1, 2, 4])
    c = wording.word("serving_saturation", cs.growth(falls, "x"))
    assert c.status == "withheld" and "no rise of output throughput at every step" in c.text.lower()


def test_growth_is_not_said_of_runs_at_one_load_under_different_labels():
    # three rounds at request rate 10 (the Ascend PD fixture's shape): not steps of a sweep, whatever
    # order their throughputs come in
    rounds = runs([None] * 3, [478.0, 664.0, 724.0], rate=10.0).assign(run=["round 1", "round 2", "round 3"])
    c = wording.word("serving_saturation", cs.growth(rounds.assign(x=[10.0] * 3), "x"))
    assert c.status == "withheld" and "values at one point are not steps" in c.text
    sweep = runs([None] * 3, [478.0, 664.0, 724.0], rate=10.0).assign(run=["r1", "r2", "r4"])
    assert cs.growth(sweep.assign(x=[1.0, 2.0, 4.0]), "x").status == "shown"


def test_a_growth_step_inside_the_run_noise_is_not_a_step():
    # one run per load: a 3 % step is inside the 5 % run noise, a 10 % step is not
    inside = runs([1, 2, 4], [10.0, 20.0, 20.6]).assign(x=[1, 2, 4])
    c = cs.growth(inside, "x")
    assert c.status == "withheld" and c.evidence["noise"] == cs.RUN_NOISE and c.evidence["trend"] == "mixed"
    assert cs.growth(runs([1, 2, 4], [10.0, 20.0, 22.0]).assign(x=[1, 2, 4]), "x").status == "shown"


# --- the uncapped run -----------------------------------------------------------------------------


def test_uncapped_seed_slower_and_ran_first(seed):
    curve, apart = seed[seed["x"].notna()], seed[seed["x"].isna()]
    c = wording.word("serving_saturation", cs.uncapped(apart, curve, 0))
    assert c.status == "shown" and c.evidence["ratio"] == pytest.approx(2096.79 / 3451.19)
    assert c.evidence["ran_first"] and "cold server" in c.text and "9.7 s" in c.text


def test_uncapped_within_noise_and_faster_and_finite_rate():
    r = runs([8.0, np.nan], [500.0, 510.0], ttft_mean=[100.0, 2500.0])
    x = serving.apart(r, "max_concurrency")
    assert cs.uncapped(r[x], r[~x], 0).status == "withheld"  # 2 % apart: noise
    r["output_throughput"] = [500.0, 600.0]
    c = wording.word("serving_saturation", cs.uncapped(r[x], r[~x], 0))
    assert c.status == "shown" and "cold server" not in c.text  # faster: nothing to suspect
    finite = r.assign(request_rate=[math.inf, 20.0])
    c = wording.word("serving_saturation", cs.uncapped(finite[x], finite[~x], 0))
    assert c.status == "withheld" and "finite request rate" in c.text
    other = r.assign(model=["m", "other"])
    c = wording.word("serving_saturation", cs.uncapped(other[x], other[~x], 0))
    assert c.status == "withheld" and "no run of its series" in c.text


def test_uncapped_is_set_against_its_own_deployment_not_one_its_label_would_drop():
    # a tp=2 run kept apart, a tp=2 capped run and another server's capped run: the series are told apart
    # over all three, so the all-at-once run is set against the tp=2 run, never the faster other server
    meta = ["tp=2", "tp=2", ""]
    r = runs([np.nan, 4.0, 8.0], [591.0, 32.0, 156.0], metadata=meta, ttft_mean=[9e4, 360.0, 112.0])
    x = serving.apart(r, "max_concurrency")
    c = cs.uncapped(r[x], r[~x], 0)
    assert c.status == "shown" and c.evidence["best_run"] == "c=4.0" and c.evidence["b"] == 32.0
    # the other way: the same server on both sides is one series, and its best capped run is taken
    one = r.assign(metadata=["tp=2"] * 3)
    assert cs.uncapped(one[x], one[~x], 0).evidence["b"] == 156.0


def test_an_infinite_rate_whose_format_records_no_cap_is_no_all_at_once_run():
    # GuideLLM 0.1 prints no in-flight limit, though GUIDELLM__MAX_CONCURRENCY bounds its throughput mode
    r = runs([8.0, np.nan], [500.0, 600.0], ttft_mean=[100.0, 2500.0])
    x = serving.apart(r, "max_concurrency")
    unknown = r.assign(max_concurrency_recorded=[True, False])
    c = wording.word("serving_saturation", cs.uncapped(unknown[x], unknown[~x], 0))
    assert c.status == "withheld" and "does not record its" in c.text and "no cap" not in c.text


def test_a_run_kept_apart_names_only_what_its_output_does_not_record():
    # GuideLLM 0.1's `asynchronous@0.85 req/sec` states its rate in its label; only its in-flight limit is unprinted
    r = runs([8.0, np.nan], [500.0, 600.0], ttft_mean=[100.0, 2500.0])
    x = serving.apart(r, "max_concurrency")

    def text(**cols):
        d = r.assign(**cols)
        c = wording.word("serving_saturation", cs.uncapped(d[x], d[~x], 0))
        assert c.status == "withheld"
        return c.text

    rated = text(request_rate=[math.inf, 0.85], max_concurrency_recorded=[True, False])
    assert "does not record its concurrency cap (its request rate, 0.85 req/s, is read)" in rated
    assert "or request rate" not in rated
    unlimited = text(max_concurrency_recorded=[True, False])
    assert "does not record its concurrency cap (its request rate is unlimited)" in unlimited
    assumed = text(max_concurrency_recorded=[True, False], rate_assumed=[False, True])
    assert "(its request rate is taken as unlimited, the tool's default)" in assumed
    # the other ways: neither printed, or the rate alone unprinted beside a format that records the cap
    neither = text(request_rate=[math.inf, np.nan], max_concurrency_recorded=[True, False], request_rate_recorded=False)
    assert "does not record its concurrency cap or request rate," in neither
    rate_only = text(request_rate=[math.inf, np.nan], request_rate_recorded=[True, False])
    assert "does not record its request rate, so" in rate_only and "concurrency cap" not in rate_only
    # the other way: a format that records its cap and prints none has no cap
    known = r.assign(max_concurrency_recorded=[True, True])
    c = wording.word("serving_saturation", cs.uncapped(known[x], known[~x], 0))
    assert c.status == "shown" and "no cap, infinite rate" in c.text


# --- Little's law, TPOT vs ITL, goodput -------------------------------------------------------------


def test_underfilled_seed_and_full(seed):
    c = wording.word("serving_saturation", cs.underfilled(serving.littles_law(seed)))
    assert (
        c.status == "shown"
        and c.evidence["run"] == "c=512"
        and c.evidence["utilisation"] == pytest.approx(0.537, abs=0.01)
    )
    full = pd.DataFrame(
        {"run": ["a"], "max_concurrency": [8.0], "in_flight": [7.9], "utilisation": [0.99], "estimated": [False]}
    )
    assert wording.word("serving_saturation", cs.underfilled(full)).text.startswith(
        "Every capped run averaged at least 80%"
    )
    none = full.assign(max_concurrency=np.nan)
    assert "no run" in wording.word("serving_saturation", cs.underfilled(none)).text.lower()


def test_an_underfilled_count_that_turns_on_a_run_inside_the_noise_says_it_is_fragile(seed):
    # the seed's c=64 holds 19.52 req/s x 2.63 s = 51.3 requests for a cap of 64 (80.2 %): 0.3 % over the
    # 80 % line, inside a single run's 5 % noise, so 3 or 4 of the 5 capped runs could be under it
    c = wording.word("serving_saturation", cs.underfilled(serving.littles_law(seed)))
    ev = c.evidence
    assert (ev["count"], ev["n"], ev["near"], ev["near_run"]) == (3, 5, 1, "c=64")
    assert ev["fragile"] and ev["margin"] == pytest.approx(0.0027, abs=0.0005)
    assert (ev["low_count"], ev["high_count"]) == (3, 4)
    assert "The count is fragile: run `c=64` averaged 80.2% of its cap, 0.3% over the 80% line" in c.text
    assert "3 to 4 of 5 capped runs" in c.text


def test_an_underfilled_count_with_every_run_clear_of_the_noise_is_firm():
    lit = pd.DataFrame(
        {
            "run": ["a", "b", "c"],
            "max_concurrency": [8.0, 16.0, 32.0],
            "in_flight": [7.6, 10.0, 30.0],
            "utilisation": [0.95, 0.625, 0.9375],
            "estimated": [False] * 3,
        }
    )
    c = wording.word("serving_saturation", cs.underfilled(lit))
    assert c.status == "shown" and c.evidence["count"] == 1 and not c.evidence["fragile"]
    assert "fragile" not in c.text
    near = lit.assign(utilisation=[0.95, 0.625, 0.79])  # c, 1.3 % under the line: 1 or 2 under it
    c = wording.word("serving_saturation", cs.underfilled(near))
    assert (c.evidence["low_count"], c.evidence["high_count"]) == (1, 2) and "1 to 2 of 3" in c.text


def test_every_run_above_the_underfilled_line_but_one_inside_the_noise_says_so():
    lit = pd.DataFrame(
        {"run": ["a", "b"], "max_concurrency": [8.0, 16.0], "in_flight": [7.6, 13.0], "utilisation": [0.95, 0.8125]}
    )
    text = wording.word("serving_saturation", cs.underfilled(lit.assign(estimated=False))).text
    assert text.startswith("Every capped run averaged at least 80%") and "This is fragile: run `b`" in text


def test_underfilled_says_why_a_capped_run_has_no_measured_concurrency():
    base = {"run": ["a"], "max_concurrency": [8.0], "in_flight": [np.nan], "utilisation": [np.nan]}
    failed = pd.DataFrame({**base, "tool": ["vllm-bench-serve"], "format": ["json"]})
    assert "completed a request" in wording.word("serving_saturation", cs.underfilled(failed)).text
    per_gpu = pd.DataFrame({**base, "tool": ["inferencex"], "format": ["result json"]})
    text = wording.word("serving_saturation", cs.underfilled(per_gpu)).text
    assert "records no request throughput" in text and "completed a request" not in text


def test_a_capped_run_that_completed_requests_but_has_no_mean_latency_says_the_latency_is_missing():
    """80 requests completed under a cap of 8, latencies not read (InferenceX's, in seconds): the
    latency is missing, not the requests; with 0 completed, no request completed."""
    base = {"run": ["a"], "max_concurrency": [8.0], "in_flight": [np.nan], "utilisation": [np.nan]}
    done = pd.DataFrame(
        {**base, "tool": ["vllm-bench-serve"], "format": ["json"], "completed": [80], "request_throughput": [1.0]}
    )
    text = wording.word("serving_saturation", cs.underfilled(done)).text
    assert "no mean latency was read" in text and "completed a request" not in text
    none = done.assign(completed=[0])
    assert "No capped run completed a request" in wording.word("serving_saturation", cs.underfilled(none)).text


def test_tpot_itl_both_ways(seed):
    assert cs.tpot_itl(seed).evidence["run"] == "c=max"
    calm = pd.DataFrame({"run": ["a"], "tpot_mean": [30.0], "itl_mean": [29.0]})
    assert cs.tpot_itl(calm).status == "withheld"


def test_a_run_whose_copy_ends_in_its_block_is_never_said_to_print_no_tpot_or_itl():
    # the copy ends at line 34 inside run a's block, before its ITL: what the tool printed there is unknown
    cut = pd.DataFrame({"run": ["a"], "tpot_mean": [353.0], "itl_mean": [np.nan], "copy_ends": [34.0]})
    text = wording.word("serving_saturation", cs.tpot_itl(cut)).text
    assert "copy ends at line 34" in text and "prints" not in text
    assert "copy ends at line 34" in show.pareto_sentence(cut.assign(tpot_mean=np.nan))
    # the other way: a whole block without ITL does print none
    whole = cut.assign(copy_ends=np.nan)
    assert (
        "No run prints both a mean TPOT and a mean ITL" in wording.word("serving_saturation", cs.tpot_itl(whole)).text
    )
    assert "No run prints a mean TPOT" in show.pareto_sentence(whole.assign(tpot_mean=np.nan))


def test_goodput_recommendation_seed_and_tie(seed):
    c = wording.word("serving_saturation", cs.goodput(serving.goodput_bounds(seed, 450.0, 40.0)))
    assert c.status == "shown" and c.evidence["choice"] == "c=128" and "27.5 req/s" in c.text
    tie = pd.DataFrame(
        {"run": ["a", "b"], "goodput_lo": [10.0, 9.8], "share_lo": [0.9, 0.9], "request_throughput": [11.0, 10.9]}
    )
    assert cs.goodput(tie).status == "withheld"


# --- the roofline ----------------------------------------------------------------------------------


def test_seed_roofline_bounds(seed):
    lit = serving.littles_law(seed)
    rl = serving.decode_roofline(lit, 14.7, 2.0, RTX)
    curve = rl[seed["x"].notna().to_numpy()]
    low = curve.sort_values("x").iloc[0]
    best = curve.loc[curve["output_throughput"].idxmax()]
    lo, hi = cs.bound("low", low, RTX, 0.5, True), cs.bound("best", best, RTX, 0.5, True)
    assert lo.evidence["verdict"] == "memory-bandwidth" and lo.evidence["run"] == "c=32"
    assert hi.evidence["verdict"] == "compute" and hi.evidence["run"] == "c=512"
    assert cs.bound("best", best, RTX, 0.8, True).evidence["verdict"] == "overhead"
    bw = wording.word("serving_saturation", cs.bandwidth(low, RTX, 14.7, 2.0))
    assert bw.status == "shown" and bw.evidence["fraction"] == pytest.approx(low["achieved_gb_s"] / 1792)
    # each share is said once: bandwidth_low gives the lightest load's, compute_best the best run's; the
    # verdicts add the ridge and the threshold, and a roof the share claims do not give keeps its share
    lo_text = wording.word("serving_saturation", lo).text
    hi_text = wording.word("serving_saturation", hi).text
    assert "97 FLOP per byte of weights read, left of the ridge (279 FLOP/byte)" in lo_text and "62%" not in lo_text
    assert "right of the ridge (279)" in hi_text and "67.3%" not in hi_text and "passes 50%" in hi_text
    other = wording.word("serving_saturation", cs.bound("best", low, RTX, 0.5, True)).text
    assert "takes 62% of the RTX-PRO-6000-Blackwell-WS's peak bandwidth" in other


def test_roofline_withheld_without_model_and_implausible_beyond_peak():
    lit = pd.DataFrame(
        {"run": ["a"], "in_flight": [1.0], "output_throughput": [5000.0], "total_token_throughput": [5000.0]}
    )
    row = serving.decode_roofline(lit, None, 2.0, RTX).iloc[0]
    c = wording.word("serving_saturation", cs.bandwidth(row, RTX, None, 2.0))
    assert c.status == "withheld" and "nan" not in c.text
    row = serving.decode_roofline(lit, 70.0, 2.0, RTX).iloc[0]  # 140 GB x 5000 steps/s
    assert cs.bandwidth(row, RTX, 70.0, 2.0).status == "implausible"
    assert cs.bound("low", row, RTX, 0.5, True).status == "implausible"


def test_compute_unknown_where_prompts_replay_earlier_prefixes():
    lit = pd.DataFrame(
        {
            "run": ["plain", "replay"],
            "in_flight": [10.0, 10.0],
            "output_throughput": [400.0, 400.0],
            "total_token_throughput": [80000.0, 80000.0],
            "metadata": ["tp=8", "tp=8; prefix_reuse=multi-turn trace replay"],
        }
    )
    rl = serving.decode_roofline(lit, 17.0, 1.0, RTX)
    assert rl["achieved_tflops"].iat[0] == pytest.approx(2 * 17.0 * 80000 / 1e3)
    assert math.isnan(rl["achieved_tflops"].iat[1]) and rl["achieved_gb_s"].iat[1] == rl["achieved_gb_s"].iat[0]
    assert cs.compute(rl.iloc[1], RTX).status == "withheld"


def test_roofline_figure_plots_the_runs(seed):
    rl = serving.decode_roofline(serving.littles_law(seed), 14.7, 2.0, RTX)
    fig = show.plot_roofline(rl, RTX, "max_concurrency")
    lines = {ln.get_label(): ln for ln in fig.axes[0].get_lines()}
    on = rl[np.isfinite(rl["x"])]
    assert list(lines["runs on the curve"].get_xdata()) == list(on["intensity"])
    assert list(lines["runs kept apart"].get_ydata()) == list(rl[rl["x"].isna()]["achieved_tflops"])


def test_no_device_states_the_achieved_figures_and_only_the_verdict_every_device_shares(seed):
    """A run whose device nobody names: no device is assumed. The achieved GB/s and TFLOP/s are
    stated, every share of a peak is withheld naming the gpu parameter, and a load below every
    device's ridge is still said not to be compute-bound; with the device named, the verdicts are."""
    lit = serving.littles_law(seed)
    assert roofline.choose("", ["no device named here"]) is None
    rl = serving.decode_roofline(lit, 14.7, 2.0, None)
    named = serving.decode_roofline(lit, 14.7, 2.0, RTX)
    assert list(rl["achieved_gb_s"]) == pytest.approx(list(named["achieved_gb_s"]))
    assert rl["bandwidth_fraction"].isna().all() and rl["ridge"].isna().all()
    curve = rl[seed["x"].notna().to_numpy()]
    low, best = curve.sort_values("x").iloc[0], curve.loc[curve["output_throughput"].idxmax()]
    bw = wording.word("serving_saturation", cs.bandwidth(low, None, 14.7, 2.0))
    assert bw.status == "withheld" and bw.reason.startswith(rules.NO_DEVICE)
    assert f"{low['achieved_gb_s']:,.0f} GB/s" in bw.text and "`gpu`" in bw.text and "H100" not in bw.text
    tf = wording.word("serving_saturation", cs.compute(best, None))
    assert tf.status == "withheld" and f"{best['achieved_tflops']:,.0f} TFLOP/s" in tf.text
    # the seed's lightest load (c=32) is memory-bound on its RTX PRO 6000, unknown without a device
    assert cs.bound("low", low, None, 0.5, True).status == "withheld"
    assert (
        cs.bound("low", named[seed["x"].notna().to_numpy()].sort_values("x").iloc[0], RTX, 0.5, True).evidence[
            "verdict"
        ]
        == "memory-bandwidth"
    )
    # an intensity below every device's ridge holds for any device: stated without one
    thin = low.copy()
    thin["intensity"] = 1.0
    below = cs.bound("low", thin, None, 0.5, True)
    assert below.status == "shown" and below.evidence["verdict"] == rules.NOT_COMPUTE
    # the figure draws the runs and no roof
    fig = show.plot_roofline(rl, None, "max_concurrency")
    labels = [ln.get_label() for ln in fig.axes[0].get_lines()]
    assert "runs on the curve" in labels and not any(lab.startswith("roof") for lab in labels)
    assert any(lab.startswith("lowest ridge of any device (12 FLOP/byte") for lab in labels)
    bf16 = serving.weights("m", pd.DataFrame({"model": ["m"]}))  # no tag, no table row: bf16 assumed
    spans = show.device_sentence(None, "m", 14.7, 14.7, "parameter", bf16, spans=8)
    # the no-device case in the reason's own words (claims/reasons.yml), glued as plain text: no code marks
    plain = rules.NO_DEVICE.replace("`", "")
    assert spans.startswith("Each run spans 8 devices, as the input says (TP x PP x DP), but " + plain + ":")
    said = show.device_sentence(None, "m", 14.7, 14.7, "parameter", bf16)
    assert said.startswith(plain[:1].upper() + plain[1:] + ":") and "Model: m" in said


def test_saturation_figure_keeps_the_uncapped_run_off_the_curve(seed):
    curve, apart = seed[seed["x"].notna()], seed[seed["x"].isna()]
    fig = show.plot_saturation(curve, apart, "max_concurrency", 128)
    lines = {ln.get_label(): ln for ln in fig.axes[0].get_lines()}
    out = lines["output tok/s, shisa-v2-unphi4-14b"]
    assert list(out.get_xdata()) == [32, 64, 128, 256, 512]  # no point at 1000
    flat = lines["kept apart: run c=max (no concurrency cap), output tok/s"]
    assert set(flat.get_ydata()) == {2096.79}


def test_saturation_figure_is_not_drawn_for_runs_kept_apart_alone(seed):
    """Runs kept apart are reference lines against the curve: with no run on it (every run of a file
    uncapped), the figure would be flat lines over an empty load axis, so the sentence stands instead;
    one run on the curve is enough to draw them against."""
    curve, apart = seed[seed["x"].notna()], seed[seed["x"].isna()]
    alone = show.plot_saturation(curve.iloc[0:0], apart, "max_concurrency")
    assert "no run on the curve" in alone.benchbook_message
    one = show.plot_saturation(curve.iloc[:1], apart, "max_concurrency")
    assert not hasattr(one, "benchbook_message")
    assert any(ln.get_label().startswith("kept apart") for ln in one.axes[0].get_lines())


def test_a_request_count_the_format_does_not_record_is_unknown_not_zero():
    """GuideLLM's 0.5+ console prints latency statistics of completed requests but no request count:
    its capped runs completed requests (their latency is what is missing), while a format that records
    the count and prints none completed did complete none."""
    from benchbook.ingest import guidellm

    lit = pd.DataFrame(
        {
            "run": ["synchronous"],
            "tool": ["guidellm"],
            "format": [guidellm.FORMAT],
            "max_concurrency": [1.0],
            "in_flight": [np.nan],
            "utilisation": [np.nan],
            "completed": [np.nan],
        }
    )
    c = cs.underfilled(lit)
    assert (c.evidence["no_latency"], c.evidence["unmeasured"]) == (1, 0)
    recorded = lit.assign(tool="vllm-bench-serve", format="json", completed=0.0)
    c = cs.underfilled(recorded)
    assert (c.evidence["no_latency"], c.evidence["unmeasured"]) == (0, 1)


def test_saturation_figure_draws_no_line_for_a_run_with_no_throughput(seed):
    """A run kept apart whose output prints no throughput (GuideLLM latency tables alone) has no line;
    with no throughput anywhere the figure is the sentence saying so."""
    curve, apart = seed[seed["x"].notna()], seed[seed["x"].isna()]
    blind = apart.assign(output_throughput=np.nan, total_token_throughput=np.nan)
    fig = show.plot_saturation(curve, pd.concat([apart, blind]), "max_concurrency", 128)
    labels = [ln.get_label() for ln in fig.axes[0].get_lines()]
    assert sum(lab.startswith("kept apart") for lab in labels) == 1  # the run with a throughput only
    none = show.plot_saturation(curve.assign(output_throughput=np.nan, total_token_throughput=np.nan), blind, "x")
    assert none.benchbook_message.startswith("No figure: no run has a token throughput")  # a sentence, from the file


def test_fixture_ledgers_are_clean_and_print_no_missing_value():
    for name in ("recipes_glm_v_two_runs.md", "llmd_results.jsonl", "dgx_spark_ministral3_rate_sweep.jsonl"):
        r = serving.runs(ingest.read(FIX / name, tool="vllm-bench-serve"))
        var = serving.choose_sweep(r, "max_concurrency")
        r = r.assign(x=serving.sweep_x(r, var))
        away = serving.apart(r, var)
        led = Ledger("serving_saturation", [name])
        led.add(cs.knee(serving.knees(r, var, 0.25), 0.25, var, int(r["x"].nunique())))
        led.add(cs.uncapped(r[away], r[~away], 0))
        led.add(cs.underfilled(serving.littles_law(r)))
        led = wording.ledger(led.chapter, led.inputs, led.claims)
        assert rules.check(led.to_dict()) == [], name


H100 = Peaks("H100", 3350.0, {"bf16": 989.0}, source="parameter")


def test_bound_prefill_share():
    """300 of 1000 tok/s are output tokens: the other 70 % are prompt tokens."""
    row = pd.Series({"run": "r1", "output_throughput": 300.0, "total_token_throughput": 1000.0})
    ev = cs.bound("best", row, H100, 0.5, False).evidence
    assert math.isclose(ev["prefill_share"], 0.7) and ev["run"] == "r1"
    assert (ev["device"], ev["peak_source"]) == ("H100", "parameter")


def test_compute_evidence_from_the_row_and_peaks():
    row = pd.Series(
        {"run": "r1", "compute_fraction": 0.25, "peak_tflops": 400.0, "achieved_tflops": 100.0, "precision": "bf16"}
    )
    ev = cs.compute(row, H100).evidence
    assert (ev["fraction"], ev["peak"], ev["achieved"], ev["run"]) == (0.25, 400.0, 100.0, "r1")
    assert (ev["device"], ev["peak_source"]) == ("H100", "parameter")


def test_goodput_noise_from_two_repeated_loads():
    """Load A: 10 and 12 req/s (mean 11, sd sqrt 2); load B: 5 and 7 (mean 6, sd sqrt 2); noise =
    sqrt(2 + 2) / 6 = 1/3."""
    gb = pd.DataFrame(
        {
            "run": ["A", "A", "B", "B"],
            "model": ["m"] * 4,
            "max_concurrency": [8.0, 8.0, 16.0, 16.0],
            "request_rate": [math.inf] * 4,
            "goodput_lo": [10.0, 12.0, 5.0, 7.0],
            "share_lo": [0.5] * 4,
            "request_throughput": [20.0] * 4,
        }
    )
    c = cs.goodput(gb)
    assert c.rule.startswith("the load with the highest mean proven goodput over its repeats")
    ev = c.evidence
    assert (ev["choice"], ev["value"], ev["runner_up"], ev["runner_up_value"], ev["repeats"]) == (
        "A",
        11.0,
        "B",
        6.0,
        2,
    )
    assert math.isclose(ev["noise"], 1 / 3) and math.isclose(ev["value_sd"], math.sqrt(2))


def test_a_best_load_decided_inside_the_noise_of_its_slo_is_marked_fragile(seed):
    gb = serving.goodput_bounds(seed, 450.0, 40.0)
    c = wording.word("serving_saturation", cs.goodput(gb, 450.0, 40.0))
    # the seed's c=128: p99 TPOT 39.59 ms against a 40 ms SLO, 1 % under it
    assert c.status == "shown" and c.evidence["slo_percentile"] == "p99 TPOT" and c.evidence["fragile"]
    assert c.evidence["margin"] == pytest.approx(39.59 / 40 - 1)
    assert "fragile: run `c=128`'s p99 TPOT (39.59 ms) is 1% under its SLO (40 ms)" in c.text
    loose = wording.word("serving_saturation", cs.goodput(serving.goodput_bounds(seed, 450.0, 50.0), 450.0, 50.0))
    assert not loose.evidence["fragile"] and "fragile" not in loose.text
    assert "fragile" not in cs.goodput(gb).evidence  # no SLOs given: no margin claimed


# --- margins the re-judging derives (`benchbook claims check`) -----------------------------------------------


def _knee_on(tput_at_8: float):
    r = runs([1, 2, 4, 8], [100.0, 200.0, 400.0, tput_at_8])
    kn = serving.knees(r, "max_concurrency", 0.25)
    return wording.word("serving_saturation", cs.knee(kn, 0.25, "max_concurrency", 4))


def test_a_knee_just_under_its_threshold_is_fragile_and_a_flat_one_is_not():
    near = _knee_on(490.0)  # the step from 4 to 8 gains 22.5 % for 100 % more load: elasticity 0.225
    assert near.status == "shown" and near.evidence["x"] == 4
    assert near.evidence["knee_el"] == pytest.approx(0.225) and near.evidence["margin"] == pytest.approx(-0.1)
    # one run per load: 5 % of 400 and of 490 tok/s, over 400 tok/s and a doubling, over the threshold
    assert near.evidence["knee_noise"] == pytest.approx(math.hypot(20, 24.5) / 400 / 0.25)
    assert (
        near.evidence["fragile"]
        and "This verdict is fragile: the elasticity of the step past the knee, 0.23, is 10%" in near.text
    )
    assert "under the 0.25 it turns on, inside the noise that one run per load leaves it (± 0.08)" in near.text
    flat = _knee_on(400.0)  # no gain at all: elasticity 0, far under the threshold
    assert flat.status == "shown" and flat.evidence["margin"] == pytest.approx(-1.0) and not flat.evidence["fragile"]
    assert "fragile" not in flat.text


def test_claims_check_rederives_the_knee_and_goodput_margins(seed):
    knee = _knee_on(490.0)
    gb = serving.goodput_bounds(seed, 450.0, 40.0)
    best = wording.word("serving_saturation", cs.goodput(gb, 450.0, 40.0))
    assert best.evidence["slo_noise"] == cs.RUN_NOISE and best.evidence["fragile"]
    ledger = {"chapter": "serving_saturation", "claims": [knee.to_dict(), best.to_dict()]}
    assert rules.check(ledger) == []
    for c in ledger["claims"]:
        c["evidence"]["fragile"] = False  # a ledger that calls either verdict firm is caught
    found = rules.check(ledger)
    assert len(found) == 2 and all("fragile False but the rule gives True" in p for p in found)
    ledger["claims"][1]["evidence"]["margin"] = 0.2  # nor may it move the percentile away from its SLO
    assert any("serving_saturation:goodput: margin 0.2" in p for p in rules.check(ledger))


def test_the_serving_bound_carries_its_noise_and_the_lowest_ridge():
    row = pd.Series(
        {"run": "c=1", "bandwidth_fraction": 0.52, "compute_fraction": 0.01, "intensity": 2.0, "ridge": 300.0}
    )
    near = cs.bound("low", row, RTX, 0.5, False)
    assert near.evidence["noise"] == cs.RUN_NOISE and near.evidence["lowest_ridge"] == pytest.approx(12.109375)
    assert near.evidence["verdict"] == "memory-bandwidth" and near.evidence["fragile"]  # 4 % over, inside 5 %
    far = cs.bound("low", pd.Series({**row, "bandwidth_fraction": 0.8}), RTX, 0.5, False)
    assert far.evidence["margin"] == pytest.approx(0.6) and not far.evidence["fragile"]
    # no device named: no share of a peak, but 2 FLOP/byte is under every device's ridge, so the page may
    # still say it is not compute-bound; at 50 FLOP/byte it may not
    unnamed = {**row, "bandwidth_fraction": None, "compute_fraction": None, "ridge": None, "in_flight": 1.0}
    low = wording.word("serving_saturation", cs.bound("low", pd.Series(unnamed), None, 0.5, False))
    assert low.status == "shown" and low.evidence["verdict"] == rules.NOT_COMPUTE
    assert "cannot be bound by compute on any device" in low.text and "Ryzen-AI-Max-395" in low.text
    dense = cs.bound("low", pd.Series({**unnamed, "intensity": 50.0}), None, 0.5, False)
    assert dense.status == "withheld" and dense.evidence["verdict"] != rules.NOT_COMPUTE


# --- evidence each claim must carry (mutation sample, seed 2026) ---------------------------------------------


def test_growth_with_repeats_takes_the_noise_from_their_spread():
    """Two runs per load: x=1 gives 10 and 12 tok/s (mean 11, sd sqrt 2), x=2 gives 20 and 22 (mean 21, sd
    sqrt 2); the step's noise is sqrt(2 + 2) / 11 = 2/11, and 21 over 11 rises far beyond it."""
    r = runs([1, 1, 2, 2], [10.0, 12.0, 20.0, 22.0]).assign(x=[1, 1, 2, 2], run=["a", "a", "b", "b"])
    ev = cs.growth(r, "x").evidence
    assert ev["repeats"] == 2 and ev["tolerance"] == pytest.approx(2 / 11) and ev["noise"] is None
    assert (ev["first_y"], ev["last_y"]) == (11.0, 21.0)
    one = cs.growth(runs([1, 2], [10.0, 20.0]).assign(x=[1, 2]), "x").evidence  # one run per load: no repeats
    assert "repeats" not in one and one["noise"] == cs.RUN_NOISE


def test_an_overfilled_run_counts_the_requests_its_rate_and_duration_imply():
    """c=8 at 4 req/s with a 4 s mean E2EL holds 16 in flight, twice its cap; 4 req/s over 100 s is 400
    requests counted against the 1000 sent. Without a duration no count is implied."""
    lit = pd.DataFrame(
        {
            "run": ["c=8"],
            "max_concurrency": [8.0],
            "in_flight": [16.0],
            "utilisation": [2.0],
            "request_throughput": [4.0],
            "mean_e2el_s": [4.0],
            "duration": [100.0],
            "num_prompts": [1000.0],
            "estimated": [False],
        }
    )
    ev = cs.underfilled(lit).evidence
    assert ev["over"] == 1 and ev["over_run"] == "c=8" and ev["over_counted"] == pytest.approx(400.0)
    assert (ev["over_in_flight"], ev["over_cap"], ev["over_sent"]) == (16.0, 8.0, 1000.0)
    assert "over_counted" not in cs.underfilled(lit.assign(duration=[np.nan])).evidence


def test_goodput_without_a_provable_load_names_no_choice():
    gb = pd.DataFrame({"run": ["A"], "goodput_lo": [0.0], "share_lo": [0.0], "request_throughput": [5.0]})
    c = cs.goodput(gb)
    assert c.evidence["choice"] is None and c.evidence["value"] is None and c.evidence["options"] == 1


def test_goodput_chooses_a_best_load_only_within_one_series():
    """Two runs at c=1 of two deployments are two series, not two loads: no best load between them;
    the same two runs of one deployment at c=1 and c=8 are a sweep, and the higher goodput is chosen."""
    gb = pd.DataFrame(
        {
            "run": ["c=1", "c=1 #2"],
            "model": ["m", "m"],
            "max_concurrency": [1.0, 1.0],
            "request_rate": [math.inf] * 2,
            "metadata": ["deployment=url a", "deployment=url b"],
            "goodput_lo": [0.5, 1.8],
            "share_lo": [0.9, 0.98],
            "request_throughput": [0.55, 1.88],
        }
    )
    c = cs.goodput(gb)
    assert c.evidence["choice"] is None and c.evidence["series"] == 2 and c.status == "withheld"
    one = cs.goodput(gb.assign(metadata="", run=["c=1", "c=8"], max_concurrency=[1.0, 8.0])).evidence
    assert one["choice"] == "c=8" and one["runner_up"] == "c=1" and "series" not in one


def test_goodput_chooses_the_best_load_within_each_series_that_sweeps_one():
    """Two deployments, each swept over c=1 and c=8: no best load across them, but within each the
    higher goodput is chosen where it beats its runner-up beyond the noise (5 %); deployment b's two
    loads are 2 % apart, so none is chosen there; a series of one load is no sweep and is left out."""
    gb = pd.DataFrame(
        {
            "run": ["a c=1", "a c=8", "b c=1", "b c=8", "c c=1"],
            "model": ["m"] * 5,
            "max_concurrency": [1.0, 8.0, 1.0, 8.0, 1.0],
            "request_rate": [math.inf] * 5,
            "metadata": ["deployment=url a"] * 2 + ["deployment=url b"] * 2 + ["deployment=url c"],
            "goodput_lo": [0.5, 3.0, 2.0, 2.04, 1.0],
            "share_lo": [0.9, 0.8, 0.9, 0.9, 0.9],
            "request_throughput": [0.55, 3.75, 2.2, 2.27, 1.1],
        }
    )
    c = cs.goodput(gb)
    ev = c.evidence
    assert ev["choice"] is None and ev["series"] == 3 and c.status == "shown"
    assert [(s["choice"], s["runner_up"]) for s in ev["per_series"]] == [("a c=8", "a c=1"), ("b c=8", "b c=1")]
    assert len(ev["chosen"]) == 1 and "url a" in ev["chosen"][0]
    text = wording.word("serving_saturation", c).text
    assert "run `a c=8`, at least 3.0 req/s (80% of its 3.8 req/s) meeting both, against 0.5 req/s" in text
    assert "none beyond the noise (5.0%): runs `b c=8` and `b c=1` prove 2.0 and 2.0 req/s" in text
    close = cs.goodput(gb.assign(goodput_lo=[0.5, 0.51, 2.0, 2.04, 1.0]))
    assert close.status == "withheld" and close.evidence["chosen"] == []
    assert "none stands out within the 2 series that sweep a load" in wording.word("serving_saturation", close).text


def test_goodput_chooses_no_load_in_a_series_whose_runs_share_one_load():
    """A series of two runs at one load (`Speculative Decoding` and `FP8 + Speculative Decoding`, both c=32)
    sweeps no load: its runs are configurations, and no best load is named within it (stop 49, issue #35
    class 5: the FP8 run was called the best load against the BF16 one); the same series at c=8 and c=32
    sweeps one, and the higher goodput is chosen there."""
    gb = pd.DataFrame(
        {
            "run": ["spec", "fp8 + spec", "fp8"],
            "model": [None] * 3,
            "max_concurrency": [32.0] * 3,
            "request_rate": [math.inf] * 3,
            "metadata": ["speculative=eagle", "speculative=eagle", ""],
            "goodput_lo": [19.3, 25.1, 22.0],
            "share_lo": [0.98] * 3,
            "request_throughput": [19.7, 25.7, 22.3],
        }
    )
    c = cs.goodput(gb)
    assert c.evidence["series"] == 2 and c.evidence["per_series"] == [] and c.status == "withheld"
    assert "none of which sweeps a load" in wording.word("serving_saturation", c).text
    swept = cs.goodput(gb.assign(max_concurrency=[8.0, 32.0, 32.0])).evidence
    assert [(s["choice"], s["runner_up"]) for s in swept["per_series"]] == [("fp8 + spec", "spec")]


def test_goodput_states_the_mean_rate_of_the_chosen_loads_repeats():
    """Load A ran twice at 20 and 22 req/s completed: the rate stated beside its goodput is the mean, 21."""
    gb = pd.DataFrame(
        {
            "run": ["A", "A"],
            "model": ["m"] * 2,
            "max_concurrency": [8.0, 8.0],
            "request_rate": [math.inf] * 2,
            "goodput_lo": [10.0, 12.0],
            "share_lo": [0.5, 0.5],
            "request_throughput": [20.0, 22.0],
        }
    )
    assert cs.goodput(gb).evidence["rate"] == 21.0


def test_the_bound_states_the_runs_precision():
    row = pd.Series({"run": "r1", "bandwidth_fraction": 0.6, "precision": "fp8"})
    assert cs.bound("best", row, H100, 0.5, False).evidence["precision"] == "fp8"


def test_compute_without_a_run_has_no_peak_and_with_repeats_says_how_many():
    assert cs.compute(None, H100).evidence["peak"] is None
    row = pd.Series({"run": "r1", "compute_fraction": 0.25, "peak_tflops": 400.0, "achieved_tflops": 100.0, "n": 3})
    ev = cs.compute(pd.concat([row, pd.Series({"precision": "bf16"})]), H100).evidence
    assert ev["repeats"] == 3 and ev["precision"] == "bf16"
    assert "repeats" not in cs.compute(row.drop("n"), H100).evidence


def test_a_loadgen_summary_that_logged_no_error_says_so_not_that_failures_are_unknown():
    """LoadGen writes its summary only after every issued sample completed and counts the errors it
    logged: a summary saying none is no unknown; one that logged errors says how many."""
    base = runs([np.nan], [100.0], scenario=["Offline"], failed=[np.nan], completed=[np.nan])
    c = wording.word("serving_saturation", cs.failed(base.assign(errors_logged=[0.0], errors_line=[54.0])))
    assert "it logged no error (line 54)" in c.text and "cannot tell" not in c.text
    c = wording.word("serving_saturation", cs.failed(base.assign(errors_logged=[2.0], errors_line=[54.0])))
    assert "it logged 2 errors" in c.text and "no error" not in c.text
    # a copy cut before the errors line (mlperf/mobile_app#110): still no failed request, errors not known
    c = wording.word("serving_saturation", cs.failed(base.assign(errors_logged=[np.nan], errors_line=[np.nan])))
    assert "counts no failed request; the copy ends before the line that counts the errors" in c.text
    assert "cannot tell" not in c.text and "no error" not in c.text
    # the other way: a run of another tool that prints no failure count and no prompts is unknown
    other = base.assign(scenario=[np.nan], errors_logged=[np.nan], errors_line=[np.nan])
    assert "cannot tell whether any failed" in wording.word("serving_saturation", cs.failed(other)).text


def test_chunks_of_several_tokens_make_the_one_token_per_step_traffic_no_lower_bound():
    """No speculative decoding stated, but mean ITL 93 ms over mean TPOT 32 ms: chunks of ~2.9 tokens.
    If each chunk is one step the weights are read 2.9x less often, so the page gives both figures
    and calls neither a lower bound; a run whose ITL and TPOT agree keeps the lower bound."""
    row = pd.Series(
        dict(run="c=64", in_flight=60.0, achieved_gb_s=511.0, bandwidth_fraction=0.1, speculative=None,
             tokens_per_step=1.0, itl_mean=93.0, tpot_mean=32.0, itl_median=90.0, ttft_mean=900.0, e2el_mean=33000.0)
    )  # fmt: skip
    c = wording.word("serving_saturation", cs.bandwidth(row, H100, 17.0, 1.0))
    assert c.evidence["chunk_tokens"] == pytest.approx(93 / 32)
    assert c.evidence["achieved_per_chunk"] == pytest.approx(511 * 32 / 93)
    assert "a lower bound" not in c.text and "176 GB/s" in c.text and "is no lower bound" in c.text
    level = row.copy()
    level["itl_mean"] = 33.0  # chunks of one token each
    steady = wording.word("serving_saturation", cs.bandwidth(level, H100, 17.0, 1.0))
    assert "chunk_tokens" not in steady.evidence and "(a lower bound: the KV cache is not counted)" in steady.text


def _gb(labels, caps, rates, goodput):
    n = len(labels)
    return pd.DataFrame(
        {
            "run": labels,
            "model": ["m"] * n,
            "max_concurrency": caps,
            "request_rate": rates,
            "goodput_lo": goodput,
            "share_lo": [0.5] * n,
            "request_throughput": [2 * g for g in goodput],
        }
    )


def test_runs_at_one_load_under_different_labels_are_configurations_not_loads():
    """Three routers at cap 20 and rate 20: compared at that load, never 'the best load'."""
    routers = _gb(["Python", "Rust", "golang"], [20.0] * 3, [20.0] * 3, [1.0, 2.6, 1.8])
    c = wording.word("serving_saturation", cs.goodput(routers))
    assert c.evidence["configurations"] == 3 and c.evidence["choice"] == "Rust"
    assert "configurations compared at that load" in c.text and "best load under these SLOs is" not in c.text
    sweep = _gb(["c=8", "c=16", "c=32"], [8.0, 16.0, 32.0], [math.inf] * 3, [1.0, 2.6, 1.8])
    s = wording.word("serving_saturation", cs.goodput(sweep))
    assert "configurations" not in s.evidence and "The best load under these SLOs is run `c=16`" in s.text


def test_a_peak_summed_over_several_devices_is_said_to_be_their_sum_and_one_devices_is_its_own():
    """A run over TP 2 is set against twice one device's peaks (`Peaks.count`): its sentences name the sum
    over the 2 devices, never one device's peak; on one device they name that device's peak."""
    row = pd.Series(
        {
            "run": "r1",
            "bandwidth_fraction": 0.1,
            "compute_fraction": 0.01,
            "achieved_gb_s": 670.0,
            "in_flight": 4.0,
            "intensity": 2.0,
            "ridge": 295.0,
            "peak_tflops": 1978.0,
            "achieved_tflops": 19.8,
            "precision": "bf16",
            "output_throughput": 300.0,
            "total_token_throughput": 1000.0,
        }
    )
    two = Peaks("H100", 3350.0, {"bf16": 989.0}, source="parameter", count=2)
    for peaks, says, never in (
        (two, "summed over 2 x H100", "H100's"),
        (H100, "of the H100", "summed over"),
    ):
        texts = [
            wording.word("serving_saturation", c).text
            for c in (
                cs.bandwidth(row, peaks, 8.0, 2.0),
                cs.compute(row, peaks),
                cs.bound("best", row, peaks, 0.5, False),
            )
        ]
        assert all(says in t and never not in t for t in texts), texts


def test_the_slo_margin_is_the_percentile_nearest_its_slo_over_the_slo():
    """TTFT p99 400 ms under 450 ms is 11 % under; TPOT p99 38 ms under 40 ms is 5 % under: the nearer."""
    row = pd.Series({"ttft_p99": 400.0, "tpot_p99": 38.0})
    m = cs.slo_margin(row, 450.0, 40.0)
    assert (m["slo_percentile"], m["slo_value"], m["slo"]) == ("p99 TPOT", 38.0, 40.0)
    assert m["margin"] == pytest.approx(38 / 40 - 1)


def test_runs_that_count_no_requests_have_no_completed_total():
    c = cs.failed(pd.DataFrame({"run": ["a"], "failed": [None], "completed": [None]}))
    assert c.evidence["completed_all"] is None and c.evidence["n"] == 0
    # the other way: completed counts without failure counts still give the total
    both = pd.DataFrame({"run": ["a", "b"], "failed": [None, None], "completed": [10, 20]})
    assert cs.failed(both).evidence["completed_all"] == 30


def test_runs_with_no_text_are_counted_beside_the_tpot_and_itl():
    r = pd.DataFrame({"run": ["a", "b"], "tpot_mean": [30.0, 31.0], "itl_mean": [29.0, 30.0], "no_text": [True, None]})
    assert cs.tpot_itl(r).evidence["no_text"] == 1


def test_a_mixed_precision_withholds_the_bandwidth_naming_the_mix_not_an_unstated_precision():
    # SGLang's W4AFp8: the precision is stated (int4 experts, fp8 rest), its bytes per weight are not
    lit = pd.DataFrame(
        {"run": ["a"], "in_flight": [1.0], "output_throughput": [50.0], "total_token_throughput": [50.0]}
    )
    row = serving.decode_roofline(lit, 37.0, math.nan, RTX).iloc[0]
    mixed = cs.bandwidth(row, RTX, 37.0, math.nan, precision="int4 experts, fp8 rest")
    assert mixed.status == "withheld" and "int4 experts, fp8 rest, whose shares" in mixed.reason
    # the other way: no precision known says so
    assert cs.NO_PRECISION in cs.bandwidth(row, RTX, 37.0, math.nan).reason


def test_compute_withheld_for_a_mix_of_widths_says_the_mix_not_that_no_precision_is_stated():
    """SGLang's W4AFP8 (int4 experts, fp8 rest) has no one dense peak: the reason names the mix the file
    states; a file stating no precision at all still gets "does not state"."""
    row = pd.Series({"run": "r1", "compute_fraction": math.nan, "peak_tflops": math.nan, "achieved_tflops": 592.0})
    mixed = cs.compute(row, H100, precision="int4 experts, fp8 rest")
    assert mixed.status == "withheld"
    assert "int4 experts, fp8 rest, a mix of widths" in mixed.reason and cs.NO_PRECISION not in mixed.reason
    assert cs.NO_PRECISION in cs.compute(row, H100).reason
