"""flash-attention's benchmark scripts (Dao-AILab/flash-attention), their print lines.

Each shape is a banner, `### causal=False, headdim=64, batch_size=32, seqlen=512 ###` (in
`benchmarks/benchmark_attn.py` written with Python's `=` specifier, `### headdim = 128, causal = False,
seqlen = 8192, batch_size = 4, nheads = 16, ... ###`), then one line per method in one of three forms:

* `benchmarks/benchmark_flash_attention.py` (FlashAttention-2, fp16):
  `Flash2 fwd: 308.40 TFLOPs/s, bwd: 243.05 TFLOPs/s, fwd + bwd: 258.71 TFLOPs/s`. Only TFLOP/s are
  printed; a method whose timing failed (out of memory, or not run) prints 0.00 (`efficiency()` returns
  0.0 for a NaN time), which is no measurement and is set aside.
* `hopper/benchmark_flash_attention_fp8.py` (FlashAttention-3 FP8; PyTorch's reference in bf16) and
  `flash_attn/cute/benchmark_flash_attention_fp8.py`: `Flash3 fwd: 433.25 TFLOPs/s, 0.158 ms,`, the
  forward's TFLOP/s and its mean time.
* `benchmarks/benchmark_attn.py` (bf16 by default): `FAv3 fwd: 1.433ms, 1534.8 TFLOPS`, a label
  (which a user's edit may prefix, `[2CTA] FA Python bwd:`), the mean time, then the TFLOP/s.
* FlashAttention-3's first `hopper/benchmark_attn.py` (2024, fp16): the banner names the pass,
  `### mode = 'fwd', batch_size = 2, headdim = 64, seqlen = 2048, causal = False ###`, and each line is
  a method alone, `Fav2: 0.840ms, 81.8 TFLOPS` (`CuDNN varlen`, `Fav3 varlen`): the banner's mode is
  the pass of every line under it.

Each script prints every shape's banner once per run (its loops over causal, head size and (batch, sequence
length) run once), so a banner whose shape the file has already met begins another run: a write-up that
pastes two runs (one per device, `RTX 4090` over one code fence and `7900 XTX` over the next) holds two
series, never one configuration timed twice. Where a file holds several runs, each method's name carries its
run's label (`Flash2 (7900 XTX)`): the short line alone above the run's first banner (a code fence and blank
lines between them), else `run 2`, `run 3`; a file of one run keeps the methods' own names.

Every script credits attention with 4 x B x H x S^2 x D FLOPs forward (half with causal), 2.5 times
that backward and 3.5 times it for fwd + bwd (`flops()` in each script). The scripts that print no head
count derive it as `nheads = dim // headdim` with `dim = 2048`: a shape taken from the script, not the
output (`shape_from` "script"), used only where printed TFLOP/s confirm it.
"""

from __future__ import annotations

import re

from benchbook.ingest import tritonbench
from benchbook.ingest.core import NUMBER, Parsed, Tool, finish, register
from benchbook.ingest.text import Lines, search, splitlines

NAME = "flash-attn-benchmark"

#: tritonbench's columns (one schema for the attention operator tables), and the data type it runs in
SETTINGS = {**tritonbench.SETTINGS, "dtype": "str"}
METRICS = {
    "latency": "ms: the mean time of one call (torch.utils.benchmark or triton do_bench)",
    "tflops": "TFLOP/s: the script's FLOPs (4 x B x H x S^2 x D forward, half causal; x2.5 bwd, x3.5 fwd + bwd) / time",
}
#: The scripts' model width: nheads = DIM // headdim where the banner gives no head count.
DIM = 2048
ZERO = "printed 0.00 TFLOP/s: the script's efficiency() for a timing that failed (out of memory, or not run), not a measurement"

_BANNER = re.compile(r"^\s*###\s*(?P<body>(?:\w+\s*=\s*[^,#]+,\s*)+\w+\s*=\s*[^,#]+?)\s*###\s*$")
_PASS = r"(?P<pass>fwd \+ bwd|fwd|bwd)"
#: `Flash2 fwd: 308.40 TFLOPs/s, bwd: ...` and `Flash3 fwd: 433.25 TFLOPs/s, 0.158 ms,`
_TFLOPS_FIRST = re.compile(rf"^\s*(?P<label>\S.*?)\s+fwd:\s+(?P<rest>{NUMBER}\s+TFLOPs/s.*?)\s*$")
_PART = re.compile(rf"(?:^|,\s*){_PASS}?:?\s*(?P<value>{NUMBER})\s+(?P<unit>TFLOPs/s|ms)")
#: `FAv3 fwd: 1.433ms, 1534.8 TFLOPS`
_MS_FIRST = re.compile(rf"^\s*(?P<label>\S.*?)\s+{_PASS}:\s+(?P<ms>{NUMBER})\s*ms,\s+(?P<tflops>{NUMBER})\s+TFLOPS\s*$")
#: `Fav2: 0.840ms, 81.8 TFLOPS` under a banner that names the mode (the 2024 hopper/benchmark_attn.py)
_MS_ALONE = re.compile(rf"^\s*(?P<label>\S[^:]*?):\s+(?P<ms>{NUMBER})\s*ms,\s+(?P<tflops>{NUMBER})\s+TFLOPS\s*$")
_SNIFF = re.compile(
    r"(?m)^\s*###\s*(?:causal\s*=|headdim\s*=)[^\n]*###\s*\n(?:\s*\n)?"
    r"\s*\S[^\n]*?\s(?:fwd|bwd):\s+[0-9.]+\s*(?:TFLOPs/s|ms,)"
    r"|^\s*###\s*mode\s*=\s*'(?:fwd|bwd|fwd_bwd)'[^\n]*###\s*\n(?:\s*\n)?\s*\S[^\n:]*:\s+[0-9.]+\s*ms,\s+[0-9.]+\s+TFLOPS"
)
_PASSES = {"fwd": "fwd", "bwd": "bwd", "fwd + bwd": "fwd_bwd"}
_MODES = {"fwd": "fwd", "bwd": "bwd", "fwd_bwd": "fwd_bwd"}

#: A method of an FP8 script whose name says its 16-bit type (`FA4-CuTe-BF16`).
_SIXTEEN_BIT = re.compile(r"(?i)(?<![a-z0-9])(bf16|fp16)(?![a-z0-9])")
#: A method whose name says its data type (`cudnn_bf16`, `cudnn_fp8` in cuDNN frontend's copy of the script).
_NAMED_TYPE = re.compile(r"(?i)(?<![a-z0-9])(bf16|fp16|fp32|fp8)(?![a-z0-9])")
#: What an FP8 script prints for a method it did not time: `FA4-CuTe-FP8 fwd: (skipped)`,
#: `FA4-CuTe-FP8 status: FAILED` and `FP8 failures: 24 (showing first 5)` (then one line per failed shape).
_SKIPPED = re.compile(r"^\s*(?P<label>\S.*?)\s+(?:fwd \+ bwd|fwd|bwd):\s+\(skipped\)\s*$")
_FAILED = re.compile(r"^\s*(?P<label>\S.*?)\s+status:\s+FAILED\b")
_FAILURES = re.compile(r"^\s*\S.*?\sfailures:\s+[1-9]\d*\b")


def _fp8_script_dtype(label: str) -> str:
    """The data type of one method of an FP8 benchmark script: PyTorch's reference runs bf16, and the
    CuTe script's `FA4-CuTe-BF16` is its bf16 baseline (`torch.bfloat16` tensors; only `FA4-CuTe-FP8`
    and `cuDNN-FP8` cast them to FP8), so a name that says BF16 or FP16 is that type; every other
    method (`Flash3`, `cuDNN`, `FA4-CuTe-FP8`) runs FP8. The script's name says only that FP8 methods
    may be present."""
    if label == "Pytorch":
        return "bf16"
    m = _SIXTEEN_BIT.search(label)
    return m[1].lower() if m else "fp8"


def _untimed_dtype(label: str, typed: bool) -> str | None:
    """The data type of a method of `benchmark_flash_attention.py`'s form (TFLOP/s only): the type its name
    says (`cudnn_fp8`); else fp16, the script's, unless other methods of the file name theirs: then the file
    is another script's print (cuDNN frontend's copy runs bf16 and FP8) and an unnamed method's type is not
    stated (None)."""
    m = _NAMED_TYPE.search(label)
    if m:
        return m[1].lower()
    return None if typed else "fp16"


def _not_timed(lines: Lines) -> str | None:
    """The lines saying a method was not timed (skipped, FAILED, a count of failures), as one warning that
    the completeness line quotes; None where every method printed its timing."""
    said = [
        (i, raw.strip())
        for i, raw in enumerate(lines, start=1)
        if _SKIPPED.match(raw) or _FAILED.match(raw) or _FAILURES.match(raw)
    ]
    if not said:
        return None
    where = "; ".join(f"line {i} (`{s}`)" for i, s in said[:4])
    more = f" and {len(said) - 4} more" if len(said) > 4 else ""
    return f"warning: the run stopped short of timing every method it started: {where}{more}"


def sniff(text: str | Lines) -> bool:
    """True when a flash-attention banner (`### causal=..., headdim=... ###`) is followed by a method's line."""
    return search(_SNIFF, text)


#: A command that runs one of the scripts this module reads (`python benchmarks/benchmark_attn.py --fwd ...`).
_SCRIPT_RUN = re.compile(r"\bpython3?\s+(?:\S*/)?(benchmark_attn|benchmark_flash_attention(?:_fp8)?)\.py\b")
#: A timing in any layout (`1.433ms`, `0.39/702/31.2%`, `308.40 TFLOPs/s`): a line the run printed, read or not.
_TIMING = re.compile(rf"{NUMBER}\s*(?:ms|us|µs|TFLOPs?/s|TFLOPS)\b|\d/\d+/\d", re.I)


def refuses(text: str | Lines) -> tuple[int, str] | None:
    """(line, why) of the first command running one of flash-attention's benchmark scripts in a file where
    none of their lines is (`Tool.refuses`: asked only where no sniffer sees the file): the copy ends, or the
    write-up stops, before the run printed a shape, so it holds no timing; else None."""
    lines = splitlines(text)
    for i, raw in enumerate(lines, start=1):
        m = _SCRIPT_RUN.search(raw)
        if m and not any(_TIMING.search(after) for after in lines[i:]):
            return i, (
                f"it runs flash-attention's {m[1]}.py, and no line after it holds a timing (a shape's "
                "`### ... ###` banner and its methods' times or TFLOP/s): the copy ends before the run printed"
            )
    return None


def _banner(body: str) -> dict:
    """The shape a banner names: causal, head size, batch, sequence length and, where printed, heads."""
    kv = {k.strip(): v.strip().strip("'\"") for k, v in (part.split("=", 1) for part in body.split(","))}
    out = {"input": ", ".join(f"{k}={v}" for k, v in kv.items() if k != "mode")}
    if kv.get("mode") in _MODES:
        out["mode"] = _MODES[kv["mode"]]
    if kv.get("causal") in ("True", "False"):
        out["causal"] = "causal" if kv["causal"] == "True" else "non-causal"
    for key, col in (("headdim", "d_head"), ("batch_size", "batch"), ("batch", "batch"), ("seqlen", "seq_len")):
        if kv.get(key, "").isdigit():
            out[col] = int(kv[key])
    if kv.get("nheads", "").isdigit():
        out["heads"], out["shape_from"] = int(kv["nheads"]), "table"
    elif "d_head" in out and out["d_head"] and DIM % out["d_head"] == 0:
        out["heads"], out["shape_from"] = DIM // out["d_head"], "script"
    return out


#: A write-up's own label alone on the line above a run (`RTX 4090`, `7900 XTX`, `ck-backend:`): short, one
#: word or a few, no sentence and no command.
_RUN_LABEL = re.compile(r"^[`*]*(?P<label>[\w][\w .+/()-]{0,29}?)[`*]*:?\s*$")


def _run_label(lines: list[str], i: int) -> str | None:
    """The label alone on the line above banner line i (code fences and blank lines between), else None."""
    for j in range(i - 1, max(i - 5, -1), -1):
        s = lines[j].strip()
        if not s or s.startswith(("```", "~~~")):
            continue
        m = _RUN_LABEL.match(s)
        return m["label"].strip() if m and not _BANNER.match(s) else None
    return None


def _runs(lines: list[str]) -> dict[int, str]:
    """Banner line -> the label of the run it belongs to, where the file holds several runs (a banner
    whose shape the run has already printed begins the next); {} for a file of one run."""
    starts, seen = [], set()
    for i, line in enumerate(lines):
        m = _BANNER.match(line)
        if not m:
            continue
        body = re.sub(r"\s+", "", m["body"])
        if not starts or body in seen:
            starts.append(i)
            seen = set()
        seen.add(body)
    if len(starts) < 2:
        return {}
    labels = [_run_label(lines, i) or f"run {k}" for k, i in enumerate(starts, start=1)]
    if len(set(labels)) < len(labels):
        labels = [f"run {k}" for k in range(1, len(starts) + 1)]
    out, k = {}, -1
    for i, line in enumerate(lines):
        if _BANNER.match(line):
            k += k + 1 < len(starts) and i >= starts[k + 1]
            out[i] = labels[k]
    return out


def parse(text: str | Lines, source: str) -> Parsed:
    lines = splitlines(text)
    records, rejects, cells = [], [], 0
    shape: dict | None = None
    runs = _runs(list(lines))
    run = None
    typed = any((m := _TFLOPS_FIRST.match(raw)) and _NAMED_TYPE.search(m["label"]) for raw in lines)
    for i, line in enumerate(lines):
        m = _BANNER.match(line)
        if m:
            shape = _banner(m["body"])
            run = runs.get(i)
            continue
        if shape is None:
            continue
        values = []  # (pass, metric, value)
        ms = _MS_FIRST.match(line)
        alone = None if ms or "mode" not in shape else _MS_ALONE.match(line)
        tf = None if ms or alone else _TFLOPS_FIRST.match(line)
        if alone:  # the 2024 hopper script: fp16, the pass is the banner's mode
            label, dtype = alone["label"], "fp16"
            values = [(shape["mode"], "latency", float(alone["ms"])), (shape["mode"], "tflops", float(alone["tflops"]))]
        elif ms:
            label, dtype = ms["label"], "bf16"
            p = _PASSES[ms["pass"]]
            values = [(p, "latency", float(ms["ms"])), (p, "tflops", float(ms["tflops"]))]
        elif tf:
            label = tf["label"]
            parts = list(_PART.finditer(tf["rest"]))
            timed = any(x["unit"] == "ms" for x in parts)
            # the FP8 scripts print the forward's time beside its TFLOP/s; PyTorch's reference there runs bf16
            dtype = _fp8_script_dtype(label) if timed else _untimed_dtype(label, typed)
            current = "fwd"
            for x in parts:
                current = _PASSES[x["pass"]] if x["pass"] else current
                values.append((current, "latency" if x["unit"] == "ms" else "tflops", float(x["value"])))
        else:
            continue
        label = f"{label} ({run})" if run else label
        for p, metric, value in values:
            cells += 1
            if metric == "tflops" and value == 0:
                rejects.append((i + 1, f"{label} {p} {value:.2f} TFLOP/s", ZERO))
                continue
            records.append(
                {
                    "op": None,
                    "backend": label,
                    "input": shape["input"],
                    "batch": shape.get("batch"),
                    "heads": shape.get("heads"),
                    "seq_len": shape.get("seq_len"),
                    "seq_len_kv": None,
                    "d_head": shape.get("d_head"),
                    "causal": shape.get("causal"),
                    "pass": p,
                    "shape_from": shape.get("shape_from"),
                    "dtype": dtype,
                    "line": i + 1,
                    "metric": metric,
                    "statistic": "mean" if metric == "latency" else "value",
                    "value": value,
                    "unit": "ms" if metric == "latency" else "TFLOP/s",
                }
            )
    empty = "no flash-attention benchmark line (`NAME fwd: ... TFLOPs/s` under a `### causal=... ###` banner) found"
    stopped = _not_timed(lines)
    return finish(TOOL, source, records, rejects, [stopped] if stopped else [], cells, empty=empty)


TOOL = register(
    Tool(
        name=NAME,
        settings=SETTINGS,
        sniff=sniff,
        parse=parse,
        description="flash-attention benchmark scripts' print lines (benchmark_flash_attention.py, "
        "benchmark_flash_attention_fp8.py, benchmark_attn.py): TFLOP/s and times per method and shape",
        command="python benchmarks/benchmark_flash_attention.py (Dao-AILab/flash-attention)",
        metrics=METRICS,
        refuses=refuses,
    )
)
