"""llama.cpp's `llama-batched-bench` (tools/batched-bench, formerly examples/batched-bench): the
speed of B sequences decoded together, as the markdown table it prints.

What the numbers are (tools/batched-bench/batched-bench.cpp, `main`):

* one row per (PP, TG, B) of the product of `-npp`, `-ntg` and `-npl` (older builds: positional
  lists), skipped where its cache need is above `n_kv_max`;
* PP prompt tokens per sequence, TG generated tokens per sequence, B sequences (`pl`);
* N_KV the cache the row needs: B x (PP + TG), or PP + B x TG where one prompt is shared by all
  sequences (`-pps`, `is_pp_shared = 1`): the prompt is decoded once and copied to each sequence;
* T_PP the time of the prompt phase, S_PP its tokens per second: B x PP / T_PP, or PP / T_PP shared
  (the tokens decoded);
* T_TG the time of TG decode steps, each of which gives every sequence one token; S_TG = B x TG /
  T_TG, the batch's generation rate (so T_TG / TG is the mean step of the whole batch);
* T = T_PP + T_TG and S = N_KV / T, every token of the row over the whole time.

Times print as `%8.3f` and rates as `%8.2f`, so each rate is checked against its formula over the
rounded times it is printed with: a row whose numbers contradict the tool's formulas (or whose N_KV
fits neither prompt mode) is rejected whole, with the formula it breaks. Above the table the tool
prints `main: n_kv_max = ..., n_batch = ..., n_ubatch = ..., flash_attn = ..., is_pp_shared = ...,
n_gpu_layers = ..., n_threads = ..., n_threads_batch = ...` (older builds fewer keys): its settings
hold for the tables below it. Where no such line states the prompt mode, N_KV tells it (the two
formulas differ at any B above 1). The model is the one a `batched-bench` command line names where
it is the only one between the previous table and this one (a README's several examples name none);
with no command there, the one a `Model: X` label line names (llama.cpp's scripts/bench-models.sh writes
`## <repo>`, `Model: https://huggingface.co/<repo>` and then the tables of `-hf <repo>`).
"""

from __future__ import annotations

import re
import shlex

import pandas as pd

from benchbook.ingest import llama_bench
from benchbook.ingest.core import (
    NUMBER,
    QUOTE,
    Parsed,
    ParseError,
    Tool,
    copy_ends,
    cut_item,
    finish,
    markdown_cells,
    register,
)
from benchbook.ingest.text import Lines, search, split_n

NAME = "llama-batched-bench"

#: The settings line's keys kept as columns, in the order the tool prints them.
_KEYS = ("n_kv_max", "n_batch", "n_ubatch", "flash_attn", "n_gpu_layers", "n_threads", "n_threads_batch")

SETTINGS = {
    "format": "str",
    "table": "Int64",
    "model": "str",
    # the model column of the llama-bench rows of the table's section (`gpt-oss 20B MXFP4 MoE`: llama-bench
    # prints the loaded file's architecture, size and weights' type), where the section's label names the model
    # both tools ran (`_section_weights`)
    "weights": "str",
    # the same rows' size and params cells (`11.27 GiB`, `20.91 B`: llama-bench's `llama_model_size` and
    # `llama_model_n_params` of the file), where one of each is printed
    "weights_size_gib": "float64",
    "weights_params_b": "float64",
    "pp": "Int64",
    "tg": "Int64",
    "batch": "Int64",
    "n_kv": "Int64",
    "pp_shared": "Int64",
    **{k: "Int64" for k in _KEYS},
    "other_settings": "str",
    # the line of the settings line its row's settings come from: a run fact read there is cited there
    "settings_line": "Int64",
}

#: (column, metric, unit) of the six measured cells, in the table's order after N_KV.
_MEASURED = (
    ("T_PP s", "prompt_time", "s"),
    ("S_PP t/s", "prompt_throughput", "tok/s"),
    ("T_TG s", "generation_time", "s"),
    ("S_TG t/s", "generation_throughput", "tok/s"),
    ("T s", "total_time", "s"),
    ("S t/s", "total_throughput", "tok/s"),
)

METRICS = {
    "prompt_time": "s: the prompt phase (B prompts of PP tokens, or one shared prompt)",
    "prompt_throughput": "tok/s: B x PP / T_PP (PP / T_PP where the prompt is shared)",
    "generation_time": "s: TG decode steps of the whole batch, each one token per sequence",
    "generation_throughput": "tok/s: B x TG / T_TG, the batch's generation rate",
    "total_time": "s: T_PP + T_TG",
    "total_throughput": "tok/s: N_KV / T, every token of the row over the whole time",
}

_HEADER = re.compile(
    r"^\s*\|\s*PP\s*\|\s*TG\s*\|\s*B\s*\|\s*N_KV\s*\|\s*T_PP s\s*\|\s*S_PP t/s\s*\|\s*T_TG s\s*\|"
    r"\s*S_TG t/s\s*\|\s*T s\s*\|\s*S t/s\s*\|\s*$"
)
#: The header quoted in a Markdown blockquote (`> |    PP |     TG |...`, a reply quoting a run): the same table.
_QUOTED_HEADER = re.compile(r"^\s*" + QUOTE + _HEADER.pattern[len(r"^\s*") :])
#: A blockquote's markers before a line (`> `, `> > `), and the blanks after them.
_QUOTE_MARKS = re.compile(r"^\s*(?:>[ \t]?)+")
_LLAMA_BENCH_HEADER = re.compile(r"^\s*\|\s*model\s*\|.*\|\s*test\s*\|\s*t/s\s*\|", re.I)
#: The tool prints it as `"%s: n_kv_max = ...", __func__`: `main:` in most builds, the function's own name in
#: builds that moved the tool into one (`llama_batched_bench:`), after the log's time and level where the
#: build prefixes them (`2.21.880.683 I `).
_SETTINGS_LINE = re.compile(r"^\s*(?:\d[\d.]*\s+[A-Z]\s+)?\w+:\s*(n_kv_max\s*=.*)$")
_PAIR = re.compile(rf"(\w+)\s*=\s*({NUMBER})")
_COMMAND = re.compile(r"(?:^|[\s/\\])(?:llama-)?batched-bench(?:\.exe)?\s+\S")
_INT = re.compile(r"^\d+$")
#: The print's rounding: times `%8.3f`, rates `%8.2f`.
_T_HALF, _S_HALF = 0.0005, 0.005


def sniff(text: str | Lines) -> bool:
    """True when the text holds a llama-batched-bench table header."""
    return search(re.compile(_QUOTED_HEADER.pattern, re.M), text)


#: the tool's program as a word of a command (a path to it, or its `.exe`).
_EXECUTABLE = re.compile(r"(?:^|[/\\])(?:llama-)?batched-bench(?:\.exe)?$")
#: shell words that end one command and start the next (`&&`, `||`, `;`, `|`).
_SHELL_OPERATORS = frozenset({"&&", "||", ";", "|"})
#: a Markdown heading of level 2 or more (`## batched-bench 4 dies, pp 2048`): a title that names the tool,
#: never a shell prompt (a root prompt is one `#`), so no command line and no model
_MD_HEADING = re.compile(r"^\s*#{2,6}\s")
#: a command written as a Markdown code span (`` `llama-batched-bench -m M.gguf ...` ``): the command without its backticks
_CODE_SPAN = re.compile(r"`([^`]+)`")
#: a bare number: one of the old positional form's sizes (`N_KV_MAX`, `IS_PP_SHARED`, ...), never its `MODEL_PATH`
_NUMBER = re.compile(r"^\d+(?:\.\d+)?$")


#: a write-up's label line for the model of the section below it (`Model: https://huggingface.co/ggml-org/gpt-oss-20b-GGUF`,
#: as llama.cpp's scripts/bench-models.sh prints under each `## <repo>` heading before running the tools with
#: `-hf <repo>`): the value, a Hugging Face address read as its repository
_MODEL_LABEL = re.compile(r"^\s*(?:[-*]\s+)?\**model\**\s*:\**\s*(?P<value>\S+)\s*$", re.I)
_HF_URL = re.compile(r"^<?https?://(?:www\.)?huggingface\.co/(?P<repo>[\w.-]+/[\w.-]+?)/?>?$")


def _labelled(raw: str) -> str | None:
    """The model a `Model: X` label line names (one word: a path, a repository or its Hugging Face address)."""
    m = _MODEL_LABEL.match(raw)
    if not m:
        return None
    url = _HF_URL.match(m.group("value"))
    return url.group("repo") if url else m.group("value").strip("`<>")


def _section_weights(lines: list[str]) -> list[tuple[str, float | None, float | None] | None]:
    """Per line, the one model description the llama-bench rows of its section print (llama-bench's model
    column, `llama_model_desc`: architecture, size and the file's weights type, `gpt-oss 20B MXFP4 MoE`), else
    None (no llama-bench row, or rows of two descriptions: neither is the section's). A section runs from a
    Markdown heading to the next (the whole text where there is none): llama.cpp's scripts/bench-models.sh
    writes one per model, `## <repo>` and `Model: ...`, then runs llama-batched-bench and llama-bench on the
    same `-m` file."""
    starts = [0] + [i for i, s in enumerate(lines) if _MD_HEADING.match(s)] + [len(lines)]
    out: list = [None] * len(lines)
    for a, b in zip(starts, starts[1:], strict=False):
        seen, sizes, params = set(), set(), set()
        for k in range(a, b):
            if not _LLAMA_BENCH_HEADER.match(lines[k]):
                continue
            head = [c.lower() for c in markdown_cells(lines[k])]
            for row in lines[k + 2 : b]:
                if not row.lstrip().startswith("|"):
                    break
                cells = markdown_cells(row)
                if len(cells) > 2 and cells[0]:
                    seen.add(cells[0])
                    cell = dict(zip(head, cells, strict=False))
                    sizes.add(_SIZE.fullmatch(cell.get("size", "")) and _gib(cell["size"]))
                    params.add(
                        (m := _PARAMS.fullmatch(cell.get("params", ""))) and float(m[1]) / (1e3 if m[2] == "M" else 1)
                    )
        if len(seen) == 1:
            size = next(iter(sizes)) if len(sizes) == 1 else None
            n = next(iter(params)) if len(params) == 1 else None
            out[a:b] = [(next(iter(seen)), size or None, n or None)] * (b - a)
    return out


#: llama-bench's size and params cells (`11.27 GiB`, `20.91 B`, `494.03 M`).
_SIZE = re.compile(r"(\d+(?:\.\d+)?)\s*(GiB|MiB)")
_PARAMS = re.compile(r"(\d+(?:\.\d+)?)\s*([BM])")


def _gib(cell: str) -> float:
    m = _SIZE.fullmatch(cell)
    return float(m[1]) / (1024 if m[2] == "MiB" else 1)


def _command(raw: str) -> str | None:
    """The model a batched-bench command line names: `-m PATH` (`--model`), or the first argument of
    the older builds' positional form (`batched-bench MODEL_PATH [N_KV_MAX] ...`), a file path, never
    a bare number."""
    try:
        words = shlex.split(raw.strip().lstrip("$# "))
    except ValueError:
        words = raw.split()
    # a shell line may chain commands (`make -j batched-bench && ./batched-bench MODEL ...`): each
    # command is read apart, up to its operator, so a build step's target, which names no model
    # after it, is passed over and never takes the next command's `&&` for a model path
    commands, one = [], []
    for w in words:
        if w in _SHELL_OPERATORS:
            commands.append(one)
            one = []
        else:
            one.append(w)
    commands.append(one)
    for words in commands:
        at = next((i for i, w in enumerate(words) if _EXECUTABLE.search(w)), None)
        if at is None:
            continue
        rest = words[at + 1 :]
        for i, w in enumerate(rest):
            if w in ("-m", "--model") and i + 1 < len(rest):
                return rest[i + 1]
            if w.startswith("--model="):
                return w.split("=", 1)[1]
        if rest and not rest[0].startswith("-") and not _NUMBER.match(rest[0]):
            return rest[0]
    return None


def within(value: float, tokens: float, time: float) -> bool:
    """Whether a printed rate fits tokens / time over the rounding of both (`_T_HALF`, `_S_HALF`)."""
    low = tokens / (time + _T_HALF) - _S_HALF
    high = tokens / (time - _T_HALF) + _S_HALF if time > _T_HALF else float("inf")
    return low * (1 - 1e-6) <= value <= high * (1 + 1e-6)


def _broken(pp: int, tg: int, b: int, n_kv: int, shared: int | None, v: list[float], stated: bool) -> str | None:
    """The first of the tool's formulas a row's numbers contradict, else None (`v`: its six measured cells;
    `shared`: the prompt mode, None where none is known; `stated`: whether the settings line states it)."""
    t_pp, s_pp, t_tg, s_tg, t, s = v
    if shared is None and _mode(pp, tg, b, n_kv) is None:
        return f"N_KV {n_kv} is neither B x (PP + TG) = {b * (pp + tg)} nor PP + B x TG = {pp + b * tg}"
    shared = _mode(pp, tg, b, n_kv) if shared is None else shared
    want = pp + b * tg if shared else b * (pp + tg)
    if n_kv != want:
        how = "PP + B x TG" if shared else "B x (PP + TG)"
        said = f"is_pp_shared = {shared} makes it" if stated else "the table's other rows tell"
        return f"N_KV {n_kv} is not {how} = {want}, as {said}"
    if not within(s_pp, pp if shared else b * pp, t_pp):
        return f"S_PP {s_pp:g} t/s is not {'PP' if shared else 'B x PP'} / T_PP = {(pp if shared else b * pp) / t_pp if t_pp else float('inf'):.2f}"
    if not within(s_tg, b * tg, t_tg):
        return f"S_TG {s_tg:g} t/s is not B x TG / T_TG = {b * tg / t_tg if t_tg else float('inf'):.2f}"
    if abs(t - (t_pp + t_tg)) > 3 * _T_HALF + 1e-9:
        return f"T {t:g} s is not T_PP + T_TG = {t_pp + t_tg:.3f}"
    if not within(s, n_kv, t):
        return f"S {s:g} t/s is not N_KV / T = {n_kv / t if t else float('inf'):.2f}"
    return None


def _mode(pp: int, tg: int, b: int, n_kv: int) -> int | None:
    """The prompt mode a row's N_KV tells (1: shared, 0: one prompt per sequence), None where it fits
    neither; at B = 1 the two formulas agree and it tells 0 (the same numbers either way)."""
    if n_kv == b * (pp + tg):
        return 0
    return 1 if n_kv == pp + b * tg else None


def parse(text: str | Lines, source: str) -> Parsed:
    lines = split_n(text)
    if any(_QUOTE_MARKS.match(s) and _QUOTED_HEADER.match(s) for s in lines):
        # a write-up quoting the tool's print in a blockquote (a reply in a thread): the print is the quoted
        # lines without their markers, each at its own line
        lines = [_QUOTE_MARKS.sub("", s) for s in lines]
    records, rejects, messages = [], [], []
    settings: dict = {}
    other = None
    commands: list[str | None] = []  # the command lines since the last table
    labels: list[str] = []  # the `Model:` label lines since the last table
    table = 0
    section_weights = _section_weights(lines)
    i = 0
    while i < len(lines):
        raw = lines[i]
        m = _SETTINGS_LINE.match(raw)
        if m:
            pairs = dict((k, int(float(v))) for k, v in _PAIR.findall(m.group(1)))
            settings = {k: pairs.get(k) for k in _KEYS}
            settings["pp_shared"] = pairs.get("is_pp_shared")
            settings["settings_line"] = i + 1
            rest = [f"{k} = {v}" for k, v in pairs.items() if k not in (*_KEYS, "is_pp_shared")]
            other = ", ".join(rest) or None
        elif (
            _COMMAND.search(_CODE_SPAN.sub(r" \1", raw))
            and not raw.lstrip().startswith("|")
            and not _MD_HEADING.match(raw)
        ):
            commands.append(_command(_CODE_SPAN.sub(r"\1", raw)))
        elif _labelled(raw):
            labels.append(_labelled(raw))
        if not _HEADER.match(raw):
            i += 1
            continue
        table += 1
        # one command above the table names its model; several (a README's examples) tie none to it; with no
        # command, the one `Model:` label of the table's section (a bench script's write-up) names it
        model = commands[0] if len(commands) == 1 else None
        weights = (None, None, None)
        if model is None and not commands and len(set(labels)) == 1:
            model = labels[0]
            # the label's model is the one both tools of the section ran (bench-models.sh's `-m` file): the
            # weights' type its llama-bench rows print is this table's too (the table prints none)
            weights = section_weights[i] or (None, None, None)
        commands, labels = [], []
        rows = []
        j = i + 2
        while j < len(lines) and lines[j].lstrip().startswith("|"):
            cells = markdown_cells(lines[j])
            if len(cells) != 10 or not all(_INT.match(c) for c in cells[:4]):
                if copy_ends(lines, j) or (j + 1 < len(lines) and copy_ends(lines, j + 1) and not lines[j + 1].strip()):
                    rejects.append(cut_item(j, lines[j]))
                    j += 1
                    continue
                raise ParseError(
                    source, j + 1, "a llama-batched-bench row needs 10 cells: PP, TG, B, N_KV and six numbers"
                )
            if not all(re.fullmatch(NUMBER, c) for c in cells[4:]):
                raise ParseError(source, j + 1, f"a llama-batched-bench cell is not a number: {' | '.join(cells[4:])}")
            rows.append((j, [int(c) for c in cells[:4]], cells[4:]))
            j += 1
        stated = settings.get("pp_shared")
        told = {_mode(pp, tg, b, n_kv) for _, (pp, tg, b, n_kv), _ in rows if b > 1} - {None}
        table_mode = stated if stated is not None else (next(iter(told)) if len(told) == 1 else None)
        for j, (pp, tg, b, n_kv), cells in rows:
            mode = table_mode if table_mode is not None or b > 1 else 0
            values = [float(c) for c in cells]
            why = _broken(pp, tg, b, n_kv, mode, values, stated is not None)
            if why is None and len(told) > 1 and stated is None:
                why = "the table's rows tell both prompt modes by their N_KV (shared and one prompt per sequence)"
            head = f"PP {pp} TG {tg} B {b} N_KV {n_kv}"
            if why:
                for (col, _, _), c in zip(_MEASURED, cells, strict=True):
                    rejects.append((j + 1, f"{head}: {col} {c}", f"not the tool's formula: {why}"))
                continue
            base = dict(
                format="markdown",
                table=table,
                model=model,
                weights=weights[0],
                weights_size_gib=weights[1],
                weights_params_b=weights[2],
                pp=pp,
                tg=tg,
                batch=b,
                n_kv=n_kv,
                other_settings=other,
                settings_line=settings.get("settings_line"),
                **{k: settings.get(k) for k in _KEYS},
                pp_shared=table_mode,
            )
            for (_, metric, unit), v in zip(_MEASURED, values, strict=True):
                records.append(dict(base, line=j + 1, metric=metric, statistic="value", value=v, unit=unit))
        if not rows:
            messages.append(f"{source}:{i + 1}: a llama-batched-bench table header with no row under it")
        i = j
    for k, raw in enumerate(lines):  # llama.cpp's bench script prints llama-bench's table after this one
        if _LLAMA_BENCH_HEADER.match(raw) and not any(re.search(r"\d", b) for b in lines[k + 2 : k + 3]):
            messages.append(f"{source}:{k + 1}: a llama-bench table header with no row under it (nothing to read)")
    header = next((k for k, s_ in enumerate(lines) if _HEADER.match(s_)), None)
    stop = llama_bench.failed_after(lines, header) if not records and header is not None else None
    if stop is not None:  # the header printed, then the process failed before its first row
        raise ParseError(source, stop[0], f"llama-batched-bench stopped before its first row: `{stop[1]}`; no result")
    if records:  # a process that failed after its last row: the batches after it never ran
        last = max(r["line"] for r in records) - 1
        stop = llama_bench.failed_after(lines, last)
        if stop is not None:
            messages.append(llama_bench.stopped_message(stop, last, _ran(records, lines)))
    return finish(TOOL, source, records, rejects, messages, empty="no llama-batched-bench row found")


#: The batch sizes a command asks for (`-npl 1,2,4`).
_NPL = re.compile(r"(?:^|\s)-npl\s+(\d+(?:,\d+)*)")


def _ran(records: list[dict], lines) -> str:
    """The batch sizes the last table printed and, where the file's one `-npl` list asks for more, those it
    did not reach: 'B 1 and 2 ran; B 4 of -npl 1,2,4 did not'."""
    table = max(r["table"] for r in records)
    done = sorted({r["batch"] for r in records if r["table"] == table})
    asked = {m.group(1) for s in lines for m in [_NPL.search(s)] if m}
    said = f"B {', '.join(map(str, done[:-1])) + ' and ' if len(done) > 1 else ''}{done[-1]} ran"
    if len(asked) == 1:
        listed = next(iter(asked))
        left = [int(b) for b in listed.split(",") if int(b) > done[-1]]
        if left:
            said += f"; B {', '.join(map(str, left))} of -npl {listed} did not"
    return said


#: llama.cpp's `parallel` example (examples/parallel/parallel.cpp) ends with its totals over every client:
#: `Total prompt tokens: 2011, speed: 153.91 t/s`, `Total gen tokens: ...`, `Total speed (AVG): ...`. The
#: clients' requests overlap under continuous batching (`-cb`), so each total is one throughput of its N
#: clients at once: no batch curve (this tool's) and no one request's rate (the roofline's).
_PARALLEL = re.compile(r"^\s*Total prompt tokens:\s*\d+,\s*speed:\s*[\d.]+\s*t/s")


def refuses(text: str | Lines) -> tuple[int, str] | None:
    """(line, why) of llama.cpp's `parallel` totals (`_PARALLEL`), a sibling this tool does not read."""
    for i, s in enumerate(split_n(text)):
        if _PARALLEL.match(s):
            return i + 1, (
                "llama.cpp's parallel example's totals (the prompt and generated tokens of all its clients and "
                "their speeds, the clients' requests overlapping under continuous batching): one throughput at one "
                "number of clients, no batch sweep and no single request's rate, which no chapter of the book "
                "reads; not read"
            )
    return None


def table_facts(table) -> list[tuple]:
    """The run facts the settings line above a table prints for its rows: the layers on the GPU
    (`n_gpu_layers`, where the model's layers went: fewer than it has is a partial offload) and the CPU
    threads (`n_threads`), each cited at the settings line that prints it (the rows below print neither)."""
    out = []
    rows = table.drop_duplicates("settings_line") if "settings_line" in table else table.iloc[0:0]
    for _, r in rows.iterrows():
        for col, name in (("n_gpu_layers", "gpu_layers"), ("n_threads", "threads")):
            x = r.get(col)
            if x is not None and not pd.isna(x) and not pd.isna(r["settings_line"]):
                out.append((name, int(x), int(r["settings_line"]), f"{col} = {x}"))
    return out


TOOL = register(
    Tool(
        name=NAME,
        settings=SETTINGS,
        sniff=sniff,
        parse=parse,
        refuses=refuses,
        facts=table_facts,
        description="llama.cpp llama-batched-bench: its markdown table (PP, TG, B, N_KV, prompt and generation "
        "times and rates) with the settings line above it",
        command="llama-batched-bench -m MODEL.gguf -c N_KV_MAX -npp 128 -ntg 128 -npl 1,2,4,8,16,32 [-pps]",
        metrics=METRICS,
    )
)
