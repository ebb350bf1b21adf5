"""The CSV that ap461719/Benchmarking-Energy-Consumption-LLMs writes (`results/*metrics_output.csv`): one row
per configuration of a Transformers `generate()` benchmark whose energy Zeus measured, in the energy contract.

What the columns are (the repository's `scripts/evaluate.py` and `utils/testing.py`, three schemas):

* `Energy_J`: Zeus's `Measurement.total_energy` of a window around the `generate()` calls of the row, over
  one GPU (`ZeusMonitor(gpu_indices=[torch.cuda.current_device()])`): the GPU's energy (scope gpu); summed
  over the row's batches in the later schema. `Latency_sec`: the wall time of those calls (summed).
* `Output_Tokens`: the new tokens of every sequence of the row (output length minus input length per
  sequence, summed; `min_new_tokens` = `max_new_tokens` in the later schema).
* `Power_W` (later schema) = Energy_J / Latency_sec, and `Energy_per_InputToken` / `Energy_per_OutputToken`
  = Energy_J / the token counts: recomputable, set aside. `Avg_Power_W` (earlier schema) is the mean of the
  Measurement's `power_data`, which Zeus's Measurement does not carry: the script then writes 0.0, its
  fallback, not a measured zero (set aside); a non-zero one would be a mean power.
* `Input_Tokens`: the prompt tokens as the script counts them, with the padding in the later schema
  (`input_ids.numel()`): set aside, not the prompt's own tokens. `Carbon_gCO2eq`: the energy at a
  carbon intensity the script sets by hand (1 gCO2eq/kWh where it does), not a measured emission: set
  aside. `Memory_MB`: the peak allocated memory, not part of the energy contract.

* The first schema (`scripts/results/results_output.csv`, May 2025) writes no `Energy_J`: its
  `Energy_per_OutputToken` is `round(energy / num_output_tokens, 4)` of the same Zeus `total_energy`, so
  the energy is that times `Output_Tokens` (to the rounding, 0.00005 J a token); `Energy_per_InputToken`
  divides the same energy by the padded input tokens (set aside); `Carbon_Emissions_g` is the energy at the
  script's carbon intensity (set aside); `Batch_Number` numbers the batches of prompts one configuration
  ran, each its own window: the rows of one configuration are its repeats.

A row names its configuration by the columns that vary between the file's rows (`Quantization`,
`Batch_Size`, `Dataset`, the lengths, the model); the later schema writes no length column, its sweeps of
the prompt and output length show only in the token counts (the prompt padded to its length), so there
those counts name the configuration too. A configuration met again is numbered by its row (`row 2`): the
later schema's suites each rerun the baseline, the earlier and the first write a row per batch of prompts;
those rows are repeats of one configuration (`configuration`), never configurations of their own. No device
is named.
"""

from __future__ import annotations

import re

from benchbook.ingest import energy
from benchbook.ingest.core import Parsed, ParseError, Tool, number, register
from benchbook.ingest.text import Lines, csv_rows, head, split_n

NAME = "zeus-llm-csv"

_REQUIRED = ("Model", "Latency_sec", "Energy_J")
#: The first schema's energy: per output token, times the output tokens.
_PER_TOKEN = ("Model", "Latency_sec", "Energy_per_OutputToken", "Output_Tokens")
_SNIFF = re.compile(
    r"^Model,(?=.*\bLatency_sec\b)(?=.*\b(?:Energy_J|Energy_per_OutputToken)\b)(?=.*\bOutput_(?:Tokens|Length)\b).*$",
    re.M,
)
#: Columns naming a configuration, in the order a label says them.
_CONFIG = ("Model", "Quantization", "Dataset", "Batch_Size", "Context_Window", "Prompt_Length", "Output_Length")
_SET_ASIDE = {
    "Power_W": "the script's Energy_J / Latency_sec: recomputable",
    "Energy_per_InputToken": "the script's Energy_J / Input_Tokens: recomputable",
    "Energy_per_OutputToken": "the script's Energy_J / Output_Tokens: recomputable",
    "Input_Tokens": "the prompt tokens as the script counts them (with padding in its later schema): not the prompt's own",
    "Carbon_gCO2eq": "the energy at a carbon intensity the script sets by hand: not a measured emission",
    "Carbon_Emissions_g": "the energy at a carbon intensity the script sets: not a measured emission",
    "Batch_Number": "the batch of prompts a row measured: rows of one configuration are its repeats, numbered by row",
    "Memory_MB": "peak allocated memory: not part of the energy contract",
}
ZERO_POWER = "the script's 0.0 where Zeus's Measurement carries no power samples: its fallback, not a measurement"


def sniff(text: str | Lines) -> bool:
    return bool(_SNIFF.search(head(text, 4000)))


def _label(row: dict, varying: list[str]) -> str:
    parts = []
    for c in varying:
        v = row[c]
        if c == "Batch_Size":
            parts.append(f"batch {v}")
        elif c.endswith("_Tokens"):
            n = number(v)
            parts.append(f"{n:,.0f}" if n is not None else v)
            parts[-1] += " padded input tokens" if c.startswith("Input") else " output tokens"
        else:
            parts.append(f"{c.lower().replace('_', ' ')} {v}" if c.endswith(("Length", "Window")) else v)
    return ", ".join(parts) or str(row["Model"])


def parse(text: str | Lines, source: str) -> Parsed:
    lines = [s for s in split_n(text)]
    while lines and not lines[-1].strip():
        lines.pop()
    top = next((k for k, s in enumerate(lines) if s.strip()), 0)  # blank lines above the header (a preamble)
    rows = csv_rows(lines[top:], source, top + 1)
    header = [h.strip().lstrip("\ufeff") for h in rows[0]] if rows else []
    per_token = "Energy_J" not in header
    if not all(c in header for c in (_PER_TOKEN if per_token else _REQUIRED)):
        raise ParseError(source, top + 1, f"expected the columns {', '.join(_REQUIRED)} (the Zeus benchmark CSV)")
    data = []
    for i, cells in enumerate(rows[1:], start=top + 2):
        if len(cells) != len(header):
            raise ParseError(source, i, f"expected {len(header)} cells, found {len(cells)}")
        data.append((i, dict(zip(header, (c.strip() for c in cells), strict=True))))
    # a schema with no length column (the first and the later, Power_W) writes its length sweeps only as
    # token counts: those name the configuration
    lengths = ("Prompt_Length", "Output_Length")
    config = _CONFIG if any(c in header for c in lengths) else (*_CONFIG, "Input_Tokens", "Output_Tokens")
    varying = [c for c in config if c in header and len({r[c] for _, r in data}) > 1]
    records, rejects, cells_read, seen = [], [], 0, {}
    times = {}
    for _, row in data:
        times[_label(row, varying)] = times.get(_label(row, varying), 0) + 1
    for i, row in data:
        label = _label(row, varying)
        seen[label] = seen.get(label, 0) + 1
        run = label if seen[label] == 1 else f"{label}, row {seen[label]}"
        batch = number(row.get("Batch_Size", ""))
        base = dict(
            run=run,
            model=row["Model"],
            device=None,
            device_count=1.0,
            backend="transformers",
            batch_size=batch,
            request_rate=None,
            interval="run",
            precision=row.get("Quantization") or None,
            configuration=label if times[label] > 1 else None,
        )

        def keep(metric, value, unit, scope=None, stat="value", note=None, line=i, base=base):
            records.append(
                dict(base, scope=scope, line=line, metric=metric, statistic=stat, value=value, unit=unit, note=note)
            )

        for col, raw in row.items():
            v = number(raw)
            if v is None or col in _CONFIG:
                continue
            cells_read += 1
            if col == "Energy_J":
                keep("energy", v, "J", scope="gpu", note="Zeus Measurement.total_energy over one GPU")
            elif col == "Energy_per_OutputToken" and per_token and number(row["Output_Tokens"]):
                keep(
                    "energy",
                    v * number(row["Output_Tokens"]),
                    "J",
                    scope="gpu",
                    note="Energy_per_OutputToken x Output_Tokens: the script's Zeus Measurement.total_energy over "
                    "one GPU, divided by the output tokens and rounded to 4 decimals",
                )
            elif col == "Latency_sec":
                keep("duration", v, "s")
            elif col == "Output_Tokens":
                keep("output_tokens", v, "tok")
            elif col == "Avg_Power_W" and v == 0:
                rejects.append((i, f"Avg_Power_W {raw}", ZERO_POWER))
            elif col == "Avg_Power_W":
                keep("mean_power", v, "W", scope="gpu", stat="mean")
            else:
                rejects.append((i, f"{col} {raw}", _SET_ASIDE.get(col, "a column of no energy-contract name")))
    if not records:
        raise ParseError(source, 1, "no row of the Zeus benchmark CSV")
    return energy.finish(TOOL, source, records, rejects, [], cells_read, "Benchmarking-Energy-Consumption-LLMs CSV")


TOOL = register(
    Tool(
        name=NAME,
        settings=energy.SETTINGS,
        sniff=sniff,
        parse=parse,
        description="the Zeus-measured CSV of ap461719/Benchmarking-Energy-Consumption-LLMs (Energy_J, Latency_sec, "
        "Output_Tokens per configuration)",
        command="python scripts/evaluate.py (writes results/metrics_output.csv)",
        metrics={m: energy.METRICS[m] for m in ("energy", "duration", "output_tokens", "mean_power")},
    )
)
