"""SGLang `bench_offline_throughput`: one offline run of a whole dataset through the engine (no server,
no request rate), as the tool prints it in its two forms.

What the numbers are (python/sglang/bench_offline_throughput.py, `throughput_test_once`):

* the first form (Nov. 2024, sglang PR #1968): `Throughput: N tokens/s`, where N = (total input
  tokens + total output tokens) / total_latency, printed by every call, the warmup's first (2
  prompts of about 20 tokens and 4 output tokens, `run_name` warmup) and the run's last; then, when
  no `--result-filename` is given, the run's result dict as Python prints it:
  `{'run_name': 'before', 'total_input_tokens': ..., 'total_latency': ..., 'total_output_tokens':
  ..., 'throughput': ...}` (`throughput` is the same N). So of the `Throughput:` lines one command
  printed, the last is the run's and the ones above it are the warmup's; the dict's `throughput`
  repeats the line above it and is one number, not two.
* the block (Dec. 2024 on): `====== Offline Throughput Benchmark Result =======`, then `Backend:`,
  `Successful requests:`, `Benchmark duration (s):` (total_latency), `Total input tokens:`, `Total
  generated tokens:`, request, input, output and total token throughput (each a total / the
  duration), closed by a row of 50 `=`. Later versions add `Last generation throughput (tok/s):`,
  the server's last logged decode rate (`last_gen_throughput`, one moment of the run): set aside, it
  is not a rate of the run.

No form prints a batch size: the engine batches the whole dataset as it goes, so a run is one point
of offline throughput (the batch chapter's offline runs), never a batch setting. The settings are
those of the nearest `sglang.bench_offline_throughput` command above the output (`--model-path`,
`--dataset-name`, `--num-prompts`, `--backend`, `--tp-size`, `--dp-size`), and a short label alone on
the line above a block names its run; its `tp=N` / `dp=N` (the options' own names) state the run's
parallelism. Metric names are vllm-bench-offline's where the quantity is the same.
"""

from __future__ import annotations

import ast
import math
import re
import shlex

from benchbook.ingest.core import NUMBER, Parsed, ParseError, Tool, finish, register
from benchbook.ingest.launcher import untagged
from benchbook.ingest.text import Lines, contains, continued, search, split_n, whole

NAME = "sglang-bench-offline"

SETTINGS = {
    "run": "str",
    "format": "str",
    "backend": "str",
    "model": "str",
    "dataset": "str",
    "num_prompts": "float64",
    "tensor_parallel": "float64",
    "data_parallel": "float64",
}

METRICS = {
    "total_token_throughput": "tok/s: (input + output tokens) / the run's duration (the first form's `Throughput`)",
    "throughput": "tok/s: output tokens / the run's duration, the name batch_saturation reads",
    "input_throughput": "tok/s: input tokens / the run's duration",
    "request_throughput": "req/s: requests / the run's duration",
    "total_input_tokens": "tok: prompt tokens of the run",
    "total_generated_tokens": "tok: output tokens of the run",
    "duration": "s: wall time of the run's one generate() call over the whole dataset",
    "completed": "req: requests of the run",
}

#: The block's rows and the dict's keys -> (metric, statistic, unit).
ROWS = {
    "Successful requests": ("completed", "count", "req"),
    "Benchmark duration (s)": ("duration", "value", "s"),
    "Total input tokens": ("total_input_tokens", "count", "tok"),
    "Total generated tokens": ("total_generated_tokens", "count", "tok"),
    "Request throughput (req/s)": ("request_throughput", "value", "req/s"),
    "Input token throughput (tok/s)": ("input_throughput", "value", "tok/s"),
    "Output token throughput (tok/s)": ("throughput", "value", "tok/s"),
    "Total token throughput (tok/s)": ("total_token_throughput", "value", "tok/s"),
}
KEYS = {
    "total_input_tokens": ("total_input_tokens", "count", "tok"),
    "total_output_tokens": ("total_generated_tokens", "count", "tok"),
    "total_latency": ("duration", "value", "s"),
}
LAST_GEN = "the server's last logged decode rate (last_gen_throughput): one moment of the run, not its rate"
WARMUP = "the warmup's (2 short prompts, run_name warmup): printed before the run's, not a measurement"

BANNER_RE = re.compile(r"^\s*=+\s*Offline Throughput Benchmark Result\s*=+\s*$")
CLOSE_RE = re.compile(r"^\s*={10,}\s*$")
ROW_RE = re.compile(r"^\s*(?P<label>[A-Za-z][^:]*?):\s+(?P<value>\S+)\s*$")
THROUGHPUT_RE = re.compile(rf"^\s*Throughput:\s+(?P<n>{NUMBER}) tokens/s\s*$")
DICT_RE = re.compile(r"^\s*\{'run_name': .*'total_latency': .*'total_output_tokens': .*\}\s*$")
COMMAND = "sglang.bench_offline_throughput"
_LABEL_RE = re.compile(r"^\s*([^\s=#`|>{][^`|{}]{0,58}?)\s*[:：]?\s*$")
_PARALLEL_RE = re.compile(r"\b(tp|dp)\s*=\s*(\d+)\b", re.I)
_OPTIONS = {
    "model_path": "model",
    "model": "model",
    "dataset_name": "dataset",
    "num_prompts": "num_prompts",
    "backend": "backend",
    "tp_size": "tensor_parallel",
    "tp": "tensor_parallel",
    "dp_size": "data_parallel",
    "dp": "data_parallel",
}
_NUMERIC = {"num_prompts", "tensor_parallel", "data_parallel"}


def _float(v) -> float:
    try:
        return float(v)
    except (TypeError, ValueError):
        return math.nan


def _command(lines, lo: int, hi: int) -> dict:
    """The settings of the last bench_offline_throughput command in lines[lo:hi] (a trailing `\\`
    continues it)."""
    found: dict = {}
    for j in range(lo, hi):
        s = lines[j]
        if COMMAND not in s:
            continue
        s, _ = continued(lines, j, hi)
        try:
            argv = shlex.split(s[s.find(COMMAND) :], comments=True)
        except ValueError:
            argv = s.split()
        found = {}
        for i, a in enumerate(argv):
            key, eq, val = a[2:].partition("=") if a.startswith("--") else ("", "", "")
            if not eq and key:
                val = argv[i + 1] if i + 1 < len(argv) and not argv[i + 1].startswith("--") else ""
            col = _OPTIONS.get(key.replace("-", "_"))
            if col and val and col not in found:
                found[col] = _float(val) if col in _NUMERIC else val
    return found


def _own(settings: dict, lines, lo: int, hi: int) -> dict:
    """A command's settings where it is the block's: the engine answers every prompt it is handed, so a
    block's `Successful requests` is its command's `--num-prompts`; a command asking for another count
    is another run's (a warmup's `--num-prompts 64` above a 2,000-prompt block) and gives it nothing."""
    rows = [ROW_RE.match(lines[j]) for j in range(lo + 1, hi)]
    done = [_float(m.group("value")) for m in rows if m.group("label").strip() == "Successful requests"]
    asked = settings.get("num_prompts")
    return {} if done and asked is not None and not math.isnan(asked) and done[0] != asked else settings


def _label(lines, j: int, lo: int) -> str | None:
    """A short label alone on the line above a block (`Qwen-32B(dp=2, tp=4)`): the author's name for
    the run. A line of punctuation alone (the `'''` that opens a Python string around the block) names nothing."""
    if j - 1 < lo:
        return None
    m = _LABEL_RE.match(lines[j - 1])
    named = m and re.search(r"\w", m.group(1))
    return m.group(1) if named and not CLOSE_RE.match(lines[j - 1]) and COMMAND not in lines[j - 1] else None


def _runs(lines, tags) -> list[dict]:
    """Each run: its form, the line span of its print (lines of its banner's launcher tag), its label
    and its command's settings."""
    runs, prev = [], 0
    j = 0
    while j < len(lines):
        s = lines[j]
        if BANNER_RE.match(s):
            k = j + 1
            while k < len(lines) and tags[k] == tags[j] and not CLOSE_RE.match(lines[k]) and ROW_RE.match(lines[k]):
                k += 1
            label = _label(lines, j, prev)
            runs.append(dict(format="block", lo=j, hi=k, label=label, **_own(_command(lines, prev, j), lines, j, k)))
            prev = j = k + 1
            continue
        if THROUGHPUT_RE.match(s) or DICT_RE.match(s):
            k = j
            while k + 1 < len(lines) and (THROUGHPUT_RE.match(lines[k + 1]) or DICT_RE.match(lines[k + 1])):
                k += 1
                if DICT_RE.match(lines[k]):
                    break
            runs.append(dict(format="2024 print", lo=j, hi=k + 1, label=None, **_command(lines, prev, j)))
            prev = j = k + 1
            continue
        j += 1
    return runs


def _values(lines, run, rejects) -> tuple[list[dict], int, str | None]:
    """The records of one run, the numbers seen, and the dict's run_name."""
    recs, cells, name = [], 0, None
    if run["format"] == "block":
        for j in range(run["lo"] + 1, run["hi"]):
            m = ROW_RE.match(lines[j])
            label, text, ln = m.group("label").strip(), m.group("value"), j + 1
            if label == "Backend":
                run.setdefault("backend", text)
                continue
            cells += 1
            v = _float(text)
            if label == "Last generation throughput (tok/s)":
                rejects.append((ln, lines[j].strip(), LAST_GEN))
            elif label not in ROWS or math.isnan(v):
                rejects.append((ln, lines[j].strip(), "a row bench_offline_throughput does not print"))
            else:
                metric, stat, unit = ROWS[label]
                recs.append(dict(line=ln, metric=metric, statistic=stat, value=v, unit=unit))
        return recs, cells, name
    printed = [j for j in range(run["lo"], run["hi"]) if THROUGHPUT_RE.match(lines[j])]
    for j in printed[:-1]:
        cells += 1
        rejects.append((j + 1, lines[j].strip(), WARMUP))
    if printed:
        cells += 1
        v = float(THROUGHPUT_RE.match(lines[printed[-1]]).group("n"))
        recs.append(
            dict(line=printed[-1] + 1, metric="total_token_throughput", statistic="value", value=v, unit="tok/s")
        )
    for j in range(run["lo"], run["hi"]):
        if not DICT_RE.match(lines[j]):
            continue
        try:
            obj = ast.literal_eval(lines[j].strip())
        except (ValueError, SyntaxError):
            obj = None
        if not isinstance(obj, dict):
            raise ParseError(run["source"], j + 1, "expected bench_offline_throughput's result dict")
        name = str(obj.get("run_name") or "") or None
        for key, v in obj.items():
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                continue
            if key == "throughput" and printed:
                continue  # the same number as the Throughput line above it: one cell, counted there
            cells += 1
            if key == "throughput":
                recs.append(
                    dict(line=j + 1, metric="total_token_throughput", statistic="value", value=float(v), unit="tok/s")
                )
            elif key in KEYS:
                metric, stat, unit = KEYS[key]
                recs.append(dict(line=j + 1, metric=metric, statistic=stat, value=float(v), unit=unit))
            else:
                rejects.append((j + 1, f"{key}: {v}", "a key bench_offline_throughput's result has no tidy name for"))
    return recs, cells, name


def sniff(text: str | Lines) -> bool:
    if contains("Offline Throughput Benchmark Result", text):
        return any(BANNER_RE.match(s) for s in untagged(split_n(text))[0])
    lines = split_n(text)
    if any(DICT_RE.match(s) for s in lines):
        return True
    return search(re.compile(re.escape(COMMAND)), text) and any(THROUGHPUT_RE.match(s) for s in lines)


def parse(text: str | Lines, source: str) -> Parsed:
    lines, tags = untagged(split_n(whole(text).replace("\r\n", "\n").replace("\r", "\n")))
    records, rejects, cells = [], [], 0
    runs = _runs(lines, tags)
    names = []
    for run in runs:
        run["source"] = source
        recs, n, name = _values(lines, run, rejects)
        cells += n
        run["records"] = recs
        label = run["label"] or name or f"run {len(names) + 1}"
        names.append(label)
        for key, value in _PARALLEL_RE.findall(run["label"] or ""):
            run.setdefault("tensor_parallel" if key.lower() == "tp" else "data_parallel", float(value))
    # a name two runs share (the dict's default run_name `before`) is told apart by the backend, else numbered
    for i, run in enumerate(runs):
        label = names[i]
        if names.count(label) > 1:
            backends = [r.get("backend") or "engine" for r, x in zip(runs, names, strict=True) if x == label]
            own = run.get("backend") or "engine"
            label = f"{label} ({own})" if backends.count(own) == 1 else f"{label} {names[: i + 1].count(label)}"
        settings = {c: run.get(c) for c in SETTINGS if c in run}
        settings.update(run=label, format=run["format"])
        for c in _NUMERIC:
            settings.setdefault(c, math.nan)
        records.extend({**settings, **r} for r in run["records"])
    if not records and not rejects:
        raise ParseError(source, 1, "no bench_offline_throughput result ('Throughput: N tokens/s' or its result block)")
    return finish(TOOL, source, records, rejects, [], cells)


TOOL = register(
    Tool(
        name=NAME,
        settings=SETTINGS,
        sniff=sniff,
        parse=parse,
        description="SGLang `bench_offline_throughput`: the 2024 `Throughput: N tokens/s` line and result dict, and its result block",
        command="python -m sglang.bench_offline_throughput --model-path MODEL ...",
        metrics=METRICS,
    )
)
