"""The Ollama benchmark script of geerlingguy/ai-benchmarks (`obench.sh`) with the machine's power
written beside it, as that repository's issues print them, in the energy contract.

What the script prints (obench.sh): `Running benchmark N times using model: M`, then per run the
`eval rate: X tokens/s` line of `ollama run --verbose` (output tokens / eval duration: generation
only, the prompt's evaluation excluded; one request, batch 1), and `Average Eval Rate: X
tokens/second` (the mean of the runs); with `--markdown` the same as a table (`| 1 | 9.27 tokens/s
|`, `|**Average Eval Rate**| 9.33 tokens/second |`). The author adds the machine's power: after the
runs (`Power consumed: 13W`, `Power draw: 51.1W`, `Consumed about 143W on average.`) or in the
heading line (`... model: llama3.2:3b (30.3W)`). He reads it at the wall ("477W from the wall",
ai-benchmarks issue 10): scope the whole system. A reading the file does not call an average is a
`power_reading` (neither mean nor peak); `on average` makes it a mean.

Kept per model: the average eval rate and the power reading; the single runs' rates are set aside
(the average is the script's own mean of them), with their spread said in a message.

The repository's README tabulates the same two numbers per system and model, one row each:
`| System | CPU/GPU | Model | Eval Rate | Power (Peak) |` then `| Pi 5 - 16GB | CPU | llama3.2:3b |
4.88 Tokens/s | 11.9 W |` (an issue may retitle the columns, `Device`, `Speed`, or paste the rows
without the header). A row is read where one cell is a rate in `Tokens/s` and one a power in `W`: the
rate is obench.sh's average eval rate, the system its first cell, the model the cell before the rate,
`CPU` / `GPU` the processor the model ran on. The power is the header's: `Power (Peak)` the highest
reading at the wall during the runs (`peak_power`); a header that names no peak, or no header, a
`power_reading`. An `Idle power: around 6W` line above the rows (the author's reading of the machine doing
nothing) is each row's `idle_power` below it.
"""

from __future__ import annotations

import re

from benchbook.ingest import energy
from benchbook.ingest.core import NUMBER, Parsed, ParseError, Tool, markdown_cells, register
from benchbook.ingest.text import Lines, search, split_n, whole

NAME = "ollama-bench-power"

#: The script's section line, in any case: a write-up that retypes it (`running benchmark 3 times ...`)
#: keeps the script's words, and the runs under it are still the script's.
_SECTION = re.compile(
    rf"^\s*Running benchmark (?P<n>\d+) times using model:\s*(?P<model>\S+)(?:\s*\((?P<w>{NUMBER})\s*W\))?\s*$",
    re.I,
)
_RUN = re.compile(rf"^\s*(?:eval rate:\s*|\|\s*\d+\s*\|\s*)(?P<v>{NUMBER})\s*tokens/s\s*\|?\s*$")
_AVERAGE = re.compile(
    rf"^\s*(?:Average Eval Rate:\s*|\|\s*\*\*Average Eval Rate\*\*\s*\|\s*)(?P<v>{NUMBER})\s*tokens/second\s*\|?\s*$"
)
_POWER = re.compile(
    rf"^\s*(?:Power consumed|Power draw|Power consumption)\s*:\s*(?:about\s+)?(?P<w>{NUMBER})\s*W\b.*$", re.I
)
_MEAN_POWER = re.compile(rf"^\s*Consumed about\s+(?P<w>{NUMBER})\s*W on average\.?\s*$", re.I)
_SNIFF = re.compile(r"(?mi)^\s*Running benchmark \d+ times using model:")
_IDLE = re.compile(rf"^\s*Idle power(?: draw)?\s*:\s*(?P<about>about|around|~)?\s*(?P<w>{NUMBER})\s*W\b", re.I)
_RATE_CELL = re.compile(rf"^(?P<v>{NUMBER})\s*tokens/s$", re.I)
_WATT_CELL = re.compile(rf"^(?P<w>{NUMBER})\s*W$")
#: A README row: a rate in Tokens/s, then a power in W, in the last two cells.
_TABLE_ROW = re.compile(rf"(?mi)^\s*\|[^\n]*\|\s*{NUMBER}\s*tokens/s\s*\|\s*{NUMBER}\s*W\s*\|\s*$")
_SNIFF_AVG = re.compile(r"(?m)Average Eval Rate")
RATE_NOTE = "ollama eval rate: output tokens / eval duration (generation only), mean of the script's runs"


def _rate(base: dict, line: int, value: float) -> dict:
    """A run's mean generation rate (obench.sh's average of its runs, or a table's Speed cell)."""
    return dict(
        base,
        scope=None,
        line=line,
        metric="output_throughput",
        statistic="mean",
        value=value,
        unit="tok/s",
        note=RATE_NOTE,
    )


def sniff(text: str | Lines) -> bool:
    return (search(_SNIFF, text) and search(_SNIFF_AVG, text)) or search(_TABLE_ROW, text)


def _table(lines, source: str) -> Parsed:
    """The README's rows (see the module's docstring), under their header where one stands above."""
    records, header, idle = [], None, None
    for i, raw in enumerate(lines, start=1):
        if not raw.lstrip().startswith("|"):
            header = None if raw.strip() else header
            if m := _IDLE.match(raw):
                idle = (i, float(m["w"]), "about " if m["about"] else "")
            continue
        cells = markdown_cells(raw)
        rate = next((k for k, c in enumerate(cells) if _RATE_CELL.match(c)), None)
        watt = next((k for k, c in enumerate(cells) if _WATT_CELL.match(c)), None)
        if rate is None or watt is None:
            if any("model" in c.lower() for c in cells) and any("power" in c.lower() for c in cells):
                header = cells
            continue
        peak = header is not None and watt < len(header) and "peak" in header[watt].lower()
        processor = next((c for c in cells if c.upper() in ("CPU", "GPU")), None)
        model = cells[rate - 1] if rate > 0 else None
        base = dict(
            run=f"{model} on {cells[0]}" + (f" ({processor})" if processor else ""),
            model=model,
            device=cells[0] or None,
            device_count=None,
            backend="ollama",
            batch_size=1,
            request_rate=None,
            interval="run",
            precision=None,
        )
        v, w = float(_RATE_CELL.match(cells[rate])["v"]), float(_WATT_CELL.match(cells[watt])["w"])
        records.append(_rate(base, i, v))
        what = (
            "the highest reading at the wall while the model ran (the table's Power (Peak))"
            if peak
            else ("a reading of the machine; mean or peak not said")
        )
        records.append(
            dict(
                base,
                scope="system",
                line=i,
                metric="peak_power" if peak else "power_reading",
                statistic="max" if peak else "value",
                value=w,
                unit="W",
                note=what,
            )
        )
        if idle is not None:
            records.append(
                dict(
                    base,
                    scope="system",
                    line=idle[0],
                    metric="idle_power",
                    statistic="value",
                    value=idle[1],
                    unit="W",
                    note=f"the same machine doing nothing, {idle[2]}as the author read it",
                )
            )
    if not records:
        raise ParseError(source, 1, "no Ollama result row ('| ... | N Tokens/s | N W |') found")
    return energy.finish(TOOL, source, records, [], [], len(records), "ai-benchmarks README table")


def parse(text: str | Lines, source: str) -> Parsed:
    lines = split_n(whole(text))
    if not (search(_SNIFF, text) and search(_SNIFF_AVG, text)):
        return _table(lines, source)
    records, rejects, messages, cells = [], [], [], 0
    section = None  # (line, model, runs, average, power)
    sections = []
    for i, raw in enumerate(lines, start=1):
        s = raw.rstrip("\r")
        m = _SECTION.match(s)
        if m:
            section = {"line": i, "model": m["model"], "n": int(m["n"]), "runs": [], "avg": None, "power": []}
            sections.append(section)
            if m["w"]:
                section["power"].append((i, float(m["w"]), "power_reading", "the author's reading beside the model"))
            continue
        m = _RUN.match(s)
        if m and section is not None:
            section["runs"].append((i, float(m["v"])))
            continue
        m = _AVERAGE.match(s)
        if m and section is not None:
            section["avg"] = (i, float(m["v"]))
            continue
        m = _MEAN_POWER.match(s) or _POWER.match(s)
        if m:
            cells += 1
            if section is None:
                rejects.append((i, s.strip(), "no Ollama benchmark above this reading"))
                continue
            mean = m.re is _MEAN_POWER
            what = (
                "the machine's average while the runs above ran"
                if mean
                else "a reading of the machine; mean or peak not said"
            )
            section["power"].append((i, float(m["w"]), "mean_power" if mean else "power_reading", what))
    if not sections:
        raise ParseError(source, 1, "no 'Running benchmark N times using model: M' line found")
    for sec in sections:
        base = dict(
            run=sec["model"],
            model=sec["model"],
            device=None,
            device_count=None,
            backend="ollama",
            batch_size=1,
            request_rate=None,
            interval="run",
            precision=None,
        )
        cells += len(sec["runs"])
        rejects += [
            (ln, f"eval rate {v:g}", "one run; the script's average of the runs is kept") for ln, v in sec["runs"]
        ]
        if sec["runs"]:
            vals = [v for _, v in sec["runs"]]
            messages.append(
                f"{source}:{sec['line']}: {sec['model']}: {len(vals)} runs from {min(vals):g} to {max(vals):g} tokens/s"
            )
        if sec["avg"] is not None:
            cells += 1
            ln, v = sec["avg"]
            records.append(_rate(base, ln, v))
        for ln, w, metric, what in sec["power"]:
            if sec["line"] == ln:
                cells += 1
            stat = "mean" if metric == "mean_power" else "value"
            records.append(
                dict(base, scope="system", line=ln, metric=metric, statistic=stat, value=w, unit="W", note=what)
            )
    return energy.finish(TOOL, source, records, rejects, messages, cells, "obench.sh")


TOOL = register(
    Tool(
        name=NAME,
        settings=energy.SETTINGS,
        sniff=sniff,
        parse=parse,
        description="geerlingguy/ai-benchmarks obench.sh (Ollama eval rates) with the machine's power beside them "
        "('Power draw: 51.1W', 'model: llama3.2:3b (30.3W)'), and its README's rows ('| N Tokens/s | N W |')",
        command="./obench.sh -m MODEL -c 3 [--markdown] (power read at the wall while it runs)",
        metrics={
            m: energy.METRICS[m]
            for m in ("power_reading", "mean_power", "peak_power", "idle_power", "output_throughput")
        },
    )
)
