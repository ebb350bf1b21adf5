"""The power summary `--record-power` adds to a serving benchmark's result (SGLang `bench_serving`,
sglang PR #21034; `vllm bench serve`, vllm PR #38647; the same code in both), in the energy contract.

What the numbers are (the PRs' `power.py`): a background thread samples, every 5 s by default, the
summed power of the server's GPUs (amdsmi `socket_power` of each visible device) and of the CPU
sockets. Printed under `GPU Power (all devices)`: the 25th percentile, mean, median and 75th
percentile of those totals, the median divided by the number of GPUs (`Median Power (per-GPU W)`),
and the number of samples; the same for the CPU under `CPU Power (all sockets)` (`None` where no
CPU socket could be read). The `Power summary` divides the run's token throughputs by the median
power: `Output toks/joule (GPU)` and, later named `Output tokens/(CPU + GPU median W)`, by the GPU
and CPU medians summed.

Kept: the mean total GPU power (scope GPU only) and CPU power (CPU only), the output tokens per
joule the tool printed (GPU, or GPU + CPU), and the output throughput of the result block above the
power block (the serving parsers read the rest of it). The GPU count is the median total over the
per-GPU median, where that is a whole number. Percentiles and medians are set aside with the
reason (the chapter reads the mean), as are input and total tokens per joule (not in the contract).

Refused by name (`refuses`): the output of club-3090's `scripts/power-cap-sweep.sh` (noonghunna/club-3090),
a neighbour of this summary. Per cap set with `nvidia-smi -pl` on every GPU of the sweep it prints
`[result] cap=330W actual_W=617.78 ... narr=29.07 code=29.07 tps_per_w=0.047`: `actual_W` the median of
0.5 s samples under load, each the draw summed over the capped GPUs; `narr` / `code` the rate of one
prompt each (tokens over a wall time). The power-cap chapter reads caps from llama-bench headings only
and the energy contract carries no cap, so a sweep's pages would say no run had a stated limit: it is not
read. Where every rate is 0.00 the script counted no token at any cap (club-3090 issue 104): a failed
run, no measurement, and the refusal says so.
"""

from __future__ import annotations

import re

from benchbook.ingest import energy
from benchbook.ingest.core import NUMBER, Parsed, ParseError, Tool, register
from benchbook.ingest.text import Lines, search, split_n, whole
from benchbook.nouns import counted

NAME = "serving-power"

_GPU_HEAD = re.compile(r"^\s*-+\s*GPU Power \(all devices\)\s*-+\s*$")
_CPU_HEAD = re.compile(r"^\s*-+\s*CPU Power \(all sockets\)\s*-+\s*$")
_SUMMARY_HEAD = re.compile(r"^\s*-+\s*Power summary\s*-+\s*$")
_LINE = re.compile(rf"^\s*(?P<label>[^:]+?):\s+(?P<value>{NUMBER}|None)\s*$")
_SNIFF = re.compile(r"(?m)^\s*-+\s*GPU Power \(all devices\)\s*-+\s*$")
_SWEEP_RESULT = re.compile(
    rf"^\s*\[result\]\s+cap=(?P<cap>{NUMBER})W\s+actual_W=\S+\s.*\bnarr=(?P<narr>\S+)\s+code=(?P<code>\S+)"
)
_THROUGHPUT = re.compile(rf"^\s*Output token throughput \(tok/s\):\s+(?P<value>{NUMBER})\s*$")
#: Whole-number tolerance of median total / per-GPU median, the GPU count (both printed to 0.01 W).
_COUNT_TOLERANCE = 0.01

#: Label -> (metric, unit, scope, statistic) of what is kept; other labels of a block are set aside.
_KEPT = {
    ("gpu", "Mean Total Power (total W)"): ("mean_power", "W", "gpu", "mean"),
    ("cpu", "CPU Mean Total Power (W)"): ("mean_power", "W", "cpu", "mean"),
    ("summary", "Output toks/joule (GPU)"): ("tokens_per_joule", "tok/J", "gpu", "value"),
    ("summary", "Output toks/joule (CPU + GPU)"): ("tokens_per_joule", "tok/J", "gpu+cpu", "value"),
    ("summary", "Output tokens/(CPU + GPU median W)"): ("tokens_per_joule", "tok/J", "gpu+cpu", "value"),
}
_COUNTS = {"Power samples", "CPU Power samples"}
MEDIAN_NOTE = "output tok/s / the median power, as the tool computed it"


def is_heading(line: str) -> bool:
    """Whether a line heads one of the power sections (the serving parsers leave them to this tool)."""
    return any(r.match(line) for r in (_GPU_HEAD, _CPU_HEAD, _SUMMARY_HEAD))


def sniff(text: str | Lines) -> bool:
    return search(_SNIFF, text)


def refuses(text: str | Lines) -> tuple[int, str] | None:
    """(line, why) of the first `[result] cap=` line of a club-3090 power-cap sweep, else None (`Tool.refuses`)."""
    found = [(i, m) for i, raw in enumerate(split_n(whole(text)), start=1) if (m := _SWEEP_RESULT.match(raw))]
    if not found:
        return None
    rates = [float(v) for _, m in found for v in (m["narr"], m["code"]) if re.fullmatch(NUMBER, v)]
    if rates and not any(rates):
        why = (
            "every narr and code rate is 0.00: the sweep counted no token at any cap, a failed run with no measurement"
        )
    else:
        why = (
            "a decode rate per power cap set on each GPU, beside the median power summed over those GPUs; the "
            "energy chapter takes power caps from llama-bench headings only, so a sweep is not read"
        )
    return found[0][0], f"club-3090's power-cap-sweep.sh output: {why}"


def _blocks(lines) -> list[tuple[int, str, list[tuple[int, str, str]]]]:
    """(heading line, section, [(line, label, value)]) of each power section, in order."""
    out, current = [], None
    for i, raw in enumerate(lines, start=1):
        s = raw.rstrip("\r")
        head = (
            "gpu"
            if _GPU_HEAD.match(s)
            else "cpu"
            if _CPU_HEAD.match(s)
            else "summary"
            if _SUMMARY_HEAD.match(s)
            else None
        )
        if head:
            current = (i, head, [])
            out.append(current)
            continue
        m = _LINE.match(s)
        if current is not None and m:
            current[2].append((i, m["label"].strip(), m["value"]))
        elif current is not None and s.strip():
            current = None  # the section ended at a line of another kind
    return out


def parse(text: str | Lines, source: str) -> Parsed:
    lines = split_n(whole(text))
    blocks = _blocks(lines)
    if not blocks:
        raise ParseError(source, 1, "no '--- GPU Power (all devices) ---' block found")
    records, rejects, messages, cells = [], [], [], 0
    runs = [b for b in blocks if b[1] == "gpu"]
    for k, (start, _, _) in enumerate(runs):
        end = runs[k + 1][0] if k + 1 < len(runs) else len(lines) + 1
        mine = [b for b in blocks if start <= b[0] < end]
        values = {(sec, label): (ln, v) for _, sec, rows in mine for ln, label, v in rows}
        count = _gpu_count(values)
        base = dict(
            run=f"power block at line {start}" if len(runs) > 1 else "run",
            model=None,
            device=None,
            device_count=count,
            backend=None,
            batch_size=None,
            request_rate=None,
            interval="run",
            precision=None,
        )
        samples = {sec: v for (sec, label), (_, v) in values.items() if label in _COUNTS}
        for (sec, label), (ln, raw) in values.items():
            if label in _COUNTS:
                continue
            if raw == "None":
                messages.append(f"{source}:{ln}: {label} not recorded (None): the tool read no CPU socket")
                continue
            cells += 1
            kept = _KEPT.get((sec, label))
            if kept is None:
                why = (
                    "input or prompt + output tokens per joule: not in the energy contract"
                    if sec == "summary"
                    else "a percentile or median of the power samples; the mean is kept"
                )
                rejects.append((ln, f"{label}: {raw}", why))
                continue
            metric, unit, scope, stat = kept
            n = samples.get(sec if sec != "summary" else "gpu")
            note = (
                MEDIAN_NOTE
                if metric == "tokens_per_joule"
                else f"sum over the {'GPUs' if scope == 'gpu' else 'CPU sockets'}, mean of {counted(n, 'sample') if n is not None else 'its samples'} (one per 5 s by default)"
            )
            records.append(
                dict(base, scope=scope, line=ln, metric=metric, statistic=stat, value=float(raw), unit=unit, note=note)
            )
        rate = _throughput_above(lines, start, runs[k - 1][0] if k else 0)
        if rate is not None:
            cells += 1
            records.append(
                dict(
                    base,
                    scope=None,
                    line=rate[0],
                    metric="output_throughput",
                    statistic="value",
                    value=rate[1],
                    unit="tok/s",
                )
                | {"note": "the result block's output token throughput"}
            )
        n = samples.get("gpu")
        if n is not None and float(n) < 3:
            messages.append(
                f"{source}:{start}: the GPU power figures rest on {counted(n, 'sample')} only (one per 5 s by default)"
            )
    return energy.finish(TOOL, source, records, rejects, messages, cells, "--record-power summary")


def _gpu_count(values: dict) -> float | None:
    """The GPUs summed: median total / per-GPU median, where that is a whole number."""
    total = values.get(("gpu", "Median Total Power (total W)"))
    per = values.get(("gpu", "Median Power (per-GPU W)"))
    if not total or not per or per[1] == "None" or total[1] == "None" or float(per[1]) <= 0:
        return None
    ratio = float(total[1]) / float(per[1])
    return float(round(ratio)) if round(ratio) >= 1 and abs(ratio - round(ratio)) <= _COUNT_TOLERANCE * ratio else None


def _throughput_above(lines, start: int, previous: int) -> tuple[int, float] | None:
    """The `Output token throughput (tok/s)` line between the previous power block and this one."""
    for i in range(start - 1, previous, -1):
        m = _THROUGHPUT.match(lines[i - 1].rstrip("\r"))
        if m:
            return i, float(m["value"])
    return None


TOOL = register(
    Tool(
        name=NAME,
        settings=energy.SETTINGS,
        sniff=sniff,
        parse=parse,
        description="the power summary of SGLang bench_serving / vllm bench serve --record-power (GPU and CPU "
        "power sampled during the run, output tokens per joule)",
        command="python -m sglang.bench_serving ... --record-power (or vllm bench serve ... --record-power)",
        metrics={m: energy.METRICS[m] for m in ("mean_power", "tokens_per_joule", "output_throughput")},
        refuses=refuses,
    )
)
