"""The first vLLM `benchmarks/benchmark_serving.py` (June 2023 to early 2024): no result block,
five lines printed after the run, in seconds with two decimals:

    Total time: 166.88 s
    Throughput: 5.99 requests/s
    Average latency: 67.59 s
    Average latency per token: 0.21 s
    Average latency per output token: 1.10 s

How that script defines them (its `main`): `benchmark_time`, the first send to the last response;
`args.num_prompts / benchmark_time` (`send_request` re-sends a request until its answer holds no
error, so every prompt sent completes); the mean of the requests' end-to-end latencies; the mean
of latency / (prompt + output tokens); the mean of latency / output tokens, the whole latency
(the wait for the first token included) over the dataset's output length, which the request asks
for with `ignore_eos`: not TPOT. The script had no concurrency cap: `--request-rate` (default inf)
and `--num-prompts` (default 1000), echoed in the `Namespace(...)` line it prints first, are its
load. The vLLM parser (`ingest.vllm_serve`) reads the settings above the lines as it does for a
result block; this module finds the lines and maps them.
"""

from __future__ import annotations

import re

from benchbook.ingest.core import ParseError, number

FORMAT = "text 2023"

#: The first two lines, which only this script prints together.
TOTAL_RE = re.compile(r"^\s*Total time:\s+(?P<value>\S+) s\s*$")
THROUGHPUT_RE = re.compile(r"^\s*Throughput:\s+(?P<value>\S+) requests/s\s*$")
#: Any later line of the block: `Label: value unit`.
LINE_RE = re.compile(r"^\s*(?P<label>[A-Za-z][A-Za-z0-9 ()/-]*?):\s+(?P<value>[-+0-9.eEnaif]+)\s*(?P<unit>\S+)?\s*$")

#: label -> (metric, statistic, unit in the table, factor from the printed unit (s)).
LABELS = {
    "Total time": ("duration", "value", "s", 1.0),
    "Throughput": ("request_throughput", "value", "req/s", 1.0),
    "Average latency": ("e2el", "mean", "ms", 1000.0),
    "Average latency per token": ("e2el_per_token", "mean", "ms", 1000.0),
    "Average latency per output token": ("e2el_per_output_token", "mean", "ms", 1000.0),
}
NOTES = {
    "request_throughput": "num_prompts / total time (the script re-sends a failed request until it succeeds)",
    "e2el": "printed in s with 2 decimals",
    "e2el_per_token": "mean of latency / (prompt + output tokens); printed in s with 2 decimals",
    "e2el_per_output_token": "mean of latency / output tokens, first-token wait included (not TPOT); "
    "printed in s with 2 decimals",
}

#: What this format can print (`Tool.carries`): its two settings (and no cap: the script had none),
#: the duration, request throughput and mean E2EL, and (by its retry loop) the requests completed and
#: failed; no token counts, TTFT, TPOT or ITL.
CARRIES = frozenset(
    {"num_prompts", "request_rate", "max_concurrency", "duration", "request_throughput", "e2el", "completed", "failed"}
)


#: A command that runs a copy of the script under another name (`python benchmark.py ...`): a Python
#: script given both options the 2023 script requires, `--dataset` and `--tokenizer`.
COMMAND_RE = re.compile(r"\bpython\S*\s+\S+\.py\b(?=.*\s--dataset[\s=])(?=.*\s--tokenizer[\s=])")


def is_command(line: str) -> bool:
    """Whether a line runs the serving benchmark under another script name (see COMMAND_RE)."""
    return bool(COMMAND_RE.search(line))


def starts(lines: list[str], i: int) -> bool:
    """Whether line i opens a block: `Total time: N s` right above `Throughput: N requests/s`."""
    return bool(TOTAL_RE.match(lines[i])) and i + 1 < len(lines) and bool(THROUGHPUT_RE.match(lines[i + 1]))


def blocks(lines: list[str]) -> list[tuple[int, int]]:
    """(first, past-last) line index of each block (0-based): the lines from `Total time` on while
    they read `Label: value unit`."""
    out, i = [], 0
    while i < len(lines):
        if not starts(lines, i):
            i += 1
            continue
        j = i + 2
        while j < len(lines) and LINE_RE.match(lines[j]) and not starts(lines, j):
            j += 1
        out.append((i, j))
        i = j
    return out


def records(
    lines: list[str], lo: int, hi: int, source: str, num_prompts: float
) -> tuple[list[dict], list[tuple[int, str, str]]]:
    """The tidy records and rejected cells of the block lines[lo:hi]. The script always prints
    `Average latency` third: a block without it is not this script's, and is refused naming the line.
    A printed block means every request completed (`send_request` loops until one succeeds; a
    request that never does keeps the script from printing): where the prompts sent are known
    (`num_prompts`), `completed` is that count and `failed` 0, both on the Throughput line; where
    they are not, neither is stated (a page would otherwise sum no completions to 0)."""
    third = LINE_RE.match(lines[lo + 2]) if lo + 2 < hi else None
    if third is None or third.group("label") != "Average latency" or third.group("unit") != "s":
        found = lines[lo + 2].strip()[:60] if lo + 2 < len(lines) else "the end of the file"
        raise ParseError(
            source,
            lo + 3,
            "expected 'Average latency: N s' after the 2023 benchmark_serving.py's 'Total time' and "
            f"'Throughput' lines, found {found!r}",
        )
    out, rejects = [], []
    for j in range(lo, hi):
        m = TOTAL_RE.match(lines[j]) or THROUGHPUT_RE.match(lines[j]) or LINE_RE.match(lines[j])
        label = lines[j].split(":", 1)[0].strip()
        value = number(m.group("value"))
        unit = m.groupdict().get("unit", "s")
        if label not in LABELS or (j > lo + 1 and unit != "s") or value is None:
            rejects.append((j + 1, lines[j].strip(), "a line this parser has no tidy name for"))
            continue
        metric, stat, tidy_unit, factor = LABELS[label]
        out.append(
            dict(
                line=j + 1,
                metric=metric,
                statistic=stat,
                value=value * factor,
                unit=tidy_unit,
                note=NOTES.get(metric),
            )
        )
    done = "every request completes: the 2023 script re-sends a failed request until it succeeds"
    if num_prompts == num_prompts:  # not NaN: without the count sent, neither count is stated
        out.append(dict(line=lo + 2, metric="completed", statistic="count", value=num_prompts, unit="req", note=done))
        out.append(dict(line=lo + 2, metric="failed", statistic="count", value=0.0, unit="req", note=done))
    return out, rejects
