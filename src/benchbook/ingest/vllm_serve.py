"""vLLM `vllm bench serve` (and the older `benchmarks/benchmark_serving.py`) output.

Three forms are read:

* the text block the tool prints, from `============ Serving Benchmark Result ============` to the
  closing row of 50 `=` (a paste may trim it to fewer: a row of `=` alone closes the block; a banner
  a write-up renamed, `Serving Benchmark Result (16K/1K - Conc 256)`, names the run and, where it
  says so, its cap; a block pasted without its closing row that ends at a code fence or at a blank
  line before the next banner is read and reported; one cut where the copy ends has every line
  above the copy's last read, and that last line, which may be cut short, set aside with its line
  named: `core.cut_item`), with the context above it that names the run: a markdown heading
  (`## c=32`), the command line (`vllm bench serve ... --max-concurrency=32`), the
  `Namespace(...)` dump (hard-wrapped or not) and the pre-run lines (`Traffic request rate: inf`,
  `Burstiness factor: 1.0 ...`, `Maximum request concurrency: None`) and a write-up's own list
  under the block's heading (`- Model: ...`, `Hardware: 2x DGX Spark`, `Tensor Parallel Size: 2`:
  the model where nothing else names it, `tp`/`pp`/`hardware` in `metadata`). Every version's optional
  lines are understood: `Failed requests`, `Maximum request concurrency`, `Request rate configured
  (RPS)`, `Request goodput`, `Peak output token throughput`, `Peak concurrent requests`,
  `Input token throughput` (2024 versions), `Total Token throughput` in either case, P50/P90/P95/P99
  and other percentiles, the E2EL, client-queue, probe and speculative-decoding sections; a log
  prefix before every line (`INFO root:vllm_bench.py:126 `) or indentation is removed.
* the JSON written by `--save-result` / `--append-result`: one object, one object per line, or a
  list of objects; also such JSON lines embedded in a log. `request_rate` may be the string "inf",
  `max_concurrency` null, `--metadata KEY=VALUE` pairs appear as extra top-level keys (kept in the
  `metadata` column as `key=value; ...`), the old misspelled key `"request_goodput:"` is read as
  `request_goodput`; a latency key without `_ms` (`median_ttft`, written by copies of the script that
  report seconds) is read as seconds (`JSON_SECONDS_RE`).
* the first `benchmark_serving.py`'s five lines (2023: `Total time: N s`, `Throughput: N requests/s`,
  `Average latency: N s`, ...), format `text 2023`: see `ingest.vllm_serve_2023`.

Where a file holds none of them, names vLLM (or its script) and no other engine, and holds a markdown table of
serving results its authors wrote (a load column and two metrics with units), that table is read one run per
row, each number under its header's own words (`serving_table`, format "authors' table").

A `vllm bench sweep serve` output folder (`benchbook ingest DIR`, or a chapter's source) is read as
its `COMBINATION/run=N.json` files (`sweep_files`): each is named `COMBINATION/run=N.json`, its run
is the combination (`max_num_seqs=64, max_concurrency=32`, from the folder's name), so the repeats
of one combination share their run and settings and differ by file; the swept parameters the tool
adds to each object (with `run_number`) go to `metadata`, not to cells. `summary.json` (the same
objects) is read only where no run file is left, `summary.csv` never; the messages say so.

The tidy table holds the run-level numbers. The `--save-detailed` per-request arrays (`input_lens`,
`output_lens`, `ttfts`, `itls`, `latencies`, `start_times`, `queue_times`, `errors`) are NOT in
the tidy table (a 100,000-request run would add millions of rows): `requests(path)` returns them
as one row per request, with the tool's own per-request TPOT rule applied. The parser's messages
say when a file holds them.

Counting (cells_read == kept + rejected): every measured number of a result block or a result
object is a cell; setting echoes (`Maximum request concurrency`, `Request rate configured`,
`request_rate`, `burstiness`, `max_concurrency`, `num_prompts`) are settings, not cells. A number
this parser has no tidy name for is reported in `rejected` with the reason; every percentile
(`--metric-percentiles 25,75,99.9`) keeps its rank (`core.percentile`).
"""

from __future__ import annotations

import ast
import json
import math
import re
import shlex

import numpy as np
import pandas as pd

from benchbook.ingest import serving_power, serving_table, vllm_serve_2023
from benchbook.ingest.context import SERVE_MODEL
from benchbook.ingest.core import (
    Parsed,
    ParseError,
    Tool,
    copy_ends,
    cut_after_item,
    cut_item,
    finish,
    last_line,
    number,
    percentile,
    register,
)
from benchbook.ingest.headings import Outline, comment_label, load_label, names, outline, run_names
from benchbook.ingest.rows import Row, row, row_type
from benchbook.ingest.serving_settings import SETTINGS, run_settings
from benchbook.ingest.text import Lines, contains, continued, first_char, split_n, whole
from benchbook.ingest.tgi import hub_id
from benchbook.nouns import counted

NAME = "vllm-bench-serve"

#: A tidy row's columns, in the order its tuple holds them.
_ROW = row_type(SETTINGS)
#: The settings a block's context may state.
_SAID = ("dataset", "num_prompts", "request_rate", "max_concurrency", "burstiness", "metadata")

METRICS = {
    "completed": "req: requests that succeeded",
    "failed": "req: requests that failed (newer versions only)",
    "duration": "s: benchmark duration, first dispatch to last completion",
    "total_input_tokens": "tok: prompt tokens of the completed requests",
    "total_generated_tokens": "tok: output tokens of the completed requests",
    "request_throughput": "req/s: completed / duration",
    "request_goodput": "req/s: requests meeting the --goodput SLOs / duration",
    "input_throughput": "tok/s: total input tokens / duration (2024 versions)",
    "output_throughput": "tok/s: total generated tokens / duration",
    "total_token_throughput": "tok/s: (input + generated tokens) / duration",
    "peak_output_throughput": "tok/s: as printed, the most token timestamps in one 1-second bucket (one per streamed chunk)",
    "peak_concurrent_requests": "req: most requests in flight at any moment of one whole second (1-second buckets)",
    "ttft": "ms: time to first token (from the request's send, after the client semaphore)",
    "tpot": "ms: per-request (latency - ttft) / (output tokens - 1), then summarised over requests",
    "itl": "ms: gaps between streamed chunks, pooled over all requests",
    "e2el": "ms: end-to-end latency per request",
    "client_queue_time": "ms: time waiting on the client's --max-concurrency semaphore",
    "e2el_including_client_queue": "ms: E2EL plus client queue time",
    "rtfx": "x: inverse real-time factor (audio benchmarks)",
    "spec_decode_acceptance_rate": "%: accepted / drafted tokens",
    "spec_decode_acceptance_length": "tok: 1 + accepted tokens per draft",
    "spec_decode_drafts": "count: drafts proposed",
    "spec_decode_draft_tokens": "tok: tokens drafted",
    "spec_decode_accepted_tokens": "tok: drafted tokens accepted",
    "spec_decode_position_acceptance_rate": "%: acceptance at one draft position (metric name carries it)",
    "probe_completed": "req: probe requests completed",
    "probe_failed": "req: probe requests failed",
    "probe_e2el": "ms: probe request latency",
    "e2el_per_token": "ms: 2023 script, mean of latency / (prompt + output tokens)",
    "e2el_per_output_token": "ms: 2023 script, mean of latency / output tokens (first-token wait included)",
    "throughput": "tok/s: a throughput an authors' table names without saying output or total",
    "throughput_per_gpu": "tok/s: such a throughput divided by the GPUs, as an authors' table names it",
    "output_throughput_per_gpu": "tok/s: output throughput divided by the GPUs, as an authors' table names it",
    "total_token_throughput_per_gpu": "tok/s: total token throughput divided by the GPUs, as an authors' table names it",
}

#: The banner; a write-up may name its run inside it (`==== Serving Benchmark Result (16K/1K - Conc 256) ====`); a
#: fork may print it with no space between the rules and the title (`=====Serving Benchmark Result=====`, Moreh vLLM).
HEADER_RE = re.compile(
    r"^(?P<prefix>.*?)=+(?P<gap> ?)(?:(?P<name>[A-Za-z][\w.+-]*(?: [\w.+-]+){0,2}) )?Serving Benchmark Result"
    r"(?: \((?P<label>[^()]+)\))?(?P=gap)=+\s*$"
)
#: A concurrency cap named in a banner's label (`Conc 256`, `concurrency=64`, `c=8`).
BANNER_CAP_RE = re.compile(r"\b(?:conc(?:urrency)?|c)\s*[=:]?\s*(\d+)\b", re.IGNORECASE)
#: The closing row: vLLM prints 50 `=` (`"=" * 50`); a paste that trims it (42 or 48 kept) still closes the
#: block, whose own section rules are rows of `-`.
CLOSE_RE = re.compile(r"^={10,}\s*$")
SECTION_RE = re.compile(r"^-{3,}[^-].*[^-]-{3,}\s*$|^-+[A-Za-z ().-]+-+\s*$")
LINE_RE = re.compile(r"^(?P<label>[^:]+?):\s+(?P<value>\S+)\s*$")
#: A row the tool printed (`"{:<40} {:<10}"`: the value padded to its column) with words a writer appended
#: after that column (vllm-project/vllm#26478's `Failed requests:  0   <<<<<<< New line`): the value is
#: the tool's, the words, which hold no digit, are the writer's and are not read.
NOTED_LINE_RE = re.compile(r"^(?P<label>[^:]+?):\s+(?P<value>\S+)\s{2,}(?P<note>[^\d\s][^\d]*)$")
STAT_RE = re.compile(
    r"^(?P<stat>Mean|Median|Std|P(?P<p>\d+(?:\.\d+)?))\s+(?P<name>TTFT|TPOT|ITL|E2EL|Latency|Client Queue Time|"
    r"E2EL incl\. Client Queue)\s+\(ms\)$"
)
POS_RE = re.compile(r"^Position (\d+)$")
#: A block's mean tokens a request gains per speculative step, however its layout words it: vLLM's `Acceptance
#: length`, SGLang's `Accept length`, a derived layout's `Mean Accept Length (tokens)`. Each tool defines it as
#: the accepted draft tokens per verify step plus the one the target model adds, so it is one quantity.
ACCEPT_LENGTH_RE = re.compile(r"^(?:Mean\s+)?Accept(?:ance)?\s+length(?:\s*\(tok(?:en)?s?\))?$", re.I)

STAT_NAMES = {
    "TTFT": "ttft",
    "TPOT": "tpot",
    "ITL": "itl",
    "E2EL": "e2el",
    # a `Latencies` section's `Mean Latency (ms)` (a derived layout of the same script): each request's
    # latency from its send to its last byte (`output.latency`), the quantity vLLM calls E2EL
    "Latency": "e2el",
    "Client Queue Time": "client_queue_time",
    "E2EL incl. Client Queue": "e2el_including_client_queue",
}

#: Result-block labels: label -> (metric, statistic, unit, note). None marks a setting echo.
LABELS: dict[str, tuple[str, str, str, str | None] | None] = {
    "Successful requests": ("completed", "count", "req", None),
    "Failed requests": ("failed", "count", "req", None),
    "Benchmark duration (s)": ("duration", "value", "s", None),
    "Total input tokens": ("total_input_tokens", "count", "tok", None),
    "Total generated tokens": ("total_generated_tokens", "count", "tok", None),
    "Request throughput (req/s)": ("request_throughput", "value", "req/s", None),
    "Request goodput (req/s)": ("request_goodput", "value", "req/s", None),
    "Input token throughput (tok/s)": ("input_throughput", "value", "tok/s", None),
    "Output token throughput (tok/s)": ("output_throughput", "value", "tok/s", None),
    "Total Token throughput (tok/s)": ("total_token_throughput", "value", "tok/s", None),
    "Total token throughput (tok/s)": ("total_token_throughput", "value", "tok/s", None),
    "Peak output token throughput (tok/s)": ("peak_output_throughput", "max", "tok/s", "max over 1-second buckets"),
    "Peak concurrent requests": ("peak_concurrent_requests", "max", "req", None),
    "RTFx (Inverse Real-Time Factor)": ("rtfx", "value", "x", None),
    "Acceptance rate (%)": ("spec_decode_acceptance_rate", "value", "%", None),
    "Acceptance length": ("spec_decode_acceptance_length", "value", "tok", None),
    "Drafts": ("spec_decode_drafts", "count", "count", None),
    "Draft tokens": ("spec_decode_draft_tokens", "count", "tok", None),
    "Accepted tokens": ("spec_decode_accepted_tokens", "count", "tok", None),
    "Probe requests completed": ("probe_completed", "count", "req", None),
    "Probe requests failed": ("probe_failed", "count", "req", None),
    "Median probe E2EL (ms)": ("probe_e2el", "median", "ms", None),
    "P99 probe E2EL (ms)": ("probe_e2el", "p99", "ms", None),
    "Max probe E2EL (ms)": ("probe_e2el", "max", "ms", None),
    "Maximum request concurrency": None,
    "Request rate configured (RPS)": None,
    "Total requests": None,
}

#: The settings a result block echoes (the `None` rows of LABELS): a derived layout's `Total requests` is
#: the prompts it sent, each counted as successful or failed.
SETTING_LABELS = {
    "Maximum request concurrency": "max_concurrency",
    "Request rate configured (RPS)": "request_rate",
    "Total requests": "num_prompts",
}

#: JSON keys: key -> (metric, statistic, unit).
JSON_METRICS = {
    "duration": ("duration", "value", "s"),
    "completed": ("completed", "count", "req"),
    "failed": ("failed", "count", "req"),
    "total_input_tokens": ("total_input_tokens", "count", "tok"),
    "total_output_tokens": ("total_generated_tokens", "count", "tok"),
    "request_throughput": ("request_throughput", "value", "req/s"),
    "request_goodput": ("request_goodput", "value", "req/s"),
    "request_goodput:": ("request_goodput", "value", "req/s"),
    "input_throughput": ("input_throughput", "value", "tok/s"),
    "output_throughput": ("output_throughput", "value", "tok/s"),
    "total_token_throughput": ("total_token_throughput", "value", "tok/s"),
    "max_output_tokens_per_s": ("peak_output_throughput", "max", "tok/s"),
    "max_concurrent_requests": ("peak_concurrent_requests", "max", "req"),
    "rtfx": ("rtfx", "value", "x"),
    "spec_decode_acceptance_rate": ("spec_decode_acceptance_rate", "value", "%"),
    "spec_decode_acceptance_length": ("spec_decode_acceptance_length", "value", "tok"),
    "spec_decode_num_drafts": ("spec_decode_drafts", "count", "count"),
    "spec_decode_draft_tokens": ("spec_decode_draft_tokens", "count", "tok"),
    "spec_decode_accepted_tokens": ("spec_decode_accepted_tokens", "count", "tok"),
    "probe_completed": ("probe_completed", "count", "req"),
    "probe_failed": ("probe_failed", "count", "req"),
    "probe_median_e2el_ms": ("probe_e2el", "median", "ms"),
    "probe_p99_e2el_ms": ("probe_e2el", "p99", "ms"),
    "probe_max_e2el_ms": ("probe_e2el", "max", "ms"),
}
JSON_STAT_RE = re.compile(
    r"^(?P<stat>mean|median|std|p(?P<p>\d+(?:\.\d+)?))_(?P<name>ttft|tpot|itl|e2el|client_queue_time|"
    r"e2el_including_client_queue)_ms$"
)
#: A latency key without the `_ms` suffix (`median_ttft`, `p99_e2el`) is in seconds: vLLM's own
#: `--save-result` always writes `<stat>_<name>_ms`, while copies of its script that report seconds
#: drop the suffix (InferenceX's `benchmark_serving_random.py` prints `Median TTFT (s):` and saves
#: the same number as `median_ttft`). Read as ms, once, here.
JSON_SECONDS_RE = re.compile(r"^(?P<stat>mean|median|std|p(?P<p>\d+(?:\.\d+)?))_(?P<name>ttft|tpot|itl|e2el)$")
JSON_SETTINGS = {
    "date",
    "endpoint_type",
    "backend",
    "label",
    "model_id",
    "tokenizer_id",
    "num_prompts",
    "request_rate",
    "burstiness",
    "max_concurrency",
    "ramp_up_strategy",
    "ramp_up_start_rps",
    "ramp_up_end_rps",
}
ARRAY_KEYS = {
    "input_lens",
    "output_lens",
    "ttfts",
    "itls",
    "latencies",
    "start_times",
    "queue_times",
    "generated_texts",
    "errors",
    "infer_input_lens",
    "spec_decode_per_position_acceptance_rates",
    "rps_change_events",
}
GOODPUT_NOTE = "not measured: the run was not given --goodput"

#: `vllm bench sweep serve` writes OUT/TIMESTAMP/COMBINATION/run=N.json (each --save-result JSON,
#: plus `run_number` and the combination's parameters as top-level keys), COMBINATION/summary.json
#: (the same objects, a list) and OUT/TIMESTAMP/summary.csv (every run, one row each). COMBINATION
#: is `SERVE--k=v-k=v-BENCH--k=v` (either half left out when that side is not swept; vllm
#: `benchmarks/sweep/serve.py` `_get_comb_base_path`, '/' in a value written '_').
SWEEP_DIR_RE = re.compile(r"^(?:SERVE--(?P<serve>.+?))?(?:-?BENCH--(?P<bench>.+))?$")
SWEEP_RUN_RE = re.compile(r"^run=(\d+)\.json$")
_SWEEP_PARAM_RE = re.compile(r"([A-Za-z_][\w.]*)=(.*?)(?=-[A-Za-z_][\w.]*=|$)")


# ---------------------------------------------------------------------------------------------
# helpers


#: A number written with thousands separators (`2,352`, `102,400`), as readers paste blocks they edited.
_GROUPED_RE = re.compile(r"[+-]?\d{1,3}(?:,\d{3})+(?:\.\d+)?")


def _num(text: str, source: str, line: int, what: str) -> float:
    t = text.strip()
    if t.lower() in ("nan", "inf", "+inf", "-inf"):
        return float(t.lower().lstrip("+"))
    if _GROUPED_RE.fullmatch(t):
        t = t.replace(",", "")
    v = number(t)
    if v is None:
        raise ParseError(source, line, f"expected a number for {what!r}, found {text!r}")
    return v


#: The unit vLLM's benchmark_serving.py prints after a finite rate where no ramp-up is set
#: (`print(f"Traffic request rate: {request_rate} RPS.")`, 2025): `15.0 RPS.` is 15 requests per second.
_RPS_UNIT = re.compile(r"\s*RPS\.?\s*$")


def _opt_float(v) -> float:
    """A setting value as float: None/'None'/'' -> NaN, 'inf' -> inf."""
    if v is None or isinstance(v, bool):
        return math.nan
    if isinstance(v, (int, float)):
        return float(v)
    s = str(v).strip().strip("'\"")
    if s in ("", "None", "null"):
        return math.nan
    try:
        return float(s)
    except ValueError:
        return math.nan


def _is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _is_result_object(obj) -> bool:
    return (
        isinstance(obj, dict)
        and "duration" in obj
        and "request_throughput" in obj
        and ("completed" in obj or "mean_ttft_ms" in obj)
        and "total_output_tokens_retokenized" not in obj  # SGLang bench_serving, a different tool
    )


def _split_namespace(body: str) -> dict[str, str]:
    """key=value pairs of an argparse Namespace repr (values may hold commas inside brackets)."""
    out: dict[str, str] = {}
    depth, start, quote = 0, 0, None
    parts = []
    for i, ch in enumerate(body):
        if quote:
            if ch == quote:
                quote = None
            continue
        if ch in "'\"":
            quote = ch
        elif ch in "([{<":
            depth += 1
        elif ch in ")]}>":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(body[start:i])
            start = i + 1
    parts.append(body[start:])
    for p in parts:
        if "=" in p:
            k, v = p.split("=", 1)
            out[k.strip()] = v.strip()
    return out


def _literal(v: str):
    try:
        return ast.literal_eval(v)
    except (ValueError, SyntaxError, MemoryError, RecursionError, TypeError):
        return v.strip("'\"")


# ---------------------------------------------------------------------------------------------
# context above a text block


#: A value a write-up leaves for the reader to fill in: `<model>`, `$MODEL`, `${MODEL}`, `{model}`.
PLACEHOLDER_RE = re.compile(r"^\s*(?:<[^>]*>|\$\{?\w+\}?|\{\w+\}|[A-Z])\s*$")
#: A Hugging Face model id standing alone (`owner/name`), as a write-up's heading over its block.
HUB_ID_RE = re.compile(r"[A-Za-z0-9][\w.-]*/[A-Za-z0-9][\w.-]*")
#: tqdm's bar as the benchmark prints it while requests finish: percent, bar, done/total, timing.
#: The prompts `benchmark_serving.py` and `vllm bench serve` send where the command sets no
#: `--num-prompts` (its argparse default; "By default <num_prompts> is 1000", the script's docstring).
DEFAULT_NUM_PROMPTS = 1000.0
PROGRESS_BAR_RE = re.compile(r"\d+%\|[^|\n]*\|\s*(?P<done>\d+)/(?P<total>\d+)\s*\[")


def _context(
    lines: list[str], lo: int, hi: int, doc: Outline | None = None, named: dict | None = None, prefix: str = ""
) -> dict:
    """Settings found in lines[lo:hi] (0-based), nearest first; keys: run, model, dataset,
    num_prompts, request_rate, max_concurrency, burstiness, metadata, label. A line that carries the
    block's own prefix (`# ` where the log was pasted as comments, a logger's `INFO ...`) is read
    without it, as the block is: the pre-run lines were printed by the same process. `doc` is the
    text's outline, `named` its headings that name runs (`headings.names`; by default, those of a
    text whose only block starts at hi)."""
    raw = lines
    doc = doc or outline(lines)
    named = names(lines, [hi], doc) if named is None else named
    if prefix.strip():
        lines = lines[:lo] + [s[len(prefix) :] if s.startswith(prefix) else s for s in lines[lo:hi]]
    ctx: dict = {}
    ns_text = None
    model_at = None  # the last line of the bench command that named the model, when one did
    prompts_from = None  # the line of the command that gave num_prompts, when one did
    commanded = False  # a command of the benchmark with options of its own was read
    # Namespace dump: may be hard-wrapped over several lines; join until parentheses balance.
    for j in range(lo, hi):
        s = lines[j]
        k = s.find("Namespace(")
        if k < 0:
            continue
        buf = s[k + len("Namespace(") :]
        depth = 1 + buf.count("(") - buf.count(")")
        m = j
        while depth > 0 and m + 1 < hi:
            m += 1
            buf += lines[m]
            depth += lines[m].count("(") - lines[m].count(")")
        ns_text = buf.rsplit(")", 1)[0] if depth <= 0 else buf
    if ns_text is not None:
        ns = _split_namespace(ns_text)
        if "model" in ns:
            ctx["model"] = _literal(ns["model"])
        if "dataset_name" in ns:
            ctx["dataset"] = _literal(ns["dataset_name"])
        elif "dataset" in ns:
            ctx["dataset"] = _literal(ns["dataset"])
        for key in ("num_prompts", "request_rate", "max_concurrency", "burstiness"):
            if key in ns:
                ctx[key] = _opt_float(ns[key])
        if "label" in ns and _literal(ns["label"]) not in (None, "None"):
            ctx["label"] = _literal(ns["label"])
        meta = _literal(ns.get("metadata", "None"))
        if isinstance(meta, list) and meta:
            ctx["metadata"] = "; ".join(str(x) for x in meta)
    # pre-run lines
    for j in range(lo, hi):
        s = lines[j].strip()
        if s.startswith("Traffic request rate:") and "request_rate" not in ctx:
            ctx["request_rate"] = _opt_float(_RPS_UNIT.sub("", s.split(":", 1)[1]))
        elif s.startswith("Burstiness factor:") and "burstiness" not in ctx:
            ctx["burstiness"] = _opt_float(s.split(":", 1)[1].split("(")[0])
        elif s.startswith("Maximum request concurrency:") and "max_concurrency" not in ctx:
            ctx["max_concurrency"] = _opt_float(s.split(":", 1)[1])
    # the build a line above the results names by its commit (`results for the last_precompiled (4e5ca89...)`)
    for j in range(lo, hi):
        b = BUILD_RE.search(lines[j])
        if b and re.search(r"\d", b["commit"]):
            ctx["build"] = f"build={b['name']} ({b['commit'][:7]})"  # into the metadata once inherited (`parse`)
    # command line
    for j in range(lo, hi):
        s = lines[j]
        if "bench serve" in s or "benchmark_serving.py" in s or vllm_serve_2023.is_command(s):
            s, end_line = continued(lines, j, hi)  # a command wrapped with trailing backslashes: one command
            try:
                argv = shlex.split(s[s.find("vllm") if "vllm" in s else 0 :], comments=False, posix=True)
            except ValueError:
                argv = s.split()
            args: dict[str, str] = {}
            for a_i, a in enumerate(argv):
                if a.startswith("--"):
                    if "=" in a:
                        k, v = a[2:].split("=", 1)
                    else:
                        k = a[2:]
                        v = argv[a_i + 1] if a_i + 1 < len(argv) and not argv[a_i + 1].startswith("--") else ""
                    args[k.replace("-", "_")] = v
            # argparse takes an unambiguous prefix of an option (`--num-prompt 100`): a name one or two
            # letters short of a setting's stands for it
            for key in ("num_prompts", "request_rate", "max_concurrency", "burstiness", "dataset_name"):
                short = [a for a in args if a != key and key.startswith(a) and len(a) >= len(key) - 2]
                if key not in args and short:
                    args[key] = args[short[0]]
            # `--model <model>`, `$MODEL`: no name; a prose line naming the tool (`the native `vllm
            # bench serve` CLI`) gives no option and leaves the setting to a real command
            if args.get("model") and not PLACEHOLDER_RE.match(args["model"]) and "model" not in ctx:
                ctx["model"], model_at = args["model"], end_line
            if args.get("dataset_name"):
                ctx.setdefault("dataset", args["dataset_name"])
            if "num_prompts" in args:  # every command's count: where they disagree, the block's own picks (`parse`)
                ctx.setdefault("prompts_commanded", []).append(_opt_float(args["num_prompts"]))
            for key in ("num_prompts", "request_rate", "max_concurrency", "burstiness"):
                if key in args and key not in ctx:
                    ctx[key] = _opt_float(args[key])
                    if key == "num_prompts":
                        prompts_from = end_line  # the command's last line: a bar printed below it is the run's own
            if "label" in args:
                ctx.setdefault("label", args["label"])
            # vLLM's own benchmark (not a copy under another name, whose defaults this parser cannot know)
            commanded = commanded or (bool(args) and ("bench serve" in s or "benchmark_serving.py" in s))
            ctx["commanded"] = ctx.get("commanded") or commanded  # settings a command gave (`parse`)
    if model_at is not None:
        _launched_below(lines, model_at + 1, hi, ctx)
    # the progress bar nearest above the block (`100%|████| 4096/4096 [01:27<00:00, ...]`): the bar
    # ticks once for every request that finished, failed or not, so its total is the prompts sent; read
    # where the Namespace gives no count, and over the command's where the bar stands below the command:
    # the bar is the run's own print (a command pasted apart may not be the one that ran: `--num-prompts
    # 500` over a bar of 100/100), a command below the bar the nearer one
    if "num_prompts" not in ctx or prompts_from is not None:
        for j in range(hi - 1, max(lo, prompts_from or lo) - 1, -1):
            bar = PROGRESS_BAR_RE.search(lines[j])
            if bar:
                ctx["num_prompts"] = float(bar.group("total"))
                break
    # a command of the benchmark that sets no --num-prompts sent the tool's default, every one of them
    # (`benchmark_serving.py` and `vllm bench serve`: `--num-prompts`, default 1000)
    if commanded and "num_prompts" not in ctx:
        ctx["num_prompts"] = DEFAULT_NUM_PROMPTS
    # the nearest markdown heading (not a line of the log pasted as comments, `# ` before each line):
    # the run's name where it tells the runs apart (`headings.names`), the model where it is one
    heads = [j for j in doc.within(lo, hi) if not (prefix.strip() and raw[j].startswith(prefix))]
    i = heads[-1] if heads else lo
    if heads:
        ctx["heading"] = i  # its line: the heading of the blocks below it up to the next (see `parse`)
        words = doc.words(i)
        if HUB_ID_RE.fullmatch(words):  # `### openai/gpt-oss-20b`: the heading names the model
            ctx.setdefault("model", words)
        if named.get(i):
            ctx["run"] = named[i]
    _author_list(lines, i, hi, ctx)
    if heads or doc.nearest(lo) is not None:
        _section_args(lines, i, doc, ctx)
    return {k: v for k, v in ctx.items() if v is not None}


def _launched_below(lines: list[str], lo: int, hi: int, ctx: dict) -> None:
    """Where a server launch (`vllm serve M`, context.SERVE_MODEL) stands between the bench command that named
    the model and the block, and serves no other name (`--served-model-name`): the block ran against that
    server, whose model is the run's. vLLM's server answers only for the names it serves (the model's path, by
    default), so a bench command's `--model` another launch does not serve was a script written apart (a
    write-up's generic command above each section's own launch), not the one that produced these results."""
    for j in range(hi - 1, lo - 1, -1):
        m = SERVE_MODEL.search(lines[j])
        name = m.group(1).strip("`'\"") if m else ""
        if not re.search(r"[/\d.-]", name) or PLACEHOLDER_RE.match(name):  # `vllm serve the model`, `$MODEL`: none
            continue
        launch, _ = continued(lines, j, hi)
        if "served-model-name" not in launch and "served_model_name" not in launch:
            ctx["model"] = name
        return


def _prompts_sent(ctx: dict, block_records: list[dict], prompts: float) -> float:
    """The prompts a block's run sent, where several commands above it set different `--num-prompts` (a
    write-up's "fast" benchmark of 20 prompts and its "realistic" one of 8, both above the realistic block):
    the tool sends every prompt and counts each as completed or failed (`Successful requests` + `Failed
    requests` = `--num-prompts`, `benchmark_serving.py`'s `calculate_metrics`), so the command whose count
    is the block's own is the one that ran it; where no command's is (a run stopped early), the first
    command's stands, as where the commands agree."""
    options = set(ctx.get("prompts_commanded") or ())
    if len(options) < 2:
        return prompts
    count = {r["metric"]: r["value"] for r in block_records if r.get("metric") in ("completed", "failed")}
    if "completed" not in count:
        return prompts
    sent = count["completed"] + count.get("failed", 0.0)
    return sent if sent in options else prompts


#: A line naming the build the results below it ran on by a word and its git commit in parentheses
#: (`results for the postprocess_skip (b199bb3b6c...)`): two builds are two servers, each its own series.
BUILD_RE = re.compile(r"(?P<name>[\w.+-]+)\s*\(\s*(?P<commit>[0-9a-f]{7,40})\s*\)\s*$")


#: One item of a YAML list of a container's arguments (a Kubernetes Job's or a compose file's `args:`,
#: `- --max-concurrency=800`): the benchmark's command line, one option to an item.
ARG_ITEM_RE = re.compile(r"^\s*-\s+--(?P<key>[A-Za-z][\w-]*)(?:[= ](?P<value>[^\s'\"]+))?\s*$")
#: The options a container's argument list sets for the benchmark it runs.
ARG_KEYS = ("max_concurrency", "num_prompts", "request_rate", "model")
#: A client option that builds its prompts from conversations, each a later turn's whole history (KubeAI's
#: `benchmark_serving.py --max-conversations N`: "prompt 2 would include message (1, 2, 3) of conversation
#: x"): the prompts repeat earlier prompts' prefixes, so a prefix-caching server (vLLM V1's default) serves
#: most prompt tokens from its cache, as `analysis.serving.prefix_reused` reads `prefix_reuse=`.
REPLAY_KEYS = ("max_conversations",)


def _section_args(lines: list[str], i: int, doc: Outline, ctx: dict) -> None:
    """The settings a section states above its sub-headings, for a block under one of them: a Job's
    `args:` list under `## 800 concurrent requests` runs each of the three blocks below it, one under
    each `###` heading (`- --max-concurrency=800`, `- --request-rate=800`). Each enclosing heading's own
    lines, from it to the first heading after it, are read where nothing nearer set the option."""
    start = i if i in doc.heads else doc.nearest(i)
    if start is None:
        return
    level = doc.heads[start][0]
    for h in reversed(doc.within(0, start)):
        if doc.heads[h][0] >= level:
            continue
        level = doc.heads[h][0]
        following = doc.within(h + 1, len(lines))
        end = following[0] if following else len(lines)
        for j in range(h + 1, end):
            m = ARG_ITEM_RE.match(lines[j])
            key = m["key"].replace("-", "_") if m and m["value"] else None
            if key in ARG_KEYS and key not in ctx:
                ctx[key] = m["value"] if key == "model" else number(m["value"])
            if key in REPLAY_KEYS and "prefix_reuse=" not in (ctx.get("metadata") or ""):
                reuse = f"prefix_reuse=multi-turn conversations replayed (--{m['key']})"
                ctx["metadata"] = f"{ctx['metadata']}; {reuse}" if ctx.get("metadata") else reuse


#: A line of a write-up's own configuration list above the block (`- Model: `M``, `**Hardware:** 2x
#: DGX Spark`, `Tensor Parallel Size: 2`): its label and value.
AUTHOR_LINE_RE = re.compile(r"^\s*(?:[-*+]\s+)?\**(?P<label>[A-Za-z][A-Za-z ]*?)\s*:\**\s*(?P<value>\S.*?)\s*$")
#: Author-list labels -> metadata key (`tp`, `pp`: the devices a run spans, read by the chapters).
AUTHOR_META = {
    "tensor parallel size": "tp",
    "tensor parallel": "tp",
    "tp": "tp",
    "pipeline parallel size": "pp",
    "pipeline parallel": "pp",
    "pp": "pp",
    "hardware": "hardware",
    "gpu": "hardware",
    "gpus": "hardware",
}


#: A list item that is one benchmark option and its value (`* --max-concurrency 6`, `- num-prompts=50`).
BULLET_SETTING_RE = re.compile(
    r"^\s*[-*+]\s+`?(?:--)?(?P<key>max[-_]concurrency|num[-_]prompts|request[-_]rate)\s*[= :]\s*(?P<value>[0-9][0-9.]*|inf)`?\s*$",
    re.IGNORECASE,
)
#: A list item that is a Hugging Face model id and nothing else.
BULLET_MODEL_RE = re.compile(r"^\s*[-*+]\s+`?(?P<model>[A-Za-z0-9][\w.-]*/[A-Za-z0-9][\w.-]*)`?\s*$")


def _author_list(lines: list[str], lo: int, hi: int, ctx: dict) -> None:
    """The model, parallelism and hardware a write-up's own list states between the block's heading
    (`lines[lo]`) and the block: the model only where no command or Namespace names one; the rest to
    `metadata` (`tp=2; hardware=2x DGX Spark`), beside what the Namespace gives."""
    meta: dict[str, str] = {}
    for j in range(lo, hi):
        # `* --max-concurrency 6`, `* max-concurrency=20`, `* ibm-granite/granite-3.3-8b-instruct`: the
        # write-up's own settings for this block, nearer to it than a command shared by several blocks
        b = BULLET_SETTING_RE.match(lines[j])
        if b and number(b["value"]) is not None:
            ctx[b["key"].lower().replace("-", "_")] = number(b["value"])
            continue
        b = BULLET_MODEL_RE.match(lines[j])
        if b and not ctx.get("model"):
            ctx["model"] = b["model"]
            continue
        m = AUTHOR_LINE_RE.match(lines[j])
        if not m or "Namespace(" in lines[j]:
            continue
        label, value = m["label"].strip().lower(), m["value"].strip().strip("*").strip().strip("`").strip()
        if not value:
            continue
        if label == "model" and not ctx.get("model"):
            ctx["model"] = value.split()[0].strip("`")
        elif label in AUTHOR_META and AUTHOR_META[label] not in meta:
            key = AUTHOR_META[label]
            if key in ("tp", "pp"):
                n = number(value.split()[0])
                if n is None or n < 1 or n != int(n):
                    continue
                value = str(int(n))
            meta[key] = value.replace(";", ",").replace("\u00d7", "x")
    if meta:
        ours = "; ".join(f"{k}={v}" for k, v in meta.items())
        ctx["metadata"] = f"{ctx['metadata']}; {ours}" if ctx.get("metadata") else ours


# ---------------------------------------------------------------------------------------------
# text blocks


#: The fewest consecutive rows of the tool's own, from `Successful requests:` on, read as a block a
#: write-up pasted without its banner.
BARE_MIN = 5


def _own_row(line: str) -> bool:
    """Whether a line is one vLLM prints inside its result block: a known label with its value, a
    latency statistic, a per-position acceptance, or a section rule."""
    s = line.strip()
    if SECTION_RE.match(s):
        return True
    m = LINE_RE.match(s)
    return bool(m) and (
        m["label"].strip() in LABELS
        or bool(STAT_RE.match(m["label"].strip()))
        or bool(POS_RE.match(m["label"].strip()))
    )


def _bare(lines, i: int) -> int | None:
    """Where a block pasted without its banner ends (the first line that is not one of its rows), when
    line i starts one: `Successful requests:` and at least BARE_MIN of the tool's rows. A row of
    another tool's below them (SGLang's `Total generated tokens (retokenized)`, `Concurrency:`) makes
    it that tool's block, not this one's; the copy's last line may be a row cut short."""
    if not lines[i].strip().startswith("Successful requests:") or (i and _own_row(lines[i - 1])):
        return None
    j = i
    while j < len(lines) and _own_row(lines[j]):
        j += 1
    if j - i < BARE_MIN or j < len(lines) and LINE_RE.match(lines[j].strip()) and not copy_ends(lines, j):
        return None
    return j


def _blocks(lines: list[str]) -> list[tuple[int, int, str]]:
    """(header index, close index, prefix) of each vLLM result block (0-based); a block pasted
    without its banner (`_bare`) has the line above its first row as its header index."""
    out = []
    i = 0
    n = len(lines)
    while i < n:
        m = HEADER_RE.match(lines[i])
        if not m:
            end = _bare(lines, i)
            if end is not None:
                last = last_line(lines)
                close = end if last is not None and end <= last else last  # nothing after: the copy ends in it
                out.append((i - 1, close, ""))
                i = close + 1
                continue
            i += 1
            continue
        prefix = m.group("prefix")
        j = i + 1
        close = None
        sglang = False
        while j < n:
            s = lines[j]
            body = s[len(prefix) :] if prefix and s.startswith(prefix) else s
            if HEADER_RE.match(s):
                close = j  # the next banner ends it: read up to there and reported, see `_unclosed`
                break
            if CLOSE_RE.match(body.strip()):
                close = j
                break
            if FENCE_RE.match(s) or not s.strip() and _abridged_end(lines, j, prefix):
                close = j  # the author's paste ends the block here: read and reported, see `_unclosed`
                break
            if body.strip().startswith(("Backend:", "Max request concurrency:")):
                sglang = True
            j += 1
        if sglang:
            i = close if close is not None and HEADER_RE.match(lines[close]) else (close or j) + 1
            continue
        if close is None:
            # the copy ends inside the block: its lines up to the copy's last are read, that one is not
            close = last_line(lines)
            if close is None or close <= i:
                raise ParseError(
                    "", i + 1, "a 'Serving Benchmark Result' banner with no line under it: the copy ends there"
                )
        out.append((i, close, prefix))
        i = close if HEADER_RE.match(lines[close]) else close + 1
    return out


#: A short label an author writes on its own line right above a pasted block (`qps4`, `bs4`, `c=32`).
LABEL_ABOVE_RE = re.compile(r"^[A-Za-z][\w .=/+-]{0,23}$")
#: A request rate named in such a label (`qps4`, `rps=2`, `rate 10`).
LABEL_RATE_RE = re.compile(r"\b(?:qps|rps|rate)\s*[=:]?\s*(\d+(?:\.\d+)?)\b", re.IGNORECASE)


def label_above(lines: list[str], lo: int, start: int, doc: Outline) -> dict:
    """The run a write-up names on the one line right above its block (`qps1` over one block, `qps4`
    over the next, inside one code fence, or a comment there: `# round 2`), or right above the fence the
    block opens (`Sync`, a blank line, then the fence): its label, and the rate (`qps N`) or cap (`c=N`)
    it names. A heading, a fence, a command or a `key: value` line is no such label."""
    above = [j for j in range(start - 1, lo - 1, -1) if lines[j].strip()]
    if above and above[0] >= start - 2 and FENCE_RE.match(lines[above[0]]) and above[1:]:
        start, above = above[0], above[1:]  # the block opens a fence: its caption stands above the fence
    if not above or above[0] < start - 2:
        return {}
    s = comment_label(lines, doc, start, lo) or lines[above[0]].strip().removesuffix(":")  # `CUTLASS MoE perf:`
    if not LABEL_ABOVE_RE.match(s) or FENCE_RE.match(s) or s.startswith("#") or len(s.split()) > 3:
        return {}
    out: dict = {"label": s}
    rate = LABEL_RATE_RE.search(s)
    cap = BANNER_CAP_RE.search(s)
    if rate:
        out["request_rate"] = float(rate.group(1))
    elif cap:
        out["max_concurrency"] = float(cap.group(1))
    return out


def _banner(line: str, dataset: str | None) -> dict:
    """The settings a write-up's renamed banner states: its label names the run; a cap in it
    (`Conc 256`) is the run's --max-concurrency, and the rest of such a label (`16K/1K`) names its
    workload, added to the dataset (runs of two workloads are two series, never one sweep)."""
    m = HEADER_RE.match(line)  # a block pasted without its banner has none
    label = m["label"] if m else None
    if m and m["name"]:  # `==== Helion Serving Benchmark Result ====`: the write-up names the run before the title
        return {"label": f"{m['name']} ({label})" if label else m["name"]}
    if not label:
        return {}
    out: dict = {"label": label.strip()}
    cap = BANNER_CAP_RE.search(label)
    if cap:
        out["max_concurrency"] = float(cap.group(1))
        work = BANNER_CAP_RE.sub("", label).strip(" -,;:/")
        if work:
            out["dataset"] = f"{dataset} {work}" if dataset else work
    return out


#: A markdown heading (`### awq performance:`): the author's, never the tool's (vLLM prints no `#`).
MD_HEADING_RE = re.compile(r"^\s{0,3}#{1,6}\s")


def _abridged_end(lines: list[str], j: int, prefix: str = "") -> bool:
    """Whether blank line j ends a block the author pasted without its closing row: the next
    non-blank line is another banner, a code fence or, in a block pasted as is (no `# ` before each
    line), a markdown heading (a block cut by the file's end is truncated)."""
    for s in lines[j + 1 :]:
        if s.strip():
            return bool(HEADER_RE.match(s) or FENCE_RE.match(s) or not prefix and MD_HEADING_RE.match(s))
    return False


#: The header of the block's speculative-decoding section, whole or cut where the copy ends (`-----Speculative Dec`),
#: or of a derived layout's section holding only the accept length (`-----Accept Length-----`).
SPEC_SECTION_RE = re.compile(r"^-{3,}\s*(?:Speculative\b|Accept(?:ance)?\s+Length\b)", re.I)


def _speculative_section(lines: list[str], start: int, close: int, prefix: str) -> bool:
    """Whether a block (its closing or last line included) holds the Speculative Decoding section: vLLM
    prints it only when the server reports speculative-decoding stats (`if spec_decode_stats is not None`
    in vllm/benchmarks/serve.py), so the header alone says the run drafted tokens, its rows cut or not."""
    for raw in lines[start + 1 : min(close + 1, len(lines))]:
        body = raw[len(prefix) :] if prefix and raw.startswith(prefix) else raw
        if SPEC_SECTION_RE.match(body.strip()):
            return True
    return False


#: A row a writer wrapped in markdown bold (`**Request throughput (req/s):   8.41**`, vllm-project/vllm#5316): the
#: tool prints no asterisk, so the pair around the row is the writer's emphasis and the row inside it the tool's.
BOLD_ROW_RE = re.compile(r"^\*\*(?P<row>[^*]+?)\*\*$")
#: A value as the tool prints a row that is no count (`"{:<40} {:<10.2f}"`): two decimals.
TWO_DECIMALS_RE = re.compile(r"^-?\d+\.\d{2}$")


def _unbolded(s: str) -> str:
    """A stripped row without the markdown bold a writer put around it (`BOLD_ROW_RE`)."""
    m = BOLD_ROW_RE.match(s)
    return m.group("row").strip() if m else s


def _whole(line: str, prefix: str) -> bool:
    """Whether the copy's last line, inside a block the copy cuts, holds a row whole as the tool prints
    it: a two-decimal row with its two decimals (`P99 TPOT (ms):  10.13`), or a count of 0 (`Failed
    requests: 0`: the tool prints a count without leading zeros, so a cut count never reads 0). A cut row
    (`P99 TPOT (ms):   49` of 49.87, a count that may have lost digits, a label alone) is not."""
    body = line[len(prefix) :] if prefix and line.startswith(prefix) else line
    m = LINE_RE.match(_unbolded(body.strip()))
    label = m.group("label").strip() if m else ""
    if LABELS.get(label) and LABELS[label][1] == "count":
        return m.group("value") == "0"
    known = LABELS.get(label) or STAT_RE.match(label) or ACCEPT_LENGTH_RE.match(label)
    return bool(known and TWO_DECIMALS_RE.match(m.group("value")))


def _unclosed(lines: list[str], close: int, prefix: str) -> bool:
    """Whether a block's end is not the tool's closing row of '='."""
    s = lines[close]
    body = s[len(prefix) :] if prefix and s.startswith(prefix) else s
    return not CLOSE_RE.match(body.strip())


def _parse_block(lines, start, close, prefix, source, records, rejects, settings):
    cells = 0
    power = False  # inside a --record-power section: the `serving-power` tool's lines
    for j in range(start + 1, close):
        raw = lines[j]
        body = raw[len(prefix) :] if prefix and raw.startswith(prefix) else raw
        s = _unbolded(body.strip())
        if SECTION_RE.match(s):
            power = serving_power.is_heading(s)
            continue
        if power or not s or s.endswith(":") and s.startswith("Per-position"):
            continue
        m = LINE_RE.match(s) or NOTED_LINE_RE.match(s)
        if not m:
            if re.search(r"\d", s):
                raise ParseError(source, j + 1, f"expected 'Label: value' inside the result block, found {s[:60]!r}")
            continue
        label, value_text = m.group("label").strip(), m.group("value")
        line_no = j + 1
        if label in LABELS and LABELS[label] is None:
            settings[SETTING_LABELS[label]] = _num(value_text, source, line_no, label)
            continue
        cells += 1
        value = _num(value_text, source, line_no, label)
        note = "source printed nan" if math.isnan(value) else None
        st = STAT_RE.match(label)
        pos = POS_RE.match(label)
        if label in LABELS:
            metric, stat, unit, lnote = LABELS[label]
            records.append(
                dict(line=line_no, metric=metric, statistic=stat, value=value, unit=unit, note=note or lnote)
            )
        elif st:
            p = st.group("p")
            metric = STAT_NAMES[st.group("name")]
            if p is not None and percentile(p) is None:
                rejects.append((line_no, s, f"percentile P{p} is no rank between 0 and 100"))
                continue
            stat = percentile(p) if p is not None else st.group("stat").lower()
            records.append(dict(line=line_no, metric=metric, statistic=stat, value=value, unit="ms", note=note))
        elif ACCEPT_LENGTH_RE.match(label):
            records.append(
                dict(line=line_no, metric="spec_decode_acceptance_length", statistic="value", value=value, unit="tok")
            )
        elif pos:
            records.append(
                dict(
                    line=line_no,
                    metric=f"spec_decode_position_{pos.group(1)}_acceptance_rate",
                    statistic="value",
                    value=value,
                    unit="%",
                    note=note,
                )
            )
        else:
            rejects.append((line_no, s, "a line this parser has no tidy name for"))
    return cells


# ---------------------------------------------------------------------------------------------
# JSON objects


def _line_of(text: str, start: int, key: str) -> int:
    k = text.find(f'"{key}"', start)
    return text.count("\n", 0, k if k >= 0 else start) + 1


def sweep_params(name: str) -> dict[str, dict[str, str]] | None:
    """The serve and bench parameters a sweep combination folder's name encodes, or None when the
    name is not one (`SERVE--max_num_seqs=64-BENCH--max_concurrency=32`)."""
    m = SWEEP_DIR_RE.match(name)
    if not name.startswith(("SERVE--", "BENCH--")) or m is None:
        return None
    return {side: dict(_SWEEP_PARAM_RE.findall(m.group(side) or "")) for side in ("serve", "bench")}


def source_name(path) -> str:
    """How a file is named in the tidy table: `COMBINATION/run=0.json` inside a sweep folder (the
    folder holds the settings, and every combination has a run=0.json), else its file name."""
    parent = path.parent.name
    return f"{parent}/{path.name}" if sweep_params(parent) is not None else path.name


def sweep_files(folder) -> tuple[list, list[str]]:
    """The files to read of a `vllm bench sweep serve` output folder (OUT, OUT/TIMESTAMP or one
    combination folder) and what was left out, as sentences: each combination's `run=N.json`
    (its repeats, in run order); its `summary.json` only where no run file is left, since it holds
    the same objects; `summary.csv` never (the same runs again, without percentiles' units).
    Empty when the folder holds no combination folder."""
    from pathlib import Path

    folder = Path(folder)
    combos = [folder] if sweep_params(folder.name) is not None else []
    if not combos:
        combos = sorted(
            (d for d in folder.rglob("*") if d.is_dir() and sweep_params(d.name) is not None),
            key=lambda d: (
                str(d.parent),
                [(0, int(t), "") if t.isdigit() else (1, 0, t) for t in re.split(r"(\d+)", d.name)],
            ),
        )
    files, notes = [], []
    for d in combos:
        runs = sorted((int(m.group(1)), f) for f in d.iterdir() if f.is_file() and (m := SWEEP_RUN_RE.match(f.name)))
        summary = d / "summary.json"
        if runs:
            files += [f for _, f in runs]
            if summary.is_file():
                notes.append(
                    f"{d.name}/summary.json not read: it repeats the {counted(len(runs), 'run file')} beside it"
                )
        elif summary.is_file():
            files.append(summary)
    csvs = sorted(folder.rglob("summary.csv")) if combos else []
    notes += [f"{c.relative_to(folder) if c != folder else c.name} not read: it repeats the runs' JSON" for c in csvs]
    return files, notes


def _model(name):
    """The model a run names; a Hugging Face hub cache folder (`/models/models--ORG--NAME/snapshots/HASH/`,
    the layout huggingface_hub writes, which InferenceX's harness passes as `--model`) is the repo ORG/NAME."""
    return hub_id(name) if isinstance(name, str) else name


def _parse_object(obj: dict, text: str, offset: int, source: str, records, rejects, messages, run: str) -> int:
    first = text[offset:].split("\n", 1)[0].rstrip()
    single_line = first.endswith("}") or first.endswith("},")
    base_line = text.count("\n", 0, offset) + 1

    def line_of(key):
        return base_line if single_line else _line_of(text, offset, key)

    settings = run_settings(
        obj.get("label") or run,
        "json",
        model=_model(obj.get("model_id") or obj.get("model")),
        dataset=obj.get("dataset_name") or obj.get("dataset"),
        num_prompts=_opt_float(obj.get("num_prompts")),
        request_rate=_opt_float(obj.get("request_rate", math.nan)),
        max_concurrency=_opt_float(obj.get("max_concurrency")),
        burstiness=_opt_float(obj.get("burstiness")),
    )
    meta = []
    kept: list[dict] = []
    cells = 0
    arrays = [k for k in obj if k in ARRAY_KEYS and isinstance(obj[k], list)]
    swept = "run_number" in obj  # a sweep's run: its other unknown scalars are the swept parameters
    for key, v in obj.items():
        if key in JSON_SETTINGS or key in ARRAY_KEYS or (swept and key == "run_number"):
            continue
        jm = JSON_STAT_RE.match(key) or JSON_SECONDS_RE.match(key)
        if key in JSON_METRICS or jm:
            cells += 1
            ln = line_of(key)
            if v is None:
                value, note = math.nan, (GOODPUT_NOTE if "goodput" in key else "source wrote null")
            elif isinstance(v, bool) or not isinstance(v, (int, float)):
                rejects.append((ln, f"{key}: {v!r}"[:80], "expected a number"))
                continue
            else:
                value = float(v)
                note = "source wrote NaN" if math.isnan(value) else None
            if jm:
                p = jm.group("p")
                if p is not None and percentile(p) is None:
                    rejects.append((ln, f"{key}: {v}", f"percentile p{p} is no rank between 0 and 100"))
                    continue
                if jm.re is JSON_SECONDS_RE:
                    value, note = value * 1000.0, note or "converted from s"
                stat = percentile(p) if p is not None else jm.group("stat")
                kept.append(dict(line=ln, metric=jm.group("name"), statistic=stat, value=value, unit="ms", note=note))
            else:
                metric, stat, unit = JSON_METRICS[key]
                kept.append(dict(line=ln, metric=metric, statistic=stat, value=value, unit=unit, note=note))
        elif isinstance(v, (str,)) or v is None:
            meta.append(f"{key}={v}")
        elif isinstance(v, bool):
            meta.append(f"{key}={v}")
        elif (swept or key == "best_of") and isinstance(v, (int, float)):  # a setting (2024: --best-of)
            meta.append(f"{key}={v}")
        elif isinstance(v, (int, float)):
            cells += 1
            rejects.append((line_of(key), f"{key}: {v}", "a numeric key this parser has no tidy name for"))
        else:
            meta.append(f"{key}=<{type(v).__name__}>")
    settings["metadata"] = "; ".join(meta) if meta else None
    records.extend(row(_ROW, {**settings, **r}) for r in kept)
    if arrays:
        n = len(obj.get("ttfts") or obj.get("input_lens") or [])
        messages.append(
            f"{source}:{base_line}: run {settings['run']!r} holds --save-detailed per-request arrays "
            f"({', '.join(arrays)}; {n} requests): read them with benchbook.ingest.vllm_serve.requests()"
        )
    return cells


def _list_offsets(text: str, start: int) -> list[int]:
    """Char offset of each item of the JSON list that opens at text[start] (already known to parse),
    so that each object's numbers get their own lines."""
    dec = json.JSONDecoder()
    ws = " \t\n\r"
    out = []
    pos = start + 1
    while True:
        while text[pos] in ws:
            pos += 1
        if text[pos] == "]":
            return out
        out.append(pos)
        _, pos = dec.raw_decode(text, pos)
        while text[pos] in ws:
            pos += 1
        if text[pos] == ",":
            pos += 1


def _json_objects(text: str, source: str, strict: bool) -> list[tuple[dict, int, int]]:
    """(object, char offset, index) of the result objects in the text. With strict, the whole text
    must be JSON (one value or one per line); otherwise only lines that are result objects count."""
    stripped = text.strip()
    out = []
    if strict:
        try:
            val = json.loads(stripped)
        except json.JSONDecodeError:
            pass
        except RecursionError:
            raise ParseError(source, 1, "JSON nested too deeply to be a vllm bench serve result") from None
        else:
            lead = len(text) - len(text.lstrip())
            items, offsets = (val, _list_offsets(text, lead)) if isinstance(val, list) else ([val], [lead])
            for k, (o, at) in enumerate(zip(items, offsets, strict=True)):
                if not _is_result_object(o):
                    raise ParseError(source, 1, "a JSON value that is not a vllm bench serve result object")
                out.append((o, at, k))
            return out
    offset = 0
    for n, line in enumerate(text.split("\n"), start=1):
        s = line.strip()
        if s.startswith("{"):
            try:
                o = json.loads(s)
            except (json.JSONDecodeError, RecursionError):
                if strict:
                    raise ParseError(source, n, "expected one JSON result object per line") from None
                o = None
            if _is_result_object(o):
                out.append((o, offset + line.find("{"), len(out)))
            elif strict:
                raise ParseError(source, n, "a JSON line that is not a vllm bench serve result object")
        elif strict and s:
            raise ParseError(source, n, "expected JSON (one result object, or one per line)")
        offset += len(line) + 1
    return out


# ---------------------------------------------------------------------------------------------
# the Tool


def _json_like(text: str | Lines) -> bool:
    """Whether JSON is to be decoded from the text (it starts like JSON, or holds result-object
    lines): such a text is read whole; text blocks alone are read line by line."""
    return first_char(text) in ("{", "[") or contains('"request_throughput"', text)


def _is_json(text: str | Lines) -> bool:
    """Whether the whole text is to be read as JSON: it starts like JSON and either holds no text
    result block or parses strictly (a log line such as `[2025-05-01 10:00:00] ...` also starts
    with a bracket)."""
    if first_char(text) not in ("{", "["):
        return False
    if not any(HEADER_RE.match(line) for line in text.split("\n")):
        return True
    try:
        _json_objects(text, "", strict=True)
    except ParseError:
        return False
    return True


def sniff(text: str | Lines) -> bool:
    if isinstance(text, Lines) and _json_like(text):
        text = whole(text)
    if _is_json(text):
        try:
            return bool(_json_objects(text, "", strict=True))
        except ParseError:
            return False
    if contains("Successful requests:", text) and (
        contains("Serving Benchmark Result", text) or contains("Benchmark duration (s):", text)
    ):
        try:
            return bool(_blocks(split_n(text)))
        except ParseError:
            return True  # our block, truncated: parse() will say where
    if contains("Total time:", text) and contains(" requests/s", text) and vllm_serve_2023.blocks(split_n(text)):
        return True
    if contains('"request_throughput"', text) and any(
        _is_result_object(o) for o, _, _ in _json_objects(text, "", strict=False)
    ):
        return True
    return bool(_authors_tables(text))


#: A file naming vLLM or its serving benchmark (`vllm bench serve`, `benchmarks/benchmark_serving.py`).
_ENGINE_RE = re.compile(r"\bvllm\b|\bbenchmark_serving\.py\b", re.I)


def _authors_tables(text: str | Lines) -> list[tuple[int, int, list[str]]]:
    """The authors' tables of serving results (`serving_table`) of a file that names vLLM and no other engine."""
    return serving_table.found(text, _ENGINE_RE, "vllm")


#: The settings a block with none of its own takes from the block above it in the same log.
INHERITED = ("model", "dataset", "num_prompts", "request_rate", "max_concurrency", "burstiness", "metadata")
#: What a block under a caption that states its own load keeps of the command above: the server, model and
#: dataset the launch gives, never the load the caption restates.
CAPTION_KEEPS = ("model", "dataset", "metadata")
#: A list item or heading that states a load (`+ max-concurrency: 1， no request-rate setting`, `## rate 10`): the
#: load of the block under it, first setting named with its number.
LOAD_CAPTION_RE = re.compile(
    r"^\s*(?:[-*+]|#{1,6})\s+.*?\b(?P<key>max[-_ ]concurrency|concurrency|request[-_ ]rate|num[-_ ]prompts)"
    r"\s*[=:]?\s*(?P<value>\d+(?:\.\d+)?|inf)\b",
    re.IGNORECASE,
)
#: A hub id a caption names (`Qwen/Qwen3-8B`), not a unit (`req/s`, `tok/s`: a one-letter last part).
CAPTION_HUB_ID_RE = re.compile(r"(?<![\w/.-])[A-Za-z0-9][\w.-]*/[A-Za-z0-9][\w.-]*[\w.-](?![\w/])")
#: A markdown code fence: blocks on either side of one were pasted apart.
FENCE_RE = re.compile(r"\s*(```|~~~)")


def parse(text: str | Lines, source: str) -> Parsed:
    if isinstance(text, str) or _json_like(text):
        text = whole(text).replace("\r\n", "\n").replace("\r", "\n")
    records: list[Row] = []  # tidy records as tuples (`rows.Row`)
    rejects: list[tuple[int, str, str]] = []
    messages: list[str] = []
    cells = 0
    is_json = _is_json(text)
    if is_json:
        objs = _json_objects(text, source, strict=True)
    else:
        lines = split_n(text)
        try:
            blocks = _blocks(lines)
        except ParseError as exc:
            raise ParseError(source, exc.line, exc.message) from None
        objs = _json_objects(text, source, strict=False) if contains('"request_throughput"', text) else []
        prev_end, prev_ctx, heading = 0, {}, None
        runs: list[tuple[dict, list[dict]]] = []  # each block's settings and rows, named once all are read
        first: list[int] = []  # per block, the block it repeats (`again`), else itself
        times = _runs_again(lines, blocks[0][0] if blocks else 0)
        doc = outline(lines)
        named = names(lines, [start for start, _, _ in blocks], doc)
        for k, (start, close, prefix) in enumerate(blocks, start=1):
            ctx = _context(lines, prev_end, start, doc, named, prefix=prefix)
            # a block with no setting of its own right after another in the same pasted log (no code
            # fence between them: `# round 2` under one command), or parted from it by nothing but a
            # heading (one script above results each pasted under the configuration it names) where a
            # command gave that block its settings, repeats the command above it
            between = range(prev_end, start)
            # a block printed right under another (nothing but blank lines between) with no setting, label or
            # build of its own is the same command run again: a repeat of that block's run, named so
            # (`analysis.serving.REPEAT_RE`)
            again = k > 1 and not any(lines[j].strip() for j in between) and not set(ctx) & {*INHERITED, "build"}
            again = again and first.count(first[-1]) < times  # no more repeats than the text runs its command
            heads = set(doc.within(prev_end, start))
            headed = all(j in heads or not lines[j].strip() or FENCE_RE.match(lines[j]) for j in between)
            fenced = any(FENCE_RE.match(lines[j]) for j in between)
            if k > 1 and not (set(ctx) & set(INHERITED)) and (not fenced or headed and prev_ctx.get("commanded")):
                # with every command's prompt count, so that the block's own count picks its command (`_prompts_sent`)
                ctx.update(
                    {key: prev_ctx[key] for key in (*INHERITED, "commanded", "prompts_commanded") if key in prev_ctx}
                )
                ctx.setdefault("build", prev_ctx.get("build"))
            elif k > 1 and prev_ctx.get("commanded") and (load := _load_caption(lines, between, doc)) is not None:
                ctx.update({key: value for key, value in load.items() if key not in ctx})
                ctx.update({key: prev_ctx[key] for key in CAPTION_KEEPS if key in prev_ctx and key not in ctx})
            prev_ctx = ctx
            ctx = {**ctx, **_banner(lines[start], ctx.get("dataset"))}  # not passed on to the next block
            if ctx.get("build"):  # a build named above the results is a setting of its server
                ctx["metadata"] = "; ".join(x for x in (ctx.get("metadata"), ctx["build"]) if x)
            if "label" not in ctx:
                ctx.update(label_above(lines, prev_end, start, doc))
            again = again and "label" not in ctx
            cut = _unclosed(lines, close, prefix) and copy_ends(lines, close) and not FENCE_RE.match(lines[close])
            end = close + 1 if cut and _whole(lines[close], prefix) else close  # the last row read where whole
            if cut and end > close:  # marked, not set aside: every cell is counted read or rejected
                rejects.append(cut_after_item(close, lines[close]))
                cells += 1
                messages.append(
                    f"{source}:{start + 1}: the copy ends inside the result block, after line {close + 1}: "
                    f"lines {start + 2}-{close + 1} read"
                )
            elif cut:
                rejects.append(cut_item(close, lines[close]))
                cells += 1
                messages.append(
                    f"{source}:{start + 1}: the copy ends inside the result block, at line {close + 1}: "
                    f"lines {start + 2}-{close} read, line {close + 1} not (it may be cut short)"
                )
            elif _unclosed(lines, close, prefix):
                messages.append(
                    f"{source}:{start + 1}: the result block has no closing row of '='; read up to line {close}"
                )
            # the heading nearest above, in this block's lines or an earlier block's: a heading names
            # every block under it (`headings.run_names` tells them apart), not the first alone
            heading = ctx.get("heading", heading)
            settings = run_settings(
                ctx.get("label") or (named.get(heading) if heading is not None else None),
                "text",
                model=_model(ctx.get("model")),
                **{k: ctx[k] for k in _SAID if k in ctx},
            )
            block_records: list[dict] = []
            cells += _parse_block(lines, start, end, prefix, source, block_records, rejects, settings)
            settings["num_prompts"] = _prompts_sent(ctx, block_records, settings["num_prompts"])
            if _windowed(lines, start, close, prefix):
                settings["num_prompts"] = math.nan  # its counts are the window's, not of every prompt sent
            if _speculative_section(lines, start, close, prefix) and "speculative=" not in (settings["metadata"] or ""):
                settings["metadata"] = "; ".join(
                    x for x in (settings["metadata"], "speculative=speculative decoding") if x
                )
            first.append(first[-1] if again else len(runs))
            runs.append((settings, block_records))
            prev_end = close + 1
        # named by its label or heading, and its load where that name covers other loads; a block with no
        # name of its own under the settings of an earlier one is another run of them (a repeat, or a
        # change the log does not print), never the same run twice (`headings.run_names`); one printed right
        # under another is its repeat
        given = run_names([s["run"] for s, _ in runs], [_load_label(s) for s, _ in runs])
        given = [
            f"{given[f]}, repeat {first[: k + 1].count(f)}" if f != k else name
            for k, (f, name) in enumerate(zip(first, given, strict=True))
        ]
        for (settings, block_records), name in zip(runs, given, strict=True):
            records.extend(row(_ROW, {**settings, **r, "run": name}) for r in block_records)
        prev_end = 0
        old = vllm_serve_2023.blocks(lines)
        named = names(lines, [start for start, _ in old], doc)
        for k, (start, end) in enumerate(old, start=1):
            ctx = _context(lines, prev_end, start, doc, named)
            settings = run_settings(  # the 2023 script had no cap and no burstiness
                ctx.get("label") or ctx.get("run"),
                vllm_serve_2023.FORMAT,
                model=_model(ctx.get("model")),
                **{k: ctx[k] for k in ("dataset", "num_prompts", "request_rate", "metadata") if k in ctx},
            )
            settings["run"] = settings["run"] or _load_label(settings) or f"block {k}"
            found, refused = vllm_serve_2023.records(lines, start, end, source, settings["num_prompts"])
            records.extend(row(_ROW, {**settings, **r}) for r in found)
            rejects.extend(refused)
            cells += len(found) + len(refused)
            prev_end = end
    folder = source.rsplit("/", 1)[0] if "/" in source else ""
    swept = sweep_params(folder)
    combo = ", ".join(f"{k}={v}" for side in swept.values() for k, v in side.items()) if swept else None
    for obj, offset, k in objs:
        run = f"json {k + 1}" if is_json else f"json line {text.count(chr(10), 0, offset) + 1}"
        if combo is not None:  # a sweep's file: the combination names the run; summary.json adds the repeat
            run = combo if len(objs) == 1 else f"{combo} run={obj.get('run_number', k)}"
        cells += _parse_object(obj, text, offset, source, records, rejects, messages, run)
    if not records and not rejects and not is_json and (where := _authors_tables(text)):
        records, rejects, n = serving_table.read(text, where, source, messages)
        cells += n
    if not records and not rejects:
        raise ParseError(source, 1, "no 'Serving Benchmark Result' block, 2023 'Total time' lines or result JSON found")
    return finish(TOOL, source, records, rejects, messages, cells)


def _load_caption(lines: list[str], between: range, doc: Outline) -> dict | None:
    """The settings of a caption (a list item or heading) that states the load of the block under it, where
    nothing but it, headings, blank lines and fences parts the block from the block above: its load, and
    the model it names where it names one (then the block is that model's, not the command's). A write-up
    restates a block's load to say what changed; the launch command above still serves it. None otherwise."""
    heads = set(doc.within(between.start, between.stop))
    captions = [j for j in between if LOAD_CAPTION_RE.match(lines[j])]
    rest = [j for j in between if j not in captions and j not in heads and lines[j].strip()]
    if not captions or any(not FENCE_RE.match(lines[j]) for j in rest):
        return None
    out: dict = {}
    for j in captions:
        m = LOAD_CAPTION_RE.match(lines[j])
        key = m["key"].lower().replace("-", "_").replace(" ", "_")
        out.setdefault("max_concurrency" if key == "concurrency" else key, _opt_float(m["value"]))
        named = CAPTION_HUB_ID_RE.search(lines[j])
        if named:
            out.setdefault("model", named[0])
    return out


def _runs_again(lines: list[str], end: int) -> int:
    """How many times the text above its first block runs one command in a row (`run_one 32` on three lines
    of a script): blocks printed right under each other are that command's repeats, up to that many; 1
    where no command line repeats (two blocks pasted together may be two builds the prose compares)."""
    most, count, prev = 1, 0, None
    for line in lines[:end]:
        s = line.strip()
        if not s:
            continue
        count = count + 1 if s == prev and not s.startswith("#") and not FENCE_RE.match(s) else 1
        most, prev = max(most, count), s
    return most


def _load_label(settings: dict) -> str:
    return load_label(settings["max_concurrency"], settings["request_rate"])


#: vLLM's server log of its engine's stats: V1's `Engine 000: Avg prompt throughput: X tokens/s, Avg generation
#: throughput: Y tokens/s, Running: N reqs, ...` (vllm/v1/metrics/loggers.py, LoggingStatLogger) and V0's
#: `Avg prompt throughput: ... Running: N reqs, Swapped: ...` (vllm/engine/metrics.py), logged every
#: VLLM_LOG_STATS_INTERVAL seconds (10 by default).
_ENGINE_STATS = re.compile(r"\bAvg prompt throughput:\s*[\d.]+ tokens/s, Avg generation throughput:\s*[\d.]+ tokens/s")


#: vLLM's benchmark command, which names the tool whose rows a file holds.
_VLLM_COMMAND = re.compile(r"\bvllm\s+bench\s+serve\b|\bbenchmark_serving\.py\b")


def _rows_alone(lines: list[str]) -> int | None:
    """The first line (1-based) of a run of BARE_MIN or more of the tool's own rows (`_own_row`, section rules
    included) in a file whose `vllm bench serve` command names the tool, else None: rows pasted without the
    banner and without `Successful requests:` (a block that has it is read, `_bare`)."""
    if not any(_VLLM_COMMAND.search(s) for s in lines):
        return None
    run = 0
    for i, s in enumerate(lines):
        run = run + 1 if _own_row(s) else 0
        if run == BARE_MIN:
            return i - BARE_MIN + 2
    return None


#: A measurement window a fork prints in its block (Moreh vLLM's `--warmup-time` / `--cooldown-time`:
#: `Warm-up Time:  120.0`): requests of the warm-up and cool-down are left out of every count it prints.
_WINDOW_RE = re.compile(r"^\s*(?:Warm-up|Cool-down) Time(?: \(s\))?:\s*(?P<value>\d+(?:\.\d+)?)\s*$")


def _windowed(lines: list[str], start: int, close: int, prefix: str) -> bool:
    """Whether a block counts only the requests of a measurement window (a warm-up or cool-down time above
    0 printed in it): its `Successful requests` are those that fell inside the window, so the prompts the
    command sent are no denominator of them, and the prompts not counted are no failures."""
    for s in lines[start : close + 1]:
        body = s[len(prefix) :] if prefix and s.startswith(prefix) else s
        m = _WINDOW_RE.match(body)
        if m and float(m["value"]) > 0:
            return True
    return False


def refuses(text: str | Lines) -> tuple[int, str] | None:
    """(line, why) of the first engine-stats line of a vLLM server log (`_ENGINE_STATS`), or of the tool's own
    rows pasted without the banner and the counts (`_rows_alone`), in a file no tool reads, else None
    (`Tool.refuses`). A stats line averages one interval of whatever traffic the server had, a monitor's reading
    with no request count, duration or latency of a benchmark; no chapter reads a server log. Rows without
    `Successful requests:` and `Benchmark duration (s):` hold rates and latencies with nothing that makes them
    one run: no request count or duration, and no cap or rate but what the text around them may say."""
    lines = split_n(whole(text))
    for i, raw in enumerate(lines, start=1):
        if _ENGINE_STATS.search(raw):
            return i, (
                "vLLM's server log: the engine's stats line (prompt and generation tokens/s averaged over its "
                "logging interval, 10 s by default; running and waiting requests), a monitor of whatever traffic "
                "the server had, not a benchmark's result; no chapter reads a server log"
            )
    at = _rows_alone(lines)
    if at is not None:
        return at, (
            "vllm bench serve's result rows pasted without the block's banner and its counts (no Successful "
            "requests, Benchmark duration or Request throughput): rates and latencies with no request count or "
            "duration to make them a run, and no cap or rate of their own; not read"
        )
    return None


TOOL = register(
    Tool(
        name=NAME,
        settings=SETTINGS,
        sniff=sniff,
        parse=parse,
        refuses=refuses,
        description="vLLM `vllm bench serve` / benchmark_serving.py: result blocks and --save-result JSON",
        command="vllm bench serve --model MODEL ... [--save-result]; or a `vllm bench sweep serve -o DIR` folder",
        metrics=METRICS,
        # an authors' table holds the columns its authors chose: its format declares no column it must print
        carries={vllm_serve_2023.FORMAT: vllm_serve_2023.CARRIES, serving_table.FORMAT: frozenset()},
        # `--burstiness` defaults to 1.0 (benchmark_serving.py and vllm/benchmarks/serve.py: "Default value is 1,
        # which follows Poisson process"); the versions before it drew every gap from an exponential
        # (`np.random.exponential(1.0 / request_rate)`), the same process. An authors' table may come from any
        # client: it declares none.
        defaults={"*": {"burstiness": 1.0}, serving_table.FORMAT: {}},
    )
)


# ---------------------------------------------------------------------------------------------
# per-request data (--save-detailed)

REQUEST_COLUMNS = [
    "source",
    "run",
    "request",
    "success",
    "input_len",
    "output_len",
    "ttft_ms",
    "e2el_ms",
    "tpot_ms",
    "n_chunks",
    "itl_mean_ms",
    "start_time_s",
    "queue_time_ms",
    "duration_s",
]


def requests(path) -> pd.DataFrame:
    """One row per request of every --save-detailed result object in a file.

    Columns: `run`, `request` (0-based, the tool's order), `success` (empty error string; in files
    without `errors`, output_len > 0), `input_len`, `output_len` (tokens), `ttft_ms`, `e2el_ms`
    (`latencies`; in older files without it, ttft + sum(itls), as the tool's own timeline plot does),
    `tpot_ms` = (e2el - ttft) / (output_len - 1) for output_len > 1, else 0 (the tool's rule for
    goodput), `n_chunks` (streamed chunks after the first), `itl_mean_ms`, `start_time_s`,
    `queue_time_ms` (newest versions), and the run's `duration_s` (for goodput per second).
    An empty frame when the file holds no per-request arrays.
    """
    from benchbook import config
    from benchbook.ingest import _load_text

    p = config.resolve(path)
    config.log_read(p)
    text = _load_text(p).replace("\r\n", "\n")
    strict = _is_json(text)
    frames = []
    for obj, offset, k in _json_objects(text, p.name, strict=strict):
        ttfts = obj.get("ttfts")
        if not isinstance(ttfts, list):
            continue
        n = len(ttfts)
        line = text.count("\n", 0, offset) + 1
        run = obj.get("label") or (f"json {k + 1}" if strict else f"json line {line}")

        def bad(key, what, _offset=offset):
            return ParseError(p.name, _line_of(text, _offset, key), what)

        def arr(key, _n=n, _obj=obj):
            v = _obj.get(key)
            if not isinstance(v, list):
                return np.full(_n, np.nan)
            if len(v) != _n:
                raise bad(key, f"per-request array {key!r} has {len(v)} entries, ttfts has {_n}")
            for i, x in enumerate(v):
                if x is not None and not _is_number(x):
                    raise bad(key, f"{key}[{i}] is {x!r}, not a number")
            return np.array([np.nan if x is None else x for x in v], dtype=float)

        ttft = arr("ttfts")
        out_len = arr("output_lens")
        itls = obj.get("itls") if isinstance(obj.get("itls"), list) else [[] for _ in range(n)]
        if len(itls) != n:
            raise bad("itls", f"per-request array 'itls' has {len(itls)} entries, ttfts has {n}")
        for i, gaps in enumerate(itls):
            for g, x in enumerate(gaps if isinstance(gaps, list) else []):
                if not _is_number(x):
                    raise bad("itls", f"itls[{i}][{g}] is {x!r}, not a number")
        n_chunks = np.fromiter((len(x) if isinstance(x, list) else 0 for x in itls), dtype=float, count=n)
        itl_sum = np.fromiter((math.fsum(x) if isinstance(x, list) and x else 0.0 for x in itls), dtype=float, count=n)
        lat = arr("latencies") if isinstance(obj.get("latencies"), list) else ttft + itl_sum
        errors = obj.get("errors")
        if isinstance(errors, list) and len(errors) == n:
            success = np.array([not e for e in errors], dtype=bool)
        else:
            success = out_len > 0
        with np.errstate(invalid="ignore", divide="ignore"):
            tpot = np.where(out_len > 1, (lat - ttft) / (out_len - 1), 0.0)
            itl_mean = np.where(n_chunks > 0, itl_sum / n_chunks, np.nan)
        frames.append(
            pd.DataFrame(
                {
                    "source": p.name,
                    "run": run,
                    "request": np.arange(n),
                    "success": success,
                    "input_len": arr("input_lens"),
                    "output_len": out_len,
                    "ttft_ms": ttft * 1000,
                    "e2el_ms": lat * 1000,
                    "tpot_ms": tpot * 1000,
                    "n_chunks": n_chunks,
                    "itl_mean_ms": itl_mean * 1000,
                    "start_time_s": arr("start_times"),
                    "queue_time_ms": arr("queue_times") * 1000,
                    "duration_s": _opt_float(obj.get("duration")),
                }
            )
        )
    if not frames:
        return pd.DataFrame(columns=REQUEST_COLUMNS)
    return pd.concat(frames, ignore_index=True)[REQUEST_COLUMNS]
