"""The perf-per-watt claims: each verdict on synthetic data both ways, and the seed's ledger."""

from __future__ import annotations

import os
import tempfile

import numpy as np
import pandas as pd
import pytest

from benchbook import config, ingest
from benchbook.analysis import power
from benchbook.claims import power as cp
from benchbook.claims import power as power_claims
from benchbook.claims import rules
from benchbook.presentation import power as show
from benchbook.presentation import wording


def table(rows, n_reps=5):
    """An energy table from (test, limit, mean, std) rows."""
    t = pd.DataFrame(rows, columns=["test", "power_limit_w", "mean", "std"])
    t = t.assign(
        model="m",
        metric=[("tg" if x.startswith("tg") else "pp") + "_rate" for x in t["test"]],
        n_depth=0,
        cv=t["std"] / t["mean"],
        n_reps=n_reps,
        reps_assumed=True,
        time_rate=np.nan,
        line=1,
    )
    t["se"] = t["cv"] / np.sqrt(n_reps)
    return power.energy(t)


LIMITS = [600, 500, 400, 300, 200]


def curve(test, means, stds=None):
    stds = stds or [0.1] * len(means)
    return [(test, w, m, s) for w, m, s in zip(LIMITS, means, stds, strict=True)]


def worded(claim):
    return wording.word("perf_per_watt", claim)


def test_speed_trend_both_ways():
    falls = table(curve("pp512", [100, 95, 90, 80, 70]))
    c = worded(cp.speed_trend(falls, "pp512", "pp"))
    assert c.status == "shown" and c.text.startswith("The mean rate of pp512 falls at every step down")
    flat = table(curve("pp512", [100, 100.2, 100, 80, 70]))
    c = worded(cp.speed_trend(flat, "pp512", "pp"))
    assert c.status == "withheld" and "holds or rises" in c.text
    c = worded(cp.speed_trend(flat.iloc[0:0], None, "pp"))
    assert c.status == "withheld" and "0 points" in c.text


def test_a_speed_step_inside_the_repetitions_noise_is_not_a_step():
    """The same falling means: shown with tight repetitions, withheld when one step is inside the noise."""
    tight = table(curve("pp512", [100, 95, 90, 80, 70]))
    assert worded(cp.speed_trend(tight, "pp512", "pp")).status == "shown"
    loose = tight.assign(se=0.05)  # 2 x sqrt(2) x 5 % = 14 % per step: the 5 % steps are inside it
    c = worded(cp.speed_trend(loose, "pp512", "pp"))
    assert c.status == "withheld" and "inside its noise" in c.text and "holds or rises" not in c.text


def test_flat_top_both_ways():
    t = table(curve("tg128", [100, 100.5, 100.2, 90, 70]))
    c = worded(cp.flat_top(t, "tg128", "tg"))
    assert c.status == "shown" and (c.evidence["from_w"], c.evidence["to_w"]) == (400, 600)
    t = table(curve("tg128", [100, 97, 94, 90, 70]))
    c = worded(cp.flat_top(t, "tg128", "tg"))
    assert c.status == "withheld" and "fewer than three limits" in c.text


def test_retention_inside_and_outside_the_noise():
    quiet = table(curve("pp512", [100, 99, 92, 80, 70], [0.5] * 5))
    c = worded(cp.retention(quiet, "pp512", 400, "pp", "retained_quote"))
    assert c.status == "shown" and "keeps 92.0% of its peak" in c.text
    noisy = table(curve("pp512", [100, 99, 92, 80, 70], [0.5, 1, 20, 30, 40]))
    c = worded(cp.retention(noisy, "pp512", 400, "pp", "retained_quote"))
    assert c.status == "withheld" and "cannot be told apart" in c.text
    c = worded(cp.retention(quiet, "pp512", None, "pp", "retained_quote"))
    assert c.status == "withheld" and "one side of the comparison is missing" in c.text


def test_energy_estimate_names_its_power_source():
    t = table(curve("tg128", [100, 100, 100, 90, 70], [0.1, 0.1, 0.1, 0.1, 20]))
    c = worded(cp.energy_estimate(t.iloc[4], "tg", "energy_best"))
    assert c.status == "shown" and c.evidence["power_source"] == "limit"
    assert "assuming the card drew its limit" in c.text and "may be low by about 8%" in c.text
    m = power.energy(
        t.drop(columns=["power_w", "power_source"]), pd.DataFrame({"power_limit_w": [200], "power_w": [150]})
    )
    c = worded(cp.energy_estimate(m.iloc[4], "tg", "energy_best"))
    assert c.evidence["power_source"] == "measured" and "150 W measured draw" in c.text
    c = worded(cp.energy_estimate(None, "tg", "energy_best"))
    assert c.status == "withheld" and "None" not in c.text


def test_energy_difference_inside_and_outside_the_noise():
    t = table(curve("pp512", [100, 99, 95, 90, 85], [0.1] * 5))
    order = power.energy_order(t, "pp512")
    c = worded(cp.energy_difference(order.iloc[0], order.iloc[1], "pp", "energy_runner_up"))
    assert c.status == "shown" and c.evidence["a_limit_w"] == 200
    noisy = table(curve("pp512", [100, 99, 95, 90, 85], [1, 5, 20, 30, 40]))
    order = power.energy_order(noisy, "pp512")
    c = worded(cp.energy_difference(order.iloc[0], order.iloc[1], "pp", "energy_runner_up"))
    assert c.status == "withheld" and "cannot be told apart" in c.text


def test_sweet_spot_and_knee_both_ways():
    bends = table(curve("tg128", [100, 100, 99, 80, 50]))
    sweet = power.sweet_spot(bends, 0.95)
    c = worded(cp.sweet_spot(sweet, "tg128", "tg", 0.95))
    assert c.status == "shown" and c.evidence["x"] == 400 and "sweet spot for tg128 is 400 W" in c.text
    k = worded(cp.knee(bends, "tg128", "tg"))
    assert k.status == "shown" and k.evidence["x"] == 400
    # a curve that loses less than 5 % over the whole range has no sweet spot inside it
    shallow = table(curve("tg128", [100, 99.5, 99, 98, 97]))
    c = worded(cp.sweet_spot(power.sweet_spot(shallow, 0.95), "tg128", "tg", 0.95))
    assert c.status == "withheld" and "may lie lower" in c.text
    straight = table(curve("tg128", [100, 90, 80, 70, 60]))
    assert worded(cp.knee(straight, "tg128", "tg")).status == "withheld"
    three = table(curve("tg128", [100, 99, 50, 40, 30])[:3])
    assert worded(cp.knee(three, "tg128", "tg")).evidence["n_points"] == 3
    assert worded(cp.knee(three, "tg128", "tg")).status == "withheld"


def test_spread_trend_both_ways():
    grows = table(curve("pp512", [100, 100, 100, 100, 100], [1, 2, 4, 8, 16]))
    assert worded(cp.spread_trend(grows, "pp512", "pp")).status == "shown"
    mixed = table(curve("tg128", [100, 100, 100, 100, 100], [1, 0.5, 4, 8, 16]))
    c = worded(cp.spread_trend(mixed, "tg128", "tg"))
    assert c.status == "withheld" and "holds or shrinks" in c.text


def _ledger(path, fraction=0.95, quote=400.0):
    df = ingest.read(path, tool="llama-bench")
    model = power.pick_model(df)
    kept, _ = power.hold_fixed(df, model)
    t = power.energy(power.rate_table(kept, model))
    limits = sorted(t["power_limit_w"].unique())
    q = min(limits, key=lambda w: abs(w - quote)) if limits else None
    return wording.ledger("perf_per_watt", ["x"], cp.build(t, power.quoted_tests(t), fraction, q))


def test_seed_ledger():
    led = _ledger(config.seed("004"))
    assert rules.check(led.to_dict()) == []
    shown = {c.id for c in led.claims if c.shown}
    assert len(shown) >= 5
    assert {"flat_top_tg", "energy_saving_tg", "sweet_spot_tg", "spread_grows_pp"} <= shown
    # the noise rule: pp512's means fall at every step down, but the step from 200 to 250 W is inside
    # the repetitions' noise (pp512's spread is wide at low limits), so no step-by-step loss is stated
    assert "inside its noise" in led.get("speed_falls_pp").text
    # issue 16: the pp energy order of the two cheapest limits is inside the noise
    assert led.get("energy_runner_up_pp").status == "withheld"
    assert led.get("speed_falls_tg").status == "withheld"
    assert led.get("energy_best_tg").evidence["joules_per_token"] == pytest.approx(200 / 189.82)
    assert show.why_paragraph(led).startswith("Why the two differ (the usual explanation")
    assert show.section(led, "speed", True, "X").endswith("\n\nX") and wording.sentence(
        "perf_per_watt", "noise_rule"
    ) in show.section(led, "speed", True)
    assert show.takeaways(led).count("\n- ") == 4  # the five shown takeaways (retained_quote_tg is withheld)


def test_no_power_levels_withholds_everything():
    led = _ledger(config.FIXTURES_DIR / "llama-bench" / "llamacpp_readme_b1275.json")
    assert rules.check(led.to_dict()) == []
    assert not any(c.shown for c in led.claims)
    assert show.why_paragraph(led) == "" and show.stability_paragraph(led) == ""
    assert show.section(led, "energy", False) == wording.sentence(
        "perf_per_watt", "no_sweep"
    )  # one sentence, not four withheld ones
    assert show.takeaways(led).startswith("No verdict about energy or power limits")
    assert "prompt processing loses speed" not in " ".join(c.text for c in led.claims)


def test_input_line_names_only_what_the_data_gives():
    assert (
        show.input_line("f.md", None, [], None, None) == "Input: f.md. No model in it was run at a stated power limit."
    )
    line = show.input_line("f.md", "m", [200.0, 300.0], None, None)
    assert "does not name the device" in line and "rated" not in line
    assert "on the X (rated 450 W)" in show.input_line("f.md", "m", [200.0, 300.0], "X", 450.0)


def test_energy_from_a_measured_draw_is_not_compared_with_a_limit():
    t = table(curve("tg128", [100, 100, 100, 90, 70]))
    m = power.energy(
        t.drop(columns=["power_w", "power_source"]), pd.DataFrame({"power_limit_w": [600], "power_w": [300]})
    )
    order = power.energy_order(m, "tg128")
    top = m.sort_values("power_limit_w").iloc[-1]
    c = worded(cp.energy_difference(order.iloc[0], top, "tg", "energy_saving"))
    assert c.status == "withheld" and "measured draw and the other on the limit" in c.text
    assert rules.check({"chapter": "x", "claims": [c.to_dict()]}) == []


def _llama_rates() -> pd.DataFrame:
    """A synthetic rate table: pp512 at four limits (flat from 300 W to 250 W, then falling), tg128 at two."""
    spec = [("pp512", "pp_rate", w, m, 5.0) for w, m in ((300, 1000.0), (250, 995.0), (200, 900.0), (150, 600.0))]
    spec += [("tg128", "tg_rate", w, m, 0.5) for w, m in ((300, 50.0), (200, 40.0))]
    rows = []
    for i, (test, metric, w, mean, std) in enumerate(spec):
        for stat, v in (("mean", mean), ("std", std)):
            rows.append(
                dict(model="m", test=test, metric=metric, power_limit_w=float(w), statistic=stat, value=v, line=i + 1)
            )
    df = pd.DataFrame(rows).assign(n_depth=0)
    return power.rate_table(df)


def test_flat_top_has_power_and_retention_on_known_rates():
    t = _llama_rates()
    assert power.flat_top(t, "pp512", 0.01)["power_limit_w"].tolist() == [300.0, 250.0]  # 0.5 % then 9.5 %
    assert power.flat_top(t, None, 0.01).empty  # no test quoted: no rows
    assert power.has_power(t)
    assert not power.has_power(t[t["power_limit_w"] == 300.0])  # two tests but one limit
    assert not power.has_power(t.iloc[0:0])
    assert power.retained_at(t, "pp512", 200.0) == pytest.approx(0.9)  # 900 / 1000
    assert power.retained_at(t, "pp512", 100.0) is None


def test_quoted_tests_none_where_a_kind_is_missing():
    t = _llama_rates()
    assert power.quoted_tests(t) == {"pp": "pp512", "tg": "tg128"}
    assert power.quoted_tests(t[t["metric"] == "pp_rate"]) == {"pp": "pp512", "tg": None}


def test_sweet_spot_columns_on_known_rates():
    s = power.sweet_spot(_llama_rates(), 0.95).set_index("test")
    pp = s.loc["pp512"]
    assert (pp["peak"], pp["peak_limit_w"], pp["sweet_limit_w"]) == (1000.0, 300.0, 250.0)  # 995 >= 950 > 900
    assert pp["drop"] == pytest.approx(0.4) and pp["n_limits"] == 4
    assert s.loc["tg128", "peak_limit_w"] == 300.0


def test_load_measured_reads_the_table_and_names_a_file_without_power():
    with tempfile.TemporaryDirectory() as tmp:
        good, bad = os.path.join(tmp, "draw.csv"), os.path.join(tmp, "nodraw.csv")
        with open(good, "w", encoding="utf-8") as fh:
            fh.write("power_limit_w,power_w\n300,287.5\n200,199.0\n")
        with open(bad, "w", encoding="utf-8") as fh:
            fh.write("power_limit_w\n300\n")
        m = power.load_measured(good)
        assert m["power_w"].tolist() == [287.5, 199.0]
        with pytest.raises(ValueError, match=r"nodraw\.csv: .*missing \['power_w'\]"):
            power.load_measured(bad)


def test_energy_runner_up_is_compared_with_exactly_two_limits():
    t = power.energy(_llama_rates())
    claims = {c.id: c for c in power_claims.build(t, power.quoted_tests(t), 0.95, None)}
    ev = claims["energy_runner_up_tg"].evidence
    # tg128: 300 W / 50 tok/s = 6.0 J/tok, 200 W / 40 tok/s = 5.0 J/tok: the cheapest is 200 W, the runner-up 300 W
    assert (ev["a"], ev["b"]) == (pytest.approx(5.0), pytest.approx(6.0))
    assert (ev["a_limit_w"], ev["b_limit_w"]) == (200.0, 300.0)


def test_energy_difference_margin_is_the_saving_of_a_over_b():
    """a at 0.8 J/token against b at 1.0: ratio 0.8, margin 1 - 0.8 = 0.2 (20 % less energy)."""
    a = pd.Series({"test": "tg128", "j_per_tok": 0.8, "se": 0.01, "power_limit_w": 200.0, "power_source": "limit"})
    b = pd.Series({"test": "tg128", "j_per_tok": 1.0, "se": 0.01, "power_limit_w": 300.0, "power_source": "limit"})
    ev = cp.energy_difference(a, b, "tg", "energy_saving").evidence
    assert ev["ratio"] == pytest.approx(0.8) and ev["margin"] == pytest.approx(0.2)
