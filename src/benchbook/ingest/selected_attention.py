"""attention-gym's selected-attention benchmark (meta-pytorch/attention-gym,
`benchmarks/sparse/selected_attention_benchmark.py`), its print lines.

What the script prints (from its first version, PR #239, to the CuTe backend's, #262):

* `device: <torch.cuda.get_device_name()>`, then `shape: B=8 H=32 S=4096 D=128 sparse_S=1024` and
  `sparsity: topk=16 window=512 share_kv=True dtype=bfloat16` (its defaults, in this order);
* per backend (`--backend`: triton, eager, later cute) `[triton] forward: 3.538 ms  (80.12 TFLOP/s)`
  and, with `--calculate-bwd`, `[triton] backward: ...`: the median of triton's do_bench, then
  useful FLOPs / time;
* with two backends, `speedup: 18.75x`: the slower over the faster of a second, separate timing of each
  forward, not of the printed times (set aside).

Useful FLOPs (`useful_flops`): each query attends to `topk` selected entries and up to `window` local
ones, two matmuls of 2 x D FLOPs per entry: forward 4 x B x H x S x (topk + min(window, S)) x D; the
backward is credited twice the forward. `seq_len_kv` holds those entries per query (the script's
`effective_kv_len`), so the attention chapter's FLOPs rule is its 4 x B x H x S x kv x D.

A paste that keeps the result lines without the `shape:` and `sparsity:` lines ran at the script's
defaults only if the printed TFLOP/s say so: the defaults are kept as a shape from the script
(`shape_from` "script"), which the chapter uses only where the printed TFLOP/s confirm it. A paste
that drops the `[backend]` tag leaves the backend to the author's short label alone on the line
above the block (`Triton:`, above the code fence), else it is unlabelled and named by its line.
"""

from __future__ import annotations

import re

from benchbook.ingest import tritonbench
from benchbook.ingest.core import NUMBER, Parsed, Tool, finish, register
from benchbook.ingest.text import Lines, search, splitlines

NAME = "attention-gym-selected"

#: tritonbench's columns (one schema for the attention operator tables), and the data type it runs in
SETTINGS = {**tritonbench.SETTINGS, "dtype": "str"}
METRICS = {
    "latency": "ms: the median of triton's do_bench for one call",
    "tflops": "TFLOP/s: useful FLOPs (4 x B x H x S x (topk + min(window, S)) x D forward, twice that backward) / time",
}
#: The operator the chapter's FLOPs rule names.
OPERATOR = "selected_attention"
#: The script's argparse defaults (unchanged from PR #239 to the CuTe backend's version).
DEFAULTS = {"B": 8, "H": 32, "S": 4096, "D": 128, "sparse_S": 1024, "topk": 16, "window": 512, "dtype": "bfloat16"}
SPEEDUP = "the script's speed-up: a second, separate timing of each forward, not of the printed times"

_DTYPES = {"bfloat16": "bf16", "float16": "fp16", "float32": "fp32"}
_PASSES = {"forward": "fwd", "backward": "bwd"}
_RESULT = re.compile(
    rf"^\s*(?:\[(?P<backend>[\w.-]+)\]\s+)?(?P<pass>forward|backward):\s+(?P<ms>{NUMBER})\s+ms\s+"
    rf"\(\s*(?P<tflops>{NUMBER})\s+TFLOP/s\s*\)\s*$"
)
_SHAPE = re.compile(r"^\s*shape:\s+(?P<body>B=\d+\s+H=\d+\s+S=\d+\s+D=\d+.*?)\s*$")
_SPARSITY = re.compile(r"^\s*sparsity:\s+(?P<body>topk=\d+\s+window=\d+.*?)\s*$")
_PAIR = re.compile(r"(\w+)=(\S+)")
_SPEEDUP = re.compile(rf"^\s*speedup:\s+(?P<x>{NUMBER})x\s*$")
#: The author's label for a block: a name of one or two words alone on its line, ending in a colon
#: (`Trition:`, `FP32 eager:`); a sentence (`performance is now:`) is no label.
_LABEL = re.compile(r"^\s*([A-Za-z][\w.+-]*(?: [\w.+-]+)?)\s*:\s*$")
_FENCE = re.compile(r"^\s*(```|~~~)")


def sniff(text: str | Lines) -> bool:
    """True when a line reads as the script's `[backend] forward: X ms  (Y TFLOP/s)`."""
    return search(re.compile(_RESULT.pattern, re.M), text)


def _label(lines, i: int) -> str | None:
    """The author's label of the block holding line `i`: the line above it, or above the code fence
    that opens the block, when that line is a short name alone ending in a colon."""
    j = i - 1
    if j >= 0 and _FENCE.match(lines[j]):
        j -= 1
    m = _LABEL.match(lines[j]) if j >= 0 else None
    return m.group(1) if m else None


def _shape(shape: dict, sparsity: dict) -> dict:
    """The run's shape, from the printed lines where there are, else the script's defaults."""
    printed = bool(shape) and bool(sparsity)
    v = {**DEFAULTS, **(shape if printed else {}), **(sparsity if printed else {})}
    s, topk, window = int(v["S"]), int(v["topk"]), int(v["window"])
    return {
        "input": f"B={v['B']}, H={v['H']}, S={s}, D={v['D']}, topk={topk}, window={window}",
        "batch": int(v["B"]),
        "heads": int(v["H"]),
        "seq_len": s,
        "seq_len_kv": topk + min(window, s),
        "d_head": int(v["D"]),
        "shape_from": "table" if printed else "script",
        "dtype": _DTYPES.get(str(v["dtype"]), str(v["dtype"])),
    }


def parse(text: str | Lines, source: str) -> Parsed:
    lines = splitlines(text)
    records, rejects, cells = [], [], 0
    shape: dict = {}
    sparsity: dict = {}
    for i, line in enumerate(lines):
        if m := _SHAPE.match(line):
            shape = dict(_PAIR.findall(m["body"]))
            continue
        if m := _SPARSITY.match(line):
            sparsity = dict(_PAIR.findall(m["body"]))
            continue
        if m := _SPEEDUP.match(line):
            cells += 1
            rejects.append((i + 1, f"{m['x']}x", SPEEDUP))
            continue
        m = _RESULT.match(line)
        if not m:
            continue
        backend = m["backend"] or _label(lines, i) or f"unlabelled (line {i + 1})"
        run = _shape(shape, sparsity)
        for metric, value in (("latency", m["ms"]), ("tflops", m["tflops"])):
            cells += 1
            records.append(
                {
                    "op": OPERATOR,
                    "backend": backend,
                    "causal": None,
                    "pass": _PASSES[m["pass"]],
                    **run,
                    "line": i + 1,
                    "metric": metric,
                    "statistic": "median" if metric == "latency" else "value",
                    "value": float(value),
                    "unit": "ms" if metric == "latency" else "TFLOP/s",
                }
            )
    empty = "no selected-attention benchmark line (`[backend] forward: X ms  (Y TFLOP/s)`) found"
    return finish(TOOL, source, records, rejects, [], cells, empty=empty)


TOOL = register(
    Tool(
        name=NAME,
        settings=SETTINGS,
        sniff=sniff,
        parse=parse,
        description="attention-gym's selected-attention benchmark (benchmarks/sparse/selected_attention_benchmark.py): "
        "forward and backward time and useful TFLOP/s per backend",
        command="python benchmarks/sparse/selected_attention_benchmark.py (meta-pytorch/attention-gym)",
        metrics=METRICS,
    )
)
