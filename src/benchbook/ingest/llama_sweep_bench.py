"""ik_llama.cpp's `llama-sweep-bench` (examples/sweep-bench): one sequence's prompt and generation
rates at a growing KV-cache depth, as the markdown table it prints.

What the numbers are (examples/sweep-bench/sweep-bench.cpp, `main`):

* PP = n_ubatch (`-ub`), TG = `-n` where given, else n_ubatch / 4; one sequence throughout;
* for each depth N_KV = 0, n_ubatch, 2 x n_ubatch, ... below the context size (`-c`, `n_kv_max`):
  TG single-token decodes from N_KV, timed as T_TG (S_TG = TG / T_TG), the cache then cut back to
  N_KV, and a PP-token batch decoded after it, timed as T_PP (S_PP = PP / T_PP); the batch stays in
  the cache, so the next row starts n_ubatch deeper;
* times print as `%8.3f` s and rates as `%8.2f` (with `--sweep-memory` two more columns, RSS and
  VRAM in MiB); each time is the mean over `-nrep` repetitions at the first depth, one run elsewhere.

So a row is llama-bench's `ppPP @ dN_KV` and `tgTG @ dN_KV` tests of one sequence (llama-bench's
`-d`), and is read into llama-bench's columns for the chapter that reads llama-bench. Above the table
the tool prints `main: n_kv_max = ..., n_batch = ..., n_ubatch = ..., flash_attn = ..., n_gpu_layers =
..., n_threads = ..., n_threads_batch = ...`; a `llama-sweep-bench` command line names the model
(`-m`), threads, layers offloaded, flash attention and split mode (`-sm`). Where no command gives the
split mode, a heading titling the table that names one (`split mode "graph"`) does. A row whose rates
contradict PP / T_PP or TG / T_TG, or whose PP is not its table's n_ubatch, is rejected whole.
"""

from __future__ import annotations

import re
import shlex

from benchbook.ingest.context import placeholder
from benchbook.ingest.core import (
    HEADING_RE,
    NUMBER,
    Parsed,
    ParseError,
    Tool,
    copy_ends,
    cut_item,
    finish,
    heading_words,
    markdown_cells,
    register,
)
from benchbook.ingest.llama_batched_bench import within
from benchbook.ingest.llama_bench import SETTINGS as BENCH_SETTINGS
from benchbook.ingest.llama_bench import failed_after, stopped_message, test_name
from benchbook.ingest.text import Lines, search, split_n

NAME = "llama-sweep-bench"
#: llama-bench's columns, and the line of the table's header: its rows are one run of one model.
SETTINGS = {**BENCH_SETTINGS, "table_line": "Int64"}

METRICS = {
    "pp_rate": "tok/s: S_PP = PP / T_PP, a PP-token batch decoded after N_KV tokens of cache (one sequence)",
    "tg_rate": "tok/s: S_TG = TG / T_TG, TG single-token decodes from N_KV tokens of cache (one sequence)",
    "pp_time": "s: T_PP, the prompt batch's time",
    "tg_time": "s: T_TG, the TG decodes' time",
    "rss_hwm": "MiB: the process's peak resident memory so far (`--sweep-memory`)",
    "vram_delta": "MiB: GPU memory used since the start, summed over the CUDA devices (`--sweep-memory`)",
}

_HEADER = re.compile(
    r"^\s*\|\s*PP\s*\|\s*TG\s*\|\s*N_KV\s*\|\s*T_PP s\s*\|\s*S_PP t/s\s*\|\s*T_TG s\s*\|\s*S_TG t/s\s*\|"
    r"(?:\s*RSS HWM\s*\|\s*VRAM delta\s*\|)?\s*$"
)
#: The header with its separator row run onto the same line (a copy that lost the table's newlines, log lines
#: after it too: `| PP | TG | ... | S_TG t/s | | --- | --- | ... | ggml_backend_cuda_graph_compute: ...`): the rows
#: start on the next line.
_JOINED = re.compile(_HEADER.pattern.removesuffix(r"\s*$") + r"\s*\|\s*:?-{3,}:?\s*\|")
_SETTINGS_LINE = re.compile(r"^\s*main:\s*(n_kv_max\s*=.*)$")
_PAIR = re.compile(rf"(\w+)\s*=\s*({NUMBER})")
_COMMAND = re.compile(r"(?:^|[\s/\\])(?:llama-)?sweep-bench(?:\.exe)?\s+-")
#: A heading (markdown `#`, or an HTML `<summary>`) naming a split mode in words or as a flag.
_HEADING = re.compile(r"^\s*(?:#{1,6}\s|<summary>)")
_SPLIT_WORDS = re.compile(r"(?:split[-_ ]mode|(?<![\w-])-sm)\s*[\"'`=]*\s*(none|layer|row|graph|tensor)\b", re.I)
_INT = re.compile(r"^\d+$")
#: A log line of the tool or its libraries (`llama_model_loader: ...`, `ggml_cuda_init: ...`, `main: ...`).
#: A printed `key = value` line (llama-server's `total time =   13188.64 ms /  1844 tokens`) is none either.
_LOG = re.compile(
    r"^(?:(?:llama|ggml|llm|main|print_info|load|common|system_info|build)\w*\s*:|[\w .]+=\s*[-\d.])", re.I
)
#: command-line flag -> llama-bench's setting (common's gpt_params flags).
_FLAGS = {
    "-t": "threads",
    "--threads": "threads",
    "-ngl": "ngl",
    "--n-gpu-layers": "ngl",
    "-b": "n_batch",
    "--batch-size": "n_batch",
    "-ub": "n_ubatch",
    "--ubatch-size": "n_ubatch",
    "-ctk": "type_k",
    "--cache-type-k": "type_k",
    "-ctv": "type_v",
    "--cache-type-v": "type_v",
}


def sniff(text: str | Lines) -> bool:
    """True when the text holds a llama-sweep-bench table header."""
    return search(re.compile(_HEADER.pattern, re.M), text) or search(re.compile(_JOINED.pattern, re.M), text)


def command(raw: str) -> dict:
    """The settings a `llama-sweep-bench` command line gives, in llama-bench's columns: the model file
    (`-m`), threads, layers offloaded, batch sizes, cache types, flash attention (`-fa`, bare or with
    on/off) and the split mode (`-sm`, into `extra_settings` as llama-bench's `sm=` column)."""
    # a line the next one continues ends in `\`, which the shell joins away (shlex refuses it unpaired, and the
    # line's words would then keep their quotes: `'/models/x.gguf'`)
    line = raw.strip().lstrip("$# ").rstrip("\\").rstrip()
    try:
        words = shlex.split(line)
    except ValueError:
        words = [w.strip("'\"") for w in line.split()]
    at = next((i for i, w in enumerate(words) if re.search(r"(?:^|[/\\])(?:llama-)?sweep-bench(?:\.exe)?$", w)), None)
    if at is None:
        return {}
    rest, out = words[at + 1 :], {}
    for i, w in enumerate(rest):
        nxt = rest[i + 1] if i + 1 < len(rest) else None
        if w in ("-m", "--model") and nxt and placeholder(nxt):
            continue  # `-m "%MODEL_PATH%"`: a variable the shell fills, no model's file
        if w in ("-m", "--model") and nxt:
            out["model_file"] = re.split(r"[\\/]", nxt)[-1]
        elif w in _FLAGS and nxt and _INT.match(nxt) and _FLAGS[w] not in ("type_k", "type_v"):
            out[_FLAGS[w]] = int(nxt)
        elif w in _FLAGS and nxt:
            out[_FLAGS[w]] = nxt
        elif w in ("-fa", "--flash-attn"):
            out["fa"] = "0" if nxt in ("off", "0") else "1"
        elif w in ("-sm", "--split-mode") and nxt:
            out["extra_settings"] = f"sm={nxt.lower()}"
    return out


def _titled_split(lines: list[str], at: int) -> str | None:
    """The split mode the heading nearest above line `at` names (no other table between), else None."""
    for k in range(at - 1, -1, -1):
        if _HEADER.match(lines[k]):
            return None
        if _HEADING.match(lines[k]):
            m = _SPLIT_WORDS.search(lines[k])
            return m.group(1).lower() if m else None
    return None


def _title(lines: list[str], at: int) -> str | None:
    """The words of the heading nearest above line `at`: the section the table sits in, as llama-bench's
    `section` (`### RTX-4080`, `### IQ1_M_R4 (PR)`: each table of a write-up under its own), else None."""
    for k in range(at - 1, -1, -1):
        if _HEADING.match(lines[k]):
            m = HEADING_RE.match(lines[k])
            return heading_words(m.group(1) if m else lines[k]) or None
    return None


def _caption(lines: list[str], at: int) -> str | None:
    """The prose line just above the table at line `at` (blank lines between allowed), as llama-bench's
    `caption`: what the writer calls that run (`without my change`, `after my change to CMakeLists.txt`
    over a before/after pair); None where the line above is a heading, a table, a fence, the tool's
    settings line, a command or a log line."""
    for k in range(at - 1, -1, -1):
        text = lines[k].strip()
        if not text:
            continue
        if (
            text.startswith(("|", "```", "~~~", "<"))
            or _HEADING.match(lines[k])
            or _SETTINGS_LINE.match(lines[k])
            or _COMMAND.search(lines[k])
            or _LOG.match(text)
        ):
            return None
        return text if len(text) <= 100 else text[:99] + "…"
    return None


def _settings_line(raw: str) -> dict | None:
    """llama-bench's columns from the tool's `main: n_kv_max = ...` line, else None."""
    m = _SETTINGS_LINE.match(raw)
    if not m:
        return None
    pairs = {k: int(float(v)) for k, v in _PAIR.findall(m.group(1))}
    out = {"n_batch": pairs.get("n_batch"), "n_ubatch": pairs.get("n_ubatch"), "ngl": pairs.get("n_gpu_layers")}
    out["threads"] = pairs.get("n_threads")
    out["fa"] = str(pairs["flash_attn"]) if "flash_attn" in pairs else None
    return {k: v for k, v in out.items() if v is not None}


def parse(text: str | Lines, source: str) -> Parsed:
    lines = split_n(text)
    records, rejects, messages = [], [], []
    said: dict = {}  # the settings line's and the command's, for the tables below them
    i = 0
    while i < len(lines):
        raw = lines[i]
        found = _settings_line(raw)
        if found is not None:
            said = {**said, **found}
        elif _COMMAND.search(raw) and not raw.lstrip().startswith("|"):
            said = command(raw)
        joined = not _HEADER.match(raw) and _JOINED.match(raw)
        if not _HEADER.match(raw) and not joined:
            i += 1
            continue
        base = {k: None for k in SETTINGS} | said | {"table_line": i + 1}
        base["section"], base["caption"] = _title(lines, i), _caption(lines, i)
        if "extra_settings" not in said and (split := _titled_split(lines, i)):
            base["extra_settings"] = f"sm={split}"
        rows = 0
        j = i + 1 if joined else i + 2
        while j < len(lines) and lines[j].lstrip().startswith("|"):
            cells = markdown_cells(lines[j])
            if len(cells) not in (7, 9) or not all(_INT.match(c) for c in cells[:3]):
                if copy_ends(lines, j) or (j + 1 < len(lines) and copy_ends(lines, j + 1) and not lines[j + 1].strip()):
                    rejects.append(cut_item(j, lines[j]))
                    j += 1
                    continue
                raise ParseError(source, j + 1, "a llama-sweep-bench row needs PP, TG, N_KV and four numbers")
            if not all(re.fullmatch(NUMBER, c) for c in cells[3:7]):
                raise ParseError(source, j + 1, f"a llama-sweep-bench cell is not a number: {' | '.join(cells[3:7])}")
            pp, tg, n_kv = (int(c) for c in cells[:3])
            t_pp, s_pp, t_tg, s_tg = (float(c) for c in cells[3:7])
            why = _broken(pp, tg, n_kv, t_pp, s_pp, t_tg, s_tg, base.get("n_ubatch"))
            head = f"PP {pp} TG {tg} N_KV {n_kv}"
            if why:
                for col, c in zip(("T_PP s", "S_PP t/s", "T_TG s", "S_TG t/s"), cells[3:7], strict=True):
                    rejects.append((j + 1, f"{head}: {col} {c}", f"not the tool's formula: {why}"))
            else:
                memory = [
                    (m, float(c))
                    for m, c in zip(("rss_hwm", "vram_delta"), cells[7:], strict=False)
                    if re.fullmatch(NUMBER, c)
                ]
                for kind, n_prompt, n_gen, rate, time in (("pp", pp, 0, s_pp, t_pp), ("tg", 0, tg, s_tg, t_tg)):
                    rec = dict(base, test=test_name(n_prompt, n_gen, n_kv), n_prompt=n_prompt, n_gen=n_gen)
                    rec.update(n_depth=n_kv, n_ubatch=base.get("n_ubatch") or pp, line=j + 1, statistic="mean")
                    records.append(dict(rec, metric=f"{kind}_rate", value=rate, unit="tok/s"))
                    records.append(dict(rec, metric=f"{kind}_time", value=time, unit="s"))
                    if kind == "pp":  # the memory is sampled once per row, after both tests
                        records += [dict(rec, metric=m, statistic="value", value=v, unit="MiB") for m, v in memory]
            rows += 1
            j += 1
        if not rows:
            messages.append(f"{source}:{i + 1}: a llama-sweep-bench table header with no row under it")
        i = j
    header = next((k for k, s_ in enumerate(lines) if _HEADER.match(s_)), None)
    stop = failed_after(lines, header) if not records and header is not None else None
    if stop is not None:  # the header printed, then the process failed before its first row
        raise ParseError(source, stop[0], f"llama-sweep-bench stopped before its first row: `{stop[1]}`; no result")
    if records:  # a process that failed after its last row: the depths after it never ran
        last = max(r["line"] for r in records) - 1
        stop = failed_after(lines, last)
        if stop is not None:
            depths = [r["n_depth"] for r in records if r["table_line"] == records[-1]["table_line"]]
            ran = f"its last table's depths N_KV {min(depths)} to {max(depths)} ran, none deeper"
            messages.append(stopped_message(stop, last, ran))
    return finish(TOOL, source, records, rejects, messages, empty="no llama-sweep-bench row found")


def _broken(pp, tg, n_kv, t_pp, s_pp, t_tg, s_tg, n_ubatch) -> str | None:
    """The first of the tool's definitions a row's numbers contradict, else None: PP is n_ubatch, and
    the depths step by it; S_PP = PP / T_PP and S_TG = TG / T_TG over the printed rounding."""
    if n_ubatch is not None and pp != n_ubatch:
        return f"PP {pp} is not n_ubatch = {n_ubatch}"
    if pp <= 0 or n_kv % pp:
        return f"N_KV {n_kv} is not a multiple of PP {pp} (the tool steps the depth by n_ubatch = PP)"
    if not within(s_pp, pp, t_pp):
        return f"S_PP {s_pp:g} t/s is not PP / T_PP = {pp / t_pp if t_pp else float('inf'):.2f}"
    if not within(s_tg, tg, t_tg):
        return f"S_TG {s_tg:g} t/s is not TG / T_TG = {tg / t_tg if t_tg else float('inf'):.2f}"
    return None


TOOL = register(
    Tool(
        name=NAME,
        settings=SETTINGS,
        sniff=sniff,
        parse=parse,
        description="ik_llama.cpp llama-sweep-bench: its markdown table (PP, TG, N_KV, prompt and generation "
        "times and rates of one sequence at a growing cache depth)",
        command="llama-sweep-bench -m MODEL.gguf -c 8704 -ub 512",
        metrics=METRICS,
    )
)
