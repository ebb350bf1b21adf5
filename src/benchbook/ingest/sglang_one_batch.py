"""SGLang `bench_one_batch` (and its older name `bench_latency`): the latency of one static batch run
through the model without a server, as the tool prints it and as it appends it to `result.jsonl`.

What the numbers are (python/sglang/bench_one_batch.py, `latency_test_run_once`):

* one run per (batch size, input length, output length) of the product of `--batch-size`,
  `--input-len` and `--output-len`, after one warmup run of the first configuration with at most 32
  output tokens. The console prints `Warmup ...` above the warmup and `Benchmark ...` above the runs:
  the warmup's lines, everything before `Benchmark ...`, are set aside (a warmup, not a measurement);
* `Prefill. latency: X s, throughput: Y token/s`: one forward pass of the whole batch's prompts,
  throughput = input_len x batch_size / latency;
* `Decode i. Batch size: B, latency: X s, throughput: Y token/s` (older releases: `Decode.  latency:`
  without the step): one decode step of the batch, throughput = batch_size / latency; the tool prints
  the first five steps only (and every `--log-decode-step`-th);
* `Decode.  median latency: X s, median throughput: Y token/s`: the median over the output_len - 1
  decode steps, throughput = batch_size / median latency;
* `Total. latency: X s, throughput: Y token/s`: prefill + every decode step, throughput =
  (input_len + output_len) x batch_size / total latency (prompt and output tokens together).

So the median decode latency is one step of the whole batch (each sequence gets one token), and the
median decode throughput is batch / that step: the batch chapter takes them as its step time and its
throughput (`analysis.one_batch`); prefill and total hold the prompt and are no decode step.

`bench_one_batch_server` (the same batch sent to a running server) prints a markdown report
(`--show-report`, and the nightly CI's shorter copy, `get_report_summary`): one row per batch size under
`| batch size | input len | latency (s) | input throughput (tok/s) | output throughput (tok/s) | ... |
ITL (ms) |`, where latency is the whole batch's request, input throughput batch x input_len / TTFT,
output throughput batch x output_len / (latency - TTFT), and ITL 1000 x batch / output throughput: the
mean decode step of the batch. Its rows are read as the console's are: ITL the step time, output
throughput the decode tok/s, input throughput the prefill's, latency the total.

The JSONL holds per run `run_name`, `batch_size`, `input_len`, `output_len`, `prefill_latency`,
`prefill_throughput`, `median_decode_latency`, `median_decode_throughput` (absent when output_len is
1), `total_latency`, `overall_throughput`. The file is appended to, so a configuration met again is a
repeat of it (`rep` counts them), never another load. The console's runs are numbered in order
(`run`); their batch size is the one the decode lines print; the input and output lengths are those
of the nearest command line above the output, where it gives one value each (in a script, the
commands that are not commented out: a commented one is not run). A console pasted into a script as
`# ` comments is read through the comment marker.
"""

from __future__ import annotations

import json
import re
import shlex

from benchbook.ingest.core import NUMBER, Parsed, ParseError, Tool, copy_ends, cut_item, finish, register
from benchbook.ingest.text import Lines, head, search, split_n, whole
from benchbook.nouns import counted

NAME = "sglang-bench-one-batch"

SETTINGS = {
    "format": "str",
    "run_name": "str",
    "run": "Int64",
    "rep": "Int64",
    "batch_size": "Int64",
    "input_len": "Int64",
    "output_len": "Int64",
    "tp": "Int64",
    "model": "str",
    "step": "Int64",
}

METRICS = {
    "prefill_latency": "s: one forward pass over the batch's prompts",
    "prefill_throughput": "tok/s: input_len x batch_size / prefill latency",
    "decode_step_latency": "s: one decode step of the whole batch (the tool prints the first five)",
    "decode_step_throughput": "tok/s: batch_size / that step's latency",
    "decode_latency": "s: median over the output_len - 1 decode steps",
    "decode_throughput": "tok/s: batch_size / median decode latency",
    "total_latency": "s: prefill + all decode steps",
    "overall_throughput": "tok/s: (input_len + output_len) x batch_size / total latency (prompt + output tokens)",
}

_N = rf"(?P<lat>{NUMBER}) s, (?:median )?throughput:\s*(?P<tput>{NUMBER}|nan|inf) token/s"
_PREFILL = re.compile(rf"^\s*Prefill\. latency:\s*{_N}\s*$")
_STEP = re.compile(rf"^\s*Decode(?: (?P<step>\d+)\. Batch size: (?P<bs>\d+),|\.) +latency:\s*{_N}\s*$")
_MEDIAN = re.compile(rf"^\s*Decode\.\s+median latency:\s*{_N}\s*$")
_TOTAL = re.compile(rf"^\s*Total\. latency:\s*{_N}\s*$")
_SKIP = re.compile(r"^\s*skipping \((\d+), (\d+), (\d+)\) due to max batch size limit")
_SNIFF = re.compile(rf"(?m)^\s*(?:#\s+)?Prefill\. latency:\s*{NUMBER} s, throughput:")
#: A shell comment marker before the tool's own lines: a console pasted into a script as comments.
_COMMENT = re.compile(r"^\s*#\s+")
_COMMAND = re.compile(r"sglang\.(?:bench_one_batch|bench_latency|benchmark\.one_batch)\b")
_JSON_KEYS = ("prefill_latency", "total_latency")
_JSON_METRICS = {
    "prefill_latency": ("prefill_latency", "s"),
    "prefill_throughput": ("prefill_throughput", "tok/s"),
    "median_decode_latency": ("decode_latency", "s"),
    "median_decode_throughput": ("decode_throughput", "tok/s"),
    "total_latency": ("total_latency", "s"),
    "overall_throughput": ("overall_throughput", "tok/s"),
}
_JSON_SETTINGS = ("run_name", "batch_size", "input_len", "output_len")
WARMUP = "the warmup run (the first configuration, at most 32 output tokens), not a measurement"


#: bench_one_batch_server's report header: its first three columns, as `get_report_summary` writes them.
_SERVER_HEADER = re.compile(r"^\s*\|\s*batch size\s*\|\s*input len\s*\|\s*latency \(s\)\s*\|", re.I)
_SERVER_HEADER_M = re.compile(_SERVER_HEADER.pattern.replace("^", "(?m)^", 1), re.I)
#: The report's columns (lower case, `tput` the CI's short form) and what each cell is.
_SERVER_COLUMNS = {
    "latency (s)": ("total_latency", "s", 1.0),
    "input throughput (tok/s)": ("prefill_throughput", "tok/s", 1.0),
    "input tput (tok/s)": ("prefill_throughput", "tok/s", 1.0),
    "output throughput (tok/s)": ("decode_throughput", "tok/s", 1.0),
    "output tput (tok/s)": ("decode_throughput", "tok/s", 1.0),
    "itl (ms)": ("decode_latency", "s", 0.001),
}


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _server_report(lines, source: str) -> Parsed:
    """Each bench_one_batch_server report table: one record per cell of `_SERVER_COLUMNS`, the
    table's rows one run each (`run` the table's number), batch size and input length from its row."""
    records, rejects, tables, i = [], [], 0, 0
    while i < len(lines):
        if not _SERVER_HEADER.match(lines[i]):
            i += 1
            continue
        tables += 1
        names = [c.lower() for c in _cells(lines[i])]
        i += 2  # the header and its `| --- |` rule
        while i < len(lines) and lines[i].lstrip().startswith("|"):
            cells = _cells(lines[i])
            row = dict(zip(names, cells, strict=False))
            try:
                base = dict(format="server_report", run=tables, batch_size=int(row["batch size"]))
                base["input_len"] = int(row["input len"])
            except (KeyError, ValueError):
                rejects.append(
                    (i + 1, lines[i].strip()[:60], "a report row without a whole batch size and input length")
                )
                i += 1
                continue
            for name, (metric, unit, scale) in _SERVER_COLUMNS.items():
                if name in row:
                    try:
                        value = float(row[name]) * scale
                    except ValueError:
                        rejects.append((i + 1, f"{name} {row[name]}"[:60], "not a number"))
                        continue
                    rec = dict(base, line=i + 1, metric=metric, statistic="mean", value=value, unit=unit)
                    if scale != 1.0:  # the report's ITL is in ms, the step kept in s
                        rec["note"] = f"printed {row[name]} ms"
                    records.append(rec)
            i += 1
    return finish(TOOL, source, records, rejects, [], empty="no bench_one_batch_server report row found")


def _is_jsonl(text: str | Lines) -> bool:
    first = next((s for s in split_n(head(text, 4000)) if s.strip()), "").strip()
    return first.startswith("{") and all(f'"{k}"' in first for k in (*_JSON_KEYS, "run_name"))


#: A result line as `--result-filename` appends it (`json.dumps` of the run's dict, `run_name` first),
#: pasted into a write-up under its command: read where it stands (`_embedded`).
_RESULT_LINE = re.compile(r'^\s*\{\s*"run_name"\s*:')
_WHOLE_RESULT = re.compile(rf'(?m)^\s*\{{\s*"run_name"\s*:.*"{_JSON_KEYS[0]}"\s*:.*\}}\s*$')


def _embedded(text: str | Lines) -> bool:
    """Whether result lines of the JSONL stand inside other text (a PR comment's fence under the command
    that wrote them), at least one of them whole: they are read, the text around them is the write-up's."""
    return not _is_jsonl(text) and bool(search(_WHOLE_RESULT, text))


def _is_console(text: str | Lines) -> bool:
    return bool(search(_SNIFF, text) and search(re.compile(r"(?m)^\s*(?:#\s+)?Total\. latency:"), text))


def sniff(text: str | Lines) -> bool:
    return _is_jsonl(text) or _is_console(text) or bool(search(_SERVER_HEADER_M, text)) or _embedded(text)


def parse(text: str | Lines, source: str) -> Parsed:
    if _is_jsonl(text):
        return _jsonl(split_n(text), source)
    if not _is_console(text) and not search(_SERVER_HEADER_M, text) and _embedded(text):
        return _jsonl(split_n(whole(text)), source, embedded=True)
    if not _is_console(text) and search(_SERVER_HEADER_M, text):
        return _server_report(split_n(whole(text)), source)
    return _console(split_n(whole(text)), source)


def _jsonl(lines, source: str, embedded: bool = False) -> Parsed:
    """The result lines; `embedded`: only the lines that are result lines (`_RESULT_LINE`) of a text that
    holds others, the one the copy ends inside (the file's last line, not whole JSON) set aside, named."""
    records, rejects, seen, cut = [], [], {}, None
    for i, raw in enumerate(lines, start=1):
        s = raw.strip()
        if not s or (embedded and not _RESULT_LINE.match(s)):
            continue
        try:
            obj = json.loads(s)
        except json.JSONDecodeError as exc:
            if embedded and copy_ends(lines, i - 1):
                rejects.append(cut_item(i - 1, raw))
                cut = i
                continue
            raise ParseError(source, i, f"not a JSON object per line ({exc.msg})") from None
        if not isinstance(obj, dict) or not all(k in obj for k in _JSON_SETTINGS):
            raise ParseError(source, i, f"expected a bench_one_batch result with {', '.join(_JSON_SETTINGS)}")
        key = tuple(obj.get(k) for k in _JSON_SETTINGS)
        seen[key] = seen.get(key, 0) + 1
        base = dict(
            format="jsonl",
            run_name=str(obj["run_name"]),
            rep=seen[key],
            **{k: _int(obj.get(k), source, i, k) for k in _JSON_SETTINGS[1:]},
        )
        for k, v in obj.items():
            if k in _JSON_SETTINGS:
                continue
            if v is None:
                continue
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                rejects.append((i, f"{k}: {v}"[:80], "not a number"))
                continue
            if k not in _JSON_METRICS:
                rejects.append((i, f"{k}: {v}", f"key {k!r} is not a bench_one_batch measurement"))
                continue
            metric, unit = _JSON_METRICS[k]
            records.append(dict(base, line=i, metric=metric, statistic=_stat(metric), value=float(v), unit=unit))
    messages = []
    if cut is not None:
        messages.append(
            f"{source}:{cut}: the copy ends inside a result line, at line {cut}: it is not read, and the result "
            "lines the tool wrote after it are not in the file"
        )
    repeated = sum(n - 1 for n in seen.values())
    if repeated:
        messages.append(
            f"{source}: {counted(repeated, 'result line')} {'repeats' if repeated == 1 else 'repeat'} a configuration already run: repeats, not loads"
        )
    return finish(TOOL, source, records, rejects, messages, empty="no bench_one_batch result line found")


def _int(v, source: str, line: int, key: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise ParseError(source, line, f"{key} is not a whole number: {v!r}")
    return v


def _stat(metric: str) -> str:
    return "median" if metric in ("decode_latency", "decode_throughput") else "value"


def _commands(lines) -> list[tuple[int, dict]]:
    """(line index, settings) of each bench_one_batch command line (wrapped with `\\` or not): model,
    TP, and the lengths and batch size when each has one value. The output a command printed comes
    after it, so an output's settings are those of the nearest command above it."""
    found = []
    for i, raw in enumerate(lines):
        if not _COMMAND.search(raw):
            continue
        parts = [raw.rstrip().rstrip("\\")]
        k = i
        while raw.rstrip().endswith("\\") and k + 1 < len(lines):
            k += 1
            raw = lines[k]
            parts.append(raw.rstrip().rstrip("\\"))
        try:
            words = shlex.split(" ".join(parts), comments=False)
        except ValueError:
            words = " ".join(parts).split()
        out: dict = {}
        for j, w in enumerate(words):
            name, _, inline = w.partition("=")
            values = [inline] if inline else []
            for x in words[j + 1 :]:
                if inline or x.startswith("-"):
                    break
                values.append(x)
            if name in ("--model-path", "--model") and values:
                out["model"] = values[0]
            elif name in ("--tp-size", "--tp", "--tensor-parallel-size") and values and values[0].isdigit():
                out["tp"] = int(values[0])
            elif name in ("--batch-size", "--batch") and len(values) == 1 and values[0].isdigit():
                out["batch_size"] = int(values[0])
            elif name in ("--input-len", "--input") and len(values) == 1 and values[0].isdigit():
                out["input_len"] = int(values[0])
            elif name in ("--output-len", "--output") and len(values) == 1 and values[0].isdigit():
                out["output_len"] = int(values[0])
        found.append((i, out))
    # in a shell script a commented-out command is not run: where one command is not commented, only
    # those ran (the others are alternatives or templates); with every command commented, all count
    ran = [(i, out) for i, out in found if not lines[i].lstrip().startswith("#")]
    return ran or found


_FENCE = re.compile(r"^\s*(```|~~~)")


def _caption(lines, at: int, after: int) -> str | None:
    """The caption a write-up puts above the code block that holds line index `at` ("Default triton
    backend:", "Rec unroll" above one command's output printed once per kernel): the nearest non-blank
    line above the block's opening fence, below the command (`after`), when it is a short line of
    words, neither a fence nor a command. None where the output is not in a fenced block; a caption
    names runs only where the runs' captions differ (`_console`)."""
    j = at - 1
    while j > after and not _FENCE.match(lines[j]):
        j -= 1
    if j <= after:
        return None
    j -= 1
    while j > after and not lines[j].strip():
        j -= 1
    text = lines[j].strip().strip("*#").strip().rstrip(":").strip() if j > after else ""
    if not text or len(text) > 60 or _FENCE.match(lines[j]) or _COMMAND.search(text):
        return None
    return text


def _uncommented(raw: str) -> str:
    """The line without a leading shell comment marker (`# Prefill. latency: ...`: the console pasted
    into a script as comments), stripped; the tool's own patterns decide what it holds."""
    return _COMMENT.sub("", raw, count=1).strip()


def _console(lines, source: str) -> Parsed:
    commands = _commands(lines)
    records, rejects, messages = [], [], []
    # the tool prints `Warmup ...`, the warmup run, then `Benchmark ...`: what comes before either
    # marker is the warmup (a note may keep `Benchmark ...` only); with neither, all is measured
    phase = "benchmark" if not any(_uncommented(s) in ("Warmup ...", "Benchmark ...") for s in lines) else None
    run, open_run, caption, last = 0, [], None, -1  # last: the index of the latest result line read
    for i, raw in enumerate(lines, start=1):
        s = _uncommented(raw)
        command = next((c for at, c in reversed(commands) if at < i - 1), {})
        if s == "Warmup ...":
            phase = "warmup"
            continue
        if s == "Benchmark ...":
            phase = "benchmark"
            continue
        m = _PREFILL.match(s) or _STEP.match(s) or _MEDIAN.match(s) or _TOTAL.match(s)
        if not m:
            if _SKIP.match(s):
                messages.append(f"{source}:{i}: {s}")
            continue
        if phase != "benchmark":
            rejects += [(i, f"{s[:40]} {m['lat']}", WARMUP), (i, f"{s[:40]} {m['tput']}", WARMUP)]
            continue
        if m.re is _PREFILL:
            run += 1
            open_run = []
            after = next((at for at, _ in reversed(commands) if at < i - 1), -1)
            caption = _caption(lines, i - 1, max(after, last))
        if run == 0:
            raise ParseError(source, i, "a decode or total line before any 'Prefill.' line")
        if m.re is _PREFILL:
            pair = ("prefill_latency", "prefill_throughput", "value", None)
        elif m.re is _STEP:
            # older releases print no step number: the steps are the run's decode lines in order
            step = int(m["step"]) if m["step"] else sum(r["metric"] == "decode_step_latency" for r in open_run)
            pair = ("decode_step_latency", "decode_step_throughput", "value", step)
        elif m.re is _MEDIAN:
            pair = ("decode_latency", "decode_throughput", "median", None)
        else:
            pair = ("total_latency", "overall_throughput", "value", None)
        if m.re is _STEP and m["bs"]:  # the batch the tool ran, over the command's
            for r in open_run:
                r["batch_size"] = int(m["bs"])
        printed = [r["batch_size"] for r in open_run if r.get("batch_size") is not None]
        base = dict(format="console", run=run, step=pair[3], **command)
        if caption:  # the write-up's label of this run: a configuration of its own
            base["run_name"] = caption
        if m.re is _STEP and m["bs"]:
            base["batch_size"] = int(m["bs"])
        elif printed:
            base["batch_size"] = printed[-1]
        for metric, value, unit in ((pair[0], m["lat"], "s"), (pair[1], m["tput"], "tok/s")):
            rec = dict(base, line=i, metric=metric, statistic=pair[2], value=float(value), unit=unit)
            records.append(rec)
            open_run.append(rec)
        last = i - 1
    if len({r.get("run_name") for r in records} - {None}) < 2:  # one caption over every run tells none apart
        for r in records:
            r.pop("run_name", None)
    if phase is None and not records:
        messages.append(f"{source}: only the warmup run was printed (no 'Benchmark ...' line)")
    return finish(TOOL, source, records, rejects, messages, empty="no bench_one_batch 'Prefill. latency' line found")


#: A Prefill or Decode line of any release, its unit as printed: the first bench_latency (PR #564) labels
#: its `time.time()` differences `ms` and prints neither a median nor a `Total.` line.
_ANY_STEP = re.compile(
    rf"^\s*(?:#\s+)?(?P<kind>Prefill|Decode)\.\s+latency:\s*(?P<lat>{NUMBER}) (?P<unit>m?s), "
    rf"throughput:\s*(?P<tput>{NUMBER}) token/s\s*$"
)
#: The frame SGLang's per-forward-pass benchmark prints (SGLANG_FINE_GRAINED_BENCHMARK_DIR, PR #4666):
#: one row per forward pass, its ForwardMode (EXTEND, DECODE, ...) first.
_FORWARD_FRAME = re.compile(r"^\s*forward_mode\s+(?=.*\bthroughput\b)(?=.*\blatency\b)(?=.*\bbatch_size\b)")


def refuses(text: str | Lines) -> tuple[int, str] | None:
    """(line, why) of console lines with no decode step the batch chapter reads (no `Decode. median`,
    average or `Total.` line: each `Decode.` line is one step, and the tool prints only the first five),
    or of the per-forward-pass frame, else None (`Tool.refuses`)."""
    lines = split_n(text)
    for i, raw in enumerate(lines):
        if _FORWARD_FRAME.match(raw):
            rows = sum(1 for s in lines[i + 1 :] if re.match(r"^\d+\s+[A-Z_]+\s", s))
            return i + 1, (
                f"SGLang's per-forward-pass frame (forward_mode, throughput, latency, batch_size; {counted(rows, 'row')}), "
                "each row one forward pass of a server's scheduler, not a batch's median decode step; not read"
            )
    steps = [(i, m) for i, s in enumerate(lines) if (m := _ANY_STEP.match(s))]
    if not steps or any(re.search(r"(median|avg) latency:|^\s*(?:#\s+)?Total\. latency:", s) for s in lines):
        return None
    unit = ""
    decode = next(((k, d) for k, d in steps if d["kind"] == "Decode" and d["unit"] == "ms"), None)
    if decode and (made := float(decode[1]["lat"]) * float(decode[1]["tput"])) >= 0.9:
        # a decode step makes a token for each sequence: read in ms this one would make a thousandth of that
        unit = (
            f"; its latencies labelled ms are seconds (line {decode[0] + 1}: {decode[1]['lat']} x "
            f"{decode[1]['tput']} token/s = {made:.1f} token per step in seconds, {made / 1000:.3f} in ms)"
        )
    return steps[0][0] + 1, (
        f"SGLang bench_latency's per-step lines ({counted(len(steps), 'Prefill or Decode line')}) with no median, "
        f"average or 'Total.' line{unit}: no median decode step, the batch chapter's step, to read; not read"
    )


TOOL = register(
    Tool(
        name=NAME,
        settings=SETTINGS,
        sniff=sniff,
        parse=parse,
        description="SGLang bench_one_batch (bench_latency): the console's Prefill/Decode/Total lines and the "
        "result.jsonl lines (one static batch, no server)",
        command="python -m sglang.bench_one_batch --model-path MODEL --batch-size B --input-len I --output-len O",
        metrics=METRICS,
        screen_repeats=True,
        refuses=refuses,
    )
)
