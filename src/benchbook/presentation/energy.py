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
from benchbook.presentation.plotting import color, tight


def _say(name: str, **values) -> str:
    """One of the chapter's descriptive sentences (notebooks/perf_per_watt.claims.yml, `sentences:`)."""
    return wording.sentence("perf_per_watt", name, **values)


def describe(rows: pd.DataFrame, table: pd.DataFrame, machines=(), said: dict | None = None) -> str:
    """One sentence on the measured energy an input holds (empty when none): tools, configurations,
    scopes, devices as the files name them, else the `machines` they name (a board run on its CPU), else
    what the files `said` of a device (`analysis.energy.stated_device`)."""
    if table.empty:
        return ""
    runs = table.drop_duplicates(["source", "run"])
    # the repeats of a configuration (`configuration`) are one configuration, not several
    conf = runs["configuration"] if "configuration" in runs else pd.Series(None, index=runs.index, dtype="object")
    configs = runs.assign(_c=conf.where(conf.notna(), runs["run"])).drop_duplicates(["source", "_c"])
    return _say(
        "measured_energy",
        tools=list(dict.fromkeys(rows["tool"])),
        n=configs.shape[0],
        runs=runs.shape[0],
        scopes=[SCOPES.get(s, s) for s in dict.fromkeys(table["scope"])],
        gpus=_gpus(table),
        models=[str(m) for m in dict.fromkeys(table["model"].dropna())],
        devices=[str(d) for d in dict.fromkeys(table["device"].dropna())],
        machines=[str(m) for m in dict.fromkeys(machines)],
        said=said or {"status": "absent"},
    )


def _gpus(table: pd.DataFrame) -> list[int]:
    """How many GPUs the GPU-scoped figures are summed over, where a file states more than one (a
    `--record-power` summary's median total over its per-GPU median, an AIPerf telemetry's GPU list)."""
    if "device_count" not in table:
        return []
    counts = pd.to_numeric(table.loc[table["scope"].eq("gpu"), "device_count"], errors="coerce").dropna()
    return [int(c) for c in dict.fromkeys(counts) if c > 1 and float(c).is_integer()]


def section(led: Ledger, table: pd.DataFrame, boxed: set[str] = frozenset()) -> str:
    """The measured-energy verdicts that are shown and not in the bottom line: one sentence per
    configuration (the first MAX_LISTED), the rankings, then the floors; a withheld one goes to the
    page's folded list (a configuration's withheld sentence still says its energy, so it stays here).
    Empty when the input holds no measured energy."""
    if table.empty:
        return ""
    claims = [c for c in led.claims if c.id not in boxed]
    runs_ = [c.text for c in claims if c.id.startswith("measured_") and c.kind == "energy_bound"]
    n_configs = len(energy.quoted(table).drop_duplicates(["source", "run"]))
    ids = ("measured_cheapest", "measured_spread", "measured_cheapest_active", "measured_cheapest_request")
    ranks = " ".join(c.text for c in claims if c.id in ids and c.shown) if n_configs > 1 else ""
    floors = [c.text for c in claims if c.id.startswith("floor_") and c.status != "withheld"]
    parts = [_listed(runs_, "configurations"), itl_sentence(table), ranks, _listed(floors, "floors")]
    return "\n\n".join(p for p in parts if p)


def itl_sentence(table: pd.DataFrame) -> str:
    """The inter-token latencies the input prints beside its energy (median and p99 over the
    configurations, the other statistics named for the table); empty where it prints none."""
    t = energy.quoted(table).drop_duplicates(["source", "run"])
    have = t[t["itl_median_ms"].notna() & t["itl_p99_ms"].notna()] if "itl_median_ms" in t else t.iloc[0:0]
    if have.empty:
        return ""
    others = [s for s in energy.ITL_STATISTICS if s not in ("median", "p99") and have[f"itl_{s}_ms"].notna().any()]
    # a configuration run twice (`configuration`, the repeats' shared name) is one configuration in two runs
    conf = have["configuration"] if "configuration" in have else pd.Series(None, index=have.index, dtype="object")
    n_configs = have.assign(_c=conf.where(conf.notna(), have["run"])).drop_duplicates(["source", "_c"]).shape[0]
    return wording.sentence(
        "perf_per_watt",
        "itl",
        n=n_configs,
        runs=len(have),
        median_lo=have["itl_median_ms"].min(),
        median_hi=have["itl_median_ms"].max(),
        p99_lo=have["itl_p99_ms"].min(),
        p99_hi=have["itl_p99_ms"].max(),
        others=others,
    )


def said_elsewhere(led: Ledger) -> set[str]:
    """The measured-energy claims a folded list of withheld verdicts leaves out: each configuration's
    (its sentence is in the results, withheld or not) and each withheld floor (`withheld_floors`)."""
    return {c.id for c in led.claims if c.id.startswith(("measured_", "floor_")) and c.kind == "energy_bound"} | {
        c.id for c in led.claims if c.id.startswith("floor_") and c.status == "withheld"
    }


def withheld_floors(led: Ledger) -> list[str]:
    """The floors withheld, one sentence per reason they share (said once, not once per configuration)."""
    by_reason: dict[str, int] = {}
    for c in led.claims:
        if c.id.startswith("floor_") and c.status == "withheld":
            by_reason[c.reason] = by_reason.get(c.reason, 0) + 1
    return [_say("no_floor", n=n, reason=reason) for reason, n in by_reason.items()]


#: Sentences listed per kind before the page points to the table instead.
MAX_LISTED = 12


def _listed(texts: list[str], what: str) -> str:
    if not texts:
        return ""
    shown = texts if len(texts) <= MAX_LISTED else [*texts[:MAX_LISTED], _say("listed_all", what=what)]
    return "\n".join(f"- {t}" for t in shown)


def floors(led: Ledger) -> dict[tuple[str, str], tuple[float, float | None]]:
    """Each weights-read floor the page states, per (configuration, scope words): the floor per output
    token and the measured energy over it (`claims.energy.floor`'s evidence), for the table's columns, so
    the floors past the sentences listed are stated there."""
    out = {}
    for c in led.claims:
        if c.id.startswith("floor_") and c.status != "withheld" and c.evidence.get("b") is not None:
            out[(str(c.evidence["run"]), str(c.evidence["scope_words"]))] = (c.evidence["b"], c.evidence.get("ratio"))
    return out


def energy_display(table: pd.DataFrame, floored: dict | None = None) -> pd.DataFrame:
    """The quoted rows as a table: configuration, scope, interval, the energy measured and its duration
    (so a configuration past the sentences listed keeps its measurement), J per output token, tokens per
    joule, J per token counting prompt tokens too (where the file counts them), J per request,
    idle-subtracted J per output token, the weights-read floor per output token and the measured energy
    over it (`floored`, from `floors`), and the mean power, the output and request rates and the latency
    the file prints beside them."""
    t = energy.quoted(table)
    if floored:
        key = list(zip(t["run"].astype(str), t["scope"].map(SCOPES).astype(str), strict=True))
        t = t.assign(
            floor_j_per_token=[floored.get(k, (None, None))[0] for k in key],
            over_floor=[floored.get(k, (None, None))[1] for k in key],
        )
    cols = {
        "run": "configuration",
        "scope": "scope",
        "interval": "interval",
        "energy_j": "energy (J)",
        "duration_s": "duration (s)",
        "j_per_output_token": "J / output token",
        "tok_per_j": "tokens / J",
        "j_per_token": "J / token (prompt and output)",
        "j_per_request": "J / request",
        "j_per_output_token_active": "J / output token, idle subtracted",
        "floor_j_per_token": "weights-read floor (J / output token)",
        "over_floor": "measured / floor",
        "mean_power_w": "mean power (W)",
        "output_tok_s": "output tok/s",
        "req_s": "requests / s",
        "e2el_s": "latency per request (s)",
        **{f"itl_{stat}_ms": f"{stat} ITL (ms)" for stat in energy.ITL_STATISTICS},
    }
    t = t.assign(scope=t["scope"].map(SCOPES))
    keep = [c for c in cols if c in t and (c in ("run", "scope", "interval") or t[c].notna().any())]
    return t[keep].rename(columns=cols)


#: Characters per line of a bar's label before it wraps.
LABEL_WIDTH = 40
#: Inches of the figure per line of bar labels, and for what surrounds the bars (the legend and its
#: title above them, the ticks and the axis label below): the bars get their own height, however few
#: (a lone configuration once got an axes 1 px high, its bar not drawn).
LINE_IN = 0.28
AROUND_IN = 1.7


def energy_bars(table: pd.DataFrame):
    """J per output token (or per request, where no token count exists) per configuration, one
    colour per scope, cheapest at the top."""
    import matplotlib.pyplot as plt

    t = energy.quoted(table)
    if t.empty:
        return None
    col = "j_per_output_token" if t["j_per_output_token"].notna().any() else "j_per_request"
    t = t.dropna(subset=[col])
    if t.empty:
        return None
    t = t.sort_values(col, ascending=False)
    several = t.groupby(["source", "run"])["scope"].transform("nunique") > 1
    labels = t["run"].astype(str) + several.map({True: " ", False: ""}) + t["scope"].where(several, "").fillna("")
    # a long configuration name (a model file on a machine) wraps rather than squeezing the bars out
    labels = labels.map(lambda s: textwrap.fill(s, LABEL_WIDTH))
    lines = int(labels.str.count("\n").sum()) + len(t)
    fig, ax = plt.subplots(figsize=(8, AROUND_IN + LINE_IN * lines))
    scopes = list(dict.fromkeys(t["scope"]))
    for i, s in enumerate(scopes):
        m = (t["scope"] == s).to_numpy()
        ax.barh(labels[m].tolist(), t[col][m], color=color(i), label=SCOPES.get(s, s))
    ax.set_xlabel("J per output token" if col == "j_per_output_token" else "J per request")
    ax.legend(title="scope", loc="lower left", bbox_to_anchor=(0, 1.0), ncol=3, frameon=False)
    tight(fig)
    return fig
