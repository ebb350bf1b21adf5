"""TensorRT-LLM's static-batch benchmarks: the C++ `benchmarks/cpp/gptSessionBenchmark` and the Python
`benchmarks/python/benchmark.py` (`gpt_benchmark.py`), each printing one `[BENCHMARK]` line of
`key value` pairs per batch size and input/output length it ran:

    [BENCHMARK] batch_size 1 input_length 1024 output_length 128 latency(ms) 2561.35 tokensPerSec 49.97 ...
    [BENCHMARK] model_name llama_13b world_size 2 ... precision float16 batch_size 1 input_length 710
    output_length 190 ... tokens_per_sec 43.09 percentile95(ms) 5120.208 ... latency(ms) 4409.816 ...

What the numbers are: `latency(ms)` is the mean wall time of one `generate()` call over the timed
iterations (gptSessionBenchmark: the sum of the iterations' latencies over their count, after
`--warm_up`; benchmark.py: the mean of its runs); `tokensPerSec` / `tokens_per_sec` is batch_size x
output_length / (latency / 1000) (both sources compute it so: every sequence of the batch is forced to
output_length new tokens); `generation_time(ms)` and `generationTokensPerSec` /
`generation_tokens_per_second` leave the context phase out. Only rank 0 of an MPI world prints, so
`world_size` (TP x PP) counts the GPUs of one line. benchmark.py also prints the engine's `precision`
(its dtype), `quantization` (`QuantMode.0`: none; `QuantMode.FP8_QDQ|FP8_KV_CACHE`: FP8 weights and
KV cache), the model's architecture and `compute_cap` (the GPU's `smXY`).

Read into the names batch_saturation reads for vLLM's bench latency: `latency` (s, mean),
`throughput` (output tok/s), per run `batch_size`, `input_len`, `output_len`. A line whose latency is
`N/A` (gptSessionBenchmark's print for a batch that ran out of memory) is set aside with that reason.
"""

from __future__ import annotations

import re

from benchbook.ingest.core import Parsed, ParseError, Tool, finish, register
from benchbook.ingest.text import Lines, last_command, split_n

NAME = "trtllm-static-batch"

SETTINGS = {
    "run": "str",
    "format": "str",
    "benchmark": "str",
    "model": "str",
    "batch_size": "float64",
    "input_len": "float64",
    "output_len": "float64",
    "tensor_parallel": "float64",
    "dtype": "str",
    "quantization": "str",
    "compute_cap": "str",
    "metadata": "str",
}

METRICS = {
    "latency": "s: wall time of one generate() call of the batch (`latency(ms)` / 1000: the mean; benchmark.py's `percentile95(ms)`, `percentile99(ms)`: p95, p99)",
    "throughput": "tok/s: batch_size x output_length / latency (`tokensPerSec`, `tokens_per_sec`)",
    "generation_time": "s: mean time of the generation phase (`generation_time(ms)` / 1000)",
    "generation_throughput": "tok/s: generated tokens / generation time (`generationTokensPerSec`, `generation_tokens_per_second`)",
}

#: A result line: `[BENCHMARK]`, optionally Markdown-bold, then `batch_size` (gptSessionBenchmark) or
#: `model_name` (benchmark.py) first.
LINE_RE = re.compile(r"\[BENCHMARK\]\s+\*{0,2}(?P<first>model_name|batch_size)\s")
#: `key value` pairs; a copy may wrap a value in Markdown bold (`**latency(ms) 8252.869**`).
PAIR_RE = re.compile(r"\*{0,2}(?P<key>[A-Za-z_0-9]+(?:\([^)\s]*\))?)\s+(?P<value>[^\s*`]+)\*{0,2}")
#: key -> (metric, statistic, divisor to the unit of METRICS).
KEYS = {
    "latency(ms)": ("latency", "mean", 1000.0),
    "tokensPerSec": ("throughput", "value", 1.0),
    "tokens_per_sec": ("throughput", "value", 1.0),
    "generation_time(ms)": ("generation_time", "mean", 1000.0),
    "generationTokensPerSec": ("generation_throughput", "value", 1.0),
    "generation_tokens_per_second": ("generation_throughput", "value", 1.0),
    "percentile95(ms)": ("latency", "p95", 1000.0),
    "percentile99(ms)": ("latency", "p99", 1000.0),
}
#: The engine's configuration and the build's: settings or nothing this book reads, not results.
NOT_RESULTS = {
    "gpu_peak_mem(gb)": "the GPU memory peak of the run, which no chapter reads",
    "build_time(s)": "the engine's build time, no result of the batch",
    "total_generated_tokens": "the tokens of the generation phase, which no chapter reads apart from its rate",
}
DERIVED_NOTE = (
    "batch_size x output_length / latency: the line prints no tokensPerSec (the tool's later lines print this)"
)
#: The command of each form, with an option after it (`run benchmark.py` in prose is none).
COMMAND_RE = {
    "gptSessionBenchmark": re.compile(r"gptSessionBenchmark\s+(?:--|\\$)"),
    "benchmark.py": re.compile(r"benchmark\.py\s+(?:-|\\$)"),
}


def _number(v: str) -> float | None:
    try:
        return float(v)
    except ValueError:
        return None


def _quantization(v: str | None) -> str | None:
    """TensorRT-LLM's QuantMode as printed, with `QuantMode.0` (no flag set) as no quantization."""
    if not v or re.fullmatch(r"QuantMode\.0", v):
        return None
    return v


def _derived_throughput(pairs: dict[str, str]) -> float | None:
    """The tokens per second of a line that prints none: gptSessionBenchmark's 2023 line stops at
    `latency(ms)`, and the versions after it print `tokensPerSec` as batch_size x output_length /
    (latency / 1000); a line that prints a rate keeps its own."""
    if "tokensPerSec" in pairs or "tokens_per_sec" in pairs:
        return None
    batch, out, lat = (_number(pairs.get(k, "")) for k in ("batch_size", "output_length", "latency(ms)"))
    if not batch or not out or not lat or lat <= 0:
        return None
    return batch * out / (lat / 1000.0)


def _command(lines: list[str], hi: int, kind: str) -> str | None:
    """The last command of the form `kind` above line index `hi`, continuation lines joined (a
    gptSessionBenchmark command is no benchmark.py line's)."""
    return last_command(lines, 0, hi, lambda s: bool(COMMAND_RE[kind].search(s)) and "[BENCHMARK]" not in s)


def parse(text: str | Lines, source: str) -> Parsed:
    lines = split_n(text)
    records, rejects = [], []
    found = [i for i, s in enumerate(lines) if LINE_RE.search(s)]
    if not found:
        raise ParseError(source, 1, "no TensorRT-LLM '[BENCHMARK] batch_size ...' or '[BENCHMARK] model_name ...' line")
    for i in found:
        line = lines[i]
        pairs = {m["key"]: m["value"] for m in PAIR_RE.finditer(line[line.index("[BENCHMARK]") + 11 :])}
        kind = "benchmark.py" if "model_name" in pairs else "gptSessionBenchmark"
        cmd = _command(lines, i, kind)
        base = {
            "run": f"line {i + 1}" if len(found) > 1 else kind,
            "format": kind,
            "benchmark": "latency",
            "model": pairs.get("model_name"),
            "batch_size": _number(pairs.get("batch_size", "")),
            "input_len": _number(pairs.get("input_length", "")),
            "output_len": _number(pairs.get("output_length", "")),
            "tensor_parallel": _number(pairs.get("world_size", "")),
            "dtype": pairs.get("precision"),
            "quantization": _quantization(pairs.get("quantization")),
            "compute_cap": pairs.get("compute_cap"),
            "metadata": f"cli_command={cmd}" if cmd else None,
        }
        ln = i + 1
        if pairs.get("latency(ms)") == "N/A":  # gptSessionBenchmark's print for a batch out of memory
            rejects.append((ln, line.strip()[:80], "latency N/A: the batch ran out of memory (the tool's OOM print)"))
            continue
        if "latency(ms)" not in pairs:  # a copy cut inside the line, before its result
            rejects.append((ln, line.strip()[:80], "a '[BENCHMARK]' line cut before its latency: no result"))
            continue
        derived = _derived_throughput(pairs)
        if derived is not None:
            records.append(
                {**base, "line": ln, "metric": "throughput", "statistic": "value", "value": derived}
                | {"unit": "tok/s", "note": DERIVED_NOTE}
            )
        for key, value in pairs.items():
            v = _number(value)
            if key in KEYS and v is not None:
                metric, stat, div = KEYS[key]
                records.append(
                    {**base, "line": ln, "metric": metric, "statistic": stat, "value": v / div}
                    | {"unit": "s" if div > 1 else "tok/s", "note": None}
                )
            elif key in NOT_RESULTS and v is not None:
                rejects.append((ln, f"{key} {value}", NOT_RESULTS[key]))
    return finish(TOOL, source, records, rejects, [], None, "TensorRT-LLM static batch")


def sniff(text: str | Lines) -> bool:
    """A static-batch result line, in a file with no gptManagerBenchmark run (whose reader sets such a
    line aside beside its run)."""
    from benchbook.ingest import trtllm_gptmanager

    lines = split_n(text)
    return any(LINE_RE.search(s) for s in lines) and not trtllm_gptmanager.sniff(text)


TOOL = register(
    Tool(
        name=NAME,
        settings=SETTINGS,
        sniff=sniff,
        parse=parse,
        description="TensorRT-LLM gptSessionBenchmark and benchmarks/python/benchmark.py: one '[BENCHMARK] ...' line per static batch",
        command="gptSessionBenchmark --engine_dir ENGINE --batch_size 1;8 --input_output_len 128,20 | python benchmark.py -m MODEL ...",
        metrics=METRICS,
    )
)
