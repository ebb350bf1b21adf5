"""The power chapter's measured-energy section: its table, figure and how its verdicts are laid out
(the verdicts of `claims.energy` are worded in `notebooks/perf_per_watt.claims.yml`).

Every figure is said with its scope beside it (GPU only, GPU + CPU + RAM, the wall) and the
interval it covers; a ranking names the scope it ranks and the scopes it left out.
"""

from __future__ import annotations

import textwrap

import pandas as pd

from benchbook.analysis import energy
from benchbook.claims import Ledger
from benchbook.ingest.energy import SCOPES
from benchbook.presentation import wording
from benchbook.presentation.plotting import color, message_figure


def _say(name: str, **values) -> str:
    """One of the chapter's descriptive sentences (notebooks/perf_per_watt.claims.yml, `sentences:`)."""
    return wording.sentence("perf_per_watt", name, **values)


def describe(rows: pd.DataFrame, table: pd.DataFrame) -> str:
    """One sentence on the measured energy an input holds (empty when none): tools, configurations,
    scopes, devices as the files name them."""
    if table.empty:
        return ""
    return _say(
        "measured_energy",
        tools=list(dict.fromkeys(rows["tool"])),
        n=table.drop_duplicates(["source", "run"]).shape[0],
        scopes=[SCOPES.get(s, s) for s in dict.fromkeys(table["scope"])],
        models=[str(m) for m in dict.fromkeys(table["model"].dropna())],
        devices=[str(d) for d in dict.fromkeys(table["device"].dropna())],
    )


def section(led: Ledger, table: pd.DataFrame) -> str:
    """The measured-energy verdicts: one sentence per configuration (the first MAX_LISTED), the
    rankings, then the floors (the floors withheld for one reason said once); one sentence when the
    input holds no measured energy."""
    if table.empty:
        return _say("no_measured_energy")
    claims = list(led.claims)
    runs_ = [c.text for c in claims if c.id.startswith("measured_") and c.kind == "energy_bound"]
    n_configs = len(energy.quoted(table).drop_duplicates(["source", "run"]))
    if n_configs > 1:
        ids = ("measured_cheapest", "measured_spread", "measured_cheapest_active", "measured_cheapest_request")
        ranks = " ".join(led.get(i).text for i in ids)
    else:
        ranks = _say("nothing_to_rank")
    floors = [c for c in claims if c.id.startswith("floor_")]
    said = [c.text for c in floors if c.status != "withheld"]
    by_reason: dict[str, int] = {}
    for c in floors:
        if c.status == "withheld":
            by_reason[c.reason] = by_reason.get(c.reason, 0) + 1
    for reason, n in by_reason.items():
        said.append(_say("no_floor", n=n, reason=reason))
    return "\n\n".join([_listed(runs_, "configurations"), ranks, _listed(said, "floors")])


#: Sentences listed per kind before the page points to the table instead.
MAX_LISTED = 12


def _listed(texts: list[str], what: str) -> str:
    shown = texts if len(texts) <= MAX_LISTED else [*texts[:MAX_LISTED], _say("listed_all", what=what)]
    return "\n".join(f"- {t}" for t in shown)


def takeaways(led: Ledger) -> list[str]:
    """The measured-energy takeaways: the shown rankings."""
    have = {c.id for c in led.claims}
    return [led.get(i).text for i in ("measured_cheapest", "measured_spread") if i in have and led.get(i).shown]


def energy_display(table: pd.DataFrame) -> pd.DataFrame:
    """The quoted rows as a table: configuration, scope, interval, J per output token, tokens per
    joule, J per token counting prompt tokens too (where the file counts them), J per request,
    idle-subtracted J per output token, and the output rate and latency the file prints beside them."""
    t = energy.quoted(table)
    cols = {
        "run": "configuration",
        "scope": "scope",
        "interval": "interval",
        "j_per_output_token": "J / output token",
        "tok_per_j": "tokens / J",
        "j_per_token": "J / token (prompt and output)",
        "j_per_request": "J / request",
        "j_per_output_token_active": "J / output token, idle subtracted",
        "output_tok_s": "output tok/s",
        "e2el_s": "latency per request (s)",
    }
    t = t.assign(scope=t["scope"].map(SCOPES))
    keep = [c for c in cols if c in t and (c in ("run", "scope", "interval") or t[c].notna().any())]
    return t[keep].rename(columns=cols)


#: Characters per line of a bar's label before it wraps.
LABEL_WIDTH = 40


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
    # a long configuration name (a model file on a machine) wraps rather than squeezing the bars out
    labels = labels.map(lambda s: textwrap.fill(s, LABEL_WIDTH))
    lines = int(labels.str.count("\n").sum()) + len(t)
    fig, ax = plt.subplots(figsize=(8, 1.2 + 0.28 * lines))
    scopes = list(dict.fromkeys(t["scope"]))
    for i, s in enumerate(scopes):
        m = (t["scope"] == s).to_numpy()
        ax.barh(labels[m].tolist(), t[col][m], color=color(i), label=SCOPES.get(s, s))
    ax.set_xlabel("J per output token" if col == "j_per_output_token" else "J per request")
    ax.legend(title="scope", loc="lower left", bbox_to_anchor=(0, 1.0), ncol=3, frameon=False)
    fig.tight_layout()
    return fig
