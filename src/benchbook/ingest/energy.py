"""The energy contract: the setting columns, metric names and units every parser of measured power
or energy emits, so that the power chapter reads any of them.

`precision` is the weights' precision where the file states it (ML.ENERGY's `weight_precision`), else
empty; `params_b` and `active_params_b` are the model's total and active parameters (billions) where the
file states them (ML.ENERGY's `total_params_billions`, `activated_params_billions`), else empty. A row says what was measured (`metric`, `unit`), over what (`interval`: the whole run, prefill,
decode, a loading phase) and, for an energy or power figure, where (`scope`): the GPU only, the
CPU or RAM alone, GPU + CPU + RAM, or the whole system at the wall. A wall-socket figure and a
GPU-only figure are different quantities, so the scope travels with every number. The counts a
run served (tokens, requests) have no scope. Energies are in joules (files in kWh are converted,
with a note), powers in watts.
"""

from __future__ import annotations

import re

import pandas as pd
import pandera.pandas as pa

from benchbook import declarations
from benchbook.ingest import core
from benchbook.ingest.core import ParseError, Tool

#: Setting columns every energy tool emits, in this order.
SETTINGS = {
    "run": "str",
    "model": "str",
    "device": "str",
    "device_count": "float64",
    "backend": "str",
    "batch_size": "float64",
    "request_rate": "float64",
    "scope": "str",
    "interval": "str",
    "precision": "str",
    "params_b": "float64",
    "active_params_b": "float64",
    # the configuration a run repeats where the file measures one configuration several times (its runs
    # then are repeats, numbered in `run`); empty where each run is its own configuration
    "configuration": "str",
}

#: Where an energy or power figure was measured, and how a page names it.
SCOPES = {
    "gpu": "GPU only",
    "cpu": "CPU only",
    "ram": "RAM only",
    "gpu+cpu+ram": "GPU + CPU + RAM",
    "gpu+cpu": "GPU + CPU",
    "system": "whole system at the wall",
    # CodeCarbon's CPU figure: RAPL where the machine exposes it, else a model of the CPU's TDP, and
    # the file does not say which; in its process mode, the tracked process's share (ingest.codecarbon)
    "cpu-codecarbon": "CPU as CodeCarbon reports it (RAPL where readable, else from the CPU's TDP; the file does not say which)",
    # off Linux (the file's `os` column): CodeCarbon reads RAPL from Linux's powercap files only
    "cpu-codecarbon-off-linux": "CPU as CodeCarbon reports it off Linux (not RAPL, which it reads on Linux only: the "
    "system's or the vendor's power interface where one answered, else from the CPU's TDP; the file does not say which)",
    # CodeCarbon 1.x's one energy per run (ingest.codecarbon): whatever of these it found, no RAM
    "codecarbon-v1": "GPU + CPU as CodeCarbon 1.x sums them (no RAM; the file says neither whether it found a "
    "GPU nor whether the CPU was metered or modelled from its TDP)",
    "cpu-codecarbon-process": "the tracked process's share of the CPU as CodeCarbon estimates it (its process mode)",
}

#: The note of a GPU-only figure the tool sums over every GPU of the run (ML.ENERGY's Zeus window over all
#: the GPUs it watched, `#GPUs` of them): `summed` reads the count back.
SUMMED = "all {:g} GPUs together"
_SUMMED = re.compile(r"^all (\d+) GPUs together$")


def summed(note) -> int | None:
    """The GPUs a figure's note (`SUMMED`) says it sums, or None."""
    m = _SUMMED.match(note) if isinstance(note, str) else None
    return int(m.group(1)) if m else None


#: The intervals a figure can cover.
INTERVALS = ("run", "steady_state", "prefill", "decode", "load_model", "load_dataset", "preprocess_dataset")

#: Metrics of the contract, with their unit and meaning.
METRICS = {
    "energy": "J: energy over the interval, all requests together",
    "energy_active": "J: the same minus idle power x duration, as the tool computed it",
    "energy_per_request": "J: mean energy per request (response)",
    "energy_per_output_token": "J/tok: energy per output token as the tool printed it",
    "tokens_per_joule": "tok/J: output tokens per joule as the tool printed it",
    "requests_per_joule": "req/J: requests (samples) per joule as the tool printed it",
    "mean_power": "W: mean power over the interval",
    "peak_power": "W: highest power sample",
    "power_reading": "W: a power reading over the interval that the file does not call a mean or a peak",
    "idle_power": "W: power with no load, measured before the run",
    "duration": "s: length of the interval the energy covers",
    "output_tokens": "tok: output tokens served over the interval",
    "output_tokens_per_request": "tok: mean output tokens per request",
    "prompt_tokens": "tok: prompt tokens served over the interval",
    "requests": "req: requests completed",
    "requests_sent": "req: requests sent",
    "output_throughput": "tok/s: output tokens per second",
    "request_throughput": "req/s: requests completed per second",
    "e2el": "ms: mean latency per request",
    "itl": "ms: inter-token latency, at the row's statistic (median, p90, p95, p99)",
    "gpu_utilization": "%: mean GPU utilisation",
    "memory_utilization": "%: mean memory-controller utilisation",
}

#: Metrics that need a scope (an energy or a power), and those that must have none (counts).
SCOPED = {
    "energy",
    "energy_active",
    "energy_per_request",
    "energy_per_output_token",
    "tokens_per_joule",
    "requests_per_joule",
    "mean_power",
    "peak_power",
    "power_reading",
    "idle_power",
}

#: Energy-contract metrics that are run facts (`ingest.context`'s energy and power), by fact name.
FACTS = {"energy": "energy", "energy_active": "energy", "mean_power": "power", "peak_power": "power"}
FACTS |= {"idle_power": "power"}


def table_facts(table) -> list[tuple]:
    """The energies and powers a tool's table holds as run facts, each with its unit and the scope the
    tool's definitions give it (inference-energy's NVML energy is the one GPU it logs: "GPU only"),
    so the list of what a file states never calls them unscoped or another scope."""
    rows = table[table["metric"].isin(list(FACTS))] if "metric" in table else table.iloc[0:0]
    out = []
    for _, r in rows.iterrows():
        scope = SCOPES.get(r.get("scope"), r.get("scope") or "scope not stated")
        scope = f"idle, {scope}" if r["metric"] == "idle_power" else scope
        out.append(
            (FACTS[r["metric"]], float(r["value"]), int(r["line"]), f"{r['metric']}: {r['value']:g}", r["unit"], scope)
        )
    return out


#: The energy tools (registered by their modules): those the power chapter reads besides llama-bench.
TOOLS = tuple(t for t in declarations.chapter("perf_per_watt").tools if t != "llama-bench")

KWH_NOTE = "printed in kWh; converted to J"
J_PER_KWH = 3.6e6


def _contract() -> pa.DataFrameSchema:
    """What the energy contract adds to each tool's own schema: known metrics and units, a scope on
    every energy or power row and on no count, known intervals."""
    units = {m: d.split(":", 1)[0] for m, d in METRICS.items()}
    return pa.DataFrameSchema(
        {
            "metric": pa.Column(str, pa.Check.isin(sorted(METRICS))),
            "scope": pa.Column(str, pa.Check.isin(sorted(SCOPES)), nullable=True),
            "interval": pa.Column(str, pa.Check.isin(INTERVALS), nullable=True),
        },
        checks=[
            pa.Check(lambda d: d["unit"] == d["metric"].map(units), error="unit does not match the metric"),
            pa.Check(
                lambda d: d["scope"].notna() == d["metric"].isin(SCOPED), error="scope set on a count, or missing"
            ),
        ],
        strict=False,
    )


_CONTRACT = _contract()


def check(table: pd.DataFrame, source: str) -> pd.DataFrame:
    """The table, checked against the energy contract (a ParseError naming the file otherwise)."""
    try:
        return _CONTRACT.validate(table)
    except (pa.errors.SchemaError, pa.errors.SchemaErrors) as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise ParseError(source, None, f"parsed values break the energy contract: {first}") from None


def finish(tool: Tool, source: str, records: list[dict], rejects: list, messages: list[str], cells: int, version=None):
    """The shared parser tail (`core.finish`), then the energy contract's check of the tidy table."""
    parsed = core.finish(tool, source, records, rejects, messages, cells, version)
    parsed.table = check(parsed.table, source)
    return parsed
