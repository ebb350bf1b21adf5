"""serving_saturation with repeated runs of one load: means with their spread, the spread as the noise of
the knee, the growth and the best load, and the page saying how many repeats each load has."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from benchbook import config
from benchbook.analysis import serving
from benchbook.claims import Ledger, rules
from benchbook.claims import serving as cs
from benchbook.ingest import vllm_serve
from benchbook.presentation import serving as show
from benchbook.presentation import wording

SWEEP = config.FIXTURES_DIR / "vllm-bench-serve" / "synthetic_sweep"
CAPS = [1, 2, 4, 8]
MEANS = [100.0, 200.0, 400.0, 440.0]  # 4 -> 8: elasticity 0.1, 60 tok/s short of the 0.25 threshold's gain


def repeated(spread: dict, means=MEANS, caps=CAPS, **cols) -> pd.DataFrame:
    """Two repeats per cap at mean +- spread[cap] (sample sd = spread * sqrt(2)), in file order."""
    rows = []
    for c, m in zip(caps, means, strict=True):
        for i, sign in enumerate((-1, 1)):
            rows.append(dict(source=f"c{c}/run={i}.json", run=f"c={c}", output_throughput=m + sign * spread.get(c, 0)))
            rows[-1].update({k: v[caps.index(c)] for k, v in cols.items()})
    d = pd.DataFrame(rows)
    return d.assign(
        max_concurrency=d["run"].str[2:].astype(float), request_rate=math.inf, model="m", order=range(len(d))
    )


def knee_claim(r: pd.DataFrame):
    kn = serving.knees(r, "max_concurrency", 0.25)
    return wording.word("serving_saturation", cs.knee(kn, 0.25, "max_concurrency", int(r["max_concurrency"].nunique())))


# --- the knee ----------------------------------------------------------------------------------------------


def test_a_step_inside_the_repeats_noise_is_no_knee():
    noisy = repeated({4: 50, 8: 50})  # sd 70.7 each: the step's noise is 100 tok/s > its 60 tok/s shortfall
    kn = serving.knees(noisy, "max_concurrency", 0.25).iloc[0]
    assert kn["knee"] is None and kn["in_noise"] == 4 and kn["repeats"] == 2
    assert kn["el_last"] == pytest.approx(0.1)  # on the means, not on adjacent repeats
    c = knee_claim(noisy)
    assert c.status == "withheld" and c.evidence["in_noise"] == 4
    assert "after max concurrency 4 only within the spread of the repeats" in c.text and "never falls" not in c.text


def test_the_same_step_with_tiny_noise_is_a_knee():
    calm = repeated({4: 1, 8: 1})  # the step's noise is 2 tok/s
    kn = serving.knees(calm, "max_concurrency", 0.25).iloc[0]
    assert kn["knee"] == 4 and kn["in_noise"] is None and kn["knee_tput"] == 400 and kn["top_tput"] == 440
    c = knee_claim(calm)
    assert c.status == "shown" and c.evidence["x"] == 4 and c.evidence["repeats"] == 2
    assert "throughput stops paying after max concurrency 4" in c.text and "by more than the repeats' spread" in c.text


def test_knee_rule_on_means_with_spread():
    assert serving.knee(CAPS, MEANS, 0.25) == 4
    assert serving.knee(CAPS, MEANS, 0.25, sd=[0, 0, 42, 42]) == 4  # noise 59.4 tok/s: under the 60 tok/s shortfall
    assert serving.knee(CAPS, MEANS, 0.25, sd=[0, 0, 43, 43]) is None  # 60.8 tok/s: the shortfall is inside it


def test_one_run_per_load_keeps_the_single_run_rule_and_wording():
    single = repeated({}).drop_duplicates("run")
    kn = serving.knees(single, "max_concurrency", 0.25).iloc[0]
    assert kn["knee"] == 4 and kn["repeats"] == 1 and kn["noise"] == 0.0
    c = knee_claim(single)
    assert c.status == "shown" and "repeats" not in c.evidence and "noise" not in c.evidence
    assert "repeats" not in c.text and "repeats" not in c.rule
    assert show.repeats_sentence(single) == "" and show.curve_note(single, "max_concurrency") == ""


# --- growth and the best load ------------------------------------------------------------------------------


def test_growth_step_inside_the_noise_is_withheld_and_shown_when_tiny():
    flat = [100.0, 200.0, 400.0, 404.0]  # the last step gains 1 %
    noisy = wording.word("serving_saturation", cs.growth(repeated({4: 5, 8: 5}, means=flat), "max_concurrency"))
    assert noisy.status == "withheld" and noisy.evidence["ys"] == flat
    assert noisy.evidence["tolerance"] == pytest.approx(5 * math.sqrt(2) / 200)  # the largest: 2 -> 4
    calm = wording.word("serving_saturation", cs.growth(repeated({4: 0.5, 8: 0.5}, means=flat), "max_concurrency"))
    assert calm.status == "shown" and "by more than their spread" in calm.text and calm.evidence["xs"] == CAPS


def test_best_load_uses_the_repeats_spread_as_noise():
    caps, means = [16, 64], [10.0, 9.8]  # 2 % apart: inside the 5 % assumed for single runs
    share, rate = [0.9, 0.9], [11.0, 10.9]

    def gb(spread):
        r = repeated(spread, means=means, caps=caps, share_lo=share, request_throughput=rate)
        return r.rename(columns={"output_throughput": "goodput_lo"})

    single = cs.goodput(gb({}).drop_duplicates("run"))
    assert single.status == "withheld" and single.evidence["noise"] == cs.RUN_NOISE
    calm = wording.word("serving_saturation", cs.goodput(gb({16: 0.01, 64: 0.01})))
    assert calm.status == "shown" and calm.evidence["choice"] == "c=16" and calm.evidence["value"] == 10.0
    assert calm.evidence["noise"] == pytest.approx(np.hypot(0.01, 0.01) * math.sqrt(2) / 9.8)
    assert "on the mean of its 2 repeats, at least 10.0 req/s" in calm.text
    noisy = cs.goodput(gb({16: 0.5, 64: 0.5}))
    assert noisy.status == "withheld" and "inside the noise" in noisy.reason


# --- the vLLM sweep fixture: two repeats per concurrency ---------------------------------------------------


@pytest.fixture(scope="module")
def sweep():
    files, _ = vllm_serve.sweep_files(SWEEP)
    r, _ = serving.load(files)
    return r.assign(x=serving.sweep_x(r, "max_concurrency"))


def test_sweep_loads_are_the_means_of_their_repeats(sweep):
    lv = serving.per_load(sweep)
    assert list(lv["x"]) == [1, 4, 16, 64] and set(lv["n"]) == {2}
    first = lv.iloc[0]
    assert first["output_throughput"] == pytest.approx((141.6 + 139.8) / 2)
    assert first["output_throughput_sd"] == pytest.approx(abs(141.6 - 139.8) / math.sqrt(2))
    assert list(serving.repeats(sweep)) == [2, 2, 2, 2]


def test_sweep_knee_growth_and_best_load(sweep):
    kn = serving.knees(sweep, "max_concurrency", 0.25).iloc[0]
    assert kn["el_first"] == pytest.approx((521.05 - 140.7) / 140.7 / 3)  # not (518.2 - 141.6) / 141.6 / 3
    assert kn["knee"] == 16 and kn["knee_tput"] == pytest.approx((1702.5 + 1688.1) / 2)
    led = Ledger("serving_saturation", ["sweep"])
    led.add(cs.knee(serving.knees(sweep, "max_concurrency", 0.25), 0.25, "max_concurrency", 4))
    led.add(cs.growth(sweep, "max_concurrency"))
    led.add(cs.goodput(serving.goodput_bounds(sweep, 450.0, 40.0)))
    led = wording.ledger(led.chapter, led.inputs, led.claims)
    assert rules.check(led.to_dict()) == []
    assert [c.status for c in led.claims] == ["shown", "shown", "shown"]
    best = led.get("goodput").evidence
    assert best["choice"] == "max_num_seqs=128, max_concurrency=16" and best["repeats"] == 2


def test_sweep_page_says_how_many_repeats(sweep):
    text = show.curve_note(sweep, "max_concurrency")
    assert text.startswith("2 repeats per load; error bars are ± one standard deviation.")
    mixed = pd.concat([sweep, sweep.iloc[[0]]], ignore_index=True)
    assert show.repeats_sentence(mixed).startswith("2 to 3 repeats per load;")


def test_sweep_figure_draws_means_with_error_bars_and_each_repeat(sweep):
    fig = show.plot_saturation(sweep, sweep.iloc[0:0], "max_concurrency")
    ax = fig.axes[0]
    bars = {c.get_label(): c for c in ax.containers}
    mean = bars["output tok/s, Llama-3.1-8B-Instruct (mean ± 1 sd)"].lines[0]
    assert list(mean.get_ydata()) == pytest.approx([140.7, 521.05, 1695.3, 2307.65])
    assert "total tok/s, Llama-3.1-8B-Instruct (mean ± 1 sd)" in bars
    each = {ln.get_label(): ln for ln in ax.get_lines()}["output tok/s, each repeat"]
    assert len(each.get_ydata()) == 8 and each.get_alpha() < 1


def test_runs_at_one_load_with_different_labels_are_not_repeats():
    """SGLang before/after pairs pasted in one PR: the same rate, two configurations, two labels."""
    r = repeated({4: 50, 8: 50}).assign(run=lambda d: d["run"] + [", before", ", after"] * 4)
    assert set(serving.repeats(r)) == {1} and show.repeats_sentence(r) == ""
    kn = serving.knees(r, "max_concurrency", 0.25).iloc[0]
    assert kn["repeats"] == 1 and kn["noise"] == 0.0 and "repeats" not in knee_claim(r).evidence


def test_sweep_roofline_claims_average_the_repeats(sweep):
    from benchbook.analysis import roofline

    pk = roofline.choose("H100-SXM5-80GB", [])
    rl = serving.decode_roofline(serving.littles_law(sweep), 8.0, 2.0, pk)
    lv = serving.per_load(rl, serving.ROOFLINE_MEANS)
    low = lv.sort_values("x").iloc[0]
    assert low["n"] == 2 and low["bandwidth_fraction"] == pytest.approx(rl["bandwidth_fraction"].iloc[:2].mean())
    c = wording.word("serving_saturation", cs.bandwidth(low, pk, 8.0, 2.0))
    assert c.status == "shown" and c.evidence["repeats"] == 2 and c.text.startswith("Averaging this load's 2 repeats")
    one = wording.word(
        "serving_saturation", cs.bandwidth(rl.sort_values("x").iloc[0], pk, 8.0, 2.0)
    )  # a single run: no repeats said
    assert "repeats" not in one.evidence and "repeats" not in one.text


def test_uncapped_run_against_the_best_loads_mean_and_spread():
    def with_uncapped(spread):
        r = repeated(spread, means=[300.0, 400.0, 480.0, 500.0])
        burst = dict(source="burst.json", run="c=max", output_throughput=510.0, max_concurrency=np.nan)
        r = pd.concat([r, pd.DataFrame([burst]).assign(request_rate=math.inf, model="m", order=len(r))])
        r["ttft_mean"] = 100.0
        away = serving.apart(r, "max_concurrency")
        return wording.word("serving_saturation", cs.uncapped(r[away], r[~away], 0))

    calm = with_uncapped({8: 1})  # 2 % above the best load's mean of 500, whose spread is 0.3 %
    assert calm.status == "shown" and calm.evidence["b"] == 500.0 and calm.evidence["repeats"] == 2
    assert "best load of its series on the curve (a mean of 2 repeats: 500 tok/s" in calm.text
    noisy = with_uncapped({8: 20})  # spread 28 tok/s: 5.7 % of 500
    assert noisy.status == "withheld" and noisy.evidence["noise"] == pytest.approx(20 * math.sqrt(2) / 500)


def test_runs_whose_output_does_not_print_the_cap_are_never_one_load():
    """Two GuideLLM `concurrent` runs whose streams the console leaves out: their caps are unknown, so
    nothing says they share a load; two runs with no cap at all (recorded as none) do."""
    rows = pd.DataFrame({"max_concurrency": [float("nan")] * 2, "request_rate": [float("inf")] * 2})
    assert not serving.one_load(rows.assign(max_concurrency_recorded=[False, False]))
    assert serving.one_load(rows.assign(max_concurrency_recorded=[True, True]))
