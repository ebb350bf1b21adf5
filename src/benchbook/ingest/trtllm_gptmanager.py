"""TensorRT-LLM's C++ `gptManagerBenchmark` (benchmarks/cpp, before `trtllm-bench` replaced it): the
`[BENCHMARK]` lines its `Recorder::report()` prints, one value a line, read into the serving contract of
vllm-bench-serve (so serving_saturation reads them like any serving tool).

    [BENCHMARK] num_samples 500
    [BENCHMARK] num_error_samples 0

    [BENCHMARK] num_samples 500
    [BENCHMARK] total_latency(ms) 52372.21
    [BENCHMARK] seq_throughput(seq/sec) 9.55
    [BENCHMARK] token_throughput(token/sec) 2870.80

    [BENCHMARK] avg_sequence_latency(ms) 2755.07
    [BENCHMARK] p99_sequence_latency(ms) 3108.04

What the numbers are (`Recorder::calculateMetrics`): `num_samples` counts the requests that ended
without an error, `num_error_samples` those with one; `total_latency` runs from the first request's
start to the last one's end; `seq_throughput` = successful requests / total latency;
`token_throughput` = their output tokens / total latency; a `sequence_latency` is one request's end
minus its start (avg, max, min and the nearest-rank p99, p90, p50 of the successful ones). With
`--streaming` it adds `time_to_first_token` and `inter_token_latency` (per request (end - first
token) / (output tokens - 1), vLLM's TPOT); versions with speculative decoding print
`avg_acceptance_rate` (tokens per decoding step). The first `num_samples` is printed again above
`total_latency`: the repeat is set aside naming the line it repeats.

Mapping: num_samples -> completed, num_error_samples -> failed, total_latency -> duration (in s),
seq_throughput -> request_throughput, token_throughput -> output_throughput, sequence_latency ->
e2el, time_to_first_token -> ttft, inter_token_latency -> tpot. A new run starts at a
`num_samples` line once the run before it has printed its total latency (a log of several runs,
or of several processes started together). Settings come from the `gptManagerBenchmark` command
above a run (shell continuation lines joined): `--request_rate` ("Skipping this arg or negative value
will trigger offline/0-delay", its --help: every request at once, an unlimited rate), `--concurrency`,
`--max_num_samples`; the whole command
is kept in `metadata`. Outputs printed one after another with no command between them came from
the command above the first (a shell loop, or several processes started together; only rank 0 of an
MPI world reports): they keep its settings and are its processes, `L, process N`, repeats of one load
(`analysis.serving.PROCESS_RE`), never configurations. The engine directory names no model the tool prints, so `model` stays empty.

The one-line form of the C++ `gptSessionBenchmark` and of `benchmarks/python/benchmark.py`
(`[BENCHMARK] batch_size 1 input_length 1024 ... latency(ms) 2561.35 tokensPerSec 49.97 ...`) times
one static batch's generate() call: `ingest.trtllm_static` reads a file of those lines; beside a
gptManagerBenchmark run here it is set aside naming its line.
"""

from __future__ import annotations

import math
import re

from benchbook.ingest.core import Parsed, ParseError, Tool, finish, register
from benchbook.ingest.serving_settings import SETTINGS as CONTRACT
from benchbook.ingest.serving_settings import run_settings
from benchbook.ingest.text import Lines, last_command, split_n

NAME = "trtllm-gptmanager"

SETTINGS = dict(CONTRACT)

#: `[BENCHMARK] key value` with one value: the form `Recorder::report()` prints.
LINE_RE = re.compile(r"^\s*\[BENCHMARK\]\s+(?P<key>[a-z0-9_]+(?:\([^)]*\))?)\s+(?P<value>-?[\d.]+(?:e[+-]?\d+)?)\s*$")
#: The one-line form (gptSessionBenchmark, benchmark.py): several `key value` pairs on one line.
PAIRS_RE = re.compile(r"\[BENCHMARK\]\s+\*{0,2}(?:model_name|batch_size)\s+\S+\s+\S+\s+\S+")
COMMAND_RE = re.compile(r"gptManagerBenchmark\b")
#: The label of a file's only run.
NAME_OF_RUN = "gptManagerBenchmark"
#: Why the one-line form beside a gptManagerBenchmark run is not read with it (a run of it is one static
#: batch's generate() call, not a serving run).
ONE_LINE = (
    "a TensorRT-LLM gptSessionBenchmark or benchmark.py '[BENCHMARK] ...' line beside a gptManagerBenchmark run: "
    "one static batch's generate() call, which trtllm-static-batch reads from a file without such a run"
)

#: key -> (metric, statistic, unit); keys whose statistic is in their name are matched below.
KEYS = {
    "num_samples": ("completed", "count", "req"),
    "num_samples(ms)": ("completed", "count", "req"),  # an older printf's label typo for the same count
    "num_error_samples": ("failed", "count", "req"),
    "total_latency(ms)": ("duration", "value", "s"),
    "seq_throughput(seq/sec)": ("request_throughput", "value", "req/s"),
    "token_throughput(token/sec)": ("output_throughput", "value", "tok/s"),
}
STAT_RE = re.compile(
    r"^(?P<s>avg|max|min|p\d+)_(?P<what>sequence_latency|time_to_first_token|inter_token_latency)\(ms\)$"
)
WHAT = {"sequence_latency": "e2el", "time_to_first_token": "ttft", "inter_token_latency": "tpot"}
STATISTIC = {"avg": "mean", "max": "max", "min": "min"}

METRICS = {
    "completed": "req: requests that ended without an error (`num_samples`)",
    "failed": "req: requests that ended with an error (`num_error_samples`)",
    "duration": "s: first request's start to last request's end (`total_latency(ms)` / 1000)",
    "request_throughput": "req/s: successful requests / total latency (`seq_throughput`)",
    "output_throughput": "tok/s: output tokens of the successful requests / total latency (`token_throughput`)",
    "e2el": "ms: one request's end minus its start (`sequence_latency`)",
    "ttft": "ms: time to the first token (`time_to_first_token`, --streaming)",
    "tpot": "ms: per request (end - first token) / (output tokens - 1) (`inter_token_latency`, --streaming)",
}


def _command(lines: list[str], lo: int, hi: int) -> str | None:
    """The last `gptManagerBenchmark ...` command in lines[lo:hi], continuation lines joined."""
    return last_command(lines, lo, hi, lambda s: bool(COMMAND_RE.search(s)) and not s.startswith("[BENCHMARK]"))


def _option(cmd: str, name: str) -> float:
    m = re.search(rf"(?:^|\s){re.escape(name)}(?:\s+|=)(-?[\d.]+)(?!\S)", cmd or "")
    return float(m.group(1)) if m else math.nan


def settings(cmd: str | None, run: str) -> dict:
    """The run's settings from its command line (NaN where it names none)."""
    rate = _option(cmd, "--request_rate")
    if cmd and rate != rate:
        rate = -1.0  # "Skipping this arg or negative value will trigger offline/0-delay" (its --help)
    return run_settings(
        run,
        "[BENCHMARK] lines" if cmd is None else "[BENCHMARK] lines under their command",
        num_prompts=_option(cmd, "--max_num_samples"),
        request_rate=math.inf if rate < 0 else rate,  # -1, the default: every request at once
        max_concurrency=_option(cmd, "--concurrency"),
        metadata=f"cli_command={cmd}" if cmd else None,
    )


def _runs(lines: list[str]) -> list[list[tuple[int, str, float]]]:
    """The (line index, key, value) of each run's `[BENCHMARK]` lines, in order."""
    runs: list[list[tuple[int, str, float]]] = []
    for i, line in enumerate(lines):
        if not (m := LINE_RE.match(line)):
            continue
        key, value = m["key"], float(m["value"])
        if not runs or (key.startswith("num_samples") and any(k == "total_latency(ms)" for _, k, _ in runs[-1])):
            runs.append([])
        runs[-1].append((i, key, value))
    return runs


def _labelled(lines: list[str], runs: list) -> list[tuple[str, str | None, list]]:
    """(run label, command, lines) of each output. Outputs printed one after another with no command
    between them came from the command above the first (a loop, or several processes started at once:
    only rank 0 of an MPI world reports, so each output is one process): they keep its settings and
    its label, `L, process N`, the processes of one run (repeats of its load), never configurations.
    Outputs with no command above them are each their own run."""
    groups: list[tuple[str | None, list]] = []
    prev = 0
    for run in runs:
        cmd = _command(lines, prev, run[0][0])
        if cmd is None and groups and groups[-1][0] is not None:
            groups[-1][1].append(run)
        else:
            groups.append((cmd, [run]))
        prev = run[-1][0] + 1
    out = []
    for g, (cmd, outs) in enumerate(groups, 1):
        label = f"run {g}" if len(groups) > 1 else NAME_OF_RUN
        out += [(f"{label}, process {j}" if len(outs) > 1 else label, cmd, run) for j, run in enumerate(outs, 1)]
    return out


def parse(text: str | Lines, source: str) -> Parsed:
    lines = split_n(text)
    runs = _runs(lines)
    if not runs:
        raise ParseError(source, 1, "no gptManagerBenchmark '[BENCHMARK] num_samples N' lines found")
    records, rejects = [], []
    for label, cmd, run in _labelled(lines, runs):
        base = settings(cmd, label)
        seen: dict[str, int] = {}
        for i, key, value in run:
            ln = i + 1
            text = lines[i].strip()
            if key in KEYS:
                metric, stat, unit = KEYS[key]
                if metric in seen:
                    rejects.append((ln, text, f"the tool prints {key} again: a repeat of line {seen[metric]}"))
                    continue
                seen[metric] = ln
                v = value / 1000.0 if key == "total_latency(ms)" else value
                note = "total_latency(ms) / 1000" if key == "total_latency(ms)" else None
                records.append(
                    {**base, "line": ln, "metric": metric, "statistic": stat, "value": v, "unit": unit, "note": note}
                )
            elif st := STAT_RE.match(key):
                stat = STATISTIC.get(st["s"], st["s"])
                records.append(
                    {**base, "line": ln, "metric": WHAT[st["what"]], "statistic": stat, "value": value}
                    | {"unit": "ms", "note": None}
                )
            else:
                rejects.append((ln, text, f"'{key}' is no metric of the serving contract"))
    for i, line in enumerate(lines):  # the other form beside a run is set aside, not dropped unsaid
        if PAIRS_RE.search(line):
            rejects.append((i + 1, line.strip()[:80], ONE_LINE))
    return finish(TOOL, source, records, rejects, [], None, "gptManagerBenchmark")


def sniff(text: str | Lines) -> bool:
    return any(LINE_RE.match(s) and "num_samples" in s for s in split_n(text))


TOOL = register(
    Tool(
        name=NAME,
        settings=SETTINGS,
        sniff=sniff,
        parse=parse,
        description="TensorRT-LLM gptManagerBenchmark: its '[BENCHMARK] key value' lines",
        command="gptManagerBenchmark --engine_dir ENGINE --dataset DATA.json [--request_rate R] [--concurrency C]",
        metrics=METRICS,
    )
)
