"""Parser for bigcode-inference-benchmark's batch-size sweep tables (HF accelerate, BLOOM, ...).

What the tool prints (bigcode-project/bigcode-inference-benchmark, src/hf.py, src/utils.py, scripts/parse_logs.py):

* `src/hf.py` / `src/utils.py` log, per batch size, "Throughput (including tokenization) =
  X tokens/sec", "... = 1000/X msecs/token" and "Latency = T secs", where X is all new tokens
  generated over the 5 timed `generate()` calls divided by their total time, and T is that total
  time divided by the number of calls (the wall time of one batched call of 100 new tokens).
* `scripts/parse_logs.py` turns the logs into two markdown tables: a throughput table whose
  cells read "tokens/sec \\| msec/token" and a latency table in seconds; one column per dtype
  (seed: `fp32`, `bf16`, `int8<br>LLM.int8()`; the later README: `HF (fp32)`,
  `DS-inference (fp16)`, ...). Titles are "tokens/sec | msec/token" and "sec" (seed) or
  "Throughput (tokens/sec | msec/token)" and "Latency (sec)" (README).
* `oom` is padding: any column with fewer result lines than the longest batch-size column gets
  "oom" appended. It means "no result line for this batch size" (the run died, usually out of
  memory), not a detected error. An empty cell means the column was never run.

The BLOOM write-ups (huggingface/blog `hf-bitsandbytes-integration.md`) print the same quantity in a
table of their own: `| Model | Number of parameters | Hardware | Time per token in milliseconds for
Batch Size 1 | ... 8 | ... 32 |`, one row per model and hardware (`BLOOM-176-int8`, `176B`, `4xA100 80GB`),
its cells what the BLOOM scripts (bigscience-workshop/Megatron-DeepSpeed `scripts/bloom-inference-scripts`)
print as `Throughput per token including tokenize`: the time of the timed generate() calls over all new
tokens of the batch, i.e. bigcode's msec/token, 1000 / the aggregate rate. Its `oom` is the author's mark
for a batch that ran out of memory (no padding there). The model's name ends in its dtype (`-int8`,
`-bf16`), the row's Hardware is its `gpu` as written (`4xA100 80GB` and `5xA100 40GB` are two series),
and the count in it (`4x`) the GPUs the run spans (`devices`): how the model is split over them the
table does not say.

Units: throughput tok/s (aggregate over the batch); ms_per_token ms, which is 1000 / aggregate
throughput (NOT the per-sequence per-token latency); latency s per batched generate call.
Settings model, framework and gpu come from the text lines above the tables ("BLOOM\\",
"HF-accelerate\\", "A100 80GB", "## BLOOM", "GPT2 Multi-Head Attention").
"""

from __future__ import annotations

import math
import re

from benchbook.ingest.core import (
    HEADING_RE,
    SEPARATOR_RE,
    Parsed,
    ParseError,
    Tool,
    finish,
    heading_words,
    markdown_cells,
    number,
    register,
    unread_table,
)
from benchbook.ingest.rows import Row, row, row_type
from benchbook.ingest.text import Lines, diff_added, search, splitlines
from benchbook.nouns import counted

NAME = "hf-batch-sweep"

SETTINGS = {
    "model": "str",
    "framework": "str",
    "gpu": "str",
    "batch_size": "Int64",
    "dtype": "str",
    "table": "str",
    "devices": "Int64",
}
_ROW = row_type(SETTINGS)

METRICS = {
    "throughput": "tok/s: new tokens of the whole batch / generate() time, over 5 timed calls (incl. tokenization)",
    "ms_per_token": "ms: 1000 / throughput, the inverse of the aggregate rate, not per-sequence latency",
    "latency": "s: wall time of one batched generate() call of 100 new tokens, mean of 5 calls",
}

OOM_NOTE = "oom: no result line for this batch size (padding by parse_logs.py; the run most likely died out of memory)"
EMPTY_NOTE = "blank: no result for this dtype (column never run)"
MS_NOTE = "1000 / aggregate throughput: not the per-sequence per-token latency"
MARKED_OOM = "oom: the table marks this batch size out of memory (the author's mark)"
#: The `table` setting of a BLOOM write-up's time-per-token table (its only metric: ms_per_token).
PER_TOKEN_TABLE = "time per token"

_HEADER_RE = re.compile(r"^\s*\|\s*batch[_ ]size\s*\|", re.I)
_THR_TITLE_RE = re.compile(r"^\s*(?:#+\s*)?(?:Throughput\s*\(\s*)?tokens/sec\s*\\?\|\s*msec/token\s*\)?\s*:?\s*$", re.I)
_LAT_TITLE_RE = re.compile(r"^\s*(?:#+\s*)?(?:Latency\s*\(\s*sec\s*\)|sec|secs)\s*:?\s*$", re.I)
_GPU_RE = re.compile(r"\b(A100|A10G?|A6000|H100|H200|V100|T4|L4|L40S?|RTX|MI\d{3}X?)\b", re.I)
_FRAMEWORK_RE = re.compile(
    r"^(HF[- ]accelerate|accelerate|DS[- ]inference|DeepSpeed(?:[- ]inference)?|transformers)$", re.I
)
_COL_RE = re.compile(r"^(.*?)\s*\(\s*([A-Za-z0-9_.-]+)\s*\)\s*$")

#: The BLOOM write-ups' table: batch sizes as columns of time per token, a row per model and hardware.
_PER_TOKEN_COL = re.compile(r"^time per token in milliseconds for batch size (\d+)$", re.I)
_PER_TOKEN_HEADER = re.compile(
    r"^\s*\|\s*Model\s*\|[^\n]*\|\s*Hardware\s*\|[^\n]*Time per token in milliseconds for Batch Size \d+", re.I | re.M
)
#: The BLOOM inference scripts' README (Megatron-DeepSpeed `scripts/bloom-inference-scripts`, later
#: huggingface/transformers-bloom-inference): `| project \\ bs | 1 | 8 | ... |`, a row per framework and dtype
#: (`accelerate   bf16`, `ds-inference int8`), each cell the scripts' `Throughput per token including
#: tokenize` in msecs for that batch size (the time of the timed generate() calls over all their new
#: tokens: the same quantity as the write-ups' time per token), under a title naming the GPUs
#: (`Throughput in msecs on 8x80GB gpus:`, `Throughput in msecs 4x80GB A100:`).
_PROJECT_HEADER = re.compile(r"^\s*\|\s*project\s*\\\s*bs\s*\|(?:\s*\d+\s*\|)+\s*$", re.I)
_PROJECT_TITLE = re.compile(r"^\s*Throughput in msecs\b(?P<rest>.*?):?\s*$", re.I)
#: the GPUs a title or a sentence names: `8x80GB`, `4x80GB A100`, `8x80GB A100 node`
_GPUS_NAMED = re.compile(r"\b(\d+)\s*x\s*(\d+\s*GB)\b(?:\s+(A100|H100|A6000|V100))?", re.I)
#: the scripts' flag that names the model they load (`--name bigscience/bloom`)
_NAME_FLAG = re.compile(r"--name[ =](\S+)")
_ROW_DTYPE = re.compile(r"^(?P<fw>.*?\S)\s+(?P<dtype>bf16|fp16|fp32|int8|int4)$", re.I)
#: `4xA100 80GB`: the GPUs a row spans, then the device
_HARDWARE = re.compile(r"^\s*(\d+)\s*[x×]\s*(\S.*?)\s*$", re.I)
#: a model's name ending in its dtype (`BLOOM-176-int8`)
_MODEL_DTYPE = re.compile(r"^(.*?)[-_ ](int8|int4|bf16|fp16|fp32|fp8)$", re.I)
_TOOL_TITLE = "bigcode-inference-benchmark"
_SNIFF_HEADER = re.compile(r"^\s*\|\s*batch[_ ]size\s*\|", re.I | re.M)
_SNIFF_CELL = re.compile(r"msec/token|\d\s*\\\|\s*\d")


#: The BLOOM inference scripts' `--benchmark` block (Megatron-DeepSpeed scripts/inference, later
#: scripts/bloom-inference-scripts): `*** Performance stats:` then `Througput per token: 0.0412 secs` (2022-07)
#: or `Throughput per token including tokenize: 10.74 msecs` beside `Tokenize and generate 20000 (bs=40)
#: tokens`. Which tokens the time is divided by changed between revisions (one sequence's new tokens, the
#: whole batch's, once times the world size), and one block is one batch: no sweep. Refused (`refuses`).
_STATS = re.compile(r"^\s*\*\*\*\s*Performance stats:\s*$")
_PER_TOKEN_STAT = re.compile(r"^\s*Throu?g?h?put per token(?: including tokenize)?:\s*[0-9.]+\s*(?:m?secs)\s*$", re.I)
_STATS_BATCH = re.compile(r"\(bs=(\d+)\)")
STATS = (
    "a BLOOM inference script's --benchmark stats (one timed run; its time per token is divided by one "
    "sequence's new tokens or by the whole batch's, depending on the script's revision)"
)


def refuses(text: str | Lines) -> tuple[int, str] | None:
    """(line, why) of a BLOOM inference script's performance stats (`_STATS`), else None (`Tool.refuses`):
    one run at one batch, no batch-size sweep. A file that also holds a table (the scripts' README, its
    batch sizes as columns) is not refused for its blocks: its table is a sweep, of a format not read.
    A block quoted in a review diff is read past each line's `+` (`text.diff_added`)."""
    lines = diff_added(splitlines(text))
    if any(line.lstrip().startswith("|") for line in lines):
        return None
    for i, line in enumerate(lines):
        if not _STATS.match(line):
            continue
        block = [lines[k] for k in range(i + 1, min(i + 8, len(lines)))]
        at = next((k for k, b in enumerate(block) if _PER_TOKEN_STAT.match(b)), None)
        if at is None:
            continue
        bs = next((m.group(1) for b in block if (m := _STATS_BATCH.search(b))), None)
        where = (
            f"at batch {bs}: one point, no batch-size sweep"
            if bs
            else "at a batch the block does not state: no point of a batch-size sweep"
        )
        return i + at + 2, f"{STATS}, {where}; not read"
    return None


def sniff(text: str | Lines) -> bool:
    """True when the text holds a batch_size table with 'tokens/sec | msec/token' cells or titles, or a
    BLOOM write-up's time-per-token table."""
    if search(_PER_TOKEN_HEADER, text) or any(_PROJECT_HEADER.match(x) for x in splitlines(text)):
        return True
    if not search(_SNIFF_HEADER, text):
        return False
    return search(_SNIFF_CELL, text)


def _column(name: str, framework: str | None) -> tuple[str, str | None]:
    """(dtype, framework) of a column header such as 'bf16', 'int8<br>LLM.int8()', 'HF (fp32)'."""
    head = re.split(r"<br\s*/?>", name, flags=re.I)[0].strip()
    m = _COL_RE.match(head)
    if m and m.group(1):
        fw = m.group(1).strip()
        fw = framework if fw.upper() == "HF" and framework else ("HF-accelerate" if fw.upper() == "HF" else fw)
        return m.group(2).lower(), fw
    return head.lower(), framework


def parse(text: str | Lines, source: str) -> Parsed:
    """Read every throughput and latency table of a bigcode-inference-benchmark write-up (a string or a
    file's lines)."""
    tool = TOOL
    lines = splitlines(text)
    records: list[Row] = []  # tidy records as tuples (`rows.Row`): a dict each took 0.5 KB
    bad: list[tuple[int, str, str]] = []
    messages: list[str] = []
    cells_read = 0
    ctx = {"model": None, "framework": None, "gpu": None}
    table_kind: str | None = None
    in_code = False
    n_tables = 0
    i = 0
    while i < len(lines):
        raw = lines[i]
        s = raw.strip()
        if s.startswith("```"):
            in_code = not in_code
            i += 1
            continue
        if in_code or not s:
            i += 1
            continue
        if _PROJECT_HEADER.match(raw):
            i, seen = _read_project(lines, i, records, bad, messages)
            cells_read += seen
            n_tables += 1
            continue
        if _PER_TOKEN_HEADER.match(raw):
            i, seen = _read_per_token(lines, i, source, records, bad)
            cells_read += seen
            n_tables += 1
            continue
        if _HEADER_RE.match(raw):
            if table_kind is None:
                raise ParseError(
                    source,
                    i + 1,
                    "a batch_size table without a title line above it ('tokens/sec | msec/token' or 'sec')",
                )
            i, seen = _read_table(lines, i, source, table_kind, ctx, records, bad, messages)
            cells_read += seen
            n_tables += 1
            table_kind = None
            continue
        if table_kind is not None and s.startswith("|"):
            # a table under a title whose header is not '| batch_size | ...': reported, its numbers set aside
            i, items, message = unread_table(lines, i, NAME, "'| batch_size | <dtype> ... |'")
            bad.extend(items)
            cells_read += len(items)
            messages.append(f"{table_kind} {message}")
            table_kind = None
            continue
        if _THR_TITLE_RE.match(s):
            table_kind = "throughput"
        elif _LAT_TITLE_RE.match(s):
            table_kind = "latency"
        elif not s.startswith("|"):
            _context_line(s, ctx)
        i += 1
    if n_tables == 0 and not bad:
        raise ParseError(
            source,
            1,
            "no bigcode-inference-benchmark table found (expected a title "
            "'tokens/sec | msec/token' or 'sec' above a '| batch_size |' table)",
        )
    return finish(tool, source, records, bad, messages, cells_read)


def _scripts_model(names: list[str]) -> str | None:
    """The model the scripts' `--name` flags load: one name, or where they differ the checkpoint the
    others are converted from, whose name each of theirs starts with (`bigscience/bloom` of
    `microsoft/bloom-deepspeed-inference-fp16`); None where no name is the others' origin."""

    def last(n: str) -> str:
        return n.rstrip("/").split("/")[-1].lower()

    return next((n for n in names if all(last(x).startswith(last(n)) for x in names)), None)


def _read_project(lines, start, records, bad, messages) -> tuple[int, int]:
    """The BLOOM scripts' README table (`_PROJECT_HEADER`): ms per token per framework, dtype and batch
    size. The GPUs are the title's (`on 8x80GB gpus`), their part the nearest line above that names it with
    the same count and memory (`JeanZay's 8x80GB A100 node`), which also gives the GPUs where the title names
    none (`Throughput in msecs:`); the model the checkpoint the scripts' `--name` flags load; an `oom` cell
    the author's mark, an empty one a batch size not run."""
    title = next((lines[k] for k in range(start - 1, max(start - 4, -1), -1) if _PROJECT_TITLE.match(lines[k])), "")
    named = _GPUS_NAMED.search(title)
    count, memory, part = (
        (named.group(1), named.group(2).replace(" ", ""), named.group(3)) if named else (None, None, None)
    )
    for k in range(start - 1, -1, -1):
        m = _GPUS_NAMED.search(lines[k])
        if (
            part is None
            and m
            and m.group(3)
            and (count is None or (m.group(1), m.group(2).replace(" ", "")) == (count, memory))
        ):
            count, memory, part = m.group(1), m.group(2).replace(" ", ""), m.group(3)
    gpu = f"{count}x{part or ''} {memory}".replace("x ", "x") if count else None
    if count is None:
        messages.append(f"line {start + 1}: the table's title names no GPUs (`Throughput in msecs on 8x80GB gpus:`)")
    model = _scripts_model([m.group(1) for x in lines for m in _NAME_FLAG.finditer(x)])
    header = markdown_cells(lines[start])
    batches = {k: int(h) for k, h in enumerate(header) if k and h.strip().isdigit()}
    i = start + 1
    if i < len(lines) and SEPARATOR_RE.match(lines[i]):
        i += 1
    seen = 0
    while i < len(lines) and lines[i].strip().startswith("|"):
        cells = markdown_cells(lines[i])
        label = cells[0].strip() if cells else ""
        if not label:  # the README's blank last row
            i += 1
            continue
        m = _ROW_DTYPE.match(label)
        framework, dtype = (m.group("fw").strip(), m.group("dtype").lower()) if m else (label, "")
        base = {"model": model, "framework": framework, "gpu": gpu, "devices": int(count) if count else None}
        for k, bs in batches.items():
            cell = cells[k].strip() if k < len(cells) else ""
            rec = {**base, "dtype": dtype, "table": PER_TOKEN_TABLE, "batch_size": bs, "line": i + 1}
            rec.update(metric="ms_per_token", statistic="value", unit="ms")
            v = number(cell)
            if cell.lower() in ("", "oom"):
                records.append(row(_ROW, {**rec, "value": math.nan, "note": MARKED_OOM if cell else EMPTY_NOTE}))
            elif v is None:
                bad.append((i + 1, cell, "not a number (ms_per_token)"))
                seen += 1
            else:
                records.append(row(_ROW, {**rec, "value": v, "note": MS_NOTE}))
                seen += 1
            seen += cell.lower() == "oom"
        i += 1
    return i, seen


def _read_per_token(lines, start, source, records, bad) -> tuple[int, int]:
    """A BLOOM write-up's `| Model | Number of parameters | Hardware | Time per token ... Batch Size N |`
    table (module docstring): ms per token per batch size; a cell past the header is dropped where it
    is empty and set aside where it holds a number."""
    header = markdown_cells(lines[start])
    names = [h.strip().lower() for h in header]
    model_at, hw_at = names.index("model"), names.index("hardware")
    batches = {k: int(m.group(1)) for k, h in enumerate(header) if (m := _PER_TOKEN_COL.match(h.strip()))}
    i = start + 1
    if i < len(lines) and SEPARATOR_RE.match(lines[i]):
        i += 1
    seen = 0
    while i < len(lines) and lines[i].strip().startswith("|"):
        line_no = i + 1
        cells = markdown_cells(lines[i])
        for extra in cells[len(header) :]:
            if extra.strip():
                seen += 1
                bad.append((line_no, extra, "a cell past the table's header"))
        cells = cells[: len(header)]
        if len(cells) < len(header):
            raise ParseError(source, line_no, f"a table row with {len(header)} cells, found {len(cells)}")
        m = _MODEL_DTYPE.match(cells[model_at].strip())
        model, dtype = (m.group(1), m.group(2).lower()) if m else (cells[model_at].strip(), "")
        hw = _HARDWARE.match(cells[hw_at])
        base = {
            "model": model,
            "framework": None,
            "gpu": cells[hw_at].strip(),  # as written: `6xA100 40GB` and `5xA100 40GB` are two series
            "devices": int(hw.group(1)) if hw else None,
            "dtype": dtype,
            "table": PER_TOKEN_TABLE,
        }
        for k, bs in batches.items():
            cell = cells[k].strip()
            seen += 1
            rec = {
                **base,
                "batch_size": bs,
                "line": line_no,
                "metric": "ms_per_token",
                "statistic": "value",
                "unit": "ms",
            }
            v = number(cell)
            if cell.lower() in ("", "oom"):
                note = MARKED_OOM if cell.lower() == "oom" else EMPTY_NOTE
                records.append(row(_ROW, {**rec, "value": math.nan, "note": note}))
            elif v is None:
                bad.append((line_no, cell, "not a number (ms_per_token)"))
            else:
                records.append(row(_ROW, {**rec, "value": v, "note": MS_NOTE}))
        i += 1
    return i, seen


def printed_params(text: str | Lines) -> dict[str, float]:
    """{model: billions of parameters} from a BLOOM write-up table's `Number of parameters` column
    (`176B`), the model named as the parser names it (its dtype suffix off)."""
    out = {}
    lines = splitlines(text)
    for k, line in enumerate(lines):
        if not _PER_TOKEN_HEADER.match(line):
            continue
        names = [h.strip().lower() for h in markdown_cells(line)]
        if "number of parameters" not in names:
            continue
        at, model_at = names.index("number of parameters"), names.index("model")
        for raw in lines[k + 1 :]:
            if not raw.strip().startswith("|"):
                break
            cells = markdown_cells(raw)
            p = re.fullmatch(r"(\d+(?:\.\d+)?)\s*B", cells[at].strip()) if len(cells) > at else None
            if p:
                m = _MODEL_DTYPE.match(cells[model_at].strip())
                out[m.group(1) if m else cells[model_at].strip()] = float(p.group(1))
    return out


def _context_line(s: str, ctx: dict) -> None:
    """Update model / framework / gpu from a text line above the tables."""
    m = HEADING_RE.match(s)
    text = (heading_words(m.group(1)) if m else s).rstrip("\\").strip()
    if not text or text.lower() == _TOOL_TITLE or "=" in text:
        return
    if _FRAMEWORK_RE.match(text):
        ctx["framework"] = text
    elif _GPU_RE.search(text) and len(text) <= 40:
        ctx["gpu"] = text
    elif len(text) <= 60 and not text.startswith(("-", "*", "[", "!")) and not text.endswith((".", ":")):
        ctx["model"] = text


def _read_table(lines, start, source, kind, ctx, records, bad, messages) -> int:
    header = markdown_cells(lines[start])
    if len(header) < 2:
        raise ParseError(source, start + 1, "a '| batch_size | <dtype> ... |' header with at least one dtype column")
    columns = [_column(h, ctx["framework"]) for h in header[1:]]
    i = start + 1
    if i < len(lines) and SEPARATOR_RE.match(lines[i]):
        i += 1
    base = {"model": ctx["model"], "gpu": ctx["gpu"], "table": kind}
    # per (dtype, framework) column of this table: whether it gave records, and one not blank
    given: set[tuple[str, str]] = set()
    filled: set[tuple[str, str]] = set()
    seen = 0
    while i < len(lines) and lines[i].strip().startswith("|"):
        line_no = i + 1
        cells = markdown_cells(lines[i])
        if len(cells) != len(header):
            raise ParseError(source, line_no, f"a table row with {len(header)} cells, found {len(cells)}")
        try:
            bs = int(cells[0])
        except ValueError:
            raise ParseError(source, line_no, f"a batch size (integer) in the first cell, found {cells[0]!r}") from None
        for (dtype, fw), cell in zip(columns, cells[1:], strict=True):
            rec = {**base, "framework": fw, "dtype": dtype, "batch_size": bs, "line": line_no}
            metrics = (
                [("throughput", "tok/s", "value"), ("ms_per_token", "ms", "value")]
                if kind == "throughput"
                else [("latency", "s", "mean")]
            )
            low = cell.lower()
            if low in ("", "oom"):
                seen += len(metrics)
                note = OOM_NOTE if low == "oom" else EMPTY_NOTE
                given.add((dtype, fw))
                if note != EMPTY_NOTE:
                    filled.add((dtype, fw))
                for metric, unit, stat in metrics:
                    records.append(
                        row(
                            _ROW,
                            {**rec, "metric": metric, "statistic": stat, "value": math.nan, "unit": unit, "note": note},
                        )
                    )
                continue
            parts = [p.strip() for p in re.split(r"\\\|", cell)] if kind == "throughput" else [cell]
            seen += max(len(parts), len(metrics))
            if len(parts) != len(metrics):
                for p in parts:
                    bad.append(
                        (line_no, p, f"expected {counted(len(metrics), 'number')} in a {kind} cell, found {cell!r}")
                    )
                if len(parts) < len(metrics):
                    for _ in range(len(metrics) - len(parts)):
                        bad.append((line_no, cell, "missing number in cell"))
                continue
            for (metric, unit, stat), p in zip(metrics, parts, strict=True):
                v = number(p)
                if v is None:
                    bad.append((line_no, p, f"not a number ({metric})"))
                    continue
                given.add((dtype, fw))
                filled.add((dtype, fw))
                records.append(
                    row(
                        _ROW,
                        {
                            **rec,
                            "metric": metric,
                            "statistic": stat,
                            "value": v,
                            "unit": unit,
                            "note": MS_NOTE if metric == "ms_per_token" else None,
                        },
                    )
                )
        i += 1
    for dt, fw in dict.fromkeys(columns):
        # a column whose cells were all rejected has no records: that is not an empty column
        if (dt, fw) in given and (dt, fw) not in filled:
            messages.append(
                f"{kind} table at line {start + 1}: column {dt!r} is empty (never run); its rows are left blank"
            )
    return i, seen


TOOL = register(
    Tool(
        name=NAME,
        settings=SETTINGS,
        sniff=sniff,
        parse=parse,
        description="bigcode-inference-benchmark batch-size sweep tables (tokens/sec | msec/token, sec)",
        command="bigcode-inference-benchmark's batch-size sweep, tables from scripts/parse_logs.py",
        metrics=METRICS,
        refuses=refuses,
    )
)
