"""TensorRT-LLM `trtllm-bench throughput` and `trtllm-bench latency` reports, in the serving contract
of vllm-bench-serve (so serving_saturation reads them like any serving tool).

What the tool prints (tensorrt_llm/bench/dataclasses/reporting.py, `ReportUtility.report_statistics`):
sections between rows of `=`, each titled `= TITLE`: `ENGINE DETAILS` (TRT engine) or `PYTORCH
BACKEND` (`PyTorch backend` in 0.17), `MACHINE DETAILS`, `REQUEST DETAILS`, `WORLD + RUNTIME
INFORMATION` (TP/PP/EP sizes, max runtime batch size and tokens, KV memory, issue rate),
`PERFORMANCE OVERVIEW`, `DATASET DETAILS` (a percentile table of input/output/sequence lengths)
and, with speculative decoding, `DECODING STATISTICS`. Lines are `Label:<tabs or spaces>value`
(0.16-0.17 pad with tabs, later versions align with spaces; a copy from a web page may mix both);
the first line of a report may carry a logger prefix (`[01/18/2025-01:01:42] [TRT-LLM] [I]`).

Versions read:

* 0.12 to 0.14: the same report with `= STATISTICS` where PERFORMANCE OVERVIEW later stands
  (`Number of requests`, `Average Input/Output Length (tokens)`, `Token Throughput (tokens/sec)` =
  output tokens / total latency, `Request Throughput (req/sec)`, `Total Latency (seconds)`); the
  docs show it with `TensorRT-LLM Version: 0.12.0`.
* 0.17 and before: PERFORMANCE OVERVIEW holds `Number of requests`, `Average Input/Output Length`,
  `Token Throughput (tokens/sec)` (output tokens / total latency: 221.8 req/s x 128 = 28390 in
  the docs' run), `Request Throughput`, `Total Latency (ms)`.
* 0.19 onwards: REQUEST DETAILS (requests, mean concurrency, lengths); PERFORMANCE OVERVIEW with
  total output/token throughput, per-user and per-GPU throughput, request latency and, with
  `--streaming`, TTFT/TPOT means and the `[TPOT]`, `[TTFT]`, `[GTPS]`, `[Latency]` blocks
  (MINIMUM, MAXIMUM, AVERAGE, P50, P90, P95, P99).

Mapping: `Number of requests` -> completed; `Total Latency (ms)` -> duration, converted to s (the
contract's unit; the note says so); `Average request latency` and `[Latency]` -> e2el; `[TTFT]` ->
ttft; `[TPOT]` (per request (latency - TTFT) / (output tokens - 1), vLLM's TPOT) -> tpot;
`[GTPS]` and `Per User Output Speed` -> output_token_throughput_per_user (AIPerf's name for the
same per-request rate); `Per User Output Throughput` (output tokens / request latency, context
included) -> per_user_output_throughput; `Per GPU Output Throughput` -> output_throughput_per_gpu.
The block AVERAGE repeats the mean printed above it: the screen keeps the first and reports the
repeat. `Issue Rate` is kept as printed; the tool divides by nanoseconds, so it is often far above
any real rate and then set aside by the range screen with its reason.

Settings: model and dataset (report, else the command line), `--concurrency` (max_concurrency) and
`--num_requests` (num_prompts) from a `trtllm-bench ...` command line above the report; the
request rate is not printed (all requests are submitted at once; `serving.runs` marks it assumed).
Backend, version, TP/PP/EP, max batch size and tokens, scheduling policy, KV memory, dtype and
quantization go to `metadata` as `key=value; ...`.

Counting (cells_read == kept + rejected): every number of REQUEST DETAILS, PERFORMANCE OVERVIEW,
the issue rate, the statistic blocks and the dataset table is a cell; a labelled number this
parser does not know is rejected with the reason. Setting echoes (sizes, lengths of the engine,
KV percentage, number of sequences) are settings, not cells.
"""

from __future__ import annotations

import math
import re
import shlex

from benchbook.ingest.core import (
    Parsed,
    ParseError,
    Tool,
    copy_ends,
    finish,
    markdown_cells,
    markdown_tables,
    number,
    register,
)
from benchbook.ingest.headings import names, outline
from benchbook.ingest.serving_settings import SETTINGS as CONTRACT
from benchbook.ingest.serving_settings import run_settings
from benchbook.ingest.text import Lines, search, split_n, whole

NAME = "trtllm-bench"

SETTINGS = dict(CONTRACT)

METRICS = {
    "completed": "req: requests of the run (`Number of requests`)",
    "duration": "s: first request start to last request end (`Total Latency (ms)` / 1000)",
    "request_throughput": "req/s: requests / total latency",
    "output_throughput": "tok/s: output tokens / total latency (0.17's `Token Throughput`)",
    "total_token_throughput": "tok/s: (input + output tokens) / total latency",
    "per_user_output_throughput": "tok/s/user: per request output tokens / request latency (context included), mean",
    "output_throughput_per_gpu": "tok/s/gpu: output throughput / world size",
    "output_token_throughput_per_user": "tok/s/user: per request generation rate after the first token ([GTPS])",
    "e2el": "ms: request latency",
    "ttft": "ms: time to first token (--streaming)",
    "tpot": "ms: per request (latency - TTFT) / (output tokens - 1) (--streaming)",
    "concurrent_requests": "req: mean requests in flight (`Number of concurrent requests`)",
    "input_length": "tok: mean input length of the requests",
    "output_length": "tok: mean output length of the requests",
    "issue_rate": "req/s: requests / time to issue them (as printed; often not a physical rate)",
    "dataset_input_length": "tok: input lengths of the dataset (DATASET DETAILS)",
    "dataset_output_length": "tok: output lengths of the dataset",
    "dataset_sequence_length": "tok: input + output lengths of the dataset",
    "spec_decode_draft_tokens": "tok: draft tokens per request ([DT])",
    "spec_decode_accepted_tokens": "tok: accepted draft tokens per request ([ADT])",
    "spec_decode_acceptance_rate": "fraction: accepted / drafted per request ([DAR])",
    "spec_decode_acceptance_length": "tok: tokens per decoding iteration per request ([AL])",
}

_MS_TO_S = "printed as Total Latency (ms), converted to s"

#: Normalised label -> (metric, statistic, unit, note).
LABELS: dict[str, tuple[str, str, str, str | None]] = {
    "number of requests": ("completed", "count", "req", None),
    "number of concurrent requests": ("concurrent_requests", "mean", "req", None),
    "average input length (tokens)": ("input_length", "mean", "tok", None),
    "average output length (tokens)": ("output_length", "mean", "tok", None),
    "request throughput (req/sec)": ("request_throughput", "value", "req/s", None),
    "total output throughput (tokens/sec)": ("output_throughput", "value", "tok/s", None),
    "token throughput (tokens/sec)": (
        "output_throughput",
        "value",
        "tok/s",
        "'Token Throughput' (0.17 and before): output tokens / total latency",
    ),
    "total token throughput (tokens/sec)": ("total_token_throughput", "value", "tok/s", None),
    "total latency (ms)": ("duration", "value", "s", _MS_TO_S),
    "total latency (seconds)": ("duration", "value", "s", None),
    "average request latency (ms)": ("e2el", "mean", "ms", None),
    "per user output throughput [w/ ctx] (tps/user)": ("per_user_output_throughput", "mean", "tok/s/user", None),
    "per user output throughput (tokens/sec/user)": ("per_user_output_throughput", "mean", "tok/s/user", None),
    "per gpu output throughput (tps/gpu)": ("output_throughput_per_gpu", "value", "tok/s/gpu", None),
    "per gpu output throughput (tokens/sec/gpu)": ("output_throughput_per_gpu", "value", "tok/s/gpu", None),
    "per user output speed (tps/user)": ("output_token_throughput_per_user", "mean", "tok/s/user", None),
    "per user output speed [1/tpot] (tokens/sec/user)": (
        "output_token_throughput_per_user",
        "mean",
        "tok/s/user",
        None,
    ),
    "average time-to-first-token [ttft] (ms)": ("ttft", "mean", "ms", None),
    "average time-per-output-token [tpot] (ms)": ("tpot", "mean", "ms", None),
    "issue rate (req/sec)": ("issue_rate", "value", "req/s", None),
    # the prototype (benchmarks/suite/tensorrt_llm_bench, 2024): `throughput = num_output_tokens / e2e_time`
    "throughput (tokens/second)": (
        "output_throughput",
        "value",
        "tok/s",
        "the prototype's 'Throughput': output tokens / end-to-end time",
    ),
    "first token latency (ms)": ("ttft", "mean", "ms", None),
    "token-to-token latency (ms)": ("tpot", "mean", "ms", None),
}
#: The prototype's statistics its in-flight benchmarker writes as 0 without measuring them
#: (benchmarks/suite/tensorrt_llm_bench: `first_token_latency=0, time_per_output_token=0, peak_gpu_mem=0.0`;
#: its README: "not reported in the summary (typically as 0.0)"): a 0 there is no measurement.
UNMEASURED_ZERO = {"first token latency (ms)", "token-to-token latency (ms)", "peak gpu memory usage (gb)"}
#: Statistic-block tag -> (metric, unit).
TAGS = {
    "TTFT": ("ttft", "ms"),
    "TPOT": ("tpot", "ms"),
    "GTPS": ("output_token_throughput_per_user", "tok/s/user"),
    "LATENCY": ("e2el", "ms"),
    "DT": ("spec_decode_draft_tokens", "tok"),
    "ADT": ("spec_decode_accepted_tokens", "tok"),
    "DAR": ("spec_decode_acceptance_rate", "fraction"),
    "AL": ("spec_decode_acceptance_length", "tok"),
}
#: The DECODING STATISTICS blocks' tags: draft tokens, accepted drafts, acceptance rate and length.
DRAFT_TAGS = {"DT", "ADT", "DAR", "AL"}
STATS = {"MINIMUM": "min", "MAXIMUM": "max", "AVERAGE": "mean", "P50": "p50", "P90": "p90", "P95": "p95", "P99": "p99"}
DATASET_STATS = {"MIN": "min", "MAX": "max", "AVG": "mean", "P50": "p50", "P90": "p90", "P95": "p95", "P99": "p99"}
DATASET_COLUMNS = ("dataset_input_length", "dataset_output_length", "dataset_sequence_length")
#: Setting labels -> metadata key.
META = {
    "tensorrt-llm version": "version",
    "tensorrt llm version": "version",
    "dtype": "dtype",
    "kv cache dtype": "kv_cache_dtype",
    "quantization": "quantization",
    "max input length": "max_input_length",
    "max sequence length": "max_sequence_length",
    "engine directory": "engine_dir",
    "tp size": "tp",
    "pp size": "pp",
    "ep size": "ep",
    "max runtime batch size": "max_batch_size",
    "max runtime tokens": "max_num_tokens",
    "scheduling policy": "scheduling_policy",
    "kv memory percentage": "kv_memory",
    "number of sequences": "dataset_sequences",
    "max batch size": "max_batch_size",
    "max tokens": "max_num_tokens",
}
#: Sections whose labelled numbers are measurements (cells); the others hold settings.
MEASURED = {"REQUEST DETAILS", "PERFORMANCE OVERVIEW", "DATASET DETAILS", "STATISTICS"}
#: The title of the measured section: PERFORMANCE OVERVIEW, `STATISTICS` up to 0.14.
OVERVIEWS = ("PERFORMANCE OVERVIEW", "STATISTICS")
#: The 0.16 `trtllm-bench latency` report (tab-padded): overviews and breakdowns, no PERFORMANCE OVERVIEW.
LATENCY_016 = {"GENERAL OVERVIEW", "THROUGHPUT OVERVIEW", "LATENCY OVERVIEW", "GENERATION LATENCY BREAKDOWN"}
LATENCY_016 |= {"ACCEPTANCE BREAKDOWN"}
MEASURED |= LATENCY_016
#: Labels whose meaning differs in the 0.16 latency report, checked on its own numbers (100 requests of
#: 2,048 output tokens in 6,345.6 s: 32.27 tok/s is output tokens / total latency, not input + output).
LABELS_016: dict[str, tuple[str, str, str, str | None]] = {
    "total token throughput (tokens/sec)": (
        "output_throughput",
        "value",
        "tok/s",
        "0.16 latency report 'Total Token Throughput': output tokens / total latency",
    ),
    "generation token throughput (tokens/sec)": (
        "output_token_throughput_per_user",
        "mean",
        "tok/s/user",
        "0.16 latency report: output tokens / (latency - TTFT), per request at batch 1",
    ),
    "average time-to-first-token (ms)": ("ttft", "mean", "ms", None),
    "average inter-token latency (ms)": (
        "tpot",
        "mean",
        "ms",
        "0.16 latency report: per request (latency - TTFT) / (output tokens - 1)",
    ),
    "acceptance rate (speculative)": (
        "spec_decode_acceptance_length",
        "mean",
        "tok",
        "tokens per decoding iteration (1.00 without speculative decoding)",
    ),
}
#: A row of a 0.16 breakdown section (`MIN (ms): 63266.8804`, `AVG: 1.00`).
BREAKDOWN_RE = re.compile(r"^(?P<stat>MIN|MAX|AVG|P\d+)(?:\s*\((?P<unit>ms)\))?:\s*(?P<v>\S+)\s*$")

#: A banner row; a copy through a Markdown converter escapes a line-leading `=` as `\=`.
RULE_RE = re.compile(r"^\s*\\?={20,}\s*$")
TITLE_RE = re.compile(r"^\s*(?:\\?=)?\s*(?P<t>[A-Za-z][A-Za-z0-9 +/()_.-]*?)\s*$")
#: A Markdown fence: a report pasted in a code block ends with it, closing rule or not.
FENCE_RE = re.compile(r"^\s*(```|~~~)")
LOG_RE = re.compile(r"^\[\d\d/\d\d/\d{4}-\d\d:\d\d:\d\d\] \[TRT-LLM\](?: \[RANK \d+\])? \[[A-Z]\] ?")
STAT_RE = re.compile(r"^\[(?P<tag>[A-Za-z]+)\]\s*(?P<stat>[A-Z]+\d*)\s*:\s*(?P<v>\S+)\s*$")
DATASET_ROW_RE = re.compile(r"^(?P<stat>MIN|MAX|AVG|P\d+):\s+(?P<a>\S+)\s+(?P<b>\S+)\s+(?P<c>\S+)\s*$")
LABEL_RE = re.compile(r"^(?P<label>[^:]+?)\s*:\s*(?P<v>.*?)\s*$")
VERSION_RE = re.compile(r"TensorRT-LLM version:\s*(\S+)")
#: NVIDIA's dgxc-benchmarking inference recipes write each trtllm-bench log as
#: `<Model>_TP<n>_EP<n>_PP<n>_CON<n>_<use case>_streaming-<on|off>_<job id>.out` (their README:
#: `Model_TP_EP_PP_CON_<use_case>_streaming-<on/off>_%j.out`), and their result parser prints that name
#: between `---` right above the PERFORMANCE OVERVIEW it cuts from the log: the name is the block's run.
LOG_NAME_RE = re.compile(r"^\s*-{3,}\s*(?P<name>[^\s-][^\s]*?)\s*-{3,}\s*$")
#: A setting in such a name: the parallel degrees and the concurrency, each `_KEY<n>` between `_`s.
NAME_SETTING_RE = re.compile(r"(?<=_)(?P<key>TP|EP|PP|CON)(?P<n>\d{1,5})(?=_|\.|$)")
#: A `trtllm-bench ... throughput|latency` command; one quoted as inline code ends at its closing backtick.
COMMAND_RE = re.compile(
    r"(?:^|\s)trtllm-bench\s+(.*\b(?:throughput|latency)\b.*)$|`trtllm-bench\s+([^`]*\b(?:throughput|latency)\b[^`]*)`"
)


def _norm(label: str) -> str:
    return " ".join(label.split()).lower()


def _value(text: str) -> float | None:
    """A printed number, also `nan` / `inf` (what Python prints for them); None when not a number."""
    v = number(text)
    if v is None and text.strip().lower() in ("nan", "inf", "-inf"):
        return float(text.strip())
    return v


def _sections(lines: list[str]) -> list[tuple[str, int, int, int]]:
    """(TITLE, title index, first body index, end index) of every banner section."""
    out, i, n = [], 0, len(lines)
    while i < n - 2:
        m = TITLE_RE.match(lines[i + 1]) if RULE_RE.match(lines[i]) and RULE_RE.match(lines[i + 2]) else None
        if not m:
            i += 1
            continue
        end = i + 3
        while end < n and not RULE_RE.match(lines[end]) and not FENCE_RE.match(lines[end]):
            end += 1
        out.append((m["t"].upper(), i + 1, i + 3, end))
        i = end
    return out


def _reports(sections):
    """Sections grouped into reports: each ends with a PERFORMANCE OVERVIEW, plus the DATASET
    DETAILS printed right after it."""
    reports, pending = [], []
    for sec in sections:
        title = sec[0]
        if title.startswith(OVERVIEWS[0]) or title == OVERVIEWS[1]:
            reports.append([*pending, sec])
            pending = []
        elif title == "DATASET DETAILS" and reports and not pending and reports[-1][-1][0] != title:
            reports[-1].append(sec)
        else:
            pending.append(sec)
    if any(sec[0] in LATENCY_016 for sec in pending):  # the 0.16 latency report ends with its breakdowns
        reports.append(pending)
    return reports


#: An indented line that carries on a `trtllm-bench` command wrapped without backslashes (the DeepSeek-R1
#: practice guide indents `throughput` and each `--option` under `trtllm-bench --model M`).
WRAPPED_RE = re.compile(r"^\s+(?:--?[A-Za-z]|(?:throughput|latency)\s*$)")


def _logical(lines: list[str], lo: int, hi: int) -> list[str]:
    """lines[lo:hi] with each backslash-continued command joined into one line (the docs wrap
    `trtllm-bench --model M \\` over several), and likewise the indented option lines that follow
    a `trtllm-bench` line with no backslash."""
    out: list[str] = []
    carry = ""
    for s in lines[lo:hi]:
        if s.rstrip().endswith("\\"):
            carry += s.rstrip()[:-1] + " "
            continue
        line, carry = carry + s, ""
        if out and "trtllm-bench" in out[-1] and WRAPPED_RE.match(line):
            out[-1] = out[-1].rstrip() + " " + line.strip()
            continue
        out.append(line)
    return out + ([carry] if carry else [])


#: The speculative-decoding method of an `--extra_llm_api_options` YAML shown above the report.
SPECULATIVE_RE = re.compile(r"^\s*decoding_type:\s*([A-Za-z0-9_-]+)")


def _speculative(lines: list[str], lo: int, hi: int) -> str | None:
    """The `speculative_config` decoding type (MTP, Eagle, ...) the text above the report sets."""
    for s in lines[lo:hi]:
        m = SPECULATIVE_RE.match(s)
        if m:
            return m[1]
    return None


def _command(lines: list[str], lo: int, hi: int) -> dict[str, str]:
    """Options of the nearest `trtllm-bench ... throughput|latency` command line in lines[lo:hi]
    (continuation lines joined)."""
    joined = _logical(lines, lo, hi)
    for i in range(len(joined) - 1, -1, -1):
        m = COMMAND_RE.search(joined[i])
        if not m:
            continue
        command = m[2] if m[2] is not None else m[1]
        try:
            toks = shlex.split(command)
        except ValueError:
            toks = command.split()
        opts: dict[str, str] = {}
        for k, t in enumerate(toks):
            if t in ("throughput", "latency") and "subcommand" not in opts:
                opts["subcommand"] = t
            elif t == "-m" and k + 1 < len(toks):  # trtllm-bench's short form of --model
                opts.setdefault("model", toks[k + 1])
            elif t.startswith("--"):
                key, _, val = t[2:].partition("=")
                if not val and k + 1 < len(toks) and not toks[k + 1].startswith("--"):
                    val = toks[k + 1]
                opts[key.replace("-", "_")] = val
        rest = joined[i][: m.start()] + joined[i][m.end() :]  # the line's words beside a quoted command
        for key, pattern in BESIDE.items():
            said = pattern.search(rest) if m[2] is not None else None
            if said:
                opts.setdefault(key, said[1])
        return opts
    return {}


#: Options a write-up states in words beside the command it quotes on that line (`trtllm-bench
#: throughput`, 32 reqs at conc=2): the request count and the concurrency cap.
BESIDE = {
    "concurrency": re.compile(r"\bconc(?:urrency)?\s*[=:]\s*(\d+)\b", re.I),
    "num_requests": re.compile(r"\b(\d+)\s+req(?:uest)?s\b", re.I),
}


def _model_name(model: str | None) -> str | None:
    """A model id as given; a local checkpoint folder (`/scratch/Llama-3.3-70B-Instruct/`) by its name."""
    if model and model.startswith(("/", "~", "./")):
        return model.rstrip("/").rsplit("/", 1)[-1] or None
    return model


class _Out:
    def __init__(self) -> None:
        self.records: list[dict] = []
        self.rejected: list[tuple[int, str, str]] = []
        self.messages: list[str] = []
        self.cells = 0

    def keep(self, base: dict, line: int, metric: str, statistic: str, value: float, unit: str, note=None):
        self.cells += 1
        if note == _MS_TO_S and math.isfinite(value):
            value = value / 1000.0
        if isinstance(value, float) and math.isnan(value):
            note = "not measured (printed nan)"
        self.records.append(
            {**base, "line": line, "metric": metric, "statistic": statistic, "value": value, "unit": unit, "note": note}
        )

    def reject(self, line: int, text: str, reason: str):
        self.cells += 1
        self.rejected.append((line, text, reason))


def _read_report(
    lines, secs, k, source, out: _Out, version_hint: str | None, run: str | None = None
) -> tuple[dict, dict] | None:
    """The records of one report (named `run`, else `report k`); (its settings, its metadata), or
    None when it holds no number."""
    meta: dict[str, str] = {}
    model = dataset = None
    items: list[tuple[int, str, str, str]] = []  # (line, section, kind, text) of the measured lines
    if k == 1 and not any(t == "REQUEST INFORMATION" for t, *_ in secs):
        # a first report cut inside its REQUEST INFORMATION block keeps the block's lines above its banners
        for i in range(0, max(0, secs[0][1] - 1)):
            lm = LABEL_RE.match(lines[i].strip())
            if lm and _norm(lm["label"]) == "issue rate (req/sec)":
                items.append((i + 1, "REQUEST INFORMATION", "label", lines[i].strip()))
        # the settings of a section copied without its banner: the labelled lines right above the first one
        top = secs[0][1] - 1
        while top > 0 and LABEL_RE.match(lines[top - 1].strip()):
            top -= 1
        for lm in (LABEL_RE.match(s.strip()) for s in lines[top : secs[0][1] - 1]):
            if _norm(lm["label"]) in META:
                meta[META[_norm(lm["label"])]] = lm["v"]
    for title, _title_at, lo, hi in secs:
        if title in ("ENGINE DETAILS", "PYTORCH BACKEND", "AUTODEPLOY BACKEND"):
            meta["backend"] = "TRT" if title == "ENGINE DETAILS" else title.split()[0].lower()
        if title == "MACHINE DETAILS":
            first = next((s.strip() for s in lines[lo:hi] if s.strip()), None)
            if first:
                meta["machine"] = first
            continue
        if title.startswith("DECODING STATISTICS"):
            meta["decoding"] = title.partition("(")[2].rstrip(")") or None
        for i in range(lo, hi):
            s = lines[i].strip()
            if not s or s.startswith("--"):
                continue
            sm = STAT_RE.match(s)
            if sm:
                items.append((i + 1, title, "stat", s))
                continue
            if title == "DATASET DETAILS" and DATASET_ROW_RE.match(s):
                items.append((i + 1, title, "dataset", s))
                continue
            if title in ("GENERATION LATENCY BREAKDOWN", "ACCEPTANCE BREAKDOWN") and BREAKDOWN_RE.match(s):
                items.append((i + 1, title, "breakdown", s))
                continue
            lm = LABEL_RE.match(s)
            if not lm:
                continue
            key, val = _norm(lm["label"]), lm["v"]
            if key == "model":
                model = val or None
            elif key == "dataset path":
                dataset = val or None
            elif title in LATENCY_016 and key in LABELS_016:
                items.append((i + 1, title, "label016", s))
            elif key in LABELS and (title in MEASURED or key == "issue rate (req/sec)"):
                items.append((i + 1, title, "label", s))
            elif key in META:
                meta[META[key]] = val
            elif title in MEASURED and _value(val) is not None:
                items.append((i + 1, title, "unknown", s))
    cmd = _command(lines, 0, secs[0][1])
    if "version" not in meta and version_hint:
        meta["version"] = version_hint
    if cmd.get("subcommand"):
        meta["subcommand"] = cmd["subcommand"]
    if "streaming" in cmd:
        meta["streaming"] = "yes"
    for key in ("tp", "pp", "ep"):  # the report's WORLD section first, else the command's --tp/--pp/--ep
        if meta.get(key) in (None, "", "None") and cmd.get(key):
            meta[key] = cmd[key]
    spec = _speculative(lines, 0, secs[0][1])
    if spec and "speculative" not in meta:
        meta["speculative"] = spec
    # the tool prints its draft statistics only with a draft length above 0 (`get_max_draft_len() > 0`)
    drafted = any(k == "stat" and STAT_RE.match(s)["tag"].upper() in DRAFT_TAGS for _i, _t, k, s in items)
    if drafted and "speculative" not in meta:
        meta["speculative"] = meta.get("decoding") or "speculative decoding"

    def opt(name):
        v = number(cmd.get(name, "") or "")
        return v if v is not None else math.nan

    base = run_settings(
        run or f"report {k}",
        "text",
        model=_model_name(model if model not in (None, "None") else cmd.get("model") or None),
        dataset=dataset or cmd.get("dataset") or None,
        num_prompts=opt("num_requests"),
        max_concurrency=opt("concurrency"),
        metadata="; ".join(f"{a}={b}" for a, b in meta.items() if b) or None,
    )
    if _name_settings(run, base, meta):
        base["metadata"] = "; ".join(f"{a}={b}" for a, b in meta.items() if b) or None
    before, first = out.cells, len(out.records)
    for line, _title, kind, s in items:
        if kind == "stat":
            m = STAT_RE.match(s)
            tag, stat, v = m["tag"].upper(), m["stat"], _value(m["v"])
            if v is None:
                out.messages.append(f"{source}:{line}: {s!r} holds no number; skipped")
            elif tag not in TAGS or stat not in STATS:
                out.reject(line, s, f"statistic [{m['tag']}] {stat} has no tidy name in the trtllm-bench parser")
            else:
                out.keep(base, line, TAGS[tag][0], STATS[stat], v, TAGS[tag][1])
        elif kind == "breakdown":
            m = BREAKDOWN_RE.match(s)
            v, stat = _value(m["v"]), DATASET_STATS.get(m["stat"])
            if _title == "GENERATION LATENCY BREAKDOWN":  # request latency minus TTFT: no tidy metric
                out.reject(line, s, "generation latency (request latency minus TTFT) has no tidy name; set aside")
            elif v is None or stat is None:
                out.reject(line, s, f"{m['stat']} is not a tidy statistic")
            else:
                out.keep(base, line, "spec_decode_acceptance_length", stat, v, "tok", "tokens per decoding iteration")
        elif kind == "label016":
            lm = LABEL_RE.match(s)
            v = _value(lm["v"])
            if v is None:
                out.messages.append(f"{source}:{line}: {lm['label'].strip()} is {lm['v']!r}, not a number; skipped")
            else:
                metric, stat, unit, note = LABELS_016[_norm(lm["label"])]
                out.keep(base, line, metric, stat, v, unit, note)
        elif kind == "dataset":
            m = DATASET_ROW_RE.match(s)
            for metric, cell in zip(DATASET_COLUMNS, (m["a"], m["b"], m["c"]), strict=True):
                v = _value(cell)
                if v is None:
                    continue
                if m["stat"] in DATASET_STATS:
                    out.keep(base, line, metric, DATASET_STATS[m["stat"]], v, "tok")
                else:
                    out.reject(line, f"{m['stat']} {cell}", f"{m['stat']} is not a tidy statistic")
        else:
            lm = LABEL_RE.match(s)
            v = _value(lm["v"])
            if v == 0 and _norm(lm["label"]) in UNMEASURED_ZERO:
                out.reject(line, s, "written as 0 by the prototype's in-flight benchmarker, which does not measure it")
            elif kind == "unknown":
                out.reject(line, s, f"label {lm['label'].strip()!r} not known to the trtllm-bench parser")
            elif v is None:
                out.messages.append(f"{source}:{line}: {lm['label'].strip()} is {lm['v']!r}, not a number; skipped")
            else:
                metric, stat, unit, note = LABELS[_norm(lm["label"])]
                out.keep(base, line, metric, stat, v, unit, note)
    _burst(out, first, source)
    return (base, meta) if out.cells > before else None


#: A floor under any model request's latency (ms): one GPU kernel launch alone takes microseconds.
FASTEST_REQUEST_MS = 1e-3


def _name_settings(run: str | None, base: dict, meta: dict) -> bool:
    """The settings a dgxc log name gives its block (`LOG_NAME_RE`), where the block prints none of
    its own: the model (the name's first field), TP/EP/PP, the concurrency (`CON<n>`, the
    recipe's `--concurrency`) and the use case after it as the dataset (chat, reasoning, summarization:
    the recipe's input and output lengths, so blocks of two use cases are two workloads, not loads of
    one sweep).
    Whether the name is one."""
    found = {m["key"]: m["n"] for m in NAME_SETTING_RE.finditer(run or "")}
    if "CON" not in found:  # not a dgxc log name: a heading or column names no setting
        return False
    for key in ("tp", "ep", "pp"):
        if meta.get(key) in (None, "", "None") and key.upper() in found:
            meta[key] = found[key.upper()]
    if math.isnan(base["max_concurrency"]):
        base["max_concurrency"] = float(found["CON"])
    fields = run.split("_")
    after = fields[fields.index(f"CON{found['CON']}") + 1 :]
    if after and not after[0].startswith("streaming") and base["dataset"] is None:
        base["dataset"] = after[0]
    if base["model"] is None:
        base["model"] = _model_name(run.split("_", 1)[0])
    return True


def _burst(out: _Out, first: int, source: str) -> None:
    """The tool prints `Issue Rate` as requests over the span in which it enqueued them
    (`stats.issue_rate_ns * 1e9`). When that span, requests / issue rate, is shorter than the fastest
    request's latency, every request was issued before the first one finished: the load is an
    unlimited request rate, stated by the report, not assumed. Where the report lacks its request
    count, it is request throughput x total latency (the tool's throughput is the one over the other)."""
    recs = out.records[first:]

    def one(metric: str, stats: tuple[str, ...]) -> tuple[float, int] | None:
        for stat in stats:
            got = [(r["value"], r["line"]) for r in recs if r["metric"] == metric and r["statistic"] == stat]
            if got and math.isfinite(got[0][0]) and got[0][0] > 0:
                return got[0]
        return None

    rate, n, lat = one("issue_rate", ("value",)), one("completed", ("count",)), one("e2el", ("min", "mean"))
    if n is None:  # no REQUEST INFORMATION block: the tool's request throughput is completed / total latency
        tput, span = one("request_throughput", ("value",)), one("duration", ("value",))
        n = (tput[0] * span[0], tput[1]) if tput and span else None
    # a report without per-request latencies (0.16 and older print none): no request of a model
    # finishes within a microsecond (one kernel launch takes longer), so a span below it is a burst too
    floor = lat[0] if lat else FASTEST_REQUEST_MS
    if not (rate and n) or n[0] / rate[0] >= floor / 1000.0:
        return
    for r in recs:
        r["request_rate"] = math.inf
    when = f"before the first finished ({lat[0]:g} ms)" if lat else "faster than any request can finish"
    out.messages.append(
        f"{source}:{rate[1]}: Issue Rate {rate[0]:.4g} req/s: the {n[0]:g} requests were enqueued within "
        f"{n[0] / rate[0]:.2g} s, {when}: an unlimited request rate (all at once)"
    )


#: A row of a PERFORMANCE OVERVIEW pasted as a Markdown table (`Request Throughput (req/sec): | 0.9765 | 0.9812`):
#: the label, then one cell per run compared.
TABLE_ROW_RE = re.compile(r"^\s*(?P<label>[A-Za-z][^|]*?:)\s*\|(?P<cells>.*?)\|?\s*$")


def _columns(lines: list[str], secs, source: str) -> list[tuple[str | None, list[str], list]]:
    """A report whose PERFORMANCE OVERVIEW was pasted as a Markdown table of N value columns (N runs
    of one configuration side by side, as a pull request compares two branches) as N reports:
    (run name, lines, sections), each with the table's rows as `Label: value` of its own column.
    The name is the column's, where the title's parenthesis lists one per column (`( main / ep+tp
    branch)`), else `column N`. The sections printed once above the table (REQUEST DETAILS, the
    issue rate) are read with the first column only: a later column keeps their settings, not
    their numbers. A report without such a table is itself: [(None, lines, secs)]."""
    over = next((sec for sec in secs if sec[0].startswith("PERFORMANCE OVERVIEW")), None)
    rows = [i for i in range(over[2], over[3]) if TABLE_ROW_RE.match(lines[i])] if over else []
    if not rows:
        return [(None, lines, secs)]
    cells = {i: [c.strip() for c in TABLE_ROW_RE.match(lines[i])["cells"].split("|")] for i in rows}
    n = len(cells[rows[0]])
    for i in rows:
        if len(cells[i]) != n:
            raise ParseError(
                source, i + 1, f"a PERFORMANCE OVERVIEW table row with {len(cells[i])} values where the first has {n}"
            )
    title = lines[over[1]].partition("(")[2].strip().rstrip(")").strip()  # as written, not upper-cased
    names = [t.strip() for t in title.split("/")] if title else []
    if len(names) != n or not all(names):
        names = [f"column {c}" for c in range(1, n + 1)]
    plain = [(t.partition(" (")[0] if t.startswith("PERFORMANCE OVERVIEW") else t, *rest) for t, *rest in secs]
    out = []
    for c in range(n):
        mine = list(lines)
        for i in rows:
            mine[i] = f"{TABLE_ROW_RE.match(lines[i])['label']} {cells[i][c]}"
        if c:  # the numbers printed once belong to the first column's run
            for _t, _at, lo, hi in secs:
                for i in range(lo, hi):
                    lm = LABEL_RE.match(lines[i].strip())
                    if i not in rows and lm and _norm(lm["label"]) not in META and _norm(lm["label"]) != "model":
                        mine[i] = ""
        out.append((names[c], mine, plain))
    return out


def parse(text: str | Lines, source: str) -> Parsed:
    """Every trtllm-bench report in a text (a log, a write-up or the bare report)."""
    if not isinstance(text, (str, Lines)):
        raise ParseError(source, None, "expected text")
    if search(_JSON_SNIFF_RE, text):
        report = _statistics_dict(whole(text))
        if report is not None:
            return _read_json(report, split_n(text), source)
    lines = [_restated(LOG_RE.sub("", s)) for s in split_n(text)]
    reports = _reports(_sections(lines))
    names: list[str | None] = [_log_name(lines, r[0][1]) for r in reports]
    if not reports:
        reports, names = _bare_overviews(lines)
    out = _Out()
    jobs = [
        (k, [(name or names[k - 1], mine, secs) for name, mine, secs in _columns(lines, whole_report, source)])
        for k, whole_report in enumerate(reports, 1)
    ] or list(_tabled(lines, out))
    if not jobs and _row_tables(lines, out, source):
        out.records.sort(key=lambda r: r["line"])
        return finish(TOOL, source, out.records, out.rejected, out.messages, out.cells, None)
    if not jobs:
        raise ParseError(
            source, 1, "no trtllm-bench report found: expected a '= PERFORMANCE OVERVIEW' section between rows of '='"
        )
    hint = next((m for m in map(VERSION_RE.search, lines) if m), None)
    versions = set()
    for k, columns in jobs:
        first = len(out.records)
        for name, mine, secs in columns:
            got = _read_report(mine, secs, k, source, out, hint[1] if hint else None, name)
            if got is None:
                out.messages.append(f"{source}:{secs[-1][1] + 1}: report {k} holds no number")
            elif got[1].get("version"):
                versions.add(got[1]["version"])
        # the columns of one pasted table ran one command: the load its issue rate shows is theirs
        if any(r["request_rate"] == math.inf for r in out.records[first:]):
            for r in out.records[first:]:
                r["request_rate"] = math.inf
    if not out.records and not out.rejected:
        raise ParseError(source, jobs[0][1][0][2][-1][1] + 1, "trtllm-bench report with no measured numbers")
    if not reports:  # a run's numbers in several tables are one run: the settings any of them shows are its own
        fullest: dict[str, str] = {}
        for r in out.records:
            if len(r["metadata"] or "") > len(fullest.get(r["run"], "")):
                fullest[r["run"]] = r["metadata"]
        for r in out.records:
            r["metadata"] = fullest.get(r["run"]) or r["metadata"]
    out.records.sort(key=lambda r: r["line"])
    found = sorted(versions)
    layout = "0.19+ layout (REQUEST DETAILS)" if any(s[0] == "REQUEST DETAILS" for r in reports for s in r) else None
    version = f"TensorRT-LLM {', '.join(found)}" if found else layout
    return finish(TOOL, source, out.records, out.rejected, out.messages, out.cells, version)


#: The fewest consecutive overview lines read as an overview copied without its banner.
BARE_MIN = 3


def _bare_row(line: str) -> bool:
    lm = LABEL_RE.match(line.strip())
    return bool(lm) and _norm(lm["label"]) in LABELS and _value(lm["v"]) is not None


def _bare_overviews(lines: list[str]) -> tuple[list, list[str | None]]:
    """PERFORMANCE OVERVIEWs copied without their banner rows (a write-up pasting the report's numbers
    alone): each run of at least BARE_MIN consecutive lines whose labels are the overview's own
    (`Request Throughput (req/sec):`, ... in LABELS) with a number is one report, named by the
    Markdown heading above it since the previous one, where that heading names it (`headings.names`: not
    the document's title, a form's section or the heading of every report). (reports, names) as
    `_reports` gives them."""
    reports, heads, i, last = [], [], 0, 0
    doc = outline(lines)
    while i < len(lines):
        j = i
        while j < len(lines) and _bare_row(lines[j]):
            j += 1
        if j - i >= BARE_MIN:
            reports.append([("PERFORMANCE OVERVIEW", max(i - 1, 0), i, j)])
            above = doc.within(last, i)
            heads.append(above[-1] if above else None)
            last = i = j
        else:
            i = max(j, i + 1)
    named = names(lines, [r[0][2] for r in reports], doc)
    return reports, [
        _log_name(lines, r[0][2]) or ((named.get(h) or "").strip("\"'` ") or None if h is not None else None)
        for r, h in zip(reports, heads, strict=True)
    ]


def _log_name(lines: list[str], start: int) -> str | None:
    """The dgxc log name (`LOG_NAME_RE`) on the first non-blank line above a report's first line,
    past its `= PERFORMANCE OVERVIEW` title and rules; None where that line is anything else."""
    i = start - 1
    while i >= 0 and (not lines[i].strip() or RULE_RE.match(lines[i]) or _SNIFF_RE.match(lines[i])):
        i -= 1
    m = LOG_NAME_RE.match(lines[i]) if i >= 0 else None
    return m["name"].removesuffix(".out") if m else None


#: What a write-up adds to a label or number it retypes into a table or a list: bold, code quotes,
#: Markdown's escaped brackets (`\\[w/ ctx\\]`), an HTML line break.
_DRESS_RE = re.compile(r"\*\*|`|\\(?=[\[\]])")
_BR_RE = re.compile(r"<br\s*/?>", re.I)
#: A label whose unit a write-up moved after its number (`* **Request Throughput:** 81.86 req/sec`).
UNIT_AFTER_RE = re.compile(
    r"^\s*(?:[*+-]\s+)?(?P<label>[A-Za-z][^:]*?):\s*(?P<v>\S+)\s+(?P<unit>req/sec|tokens/sec|ms|seconds|tps/gpu|tps/user)\s*$"
)


def _undressed(text: str) -> str:
    return " ".join(_DRESS_RE.sub("", _BR_RE.sub(" ", text)).split()).rstrip(":").strip()


def _restated(line: str) -> str:
    """A line of the tool's own label with its unit written after the number, as the tool prints it
    (`Request Throughput (req/sec): 81.86`); any other line as it is."""
    if not line.rstrip().endswith(("sec", "ms", "seconds", "gpu", "user")):
        return line
    m = UNIT_AFTER_RE.match(_DRESS_RE.sub("", line))
    if not m or _value(m["v"]) is None:
        return line
    label = f"{m['label'].strip()} ({m['unit']})"
    return f"{label}: {m['v']}" if _norm(label) in LABELS else line


#: The statistic blocks a write-up retypes as `<block title> <STAT>` rows (`Number of Draft Tokens P99`):
#: the block titles DECODING STATISTICS prints (`-- Number of Draft Tokens Details --`), by tag.
BLOCK_TITLES = {
    "number of draft tokens": "DT",
    "number of accepted draft tokens": "ADT",
    "draft acceptance rate": "DAR",
    "acceptance length": "AL",
}
#: A statistic as a table's row writes it (`MIN`, `P50`) -> as the block prints it (`MINIMUM`, `P50`).
TABLE_STATS = {"MIN": "MINIMUM", "MAX": "MAXIMUM", "AVG": "AVERAGE", **{s: s for s in STATS}}
#: The heading of the `[Latency]` block (`-- Request Latency Breakdown (ms) --`): a table under a heading
#: that names it holds that block's statistics, one row each.
LATENCY_BLOCK_RE = re.compile(r"request latency breakdown \(ms\)", re.I)


def _row_label(label: str, latency_block: bool) -> str | None:
    """A table row's label written as the tool prints the line (`Total Latency (ms)`, `[DT] P99`), or
    None where it names nothing the tool prints."""
    plain = _undressed(label)
    if _norm(plain) in LABELS:
        return plain
    block, _, stat = plain.rpartition(" ")
    if _norm(block) in BLOCK_TITLES and stat.upper() in TABLE_STATS:
        return f"[{BLOCK_TITLES[_norm(block)]}] {TABLE_STATS[stat.upper()]}"
    if latency_block and not block and plain.upper() in TABLE_STATS:
        return f"[Latency] {TABLE_STATS[plain.upper()]}"
    return None


def _tables(lines: list[str]):
    """Markdown tables of the tool's numbers with one run per value column (a write-up setting two runs
    side by side): rows whose first cell is a label the tool prints (`_row_label`), at least BARE_MIN
    of them, each with a number in every run column. Yields (header index, end index, run columns by
    index and header, rows {index: (label as printed, cells)}, the other columns' indices)."""
    doc = None
    for i, end in markdown_tables(lines):
        doc = doc or outline(lines)
        near = doc.nearest(i)
        latency = near is not None and bool(LATENCY_BLOCK_RE.search(doc.heads[near][1]))
        head = markdown_cells(lines[i])
        rows = {}
        for j in range(i + 2, end):
            cells = markdown_cells(lines[j])
            label = _row_label(cells[0], latency) if len(cells) == len(head) else None
            if label:
                rows[j] = (label, [_undressed(c) for c in cells])
        runs = {c: _undressed(head[c]) for c in range(1, len(head))}
        runs = {c: h for c, h in runs.items() if rows and all(_value(r[1][c]) is not None for r in rows.values())}
        if len(rows) >= BARE_MIN and runs:
            yield i, end, runs, rows, [c for c in range(1, len(head)) if c not in runs]


def _tabled(lines: list[str], out: _Out):
    """The reports of `_tables`, as `_columns` gives them: (run name, lines, sections) for each run
    column, its rows written `Label: value`. A column named by the start of an earlier one (`base` after
    `base (TRTLLM)`) is that run. The numbers of the other columns (a difference, `+4.2%`) are rejected."""
    known: list[str] = []
    for k, (lo, hi, runs, rows, others) in enumerate(_tables(lines), 1):
        columns = []
        for c, head in runs.items():
            name = next((n for n in known if head and (n == head or n.partition(" (")[0] == head)), None)
            if name is None:
                name = head or f"column {c}"
                known.append(name)
            mine = list(lines)
            for j in range(lo + 2, hi):
                mine[j] = f"{rows[j][0]}: {rows[j][1][c]}" if j in rows else ""
            columns.append((name, mine, [("PERFORMANCE OVERVIEW", lo, lo + 2, hi)]))
        for j, (_label, cells) in rows.items():
            for c in others:
                if re.search(r"\d", cells[c]):
                    out.reject(j + 1, cells[c], "a column that is no run's (a difference between runs); set aside")
        yield k, columns


#: A number printed with a space between its thousands (`13 484`, `1 046.14`).
SPACED_RE = re.compile(r"^\d{1,3}(?: \d{3})+(?:\.\d+)?$")
#: The words write-ups shorten the report's labels to (`Req/s`, `Output TPS`, `Avg Latency`, `TPS/GPU`): `tps`
#: is the report's own for tokens per second (`(tps/gpu)`, `(tps/user)`).
_WORDS = {"req": "request", "reqs": "request", "avg": "average", "tps": "throughput", "tok/s": "tokens/sec"}
_WORDS |= {"req/s": "req/sec", "tput": "throughput"}
#: A column of runs' settings, by its header's words: the key a `trtllm-bench` command would give it.
SETTING_HEADERS = {"con.": "concurrency", "con": "concurrency", "concurrency": "concurrency", "#reqs": "num_requests"}
SETTING_HEADERS |= {"requests": "num_requests", "reqs": "num_requests", "#requests": "num_requests"}
SETTING_HEADERS |= {"input": "input", "input len": "input", "output": "output", "output len": "output"}


def _header_label(cell: str, header: list[str]) -> str | None:
    """The report's label a column header shortens, by its unit and words: `Req/s` is `Request Throughput
    (req/sec)`, `Output TPS (tok/s)` `Total Output Throughput (tokens/sec)`, `TPS/GPU` and `TPS/User` the per-GPU
    and per-user output throughputs, `Avg Latency (ms)` and `Total Latency (ms)` the two latencies. `Token TPS`
    is `Total Token Throughput` only beside an output throughput column: alone it may be 0.17's `Token
    Throughput`, output tokens only. None for anything else."""
    text = _undressed(cell).lower()
    unit = text.rpartition("(")[2].rstrip(")").strip() if text.endswith(")") else ""
    words = {_WORDS.get(w, w) for w in text.partition("(")[0].replace("/", " /").split()}
    unit = _WORDS.get(unit, unit)
    if text in ("req/s", "req/sec") or (unit == "req/sec" and words <= {"request", "throughput"}):
        return "request throughput (req/sec)"
    if words & {"/gpu", "/user"} and "throughput" in words:
        return (
            "per gpu output throughput (tps/gpu)"
            if "/gpu" in words
            else "per user output throughput [w/ ctx] (tps/user)"
        )
    if unit == "tokens/sec" and "throughput" in words:
        if "output" in words:
            return "total output throughput (tokens/sec)"
        beside = any("output" in _undressed(h).lower() and "tps" in _undressed(h).lower() for h in header)
        return "total token throughput (tokens/sec)" if "token" in words and beside else None
    if unit == "ms" and "latency" in words:
        return (
            "total latency (ms)" if "total" in words else "average request latency (ms)" if "average" in words else None
        )
    return None


def _row_tables(lines: list[str], out: _Out, source: str) -> int:
    """Markdown tables with one run a row whose column headers shorten the report's labels (`_header_label`, at
    least BARE_MIN of them), in a text naming trtllm-bench: each row's numbers are kept as its run's, its other
    cells (`C1`, `5 k × 500`, `BF16`) name it; its setting columns (`Con.`, `#Reqs`, `Input`, `Output`) set its
    concurrency, request count and lengths, and a two-column table above (`| Concurrency | 1 |`) sets them for
    every row. A last row the copy cuts short is another run, set aside unread. The number of runs read."""
    above: dict[str, str] = {}
    runs = 0
    for i, end in markdown_tables(lines):
        head = markdown_cells(lines[i])
        if len(head) == 2:  # a table of settings: key | value
            for j in range(i + 2, end):
                k, _, v = (c.strip() for c in lines[j].strip().strip("|").partition("|"))
                if _undressed(k).lower() in SETTING_HEADERS and number(_undressed(v)) is not None:
                    above[SETTING_HEADERS[_undressed(k).lower()]] = _undressed(v)
        labels = {c: _header_label(h, head) for c, h in enumerate(head)}
        labels = {c: lab for c, lab in labels.items() if lab}
        if len(labels) >= BARE_MIN:
            runs += _rows(lines, i, end, head, labels, above, out, source)
    return runs


def _cell_number(cell: str) -> float | None:
    plain = _undressed(cell)
    return _value(plain.replace(" ", "")) if SPACED_RE.match(plain) else _value(plain)


def _rows(lines, at: int, end: int, head, labels, above, out: _Out, source: str) -> int:
    settings = {c: SETTING_HEADERS.get(_undressed(h).lower()) for c, h in enumerate(head) if c not in labels}
    cmd = _command(lines, 0, at)
    runs = 0
    for j in range(at + 2, end):
        cells = markdown_cells(lines[j])
        if len(cells) != len(head):
            if copy_ends(lines, j):  # a run of its own, unread: not the end of the row above
                out.reject(
                    j + 1, lines[j].strip()[:80], "a table row the copy cuts short (the file's last line): not read"
                )
            continue
        said = dict(above) | {settings[c]: _undressed(cells[c]) for c in settings if settings[c]}
        name = " ".join(_undressed(cells[c]) for c in settings if not settings[c] and _undressed(cells[c]))
        inp, outp = said.get("input"), said.get("output")
        base = run_settings(
            name or f"row {j + 1}",
            "text",
            model=_model_name(cmd.get("model")),
            dataset=f"input {inp} / output {outp} tokens" if inp and outp else None,
            num_prompts=_cell_number(said.get("num_requests", "")) or math.nan,
            max_concurrency=_cell_number(said.get("concurrency", "")) or math.nan,
        )
        for c, label in labels.items():
            v = _cell_number(cells[c])
            if v is None:
                if re.search(r"\d", cells[c]):
                    out.reject(j + 1, cells[c], f"{_undressed(head[c])!r} holds no number here")
                continue
            metric, stat, unit, note = LABELS[label]
            if note == _MS_TO_S:  # `keep` converts only under this note alone
                v, note = v / 1000.0, "printed as Total Latency (ms), converted to s"
            spaced = f"printed {_undressed(cells[c])!r}" if SPACED_RE.match(_undressed(cells[c])) else None
            out.keep(base, j + 1, metric, stat, v, unit, "; ".join(x for x in (note, spaced) if x) or None)
        runs += 1
    return runs


#: The overview's title line; a copy through a Markdown renderer loses its `= ` and may keep a
#: parenthesis naming the runs compared (`PERFORMANCE OVERVIEW ( main / ep+tp branch)`).
_SNIFF_RE = re.compile(
    r"^\s*=?\s*(?:PERFORMANCE|LATENCY) OVERVIEW(?:\s*\([^()\n]*\))?\s*$|^\s*\\?= STATISTICS\s*$", re.M
)
_SNIFF_LABEL_RE = re.compile(
    r"Request Throughput \(req/sec\):|\[(?:TTFT|Latency)\] (?:P50|AVERAGE)|Total Latency \((?:ms|seconds)\):"
)


def sniff(text: str | Lines) -> bool:
    """True for a text holding a trtllm-bench PERFORMANCE OVERVIEW banner and its numbers, the JSON of
    `--report_json` (`_statistics_dict`), or, where the text names `trtllm-bench`, the overview's lines
    alone (`_bare_overviews`, a unit moved after the number too) or a table of them (`_tables`)."""
    if search(_SNIFF_RE, text) and search(_SNIFF_LABEL_RE, text):
        return True
    if search(_JSON_SNIFF_RE, text) and _statistics_dict(whole(text)) is not None:
        return True
    if not search(COMMAND_SNIFF_RE, text):
        return False
    if search(_BARE_SNIFF_RE, text) or search(_UNIT_AFTER_SNIFF_RE, text):
        if _bare_overviews([_restated(s) for s in split_n(text)])[0]:
            return True
    lines = list(split_n(text))
    if search(_TABLE_SNIFF_RE, text) and next(_tables(lines), None) is not None:
        return True
    return bool(search(_ROWS_SNIFF_RE, text)) and _row_tables(lines, _Out(), "") > 0


#: A header row of a table with one run a row: a `Req/s` or `req/s` column.
_ROWS_SNIFF_RE = re.compile(r"(?im)^\s*\|.*\breq/s(?:ec)?\b.*\|\s*$")


_BARE_SNIFF_RE = re.compile(r"(?m)^\s*Per GPU Output Throughput \((?:tps/gpu|tokens/sec/gpu)\):\s*\d")
_UNIT_AFTER_SNIFF_RE = re.compile(r"(?m)Request Throughput:(?:\*\*)?\s*[\d.]+\s*req/sec\s*$")
_TABLE_SNIFF_RE = re.compile(
    r"(?m)^\s*\|\s*(?:\*\*)?(?:Request Throughput \(req/sec\)|Total (?:Output |Token )?Throughput \(tokens/sec\)"
    r"|Per (?:GPU|User) Output Throughput|Number of (?:Accepted )?Draft Tokens)"
)
COMMAND_SNIFF_RE = re.compile(r"\btrtllm-bench\b")


#: trtllm-bench's first log lines (tensorrt_llm/bench/benchmark: the version, then `Preparing to run throughput
#: benchmark...` or `... latency benchmark...`); its report (ENGINE DETAILS ... PERFORMANCE OVERVIEW) comes last.
_STARTED_RE = re.compile(r"\[TRT-LLM\] \[I\] Preparing to run (?:throughput|latency) benchmark")


def refuses(text: str | Lines) -> tuple[int, str] | None:
    """(line, why) of the last line of a trtllm-bench run that logged its start and no report after it
    (`Tool.refuses`): the run stopped, or the copy ends, before the tool printed a result; else None."""
    if search(_SNIFF_RE, text):
        return None
    lines = split_n(whole(text))
    if not any(_STARTED_RE.search(x) for x in lines):
        return None
    last = max(i for i, x in enumerate(lines, start=1) if x.strip())
    return last, (
        "a trtllm-bench run that logged its start (`Preparing to run ... benchmark`) and no report after it "
        "(no PERFORMANCE OVERVIEW): the run stopped, or the copy ends, before the tool printed a result"
    )


#: `trtllm-bench ... --report_json FILE` writes the dictionary its text report is printed from
#: (tensorrt_llm/bench/dataclasses/reporting.py, `ReportUtility.get_statistics_dict`): `engine`, `machine`,
#: `world_info`, `request_info`, `performance`, `streaming_metrics` (with --streaming), `decoding_stats` (with
#: speculative decoding) and `dataset`, each a section of the text report under its own key (`report_statistics`
#: prints `perf['request_throughput_req_s']` as `Request Throughput (req/sec)`, and so on). Key -> (metric,
#: statistic, unit, note), as the text's labels.
JSON_VALUES: dict[tuple[str, str], tuple[str, str, str, str | None]] = {
    ("request_info", "num_requests"): ("completed", "count", "req", None),
    ("request_info", "avg_num_concurrent_requests"): ("concurrent_requests", "mean", "req", None),
    ("request_info", "avg_input_length"): ("input_length", "mean", "tok", None),
    ("request_info", "avg_output_length"): ("output_length", "mean", "tok", None),
    ("world_info", "issue_rate"): ("issue_rate", "value", "req/s", None),
    ("performance", "total_latency_ms"): ("duration", "value", "s", _MS_TO_S),
    ("performance", "avg_request_latency_ms"): ("e2el", "mean", "ms", None),
    ("performance", "request_throughput_req_s"): ("request_throughput", "value", "req/s", None),
    ("performance", "system_output_throughput_tok_s"): ("output_throughput", "value", "tok/s", None),
    ("performance", "system_total_throughput_tok_s"): ("total_token_throughput", "value", "tok/s", None),
    ("performance", "output_throughput_per_user_tok_s"): ("per_user_output_throughput", "mean", "tok/s/user", None),
    ("performance", "output_throughput_per_gpu_tok_s"): ("output_throughput_per_gpu", "value", "tok/s/gpu", None),
    ("streaming_metrics", "token_output_speed_tok_s"): ("output_token_throughput_per_user", "mean", "tok/s/user", None),
    ("streaming_metrics", "avg_ttft_ms"): ("ttft", "mean", "ms", None),
    ("streaming_metrics", "avg_tpot_ms"): ("tpot", "mean", "ms", None),
}
#: The percentile blocks ([Latency], [TPOT], [TTFT], [GTPS] and the dataset table of the text): key -> (metric, unit).
JSON_BLOCKS: dict[tuple[str, str], tuple[str, str]] = {
    ("performance", "request_latency_percentiles_ms"): ("e2el", "ms"),
    ("streaming_metrics", "ttft_percentiles"): ("ttft", "ms"),
    ("streaming_metrics", "tpot_percentiles"): ("tpot", "ms"),
    ("streaming_metrics", "gen_tps_percentiles"): ("output_token_throughput_per_user", "tok/s/user"),
    ("dataset", "isl_stats"): ("dataset_input_length", "tok"),
    ("dataset", "osl_stats"): ("dataset_output_length", "tok"),
    ("dataset", "seq_len_stats"): ("dataset_sequence_length", "tok"),
    # with speculative decoding (`decoding_stats`, its `mode` the decoding type): the [DT]/[ADT]/[DAR]/[AL] blocks
    ("decoding_stats", "num_draft_tokens_percentiles"): ("spec_decode_draft_tokens", "tok"),
    ("decoding_stats", "num_accepted_draft_tokens_percentiles"): ("spec_decode_accepted_tokens", "tok"),
    ("decoding_stats", "draft_acceptance_rate_percentiles"): ("spec_decode_acceptance_rate", "fraction"),
    ("decoding_stats", "acceptance_length_percentiles"): ("spec_decode_acceptance_length", "tok"),
}
JSON_STATS = {"minimum": "min", "maximum": "max", "average": "mean", "p50": "p50", "p90": "p90", "p95": "p95"}
JSON_STATS["p99"] = "p99"
#: Settings: (section, key) -> metadata key, as the text's ENGINE DETAILS and WORLD + RUNTIME INFORMATION.
JSON_META = {
    ("engine", "version"): "version",
    ("engine", "backend"): "backend",
    ("engine", "dtype"): "dtype",
    ("engine", "kv_cache_dtype"): "kv_cache_dtype",
    ("engine", "quantization"): "quantization",
    ("engine", "max_input_length"): "max_input_length",
    ("engine", "max_sequence_length"): "max_sequence_length",
    ("machine", "name"): "machine",
    ("world_info", "tp_size"): "tp",
    ("world_info", "pp_size"): "pp",
    ("world_info", "ep_size"): "ep",
    ("world_info", "max_batch_size"): "max_batch_size",
    ("world_info", "max_num_tokens"): "max_num_tokens",
    ("world_info", "scheduling_policy"): "scheduling_policy",
    ("world_info", "kv_cache_percentage"): "kv_memory",
}
#: The sections whose numbers are measurements (cells); `engine`, `machine`, `world_info` (but its issue
#: rate) and the dataset's scalars echo settings.
JSON_MEASURED = {"request_info", "performance", "streaming_metrics", "decoding_stats"}
_JSON_SNIFF_RE = re.compile(r'"world_info"\s*:')


def _statistics_dict(text: str) -> dict | None:
    """The `--report_json` object: a JSON object with `world_info`, `request_info` and `performance`
    objects (the sections every report has); None for any other text."""
    import json

    try:
        doc = json.loads(text)
    except ValueError:
        return None
    need = ("world_info", "request_info", "performance")
    if isinstance(doc, dict) and all(isinstance(doc.get(k), dict) for k in need):
        return doc
    return None


def _json_lines(lines: list[str]) -> dict[tuple[str, str], int]:
    """(section, key) -> the 1-based line of `"key":` inside `"section": {` (the tool writes one key a
    line, indented), so that each number cites its line."""
    at: dict[tuple[str, str], int] = {}
    section = None
    for i, s in enumerate(lines, 1):
        m = re.match(r'^(\s*)"(?P<k>[^"]+)"\s*:', s)
        if not m:
            continue
        if len(m.group(1)) <= 4 and s.rstrip().endswith("{"):
            section = m["k"]
        elif section is not None:
            at.setdefault((section, m["k"]), i)
    return at


def _read_json(doc: dict, lines, source: str) -> Parsed:
    """The one run of a `--report_json` file, mapped as its text report's labels (JSON_VALUES, JSON_BLOCKS),
    each number at the line of its key; an unknown number of a measured section is rejected, named."""
    lines = list(lines)
    at = _json_lines(lines)
    out = _Out()
    meta: dict[str, str] = {}
    for (sec, key), name in JSON_META.items():
        v = (doc.get(sec) or {}).get(key)
        if v not in (None, "", "None"):
            meta[name] = str(v)
    mode = (doc.get("decoding_stats") or {}).get("mode")
    if mode not in (None, "", "None"):
        meta["speculative"] = str(mode)
    engine = doc.get("engine") or {}
    model = engine.get("model") if engine.get("model") not in (None, "None") else engine.get("model_path")
    dataset = (doc.get("dataset") or {}).get("dataset_path")
    base = run_settings(
        "report 1",
        "json",
        model=_model_name(model if model not in (None, "None") else None),
        dataset=dataset if dataset not in (None, "None") else None,
        metadata="; ".join(f"{a}={b}" for a, b in meta.items() if b) or None,
    )
    for sec, body in doc.items():
        if not isinstance(body, dict):
            continue
        for key, v in body.items():
            line = at.get((sec, key), 1)
            if (sec, key) in JSON_VALUES and isinstance(v, (int, float)):
                metric, stat, unit, note = JSON_VALUES[(sec, key)]
                out.keep(base, line, metric, stat, float(v), unit, note)
            elif (sec, key) in JSON_BLOCKS and isinstance(v, dict):
                metric, unit = JSON_BLOCKS[(sec, key)]
                for stat, x in v.items():
                    if not isinstance(x, (int, float)):
                        continue
                    if stat in JSON_STATS:
                        out.keep(base, line, metric, JSON_STATS[stat], float(x), unit)
                    else:
                        out.reject(line, f"{sec}.{key}.{stat}: {x}", f"{stat} is not a tidy statistic")
            elif sec in JSON_MEASURED and isinstance(v, (int, float)) and not isinstance(v, bool):
                out.reject(line, f"{sec}.{key}: {v}", f"key {sec}.{key} not known to the trtllm-bench parser")
    _burst(out, 0, source)
    out.records.sort(key=lambda r: r["line"])
    version = f"TensorRT-LLM {meta['version']}" if meta.get("version") else None
    return finish(TOOL, source, out.records, out.rejected, out.messages, out.cells, version)


TOOL = register(
    Tool(
        name=NAME,
        settings=SETTINGS,
        sniff=sniff,
        parse=parse,
        refuses=refuses,
        description="TensorRT-LLM `trtllm-bench throughput` / `trtllm-bench latency` reports, 0.16 to 1.x "
        "(PERFORMANCE OVERVIEW, [TTFT]/[TPOT]/[Latency] percentile blocks, or the `--report_json` object; "
        "serving contract)",
        metrics=METRICS,
        command="trtllm-bench --model MODEL throughput|latency --dataset DATA.jsonl [--streaming --concurrency N]",
    )
)
