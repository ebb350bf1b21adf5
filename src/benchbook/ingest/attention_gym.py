"""Parser for attention-gym's `examples/benchmark.py` (and the flex_attn notebook's `test_mask`).

What the tool prints (attention-gym, examples/benchmark.py):

* per example, a box-drawn header (`╔═══╗ / ║ Causal Mask ║ / ╚═══╝`; the notebook prints
  "Results for <fn name>:" instead), an optional "Correctness check passed ✅", then a tabulate
  "grid" table: Operation | FW Time (ms) | FW FLOPS (TF/s) | BW Time (ms) | BW FLOPS (TF/s),
  with rows "causal FA2", "F.sdpa + mask", "flexattention";
* then "Block Mask:" and either `None` (score_mod-only examples: density 1) or
  `BlockMask(shape=(1, 1, S, S), sparsity=49.22%,` followed by a block picture.

TF/s = multiplier x flops / time, multiplier 4 forward and 10 backward; flops = 0.5 B H D S^2 for
causal FA2 (always plain causal) and density B H D S^2 for the other two, density = 1 - sparsity
measured on 128 x 128 blocks. Defaults B = 16, H = 16, D = 64; S is 8192 (32768 for the document
mask) and is read from the block mask, or from a "S=..." header, or else inferred from the causal
FA2 row at those defaults (said in the messages).

A run that stops in a Python traceback (or a GPU fault) keeps the completed sections and adds a
warning naming the section where it stopped.
"""

from __future__ import annotations

import math
import re

from benchbook.ingest.core import Parsed, ParseError, Tool, finish, markdown_cells, number, register
from benchbook.ingest.rows import row, row_type
from benchbook.ingest.text import Lines, search, splitlines

NAME = "attention-gym"

SETTINGS = {
    "mask": "str",
    "operation": "str",
    "pass": "str",
    "seq_len": "Int64",
    "sparsity_pct": "float64",
    "density": "float64",
}
#: A tidy row's columns, in the order its tuple holds them.
_ROW = row_type(SETTINGS)

METRICS = {
    "time": "ms: triton do_bench mean of one forward (fw) or one backward (bw) call",
    "tflops": "TFLOP/s: multiplier x credited FLOPs / time (fw x4, bw x10); FA2 credited 0.5 S^2, "
    "the others density x S^2 (useful work, not work done)",
}

#: The benchmark's fixed shape (examples/benchmark.py defaults).
DEFAULT_B, DEFAULT_H, DEFAULT_D = 16, 16, 64

_OPS = {
    "causal fa2": "causal_fa2",
    "f.sdpa + mask": "sdpa_mask",
    "flexattention": "flexattention",
    "flex attention": "flexattention",
    "flex_attention": "flexattention",
}
_COLS = {
    "fw time (ms)": ("fw", "time", "ms"),
    "fw flops (tf/s)": ("fw", "tflops", "TFLOP/s"),
    "bw time (ms)": ("bw", "time", "ms"),
    "bw flops (tf/s)": ("bw", "tflops", "TFLOP/s"),
}
_BOX_TITLE_RE = re.compile(r"^\s*║\s*(.*?)\s*║\s*$")
_RESULTS_RE = re.compile(r"^\s*Results for\s+(.+?)\s*:\s*$")
_GRID_SEP_RE = re.compile(r"^\s*\+[-=+]+\+\s*$")
_BLOCKMASK_RE = re.compile(r"BlockMask\(\s*shape=\(([^)]*)\)\s*,\s*sparsity=([-+0-9.eE]+|nan)%", re.I)
_S_RE = re.compile(r"\bS\s*=\s*(\d+)")
_STOP_RE = re.compile(
    r"^\s*(Traceback \(most recent call last\):|Memory access fault|Segmentation fault|"
    r"Aborted \(core dumped\)|Killed\s*$|RuntimeError:|torch\.OutOfMemoryError|"
    r"CUDA error:|torch\.cuda\.OutOfMemoryError)"
)


_SNIFF = re.compile(r"\|\s*Operation\s*\|\s*FW Time \(ms\)\s*\|\s*FW FLOPS \(TF/s\)")


def sniff(text: str | Lines) -> bool:
    """True when the text holds an attention-gym grid table (Operation | FW Time (ms) | FW FLOPS (TF/s))."""
    return search(_SNIFF, text)


def snake(title: str) -> str:
    """'Prefix Lm Causal Mask 1024' -> 'prefix_lm_causal_mask_1024'."""
    s = re.sub(r"[^0-9A-Za-z]+", "_", title.strip()).strip("_").lower()
    if not s:
        return "unnamed"
    return s if s[0].isalpha() else f"m_{s}"


def _row_cells(line: str) -> list[str]:
    """The cells of a grid row; none when the row lacks either border (cut short)."""
    s = line.strip()
    return markdown_cells(s) if s.startswith("|") and s.endswith("|") else []


class _Section:
    def __init__(self, title: str, line: int):
        self.title = title
        self.mask = snake(title)
        self.line = line
        self.rows: list[dict] = []
        self.seq_len: int | None = None
        self.sparsity: float | None = None
        self.mask_printed = False
        m = _S_RE.search(title)
        if m:
            self.seq_len = int(m.group(1))


def infer_seq_len(
    fa2_time_ms: float,
    fa2_tflops: float,
    multiplier: int = 4,
    b: int = DEFAULT_B,
    h: int = DEFAULT_H,
    d: int = DEFAULT_D,
) -> int | None:
    """S from the causal FA2 row: tflops = multiplier x 0.5 B H D S^2 / time. Returns the nearest
    multiple of 128 when within 2 % of it (the benchmark's shapes are), else None."""
    if not (fa2_time_ms > 0 and fa2_tflops > 0):
        return None
    s = math.sqrt(fa2_tflops * 1e12 * fa2_time_ms / 1e3 / (multiplier * 0.5 * b * h * d))
    r = round(s / 128) * 128
    return int(r) if r > 0 and abs(s - r) / r < 0.02 else None


def parse(text: str | Lines, source: str) -> Parsed:
    """Read every attention-gym result table in the text (a string or a file's lines), with global line
    numbers."""
    lines = splitlines(text)
    sections: list[_Section] = []
    bad: list[tuple[int, str, str]] = []
    messages: list[str] = []
    cells_read = 0
    current: _Section | None = None
    stopped: tuple[int, str] | None = None
    expect_mask = False
    i = 0
    n = len(lines)
    while i < n:
        raw = lines[i]
        s = raw.strip()
        m = _BOX_TITLE_RE.match(raw)
        if m and i > 0 and lines[i - 1].strip().startswith("╔"):
            current = _Section(m.group(1), i + 1)
            sections.append(current)
            expect_mask = False
            i += 1
            continue
        m = _RESULTS_RE.match(raw)
        if m:
            current = _Section(m.group(1), i + 1)
            sections.append(current)
            expect_mask = False
            i += 1
            continue
        if _STOP_RE.match(raw) and sections:
            stopped = (i + 1, s)
            break
        if s.startswith("|") and "FW Time (ms)" in s and "Operation" in s:
            if current is None:
                current = _Section("unnamed", i + 1)
                sections.append(current)
            if current.rows:
                # a second table in the same section: a new, untitled section
                current = _Section(current.title, i + 1)
                sections.append(current)
            i, seen = _read_grid(lines, i, source, current, bad)
            cells_read += seen
            continue
        if s == "Block Mask:":
            expect_mask = True
            i += 1
            continue
        if current is not None and (expect_mask or s.startswith("BlockMask(")):
            bm = _BLOCKMASK_RE.search(s)
            if bm:
                dims = [x.strip() for x in bm.group(1).split(",")]
                try:
                    current.seq_len = int(dims[-2]) if len(dims) >= 2 else current.seq_len
                except ValueError:
                    raise ParseError(source, i + 1, f"a BlockMask shape of integers, found ({bm.group(1)})") from None
                current.sparsity = number(bm.group(2))
                if current.sparsity is None or not 0 <= current.sparsity <= 100:
                    messages.append(f"line {i + 1}: BlockMask sparsity {bm.group(2)!r}% is not a percentage; unknown")
                    current.sparsity = math.nan
                current.mask_printed = True
            elif s == "None":
                current.sparsity = 0.0
                current.mask_printed = True
            expect_mask = False
        i += 1

    complete = [sec for sec in sections if sec.rows]
    if not complete:
        where = f" (the run stopped at line {stopped[0]}: {stopped[1]})" if stopped else ""
        raise ParseError(
            source,
            stopped[0] if stopped else 1,
            "no attention-gym result table found (expected a grid table with "
            f"'Operation | FW Time (ms) | FW FLOPS (TF/s) | BW Time (ms) | BW FLOPS (TF/s)'){where}",
        )
    if stopped:
        last = sections[-1]
        done = ", ".join(sec.mask for sec in complete)
        messages.append(
            f"warning: the run stopped at line {stopped[0]} (`{stopped[1]}`) in section "  # the input's line, quoted
            f"'{last.title}' (line {last.line}); kept the {len(complete)} completed section{'' if len(complete) == 1 else 's'}: {done}"
            + ("" if last.rows else f"; '{last.title}' has no results")
        )
    records = []
    for sec in complete:
        records.extend(_finish(sec, messages))
    return finish(TOOL, source, records, bad, messages, cells_read)


def _read_grid(lines, start, source, sec: _Section, bad) -> tuple[int, int]:
    header = _row_cells(lines[start])
    cols = []
    for h in header[1:]:
        key = re.sub(r"\s+", " ", h.lower())
        if key not in _COLS:
            raise ParseError(source, start + 1, f"a column 'FW/BW Time (ms)' or 'FW/BW FLOPS (TF/s)', found {h!r}")
        cols.append(_COLS[key])
    i = start + 1
    seen = 0
    while i < len(lines):
        s = lines[i].strip()
        if _GRID_SEP_RE.match(s):
            i += 1
            continue
        if not s.startswith("|"):
            break
        cells = _row_cells(lines[i])
        if len(cells) != len(header):
            raise ParseError(source, i + 1, f"a grid row with {len(header)} cells, found {len(cells)}")
        name = re.sub(r"\s+", " ", cells[0]).lower()
        op = _OPS.get(name, snake(cells[0]))
        for (ps, metric, unit), cell in zip(cols, cells[1:], strict=True):
            seen += 1
            rec = {
                "operation": op,
                "pass": ps,
                "metric": metric,
                "unit": unit,
                "line": i + 1,
                "statistic": "mean" if metric == "time" else "value",
            }
            low = cell.lower()
            v = number(cell)
            if v is not None:
                sec.rows.append({**rec, "value": v, "note": None})
            elif low in ("nan", "inf", "-inf", ""):
                sec.rows.append({**rec, "value": math.nan, "note": f"printed {cell or 'blank'}: not measured"})
            else:
                bad.append((i + 1, cell, f"not a number ({ps} {metric})"))
        i += 1
    return i, seen


def _finish(sec: _Section, messages: list[str]) -> list[dict]:
    """Attach seq_len, sparsity and density to a section's rows."""
    if sec.seq_len is None:
        fa2 = {r["metric"]: r["value"] for r in sec.rows if r["operation"] == "causal_fa2" and r["pass"] == "fw"}
        if "time" in fa2 and "tflops" in fa2:
            sec.seq_len = infer_seq_len(fa2["time"], fa2["tflops"])
            if sec.seq_len is not None:
                messages.append(
                    f"section '{sec.title}' (line {sec.line}): seq_len {sec.seq_len} inferred from the "
                    f"causal FA2 forward row at B={DEFAULT_B}, H={DEFAULT_H}, D={DEFAULT_D}"
                )
    if not sec.mask_printed:
        messages.append(f"section '{sec.title}' (line {sec.line}): no block mask printed; sparsity unknown")
    sparsity = sec.sparsity if sec.mask_printed else math.nan
    density = (100.0 - sparsity) / 100.0 if sec.mask_printed else math.nan
    out = [
        row(_ROW, {**r, "mask": sec.mask, "seq_len": sec.seq_len, "sparsity_pct": sparsity, "density": density})
        for r in sec.rows
    ]
    sec.rows = []  # the dicts are done with: on a large file they would double what the records hold
    return out


TOOL = register(
    Tool(
        name=NAME,
        settings=SETTINGS,
        sniff=sniff,
        parse=parse,
        description="attention-gym examples/benchmark.py grid tables (FlexAttention vs FA2 vs SDPA + mask)",
        command="python examples/benchmark.py (attention-gym), console output",
        metrics=METRICS,
    )
)
