"""The perf-per-watt chapter's verdicts, each a claim judged from the rate table's numbers.

Noise: llama-bench prints each rate as mean ± the sample standard deviation of its repetitions;
the mean's relative standard error is CV / sqrt(repetitions), and two means differ only when their
ratio is off 1 by more than twice their combined standard error (`power.combined_noise`). Claim
ids end in the test kind ("pp" or "tg"), so the page's prose can name them on any input.
"""

from __future__ import annotations

import pandas as pd

from benchbook.analysis import power
from benchbook.claims import Claim, make

#: Steps of at most this relative size count as "no change" for the flat-top claim.
FLAT_TOLERANCE = 0.01
#: Kneedle strength (normalised distance from the chord) below which a curve has no knee.
KNEE_MIN_STRENGTH = 0.1
#: Points a knee, sweet spot or trend needs.
MIN_POINTS = 4
TREND_MIN_POINTS = 3


def _num(v):
    return None if v is None or pd.isna(v) else float(v)


def _ids(kind: str, name: str) -> str:
    return f"{name}_{kind}"


def speed_trend(table: pd.DataFrame, test: str | None, kind: str) -> Claim:
    """`test`'s mean rate falls at every step down in limit (rises with the limit)."""
    g = table[table["test"] == test].sort_values("power_limit_w") if test else table.iloc[0:0]
    ev = {
        "test": test,
        "xs": g["power_limit_w"].tolist(),
        "ys": g["mean"].tolist(),
        "direction": "rises",
        "tolerance": 0.0,
        # the chapter's noise rule on each step: a step inside the two limits' combined noise is not a step
        "noise": [power.combined_noise(a, b) for a, b in zip(g["se"], g["se"].iloc[1:], strict=False)],
        "min_points": TREND_MIN_POINTS,
        "lowest_w": _num(g["power_limit_w"].min()) if len(g) else None,
        "highest_w": _num(g["power_limit_w"].max()) if len(g) else None,
    }
    ev["steps_inside_noise"], ev["steps_against"] = _steps_by_noise(ev)
    return make(_ids(kind, "speed_falls"), "scaling", "the mean rate rises at every step up in power limit", ev)


def _steps_by_noise(ev: dict) -> tuple[list[str], list[str]]:
    """The steps down in limit ("600 to 500 W", from the top) whose change in rate is inside that step's
    noise (`rules.step_bands`), and those where the rate rises beyond it as the limit falls: where no
    step goes against the trend and more than one is inside the noise, the page names them all, not
    only the first the rule's reason gives, since none of them can be told from the repetitions' spread."""
    from benchbook.claims.rules import step_bands

    xs, ys = ev["xs"], ev["ys"]
    bands = step_bands(ev, max(len(xs) - 1, 0))
    steps = [
        (f"{x1:g} to {x0:g} W", y1 / y0 - 1, band)
        for x0, x1, y0, y1, band in zip(xs, xs[1:], ys, ys[1:], bands, strict=False)
        if y0
    ][::-1]
    return [s for s, r, b in steps if abs(r) <= b], [s for s, r, b in steps if r < -b]


def spread_trend(table: pd.DataFrame, test: str | None, kind: str) -> Claim:
    """`test`'s coefficient of variation grows at every step down in limit."""
    g = table[table["test"] == test].sort_values("power_limit_w") if test else table.iloc[0:0]
    ev = {
        "test": test,
        "xs": g["power_limit_w"].tolist(),
        "ys": g["cv"].tolist(),
        "direction": "falls",
        "tolerance": 0.0,
        "min_points": TREND_MIN_POINTS,
        "cv_low_limit": _num(g["cv"].iloc[0]) if len(g) else None,
        "cv_high_limit": _num(g["cv"].iloc[-1]) if len(g) else None,
        "lowest_w": _num(g["power_limit_w"].min()) if len(g) else None,
        "highest_w": _num(g["power_limit_w"].max()) if len(g) else None,
    }
    return make(_ids(kind, "spread_grows"), "scaling", "the CV (± / mean) falls at every step up in power limit", ev)


def flat_top(table: pd.DataFrame, test: str | None, kind: str) -> Claim:
    """`test`'s mean rate stays within FLAT_TOLERANCE per step from the highest limit down to some
    limit (at least three limits)."""
    g = power.flat_top(table, test, FLAT_TOLERANCE).sort_values("power_limit_w")
    ev = {
        "test": test,
        "xs": g["power_limit_w"].tolist(),
        "ys": g["mean"].tolist(),
        "direction": "flat",
        "tolerance": FLAT_TOLERANCE,
        "min_points": TREND_MIN_POINTS,
        "from_w": _num(g["power_limit_w"].min()) if len(g) else None,
        "to_w": _num(g["power_limit_w"].max()) if len(g) else None,
    }
    rule = f"every step between these limits changes the mean rate by at most {FLAT_TOLERANCE:.0%}"
    return make(_ids(kind, "flat_top"), "scaling", rule, ev)


def retention(table: pd.DataFrame, test: str | None, limit_w: float | None, kind: str, name: str) -> Claim:
    """`test`'s rate at `limit_w` against its peak, outside or inside the two rows' noise."""
    r, top = power.row_at(table, test, limit_w), power.peak_row(table, test)
    a = _num(r["mean"]) if r is not None else None
    b = _num(top["mean"]) if top is not None else None
    ev = {
        "test": test,
        "a": a,
        "b": b,
        "ratio": a / b if a is not None and b else None,
        "noise": power.combined_noise(r["se"], top["se"]) if r is not None and top is not None else None,
        "limit_w": _num(limit_w),
        "peak_limit_w": _num(top["power_limit_w"]) if top is not None else None,
    }
    rule = "rate at the limit / peak rate differs from 1 by more than 2 combined standard errors"
    return make(_ids(kind, name), "comparison", rule, ev)


def caps_differ(table: pd.DataFrame, tests: dict, limit_w: float | None) -> Claim:
    """The share of its peak generation keeps at `limit_w` against the share prompt processing keeps:
    the mechanism's signature (a cap slows compute-bound work first), beyond the four rates' noise."""
    shares, ses = {}, []
    for kind in ("tg", "pp"):
        r, top = power.row_at(table, tests.get(kind), limit_w), power.peak_row(table, tests.get(kind))
        shares[kind] = _num(r["mean"] / top["mean"]) if r is not None and top is not None else None
        ses += [r["se"], top["se"]] if r is not None and top is not None else [None, None]
    a, b = shares["tg"], shares["pp"]
    ev = {
        "a": a,
        "b": b,
        "ratio": a / b if a is not None and b else None,
        "noise": power.combined_noise(*ses),
        "limit_w": _num(limit_w),
        "tg": tests.get("tg"),
        "pp": tests.get("pp"),
    }
    rule = "generation's share of its peak / prompt processing's, at one limit, beyond 2 combined standard errors"
    return make("caps_differ", "comparison", rule, ev)


def sweet_spot(sweet: pd.DataFrame, table: pd.DataFrame, test: str | None, kind: str, fraction: float) -> Claim:
    """The lowest limit keeping `fraction` of the peak; withheld when the curve never drops by more
    than 1 - fraction over the measured range (the true sweet spot may then be lower still)."""
    s = sweet.set_index("test").loc[test] if test is not None and test in set(sweet["test"]) else None
    at = power.row_at(table, test, s["sweet_limit_w"]) if s is not None else None
    top = power.row_at(table, test, s["peak_limit_w"]) if s is not None else None
    ev = {
        "test": test,
        "x": _num(s["sweet_limit_w"]) if s is not None else None,
        "rule": f"lowest limit keeping {fraction:.0%} of the peak mean rate",
        "n_points": int(s["n_limits"]) if s is not None else 0,
        "strength": _num(s["drop"]) if s is not None else None,
        "min_points": MIN_POINTS,
        "min_strength": 1 - fraction,
        "fraction": fraction,
        "retained": _num(s["retained"]) if s is not None else None,
        "cv": _num(s["sweet_cv"]) if s is not None else None,
        "saving_w": _num(s["saving_w"]) if s is not None else None,
        "peak_limit_w": _num(s["peak_limit_w"]) if s is not None else None,
        # the margin rule: the share kept against the fraction it must reach, inside the noise of the ratio
        "retained_noise": power.combined_noise(at["se"], top["se"]) if at is not None and top is not None else None,
    }
    rule = (
        "fraction-of-peak rule; strength = drop of the rate over the measured range, must exceed 1 - fraction; "
        "fragile where the share kept is within 2 combined standard errors of the fraction"
    )
    return make(_ids(kind, "sweet_spot"), "sweet_spot", rule, ev)


def knee(table: pd.DataFrame, test: str | None, kind: str) -> Claim:
    """The Kneedle knee of rate vs limit; withheld when the curve is too straight."""
    g = table[table["test"] == test] if test else table.iloc[0:0]
    x, strength = power.knee(g["power_limit_w"], g["mean"]) if len(g) else (None, 0.0)
    noise = power.knee_noise(g["power_limit_w"], g["mean"], g["se"] * g["mean"], x) if len(g) else None
    ev = {
        "test": test,
        "x": x,
        "rule": "Kneedle: farthest point from the chord after scaling both axes to 0-1",
        "n_points": int(g["power_limit_w"].nunique()),
        "strength": strength,
        "strength_noise": noise,
        "min_points": MIN_POINTS,
        "min_strength": KNEE_MIN_STRENGTH,
    }
    rule = "Kneedle distance, less the part 2 standard errors could make (strength_noise), must reach min_strength"
    return make(_ids(kind, "knee"), "knee", rule, ev)


def energy_estimate(row: pd.Series | None, kind: str, name: str) -> Claim:
    """Energy per token at one limit: an upper bound (the limit over the slowest rate the repetitions
    allow) where the input gives no measured draw, else the draw over the rate with the rate's
    standard error as its uncertainty."""
    ev = {
        "test": None if row is None else row["test"],
        "joules_per_token": None if row is None else _num(row["j_per_tok"]),
        "rel_uncertainty": None if row is None else _num(row["rel_uncertainty"]),
        "power_source": None if row is None else row["power_source"],
        "power_w": None if row is None else _num(row["power_w"]),
        "limit_w": None if row is None else _num(row["power_limit_w"]),
        "rate": None if row is None else _num(row["rate"]),
        "rate_basis": None if row is None else row["rate_basis"],
        "averaging_bias": None if row is None else _num(row["averaging_bias"]),
        "n_reps": None if row is None else int(row["n_reps"]),
        "reps_assumed": None if row is None else bool(row["reps_assumed"]),
        "upper_bound": None if row is None else bool(row["bound"]),
        "mean": None if row is None else _num(row["mean"]),
        "std": None if row is None else _num(row["std"]),
        "slowest_rate": None if row is None else _num(row["power_w"] / row["j_per_tok"]),
    }
    rule = (
        "J/token <= limit / the slowest tokens per second the repetitions allow (an upper bound), "
        "or = measured draw / rate (an estimate, uncertain by the rate's standard error)"
    )
    return make(_ids(kind, name), "energy_bound", rule, ev)


def energy_difference(a: pd.Series | None, b: pd.Series | None, kind: str, name: str) -> Claim:
    """Energy per token at limit a against limit b; withheld inside their combined noise."""
    ev = {
        "test": None if a is None else a["test"],
        "a": None if a is None or b is None else _num(a["j_per_tok"]),
        "b": None if a is None or b is None else _num(b["j_per_tok"]),
        "noise": None if a is None or b is None else power.combined_noise(a["se"], b["se"]),
        "a_limit_w": None if a is None else _num(a["power_limit_w"]),
        "b_limit_w": None if b is None else _num(b["power_limit_w"]),
    }
    ev["ratio"] = ev["a"] / ev["b"] if ev["a"] is not None and ev["b"] else None
    ev["margin"] = 1 - ev["ratio"] if ev["ratio"] is not None else None
    ev["power_sources"] = None if a is None or b is None else sorted({a["power_source"], b["power_source"]})
    ev["upper_bounds"] = a is not None and b is not None and bool(a["bound"]) and bool(b["bound"])
    rule = (
        "J/token ratio differs from 1 by more than 2 combined standard errors, both measured draws "
        "(two upper bounds are never compared)"
    )
    c = make(_ids(kind, name), "comparison", rule, ev)
    if c.shown and len(ev["power_sources"]) > 1:
        return c.withhold("one side rests on a measured draw and the other on the limit, which are not comparable")
    return c


def dram_floor(table: pd.DataFrame, test: str | None, weights_gb: float | None, device=None) -> Claim:
    """The DRAM floor of one generated token (its weights read once, `power.dram_floor_j`) against the
    lowest energy per token the input states for `test` (an upper bound, or a measured estimate)."""
    best = power.energy_order(table, test)
    row = best.iloc[0] if len(best) else None
    floor = power.dram_floor_j(weights_gb) if weights_gb else None
    b = _num(row["j_per_tok"]) if row is not None else None
    ev = {
        "a": floor,
        "b": b,
        "ratio": floor / b if floor is not None and b else None,
        "noise": None,
        "weights_gb": _num(weights_gb),
        "pj_per_bit": power.DRAM_PJ_PER_BIT,
        "test": test,
        "limit_w": _num(row["power_limit_w"]) if row is not None else None,
        "upper_bound": bool(row["bound"]) if row is not None else None,
        "device": getattr(device, "name", None),
        "peak_gb_s": getattr(device, "bandwidth_gb_s", None),
    }
    rule = "floor = weights bytes x 8 x pJ per bit, against the lowest J/token the input states"
    c = make("dram_floor", "comparison", rule, ev)
    if row is None:
        return c.withhold("the input has no generation test at two or more power limits")
    if floor is None:
        return c.withhold("the bytes of the model's weights are not known (llama-bench prints them as its size)")
    return c


def _saving(best: pd.Series | None, top: pd.Series | None, kind: str) -> Claim:
    """The cheapest limit's energy per token against the highest limit's; withheld where they are
    one limit (nothing saved to state)."""
    c = energy_difference(best, top, kind, "energy_saving")
    if best is not None and top is not None and best["power_limit_w"] == top["power_limit_w"]:
        return c.withhold("the cheapest limit is the highest one, so there is no saving to state")
    return c


def build(
    table: pd.DataFrame,
    tests: dict,
    fraction: float,
    quote_limit: float | None,
    weights_gb: float | None = None,
    device=None,
) -> list[Claim]:
    """Every claim of the chapter, in page order (unworded: `presentation.wording` adds their sentences);
    `weights_gb` the bytes one generated token reads (the model file), for the DRAM floor, and `device`
    (a `hardware.Device`, or None) its peak bandwidth for the exercises."""
    sweet = power.sweet_spot(table, fraction) if len(table) else power.sweet_spot(table.iloc[0:0], fraction)
    lo = _num(table["power_limit_w"].min()) if power.has_power(table) else None
    out = [caps_differ(table, tests, quote_limit if power.has_power(table) else None)]
    for kind in ("pp", "tg"):
        t = tests.get(kind) if power.has_power(table) else None
        out += [
            speed_trend(table, t, kind),
            flat_top(table, t, kind),
            retention(table, t, quote_limit, kind, "retained_quote"),
            retention(table, t, lo, kind, "retained_lowest"),
        ]
    for kind in ("pp", "tg"):
        t = tests.get(kind) if power.has_power(table) else None
        order = power.energy_order(table, t)
        top = table[table["test"] == t].sort_values("power_limit_w").iloc[-1] if len(order) else None
        best = order.iloc[0] if len(order) else None
        second = order.iloc[1] if len(order) > 1 else None
        out += [
            energy_estimate(top, kind, "energy_top"),
            energy_estimate(best, kind, "energy_best"),
            _saving(best, top, kind),
            energy_difference(best, second, kind, "energy_runner_up"),
        ]
    out.append(dram_floor(table, tests.get("tg") if power.has_power(table) else None, weights_gb, device))
    for kind in ("pp", "tg"):
        t = tests.get(kind) if power.has_power(table) else None
        out += [sweet_spot(sweet, table, t, kind, fraction), knee(table, t, kind)]
    for kind in ("pp", "tg"):
        t = tests.get(kind) if power.has_power(table) else None
        out.append(spread_trend(table, t, kind))
    return out
