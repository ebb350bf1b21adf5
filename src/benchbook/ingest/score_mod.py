"""PyTorch's FlexAttention sweep, `benchmarks/transformer/score_mod.py`: its `tabulate` github tables.

What the script prints (pytorch/pytorch, benchmarks/transformer/score_mod.py, `print_results`): one
row per experiment, keyed by the score modification (`score_mod`; with `mask_mod` beside it in some
versions; later `attn_type`), `dtype` and `shape(B,Hq,M,Hkv,N,D)`, then each backend's time in microseconds (triton's `do_bench` x 1e3):
`fwd_eager_time` / `fwd_compiled_time` in 2024, `fwd_math`, `fwd_fakv`, `fwd_compiled` with
`--backend`, `<backend>_fwd_time` later; `bwd_...` with `--calculate-bwd`. The speed-up columns
(`fwd_speedup`, `fwd_math_speedup`, `fwd_speedup_flex_over_math`) are one printed time over another:
recomputable, set aside. With `--throughput` (`cal_bandwidth`), `fwd_mem_bw (TB/s)` and `TFlops/s`
(`GFlops/s` in the first decoding version) are FlexAttention's (the `compiled`, later `flex`,
backend): bytes of Q, K, V and O, and B x Hq x (4 x M x N x D + 2 x M x N) FLOPs, over its time (no
causal halving: another rule than the chapter's). Below the sweep, a `Type | Speedup` table gives the average, max and min speed-up:
recomputable, set aside. Which call `eager` times changed between versions (plain SDPA without the
mask in 2024), so a backend is named as printed. The first version (May 2024, `_flex_attention`) keys
its rows by `shape`, `score_mod` and `dtype`: its `ExperimentConfig.shape` is asserted of length 4,
(batch_size, num_heads, q_seq_len, head_dim), the keys as long as the queries (`generate_inputs(...,
q_seq_len, q_seq_len, ...)`) and as many key heads as query heads.

Its sibling `benchmarks/transformer/sdpa.py` (`print_results`: `tabulate(..., tablefmt="pretty")`) prints one
row per `ExperimentConfig` of `scaled_dot_product_attention`: `batch_size`, `num_heads`, `q_seq_len`,
`kv_seq_len`, `embed_dim` (head dim = embed_dim // num_heads, its `head_dim` property, a column in later
versions), `is_causal`, `dtype`, a `backend` (and `flash_impl`) column only where one was forced (none: the
dispatcher picks, named `sdpa` here), then `forward_time` and `backward_time` in microseconds (torch.utils.benchmark,
later do_bench_using_profiling, x 1e6 / 1e3) and in later versions `forward_tflops` / `backward_tflops` (its
`calculate_tflops`: softmax counted, causal as sparsity 0.5, backward 2.5 times the forward): read as its rows.

With `--save-path` it also writes the same columns as a CSV (`print_results`: `csv.DictWriter` over the
printed table's columns, the shape column and each shape quoted, floats unrounded): read as the table.

Refused by name (`refuses`): a polars frame (`│ attn_type ┆ dtype ┆ shape(B,Hq,M,Hkv,N,D) ┆ TFlops (base) ┆
TFlops (max) ┆ delta ┆ pct_delta │`, pytorch PR 161667) keyed by this script's case columns with a
`TFlops (<label>)` column per run: another script's comparison of score_mod.py runs (score_mod.py prints
tabulate tables, in its later versions a TFLOP/s column per backend, `<backend>_fwd_TFlops`, where the
frame names none); its rows are chosen by the size of the change, not a sweep. Not read.
"""

from __future__ import annotations

import csv
import re

from benchbook.ingest import tritonbench
from benchbook.ingest.core import (
    NUMBER,
    SEPARATOR_RE,
    Parsed,
    Tool,
    copy_ends,
    cut_after_item,
    cut_item,
    finish,
    markdown_cells,
    register,
)
from benchbook.ingest.text import Lines, search, splitlines

NAME = "pytorch-score-mod"

#: tritonbench's columns (one schema for the attention operator tables), and the data type it runs in
SETTINGS = {**tritonbench.SETTINGS, "dtype": "str"}
METRICS = {
    "latency": "ms: triton do_bench time of one call (printed in µs)",
    "tflops": "TFLOP/s: B x Hq x (4 x M x N x D + 2 x M x N) / FlexAttention's time (score_mod.py's calculate_tflops)",
    "mem_bw": "TB/s: bytes of Q, K, V and O / FlexAttention's time (score_mod.py's calculate_bandwidth)",
}
SHAPE = "shape(B,Hq,M,Hkv,N,D)"
SPEEDUP = "score_mod.py's speed-up: one printed time over another, recomputable"
SUMMARY = "score_mod.py's average, max and min of the speed-ups below or above: recomputable from the sweep"
#: The same table where the file holds no sweep (a comment that folded its sweep away): ratios with no time.
SUMMARY_ALONE = (
    "score_mod.py's average, max and min of the speed-ups of a sweep this file does not hold: ratios of times "
    "it does not print"
)
#: A sweep's or a summary's header: keyed by the later `shape(B,Hq,M,Hkv,N,D)`, by the first version's `shape |
#: score_mod` with its times, or the first version's summary (`Type | Speedup | shape | score_mod | mask | dtype`).
_SNIFF = re.compile(
    r"(?m)^\s*\|?\s*(?:(?:score_mod|attn_type|Type)\s*\|.*shape\(B,Hq,M,Hkv,N,D\)|shape\s*\|\s*score_mod\s*\|.*\bfwd_\w+_time\b"
    r"|Type\s*\|\s*Speedup\s*\|\s*shape\s*\|\s*score_mod\s*\|)"
)
#: The first version's key column: (batch_size, num_heads, q_seq_len, head_dim).
SHAPE4 = "shape"
#: `fwd_eager_time`, `fwd_math`, `bwd_compiled_time`, and the later `flex_fwd_time`.
_TIME = re.compile(r"^(?:(?P<pass>fwd|bwd)_(?P<backend>\w+?)(?:_time)?|(?P<backend2>\w+?)_(?P<pass2>fwd|bwd)_time)$")
_PER_BACKEND = re.compile(r"^(?P<backend>\w+?)_(?P<pass>fwd|bwd)_(?P<what>TFlops|mem_bw \(TB/s\))$")
#: The FlexAttention backend, whose are the bare `fwd_mem_bw (TB/s)` and `TFlops/s` columns.
_FLEX = ("compiled", "flex")
#: The columns that name the case: the score modification, the mask (both in some versions), or the attention type.
_MODS = ("score_mod", "mask_mod", "attn_type")
_DTYPES = {"torch.bfloat16": "bf16", "torch.float16": "fp16", "torch.float32": "fp32"}


#: A polars frame's header row (`│ a ┆ b │`) with score_mod.py's shape column and a `TFlops (<run>)` column per run.
_POLARS_COMPARISON = re.compile(r"^\s*│.*┆\s*shape\(B,Hq,M,Hkv,N,D\)\s*┆.*\bTFlops \([^)]+\)\s*┆")


def refuses(text: str | Lines) -> tuple[int, str] | None:
    """(line, why) of the header of a polars frame comparing score_mod.py runs, else None (`Tool.refuses`)."""
    line = next((i for i, raw in enumerate(splitlines(text), start=1) if _POLARS_COMPARISON.match(raw)), None)
    if line is None:
        return None
    return line, (
        "a polars frame comparing score_mod.py runs' TFlops per case: neither the script that joined them nor "
        "the backend each TFlops is of is printed; not read"
    )


#: The header of the CSV `--save-path` writes: a case column and the quoted shape column, comma-separated.
_CSV_SNIFF = re.compile(r'(?m)^\s*(?:score_mod|attn_type)\s*,.*"shape\(B,Hq,M,Hkv,N,D\)"')


#: sdpa.py's pretty table header: `ExperimentConfig`'s fields in order, then its results.
_SDPA_SNIFF = re.compile(
    r"(?m)^\s*\|\s*batch_size\s*\|\s*num_heads\s*\|\s*q_seq_len\s*\|\s*kv_seq_len\s*\|\s*embed_dim\s*\|.*\bforward_time\b"
)
#: The operator sdpa.py times: dense (or causal) attention, the work tritonbench's flash_attention FLOPs rule counts.
SDPA_OP = "scaled_dot_product_attention"
_SDPA_SHAPE = ("batch_size", "num_heads", "q_seq_len", "kv_seq_len", "embed_dim")
#: sdpa.py's result columns: (pass, metric).
_SDPA_RESULTS = {
    "forward_time": ("fwd", "latency"),
    "backward_time": ("bwd", "latency"),
    "forward_tflops": ("fwd", "tflops"),
    "backward_tflops": ("bwd", "tflops"),
}


def _sdpa_tables(lines: list[str]):
    """(header, its 1-based rows as (line, cells), the mark where the copy ends inside it or None) of each
    sdpa.py pretty table: a header row between `+---+` borders, then `|` rows until the closing border. A
    copy whose last line is a row of a table it never closes ends inside the table: what the run printed
    after that row is not in the file, so that row is marked (`cut_after_item`), or set aside where it is
    cut short (no closing `|`: `cut_item`)."""
    for i, raw in enumerate(lines):
        if not _SDPA_SNIFF.match(raw):
            continue
        header, rows, cut = markdown_cells(raw), [], None
        for j in range(i + 1, len(lines)):
            s = lines[j].strip()
            if s.startswith("+"):
                if rows:
                    break
                continue
            if not s.startswith("|"):
                break
            if copy_ends(lines, j):
                cut = cut_after_item(j, lines[j]) if s.endswith("|") else cut_item(j, lines[j])
                if not s.endswith("|"):
                    break
            rows.append((j + 1, markdown_cells(lines[j])))
        yield header, rows, cut


def _sdpa_records(header: list[str], rows) -> tuple[list[dict], int]:
    """sdpa.py's rows (module docstring): each result column's value with its shape, causal flag and backend."""
    records, cells = [], 0
    for j, raw_cells in rows:
        row = dict(zip(header, raw_cells, strict=False))
        dims = [row.get(c, "") for c in _SDPA_SHAPE]
        if not all(d.isdigit() for d in dims):
            continue
        b, h, m, n, e = map(int, dims)
        causal = {"True": "causal", "False": "non-causal"}.get(row.get("is_causal", ""))
        backend = " ".join(v for v in (row.get("backend"), row.get("flash_impl")) if v and v != "None") or "sdpa"
        for col, (pass_, metric) in _SDPA_RESULTS.items():
            raw = row.get(col, "")
            if not re.fullmatch(NUMBER, raw):
                continue
            cells += 1
            records.append(
                {
                    "op": SDPA_OP,
                    "backend": backend,
                    "input": f"{causal or 'causal not stated'} ({b}, {h}, {m}, {n}, {e // h})",
                    "batch": b,
                    "heads": h,
                    "seq_len": m,
                    "seq_len_kv": n,
                    "d_head": e // h,
                    "shape_from": "table",
                    "causal": causal,
                    "pass": pass_,
                    "dtype": _DTYPES.get(row.get("dtype", ""), row.get("dtype") or None),
                    "line": j,
                    "metric": metric,
                    "statistic": "value",
                    "value": float(raw) / 1e3 if metric == "latency" else float(raw),
                    "unit": "ms" if metric == "latency" else "TFLOP/s",
                    "note": (f"printed {raw} µs" if metric == "latency" else "sdpa.py's calculate_tflops")
                    + f"; head dim = embed_dim {e} / num_heads {h}",
                }
            )
    return records, cells


def sniff(text: str | Lines) -> bool:
    """True when a github table keyed by score_mod.py's `shape(B,Hq,M,Hkv,N,D)` column is there, or the
    CSV of the same columns its `--save-path` writes."""
    return search(_SNIFF, text) or search(_CSV_SNIFF, text) or search(_SDPA_SNIFF, text)


def _shape(cell: str) -> dict:
    """(B, Hq, M, Hkv, N, D), or the first version's (B, H, S, D) with N = M = S."""
    dims = [d.strip() for d in cell.strip("() ").split(",")]
    if len(dims) not in (4, 6) or not all(d.isdigit() for d in dims):
        return {}
    b, hq, m, _hkv, n, d = map(int, dims) if len(dims) == 6 else (*map(int, dims[:3]), 0, int(dims[2]), int(dims[3]))
    return {"batch": b, "heads": hq, "seq_len": m, "seq_len_kv": n, "d_head": d, "shape_from": "table"}


def _key(header: list[str]) -> str | None:
    """The shape column a score_mod.py table is keyed by: the first version's `shape` only where its columns
    begin as that version prints them, `ExperimentConfig`'s fields in order (`shape`, `score_mod`), after
    `Type | Speedup` in its summary table."""
    if SHAPE in header:
        return SHAPE
    fields = header[2:4] if header[:2] == ["Type", "Speedup"] else header[:2]
    return SHAPE4 if fields == [SHAPE4, "score_mod"] else None


def _case(row: dict) -> str:
    """The case a row times: its score_mod, mask_mod or attn_type (a score_mod and a mask_mod name one case
    together); the script prints `None` for a modification not applied, left out here."""
    named = [c for c in _MODS if c in row]
    given = [c for c in named if row[c] not in ("None", "")]
    if len(named) == 1 and given:
        return row[given[0]]
    return ", ".join(f"{c}={row[c]}" for c in given) or "no " + " or ".join(named)


def _column(col: str, backends: list[str]) -> tuple[str, str, str] | None:
    """(backend, pass, metric) of a measured column, None for a speed-up or a setting."""
    if "speedup" in col.lower():
        return None
    if col in ("fwd_mem_bw (TB/s)", "TFlops/s", "GFlops/s"):
        flex = next((b for b in backends if b in _FLEX), None)
        return (flex, "fwd", "mem_bw" if "mem_bw" in col else "tflops") if flex else None
    m = _PER_BACKEND.match(col)
    if m:
        return m["backend"], m["pass"], "tflops" if m["what"] == "TFlops" else "mem_bw"
    m = _TIME.match(col)
    if m and not col.startswith("fwd_mem"):
        return (m["backend"] or m["backend2"]), (m["pass"] or m["pass2"]), "latency"
    return None


def _csv_cells(line: str) -> list[str]:
    """The cells of one line of the CSV `--save-path` writes (`csv.DictWriter` over the printed table's
    columns: the shape column and each shape quoted, since they hold commas)."""
    return [c.strip() for c in next(csv.reader([line.strip()]), [])]


def _tables(lines: list[str]):
    """(header, its 1-based rows as (line, cells)) of each score_mod.py table: the github table it prints
    (a header, a `|---|` line, `|` rows) and the CSV `--save-path` writes of the same columns (a header
    line, comma rows until a line that is not one)."""
    i = 0
    while i < len(lines) - 1:
        header = markdown_cells(lines[i]) if "|" in lines[i] else []
        if _key(header) is not None and SEPARATOR_RE.match(lines[i + 1]):
            j = i + 2
            rows = []
            while j < len(lines) and lines[j].strip().startswith("|"):
                rows.append((j + 1, markdown_cells(lines[j])))
                j += 1
            yield header, rows
            i = j
            continue
        header = _csv_cells(lines[i]) if "," in lines[i] and "|" not in lines[i] else []
        if _key(header) is not None and any(c in header for c in _MODS):
            j = i + 1
            rows = []
            while j < len(lines) and len(cells := _csv_cells(lines[j])) == len(header):
                rows.append((j + 1, cells))
                j += 1
            yield header, rows
            i = j
            continue
        i += 1


def parse(text: str | Lines, source: str) -> Parsed:
    lines = splitlines(text)
    records, rejects, cells = [], [], 0
    tables = list(_tables(lines))
    swept = any(header[0] != "Type" for header, _ in tables)
    for header, rows in tables:
        key = _key(header)
        summary = header[0] == "Type"
        times = [_TIME.match(c) for c in header]
        backends = [
            (m["backend"] or m["backend2"]) for m, c in zip(times, header, strict=True) if m and "speedup" not in c
        ]
        for j, raw_cells in rows:
            row = dict(zip(header, raw_cells, strict=False))
            mod = _case(row)
            shape = _shape(row.get(key, ""))
            for col, raw in row.items():
                if col in (key, *_MODS, "dtype", "Type") or not re.fullmatch(NUMBER, raw):
                    continue
                cells += 1
                where = _column(col, backends)
                if summary:
                    rejects.append((j, f"{col} {raw}", SUMMARY if swept else SUMMARY_ALONE))
                elif where is None or where[0] is None:
                    rejects.append(
                        (j, f"{col} {raw}", SPEEDUP if "speedup" in col.lower() else f"column {col!r} is not read")
                    )
                else:
                    backend, pass_, metric = where
                    # µs to ms, and the first decoding version's GFlops/s to TFLOP/s
                    value = float(raw) / 1e3 if metric == "latency" or col == "GFlops/s" else float(raw)
                    records.append(
                        {
                            "op": None,
                            "backend": backend,
                            "input": f"{mod} {row.get(key, '')}".strip(),
                            **shape,
                            "causal": None,
                            "pass": pass_,
                            "dtype": _DTYPES.get(row.get("dtype", ""), row.get("dtype") or None),
                            "line": j,
                            "metric": metric,
                            "statistic": "value",
                            "value": value,
                            "unit": {"latency": "ms", "tflops": "TFLOP/s", "mem_bw": "TB/s"}[metric],
                            "note": f"printed {raw} µs"
                            if metric == "latency"
                            else (f"printed {raw} GFlops/s" if col == "GFlops/s" else None),
                        }
                    )
    for header, rows, cut in _sdpa_tables(lines):
        more, n = _sdpa_records(header, rows)
        records += more
        cells += n
        if cut:  # the mark (or the row cut short) counts as seen, as every parser counts it
            rejects.append(cut)
            cells += 1
    empty = f"no score_mod.py table (a github table with a {SHAPE} column) found"
    return finish(TOOL, source, records, rejects, [], cells, empty=empty)


TOOL = register(
    Tool(
        name=NAME,
        settings=SETTINGS,
        sniff=sniff,
        parse=parse,
        description="PyTorch benchmarks/transformer/score_mod.py tables: FlexAttention and other backends' times (µs) "
        "per mask and shape (B,Hq,M,Hkv,N,D), FlexAttention's TB/s and TFLOP/s; sdpa.py's pretty table of "
        "scaled_dot_product_attention's forward and backward times",
        command="python benchmarks/transformer/score_mod.py (pytorch/pytorch)",
        metrics=METRICS,
        refuses=refuses,
    )
)
