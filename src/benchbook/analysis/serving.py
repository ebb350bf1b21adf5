"""The serving saturation curve of `vllm bench serve` sweeps: one row per run, the knee, Little's
law, goodput (bounded from percentiles, or exact from per-request data) and the per-user vs
per-GPU Pareto front.

Rules, stated once:

* **The curve.** Runs with no concurrency cap (a max_concurrency sweep) or an infinite request
  rate (a request_rate sweep) have no place on the sweep's axis: they are kept apart (`apart`),
  never drawn as the curve's last point.
* **Workloads.** Points of one sweep share a workload: the dataset and the mean input and output
  tokens a request (within `WORKLOAD_SPREAD`). Runs of different workloads are separate series
  (`series_key`), each too short for a knee when it has one load, and never repeats of one load.
* **Repeats.** Runs of one series with the same label and settings (differing by their file) are
  repeats of one load: the curve is their mean, their spread the sample standard deviation (none for a single run).
* **Knee.** Sort the curve's loads by the sweep variable x. For each step from x0 to x1 the elasticity is
  (relative throughput gain) / (relative x gain) = ((y1 - y0) / y0) / ((x1 - x0) / x0). The knee
  is x0 of the first step whose elasticity falls below `threshold` (0.25: doubling concurrency
  buys less than 25 % more throughput) by more than the repeats' noise: the step's gain plus
  sqrt(sd0^2 + sd1^2) must still fall short of the threshold's gain. A step below the threshold
  only within that noise is no knee. No such step: the sweep never saturated (None).
* **Little's law.** Mean requests in flight L = request throughput x mean E2EL. Without an E2EL
  line, mean E2EL is estimated as mean TTFT + mean TPOT x (mean output tokens - 1), which ignores
  the covariance of TPOT and output length across requests (flagged `estimated`).
* **Goodput bound from percentiles.** A request is good when TTFT <= slo_ttft and TPOT <= slo_tpot
  (the tool's own rule). For one metric, the largest reported percentile q (median = 50, p90,
  p95, p99) at or under the SLO says at least q % of requests meet it; the smallest reported
  percentile above the SLO says at most that share does. Both SLOs together: the lower bound is
  max(0, lo_ttft + lo_tpot - 1) (the union bound, with no assumption on how TTFT and TPOT
  correlate), the upper bound min(up_ttft, up_tpot). Goodput = share x request throughput.
  The percentiles describe the completed requests only: where the output counts failed requests,
  the shares are of every request sent (completed / (completed + failed) times the share among
  the completed), so a run where every request failed proves no share at all; goodput, a rate of
  good requests (request throughput counts completed ones), is unchanged.
"""

from __future__ import annotations

import math
import re
from dataclasses import replace

import numpy as np
import pandas as pd

from benchbook.analysis import pareto, precision, roofline
from benchbook.ingest.context import PARALLEL_SIZES
from benchbook.ingest.core import WORKLOAD_SPREAD

#: Settings that identify a run.
RUN_KEYS = [
    "source",
    "run",
    "format",
    "model",
    "dataset",
    "num_prompts",
    "request_rate",
    "max_concurrency",
    "burstiness",
    "metadata",
    # MLPerf LoadGen: the scenario, LoadGen's verdict, the offered load, the scenario's own limits and
    # the line of the section that prints them; the errors it logged and the line that counts them
    "scenario",
    "result",
    "target_qps",
    "samples_per_query",
    "result_percentile",
    "loadgen_file",
    "latency_limit_ms",
    "ttft_limit_ms",
    "tpot_limit_ms",
    "parameters_line",
    "errors_logged",
    "errors_line",
]
#: Columns every run table has (NaN where the output does not print them), so the chapter reads
#: metrics by name whatever the tool version printed.
COLUMNS = [
    "duration",
    "completed",
    "failed",
    "request_throughput",
    "output_throughput",
    "total_token_throughput",
    "total_input_tokens",
    "total_generated_tokens",
    *[f"{m}_{s}" for m in ("ttft", "tpot", "itl", "e2el") for s in ("mean", "median", "p99")],
]
#: One run per load level and no spread printed: a run's value is taken as this share uncertain (the
#: claims call differences under it noise; the knee's margin turns it into its step's noise).
RUN_NOISE = 0.05

PERCENTILE_OF = {"median": 50.0, "p50": 50.0, "p90": 90.0, "p95": 95.0, "p99": 99.0}

#: The per-request latencies a serving tool summarises (ms in every tidy table), and the statistics of
#: each a page lists: the mean and the percentiles the tools print (a median is the p50 some tools name so).
LATENCIES = ("ttft", "tpot", "itl", "e2el")
LATENCY_STATS = ("mean", "median", "p90", "p95", "p99")


def runs(df: pd.DataFrame) -> pd.DataFrame:
    """One row per run, in the order the input gives them (`order`): the settings, and one column
    per metric/statistic (`ttft_mean`, `ttft_p99`, `output_throughput`, ...). A run printed both as
    a text block and as a JSON line in the same file (same totals, durations within the text's
    rounding) is kept once, from the JSON (full precision); separate JSON runs are never merged. A
    run whose output prints no request rate, in a format that records one, gets the tool's default,
    inf, with `rate_assumed`; where the format records none (`recorded`), the rate stays unknown
    (NaN). `<name>_recorded` says, per run, whether its format records the request rate, the
    concurrency cap and E2EL."""
    df = df.copy()  # a tidy serving table: columns by metric name, whichever tool wrote it
    if df.empty:
        return pd.DataFrame(columns=RUN_KEYS + ["order", "rate_assumed"])
    # a metric that is itself a count or a peak (`completed`, `peak_output_throughput`) is its own
    # column; the count and the max of a metric with other statistics (AIPerf's `ttft` count and max)
    # are `ttft_count` and `ttft_max`, never one column holding whichever came first
    alone = df.groupby("metric", observed=True)["statistic"].transform("nunique").eq(1)
    plain = df["statistic"].eq("value") | (df["statistic"].isin(["count", "max"]) & alone)
    df["col"] = np.where(plain, df["metric"], df["metric"] + "_" + df["statistic"].astype(str))
    keys = [k for k in ["tool", *RUN_KEYS] if k in df.columns]
    wide = df.pivot_table(index=keys, columns="col", values="value", aggfunc="first", dropna=False, sort=False)
    wide = wide.reset_index()
    # the pivot crosses every key value with every other: a combination with no number is no run (by all
    # metrics, not duration alone, which GenAI-Perf does not print)
    wide = wide.dropna(subset=[c for c in wide.columns if c not in keys], how="all")
    if "line" in df:  # where the run's numbers start in its file: the heading above names its device
        first = df.groupby(keys, dropna=False, sort=False, observed=True)["line"].min()
        first = {_nan_key(k): v for k, v in first.items()}  # NaN keys: matched by a marker, not by value
        wide["line"] = [first.get(_nan_key(k), np.nan) for k in zip(*(wide[c] for c in keys), strict=True)]
        for metric in LINED:  # a printed figure a page names with its own line
            at = df[df["metric"] == metric].groupby(keys, dropna=False, sort=False, observed=True)["line"].min()
            at = {_nan_key(k): v for k, v in at.items()}
            wide[f"{metric}_line"] = [at.get(_nan_key(k), np.nan) for k in zip(*(wide[c] for c in keys), strict=True)]
    # a token rate the tool itself marks inferred (MLPerf LoadGen's `Completed tokens per second (inferred)`:
    # samples per second x the tokens per sample its settings assume, `ingest.mlperf.INFERRED_NOTE`) is no
    # count of tokens: the run keeps the tool's word beside its figure
    wide["output_inferred"] = False
    if "note" in df:
        from benchbook.ingest.mlperf import INFERRED_NOTE

        said = df[(df["metric"] == "output_throughput") & (df["note"] == INFERRED_NOTE)]
        said = {_nan_key(k) for k in said.groupby(keys, dropna=False, sort=False, observed=True).groups}
        wide["output_inferred"] = [_nan_key(k) in said for k in zip(*(wide[c] for c in keys), strict=True)]
    wide.columns.name = None
    wide = wide.reset_index(drop=True)
    ident = [c for c in ["source", "completed", "total_input_tokens", "total_generated_tokens"] if c in wide.columns]
    drop = []
    fmt = wide["format"] if "format" in wide else pd.Series("text", index=wide.index)  # MLPerf: a text summary
    for i, row in wide[(fmt == "text") & ("duration" in wide)].iterrows():  # twins share a duration
        twin = wide[(fmt == "json") & (wide["duration"] - row["duration"]).abs().le(0.0051)]
        twin = twin[np.logical_and.reduce([twin[c].eq(row[c]) | (twin[c].isna() & pd.isna(row[c])) for c in ident])]
        if len(twin):
            drop.append(i)
    wide = wide.drop(index=drop).reset_index(drop=True)
    absent = [c for c in RUN_KEYS + COLUMNS if c not in wide]
    wide = pd.concat([wide, pd.DataFrame(np.nan, index=wide.index, columns=absent)], axis=1).copy()  # one block
    wide["order"] = np.arange(len(wide))
    scenario = wide["scenario"].astype(object)
    # MLPerf SingleStream and MultiStream issue the next query only when the last has completed
    # (loadgen/test_settings.h, max_async_queries 1): a SingleStream query is one sample, a MultiStream
    # one `samples_per_query` samples, so that many requests in flight, sent as fast as that cap allows
    single = scenario == "SingleStream"
    per_query = wide["samples_per_query"].astype(float)
    cap = pd.Series(np.where(single, 1.0, np.where(scenario == "MultiStream", per_query, np.nan)), index=wide.index)
    wide["max_concurrency"] = wide["max_concurrency"].astype(float).fillna(cap)
    for name in ("request_rate", "max_concurrency", "e2el"):
        wide[f"{name}_recorded"] = recorded(wide, name)
    # MLPerf Server issues queries at target_qps (Poisson); Offline issues every sample at t=0 in one
    # query, its target_qps only sizing that query (LoadGen's mlperf.conf): all at once, no finite rate;
    # SingleStream's and MultiStream's target_qps only size their runs too (the expected query count)
    qps = wide["target_qps"].astype(float).mask(scenario.isin(["Offline", "SingleStream", "MultiStream"]), np.inf)
    wide["request_rate"] = wide["request_rate"].astype(float).fillna(qps)
    # a Server summary pasted without its Test Parameters still prints the rate LoadGen scheduled its
    # queries at (`Scheduled samples per second`): the offered load, never an all-at-once run
    if "scheduled_request_rate" in wide:
        sched = wide["scheduled_request_rate"].astype(float).where(scenario == "Server")
        wide["request_rate"] = wide["request_rate"].fillna(sched)
    # no rate where the format records one: the tool's default (inf); where it records none, unknown
    wide["rate_assumed"] = wide["request_rate"].isna() & wide["request_rate_recorded"]
    # an output without a failure count that sent more prompts than completed: the rest failed; one
    # that completed every prompt it sent: none did (completed cannot exceed sent)
    short = wide["num_prompts"].astype(float) - wide["completed"].astype(float)
    wide["failed_implied"] = wide["failed"].isna() & (short >= 0)
    wide["failed"] = wide["failed"].where(~wide["failed_implied"], short)
    wide["request_rate"] = wide["request_rate"].astype(float).mask(wide["rate_assumed"], np.inf)
    # a total token throughput is (prompt + output tokens) / duration, the sum of the input and output
    # rates: an output that prints both and no total (SGLang's and vLLM's 2024 blocks) states it
    parts = _col(wide, "input_throughput") + _col(wide, "output_throughput")
    wide["total_token_throughput"] = wide["total_token_throughput"].astype(float).fillna(parts)
    # requests completed but not one token generated: no first token ever came, so the TTFT, TPOT and
    # ITL the output prints (0, vLLM's mean of an empty list) are no latencies; E2EL still is one. SGLang's
    # retokenized count is the length of the text the client received (bench_serving re-tokenizes each
    # request's generated_text): 0 there means no text reached the client, whatever count the server gave
    # (its TTFT stays the 0.0 it starts at, its TPOT the whole latency spread over the tokens)
    done = wide["completed"].astype(float).gt(0)
    received = _col(wide, "total_generated_tokens_retokenized")
    wide["no_text"] = done & received.eq(0) & wide["total_generated_tokens"].astype(float).gt(0)
    # vLLM times a request's first chunk (TTFT) and every later one (ITL) whatever text it holds, and
    # counts output tokens from the text it kept (backend_request_func; calculate_metrics): a count of 0
    # beside a TTFT or ITL above 0 is tokens that streamed but were not counted (the tgi backend's
    # `/generate_stream` text, vllm#14673), so TPOT (0 ms, no sample) and the output rates are no figures,
    # while TTFT and ITL still are
    none = done & wide["total_generated_tokens"].astype(float).eq(0)
    wide["uncounted"] = none & (_col(wide, "ttft_mean").gt(0) | _col(wide, "itl_mean").gt(0))
    wide["no_output"] = none & ~wide["uncounted"] | wide["no_text"]
    blank = [c for c in wide.columns if re.match(r"(ttft|tpot|itl)_", str(c))]
    # whether the run prints any of them: a copy cut before its latency rows prints no 0 ms to set aside
    wide["latency_printed"] = wide[blank].notna().any(axis=1) if blank else False
    wide.loc[wide["no_output"], blank] = np.nan
    # no more output tokens than requests (each made one): vLLM and SGLang take TPOT only over requests
    # with more than one output token and ITL between later chunks, printing 0 for an empty list
    # (calculate_metrics: np.mean(tpots or 0)), so those zeros are no latencies; TTFT and E2EL still are
    made = wide["total_generated_tokens"].astype(float)
    wide["one_token"] = done & made.gt(0) & made.le(wide["completed"].astype(float)) & ~wide["no_output"]
    wide.loc[wide["one_token"], [c for c in blank if not str(c).startswith("ttft_")]] = np.nan
    uncounted = [c for c in wide.columns if re.match(r"tpot_|output_throughput$|total_token_throughput$", str(c))]
    wide.loc[wide["uncounted"], uncounted] = np.nan
    _screen_mean_e2el(wide)
    # a rate taken as the default (every request at once) that the run's own latencies rule out is no rate
    wide["at_once_longest"] = at_once_longest(wide)
    wide["at_once_refuted"] = wide["rate_assumed"] & (
        _col(wide, "duration") > wide["at_once_longest"] * (1 + RUN_NOISE)
    )
    wide.loc[wide["at_once_refuted"], "request_rate"] = np.nan
    wide.loc[wide["at_once_refuted"], "rate_assumed"] = False
    return wide.copy()  # one block per dtype: the columns added one by one fragment a wide (AIPerf) table


def at_once_longest(r: pd.DataFrame) -> pd.Series:
    """Per run with no concurrency cap and no failed request, the most its longest request can have lasted,
    in seconds, from its mean and median E2EL: of n requests, at least ceil(n / 2) last the median or
    longer, so the longest is at most n x mean less (ceil(n / 2) - 1) x median (less nothing where no
    median is printed). Sent all at once, every request starts with the run, which then lasts as long as
    its longest request: a duration beyond this bound (with RUN_NOISE for the client's own start and end)
    rules all at once out. NaN where it cannot be judged: a cap (sending as fast as it allows is not all
    at once), a failure (a failed request's time is in no mean), fewer than two requests."""
    n = _col(r, "completed")
    mean, median = _col(r, "e2el_mean") / 1000, _col(r, "e2el_median").fillna(0) / 1000
    judged = (n >= 2) & _col(r, "failed").eq(0) & _col(r, "max_concurrency").isna()
    return (n * mean - (np.ceil(n / 2) - 1) * median).where(judged)


#: The tools' own measured mean requests in flight, in the order a run's value is taken: SGLang's
#: `Concurrency` and GuideLLM's mean concurrency (`concurrency_mean`), trtllm-bench's `Number of
#: concurrent requests` (`concurrent_requests_mean`).
MEASURED_CONCURRENCY = ("concurrency_mean", "concurrent_requests_mean")

#: SGLang's `Concurrency` is the sum of the request latencies over the duration: Little's law on the
#: same run. A printed mean E2EL whose Little's law is off the tool's measured concurrency by more than
#: this factor is not what the tool measured (a paste cut inside its digits, `180` for `180xx`).
MEASURED_CONFLICT = 2.0


def measured_concurrency(r: pd.DataFrame) -> pd.Series:
    """The tool's own measured mean requests in flight per run, NaN where it prints none."""
    out = pd.Series(np.nan, index=r.index)
    for c in MEASURED_CONCURRENCY:
        if c in r:
            out = out.fillna(r[c].astype(float))
    return out


def _screen_mean_e2el(wide: pd.DataFrame) -> None:
    """Set aside (in place) a printed mean E2EL that the tool's own measured concurrency contradicts:
    `e2el_conflict` marks the run, `e2el_mean_printed` and `little_in_flight` keep what it implied.
    It contradicts it when their ratio passes MEASURED_CONFLICT, or when the mean puts more requests in
    flight than the run's concurrency cap lets in (past RUN_NOISE) while the tool measured a count
    within the cap (`e2el_over_cap`): a client held at the cap cannot keep more in flight."""
    tool = measured_concurrency(wide)
    rate = wide["completed"].astype(float) / wide["duration"].astype(float).where(wide["duration"].astype(float) > 0)
    little = rate * wide["e2el_mean"].astype(float) / 1000
    ratio = little / tool.where(tool > 0)
    bad = ((ratio > MEASURED_CONFLICT) | (ratio < 1 / MEASURED_CONFLICT)).fillna(False).astype(bool)
    ceiling = _col(wide, "max_concurrency").astype(float) * (1 + RUN_NOISE)
    over_cap = ((little > ceiling) & (tool <= ceiling)).fillna(False).astype(bool) & ~bad
    wide["e2el_over_cap"] = over_cap
    bad = bad | over_cap
    wide["e2el_conflict"] = bad
    wide["e2el_mean_printed"] = wide["e2el_mean"].where(bad)
    wide["little_in_flight"] = little.where(bad)
    wide["e2el_mean"] = wide["e2el_mean"].mask(bad)


def _nan_key(key) -> tuple:
    """A run's key with its empty settings as one marker, so that two equal keys compare equal."""
    key = key if isinstance(key, tuple) else (key,)
    return tuple("\0" if not isinstance(v, str) and pd.isna(v) else v for v in key)


def latency_stats(r: pd.DataFrame, metric: str, every: bool = False) -> pd.DataFrame:
    """Per run (in the order of `r`), the statistics of `metric` (one of LATENCIES) its output prints,
    in ms: `LATENCY_STATS`, the median being the printed median or, where the tool prints none, its
    p50 (the same percentile); NaN where the output prints none (or `runs` blanked it: no token came).
    With `every`, also each other percentile some run prints (vLLM's `--metric-percentiles`, AIPerf's
    p1 ... p75, `p99.9`), the percentiles in the order of their ranks after the mean and the median, and
    last, as `value`, a latency whose statistic the output does not name (an authors' `TTFT (ms)`)."""
    out = pd.DataFrame({"run": r["run"] if "run" in r else pd.Series(dtype=object)}, index=r.index)
    for stat in LATENCY_STATS:
        out[stat] = _col(r, f"{metric}_{stat}")
    out["median"] = out["median"].fillna(_col(r, f"{metric}_p50"))
    if every:
        ranks = {c: float(m.group(1)) for c in r.columns if (m := re.fullmatch(rf"{metric}_p(\d+(?:\.\d+)?)", str(c)))}
        ranks = {
            c: q for c, q in ranks.items() if q != 50 and f"p{q:g}" not in LATENCY_STATS and _col(r, c).notna().any()
        }
        for c in ranks:
            out[c.removeprefix(f"{metric}_")] = _col(r, c)
        pcts = sorted((c for c in out.columns if re.fullmatch(r"p\d+(?:\.\d+)?", c)), key=lambda c: float(c[1:]))
        # a latency an authors' table gives with no statistic named (`TTFT (ms)`): neither mean nor median
        unnamed = ["value"] if metric in r and _col(r, metric).notna().any() else []
        if unnamed:
            out["value"] = _col(r, metric)
        out = out[["run", "mean", "median", *pcts, *unnamed]]
    return out


def tail_ratios(r: pd.DataFrame, metric: str) -> pd.Series:
    """Per run, p99 / median of `metric` where its output prints both, the median is above 0 (a median
    of 0, SGLang's ITL of chunks that came together, sets nothing to compare with) and more than one
    request completed (one request's latency is its median and its p99 alike); NaN elsewhere."""
    s = latency_stats(r, metric)
    several = ~_col(r, "completed").lt(2)  # a count not printed: the percentiles stand
    return (s["p99"] / s["median"].where(s["median"] > 0)).where(several)


def recorded(r: pd.DataFrame, name: str) -> pd.Series:
    """Per run, whether its output format can record `name` (a setting or metric), as its parser
    declares (`ingest.carries`); True where the parser declares nothing, and where the run has a value
    for it (an authors' table that gives a column its format does not always have, `Request rate` with
    `inf`: what was read was recorded). A sentence that a run lacks `name` is said only where this is True."""
    from benchbook import ingest

    if "tool" not in r.columns or r.empty:
        return pd.Series(True, index=r.index)
    said = [ingest.carries(t, f, name) for t, f in zip(r["tool"], r["format"], strict=True)]
    read = r[name].notna().to_numpy() if name in r else np.zeros(len(r), dtype=bool)
    return pd.Series([s is not False or v for s, v in zip(said, read, strict=True)], index=r.index)


def unstated_loads(r: pd.DataFrame, paths) -> pd.DataFrame:
    """`r` with `load_script`, per run, `[line, script, defaults line, their script]` where a script ran it (`docker exec srv
    ~/scripts/perftest_vision.sh` above its block) and the file gives only another script's defaults for
    the load (`CONCURRENT_REQUESTS=64` under `The perftest.sh script runs with the following defaults:`,
    `context.other_script`), else None. Such a run's cap and rate are not stated: not recorded, and no
    default of the tool is assumed for them (a script sets its own)."""
    from benchbook import config, ingest
    from benchbook.ingest import context
    from benchbook.ingest.vllm_serve import source_name

    r = r.assign(load_script=None)
    if r.empty or "line" not in r or "source" not in r:
        return r
    for path in paths:
        ctx = ingest.context_of(config.resolve(path))
        for i in r.index[r["source"] == source_name(config.resolve(path))]:
            run = context.other_script(ctx, "concurrency", int(r.at[i, "line"])) if pd.notna(r.at[i, "line"]) else None
            r.at[i, "load_script"] = [*run[:2], run[2].line, run[2].script] if run else None
    unstated = r["load_script"].notna()
    r.loc[unstated & r["rate_assumed"].astype(bool), "request_rate"] = np.nan
    r.loc[unstated, ["rate_assumed", "request_rate_recorded", "max_concurrency_recorded"]] = False
    return r


def apart(r: pd.DataFrame, variable: str) -> pd.Series:
    """Runs that are not points of the sweep's curve: with no concurrency cap (for a
    max_concurrency sweep) or an infinite request rate (for a request_rate sweep). They have no x
    on the curve's axis and are shown on their own."""
    if variable == "max_concurrency":
        return r["max_concurrency"].isna()
    if variable == "request_rate":
        return ~np.isfinite(r["request_rate"].astype(float))
    raise ValueError(f"sweep variable must be 'max_concurrency' or 'request_rate', not {variable!r}")


def sweep_x(r: pd.DataFrame, variable: str) -> pd.Series:
    """The sweep variable of each run as a number; NaN for the runs `apart` from the curve."""
    away = apart(r, variable)
    return r[variable].astype(float).where(~away)


def _steps(x, y, sd=None) -> list[tuple[float, float, float]]:
    """(x0, elasticity, its noise) of each step of a curve of load means, in x order: the noise is
    sqrt(sd0^2 + sd1^2) in elasticity units (0 without `sd`). Points that are not finite and positive
    are dropped, and steps between equal x skipped."""
    sd = np.zeros(len(x)) if sd is None else np.nan_to_num(np.asarray(sd, dtype=float))
    pts = sorted(
        (a, b, s) for a, b, s in zip(x, y, sd, strict=True) if np.isfinite(a) and np.isfinite(b) and a > 0 and b > 0
    )
    return [
        (x0, ((y1 - y0) / y0) / ((x1 - x0) / x0), np.hypot(s0, s1) / y0 / ((x1 - x0) / x0))
        for (x0, y0, s0), (x1, y1, s1) in zip(pts, pts[1:], strict=False)
        if x1 != x0
    ]


def elasticities(x, y) -> list[float]:
    """The step elasticities of a curve, in x order (see the knee rule)."""
    return [e for _, e, _ in _steps(x, y)]


def knee(x, y, threshold: float = 0.25, sd=None):
    """x at the knee of a saturation curve of load means with spread `sd` (see the module rule), or
    None if it never saturates.

    >>> knee([1, 2, 4, 8], [10, 20, 30, 33], 0.25)
    4
    >>> knee([1, 2, 4, 8], [10, 20, 30, 33], 0.25, sd=[0, 0, 5, 5]) is None
    True
    """
    return next((x0 for x0, e, n in _steps(x, y, sd) if e + n < threshold), None)


#: Settings that runs of one load share (with the series): the run's label and every setting but the file.
LOAD_KEYS = ["run", "model", "dataset", "num_prompts", "request_rate", "max_concurrency", "burstiness", "metadata"]


#: A run label naming one of the processes one command started (`L, process N`: a loop's outputs, or
#: processes started together, each printing its own result): a repeat of the run `L`'s load.
PROCESS_RE = re.compile(r", process \d+$")
#: A run label its reader marks as a repeat of the run `L` (`L, repeat 2`: the vLLM reader's block printed
#: right under another, with nothing between them and no setting of its own): a repeat of `L`'s load.
REPEAT_RE = re.compile(r", repeat \d+$")


def load_key(r: pd.DataFrame) -> pd.Series:
    """A label per load: the series, the run's label and its settings (`LOAD_KEYS`). Runs sharing one
    are repeats of that load (as `vllm bench sweep` writes them: one file per repeat; the processes of
    one command, `PROCESS_RE`; a block printed right under another, `REPEAT_RE`). A table without the run label, model, cap or rate: every run its own load."""
    if not {"run", "model", "max_concurrency", "request_rate"} <= set(r.columns):
        return pd.Series(r.index.map(str), index=r.index)
    key = series_key(r).fillna("")
    for c in [c for c in LOAD_KEYS if c in r.columns]:
        v = r[c].map(str)
        key = (
            key
            + "|"
            + (v.str.replace(PROCESS_RE, "", regex=True).str.replace(REPEAT_RE, "", regex=True) if c == "run" else v)
        )
    return key


#: The settings a load sweep varies: a sweep's points differ in these alone.
LOAD_PARAMETERS = ("max_concurrency", "request_rate")


def one_load(lv: pd.DataFrame) -> bool:
    """Whether the loads `lv` (`per_load` rows of one series) are several runs at one load: every load
    parameter the rows hold has one value over them (unset, inf, is a value), so what sets them apart is
    the configuration the input labels them by (a router, a kernel, a branch), never the load."""
    cols = [c for c in LOAD_PARAMETERS if c in lv.columns]
    if len(lv) < 2 or not cols:
        return False
    for c in cols:  # a setting the output does not print (GuideLLM's unprinted streams) is unknown, not unset
        if f"{c}_recorded" in lv and (lv[c].isna() & ~lv[f"{c}_recorded"].astype(bool)).any():
            return False
    return all(lv[c].astype(object).where(lv[c].notna(), "unset").map(str).nunique() == 1 for c in cols)


def per_load(r: pd.DataFrame, metrics=("output_throughput", "total_token_throughput")) -> pd.DataFrame:
    """One row per load (see `load_key`), in the order the runs give them: the first repeat's
    settings, n (repeats), and per metric the mean (same name) and the sample standard deviation
    (`<metric>_sd`, NaN for a single run)."""
    metrics = [m for m in metrics if m in r]
    d = r.assign(series=series_key(r) if "model" in r else "", load=load_key(r))
    g = d.groupby("load", sort=False)
    stats = {"n": g.size()}
    for m in metrics:
        stats[m] = g[m].mean()
        stats[f"{m}_sd"] = g[m].std(ddof=1)
    # the columns joined at once: one by one, a wide table (an AIPerf export) warns of fragmentation
    out = pd.concat([g.first().drop(columns=metrics), pd.DataFrame(stats)], axis=1)
    return out.copy().reset_index()  # copy: one block per dtype, or reset_index warns of fragmentation


def repeats(r: pd.DataFrame) -> pd.Series:
    """The number of repeats of each load (see `load_key`), in the order the runs give them."""
    return r.groupby(load_key(r), sort=False).size() if len(r) else pd.Series(dtype=int)


def knees(r: pd.DataFrame, variable: str, threshold: float) -> pd.DataFrame:
    """The knee of each series of loads on the curve (see `series_key`; runs `apart` left out), on
    the means of the repeats with their spread as the noise: series, n (load levels), knee, first
    and last step elasticity, the number of steps and of steps where throughput fell (negative
    elasticity), whether the elasticity fell at every step (`diminishing`), the curve's `bend` at
    the knee (`strength`), output throughput at the knee, the best load's throughput and x; and
    `repeats` (the most runs of one load), `noise` (the largest spread over the mean) and
    `in_noise` (x0 of the first step below the threshold only within the noise, before the knee);
    `knee_el` and `knee_el_noise`: the elasticity of the step the knee starts and its noise (from the
    repeats' spread, or RUN_NOISE of a single run's value)."""
    from benchbook.analysis.batch import bend

    d = r.assign(x=sweep_x(r, variable))
    d = d[np.isfinite(d["x"]) & np.isfinite(d["output_throughput"])]
    rows = []
    for name, g in per_load(d, ["output_throughput"]).groupby("series", sort=False) if len(d) else []:
        y, sd = g["output_throughput"], g["output_throughput_sd"]
        steps = _steps(g["x"], y, sd)
        if not steps:
            continue
        el = [e for _, e, _ in steps]
        k = knee(g["x"], y, threshold, sd)
        # the knee step's elasticity and its noise: a load without repeats is RUN_NOISE uncertain
        at_k = [(e, n) for x0, e, n in _steps(g["x"], y, sd.fillna(RUN_NOISE * y)) if x0 == k]
        hidden = [x0 for x0, e, n in steps if e < threshold <= e + n and (k is None or x0 < k)]
        top = g.loc[y.idxmax()]
        at = g[g["x"] == k]["output_throughput"].max() if k is not None else np.nan
        curve = g.groupby("x")["output_throughput"].max()
        rows.append(
            dict(
                series=name,
                n=int(g["x"].nunique()),
                knee=k,
                el_first=el[0],
                el_last=el[-1],
                n_steps=len(el),
                n_falls=sum(e < 0 for e in el),
                diminishing=all(b < a for a, b in zip(el, el[1:], strict=False)),
                strength=bend(curve.index, curve.values, k),
                knee_tput=at,
                top_tput=top["output_throughput"],
                top_x=top["x"],
                repeats=int(g["n"].max()),
                noise=float((sd / y).max()) if sd.notna().any() else 0.0,
                in_noise=hidden[0] if hidden else None,
                knee_el=at_k[0][0] if at_k else None,
                knee_el_noise=at_k[0][1] if at_k else None,
            )
        )
    columns = ["series", "n", "knee", "el_first", "el_last", "n_steps", "n_falls", "diminishing", "strength"]
    extra = ["knee_tput", "top_tput", "top_x", "repeats", "noise", "in_noise", "knee_el", "knee_el_noise"]
    return pd.DataFrame(rows, columns=columns + extra)


#: The step of a rate printed to two decimals (req/s): a printed rate within half of it of completed /
#: duration is that quotient rounded.
PRINTED_RATE_STEP = 0.01
#: The step of a printed benchmark duration (`{:<10.2f}` s in vLLM's and SGLang's blocks): an estimated mean
#: latency is beyond the run only past that rounding.
PRINTED_DURATION_STEP = 0.01


#: How far above the requests a run had (completed + failed) its Little's-law count may read before the
#: printed rate and mean latency cannot both describe it (their rounding is far smaller).
REQUESTS_TOLERANCE = 0.10


#: Printed figures a page names with the line they are on (`runs` adds `<metric>_line`).
LINED = ("peak_concurrent_requests", "peak_output_throughput", "osl_mismatch_count", "osl_mismatch_diff_pct")


def peak_in_flight(r: pd.DataFrame) -> pd.DataFrame:
    """Each run's `Peak concurrent requests` (vLLM's bench serve and SGLang's bench_serving, one code:
    `concurrent_requests_per_second`), with its line and its cap: the tool counts, for each whole second
    from the first request's start, every request in flight at any moment of that second, so a request
    that ends and the one the client sends in its place within the same second both count. A count
    above the cap (`over`) is that counting, never requests in flight at once (the client's semaphore
    holds at most the cap): no load. At or under the cap it is the most in flight during one second.
    Columns: run, peak, cap (NaN uncapped), line, over."""
    cols = ["run", "peak", "cap", "line", "over"]
    if "peak_concurrent_requests" not in r or r["peak_concurrent_requests"].isna().all():
        return pd.DataFrame(columns=cols)
    have = r[r["peak_concurrent_requests"].notna()]
    cap = have["max_concurrency"].astype(float) if "max_concurrency" in have else pd.Series(np.nan, index=have.index)
    peak = have["peak_concurrent_requests"].astype(float)
    line = have["peak_concurrent_requests_line"] if "peak_concurrent_requests_line" in have else np.nan
    return pd.DataFrame(
        {"run": have["run"].astype(str), "peak": peak, "cap": cap, "line": line, "over": peak.gt(cap) & cap.notna()}
    ).reset_index(drop=True)


#: Tokens per streamed chunk (mean ITL over mean TPOT) above which a run's chunks carry several tokens each.
SEVERAL_TOKENS = 1.5


def peak_output_below_mean(r: pd.DataFrame) -> pd.DataFrame:
    """vLLM bench serve's runs whose printed `Peak output token throughput` (`max_output_tokens_per_s`) is
    below the least a count of their own output tokens over 1-second buckets could reach: the tool makes
    ceil(span) + 1 buckets over the run and takes the fullest, so counting every output token it could be
    no less than total output tokens / (ceil(duration) + 1). It counts instead one per token timestamp it
    holds (the first token's, then one per ITL gap), and vLLM's client keeps one ITL gap per streamed
    chunk whatever the tokens the chunk carries: where chunks carry several tokens (speculative decoding, a
    stream interval) the peak counts chunks per second, not tokens, and is never a token rate. SGLang's
    bench_serving splits each chunk's gap over its tokens, so its peak counts tokens and is not read here.
    Columns: run, peak, mean (output tok/s), line (of the peak), per_chunk (mean ITL / mean TPOT where both
    are printed, NaN otherwise), per_step (the acceptance length where the output prints one above 1), cut
    (the copy ends before the run's block does: `copy_ends`, set by `load`)."""
    cols = ["run", "peak", "mean", "least", "tokens", "buckets", "line", "per_chunk", "per_step", "cut"]
    need = {"peak_output_throughput", "output_throughput", "total_generated_tokens", "duration"}
    if not need <= set(r.columns):
        return pd.DataFrame(columns=cols)
    vllm = r["tool"].eq("vllm-bench-serve") if "tool" in r else pd.Series(True, index=r.index)
    peak = r["peak_output_throughput"].astype(float)
    dur = r["duration"].astype(float)
    least = r["total_generated_tokens"].astype(float) / (np.ceil(dur.where(dur > 0)) + 1)
    low = r[vllm & peak.notna() & (peak > 0) & (peak < least)]
    if low.empty:
        return pd.DataFrame(columns=cols)
    chunk = _col(low, "itl_mean") / _col(low, "tpot_mean").where(_col(low, "tpot_mean") > 0)
    _, per_step = tokens_per_step(low)
    line = low["peak_output_throughput_line"] if "peak_output_throughput_line" in low else np.nan
    return pd.DataFrame(
        {
            "run": low["run"].astype(str),
            "peak": low["peak_output_throughput"].astype(float),
            "mean": low["output_throughput"].astype(float),
            "least": least[low.index],
            "tokens": low["total_generated_tokens"].astype(float),
            "buckets": np.ceil(dur[low.index]) + 1,
            "line": line,
            "per_chunk": chunk,
            "per_step": per_step.where(per_step > 1),
            "cut": low["copy_ends"].notna() if "copy_ends" in low else False,
        }
    ).reset_index(drop=True)


def littles_law(r: pd.DataFrame, req: pd.DataFrame | None = None) -> pd.DataFrame:
    """Mean requests in flight per run, L = request_throughput x mean E2EL (s) (the rate unrounded,
    completed / duration, where the printed rate is its rounding, or cap / mean E2EL where the printed
    rate passes the cap only by its rounding: request_rate_used), with the
    nominal cap beside it. Columns: in_flight (the tool's measured mean concurrency where no mean
    latency is known: in_flight_measured), e2el_from ("printed", "requests": the mean of the
    per-request latencies a --save-detailed file or profile_export.jsonl holds, or "estimated"),
    estimated (True for the last), nominal (the most the run could hold in flight: max_concurrency, or the
    prompts where fewer (prompts_below_cap; prompts_sent: num_prompts, else completed + failed), or num_prompts
    when uncapped), utilisation = in_flight / nominal, cap_share = in_flight / max_concurrency, requests_had (completed + failed), over_requests (a computed
    in-flight count above the requests the run had, beyond REQUESTS_TOLERANCE) and estimate_beyond_duration
    where the estimate exceeds the run's own duration (no request outlasts the run: the estimate is not used,
    e2el_estimate_s keeps it)."""
    out = r.copy()
    lam = out["request_throughput"]
    # a rate printed to two decimals (SGLang's 0.01 req/s for 320 requests in 28,987 s) is the rounding
    # of completed / duration: where that quotient rounds to the printed rate, the quotient is used
    if {"completed", "duration"} <= set(out.columns):
        exact = out["completed"] / out["duration"].where(out["duration"] > 0)
        lam = exact.where((exact - lam).abs() <= PRINTED_RATE_STEP / 2, lam)
    out["request_rate_used"] = lam
    w = out["e2el_mean"] / 1000 if "e2el_mean" in out.columns else pd.Series(np.nan, index=out.index)
    printed = w.notna()
    from_req = pd.Series(False, index=out.index)
    if req is not None and len(req) and {"source", "run"} <= set(out.columns):
        ok = req[req["success"].astype(bool)]
        per_run = ok.groupby(["source", "run"])["e2el_ms"].mean() / 1000
        found = pd.Series(
            [per_run.get((s_, r_), np.nan) for s_, r_ in zip(out["source"], out["run"], strict=True)], index=out.index
        )
        from_req = w.isna() & found.notna()
        w = w.fillna(found)
    est = w.isna()
    out["e2el_from"] = np.where(printed, "printed", np.where(from_req, "requests", "estimated"))
    # where the output prints no total of generated tokens, its output throughput is that total over the duration
    # (vLLM's and SGLang's `output_throughput = sum(output_lens) / dur_s`), so their product gives it back
    made = _col(out, "total_generated_tokens").astype(float)
    product = _col(out, "output_throughput").astype(float) * _col(out, "duration").astype(float)
    out["output_tokens_derived"] = made.isna() & product.gt(0)
    mean_out = made.fillna(product.where(product > 0)) / out["completed"]
    # a run whose requests made one token each decodes no further token: its TTFT is its latency
    w_est = (out["ttft_mean"] + (out["tpot_mean"] * (mean_out - 1)).mask(mean_out <= 1, 0.0)) / 1000
    # every request the tool times starts and ends inside the run's duration, so a mean latency longer than
    # the duration is not this run's: an estimate beyond it (TPOT and output length co-vary) is not used
    dur = out["duration"] if "duration" in out else pd.Series(np.nan, index=out.index)
    beyond = est & (w_est > dur + PRINTED_DURATION_STEP / 2)  # beyond the printed duration's rounding too
    out["estimate_beyond_duration"] = beyond
    out["e2el_estimate_s"] = w_est.where(beyond)
    out["mean_e2el_s"] = w.fillna(w_est.where(~beyond))
    out["estimated"] = est & w_est.notna()  # an estimate made, not a latency missing (no request completed)
    # a cap bounds the requests in flight (MLPerf SingleStream: one query at a time): a printed rate whose
    # product with the mean latency passes the cap only within the rate's rounding is the rounding of a rate
    # at most cap / latency (LoadGen's 0.05 q/s over a 20.35 s mean latency: 0.0491), and that rate is used
    cap_rate = _col(out, "max_concurrency") / out["mean_e2el_s"]
    rounded = (lam > cap_rate) & (lam - PRINTED_RATE_STEP / 2 <= cap_rate)
    lam = lam.where(~rounded, cap_rate)
    out["request_rate_used"] = lam
    out["in_flight"] = lam * out["mean_e2el_s"]
    # a tool that measures the requests in flight (SGLang's and GuideLLM's mean concurrency,
    # trtllm-bench's concurrent requests): its value where the output gives no mean latency to apply
    # Little's law with, or prints one the measurement contradicts (`e2el_conflict`, set by `runs`)
    tool = measured_concurrency(out)
    # a run whose printed mean the measurement set aside takes the measurement, not an estimate of the mean
    conflict = _col(out, "e2el_conflict").fillna(0).astype(bool)  # a float column: 1.0, 0.0 or NaN
    measured = (out["in_flight"].isna() | conflict) & tool.notna()
    out["in_flight_measured"] = measured
    if measured.any():
        out.loc[measured, "in_flight"] = tool[measured]
    # uncapped: the prompts are the ceiling; a cap the output does not record is unknown, not absent
    known = (
        out["max_concurrency_recorded"].astype(bool)
        if "max_concurrency_recorded" in out
        else pd.Series(True, index=out.index)
    )
    # no run keeps more requests in flight than it had: where rate x latency says it did, the printed
    # rate and latency cannot both describe the run (its count says so), and the figure is no load
    had = _col(out, "completed") + _col(out, "failed").fillna(0)
    out["requests_had"] = had
    # a run of n prompts never holds more than n in flight, whatever its cap: the ceiling is the fewer of the
    # cap and the prompts (the printed prompts, else those the run counted, each completed or failed)
    prompts = _col(out, "num_prompts").fillna(had.where(had > 0))
    cap = _col(out, "max_concurrency")
    out["prompts_below_cap"] = cap.notna() & (prompts < cap)
    out["prompts_sent"] = prompts
    out["nominal"] = cap.where(~out["prompts_below_cap"], prompts).fillna(_col(out, "num_prompts").where(known))
    out["utilisation"] = out["in_flight"] / out["nominal"]
    out["cap_share"] = out["in_flight"] / cap
    out["over_requests"] = ~out["in_flight_measured"] & (out["in_flight"] > had * (1 + REQUESTS_TOLERANCE))
    return out


#: A run whose mean ITL is at most UNSTREAMED_ITL_MS while its mean TTFT is at least
#: UNSTREAMED_TTFT_SHARE of its mean E2EL received its text in one chunk, not token by token: its
#: TPOT and ITL are not per-token latencies (SGLang prints ITL 0.00 and a median TPOT of -0.00 then).
UNSTREAMED_ITL_MS = 0.5
UNSTREAMED_TTFT_SHARE = 0.95


def _col(r: pd.DataFrame, name: str) -> pd.Series:
    return r[name].astype(float) if name in r else pd.Series(np.nan, index=r.index)


def unstreamed(r: pd.DataFrame) -> pd.Series:
    """Per run, True where the output was not streamed token by token (see UNSTREAMED_ITL_MS): a mean
    ITL of about 0 with the first token arriving at nearly the end of the request."""
    itl, ttft, e2el = _col(r, "itl_mean"), _col(r, "ttft_mean"), _col(r, "e2el_mean")
    return (itl.abs() <= UNSTREAMED_ITL_MS) & (ttft >= UNSTREAMED_TTFT_SHARE * e2el) & (e2el > 0)


#: A median ITL at most this many times the median TPOT: the typical gap between streamed chunks is about
#: one token's time (`gapped`); between this and a chunk reading's factor the medians decide nothing.
ONE_TOKEN_GAP = 1.2


def gapped(r: pd.DataFrame, factor: float) -> pd.Series:
    """Per run, True where the mean ITL is over `factor` x the mean TPOT but the median ITL is at most
    ONE_TOKEN_GAP x the median TPOT. vLLM's and SGLang's serving benchmarks take a request's TPOT as (E2EL -
    TTFT) / (output tokens - 1) and pool every gap between streamed chunks of every request into ITL: if
    the chunks carried several tokens each, every gap would be that many tokens' time and the median ITL
    would be as far over the median TPOT as the mean is. A median ITL near the median TPOT says the
    typical chunk is one token, so the mean is raised by a tail of long gaps (pauses in the stream), not
    by chunks of several tokens. A run that prints no median of either is not judged, nor one that states
    speculative decoding (`tokens_per_step`), whose steps do give several tokens at a time."""
    itl, tpot = _col(r, "itl_mean"), _col(r, "tpot_mean")
    med_itl, med_tpot = _col(r, "itl_median"), _col(r, "tpot_median")
    method, _ = tokens_per_step(r) if len(r) else (pd.Series(np.nan, index=r.index, dtype=object), None)
    return (
        (itl > factor * tpot)
        & (med_itl <= ONE_TOKEN_GAP * med_tpot)
        & (med_tpot > 0)
        & method.isna()
        & ~bursty(r)
        & ~unstreamed(r)
    )


def bursty(r: pd.DataFrame) -> pd.Series:
    """Per run, True where at least half of the gaps between streamed chunks are about 0 (median ITL at
    most UNSTREAMED_ITL_MS) while their mean is not: the chunks came in bursts, several at once (a
    proxy that buffers, or several tokens per step sent one by one), so ITL's percentiles describe
    the bursts, not how fast tokens were made. A run not streamed at all (`unstreamed`) is not one."""
    med, mean = _col(r, "itl_median"), _col(r, "itl_mean")
    return (med.abs() <= UNSTREAMED_ITL_MS) & (mean > 2 * UNSTREAMED_ITL_MS) & ~unstreamed(r)


def rate_exceeded(r: pd.DataFrame) -> pd.Series:
    """Per run, True where more requests completed per second than its finite request rate sends,
    by more than chance allows: Poisson arrivals of n requests span n / rate seconds with a relative
    spread of 1 / sqrt(n), so the margin is the larger of RUN_NOISE and 3 / sqrt(n) (n: the requests
    completed, else 100). Then the rate setting did not govern arrivals. A rate the parser assumed,
    and an MLPerf Offline run's `target_qps` (an expected rate, not an arrival rate), are not checked."""
    rate, done = _col(r, "request_rate"), _col(r, "request_throughput")
    n = _col(r, "completed").where(lambda c: c > 0).fillna(100.0)
    margin = np.maximum(RUN_NOISE, 3 / np.sqrt(n))
    return _rate_checked(r) & (done > rate * (1 + margin))


#: A run at a finite request rate whose prompts all go out, at that rate, within this share of its duration
#: (num_prompts / rate: the expected time to issue the last one) sent them as good as all at once: its
#: arrival process (vLLM's gamma gaps of mean 1 / rate) spans a negligible part of the run it describes.
AT_ONCE_SHARE = 0.01


def arrivals(r: pd.DataFrame) -> list[dict]:
    """How the runs sent at a finite request rate spaced their arrivals, one entry per process: `burstiness`
    (vLLM's `--burstiness`: the gaps are drawn from a gamma distribution of that shape and mean 1 / rate, so 1
    is a Poisson process, under 1 burstier, over 1 smoother, infinite evenly spaced), `stated` (the output
    prints it) or else the tool's default for that format (`ingest.default`: the tool's source sets it), and
    the `runs` named. `option`: whether the format's version had the option at all (a format that declares it
    cannot print `burstiness`, `ingest.carries` False, echoes every option its script had and so had none:
    vLLM's 2023 `benchmark_serving.py` drew every gap from an exponential of mean 1 / rate, fixed). `at_once`:
    runs whose prompts (num_prompts, else completed + failed) all go out, at the rate, within AT_ONCE_SHARE
    of the run's duration (`issue_s`, the longest such span, `duration`, the shortest run, `rate`, the
    lowest): their arrivals are as good as all at once, whatever the process, and are one entry apart. A run
    whose rate is unlimited or unknown (all at once, or not stated) has no arrival process; a run at a finite
    rate whose output prints no burstiness and whose tool declares no default is left out: its process is
    unknown, not Poisson."""
    from benchbook import ingest

    if r.empty or "request_rate" not in r:
        return []
    rated = r[_rate_checked(r)]
    said = _col(rated, "burstiness")
    rate, duration = _col(rated, "request_rate"), _col(rated, "duration")
    prompts = _col(rated, "num_prompts").fillna(_col(rated, "completed") + _col(rated, "failed").fillna(0))
    issue = prompts / rate
    at_once = (duration > 0) & (issue <= AT_ONCE_SHARE * duration)
    groups: dict[tuple, list[str]] = {}
    spans: list[tuple[float, float, float]] = []
    for (i, row), b in zip(rated.iterrows(), said, strict=True):
        if at_once[i]:
            groups.setdefault(("at_once",), []).append(str(row["run"]))
            spans.append((float(issue[i]), float(duration[i]), float(rate[i])))
            continue
        stated = bool(pd.notna(b))
        if not stated:
            b = ingest.default(row.get("tool"), row.get("format"), "burstiness")
        if b is None or pd.isna(b) or b <= 0:
            continue
        option = ingest.carries(row.get("tool"), row.get("format"), "burstiness") is not False
        groups.setdefault((float(b), stated, option), []).append(str(row["run"]))
    out = []
    for key, names in groups.items():
        if key == ("at_once",):
            out.append(
                dict(
                    at_once=True,
                    runs=names,
                    issue_s=max(s[0] for s in spans),
                    duration=min(s[1] for s in spans),
                    rate=min(s[2] for s in spans),
                    share=AT_ONCE_SHARE,
                )
            )
        else:
            b, st, option = key
            out.append(dict(burstiness=b, stated=st, option=option, at_once=False, runs=names))
    return out


def engine_batch(r: pd.DataFrame) -> pd.Series:
    """Per run, the most requests its engine batches at once, as its output prints it: trtllm-bench's `Max
    Runtime Batch Size` / `world_info.max_batch_size`, kept by its parser in the run's metadata as
    `max_batch_size`; NaN where the output prints none. At 1 the engine holds one request at a time
    (`trtllm-bench latency` sets it so), whatever the client has issued."""
    meta = r["metadata"] if "metadata" in r else pd.Series(None, index=r.index, dtype=object)
    got = [
        dict(kv.split("=", 1) for kv in (x.strip() for x in m.split(";")) if "=" in kv).get("max_batch_size")
        if isinstance(m, str)
        else None
        for m in meta
    ]
    return pd.to_numeric(pd.Series(got, index=r.index, dtype=object), errors="coerce")


#: The TensorRT-LLM release whose `trtllm-bench throughput` first took `--concurrency` (its release notes,
#: 0.17.0: "Added `--concurrency` support for the `throughput` subcommand of `trtllm-bench`").
TRTLLM_CONCURRENCY_SINCE = (0, 17)


def run_metadata(m: object) -> dict:
    """A run's `metadata` cell (`key=value; ...`, as the parsers write it) as a dict; {} where there is none."""
    return dict(kv.split("=", 1) for kv in (x.strip() for x in m.split(";")) if "=" in kv) if isinstance(m, str) else {}


def _release(v: str | None) -> tuple[int, ...] | None:
    got = re.match(r"\s*v?(\d+)\.(\d+)", v or "")
    return (int(got.group(1)), int(got.group(2))) if got else None


def without_concurrency_option(r: pd.DataFrame) -> pd.Series:
    """Per run, True where the trtllm-bench that sent it had no `--concurrency`: a `throughput` run (the
    report's command, `subcommand` in its metadata) of a TensorRT-LLM version the report prints (`version`)
    before TRTLLM_CONCURRENCY_SINCE. Its throughput command queued every request and left the engine's
    scheduler to take them up to its max batch size. False where the version had the option, or nothing
    says which version or subcommand ran (no option is then denied)."""
    meta = r["metadata"] if "metadata" in r else pd.Series(None, index=r.index, dtype=object)
    tools = r["tool"] if "tool" in r else pd.Series(None, index=r.index, dtype=object)
    out = []
    for tool, m in zip(tools, meta, strict=True):
        got = run_metadata(m)
        release = _release(got.get("version"))
        out.append(
            tool == "trtllm-bench"
            and got.get("subcommand") == "throughput"
            and release is not None
            and release < TRTLLM_CONCURRENCY_SINCE
        )
    return pd.Series(out, index=r.index, dtype=bool)


def _rate_checked(r: pd.DataFrame) -> pd.Series:
    """Runs whose finite request rate is an arrival rate the output states: not one the parser
    assumed, not an MLPerf Offline run's `target_qps`."""
    rate = _col(r, "request_rate")
    checked = np.isfinite(rate) & (rate > 0)
    if "rate_assumed" in r:
        checked &= ~r["rate_assumed"].eq(True)
    if "scenario" in r:
        checked &= ~r["scenario"].eq("Offline")
    return checked


#: A run whose completed rate is under this share of its finite request rate did not serve the rate
#: it was offered (a drain tail of one latency does not halve a run many latencies long).
UNMET_RATE_SHARE = 0.5


def rate_unmet(r: pd.DataFrame) -> pd.Series:
    """Per run, True where fewer than UNMET_RATE_SHARE of the requests per second its finite request
    rate sends ended per second: the requests finished far more slowly than they were sent, so
    the load the server saw is not the offered rate. A failed request ended too: the tools' request
    throughput counts completed requests only (vLLM's `completed / duration`), so where the output
    counts failures they are added back over the duration (200 requests failing `Not Found` at 1 req/s
    ended as fast as they were sent; none queued). Checked as `rate_exceeded` is (no assumed rate,
    no MLPerf Offline)."""
    rate, done = _col(r, "request_rate"), _col(r, "request_throughput")
    failed, duration = _col(r, "failed"), _col(r, "duration")
    ended = done + failed / duration
    done = ended.where(np.isfinite(ended) & (failed > 0) & (duration > 0), done)
    return _rate_checked(r) & np.isfinite(done) & (done < UNMET_RATE_SHARE * rate)


def printed_percentile(stat: str) -> float | None:
    """The percentile a printed statistic is (`median` and `p50` 50, `p75` 75, `p99.9` 99.9, `min` 0,
    `max` 100), None for a mean, a spread or a count."""
    if stat in PERCENTILE_OF:
        return PERCENTILE_OF[stat]
    if stat in ("min", "max"):
        return 0.0 if stat == "min" else 100.0
    m = re.fullmatch(r"p(\d+(?:\.\d+)?)", stat)
    return float(m.group(1)) if m and float(m.group(1)) <= 100 else None


def _share_bounds(row: pd.Series, metric: str, slo: float) -> tuple[float, float]:
    """(lower, upper) share of requests with `metric` <= slo, from every percentile the output
    prints, its minimum and maximum included (GenAI-Perf's and AIPerf's p25, p75, min, max): a
    minimum over the SLO means no request met it, a maximum under it that every one did."""
    lo, up = 0.0, 1.0
    prefix = f"{metric}_"
    for col in row.index:
        q = printed_percentile(str(col)[len(prefix) :]) if str(col).startswith(prefix) else None
        v = row.get(col, np.nan) if q is not None else None
        if v is None or not np.isfinite(v):
            continue
        if v <= slo:
            lo = max(lo, q / 100)
        else:
            up = min(up, q / 100)
    return lo, up


def completed_share(row: pd.Series) -> float:
    """The share of the requests sent that completed: 1 where the output counts no failures (or
    does not count them), 0 when none completed."""
    done, failed = row.get("completed", np.nan), row.get("failed", np.nan)
    if failed is None or not np.isfinite(failed) or failed <= 0:
        return 1.0
    done = done if done is not None and np.isfinite(done) else 0.0
    return float(done / (done + failed))


def judging_limits(row: pd.Series, slo_ttft_ms: float, slo_tpot_ms: float) -> tuple[float, float, str]:
    """The TTFT and TPOT limits a run is judged against, and whose they are: the run's own where its
    output states both (MLPerf LoadGen prints `ttft_latency (ns)` and `tpot_latency (ns)`, the
    benchmark's limits for the model, in its summary and detail log) and holds the run to them (in
    the Server scenario only, `own_slo_bounds`), "output"; else the page's SLOs, "page". A benchmark
    that sets its own limits is judged by them, not by another benchmark's."""
    own = [row.get(c) for c in ("ttft_limit_ms", "tpot_limit_ms")]
    scenario = row.get("scenario")
    held = scenario is None or (isinstance(scenario, float) and math.isnan(scenario)) or scenario == "Server"
    if held and all(_finite(v) for v in own):
        return float(own[0]), float(own[1]), "output"
    return slo_ttft_ms, slo_tpot_ms, "page"


def goodput_bounds(r: pd.DataFrame, slo_ttft_ms: float, slo_tpot_ms: float) -> pd.DataFrame:
    """Bounds on goodput (req/s) from summary percentiles (see the module rule), each run against
    its `judging_limits`. Columns: share_lo, share_hi, goodput_lo, goodput_hi (req/s), the
    per-metric bounds, and the limits used (slo_ttft_ms, slo_tpot_ms, slo_whose)."""
    rows = []
    for _, row in r.iterrows():
        ttft, tpot, whose = judging_limits(row, slo_ttft_ms, slo_tpot_ms)
        a_lo, a_up = _share_bounds(row, "ttft", ttft)
        b_lo, b_up = _share_bounds(row, "tpot", tpot)
        kept = completed_share(row)  # the percentiles are of completed requests; the shares of those sent
        lo = max(0.0, a_lo + b_lo - 1)
        hi = min(a_up, b_up)
        lam = row["request_throughput"]  # completed requests per second
        rows.append(
            dict(
                ttft_share_lo=a_lo * kept,
                ttft_share_hi=a_up * kept,
                tpot_share_lo=b_lo * kept,
                tpot_share_hi=b_up * kept,
                share_lo=lo * kept,
                share_hi=hi * kept,
                goodput_lo=lo * lam,
                goodput_hi=hi * lam,
                slo_ttft_ms=ttft,
                slo_tpot_ms=tpot,
                slo_whose=whose,
            )
        )
    cols = ["ttft_share_lo", "ttft_share_hi", "tpot_share_lo", "tpot_share_hi", "share_lo", "share_hi"]
    cols += ["goodput_lo", "goodput_hi", "slo_ttft_ms", "slo_tpot_ms", "slo_whose"]
    return pd.concat([r.reset_index(drop=True), pd.DataFrame(rows, columns=cols)], axis=1)


def goodput_bounded(gb: pd.DataFrame) -> pd.Series:
    """Per run of `goodput_bounds`, whether its bounds say anything: a lower bound above 0 or an upper
    one under 100 %. Bounds of 0 and 100 % (no percentile on either side of a limit) hold of any run."""
    if gb.empty:
        return pd.Series(dtype=bool)
    return (gb["share_lo"] > 0) | (gb["share_hi"] < 1)


def exact_goodput(req: pd.DataFrame, slo_ttft_ms: float, slo_tpot_ms: float) -> pd.DataFrame:
    """Goodput per run from per-request data (`vllm_serve.requests`): the count of successful
    requests with ttft <= slo and tpot <= slo (tpot 0 for one-token outputs, as the tool does)
    divided by the run's duration. Columns: run, requests, completed, failed, good, share (of every
    request, a failed one meeting no SLO), goodput (req/s)."""
    ok = req["success"]
    good = ok & (req["ttft_ms"] <= slo_ttft_ms) & (req["tpot_ms"] <= slo_tpot_ms)
    g = req.assign(ok=ok, good=good).groupby(["source", "run"], sort=False)
    out = g.agg(
        requests=("ok", "size"), completed=("ok", "sum"), good=("good", "sum"), duration_s=("duration_s", "first")
    ).reset_index()
    out["failed"] = out["requests"] - out["completed"]
    # of every request sent: a failed (errored, cancelled, timed-out) request meets no SLO
    out["share"] = out["good"] / out["requests"].where(out["requests"] > 0)
    out["goodput"] = out["good"] / out["duration_s"]
    return out


#: The metric names a tool's `--goodput` option takes (vLLM: ttft/tpot/e2el; AIPerf and GenAI-Perf:
#: the metric tags), as this house names them.
GOODPUT_METRICS = {
    "ttft": "ttft",
    "time_to_first_token": "ttft",
    "tpot": "tpot",
    "inter_token_latency": "tpot",
    "e2el": "e2el",
    "request_latency": "e2el",
}
_GOODPUT_OPTION = re.compile(r"""--goodput[ =]+(["']?)((?:[a-z_]+:[0-9.]+[ ,]*)+)\1""")
_GOODPUT_NAMESPACE = re.compile(r"""\bgoodput=(\[)([^\]]*)\]""")  # vLLM's printed Namespace(..., goodput=['ttft:500'])


def goodput_slos(metadata) -> list[tuple[str, float]]:
    """The SLOs behind a goodput the tool itself printed, from the `--goodput` option of the command
    the output records (`ttft:370 e2el:648`, in ms; or vLLM's printed `Namespace(goodput=[...])`): (metric, limit) pairs, a metric the house does
    not name kept under its own name; empty when the command is not recorded."""
    text = metadata if isinstance(metadata, str) else ""
    m = _GOODPUT_OPTION.search(text) or _GOODPUT_NAMESPACE.search(text)
    if not m:
        return []
    pairs = re.findall(r"([a-z_]+):([0-9.]+)", m.group(2))
    return [(GOODPUT_METRICS.get(name, name), float(limit)) for name, limit in pairs]


def pareto_front(per_user, per_gpu) -> np.ndarray:
    """Mask of the points not dominated on (per-user speed, whole-server throughput), both maximised."""
    return pareto.frontier(per_user, per_gpu)


#: Server settings (a `vllm bench sweep` folder's SERVE side, --metadata keys, trtllm-bench's report)
#: that make runs at one load different servers, never repeats or steps of one curve.
SERVER_SETTINGS = (
    "deployment",
    "max_num_seqs",
    "max_num_batched_tokens",
    "max_model_len",
    "gpu_memory_utilization",
    "tensor_parallel_size",
    "tp",
    "pp",
    "dp",
    "ep",
    "quantization",
    "kv_cache_dtype",
    "speculative",
    "max_batch_size",
    "max_num_tokens",
    "hw",  # InferenceX aggregates: hardware x framework x KV offloading are different servers
    "framework",
    "kv_offloading",
    "build",  # the vLLM parser's: a commit the text names above the results
)


#: The workload a client asks for in its metadata (SGLang's `random_input_len`, `random_output_len`; AIPerf's
#: `--synthetic-input-tokens-mean` / `--output-tokens-mean` as its console parser keeps them): runs asking for
#: other lengths are other workloads, another series, never loads or bursts of one.
WORKLOAD_SETTINGS = ("random_input_len", "random_output_len", "input_tokens_mean", "output_tokens_mean")
#: The input and the output keys of each client's `WORKLOAD_SETTINGS`.
ASKED_LENGTHS = (("random_input_len", "random_output_len"), ("input_tokens_mean", "output_tokens_mean"))
#: How `workloads` labels a workload known only from what the command asks for (no token totals, no
#: sequence lengths printed): the mean a client asks for is not the mean it got.
ASKED = "asked: "


def _settings(meta: pd.Series, workload: bool = False) -> pd.DataFrame:
    """The `SERVER_SETTINGS` (with `workload`, also the `WORKLOAD_SETTINGS`) of each run's `key=value;
    ...` metadata, one column per setting."""
    rows = [dict(kv.split("=", 1) for kv in (x.strip() for x in m.split(";")) if "=" in kv) for m in meta]
    keys = SERVER_SETTINGS + (WORKLOAD_SETTINGS if workload else ())
    cols = {k: [row.get(k) for row in rows] for k in keys if any(k in row for row in rows)}
    return pd.DataFrame(cols, index=meta.index)


def aggregates(r: pd.DataFrame) -> pd.Series:
    """Whether each run is one report over every load stage of its run, not a load level: inference-perf
    writes `summary_lifecycle_metrics.json` from the requests of all its stages together (each stage
    at its own rate, in `stage_N_lifecycle_metrics.json`), and records neither their count nor rates."""
    from benchbook.ingest import inference_perf

    if "format" not in r:
        return pd.Series(False, index=r.index)
    return r["format"].eq(inference_perf.SUMMARY) & r.get("tool", pd.Series("", index=r.index)).eq(inference_perf.NAME)


def models(r: pd.DataFrame) -> list[str]:
    """The models the runs are of, one per checkpoint (`precision.checkpoint`: vLLM's `--model` is a
    name or a path, and `models/Qwen2.5-Omni-7B` beside `/workspace/.../models/Qwen2.5-Omni-7B` is one
    folder's weights, as `series_key` labels them), each in its longest spelling, in name order."""
    if "model" not in r:
        return []
    names = sorted((str(m) for m in r["model"].dropna().unique()), key=len, reverse=True)
    one = {}
    for m in names:
        one.setdefault(precision.checkpoint(m), m)
    return sorted(one.values())


def series_key(r: pd.DataFrame, measured: bool = True) -> pd.Series:
    """A label per series of comparable runs: same model, the server settings that vary across the
    input (deployment, or a sweep's `max_num_seqs`: three servers at one concurrency are three
    series, never a curve rising 'at every step' of one load) and, when the input mixes them,
    dataset (runs of two workloads at one load are two points, never repeats of one); with
    `measured`, also the workload the runs' token totals show (`workloads`), else the one their
    client states (`WORKLOAD_SETTINGS`)."""
    meta = (
        r["metadata"].astype(object).fillna("").astype(str) if "metadata" in r.columns else pd.Series("", index=r.index)
    )
    label = r["model"].astype(object).fillna("the unnamed model").astype(str).str.split("/").str[-1]
    settings = _settings(meta, workload=not measured)
    varying = _varying(settings)
    if varying:
        parts = settings[varying].apply(
            lambda row: "; ".join(str(v) if k == "deployment" else f"{k}={v}" for k, v in row.items() if pd.notna(v)),
            axis=1,
        )
        parts = parts.astype(str)
        label = label.where(parts == "", label + " (" + parts + ")")  # no "()" for a run that states none
    if "dataset" in r.columns and r["dataset"].nunique() > 1:
        label = label + ", dataset " + r["dataset"].fillna("not stated").map(str)
    work = workloads(r) if measured else pd.Series("", index=r.index)
    return label.where(work == "", label + ", " + work)


def _varying(settings: pd.DataFrame) -> list[str]:
    """The settings that tell servers apart: a setting one server states and another does not (EAGLE
    on one, none on the other) varies too."""
    return [
        c for c in settings if c == "deployment" and settings[c].notna().any() or settings[c].nunique(dropna=False) > 1
    ]


def series_apart(r: pd.DataFrame) -> dict:
    """What sets the runs' series (`series_key`) apart, for the page to say which: `models` (several),
    `settings` (the server settings that vary), `datasets` (several) and `workloads` (several
    workloads by their token means, `workloads`)."""
    meta = r["metadata"].astype(object).fillna("").astype(str) if "metadata" in r else pd.Series("", index=r.index)
    model = r["model"].astype(object).fillna("the unnamed model").astype(str).str.split("/").str[-1]
    return dict(
        models=bool(model.nunique() > 1),
        settings=[c.replace("_", " ") for c in _varying(_settings(meta))],
        datasets=bool("dataset" in r and r["dataset"].nunique() > 1),
        workloads=bool(workloads(r).ne("").any()),
    )


def _asked(r: pd.DataFrame) -> pd.DataFrame:
    """Per run, the mean input ("i") and output ("o") tokens a request its command asks for
    (`ASKED_LENGTHS` in its metadata), NaN where it states none."""
    meta = r["metadata"].astype(object).fillna("").astype(str) if "metadata" in r else pd.Series("", index=r.index)
    stated = _settings(meta, workload=True)
    out = pd.DataFrame(np.nan, index=r.index, columns=["i", "o"])
    for i_key, o_key in ASKED_LENGTHS:
        for col, key in (("i", i_key), ("o", o_key)):
            if key in stated:
                out[col] = out[col].fillna(pd.to_numeric(stated[key], errors="coerce"))
    return out


def _measured_lengths(r: pd.DataFrame) -> pd.DataFrame:
    """Per run, the mean input ("i") and output ("o") tokens a request it measured: the totals over the
    completed requests, or the per-request means AIPerf and GenAI-Perf print as Input and Output Sequence
    Length; NaN where it prints neither."""

    def col(name):
        return pd.to_numeric(r[name], errors="coerce") if name in r else pd.Series(np.nan, index=r.index)

    done = col("completed")
    return pd.DataFrame(
        {
            "i": (col("total_input_tokens") / done).fillna(col("input_sequence_length_mean")),
            "o": (col("total_generated_tokens") / done).fillna(col("output_sequence_length_mean")),
        }
    )


#: How near a measured mean output must come to the asked input plus output for `output_off_asked` to say
#: it is their sum (a server returning the prompt with its answer): GenAI-Perf's synthetic prompts hold their
#: asked length to a token or two (128.02 for 128), so 2 % is far inside any other cause.
ECHO_TOLERANCE = 0.02


def output_off_asked(r: pd.DataFrame) -> pd.DataFrame:
    """The runs whose measured mean output tokens a request is more than `WORKLOAD_SPREAD` from the mean
    their command asks for (GenAI-Perf's and AIPerf's `--output-tokens-mean` sets each request's
    max_tokens, so only a server that ignored it, one that returned more text than its answer, or a tokenizer
    counting otherwise than the server's gives far more; an early end of sequence gives far fewer): run,
    measured, asked, and `echo` where the measured mean is the asked input plus output (within
    `ECHO_TOLERANCE`). Their output token counts and throughputs are not the workload asked for."""
    # SGLang's `random_output_len` is the top of a range its `--random-range-ratio` samples lengths from (a mean of
    # about half at ratio 0), no length asked of each request: only GenAI-Perf's and AIPerf's mean is one
    meta = r["metadata"].astype(object).fillna("").astype(str) if "metadata" in r else pd.Series("", index=r.index)
    stated = _settings(meta, workload=True)
    asked = pd.DataFrame(
        {
            k: pd.to_numeric(stated[c], errors="coerce") if c in stated else np.nan
            for k, c in (("i", "input_tokens_mean"), ("o", "output_tokens_mean"))
        },
        index=r.index,
    )
    got = _measured_lengths(r)
    ok = (asked["o"] > 0) & (got["o"] > 0)
    ratio = got["o"][ok] / asked["o"][ok]
    far = ratio[(ratio > WORKLOAD_SPREAD) | (ratio < 1 / WORKLOAD_SPREAD)].index
    both = asked["i"][far] + asked["o"][far]
    echo = ((got["o"][far] - both).abs() <= ECHO_TOLERANCE * both).fillna(False)
    runs = r.loc[far, "run"] if "run" in r else pd.Series(far.astype(str), index=far)
    return pd.DataFrame(
        {"run": runs.astype(str), "measured": got["o"][far], "asked": asked["o"][far], "asked_input": asked["i"][far]}
    ).assign(echo=echo.astype(bool))


#: AIPerf's default OSL mismatch threshold (`Environment.METRICS`: OSL_MISMATCH_PCT_THRESHOLD 5 %,
#: OSL_MISMATCH_MAX_TOKEN_THRESHOLD 50 tokens): a request counts when |actual - requested| exceeds the fewer.
OSL_MISMATCH_PCT, OSL_MISMATCH_TOKENS = 5, 50


def output_mismatch(r: pd.DataFrame) -> pd.DataFrame:
    """The runs whose tool counted outputs off the length each request asked for: AIPerf's `OSL Mismatch
    Count` (`osl_mismatch_count`, `metrics/types/osl_mismatch_metrics.py`: a request whose output token count
    differs from its max_tokens by more than the fewer of 5 % of it and 50 tokens, by default) and its
    `OSL Mismatch Diff %` ((actual - requested) / requested x 100 per request, signed: negative where the
    output stopped early). Columns: run, count, requests (completed + failed, where counted), mean, low, high
    (the diff's mean, min and max over every request with one), short (every request's diff below zero: each
    stopped short), line (the count's). A count of zero, or none printed, is no run here."""
    cols = ["run", "count", "requests", "mean", "low", "high", "short", "line"]
    if "osl_mismatch_count" not in r:
        return pd.DataFrame(columns=cols)
    count = pd.to_numeric(r["osl_mismatch_count"], errors="coerce")
    hit = r[count > 0]
    had = _col(hit, "completed") + _col(hit, "failed").fillna(0)
    high = _col(hit, "osl_mismatch_diff_pct_max")
    return pd.DataFrame(
        {
            "run": hit["run"].astype(str) if "run" in hit else pd.Series("", index=hit.index),
            "count": count[hit.index],
            "requests": had.where(had > 0),
            "mean": _col(hit, "osl_mismatch_diff_pct_mean"),
            "low": _col(hit, "osl_mismatch_diff_pct_min"),
            "high": high,
            "short": high < 0,
            "line": _col(hit, "osl_mismatch_count_line"),
        },
        columns=cols,
    ).reset_index(drop=True)


def workloads(r: pd.DataFrame) -> pd.Series:
    """Per run, its workload's label where runs of one dataset (the dataset already makes a series)
    are of several workloads ("" otherwise): the mean input and output tokens a request (the totals
    over the completed requests, or the per-request means AIPerf and GenAI-Perf print as Input and
    Output Sequence Length; where the output prints neither, the means its command asks for, labelled
    `ASKED`), runs within `WORKLOAD_SPREAD` of the first run of a workload on both being that
    workload. A run without any joins none and splits none."""
    label = pd.Series("", index=r.index, dtype=object)
    measured = _measured_lengths(r)
    asked = _asked(r)
    only_asked = measured.isna().all(axis=1) & asked.notna().all(axis=1)
    means = measured.where(~only_asked, asked)
    known = means[(means > 0).all(axis=1) & np.isfinite(means).all(axis=1)]
    dataset = r["dataset"].astype(object).fillna("") if "dataset" in r else pd.Series("", index=r.index)

    def near(i, o, a, b):
        return max(i / a, a / i) <= WORKLOAD_SPREAD and max(o / b, b / o) <= WORKLOAD_SPREAD

    for _, g in known.groupby(dataset[known.index], sort=False):
        firsts: list[tuple[float, float]] = []
        for i, o in g.itertuples(index=False):
            if not any(near(i, o, a, b) for a, b in firsts):
                firsts.append((i, o))
        if len(firsts) < 2:
            continue
        for idx, (i, o) in g.iterrows():
            a, b = next((a, b) for a, b in firsts if near(i, o, a, b))
            label[idx] = f"{ASKED if only_asked[idx] else ''}{a:,.0f} in / {b:,.0f} out tokens a request"
    return label


# --- the decode roofline ----------------------------------------------------------------------


def stated(r: pd.DataFrame, key: str) -> str | None:
    """A setting the output states in a run's `metadata` (`key=value; ...`, e.g. trtllm-bench's
    `tp=4` or `quantization=FP8`): the first run's that is not None/empty, else None."""
    if "metadata" not in r:
        return None
    for meta in r["metadata"].dropna():
        m = re.search(rf"(?:^|;\s*){re.escape(key)}=([^;]*)", str(meta))
        if m and m.group(1).strip() not in ("", "None", "none", "null"):
            return m.group(1).strip()
    return None


#: Tools whose output, when it states no precision, leaves the weights' bytes unknown: an MLPerf
#: submission or a TensorRT-LLM engine usually runs quantized weights (FP8, FP4), so bf16 is not
#: assumed for them (`weights`); vLLM's and SGLang's `--dtype auto` load the checkpoint's own.
PRECISION_NOT_ASSUMED = ("mlperf-loadgen", "trtllm-bench")


def weights(model: str | None, r: pd.DataFrame | None = None, stated_names=()) -> precision.Weights:
    """The weights' precision of the runs `r` of `model` (`precision.weights`): the quantization and
    dtype the output states in its `metadata` (e.g. trtllm-bench's `Quantization: FP8` above `Dtype:
    bfloat16`), the names an MLPerf summary carries (its SUT, the file), the model's name, the tagged
    names the rest of the file gives the weights (`stated_names`: `precision.stated_names`) and the
    model table; bf16 assumed when nothing says, except for the tools in PRECISION_NOT_ASSUMED. Where the
    runs' own names give their weights different precisions the file's one answer does not hold for
    (`per_run`), none is every run's and none is assumed (source "per run")."""
    if r is None:
        return precision.weights(model, stated=stated_names)
    names = []
    if "tool" in r and r["tool"].eq("mlperf-loadgen").any():
        names = [*r.get("sut", pd.Series(dtype=object)).dropna(), *r.get("source", pd.Series(dtype=object))]
    assume = not ("tool" in r and len(r) and r["tool"].isin(PRECISION_NOT_ASSUMED).all())
    w = precision.weights(model, stated(r, "quantization"), stated(r, "dtype"), names, assume, stated_names)
    return precision.Weights(None, math.nan, "per run") if per_run(w, r) else w


def per_run(w: precision.Weights, r: pd.DataFrame) -> dict:
    """`run_precisions(r)` where the runs' own names give different precisions and the file's one answer
    `w` is not every run's: assumed, not stated, or other than a run's own; {} where it is (a run named
    `NVFP4 Results` beside one named by its settings, in a file that states fp4)."""
    tags = run_precisions(r)
    if not tags or (w.known and not w.assumed and all(t is None or t[0] == w.precision for t in tags.values())):
        return {}
    return tags


def run_precisions(r: pd.DataFrame) -> dict[str, tuple[str, str] | None]:
    """{run: (precision, the tag as written) or None} where the runs' own names (a publisher's titles,
    `vLLM+Awq+4bit`) name weights of different precisions (`precision.tagged`; a name with no tag is
    none named), so no one precision, and no one model, is every run's; {} where they agree."""
    if "run" not in r or r["run"].dropna().nunique() < 2:
        return {}
    tags = {str(n): precision.tagged(n) for n in dict.fromkeys(r["run"].dropna())}
    return tags if len({t[0] if t else None for t in tags.values()}) > 1 else {}


def weight_bytes(model: str | None, r: pd.DataFrame | None = None) -> tuple[float, bool]:
    """(bytes per weight, assumed) of `weights`: NaN where the precision is not stated."""
    w = weights(model, r)
    return w.bytes_per_weight, w.assumed


def devices(r: pd.DataFrame) -> int:
    """The devices one run spans, as the output states them: TP x PP (trtllm-bench's `TP Size`,
    `PP Size`) x DP, the replicas a data-parallel server runs (vLLM's --data-parallel-size, SGLang's
    --dp); 1 where it does not say. SGLang's --enable-dp-attention runs its DP ranks inside the TP
    group (docs.sglang.io, "DP, DPA and SGLang DP Router"): then DP adds no device. EP never adds
    one: experts are spread over the devices TP x DP already count."""
    n = 1
    keys = ("tp", "pp") if stated(r, "dp_attention") == "yes" else ("tp", "pp", "dp")
    for key in keys:
        try:
            n *= max(1, int(float(stated(r, key) or 1)))
        except ValueError:
            pass
    return n


def dp_inside(r: pd.DataFrame) -> bool:
    """Whether the runs' DP ranks run inside their TP group (SGLang's --enable-dp-attention beside a DP above
    1): `devices` then counts TP x PP alone, and a page that gives the count says why the DP adds none."""
    try:
        return stated(r, "dp_attention") == "yes" and float(stated(r, "dp") or 1) > 1
    except ValueError:
        return False


def device_counts(r: pd.DataFrame) -> list[int]:
    """The distinct counts of devices (`devices`) of the runs that state their parallelism, smallest first:
    more than one where the runs state different ones (an authors' table's `TP x EP` column), so that no
    one count, and no one peak, is theirs. A run that states none is left out: its count is unknown."""
    said = [devices(r.iloc[[i]]) for i in range(len(r)) if any(stated(r.iloc[[i]], k) for k in ("tp", "pp", "dp"))]
    return sorted(set(said))


def unfit_said(pk, r: pd.DataFrame, total_b, w, counted: bool) -> dict:
    """Why one device the input names is not the run's peak: the input states no count of it (`counted`: on
    its line, in a command, in a dump) and no parallelism of its runs (`device_counts`), yet the model's
    weights alone (total parameters x bytes per weight of `w`, a `precision.Weights` the input states) exceed
    that one device's memory, so the run spans at least ceil(weights / memory) of them, a count the input does
    not give. Evidence (`device_unfit`, `unfit_weights`, `unfit_memory`, `unfit_fewest`) for
    `claims.rules.no_device_reason`; empty where the weights fit one device, a count is stated, or the size,
    the precision (an assumed bf16 is not the file's) or the device's memory is unknown."""
    if pk is None or counted or pk.count != 1 or not pk.memory_gb or device_counts(r):
        return {}
    if not total_b or math.isnan(total_b) or not w.known or w.assumed or math.isnan(w.bytes_per_weight):
        return {}
    weights = float(total_b) * float(w.bytes_per_weight)
    if weights <= pk.memory_gb:
        return {}
    return {
        "device_unfit": pk.device,
        "unfit_weights": f"{weights:,.0f}",
        "unfit_memory": f"{pk.memory_gb:,.0f}",
        "unfit_fewest": math.ceil(weights / pk.memory_gb),
    }


def untied_spans(r: pd.DataFrame) -> int:
    """How many runs' own server launch states no parallelism where another run's does (`spans_untied`, set
    by `parallelism_from_context` for a write-up's runs under several serving scripts, only some of which pass
    a `-tp`): the others' count is not theirs, so no one count (`devices`) and no one peak is every run's."""
    return int(r["spans_untied"].fillna(False).astype(bool).sum()) if "spans_untied" in r else 0


def compared_spans(r: pd.DataFrame) -> list[tuple[int, int]]:
    """(devices, line) of each server launch the runs' file lists together above them, spanning different counts
    (`spans_compared`, set by `parallelism_from_context` from `context.alternatives`): the servers a write-up
    compared, which one printed the results unsaid, so no one count is the runs'. Empty where none is."""
    if "spans_compared" not in r:
        return []
    return sorted({p for v in r["spans_compared"].dropna() for p in v}, key=lambda p: p[1])


def spans_said(pk, r: pd.DataFrame, instances: tuple[int, int] = (1, 1)) -> dict:
    """Why the device the input names gives the runs no peak (`spanning` returned None): the counts of
    it they may span, as evidence (`device_spans`, `device_spans_counts`) for `claims.rules.no_device_reason`,
    so that a page never says no device is named beside one the hardware table knows. Empty where one
    count is every run's."""
    if pk is None:
        return {}
    if launches := compared_spans(r):
        return {"device_compared": pk.device, "compared_spans": launches}
    fewest, most = span_readings(pk, r)
    counts = {most * instances[0], most * instances[1], fewest * instances[1]}
    counts |= {n * instances[1] for n in device_counts(r)}
    return {"device_spans": pk.device, "device_spans_counts": sorted(counts)} if len(counts) > 1 else {}


def span_readings(pk, r: pd.DataFrame) -> tuple[int, int]:
    """(fewest, most) devices one run may span (`fewest_devices`, `devices`). Where they differ (a DP written in
    words: inside the TP group, or replicas) and the file counts the device itself as one of the two (`TPU
    v6e-64`, `8x H100`: `pk.count` above 1), that one is both: the file's own count says which reading is the run's."""
    fewest, most = fewest_devices(r), devices(r)
    if fewest != most and pk is not None and pk.count > 1 and pk.count in (fewest, most):
        return pk.count, pk.count
    return fewest, most


def fewest_devices(r: pd.DataFrame) -> int:
    """The fewest devices one run may span: `devices`, but where SGLang's DP is written only in words
    (`TP8DP8` in a heading: `dp_attention=unstated`, `parallelism_from_context`), the DP ranks may run
    inside the TP group (DP attention) as well as be replicas, so TP x PP; a page then gives both counts."""
    if stated(r, "dp_attention") != "unstated":
        return devices(r)
    return devices(r.assign(metadata=r["metadata"].astype(str).str.replace(r"(?:^|;\s*)dp=[^;]*", "", regex=True)))


def model_size(
    model: str | None, params_b: float = 0.0, stated: tuple | None = None
) -> tuple[float | None, float | None, str]:
    """(total, active billions of parameters, source) of a model id: the `params_b` parameter, the
    model table (through `benchbook.hardware` when it exists), a size in the name, else the size the
    input itself states for it (`stated`: `stated_size`, source "input"); (None, None, "unknown")
    when nothing is known."""
    from benchbook import hardware

    if params_b > 0:
        return params_b, params_b, "parameter"
    if not model or not isinstance(model, str):
        return None, None, "unknown"
    size = hardware.model_size(model)
    if size is None or (size.active_b is None and stated):
        return (stated[0], stated[1], "input") if stated else (None, None, "unknown")
    return size.total_b, size.active_b, str(size.source)  # active_b None: an MoE whose active count is unknown


def tokenizers(paths, models) -> list[list]:
    """[tokenizer, line] of each tokenizer the input names (`--tokenizer`, a `tokenizer:` line) that is
    not one of the runs' `models` by name, where no model is sized by the table or its name: a served
    model's name such as Triton's `ensemble` says nothing of its weights, and the tokenizer, said beside
    it, is what the file names of the model family. The tokenizer does not size the model: it names no
    checkpoint."""
    from benchbook import ingest

    if any(model_size(m)[2] != "unknown" for m in models):
        return []  # a model the table or its name sizes: its name says what its weights are
    keys = {_model_key(m) for m in models}
    out: dict[str, int] = {}
    for path in paths:
        for f in ingest.context_of_lines(path).get("tokenizer"):
            if _model_key(f.value) and _model_key(f.value) not in keys:
                out.setdefault(str(f.value), f.line)
    return [[t, n] for t, n in out.items()]


def cap_said(paths) -> dict:
    """What the input says of a concurrency cap, for a page on which no run has one (the absence rule,
    `context.states`): `cap_status` "stated" (a cap the file states but ties to no run: `cap_value`,
    `cap_line`, `cap_text`), "unread" (a line that speaks of a cap, `cap_line` and `cap_text`, without a value
    the reader takes: `--max-concurrency $C`, a heading `concurrency 64`) or "absent", the only status on
    which a page may say no run has a cap. `cap_file` names the file where the input has several. A cap
    from a JSON document is a worker's, not the run's (`context.AROUND_ONLY`), as `context.fill` reads it."""
    return fact_said(paths, "concurrency", "cap")


def rate_said(paths) -> dict:
    """What the input says of a request rate, for runs that print none (`fact_said` with prefix `rate`):
    a page takes such a run's rate as the tool's default (unlimited) and says so, and where the file
    states a rate or speaks of one (`--request-rate $RATE`), it names that line beside the assumption."""
    return fact_said(paths, "rate", "rate")


def cores_said(paths) -> dict:
    """Where the input's device listing gives each device several cores (`neuron-ls`'s CORES column:
    AWS Neuron runs one tensor-, pipeline- or data-parallel rank per NeuronCore), those cores and their
    line: the ranks TP x PP x DP count are then cores, not devices. Empty otherwise."""
    said = fact_said(paths, "device_cores", "cores")
    if said.get("cores_status") != "stated" or int(said["cores_value"]) < 2:
        return {}
    return {"cores": int(said["cores_value"]), "cores_line": said["cores_line"]}


#: The option each serving client takes for the requests it sends (a page names it where it reads that count):
#: vLLM's and SGLang's bench_serving `--num-prompts`; AIPerf's and GenAI-Perf's `--request-count` (their
#: `--num-prompts` is the dataset's unique entries, reused until the benchmark ends).
PROMPTS_FLAG = {
    "vllm-bench-serve": "--num-prompts",
    "sglang-bench-serving": "--num-prompts",
    "aiperf": "--request-count",
    "genai-perf": "--request-count",
}


def prompts_flag(r: pd.DataFrame) -> str | None:
    """The one option (`PROMPTS_FLAG`) by which the runs' tools take the requests they send; None where the
    runs are of several tools or of one whose option is not listed."""
    flags = {PROMPTS_FLAG.get(t) for t in r["tool"].dropna().unique()} if "tool" in r and len(r) else {None}
    return flags.pop() if len(flags) == 1 else None


def fact_said(paths, name: str, prefix: str) -> dict:
    """The first statement of the fact `name` over the files (`context.states`), as evidence fields named
    `<prefix>_status`, `_value`, `_line`, `_text` (`_words`: the sign's own words, where it keeps them; and
    `_file` where there are several files): a value read
    (not a placeholder, not from a JSON document) is "stated", a line that speaks of it "unread", else "absent".
    A JSON document's lines are the tool's own record, which its parser read (`context.AROUND_ONLY`), so a
    sign on one (AIPerf's `"request_rate_mode": "concurrency_burst"`) is none here."""
    from benchbook import config, ingest
    from benchbook.ingest import context

    for path in paths:
        ctx = ingest.context_of(path)
        ctx = replace(ctx, signs=tuple(g for g in ctx.signs if not _JSON_LINE.match(g.text)))
        said = context.states(ctx, name)
        where = {f"{prefix}_file": config.relative(path)} if len(paths) > 1 else {}
        facts = [f for f in said.facts if not context.placeholder(f.value) and f.source != "json"]
        if facts:
            f = facts[0]
            return {
                f"{prefix}_status": "stated",
                f"{prefix}_value": f.value,
                f"{prefix}_line": f.line,
                f"{prefix}_text": _quoted(f.text),
                **where,
            }
        if said.status == "unread":
            return {
                f"{prefix}_status": "unread",
                f"{prefix}_line": said.line,
                f"{prefix}_text": _quoted(said.sign.text),
                **({f"{prefix}_words": said.sign.words} if said.sign.words else {}),
                **where,
            }
    return {f"{prefix}_status": "absent"}


#: A line of a JSON document: a quoted key and its value.
_JSON_LINE = re.compile(r'^\s*[{\[]?\s*"[^"]+"\s*:')


def _quoted(text: str) -> str:
    """A line as a page quotes it in a code span: spaces folded, cut at 80 characters, no backticks."""
    text = " ".join(text.replace("`", "'").split())
    return text if len(text) <= 80 else text[:79] + "…"


def untied_models(paths, models, r: pd.DataFrame | None = None) -> list[list]:
    """[model, line, how] of each model the input names where no run has a model (`models` empty): the
    file names its model but ties none to a run (two commands of two names, say; `how` "named"), or,
    where it names none otherwise, names it only in a path (`context`'s `path_model`: `how` "path") or
    only in words that fit no one model (a title's `Llama 70B`: `context`'s sign with its `words`, `how`
    "words"), so a page names them rather than say the output names no model. The serving chapter takes the
    one model named in a path as its run's (and sizes it by the model table or its name); of several, none;
    words that fit no one model size nothing. Where it names none of these, a line that mentions a model
    (`context.states`: "unread") is given (`how` "sign"): only a file with no such line is one whose output
    does not name its model. `r`: the runs (their `source` and `line`), where given: a model named only in
    the usage examples under a file's results (`context.examples_after`) is no run's, a sign."""
    from benchbook import config, ingest
    from benchbook.ingest import context
    from benchbook.ingest.vllm_serve import source_name

    if len(models):
        return []
    out: dict[str, list] = {}
    contexts = []
    for path in paths:
        lines = ingest._load_lines(config.resolve(path))
        ctx = ingest.context_of_lines(path)
        if r is not None and {"source", "line"} <= set(r.columns):
            ctx = context.examples_after(ctx, lines, r.loc[r["source"] == source_name(config.resolve(path)), "line"])
        contexts.append(ctx)
    for ctx in contexts:
        for f in ctx.get("model"):
            if not context.placeholder(f.value) and f.source != "json":  # as `context.fill` reads the column
                out.setdefault(str(f.value), [str(f.value), f.line, "named"])
    # a placeholder (`--model-path $MODEL_PATH`) names no model, so it hides neither a path nor a title's words
    left = {f.value for ctx in contexts for f in ctx.get("model") if context.placeholder(f.value)}
    if not any(f.value not in left for ctx in contexts for f in ctx.get("model")):  # named nowhere else
        for ctx in contexts:
            for f in ctx.get("path_model"):
                out.setdefault(str(f.value), [str(f.value), f.line, "path"])
            for g in ctx.signs:
                if g.name == "model" and g.words:
                    out.setdefault(g.words, [g.words, g.line, "words"])
    if not out:  # the absence rule (`context.states`): a line that mentions a model and gives no name is named,
        for ctx in contexts:  # and so is a placeholder's (`--model-path $MODEL_PATH`: a model, left unnamed)
            said = context.states(ctx, "model", left)
            held = [f for f in ctx.get("model") if f.value in left]
            sign = said.sign if said.status == "unread" else held[0] if held else None
            if sign is not None:
                text = " ".join(sign.text.split())
                out.setdefault(text, [text if len(text) <= 60 else text[:59] + "…", sign.line, "sign"])
                break
    return list(out.values())


def untied_model(untied) -> str | None:
    """The one model the `untied_models` name, where no run names one: a single name, or several names
    (`Llama 2 70B` in a heading, `llama2_70b` in a sentence) that the model table sizes as one model; None
    where they are several models, a sign, or words that fit no one model."""
    from benchbook import hardware

    named = [u for u in untied if u[2] in ("named", "path")]
    if len(named) != len(untied) or not named:
        return None
    if len(named) == 1:
        return named[0][0]
    sizes = {(s.total_b, str(s.source)) if s else None for s in (hardware.model_size(u[0]) for u in named)}
    return named[0][0] if len(sizes) == 1 and None not in sizes else None


def unnamed_said(paths, r: pd.DataFrame) -> list[list]:
    """[model, line, how] of what the input says of a model for its runs that name none beside runs that
    name theirs, by the one absence rule (`context.states` with the named runs' models set aside): a
    model the file names but ties to no run (`how` "named"), else the models a heading or a sentence
    names in words, beside the runs' own ("words": `## Gemma 3 27b` above a block), else a line that speaks
    of a model without a name this reader takes ("sign"); [] only where none is anywhere, the one case a
    page may say the output names no model for those runs."""
    from benchbook import ingest
    from benchbook.ingest import context

    if "model" not in r or not (r["model"].isna().any() and r["model"].notna().any()):
        return []
    keys = {_model_key(m) for m in r["model"].dropna()}
    unread = None
    for path in paths:
        ctx = ingest.context_of(path)
        # the named runs' models, and a placeholder (`--model <model>`), which names none, state nothing of these runs
        beside = {f.value for f in ctx.get("model") if _model_key(f.value) in keys or context.placeholder(f.value)}
        said = context.states(ctx, "model", beside)
        named = [f for f in said.facts if not context.placeholder(f.value) and f.source != "json"]
        if named:
            return [[str(f.value), f.line, "named"] for f in named[:3]]
        if said.status == "unread" and unread is None:
            worded = [
                [g.words, g.line, "words"]
                for g in ctx.signs
                if g.name == "model" and g.words and not any(_model_key(g.words) in k for k in keys)
            ]
            unread = sorted(worded, key=lambda w: w[1])[:3] or [[_quoted(said.sign.text), said.line, "sign"]]
    return unread or []


def named_at(model: str | None, paths) -> tuple[str, int] | None:
    """(source, line) where the input names `model` only in a heading or a line of prose (`context.WORDED`:
    an issue's title `# Add llama 3.3 70b GH200 model`), so a page that sizes the run says where the name
    comes from; None for a model a command, a labelled line or the tool's output names."""
    from benchbook import ingest
    from benchbook.ingest import context

    if not model:
        return None
    for path in paths:
        facts = [f for f in ingest.context_of_lines(path).get("model") if f.value == model]
        if facts and all(f.source in context.WORDED for f in facts):
            return facts[0].source, facts[0].line
    return None


#: The weights' format a checkpoint's name ends with (`tencent/HY3-FP8`, `...-GPTQ-Int4`, `...-AWQ`): a quantized
#: release of the model the prose names without it (`HY3 Preview ... 294B parameters`), of the same size.
_RELEASE_SUFFIX = re.compile(
    r"(?i)(?:[-_.](?:fp8|fp4|nvfp4|mxfp4|mxfp8|int4|int8|awq|gptq|bf16|fp16|w4a16|w8a8|w4a8|w4afp8|dynamic|gguf))+$"
)


def stated_size(model: str | None, paths) -> tuple[float, float | None, int] | None:
    """(total, active billions, line) of `model` as the input's own prose states it (`ingest.context`:
    `295B parameters, 21B active`, 参数规模为 295B，其中激活参数为 21B), on a line that names the model
    (by its id's last path part, or that part without the weights' format it ends with: `HY3-FP8` is named by
    `HY3`) or under the nearest heading that does (`# Step-3.5-Flash Guide`, then
    `only 11B active parameters out of 196B`), the first such line; the active count is the total for a model
    not named as a mixture of experts, and None for one that is, where the line states none. None
    when no line of the input sizes the model."""
    from benchbook import hardware, ingest

    if not model or not isinstance(model, str):
        return None
    keys = {k for k in (_model_key(model), _model_key(_RELEASE_SUFFIX.sub("", model.rstrip("/")))) if len(k) >= 3}
    for path in paths:
        ctx = ingest.context_of_lines(path)
        for f in ctx.get("params"):
            above = [h for h in ctx.headings if h.line <= f.line]
            named = f.text + (" " + max(above, key=lambda h: h.line).text if above else "")
            if any(k in re.sub(r"[^a-z0-9]", "", named.lower()) for k in keys):
                active = [a.value for a in ctx.get("active_params") if a.line == f.line]
                dense = None if hardware.is_moe(model) else f.value
                return f.value, active[0] if active else dense, f.line
    return None


def titled_size(model: str | None, paths) -> tuple[float, float, str, str, int] | None:
    """(total, active billions, the table's source, the names as written, line) for a model that neither
    the model table nor its name sizes (a local weights folder, `/dsv3_fp8_weight`) where the headings above
    the line that names it name models of the table (`context.table_rows`: `# ... on DeepSeek-v3/R1`) that
    all have one size: the run's weights are of that size, whichever of them it is. None where no heading
    above names a table model, or where they name models of two sizes."""
    from benchbook import hardware, ingest
    from benchbook.ingest import context

    if not model or not isinstance(model, str) or hardware.model_size(model) is not None:
        return None
    for path in paths:
        ctx = ingest.context_of_lines(path)
        last = model.rstrip("/").rsplit("/", 1)[-1]  # the table's column holds a path by its last part
        lines = [f.line for f in ctx.get("model") if str(f.value).rstrip("/").rsplit("/", 1)[-1] == last]
        if not lines:
            continue
        named = [(h, context.table_rows(h.text, heading=True)) for h in ctx.headings if h.line <= min(lines)]
        named = [(h, rows) for h, rows in named if rows]
        found = [hardware.model_size(row) for _, rows in named for row in rows.values()]
        sizes = {(s.total_b, s.active_b, str(s.source)) for s in found if s is not None}
        if named and len({s[:2] for s in sizes}) == 1:
            total, active, source = sorted(sizes)[0]
            words = [str(w) for h, rows in named for w in context.written(rows, h.text)]
            return total, active, source, " or ".join(dict.fromkeys(words)), named[0][0].line
    return None


def served_as(model: str | None, paths) -> tuple[str, int] | None:
    """(checkpoint as written, line) where a run's model is the name a launch command in the input serves
    exactly one checkpoint under (`vllm serve /models/Qwen/Qwen3-8B --served-model-name qwen3`, `--model=M ...
    --served-model-name auto`: vLLM's and SGLang's `--served-model-name` is the name clients send for that
    command's model, `context.served_names`), and the table or the checkpoint's name sizes it: the runs are of
    that checkpoint. None where no command ties the name, where the commands that do load other checkpoints,
    or where the checkpoint is sized by nothing."""
    from benchbook import hardware, ingest
    from benchbook.ingest import context

    if not model or not isinstance(model, str) or hardware.model_size(model) is not None:
        return None
    found: dict[str, tuple[str, int]] = {}
    for path in paths:
        ctx = ingest.context_of_lines(path)
        for f in ctx.get("served_name"):
            if _model_key(f.value) != _model_key(model):
                continue
            loaded = [m for m in ctx.same_command(f, "model") if not context.placeholder(m.value)]
            for m in loaded:
                if _model_key(m.value) != _model_key(model):
                    found.setdefault(_model_key(m.value), (str(m.value), m.line))
    if len(found) != 1:
        return None
    ((checkpoint, line),) = found.values()
    return (checkpoint, line) if hardware.model_size(checkpoint) is not None else None


def served_checkpoint(model: str | None, paths) -> tuple[str, int] | None:
    """(checkpoint as written, line) where a run's model is a served name sizing nothing (neither the
    model table nor its name: Triton's `ensemble`, the name a model repository serves) and the input
    names exactly one other model as a checkpoint (a model its commands or settings load, `context`'s
    `model`; a tokenizer names none) that the table or its name sizes. A page names it rather than say
    the input gives no size, and does not size the runs by it: a served name may stand for more than one
    model (a speculative draft beside its target). None where it names none, or several."""
    from benchbook import hardware, ingest
    from benchbook.ingest import context

    if not model or not isinstance(model, str) or hardware.model_size(model) is not None:
        return None
    found: dict[str, tuple[str, int]] = {}
    for path in paths:
        for f in ingest.context_of_lines(path).get("model"):
            if context.placeholder(f.value) or f.source == "json" or _model_key(f.value) == _model_key(model):
                continue
            if hardware.model_size(str(f.value)) is not None:
                found.setdefault(_model_key(f.value), (str(f.value), f.line))
    return next(iter(found.values())) if len(found) == 1 else None


#: The `decode_roofline` columns averaged over the repeats of a load.
ROOFLINE_MEANS = (
    "in_flight",
    "output_throughput",
    "total_token_throughput",
    "tokens_per_step",
    "steps_per_s",
    "achieved_gb_s",
    "achieved_tflops",
    "intensity",
    "bandwidth_fraction",
    "compute_fraction",
)


def tokens_per_step(r: pd.DataFrame) -> tuple[pd.Series, pd.Series]:
    """(speculative method, tokens each request gains per step) per run: 1 without speculative
    decoding; the acceptance length the output prints (vLLM's `Acceptance length`) with it; NaN
    (unknown) where the output states a speculative method (trtllm-bench's `decoding_type: MTP`)
    but no acceptance length."""
    meta = r["metadata"].astype(object).fillna("").astype(str) if "metadata" in r else pd.Series("", index=r.index)
    method = meta.str.extract(r"(?:^|;\s*)speculative=([^;]+)")[0]
    acc = (
        r["spec_decode_acceptance_length"] if "spec_decode_acceptance_length" in r else pd.Series(np.nan, index=r.index)
    )
    acc = acc.astype(float).where(acc.astype(float) >= 1)
    method = method.where(method.notna() | ~(acc > 1), "speculative decoding")  # 1 token per step: none
    per_step = acc.where(acc.notna(), np.where(method.notna(), np.nan, 1.0))
    return method, per_step.astype(float)


def prefix_reused(r: pd.DataFrame) -> pd.Series:
    """Per run, whether its output says its prompts largely repeat earlier prompts' prefixes (a
    multi-turn trace replay: InferenceX's agentic runs, `prefix_reuse=` in `metadata`): its prompt
    tokens were mostly served from the prefix cache, so 2 x active parameters per prompt token is
    not the compute it did, and its compute is left unknown."""
    meta = r["metadata"].astype(object).fillna("").astype(str) if "metadata" in r else pd.Series("", index=r.index)
    return meta.str.contains(r"(?:^|;\s*)prefix_reuse=", regex=True)


def decode_roofline(
    lit: pd.DataFrame,
    active_b: float | None,
    bytes_per_weight: float,
    peaks,
    weights_precision: str | None = None,
    copies: int = 1,
) -> pd.DataFrame:
    """Per run (rows of `littles_law`): a step at the measured concurrency. Each of the
    `in_flight` requests (Little's law) gains one token per step, so steps/s = output throughput /
    in_flight; every step reads the active weights once (a lower bound on bytes: the KV cache is
    left out) and the server does 2 x active parameters FLOPs per token it processes (prompt and
    output tokens: total token throughput). Fractions are of `peaks` (`analysis.roofline.Peaks`) at
    the weights' precision (`weights_precision`, else read from the bytes: bf16 for 2, fp8 for 1, fp4 for
    0.5), an fp8, fp4 or int8 checkpoint's peak at its precision and any other's (bf16, weight-only int4,
    a mix of MXFP4 experts and bf16) at bf16's; with NaN bytes (the precision not stated) the compute
    is kept and every figure that needs the bytes or the peak is NaN; with no `peaks` (no device
    named) the achieved figures and intensities are kept, the shares NaN. `copies`: the replicas the
    requests are spread over (`replicas`); each steps its own share at the same steps/s (L / copies in
    flight, output / copies tok/s) and reads its own copy of the weights, so the weights move `copies`
    times over."""
    d = lit.copy()
    d["speculative"], d["tokens_per_step"] = tokens_per_step(d)
    if active_b is None:
        for c in (
            "steps_per_s",
            "achieved_gb_s",
            "achieved_tflops",
            "intensity",
            "bandwidth_fraction",
            "compute_fraction",
            "ridge",
        ):
            d[c] = np.nan
        return d
    over = d["over_requests"].fillna(False).astype(bool) if "over_requests" in d else False
    conc = d["in_flight"].where((d["in_flight"] > 0) & ~over)  # a count the run's own count contradicts: unused
    d["steps_per_s"] = d["output_throughput"] / conc / d["tokens_per_step"]
    weights = active_b * 1e9 * bytes_per_weight
    d["achieved_gb_s"] = weights * d["steps_per_s"] * copies / 1e9
    d["achieved_tflops"] = (2 * active_b * 1e9 * d["total_token_throughput"] / 1e12).where(~prefix_reused(d))
    d["intensity"] = d["achieved_tflops"] * 1e12 / (d["achieved_gb_s"] * 1e9)
    # a precision not stated (NaN bytes): no peak to set the compute against, no weight traffic
    if bytes_per_weight != bytes_per_weight:
        prec = None
    elif weights_precision:
        prec = {"fp8": "fp8", "fp4": "fp4", "int8": "int8"}.get(weights_precision, "bf16")
    else:
        # the precision whose width the bytes are, read from the roofline's one table
        prec = {roofline.bytes_per_weight(p): p for p in ("bf16", "fp8", "fp4")}.get(bytes_per_weight, "bf16")
    # a device with no unit at the weights' width (an A100 and fp8, an H100 and fp4) runs them weight-only, widened
    # to 16 bits for the matmul (vLLM's Marlin kernels on such devices): the 16-bit peak is theirs, and so named
    if prec in ("fp8", "fp4", "int8") and peaks is not None and peaks.tflops and peaks.peak_tflops(prec) is None:
        prec = "bf16"
    # a device with no bf16 unit (Volta, gfx906) computes 16-bit weights at its fp16 rate: that is its peak
    if prec == "bf16" and peaks is not None and peaks.tflops.get("bf16") is None and peaks.tflops.get("fp16"):
        prec = "fp16"
    # no device (`peaks` None): the achieved figures and the intensity stand, every share of a peak is NaN
    peak = peaks.peak_tflops(prec) if prec and peaks is not None else None
    bw = peaks.total_bandwidth_gb_s if peaks is not None else None
    d["peak_tflops"] = peak if peak else np.nan
    d["peak_gb_s"] = bw if bw else np.nan
    d["precision"] = prec
    d["ridge"] = roofline.ridge(d["peak_tflops"], d["peak_gb_s"])
    d["bandwidth_fraction"] = d["achieved_gb_s"] / d["peak_gb_s"]
    d["compute_fraction"] = d["achieved_tflops"] / d["peak_tflops"]
    return d


def load(paths) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Runs (one row each) and per-request rows (vLLM's --save-detailed arrays, AIPerf's
    profile_export.jsonl; empty without them) of every file; `latency_set_aside` names, per run, the
    latencies its file's screen set a value of aside (`screened_latencies`)."""
    from benchbook import ingest
    from benchbook.ingest import aiperf, vllm_serve

    frames, detailed, aside, cut = [], [], {}, {}
    for path in paths:
        found = [t for t in ingest.detect(ingest._load_text(path)) if t in ingest.SERVING_TOOLS]
        for tool in found:
            df = ingest.read(path, tool=tool)
            for source in df["source"].unique():
                aside.setdefault(source, set()).update(screened_latencies(df.attrs.get("rejected", [])))
            cut.update(copy_ends(df, ingest._load_lines(path)))
            df.attrs = {}
            frames.append(df)
        if "vllm-bench-serve" in found:
            detailed.append(vllm_serve.requests(path))
        if "aiperf" in found:  # a profile_export.jsonl; empty for the summary exports
            detailed.append(aiperf.requests(path))
    r = unstated_loads(parallelism_from_context(runs(pd.concat(frames, ignore_index=True)), paths), paths)
    if "source" in r:
        r["latency_set_aside"] = [",".join(m for m in LATENCIES if m in aside.get(s_, ())) for s_ in r["source"]]
        r["copy_ends"] = [cut.get((s_, run), np.nan) for s_, run in zip(r["source"], r["run"], strict=True)]
    req = pd.concat(detailed, ignore_index=True) if detailed else pd.DataFrame(columns=vllm_serve.REQUEST_COLUMNS)
    return settings_labels(r, req)


def copy_ends(df: pd.DataFrame, lines=None) -> dict[tuple[str, str], int]:
    """(source, run) -> the line where the file's copy ends inside that run's block or table (the
    parser set that last line aside as possibly cut: `ingest.core.cut_item`): what the tool printed
    after it is not in the file, so that run's missing numbers are unknown, never unprinted. Where the
    file's `lines` are given, a result banner between the run's last number and the cut line opens another
    block, cut before any number of it was read (a PR's `after:` block cut on its first row): that cut is
    no run's, and the run above it is whole."""
    from benchbook.ingest import core, vllm_serve

    out = {}
    for x in df.attrs.get("rejected", []):
        if not str(x.get("reason", "")).startswith(core.COPY_ENDS):
            continue
        above = df[(df["source"] == x["source"]) & (df["line"] < x["line"])]
        if not len(above):
            continue
        last = int(above["line"].max())
        if lines is not None and any(vllm_serve.HEADER_RE.match(lines[j]) for j in range(last, int(x["line"]) - 1)):
            continue  # another block's banner stands between: the cut is in that block, no run of it read
        # the run whose numbers stand nearest above the cut line holds it
        out[(str(x["source"]), str(above.loc[above["line"].idxmax(), "run"]))] = int(x["line"])
    return out


def cut_of(rows: pd.DataFrame, metric: str | None = None) -> tuple[str, int] | None:
    """(run, line) of the first of `rows` whose copy ends inside its block (`copy_ends`), or None:
    a number such a run lacks may stand after that line, so a page says where the copy ends instead
    of saying the output prints no such number. For `metric` "tpot", a run whose copy still holds an
    ITL statistic is none of them: both tools whose blocks are pasted cut print TPOT before ITL (vLLM's
    serve and SGLang's bench_serving), so a copy that reaches ITL lost no TPOT; that block prints none."""
    if "copy_ends" not in rows or not rows["copy_ends"].notna().any():
        return None
    cut = rows[rows["copy_ends"].notna()]
    if metric == "tpot":
        after = [c for c in cut.columns if str(c).startswith("itl_")]
        cut = cut[~cut[after].notna().any(axis=1)] if after else cut
    if not len(cut):
        return None
    row = cut.iloc[0]
    return str(row["run"]), int(row["copy_ends"])


def screened_latencies(rejected: list[dict]) -> list[str]:
    """The latencies (LATENCIES) a file's screen set a value of aside (conflicting rows, a value out of
    physical range: `ingest.core.screen`, whose report names the metric first) or a console cut short
    (GenAI-Perf's `…`): an empty cell of theirs may be one the output printed."""
    from benchbook.ingest import core, genai_perf

    heads = (core.CONFLICT, core.OUT_OF_RANGE, core.DUPLICATE)
    found = {str(x["text"]).split(" ", 1)[0] for x in rejected if str(x.get("reason", "")).startswith(heads)}
    found |= {genai_perf.cut_metric(x) for x in rejected}  # a cell the console width cut: printed, not read
    return [m for m in LATENCIES if m in found]


def parallelism_from_context(r: pd.DataFrame, paths) -> pd.DataFrame:
    """`r` with the TP, PP and DP of a file's runs taken from the rest of the file (`ingest.context`:
    a `vllm serve M --tensor-parallel-size 2` line, a `TP: 2` bullet, a heading) where no run of that
    file states them in its `metadata` (the parser's own fields rank first) and the file states one
    value, in no command that launches a model other than its runs' and in no caption of a block below
    every run (`context.labels_another_block`: the heading of a cut block after them); of several server
    launches, only the one that ran the results (`context.launched`) states them, and none of launches listed
    together that span different device counts (`context.alternatives`). SGLang's
    --enable-dp-attention, stated anywhere in the file, is kept beside its DP (`devices`)."""
    from benchbook import config, ingest
    from benchbook.ingest import context
    from benchbook.ingest.vllm_serve import source_name

    if r.empty or "source" not in r:
        return r
    r = r.copy()
    meta = (
        r["metadata"].astype("string").fillna("") if "metadata" in r else pd.Series("", index=r.index, dtype="string")
    )
    untied = pd.Series(False, index=r.index)
    compared = pd.Series(pd.NA, index=r.index, dtype=object)
    for path in paths:
        mine = r["source"] == source_name(path)
        if not mine.any() or meta[mine].str.contains(r"(?:^|;\s*)(?:tp|pp|dp)=", regex=True).any():
            continue
        lines = ingest._load_lines(config.resolve(path))
        # a server launch no result follows (an alternative script, a variant after the results) is not theirs
        results = r.loc[mine, "line"] if "line" in r else []
        whole = ingest.context_of_lines(path)
        launch = context.launched(whole, lines, results)  # of several launches, the one that ran the results
        ctx = context.ran(whole, lines, results)
        models = {_model_key(m) for m in r.loc[mine, "model"].dropna()} if "model" in r else set()
        each = context.launched_each(ctx, lines, results) if launch is None else None
        if each is not None:  # each result under its own launch: its sizes are that launch's, none another's
            meta[mine] = _own_launch_sizes(r[mine], meta[mine], ctx, each, lines)
            sized = meta[mine].str.contains(r"(?:^|;\s*)(?:tp|pp|dp)=", regex=True)
            untied[mine] = ~sized & sized.any()  # its own launch states none where another's does
            continue
        add, unsaid = [], context.alternatives(whole, lines, results)  # servers compared, which ran unsaid
        for i in r.index[mine] if unsaid else []:
            compared.at[i] = tuple((context.launch_devices(whole, c), c) for c in sorted(unsaid))
        for key in PARALLEL_SIZES:
            # the caption of the block every result is in (`TP4 on 4×GB300 ... MTP=2:` over it) states that run's
            captioned = [f for f in ctx.get(key) if _captions(f, results)]
            facts = [
                f
                for f in ctx.get(key)
                if not _launches_another(ctx, f, models)
                and not context.labels_another_block(f, results)
                and f.command not in unsaid
            ]
            facts = [f for f in facts if f.command == launch] if launch is not None else facts
            facts = captioned or facts
            values = {f.value for f in facts}
            # one value, 1 included: a launch's `--tensor-parallel-size 1` says the run spans one device of a host
            # whose count (`tested on 8 * MI300x`) is only an upper bound (`spanning`)
            if len(values) == 1 and facts[0].value >= 1:
                add.append(f"{key}={facts[0].value}")
        if add and "dp=" in " ".join(add) and _dp_attention(ctx):
            add.append("dp_attention=yes")
        elif "dp=" in " ".join(add) and _sglang(r[mine]) and all(f.command is None for f in ctx.get("dp")):
            add.append("dp_attention=unstated")  # `TP8DP8` in words: DP attention or replicas, the file says neither
        if add:
            meta[mine] = meta[mine].where(meta[mine] == "", meta[mine] + "; ") + "; ".join(add)
    return r.assign(metadata=meta.replace("", pd.NA).astype(object), spans_untied=untied, spans_compared=compared)


def _captions(fact, results) -> bool:
    """Whether `fact` is read from the caption of the block that holds every result line (`results`): the
    sentence right above a pasted output labels it up to `until` (`ingest.context`)."""
    lines = [int(x) for x in results if x == x]
    return bool(lines) and fact.until is not None and all(fact.line < x <= fact.until for x in lines)


#: SGLang's DP attention as a write-up names it beside the DP size it gives (`TP=8 PP=1 + DPA dp_size=8`, `DP
#: attention 8`, `DP-attention`): the DP ranks split attention inside the TP group, as `--enable-dp-attention` does.
_DP_ATTENTION_WORDS = re.compile(r"\bDPA\b|\bDP[- ]attention\b", re.I)


def _dp_attention(ctx) -> bool:
    """Whether the input runs SGLang's DP attention: its launch flag anywhere, or its name on the line that
    gives the DP size."""
    return any("enable-dp-attention" in f.text for f in ctx.facts) or any(
        _DP_ATTENTION_WORDS.search(f.text) for f in ctx.get("dp")
    )


#: A launch's speculative decoding, by the flag each engine takes: SGLang's `--speculative-algorithm EAGLE3`
#: (`--speculative-algo`), vLLM's `--speculative-config '{"method": "eagle3", ...}'` (`--speculative_config`) and
#: its older `--speculative-model "[ngram]"`; the method as the flag writes it.
SPEC_FLAG_RE = re.compile(
    r"--speculative[-_](?:algorithm|algo)[ =]+[\"']?(?P<algo>[\w-]+)"
    r"|--speculative[-_]config[ =]+.*?[\"']method[\"']\s*:\s*[\"'](?P<method>[\w-]+)"
    r"|--speculative[-_]model[ =]+[\"']?\[?(?P<model>[\w./-]+)"
)


def _own_launch_sizes(r: pd.DataFrame, meta: pd.Series, ctx, each: dict[int, int], lines) -> pd.Series:
    """`meta` of runs `r` with the TP, PP and DP each run's own server launch gives (`each`: result line to
    launch line, `context.launched_each`): a write-up's runs under several serving scripts take each their
    own script's sizes; a size a run's script leaves out is not stated for that run (another script's is
    not its). A script that passes a speculative flag (`SPEC_FLAG_RE`) runs its results with speculative
    decoding, that method (`tokens_per_step` reads it)."""
    from benchbook.ingest.text import continued

    out = meta.copy()
    for i in r.index:
        line = r.at[i, "line"]
        launch = each.get(int(line)) if pd.notna(line) else None
        add = []
        for key in PARALLEL_SIZES:
            values = {f.value for f in ctx.get(key) if f.command == launch}
            if launch is not None and len(values) == 1 and (v := values.pop()) >= 1:
                add.append(f"{key}={v}")
        if (
            add
            and "dp=" in " ".join(add)
            and any("enable-dp-attention" in f.text for f in ctx.facts if f.command == launch)
        ):
            add.append("dp_attention=yes")
        spec = SPEC_FLAG_RE.search(continued(lines, launch - 1, len(lines))[0]) if launch is not None else None
        if spec and "speculative=" not in str(out[i]):
            add.append(f"speculative={spec['algo'] or spec['method'] or spec['model']}")
        if add:
            out[i] = f"{out[i]}; {'; '.join(add)}" if out[i] else "; ".join(add)
    return out


def _sglang(r: pd.DataFrame) -> bool:
    """Whether runs are SGLang's (its bench_serving, or InferenceX's sglang framework): its DP beside a TP is
    DP attention inside the TP group where `--enable-dp-attention` is given, replicas of it where not."""
    return "tool" in r and r["tool"].astype(str).str.startswith("sglang").any()


def _model_key(name) -> str:
    """A model id compared by its last path part, case and separators aside."""
    return re.sub(r"[^a-z0-9]", "", str(name).rstrip("/").split("/")[-1].lower())


def _launches_another(ctx, fact, models: set[str]) -> bool:
    """Whether `fact` comes from a command that launches a model other than the runs' `models`."""
    launched = {_model_key(f.value) for f in ctx.same_command(fact, "model") if not str(f.value).startswith(("$", "<"))}
    return bool(models and launched and not launched & models)


#: Run names a parser gives when the output names none: a position in the file, not a setting.
PLACEHOLDER = re.compile(r"(?i)^(?:json(?: line)? \d+|block \d+|report \d+|results?|summary|detail log)$")


def settings_label(row: pd.Series, varying=()) -> str:
    """A run's name from its settings: its model and dataset where they vary across the page's runs
    (`varying`; "workload": its mean input and output tokens where runs of several workloads mix), MLPerf's scenario, the concurrency cap and the request rate (`c=8, rate=inf`); empty
    when the output records none."""
    parts = [str(row[c]) for c in ("model", "dataset") if c in varying and isinstance(row.get(c), str)]
    if "workload" in varying and row.get("workload"):  # runs of several workloads (`workloads`): its own
        parts.append(str(row["workload"]).removesuffix(" tokens a request"))
    if isinstance(row.get("scenario"), str):  # MLPerf: Server or Offline
        parts.append(row["scenario"])
    mc, rr = row.get("max_concurrency"), row.get("request_rate")
    if mc is not None and not pd.isna(mc):
        parts.append(f"c={float(mc):g}")
    # MLPerf Offline sends every sample at once: its target_qps sizes the test and is no rate
    if rr is not None and not pd.isna(rr) and not row.get("rate_assumed", False) and row.get("scenario") != "Offline":
        parts.append(f"rate={float(rr):g}")
    return ", ".join(parts)


def settings_labels(r: pd.DataFrame, req: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Runs the output left unnamed (`PLACEHOLDER`: "json 1", "block 2", "Results", or the tool's own
    name) renamed from their settings (`settings_label`), in the run table and its per-request rows
    alike; two runs of one file with the same settings keep apart as "run 1", "run 2"; a run with no
    setting recorded is named by its file (one named after its tool keeps that name). Named runs keep
    their names."""
    if r.empty or "run" not in r:
        return r, req
    varying = [c for c in ("model", "dataset") if c in r and r[c].dropna().nunique() > 1]
    work = workloads(r)
    if work[work != ""].nunique() > 1:
        varying = [*varying, "workload"]
    plain = r["run"].astype(str).str.fullmatch(PLACEHOLDER)
    # a run named after the tool that wrote it ("aiperf") is renamed where its settings name it better
    tool_named = r["run"].astype(str).eq(r["tool"].astype(str)) if "tool" in r else pd.Series(False, index=r.index)
    new = {}
    for i in r.index[plain | tool_named]:
        row = r.loc[i].copy()
        row["workload"] = work[i]
        label = settings_label(row, varying)
        if label or plain[i]:
            new[i] = label or str(row.get("source") or "the run")
    if not new:
        return r, req
    names = pd.Series(new, dtype=object)
    src = r.loc[names.index, "source"].astype(str) if "source" in r else pd.Series("", index=names.index)
    taken = set(r.loc[~r.index.isin(names.index), "run"].astype(str))
    clash = names.groupby([src, names]).transform("size").gt(1) | names.isin(taken)
    nth = names.groupby([src, names]).cumcount() + 1
    names = names.where(~clash, names + ", run " + nth.astype(str))
    r = r.copy()
    renamed = {(r.at[i, "source"] if "source" in r else None, r.at[i, "run"]): names[i] for i in names.index}
    r.loc[names.index, "run"] = names
    if len(req) and {"source", "run"} <= set(req.columns):
        req = req.copy()
        req["run"] = [renamed.get((s_, r_), r_) for s_, r_ in zip(req["source"], req["run"], strict=True)]
    return r, req


def choose_sweep(r: pd.DataFrame, wanted: str) -> str:
    """The sweep variable: the first that spans a curve (two finite values at least: `wanted`, then
    the other), else the first that varies at all (a missing value counting as one), else the one
    that keeps fewer runs `apart` from the curve (`wanted` on a tie). One capped run beside uncapped
    ones (GuideLLM's synchronous run beside its constant rates) is no curve of caps. `wanted` "auto" (the
    chapter's default: the page's parameters then say the file chose, not a setting it does not vary) asks
    for none: the caps come first, as the tie-breaker."""
    wanted = "max_concurrency" if wanted == "auto" else wanted

    def spans(c):
        v = r[c].astype(float)
        return v[np.isfinite(v)].nunique() > 1

    def varies(c):
        return r[c].fillna(-1).nunique() > 1

    other = "request_rate" if wanted == "max_concurrency" else "max_concurrency"
    for test in (spans, varies):
        for c in (wanted, other):
            if test(c):
                return c
    return other if apart(r, other).sum() < apart(r, wanted).sum() else wanted


def spanning(pk, r: pd.DataFrame, instances: tuple[int, int] = (1, 1)):
    """`pk` (an `analysis.roofline.Peaks`) counted over the devices one run spans: TP x PP x DP
    (`devices`) times the instances a disaggregated run spans (`instances`, see `instances`): a run
    at TP 4 moves its weights through four devices' bandwidth, so one device's peak would put it
    at four times its real share. A host's device count (`4x GB200` on a hardware line) is an upper
    bound, never the run's: it stands only where the run states no parallelism of its own. None
    where the runs span different counts the input ties to no run (`instances` a range), or that their
    own parallelism states (`device_counts`): no one peak is theirs."""
    import dataclasses

    fewest, most = span_readings(pk, r)
    if pk is None or instances[0] != instances[1] or fewest != most or len(device_counts(r)) > 1:
        return None
    if untied_spans(r) or compared_spans(r):  # no one count is every run's, or which server ran them is unsaid
        return None
    n = most * instances[1]
    if n == pk.count or (pk.count > 1 and n == 1 and not stated(r, "tp") and instances[1] == 1):
        return pk
    return dataclasses.replace(pk, count=n)


def device_per_run(r: pd.DataFrame, paths, inst: tuple[int, int] = (1, 1)) -> list | None:
    """Per run of `r`, (peaks, said, line) of the device the heading above its block names (on that
    line), counted over
    the devices it spans (`spanning`), where its file's headings name several devices
    (`roofline.headed_at`: `### FP8 Benchmark on 16xH800`, later `### ... on 16xH200`); `said` is
    `roofline.said` of a run that gets no device. None where no file's headings name several: every
    run then takes the file's device."""
    from benchbook import config
    from benchbook.ingest.vllm_serve import source_name

    if r.empty or "line" not in r or "source" not in r:
        return None
    found: dict = {}
    for path in paths:
        mine = r.index[r["source"] == source_name(path)]
        at = roofline.headed_at(config.resolve(path).read_text(encoding="utf-8", errors="replace"), r.loc[mine, "line"])
        found.update(zip(mine, at or [], strict=False))
    if not found:
        return None
    out = []
    for i in r.index:
        n = found.get(i)
        pk = roofline.of_named(n) if n is not None else None
        mates = [j for j in r.index if found.get(j) == n] if n is not None else [i]
        pk = spanning(pk, r.loc[mates], inst)
        said = roofline.said(n) if n is not None and pk is None else {}
        said.pop("device_sign_line", None)
        said.pop("device_sign_words", None)
        out.append((pk, said, (n.fact or n.unlisted).line if n.fact or n.unlisted else None) if n else None)
    return out


def devices_said(r: pd.DataFrame, own: list) -> list[dict]:
    """The devices the runs of `r` were measured against, one entry per device and the heading line
    that names it (`own`: per run, (peaks, said, line) as `device_per_run` gives them): its name as
    the table spells it (with the count it spans and its bandwidth) or as the file writes one the table
    lacks, and the runs under it (label and first line)."""
    out: dict = {}
    for (_, row), (pk, said, line) in zip(r.iterrows(), own, strict=True):
        name = (
            pk.device
            if pk is not None
            else said.get("device_unlisted") or said.get("device_family") or said.get("device_several")
        )
        e = out.setdefault(
            (name, line),
            {
                "device": name,
                "line": line,
                "listed": pk is not None,
                "count": pk.count if pk is not None else None,
                "bandwidth": pk.total_bandwidth_gb_s if pk is not None else None,
                "runs": [],
            },
        )
        e["runs"].append({"run": str(row["run"]), "line": int(row["line"]) if pd.notna(row.get("line")) else None})
    return list(out.values())


def instances(paths) -> tuple[int, int]:
    """(fewest, most) serving instances one run spans: x + y where the input names a disaggregated
    `xPyD` layout (x prefill and y decode instances, each with its own TP x PP x DP devices: vLLM's
    and SGLang's disaggregated-prefill write-ups, Dynamo's), or N replicas behind one load balancer
    (`8 instances of vLLM`: every request goes to one of them), the most such a line names; the fewest
    is 1 where the input also names a configuration in one instance beside it (a "collocated" or
    "aggregated" baseline), since it ties neither to a run. (1, 1) where no layout is named."""
    from benchbook import ingest

    most, one = 1, False
    for path in paths:
        ctx = ingest.context_of_lines(path)
        most = max([most, *(f.value for f in (*ctx.get("instances"), *ctx.get("replicas")))])
        one = one or bool(ctx.get("layout"))
    return (1 if one else most, most)


def replicated(paths) -> bool:
    """Whether the instances a run spans (`instances`) are replicas of one server behind a load balancer
    (`8 instances of vLLM`, `4 vLLM pods`), not a disaggregated layout's prefill and decode instances: the
    input names replicas and no prefill/decode layout."""
    from benchbook import ingest

    ctxs = [ingest.context_of_lines(path) for path in paths]
    return any(c.get("replicas") for c in ctxs) and not any(c.get("instances") for c in ctxs)


def replicas(paths) -> int:
    """The replicas of one server a run's requests are spread over (`8 instances of vLLM` behind a load
    balancer), the most a line names; 1 where none is named. Each replica holds the whole model and steps
    its own share of the requests, so every one of them reads the weights at every step of its own."""
    from benchbook import ingest

    found = [f.value for path in paths for f in ingest.context_of_lines(path).get("replicas")]
    return max([1, *found])


def cpu_offload(paths, models=()) -> tuple[float, int] | None:
    """(GB, line) of the weights a server keeps in CPU memory (vLLM's `--cpu-offload-gb`), the first a
    command states; None where none does. Those weights cross the host link at every forward pass. A
    command that launches a model other than the runs' (`models`: a guide's `vllm serve ...-424B...
    --cpu-offload-gb 50` beside its 28B's benchmark) offloads that model's weights, not theirs."""
    from benchbook import ingest

    keys = {_model_key(m) for m in models if m}
    for path in paths:
        ctx = ingest.context_of_lines(path)
        found = [f for f in ctx.get("cpu_offload") if not _launches_another(ctx, f, keys)]
        if found:
            return float(found[0].value), found[0].line
    return None


def role_servers(paths) -> list[tuple[str, int, int]]:
    """(role, line, devices) of each server a disaggregated run's launch commands start, where the input shows
    one launch command for each role, a prefill's and a decode's (SGLang's `--disaggregation-mode prefill` and
    `decode`), each on one node, each stating its TP, and names no `xPyD` layout: the run spans those two
    servers (1P1D). A server's devices are TP x PP x DP, where SGLang's `--enable-dp-attention` in its command
    runs the DP ranks inside the TP group (`devices`). Empty otherwise: one role alone, several commands of a
    role (a layout the input does not count), or a command whose size is not stated."""
    from benchbook import config, ingest
    from benchbook.ingest import text

    for path in paths:
        ctx = ingest.context_of_lines(path)
        roles = ctx.get("role")
        if sorted(str(f.value) for f in roles) != ["decode", "prefill"] or ctx.get("instances"):
            continue
        lines = ingest._load_lines(config.resolve(path))
        out = []
        for f in roles:
            tp = ctx.same_command(f, "tp")
            if not tp or any(n.value > 1 for n in ctx.same_command(f, "nodes")):
                return []
            wrapped, _ = text.continued(lines, f.command - 1, len(lines))
            keys = ("pp",) if "enable-dp-attention" in wrapped else ("pp", "dp")
            n = tp[0].value
            for key in keys:
                n *= max([1, *(x.value for x in ctx.same_command(f, key))])
            out.append((str(f.value), f.line, int(n)))
        return sorted(out, key=lambda s: s[1])
    return []


def pd_instances(paths, r: pd.DataFrame) -> int:
    """The servers a 1P1D run spans (`role_servers`) where each spans the devices its runs' own parallelism
    counts (`devices`), so the page's count per instance times the instances is the run's; 1 otherwise."""
    servers = role_servers(paths)
    return len(servers) if servers and {d for *_, d in servers} == {devices(r)} else 1


def role_said(paths) -> dict:
    """Where a launch command serves one role of a disaggregated run (SGLang's `--disaggregation-mode
    prefill`: prefill and decode servers behind a router, each with its own TP x PP x DP devices) and
    the input names no `xPyD` layout: that command's devices are its role's, and how many servers of
    each role the run spans is not stated, so neither are the run's devices. {role, role_line} of the
    first such command; empty where no command names a role, or a layout gives the instances. Where the
    commands start one server of each role (`role_servers`), `role_servers` lists them: their devices are
    counted, though no one count per instance multiplies out to the run's (`pd_instances` takes the rest)."""
    from benchbook import ingest
    from benchbook.ingest import context

    servers = role_servers(paths)
    for path in paths:
        ctx = ingest.context_of_lines(path)
        roles = ctx.get("role")
        if roles and context.states(ctx, "instances").status == "absent":  # no layout, nor a sign of one
            said = {"role": str(roles[0].value), "role_line": roles[0].line}
            return {**said, "role_servers": servers} if servers else said
    return {}


def layout_said(paths, r: pd.DataFrame) -> dict:
    """Where the input names a disaggregated `xPyD` layout (context fact `instances`: x prefill and y decode
    servers, each with its own TP x PP x DP devices) and states no parallelism at all, neither in a run nor
    anywhere in its text: the run spans x + y servers on devices the input does not count, so they are at
    least x + y and how many more is not known, and no one peak is the run's. {layout, layout_line,
    layout_sign} of the first such layout (`layout_sign`: the line of a parallelism sign `context.states`
    leaves unread, which the page names); empty where a run or a line states a TP, PP or DP (`spanning`
    then counts each instance's devices), or no layout is named."""
    from benchbook import ingest
    from benchbook.ingest import context

    if any(stated(r, k) for k in ("tp", "pp", "dp")):
        return {}
    for path in paths:
        ctx = ingest.context_of_lines(path)
        facts = ctx.get("instances")
        if not facts:
            continue
        said = [context.states(ctx, k) for k in ("tp", "pp", "dp")]
        if any(s.status == "stated" for s in said):
            return {}
        sign = next((s.line for s in said if s.status == "unread"), None)
        return {"layout": facts[0].value, "layout_line": facts[0].line, **({"layout_sign": sign} if sign else {})}
    return {}


def own_limits_possible(r: pd.DataFrame) -> bool:
    """Whether any run's output format can state latency limits of its own: its parser declares the
    setting (`ttft_limit_ms`, MLPerf LoadGen's summary alone). Elsewhere a run judged against its own
    limits is not missing from the input: the claim does not apply to it."""
    from benchbook import ingest

    tools = ingest.tools()
    names = r["tool"].dropna().unique() if "tool" in r else []
    return any("ttft_limit_ms" in tools[t].settings for t in names if t in tools)


#: The percentile at which LoadGen checks a Server run's latency limits: `server_target_latency_percentile`,
#: 0.99 by default (loadgen/test_settings.h) and in mlperf.conf for every Server benchmark; the
#: summary does not print it.
SERVER_PERCENTILE = 99.0


def own_slo_bounds(r: pd.DataFrame) -> pd.DataFrame:
    """The runs whose output judges itself (MLPerf's `Result is`), with the share of requests that
    meet the latency limits it states: `goodput_bounds` against TTFT and TPOT limits, or the bounds
    on E2EL against a sample-latency limit (`latency_limit_ms`, LoadGen's `target_latency`). LoadGen
    checks its limits in the Server scenario only (`PerfConstraintsMet`), so `checked` is False and
    the shares NaN for another scenario (an Offline run prints them but is not held to them), and
    the shares are NaN where the input prints no limit. Empty when no run judges itself."""
    limits = ["latency_limit_ms", "ttft_limit_ms", "tpot_limit_ms"]
    if not {"result", *limits} & set(r.columns):
        return r.iloc[0:0]
    has = lambda c: r[c].notna() if c in r else pd.Series(False, index=r.index)  # noqa: E731
    own = r[has("result") | has("latency_limit_ms") | (has("ttft_limit_ms") & has("tpot_limit_ms"))]
    parts = []
    for i, row in own.iterrows():
        one = own.loc[[i]]
        checked = row.get("scenario") == "Server"
        token = [row.get(c) for c in ("ttft_limit_ms", "tpot_limit_ms")]
        whole = row.get("latency_limit_ms")
        if checked and all(_finite(v) for v in token):
            parts.append(goodput_bounds(one, *token).assign(checked=True))
        elif checked and _finite(whole):
            lo, hi = _share_bounds(row, "e2el", whole)
            kept = completed_share(row)
            parts.append(one.reset_index(drop=True).assign(share_lo=lo * kept, share_hi=hi * kept, checked=True))
        else:
            parts.append(one.reset_index(drop=True).assign(share_lo=np.nan, share_hi=np.nan, checked=checked))
    return pd.concat(parts, ignore_index=True) if parts else r.iloc[0:0]


def _finite(v) -> bool:
    return v is not None and not pd.isna(v) and np.isfinite(float(v))


# --- the lesson: a closed loop of N requests, Little's law and the knee ------------------------------


def closed_loop(n, w0: float, mu: float) -> tuple[np.ndarray, np.ndarray]:
    """The two limits of a server that N clients keep busy (each sends its next request when the last
    one ends): by Little's law X = N / W, and a request takes at least W0 while the server finishes at
    most mu per second, so throughput X(N) = min(N / W0, mu) and latency W(N) = max(W0, N / mu). They
    meet at the knee N* = mu x W0 (`knee_load`): below it throughput grows with N, above it only the
    wait does."""
    n = np.asarray(n, dtype=float)
    return np.minimum(n / w0, mu), np.maximum(w0, n / mu)


def knee_load(w0: float, mu: float) -> float:
    """N* = mu x W0: the requests in flight at which a closed loop meets its capacity (`closed_loop`)."""
    return mu * w0


def queue_limits(lit: pd.DataFrame) -> dict:
    """The input's numbers for `closed_loop`, from the first series (`series_key`: one server, one
    model) whose runs on the curve with a measured concurrency (`littles_law`) span at least two loads:
    W0, the mean E2EL (s) of its lowest load (an upper bound on the unloaded latency, so N* is one too),
    mu, the most requests per second any of them completed, N* and, per run, the requests in flight L,
    the rate X, the mean latency W and whether W is estimated from TTFT and TPOT (no E2EL printed), so
    a sentence never calls an estimate measured. Empty when no series spans two loads."""
    over = lit["over_requests"].fillna(False).astype(bool) if "over_requests" in lit else False
    ok = lit[lit["in_flight"].notna() & ~over & lit["request_rate_used"].gt(0) & lit["mean_e2el_s"].gt(0)]
    ok = ok[np.isfinite(ok["x"].astype(float))] if len(ok) else ok
    if ok.empty:
        return {}
    spans = [g for _, g in ok.groupby(series_key(ok), sort=False) if g["x"].nunique() >= 2]
    if not spans:
        return {}
    ok = spans[0].sort_values("x")
    lowest = ok[ok["x"] == ok["x"].iloc[0]]
    low, top = lowest.iloc[0], ok.loc[ok["request_rate_used"].idxmax()]
    w0, mu = float(lowest["mean_e2el_s"].mean()), float(top["request_rate_used"])
    return dict(
        w0_s=w0,
        w0_run=str(low["run"]),
        mu=mu,
        mu_run=str(top["run"]),
        mu_in_flight=float(top["in_flight"]),
        knee_in_flight=knee_load(w0, mu),
        runs=[str(x) for x in ok["run"]],
        x=[float(v) for v in ok["x"]],
        in_flight=[float(x) for x in ok["in_flight"]],
        rate=[float(x) for x in ok["request_rate_used"]],
        latency_s=[float(x) for x in ok["mean_e2el_s"]],
        estimated=[bool(x) for x in ok["estimated"].fillna(False)] if "estimated" in ok else [False] * len(ok),
    )
