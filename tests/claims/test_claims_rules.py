"""Each claim rule on evidence with a known answer, at both sides of every boundary, with the exact
reason a reader sees (mutation testing, benchmarks/mutation/README.md, found these unpinned)."""

from __future__ import annotations

import math

import pytest

from benchbook.claims import Claim, Ledger, _plain, from_notebook, make, rules
from benchbook.claims.rules import DEFAULT_SUSPECTS, check, judge

LIKELY = "; ".join(DEFAULT_SUSPECTS)
FOP = {"fraction": 0.5, "peak": 100.0, "device": "X"}


@pytest.mark.parametrize(
    ("ev", "expected"),
    [
        (FOP, ("shown", "")),
        ({**FOP, "fraction": 0.0}, ("shown", "")),
        ({**FOP, "fraction": -0.1}, ("withheld", "a negative fraction of a peak is not a measurement")),
        ({**FOP, "fraction": 1.05}, ("implausible", f"105% of the peak is beyond physics; likely: {LIKELY}")),
        ({**FOP, "fraction": 1.05, "tolerance": 0.1}, ("shown", "")),
        (
            {**FOP, "fraction": 1.5, "suspects": ["a", "b"]},
            ("implausible", "150% of the peak is beyond physics; likely: a; b"),
        ),
        ({**FOP, "peak_source": "parameter"}, ("shown", "")),
        (
            {**FOP, "streaming": True, "active_params_b": 7.0},
            ("withheld", "the input does not give the bytes moved per token"),
        ),
        (
            {"peak": 1.0, "device": "X", "streaming": True, "bytes_per_token": 2.0, "rel_x": None},
            ("withheld", "the input does not give the measurement to compare with the peak and the model's size"),
        ),
        (
            {**FOP, "fraction": float("nan")},
            ("withheld", "the input does not give the measurement to compare with the peak"),
        ),
    ],
)
def test_fraction_of_peak(ev, expected):
    assert judge("fraction_of_peak", ev) == expected


def test_a_missing_field_without_a_phrase_is_named_by_its_words():
    assert (
        rules._missing_reason(["rel_uncertainty", "peak"])
        == "the input does not give rel uncertainty and the device's peak"
    )


def test_missing_fields_are_listed_with_and_before_the_last():
    assert rules._missing_reason(["peak"]) == "the input does not give the device's peak"
    assert (
        rules._missing_reason(["fraction", "device", "peak"])
        == "the input does not give the measurement to compare with the peak, the device and the device's peak"
    )


@pytest.mark.parametrize(
    ("value", "expected"),
    [(True, None), (None, None), ("2.5", 2.5), ("x", None), ("inf", None), (float("nan"), None), (3, 3.0)],
)
def test_evidence_numbers(value, expected):
    assert rules._num({"k": value}, "k") == expected


def _bv(**ev):
    return rules.bound_verdict({"threshold": 0.5, **ev})


def test_bound_verdict_at_each_boundary():
    assert rules.bound_verdict({"bandwidth_fraction": 0.9}) == "unknown"  # no threshold
    assert rules.bound_verdict({"threshold": None, "bandwidth_fraction": 0.9}) == "unknown"
    assert _bv() == "unknown"
    assert _bv(compute_fraction=0.9, intensity=100, ridge=10) == "compute"  # bandwidth unknown
    assert _bv(bandwidth_fraction=0.9, intensity=None, ridge=10) == "memory-bandwidth"
    assert _bv(bandwidth_fraction=0.9, intensity=5, ridge=None) == "memory-bandwidth"
    assert _bv(bandwidth_fraction=0.9, compute_fraction=0.9, intensity=10, ridge=10) == "memory-bandwidth"  # on it
    assert _bv(bandwidth_fraction=0.9, compute_fraction=0.9, intensity=11, ridge=10) == "compute"
    assert _bv(bandwidth_fraction=0.5) == "memory-bandwidth"  # at the threshold
    assert _bv(bandwidth_fraction=0.49) == "unknown"
    assert _bv(compute_fraction=0.5, intensity=11, ridge=10) == "compute"
    assert _bv(bandwidth_fraction=0.5, compute_fraction=0.2, intensity=11, ridge=10) == "unknown"
    assert _bv(bandwidth_fraction=0.2, compute_fraction=0.5, intensity=5, ridge=10) == "unknown"
    assert _bv(bandwidth_fraction=0.2, compute_fraction=0.2) == "overhead"


@pytest.mark.parametrize(
    ("ev", "expected"),
    [
        ({"bandwidth_fraction": 1.0, "threshold": 0.5}, ("shown", "")),
        (
            {"bandwidth_fraction": 1.2, "threshold": 0.5},
            ("implausible", f"bandwidth_fraction 120% is beyond physics; likely: {LIKELY}"),
        ),
        (
            {"compute_fraction": 1.2, "threshold": 0.5},
            ("implausible", f"compute_fraction 120% is beyond physics; likely: {LIKELY}"),
        ),
        ({"bandwidth_fraction": 1.0, "threshold": 1}, ("shown", "")),
        ({"bandwidth_fraction": 0.9, "threshold": 1.5}, ("withheld", "no valid threshold (a fraction in (0, 1])")),
        ({"bandwidth_fraction": 0.9, "threshold": 0}, ("withheld", "no valid threshold (a fraction in (0, 1])")),
        (
            {"bandwidth_fraction": 0.9, "threshold": 0.5, "intensity": 20, "ridge": 10},
            ("withheld", "neither peak fraction is large enough, or known, to name the limit"),
        ),
        ({"bandwidth_fraction": None, "threshold": 0.5, "device": None}, ("withheld", rules.NO_DEVICE)),
    ],
)
def test_bound(ev, expected):
    assert judge("bound", ev) == expected


def test_winner_set_without_a_best_is_empty():
    assert rules.winner_set({"candidates": ["a", "b"], "best": None, "alpha": 0.05, "p_values": {"a": 0.5}}) == ["a"]
    ev = {"candidates": ["a", "b", "c"], "best": "a", "alpha": 0.05, "p_values": {"b": 0.05, "c": 0.049}}
    assert rules.winner_set(ev) == ["a", "b"]


WIN = {"candidates": ["a", "b"], "best": "a", "alpha": 0.05, "p_values": {"b": 0.2}}


@pytest.mark.parametrize(
    ("ev", "expected"),
    [
        (WIN, ("shown", "")),
        ({**WIN, "alpha": 1}, ("withheld", "no valid significance level alpha in (0, 1)")),
        ({**WIN, "candidates": ["a"]}, ("withheld", "fewer than two candidates measured")),
        ({**WIN, "best": "z"}, ("withheld", "no best candidate")),
        (
            {**WIN, "candidates": ["a", "b", "c", "d"], "p_values": {"c": 0.1}},
            ("withheld", "too few repeated runs to test b, d against the best"),
        ),
    ],
)
def test_winner(ev, expected):
    assert judge("winner", ev) == expected


KNEE = {"n_points": 4, "min_points": 4, "x": 8, "strength": 0.3, "min_strength": 0.3}


@pytest.mark.parametrize(
    ("ev", "expected"),
    [
        (KNEE, ("shown", "")),
        ({**KNEE, "n_points": None}, ("withheld", "the curve has no points and the rule needs at least 4")),
        ({**KNEE, "n_points": 1}, ("withheld", "the curve has 1 point and the rule needs at least 4")),
        (
            {**KNEE, "n_points": 2, "min_points": 3},
            ("withheld", "the curve has 2 points and the rule needs at least 3"),
        ),
        (
            {**KNEE, "n_points": 3, "min_points": None},
            ("withheld", "the curve has 3 points and the rule needs at least 4"),
        ),
        ({**KNEE, "x": None}, ("withheld", "the rule finds no point on this curve")),
        ({**KNEE, "strength": None}, ("withheld", "the curve bends too little to call any point a knee")),
        ({**KNEE, "strength": 0.29}, ("withheld", "the curve bends too little to call any point a knee")),
    ],
)
def test_knee(ev, expected):
    assert judge("knee", ev) == expected


@pytest.mark.parametrize(
    ("xs", "ys", "tol", "expected"),
    [
        ([1, 2, 3], [3, 2], 0, "falls"),  # unequal lengths: the pairs that exist
        ([1, 2, None], [1, 2, 5], 0, "rises"),
        ([1, 2, 3], [1, None, 0], 0, "falls"),
        ([1, 2], [0, 0.5], 0, "rises"),  # a zero start: the absolute step
        ([1, 2], [0, -0.5], 0, "falls"),
        ([1, 2, 3], [0, 0, 1], 0, "mixed"),
        ([1, 2], [2.0, 1.9], 0.05, "falls"),
        ([1, 2], [2.0, 1.9], 0.1, "flat"),  # a step of exactly the tolerance is flat
        ([1, 2], [2.0, 2.25], 0.125, "flat"),
        ([1, 2], [2.0, 1.75], 0.125, "flat"),
        ([1, 2], [2.0, 2.3], 0.1, "rises"),
        ([1], [2.0], 0, "mixed"),
        ([3, 1, 2], [1, 3, 2], 0, "falls"),  # in x order
    ],
)
def test_trend(xs, ys, tol, expected):
    assert rules.trend({"xs": xs, "ys": ys, "tolerance": tol}) == expected


@pytest.mark.parametrize(
    ("ev", "expected"),
    [
        ({"xs": [1, 2, 3], "ys": [3, 2, 1], "direction": "falls"}, ("shown", "")),
        (
            {"xs": [1, 2, 3], "ys": [3, 2, None], "direction": "falls"},
            ("withheld", "2 points; a trend needs at least 3"),
        ),
        (
            {"xs": [1, 2, 3], "ys": [3, None, None], "direction": "falls"},
            ("withheld", "1 point; a trend needs at least 3"),
        ),
        (  # the reason says what the trend counts as a point, where its evidence names it
            {"xs": [], "ys": [], "direction": "rises", "point_is": "a dense model's share of its peak"},
            ("withheld", "0 points (a dense model's share of its peak); a trend needs at least 3"),
        ),
        ({"xs": [1, 2], "ys": [3, 2], "direction": "falls", "min_points": 2}, ("shown", "")),
        (
            {"xs": [1, 2, 3], "ys": [3, 2, 1], "direction": "falls", "min_points": 4},
            ("withheld", "3 points; a trend needs at least 4"),
        ),
        ({"xs": [1, 2, 3], "ys": [1, 2, 3], "direction": "falls"}, ("withheld", "the values rise at every step")),
        ({"xs": [1, 2, 3, 4], "ys": [3, 2, 1], "direction": "falls"}, ("shown", "")),  # the pairs that exist
        (  # three runs at one load (repeats under different labels): sorted by value they would "rise"
            {"xs": [10, 10, 10], "ys": [478, 664, 724], "direction": "rises"},
            ("withheld", "3 values at 1 point, several at 10: values at one point are not steps"),
        ),
        (
            {"xs": [1, 2, 2, 3], "ys": [1, 2, 3, 4], "direction": "rises"},
            ("withheld", "4 values at 3 points, several at 2: values at one point are not steps"),
        ),
    ],
)
def test_scaling(ev, expected):
    assert judge("scaling", ev) == expected


def test_anomaly_recommendation_comparison_energy():
    assert judge("anomaly", {"n": 0, "count": 1}) == ("withheld", "nothing to check")
    assert judge("anomaly", {"n": 5, "count": 0}) == ("withheld", "no instance found")
    assert judge("anomaly", {"n": 5, "count": 1}) == ("shown", "")
    rec = {"choice": "a", "value": 110.0, "runner_up": "b", "runner_up_value": 100.0, "noise": 0.05}
    assert judge("recommendation", rec) == ("shown", "")
    assert judge("recommendation", {**rec, "choice": None}) == ("withheld", "no option has a value to rank by")
    assert judge("recommendation", {**rec, "value": None}) == ("withheld", "no option has a value to rank by")
    only = ("withheld", "only one option has a nonzero value to rank by: nothing to choose between")
    assert judge("recommendation", {**rec, "runner_up_value": 0.0}) == only
    assert judge("recommendation", {**rec, "runner_up": None}) == only
    assert judge("recommendation", {**rec, "value": 1.0, "runner_up_value": 1.0, "noise": None}) == (
        "withheld",
        "the best and the runner-up differ by 0.0%, inside the noise (0.0%)",
    )
    assert judge("recommendation", {**rec, "value": 1.5, "runner_up_value": 1.0, "noise": None}) == ("shown", "")
    exact = {**rec, "value": 1.125, "runner_up_value": 1.0, "noise": 0.125}  # a margin of exactly the noise
    assert judge("recommendation", exact)[0] == "withheld"
    cmp = {"a": 2.0, "b": 1.0, "noise": 0.1}
    assert judge("comparison", cmp) == ("shown", "")
    assert judge("comparison", {**cmp, "a": None}) == ("withheld", "one side of the comparison is missing")
    assert judge("comparison", {**cmp, "b": None}) == ("withheld", "one side of the comparison is missing")
    assert judge("comparison", {**cmp, "b": 0}) == ("withheld", "one side of the comparison is missing")
    assert judge("comparison", {**cmp, "a": 1.05}) == ("withheld", "the difference (+5.0%) is within the noise (10.0%)")
    assert judge("comparison", {**cmp, "a": 1.125, "noise": 0.125})[0] == "withheld"  # exactly the noise
    energy = {"joules_per_token": 0.5, "power_source": "measured"}
    assert judge("energy_bound", energy) == ("shown", "")
    assert judge("energy_bound", {**energy, "power_source": "limit"}) == ("shown", "")
    assert judge("energy_bound", {**energy, "joules_per_token": 0.0}) == (
        "withheld",
        "no energy per token can be formed (power or rate missing)",
    )
    assert judge("energy_bound", {**energy, "power_source": "guess"}) == (
        "withheld",
        "the power figure's origin is not stated",
    )
    with pytest.raises(ValueError, match="unknown claim kind 'nope'"):
        judge("nope", {})


def _claim(**kw):
    base = {
        "id": "c1",
        "kind": "anomaly",
        "status": "shown",
        "rule": "r",
        "evidence": {"n": 5, "count": 1},
        "text": "One.",
    }
    return {**base, **kw}


def test_check_names_each_problem_exactly():
    ok = {"chapter": "ch", "claims": [_claim()]}
    assert check(ok) == []
    assert check({"claims": [_claim()]}) == []
    assert check({"chapter": "ch", "claims": [_claim(kind="nope"), _claim(id="c2", status="withheld")]}) == [
        "ch:c1: unknown kind 'nope'",
        "ch:c2: status 'withheld' but the rule gives 'shown'",
        "ch:c2: withheld with no reason",
    ]
    assert check({"claims": [_claim(evidence={"n": 5})]}) == [
        "?:c1: evidence lacks count",
        "?:c1: status 'shown' but the rule gives 'withheld'",
    ]
    assert check({"chapter": "ch", "claims": [_claim(kind="comparison", evidence={})]})[0] == (
        "ch:c1: evidence lacks a, b, ratio, noise"
    )
    assert check({"chapter": "ch", "claims": [_claim(status="implausible", reason="why")]}) == [
        "ch:c1: status 'implausible' but the rule gives 'shown'"
    ]
    assert check({"chapter": "ch", "claims": [_claim(text="NaN tokens/s")]}) == [
        "ch:c1: the sentence prints a missing value: 'NaN tokens/s'"
    ]
    assert check({"chapter": "ch", "claims": [_claim(text="`nan`")]}) == []  # a code span quotes the input
    assert check({"chapter": "ch", "claims": [_claim(text="`x`nan")]}) == [
        "ch:c1: the sentence prints a missing value: '`x`nan'"
    ]  # the span is removed, not replaced by a word that would hide what follows it
    assert check({"chapter": "ch"}) == []
    assert check({"chapter": "ch", "claims": [_claim(text="")]}) == ["ch:c1: no sentence"]
    assert check({"chapter": "ch", "claims": [_claim(text=None)]}) == ["ch:c1: no sentence"]
    bad_winners = _claim(kind="winner", evidence={**WIN, "metric": "m", "winners": ["a"]})
    assert check({"chapter": "ch", "claims": [bad_winners]}) == ["ch:c1: winners ['a'] but the rule gives ['a', 'b']"]


def test_claims_and_ledgers_round_trip():
    c = make("c1", "anomaly", "rule text", {"n": 5, "count": 0})
    assert (c.id, c.kind, c.status, c.rule, c.reason) == ("c1", "anomaly", "withheld", "rule text", "no instance found")
    w = make("c2", "anomaly", "r", {"n": 5, "count": 1}).withhold("the sentence needs a value")
    assert w == Claim("c2", "anomaly", "withheld", "r", {"n": 5, "count": 1}, "the sentence needs a value", "")
    ledger = Ledger("ch", ["a.txt"])
    ledger.extend([c, w])
    assert ledger.get("c2") is w
    with pytest.raises(KeyError, match="'zz'"):
        ledger.get("zz")
    with pytest.raises(ValueError, match="claim id 'c1' used twice in ch"):
        ledger.add(c)
    assert ledger.to_json().startswith('{\n "chapter": "ch",\n "inputs": [\n  "a.txt"\n ],')
    again = Ledger.from_dict(ledger.to_dict())
    assert again == ledger
    assert Ledger.from_dict({"chapter": "x"}) == Ledger("x", [], [])
    with pytest.raises(ValueError, match="unknown claim kind 'k'"):
        Claim("i", "k", "shown", "r", {})
    with pytest.raises(ValueError, match="unknown claim status 's'"):
        Claim("i", "anomaly", "s", "r", {})
    late = Claim("i", "anomaly", "shown", "r", {"x": math.inf})
    assert late.evidence == {"x": None}
    late.evidence["x"] = math.inf  # set after the check: the JSON writer still refuses it
    with pytest.raises(ValueError):
        Ledger("ch", [], [late]).to_json()


def test_plain_evidence():
    import numpy as np

    assert _plain({"a": np.float64(1.5), 2: [np.int64(3), float("nan")], "s": "text"}) == {
        "a": 1.5,
        "2": [3, None],
        "s": "text",
    }
    assert type(_plain(np.int64(3))) is int
    assert _plain(np.array([1.0, 2.0])).tolist() == [1.0, 2.0]  # an array is left as it is, not made a scalar


def test_the_ledger_a_notebook_published_last():
    mime = "application/vnd.benchbook.claims+json"
    nb = {
        "cells": [
            {"outputs": [{"data": {mime: {"chapter": "a"}}}]},
            {},
            {"outputs": None},
            {"outputs": [{"data": {mime: {"chapter": "b"}}}]},
        ]
    }
    assert from_notebook(nb) == {"chapter": "b"}
    assert from_notebook({}) is None
    assert from_notebook({"cells": [{"outputs": [{}]}]}) is None


# --- the noise rule -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "noise", "expected"),
    [
        (103.0, 100.0, 0.05, rules.WITHIN),  # a 3 % step inside a 5 % band is not a step
        (106.0, 100.0, 0.05, rules.ABOVE),
        (94.0, 100.0, 0.05, rules.BELOW),
        (105.0, 100.0, 0.05, rules.WITHIN),  # at the band: inside
        (100.0, 100.0, None, rules.WITHIN),
        (100.1, 100.0, None, rules.ABOVE),  # no noise figure: any difference counts
        (None, 100.0, 0.05, None),
        (1.0, 0.0, 0.05, None),
        (-6.0, -10.0, 0.1, rules.ABOVE),  # relative to |b|
    ],
)
def test_versus_judges_a_difference_by_its_noise(a, b, noise, expected):
    assert rules.versus(a, b, noise) == expected


def test_relative_noise_combines_two_standard_deviations():
    assert rules.relative_noise(3.0, 4.0, 100.0) == pytest.approx(0.10)
    assert rules.relative_noise(3.0, None, 100.0, k=1) == pytest.approx(0.03)
    assert rules.relative_noise(3.0, 4.0, 0.0) is None and rules.relative_noise(3.0, 4.0, None) is None


def test_margin_is_fragile_inside_the_noise():
    assert rules.margin(0.51, 0.5, 0.05) == {"margin": pytest.approx(0.02), "fragile": True}
    assert rules.margin(0.51, 0.5, 0.01) == {"margin": pytest.approx(0.02), "fragile": False}
    assert rules.margin(0.45, 0.5, 0.05)["fragile"] is False  # -10 %: outside a 5 % band
    assert rules.margin(None, 0.5, 0.05) == {} and rules.margin(0.5, 0.0) == {}


def test_a_trend_step_inside_its_noise_is_not_a_step():
    ev = {"xs": [1, 2, 4], "ys": [100.0, 103.0, 110.0], "direction": "rises", "min_points": 3}
    assert rules.trend(ev) == "rises"
    assert rules.trend({**ev, "noise": 0.05}) == "mixed"  # the 3 % step is inside 5 %
    assert rules.trend({**ev, "noise": [0.02, 0.05]}) == "rises"  # per step, in x order
    assert rules.trend({**ev, "noise": [0.05, 0.02]}) == "mixed"
    assert rules.trend({**ev, "noise": [0.05, 0.1]}) == "flat"
    assert rules.trend({**ev, "noise": 0.01, "tolerance": 0.04}) == "mixed"  # the larger of the two
    assert judge("scaling", {**ev, "noise": 0.05}) == (
        "withheld",
        "the step from 1 to 2 (+3%) is inside its noise (5%)",
    )
    assert judge("scaling", {**ev, "ys": [100.0, 90.0, 110.0]})[1] == "the values go up and down"
    assert make("t", "scaling", "r", {**ev, "noise": 0.05}).evidence["trend"] == "mixed"


def test_a_bound_at_its_threshold_states_its_margin_and_is_fragile_inside_the_noise():
    ev = {"bandwidth_fraction": 0.91, "compute_fraction": 0.01, "intensity": 1, "ridge": 150, "threshold": 0.5}
    c = make("b", "bound", "r", {**ev, "noise": 0.05})
    assert c.evidence["margin"] == pytest.approx(0.82) and c.evidence["fragile"] is False
    near = make("b", "bound", "r", {**ev, "bandwidth_fraction": 0.51, "noise": 0.05})
    assert near.status == "shown" and near.evidence["fragile"] is True
    under = make("b", "bound", "r", {**ev, "bandwidth_fraction": 0.49, "noise": 0.05})
    # overhead decided by the nearer fraction: 0.49 is 2 % under the threshold, inside the noise
    assert under.evidence["verdict"] == "overhead" and under.evidence["fragile"] is True
    assert under.evidence["margin"] == pytest.approx(-0.02)
    led = {"chapter": "x", "claims": [{**near.to_dict(), "text": "t", "evidence": {**near.evidence, "fragile": False}}]}
    assert check(led) == ["x:b: fragile False but the rule gives True"]


def test_a_step_below_every_devices_ridge_is_not_compute_bound_whatever_the_device():
    ev = {
        "bandwidth_fraction": None,
        "compute_fraction": None,
        "threshold": 0.5,
        "intensity": 1.0,
        "lowest_ridge": 12.0,
    }
    assert rules.bound_verdict(ev) == rules.NOT_COMPUTE and judge("bound", ev) == ("shown", "")
    assert rules.bound_verdict({**ev, "intensity": 13.0}) == "unknown"
    assert rules.bound_verdict({**ev, "lowest_ridge": None}) == "unknown"
    assert rules.bound_verdict({**ev, "threshold": None}) == "unknown"
    # no device named: no fractions, but the device-free verdict holds
    unnamed = {**ev, "device": None, "peak_source": None}
    assert rules.bound_verdict(unnamed) == rules.NOT_COMPUTE and judge("bound", unnamed) == ("shown", "")
    assert judge("bound", {**unnamed, "lowest_ridge": None}) == ("withheld", rules.NO_DEVICE)
    # a known device's verdict wins over the device-free one
    known = {**ev, "bandwidth_fraction": 0.9, "compute_fraction": 0.01, "ridge": 150.0}
    assert rules.bound_verdict(known) == "memory-bandwidth"


def test_a_comparison_records_its_direction_by_the_noise_rule():
    ev = {"a": 110.0, "b": 100.0, "ratio": 1.1, "noise": 0.05}
    assert make("c", "comparison", "r", ev).evidence["direction"] == rules.ABOVE
    assert make("c", "comparison", "r", {**ev, "a": 90.0, "ratio": 0.9}).evidence["direction"] == rules.BELOW
    inside = make("c", "comparison", "r", {**ev, "a": 103.0, "ratio": 1.03})
    assert inside.evidence["direction"] == rules.WITHIN and inside.status == "withheld"
    equal = make("c", "comparison", "r", {"a": 1.0, "b": 1.0, "ratio": 1.0, "noise": None})
    assert equal.status == "withheld"  # no difference at all is no comparison to state


def test_a_trend_the_values_break_is_withheld_for_the_values_not_for_a_step_inside_the_noise():
    # 10 -> 10.1 -> 5 goes up and down on the values: that is the reason, though the first step is inside 5 %
    broken = {"xs": [1, 2, 3], "ys": [10, 10.1, 5], "direction": "rises", "noise": 0.05, "tolerance": 0.0}
    assert judge("scaling", broken) == ("withheld", "the values go up and down")
    # 10 -> 10.1 -> 12 rises on the values: the step inside the noise is the reason
    inside = {**broken, "ys": [10, 10.1, 12]}
    assert judge("scaling", inside) == ("withheld", "the step from 1 to 2 (+1%) is inside its noise (5%)")


def test_no_device_withholds_a_share_of_a_peak_naming_the_gpu_parameter():
    ev = {"fraction": None, "peak": None, "device": None, "peak_source": None}
    assert judge("fraction_of_peak", ev) == ("withheld", rules.NO_DEVICE)
    assert "`gpu`" in rules.NO_DEVICE and "assumed" not in rules.NO_DEVICE.replace("none is assumed", "")
    streaming = {**ev, "streaming": True, "active_params_b": None, "bytes_per_token": None}
    assert judge("fraction_of_peak", streaming) == (
        "withheld",
        rules.NO_DEVICE + "; and the input does not give the model's size and the bytes moved per token",
    )
    # a device the chapter knows by another way ("unknown" source) keeps the missing-field reason
    assert judge("fraction_of_peak", {**ev, "peak_source": "unknown"})[1].startswith("the input does not give")


def test_no_device_withholds_a_bound_unless_the_intensity_is_below_every_ridge():
    ev = {"bandwidth_fraction": None, "compute_fraction": None, "threshold": 0.5, "device": None, "intensity": 40.0}
    assert judge("bound", {**ev, "lowest_ridge": 12.0}) == ("withheld", rules.NO_DEVICE)
    assert judge("bound", {**ev, "intensity": 1.0, "lowest_ridge": 12.0}) == ("shown", "")
    # a named device whose fractions are both missing keeps the old reason
    assert judge("bound", {**ev, "device": "X", "lowest_ridge": 12.0})[1].startswith("neither peak fraction")


def test_a_trend_judged_by_its_ends_rises_only_when_its_ends_rise_beyond_their_band():
    ev = dict(xs=[1, 2, 3], direction="rises", tolerance=0.1, judged="ends")
    # a 15 % step up, then a 6 % step down inside the band: the ends are 8 % apart, inside the 10 % band
    assert rules.trend({**ev, "ys": [1.0, 1.15, 1.08]}) == "mixed"
    # the same first step, ends 15 % apart: a rise, the step back inside its band
    assert rules.trend({**ev, "ys": [1.0, 1.2, 1.15]}) == "rises"
    # ends 15 % apart but a 20 % step down beyond its band: not a rise
    assert rules.trend({**ev, "ys": [1.0, 1.44, 1.15]}) == "mixed"
