"""serving_saturation: figures, display tables and descriptions of the data (its claims' sentences
are in notebooks/serving_saturation.claims.yml)."""

from __future__ import annotations

from typing import Any

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.ticker import MaxNLocator

from benchbook.analysis import roofline, serving
from benchbook.claims import rules
from benchbook.claims.serving import LATENCY_STAT
from benchbook.presentation import tables, wording
from benchbook.presentation.plotting import color, message_figure, panel_size, tight

SOURCE_WORDS = {
    "detected": "named in the input",
    "parameter": "given as a parameter",
}
APART_WORDS = {"max_concurrency": "no concurrency cap", "request_rate": "infinite request rate"}

#: The runs' columns a page shows, in a reader's words with their units, as two tables of at most
#: seven columns (the run and its repeat, then five): the settings, then what they gave. Eleven
#: columns in one table leave each header too narrow for its words, and the browser breaks them
#: inside words.
RUN_SETTINGS = {
    "run": "run",
    "max_concurrency": "max concurrency (requests)",
    "request_rate": "request rate (req/s)",
    "num_prompts": "prompts",
    "completed": "completed",
    "duration": "duration (s)",
}
RUN_RESULTS = {
    "run": "run",
    "request_throughput": "throughput (req/s)",
    "output_throughput": "output throughput (tok/s)",
    "ttft_mean": "mean TTFT (ms)",
    "tpot_mean": "mean TPOT (ms)",
    "itl_mean": "mean ITL (ms)",
}
#: Throughputs an authors' table names in its own words (`Throughput (tok/s)`, `tok/s/gpu`): shown as named,
#: never taken for output or total throughput.
RUN_NAMED = {
    "run": "run",
    "throughput": "throughput, as the table names it (tok/s)",
    "throughput_per_gpu": "throughput per GPU, as the table names it (tok/s)",
    "output_throughput_per_gpu": "output throughput per GPU (tok/s)",
    "total_token_throughput_per_gpu": "total token throughput per GPU (tok/s)",
}
RUN_COLUMNS = {**RUN_SETTINGS, **RUN_RESULTS}
#: Why a cell of a runs table is empty: a run with no concurrency cap prints none.
RUN_MISSING = {"max concurrency (requests)": "no cap", "request rate (req/s)": "not printed"}


def _say(name: str, **values) -> str:
    """One of the chapter's descriptive sentences (notebooks/serving_saturation.claims.yml, `sentences:`)."""
    return wording.sentence("serving_saturation", name, **values)


def _short(text, n: int = 24) -> str:
    """A run label short enough for a legend."""
    text = str(text)
    return text if len(text) <= n else text[: n - 3] + "..."


#: `with_repeat` without the repeat numbers given: it counts them.
_NOT_GIVEN: Any = object()


def fmt_x(v, variable: str) -> str:
    return f"{v:g}" if v is not None and np.isfinite(v) else ("no cap" if variable == "max_concurrency" else "inf")


def repeat_numbers(frame: pd.DataFrame) -> np.ndarray | None:
    """Each run's repeat of its load (1, 2, ... in the order the runs give them; `serving.load_key`),
    or None where no load ran more than once (a single run never did)."""
    if len(frame) < 2:
        return None
    key = serving.load_key(frame)
    if not key.duplicated().any():
        return None
    return (frame.groupby(key, sort=False).cumcount() + 1).to_numpy()


def with_repeat(t: pd.DataFrame, frame: pd.DataFrame, numbers: np.ndarray | None = _NOT_GIVEN) -> pd.DataFrame:
    """`t` (a table built row for row from `frame`) with a `repeat` column after `run` when some load
    ran more than once, so the repeats listed under one label can be told apart. `numbers`: what
    `repeat_numbers(frame)` gives, where the caller has it (the tables of one page share it)."""
    numbers = repeat_numbers(frame) if numbers is _NOT_GIVEN else numbers
    if numbers is None:
        return t
    t = t.reset_index(drop=True)
    t.insert(1, "repeat", numbers)
    return t


def run_missing(r: pd.DataFrame, numbers: np.ndarray | None = _NOT_GIVEN) -> pd.DataFrame:
    """Why each empty cell of `runs_table(r)` is empty (for `tables.show`): a run with no concurrency
    cap prints none; a run whose output format does not record the cap or the rate (its parser
    says so, `serving.recorded`) has one the page does not know."""
    t = runs_table(r, numbers=numbers)
    why = pd.DataFrame(np.nan, index=t.index, columns=t.columns, dtype=object)
    for col, name, absent in (
        (RUN_COLUMNS["max_concurrency"], "max_concurrency", "no cap"),
        (RUN_COLUMNS["request_rate"], "request_rate", "not printed"),
    ):
        if col in why:
            known = r[f"{name}_recorded"].to_numpy() if f"{name}_recorded" in r else np.ones(len(r), dtype=bool)
            why[col] = np.where(known, absent, "not recorded")
    return why


def runs_table(
    r: pd.DataFrame, columns: dict[str, str] = RUN_SETTINGS, numbers: np.ndarray | None = _NOT_GIVEN
) -> pd.DataFrame:
    """The runs as the parser read them, with the `columns` (RUN_SETTINGS or RUN_RESULTS) this input
    has (an infinite request rate is the tool's: every request sent at once); `numbers` as `with_repeat`."""
    return with_repeat(r[[c for c in columns if c in r]].rename(columns=columns), r, numbers)


def _named(r: pd.DataFrame) -> bool:
    """Whether some run has a throughput only as an authors' table names it (`RUN_NAMED`)."""
    return any(c in r and r[c].notna().any() for c in RUN_NAMED if c != "run")


def runs_tables(r: pd.DataFrame) -> list:
    """The runs for a page: their settings (empty cells saying why, `run_missing`), then their
    results, each table narrow enough for its headers to wrap between words."""
    numbers = repeat_numbers(r)
    out = [tables.show(runs_table(r, numbers=numbers), missing=run_missing(r, numbers))]
    named = [c for c in RUN_NAMED if c != "run" and c in r and r[c].notna().any()]  # as `_named`
    results = _results(r)
    printed = [c for c in results if c != "run" and c in r and r[c].notna().any()]
    if printed or not named:  # a table of empty cells beside the throughputs an authors' table names says nothing
        out.append(tables.show(runs_table(r, results, numbers)))
    if named:
        out.append(tables.show(runs_table(r, {"run": "run", **{c: RUN_NAMED[c] for c in named}}, numbers)))
    return out


def _results(r: pd.DataFrame) -> dict[str, str]:
    """RUN_RESULTS, with the total token throughput beside the output's where a run prints the total
    alone (a write-up's table of the tool's numbers): the figure's message points at this table for it."""
    out = r["output_throughput"] if "output_throughput" in r else pd.Series(np.nan, index=r.index)
    if "total_token_throughput" not in r or not (r["total_token_throughput"].notna() & out.isna()).any():
        return RUN_RESULTS
    at = list(RUN_RESULTS).index("output_throughput") + 1
    items = list(RUN_RESULTS.items())
    return dict([*items[:at], ("total_token_throughput", "total token throughput (tok/s)"), *items[at:]])


#: The latencies' names on a page.
LATENCY_NAMES = {"ttft": "TTFT", "tpot": "TPOT", "itl": "ITL", "e2el": "E2EL"}
#: Why a latency cell is empty: no request of the run completed (a tool prints 0 or nothing for an empty
#: distribution); no token came, so what the output prints is no latency (`serving.runs` blanks it); the
#: file's screen set a value of this latency aside (`serving.screened_latencies`), so the cell may be one
#: of them; else the run's output prints no such statistic.
NONE_COMPLETED, NO_TOKEN, NOT_READ, NOT_PRINTED = "none completed", "no token came", "not read", "not printed"
NO_COUNT = "no token counted"
ONE_TOKEN = "one token a request"


def latency_table(
    r: pd.DataFrame, metric: str, numbers: np.ndarray | None = _NOT_GIVEN
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """One latency of every run, as read (`serving.latency_stats`, ms): the run (and its repeat), then
    a column per statistic read for some run (the mean, the median and every percentile printed, by
    rank), and why each empty cell is empty. Both frames have no column of statistics when none of this
    latency was read. `numbers` as `with_repeat`."""
    s = serving.latency_stats(r, metric, every=True)
    shown = [c for c in s.columns if c != "run" and s[c].notna().any()]
    name = LATENCY_NAMES[metric]
    heads = {c: f"{name}, as the table names it (ms)" if c == "value" else f"{c} {name} (ms)" for c in shown}
    t = with_repeat(s[["run", *shown]].rename(columns=heads), r, numbers)
    n = len(r)
    done = r["completed"].astype(float).to_numpy() if "completed" in r else np.full(n, np.nan)
    silent = r["no_output"].fillna(False).astype(bool).to_numpy() if "no_output" in r else np.zeros(n, bool)
    aside = (
        r["latency_set_aside"].fillna("").map(lambda t: metric in t.split(",")).to_numpy(bool)
        if "latency_set_aside" in r
        else np.zeros(n, bool)
    )
    uncounted = r["uncounted"].fillna(False).astype(bool).to_numpy() if "uncounted" in r else np.zeros(n, bool)
    one = r["one_token"].fillna(False).astype(bool).to_numpy() if "one_token" in r else np.zeros(n, bool)
    why = np.select(
        [
            done == 0,
            silent & (metric != "e2el"),
            uncounted & (metric == "tpot"),
            one & (metric in ("tpot", "itl")),
            aside,
        ],
        [NONE_COMPLETED, NO_TOKEN, NO_COUNT, ONE_TOKEN, NOT_READ],
        NOT_PRINTED,
    )
    missing = pd.DataFrame({c: why if c.endswith("(ms)") else np.nan for c in t.columns}, index=t.index, dtype=object)
    return t, missing


def latency_tables(r: pd.DataFrame) -> list:
    """A table per latency (TTFT, TPOT, ITL, E2EL) with a statistic read for some run, each narrow enough
    for its headers to wrap between words."""
    out, numbers = [], repeat_numbers(r)
    for metric in serving.LATENCIES:
        t, missing = latency_table(r, metric, numbers)
        if any(c.endswith("(ms)") for c in t.columns):
            out.append(tables.show(t, missing=missing, caption=f"{LATENCY_NAMES[metric]} of each run (ms)"))
    return out


def tail_sentence(r: pd.DataFrame) -> str:
    """The spread of the first latency (TTFT, TPOT, ITL, E2EL) with a tail ratio (`serving.tail_ratios`)
    in some run: p99 over the median, the run where it is lowest and where highest, with both values; or
    why there is none."""
    printed = any(
        serving.latency_stats(r, m, every=True).drop(columns="run").notna().any(axis=None) for m in serving.LATENCIES
    )
    for metric in serving.LATENCIES:
        ratio = serving.tail_ratios(r, metric).dropna()
        if len(ratio):
            s = serving.latency_stats(r, metric)

            def at(i, s=s, ratio=ratio):
                return {
                    "run": str(s.at[i, "run"]),
                    "ratio": float(ratio[i]),
                    "median": float(s.at[i, "median"]),
                    "p99": float(s.at[i, "p99"]),
                }

            return _say(
                "tail",
                printed=True,
                latency=LATENCY_NAMES[metric],
                n=len(ratio),
                runs=len(r),
                lo=at(ratio.idxmin()),
                hi=at(ratio.idxmax()),
            )
    return _say("tail", printed=printed, n=0, runs=len(r))


def littles_table(lit: pd.DataFrame) -> pd.DataFrame:
    """Little's law per run (`serving.littles_law`): requests in flight against the cap, with a
    column marking estimated latencies when any is estimated."""
    t = lit.assign(utilisation=100 * lit["utilisation"])
    cols = {
        "run": "run",
        "nominal": "most in flight (the cap, or the prompts where fewer or uncapped)",
        "request_throughput": "throughput (req/s)",
        "mean_e2el_s": "mean end-to-end latency (s)",
        "in_flight": "in flight (requests)",
        "utilisation": "in flight / most (%)",
    }
    if t["estimated"].any():
        cols["estimated"] = "latency estimated from TTFT and TPOT"
    return with_repeat(t[list(cols)].rename(columns=cols), lit)


def goodput_bounds_table(gb: pd.DataFrame) -> pd.DataFrame:
    """Per run, the share of requests within both SLOs and the goodput it allows, lower and upper
    bound from the printed percentiles."""
    t = gb.assign(share_lo=100 * gb["share_lo"], share_hi=100 * gb["share_hi"])
    cols = ["run", "request_throughput", "share_lo", "share_hi", "goodput_lo", "goodput_hi"]
    if "slo_whose" in gb and (gb["slo_whose"] == "output").any():  # runs judged by limits of their own
        cols[1:1] = ["slo_ttft_ms", "slo_tpot_ms"]
    t = t[cols].rename(
        columns={
            "slo_ttft_ms": "TTFT limit (ms)",
            "slo_tpot_ms": "TPOT limit (ms)",
            "request_throughput": "throughput (req/s)",
            "share_lo": "within both SLOs, at least (%)",
            "share_hi": "within both SLOs, at most (%)",
            "goodput_lo": "goodput, at least (req/s)",
            "goodput_hi": "goodput, at most (req/s)",
        }
    )
    return with_repeat(t, gb)


def exact_goodput_table(ex: pd.DataFrame) -> pd.DataFrame:
    """Per run, goodput counted from the per-request data (`serving.exact_goodput`)."""
    t = ex.assign(share=100 * ex["share"])
    cols = ["run", "completed", "failed", "good", "share", "duration_s", "goodput"]
    return t[[c for c in cols if c in t]].rename(
        columns={
            "completed": "completed requests",
            "failed": "failed requests",
            "good": "within both SLOs",
            "share": "within both SLOs (%)",
            "duration_s": "duration (s)",
            "goodput": "goodput (req/s)",
        }
    )


#: The percentile statistics a goodput bound reads.
PERCENTILE_STATS = tuple(serving.PERCENTILE_OF)


# --- descriptions of the data --------------------------------------------------------------------


def _what(variable: str) -> str:
    return "concurrency cap" if variable == "max_concurrency" else "request rate"


def _infinite(r: pd.DataFrame) -> int:
    """The runs sent at an infinite request rate: not an MLPerf Server run whose rate the copy lacks."""
    server = (
        r["scenario"].eq("Server") & r["rate_assumed"].astype(bool) if {"scenario", "rate_assumed"} <= set(r) else False
    )
    return int((np.isinf(r["request_rate"].astype(float)) & ~server).sum())


def inputs_sentence(
    files: str,
    r: pd.DataFrame,
    variable: str,
    n_apart: int,
    tokenizers=(),
    untied=(),
    unnamed_said=(),
    spoken=(),
) -> str:
    """What the page reads: the files, runs, models (and the `tokenizers` the input names beside a
    served model of another name: `analysis.serving.tokenizers`; the `untied` models it names but ties
    to no run: `analysis.serving.untied_models`; what it says of a model for runs with none beside named
    ones: `analysis.serving.unnamed_said`, the absence rule), the sweep, the runs kept apart and
    why, and the series the curve's runs form, naming the ones the knee and growth sentences are about
    (`spoken`, from their evidence: a series of one load has no knee, so theirs need not be the first);
    failed requests are the `failed` claim's, never said twice."""
    unknown = int((~r[f"{variable}_recorded"] & r[variable].isna()).sum()) if f"{variable}_recorded" in r else 0
    curve = r[~serving.apart(r, variable)]
    # swept: one series at two loads or more; several series each at a load of its own are no sweep
    per_series = curve.groupby(serving.series_key(curve))[variable].nunique() if len(curve) and "model" in curve else []
    return _say(
        "inputs",
        files=files,
        runs=len(r),
        models=serving.models(r),
        unnamed=int(r["model"].isna().sum()) if "model" in r else 0,
        tokenizers=[list(t) for t in tokenizers],
        untied=[list(t) for t in untied],
        unnamed_said=[list(t) for t in unnamed_said],
        scripted=[list(t) for t in r["load_script"].dropna()] if "load_script" in r else [],
        swept=bool(len(per_series) and per_series.max() > 1),
        levels=int(curve[variable].nunique()) if len(curve) else 0,
        # runs all off the curve's axis are at one load only when every load setting is known and shared
        one_load=serving.one_load(r),
        bursts=bursts(r),
        workloads=serving.series_key(r).nunique() if len(r) and "model" in r else 0,
        apart_by=serving.series_apart(r) if len(r) and "model" in r else {},
        aggregated=int(serving.aggregates(r).sum()),
        variable=variable.replace("_", " "),
        # an infinite rate is one the run was sent at; an MLPerf Server run's, whose copy lacks the rate LoadGen
        # paced it at (`rate_assumed`, its Test Parameters cut), is no infinite one, though it is kept apart too
        kept=_infinite(r) if variable == "request_rate" else max(0, n_apart - unknown),
        apart=APART_WORDS[variable],
        unknown=unknown,
        what=_what(variable),
        series=series(r, variable),
        spoken=list(dict.fromkeys(s for s in spoken if s)),
    )


def bursts(r: pd.DataFrame) -> list[int]:
    """The prompt counts of the runs that send all their prompts at once (request rate inf, no
    concurrency cap: vLLM's and SGLang's benchmarks then issue every request without waiting), when
    they differ within a series of the settings the input states (`serving.series_key`, not the token
    totals: a burst sweep's small bursts sample other mean lengths): such runs sweep the burst's size,
    the requests in flight at the start; [] otherwise (runs of two stated workloads sweep nothing)."""
    if r.empty or not {"request_rate", "max_concurrency", "num_prompts"} <= set(r.columns):
        return []
    rate = r["request_rate"].astype(float)
    burst = r[np.isinf(rate) & r["max_concurrency"].isna() & r["num_prompts"].notna()]
    if burst.empty:
        return []
    swept = (
        burst.groupby(serving.series_key(burst, measured=False).to_numpy())["num_prompts"].transform("nunique").gt(1)
    )
    sizes = sorted(int(n) for n in burst.loc[swept, "num_prompts"].unique())
    return sizes if len(sizes) > 1 else []


def series(r: pd.DataFrame, variable: str) -> list[list]:
    """The series the curve's runs form (models, deployments or datasets), as [name, runs]; the
    inputs sentence names them, and that the knee and growth sentences speak of the first, when
    there are several."""
    curve = r[~serving.apart(r, variable)]
    if curve.empty or "model" not in curve:
        return []
    return [[name, int(n)] for name, n in serving.series_key(curve).value_counts(sort=False).items()]


def repeats_sentence(r: pd.DataFrame) -> str:
    """How many repeats each load has, and how the page uses them; nothing when every load ran once."""
    n = serving.repeats(r)
    if n.empty or n.max() < 2:
        return ""
    return _say("repeats", lo=int(n.min()), hi=int(n.max()))


def spread_sentence(curve: pd.DataFrame) -> str:
    """Per load run more than once (`serving.load_key`), its series and the spread of its output throughput:
    repeats of one setting give that setting's noise, never a best among them; nothing without repeats."""
    if not len(curve) or "output_throughput" not in curve:
        return ""
    d = curve.assign(series=serving.series_key(curve), load=serving.load_key(curve))
    loads = []
    for _, g in d.groupby("load", sort=False):
        y = g["output_throughput"].dropna()
        if len(y) >= 2:
            first = g.iloc[0]
            load = f"run `{first['run']}` and its repeats"  # the first run's name: the load as the table shows it
            row = dict(series=first["series"], load=load, n=len(y), lo=y.min(), hi=y.max(), mean=y.mean())
            loads.append({**row, "sd": y.std(ddof=1)})
    return _say("spread", loads=loads) if loads else ""


def curve_note(curve: pd.DataFrame, variable: str) -> str:
    """One sentence at the top of the curve's section: the repeats, or that there is no curve to speak of
    (and, where its runs repeat one load, their spread)."""
    levels = curve[variable].nunique() if len(curve) else 0
    if levels >= 2:
        return repeats_sentence(curve)
    return " ".join(x for x in (_say("no_curve", levels=levels), spread_sentence(curve)) if x)


def asked_output_note(r: pd.DataFrame) -> str:
    """The runs whose measured mean output is far from what their command asks for
    (`analysis.serving.output_off_asked`), the first named; nothing where none is."""
    off = serving.output_off_asked(r)
    if off.empty:
        return ""
    w = off.iloc[0]
    return _say(
        "asked_output",
        n=len(off),
        run=w["run"],
        measured=float(w["measured"]),
        asked=float(w["asked"]),
        asked_input=float(w["asked_input"]),
        echo=bool(w["echo"]),
    )


def output_mismatch_note(r: pd.DataFrame) -> str:
    """The runs whose tool counted outputs off the length asked (`analysis.serving.output_mismatch`): how
    many, by how much, and that the rates are of those outputs; nothing where none is."""
    off = serving.output_mismatch(r)
    if off.empty:
        return ""
    return _say(
        "output_mismatch",
        runs=[{k: (v.item() if hasattr(v, "item") else v) for k, v in row.items()} for row in off.to_dict("records")],
        named=len(r) > 1,
        pct=serving.OSL_MISMATCH_PCT,
        tokens=serving.OSL_MISMATCH_TOKENS,
    )


def assumed_rate_note(r: pd.DataFrame, rate_said: dict | None = None) -> str:
    """What the page says of runs whose request rate is not the output's: runs whose rate sends fewer
    requests than completed, or far more, MLPerf's offered rate, and runs printing none, taken as the
    tool's default (unlimited), beside a rate the file states or speaks of elsewhere (`rate_said`:
    `analysis.serving.rate_said`, the absence rule), or left unknown where the format records none."""
    assumed = r["rate_assumed"].astype(bool) if "rate_assumed" in r else pd.Series(False, index=r.index)
    # LoadGen schedules Server queries at target_qps, printed only under Test Parameters: the page names
    # that section's line where the input has one, else says the input lacks it
    mlperf = assumed & r["scenario"].notna() if "scenario" in r else assumed & False
    lines = r.loc[mlperf, "parameters_line"].dropna() if "parameters_line" in r else pd.Series(dtype=float)
    n = int((assumed & ~mlperf).sum())
    refuted = r[r["at_once_refuted"].eq(True)] if "at_once_refuted" in r else r.iloc[0:0]
    unknown = r[r["request_rate"].isna() & ~r.index.isin(refuted.index)] if "request_rate" in r else r.iloc[0:0]
    tools = unknown["tool"] if "tool" in unknown else pd.Series("", index=unknown.index)
    scripts = unknown["load_script"] if "load_script" in unknown else pd.Series(None, index=unknown.index)
    formats = sorted(  # a run a script ran (`analysis.serving.unstated_loads`): that script, which sets its own load
        {
            f"`{s[1]}` (line {s[0]}), a script that sets its own" if isinstance(s, list) else f"{t} {f}".strip()
            for t, f, s in zip(tools, unknown["format"], scripts, strict=True)
        }
    )
    over = r[serving.rate_exceeded(r)]
    ex = {}
    if len(over):
        w = over.iloc[0]
        ex = dict(ex_run=str(w["run"]), ex_done=float(w["request_throughput"]), ex_rate=float(w["request_rate"]))
        if len(over) > 1:
            ex.update(
                ex_lo=float(over["request_throughput"].min()),
                ex_hi=float(over["request_throughput"].max()),
                rate_lo=float(over["request_rate"].min()),
                rate_hi=float(over["request_rate"].max()),
            )
    # an output whose runs beat their rate did not send at its rate setting: "sent faster" is not known there
    unmet = serving.rate_unmet(r)
    if "source" in r:
        unmet &= ~r["source"].isin(over["source"])
    short = r[unmet]
    if len(short):
        w = short.iloc[0]
        cap = w.get("max_concurrency")
        ex.update(un_run=str(w["run"]), un_done=float(w["request_throughput"]), un_rate=float(w["request_rate"]))
        ex.update(un_cap=float(cap) if pd.notna(cap) else None)
    if len(refuted):
        w = refuted.iloc[0]
        ex.update(
            at_run=str(w["run"]),
            at_n=float(w["completed"]),
            at_mean=float(w["e2el_mean"]) / 1000,
            at_median=float(w["e2el_median"]) / 1000 if pd.notna(w["e2el_median"]) else None,
            at_longest=float(w["at_once_longest"]),
            at_duration=float(w["duration"]),
        )
    return _say(
        "rate_note",
        refuted=len(refuted),
        exceeded=len(over),
        unmet=len(short),
        **ex,
        offline=offline_runs(r),
        # the endpoints harness's max_throughput runs (`ingest.mlperf_endpoints`): sent at t=0 by it, not LoadGen
        endpoints=bool(offline_runs(r))
        and bool(r.loc[r["scenario"].eq("Offline"), "loadgen_file"].eq("endpoints report").all())
        if "loadgen_file" in r
        else False,
        runs=len(r),
        mlperf=bool(mlperf.any()),
        mlperf_line=float(lines.iloc[0]) if len(lines) else None,
        assumed=n,
        unknown=len(unknown),
        formats=formats,
        arrivals=serving.arrivals(r),
        **(_untied_rate(rate_said, r) if n or len(refuted) else {}),
    )


def _untied_rate(said: dict | None, r: pd.DataFrame) -> dict:
    """What the file says of a rate beside runs that print none (`analysis.serving.rate_said`), less a
    stated rate that is unlimited or that some run has: that one agrees with the default or is tied."""
    said = dict(said or {})
    if said.get("rate_status") == "stated":
        v = float(said["rate_value"])
        taken = set(r["request_rate"].dropna().astype(float)) if "request_rate" in r else set()
        if np.isinf(v) or v in taken:
            return {}
    return said


def offline_runs(r: pd.DataFrame) -> int:
    """How many runs are MLPerf LoadGen Offline runs (every sample queued at t=0)."""
    return int(r["scenario"].eq("Offline").sum()) if "scenario" in r else 0


#: What the input says of its devices that the device sentence words itself (a disaggregated role, the counts
#: runs span, a device's cores), not through `claims.rules.no_device_reason`.
_OWN_SENTENCE = {"role", "role_line", "device_spans", "device_spans_counts", "cores", "cores_line"}


def device_sentence(
    peaks,
    model: str | None,
    total_b,
    active_b,
    size_source: str,
    weights,
    spans: int = 1,
    said: dict | None = None,
    size_line: int | None = None,
    fewest: int | None = None,
    instances: int = 1,
    models: list | None = None,
    precision_said: dict | None = None,
    named_at: tuple | None = None,
    titled: tuple | None = None,
    served: tuple | None = None,
    served_as: tuple | None = None,
    per_run: dict | None = None,
    drawn: bool = True,
    dp_unstated: bool = False,
    counts: list[int] | None = None,
    untied: int = 0,
    dp_inside: bool = False,
    replicated: bool = False,
) -> str:
    """The device the roofline uses and where its peak comes from (or that none is taken, and none
    assumed, with what the input names, `said`: `analysis.roofline.said`, and the devices a run spans
    where the input states them); the model's size, and its weights' precision and bytes per weight
    with where they come from (`weights`, an `analysis.precision.Weights`; `size_line`: the input's line
    that states the size, where the size is the input's own; `fewest`: the fewest devices a run spans,
    where runs of a disaggregated layout of `instances` instances stand beside runs in one instance;
    `models`: the runs' models, where they are several the roofline sizes none; `named_at`: (source, line)
    of a model the file names only in a heading or prose, `analysis.serving.named_at`; `titled`: (names, line)
    of the heading whose model sizes a weights folder, `analysis.serving.titled_size`; `served`: (checkpoint,
    line) beside a served name sizing nothing, `analysis.serving.served_checkpoint`; `served_as`: (checkpoint,
    line) a launch command serves the runs' model name for, `analysis.serving.served_as`; `precision_said`:
    where no precision is known or bf16 is assumed, what the file says of one, `analysis.serving.fact_said`; `per_run`: {run:
    (precision, tag) or None} where the runs' own names give different ones, `analysis.serving.run_precisions`;
    `drawn`: whether the roofline figure is drawn, `roofline_points`: a sentence speaks of it only then;
    `dp_unstated`: SGLang's DP written only in words, so `fewest` counts it inside the TP group and `spans` as
    replicas, `analysis.serving.fewest_devices`; `counts`: the device counts the runs' own parallelism
    states, `analysis.serving.device_counts`, several where no one peak is theirs; `untied`: the runs that state
    no parallelism beside runs that do, `analysis.serving.untied_spans`; `dp_inside`: their DP ranks run inside
    the TP group, `analysis.serving.dp_inside`, so the count is TP x PP; `replicated`: the `instances` are
    replicas behind one load balancer, `analysis.serving.replicated`, not prefill and decode instances)."""
    dev = {
        "counts": [str(n) for n in counts or []],
        "untied": untied,
        "spans": spans,
        "fewest": fewest or spans,
        "instances": instances,
        "replicated": replicated,
        "dp_unstated": dp_unstated,
        "dp_inside": dp_inside,
        **(said or {}),
        # what the input names of a device, in the reason's own words (benchbook/claims/reasons.yml): the
        # role, the span counts and the cores have sentences of their own above; glued as plain text, so
        # without the code marks
        "reason": rules.no_device_reason({k: v for k, v in (said or {}).items() if k not in _OWN_SENTENCE}).replace(
            "`", ""
        ),
    }
    if peaks is not None:
        dev = dict(
            device=peaks.device,
            source=SOURCE_WORDS.get(peaks.source, peaks.source),
            count=peaks.count,
            bandwidth=peaks.total_bandwidth_gb_s,
            variants=[list(v) for v in peaks.variants],
        )
    return _say(
        "device",
        **dev,
        drawn=drawn,
        model=model,
        models=[str(m) for m in models or []],
        named_at=list(named_at) if named_at else None,
        titled=list(titled) if titled else None,
        served=list(served) if served else None,
        served_as=list(served_as) if served_as else None,
        per_run=[[run, *(tag or (None, None))] for run, tag in (per_run or {}).items()],
        total_b=total_b,
        active_b=active_b,
        moe=bool(total_b and active_b and total_b > active_b),
        where=size_source,
        size_line=size_line,
        bpw=weights.bytes_per_weight,
        precision=weights.precision,
        precision_from=weights.source,
        precision_detail=weights.detail,
        **((precision_said or {}) if weights.precision is None or weights.assumed else {}),
    )


#: Runs whose Little's-law numbers a page spells out (the table lists them all).
_IN_FLIGHT_SHOWN = 4


def _rate_or_none(used, printed) -> float | None:
    """The rate Little's law used, else the printed one; None where neither is a number (a rate the
    parser set aside, such as a one-decimal 0.0): the run's measured concurrency is said without it."""
    for v in (used, printed):
        if v is not None and pd.notna(v) and np.isfinite(float(v)):
            return float(v)
    return None


def in_flight_sentence(lit: pd.DataFrame) -> str:
    """Each run's rate, mean latency and requests in flight, in words (the first few runs): what a
    reader quotes from Little's law; nothing where no run has a number."""
    have = lit[lit["in_flight"].notna()] if "in_flight" in lit else lit.iloc[0:0]
    if have.empty:
        return ""
    runs = [
        {
            "run": str(w["run"]),  # in a code span: a label may say `inf`
            "completed": float(w["completed"]) if np.isfinite(w.get("completed", np.nan)) else None,
            # the rate Little's law used: completed / duration where the printed rate is its rounding
            "rate": _rate_or_none(w.get("request_rate_used"), w.get("request_throughput")),
            "measured": bool(w.get("in_flight_measured", False)),
            "in_flight": float(w["in_flight"]),
            "latency": float(w["mean_e2el_s"]) if np.isfinite(w.get("mean_e2el_s", np.nan)) else None,
            "estimated": bool(w.get("estimated", False)),
            "had": float(w["requests_had"]) if np.isfinite(w.get("requests_had", np.nan)) else None,
            "over": bool(w.get("over_requests", False)),
        }
        for _, w in have.head(_IN_FLIGHT_SHOWN).iterrows()
    ]
    text = _say("in_flight", runs=runs, more=max(0, len(have) - _IN_FLIGHT_SHOWN))
    return " " + text if text else ""


def peak_sentence(peaks: pd.DataFrame) -> str:
    """What the tool's `Peak concurrent requests` counts (`serving.peak_in_flight`), the runs whose count is
    above their cap flagged with their lines (the counting, never a load), and the others as the most in
    flight during one second; nothing where no run prints one."""
    if peaks.empty:
        return ""

    def rows(d: pd.DataFrame) -> list[dict]:
        return [
            {
                "run": str(w["run"]),
                "peak": float(w["peak"]),
                "cap": float(w["cap"]) if pd.notna(w["cap"]) else None,
                "line": int(w["line"]) if pd.notna(w["line"]) else None,
            }
            for _, w in d.head(_IN_FLIGHT_SHOWN).iterrows()
        ]

    over, within = peaks[peaks["over"].astype(bool)], peaks[~peaks["over"].astype(bool)]
    return " " + _say(
        "peak_in_flight",
        over=rows(over),
        over_more=max(0, len(over) - _IN_FLIGHT_SHOWN),
        within=rows(within),
        within_more=max(0, len(within) - _IN_FLIGHT_SHOWN),
    )


def beyond_sentence(lit: pd.DataFrame) -> str:
    """The runs whose estimated mean latency exceeds their own duration (`serving.littles_law`): the
    estimate, the duration, and that no in-flight count is taken from it."""
    if "estimate_beyond_duration" not in lit or not lit["estimate_beyond_duration"].any():
        return ""
    runs = [
        {"run": str(w["run"]), "estimate": float(w["e2el_estimate_s"]), "duration": float(w["duration"])}
        for _, w in lit[lit["estimate_beyond_duration"].astype(bool)].iterrows()
    ]
    return " " + _say("estimate_beyond", runs=runs)


def littles_note(lit: pd.DataFrame) -> str:
    """Where the latencies come from, each run's Little's-law count, and what that count is for an
    MLPerf Offline run (the queue, not a sustained concurrency)."""
    text = (
        _littles_note(lit) + in_flight_sentence(lit) + beyond_sentence(lit) + peak_sentence(serving.peak_in_flight(lit))
    )
    n = offline_runs(lit)
    return text + (" " + _say("offline_in_flight", offline=n, runs=len(lit)) if n else "")


def _littles_note(lit: pd.DataFrame) -> str:
    """Where each run's mean E2EL comes from (printed, the per-request latencies, estimated, or the
    tool's measured concurrency instead), naming the runs whose output prints none, never the whole
    input at once; first the runs whose printed mean E2EL the tool's measurement set aside."""
    conflict = lit["e2el_conflict"].astype(float).fillna(0).astype(bool) if "e2el_conflict" in lit else None
    if conflict is not None and conflict.any():
        bad = lit[conflict]
        runs = [
            {
                "run": str(w["run"]),
                "e2el_ms": float(w["e2el_mean_printed"]),
                "rate": float(w["little_in_flight"] / (w["e2el_mean_printed"] / 1000)),
                "little": float(w["little_in_flight"]),
                "tool": float(w["in_flight"]),
                "cap": float(w["max_concurrency"]) if w.get("e2el_over_cap") else None,
            }
            for _, w in bad.iterrows()
        ]
        rest = lit[~conflict]
        return _say("e2el_conflict", runs=runs) + (" " + _littles_note(rest) if len(rest) else "")
    if "in_flight_measured" in lit and lit["in_flight_measured"].any():
        m = lit[lit["in_flight_measured"].astype(bool)]
        pct = [
            c for c in m.columns if str(c).startswith("e2el_") and serving.printed_percentile(str(c)[5:]) is not None
        ]
        cut = serving.cut_of(m)
        return _say(
            "e2el_measured",
            percentiles=bool(pct and m[pct].notna().any(axis=None)),
            cut_run=cut and cut[0],
            cut_line=cut and cut[1],
        )
    # a count the output format does not record (GuideLLM's 0.5+ console) is unknown, not zero; a run
    # that prints a rate of completed requests (LoadGen's `Samples per second`, no count) completed some
    none = lit["completed"].fillna(0).eq(0) & serving.recorded(lit, "completed") if "completed" in lit else False
    # a latency statistic is one of completed requests: a run that prints one above 0 (a tool's 0.00 is
    # its placeholder for none) completed some, however its count was lost (GuideLLM 0.1's Performance
    # Stats table pasted without its Requests table)
    stats = [c for c in lit.columns if LATENCY_STAT.fullmatch(str(c))]
    if stats:
        none = none & ~lit[stats].apply(pd.to_numeric, errors="coerce").gt(0).any(axis=1)
    # a rate of completed requests, or of tokens generated (which only completing requests produce), is one
    # of requests that completed, however their count was lost
    rates = [c for c in ("request_throughput", "output_throughput") if c in lit]
    for c in rates:
        none = none & ~lit[c].astype(float).gt(0)
    if "mean_e2el_s" in lit and (lit["mean_e2el_s"].isna() & none).all():
        return _say("e2el_none_completed")
    # a rate with neither the requests' count nor any latency (LoadGen's summary with its Additional Stats
    # left out, the prototype trtllm-bench's token rate): requests completed, and nothing to put into Little's law
    # a request latency the output prints but the file's reading set aside (a console cut it, rows that
    # conflict): printed, not read, so not "no latency"
    if "latency_set_aside" in lit and "mean_e2el_s" in lit and lit["mean_e2el_s"].isna().all():
        if lit["latency_set_aside"].fillna("").map(lambda t: "e2el" in t.split(",")).all():
            return _say("e2el_set_aside")
    if rates and "completed" in lit:
        rated = lit[rates].astype(float).gt(0).any(axis=1) & lit["completed"].isna()
        if rated.all() and "mean_e2el_s" in lit and lit["mean_e2el_s"].isna().all():
            tokens = "request_throughput" not in lit or not lit["request_throughput"].astype(float).gt(0).any()
            # a TTFT or TPOT the output prints (above a tool's 0 placeholder) is a latency, but no request's:
            # it gives no E2EL without the output length (SGLang's parse_results grid prints both and no E2EL)
            timed = bool(stats) and bool(lit[stats].apply(pd.to_numeric, errors="coerce").gt(0).any(axis=None))
            return _say("e2el_none_printed", runs=len(lit), tokens=tokens, timed=timed)
    src = lit["e2el_from"] if "e2el_from" in lit else pd.Series(np.where(lit["estimated"], "estimated", "printed"))
    src = src.where(~src.eq("estimated") | lit["estimated"].astype(bool), "none")  # no estimate made: nothing to say
    est = lit[src.eq("estimated").to_numpy()]
    pct = [c for c in ("e2el_median", "e2el_p50", "e2el_p90", "e2el_p95", "e2el_p99") if c in est]
    cut = serving.cut_of(est)
    return _say(
        "e2el_source",
        cut_run=cut and cut[0],
        cut_line=cut and cut[1],
        cut=int(est["copy_ends"].notna().sum()) if "copy_ends" in est else 0,
        requests=int(src.eq("requests").sum()),
        jsonl=bool("format" in lit and lit["format"].eq("jsonl").all()),
        estimated=len(est),
        runs=len(lit),
        unrecorded=bool(len(est) and "e2el_recorded" in est and not est["e2el_recorded"].all()),
        percentiles=bool(pct and est[pct].notna().any(axis=None)),
        printed=int(src.eq("printed").sum()),
        derived=int(est["output_tokens_derived"].astype(bool).sum()) if "output_tokens_derived" in est else 0,
    )


def runs_intro(curve: pd.DataFrame) -> str:
    """The sentence over the tables of the curve's runs; none where no run is on the curve (no table)."""
    return _say("runs_intro", n=len(curve))


def apart_message(apart: pd.DataFrame, variable: str, drawn: bool = True) -> str:
    """How the tool sends the runs kept apart (from their settings), and whether the throughput figure
    draws them (`drawn`: only against a curve, `plot_saturation`)."""
    unknown = apart[~apart[f"{variable}_recorded"]] if f"{variable}_recorded" in apart else apart.iloc[0:0]
    # the tool whose flags word how it sends them, where the runs kept apart are of one tool
    tools = set(apart["tool"].dropna().astype(str)) if "tool" in apart else set()
    flagless, batch = serving.without_concurrency_option(apart), serving.engine_batch(apart)
    versions = (
        sorted({serving.run_metadata(m).get("version") for m in apart.loc[flagless, "metadata"]} - {None})
        if flagless.any()
        else []
    )
    return _say(
        "apart",
        tool=tools.pop() if len(tools) == 1 else None,
        runs=len(apart),
        one_at_a_time=int(serving.engine_batch(apart).eq(1).sum()),
        # a version whose throughput command had no `--concurrency` (before 0.17), and the engine batch it printed
        no_option=int(flagless.sum()),
        option_batch=float(batch[flagless].max()) if flagless.any() and batch[flagless].notna().any() else None,
        option_version=versions[0] if len(versions) == 1 else None,
        at_once=int(np.isinf(apart["request_rate"].astype(float)).sum()) if "request_rate" in apart else 0,
        empty=apart.empty,
        apart=APART_WORDS[variable],
        unrecorded=len(unknown) == len(apart),
        what=_what(variable),
        variable=variable,
        drawn=drawn,
    )


def pareto_texts(r: pd.DataFrame, variable: str) -> tuple[object, str]:
    """The per-user against per-GPU figure and the sentence under it. Where no run has a mean TPOT the
    sentence is the figure's message, in the figure's place, so the text under it says nothing more
    (one sentence once, #34)."""
    fig, said = plot_pareto(r, variable), pareto_sentence(r)
    return fig, "" if getattr(fig, "benchbook_message", None) == said else said


def pareto_sentence(r: pd.DataFrame) -> str:
    """The range of per-user decode speed (1000 / mean TPOT) across the runs; where no run has a mean TPOT,
    the per-user output rate the output prints itself (AIPerf's Output Token Throughput Per User), as printed."""
    pu = (1000 / r["tpot_mean"]).replace([np.inf, -np.inf], np.nan).dropna() if "tpot_mean" in r else pd.Series()
    own = r.get("output_token_throughput_per_user", pd.Series(dtype=float)).dropna()
    silent = int(r["no_output"].sum()) if "no_output" in r else 0
    no_text = int(r["no_text"].sum()) if "no_text" in r else 0
    uncounted = int(r["uncounted"].sum()) if "uncounted" in r else 0
    hi, lo = (float(pu.max()), float(pu.min())) if len(pu) else (0.0, 0.0)
    cut = serving.cut_of(r, "tpot") if not len(pu) else None
    return _say(
        "pareto",
        n=len(pu),
        hi=hi,
        lo=lo,
        silent=silent,
        no_text=no_text,
        uncounted=uncounted,
        runs=len(r),
        cut_line=cut and cut[1],
        own_n=len(own),
        own_hi=float(own.max()) if len(own) else 0.0,
        own_lo=float(own.min()) if len(own) else 0.0,
    )


# --- figures -------------------------------------------------------------------------------------


def _label_points(ax, xs, ys, labels, **kw) -> None:
    """Annotate points, once per label within a tenth of a decade of the same label (runs of several
    series, or repeats, at one load)."""
    seen: dict[str, list[tuple[float, float]]] = {}
    for x, y, text in zip(xs, ys, labels, strict=True):
        if not (np.isfinite(x) and np.isfinite(y)) or x <= 0 or y <= 0:
            continue
        at = (np.log10(x), np.log10(y))
        if any(abs(at[0] - a) < 0.1 and abs(at[1] - b) < 0.1 for a, b in seen.get(text, [])):
            continue
        seen.setdefault(text, []).append(at)
        ax.annotate(text, (x, y), textcoords="offset points", **kw)


def plot_saturation(curve: pd.DataFrame, apart: pd.DataFrame, variable: str, knee_x=None):
    """Output (and total) token throughput against the sweep variable (log2 x), one line per
    series; the runs kept apart as horizontal lines, never as points of the curve, and never alone (a
    figure of flat lines over an empty load axis shows nothing). A run with no throughput (a file of
    latency tables alone) has no point and no line to draw."""
    rated = [c for c in ("output_throughput", "total_token_throughput") if c in curve]
    held = [c for c in ("output_throughput", "total_token_throughput") if c in apart]
    apart = apart[apart[held].notna().any(axis=1)] if held else apart.iloc[:0]
    if curve.empty or not curve[rated].notna().any(axis=None):
        # a run kept apart is a reference line against the curve: with no curve it has no load to stand at
        words = wording.words("serving_saturation")["figure"]
        if not apart.empty:
            return message_figure(words["no_curve"])
        return message_figure(words["named_throughput" if _named(curve) else "no_throughput"])
    if apart.empty and curve.loc[curve[rated].notna().any(axis=1), variable].nunique() < 2:
        # one load and nothing kept apart to set it against: one point, no curve, nothing to compare
        return message_figure(wording.words("serving_saturation")["figure"]["one_load"])
    fig, ax = plt.subplots(figsize=(9, 4.5))
    d = curve.assign(series=serving.series_key(curve)).sort_values(variable)
    lv = serving.per_load(d).sort_values(variable) if len(d) else d.assign(n=1)
    repeated = len(lv) and lv["n"].max() > 1
    for i, (name, g) in enumerate(lv.groupby("series", sort=False)):
        for m, style, j, what in (
            ("output_throughput", "o-", 2 * i, "output"),
            ("total_token_throughput", "s--", 2 * i + 1, "total"),
        ):
            if m not in g or g[m].isna().all():
                continue
            if not repeated:
                ax.plot(g[variable], g[m], style, color=color(j), label=f"{what} tok/s, {name}")
                continue
            ax.errorbar(
                g[variable],
                g[m],
                yerr=g[f"{m}_sd"].fillna(0),
                fmt=style,
                color=color(j),
                capsize=3,
                label=f"{what} tok/s, {name} (mean ± 1 sd)",
            )
            each = d[d["series"] == name]
            ax.plot(
                each[variable], each[m], style[0], color=color(j), alpha=0.3, ms=4, label=f"{what} tok/s, each repeat"
            )
    for j, (_, u) in enumerate(apart.iterrows()):
        ax.axhline(
            u["output_throughput"],
            color="grey",
            ls=[":", "-.", "--"][j % 3],
            lw=1.2,
            label=f"kept apart: run {_short(u['run'])} ({APART_WORDS[variable]}), output tok/s",
        )
    if knee_x is not None:
        ax.axvline(knee_x, color="black", ls=":", lw=1, label=f"knee at {knee_x:g}")
    if len(d):
        ax.set_xscale("log", base=2)
        xs = sorted(d[variable].unique())
        ax.set_xticks(xs, [fmt_x(v, variable) for v in xs])
    ax.set_ylim(bottom=0)
    ax.set_xlabel("max concurrency (requests)" if variable == "max_concurrency" else "request rate (req/s)")
    ax.set_ylabel("throughput (tok/s)")
    handles, labels = ax.get_legend_handles_labels()
    if handles:  # a run where every request failed draws nothing to label
        # below the axes, in two columns: beside them, its long names left the curve a third of the width;
        # one column where two of its longest labels side by side would be wider than the figure and the
        # labels are few enough to stand in one column under it
        wide = max(len(s) for s in labels) > LEGEND_COLUMN_CHARS
        ncols = 1 if wide and len(labels) <= LEGEND_ONE_COLUMN_ROWS else 2
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncols=ncols)
    tight(fig)
    return fig


#: The longest legend label two columns of the throughput figure's legend hold side by side.
LEGEND_COLUMN_CHARS = 60
#: The most labels the throughput figure's legend stacks in one column below the axes.
LEGEND_ONE_COLUMN_ROWS = 12


#: A latency statistic's marker and colour: greys and purple, apart from the colours the chapter's
#: other figures give output and total throughput, the runs and the runs kept apart.
STAT_LOOK = {"mean": ("o", "black"), "median": ("s", "grey"), "p99": ("^", color(4))}


def plot_latency_tradeoff(r: pd.DataFrame, variable: str):
    """Throughput (x) against TTFT, TPOT and ITL (y, log), one panel per metric, stacked so that each
    is as wide as the text column (three side by side read small), points labelled with the sweep
    value ("no cap"/"inf" for the runs kept apart); mean, median and p99 where printed. A metric no run
    prints gets no panel; one run is one point per panel, a trade-off with nothing to trade against,
    so it gets no figure (its numbers are in the latency tables)."""
    d = r.sort_values("order")
    rated = d["output_throughput"].notna().sum() if "output_throughput" in d else 0
    if rated < 2:
        few = "named_latency" if rated == 0 and len(d) > 1 and _named(d) else "one_run_latency"
        return message_figure(wording.words("serving_saturation")["figure"][few])
    stats = {m: serving.latency_stats(d, m)[list(STAT_LOOK)] for m in ("ttft", "tpot", "itl")}
    stats = {m: v for m, v in stats.items() if v.notna().any(axis=None)}  # the median, or the p50 printed instead
    if not stats:  # a latency a table gives with no statistic named (`TTFT (ms)`) is printed, not drawn as one
        unnamed = any("value" in serving.latency_stats(d, m, every=True) for m in ("ttft", "tpot", "itl"))
        return message_figure(
            wording.words("serving_saturation")["figure"]["unnamed_latency" if unnamed else "no_latency"]
        )
    fig, axes = plt.subplots(len(stats), 1, figsize=panel_size(len(stats)), sharex=True, layout="constrained")
    axes = np.atleast_1d(axes)
    for ax, (m, shown) in zip(axes, stats.items(), strict=True):
        for stat in STAT_LOOK:
            if shown[stat].notna().any():
                ax.plot(
                    d["output_throughput"], shown[stat], STAT_LOOK[stat][0], color=STAT_LOOK[stat][1], label=stat, ms=4
                )
        labels = [fmt_x(v, variable) for v in d["x"]]
        _label_points(ax, d["output_throughput"], d[f"{m}_mean"], labels, fontsize=9, xytext=(3, 3))
        if (shown > 0).any().any():  # a log axis needs a positive value (SGLang prints a median ITL of 0)
            ax.set_yscale("log")
        ax.xaxis.set_major_locator(MaxNLocator(nbins=6))
        ax.set_xlim(left=0)
        ax.set_title(m.upper())
        ax.set_ylabel(f"{m.upper()} (ms)")
    axes[-1].set_xlabel("output throughput (tok/s)")
    if axes[0].get_legend_handles_labels()[0]:
        axes[0].legend(fontsize=9)
    return fig


def plot_pareto(r: pd.DataFrame, variable: str):
    """Per-user decode speed (1000 / mean TPOT, tok/s) against whole-server output throughput, the
    Pareto front joined."""
    d = r.assign(per_user=1000 / r["tpot_mean"]).dropna(subset=["per_user", "output_throughput"])
    if d.empty:  # say which of the two no run has: a run may print TPOTs and no whole-server throughput
        tpot = r["tpot_mean"].notna().any()
        rate = r["output_throughput"].notna().any() if "output_throughput" in r else False
        return message_figure(
            pareto_sentence(r)  # the chapter's own sentence, cut or silent runs included: said here, once
            if not tpot
            else "no run has a whole-server output throughput"
            if not rate
            else "no run has both a mean TPOT and a whole-server output throughput"
        )
    if len(d) < 2:  # one run is one point: no front, no trade
        return message_figure(wording.words("serving_saturation")["figure"]["one_run_pareto"])
    front = serving.pareto_front(d["per_user"], d["output_throughput"])
    fig, ax = plt.subplots()
    # runs on the curve and runs kept apart as in the roofline figure (blue dots, vermilion stars); the
    # front in green, a colour no other series of the chapter has
    on = np.isfinite(d["x"])
    ax.scatter(
        d.loc[on, "output_throughput"], d.loc[on, "per_user"], color=color(0), zorder=3, label="runs on the curve"
    )
    if (~on).any():
        ax.scatter(
            d.loc[~on, "output_throughput"],
            d.loc[~on, "per_user"],
            marker="*",
            s=100,
            color=color(3),
            zorder=3,
            label="runs kept apart",
        )
    f = d[front].sort_values("output_throughput")
    ax.plot(f["output_throughput"], f["per_user"], "-", color=color(2), lw=1, label="Pareto front")
    labels = [fmt_x(v, variable) for v in d["x"]]
    _label_points(ax, d["output_throughput"], d["per_user"], labels, fontsize=8, xytext=(4, 4))
    ax.set_xlabel("output throughput, whole server (tok/s)")
    ax.set_ylabel("per-user speed, 1000 / TPOT (tok/s)")
    ax.legend(fontsize=8)
    return fig


def roofline_points(rl: pd.DataFrame) -> pd.DataFrame:
    """The runs the roofline figure places (an intensity and an achieved rate above zero): with none,
    there is no figure, and the device sentence says nothing of one."""
    if "intensity" not in rl:
        return rl.iloc[0:0]
    d = rl.dropna(subset=["intensity", "achieved_tflops"])
    return d[(d["intensity"] > 0) & (d["achieved_tflops"] > 0)]


def plot_roofline(rl: pd.DataFrame, peaks, variable: str):
    """Each run as a step at its measured concurrency on the device's roofline; with no device
    (`peaks` None) the points alone, under no roof: none is assumed."""
    d = roofline_points(rl)
    if d.empty:
        return message_figure(wording.words("serving_saturation")["figure"]["no_roofline"])
    fig, ax = plt.subplots(figsize=(9, 4.5))
    if peaks is None:  # no roof: only the line true of every device, on the span a roof would take
        ridge, which = roofline.lowest_ridge()
        ax.axvline(ridge, color="grey", ls=":", lw=1, label=_say("lowest_ridge", ridge=ridge, device=which))
        ax.set_xlim(min(1.0, d["intensity"].min() / 2), max(d["intensity"].max() * 4, 2 * ridge))
    else:
        peak = float(d["peak_tflops"].iloc[0])
        bw = peaks.total_bandwidth_gb_s
        lo, hi = min(1.0, d["intensity"].min() / 2), max(d["intensity"].max() * 4, 2 * roofline.ridge(peak, bw))
        x = np.logspace(np.log10(lo), np.log10(hi), 200)
        ax.plot(
            x,
            np.minimum(peak, bw * 1e9 * x / 1e12),
            color="black",
            lw=1.5,
            label=f"roof: {d['precision'].iloc[0]} {peak:,.0f} TFLOP/s, {bw:,.0f} GB/s",
        )
    on = d[np.isfinite(d["x"])]
    off = d[~np.isfinite(d["x"])]
    ax.plot(on["intensity"], on["achieved_tflops"], "o", color=color(0), label="runs on the curve")
    if len(off):
        ax.plot(off["intensity"], off["achieved_tflops"], "*", ms=10, color=color(3), label="runs kept apart")
    labels = [fmt_x(v, variable) for v in d["x"]]
    _label_points(ax, d["intensity"], d["achieved_tflops"], labels, fontsize=7, xytext=(4, -10))
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("intensity at the measured concurrency, weights only (FLOP/byte)")
    ax.set_ylabel("achieved compute (TFLOP/s)")
    many = f"{peaks.count} x " if peaks is not None and peaks.count > 1 else ""  # the roof sums their peaks
    title = f"{many}{peaks.device} ({peaks.source})" if peaks is not None else None
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0), title=title)
    tight(fig)
    return fig


def figures_sentence(
    lit: pd.DataFrame, gb: pd.DataFrame, slo_ttft_ms: float, slo_tpot_ms: float, most: int = 3, book: bool = False
) -> str:
    """The basic figures of each run, for an input of at most `most` runs (a sweep's are in its
    tables): output throughput, the goodput bounds under the limits each run is judged by (its
    output's own, else the page's SLOs, `book`: the book's defaults), speculative decoding, and the count, rate and
    Little's-law concurrency of a run `in_flight_sentence` does not cover; each only where the
    output gives what it needs. Runs whose figures read alike are said in one sentence ("Runs `a` and
    `b`, each: ..."), never the same sentence once a run."""
    if not 0 < len(lit) <= most:
        return ""
    out: dict[str, tuple[list[str], dict]] = {}  # each run's figures, without its name -> (runs, values)
    method, per_step = serving.tokens_per_step(lit)
    for (i, row), (_, g) in zip(lit.iterrows(), gb.iterrows(), strict=True):
        # a run whose tokens went uncounted has no TPOT: its TTFT alone bounds no share within both SLOs
        has_pct = not row.get("uncounted") and any(
            pd.notna(row.get(f"{m}_{s}")) for m in ("ttft", "tpot") for s in PERCENTILE_STATS
        )
        # a run with a Little's-law number has its count, rate and in-flight said by `in_flight_sentence`
        said_there = ("completed", "request_throughput", "in_flight") if pd.notna(row.get("in_flight")) else ()
        keys = [k for k in ("completed", "request_throughput", "output_throughput", "in_flight") if k not in said_there]
        figures = {k: row.get(k) for k in keys}
        per_gpu = row.get("output_throughput_per_gpu")  # InferenceX: the file's figure is per GPU
        gpus = row.get("output_throughput") / per_gpu if pd.notna(per_gpu) and per_gpu > 0 else None
        values = dict(
            output_per_gpu=per_gpu if gpus and pd.notna(gpus) else None,
            gpus=round(gpus) if gpus and pd.notna(gpus) else None,
            **{k: v for k, v in figures.items() if pd.notna(v)},
            estimated=bool(row.get("estimated")),
            inferred=bool(row.get("output_inferred")),
            share_lo=g.get("share_lo") if has_pct and pd.notna(g.get("share_lo")) else None,
            share_hi=g.get("share_hi") if has_pct and pd.notna(g.get("share_lo")) else None,
            no_output=bool(row.get("no_output")),
            no_text=bool(row.get("no_text")),
            latency_printed=bool(row.get("latency_printed", True)),
            uncounted=bool(row.get("uncounted")),
            method=method[i] if isinstance(method[i], str) else None,
            acceptance=per_step[i] if per_step[i] == per_step[i] else None,
            cut=pd.notna(row.get("copy_ends")),  # the copy ends inside its block: what is missing may follow
            slo_ttft=g.get("slo_ttft_ms", slo_ttft_ms),
            slo_tpot=g.get("slo_tpot_ms", slo_tpot_ms),
            slo_whose="book" if g.get("slo_whose", "page") == "page" and book else g.get("slo_whose", "page"),
            own_goodput=row.get("request_goodput") if pd.notna(row.get("request_goodput")) else None,
            own_rate=row.get("request_throughput") if pd.notna(row.get("request_throughput")) else None,
            own_slos=[{"metric": m, "ms": v} for m, v in serving.goodput_slos(row.get("metadata"))],
        )
        if said := _say("run_figures", run="", **values):
            out.setdefault(said, ([], values))[0].append(str(row["run"]))
    return " ".join(_say("run_figures", run=runs[0], runs=runs, **values) for runs, values in out.values())


# --- the lesson: Little's law and the knee of a closed loop -------------------------------------


def queue_sentence(q: dict, saturated: bool) -> str:
    """The closed-loop limits in this input's numbers (`serving.queue_limits`), or why it has none;
    the top rate is the capacity only where the curve flattens (`saturated`: the knee is shown)."""
    if not q:
        return _say("queue_none")
    past = [i for i, n in enumerate(q["in_flight"]) if n > q["knee_in_flight"] and q["runs"][i] != q["mu_run"]]
    i = past[-1] if past else None
    return _say(
        "queue",
        saturated=saturated,
        **{k: v for k, v in q.items() if not isinstance(v, list)},
        past_run=q["runs"][i] if i is not None else None,
        past_in_flight=q["in_flight"][i] if i is not None else None,
        past_floor_s=q["in_flight"][i] / q["mu"] if i is not None else None,
        past_latency_s=q["latency_s"][i] if i is not None else None,
        w0_estimated=q.get("estimated", [False])[0],
        past_estimated=q.get("estimated", [])[i] if i is not None and q.get("estimated") else False,
    )


def goodput_limits(gb: pd.DataFrame, book: bool) -> str:
    """Which runs are judged by latency limits their own output states (`serving.judging_limits`),
    and what those are; empty where none is, every run then judged by the page's SLOs."""
    if "slo_whose" not in gb:
        return ""
    own = gb[gb["slo_whose"] == "output"]
    rows = [dict(run=str(o["run"]), ttft=o["slo_ttft_ms"], tpot=o["slo_tpot_ms"]) for _, o in own.iterrows()]
    return _say("goodput_limits", own=rows, book=book, page_runs=int((gb["slo_whose"] == "page").sum()))


def goodput_source(exact, gb: pd.DataFrame) -> str:
    """Whether goodput is counted from per-request data or bounded from percentiles, and whether the
    bounds say anything (`serving.goodput_bounded`): bounds of 0 and 100 % on every run make no table."""
    return _say(
        "goodput_source", exact=exact is not None, vacuous=len(gb) > 0 and not serving.goodput_bounded(gb).any()
    )


def plot_queue(q: dict, saturated: bool = True):
    """The idea of the chapter: throughput X(N) = min(N / W0, mu) of a closed loop of N requests in
    flight (`serving.closed_loop`), in this input's W0 and mu with its runs on it; without them, in
    units of the knee (N / N*, X / mu). A sweep that never flattens (`saturated` False) has only a
    floor under mu: its top rate is drawn as that floor, and no knee."""
    if q and not saturated:
        return _plot_unsaturated(q)
    fig, ax = plt.subplots(figsize=(7.5, 4.4))
    w0, mu = (q["w0_s"], q["mu"]) if q else (1.0, 1.0)
    n_star = serving.knee_load(w0, mu)
    top = max([3 * n_star, *(1.2 * n for n in q.get("in_flight", []))])
    n = np.linspace(0, top, 200)
    x, _ = serving.closed_loop(n, w0, mu)
    ax.plot(n, n / w0, ":", color=color(1), label="L / W0: no request waits")
    ax.axhline(mu, ls="--", color=color(5), label="capacity μ: the most requests finished per second")
    ax.plot(n, x, "-", color="black", lw=2, label="min of the two: the best a server can do")
    ax.axvline(n_star, color="grey", lw=1)
    ax.annotate(
        f"knee L* = {n_star:.0f}" if q else "knee L* = μ x W0",
        (n_star, 0.1 * mu),
        xytext=(6, 0),
        textcoords="offset points",
        fontsize=10,
    )
    if q:
        ax.plot(q["in_flight"], q["rate"], "o", color=color(0), label="this input's runs (Little's law)")
        ax.set_xlabel("requests in flight, L (measured: request rate x mean E2EL)")
        ax.set_ylabel("requests finished per second")
    else:
        ax.set_xlabel("requests in flight, in units of the knee L*")
        ax.set_ylabel("throughput, share of capacity")
    ax.set_ylim(0, 1.25 * mu)
    ax.set_xlim(0, top)
    ax.legend(fontsize=10, loc="upper center", bbox_to_anchor=(0.5, -0.22), ncols=2, frameon=False)
    tight(fig)
    return fig


def _plot_unsaturated(q: dict):
    """The runs of a sweep that never flattens, under L / W0, and its top rate as a floor under mu."""
    fig, ax = plt.subplots(figsize=(7.5, 4.4))
    top = 1.2 * max(q["in_flight"])
    n = np.linspace(0, top, 200)
    ax.plot(n, n / q["w0_s"], ":", color=color(1), label="L / W0: no request waits")
    ax.axhline(q["mu"], ls="--", color=color(5), label="highest rate measured: the capacity μ is at least this")
    ax.plot(q["in_flight"], q["rate"], "o", color=color(0), label="this input's runs (Little's law)")
    ax.set_xlabel("requests in flight, L (measured: request rate x mean E2EL)")
    ax.set_ylabel("requests finished per second")
    ax.set_xlim(0, top)
    ax.set_ylim(0, 1.25 * max(q["mu"], max(q["rate"])))
    ax.legend(fontsize=10, loc="upper center", bbox_to_anchor=(0.5, -0.22), ncols=2, frameon=False)
    tight(fig)
    return fig
