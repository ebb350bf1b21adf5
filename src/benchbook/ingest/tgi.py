"""Parser for text-generation-inference's `text-generation-benchmark` markdown output.

What the tool prints (benchmark/src/table.rs):

* a "Parameter | Value" table (titled "Experiment Generation Argumetns" in the write-ups that
  carry it, misspelling included); newer releases add "Top N Tokens" and "Frequency Penalty" rows;
* a latency table: Step, Batch Size, Average, Lowest, Highest, p50, p90, p99 (values "12.34 ms");
* a throughput table: Step, Batch Size, Average, Lowest, Highest (values "12.34 tokens/secs").

Both tables are built with `tabled`'s `Merge::vertical()`, which prints a cell that equals the
cell above it as blank: a blank Step or Batch Size is a continuation row, a blank row after a
"NaN" row is that NaN merged, and a blank number equals the number above it. We fill each blank
from the cell above and say so in `note`.

Around the tables, write-ups add launcher arguments ("- num_shard: Some(2)", "--num-shard 2"),
section headings "Tensor Parallel (TP) - N GPUs", "Sequence Length N", "Quantization: X" /
"No Quantization" / "With X Results" / "Without X Results" (X a quantization method such as
Bitsandbytes-nf4): these become setting columns.

Units: latency is ms. Decode throughput is tokens/s (batch x decoded tokens / decode time).
Prefill "tokens/secs" is batch_size / prefill latency, i.e. sequences per second: stored as seq/s.
"""

from __future__ import annotations

import re

from benchbook.ingest.core import (
    HEADING_RE,
    SEPARATOR_RE,
    Parsed,
    ParseError,
    Tool,
    copy_ends,
    cut_item,
    finish,
    heading_words,
    markdown_cells,
    register,
    unread_table,
)
from benchbook.ingest.rows import Row, row, row_type
from benchbook.ingest.text import Lines, splitlines

NAME = "tgi-benchmark"

SETTINGS = {
    "model": "str",
    "tp": "Int64",
    "sequence_length": "Int64",
    "decode_length": "Int64",
    "n_runs": "Int64",
    "warmups": "Int64",
    "quantize": "str",
    "max_batch_total_tokens": "Int64",
    "parameters": "str",
    "section": "str",
    "step": "str",
    "batch_size": "Int64",
}
_ROW = row_type(SETTINGS)

METRICS = {
    "prefill_latency": "ms: one prefill call for the whole batch (prompt of sequence_length tokens)",
    "decode_token_latency": "ms: Decode (total) divided by the number of decode calls (decode_length - 1)",
    "decode_total_latency": "ms: all decode calls after the prefill (decode_length - 1 steps)",
    "prefill_throughput": "seq/s: batch_size / prefill latency, mean of per-run ratios (TGI labels it tokens/secs)",
    "decode_throughput": "tok/s: batch_size x decode steps / Decode (total), mean of per-run ratios",
}

_LAT_HEADER = ["step", "batch size", "average", "lowest", "highest", "p50", "p90", "p99"]
_THR_HEADER = ["step", "batch size", "average", "lowest", "highest"]
_STAT = {"average": "mean", "lowest": "min", "highest": "max", "p50": "p50", "p90": "p90", "p99": "p99"}
_LAT_STEPS = {
    "prefill": "prefill_latency",
    "decode (token)": "decode_token_latency",
    "decode (total)": "decode_total_latency",
}
_THR_STEPS = {"prefill": "prefill_throughput", "decode": "decode_throughput"}
_PREFILL_NOTE = "TGI labels this tokens/secs; it is batch_size / prefill latency (sequences per second)"
_NAN_NOTE = "NaN: no runs were recorded for this batch size (run stopped or errored before it)"

_HEADER_RE = re.compile(r"^\s*\|\s*Step\s*\|\s*Batch Size\s*\|\s*Average\s*\|\s*Lowest\s*\|\s*Highest\s*\|", re.I)
_PARAM_HEADER_RE = re.compile(r"^\s*\|\s*Parameter\s*\|\s*Value\s*\|\s*$", re.I)
_CELL_RE = re.compile(r"^([-+]?\d+(?:\.\d+)?|NaN)\s*([A-Za-z/]+)$")
_TP_RE = re.compile(r"Tensor\s+Parallel(?:ism)?\s*(?:\(TP\))?\s*[-:]?\s*(\d+)\s*GPUs?", re.I)
_SEQ_RE = re.compile(r"^Sequence\s+Length\s*:?\s*(\d+)\s*$", re.I)
_QUANT_RE = re.compile(r"^Quantization\s*:\s*(\S.*)$", re.I)
_NOQUANT_RE = re.compile(r"^No\s+Quantization\s*$", re.I)
# "With Bitsandbytes-nf4 Results" / "Without Bitsandbytes Results": one heading per --quantize variant
_WITH_QUANT_RE = re.compile(
    r"^(?P<with>With(?:out)?)\s+(?P<q>bitsandbytes(?:-nf4|-fp4)?|bnb(?:-nf4|-fp4)?|gptq|awq|eetq|exl2|fp8|marlin|aqlm)"
    r"(?:\s+(?:quanti[sz]ation|results?))*\s*:?\s*$",
    re.I,
)
_ARG_RE = re.compile(r"^\s*-\s+([A-Za-z_][A-Za-z0-9_]*)\s*:\s*(.*?)\s*$")
_CLI_SHARD_RE = re.compile(r"--num-shard[ =](\d+)\b")
#: The launcher reads each argument from its environment too (`#[clap(long, env)] num_shard` in
#: launcher/src/main.rs): `NUM_SHARD=4`, in a command, an export or a heading, sets the shard count.
_ENV_SHARD_RE = re.compile(r"\bNUM_SHARD=(\d+)\b")
_CLI_QUANT_RE = re.compile(r"--quantize[ =]([A-Za-z0-9_-]+)")
_CLI_MODEL_RE = re.compile(r"--model-id[ =]([^\s`'\"]+)")
#: A shell assignment above a launch command (`model=aisingapore/sealion7b-instruct-nc`) that `--model-id $model` names.
_SHELL_SET_RE = re.compile(r"^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=([^\s`'\"#]+)\s*(?:#.*)?$")
_SHELL_VAR_RE = re.compile(r"^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?$")
#: The benchmark's own command line (benchmark/src/main.rs, clap long and short forms): its
#: parameter table prints `--tokenizer-name` as the `Model` row, `--runs` as `N Runs`
#: (`table.rs`: `builder.push_record(["Model", &tokenizer_name])`), so a command names what that
#: table would.
_BENCH_CMD_RE = re.compile(r"\btext-generation-benchmark\b")
_BENCH_FLAGS = {
    "model": re.compile(r"(?:--tokenizer-name|(?<![\w-])-t)[ =]([^\s`'\"]+)"),
    "sequence_length": re.compile(r"(?:--sequence-length|(?<![\w-])-s)[ =](\d+)\b"),
    "decode_length": re.compile(r"(?:--decode-length|(?<![\w-])-d)[ =](\d+)\b"),
    "n_runs": re.compile(r"(?:--runs|(?<![\w-])-r)[ =](\d+)\b"),
    "warmups": re.compile(r"(?:--warmups|(?<![\w-])-w)[ =](\d+)\b"),
}
#: A Hugging Face hub cache folder (`.../models--ORG--NAME/snapshots/HASH`) given as the tokenizer: the model ORG/NAME.
_HUB_CACHE_RE = re.compile(r"(?:^|/)models--([^/]+?)--([^/]+?)(?:/snapshots/[0-9a-f]+)?/?$")


def sniff(text: str | Lines) -> bool:
    """True when the text holds a text-generation-benchmark latency or throughput table."""
    return any(_HEADER_RE.match(line) for line in splitlines(text))


def _opt(value: str) -> str | None:
    """A launcher/parameter value as printed by Rust's Debug: None, Some(x), "x"."""
    v = value.strip()
    m = re.fullmatch(r"Some\((.*)\)", v)
    if m:
        v = m.group(1).strip()
    v = v.strip('"')
    return None if v in ("", "None", "null") else v


def hub_id(model: str) -> str:
    """The repo id a Hugging Face hub cache folder holds (`models--ORG--NAME/snapshots/HASH` is ORG/NAME);
    any other name as given."""
    m = _HUB_CACHE_RE.search(model)
    return f"{m[1]}/{m[2]}" if m else model


def listed_tps(text: str | Lines) -> list[int]:
    """The TPs a launcher block lists as the sweep it set out to run (`- num_shards: [2,4,8]`,
    `- num_shard: Some(1,2,4,8)`), whether or not the text holds a table for each."""
    out: set[int] = set()
    for line in splitlines(text):
        a = _ARG_RE.match(line)
        if a and a.group(1) in ("num_shard", "num_shards"):
            listed = re.fullmatch(r"\[?\s*(\d+(?:\s*,\s*\d+)+)\s*\]?", _opt(a.group(2)) or "")
            if listed:
                out |= {int(x) for x in listed[1].split(",")}
    return sorted(out)


def _int_or_none(value: str | None) -> int | None:
    if value is None:
        return None
    return int(value) if re.fullmatch(r"\d{1,9}", value.strip()) else None


def _quant(value: str | None) -> str:
    v = _opt(value) if value is not None else None
    return "none" if v is None or v.lower() in ("none", "no", "false") else v


class _State:
    """Settings in force at a point of the document."""

    def __init__(self) -> None:
        self.launcher_model: str | None = None
        self.launcher_tp: int | None = None
        self.launcher_tp_where = ""
        self.launcher_quant: str | None = None
        self.shell: dict[str, str] = {}
        self.notes: list[str] = []
        self.max_batch_total_tokens: int | None = None
        self.params: dict[str, str] = {}
        self.heading_tp: int | None = None
        self.heading_seq: int | None = None
        self.heading_quant: str | None = None

    def model(self) -> str | None:
        return self.params.get("model") or self.launcher_model

    def tp(self, messages: list[str], source: str) -> int | None:
        if self.heading_tp is not None:
            return self.heading_tp
        if self.launcher_tp is None:
            return None
        pm, lm = self.params.get("model"), self.launcher_model
        if pm and lm and pm != lm:
            msg = (
                f"{source}: TP not taken from {self.launcher_tp_where} (it launched {lm}, "
                f"the benchmark ran {pm}); tp left unknown"
            )
            if msg not in messages:
                messages.append(msg)
            return None
        msg = f"{source}: no 'Tensor Parallel (TP)' heading; tp = {self.launcher_tp} from {self.launcher_tp_where}"
        if msg not in messages:
            messages.append(msg)
        return self.launcher_tp

    def section(self) -> str:
        parts = []
        if self.heading_tp is not None:
            parts.append(f"TP {self.heading_tp}")
        if self.heading_seq is not None:
            parts.append(f"Sequence Length {self.heading_seq}")
        if self.heading_quant is not None:
            parts.append("No Quantization" if self.heading_quant == "none" else f"Quantization: {self.heading_quant}")
        return " / ".join(parts)


def _env_shard(st: _State, text: str, where: str) -> None:
    """`NUM_SHARD=N` anywhere in a line is the launcher's shard count from there on (its env form)."""
    m = _ENV_SHARD_RE.search(text)
    if m:
        st.launcher_tp, st.launcher_tp_where = int(m[1]), where


_CORE_PARAMS = {"model", "sequence length", "decode length", "n runs", "warmups"}


def _is_renamed_header(line: str) -> bool:
    """A benchmark table header with a renamed or missing column: at least three of its names."""
    if not line.lstrip().startswith("|"):
        return False
    return len({c.lower() for c in markdown_cells(line)} & set(_LAT_HEADER)) >= 3


def parse(text: str | Lines, source: str) -> Parsed:
    """Read every text-generation-benchmark table in `text` (a string or a file's lines) into the tidy table."""
    tool = REGISTRY_TOOL
    lines = splitlines(text)
    if not sniff(text):
        raise ParseError(
            source,
            1,
            "no text-generation-benchmark table found (expected a header "
            "'| Step | Batch Size | Average | Lowest | Highest |')",
        )
    st = _State()
    records: list[Row] = []  # tidy records as tuples (`rows.Row`): a dict each took 0.5 KB
    rejects: list[tuple[int, str, str]] = []
    messages: list[str] = []
    cells_read = 0
    filled = 0
    i = 0
    n = len(lines)
    while i < n:
        line = lines[i]
        lineno = i + 1
        h = HEADING_RE.match(line)
        if h:
            title = heading_words(h.group(1))
            m = _TP_RE.search(title)
            if m:
                st.heading_tp, st.heading_seq, st.heading_quant = int(m.group(1)), None, None
            elif _SEQ_RE.match(title):
                st.heading_seq, st.heading_quant = int(_SEQ_RE.match(title).group(1)), None
            elif _QUANT_RE.match(title):
                st.heading_quant = _quant(_QUANT_RE.match(title).group(1))
            elif _NOQUANT_RE.match(title):
                st.heading_quant = "none"
            elif _WITH_QUANT_RE.match(title):
                w = _WITH_QUANT_RE.match(title)
                st.heading_quant = "none" if w["with"].lower() == "without" else w["q"].lower()
            _env_shard(st, title, f"the heading's NUM_SHARD (line {lineno})")
            i += 1
            continue
        a = _ARG_RE.match(line)
        if a:
            key, val = a.group(1), a.group(2)
            if key == "model_id":
                st.launcher_model = _opt(val)
            elif key == "num_shard":
                v = _int_or_none(_opt(val))
                if v is not None:
                    st.launcher_tp, st.launcher_tp_where = v, f"the launcher argument num_shard (line {lineno})"
            elif key == "quantize":
                st.launcher_quant = _quant(val)
            elif key == "max_batch_total_tokens":
                st.max_batch_total_tokens = _int_or_none(_opt(val))
            i += 1
            continue
        _env_shard(st, line, f"NUM_SHARD (line {lineno})")  # a --num-shard on the same line wins, as in clap
        if _BENCH_CMD_RE.search(line) and _bench_command(st, line, lineno, source):
            i += 1
            continue
        if "--num-shard" in line or "--model-id" in line or "--quantize" in line:
            m = _CLI_MODEL_RE.search(line)
            if m:
                model = m.group(1).strip("\"'")
                var = _SHELL_VAR_RE.match(model)
                st.launcher_model = st.shell.get(var[1], model) if var else model
            m = _CLI_SHARD_RE.search(line)
            if m:
                st.launcher_tp, st.launcher_tp_where = int(m.group(1)), f"the command line --num-shard (line {lineno})"
            m = _CLI_QUANT_RE.search(line)
            if m:
                st.launcher_quant = _quant(m.group(1))
            i += 1
            continue
        sh = _SHELL_SET_RE.match(line)
        if sh:
            st.shell[sh[1]] = sh[2]
        if _PARAM_HEADER_RE.match(line):
            i = _read_params(lines, i, st, source)
            continue
        if not _HEADER_RE.match(line) and _is_renamed_header(line):
            i, items, message = unread_table(lines, i, NAME, "'| Step | Batch Size | Average | Lowest | Highest |'")
            rejects.extend(items)
            cells_read += len(items)
            messages.append(message)
            continue
        if _HEADER_RE.match(line):
            i, got, bad, nread, nfill = _read_table(lines, i, st, source, messages)
            records.extend(got)
            rejects.extend(bad)
            cells_read += nread
            filled += nfill
            continue
        i += 1
    if not records and not rejects:
        raise ParseError(source, 1, "text-generation-benchmark tables found but no data rows in them")
    messages.extend(st.notes)
    stated = {r["quantize"] for r in records if r.get("quantize") is not None}
    if len(stated) == 1 and any(r.get("quantize") is None for r in records):
        # a table whose quantization the file leaves unstated takes the one the rest of the file states
        # (as `context.fill` fills a column the table leaves empty)
        (only,) = stated
        k = records[0]._index["quantize"]
        records = [r if r[k] is not None else type(r)((*r[:k], only, *r[k + 1 :])) for r in records]
        messages.append(
            f"{source}: quantize {only!r} for the tables that state none: the one the rest of the file states"
        )
    if filled:
        messages.append(
            f"{source}: {filled} blank cells filled from the identical cell above "
            "(tabled Merge::vertical prints repeated cells once)"
        )
    return finish(tool, source, records, rejects, messages, cells_read)


def _bench_command(st: _State, line: str, lineno: int, source: str) -> bool:
    """A `text-generation-benchmark` command: the parameters its table would print, for the tables
    after it (a parameter table printed later replaces them). False when it names none."""
    found = {k: m.group(1).strip("\"'") for k, rx in _BENCH_FLAGS.items() if (m := rx.search(line))}
    if not found:
        return False
    st.params = {k: (hub_id(v) if k == "model" else int(v)) for k, v in found.items()}
    st.params["parameters"] = None
    if "model" in found:
        note = (
            f"{source}: model {st.params['model']} from the benchmark command's --tokenizer-name (line {lineno}), "
            "which text-generation-benchmark prints as its Model"
        )
        if note not in st.notes:
            st.notes.append(note)
    return True


def _read_params(lines: list[str], i: int, st: _State, source: str) -> int:
    """Read the "Parameter | Value" table starting at header line i; return the next line index."""
    j = i + 1
    if j >= len(lines) or not SEPARATOR_RE.match(lines[j]):
        raise ParseError(source, j + 1, "expected the |---|---| separator under '| Parameter | Value |'")
    j += 1
    params: dict[str, str] = {}
    while j < len(lines) and lines[j].strip().startswith("|"):
        cells = markdown_cells(lines[j])
        if len(cells) != 2:
            raise ParseError(source, j + 1, f"expected 2 cells (Parameter | Value), found {len(cells)}")
        params[cells[0].lower()] = cells[1]
        j += 1
    st.params = {}
    if "model" in params:
        st.params["model"] = hub_id(params["model"])
        if st.params["model"] != params["model"]:
            note = f"{source}: model {params['model']!r} (line {i + 3}) is a hub cache folder of {st.params['model']}"
            if note not in st.notes:
                st.notes.append(note)
    for key, out in (
        ("sequence length", "sequence_length"),
        ("decode length", "decode_length"),
        ("n runs", "n_runs"),
        ("warmups", "warmups"),
    ):
        if key in params:
            v = _int_or_none(params[key])
            if v is None:
                raise ParseError(source, i + 1, f"parameter {key!r} should be a whole number, got {params[key]!r}")
            st.params[out] = v
    extra = [f"{k.replace(' ', '_')}={v}" for k, v in params.items() if k not in _CORE_PARAMS]
    st.params["parameters"] = "; ".join(extra) if extra else None
    st.heading_tp = st.heading_seq = st.heading_quant = None
    return j


def _read_table(lines, i, st: _State, source: str, messages: list[str]):
    """Read one latency or throughput table starting at header line i."""
    header = [c.lower() for c in markdown_cells(lines[i])]
    if header == _LAT_HEADER:
        kind, steps, unit_in = "latency", _LAT_STEPS, "ms"
    elif header == _THR_HEADER:
        kind, steps, unit_in = "throughput", _THR_STEPS, "tokens/secs"
    else:
        raise ParseError(
            source,
            i + 1,
            "expected a header '| Step | Batch Size | Average | Lowest | Highest |' "
            "(+ '| p50 | p90 | p99 |' for latency), found " + repr(lines[i].strip()[:120]),
        )
    j = i + 1
    if j >= len(lines) or not SEPARATOR_RE.match(lines[j]):
        raise ParseError(source, j + 1, "expected the |---| separator row under the table header")
    j += 1
    stats = header[2:]
    records, bad = [], []
    nread = nfill = 0
    prev_cells: list[str] | None = None  # the effective (filled) cells of the row above
    step = None
    tp = st.tp(messages, source)
    seq = st.heading_seq if st.heading_seq is not None else st.params.get("sequence_length")
    # the launcher's `--quantize` defaults to none (text-generation-launcher: `quantize: Option<Quantization>`):
    # a launch the file shows without one ran unquantized; a file showing no launch states nothing of it
    launched = st.launcher_model is not None or st.launcher_tp is not None
    quant = st.heading_quant if st.heading_quant is not None else (st.launcher_quant or ("none" if launched else None))
    base = {
        "model": st.model(),
        "tp": tp,
        "sequence_length": seq,
        "decode_length": st.params.get("decode_length"),
        "n_runs": st.params.get("n_runs"),
        "warmups": st.params.get("warmups"),
        "quantize": quant,
        "max_batch_total_tokens": st.max_batch_total_tokens,
        "parameters": st.params.get("parameters"),
        "section": st.section() or None,
    }
    first = True
    while j < len(lines) and lines[j].strip().startswith("|"):
        lineno = j + 1
        raw = markdown_cells(lines[j])
        whole = len(raw) == len(header) and lines[j].rstrip().endswith("|")  # every cell and the closing pipe
        if copy_ends(lines, j) and not whole:  # the copy ends in the table, inside its last row: not read
            if first:
                raise ParseError(source, lineno, f"the copy ends inside the first row of a {kind} table: no whole row")
            cut = [c for c in raw[2:] if c] or [lines[j].strip()]
            line_, _, why = cut_item(j, lines[j])
            bad.extend((line_, c, why) for c in cut)
            nread += len(cut)
            messages.append(f"{source}:{lineno}: the copy ends inside the {kind} table, at line {lineno}: not read")
            j = len(lines)
            break
        if len(raw) != len(header):
            raise ParseError(source, lineno, f"expected {len(header)} cells in a {kind} row, found {len(raw)}")
        eff = list(raw)
        merged = [False] * len(raw)
        for k, c in enumerate(raw):
            if c == "":
                if prev_cells is None:
                    raise ParseError(source, lineno, f"blank {header[k]!r} cell in the first row of a {kind} table")
                eff[k] = prev_cells[k]
                merged[k] = True
        step_label = eff[0]
        step = steps.get(step_label.lower())
        bs_text = eff[1]
        if not re.fullmatch(r"\d{1,7}", bs_text):
            raise ParseError(source, lineno, f"expected a whole batch size, found {bs_text!r}")
        bs = int(bs_text)
        nan_above = prev_cells is not None and all(_is_nan(c) for c in prev_cells[2:])
        for k, stat in enumerate(stats, start=2):
            nread += 1
            cell = eff[k]
            if step is None:
                bad.append((lineno, raw[k] or cell, f"unknown step {step_label!r} in a {kind} table"))
                continue
            m = _CELL_RE.match(cell)
            if not m:
                bad.append((lineno, raw[k], f"expected '<number> {unit_in}', found {cell!r}"))
                continue
            num, unit = m.group(1), m.group(2)
            if unit.lower() != unit_in:
                bad.append((lineno, raw[k], f"expected unit {unit_in!r}, found {unit!r}"))
                continue
            value = float("nan") if num == "NaN" else float(num)
            notes = []
            if merged[1]:
                notes.append("Batch Size blank: continuation row, same batch as the row above (tabled merged it)")
            if merged[k]:
                nfill += 1
                if num == "NaN" and nan_above:
                    notes.append("blank row after a NaN row: tabled merged the NaN above; no runs recorded")
                else:
                    notes.append("blank cell: tabled Merge::vertical merged it with the identical cell above")
            elif num == "NaN":
                notes.append(_NAN_NOTE)
            if step == "prefill_throughput":
                notes.append(_PREFILL_NOTE)
            records.append(
                row(
                    _ROW,
                    {
                        **base,
                        "step": step_label,
                        "batch_size": bs,
                        "line": lineno,
                        "metric": step,
                        "statistic": _STAT[stat],
                        "value": value,
                        "unit": "ms" if kind == "latency" else ("seq/s" if step == "prefill_throughput" else "tok/s"),
                        "note": "; ".join(notes) if notes else None,
                    },
                )
            )
        prev_cells = eff
        first = False
        j += 1
    if first:
        raise ParseError(source, j + 1, f"a {kind} table with no rows")
    return j, records, bad, nread, nfill


def _is_nan(cell: str) -> bool:
    return cell.split(" ")[0] == "NaN"


REGISTRY_TOOL = register(
    Tool(
        name=NAME,
        settings=SETTINGS,
        sniff=sniff,
        parse=parse,
        description="text-generation-inference `text-generation-benchmark` markdown tables (latency and throughput "
        "per step and batch size), with launcher arguments, the generation-arguments table and section headings.",
        command="text-generation-benchmark --tokenizer-name MODEL (the tables it prints at the end)",
        metrics=METRICS,
    )
)

__all__ = ["NAME", "SETTINGS", "METRICS", "sniff", "parse"]
