"""The claim rules: for every kind, evidence that yields each status, and the re-judging check."""

from __future__ import annotations

import json
import math

import pytest

from benchbook import claims
from benchbook.claims import Claim, Ledger, make, rules


def fop(fraction, **kw):
    ev = {"fraction": fraction, "peak": 2039.0, "unit": "GB/s", "device": "A100-SXM4-80GB", "peak_source": "detected"}
    return make("bw", "fraction_of_peak", "measured / peak", {**ev, **kw})


def test_fraction_of_peak_statuses():
    assert fop(0.6).status == "shown"
    assert fop(1.0).status == "shown"
    c = fop(5.63)
    assert c.status == "implausible" and "563%" in c.reason and "MoE" in c.reason
    assert fop(1.04, tolerance=0.05).status == "shown"
    assert fop(None).status == "withheld"
    assert fop(float("nan")).status == "withheld"
    assert fop(-0.1).status == "withheld"
    assert fop(0.5, device=None).status == "withheld"


def test_no_device_withholds_the_share_and_a_named_one_still_warns_beyond_physics():
    c = fop(None, peak=None, device=None, peak_source=None)
    assert c.status == "withheld" and "`gpu`" in c.reason
    assert fop(0.6, peak_source="parameter").status == "shown"
    assert fop(5.63, peak_source="parameter").status == "implausible"
    ev = {"bandwidth_fraction": 0.8, "compute_fraction": 0.02, "intensity": 1.0, "ridge": 153.0, "threshold": 0.5}
    assert make("b", "bound", "r", ev).status == "shown"
    none = {**ev, "bandwidth_fraction": None, "compute_fraction": None, "intensity": 200.0, "device": None}
    c = make("b", "bound", "r", none)
    assert c.status == "withheld" and c.evidence["verdict"] == "unknown"
    assert (
        make("b", "bound", "r", {**ev, "bandwidth_fraction": 1.7, "peak_source": "parameter"}).status == "implausible"
    )


def test_fraction_of_peak_streaming_needs_model_size():
    assert fop(0.5, streaming=True, bytes_per_token=2e9, active_params_b=3.6).status == "shown"
    c = fop(0.5, streaming=True, bytes_per_token=2e9, active_params_b=None)
    assert c.status == "withheld" and "model's size" in c.reason


def bound(bw, cf, inten=None, ridge=153.0, th=0.5):
    ev = {"bandwidth_fraction": bw, "compute_fraction": cf, "intensity": inten, "ridge": ridge, "threshold": th}
    return make("b", "bound", "fractions of the two roofs", ev)


def test_bound_verdicts_each_way():
    assert bound(0.8, 0.02, 1.0).evidence["verdict"] == "memory-bandwidth"
    assert bound(0.1, 0.7, 300.0).evidence["verdict"] == "compute"
    # a large compute fraction left of the ridge is not a compute bound: no verdict
    c = bound(0.1, 0.7, 50.0)
    assert c.evidence["verdict"] == "unknown" and c.status == "withheld"
    # the seed's batch case: 5 % of bandwidth, 7 % of compute: neither roof
    c = bound(0.05, 0.07, 64.0)
    assert c.evidence["verdict"] == "overhead" and c.status == "shown"
    assert bound(0.8, None, 1.0).evidence["verdict"] == "memory-bandwidth"
    c = bound(0.3, None, 1.0)
    assert c.evidence["verdict"] == "unknown" and c.status == "withheld"
    assert bound(None, None).status == "withheld"
    assert bound(1.7, 0.1, 1.0).status == "implausible"
    # the threshold moves the verdict
    assert bound(0.4, 0.02, 1.0, th=0.3).evidence["verdict"] == "memory-bandwidth"
    assert bound(0.4, 0.02, 1.0, th=0.5).evidence["verdict"] == "overhead"
    assert bound(0.4, 0.02, 1.0, th=0).status == "withheld"


def win(p_values, alpha=0.05, best="bf16"):
    ev = {
        "candidates": ["bf16", "w8a8", "w8a16"],
        "best": best,
        "metric": "tok/s",
        "alpha": alpha,
        "p_values": p_values,
    }
    return make("w", "winner", "Welch t-test against the best", ev)


def test_winner_set_inside_and_outside():
    c = win({"w8a8": 0.40, "w8a16": 0.001})
    assert c.status == "shown" and c.evidence["winners"] == ["bf16", "w8a8"]
    c = win({"w8a8": 0.04, "w8a16": 0.001})
    assert c.evidence["winners"] == ["bf16"]
    # exactly alpha is not significant: inside the set
    assert win({"w8a8": 0.05, "w8a16": 0.9}).evidence["winners"] == ["bf16", "w8a8", "w8a16"]


def test_winner_withheld():
    assert win({"w8a8": 0.4, "w8a16": None}).status == "withheld"
    assert win({"w8a8": 0.4, "w8a16": 0.1}, alpha=1.5).status == "withheld"
    assert win({"w8a8": 0.4, "w8a16": 0.1}, alpha=0).status == "withheld"
    assert win({"w8a8": 0.4, "w8a16": 0.1}, best="fp4").status == "withheld"
    one = make("w", "winner", "r", {"candidates": ["a"], "best": "a", "metric": "m", "alpha": 0.05, "p_values": {}})
    assert one.status == "withheld"


def knee(x=128, n=6, s=0.8, min_s=0.5):
    ev = {"x": x, "rule": "elasticity < 0.25", "n_points": n, "strength": s, "min_points": 4, "min_strength": min_s}
    return make("k", "knee", "elasticity", ev)


def test_knee_statuses():
    assert knee().status == "shown"
    assert knee(n=3).status == "withheld"
    assert knee(x=None).status == "withheld"
    assert knee(s=0.2).status == "withheld"
    assert make("s", "sweet_spot", "r", knee(n=2).evidence).status == "withheld"


def scal(ys, direction="falls", xs=(1, 2, 4, 8), **kw):
    return make(
        "s", "scaling", "every step", {"xs": list(xs), "ys": list(ys), "direction": direction, "min_points": 3, **kw}
    )


def test_scaling_direction_must_hold_at_every_step():
    assert scal([1.0, 0.8, 0.6, 0.5]).status == "shown"
    assert scal([1.0, 0.8, 0.9, 0.5]).status == "withheld"
    assert scal([1.0, 0.8, 0.6, 0.5], direction="rises").status == "withheld"
    assert scal([1.0, 1.2, 1.5, 2.0], direction="rises").status == "shown"
    assert scal([1.0, 0.8], xs=(1, 2)).status == "withheld"
    assert scal([1.0, 1.001, 0.999, 1.0], direction="flat", tolerance=0.01).status == "shown"
    # order of x, not order of rows
    assert scal([0.5, 1.0, 0.6, 0.8], xs=(8, 1, 4, 2)).status == "shown"


def test_anomaly_recommendation_comparison_energy():
    assert make("a", "anomaly", "r", {"count": 3, "n": 93}).status == "shown"
    assert make("a", "anomaly", "r", {"count": 0, "n": 93}).status == "withheld"
    assert make("a", "anomaly", "r", {"count": 0, "n": 0}).status == "withheld"
    rec = {"choice": "TP 1", "metric": "tok/s per GPU", "value": 45.9, "runner_up": "TP 2", "runner_up_value": 37.8}
    assert make("r", "recommendation", "r", {**rec, "noise": 0.05}).status == "shown"
    assert make("r", "recommendation", "r", {**rec, "noise": 0.30}).status == "withheld"
    assert make("r", "recommendation", "r", {**rec, "runner_up": None, "noise": 0}).status == "withheld"
    cmp = {"a": 110.0, "b": 100.0, "ratio": 1.1}
    assert make("c", "comparison", "r", {**cmp, "noise": 0.05}).status == "shown"
    assert make("c", "comparison", "r", {**cmp, "noise": 0.2}).status == "withheld"
    assert make("c", "comparison", "r", {**cmp, "noise": None}).status == "shown"
    assert make("c", "comparison", "r", {**cmp, "b": 0, "noise": None}).status == "withheld"
    e = {"joules_per_token": 0.5, "rel_uncertainty": 0.47, "power_source": "limit"}
    assert make("e", "energy_bound", "r", e).status == "shown"
    assert make("e", "energy_bound", "r", {**e, "joules_per_token": None}).status == "withheld"
    assert make("e", "energy_bound", "r", {**e, "power_source": "guess"}).status == "withheld"


def test_unknown_kind_and_status_refused():
    with pytest.raises(ValueError):
        make("x", "vibes", "r", {})
    with pytest.raises(ValueError):
        Claim("x", "anomaly", "maybe", "r", {})


def test_evidence_is_json_safe():
    import numpy as np

    c = fop(np.float64(0.5), peak=np.float32(2039.0), extra=[np.int64(3), float("inf")])
    assert json.loads(json.dumps(c.to_dict(), allow_nan=False))["evidence"]["extra"] == [3, None]


def test_wording_never_prints_a_missing_value(worded):
    c = worded(
        fop(0.6), "decode reads {{ fraction | pct }} of {{ device }}'s {{ peak | num }} {{ unit }}", topic="Bandwidth"
    )
    assert c.text == "Decode reads 60% of A100-SXM4-80GB's 2,039 GB/s"
    c = worded(fop(0.6), "at batch {{ batch }} it reads {{ fraction | pct }}", topic="Bandwidth")
    assert c.status == "withheld" and "batch" in c.reason and "nan" not in c.text.lower()
    c = worded(fop(0.6, batch=float("nan")), "at batch {{ batch }} it reads {{ fraction | pct }}", topic="Bandwidth")
    assert c.status == "withheld"
    c = worded(fop(5.63), "reads {{ fraction | pct }}", topic="The bandwidth figure")
    assert c.text.startswith("**Warning") and "beyond physics" in c.text
    c = worded(win({"w8a8": 0.4, "w8a16": 0.001}), "{{ winners }} win", topic="Winner")
    assert c.text == "Bf16 and w8a8 win"


def test_check_rejudges_a_ledger(worded):
    led = Ledger("demo", ["data/x.txt"])
    led.add(worded(fop(0.6), "{{ fraction | pct }}", topic="t"))
    led.add(worded(bound(0.05, 0.07, 64.0), "{{ verdict }}", topic="t"))
    led.add(worded(win({"w8a8": 0.4, "w8a16": 0.001}), "{{ winners }}", topic="t"))
    d = json.loads(led.to_json())
    assert rules.check(d) == []
    tampered = json.loads(led.to_json())
    tampered["claims"][0]["evidence"]["fraction"] = 2.0
    assert any("status" in p for p in rules.check(tampered))
    tampered = json.loads(led.to_json())
    tampered["claims"][1]["evidence"]["verdict"] = "memory-bandwidth"
    assert any("verdict" in p for p in rules.check(tampered))
    tampered = json.loads(led.to_json())
    tampered["claims"][2]["evidence"]["winners"] = ["bf16"]
    assert any("winners" in p for p in rules.check(tampered))
    tampered = json.loads(led.to_json())
    tampered["claims"][0]["text"] = "reads nan of the peak"
    assert any("missing value" in p for p in rules.check(tampered))
    tampered = json.loads(led.to_json())
    del tampered["claims"][0]["evidence"]["peak_source"]
    assert any("lacks peak_source" in p for p in rules.check(tampered))
    # withholding a claim the rule would show is always allowed, with a reason
    tampered = json.loads(led.to_json())
    tampered["claims"][0].update(status="withheld", reason="the sentence needs a value")
    assert rules.check(tampered) == []
    tampered["claims"][0]["reason"] = ""
    assert rules.check(tampered)


def test_ledger_round_trip_and_duplicate_ids():
    led = Ledger("demo", [])
    led.add(fop(0.6))
    with pytest.raises(ValueError):
        led.add(fop(0.7))
    again = Ledger.from_dict(json.loads(led.to_json()))
    assert again.get("bw").evidence["fraction"] == 0.6
    with pytest.raises(KeyError):
        again.get("nope")


def test_from_notebook_reads_the_published_ledger(worded):
    led = Ledger("demo", ["a"])
    led.add(worded(fop(0.6), "{{ fraction | pct }}", topic="t"))
    nb = {"cells": [{"outputs": [{"data": {claims.LEDGER_MIME: led.to_dict(), "text/plain": "1 claims"}}]}]}
    assert claims.from_notebook(nb)["claims"][0]["id"] == "bw"
    assert claims.from_notebook({"cells": [{"outputs": []}]}) is None


def test_missing_word_guard_catches_the_issue_examples():
    for s in ["decode gains at most nanx", "model None on", "refutes it in 0 places: none; none", "n/a"]:
        assert rules.MISSING_WORDS.search(s), s
    assert not rules.MISSING_WORDS.search("the nonce and the innate infinity")
    assert math.isfinite(1.0)


def test_code_spans_may_quote_the_input(worded):
    led = Ledger("demo", [])
    c = worded(fop(0.6), "run `rate=inf, c=64` reads {{ fraction | pct }}", topic="t")
    led.add(c)
    assert rules.check(json.loads(led.to_json())) == []
    bad = json.loads(led.to_json())
    bad["claims"][0]["text"] = "run rate=inf reads 60%"
    assert any("missing value" in p for p in rules.check(bad))


def test_a_claim_that_does_not_apply_has_no_sentence_of_its_own():
    c = make("own_slos", "anomaly", "r", {"count": 0, "n": 0, "threshold": 0}).not_applicable("no format states them")
    assert (c.status, c.reason, c.text, c.evidence["applicable"]) == ("withheld", "no format states them", "", False)
