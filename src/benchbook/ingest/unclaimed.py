"""The sign of a measurement in a file no tool claims, named by its line when the file is refused.

A file that no reader recognises is refused; where it holds benchmark numbers in a layout of its own
(a table retyped by hand or written by a wrapper, a figure in prose, a dict printed by a script),
the refusal names the first such table (or, where there is none, the first figure) so that a user
sees what was found and where, not only that nothing was. Tables come first: a result is tabled
more often than a target or a spec is, and prose above a table often quotes requirements.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from itertools import islice

from benchbook.nouns import counted

#: A word or unit that names a measured quantity in a column header or beside a number (a bare `(s)` is seconds;
#: one glued to a word, `head(s)`, is a plural).
_METRIC = re.compile(
    r"(?i:\b(?:TTFT|TPOT|ITL|E2EL|latency|throughput|T?FLOP/?s|TFLOPS|MFU|power|energy|joules?|kWh|Wh|"
    r"tok(?:en)?s?/s(?:ec)?|t/s|req(?:uest)?s?/s|speed|seconds?)\b)|(?<![A-Za-z])(?:ms|µs|us|sec|W|J|tok_s)(?![A-Za-z])|(?<![A-Za-z])\(s\)"
)
#: A number followed by a unit of a measurement: `143.2 TFLOPS/s`, `477W`, `4.18 tokens/sec`, `462ms`.
_FIGURE = re.compile(
    r"\d[\d,]*(?:\.\d+)?\)?\s*(?:T?FLOPS(?:/s)?|TFLOP/s|tok(?:en)?s?/s(?:ec)?|tokens? per second|t/s|"
    r"req(?:uest)?s?/s|ms|µs|kWh|Wh|kW|W|J|GB/s|TB/s)(?![A-Za-z])",
)
#: Seconds a script prints glued to a decimal (`Time: 0.316s`, Python's f"{t:.3f}s"): a number with a decimal
#: point, not part of a word (`A100s` is a device), `s` ending it.
_SECONDS = re.compile(r"(?<![\w.])\d+\.\d+s(?![A-Za-z])")
#: A `name: value` pair whose name is a measured quantity: `Mean TPOT (ms):  16.80`, `ms/iter: sdpa=4.41`.
_PAIR = re.compile(r"^[^\w#]*(?P<key>\w[^:=]{1,40}?)\s*[:=]\s*\S*?\d")
_NUMBER = re.compile(r"^[-+]?\d[\d,]*(?:\.\d+)?%?$")
_RULE = re.compile(r"^[\s|+=:\-]*$")
#: A sentence's end (`... is close to each other.`, `why is that?`): a line of prose, never a table's header.
_SENTENCE = re.compile(r"[.?!]\s*$")
#: A command's long option (`--tolerance 0.05`, `--fail-on-regression ttft:p99`): its line states settings, no figure.
_OPTION = re.compile(r"(?:^|\s)--[A-Za-z]")


def sign(lines: Sequence[str]) -> tuple[int, str] | None:
    """(line, what is there) of the first table of measurements, else of the first figure; None where
    the file holds neither (then it is refused naming nothing, as a file of no benchmark is)."""
    return (
        _compare(lines) or _table(lines) or _captioned(lines) or _figure(lines) or _labelled(lines) or _headless(lines)
    )


#: `torch.utils.benchmark.Compare`'s print (`utils/compare.py`): a `[--- title ---]` line, the column
#: labels, `N threads: ---`, a row per measurement, and `Times are in <unit> (<abbr>).` under them.
_COMPARE_TITLE = re.compile(r"^\s*\[-+\s*(?P<title>.*?)\s*-+\]\s*$")
_COMPARE_THREADS = re.compile(r"^\s*\d+ threads: -+\s*$")
_COMPARE_UNIT = re.compile(r"^\s*Times are in (?P<unit>\w+)")


def _compare(lines: Sequence[str]) -> tuple[int, str] | None:
    """A `torch.utils.benchmark.Compare` table: a user's own timing script, its unit only in the footer
    (`Times are in microseconds (us).`), which a copy may have cut."""
    for i, line in enumerate(lines):
        m = _COMPARE_TITLE.match(line)
        if not m or not any(_COMPARE_THREADS.match(s) for s in lines[i + 1 : i + 4]):
            continue
        rows, unit = 0, None
        for s in islice(lines, i + 1, None):  # a blank line parts groups of rows; words end the table
            if u := _COMPARE_UNIT.match(s):
                unit = u["unit"]
                break
            if s.strip() and "|" not in s and not _COMPARE_THREADS.match(s):
                break
            rows += "|" in s and any(_NUMBER.match(c) for c in _cells(s)[1:])
        where = f"times in {unit}" if unit else "its unit line not in the file"
        title = f" `{_short(m['title'])}`" if m["title"] else ""
        return i + 1, f"a torch.utils.benchmark Compare table{title} ({counted(rows, 'row')}, {where})"
    return None


def _cells(line: str) -> list[str]:
    """A pipe row's cells, or a CSV line's."""
    sep = "|" if "|" in line else ","
    return [c.strip().strip("*`") for c in line.strip().strip("|").split(sep)]


def _tabled(line: str) -> bool:
    return line.count("|") >= 3 or "|" not in line and line.count(",") >= 3


def _numeric_row(line: str) -> bool:
    """A row that holds a measured number: a pipe row with a numeric cell, or a text row of three."""
    if _tabled(line):
        return any(_NUMBER.match(c.split()[0]) for c in _cells(line) if c)
    return sum(bool(_NUMBER.match(t)) or "/" in t and t[:1].isdigit() for t in line.split()) >= 3


def _table(lines: Sequence[str]) -> tuple[int, str] | None:
    """The first header (a pipe row, or a text line with no digit) naming a measured quantity, with a
    numeric row within the next four lines; what it says: its measured columns and its row count."""
    for i, line in enumerate(lines):
        piped = _tabled(line)
        if not piped and (any(ch.isdigit() for ch in line) or len(line.split()) < 2 or _SENTENCE.search(line)):
            continue
        named = [c for c in (_cells(line) if piped else [line.strip().lstrip("#").strip()]) if c and _METRIC.search(c)]
        if piped and not named and (i == 0 or not _tabled(lines[i - 1])):
            by_row = _row_names(islice(lines, i + 1, None))
            if len(by_row) > 1:  # one such row is a setting in a card of facts (`Power limit | 220 W`)
                return i + 1, f"a table with a row each for {_listed(by_row)}"
        if not named or (piped and any(c[:1].isdigit() for c in _cells(line))):
            continue
        body = [s for s in lines[i + 1 : i + 5] if not _RULE.match(s)]
        if not body or not _numeric_row(body[0]) and not (len(body) > 1 and _numeric_row(body[1])):
            continue
        rows = sum(1 for s in _extent(lines, i) if not _RULE.match(s) and _numeric_row(s))
        if not rows:
            continue
        return i + 1, f"a table of {_listed(named)} ({counted(rows, 'row of numbers', 'rows of numbers')})"
    return None


def _captioned(lines: Sequence[str]) -> tuple[int, str] | None:
    """Where no header names a quantity: the first pipe table of numbers under a caption that does
    (`Times are mean µs` over `| S | Flex | Flash |`), one of the three lines above it, none a table's
    row; its header's line, and the quantity as the caption's line names it."""
    for i, line in enumerate(lines):
        if line.count("|") < 3 or i and lines[i - 1].count("|") >= 3:
            continue
        rows = sum(1 for s in _extent(lines, i) if not _RULE.match(s) and _numeric_row(s))
        above = [j for j in range(i - 1, -1, -1) if lines[j].strip()][:3]
        for j in above if rows else ():
            if lines[j].count("|") >= 3:
                break
            if m := _METRIC.search(lines[j]):
                numbers = counted(rows, "row of numbers", "rows of numbers")
                return i + 1, f"a table of numbers in {m.group(0)}, as line {j + 1} says ({numbers})"
    return None


def _headless(lines: Sequence[str]) -> tuple[int, str] | None:
    """Where nothing above names a quantity: the first run of two or more pipe rows with numbers whose header
    the file does not hold (a copy cut below a table's header and separator, ggml-org/llama.cpp PR 10581); one
    such row alone is a card's line, no table."""
    for i, line in enumerate(lines):
        if line.count("|") < 3 or not _numeric_row(line) or i and lines[i - 1].count("|") >= 3:
            continue
        rows = 0
        for s in islice(lines, i, None):
            if s.count("|") < 3 or _RULE.match(s):
                break
            rows += _numeric_row(s)
        if rows > 1:
            return i + 1, f"{counted(rows, 'row', 'rows')} of a table of numbers whose header the file does not hold"
    return None


def _row_names(after: Iterable[str]) -> list[str]:
    """A table written sideways (a metric per row, a run per column): the first cells of its rows that
    name a measured quantity and hold a number in another cell."""
    out = []
    for line in after:
        if not _tabled(line):
            break
        cells = _cells(line)
        if _METRIC.search(cells[0]) and any(c[:1].isdigit() for c in cells[1:]):
            out.append(cells[0])
    return out


def _listed(names: list[str]) -> str:
    names = [" ".join(n.split()) for n in names]
    return ", ".join(names[:4]) + (f" and {len(names) - 4} more" if len(names) > 4 else "")


def _extent(lines: Sequence[str], header: int) -> list[str]:
    """The lines after the header that its table runs over: to the first blank line past a row."""
    out = []
    for s in islice(lines, header + 1, None):
        if not s.strip() and len(out) > 1:
            break
        out.append(s)
    return out


def _figure(lines: Sequence[str]) -> tuple[int, str] | None:
    """The first line with a number in a unit of measurement, or a measured quantity's `name: value`."""
    for i, line in enumerate(lines):
        if _OPTION.search(line):
            continue
        m = _FIGURE.search(line) or _SECONDS.search(line)
        pair = _PAIR.match(line)
        if m is None and not (pair and len(pair["key"].split()) <= 5 and _METRIC.search(pair["key"])):
            continue
        seen = re.sub(r"\)\s*", " ", m.group(0)) if m else line.strip()
        return i + 1, f"a figure in text ({_short(seen)})"
    return None


#: A label a script prints over its own figure (`-----Time SDPA-----`): a measured quantity's word in a line
#: of words and rule characters.
_LABEL = re.compile(
    r"^[\s\-=#*:]*(?P<label>(?i:time|latency|throughput|duration|elapsed)\b[\w ./()-]{0,40}?)[\s\-=#*:]*$"
)


def _labelled(lines: Sequence[str]) -> tuple[int, str] | None:
    """The first number alone on its line right under a label naming a measured quantity (`Time SDPA`
    over `27.270353698730467`, pytorch issue 148711): a script's own print, its unit not printed."""
    for i in range(1, len(lines)):
        m = _LABEL.match(lines[i - 1])
        if m and _NUMBER.match(lines[i].strip()):
            return i + 1, f"a number printed under `{_short(m['label'].strip())}`, with no unit"
    return None


#: A benchmark's own command, whose output a reader of benchbook reads (the program, or its module run by
#: `python -m`; SGLang-JAX's `sgl_jax.bench_*` are SGLang's, ported; GuideLLM's `benchmark` group runs its
#: default `run`, which its docs write out: `guidellm benchmark run \\`), and a server's launch command; each followed on its line by an option, a wrapping `\\`
#: or nothing (a name in a sentence, `` `vllm bench serve` command ``, is none).
_BENCH_CMD = re.compile(
    r"(?<![\w./-])(?P<cmd>(?:sglang|sgl_jax)\.bench_(?:serving|one_batch_server|one_batch|offline_throughput)|"
    r"vllm\s+bench\s+(?:serve|throughput|latency)|benchmark_(?:serving|throughput|latency)\.py|"
    r"guidellm\s+benchmark(?:\s+run)?|inference-perf|text-generation-benchmark|llama-bench|llama-batched-bench|"
    r"genai-perf\s+profile|aiperf\s+profile|trtllm-bench|(?:[\w.-]+/)*(?:gptManagerBenchmark|gptSessionBenchmark)|"
    # the attention-kernel benchmarks: PyTorch's FlexAttention sweep, flash-attention's scripts
    r"(?:[\w.-]+/)*score_mod\.py|(?:[\w.-]+/)*benchmark_flash_attention\w*\.py)(?=\s+-|\s*\\\s*$|\s*$)"
)
#: What stands before a tool's name run with no flag after it, the line's end its own (`python3 -m
#: sglang.bench_serving`, `$ llama-bench`): nothing but a prompt or backtick and a `python -m` from the line's
#: start. A name that ends a sentence (`... crushed while using sglang.bench_serving`, an issue's title, `... i
#: test the throughput by python3 -m sglang.bench_serving`) runs nothing.
_BARE_RUN = re.compile(r"^\s*(?:[$>]\s*|`)?(?:(?:\S*/)?python[\d.]*\s+(?:-m\s+)?)?$")
_SERVER_CMD = re.compile(
    r"(?<![\w./-])(?P<cmd>vllm\s+serve|sglang\s+serve|(?:sglang|sgl_jax)\.launch_server|text-generation-launcher|"
    r"trtllm-serve|llama-server)(?=\s+-|\s+\S+\s+-|\s*\\\s*$)"
)


#: What a benchmark prints before its results, or a server logs as it runs, where a file holds no result:
#: SGLang's bench_serving echoes its arguments (`benchmark_args=Namespace(...)`), inference-perf logs its
#: configuration (`Benchmarking with the following config:`) and argparse's `Namespace(...)` of another CLI.
_ECHO = (
    (
        re.compile(r"^\s*benchmark_args=Namespace\("),
        "sglang.bench_serving's echo of its arguments, and none of its results",
    ),
    (
        re.compile(r"\bBenchmarking with the following config:"),
        "inference-perf's echo of its configuration, and no report",
    ),
    (
        re.compile(r"^\s*Namespace\(\w+="),
        "a benchmark's echo of its arguments (argparse's Namespace), and none of its results",
    ),
)
#: SGLang's scheduler logs each batch it runs (`Decode batch. #running-req: ...`, `Prefill batch. #new-seq: ...`):
#: the server's own measurement of a run, so a file holding it beside the server's launch is named by the log,
#: the part of it that is output, not by the command.
_SERVER_LOG = (
    re.compile(r"\b(?:Decode|Prefill) batch[.,] #(?:running-req|new-seq)\b"),
    "SGLang's scheduler log (a server's per-batch log, which no reader of benchbook takes), and no benchmark output",
)


def command(lines: Sequence[str]) -> tuple[int, str] | None:
    """(line, what) of the first command of a benchmark whose output benchbook reads, else of a server's
    own log (`_SERVER_LOG`), else of the first launch of a server, else of the first echo a benchmark prints
    before its results (`_ECHO`), where the file holds none of that output: a write-up cut before its
    results, or one whose results are yet to come. None where there is none of them."""
    for pattern, what in (
        (_BENCH_CMD, "a command that runs {}, and none of its output"),
        _SERVER_LOG,
        (_SERVER_CMD, "a command that launches {}, and no benchmark output"),
    ):
        for i, line in enumerate(lines):
            m = pattern.search(line)
            if m and pattern is _BENCH_CMD and not line[m.end() :].strip() and not _BARE_RUN.search(line[: m.start()]):
                m = None  # the name ends the line with no flag and nothing runs it: a sentence's, no command
            if m:
                return i + 1, what.format(" ".join(m["cmd"].split())) if "cmd" in pattern.groupindex else what
    for pattern, what in _ECHO:
        for i, line in enumerate(lines):
            if pattern.search(line):
                return i + 1, what
    return None


def _short(s: str, n: int = 60) -> str:
    s = " ".join(s.split())
    return s if len(s) <= n else s[: n - 3].rstrip() + "..."
