"""Measured energy per token and per request, from any tool of the energy contract
(`benchbook.ingest.energy`). Numbers only: the claims live in `benchbook.claims.energy`.

One row per measured figure: a run, the interval it covers (the whole run, prefill, decode) and
the scope of its energy (GPU only, GPU + CPU + RAM, the wall). Energy per output token is the
energy divided by the output tokens served (or the mean energy per request divided by the mean
output tokens per request, the same ratio; or, where a file gives a mean power and a throughput but
no energy over a counted interval, the mean power divided by the output tokens per second); energy per token counts prompt and output tokens and
needs the prompt tokens; tokens per joule is the inverse of the first. Idle-subtracted figures take
out the idle power times the interval's length (or the tool's own idle-subtracted energy): what
the work cost above keeping the device switched on.

The floor: a decode step reads every active weight once, so at the device's peak bandwidth B and
rated power P one step costs at least about weights_bytes / B x P joules. The weights' bytes are
the model file's size where llama-bench prints it (an MoE's scaled by its active share, as the
bandwidth chapter does), else the active parameters x the bytes per weight of the precision the run
or the model table states (`analysis.precision.weights`), else x the bytes assumed. It is a rough floor:
it ignores the KV cache (more energy) and a device that reads at full bandwidth below its rated
power (less), and a batch of n sequences shares one read among n tokens.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from benchbook import hardware
from benchbook.ingest.energy import SCOPES, summed

#: Columns that name one measured configuration.
KEYS = [
    "source",
    "run",
    "model",
    "device",
    "device_count",
    "backend",
    "batch_size",
    "request_rate",
    "interval",
    "precision",
    "params_b",
    "active_params_b",
    "configuration",
]

#: The inter-token latency statistics a file may print beside its energy (ML.ENERGY's v3 leaderboard).
ITL_STATISTICS = ("median", "p90", "p95", "p99")
ITL_COLUMNS = [f"itl_{stat}_ms" for stat in ITL_STATISTICS]

COLUMNS = [
    *KEYS,
    "scope",
    "energy_j",
    "energy_active_j",
    "idle_power_w",
    "duration_s",
    "mean_power_w",
    "peak_power_w",
    "output_tokens",
    "prompt_tokens",
    "requests",
    "tokens_basis",
    "j_per_request",
    "j_per_output_token",
    "j_per_token",
    "tok_per_j",
    "j_per_output_token_active",
    "idle_share",
    "printed_j_per_output_token",
    "idle_device",
    "gpu_utilization",
    "output_tok_s",
    "req_s",
    "e2el_s",
    *ITL_COLUMNS,
    "board_power_w",
    "over_board",
    "gpus_together",
]


def _itl(g: pd.DataFrame, statistic: str) -> float:
    """The inter-token latency at `statistic` the file prints beside its energy (ms), NaN where none."""
    d = g[(g["metric"] == "itl") & (g["statistic"] == statistic)]
    return float(d["value"].iloc[0]) if len(d) else np.nan


def _first(g: pd.DataFrame, metric: str, scope: str | None = None) -> float:
    d = g[g["metric"] == metric]
    if scope is not None:
        d = d[d["scope"] == scope]
    return float(d["value"].iloc[0]) if len(d) and pd.notna(d["value"].iloc[0]) else np.nan


def runs(df: pd.DataFrame) -> pd.DataFrame:
    """One row per (configuration, interval, scope) of an energy-contract table, with every energy
    figure the file allows (NaN where it does not). `tokens_basis` says where the output-token
    count comes from: "counted" (the file counts them), "per request" (mean tokens per request),
    "nominal" (a configured volume, not counted), "power / throughput" (no energy over a counted
    interval: mean power / output tokens per second, both as the file gives them), "sampled power /
    throughput" (the same where the benchmark sampled the power over its own run), "machine power / eval
    rate" (a reading of the whole machine / Ollama's generation rate: an estimate), "printed tokens per
    joule" (neither: the inverse of the tool's own output tokens per joule), "power reading /
    throughput" (the same with a reading the file calls neither a mean nor a peak: an estimate), "run
    mean power / throughput" (a mean over a whole llama-bench run / one test's rate: an estimate) or
    None. From a power and a rate, the idle-subtracted figure is (power - idle power) / rate."""
    if df.empty or "scope" not in df:
        return pd.DataFrame(columns=COLUMNS)
    d = df.copy()
    for k in KEYS:
        if k not in d:
            d[k] = None
    out = []
    keyed = d[KEYS].astype("string").fillna("\u2205")
    for _, g in d.groupby([keyed[k] for k in KEYS], sort=False, dropna=False):
        scopes = [s for s in pd.unique(g["scope"].dropna()) if s in SCOPES]
        for scope in scopes:
            out.append(_row(g, scope))
    t = pd.DataFrame(out, columns=COLUMNS)
    return _over_board(t).reset_index(drop=True)


#: How far a GPU-only mean power may exceed the board power before it is no measurement of its interval:
#: a power limit holds the mean, and a reading's error (NVML: +-5 %) and a laptop's boost headroom (NVIDIA's
#: Dynamic Boost: up to 15 W over an 80 W part) stay inside this margin.
OVER_BOARD_MARGIN = 1.25


def _over_board(t: pd.DataFrame) -> pd.DataFrame:
    """`t` with `board_power_w` (the board power of the devices a GPU-only figure covers: the hardware
    table's `power_w` x their count) and `over_board`: an energy whose mean over its duration exceeds it
    by more than `OVER_BOARD_MARGIN`.
    No GPU draws more than its board power on average, so such an energy is not this interval's:
    CodeCarbon's GPU energy is the difference of the driver's cumulative energy counter between the
    tracker's reads (codecarbon/core/gpu_device.py, `delta`), or a power reading times the interval
    where there is no counter, and a figure over a run shorter than the counter's updates takes in
    energy drawn outside it. Its per-token figures are dropped, so it is never compared."""
    from benchbook import hardware

    t = t.copy()
    board, over = [], []
    for _, r in t.iterrows():
        dev = hardware.detect(r["device"]) if r["scope"] == "gpu" and isinstance(r["device"], str) else None
        count = pd.to_numeric(r["device_count"], errors="coerce")
        watts = dev.power_w * count if dev is not None and dev.power_w and np.isfinite(count) and count > 0 else np.nan
        mean = r["energy_j"] / r["duration_s"] if r["duration_s"] and np.isfinite(r["duration_s"]) else np.nan
        board.append(watts)
        over.append(bool(np.isfinite(watts) and np.isfinite(mean) and mean > watts * OVER_BOARD_MARGIN))
    t["board_power_w"], t["over_board"] = board, over
    gone = ["j_per_request", "j_per_output_token", "j_per_token", "tok_per_j", "j_per_output_token_active"]
    t.loc[t["over_board"], gone] = np.nan
    return t


def _whole_run_mean(g: pd.DataFrame) -> bool:
    """Whether the rate beside a mean power is one llama-bench test's (`llama-bench-power`): the
    mean covers the whole run, every test of the table, not the generation the rate measures."""
    notes = g.loc[g["metric"] == "output_throughput", "note"] if "note" in g else pd.Series(dtype=object)
    return bool(notes.astype("string").str.startswith("llama-bench ").fillna(False).any())


def _eval_rate(g: pd.DataFrame) -> bool:
    """Whether the rate beside a power is Ollama's eval rate (`ollama-bench-power`): generation only,
    beside a reading of the whole machine the file does not time."""
    notes = g.loc[g["metric"] == "output_throughput", "note"] if "note" in g else pd.Series(dtype=object)
    return bool(notes.astype("string").str.startswith("ollama eval rate").any())  # a missing note is no match


def _sampled_during(g: pd.DataFrame) -> bool:
    """Whether the rate beside a mean power is the benchmark's own, over the window its power was
    sampled in (`serving-power`: a serving benchmark's --record-power summary)."""
    notes = g.loc[g["metric"] == "output_throughput", "note"] if "note" in g else pd.Series(dtype=object)
    return bool(notes.astype("string").str.startswith("the result block's").fillna(False).any())


def _row(g: pd.DataFrame, scope: str) -> dict:
    row = {k: g[k].iloc[0] for k in KEYS}
    row["scope"] = scope
    # the GPUs a figure of this scope sums, where the tool's definition says it sums every GPU of the run
    counts = [n for n in g.loc[g["scope"] == scope, "note"].map(summed) if n] if "note" in g else []
    row["gpus_together"] = float(counts[0]) if counts else np.nan
    energy = _first(g, "energy", scope)
    per_request = _first(g, "energy_per_request", scope)
    tokens = _first(g, "output_tokens")
    basis = "counted" if np.isfinite(tokens) else None
    tpj = _first(g, "tokens_per_joule", scope)
    if not np.isfinite(tokens) and np.isfinite(tpj) and np.isfinite(energy):
        tokens, basis = tpj * energy, "nominal"
    elif not np.isfinite(tokens) and np.isfinite(_first(g, "tokens_per_joule")):
        # the efficiency is over another scope's energy: its count serves every scope
        other = g[g["metric"] == "tokens_per_joule"].iloc[0]
        tokens, basis = float(other["value"]) * _first(g, "energy", other["scope"]), "nominal"
    requests = _first(g, "requests")
    rpj = _first(g, "requests_per_joule")
    if not np.isfinite(requests) and np.isfinite(rpj):
        other = g[g["metric"] == "requests_per_joule"].iloc[0]
        requests = float(other["value"]) * _first(g, "energy", other["scope"])
    per_req_tokens = _first(g, "output_tokens_per_request")
    if np.isfinite(energy) and np.isfinite(tokens) and tokens > 0:
        j_out = energy / tokens
    elif np.isfinite(per_request) and np.isfinite(per_req_tokens) and per_req_tokens > 0:
        j_out, basis = per_request / per_req_tokens, "per request"
    else:
        j_out = np.nan
    if not np.isfinite(per_request) and np.isfinite(energy) and np.isfinite(requests) and requests > 0:
        per_request = energy / requests
    # no energy and count over one interval, but a power and a rate: J = W / (per second); a reading
    # the file calls neither mean nor peak makes it an estimate (basis "power reading / throughput")
    mean_w = _first(g, "mean_power", scope)
    reading = _first(g, "power_reading", scope)
    watts = mean_w if np.isfinite(mean_w) else reading
    per_watt_basis = "power / throughput" if np.isfinite(mean_w) else "power reading / throughput"
    if np.isfinite(mean_w) and _whole_run_mean(g):
        per_watt_basis = "run mean power / throughput"
    elif np.isfinite(mean_w) and _sampled_during(g):
        per_watt_basis = "sampled power / throughput"
    if np.isfinite(watts) and _eval_rate(g):
        per_watt_basis = "machine power / eval rate"
    out_rate, req_rate = _first(g, "output_throughput"), _first(g, "request_throughput")
    from_power = not np.isfinite(j_out) and np.isfinite(watts) and np.isfinite(out_rate) and out_rate > 0
    if from_power:
        j_out, basis = watts / out_rate, per_watt_basis
    elif not np.isfinite(j_out) and np.isfinite(tpj) and tpj > 0:
        # no energy, no power and rate of this scope: the tool's own tokens per joule is the figure
        j_out, basis = 1 / tpj, "printed tokens per joule"
    if not np.isfinite(per_request) and np.isfinite(watts) and np.isfinite(req_rate) and req_rate > 0:
        per_request = watts / req_rate
    prompt = _first(g, "prompt_tokens")
    idle = _first(g, "idle_power", scope)
    duration = _first(g, "duration")
    active = _first(g, "energy_active", scope)
    if not np.isfinite(active) and np.isfinite(idle) and np.isfinite(duration) and np.isfinite(energy):
        active = energy - idle * duration
    # from a power and a rate, the idle draw comes off the power: (W - idle W) / (tok/s)
    active_per_token = (watts - idle) / out_rate if from_power and np.isfinite(idle) else np.nan
    idle_share = idle / watts if from_power and np.isfinite(idle) and watts else np.nan
    # a power log sampling one GPU by index that read it at 0 % utilization with no energy above its idle
    # draw while requests completed watched an idle device, not the run: no figure is formed from it
    util = _first(g, "gpu_utilization")
    served = requests if np.isfinite(requests) else tokens
    idle_device = bool(util == 0 and np.isfinite(active) and active <= 0 and np.isfinite(served) and served > 0)
    if idle_device:
        j_out = per_request = active_per_token = idle_share = np.nan
    row.update(
        energy_j=energy,
        energy_active_j=active,
        idle_power_w=idle,
        duration_s=duration,
        mean_power_w=mean_w,
        # the highest reading only (a README's Power (Peak)): a bound on the mean from above, no figure formed from it
        peak_power_w=_first(g, "peak_power", scope),
        output_tokens=tokens,
        prompt_tokens=prompt,
        requests=requests,
        tokens_basis=basis,
        j_per_request=per_request,
        j_per_output_token=j_out,
        j_per_token=energy / (tokens + prompt)
        if np.isfinite(prompt) and np.isfinite(tokens) and not idle_device
        else np.nan,
        tok_per_j=1 / j_out if np.isfinite(j_out) and j_out > 0 else np.nan,
        j_per_output_token_active=active / tokens
        if np.isfinite(active) and np.isfinite(tokens) and tokens and not idle_device
        else active_per_token,
        idle_share=1 - active / energy
        if np.isfinite(active) and np.isfinite(energy) and energy and not idle_device
        else idle_share,
        idle_device=idle_device,
        gpu_utilization=util,
        printed_j_per_output_token=np.nan if idle_device else _first(g, "energy_per_output_token", scope),
        # the rate and the latency the file prints beside its energy (leaderboards do)
        output_tok_s=out_rate,
        req_s=req_rate,
        e2el_s=_first(g, "e2el") / 1000,
        **{f"itl_{stat}_ms": _itl(g, stat) for stat in ITL_STATISTICS},
    )
    return row


def quoted(table: pd.DataFrame) -> pd.DataFrame:
    """The rows a page states: per configuration, prefill and decode where the file splits them
    (loading phases aside), else the whole run or its steady state; every scope."""
    if table.empty:
        return table
    t = table.copy()
    has_decode = t.groupby(["source", "run"])["interval"].transform(lambda s: (s == "decode").any())
    keep = np.where(has_decode, t["interval"].isin(["prefill", "decode"]), t["interval"].isin(["run", "steady_state"]))
    return t[keep].reset_index(drop=True)


def comparable(table: pd.DataFrame, column: str) -> tuple[pd.DataFrame, str | None, list[str]]:
    """(rows, scope, other scopes): the rows of `table` with `column` known, in the scope most
    rows share (ties: the narrower scope first, GPU only before the wall), and the scopes left
    out. Figures of two scopes are different quantities and are never ranked together."""
    t = table.dropna(subset=[column]) if len(table) else table
    if t.empty:
        return t, None, []
    order = list(SCOPES)
    counts = t["scope"].value_counts()
    scope = sorted(counts.index, key=lambda s: (-counts[s], order.index(s) if s in order else 99))[0]
    others = [s for s in counts.index if s != scope]
    return t[t["scope"] == scope].reset_index(drop=True), scope, others


def ranked(table: pd.DataFrame, column: str) -> pd.DataFrame:
    """Rows of one scope, cheapest first by `column` (then by run name, never by row order)."""
    return table.sort_values([column, "run"]).reset_index(drop=True)


def pooled(table: pd.DataFrame, column: str) -> pd.DataFrame:
    """Rows of one scope with the repeats of a configuration (`configuration`: a file that measures one
    configuration several times) pooled into one row: `run` the configuration, `column` the mean of its
    repeats, `repeats` their number and `lo` / `hi` their range. Repeats are the noise of one
    configuration, never configurations to rank against each other; a run that repeats nothing is
    its own row (`repeats` 1)."""
    if table.empty:
        return table.assign(
            repeats=pd.Series(dtype="int64"), lo=pd.Series(dtype="float64"), hi=pd.Series(dtype="float64")
        )
    t = table.copy()
    conf = t["configuration"] if "configuration" in t else pd.Series(None, index=t.index, dtype="object")
    t["_key"] = conf.where(conf.notna() & (conf.astype(str) != ""), t["run"])
    rows = []
    for key, g in t.groupby(["source", "_key"], sort=False, dropna=False):
        r = g.iloc[0].copy()
        r["run"] = key[1]
        r[column] = g[column].mean()
        r["repeats"], r["lo"], r["hi"] = len(g), g[column].min(), g[column].max()
        rows.append(r)
    return pd.DataFrame(rows).drop(columns="_key").reset_index(drop=True)


#: Bytes per parameter when the file does not say the weights' precision (16-bit weights).
DEFAULT_BYTES_PER_PARAM = 2.0


def model_file(bench: pd.DataFrame | None, source: str | None, model: str | None) -> dict | None:
    """The llama-bench row of `source` whose model file, model string or section names `model`:
    {"file_gib", "params_b", "names"} where it prints the file's size, else None."""
    if bench is None or bench.empty or not isinstance(model, str) or "model_size_gib" not in bench:
        return None
    b = bench[(bench["source"] == source) & bench["model_size_gib"].notna()]
    for _, r in b.iterrows():
        names = [r.get(k) for k in ("model_file", "model", "section")]
        section = r.get("section")
        tail = section.rsplit(" / ", 1)[-1] if isinstance(section, str) else None
        if model in [n for n in names if isinstance(n, str)] + [tail]:
            return {"file_gib": float(r["model_size_gib"]), "params_b": r.get("params_b"), "names": names}
    return None


def weights_bytes(
    model: str | None,
    bytes_per_param: float,
    file: dict | None = None,
    stated: str | None = None,
    sizes: tuple[float | None, float | None] = (None, None),
    said: dict | None = None,
) -> dict:
    """The bytes (GB) a decode step reads of the model's active weights and how they are known:
    {"weights_gb", "active_params_b", "params_b", "bytes_source", "precision", "precision_from", "file_gib",
    "experts_smaller"};
    `bytes_source` is "file" (llama-bench's printed size), "precision" (stated by the run or the model
    table), "parameter" (a bytes_per_param other than the default) or "assumed"; weights_gb None
    where the active parameters are unknown; `stated` the weights' precision the file gives, if any;
    `sizes` the (total, active) billions of parameters the energy file states (ML.ENERGY's), which
    rank above the model table; `said` what the rest of the file says of a precision (`facts_said`):
    a stated one is read after the model's name (`precision_from` "file", its `precision_line`), and its
    status, line and text are kept for the page, so "the file does not give the weights' precision" is
    said only where it is absent."""
    from benchbook.analysis import bandwidth, precision

    out = dict(weights_gb=None, active_params_b=None, params_b=None, bytes_source=None, precision=None)
    out["precision_from"] = None  # the precision's source: "output", "name" or "checkpoint"
    out.update(file_gib=None, experts_smaller=False)
    said = said or {"precision_status": "absent"}
    out.update({k: said.get(k) for k in ("precision_status", "precision_line", "precision_text")})
    if file is not None:
        size = bandwidth.model_size(
            bandwidth.override_table(None), file["params_b"], model, *file["names"], printed_model=file["names"][1]
        )
        total, active = size["params_b"], size["active_params_b"]
        out.update(active_params_b=active, params_b=total)
        if active is not None and (size["architecture"] != "moe" or total):
            share = active / total if size["architecture"] == "moe" else 1.0
            row = {"file_gib": file["file_gib"], "params_b": total, "model": file["names"][1]}
            out.update(
                weights_gb=file["file_gib"] * bandwidth.GIB * share / 1e9,
                bytes_source="file",
                file_gib=file["file_gib"],
                experts_smaller=size["architecture"] == "moe" and bandwidth.experts_smaller(row),
            )
            return out
    total_b, active_b = (_given(v) for v in sizes)
    if active_b is None:
        size = hardware.model_size(model) if isinstance(model, str) else None
        if size is None or size.active_b is None:
            return out
        total_b, active_b = size.total_b, size.active_b
    out.update(active_params_b=active_b, params_b=total_b)
    elsewhere = (str(said["precision_value"]),) if said["precision_status"] == "stated" else ()
    w = precision.weights(model, names=(stated,) if stated else (), stated=elsewhere)
    if bytes_per_param != DEFAULT_BYTES_PER_PARAM:
        out.update(weights_gb=active_b * bytes_per_param, bytes_source="parameter")
    elif w.known and not w.assumed:
        out.update(weights_gb=active_b * w.bytes_per_weight, bytes_source="precision", precision=w.precision)
        out["precision_from"] = w.source
    else:
        out.update(weights_gb=active_b * bytes_per_param, bytes_source="assumed")
    return out


def _given(v) -> float | None:
    """A stated size (billions), or None where the file gives none."""
    return float(v) if v is not None and pd.notna(v) and float(v) > 0 else None


def weights_floor(
    model: str | None,
    device: str | None,
    bytes_per_param: float,
    file: dict | None = None,
    stated: str | None = None,
    sizes: tuple[float | None, float | None] = (None, None),
    said: dict | None = None,
) -> dict:
    """The energy of reading the model's active weights once at the device's peak bandwidth and
    rated power: {"floor_j", "weights_gb", "bandwidth_gb_s", "power_w", "device", "active_params_b",
    and `weights_bytes`' other keys} (None values where the model or the device is unknown);
    `file` the model file llama-bench printed (`model_file`)."""
    out = dict(floor_j=None, bandwidth_gb_s=None, power_w=None, device=None)
    out.update(weights_bytes(model, bytes_per_param, file, stated, sizes, said))
    dev = hardware.detect(device) if isinstance(device, str) else None
    if dev is not None:
        out.update(device=dev.name, bandwidth_gb_s=dev.bandwidth_gb_s, power_w=dev.power_w)
    if out["weights_gb"] is not None and dev is not None and dev.power_w and dev.bandwidth_gb_s:
        out["floor_j"] = out["weights_gb"] / dev.bandwidth_gb_s * dev.power_w
    return out


def read(paths) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(llama-bench rows, energy-contract rows) of the chapter's input files, each file read by the
    tools it holds; an empty frame with the tool's columns where no file holds that kind. A column a
    parser left empty takes what the rest of the file states, as `ingest.read` fills it (a device a
    heading above a table with a power line names)."""
    from benchbook import ingest
    from benchbook.ingest import context
    from benchbook.ingest.core import LEAD_COLUMNS, TAIL_COLUMNS
    from benchbook.ingest.energy import TOOLS

    registry = ingest.tools()
    cap, measured = [], []
    for p in paths:
        for parsed in ingest.read_parsed(p):
            table = parsed.table
            if parsed.tool in TOOLS and len(table) and context.needs_fill(table):
                table = table.copy()
                context.fill(table, ingest.context_of(p))
            if parsed.tool == "llama-bench":
                cap.append(table)
            elif parsed.tool in TOOLS:
                measured.append(table)

    def stack(frames: list[pd.DataFrame], tool: str) -> pd.DataFrame:
        if frames:
            return pd.concat(frames, ignore_index=True)
        return pd.DataFrame(columns=[*LEAD_COLUMNS, *registry[tool].settings, *TAIL_COLUMNS])

    return stack(cap, "llama-bench"), stack(measured, TOOLS[0])


def stated_power(paths) -> list[dict]:
    """What each file says of power and energy outside the rows this chapter measures, decided by
    the one absence rule (`ingest.context.states`): the readings it states (`status` "stated": the
    first three, each with `value`, `unit`, `scope`, `line`, `text`) or a line that speaks of one unread
    ("unread": `line`, `text`); a file with no sign of either gives nothing, the only case a page may
    call "no power reading"."""
    from benchbook import config, ingest
    from benchbook.ingest import context

    out = []
    for path in paths:
        ctx = ingest.context_of_lines(path)
        for name in ("power", "energy"):
            said = context.states(ctx, name)
            if said.status == "absent":
                continue
            row = {"file": config.relative(path), "name": name, "status": said.status}
            for f in said.facts[:3]:  # the first readings, each with its scope and unit
                out.append(
                    row | {"line": f.line, "value": f.value, "unit": f.unit, "scope": f.scope, "text": _quote(f.text)}
                )
            if not said.facts:
                out.append(row | {"line": said.line, "text": _quote(said.sign.text)})
    return out


def facts_said(paths) -> dict[str, dict]:
    """Per file (by its name in the tidy table), what it says of a precision and a batch size beyond its
    rows (the one absence rule, `context.states` through `serving.fact_said`: `precision_status` and
    `batch_status` "stated" with a `_value`, "unread" or "absent", each with its `_line` and `_text`)."""
    from pathlib import Path

    from benchbook.analysis import serving

    return {
        Path(p).name: serving.fact_said([p], "precision", "precision") | serving.fact_said([p], "batch", "batch")
        for p in paths
    }


def limit_said(paths) -> dict:
    """What the files say of a power limit beside the limits this chapter reads from its tables' headings,
    by the one absence rule (`context.states`, through `serving.fact_said`): `limit_status` "stated" (an
    `nvidia-smi -pl 300`, a `Power limit: 300 W` line: `limit_value`, `limit_line`, `limit_text`), "unread"
    (a line that speaks of one without a value, `nvidia-smi -pl $pl`) or "absent", the only status on
    which a page may say the input states no power limit. `limit_unit` as the line writes it (None where
    it writes none); `limit_file` where there are several files."""
    from benchbook import config, ingest
    from benchbook.ingest import context

    unread = None
    for path in paths:
        said = context.states(ingest.context_of(path), "power_limit")
        where = {"limit_file": config.relative(path)} if len(paths) > 1 else {}
        if said.facts:
            f = said.facts[0]
            stated = {"limit_status": "stated", "limit_value": f.value, "limit_unit": f.unit, "limit_line": f.line}
            return stated | {"limit_text": _quote(f.text), **where}
        if said.status == "unread" and unread is None:
            unread = {"limit_status": "unread", "limit_line": said.line, "limit_text": _quote(said.sign.text), **where}
    return unread or {"limit_status": "absent"}


def stated_device(paths) -> dict:
    """What the files say of a device, for a page whose rows name none, decided by the one absence rule
    (`ingest.context.states`): `status` "stated" (a device a line names: `value`, `line`, `text`), "unread"
    (a line that speaks of a device and names none this reader takes: `line`, `text`) or "absent", the only
    status on which a page may say the input does not name the device; `file` where there are several."""
    from benchbook import config, ingest
    from benchbook.ingest import context

    unread = None
    for path in paths:
        said = context.states(ingest.context_of(path), "device")
        where = {"file": config.relative(path)} if len(paths) > 1 else {}
        if said.facts:
            f = said.facts[0]
            return {"status": "stated", "value": str(f.value), "line": f.line, "text": _quote(f.text), **where}
        if said.status == "unread" and unread is None:
            unread = {"status": "unread", "line": said.line, "text": _quote(said.sign.text), **where}
    return unread or {"status": "absent"}


def _quote(text: str) -> str:
    """A line as a page quotes it in a code span: no backticks or terminal colour codes of its own, at
    most 100 characters."""
    text = re.sub(r"\x1b\[[0-9;]*m", "", text).replace("`", "'")
    return text if len(text) <= 100 else text[:99] + "…"
