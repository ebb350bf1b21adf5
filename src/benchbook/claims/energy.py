"""The measured-energy verdicts of the power chapter, each a claim judged from `analysis.energy`'s
numbers.

Noise: a measured energy file gives one figure per configuration and no spread, so two figures
count as different only when their ratio is off 1 by more than SINGLE_RUN_TOLERANCE (a stated
assumption: run-to-run variation of a repeated energy measurement is of this order). Figures of
different scopes (GPU only, GPU + CPU + RAM, the wall) are never ranked together: a ranking takes
the scope most rows share and says which scopes it left out.
"""

from __future__ import annotations

import math

import pandas as pd

from benchbook.analysis import energy
from benchbook.claims import Claim, make
from benchbook.ingest.energy import SCOPES

#: Relative difference two single measured figures must exceed to be called different.
SINGLE_RUN_TOLERANCE = 0.05
#: How much of the machine a scope meters, for the order a page states one configuration's figures in:
#: the widest first (the wall, then GPU + CPU + RAM, then GPU + CPU, then the GPU), CPU or RAM alone last.
SCOPE_WIDTH = {"system": 4, "gpu+cpu+ram": 3, "gpu+cpu": 2, "codecarbon-v1": 2, "gpu": 1}
#: The floor uses the rated power, and a card may read at full bandwidth below it: a figure is beyond
#: physics only under this fraction of the floor (between it and 1 the page says the card drew less).
FLOOR_IMPLAUSIBLE = 0.5


def _num(v):
    return None if v is None or (isinstance(v, float) and not math.isfinite(v)) or pd.isna(v) else float(v)


def _str(v):
    return None if v is None or (not isinstance(v, str) and pd.isna(v)) else str(v)


def _label(r: pd.Series) -> str:
    """How a configuration is named on the page: its run, and the file when runs share a name."""
    return str(r["run"])


def per_run(r: pd.Series, k: int) -> Claim:
    """Energy per output token of one configuration, with its scope, interval and basis."""
    ev = {
        "run": _label(r),
        "source": _str(r["source"]),
        "model": _str(r["model"]),
        "device": _str(r["device"]),
        "scope": r["scope"],
        "scope_words": SCOPES.get(r["scope"], r["scope"]),
        # the GPUs the tool sums the figure over, where they are several
        "gpus_together": n if (n := _num(r.get("gpus_together"))) and n > 1 else None,
        "interval": _str(r["interval"]),
        "joules_per_token": _num(r["j_per_output_token"]),
        "rel_uncertainty": None,
        "power_source": "measured",
        "tok_per_j": _num(r["tok_per_j"]),
        "j_per_request": _num(r["j_per_request"]),
        "j_per_token_all": _num(r["j_per_token"]),
        "tokens_basis": _str(r["tokens_basis"]),
        "output_tokens": _num(r["output_tokens"]),
        "active_joules_per_token": _num(r["j_per_output_token_active"]),
        "idle_share": _num(r["idle_share"]),
        "idle_power_w": _num(r["idle_power_w"]),
        "duration_s": _num(r["duration_s"]),
        "energy_j": _num(r["energy_j"]),
        "mean_power_w": _num(r["mean_power_w"]),
        "peak_power_w": _num(r.get("peak_power_w")),
        "requests": _num(r.get("requests")),
        "energy_active_j": _num(r.get("energy_active_j")),
        "gpu_utilization": _num(r.get("gpu_utilization")),
        "board_power_w": _num(r.get("board_power_w")),
        "over_board": True if bool(r.get("over_board", False)) else None,  # `analysis.energy._over_board`
    }
    rule = "J per output token = measured energy / output tokens over the same interval and scope"
    if ev["tokens_basis"] == "power / throughput":
        rule = "J per output token = mean measured power / output tokens per second"
    elif ev["tokens_basis"] == "run mean power / throughput":
        rule = "J per output token ~ mean power over the whole run / generation rate (an estimate: the run has other tests)"
    elif ev["tokens_basis"] == "power reading / throughput":
        rule = "J per output token ~ power reading / output tokens per second (an estimate: mean or peak not said)"
    c = make(f"measured_{k}", "energy_bound", rule, ev)
    if bool(r.get("idle_device", False)):
        served = f"{ev['requests']:,.0f} requests" if ev["requests"] else f"{ev['output_tokens']:,.0f} output tokens"
        return c.withhold(
            f"its power log read the GPU at {ev['gpu_utilization']:g} % utilization with {ev['energy_active_j']:g} J "
            f"above its idle draw while {served} completed: it watched an idle device, so its energy is not the run's"
        )
    if ev["over_board"]:
        return c.withhold("its mean power is above the device's board power, so it is no measurement of this run")
    if not c.shown and ev["j_per_request"] is not None:
        return c.withhold("the file gives no token counts, only energy per request")
    if not c.shown and ev["energy_j"] is not None and ev["output_tokens"] is None:
        return c.withhold("the file counts neither the tokens nor the requests served over that energy")
    if not c.shown and ev["peak_power_w"] is not None and ev["mean_power_w"] is None:
        rate = _num(r.get("output_tok_s"))
        beside = f" beside {rate:g} output tok/s" if rate is not None else ""
        return c.withhold(
            f"the file gives only the highest power reading ({ev['peak_power_w']:g} W){beside}, not the mean: it "
            "bounds the draw from above, so no energy per token is formed from it"
        )
    if not c.shown and ev["mean_power_w"] is not None:
        return c.withhold("the file gives neither an output rate nor a token count to divide the power by")
    return c


def cheapest(rows: pd.DataFrame, column: str, name: str) -> Claim:
    """The cheapest configuration against the runner-up, within one scope, beyond the tolerance."""
    t, scope, others = energy.comparable(rows, column)
    t = energy.pooled(t, column)
    order = energy.ranked(t, column) if len(t) else t
    a = order.iloc[0] if len(order) else None
    b = order.iloc[1] if len(order) > 1 else None
    ev = {
        "a": _num(a[column]) if a is not None and b is not None else None,
        "b": _num(b[column]) if b is not None else None,
        "noise": SINGLE_RUN_TOLERANCE,
        "a_run": _label(a) if a is not None else None,
        "b_run": _label(b) if b is not None else None,
        "a_repeats": int(a["repeats"]) if a is not None else None,
        "b_repeats": int(b["repeats"]) if b is not None else None,
        "n_runs": len(order),
        "scope": scope,
        "scope_words": SCOPES.get(scope, scope) if scope else None,
        "other_scopes": [SCOPES.get(s, s) for s in others],
        "column": column,
    }
    ev["ratio"] = ev["a"] / ev["b"] if ev["a"] is not None and ev["b"] else None
    ev["margin"] = 1 - ev["ratio"] if ev["ratio"] is not None else None
    rule = (
        f"J per output token of the cheapest / the runner-up differs from 1 by more than {SINGLE_RUN_TOLERANCE:.0%}, "
        "both of one scope"
    )
    c = make(name, "comparison", rule, ev)
    if b is None and c.status == "withheld":
        return c.withhold("only one configuration has this figure" if a is not None else "no configuration has it")
    return c


def spread(rows: pd.DataFrame) -> Claim:
    """The costliest configuration against the cheapest, within one scope."""
    t, scope, others = energy.comparable(rows, "j_per_output_token")
    t = energy.pooled(t, "j_per_output_token")
    order = energy.ranked(t, "j_per_output_token") if len(t) else t
    lo = order.iloc[0] if len(order) > 1 else None
    hi = order.iloc[-1] if len(order) > 1 else None
    ev = {
        "a": _num(hi["j_per_output_token"]) if hi is not None else None,
        "b": _num(lo["j_per_output_token"]) if lo is not None else None,
        "noise": SINGLE_RUN_TOLERANCE,
        "a_run": _label(hi) if hi is not None else None,
        "b_run": _label(lo) if lo is not None else None,
        "a_repeats": int(hi["repeats"]) if hi is not None else None,
        "b_repeats": int(lo["repeats"]) if lo is not None else None,
        "scope": scope,
        "scope_words": SCOPES.get(scope, scope) if scope else None,
        "other_scopes": [SCOPES.get(s, s) for s in others],
    }
    ev["ratio"] = ev["a"] / ev["b"] if ev["a"] is not None and ev["b"] else None
    c = make("measured_spread", "comparison", "costliest / cheapest J per output token, one scope", ev)
    if hi is None:
        return c.withhold("fewer than two configurations have an energy per output token")
    return c


def idle_order(rows: pd.DataFrame) -> Claim:
    """The cheapest configuration once idle power is subtracted, and whether it is the one that is
    cheapest with idle counted."""
    c = cheapest(rows, "j_per_output_token_active", "measured_cheapest_active")
    if not len(rows) or rows["j_per_output_token_active"].isna().all():
        if len(rows) and "idle_device" in rows and rows["idle_device"].fillna(False).astype(bool).any():
            return c.withhold(
                "the power log watched an idle device (0 % utilization, no energy above idle), not the run"
            )
        return c.withhold("the file gives no idle power (nor an idle-subtracted energy) with a token count")
    total = cheapest(rows, "j_per_output_token", "measured_cheapest")
    ev = dict(c.evidence)
    ev["total_cheapest"] = total.evidence.get("a_run")
    ev["same_as_total"] = ev.get("a_run") is not None and ev["a_run"] == ev["total_cheapest"]
    out = make(c.id, c.kind, c.rule + "; idle power x duration subtracted first", ev)
    return out.withhold(c.reason) if c.status == "withheld" and c.reason and out.status == "shown" else out


def floor(
    r: pd.Series, k: int, bytes_per_param: float, given_device: bool = False, bench=None, said: dict | None = None
) -> Claim:
    """Measured energy per output token against the energy of one read of the active weights
    (`given_device`: the device was named by a parameter, not by the file; `bench`: the llama-bench
    rows of the input, whose printed file size is the weights' bytes; `said`: per file name, what the
    rest of the file says of a precision and a batch size, `energy.facts_said`)."""
    file = energy.model_file(bench, _str(r["source"]), _str(r["model"]))
    stated = _str(r["precision"]) if "precision" in r else None
    sizes = (r.get("params_b"), r.get("active_params_b"))  # as the energy file states them, if it does
    elsewhere = (said or {}).get(_str(r["source"]))
    f = energy.weights_floor(_str(r["model"]), _str(r["device"]), bytes_per_param, file, stated, sizes, elsewhere)
    batch = _num(r["batch_size"])
    j = _num(r["j_per_output_token"])
    per_token = f["floor_j"] / batch if f["floor_j"] is not None and batch else f["floor_j"]
    ev = {
        "run": _label(r),
        "scope_words": SCOPES.get(r["scope"], r["scope"]),
        "a": j,
        "b": per_token,
        "noise": SINGLE_RUN_TOLERANCE,
        "batch_size": batch,
        "bytes_per_param": f["weights_gb"] / f["active_params_b"] if f["weights_gb"] and f["active_params_b"] else None,
        **{k2: f[k2] for k2 in ("floor_j", "weights_gb", "bandwidth_gb_s", "power_w", "active_params_b", "params_b")},
        **{k2: f[k2] for k2 in ("bytes_source", "precision", "precision_from", "file_gib", "experts_smaller")},
        **{k2: f.get(k2) for k2 in ("precision_status", "precision_line", "precision_text")},
        "floor_device": f["device"],
        "tokens_basis": _str(r["tokens_basis"]),
        # what the rest of the file says of a batch size no row carries (`energy.facts_said`, the absence rule)
        **{k2: v for k2, v in (elsewhere or {"batch_status": "absent"}).items() if k2.startswith("batch_")},
    }
    ev["ratio"] = j / per_token if j is not None and per_token else None
    # sequences per weights read, at least: the read's time at peak bandwidth x the mean power the run
    # drew, over the measured energy per token (rated power would overstate it for a card below its rating)
    mean_w = _num(r["mean_power_w"])
    read_s = f["weights_gb"] / f["bandwidth_gb_s"] if f["weights_gb"] and f["bandwidth_gb_s"] else None
    ev["mean_power_w"] = mean_w
    ev["floor_read_j"] = mean_w * read_s if mean_w and read_s else None
    ev["min_sharing"] = mean_w * read_s / j if mean_w and read_s and j else None
    if batch:
        # with the batch known the floor is a physical bound: the share of the measured energy it
        # accounts for may not pass 1 by more than the rated-power allowance (FLOOR_IMPLAUSIBLE)
        ev.update(
            fraction=per_token / j if per_token and j else None,
            peak=per_token,
            unit="J per output token",
            device=f["device"],
            peak_source="parameter" if given_device else "detected",
            tolerance=1 / FLOOR_IMPLAUSIBLE - 1,
        )
        rule = "weights-read floor per token (active weights bytes / peak bandwidth x rated power / batch) / measured"
        c = make(f"floor_{k}", "fraction_of_peak", rule, ev)
    else:
        rule = "measured J per output token / (active weights bytes / peak bandwidth x rated power), batch unknown"
        c = make(f"floor_{k}", "comparison", rule, ev)
    if f["floor_j"] is None:
        missing = "the model's size is" if f["weights_gb"] is None else "the device's bandwidth and power are"
        return c.withhold(f"{missing} not known, so no floor can be formed")
    if j is None:
        return c.withhold("no energy per output token is known for it")
    return c


def per_request(rows: pd.DataFrame) -> Claim:
    """The cheapest configuration per request against the runner-up, where no energy per token
    exists: only among runs of one model (two models answer at different lengths) and one interval."""
    t = rows[rows["j_per_output_token"].isna()] if len(rows) else rows
    c = cheapest(t, "j_per_request", "measured_cheapest_request")
    if t.empty and len(rows) and rows["j_per_request"].notna().any():
        return c.withhold("every configuration with an energy per request has one per output token, ranked by it above")
    if c.shown and (t["model"].nunique(dropna=False) > 1 or t["interval"].nunique(dropna=False) > 1):
        return c.withhold("the configurations serve different models or intervals, whose requests are not alike")
    return c


def widest_first(rows: pd.DataFrame) -> pd.DataFrame:
    """The rows in the page's order: configurations and intervals as the file gives them, and within
    one, its scopes widest first (`SCOPE_WIDTH`). A file that meters the whole system and its parts
    answers what the run cost with the whole; a CPU- or RAM-only figure is a part of it, said after."""
    if rows.empty:
        return rows
    group = rows.groupby(["source", "run", "interval"], sort=False, dropna=False).ngroup()
    width = -rows["scope"].map(SCOPE_WIDTH).fillna(0)
    t = rows.assign(_group=group.to_numpy(), _width=width.to_numpy())
    return t.sort_values(["_group", "_width"], kind="stable").drop(columns=["_group", "_width"]).reset_index(drop=True)


def build(
    table: pd.DataFrame, bytes_per_param: float, device: str | None = None, bench=None, said: dict | None = None
) -> list[Claim]:
    """Every measured-energy claim, in page order (unworded). `device` names the device for the
    floor where the file does not (or overrides it); `bench` the input's llama-bench rows (the
    model files' sizes); `said` what each file says of a precision and a batch (`energy.facts_said`)."""
    rows = widest_first(energy.quoted(table))
    out = [per_run(r, k) for k, (_, r) in enumerate(rows.iterrows())]
    out += [cheapest(rows, "j_per_output_token", "measured_cheapest"), spread(rows), idle_order(rows)]
    out.append(per_request(rows))
    tok = rows.dropna(subset=["j_per_output_token"]) if len(rows) else rows
    gpu_rows = tok[tok["scope"] == "gpu"] if len(tok) else tok
    basis = gpu_rows if len(gpu_rows) else tok.drop_duplicates(["source", "run"]) if len(tok) else tok
    if device:
        basis = basis.assign(device=device)
    out += [floor(r, k, bytes_per_param, bool(device), bench, said) for k, (_, r) in enumerate(basis.iterrows())]
    return out
