"""The console table AIPerf prints at the end of `aiperf profile` (the form most public AIPerf runs
are published in: issues, READMEs, tutorials), read into the serving contract as the JSON export is.

    NVIDIA AIPerf | LLM Metrics
    ┃               Metric ┃      avg ┃      min ┃      max ┃      p99 ┃      p90 ┃      p50 ┃      std ┃
    │  Time to First Token │    19.99 │    12.53 │    49.62 │    48.89 │    42.24 │    13.93 │    12.92 │
    │                 (ms) │          │          │          │          │          │          │          │
    │   Request Throughput │     0.63 │      N/A │      N/A │      N/A │      N/A │      N/A │      N/A │

A long label wraps onto following rows whose value cells are empty (joined with a space); a label
cut by a narrow terminal (`(tokens/sec/u…`) keeps its metric, its unit completed where one known
unit starts so; a once-per-run metric has `N/A` for its statistics (`NO_VALUE`: a copy that writes a dash
there, as AIPerf's tutorials do, means the same). Numbers carry thousands
separators (`2,940.39`, `1,690`). Around the table the log may hold the command: `aiperf profile
...` above it (shell continuation lines joined) or AIPerf's own `CLI Command: ...` below it
(wrapped onto several lines), and `Benchmark Duration: 15.81 sec`. Settings come from the command:
`--model`, `--concurrency`, `--request-rate`, `--request-count` (and the cap AIPerf's log names
when the command sets neither cap nor rate: `No concurrency value provided, setting to 1`); the
whole command is kept in `metadata`, with the synthetic workload it asks for (`--synthetic-input-tokens-mean`
and `--output-tokens-mean`, `WORKLOAD_OPTIONS`), which tells two runs' workloads apart where the table
prints no sequence lengths. Only tables titled exactly "NVIDIA AIPerf | LLM Metrics" are read: AIPerf's other
tables (GPU telemetry, server metrics, the newer grouped "LLM Metrics: Spec Decode" and the like)
hold no metric of the serving contract.

An author's Markdown table of one run (`| Metric | avg | p50 | p99 |`, rows in AIPerf's names or the
abbreviations its metrics reference gives, TTFT, ITL, ...) is read too, in a text that names AIPerf: its
header says which statistic each number is and the `aiperf profile` command above it is its run
(`parse_retyped`); a table whose columns are a wrapper's own (`osl-128 avg`) is refused (`refuses`).

Mapping (AIPerf's definitions, as in its JSON export): "Time to First Token" -> `ttft`, "Inter
Token Latency" (per request (latency - TTFT) / (output tokens - 1)) -> `tpot`, "Inter Chunk
Latency" -> `itl`, "Request Latency" -> `e2el`, "Request Count" -> `completed`, "Output Token
Throughput" -> `output_throughput`, "Goodput" -> `request_goodput`; other rows keep their label in
snake case. The metrics table prints no failed-request count: AIPerf prints its `NVIDIA AIPerf |
Error Summary` table (Code, Type, Message, Count) above it only when requests failed, and its counts
are read as `failed` (an empty metrics table under it is a run where every request failed). Without
one a page cannot tell that none failed (a log may be cut above the table): `aiperf.CARRIES` says
the console does not carry the failed count, so no page calls such a run failure-free. A
`Success Rate: 96% (75 requests ...)` line under the table, where its publisher wrote one, gives
the failed count (the share itself is set aside: the count says it), where the table prints the
Request Count beside which it means something. A trace replay (`--fixed-schedule`, `*_trace`
datasets) sends requests at the trace's timestamps: its format records no request rate, so no
page reads it as an all-at-once run.
"""

from __future__ import annotations

import math
import re

from benchbook.ingest.core import ParseError, copy_ends, cut_item, percentile
from benchbook.ingest.genai_perf import CUT, STATS, WORKLOAD_OPTIONS, _box_cells, _value
from benchbook.ingest.serving_settings import run_settings
from benchbook.nouns import counted

TOOL = "aiperf"
TITLE_RE = re.compile(r"NVIDIA AIPerf \| LLM Metrics[ \t]*$", re.M)
ERRORS_RE = re.compile(r"NVIDIA AIPerf \| Error Summary")
#: The sentence for a run whose every request failed (the same as the JSON export's).
ALL_FAILED = "every request failed: no throughput or latency was measured"
BOX_ROW, BOX_HEAD = "\u2502", "\u2503"  # │ ┃
#: The `format` of a console table with no command line beside it: it records no setting.
BARE = "console without a command line"
#: The `format` of a trace replay (`--fixed-schedule`, a trace dataset): requests are sent at the
#: trace's timestamps, neither at a rate nor all at once, so it records no request rate.
TRACE = "console, trace replay"
#: The `format` of LLM Metrics rows pasted without the table's title and header: their columns are the
#: exporter's fixed ones (`STAT_COLUMNS`), and nothing beside them records a setting.
HEADLESS = "console rows without title or header"
#: The statistics' columns of AIPerf's LLM Metrics table, in order (`ConsoleMetricsExporter.STAT_COLUMN_KEYS`,
#: aiperf/exporters/console_metrics_exporter.py; the first releases printed six, `avg` ... `p75`).
STAT_COLUMNS = ["avg", "min", "max", "p99", "p90", "p50", "std"]
#: Cells that hold no value: AIPerf's `N/A` under a once-per-run metric's statistics, and the dash a copy
#: writes in its place (AIPerf's own tutorials print `-` there).
NO_VALUE = ("N/A", "-", "\u2013", "\u2014")

#: snake-case label -> contract metric (others keep their label).
CONTRACT = {
    "time_to_first_token": "ttft",
    "time_to_second_token": "ttst",
    "inter_token_latency": "tpot",
    "inter_chunk_latency": "itl",
    "request_latency": "e2el",
    "request_count": "completed",
    "error_request_count": "failed",
    "request_throughput": "request_throughput",
    "goodput": "request_goodput",
    "output_token_throughput": "output_throughput",
    "output_token_throughput_per_user": "output_token_throughput_per_user",
}
#: Unit as the label's parenthesis writes it -> tidy unit.
UNITS = {
    "ms": "ms",
    "sec": "s",
    "tokens": "tok",
    "requests": "req",
    "tokens/sec": "tok/s",
    "tok/sec": "tok/s",
    "requests/sec": "req/s",
    "tokens/sec/user": "tok/s/user",
    "images/sec": "images/s",
    "ms/image": "ms/image",
    "req/sec": "req/s",
    "req/s": "req/s",
}
#: AIPerf's own abbreviations of its metric names (its metrics reference titles them "Time to First Token
#: (TTFT)", "Inter Token Latency (ITL)", ..., docs/metrics_reference.md): the names a table re-typed from a
#: run writes. AIPerf's ITL is its Inter Token Latency (vLLM's TPOT), its ICL the gaps between chunks.
ABBREVIATIONS = {
    "ttft": "time_to_first_token",
    "ttst": "time_to_second_token",
    "ttfo": "time_to_first_output_token",
    "itl": "inter_token_latency",
    "icl": "inter_chunk_latency",
    "osl": "output_sequence_length",
    "isl": "input_sequence_length",
}
_LABEL_UNIT = re.compile(r"^(?P<name>.*?)\s*\((?P<unit>[^()]*)\)?\s*$")
#: A summary line some publishers print under the table: `Success Rate: 96% (75 requests exceeded
#: 32K context window)`, `Success Rate: 100% (0 errors)`; the count in it is the failed requests.
_SUCCESS = re.compile(r"^Success Rate:\s*([\d.]+)\s*%\s*\((\d[\d,]*) (?:errors?|requests?\b[^)]*)\)")
#: AIPerf's log line when a command sets neither `--concurrency` nor `--request-rate`.
_DEFAULT_CAP = re.compile(r"No concurrency value provided, setting to (\d+)")
#: Lines that end a wrapped `CLI Command:` (AIPerf prints these after it).
_AFTER_CLI = re.compile(r"^(Benchmark Duration|CSV Export|JSON Export|Log File|[A-Z][A-Za-z ]+ Export):")


def _snake(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.strip().lower()).strip("_")


def _label(label: str) -> tuple[str, str, str | None]:
    """(tag, tidy unit, note) of a row's label; a unit cut by the console width is completed
    where exactly one known unit starts with what is left."""
    note = None
    m = _LABEL_UNIT.match(label)
    name, unit = (m.group("name"), m.group("unit").strip()) if m and "(" in label else (label, "")
    if unit.endswith(CUT):
        stem = unit[: -len(CUT)]
        known = [u for u in UNITS if u.startswith(stem)]
        unit = known[0] if len(known) == 1 else ""
        note = f"unit cut by the console width ({stem}{CUT}), read as {unit}" if unit else None
    tag = _snake(name)
    tag = ABBREVIATIONS.get(tag, tag)
    if tag == "request_count" or tag == "error_request_count":
        return tag, "req", note
    if not unit and "sequence_length" in tag:
        return tag, "tok", note
    return tag, UNITS.get(unit.lower(), "count" if unit in ("", "successful") else unit), note


def _command(lines: list[str], lo: int, hi: int, kinds=("cli", "shell")) -> str | None:
    """The last command of `kinds` in lines[lo:hi] (AIPerf's `CLI Command: ...` and a shell
    `aiperf profile ...`), joined onto one line."""
    found = None
    i = lo
    while i < hi:
        s = lines[i].strip()
        if s.startswith("CLI Command:") and "cli" in kinds:
            parts = [s[len("CLI Command:") :].strip()]
            while i + 1 < hi and lines[i + 1].strip() and not _AFTER_CLI.match(lines[i + 1].strip()):
                i += 1
                parts.append(lines[i].strip())
            found = " ".join(parts)
        elif re.match(r"^(\$\s*)?aiperf profile\b", s) and "shell" in kinds:
            parts = [s.rstrip("\\").strip()]
            while (s.endswith("\\") or open_quote(" ".join(parts))) and i + 1 < hi and not _fence(lines[i + 1]):
                i += 1
                s = lines[i].strip()
                parts.append(s.rstrip("\\").strip())
            found = " ".join(p for p in parts if p).lstrip("$ ")
        i += 1
    return found


def open_quote(text: str) -> bool:
    """Whether a shell command read so far ends inside a quoted string: the shell reads on past the
    line's end until the quote closes (an `--extra-inputs payload_template:'{...}'` over several
    lines), with or without a trailing backslash. A backslash escapes the next character outside
    single quotes, as in POSIX sh."""
    quote, escaped = "", False
    for ch in text:
        if escaped:
            escaped = False
        elif ch == "\\" and quote != "'":
            escaped = True
        elif quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
    return bool(quote)


def _fence(line: str) -> bool:
    """A markdown code fence: the command's block ends there, whatever quote a copy left open."""
    return line.lstrip().startswith(("```", "~~~"))


def _first_cli(lines: list[str], lo: int, hi: int) -> str | None:
    """The first `CLI Command:` in lines[lo:hi] (AIPerf writes it under its own run's table), joined
    onto one line; None where there is none."""
    at = [i for i in range(lo, hi) if lines[i].strip().startswith("CLI Command:")]
    return _command(lines, at[0], at[1] if len(at) > 1 else hi, kinds=("cli",)) if at else None


def _run_command(lines: list[str], k: int, titles: list[int], end: int, after: int, prev_end: int) -> str | None:
    """The command of table `k` (its title at `titles[k]`, its bottom rule at `end`, the previous
    table's at `prev_end` - 1). AIPerf prints `CLI Command:` under the table of its own run, so the
    first one after the table is this run's; a shell `aiperf profile` command stands above the output
    it produced, so the last one between the previous table and this title is this run's (a `CLI
    Command:` there is the previous run's); the one shell command written under the last table is its
    own (two or more there are usage examples: one table has one command's settings, `context.examples_after`)."""
    if cli := _first_cli(lines, end + 1, after):
        return cli
    if above := _command(lines, prev_end, titles[k], kinds=("shell",) if k else ("cli", "shell")):
        return above
    if k != len(titles) - 1:
        return None
    below = [i for i in range(end + 1, after) if re.match(r"^(\$\s*)?aiperf profile\b", lines[i].strip())]
    return _command(lines, end + 1, after, kinds=("shell",)) if len(below) == 1 else None


def _option(cmd: str, *names: str) -> str | None:
    for n in names:
        if m := re.search(rf"(?:^|\s){re.escape(n)}(?:\s+|=)(['\"]?)([^'\"\s]+)\1", cmd):
            return m.group(2)
    return None


def settings(cmd: str | None) -> dict:
    """The run's settings from its command line (NaN / None where it names none)."""

    def num(v):
        try:
            return float(v) if v is not None else math.nan
        except ValueError:
            return math.nan

    cmd = cmd or ""
    trace = bool(re.search(r"--fixed-schedule|_trace\b", cmd))
    asked = "".join(f"{k}={v}; " for k, names in WORKLOAD_OPTIONS.items() if (v := _option(cmd, *names)))
    rate, cap = num(_option(cmd, "--request-rate")), num(_option(cmd, "--concurrency"))
    if cmd and not trace and rate != rate and cap != cap:
        # AIPerf's default: no rate and no schedule is concurrency burst mode, and with no
        # --concurrency "set it to 1" (aiperf/common/config/user_config.py)
        cap = 1.0
    return run_settings(
        TOOL,
        (TRACE if trace else "console") if cmd else BARE,
        model=_option(cmd, "--model", "-m"),
        num_prompts=num(_option(cmd, "--request-count", "--num-requests")),
        request_rate=rate,
        max_concurrency=cap,
        metadata=f"{asked}cli_command={cmd}" if cmd else None,
    )


def _errors(lines: list[str], source: str, lo: int, hi: int) -> tuple[list[tuple[int, float, str]], int]:
    """The rows (line, count, type) of AIPerf's `Error Summary` table in lines[lo:hi] (`┃ Code ┃ Type
    ┃ Message ┃ Count ┃`), and the line of its title (0 where none is printed)."""
    title = next((i for i in range(lo, hi) if ERRORS_RE.search(lines[i])), None)
    if title is None:
        return [], 0
    head = next((j for j in range(title + 1, min(title + 4, hi)) if BOX_HEAD in lines[j]), None)
    header = _box_cells(lines[head], BOX_HEAD) if head is not None else []
    if "Count" not in header or "Type" not in header:
        raise ParseError(
            source, title + 1, "an AIPerf Error Summary without its header (┃ Code ┃ Type ┃ Message ┃ Count ┃)"
        )
    rows = []
    for j in range(head + 1, hi):
        s = lines[j].strip()
        if s.startswith("\u2514"):
            return rows, title + 1
        if s.startswith(BOX_ROW):
            cells = _box_cells(s, BOX_ROW)
            if len(cells) != len(header) or _value(cells[header.index("Count")]) is None:
                raise ParseError(source, j + 1, "an Error Summary row without a count under 'Count'")
            rows.append((j + 1, _value(cells[header.index("Count")]), cells[header.index("Type")]))
    raise ParseError(source, title + 1, "the AIPerf Error Summary ends without its bottom rule (└───)")


#: The title of any table AIPerf prints at the end of a run (`NVIDIA AIPerf | LLM Metrics`, and the
#: sections beside it: `NVIDIA AIPerf: Spec Decode`, `NVIDIA AIPerf | GPU Telemetry`, ...).
ANY_TITLE_RE = re.compile(r"NVIDIA AIPerf\s*[|:]\s*(?P<name>[^\n]*?)[ \t]*$", re.M)


#: The header row of AIPerf's Error Summary (`┃ Code ┃ Type ┃ Message ┃ Count ┃`), found with its title cut off.
ERROR_HEAD_RE = re.compile(r"\u2503\s*Code\s*\u2503\s*Type\s*\u2503\s*Message\s*\u2503\s*Count\s*\u2503")


def _error_count(row: str) -> float | None:
    """The count in the last cell of an Error Summary row (`│  400 │ Bad Request │ ... │   500 │`), else None
    (a message's continuation row leaves it empty)."""
    v = _value(_box_cells(row, BOX_ROW)[-1])
    return None if v is None or v != v else v


def refuses(text: str) -> tuple[int, str] | None:
    """(line, why) of the first of AIPerf's other end-of-run tables (Spec Decode, GPU telemetry, ...) in
    a file with no LLM Metrics table (`Tool.refuses`): those sections print beside a run's LLM Metrics
    and hold no request throughput or latency of it, so a copy of one alone is no serving run."""
    if TITLE_RE.search(text) or is_retyped(text):
        return None
    lines = text.split("\n")
    for i, line in enumerate(lines, start=1):
        if ERROR_HEAD_RE.search(line):
            counts = [c for s in lines[i:] if s.strip().startswith(BOX_ROW) and (c := _error_count(s)) is not None]
            return i, (
                f"AIPerf's Error Summary ({counted(int(sum(counts)), 'failed request')}) without the LLM Metrics "
                "table of its run: the copy measures no completed request, so there is no serving run to read"
            )
    for i, line in enumerate(lines, start=1):
        if (m := ANY_TITLE_RE.search(line)) and m["name"] and BOX_HEAD in text:
            return i, (
                f"AIPerf's '{m['name']}' table without the LLM Metrics table of its run: it holds no request "
                "throughput or latency, so there is no serving run to read"
            )
    return _copied_rows(text.split("\n"))


#: A row that names one of AIPerf's metrics in a layout of someone else's: a markdown table's first cell
#: (`| Time to First Token (ms) | 49.26 | 49.89 |`) or a CSV row another tool printed
#: (`Output Token Throughput (tokens/sec),598.78`).
_MD_ROW = re.compile(r"^\s*\|\s*(?P<label>[^|]+?)\s*\|\s*[\d.,]+\s*\|")
_CSV_ROW = re.compile(r"^\s*(?P<label>[A-Z][^,|]*?\([^()]*\))\s*,\s*[\d.]")


def _copied_rows(lines: list[str]) -> tuple[int, str] | None:
    """(line, why) of the first of two or more AIPerf metric rows laid out by another tool: a wrapper's
    markdown table (its columns its own, `osl-128 avg`, not AIPerf's statistics) or CSV rows printed
    with cells elided (`...`). Neither is AIPerf's console table or its whole export, so which
    statistic each number is, and of which run, is the wrapper's to say."""
    for kind, row in (("a markdown table", _MD_ROW), ("CSV rows", _CSV_ROW)):
        hits = [i for i, s in enumerate(lines, start=1) if (m := row.match(s)) and _label(m["label"])[0] in CONTRACT]
        if len(hits) >= 2:
            return hits[0], (
                f"{kind} of AIPerf's metric names laid out by another tool (not AIPerf's LLM Metrics table or a "
                "whole export of it): which statistic and which run each number is, the tool that printed it says"
            )
    return None


#: The `format` of a Markdown table its author re-typed from one AIPerf run, under the `aiperf profile`
#: command above it (which gives the settings), and of one with no command beside it (no setting known).
RETYPED = "an author's table of a console run"
RETYPED_BARE = "an author's table, no command line"
#: The `format` of an author's table of several AIPerf runs, one per row under its load (`by_run_tables`).
RETYPED_RUNS = "an author's table of runs, one per row"
#: A file that names AIPerf: its command or its name (an author's table is read as AIPerf's only then).
_NAMES_AIPERF = re.compile(r"\baiperf\b", re.I)
_RULE_CELL = re.compile(r"^:?-{3,}:?$")


def _md_cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _statistic(cell: str) -> bool:
    """Whether a header cell names one of AIPerf's statistics (`avg`, `min`, `max`, `std`, `pNN`)."""
    return cell in STATS or cell in STAT_COLUMNS or re.fullmatch(r"p\d+(?:\.\d+)?", cell) is not None


def retyped_tables(lines: list[str]) -> list[tuple[int, int, list[str], list]]:
    """(header index, index after the last row, statistics, rows (label, values, line)) of each Markdown
    table an author re-typed from an AIPerf run: its header names AIPerf's metric column (`Metric`) and
    then only AIPerf's statistics (`avg`, `p50`, `p99`, ...), so which statistic each number is, the
    table says; its rows name two or more of AIPerf's metrics of the serving contract, in full or by the
    abbreviations AIPerf's docs give (`TTFT (ms)`). A table whose columns are its own (`osl-128 avg`) is
    a wrapper's, not this (`_copied_rows`)."""
    found = []
    for i, j, head, rows in _tables(lines):
        named = sum(_label(label)[0] in CONTRACT for label, _, _ in rows)
        if head[0].lower() == "metric" and len(head) > 1 and all(map(_statistic, head[1:])) and named >= 2:
            found.append((i, j, head[1:], rows))
    return found


def _tables(lines: list[str]):
    """(header index, index after the last row, header cells, rows (first cell, other cells, 1-based line)) of
    each Markdown table in `lines`: a `|` row over a row of rule cells, and the `|` rows below it."""
    i = 0
    while i + 1 < len(lines):
        if not (lines[i].lstrip().startswith("|") and all(_RULE_CELL.match(c) for c in _md_cells(lines[i + 1]))):
            i += 1
            continue
        j, rows = i + 2, []
        while j < len(lines) and lines[j].lstrip().startswith("|"):
            cells = _md_cells(lines[j])
            rows.append((cells[0], cells[1:], j + 1))
            j += 1
        yield i, j, _md_cells(lines[i]), rows
        i = j


#: the load column of a table of runs: AIPerf's own options (`--concurrency`, `--request-rate`), by their words
_LOAD_COLUMN = {"concurrency": "max_concurrency", "request_rate": "request_rate"}


def by_run_tables(lines: list[str]) -> list[tuple[int, int, str, list[str], list]]:
    """(header index, index after the last row, load setting, metric labels, rows) of each Markdown table an
    author laid out one AIPerf run per row: its first column the load as AIPerf's option names it
    (`concurrency`, `request rate`), every other column one of AIPerf's metric labels with its unit in AIPerf's
    words (`Time to First Token (ms)`), two or more of them metrics of the serving contract. The header names
    no statistic, so each number is read as the table names it (statistic `value`); a column that is no
    AIPerf metric with its unit, or a row whose load is not a number, leaves the table unread."""
    found = []
    for i, j, head, rows in _tables(lines):
        load = _LOAD_COLUMN.get(_snake(head[0]))  # the header's words name the runs (`concurrency 5`)
        labels = [(_label(h), h) for h in head[1:]]
        known = all("(" in h and (lu[1] in UNITS.values() or lu[0].endswith("sequence_length")) for lu, h in labels)
        named = sum(lu[0] in CONTRACT for lu, _ in labels)
        if load and known and named >= 2 and rows and all(_value(r[0]) is not None for r in rows):
            found.append((i, j, load, head[1:], rows))
    return found


def is_retyped(text: str) -> bool:
    """A text that names AIPerf and holds, outside any console table of it, an author's table of its run or
    of its runs (one per row, `by_run_tables`)."""
    if TITLE_RE.search(text) or BOX_HEAD in text or not _NAMES_AIPERF.search(text):
        return False
    lines = text.split("\n")
    return bool(retyped_tables(lines) or by_run_tables(lines))


def parse_retyped(text: str, source: str, messages: list[str]):
    """(records, rejects, cells) of the authors' tables of AIPerf runs: each table one run, each number
    under the statistic its header names, the run's settings from the last `aiperf profile` command
    between the previous table and this one (a command below the last table is another run's: its
    results are not in the table)."""
    lines = text.split("\n")
    tables = retyped_tables(lines)
    records, rejects, cells, names, prev = [], [], 0, [], 0
    for head, _end, load, labels, rows in by_run_tables(lines):
        cmd, word = _command(lines, 0, head, kinds=("shell",)), _md_cells(lines[head])[0]
        for value, vals, ln in rows:
            run = {**settings(cmd), "format": RETYPED_RUNS, load: _value(value), "run": f"{word} {value}"}
            cells += _rows(
                [(lab, [v], ln) for lab, v in zip(labels, vals, strict=False)], ["avg"], run, records, rejects
            )
        messages.append(
            f"{source}:{head + 1}: a Markdown table its author laid out one AIPerf run per row ({load} {', '.join(r[0] for r in rows)}):"
            " each number read under the metric its column names, as the table names it (the header names no statistic)"
        )
    for head, end, stats, rows in tables:
        cmd = _command(lines, prev, head, kinds=("shell",))
        prev = end
        run = {**settings(cmd), "format": RETYPED if cmd else RETYPED_BARE}
        if len(tables) > 1 or cmd is None:
            run["run"] = _order_name(names)
        cells += _rows(rows, stats, run, records, rejects)
        said = "the `aiperf profile` command above it" if cmd else "no command line above it, so no setting is known"
        messages.append(
            f"{source}:{head + 1}: a Markdown table its author re-typed from an AIPerf run: each number read under "
            f"the statistic its header names ({', '.join(stats)}); its settings from {said}"
        )
    return records, rejects, cells


def is_console(text: str) -> bool:
    return bool(TITLE_RE.search(text)) and BOX_HEAD in text


def parse(text: str, source: str, messages: list[str]):
    """(records, rejects, cells) of every LLM Metrics table in a console log."""
    lines = text.split("\n")
    titles = [i for i, s in enumerate(lines) if TITLE_RE.search(s)]
    records, rejects, cells = [], [], 0
    prev_end, bare_names = 0, []
    for k, title in enumerate(titles):
        head = next((j for j in range(title + 1, min(title + 4, len(lines))) if BOX_HEAD in lines[j]), None)
        if head is None:
            raise ParseError(source, title + 1, "an AIPerf title without its table header (┃ Metric ┃ avg ┃ ...)")
        header = _box_cells(lines[head], BOX_HEAD)
        if header[:1] != ["Metric"] or not all(h in STATS or re.fullmatch(r"p\d+", h) for h in header[1:]):
            raise ParseError(source, head + 1, f"an AIPerf table header with unknown columns: {', '.join(header)}")
        end, rows, pending, cut = head + 1, [], None, False
        while end < len(lines) and not lines[end].strip().startswith("\u2514"):  # └ closes the table
            s = lines[end].strip()
            # the copy ends before the table's bottom rule (└───): its last line may be cut short, not read
            if copy_ends(lines, end):
                numbers = (
                    [c for c in _box_cells(s, BOX_ROW)[1:] if _value(c) is not None] if s.startswith(BOX_ROW) else []
                )
                line_, _, why = cut_item(end, s)
                rejects.extend((line_, f"{s[:40].strip()} ... {c}", why) for c in numbers or [s[-20:]])
                cells += max(len(numbers), 1)
                messages.append(
                    f"{source}:{end + 1}: the copy ends inside the LLM Metrics table, at line {end + 1}: "
                    f"the rows above it read, that line not (it may be cut short)"
                )
                end, cut = len(lines), True
                break
            if s.startswith(BOX_ROW):
                cells_ = _box_cells(s, BOX_ROW)
                label, vals = cells_[0], cells_[1:]
                if len(vals) < len(header) - 1 or any(_value(v) is not None for v in vals[len(header) - 1 :]):
                    raise ParseError(
                        source, end + 1, f"a table row with {len(vals)} values under {len(header) - 1} statistics"
                    )
                vals = vals[: len(header) - 1]
                if pending is not None and label and not any(v for v in vals):
                    pending[0] = f"{pending[0]} {label}"  # a label wrapped onto the next row
                elif not label:
                    raise ParseError(source, end + 1, "a table row of values without a metric name")
                else:
                    pending = [label, vals, end + 1]
                    rows.append(pending)
            elif s and not s.startswith(("\u2521", "\u250f", "\u2500")):  # ┡ ┏ rules
                raise ParseError(source, end + 1, "the AIPerf table ends without its bottom rule (└───)")
            end += 1
        if end == len(lines) and not cut:
            raise ParseError(source, head + 1, "the AIPerf table ends without its bottom rule (└───)")
        after = titles[k + 1] if k + 1 < len(titles) else len(lines)
        before = titles[k - 1] + 1 if k else 0
        errors, errors_at = _errors(lines, source, before, title)
        if not rows and not errors:
            raise ParseError(source, head + 1, "an AIPerf table without a metric row")
        cmd = _run_command(lines, k, titles, end, after, prev_end)
        prev_end = end + 1
        run = settings(cmd)
        if label := lines[title][: TITLE_RE.search(lines[title]).start()].strip():
            run["run"] = label  # AIPerf centres its title: words before it are the publisher's name for the run
        elif cmd is None:  # tables with no command and no label are told apart by their order, as GenAI-Perf's
            run["run"] = _order_name(bare_names)
        if cmd and run["max_concurrency"] != run["max_concurrency"] and run["request_rate"] != run["request_rate"]:
            # AIPerf's own log line when neither a cap nor a rate is given: it runs at a cap it names
            said = (m for i in range(before, after) if (m := _DEFAULT_CAP.search(lines[i])))
            if m := next(said, None):
                run["max_concurrency"] = float(m.group(1))
        if errors:  # AIPerf prints its Error Summary above the metrics: the failed requests, by type
            cells += len(errors)
            kinds = ", ".join(f"{n:g} x {kind}" for _, n, kind in errors)
            note = f"the Error Summary at line {errors_at}: {kinds}"
            total = sum(n for _, n, _ in errors)
            records.append(
                {**run, "line": errors[0][0], "metric": "failed", "statistic": "count", "value": total}
                | {"unit": "req", "note": note}
            )
            rejects.extend(
                (ln, f"{kind}: {n:g}", f"summed into the failed count at line {errors[0][0]}")
                for ln, n, kind in errors[1:]
            )
            if not rows:
                messages.append(f"{source}: {ALL_FAILED} ({kinds}; the LLM Metrics table at line {title + 1} is empty)")
        cells += _rows(rows, header[1:], run, records, rejects)
        for i in range(end + 1, after):
            if m := re.match(r"^Benchmark Duration:\s*([\d,.]+)\s*sec\b", lines[i].strip()):
                cells += 1
                records.append(
                    {**run, "line": i + 1, "metric": "duration", "statistic": "value", "value": _value(m.group(1))}
                    | {"unit": "s", "note": None}
                )
            if m := _SUCCESS.match(lines[i].strip()):
                cells += 2
                rejects.append((i + 1, f"Success Rate: {m.group(1)}%", "a share: the failed count beside it is kept"))
                if any(r["metric"] == "failed" for r in records):
                    rejects.append(
                        (i + 1, f"Success Rate ({m.group(2)} failed)", "AIPerf's Error Summary gives the failed count")
                    )
                    continue
                if not any(r["metric"] == "completed" for r in records):  # a failed count alone reads as all failed
                    why = "a failed count without the table's Request Count to pair it with"
                    rejects.append((i + 1, f"Success Rate ({m.group(2)} failed)", why))
                    continue
                records.append(
                    {**run, "line": i + 1, "metric": "failed", "statistic": "count", "value": _value(m.group(2))}
                    | {"unit": "req", "note": "the 'Success Rate' line under the table (its publisher's summary)"}
                )
        if cmd is None:
            messages.append(
                f"{source}: no `aiperf profile` command line beside the table (line {title + 1}): "
                "its model, concurrency and request rate are not known"
            )
    return records, rejects, cells


def _order_name(names: list[str]) -> str:
    """The run name of a table with neither command nor label: `aiperf`, then `aiperf #2`, ... in
    the order they are printed (`names`: the ones given so far, extended here)."""
    names.append(TOOL if not names else f"{TOOL} #{len(names) + 1}")
    return names[-1]


def _rows(rows: list, stats: list[str], run: dict, records: list, rejects: list) -> int:
    """Each row's numbers under its statistics (`stats`, the header's after `Metric`) into `records` or
    `rejects`; the count of numbers seen."""
    cells = 0
    for label, vals, ln in rows:
        tag, unit, note = _label(label)
        metric = CONTRACT.get(tag, tag)
        present = [(h, v) for h, v in zip(stats, vals, strict=False) if v and v not in NO_VALUE]
        single = all(h == "avg" for h, _ in present)
        for h, c in present:
            cells += 1
            v = _value(c)
            if CUT in c:
                rejects.append((ln, f"{label} {h}: {c}", "cut short by the console width"))
            elif v is None:
                rejects.append((ln, f"{label} {h}: {c}"[:80], "expected a number"))
            elif h not in STATS and percentile(h) is None:
                rejects.append((ln, f"{label} {h}: {c}", f"{h} is not a statistic of the tidy table"))
            else:
                stat = ("count" if metric in ("completed", "failed") else "value") if single else STATS.get(h)
                stat = stat or percentile(h)
                records.append(
                    {**run, "line": ln, "metric": metric, "statistic": stat, "value": v, "unit": unit} | {"note": note}
                )
    return cells


def _headless(line: str) -> tuple[str, list[str]] | None:
    """(label, values) of a row of the LLM Metrics table as the exporter prints it, `│ Header (unit) │`
    then one cell per `STAT_COLUMNS` (a number or `N/A`), its unit one AIPerf writes; else None."""
    s = line.strip()
    if not (s.startswith(BOX_ROW) and s.endswith(BOX_ROW)):
        return None
    cells = _box_cells(s, BOX_ROW)
    label, vals = cells[0], cells[1:]
    m = _LABEL_UNIT.match(label)
    if len(vals) != len(STAT_COLUMNS) or not m or "(" not in label or m.group("unit").strip().lower() not in UNITS:
        return None
    if not all(v in NO_VALUE or _value(v) is not None for v in vals) or vals[0] in NO_VALUE:
        return None
    return label, vals


def is_headless(text: str) -> bool:
    """LLM Metrics rows with no title and no header above them (a paste that kept only its rows): two
    or more rows of the exporter's layout (`_headless`), and no box header (`┃`) in the file."""
    if TITLE_RE.search(text) or BOX_HEAD in text:
        return False
    return sum(1 for line in text.split("\n") if _headless(line)) >= 2


def parse_headless(text: str, source: str, messages: list[str]):
    """(records, rejects, cells) of LLM Metrics rows pasted without their title and header, each value
    under the exporter's fixed column (`STAT_COLUMNS`)."""
    run = {**settings(None), "format": HEADLESS}
    rows = [(row[0], row[1], i + 1) for i, line in enumerate(text.split("\n")) if (row := _headless(line))]
    records: list = []
    rejects: list = []
    cells = _rows(rows, STAT_COLUMNS, run, records, rejects)
    messages.append(
        f"{source}:{rows[0][2]}: AIPerf's LLM Metrics rows without the table's title and header: read under the "
        f"exporter's fixed columns ({', '.join(STAT_COLUMNS)}); no command line, so no setting is known"
    )
    return records, rejects, cells
