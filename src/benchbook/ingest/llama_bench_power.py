"""A power reading beside llama-bench tables (`Power consumption: 241.4W` under a table, `Idle power
draw: 47.7W` under a `## Testing on <machine>` heading), as Jeff Geerling's ai-benchmarks issues
print them, in the energy contract.

What the numbers are: a meter's reading for the whole machine while llama-bench ran every test of
the table above it (the author measures at the wall: "477W from the wall", ai-benchmarks issue 10),
and the same machine doing nothing. The file does not say whether a reading is the mean or the peak
of the run (the repository's README heads the column "Power (Peak)"), so it is a `power_reading`,
never a mean power: a figure per token formed from it is an estimate that assumes the machine drew
that much while generating. The generation rate is llama-bench's `tgN` mean (tokens per second of
a test that only generates), read by the `llama-bench` parser; its other rates stay that tool's.

One configuration per power reading: the rows of the table just above it (its section, model file,
backend) on the machine its `## Testing on` heading names, else the device llama-bench printed. A
placeholder (`TODOW`) is not a reading. `Power consumption around 97W` is a reading too; `Power
consumption (average): 17.5W` and `Avg power consumption: 28W` (issue 51) are the machine's mean over
the whole run (every test of the table), so their figure per token is an estimate as well: the rate
is one test's.
"""

from __future__ import annotations

import re

from benchbook.ingest import energy, llama_bench
from benchbook.ingest.core import Parsed, ParseError, Tool, register
from benchbook.ingest.text import Lines, search, split_n, whole

NAME = "llama-bench-power"

#: `Power consumption: 241.4W`, `Power consumption around 97W` (neither says mean or peak),
#: `Power consumption (average): 17.5W` and `Avg power consumption: 28W` (the author's mean over the run).
_POWER = re.compile(
    r"^\s*(?P<pre>Avg\.?\s+)?Power consumption(?P<avg>\s*\(average\))?(?:\s*:|\s+(?:around|about))\s*(?P<w>\S+?)\s*W?\s*$",
    re.I,
)
_IDLE = re.compile(r"^\s*Idle power draw:\s*(?P<w>\S+?)\s*W?\s*$")
_MACHINE = re.compile(r"^##\s+Testing on\s+(?P<m>.+?)\s*$")
_NUMBER = re.compile(r"^\d+(\.\d+)?$")
_SNIFF = re.compile(r"(?im)^\s*(?:Avg\.?\s+)?Power consumption(?:\s*\(average\))?(?:\s*:|\s+(?:around|about))\s*\d")


def sniff(text: str | Lines) -> bool:
    return search(_SNIFF, text) and llama_bench.sniff(text)


def parse(text: str | Lines, source: str) -> Parsed:
    body = whole(text)
    lines = split_n(body)
    bench = llama_bench.parse(body, source).table
    tg = bench[(bench["metric"] == "tg_rate") & (bench["statistic"] == "mean")]
    if "n_depth" in tg:
        tg = tg[tg["n_depth"].fillna(0) == 0]
    records: list[dict] = []
    rejects: list[tuple[int, str, str]] = []
    machine, idle, previous = None, None, 0
    for i, raw in enumerate(lines, start=1):
        s = raw.rstrip("\r")
        m = _MACHINE.match(s)
        if m:
            machine, idle = m["m"], None
            continue
        m = _IDLE.match(s)
        if m:
            if _NUMBER.match(m["w"]):
                idle = (i, float(m["w"]))
            else:
                rejects.append((i, s.strip(), "not a number (a placeholder)"))
            continue
        m = _POWER.match(s)
        if not m:
            continue
        rows = tg[(tg["line"] > previous) & (tg["line"] < i)]
        previous = i
        if not _NUMBER.match(m["w"]):
            rejects.append((i, s.strip(), "not a number (a placeholder)"))
            continue
        if rows.empty:
            rejects.append((i, s.strip(), "no llama-bench generation test (tgN) above this reading"))
            continue
        r = rows.iloc[0]
        section = str(r["section"]) if isinstance(r.get("section"), str) else None
        # the model file the command line names (-m), else the heading above the table, else the model string
        file = r.get("model_file") if isinstance(r.get("model_file"), str) else None
        model = file or (section.rsplit(" / ", 1)[-1] if section else r.get("model"))
        gpu = r.get("gpu") if isinstance(r.get("gpu"), str) else None  # the device line llama-bench printed
        base = dict(
            run=f"{model} on {machine}" if model and machine else model or section or f"line {i}",
            model=model,
            device=machine or gpu,
            device_count=None,
            backend=r.get("backend") if isinstance(r.get("backend"), str) else None,
            batch_size=1,  # a tgN test decodes one sequence: the rate below is batch 1's
            request_rate=None,
            interval="run",
        )
        if m["avg"] or m["pre"]:
            metric, statistic = "mean_power", "mean"
            note = "the whole machine's average while llama-bench ran every test of the table above"
        else:
            metric, statistic = "power_reading", "value"
            note = "the whole machine while llama-bench ran every test of the table above; mean or peak not said"
        records.append(
            dict(base, scope="system", line=i, metric=metric, statistic=statistic, value=float(m["w"]))
            | {"unit": "W", "note": note}
        )
        if idle is not None:
            records.append(
                dict(base, scope="system", line=idle[0], metric="idle_power", statistic="value", value=idle[1])
                | {"unit": "W", "note": "the same machine doing nothing"}
            )
        records.append(
            dict(base, scope=None, line=int(r["line"]), metric="output_throughput", statistic="mean")
            | {"value": float(r["value"]), "unit": "tok/s", "note": f"llama-bench {r['test']} mean rate"}
        )
    if not records:
        raise ParseError(source, 1, "no 'Power consumption: N W' reading under a llama-bench table with a tgN test")
    messages = [
        f"{source}: power readings of the whole machine (mean or peak not said): energy per output token is an "
        "estimate, reading / generation rate"
    ]
    return energy.finish(TOOL, source, records, rejects, messages, None, "write-up")


TOOL = register(
    Tool(
        name=NAME,
        settings=energy.SETTINGS,
        sniff=sniff,
        parse=parse,
        description="llama-bench tables with a machine's power reading under each ('Power consumption: 241.4W', "
        "'Idle power draw: 47.7W'; geerlingguy/ai-benchmarks issues)",
        command="llama-bench -m M.gguf -n 128 -p 512,4096 -pg 4096,128 -ngl 99 (power read at the wall while it runs)",
        metrics={m: energy.METRICS[m] for m in ("power_reading", "idle_power", "output_throughput")},
    )
)
