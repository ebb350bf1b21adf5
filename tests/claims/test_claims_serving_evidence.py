"""Evidence the serving claims carry that no sentence test pins, each on synthetic runs with a known
answer: the knee's and the bound's noise from the loads' repeats, a single repeated load as no
growth, the run noise of an underfilled count with no run near its line, an uncapped run whose
output prints no TTFT, runs that sent no token, one failed request, and the speculative run's reason."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from test_claims_serving import RTX, runs

from benchbook.analysis import serving
from benchbook.claims import serving as cs


def test_a_knee_of_repeated_loads_carries_the_repeats_spread_as_its_noise():
    kn = pd.DataFrame(
        [
            dict(knee=64.0, n=5, strength=0.6, series="m", knee_tput=900.0, top_tput=1000.0, top_x=256.0)
            | dict(el_first=0.9, el_last=0.05, repeats=3, noise=0.07, in_noise=None, knee_el=0.1, knee_el_noise=0.02)
        ]
    )
    ev = cs.knee(kn, 0.25, "max_concurrency").evidence
    assert (ev["repeats"], ev["noise"], ev["share"]) == (3, pytest.approx(0.07), pytest.approx(0.9))
    once = cs.knee(kn.assign(repeats=1), 0.25, "max_concurrency").evidence
    assert "repeats" not in once and "noise" not in once


def test_one_load_run_twice_is_no_growth_and_has_no_step_noise():
    c = cs.growth(runs([4, 4], [10.0, 11.0]).assign(x=[4, 4]), "x")
    assert c.status == "withheld" and c.evidence["repeats"] == 2 and c.evidence["tolerance"] == 0.0


def test_an_underfilled_count_with_no_run_near_its_line_keeps_the_run_noise():
    full = pd.DataFrame(
        {"run": ["a"], "max_concurrency": [8.0], "in_flight": [7.9], "utilisation": [0.99], "estimated": [False]}
    )
    ev = cs.underfilled(full).evidence
    assert ev["near"] == 0 and not ev["fragile"] and ev["noise"] == cs.RUN_NOISE


def test_an_uncapped_run_whose_output_prints_no_ttft_is_compared_without_one():
    r = runs([8.0, np.nan], [500.0, 600.0])
    x = serving.apart(r, "max_concurrency")
    ev = cs.uncapped(r[x], r[~x], 0).evidence
    assert ev["ratio"] == pytest.approx(600.0 / 500.0) and ev["ttft_s"] is None
    ev = cs.uncapped(r[x].assign(ttft_mean=2500.0), r[~x], 0).evidence
    assert ev["ttft_s"] == pytest.approx(2.5)


def test_runs_that_completed_without_a_token_are_counted_silent():
    r = pd.DataFrame(
        {
            "run": ["a", "b", "c"],
            "tpot_mean": [10.0, 10.0, 10.0],
            "itl_mean": [10.0, 10.0, 10.0],
            "no_output": [True, None, False],
        }
    )
    assert cs.tpot_itl(r).evidence["silent"] == 1
    assert cs.tpot_itl(r.drop(columns="no_output")).evidence["silent"] == 0


def test_the_bound_of_a_repeated_load_is_judged_in_its_spread_over_its_mean():
    row = pd.Series(
        {"run": "c=1", "bandwidth_fraction": 0.52, "compute_fraction": 0.01, "intensity": 2.0, "ridge": 300.0}
        | {"n": 3, "output_throughput": 1000.0, "output_throughput_sd": 20.0}
    )
    ev = cs.bound("low", row, RTX, 0.5, False).evidence
    assert ev["repeats"] == 3 and ev["noise"] == pytest.approx(0.02)
    assert not ev["fragile"]  # 4 % over the threshold, outside a 2 % spread (inside the 5 % run noise)
    ev = cs.bound("low", row.drop(["n"]), RTX, 0.5, False).evidence
    assert ev["noise"] == cs.RUN_NOISE and ev["fragile"]


def test_one_failed_request_is_a_run_with_failures():
    r = pd.DataFrame({"run": ["a", "b", "c"], "failed": [1.0, 0.0, math.nan], "completed": [99.0, 100.0, 100.0]})
    ev = cs.failed(r).evidence
    assert (ev["count"], ev["n"], ev["run"], ev["run_sent"]) == (1, 2, "a", 100.0)


def test_a_speculative_run_without_an_acceptance_length_says_its_traffic_is_unknown():
    row = pd.Series({"run": "a", "in_flight": 4.0, "bandwidth_fraction": 0.3, "speculative": "eagle"})
    c = cs.bandwidth(row, RTX, 8.0, 2.0)
    assert c.status == "withheld"
    assert c.reason.endswith("the steps per second, and the weight traffic, are unknown")
    assert cs.bandwidth(pd.Series({**row, "tokens_per_step": 2.5}), RTX, 8.0, 2.0).shown


def test_the_knee_holds_the_requests_in_flight_of_its_one_load():
    kn = pd.DataFrame(
        [
            dict(knee=4.0, n=4, strength=0.6, series="m", knee_tput=90.0, top_tput=100.0, top_x=8.0)
            | dict(el_first=0.9, el_last=0.05)
        ]
    )
    queue = dict(w0_s=0.1, w0_run="c=1", mu=40.0, mu_run="c=8", knee_in_flight=4.0)
    queue |= dict(x=[1.0, 2.0, 4.0, 8.0], in_flight=[1.0, 2.0, 3.9, 7.5], rate=[10.0, 20.0, 39.0, 40.0])
    ev = cs.knee(kn, 0.25, "max_concurrency", queue=queue).evidence
    assert (ev["knee_in_flight"], ev["knee_rate"], ev["predicted_in_flight"]) == (3.9, 39.0, 4.0)


def test_one_run_per_load_grows_with_no_tolerance_and_tpot_itl_names_its_factor():
    ev = cs.growth(runs([1, 2, 4], [10.0, 20.0, 40.0]).assign(x=[1, 2, 4]), "x").evidence
    assert ev["tolerance"] == 0.0 and ev["noise"] == cs.RUN_NOISE
    calm = pd.DataFrame({"run": ["a"], "tpot_mean": [30.0], "itl_mean": [29.0]})
    assert cs.tpot_itl(calm).evidence["factor"] == cs.TPOT_OVER_ITL


def test_the_best_load_of_each_series_takes_its_noise_over_the_runner_up():
    """Two series (models m and n), three loads each, two runs per load: in m the best load A has mean
    goodput 11 (sd sqrt 2), the runner-up B 6 (sd sqrt 2), C 2: the noise is sqrt(2 + 2) / 6 = 1/3, over
    the runner-up's goodput, not the third's."""
    gb = pd.DataFrame(
        {
            "run": ["A", "A", "B", "B", "C", "C"] * 2,
            "model": ["m"] * 6 + ["n"] * 6,
            "max_concurrency": [8.0, 8.0, 16.0, 16.0, 32.0, 32.0] * 2,
            "request_rate": [math.inf] * 12,
            "goodput_lo": [10.0, 12.0, 5.0, 7.0, 1.0, 3.0] * 2,
            "share_lo": [0.5] * 12,
            "request_throughput": [20.0] * 12,
        }
    )
    ev = cs.goodput(gb).evidence
    assert ev["series"] == 2 and len(ev["per_series"]) == 2
    best = ev["per_series"][0]
    assert (best["choice"], best["runner_up"]) == ("A", "B")
    assert math.isclose(best["noise"], 1 / 3)
