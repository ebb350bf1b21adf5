"""The power chapter's measured-energy section: sentences for `claims.energy`, its table and figure.

Every figure is said with its scope beside it (GPU only, GPU + CPU + RAM, the wall) and the
interval it covers; a ranking names the scope it ranks and the scopes it left out.
"""

from __future__ import annotations

import pandas as pd

from benchbook.analysis import energy
from benchbook.claims import Claim, Ledger
from benchbook.ingest.energy import SCOPES
from benchbook.presentation import wording
from benchbook.presentation.plotting import color, message_figure

INTERVAL_WORDS = {"run": "the whole run", "decode": "decode", "prefill": "prefill"}
BASIS_WORDS = {
    "counted": "output tokens as counted",
    "per request": "mean energy per response / mean output tokens per response",
    "nominal": "a nominal token count from the configuration, not counted: if generations stopped early, the true "
    "figure per token is higher",
}


def _others(ev: dict) -> str:
    o = ev.get("other_scopes") or []
    return f" Figures measured as {', '.join(o)} are a different quantity and are not ranked with these." if o else ""


def word(claim: Claim) -> Claim:
    """The claim with its sentence."""
    ev = claim.evidence
    topic = ev.get("run") or "This input"
    if claim.id.startswith("measured_") and claim.kind == "energy_bound":
        idle = ""
        if ev.get("active_joules_per_token") is not None and ev.get("idle_share") is not None:
            idle = (
                " Without the idle draw ({idle_power_w:.1f} W over {duration_s:,.0f} s, {idle_share:.0%} of the "
                "energy) it is {active_joules_per_token:.3g} J per output token."
            )
        per_req = " and {j_per_request:.4g} J per request" if ev.get("j_per_request") is not None else ""
        basis = BASIS_WORDS.get(ev.get("tokens_basis"), "output tokens")
        return wording.say(
            claim,
            "`{run}`: {joules_per_token:.3g} J per output token ({tok_per_j:.3g} tokens per joule)" + per_req + ", "
            "measured {scope_words} over "
            + INTERVAL_WORDS.get(ev.get("interval"), "{interval}")
            + " ("
            + basis
            + ")."
            + idle,
            topic=topic,
            withheld="`{run}`: {j_per_request:.4g} J per request, measured {scope_words} over "
            + INTERVAL_WORDS.get(ev.get("interval"), "{interval}")
            + "; no energy per token, because {reason}."
            if ev.get("j_per_request") is not None
            else "`{run}`: no energy per output token is stated ({scope_words}), because {reason}.",
        )
    if claim.id in ("measured_cheapest", "measured_cheapest_active"):
        what = "with idle power subtracted, " if claim.id.endswith("active") else ""
        change = ""
        if claim.id.endswith("active") and ev.get("total_cheapest"):
            change = (
                " That is the same configuration as with idle counted."
                if ev.get("same_as_total")
                else " Idle counted, the cheapest is `{total_cheapest}` instead: subtracting idle power changes the "
                "order."
            )
        return wording.say(
            claim,
            "Measured " + what + "{scope_words}, the cheapest per output token is `{a_run}`: {a:.3g} J against "
            "{b:.3g} J for the next, `{b_run}` ({margin:.1%} less, beyond the {noise:.0%} a single measurement "
            "allows)." + change + _others(ev),
            topic=topic,
            withheld="No cheapest configuration per output token "
            + ("with idle subtracted " if what else "")
            + "is named, because {reason}."
            + (_others(ev) if ev.get("scope") else ""),
        )
    if claim.id == "measured_cheapest_request":
        return wording.say(
            claim,
            "Measured {scope_words}, `{a_run}` needs {ratio:.0%} of the energy per request of `{b_run}` ({a:.4g} J "
            "against {b:.4g} J, beyond the {noise:.0%} a single measurement allows)." + _others(ev),
            topic=topic,
            withheld="No configuration is named cheapest per request, because {reason}.",
        )
    if claim.id == "measured_spread":
        return wording.say(
            claim,
            "Measured {scope_words}, the costliest configuration, `{a_run}`, needs {ratio:.2f} times the energy per "
            "output token of the cheapest, `{b_run}`." + _others(ev),
            topic=topic,
            withheld="The costliest and the cheapest configuration are not compared, because {reason}.",
        )
    if claim.id.startswith("floor_"):
        floor_words = (
            "reading its {active_params_b:.3g} B active parameters once at {bytes_per_param:g} bytes each "
            "({weights_gb:.3g} GB; the bytes per parameter are assumed, the file does not give the weights' "
            "precision) at the {floor_device}'s {bandwidth_gb_s:,.0f} GB/s and {power_w:.0f} W rated "
            "power costs about {floor_j:.3g} J, a rough floor for one decode step"
        )
        batch = ev.get("batch_size")
        if batch and (ev.get("ratio") or 1) < 1:
            shown = (
                "`{run}`: " + floor_words + ", {b:.3g} J per token at batch {batch_size:g}; the measured "
                "{a:.3g} J per output token ({scope_words}) is below it ({ratio:.0%} of it): the card read its "
                "weights on less than its rated power, or the model size or precision assumed here is off."
            )
        elif batch:
            shown = (
                "`{run}`: " + floor_words + ", {b:.3g} J per token at batch {batch_size:g}; the measured "
                "{a:.3g} J per output token ({scope_words}) is {ratio:.1f} times that floor."
            )
        elif (ev.get("ratio") or 1) < 1:
            sharing = (
                " At the {mean_power_w:.0f} W the card drew on average, reading the weights once takes "
                "{floor_read_j:.3g} J, so, if the weights are that size, each read served at least {min_sharing:.1f} "
                "output tokens on average: the run decoded several sequences per step (the file does not say how many)."
                if ev.get("min_sharing") is not None
                else " The run decoded several sequences per step (the file does not say how many)."
            )
            shown = (
                "`{run}`: "
                + floor_words
                + "; the measured {a:.3g} J per output token ({scope_words}) is below it."
                + sharing
            )
        else:
            shown = (
                "`{run}`: " + floor_words + " (batch 1); the measured {a:.3g} J per output token ({scope_words}) is "
                "{ratio:.1f} times that."
            )
        return wording.say(
            claim,
            shown,
            topic=topic,
            withheld="`{run}`: no weights-read floor is stated, because {reason}.",
            implausible="`{run}`: the measured {a:.3g} J per output token ({scope_words}) is below the {b:.3g} J of "
            "reading the weights once per step at batch {batch_size:g} ({weights_gb:.3g} GB at {bandwidth_gb_s:,.0f} "
            "GB/s and {power_w:.0f} W): beyond physics, so an input is wrong: "
            + (
                "most likely the token count, which is nominal (every sample counted at max_new_tokens) while "
                "generations may have stopped far earlier; else "
                if ev.get("tokens_basis") == "nominal"
                else ""
            )
            + "the model size, the precision (here {bytes_per_param:g} bytes per parameter) or the device.",
        )
    raise KeyError(f"no wording for claim {claim.id!r}")


def describe(rows: pd.DataFrame, table: pd.DataFrame) -> str:
    """One sentence on the measured energy an input holds (empty when none): tools, configurations,
    scopes, devices as the files name them."""
    if table.empty:
        return ""
    tools = ", ".join(dict.fromkeys(rows["tool"]))
    n = table.drop_duplicates(["source", "run"]).shape[0]
    scopes = ", ".join(SCOPES.get(s, s) for s in dict.fromkeys(table["scope"]))
    devices = [str(d) for d in dict.fromkeys(table["device"].dropna())]
    models = [str(m) for m in dict.fromkeys(table["model"].dropna())]
    if 0 < len(models) <= 4:
        scopes += f"; model{'s' if len(models) > 1 else ''} {', '.join(models)}"
    dev = f"; devices as the files name them: {', '.join(devices)}" if devices else "; the files do not name the device"
    return f"It holds measured energy ({tools}) of {n} configuration{'s' if n != 1 else ''}, measured {scopes}{dev}."


def extend(led: Ledger, claims: list[Claim]) -> None:
    """Word the measured-energy claims and add them to the chapter's ledger."""
    led.extend(word(c) for c in claims)


def section(led: Ledger, table: pd.DataFrame) -> str:
    """The measured-energy verdicts: one sentence per configuration (the first MAX_LISTED), the
    rankings, then the floors (the floors withheld for one reason said once); one sentence when the
    input holds no measured energy."""
    if table.empty:
        return (
            "This input holds no measured energy (it is read for its power limits below). The chapter reads "
            "ML.ENERGY, optimum-benchmark and inference-energy outputs for measured energy."
        )
    claims = list(led.claims)
    runs_ = [c.text for c in claims if c.id.startswith("measured_") and c.kind == "energy_bound"]
    n_configs = len(energy.quoted(table).drop_duplicates(["source", "run"]))
    if n_configs > 1:
        ids = ("measured_cheapest", "measured_spread", "measured_cheapest_active", "measured_cheapest_request")
        ranks = " ".join(led.get(i).text for i in ids)
    else:
        ranks = "With one configuration there is nothing to rank."
    floors = [c for c in claims if c.id.startswith("floor_")]
    said = [c.text for c in floors if c.status != "withheld"]
    by_reason: dict[str, int] = {}
    for c in floors:
        if c.status == "withheld":
            by_reason[c.reason] = by_reason.get(c.reason, 0) + 1
    for reason, n in by_reason.items():
        hint = " (name it with `-p gpu NAME`, a row of data/hardware.csv)" if "device" in reason else ""
        said.append(f"No weights-read floor for {n} configuration{'s' if n != 1 else ''}: {reason}{hint}.")
    return "\n\n".join([_listed(runs_, "configurations"), ranks, _listed(said, "floors")])


#: Sentences listed per kind before the page points to the table instead.
MAX_LISTED = 12


def _listed(texts: list[str], what: str) -> str:
    shown = texts if len(texts) <= MAX_LISTED else [*texts[:MAX_LISTED], f"The table above lists all {what}."]
    return "\n".join(f"- {t}" for t in shown)


def takeaways(led: Ledger) -> list[str]:
    """The measured-energy takeaways: the shown rankings."""
    have = {c.id for c in led.claims}
    return [led.get(i).text for i in ("measured_cheapest", "measured_spread") if i in have and led.get(i).shown]


def energy_display(table: pd.DataFrame) -> pd.DataFrame:
    """The quoted rows as a table: configuration, scope, interval, J per output token, tokens per
    joule, J per request, idle-subtracted J per output token."""
    t = energy.quoted(table)
    cols = {
        "run": "configuration",
        "scope": "scope",
        "interval": "interval",
        "j_per_output_token": "J / output token",
        "tok_per_j": "tokens / J",
        "j_per_request": "J / request",
        "j_per_output_token_active": "J / output token, idle subtracted",
    }
    t = t.assign(scope=t["scope"].map(SCOPES))
    keep = [c for c in cols if c in t and (c in ("run", "scope", "interval") or t[c].notna().any())]
    return t[keep].rename(columns=cols)


def energy_bars(table: pd.DataFrame):
    """J per output token (or per request, where no token count exists) per configuration, one
    colour per scope, cheapest at the top."""
    import matplotlib.pyplot as plt

    t = energy.quoted(table)
    col = "j_per_output_token" if t["j_per_output_token"].notna().any() else "j_per_request"
    t = t.dropna(subset=[col])
    if t.empty:
        return message_figure("no energy per output token or per request in this input")
    t = t.sort_values(col, ascending=False)
    several = t.groupby(["source", "run"])["scope"].transform("nunique") > 1
    labels = t["run"].astype(str) + several.map({True: " ", False: ""}) + t["scope"].where(several, "").fillna("")
    fig, ax = plt.subplots(figsize=(8, 1.2 + 0.28 * len(t)))
    scopes = list(dict.fromkeys(t["scope"]))
    for i, s in enumerate(scopes):
        m = (t["scope"] == s).to_numpy()
        ax.barh(labels[m].tolist(), t[col][m], color=color(i), label=SCOPES.get(s, s))
    ax.set_xlabel("J per output token" if col == "j_per_output_token" else "J per request")
    ax.legend(title="scope", loc="lower left", bbox_to_anchor=(0, 1.0), ncol=3, frameon=False)
    fig.tight_layout()
    return fig
