"""vLLM offline benchmarks: `vllm bench throughput` / `benchmarks/benchmark_throughput.py` and
`vllm bench latency` / `benchmarks/benchmark_latency.py`.

Two forms are read:

* the lines the tools print, wherever they stand in a log or a write-up:
  `Throughput: 5.35 requests/s, 2735.50 total tokens/s, 1369.41 output tokens/s` (since vLLM PR
  #8914, Sept. 2024; before it `Throughput: 81.74 requests/s, 20926.37 tokens/s`, whose tokens/s
  counted prompt + output tokens), the optional `Total num prompt tokens:` / `Total num output
  tokens:` lines after it, and `Avg latency: X seconds` followed by `N% percentile latency: X
  seconds` lines. Where a run's copy keeps no `Throughput:` line, the speeds of `LLM.generate`'s
  progress bar (`est. speed input: X toks/s, output: Y toks/s`, vllm/entrypoints/llm.py
  `_run_engine`: the prompt and output tokens of the requests finished so far over the bar's elapsed
  time) are read as its result at the bar's end (100 %, or no percent copied), noted as the bar's;
  a bar a `Throughput:` line follows is no result (that line is), and of a bar's updates with
  nothing between them only the last is. The command line above a result (`vllm bench throughput --model ... \\`, wrapped
  or not) or a `Namespace(...)` dump gives the settings; the nearest markdown heading names the run.
* the JSON written by `--output-json`: throughput `{"elapsed_time", "num_requests",
  "total_num_tokens", "requests_per_second", "tokens_per_second"}`, latency `{"avg_latency",
  "latencies", "percentiles": {"10": ..., "99": ...}}`. The per-iteration `latencies` array is not
  put in the tidy table (the parser's messages say how many there are).

Metric names are the serving contract's where the quantity is the same (`request_throughput`,
`total_token_throughput`, `total_input_tokens`, `total_generated_tokens`, `duration`,
`completed`); the output tokens/s of the whole run is `throughput` and the seconds per batch is
`latency`, the names (and units) batch_saturation reads from hf-batch-sweep.

Counting (cells_read == kept + rejected): every number printed as a result is a cell; the `10%` of
a percentile label is part of the label. Every percentile is kept under its rank (`p10`, `p25`,
`p75`: `core.percentile`).
"""

from __future__ import annotations

import math
import re
import shlex

from benchbook.ingest.core import NUMBER, Parsed, ParseError, Tool, finish, heading_words, percentile, register
from benchbook.ingest.text import Lines, continued, first_char, head, json_object, repeat_label, split_n, whole

NAME = "vllm-bench-offline"

SETTINGS = {
    "run": "str",
    "format": "str",
    "benchmark": "str",
    "model": "str",
    "dataset": "str",
    "input_len": "float64",
    "output_len": "float64",
    "batch_size": "float64",
    "num_prompts": "float64",
    "tensor_parallel": "float64",
    "max_num_seqs": "float64",
    "dtype": "str",
    "quantization": "str",
    "kv_cache_dtype": "str",
}

METRICS = {
    "request_throughput": "req/s: requests / elapsed time (throughput benchmark)",
    "total_token_throughput": "tok/s: (prompt + output tokens) / elapsed time; the old two-value line's tokens/s",
    "throughput": "tok/s: output tokens / elapsed time (since vLLM PR #8914), the name batch_saturation reads",
    "total_input_tokens": "tok: prompt tokens of the run (newer versions print it)",
    "total_generated_tokens": "tok: output tokens of the run (newer versions print it)",
    "total_tokens": "tok: prompt + output tokens (--output-json `total_num_tokens`)",
    "completed": "req: requests of the run (--output-json `num_requests`)",
    "duration": "s: elapsed time of the run (--output-json `elapsed_time`)",
    "latency": "s: wall time of one batch (--batch-size prompts, --output-len new tokens), over --num-iters",
    "input_throughput": "tok/s: prompt tokens / elapsed time, the progress bar's `est. speed input`",
    "generated_len": "tok: new tokens per sequence a latency run generated, where the input states it (`output_len = N`)",
}

_N = rf"({NUMBER})"
THROUGHPUT_RE = re.compile(
    rf"(?<![\w])Throughput:\s+{_N} requests/s,\s+{_N} (total )?tokens/s(?:,\s+{_N} output tokens/s)?\s*$"
)
TOKENS_RE = re.compile(rf"(?<![\w])Total num (prompt|output) tokens:\s+{_N}\s*$")
#: The banner of `vllm bench serve`'s result block: a heading above one titles that result, so a result
#: of this tool below it is not named by that heading.
SERVE_BANNER_RE = re.compile(r"=+ .*Serving Benchmark Result")
AVG_RE = re.compile(rf"(?<![\w])Avg latency:\s+{_N} seconds\s*$")
PCT_RE = re.compile(rf"(?<![\w])(\d+(?:\.\d+)?)% percentile latency:\s+{_N} seconds\s*$")
OLD_TOKENS_NOTE = "old two-value line: its tokens/s counts prompt + output tokens"
#: `LLM.generate`'s tqdm postfix; a copy may keep only `X toks/s, output: Y toks/s` (the two values in
#: this order are the postfix's: `toks/s` is its spelling).
SPEED_RE = re.compile(rf"(?<![\w.])(?:(?:est\. )?speed input:\s*)?{_N} toks/s,\s*output:\s*{_N} toks/s")
_BAR_PCT = re.compile(r"(\d+)%\|")
BAR_NOTE = "the LLM.generate progress bar's speed at its end (tokens / the bar's elapsed time); no whole Throughput line follows it"
#: A line of the writer's own stating a latency run's tokens per sequence (`output_len = 2017`), apart from
#: the Namespace dump and the command: what the run generated. bench latency asks for exactly --output-len
#: (SamplingParams(ignore_eos=True, max_tokens=output_len)) and prints no count of its own, so a value
#: here that differs from the asked one says the run stopped short.
GENERATED_RE = re.compile(r"^\s*output_len\s*[=:]\s*(\d+)\s*$")

#: Command-line options -> setting column.
_OPTIONS = {
    "model": "model",
    "dataset_name": "dataset",
    "dataset": "dataset",
    "input_len": "input_len",
    "random_input_len": "input_len",
    "output_len": "output_len",
    "random_output_len": "output_len",
    "batch_size": "batch_size",
    "num_prompts": "num_prompts",
    "tensor_parallel_size": "tensor_parallel",
    "tp": "tensor_parallel",
    "max_num_seqs": "max_num_seqs",
    "dtype": "dtype",
    "quantization": "quantization",
    "kv_cache_dtype": "kv_cache_dtype",
}
_NUMERIC = {"input_len", "output_len", "batch_size", "num_prompts", "tensor_parallel", "max_num_seqs"}


def _float(v) -> float:
    """A setting value as float; None, 'None' or text -> NaN."""
    if v is None or isinstance(v, bool):
        return math.nan
    try:
        return float(str(v).strip().strip("'\""))
    except ValueError:
        return math.nan


def _settings_from_args(args: dict[str, str]) -> dict:
    out: dict = {}
    for key, col in _OPTIONS.items():
        if key in args and col not in out:
            out[col] = _float(args[key]) if col in _NUMERIC else args[key].strip("'\"")
    if args.get("backend", "").strip("'\"") == "hf" and "dtype" not in out:
        out["dtype"] = HF_BACKEND_DTYPE  # `run_hf` loads the model with torch_dtype=torch.float16, whatever --dtype
    return out


#: The weights of a run with `--backend hf`: the throughput benchmark's `run_hf` loads the model with
#: `AutoModelForCausalLM.from_pretrained(model, torch_dtype=torch.float16, ...)` (vllm benchmarks/
#: benchmark_throughput.py, and `vllm bench throughput`'s), so it runs in float16 whatever its checkpoint stores.
HF_BACKEND_DTYPE = "float16"
#: A progress bar at its end (`100%|█████| 1000/1000 [00:59<00:00, 16.94it/s]`, tqdm's `n/total`): the bar of
#: `LLM.generate` (`Processed prompts`) or of `run_hf` (`tqdm(total=len(requests))`), so `total` is the requests.
_BAR_DONE = re.compile(r"100%\|[^|]*\|\s*(\d+)/(\d+)\s*\[")


def _bar_requests(lines: list[str], lo: int, hi: int) -> float:
    """The requests of the run whose result follows lines[lo:hi]: the count of the last progress bar there
    that reached its end (`_BAR_DONE`, n equal to total), else NaN."""
    for raw in reversed(lines[lo:hi]):
        m = _BAR_DONE.search(raw)
        if m and m.group(1) == m.group(2):
            return float(m.group(2))
    return math.nan


def _command(lines: list[str], lo: int, hi: int) -> tuple[str | None, dict]:
    """The benchmark kind and settings of the last offline-benchmark command in lines[lo:hi]
    (backslash-continued lines joined), or of the last Namespace(...) dump."""
    kind, found = None, {}
    j = lo
    while j < hi:
        s = lines[j]
        k = next(
            (w for w in ("bench throughput", "benchmark_throughput", "bench latency", "benchmark_latency") if w in s),
            None,
        )
        if k is None and "Namespace(" not in s:
            j += 1
            continue
        text, j = continued(lines, j, hi)
        if k is not None:
            kind = "throughput" if "throughput" in k else "latency"
            text = text.replace("`", " ")  # a command quoted as Markdown inline code
            try:
                argv = shlex.split(text, comments=True)
            except ValueError:
                argv = text.split()
            args: dict[str, str] = {}
            for i, a in enumerate(argv):
                if a.startswith("--"):
                    key, eq, val = a[2:].partition("=")
                    if not eq:
                        val = argv[i + 1] if i + 1 < len(argv) and not argv[i + 1].startswith("-") else ""
                    args[key.replace("-", "_")] = val
            found = _settings_from_args(args)
        else:
            body = text[text.find("Namespace(") + len("Namespace(") :]
            args = dict(m.groups() for m in re.finditer(r"(\w+)=('[^']*'|\"[^\"]*\"|[^,()]+)", body))
            found = _settings_from_args({k: v.strip() for k, v in args.items()})
        j += 1
    return kind, found


_RESULT_RE = re.compile(r"(Avg latency|Throughput|\d+(\.\d+)?% percentile|Total num|toks/s, output:)")
_COMMAND_WORDS = ("bench throughput", "benchmark_throughput", "bench latency", "benchmark_latency", "Namespace(")


def _bar_result(lines: list[str], j: int) -> bool:
    """Whether the progress bar's speeds at line j are its run's result: the bar at its end (100 %,
    or no percent copied), not followed by another state of the bar (the next line with text), and
    with no `Throughput:` line after it before the next bar or command."""
    if (p := _BAR_PCT.search(lines[j])) and int(p.group(1)) < 100:
        return False
    following = next((s for s in lines[j + 1 :] if s.strip()), "")
    if SPEED_RE.search(following) and not THROUGHPUT_RE.search(following):
        return False
    for s in lines[j + 1 :]:
        if THROUGHPUT_RE.search(s):
            return False
        if SPEED_RE.search(s) or any(w in s for w in _COMMAND_WORDS):
            break
    return True


def _heading(lines: list[str], lo: int, hi: int, bold: bool = False) -> str | None:
    """The nearest markdown heading in lines[lo:hi] (a commented-out result line is not one); with
    `bold`, the nearest heading or bold line alone (`**qwen3-32B**`) that is no repeat's label."""
    for j in range(hi - 1, lo - 1, -1):
        s = lines[j].strip()
        text = heading_words(s.lstrip("#"))
        if bold and (m := re.fullmatch(r"\*\*([^*]+)\*\*\s*[:：]?", s)):
            return m.group(1).strip()
        if s.startswith("#") and not s.startswith("#!") and text and not _RESULT_RE.match(text):
            if not (bold and repeat_label(text)):
                return text
    return None


_FENCE_RE = re.compile(r"\s*(```|~~~)")
_WRITTEN_FLAG = re.compile(r"(?<![\w-])--([a-z][\w-]*)[= ]+([^\s`'\"]+)")


def _changed(lines: list[str], lo: int, hi: int) -> tuple[dict, str]:
    """The settings a caption between two results writes as flags (`--tensor-parallel-size=1 结果：`,
    "results at ..."), and those flags as written: what the next result changes from the command
    above it."""
    found, written = {}, []
    for s in lines[lo:hi]:
        if _RESULT_RE.search(s):
            continue
        for m in _WRITTEN_FLAG.finditer(s):
            got = _settings_from_args({m.group(1).replace("-", "_"): m.group(2)})
            if got:
                found.update(got)
                written.append(m.group(0))
    return found, " ".join(written)


# ---------------------------------------------------------------------------------------------
# text


def _text(text: str | Lines, source: str):
    lines = split_n(text)
    runs: list[dict] = []  # each: start, kind, records
    rejects: list[tuple[int, str, str]] = []
    cells = 0
    prev_end = 0

    def new_run(j: int, kind: str) -> dict:
        cmd_kind, found = _command(lines, prev_end, j)
        variant = ""
        if cmd_kind is None and runs and runs[-1]["benchmark"] == kind:
            # a result with no command of its own is another run of the command above it, in the same
            # pasted output (no code fence between) or under a caption writing the flag it changes
            changed, written = _changed(lines, prev_end, j)
            if changed or not any(_FENCE_RE.match(x) for x in lines[prev_end:j]):
                cmd_kind, found = kind, {**runs[-1]["found"], **changed}
                variant = written or runs[-1]["variant"]
        label = _heading(lines, prev_end, j)
        if repeat_label(label):  # `# 第二次`: a repeat of the configuration named above it
            base = _heading(lines, 0, j, bold=True)
            label = " ".join(x for x in (base, f"({variant})" if variant else "", label) if x)
        run = {
            "run": label,
            "found": found,
            "variant": variant,
            "format": "text",
            "benchmark": kind,
            "model": found.get("model"),
            "dataset": found.get("dataset"),
            "dtype": found.get("dtype"),
            "quantization": found.get("quantization"),
            "kv_cache_dtype": found.get("kv_cache_dtype"),
            **{
                c: found.get(c, math.nan)
                for c in ("input_len", "output_len", "batch_size", "num_prompts", "tensor_parallel", "max_num_seqs")
            },
            "records": [],
            "stats": set(),
        }
        if cmd_kind is not None and cmd_kind != kind:
            run["model"] = run["dataset"] = run["dtype"] = run["quantization"] = run["kv_cache_dtype"] = None
            for c in _NUMERIC:
                run[c] = math.nan
        if kind == "throughput" and math.isnan(run["num_prompts"]):
            run["num_prompts"] = _bar_requests(lines, prev_end, j)
        runs.append(run)
        return run

    current: dict | None = None
    for j, raw in enumerate(lines):
        line_no = j + 1
        if m := THROUGHPUT_RE.search(raw):
            current = new_run(j, "throughput")
            prev_end = j + 1
            req, tok, total, out = m.group(1), m.group(2), m.group(3), m.group(4)
            recs = current["records"]
            recs.append(
                dict(line=line_no, metric="request_throughput", statistic="value", value=float(req), unit="req/s")
            )
            note = None if total else OLD_TOKENS_NOTE
            recs.append(
                dict(
                    line=line_no,
                    metric="total_token_throughput",
                    statistic="value",
                    value=float(tok),
                    unit="tok/s",
                    note=note,
                )
            )
            cells += 2
            if out is not None:
                recs.append(dict(line=line_no, metric="throughput", statistic="value", value=float(out), unit="tok/s"))
                cells += 1
        elif (m := SPEED_RE.search(raw)) and _bar_result(lines, j):
            current = new_run(j, "throughput")
            prev_end = j + 1
            for metric, value in (("input_throughput", m.group(1)), ("throughput", m.group(2))):
                current["records"].append(
                    dict(
                        line=line_no, metric=metric, statistic="value", value=float(value), unit="tok/s", note=BAR_NOTE
                    )
                )
            cells += 2
        elif m := TOKENS_RE.search(raw):
            cells += 1
            if current is None or current["benchmark"] != "throughput":
                rejects.append((line_no, raw.strip(), "a token count with no Throughput line above it"))
                continue
            metric = "total_input_tokens" if m.group(1) == "prompt" else "total_generated_tokens"
            current["records"].append(
                dict(line=line_no, metric=metric, statistic="count", value=float(m.group(2)), unit="tok")
            )
            prev_end = j + 1
        elif m := AVG_RE.search(raw):
            start = prev_end
            current = new_run(j, "latency")
            prev_end = j + 1
            cells += 1
            current["records"].append(
                dict(line=line_no, metric="latency", statistic="mean", value=float(m.group(1)), unit="s")
            )
            for k in range(start, j):  # the tokens the writer says this run generated, above its result
                if g := GENERATED_RE.match(lines[k]):
                    cells += 1
                    current["records"].append(
                        dict(line=k + 1, metric="generated_len", statistic="count", value=float(g.group(1)), unit="tok")
                    )
            current["stats"].add("mean")
        elif SERVE_BANNER_RE.search(raw):
            prev_end = j + 1  # the headings above it name that result (see SERVE_BANNER_RE)
        elif m := PCT_RE.search(raw):
            cells += 1
            p = m.group(1)
            stat = percentile(p)
            if current is None or current["benchmark"] != "latency" or (stat is not None and stat in current["stats"]):
                current = new_run(j, "latency")
            prev_end = j + 1
            if stat is None:
                rejects.append((line_no, raw.strip(), f"percentile P{p} is no rank between 0 and 100"))
                continue
            current["records"].append(
                dict(line=line_no, metric="latency", statistic=stat, value=float(m.group(2)), unit="s")
            )
            current["stats"].add(stat)
    records = []
    counts = {"throughput": 0, "latency": 0}
    for run in runs:
        counts[run["benchmark"]] += 1
        label = run["run"] or f"{run['benchmark']} {counts[run['benchmark']]}"
        settings = {k: v for k, v in run.items() if k in SETTINGS}
        settings["run"] = label
        records.extend({**settings, **r} for r in run["records"])
    return records, rejects, cells


# ---------------------------------------------------------------------------------------------
# --output-json

#: --output-json keys -> (metric, statistic, unit).
JSON_THROUGHPUT = {
    "elapsed_time": ("duration", "value", "s"),
    "num_requests": ("completed", "count", "req"),
    "total_num_tokens": ("total_tokens", "count", "tok"),
    "requests_per_second": ("request_throughput", "value", "req/s"),
    "tokens_per_second": ("total_token_throughput", "value", "tok/s"),
}


def _line_of(text: str, key: str) -> int:
    k = text.find(f'"{key}"')
    return text.count("\n", 0, max(k, 0)) + 1


def _is_json(text: str | Lines) -> bool:
    return first_char(text) == "{"


def _json(text: str, source: str, messages: list[str]):
    obj = json_object(
        text,
        source,
        "not a valid vllm bench throughput/latency --output-json file",
        "expected one JSON object (vllm bench throughput/latency --output-json)",
    )
    records, rejects, cells = [], [], 0
    if "avg_latency" in obj:
        kind = "latency"
    elif "requests_per_second" in obj or "tokens_per_second" in obj:
        kind = "throughput"
    else:
        raise ParseError(source, 1, "a JSON object without avg_latency or requests_per_second: not vllm bench output")
    settings = {"run": "json", "format": "json", "benchmark": kind, "model": None, "dataset": None, "dtype": None}
    settings.update(quantization=None, kv_cache_dtype=None)
    settings.update({c: math.nan for c in _NUMERIC})

    def keep(key, value, metric, stat, unit, line=None):
        nonlocal cells
        cells += 1
        ln = line or _line_of(text, key)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            rejects.append((ln, f"{key}: {value!r}"[:80], "expected a number"))
            return
        records.append(
            {**settings, "line": ln, "metric": metric, "statistic": stat, "value": float(value), "unit": unit}
        )

    for key, value in obj.items():
        if kind == "throughput" and key in JSON_THROUGHPUT:
            keep(key, value, *JSON_THROUGHPUT[key])
        elif key == "avg_latency":
            keep(key, value, "latency", "mean", "s")
        elif key == "percentiles" and isinstance(value, dict):
            base = text.find('"percentiles"')
            for p, v in value.items():
                k = text.find(f'"{p}"', base)
                ln = text.count("\n", 0, max(k, 0)) + 1
                stat = percentile(p)
                if stat is None:
                    cells += 1
                    rejects.append((ln, f"percentiles[{p}]: {v}", f"percentile P{p} is no rank between 0 and 100"))
                else:
                    keep(p, v, "latency", stat, "s", line=ln)
        elif key == "latencies" and isinstance(value, list):
            messages.append(f"{source}: {len(value)} per-iteration latencies (seconds) are not in the tidy table")
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            cells += 1
            rejects.append((_line_of(text, key), f"{key}: {value}", "a numeric key this parser has no tidy name for"))
    return records, rejects, cells


# ---------------------------------------------------------------------------------------------
# the Tool


def sniff(text: str | Lines) -> bool:
    if _is_json(text):
        start = head(text, 4000)
        return '"avg_latency"' in start or ('"requests_per_second"' in start and '"elapsed_time"' in start)
    return any(r.search(line) for line in split_n(text) for r in (THROUGHPUT_RE, AVG_RE, SPEED_RE))


def parse(text: str | Lines, source: str) -> Parsed:
    if isinstance(text, str):
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    messages: list[str] = []
    if _is_json(text):  # one JSON document: decoded whole; printed lines are read line by line
        records, rejects, cells = _json(whole(text), source, messages)
    else:
        records, rejects, cells = _text(text, source)
        bars = sorted({r["line"] for r in records if r.get("note") == BAR_NOTE})
        if bars:
            messages.append(
                f"{source}: {len(bars)} run{'s are' if len(bars) > 1 else ' is'} read from the speeds of LLM.generate's "
                f"progress bar at its end (line{'s' if len(bars) > 1 else ''} {', '.join(map(str, bars))}: the tokens "
                "over the bar's elapsed time), no whole Throughput line following"
            )
    if not records and not rejects:
        raise ParseError(
            source,
            1,
            "no 'Throughput: ... requests/s', progress bar speeds at its end or 'Avg latency: ... seconds' found",
        )
    return finish(TOOL, source, records, rejects, messages, cells, _version)


def _version(table) -> str | None:
    """Which CLI printed the throughput results: the old two-value line (before vLLM PR #8914), the
    newer three-value one, or both; --output-json and latency lines have no such tell."""
    text = table[table["format"] == "text"]
    found = [
        name
        for name, hit in (
            ("old two-value Throughput line, before vLLM PR #8914", (text["note"] == OLD_TOKENS_NOTE).any()),
            ("Throughput line with output tokens/s, vLLM PR #8914 or later", (text["metric"] == "throughput").any()),
        )
        if hit
    ]
    return " and ".join(found) or None


#: A latency or throughput run's settings as the tool prints them before any result: its argparse
#: `Namespace(...)` (benchmark_latency.py's `num_iters=`, benchmark_throughput.py's `num_prompts=` with an
#: `input_len=`), or its command.
_STARTED = re.compile(
    r"^\s*Namespace\(.*\b(?:num_iters|num_iters_warmup)=|^\s*Namespace\(.*\bbackend='vllm'.*\binput_len="
    r"|\b(?:benchmark_latency\.py|benchmark_throughput\.py|vllm\s+bench\s+(?:latency|throughput))\b.*\s--?\w"
)


def refuses(text: str | Lines) -> tuple[int, str] | None:
    """(line, why) of the last settings line of a latency or throughput run (`_STARTED`) in a file that holds
    none of the tool's result lines, else None (`Tool.refuses`): the run printed nothing to read."""
    lines = split_n(whole(text))
    if any(THROUGHPUT_RE.search(x) or AVG_RE.search(x) or PCT_RE.search(x) for x in lines):
        return None
    found = [i for i, raw in enumerate(lines, start=1) if _STARTED.search(raw)]
    if not found:
        return None
    return found[-1], (
        "a vLLM latency or throughput run's settings with no result after them (no `Avg latency`, percentile "
        "or `Throughput:` line): the copy ends, or the run stopped, before the tool printed one"
    )


TOOL = register(
    Tool(
        name=NAME,
        settings=SETTINGS,
        sniff=sniff,
        parse=parse,
        refuses=refuses,
        description="vLLM `vllm bench throughput` / `vllm bench latency` (and benchmark_*.py): printed lines and --output-json",
        command="vllm bench throughput|latency --model MODEL ... [--output-json OUT.json]",
        metrics=METRICS,
    )
)
