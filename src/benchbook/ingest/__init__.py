"""Parse the source tools' real outputs into validated, traceable tidy tables.

`read(path)` detects which tools' output a file holds (a write-up may hold several), runs each
parser and returns one long table, one measured number per row. `read_parsed` returns the
per-tool results with their rejected-cell reports and messages. Inside `once()` a file is opened,
split into lines, parsed and read for its context facts once, however often it is asked for.
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import importlib
import os
import re
import stat
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pandas as pd

from benchbook import config, declarations
from benchbook.ingest import context, preamble, unclaimed
from benchbook.ingest.core import (
    COPY_ENDS,
    COPY_ENDS_AFTER,
    LARGE,
    REGISTRY,
    REJECTED_COLUMNS,
    TABLE_NOT_READ,
    Parsed,
    ParseError,
    Tool,
    conflicts,
    register,
    rejected,
    release_memory,
    stack_reports,
    tidy,
)
from benchbook.ingest.text import Lines, read_lines, split_n

#: Parser modules, imported on first use; each registers one tool.
_MODULES = [
    "tgi",
    "sglang_quant",
    "sglang_one_batch",
    "sglang_offline",
    "hf_batch",
    "llama_bench",
    "llama_batched_bench",
    "llama_sweep_bench",
    "llama_timings",
    "attention_gym",
    "tritonbench",
    "flash_attn_bench",
    "score_mod",
    "selected_attention",
    "vllm_serve",
    "vllm_offline",
    "sglang_serving",
    "aiperf",
    "genai_perf",
    "mlperf",
    "trtllm_bench",
    "trtllm_gptmanager",
    "trtllm_static",
    "ml_energy",
    "optimum_benchmark",
    "inference_energy",
    "zeus_llm_csv",
    "codecarbon",
    "serving_power",
    "ollama_bench_power",
    "aiperf_telemetry",
    "genai_perf_telemetry",
    "llama_bench_power",
    "inference_perf",
    "guidellm",
    "llmd_report",
    "inferencex",
]

#: The tools whose tidy tables follow the serving contract of vllm-bench-serve (the same setting
#: columns, metric names, statistics and units): those serving_saturation reads, by its declaration.
SERVING_TOOLS = declarations.chapter("serving_saturation").tools

__all__ = [
    "ParseError",
    "UnknownFormat",
    "formats",
    "detected",
    "carries",
    "Parsed",
    "Tool",
    "read",
    "read_all",
    "read_parsed",
    "tools",
    "detect",
    "register",
    "tidy",
    "rejected",
    "stack_reports",
    "conflicts",
    "reason_kind",
    "summary",
    "set_aside",
    "set_aside_frame",
    "set_aside_note",
]


class UnknownFormat(ParseError):
    """A file that no registered parser recognises (`benchbook ingest` then lists the formats it reads).
    Where it holds numbers in a layout of its own, the message names them after `NO_TOOL` and a colon."""

    @property
    def sign(self) -> str | None:
        """What the refused file holds at its line (`unclaimed.sign`), or None where nothing was seen."""
        rest = self.message.removeprefix(NO_TOOL)
        return rest.removeprefix(": ") if rest.startswith(": ") else None


NO_TOOL = "no known tool output found"


def formats() -> list[str]:
    """One line per registered tool: its name, the formats it reads and the command that writes them."""
    return [
        f"{name} — {t.description.rstrip('. ')}" + (f"; made by: {t.command}" if t.command else "")
        for name, t in tools().items()
    ]


#: Setting columns that tell apart no configuration: a repeat of one (`rep`, `sweep_repeat`), and the tests one is
#: measured on (llama-bench's `-p`/`-n`/`-d` tests: pp512 and tg128 of one setting are one run's tests).
NOT_A_CONFIGURATION = ("rep", "sweep_repeat", "test", "n_prompt", "n_gen", "n_depth")


def detected(parsed: Parsed) -> str:
    """What a parser found in a file, for `benchbook ingest`: tool, version guess, how many runs (the
    distinct values of a `run` column) or configurations (distinct settings, repetitions aside)."""
    t = parsed.table
    version = f" ({parsed.version})" if parsed.version else ""
    if "run" in t.columns and t["run"].notna().any() and parsed.tool in SERVING_TOOLS:
        # the serving contract: a run is its label and its settings (two blocks under headings of one name,
        # `### Expected Output` twice, at other rates are two runs), as the serving chapter keys them
        from benchbook.ingest.serving_settings import SETTINGS

        n, what = len(t[[c for c in SETTINGS if c in t.columns]].drop_duplicates()), "run"
    elif (
        "run" in t.columns and t["run"].notna().any()
    ):  # a format of the tool that numbers no run counts configurations
        n, what = t["run"].nunique(), "run"
    else:
        keys = [c for c in tools()[parsed.tool].settings if c in t.columns and c not in NOT_A_CONFIGURATION]
        n, what = (len(t[keys].drop_duplicates()) if keys else 1), "configuration"
    return f"{parsed.tool}{version}, {n} {what}{'' if n == 1 else 's'}"


def carries(tool: str | None, fmt: str | None, name: str) -> bool | None:
    """Whether `tool`'s output format `fmt` can print `name` (a setting or metric column): True or
    False as its parser declares (`Tool.carries`), None where it declares nothing for that format.
    A sentence saying that an output lacks X rests on True here and X not found."""
    t = tools().get(tool) if tool else None
    if t is None or fmt not in t.carries:
        return None
    return name in t.carries[fmt]


def default(tool: str | None, fmt: str | None, name: str) -> float | None:
    """The value `tool`'s source gives setting `name` where its output format `fmt` states none
    (`Tool.defaults`), None where the parser declares no default for that format."""
    t = tools().get(tool) if tool else None
    if t is None:
        return None
    return t.defaults.get(fmt, t.defaults.get("*", {})).get(name)


def tools() -> dict[str, Tool]:
    """All registered tools, by name."""
    for mod in _MODULES:
        try:
            importlib.import_module(f"benchbook.ingest.{mod}")
        except ModuleNotFoundError as exc:  # a parser module not written yet
            if exc.name != f"benchbook.ingest.{mod}":
                raise
    return dict(REGISTRY)


#: What `once()` keeps while it is open: (what, tool, the file's identity) -> what was read.
_MEMO: dict | None = None


@contextmanager
def once() -> Iterator[None]:
    """Within it, each file is read once: its lines, each parse of it and its context facts are kept
    and handed out again (tables as copies), so that a report that detects a file's tools, checks
    its chapters' parameters and runs them in its own process opens the file once. A file is known
    by its identity on disk (device, inode, size, modification time), so a file changed on disk is
    read afresh. Nothing is kept outside it: a process that lives on (a test session, a kernel)
    must see a rewritten file."""
    global _MEMO
    outer = _MEMO
    if outer is None:
        _MEMO = {}
    try:
        yield
    finally:
        _MEMO = outer


def kept() -> dict:
    """What `once()` holds now (every file's lines, readings and context), for `keep` in another
    process: a report reads its files in a forked copy while it imports (`report._read_meanwhile`)."""
    return dict(_MEMO or {})


def keep(readings: dict) -> None:
    """Hold what another process read inside its `once()` (`kept`), as if read here."""
    if _MEMO is not None:
        _MEMO.update(readings)


def _kept(what: str, path: Path, make, tool: str | None = None):
    """`make()`, or what it gave for this file (and `tool`) earlier inside `once()`."""
    if _MEMO is None:
        return make()
    key = (what, tool, *_identity(path))
    if key not in _MEMO:
        _MEMO[key] = make()
    return _MEMO[key]


def _identity(path: Path) -> tuple:
    st = path.stat()
    return str(path), st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns


def _load_text(path: Path) -> str:
    _regular(path)
    if _MEMO is not None:  # the bytes of the lines already read (validated as UTF-8 there)
        return _load_lines(path)._data.decode("utf-8")
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise ParseError(path.name, line, f"not UTF-8 text (byte {data[exc.start]:#04x})") from None


def _load_lines(path: Path) -> Lines:
    """The file's lines (`text.Lines`, about 1.1x the file), never its whole text as one string (2x)."""
    _regular(path)
    return _kept("lines", path, lambda: read_lines(path))


def detect(text: str | Lines) -> list[str]:
    """Names of the tools whose output the text (a string, or a file's lines) holds (in registry order)."""
    return list(_seen(text))


def _seen(text: str | Lines) -> dict[str, str | Lines]:
    """Each tool whose output the text holds, with the text it sees it in: the file as written or,
    for a tool that does not see it there, the file past its preamble (`preamble.past`: a comment or
    a `$ cat result.json` line above the output, blanked so that every line keeps its number)."""
    registry = tools()
    found = {name: text for name, tool in registry.items() if tool.sniff(text)}
    after = preamble.past(text)
    if after is not None:
        found |= {n: after for n, t in registry.items() if n not in found and t.sniff(after)}
    return {n: found[n] for n in registry if n in found}


def _regular(p: Path) -> None:
    """Refuse what is not a regular file before opening it: a FIFO would block the read forever."""
    try:
        mode = p.stat().st_mode
    except FileNotFoundError:
        raise FileNotFoundError(f"{p.name}: no such file") from None
    if not stat.S_ISREG(mode):
        kind = "a directory" if stat.S_ISDIR(mode) else "a FIFO" if stat.S_ISFIFO(mode) else "not a regular file"
        raise ParseError(p.name, None, f"is {kind}, not a file of tool output" if kind[0] == "a" else kind)


def read_parsed(path: str | os.PathLike, tool: str | None = None) -> list[Parsed]:
    """Parse a file with the named tool, or with every tool detected in it."""
    p = config.resolve(path)
    _regular(p)
    config.log_read(p)
    if _MEMO is None:
        return _read_parsed(p, tool)
    every = _MEMO.get(("parsed", None, *_identity(p)), [])  # each tool's reading, kept from a read of all
    kept = [q for q in every if q.tool == tool] or _kept("parsed", p, lambda: _read_parsed(p, tool), tool)
    return [_copy(q) for q in kept]


def _copy(parsed: Parsed) -> Parsed:
    """A kept reading handed out again: its tables and messages the caller's own to change."""
    out = copy.copy(parsed)
    out.table, out.rejected, out.messages = parsed.table.copy(), parsed.rejected.copy(), list(parsed.messages)
    return out


def _read_parsed(p: Path, tool: str | None, text: Lines | None = None) -> list[Parsed]:
    """`p` parsed by `tool` (or every tool detected), from its lines `text` where the caller has them."""
    text = _load_lines(p) if text is None else text
    registry = tools()
    if tool is not None:
        if tool not in registry:
            raise ParseError(p.name, None, f"unknown tool {tool!r} (known: {', '.join(registry)})")
        after = None if registry[tool].sniff(text) else preamble.past(text)
        seen = {tool: text if after is None else after}
    else:
        seen = _seen(text)
        refused = next((r for t in registry.values() if not seen and t.refuses and (r := t.refuses(text))), None)
        if refused is not None:  # an output a tool recognises and does not read: refused naming its line
            raise ParseError(p.name, *refused)
        if not seen:
            found = unclaimed.sign(split_n(text))
            if found is not None:  # numbers in a layout of its own: refused naming where they are
                line, what = found
                raise UnknownFormat(p.name, line, f"{NO_TOOL}: {what}, in a layout no reader of benchbook knows")
            ran = unclaimed.command(split_n(text))
            if ran is not None:  # a benchmark's or a server's command with no output of it: named by its line
                raise UnknownFormat(p.name, ran[0], f"{NO_TOOL}: {ran[1]}")
            raise UnknownFormat(p.name, 1, f"{NO_TOOL} (looked for: {', '.join(registry)})")
    from benchbook.ingest.vllm_serve import source_name  # a sweep's run=0.json is named with its folder

    out = []
    for n, lines in seen.items():
        out.append(_parse(registry[n], lines, source_name(p)))
        if len(text) >= LARGE:  # what this parser freed on its way out, given back before the next one
            release_memory()
    return out


def _parse(tool: Tool, text: str | Lines, source: str) -> Parsed:
    """The tool's reading of the text; where it refuses the file as written and the file opens with
    a preamble (a comment, a `$ cat result.json` line), its reading of the file past it, if that
    succeeds (a sniffer that looks anywhere in the file sees the output behind the comment, while
    its parser expects the output on the first line)."""
    try:
        return tool.parse(text, source)
    except ParseError as refused:
        after = preamble.past(text)
        if after is None:
            raise
        try:
            return tool.parse(after, source)
        except ParseError:
            raise refused from None


def read(path: str | os.PathLike, tool: str | None = None) -> pd.DataFrame:
    """The tidy table of a file (all tools it holds, stacked). The rejected-cell report (a list of
    records with REJECTED_COLUMNS) and the parser messages ride along in `df.attrs["rejected"]` and
    `df.attrs["messages"]`; plain lists, so that frames from several files still concatenate.
    A `vllm bench sweep` output folder is read as its run files (see `vllm_serve.sweep_files`)."""
    if config.resolve(path).is_dir():
        return _read_sweep(config.resolve(path), tool, Path(path).name)
    parsed = read_parsed(path, tool)
    frames = [p.table for p in parsed]
    df = pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0].copy()
    df.attrs["rejected"] = [r for p in parsed for r in p.rejected.to_dict("records")]
    df.attrs["messages"] = [m for p in parsed for m in p.messages]
    if len(df) and context.needs_fill(df):  # the parser's fields first, then what the rest of the file states
        df.attrs["messages"] += context.fill(df, context_of(path))
    elif len(df) and context.needs_fill(df, context.ALONE):
        df.attrs["messages"] += context.fill(df, context_of(path), context.ALONE)
    df.attrs["detected"] = [detected(p) for p in parsed]
    return df


def context_of(path: str | os.PathLike) -> context.Context:
    """The run facts written anywhere in a file (`ingest.context.read` over all its lines), after
    those its tool's own table prints (`Tool.facts`: llama-bench's KV cache type, threads, -ngl)."""
    p = config.resolve(path)
    return _kept("context", p, lambda: _with_table_facts(p, _load_lines(p)))


def context_of_lines(path: str | os.PathLike) -> context.Context:
    """`context.read` of a file's lines alone, without its tool's table facts (`context_of`): what its
    prose and commands state, asked by several analyses of one chapter; inside `once()` read once."""
    p = config.resolve(path)
    return _kept("lines context", p, lambda: context.read(_load_lines(p)))


def context_of_text(text: str) -> context.Context:
    """`context.read` of a text's lines (`str.splitlines`), without a tool's table facts. Inside
    `once()` kept by the text's digest, and the same as the file's own where the text is a file's as
    `Path.read_text` gives it (`context_of` read it first): a chapter asks what a file's text names
    (`analysis.roofline.named`) after the report read the file's context."""
    if _MEMO is None:
        return context.read(text.splitlines())
    key = ("text context", None, _digest(text.encode("utf-8", "surrogatepass")))
    if key not in _MEMO:
        _MEMO[key] = context.read(text.splitlines())
    return _MEMO[key]


#: Line breaks `str.splitlines` splits at that a file's lines (`text.Lines`) do not (UTF-8 bytes).
_OTHER_BREAKS = re.compile(rb"[\x0b\x0c\x1c-\x1e]|\xc2\x85|\xe2\x80[\xa8\xa9]")


def _digest(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=16).digest()


def _as_text_context(lines: Lines, ctx: context.Context) -> None:
    """Keep `ctx`, the context of a file's `lines`, as that of the file's text (`context_of_text`),
    where the text's lines are these lines: its line ends as `Path.read_text` reads them (`\n`),
    and no other break `str.splitlines` would split at."""
    data = lines._data.replace(b"\r\n", b"\n").replace(b"\r", b"\n") if lines._cr else lines._data
    if _MEMO is not None and not _OTHER_BREAKS.search(data):
        _MEMO.setdefault(("text context", None, _digest(data)), ctx)


def _with_table_facts(path: Path, lines: Lines) -> context.Context:
    """The context of `lines`, with the facts the file's tool reads from its own table first (the
    parser's precedence): (name, value, line, text), then a unit and a scope where the tool's
    definitions give them; a server launch that launched none of the tables' results states nothing
    of them (`context.ran`), nor do the usage examples written under them (`context.examples_after`), nor
    the lines a parser found to be another run's (`Parsed.others`)."""
    ctx = _kept("lines context", path, lambda: context.read(lines))
    _as_text_context(lines, ctx)
    registry = tools()
    every = []
    for name in detect(lines):
        try:  # inside `once()` the kept reading; outside it, from the lines already read, not the file again
            every += read_parsed(path, name) if _MEMO is not None else _read_parsed(path, name, lines)
        except ParseError:
            if registry[name].facts is not None:
                return ctx
    results = [x for q in every if "line" in q.table for x in q.table["line"]]
    ctx = context.examples_after(context.ran(ctx, lines, results), lines, results)
    ctx = context.without(ctx, [span for q in every for span in q.others])
    parsed = [q for q in every if registry[q.tool].facts is not None]
    found = [context.Fact(*fact[:3], "parser", *fact[3:]) for q in parsed for fact in registry[q.tool].facts(q.table)]
    # the tool's own reading of a line (its scope, its unit) stands for what the context reader made of it
    read = {(f.name, f.line) for f in found}
    rest = tuple(f for f in ctx.facts if (f.name, f.line) not in read)
    return dataclasses.replace(ctx, facts=tuple(found) + rest) if found else ctx


def _read_sweep(folder: Path, tool: str | None, shown: str) -> pd.DataFrame:
    """Every run file of a vllm bench sweep folder, stacked; which summaries were not read is said.
    `shown` is the name the user gave (a link to a folder is named as typed)."""
    from benchbook.ingest.vllm_serve import sweep_files

    files, notes = sweep_files(folder)
    if not files:
        raise ParseError(shown, None, "is a folder, not a file of tool output (nor a vllm bench sweep folder)")
    frames, rejected_rows, messages = [], [], list(notes)
    for f in files:
        df = read(f, tool)
        rejected_rows += df.attrs["rejected"]
        messages += df.attrs["messages"]
        df.attrs = {}
        frames.append(df)
    df = pd.concat(frames, ignore_index=True)
    df.attrs["rejected"], df.attrs["messages"] = rejected_rows, messages
    return df


def read_all(paths, tool: str | None = None) -> tuple[pd.DataFrame, list[str]]:
    """Several files stacked into one table, with their parser messages. The attrs are dropped:
    a chapter reports rejected cells through its audit, and concat would try to compare them."""
    frames, messages = [], []
    for path in paths:
        df = read(path, tool)
        messages += df.attrs.get("messages", [])
        df.attrs = {}
        frames.append(df)
    return pd.concat(frames, ignore_index=True), messages


def reason_kind(reason: str) -> str:
    """The kind of a rejection reason, for counting: 'out of physical range', 'table not read', ..."""
    return reason.split(":", 1)[0].split(" (", 1)[0].strip()


def summary(kept: int, rejected_cells: pd.DataFrame | list) -> str:
    """One line for the end of `benchbook ingest`: rows kept, cells rejected by kind, tables not read.
    `rejected_cells` is a rejected report (or `read()`'s `df.attrs["rejected"]`)."""
    rej = pd.DataFrame(rejected_cells, columns=REJECTED_COLUMNS)
    kinds = Counter(reason_kind(r) for r in rej["reason"])
    tables = len({(s, r) for s, r in zip(rej["source"], rej["reason"], strict=True) if r.startswith(TABLE_NOT_READ)})
    by = "; ".join(f"{k} {n}" for k, n in kinds.most_common())
    cells = f"{len(rej)} cell{'' if len(rej) == 1 else 's'} rejected" + (f" ({by})" if by else "")
    return f"{kept} rows kept; {cells}; {tables} table{'' if tables == 1 else 's'} not read"


def set_aside_frame(df: pd.DataFrame) -> pd.DataFrame:
    """The rejected report that rides along a `read()` table, as a frame."""
    return pd.DataFrame(df.attrs.get("rejected", []), columns=REJECTED_COLUMNS)


def set_aside(paths, tool: str | tuple[str, ...] | None = None) -> pd.DataFrame:
    """The rejected cells of some files (REJECTED_COLUMNS), as `benchbook ingest --rejected` writes
    them; of one tool, of those of several tools each file holds, or of every tool it holds."""
    frames = []
    for path in paths:
        if isinstance(tool, tuple):
            names = [n for n in detect(_load_lines(config.resolve(path))) if n in tool]
            parsed = [q for n in names for q in read_parsed(path, n)]
        else:
            parsed = read_parsed(path, tool)
        frames += [q.rejected for q in parsed if len(q.rejected)]
    return stack_reports(frames)


#: A number standing alone in a line's text, not a digit inside a word (`E2E`, `P99`, `TTFT`'s row labels).
_NUMBER_IN = re.compile(r"(?<![A-Za-z\d.])\d+(?:\.\d+)?(?![A-Za-z\d])")

#: A serving block's section header whole (`-----Time to First Token-----`): a line that holds no number.
_SECTION_HEADER = re.compile(r"^\s*-{3,}[A-Za-z][^\d]*?-{3,}\s*$")


def set_aside_note(paths, tool: str | tuple[str, ...] | None = None) -> str | None:
    """A chapter's one-sentence "data set aside" note (None when every number was kept), e.g.
    "Data set aside: 3 numbers of run.txt (2 out of physical range, 1 table not read); the data-audit
    appendix lists them." """
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    rej = set_aside(paths, tool)
    # a whole last row read and marked as where the copy ends, or a cut line with no number in it (a whole section
    # header `-----Inter-token Latency-----`, one cut inside its dashes `-------`, a label whose value the copy
    # lost `Median E2E Latency (ms):`) sets no number aside: the note counts numbers only
    header = (
        [bool(_SECTION_HEADER.match(str(t)) or not _NUMBER_IN.search(str(t))) for t in rej["text"]] if len(rej) else []
    )
    kept = [
        not r.startswith(COPY_ENDS_AFTER) and not (r.startswith(COPY_ENDS) and h)
        for r, h in zip(rej["reason"], header, strict=True)
    ]
    numbers = rej[kept] if len(rej) else rej
    if numbers.empty:
        return None
    kinds = Counter(reason_kind(r) for r in numbers["reason"])
    files = ", ".join(dict.fromkeys(numbers["source"]))
    cut = numbers[[reason_kind(r) == COPY_ENDS for r in numbers["reason"]]]
    ends = ", ".join(str(n) for n in dict.fromkeys(cut["line"]))  # the copy's last line, named
    by = ", ".join(
        f"{n} {k}, at line {ends}: that line may be cut short, so it is not read" if k == COPY_ENDS else f"{n} {k}"
        for k, n in kinds.most_common()
    )
    return (
        f"Data set aside: {len(numbers)} number{'s' if len(numbers) != 1 else ''} of {files} ({by}); "
        "`benchbook ingest --rejected FILE` lists them with their lines."
    )
