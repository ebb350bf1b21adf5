"""SGLang `python -m sglang.bench_serving` output, in the serving contract of vllm-bench-serve.

Two forms are read:

* the console block, from `============ Serving Benchmark Result ============` to the closing row
  of 50 `=`. Its first lines name the run: `Backend:`, `Traffic request rate:` and `Max request
  concurrency:` (spelt `Max reqeuest concurrency:` before 2025; absent in 2024; `not set` when
  unlimited). Later versions add `Total input text/vision tokens`, `Peak output token
  throughput`, `Peak concurrent requests`, `Concurrency`, `Accept length`, P90/P95/P99/Max rows;
  2024 versions print `Total throughput (tok/s)` where later ones print `Total token throughput`.
  A block pasted without its closing row ends at the first line that is not one of its rows (the
  parser's messages say so). The command line above a block (one line, backslash-continued, or one
  option per line as in a YAML `command:`; below it where a file of one block has none above, its
  shell variables resolved from the script's assignments) gives model, dataset and num_prompts; the nearest
  markdown heading names the run. A block that prints `Accept length` ran a speculative server.
  A write-up may quote the block (`> ` before the banner, the rows after it with or without it), or
  paste it from below its banner (`_blocks`: rows closed by the row of `=` that hold a row only SGLang
  prints); a command asking another request rate than the block prints is not the block's. A block
  saved as a JSON list of its lines (`"benchmark_result": ["====...", "Backend: sglang", ...]`) is
  read as those lines (`_unquoted`), each at its own line.
* the JSONL that `--output-file` appends, one object per run: July-2024 short keys (`total_input`,
  `median_ttft`, `output_token_throughput`), late-2024 objects (`median_ttft_ms`, `median_itl_ms`,
  `output_throughput`, a bare `Infinity` as request rate), later full ones
  (`std_*`, `p99_*`, `total_throughput`, `concurrency`, `accept_length`, `server_info`, `tag`).
  `--output-details` per-request arrays are not put in the tidy table (the messages say so).

Where a file holds neither, names SGLang (or its bench_serving) and no other engine, and holds a markdown
table of serving results its authors wrote (a load column and two metrics with units), that table is read
one run per row, each number under its header's own words (`serving_table`, format "authors' table").

The setting columns, metric names, statistics and units are those of vllm-bench-serve
(`ingest.serving_settings.SETTINGS`, `ingest.vllm_serve.METRICS`) so that the serving chapter reads either tool; SGLang's
own quantities get their own names (`total_generated_tokens_retokenized`, `concurrency`, ...).
SGLang prints no failed-request count, so `failed` is never a row.

Counting (cells_read == kept + rejected): every number of a result row or a result object is a
cell; the three setting rows and the setting keys (request rate, concurrency, input/output lengths
of the dataset) are settings. A number with no tidy name (e.g. a P75 row) is rejected with the reason.
"""

from __future__ import annotations

import json
import math
import re
import shlex

from benchbook.ingest import serving_power, serving_table, sglang_grid, vllm_serve
from benchbook.ingest.core import (
    COPY_ENDS_AFTER,
    QUOTE,
    Parsed,
    ParseError,
    Tool,
    copy_ends,
    cut_after_item,
    cut_item,
    finish,
    last_line,
    number,
    percentile,
    register,
)
from benchbook.ingest.headings import Outline, comment_label, load_label, names, outline, run_names
from benchbook.ingest.serving_settings import SETTINGS as CONTRACT
from benchbook.ingest.serving_settings import run_settings
from benchbook.ingest.text import Lines, contains, continued, first_char, split_n
from benchbook.nouns import counted

NAME = "sglang-bench-serving"

SETTINGS = dict(CONTRACT)

METRICS = {
    **{k: v for k, v in vllm_serve.METRICS.items() if k not in ("failed",)},
    "total_input_text_tokens": "tok: text part of the prompt tokens (multimodal versions)",
    "total_input_vision_tokens": "tok: image part of the prompt tokens (multimodal versions)",
    "total_generated_tokens_retokenized": "tok: output tokens counted again by the client's tokenizer",
    "concurrency": "req: mean requests in flight (sum of request latencies / duration)",
    "e2el": "ms: end-to-end latency per request (SGLang's 'E2E Latency')",
}

#: The banner; a write-up may name its run inside it (`==== Serving Benchmark Result (c=64) ====`).
#: The banner bench_serving prints (`{:=^50}`: its title centred in `=`), or the title alone where a copy
#: lost the `=` runs around it (a page's text, as sglang PRs 31659 and 31880 hold it); either way a block is
#: taken only with its `Backend:` row under it (`_blocks`).
HEADER_RE = re.compile(rf"^\s*{QUOTE}(?P<rule>=+ )?Serving Benchmark Result(?: \((?P<label>[^()]+)\))?(?(rule) =+)\s*$")
CLOSE_RE = re.compile(rf"^\s*{QUOTE}={{50}}\s*$")
SECTION_RE = re.compile(rf"^\s*{QUOTE}-{{3,}}[A-Za-z][^:]*?-{{3,}}\s*$")
ROW_RE = re.compile(rf"^\s*{QUOTE}(?P<label>[A-Za-z][^:]*?):\s+(?P<value>\S.*?)\s*$")
STAT_RE = re.compile(
    r"^(?P<stat>Mean|Median|Std|Max|Min|P(?P<p>\d+(?:\.\d+)?)) (?P<name>E2E Latency|TTFT|TPOT|ITL) \(ms\)$"
)
STAT_NAMES = {"E2E Latency": "e2el", "TTFT": "ttft", "TPOT": "tpot", "ITL": "itl"}
OPTION_LINE_RE = re.compile(r"^\s*--[A-Za-z]")

#: Block rows: label -> (metric, statistic, unit).
LABELS = {
    "Successful requests": ("completed", "count", "req"),
    "Benchmark duration (s)": ("duration", "value", "s"),
    "Total input tokens": ("total_input_tokens", "count", "tok"),
    "Total input text tokens": ("total_input_text_tokens", "count", "tok"),
    "Total input vision tokens": ("total_input_vision_tokens", "count", "tok"),
    "Total generated tokens": ("total_generated_tokens", "count", "tok"),
    "Total generated tokens (retokenized)": ("total_generated_tokens_retokenized", "count", "tok"),
    "Request throughput (req/s)": ("request_throughput", "value", "req/s"),
    "Input token throughput (tok/s)": ("input_throughput", "value", "tok/s"),
    "Output token throughput (tok/s)": ("output_throughput", "value", "tok/s"),
    "Peak output token throughput (tok/s)": ("peak_output_throughput", "max", "tok/s"),
    "Peak concurrent requests": ("peak_concurrent_requests", "max", "req"),
    "Total token throughput (tok/s)": ("total_token_throughput", "value", "tok/s"),
    "Total throughput (tok/s)": ("total_token_throughput", "value", "tok/s"),
    "Concurrency": ("concurrency", "mean", "req"),
    "Accept length": ("spec_decode_acceptance_length", "value", "tok"),
}
#: Block rows that are settings: label -> setting column.
SETTING_LABELS = {
    "Traffic request rate": "request_rate",
    "Max request concurrency": "max_concurrency",
    "Max reqeuest concurrency": "max_concurrency",
}

#: JSON keys: key -> (metric, statistic, unit).
JSON_METRICS = {
    "duration": ("duration", "value", "s"),
    "completed": ("completed", "count", "req"),
    "total_input_tokens": ("total_input_tokens", "count", "tok"),
    "total_input_text_tokens": ("total_input_text_tokens", "count", "tok"),
    "total_input_vision_tokens": ("total_input_vision_tokens", "count", "tok"),
    "total_output_tokens": ("total_generated_tokens", "count", "tok"),
    "total_output_tokens_retokenized": ("total_generated_tokens_retokenized", "count", "tok"),
    "request_throughput": ("request_throughput", "value", "req/s"),
    "input_throughput": ("input_throughput", "value", "tok/s"),
    "output_throughput": ("output_throughput", "value", "tok/s"),
    "total_throughput": ("total_token_throughput", "value", "tok/s"),
    "concurrency": ("concurrency", "mean", "req"),
    "accept_length": ("spec_decode_acceptance_length", "value", "tok"),
    "max_output_tokens_per_s": ("peak_output_throughput", "max", "tok/s"),
    "max_concurrent_requests": ("peak_concurrent_requests", "max", "req"),
    # the short keys of July 2024 (sglang PR #685)
    "total_input": ("total_input_tokens", "count", "tok"),
    "total_output": ("total_generated_tokens", "count", "tok"),
    "median_ttft": ("ttft", "median", "ms"),
    "median_itl": ("itl", "median", "ms"),
    "output_token_throughput": ("output_throughput", "value", "tok/s"),
}
JSON_STAT_RE = re.compile(
    r"^(?P<stat>mean|median|std|max|min|p(?P<p>\d+(?:\.\d+)?))_(?P<name>e2e_latency|ttft|tpot|itl)_ms$"
)
JSON_STAT_NAMES = {"e2e_latency": "e2el", "ttft": "ttft", "tpot": "tpot", "itl": "itl"}
#: JSON keys that are settings or labels, never cells.
JSON_SETTINGS = {
    "tag",
    "backend",
    "dataset_name",
    "request_rate",
    "max_concurrency",
    "num_prompts",
    "sharegpt_output_len",
    "sharegpt_context_len",
    "random_input_len",
    "random_output_len",
    "random_range_ratio",
    "server_info",
}
ARRAY_KEYS = {"input_lens", "output_lens", "ttfts", "itls", "generated_texts", "errors"}
NOT_SET = "not set"
#: The format of a block pasted without its banner: its top rows (backend, request rate, concurrency
#: cap, any others above the copy's first) are not in the file, so no row's absence says the tool
#: did not print it (`Tool.carries`: none is declared carried).
HEADLESS = "text without banner"
#: How bench_serving prints a rate, a duration, a latency statistic or a concurrency: `{:<10.2f}`, two
#: decimals always (`nan` and `inf` as Python prints them); counts (`Successful requests`, token totals)
#: print as integers. A copy's last line whose value lacks them was cut inside its number.
TWO_DECIMALS_RE = re.compile(r"^(?:-?\d+\.\d{2}|-?inf|nan)$", re.I)


#: A shell assignment in a script around the command (`MODEL_NAME="Kimi-K2.6"`), and a use of one.
SHELL_ASSIGN_RE = re.compile(r"""^\s*(?:export\s+)?([A-Za-z_]\w*)=["']?([^"'\s$]+)["']?\s*$""")
SHELL_VAR_RE = re.compile(r"\$\{(\w+)\}|\$(\w+)")


def _rate(v) -> float:
    """A request rate or concurrency setting as float: None / 'not set' -> NaN, inf stays inf."""
    if v is None or isinstance(v, bool):
        return math.nan
    if isinstance(v, (int, float)):
        return float(v)
    s = str(v).strip().lower()
    if s in ("", "none", "null", NOT_SET):
        return math.nan
    try:
        return float(s)
    except ValueError:
        return math.nan


def _value(text: str, source: str, line: int, label: str) -> float:
    t = text.strip()
    if t.lower() in ("nan", "inf", "-inf"):
        return float(t.lower())
    v = number(t)
    if v is None:
        raise ParseError(source, line, f"expected a number for {label!r}, found {text!r}")
    return v


# ---------------------------------------------------------------------------------------------
# console blocks


def _is_block_row(s: str) -> bool:
    return bool(ROW_RE.match(s) or SECTION_RE.match(s))


#: What a copy cut inside a block leaves after its last whole row: a row's label before its value came
#: (`Mean TTFT (ms):`), or a section header before its closing dashes (`-----Ti`).
CUT_TAIL_RE = re.compile(rf"^\s*{QUOTE}(?:[A-Za-z][^:]*:|-{{3,}}[A-Za-z][^-]*)\s*$")

#: A section header cut before its title: bench_serving centres each title in dashes (`{:-^50}`), so a copy
#: that stops inside a header's leading run leaves dashes alone (`-------`, sglang issue 913). Four or more,
#: right under the block's last row: a markdown rule (`---`) sits apart from a block, after its fence.
DASHES_RE = re.compile(rf"^\s*{QUOTE}-{{4,}}\s*$")


#: The statistic rows the block's latency sections print (`Mean TTFT (ms)`, `P99 TPOT (ms)`, `Max ITL (ms)`).
STAT_LABELS = tuple(
    f"{stat} {name} (ms)"
    for stat in ("Mean", "Median", "Std", "P90", "P95", "P99", "Max")
    for name in ("TTFT", "TPOT", "ITL", "E2E Latency")
)


def _label_cut(line: str) -> bool:
    """A line that is the start of a row label the block prints, cut before its colon (`Requ`: the copy
    stopped inside `Request throughput (req/s):`)."""
    s = line.strip().strip('"')
    labels = (*LABELS, *SETTING_LABELS, *STAT_LABELS)
    return len(s) >= 2 and any(k.startswith(s) and k != s for k in labels)


def _tail_cut(lines: list[str], end: int) -> int | None:
    """The copy's last line where an unclosed block's rows stop at `end` and every line after them is a
    row or a section header cut short (`CUT_TAIL_RE`, or a whole header), or, last of all, a row's label
    cut before its colon (`_label_cut`): the copy ends inside the block, so what the tool prints after that
    line (SGLang's TPOT and ITL follow TTFT) is not in the file."""
    last = last_line(lines)
    if last is None or last < end:
        return None
    if last == end and DASHES_RE.match(lines[end]):
        return last
    tail = [s for s in lines[end : last + 1] if s.strip()]
    whole = all(CUT_TAIL_RE.match(s) or SECTION_RE.match(s) for s in tail[:-1])
    return (
        last
        if tail and whole and (CUT_TAIL_RE.match(tail[-1]) or SECTION_RE.match(tail[-1]) or _label_cut(tail[-1]))
        else None
    )


#: Rows only SGLang's block prints (vLLM's has neither): they tell a block pasted without its banner.
SGLANG_ONLY = ("Total generated tokens (retokenized)", "Mean E2E Latency (ms)", "Median E2E Latency (ms)")


def _sglang_only(labels: set) -> bool:
    """Whether a block's row labels include one only SGLang prints (`SGLANG_ONLY`), or any statistic of its
    `E2E Latency (ms)` (vLLM names that latency `E2EL`): a copy pasted from below its top, even from inside
    its E2E section (sglang PR 30047's starts at `P95 E2E Latency`), is SGLang's."""
    return bool(labels & set(SGLANG_ONLY)) or any(
        (m := STAT_RE.match(x or "")) is not None and m.group("name") == "E2E Latency" for x in labels
    )


def _words(label: str) -> str:
    """A row's label with single spaces between its words: bench_serving prints its labels so
    (`"{:<40} {:<10}".format(label, value)`), and a copy that widens a space inside one
    (`Peak output token throughput   (tok/s)`, as a page's paste leaves it) holds the same label."""
    return " ".join(label.split())


def _label(line: str) -> str | None:
    m = ROW_RE.match(line)
    return _words(m.group("label")) if m else None


#: An item of a JSON list of strings on a line of its own (`"Backend:     sglang",`).
STRING_ITEM_RE = re.compile(r'^\s*("(?:[^"\\]|\\.)*")\s*,?\s*$')


def _unquoted(lines):
    """The lines with each JSON list of strings that holds the tool's banner written out, an item per
    line as the tool printed it: a harness that saved the print as a list of its lines (a result JSON's
    `"benchmark_result": [...]`). Other lines, and every line's number, stay as they are."""
    out = None
    j = 0
    while j < len(lines):
        k = j
        while k < len(lines) and lines[k].lstrip()[:1] == '"' and STRING_ITEM_RE.match(lines[k]):
            k += 1
        try:
            items = [json.loads(STRING_ITEM_RE.match(lines[m])[1]) for m in range(j, k)]
        except json.JSONDecodeError:
            items = []
        if any(HEADER_RE.match(s) for s in items):
            out = out or list(lines)
            out[j:k] = items
        j = max(k, j + 1)
    return out or lines


def _blocks(lines: list[str]) -> list[tuple[int, int, bool, bool]]:
    """(header index, end index (exclusive), closed, headless) of each SGLang block: one under its
    banner with a `Backend:` row, or a run of its rows closed by the row of 50 `=` with no banner
    above (a write-up pasted it from below its top: then the index is the line above its first row).
    The second holds a row only SGLang prints, so that a vLLM block without its banner stays vLLM's."""
    out = []
    i = 0
    while i < len(lines):
        if not HEADER_RE.match(lines[i]):
            i += 1
            continue
        j = i + 1
        while (
            j < len(lines)
            and not CLOSE_RE.match(lines[j])
            and not HEADER_RE.match(lines[j])
            and _is_block_row(lines[j])
        ):
            j += 1
        closed = j < len(lines) and bool(CLOSE_RE.match(lines[j]))
        if any(_label(lines[k]) == "Backend" for k in range(i + 1, j)):
            out.append((i, j, closed, False))
        i = j + 1 if closed else max(j, i + 1)
    taken = {k for start, end, _, _ in out for k in range(start, end + 1)}
    for j, line in enumerate(lines):
        if j in taken or not CLOSE_RE.match(line):
            continue
        i = j
        while i > 0 and i - 1 not in taken and _is_block_row(lines[i - 1]) and not HEADER_RE.match(lines[i - 1]):
            i -= 1
        labels = {_label(lines[k]) for k in range(i, j)}
        banner = i > 0 and bool(HEADER_RE.match(lines[i - 1]))  # a banner without a Backend row: not this case
        if i < j and _sglang_only(labels) and "Backend" not in labels and not banner:
            out.append((i - 1, j, True, True))
            taken.update(range(i - 1, j + 1))
    # a copy without the banner that starts at the block's own first rows (`Backend:` then `Traffic
    # request rate:`, which only SGLang's block prints under its banner): read to its closing row, or to
    # its last row where the copy has none (the other rows of the block are in the file)
    for j in range(len(lines) - 1):
        if j in taken or _label(lines[j]) != "Backend" or _label(lines[j + 1]) != "Traffic request rate":
            continue
        if j > 0 and "Serving Benchmark Result" in lines[j - 1]:
            continue  # under a banner: its block, or one this reader does not take (`$ >` before it)
        k = j
        while (
            k < len(lines)
            and not CLOSE_RE.match(lines[k])
            and not HEADER_RE.match(lines[k])
            and _is_block_row(lines[k])
        ):
            k += 1
        out.append((j - 1, k, k < len(lines) and bool(CLOSE_RE.match(lines[k])), False))
    return sorted(out)


def _section(lines: list[str], lo: int, j: int) -> tuple[int, int]:
    """(heading level, line) of the markdown section line j sits in (0, lo when none above it)."""
    for k in range(j - 1, lo - 1, -1):
        m = re.match(r"^(#{1,6})\s+\S", lines[k])
        if m:
            return len(m.group(1)), k
    return 0, lo


#: bench_serving's workload arguments (its `--random-input-len` / `--random-output-len`): a run's workload,
#: kept in its metadata as the JSON result keeps them.
WORKLOAD_ARGS = ("random_input_len", "random_output_len")
#: The client (the module, or SGLang's self-contained script copied beside a README) and the server.
#: The benchmark's commands: SGLang's module, its copy run as a script, and sgl-jax's copy of the module
#: (`python -m sgl_jax.bench_serving`, the same options and print); the launch commands of the server.
_BENCH = ("sglang.bench_serving", "sgl_jax.bench_serving", "bench_serving.py")
_COMMANDS = (*_BENCH, "sglang.launch_server", "sgl_jax.launch_server", "sglang serve")
SCRIPT_RE = re.compile(r"\bpython3?\s+(?:\S*/)?bench_serving\.py\b")


def _context(
    lines: list[str], lo: int, hi: int, doc: Outline | None = None, named: dict | None = None, launches=None
) -> dict:
    """Settings from the bench_serving command line and the nearest markdown heading in lines[lo:hi]
    (`doc` the text's outline, `named` its headings that name runs: `headings.names`; by default,
    those of a text whose only block starts at hi).
    The server is the last launch command above the block, except one in a subsection of an earlier
    launch's own section (a guide's `### EAGLE speculative decoding` under its launch section): an
    option the guide shows, not the server the block ran against. Launches above the block that span
    different device counts (`--tp-size 4`, then `--tp-size 8`) are servers the write-up compared: the file
    does not say which printed the block, so none states its sizes (`context.alternatives`). `launches`, a
    list, gets every server taken, in order."""
    ctx: dict = {}
    server: dict = {}
    taken: list[tuple[dict, int]] = []  # every server launched above the block, with its section's line
    doc = doc or outline(lines)
    named = names(lines, [hi], doc) if named is None else named
    # a script's own shell variables (MODEL_NAME="Kimi-K2.6" above `--model $MODEL_NAME`)
    shell = dict(m.groups() for m in (SHELL_ASSIGN_RE.match(lines[j]) for j in range(lo, hi)) if m)
    launched: tuple[int, int] | None = None  # (line, heading level) of the launch command taken
    for j in range(lo, hi):
        s = lines[j]
        # the module, or its self-contained copy run as a script (`python bench_serving.py`)
        cmd = next((c for c in _COMMANDS if c in s), None)
        if cmd == "bench_serving.py" and not SCRIPT_RE.search(s):
            cmd = None  # prose that names the script (a link, "a copy lives at"), not a command
        if cmd is None:
            continue
        # continued by a trailing backslash (shell) or by lines that start with an option (a YAML
        # `command:` block writes one option per line with no backslash)
        text, _ = continued(lines, j, hi, lambda x: bool(OPTION_LINE_RE.match(x)))
        text = SHELL_VAR_RE.sub(lambda m: shell.get(m.group(1) or m.group(2), m.group(0)), text)
        try:
            argv = shlex.split(text[text.find(cmd) :], comments=True)
        except ValueError:
            argv = text.split()
        args = {}
        for i, a in enumerate(argv):
            if a.startswith("--"):
                key, eq, val = a[2:].partition("=")
                if not eq:
                    val = argv[i + 1] if i + 1 < len(argv) and not argv[i + 1].startswith("--") else ""
                args[key.replace("-", "_")] = val
        if cmd not in _BENCH:  # the server the block ran against: model, parallelism, drafts
            level, at = _section(lines, lo, j)
            if launched is not None and at > launched[0] and level > launched[1]:
                continue  # a launch under a subsection of the one taken's own section: an option of it
            launched = (j, level)
            # a launch without --tp runs at TP 1 (ServerArgs.tp_size's default): one device, whatever the host has
            tp = args.get("tp") or args.get("tp_size") or "1"
            server = {"model": args.get("model_path") or args.get("model"), "tp": tp}
            server["dp"] = args.get("dp") or args.get("dp_size")
            server["ep"] = args.get("ep") or args.get("ep_size")
            server["dp_attention"] = "yes" if "enable_dp_attention" in args else None  # DP inside the TP group
            server["speculative"] = args.get("speculative_algorithm") or args.get("speculative_algo")
            server["quantization"] = args.get("quantization")
            if launches is not None:
                launches.append(server)
            taken.append((server, at))
            continue
        ctx = {
            "model": args.get("model") or args.get("model_path"),
            "dataset": args.get("dataset_name"),
            # bench_serving's `--num-prompts` (argparse takes `--num-prompt`), default 1000, every one sent;
            # a line that names the module with no option of its own is prose, not the run's command
            "num_prompts": _rate(
                args.get("num_prompts", args.get("num_prompt", vllm_serve.DEFAULT_NUM_PROMPTS if args else None))
            ),
            # the lengths the command asks of its workload, as the JSON result records them
            "workload": "; ".join(f"{k}={args[k]}" for k in WORKLOAD_ARGS if args.get(k)),
            "command_rate": (_rate(args["request_rate"]), j + 1) if args.get("request_rate") else None,
        }
    together = [t for t, at in taken if at == taken[-1][1]] if taken else []  # one section's, as `launched` takes
    if len({_devices(t) for t in together}) > 1:  # servers compared, which one printed the block unsaid
        models = {t["model"] for t in together}
        server = {"model": models.pop()} if len(models) == 1 else {}
    if str(server.get("model") or "").startswith("$"):  # a shell variable names no model
        server["model"] = None
    ctx["server"] = server
    heads = doc.within(lo, hi)
    if heads:  # a new section: its heading names the runs under it, or none of them (`headings.names`)
        ctx["run"] = named.get(heads[-1])
    return ctx


def _devices(server: dict) -> int | str:
    """How many devices a launch spans by its flags: TP x DP, DP inside TP under DP attention (a size left to a
    shell variable: the two as written)."""
    tp, dp = str(server.get("tp") or 1), "1" if server.get("dp_attention") else str(server.get("dp") or 1)
    return int(tp) * int(dp) if tp.isdigit() and dp.isdigit() else f"{tp}x{dp}"


def _serving_on(lines: list[str], start: int, doc: Outline, server: dict) -> dict:
    """The server of a block with no launch command between it and the block before it: the one
    launched above, when its part of the text (from the last heading of the text's top level above
    the block) launches no other. A write-up that lists several servers before its results (`Config A`,
    `Config B`) does not say which a later block ran against."""
    if not server:
        return {}
    top = min((level for level, _ in doc.heads.values()), default=0)
    scope = max((j for j in doc.within(0, start) if doc.heads[j][0] == top), default=0)
    launches: list[dict] = []
    _context(lines, scope, start, doc, {}, launches)
    return server if launches and all(s == server for s in launches) else {}


def _with_server(ctx: dict, server: dict) -> dict:
    """ctx with the server's model (where the command names none) and its settings in the metadata."""
    if server.get("model") and not ctx.get("model"):
        ctx["model"] = server["model"]
    if str(ctx.get("model") or "").startswith(("/", "~")):  # a local checkpoint folder: its name is the model
        ctx["model"] = ctx["model"].rstrip("/").rsplit("/", 1)[-1] or None
    meta = "; ".join(
        [*(f"{k}={v}" for k, v in server.items() if k != "model" and v), *filter(None, [ctx.pop("workload", "")])]
    )
    if meta:
        ctx["metadata"] = meta
    return ctx


def _cut_short(label: str, text: str) -> bool:
    """Whether a row's value is not as bench_serving prints it for its label: a two-decimal row
    (every row but the counts and the settings) without its two decimals was cut inside its number."""
    if label in SETTING_LABELS or LABELS.get(label, ("", "", ""))[1] == "count":
        return False
    return not TWO_DECIMALS_RE.match(text.strip())


#: The section every version of bench_serving prints last, right above its closing row of `=` (its TPOT
#: section comes and goes between versions; its ITL one never): a block that runs to the copy's end
#: without reaching it was cut there (`_ends_early`).
LAST_SECTION = "inter-token latency"


def _ends_early(lines: list[str], start: int, end: int, closed: bool) -> bool:
    """Whether an unclosed block's last row is the copy's last line and the block has not reached the
    ITL section the tool always prints last (`LAST_SECTION`): the copy ends inside the block, so that last
    row may be cut short (a count prints as an integer: a cut one looks whole) and every row after it is
    not in the file. A block that reached it and lacks only its closing row may have been pasted without."""
    return (
        not closed
        and copy_ends(lines, end - 1)
        and ROW_RE.match(lines[end - 1].strip()) is not None
        and not any(SECTION_RE.match(lines[k].strip()) and LAST_SECTION in lines[k].lower() for k in range(start, end))
    )


def _parse_block(lines, start, end, source, settings, records, rejects, last=None, early=False) -> int:
    """The rows of lines[start+1:end]; `last` is the copy's last line where the block runs to the file's
    end without its closing row: read only if its value is whole as the tool prints it, and, where the copy
    ends before the block's latency sections (`early`: `_ends_early`), marked as the copy's end
    (`cut_after_item`)."""
    cells = 0
    power = False  # inside a --record-power section: the `serving-power` tool's rows
    for j in range(start + 1, end):
        s = lines[j].strip()
        if SECTION_RE.match(s):
            power = serving_power.is_heading(s)
            continue
        if power or not s:
            continue
        m = ROW_RE.match(s)
        label, text, ln = _words(m.group("label")), m.group("value"), j + 1
        if j == last and _cut_short(label, text):
            cells += 1
            rejects.append(cut_item(j, lines[j]))
            continue
        if j == last and early:  # read as printed; the rows the tool prints after it are not in the file
            cells += 1
            rejects.append(cut_after_item(j, lines[j]))
        if label == "Backend":
            settings["metadata"] = "; ".join(x for x in (f"backend={text}", settings.get("metadata")) if x)
            continue
        if label in SETTING_LABELS:
            settings[SETTING_LABELS[label]] = _rate(text)
            continue
        cells += 1
        value = _value(text, source, ln, label)
        note = "source printed nan" if math.isnan(value) else None
        st = STAT_RE.match(label)
        if label in LABELS:
            metric, stat, unit = LABELS[label]
        elif st:
            p = st.group("p")
            if p is not None and percentile(p) is None:
                rejects.append((ln, s, f"percentile P{p} is no rank between 0 and 100"))
                continue
            stat = percentile(p) if p is not None else st.group("stat").lower()
            metric, stat, unit = STAT_NAMES[st.group("name")], stat, "ms"
        else:
            rejects.append((ln, s, "a row this parser has no tidy name for"))
            continue
        records.append(dict(line=ln, metric=metric, statistic=stat, value=value, unit=unit, note=note))
    return cells


def _text(text: str | Lines, source: str, messages: list[str]):
    lines = _lines(text)
    records, rejects, cells = [], [], 0
    runs: list[tuple[dict, list[dict]]] = []  # each block's settings and rows, named once all are read
    prev, heading = 0, None
    blocks = _blocks(lines)
    doc = outline(lines)
    named = names(lines, [start for start, _, _, _ in blocks], doc)
    server: dict = {}  # the server launched last above the block
    for start, end, closed, headless in blocks:
        ctx = _context(lines, prev, start, doc, named)
        server = ctx.pop("server") or _serving_on(lines, start, doc, server)
        if len(blocks) == 1 and not ctx.get("model") and not server.get("model"):
            # one block and no command above it: the write-up put its command below
            below = _context(lines, end, len(lines), doc, named)
            server = server or below.pop("server")
            ctx.update({key: v for key, v in below.items() if key not in ("run", "server") and not ctx.get(key)})
        ctx = _with_server(ctx, server)
        heading = ctx.get("run", heading)
        top = None if headless else HEADER_RE.match(lines[start])  # None too for a copy from its Backend row
        banner = top["label"] if top else None
        # a caption right above the block or the fence it opens (`CUTLASS MoE perf:`), or a comment there,
        # names this block, nearer than a heading; the heading still names the blocks after it that have none
        caption = None if headless else vllm_serve.label_above(lines, prev, start, doc).get("label")
        label = (banner or "").strip() or comment_label(lines, doc, start, prev) or caption
        settings = run_settings(
            label or heading,
            HEADLESS if headless else "text",
            **{k: ctx[k] for k in ("model", "dataset", "num_prompts", "metadata") if k in ctx},
        )
        block: list[dict] = []
        last = end - 1 if not closed and copy_ends(lines, end - 1) else None
        early = _ends_early(lines, start, end, closed)
        n_rejects = len(rejects)
        cells += _parse_block(lines, start, end, source, settings, block, rejects, last, early)
        asked, at = ctx.get("command_rate") or (math.nan, 0)
        printed = settings["request_rate"]
        if not (math.isnan(asked) or math.isnan(printed)) and asked != printed:
            # the block prints the rate it ran at: a command asking another is not this block's, and
            # neither is the workload it sets (prompt count, dataset)
            settings.update(num_prompts=math.nan, dataset=None)
            messages.append(
                f"{source}:{start + 1}: the block prints a request rate of {printed:g}, the command on line {at} "
                f"asks {asked:g}: that command is not this block's, so its prompt count and dataset are not read as this run's"
            )
        if headless:
            messages.append(
                f"{source}:{start + 2}: the result block has no banner (pasted from below its top): its rows from "
                f"line {start + 2} to the closing row are read; the rows above them (backend, request rate, "
                "concurrency cap, and any the copy left out) are not in the file"
            )
        tail = None if closed else _tail_cut(lines, end)
        if tail is not None:
            rejects.append(cut_item(tail, lines[tail]))
            cells += 1
            messages.append(
                f"{source}:{start + 1}: the copy ends inside the result block, at line {tail + 1}: lines {start + 2}-"
                f"{end} read, line {tail + 1} not (the row or section header it starts is cut short)"
            )
        elif early and rejects[-1][2].startswith(COPY_ENDS_AFTER):
            messages.append(
                f"{source}:{start + 1}: the copy ends inside the result block, after line {end}, before the ITL "
                f"section the tool prints last: lines {start + 2}-{end} read, what follows them is not in the file"
            )
        elif len(rejects) > n_rejects and rejects[-1][0] == end:
            messages.append(
                f"{source}:{start + 1}: the copy ends inside the result block, at line {end}: lines {start + 2}-"
                f"{end - 1} read, line {end} not (its value lacks the two decimals the tool prints: cut short)"
            )
        elif not closed:
            messages.append(
                f"{source}:{start + 1}: the result block has no closing row of '='; read up to line {end} "
                "(pasted without it, or cut short: check that the last rows are there)"
            )
        meta = settings["metadata"] or ""
        if "speculative=" not in meta and any(r["metric"] == "spec_decode_acceptance_length" for r in block):
            # the tool prints `Accept length` only when the server reports one (speculative decoding): a
            # block that prints it ran another server than one that does not, even with no command above it
            settings["metadata"] = "; ".join(x for x in (meta, "speculative=method not named") if x)
        runs.append((settings, block))
        prev = end
    # named by its label or heading, and its load where that name covers other loads (`headings.run_names`)
    loads = [load_label(s["max_concurrency"], s["request_rate"]) for s, _ in runs]
    for (settings, block), name in zip(runs, run_names([s["run"] for s, _ in runs], loads), strict=True):
        records.extend({**settings, "run": name, **r} for r in block)
    return records, rejects, cells


# ---------------------------------------------------------------------------------------------
# JSONL


def _is_result_object(obj) -> bool:
    """An SGLang result object: the retokenized count (2024 on) or the July-2024 short keys; vLLM's
    objects have neither."""
    return isinstance(obj, dict) and (
        "total_output_tokens_retokenized" in obj or ("backend" in obj and "output_token_throughput" in obj)
    )


def _server_model(info: dict) -> str | None:
    """The model the servers ran, from `server_info` (bench_serving's copy of the server's
    `/get_server_info`): older servers answer with their flat args (`model_path` at the top); newer
    ones nest one args object per scheduler under `internal_states`, and a `--pd-separated` router
    answers with a list per role (`prefill`, `decode`). The model is stated only when every args
    object that names one names the same."""
    if info.get("model_path"):
        return info["model_path"]
    names = {
        a.get("model_path") or a.get("served_model_name")
        for key in ("internal_states", "prefill", "decode")
        for a in (info.get(key) if isinstance(info.get(key), list) else [])
        if isinstance(a, dict) and (a.get("model_path") or a.get("served_model_name"))
    }
    return names.pop() if len(names) == 1 else None


def _parse_object(obj: dict, line: int, source: str, records, rejects, messages) -> int:
    info = obj.get("server_info") if isinstance(obj.get("server_info"), dict) else {}
    meta = [
        f"{k}={obj[k]}"
        for k in (
            "backend",
            "random_input_len",
            "random_output_len",
            "random_range_ratio",
            "sharegpt_output_len",
            "sharegpt_context_len",
        )
        if obj.get(k) is not None
    ]
    settings = run_settings(
        obj.get("tag") or f"json line {line}",
        "json",
        model=obj.get("model_id") or _server_model(info),
        dataset=obj.get("dataset_name"),
        num_prompts=_rate(obj.get("num_prompts")),
        request_rate=_rate(obj.get("request_rate")),
        max_concurrency=_rate(obj.get("max_concurrency")),
        metadata="; ".join(meta) or None,
    )
    cells = 0
    arrays = [k for k in obj if k in ARRAY_KEYS]
    for key, v in obj.items():
        if key in JSON_SETTINGS or key in ARRAY_KEYS:
            continue
        jm = JSON_STAT_RE.match(key)
        numeric = isinstance(v, (int, float)) and not isinstance(v, bool)
        if not (key in JSON_METRICS or jm or numeric):
            continue
        cells += 1
        if v is None:
            value, note = math.nan, "source wrote null"
        elif not numeric:
            rejects.append((line, f"{key}: {v!r}"[:80], "expected a number"))
            continue
        else:
            value, note = float(v), None
        if jm:
            p = jm.group("p")
            if p is not None and percentile(p) is None:
                rejects.append((line, f"{key}: {v}", f"percentile p{p} is no rank between 0 and 100"))
                continue
            stat = percentile(p) if p is not None else jm.group("stat")
            metric, stat, unit = JSON_STAT_NAMES[jm.group("name")], stat, "ms"
        elif key in JSON_METRICS:
            metric, stat, unit = JSON_METRICS[key]
        else:
            rejects.append((line, f"{key}: {v}", "a numeric key this parser has no tidy name for"))
            continue
        records.append(
            {**settings, "line": line, "metric": metric, "statistic": stat, "value": value, "unit": unit, "note": note}
        )
    if arrays:
        messages.append(f"{source}:{line}: --output-details arrays ({', '.join(arrays)}) are not in the tidy table")
    return cells


def _jsonl(text: str | Lines, source: str, messages: list[str]):
    """--output-file's lines, one result object each; a line that opens no object is the text of the script
    that ran the tool (`max_prefill:...` echoed before each run, a `$ cat` line), set aside and said."""
    records, rejects, cells, text_lines = [], [], 0, []
    for n, raw in enumerate(split_n(text), start=1):
        s = raw.strip()
        if not s:
            continue
        if not s.startswith("{"):
            text_lines.append(n)
            continue
        try:
            obj = json.loads(s)
        except (json.JSONDecodeError, RecursionError):
            raise ParseError(
                source,
                n,
                "a result line cut short or not JSON (sglang.bench_serving --output-file writes one "
                "whole JSON object per line)",
            ) from None
        if not _is_result_object(obj):
            raise ParseError(source, n, "a JSON line that is not an sglang.bench_serving result object")
        cells += _parse_object(obj, n, source, records, rejects, messages)
    if text_lines:
        shown = ", ".join(map(str, text_lines[:5])) + (", ..." if len(text_lines) > 5 else "")
        messages.append(
            f"{source}: {counted(len(text_lines), 'line')} with no JSON object ({shown}): text around the result "
            "lines, not read"
        )
    return records, rejects, cells


# ---------------------------------------------------------------------------------------------
# the Tool


#: A result line of --output-file as text: its keys show even where the line is cut short.
RESULT_KEYS_RE = re.compile(r'"total_output_tokens_retokenized"\s*:|"backend"\s*:.*"output_token_throughput"\s*:')


def _result_lines(text: str | Lines) -> list[str]:
    return [s for line in split_n(text) if (s := line.strip()).startswith("{") and RESULT_KEYS_RE.search(s)]


def _is_jsonl(text: str | Lines) -> bool:
    """--output-file's lines: from the first line, or, in a text with no result banner, after lines of the
    script that ran the tool (a line opening with `{` that holds a result object's keys)."""
    if first_char(text) == "{":
        return True
    return not contains("Serving Benchmark Result", text) and bool(_result_lines(text))


SUBSET = (
    "a 'Serving Benchmark Result' banner over a selection of bench_serving's rows (no Backend, request rate or "
    "request-count rows, which the tool prints first under its banner): a script's subset of "
    "its print, which does not say how many requests ran at what load, so nothing here is read"
)


#: A banner with text before it on its line and the block's first row after it: the block's lines joined.
_FLAT_RE = re.compile(r"\S.*=+ Serving Benchmark Result =+ Backend: ")
FLATTENED = (
    "a 'Serving Benchmark Result' block flattened into a line of other text (its rows run together, the "
    "line break that ends each row gone): not the tool's print, whose rows this reader tells apart by line; "
    "not read"
)


def refuses(text: str | Lines) -> tuple[int, str] | None:
    """(line, why) of a bench_serving banner whose rows, closed by the row of 50 `=` and holding a row only
    SGLang prints, open with another row than `Backend:` (`Tool.refuses`): bench_serving prints `Backend:`
    first under its banner, so such a block is a script's selection of its rows; or of the first block
    flattened into a line of prose; else None."""
    lines = split_n(text)
    flat = next((i for i, line in enumerate(lines) if _FLAT_RE.search(line)), None)
    if flat is not None:
        return flat + 1, FLATTENED
    for i, line in enumerate(lines):
        if not HEADER_RE.match(line):
            continue
        j = i + 1
        while j < len(lines) and not CLOSE_RE.match(lines[j]) and _is_block_row(lines[j]):
            j += 1
        labels = [_label(lines[k]) for k in range(i + 1, j)]
        if j < len(lines) and CLOSE_RE.match(lines[j]) and _sglang_only(set(labels)) and "Backend" not in labels:
            return i + 1, SUBSET
    return None


def sniff(text: str | Lines) -> bool:
    if _is_jsonl(text):
        found = _result_lines(text)
        first = found[0] if found else next(s for line in split_n(text) if (s := line.lstrip()))
        try:
            return _is_result_object(json.loads(first))
        except (json.JSONDecodeError, RecursionError):
            return bool(found)  # a result line cut short: claimed, and refused with its line by `parse`
    signs = ("Serving Benchmark Result", *SGLANG_ONLY, " E2E Latency (ms)", "Traffic request rate:")
    if any(contains(t, text) for t in signs) and bool(_blocks(_lines(text))):
        return True
    return bool(_authors_tables(text)) or bool(sglang_grid.grids(split_n(text)))


#: A file naming SGLang or its bench_serving, and no other engine (whose numbers a table beside SGLang's may hold).
_ENGINE_RE = re.compile(r"\bsglang\b|\bbench_serving\b", re.I)


def _authors_tables(text: str | Lines) -> list[tuple[int, int, list[str]]]:
    """The authors' tables of serving results (`serving_table`) of a file that names SGLang and no other engine."""
    return serving_table.found(text, _ENGINE_RE, "sglang")


def _grids(lines: list[str], source: str, messages: list[str]):
    """The records of SGLang's summary grids (`sglang_grid`), each row read as the `--output-file` record it
    prints; a grid cut after its header, before any row, is refused naming its header."""
    records, rejects, cells = [], [], 0
    for grid in sglang_grid.grids(lines):
        if not grid.rows:
            raise ParseError(
                source,
                grid.header,
                "SGLang's parse_results.py summary grid of bench_serving records, cut after its header row before "
                "any record's row: there is no run to report",
            )
        several = len(sglang_grid.grids(lines)) > 1
        for line, index, row in grid.rows:
            obj = {k: v for k, v in row.items() if k != sglang_grid.DERIVED}
            obj["tag"] = f"grid at line {grid.header}, row {index}" if several else f"row {index}"
            before = len(records)
            cells += _parse_object(obj, line, source, records, rejects, messages)
            for r in records[before:]:
                r["format"] = sglang_grid.FORMAT
            if row.get(sglang_grid.DERIVED) is not None:
                cells += 1
                rejects.append((line, f"{sglang_grid.DERIVED}: {row[sglang_grid.DERIVED]}", sglang_grid.DERIVED_WHY))
        if grid.cut and re.search(r"\d", grid.cut[1]):
            cells += 1
            rejects.append((grid.cut[0], grid.cut[1].strip()[:80], sglang_grid.CUT_WHY))
    return records, rejects, cells


def _lines(text: str | Lines):
    """The text's lines, a block saved as a JSON list of its lines written out (`_unquoted`)."""
    lines = split_n(text)
    return _unquoted(lines) if contains('"====', text) else lines


def parse(text: str | Lines, source: str) -> Parsed:
    if isinstance(text, str):
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    messages: list[str] = []
    if _is_jsonl(text):
        records, rejects, cells = _jsonl(text, source, messages)
    else:
        records, rejects, cells = _text(text, source, messages)
        if not records and not rejects and not _blocks(_lines(text)):
            records, rejects, cells = _grids(split_n(text), source, messages)
        if not records and not rejects and not _blocks(_lines(text)):
            records, rejects, cells = serving_table.read(text, _authors_tables(text), source, messages)
    if not records and not rejects:
        blocks = [] if _is_jsonl(text) else _blocks(_lines(text))
        if blocks:  # a block whose rows stop at its settings: the copy is cut before any result
            start, end, _, _ = blocks[0]
            raise ParseError(
                source,
                start + 1,
                f"the result block of line {start + 1} stops at line {end} before any result (its rows there are "
                "settings): the copy ends or is cut there, so there is no run to report",
            )
        raise ParseError(source, 1, "no sglang.bench_serving result block (with a 'Backend:' row) or result JSON found")
    return finish(TOOL, source, records, rejects, messages, cells)


TOOL = register(
    Tool(
        name=NAME,
        settings=SETTINGS,
        sniff=sniff,
        parse=parse,
        refuses=refuses,
        description="SGLang `python -m sglang.bench_serving`: result blocks and --output-file JSONL (serving contract)",
        command="python -m sglang.bench_serving --backend sglang ... [--output-file OUT.jsonl]",
        metrics=METRICS,
        # an authors' table holds the columns its authors chose: its format declares no column it must print
        carries={HEADLESS: frozenset(), serving_table.FORMAT: frozenset(), sglang_grid.FORMAT: sglang_grid.CARRIES},
    )
)
