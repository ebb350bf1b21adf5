"""NVIDIA GenAI-Perf (`genai-perf profile`, the Triton perf_analyzer wrapper that AIPerf replaced),
in the serving contract of vllm-bench-serve.

Four forms are read:

* `profile_export_genai_perf.json`: metric dicts at the top level, `{"time_to_first_token":
  {"unit": "ms", "avg", "p25" ... "p99", "min", "max", "std"}, ...}`, once-per-run metrics with
  only `avg` (`request_throughput`, `output_token_throughput`, later `request_count`,
  `request_goodput`), and a flat `input_config` (model list, concurrency, request_rate,
  request_count, streaming). AIPerf's export (`records`, `aiperf_version`, `schema_version`,
  nested `endpoint.model_names`) is the aiperf tool's.
* `profile_export_genai_perf.csv`: sections separated by blank lines (CRLF as written; LF where
  copied), `Metric,avg,min,max,p99,p95,...` (percentiles in descending order, unlike AIPerf's)
  then `Metric,Value`; numbers above 999 quoted with thousands separators (`"5,919.16"`); later
  sections (per-GPU telemetry `Metric,GPU,...`) are not read and their numbers are rejected.
* the console table (rich box drawing) under `NVIDIA GenAI-Perf | LLM Metrics`, wherever it stands
  in a log: `┃ Statistic ┃ avg ┃ min ┃ max ┃ p99 ┃ p90 ┃ p75 ┃`, rows `│ Time To First Token (ms) │
  1,193.02 │ ...`, `N/A` for statistics a once-per-run metric does not have, a long label wrapped
  onto a second row with empty cells, a cell cut by a narrow terminal (`11.…`, rejected). The
  perf_analyzer lines printed above it (`Throughput: 0.19 infer/sec`, latencies in usec) measure
  the same requests and are not read (a message says so). Settings come from the log: the model
  (`Profiling these models: X`), `--concurrency-range` / `--request-rate-range` of the perf_analyzer
  command, or the `genai-perf profile` command line; a table whose mean input is more than `WORKLOAD_SPREAD`
  from the length that log asks for is another workload's run, and takes nothing of it (`Parsed.others`).
* the legacy console (early GenAI-Perf, `console_exporter.py`): the same table titled `LLM Metrics`
  alone, avg/min/max/p99/p90/p75 columns, and the once-per-run throughputs printed after it as
  `Output token throughput (per sec): 2548.18` and `Request throughput (per sec): 509.64`. Not
  streamed, it printed no TTFT (equal to the request latency) and no inter-token latency.

* `analyze_export_genai_perf.csv` (`genai-perf analyze`, its docs' "Summary Report CSV"): one row per
  run config of a sweep (`Config Name` as `<model>_run_config_<n>`, then its settings, `Concurrency`,
  `ISL`, `Num Dataset Entries`, `Request Rate` where swept), p99 latencies and average throughputs
  (`p99 Time To First Token (ms)`, `Avg. Output Token Throughput (tokens/sec)`); a second table of the GPU
  telemetry per config and GPU, whose numbers are set aside (`genai_perf_telemetry` reads telemetry).

Mapping (GenAI-Perf's definitions, the same as AIPerf's): "Request Latency" -> `e2el`, "Time To
First Token" -> `ttft`, "Inter Token Latency" (per request (latency - TTFT) / (output tokens - 1))
-> `tpot`, "Time To Second Token" -> `ttst`, "Output Token Throughput" -> `output_throughput`,
"Request Count" -> `completed`, "Output Token Throughput Per User/Request" ->
`output_token_throughput_per_user`; other rows keep their label in snake case. Labels changed case
across versions ("Time to first token" in 2024, "Time To First Token" from 0.0.8) and units moved
into the label ("Output Sequence Length (tokens)", "Output Token Throughput (tokens/sec)"); all are
read. "(per sec)" is tokens/s for token throughput and requests/s for request throughput.

Counting (cells_read == kept + rejected): every number of the metrics table is a cell; `N/A` is no
number. Every percentile keeps its rank (p1, p5, p10, p25, p75 as printed: `core.percentile`). A run
where every request failed (request count 0, or throughput 0 with no latency) is reported in the
messages; nothing is divided here, and a zero throughput stays a measured zero.
"""

from __future__ import annotations

import math
import re

from benchbook.ingest import vllm_serve
from benchbook.ingest.core import (
    WORKLOAD_SPREAD,
    Parsed,
    ParseError,
    Tool,
    copy_ends,
    cut_item,
    finish,
    percentile,
    register,
)
from benchbook.ingest.serving_settings import SETTINGS as CONTRACT
from benchbook.ingest.serving_settings import run_settings
from benchbook.ingest.text import Lines, contains, csv_blocks, json_object, search, whole

NAME = "genai-perf"

SETTINGS = dict(CONTRACT)

#: The `format` of a console table with no command and no perf_analyzer line above it that states its load: the
#: table prints metrics alone, and GenAI-Perf sends at a concurrency (default 1) or a rate, never all at once.
BARE = "console table without its command"

_METRICS = frozenset(
    {"ttft", "ttst", "tpot", "e2el", "request_throughput", "request_goodput", "output_throughput", "completed"}
    | {"input_sequence_length", "output_sequence_length", "output_token_throughput_per_user"}
)

#: What each form records (`Tool.carries`): the CSV export holds the metrics alone, neither the model nor
#: the load (GenAI-Perf ran at a concurrency, default 1, or a request rate; the CSV says neither).
CARRIES = {
    BARE: _METRICS,
    "analyze csv": frozenset(
        {"ttft", "tpot", "e2el", "request_throughput", "output_throughput", "output_sequence_length"}
    ),
    "csv": _METRICS,
}

#: snake-case label or JSON tag -> contract metric (others keep their tag).
CONTRACT = {
    "time_to_first_token": "ttft",
    "time_to_second_token": "ttst",
    "inter_token_latency": "tpot",
    "request_latency": "e2el",
    "request_count": "completed",
    "request_throughput": "request_throughput",
    "request_goodput": "request_goodput",
    "output_token_throughput": "output_throughput",
    "output_token_throughput_per_request": "output_token_throughput_per_user",
    "output_token_throughput_per_user": "output_token_throughput_per_user",
    "num_output_token": "output_sequence_length",
    "num_input_token": "input_sequence_length",
}
#: Unit as GenAI-Perf writes it (JSON `unit`, or the label's parenthesis) -> tidy unit.
UNITS = {
    "ms": "ms",
    "ns": "ns",
    "sec": "s",
    "s": "s",
    "tokens": "tok",
    "requests": "req",
    "count": "req",
    "tokens/sec": "tok/s",
    "requests/sec": "req/s",
    "tokens/sec/user": "tok/s/user",
}
#: GenAI-Perf statistic -> tidy statistic; its other percentiles (p1, p5, p10, p25, p75) keep their
#: names (`core.percentile`).
STATS = {
    "avg": "mean",
    "min": "min",
    "max": "max",
    "std": "std",
    "p50": "p50",
    "p90": "p90",
    "p95": "p95",
    "p99": "p99",
}
METRICS = {
    "completed": "req: requests that completed in the measurement (GenAI-Perf 'Request Count')",
    "request_throughput": vllm_serve.METRICS["request_throughput"],
    "request_goodput": "req/s: requests meeting the --goodput constraints / duration",
    "output_throughput": vllm_serve.METRICS["output_throughput"],
    "ttft": vllm_serve.METRICS["ttft"],
    "ttst": "ms: time to second token",
    "tpot": "ms: GenAI-Perf 'Inter Token Latency', per request (latency - ttft) / (output tokens - 1)",
    "e2el": "ms: GenAI-Perf 'Request Latency'",
    "input_sequence_length": "tok: prompt tokens per request",
    "output_sequence_length": "tok: output tokens per request (GenAI-Perf re-tokenizes the text)",
    "output_token_throughput_per_user": "tok/s/user: per-request output tokens / request latency",
}
ALL_FAILED = "every request failed: no throughput or latency was measured"
NS_NOTE = "GenAI-Perf printed ns; converted to ms"
CUT = "\u2026"  # the ellipsis rich puts in a cell too narrow for its number


def _closed_row(line: str) -> bool:
    """Whether a table row a copy ends on closes its last cell with the border (`│ Request Count
    (count) │ 1.00 │ N/A │`): each cell it shows stands between two borders, so each is whole, and
    only the statistics after it are missing; a line that stops inside a cell may be cut short."""
    cells = _box_cells(line, _BOX_ROW)
    return line.rstrip().endswith(_BOX_ROW) and len(cells) >= 2 and bool(cells[0].strip())


def _snake(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.strip().lower()).strip("_")


def _unit(tag: str, unit: str) -> str:
    """The tidy unit of a metric from GenAI-Perf's unit text (empty when the label has none)."""
    u = unit.strip().lower()
    if u in ("per sec", "/sec"):
        return "req/s" if tag.startswith("request") else "tok/s"
    if u in UNITS:
        return UNITS[u]
    if not u:
        if "sequence_length" in tag or tag.startswith("num_"):
            return "tok"
        if tag == "request_count":
            return "req"
        return "count"
    return u


def _cell(
    metric_tag: str, unit_text: str, stat: str, value: float, single: bool
) -> tuple[dict, None] | tuple[None, str]:
    """The tidy row fields of one number, or the reason it is not kept."""
    if stat not in STATS and percentile(stat) is None:
        return None, f"{stat} is not a statistic of the tidy table"
    metric = CONTRACT.get(metric_tag, metric_tag)
    unit = _unit(metric_tag, unit_text)
    statistic = STATS.get(stat) or percentile(stat)
    if single and stat == "avg":
        statistic = "count" if metric == "completed" else "value"
    note = None
    if metric == "output_token_throughput_per_user":
        unit = "tok/s/user"  # GenAI-Perf writes tokens/sec for this per-request rate
    if unit == "ns":
        value, unit, note = value / 1e6, "ms", NS_NOTE
    return dict(metric=metric, statistic=statistic, value=value, unit=unit, note=note), None


def _num(v) -> float:
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else math.nan


def _find(obj, key: str, depth: int = 0):
    """The first value of `key` in a nested config (depth-first, at most 4 levels)."""
    if not isinstance(obj, dict) or depth > 4:
        return None
    if key in obj:
        return obj[key]
    for v in obj.values():
        hit = _find(v, key, depth + 1)
        if hit is not None:
            return hit
    return None


def _run_label(settings: dict) -> str:
    """A run's name from its load setting (`c=100`, `rate=2`), else the tool's name."""
    mc, rr = settings["max_concurrency"], settings["request_rate"]
    return f"c={mc:g}" if mc == mc else f"rate={rr:g}" if rr == rr else NAME


def _failures(single: dict[str, float], has_latency: bool, source: str, messages: list[str]) -> None:
    """Say when no request completed: a zero request count, or zero throughput and no latency."""
    count = single.get("completed")
    tput = single.get("request_throughput", single.get("output_throughput"))
    if count == 0 or (count is None and tput == 0 and not has_latency):
        messages.append(f"{source}: {ALL_FAILED} (request count {count if count is not None else 'not printed'})")


# ---------------------------------------------------------------------------------------------
# JSON


def _json(text: str, source: str, messages: list[str]):
    what = "profile_export_genai_perf.json"
    obj = json_object(text, source, f"not valid JSON ({what})", f"expected one JSON object ({what})")
    metrics = {k: v for k, v in obj.items() if isinstance(v, dict) and "unit" in v and "avg" in v}
    if not metrics:
        raise ParseError(source, 1, "a JSON object without metric dicts (unit/avg): not a GenAI-Perf export")
    settings = run_settings(NAME, "json")
    cfg = obj.get("input_config") if isinstance(obj.get("input_config"), dict) else {}
    model = _find(cfg, "model")
    model = model[0] if isinstance(model, list) and model else model
    settings["model"] = str(model) if isinstance(model, str) else None
    settings["max_concurrency"] = _num(_find(cfg, "concurrency"))
    settings["request_rate"] = _num(_find(cfg, "request_rate"))
    n = _num(_find(cfg, "request_count"))
    settings["num_prompts"] = n if n > 0 else math.nan  # 0: run for the measurement interval
    meta = [f"{k}={cfg[k]}" for k in ("service_kind", "endpoint_type", "backend", "streaming") if k in cfg]
    settings["metadata"] = "; ".join(meta) or None
    if settings["max_concurrency"] == 0:
        settings["max_concurrency"] = math.nan
    settings["run"] = _run_label(settings)
    records, rejects, cells = [], [], 0
    single_vals: dict[str, float] = {}
    has_latency = False
    for tag, m in metrics.items():
        at = text.find(f'"{tag}"')
        stats = [(k, v) for k, v in m.items() if k in STATS or re.fullmatch(r"p\d+(\.\d+)?", k)]
        single = all(v is None for k, v in stats if k != "avg")
        for k, v in stats:
            if v is None:
                continue
            k_at = text.find(f'"{k}"', at)
            ln = text.count("\n", 0, max(k_at, 0)) + 1
            cells += 1
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                rejects.append((ln, f"{tag}.{k}: {v!r}"[:80], "expected a number"))
                continue
            row, why = _cell(_snake(tag), str(m.get("unit", "")), k, float(v), single)
            if row is None:
                rejects.append((ln, f"{tag}.{k}: {v}", why))
                continue
            records.append({**settings, "line": ln, **row})
            if single:
                single_vals[row["metric"]] = row["value"]
            elif row["unit"] == "ms":
                has_latency = True
    _failures(single_vals, has_latency, source, messages)
    return records, rejects, cells


# ---------------------------------------------------------------------------------------------
# CSV and console rows

_LABEL_UNIT = re.compile(r"^(?P<name>.*?)\s*\((?P<unit>[^()]*)\)\s*$")


def _value(cell: str) -> float | None:
    """A GenAI-Perf number (`1,193.02`); None for anything else."""
    t = cell.strip().replace(",", "")
    if not re.fullmatch(r"[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?", t):
        return None
    return float(t)


#: The reason a cell rich cut with `…` is set aside.
CUT_REASON = "cut short by the console width"


def cut_metric(rejected: dict) -> str | None:
    """The tidy metric of a cell set aside as cut by the console width (`CUT_REASON`; its text is
    `label statistic: cell`), else None: the run printed that statistic, cut."""
    if rejected.get("reason") != CUT_REASON:
        return None
    label = str(rejected.get("text", "")).rsplit(":", 1)[0].rsplit(" ", 1)[0]
    m = _LABEL_UNIT.match(label)
    name = m.group("name") if m else label
    return CONTRACT.get(_snake(name), _snake(name))


def _rows(
    label: str, cells: list[tuple[str, str]], ln: int, settings: dict, records, rejects, single_vals
) -> tuple[int, bool]:
    """Read one metric row (label and (statistic, cell) pairs); returns (cells read, has latency)."""
    m = _LABEL_UNIT.match(label)
    name, unit = (m.group("name"), m.group("unit")) if m else (label, "")
    tag = _snake(name)
    present = [(h, c.strip()) for h, c in cells if c.strip() not in ("", "N/A")]
    single = all(h in ("avg", "Value") for h, _ in present)
    n, latency = 0, False
    for h, c in present:
        n += 1
        stat = "avg" if h == "Value" else h
        if CUT in c:
            rejects.append((ln, f"{label} {h}: {c}", CUT_REASON))
            continue
        v = _value(c)
        if v is None:
            rejects.append((ln, f"{label} {h}: {c}"[:80], "expected a number"))
            continue
        row, why = _cell(tag, unit, stat, v, single)
        if row is None:
            rejects.append((ln, f"{label} {h}: {c}", why))
            continue
        records.append({**settings, "line": ln, **row})
        if single:
            single_vals[row["metric"]] = row["value"]
        elif row["unit"] == "ms":
            latency = True
    return n, latency


def _stats_header(header: list[str]) -> bool:
    return header[:1] == ["Metric"] and (
        header[1:] == ["Value"] or (len(header) > 1 and all(h in STATS or re.fullmatch(r"p\d+", h) for h in header[1:]))
    )


def _csv(text: str, source: str, messages: list[str]):
    lines = text.split("\n")
    settings = run_settings(NAME, "csv")
    records, rejects, cells = [], [], 0
    single_vals: dict[str, float] = {}
    has_latency = False
    for start, rows in csv_blocks(lines, source):
        header = [h.strip() for h in rows[0]]
        known = _stats_header(header)
        for r_i, row in enumerate(rows[1:], start=start + 2):
            if not row:
                continue
            pairs = list(zip(header[1:], row[1:], strict=False))
            if not known:
                for h, c in pairs:
                    if _value(c) is not None:
                        cells += 1
                        reason = f"table not read (line {start + 1}): columns {', '.join(header)}"
                        rejects.append((r_i, f"{row[0]} {h}: {c}"[:80], reason))
                continue
            n, lat = _rows(row[0], pairs, r_i, settings, records, rejects, single_vals)
            cells += n
            has_latency |= lat
    _failures(single_vals, has_latency, source, messages)
    return records, rejects, cells


TITLE_RE = re.compile(r"NVIDIA GenAI-Perf \| .*Metrics")
#: The legacy console's title (early GenAI-Perf: `Table(title="LLM Metrics")`), alone on its
#: line and centred over the table; its throughputs follow the table as `X (per sec): value` lines.
_LEGACY_TITLE = re.compile(r"^[ \t]*LLM Metrics[ \t]*$", re.MULTILINE)
#: Its header row: `┃ Statistic ┃ avg ┃ min ┃ max ┃ p99 ┃ p90 ┃ p75 ┃`.
_LEGACY_HEAD = re.compile(r"\u2503\s*Statistic\s*\u2503\s*avg\s*\u2503")
#: A once-per-run metric printed after the legacy table: `Output token throughput (per sec): 2548.18`.
_AFTER_TABLE = re.compile(r"^(?P<label>[A-Z][a-z ]+ \(per sec\)): (?P<value>\S+)$")
#: A title of GenAI-Perf's own metrics, not of its GPU telemetry groups (Power, Memory, Utilization
#: Metrics: `genai_perf_telemetry` reads those): a file of telemetry tables alone is not this tool's.
_OWN_TITLE = re.compile(r"NVIDIA GenAI-Perf \| (?!(?:Power|Memory|Utilization) Metrics)[^\n]*Metrics")
_BOX_ROW = "\u2502"  # │
_BOX_HEAD = "\u2503"  # ┃


def _box_cells(line: str, sep: str) -> list[str]:
    s = line.strip()
    return [c.strip() for c in s.strip(sep).split(sep)]


#: A GenAI-Perf command line: `genai-perf profile ...`, or before the subcommand `genai-perf -m ...`.
_PROFILE = re.compile(r"\bgenai-perf(?:\s+profile\b|\s+-)")
#: The model(s) after `-m` / `--model`, up to the next option or shell word that names none.
_MODELS = re.compile(r"(?:^|\s)(?:-m|--model)[ =]((?:['\"]?\w[\w.:/@+-]*['\"]?(?:\s+|$))+)")


#: The load GenAI-Perf writes into its artifact folder's name, `<model>-<service-kind>-<backend>-concurrency<N>`
#: or `...-request_rate<R>` (genai-perf `parser.py`, `_set_artifact_paths`), as perf_analyzer's
#: `--input-data artifacts/opt350m-triton-vllm-concurrency8/llm_inputs.json` shows it.
_ARTIFACT_LOAD = re.compile(r"artifacts/[^\s'\"]*?-(?:concurrency(?P<c>\d+)|request_rate(?P<r>\d+(?:\.\d+)?))/")


def _logical(lines: list[str]) -> list[str]:
    """Lines as the shell reads them: a command wrapped with trailing backslashes is one line."""
    out: list[str] = []
    buf = ""
    for s in lines:
        if s.rstrip().endswith("\\"):
            buf += s.rstrip()[:-1] + " "
            continue
        out.append(buf + s)
        buf = ""
    return out + ([buf] if buf else [])


def _log_settings(lines: list[str], lo: int, hi: int, settings: dict) -> str | None:
    """Model, concurrency and request rate from the log lines between the previous table and this
    one: perf_analyzer's, and the `genai-perf profile` command nearest above the table (the one that
    printed it). Such a command with neither `--concurrency` nor `--request-rate` ran at concurrency
    1, GenAI-Perf's default (`parser.py`: `if not args.concurrency and not args.request_rate:
    args.concurrency = 1`; later `config_defaults.py`: `STIMULUS = {"concurrency": 1}`); in session
    mode `--session-concurrency N` caps the sessions, each one request at a time."""
    logical = _logical(lines[lo:hi])
    profiles = [s for s in logical if _PROFILE.search(s)]
    for s in logical:
        if m := re.search(r"Profiling these models: (\S+)", s):
            settings["model"] = m.group(1).rstrip(",")
        if "perf_analyzer " in s or (s in profiles[-1:]):
            for opt, key in (
                (r"--concurrency-range[ =](\d+(?:\.\d+)?)", "max_concurrency"),
                (r"--concurrency[ =](\d+(?:\.\d+)?)", "max_concurrency"),
                (r"--session-concurrency[ =](\d+)", "max_concurrency"),
                (r"--request-rate-range[ =](\d+(?:\.\d+)?)", "request_rate"),
                (r"--request-rate[ =](\d+(?:\.\d+)?)", "request_rate"),
                (r"--request-count[ =](\d+)", "num_prompts"),
            ):
                if m := re.search(opt, s):
                    v = float(m.group(1))
                    settings[key] = v if v > 0 else math.nan
            if settings["model"] is None and (m := _MODELS.search(s)):  # `-m` takes one model or several
                settings["model"] = ", ".join(x.strip("'\"") for x in m.group(1).split())
    for s in logical:  # the load the artifact folder names, where no option was read (a terminal cut it)
        m = _ARTIFACT_LOAD.search(s) if "perf_analyzer " in s else None
        if m and settings["max_concurrency"] != settings["max_concurrency"] and m["c"]:
            settings["max_concurrency"] = float(m["c"])
        if m and settings["request_rate"] != settings["request_rate"] and m["r"]:
            settings["request_rate"] = float(m["r"])
    if profiles and settings["max_concurrency"] != settings["max_concurrency"]:
        if settings["request_rate"] != settings["request_rate"]:
            settings["max_concurrency"] = 1.0
    if profiles:  # the command, as AIPerf's console keeps it: its --goodput states the SLOs of the goodput row
        command = " ".join(profiles[-1].split())
        settings["metadata"] = f"{_asked_workload(command)}cli_command={command}"
    return profiles[-1] if profiles else None


#: The synthetic workload a command asks for (aiperf/common/config/prompt_config.py: each option with
#: the aliases AIPerf keeps from GenAI-Perf's parser) -> its key in `metadata` (`analysis.serving.WORKLOAD_SETTINGS`).
WORKLOAD_OPTIONS = {
    "input_tokens_mean": ("--prompt-input-tokens-mean", "--synthetic-input-tokens-mean", "--isl"),
    "output_tokens_mean": ("--prompt-output-tokens-mean", "--output-tokens-mean", "--osl"),
}


def _asked_workload(command: str) -> str:
    """The `WORKLOAD_OPTIONS` a command sets, as `key=value; ` metadata."""
    found = {}
    for key, names in WORKLOAD_OPTIONS.items():
        for n in names:
            if m := re.search(rf"(?:^|\s){re.escape(n)}(?:\s+|=)['\"]?(\d+(?:\.\d+)?)", command):
                found.setdefault(key, m.group(1))
    return "".join(f"{k}={v}; " for k, v in found.items())


#: The input length a log asks for: GenAI-Perf's `--synthetic-input-tokens-mean N` on the command that
#: printed the table (its synthetic prompts have N tokens, stddev 0 by default, so the table's Input Sequence
#: Length is N: 128.02 for 128, 3,000.09 for 3000), or a recipe's own echo of its workload (`ISL: 128`,
#: NVIDIA's dgxc-benchmarking scripts print it above each GenAI-Perf command).
_ASKED_INPUT = re.compile(r"--synthetic-input-tokens-mean[ =](\d+)")
_ISL_LINE = re.compile(r"^\s*ISL\s*[:=]\s*(\d+)\s*$")
_INPUT_ROW = re.compile(r"^input sequence length\b", re.I)


def _mean_input(lines: list[str], head: int) -> float | None:
    """The table's mean Input Sequence Length (its `avg` cell), None where it prints none."""
    header = _box_cells(lines[head], _BOX_HEAD)
    for s in lines[head + 1 :]:
        s = s.strip()
        if s.startswith("\u2514") or not s:  # └ closes the table
            return None
        if not s.startswith(_BOX_ROW):  # the ┡━━╇ rule under the header
            continue
        row = _box_cells(s, _BOX_ROW)
        if _INPUT_ROW.match(row[0]) and "avg" in header[1:]:
            return _value(row[header.index("avg")]) if header.index("avg") < len(row) else None
    return None


def _another_workload(
    lines: list[str], lo: int, hi: int, command: str | None, mean: float | None
) -> tuple[int, int, float] | None:
    """Whether the log between `lo` and `hi` is another workload's than the table under it: the input length it
    asks for (`_ASKED_INPUT` on `command`, the one that printed the table, else its last `ISL: N` line) more than
    `WORKLOAD_SPREAD` from the table's mean input (`mean`), as a recipe's "example output format" under the log of
    its own 128-token run. (the 0-based line opening that log's block, the line asking, the length asked), or None
    where they agree or either is not stated."""
    asked = at = None
    if command and (m := _ASKED_INPUT.search(command)):
        asked, at = float(m.group(1)), next((k for k in range(hi - 1, lo - 1, -1) if _PROFILE.search(lines[k])), lo)
    else:
        for k in range(hi - 1, lo - 1, -1):
            if m := _ISL_LINE.match(lines[k]):
                asked, at = float(m.group(1)), k
                break
    if asked is None or not mean or not asked or max(mean / asked, asked / mean) <= WORKLOAD_SPREAD:
        return None
    fences = [k for k in range(lo, at) if lines[k].strip().startswith(("```", "~~~"))]
    return (fences[-1] if len(fences) % 2 else at), at, asked


#: The options of a GenAI-Perf command that say which server and API it measured.
_TARGET = re.compile(r"(?:^|\s)--(url|service-kind|backend|endpoint-type)[ =](\S+)")


def _target(command: str | None) -> str:
    """The server and API a command measured, as its options state them (`url localhost:8080,
    endpoint-type chat`); `defaults` where it states none."""
    found = [f"{k} {v}" for k, v in _TARGET.findall(command or "")]
    return ", ".join(found) or "defaults"


def _names(labels: list[str]) -> list[str]:
    """The run name of each table: its load label, numbered from the second table under the same one."""
    return [x if x not in labels[:k] else f"{x} #{labels[:k].count(x) + 1}" for k, x in enumerate(labels)]


def _bare_head(lines: list[str], i: int, lo: int) -> bool:
    """Line `i` is GenAI-Perf's header row (`┃ Statistic ┃ avg ┃`) pasted without the title above it:
    no title in the three lines before it (`lo`: where the previous table ended)."""
    if not _LEGACY_HEAD.search(lines[i]):
        return False
    return not any(TITLE_RE.search(t) or _LEGACY_TITLE.match(t) for t in lines[max(lo, i - 3) : i])


def _legacy_title(lines: list[str], i: int) -> bool:
    """Line `i` is the legacy table's title: a bare `LLM Metrics` with the header row just below."""
    return bool(_LEGACY_TITLE.match(lines[i])) and any(_LEGACY_HEAD.search(s) for s in lines[i + 1 : i + 4])


def _console(text: str, source: str, messages: list[str]):
    lines = text.split("\n")
    records, rejects, cells = [], [], 0
    single_vals: dict[str, float] = {}
    has_latency = False
    tables = 0
    names: list[str] = []  # each table's run: a second one under the same settings is another run
    targets: list[str] = []  # the server each table's command measured
    others: list[tuple[int, int]] = []  # the logs above tables of another workload (`_another_workload`)
    i = end = 0
    while i < len(lines):
        bare = _bare_head(lines, i, end)
        if not (TITLE_RE.search(lines[i]) or _legacy_title(lines, i) or bare):
            i += 1
            continue
        title_at = i
        head = i if bare else next((j for j in range(i + 1, min(i + 4, len(lines))) if _BOX_HEAD in lines[j]), None)
        if head is None:
            raise ParseError(source, i + 1, "a GenAI-Perf title without its table header (┃ Statistic ┃ ...)")
        header = _box_cells(lines[head], _BOX_HEAD)
        settings = run_settings(NAME, "text")
        command = _log_settings(lines, end, title_at, settings)
        mean = _mean_input(lines, head)
        if (other := _another_workload(lines, end, title_at, command, mean)) is not None:
            settings, command = run_settings(NAME, "text"), None
            others.append((other[0] + 1, title_at))
            messages.append(
                f"line {title_at + 1}: the table's mean input of {mean:,.0f} tokens a request is not the "
                f"{other[2]:,.0f} line {other[1] + 1} asks for: the table is another workload's run, so the "
                "model and load of the log above it are not its"
            )
        if command is None and settings["max_concurrency"] != settings["max_concurrency"]:
            if settings["request_rate"] != settings["request_rate"]:  # no line above states its load
                settings["format"] = BARE
        targets.append(_target(command))
        names.append(_run_label(settings))
        settings["run"] = _names(names)[-1]
        known = header[:1] == ["Statistic"] and all(h in STATS or re.fullmatch(r"p\d+", h) for h in header[1:])
        j = head + 1
        pending: tuple[str, list[tuple[str, str]], int] | None = None

        def flush(p, settings=settings):
            nonlocal cells, has_latency
            if p is None:
                return
            n, lat = _rows(p[0], p[1], p[2], settings, records, rejects, single_vals)
            cells += n
            has_latency |= lat

        while j < len(lines):
            s = lines[j].strip()
            if s.startswith("\u2514") or not s:  # └ closes the table
                break
            if s.startswith(_BOX_ROW) and copy_ends(lines, j) and not (known and _closed_row(s)):
                # the copy ends before └ inside a cell: the line may be cut
                line_, _, why = cut_item(j, s)
                numbers = [c for c in _box_cells(s, _BOX_ROW)[1:] if _value(c) is not None] or [s[-20:]]
                rejects.extend((line_, f"{_box_cells(s, _BOX_ROW)[0]} ... {c}", why) for c in numbers)
                cells += len(numbers)
                break
            if s.startswith(_BOX_ROW):
                row = _box_cells(s, _BOX_ROW)
                label, vals = row[0], row[1:]
                if not known:
                    for h, c in zip(header[1:], vals, strict=False):
                        if _value(c) is not None:
                            cells += 1
                            why = f"table not read (line {head + 1}): columns {', '.join(header)}"
                            rejects.append((j + 1, f"{label} {h}: {c}", why))
                elif pending is not None and not any(v.strip() for v in vals):
                    pending = (f"{pending[0]} {label}", pending[1], pending[2])  # a label wrapped onto two rows
                else:
                    flush(pending)
                    pending = (label, list(zip(header[1:], vals, strict=False)), j + 1)
            j += 1
        flush(pending)
        j += 1
        while j < len(lines) and (m := _AFTER_TABLE.match(lines[j].strip())):
            flush((m.group("label"), [("avg", m.group("value"))], j + 1))
            j += 1
        tables += 1
        i = end = j
    if not tables:
        raise ParseError(source, 1, "no 'NVIDIA GenAI-Perf | LLM Metrics' table found")
    if len(set(targets)) > 1:  # tables of commands aimed at different servers are different deployments
        target = dict(zip(_names(names), targets, strict=True))
        for r in records:
            r["metadata"] = "; ".join(x for x in (r["metadata"], f"deployment={target[r['run']]}") if x)
    if any("infer/sec" in s or " usec" in s for s in lines):
        messages.append(
            f"{source}: perf_analyzer's own lines (infer/sec, usec) above the table are not read: "
            "the GenAI-Perf table reports the same requests"
        )
    _failures(single_vals, has_latency, source, messages)
    return records, rejects, cells, tuple(others)


# ---------------------------------------------------------------------------------------------
# the Tool


def _head(text: str | Lines) -> str:
    """The start of a text (what a sniffer needs of a one-document export)."""
    return "\n".join(text[:400])[:20000] if isinstance(text, Lines) else text[:20000]


def _is_json(text: str) -> bool:
    return text.lstrip()[:1] == "{"


def is_json_export(text: str | Lines) -> bool:
    """A GenAI-Perf JSON export: top-level metric dicts with GenAI-Perf's tags, none of AIPerf's
    markers (`records`, `aiperf_version`, `schema_version`, `model_names`)."""
    head = _head(text)
    if not _is_json(head):
        return False
    return (
        '"unit"' in head
        and '"avg"' in head
        and ('"time_to_first_token"' in head or '"request_latency"' in head)
        and not any(k in head for k in ('"records"', '"aiperf_version"', '"schema_version"', '"model_names"'))
    )


#: `genai-perf analyze`'s summary CSV: its perf table's header (analyze_export_genai_perf.csv).
_ANALYZE_HEAD = re.compile(r"^Config Name,(?:[A-Za-z .]+,)*?(?:p\d+|Avg\.) [A-Z]", re.MULTILINE)
#: A column of the perf table: a statistic and GenAI-Perf's label (`p99 Time To First Token (ms)`).
_ANALYZE_COL = re.compile(r"^(?:(?P<stat>p\d+(?:\.\d+)?|Avg\.)\s+)?(?P<label>.+?)\s*\((?P<unit>[^)]*)\)$")
_ANALYZE_LABELS = {
    "time to first token": "ttft",
    "inter token latency": "tpot",
    "request latency": "e2el",
    "output sequence length": "output_sequence_length",
    "output token throughput": "output_throughput",
}
#: The settings a run config's columns give (`Config Name,Concurrency,ISL,...`): column -> setting.
_ANALYZE_SETTINGS = {"Concurrency": "max_concurrency", "Request Rate": "request_rate"}
_CONFIG_MODEL = re.compile(r"^(?P<model>.+?)_run_config_\d+$")


def is_analyze_export(text: str | Lines) -> bool:
    """`genai-perf analyze`'s summary CSV: a `Config Name` header with a statistic's column."""
    return bool(_ANALYZE_HEAD.match(_head(text).lstrip()))


def _analyze(text: str, source: str):
    """The perf table of `analyze_export_genai_perf.csv`: each row a run config, its settings and its
    p99 / average metrics; any later table (the GPU telemetry per config and GPU) set aside."""
    lines = text.split("\n")
    records, rejects, cells = [], [], 0
    first = True
    for start, rows in csv_blocks(lines, source):
        header = [h.strip() for h in rows[0]]
        for ln, row in enumerate(rows[1:], start=start + 2):
            cells_row = dict(zip(header, row, strict=False))
            name = (cells_row.get("Config Name") or "").strip()
            settings = run_settings(NAME, "analyze csv")
            model = _CONFIG_MODEL.match(name)
            settings.update(model=model["model"] if model else None)
            swept = []
            for col, raw in cells_row.items():
                v = _value(raw) if col != "Config Name" else None
                if v is None:
                    continue
                cells += 1
                col_m = _ANALYZE_COL.match(col)
                if not first:
                    rejects.append((ln, f"{name} {col}: {raw}", "GPU telemetry of a run config: not read here"))
                elif col in _ANALYZE_SETTINGS:
                    settings[_ANALYZE_SETTINGS[col]] = v
                    cells -= 1  # a setting, not a cell
                elif not col_m:
                    swept.append(f"{col} {v:g}")
                    cells -= 1
                elif metric := _ANALYZE_LABELS.get(col_m["label"].lower()) or (
                    "request_throughput" if col_m["label"].lower() == "request throughput" else None
                ):
                    stat = "mean" if col_m["stat"] in ("Avg.", None) else percentile(col_m["stat"])
                    if metric in ("output_throughput", "request_throughput"):
                        stat = "value"
                    unit = {"tokens/sec": "tok/s", "requests/sec": "req/s"}.get(col_m["unit"], col_m["unit"])
                    records.append(dict(line=ln, metric=metric, statistic=stat, value=v, unit=unit, note=None))
                else:
                    rejects.append((ln, f"{name} {col}: {raw}", "a column this parser has no tidy name for"))
            if first:
                settings.update(dataset="; ".join(swept) or None, run=name or _run_label(settings))
                for r in records:
                    if r["line"] == ln:
                        r.update(
                            {**settings, **{k: r[k] for k in ("line", "metric", "statistic", "value", "unit", "note")}}
                        )
        first = False
    return records, rejects, cells


def is_csv_export(text: str | Lines) -> bool:
    """A GenAI-Perf CSV: percentiles in descending order after max (AIPerf's ascend from p1)."""
    first = _head(text).lstrip().split("\n", 1)[0].strip()
    return bool(re.match(r"Metric,avg,min,max,p99,", first))


#: The CSV's header line, alone on its line, where a page or a log quotes the file below other text.
_CSV_HEADER = re.compile(r"^[ \t]*Metric,avg,min,max,p99,[\w,]*[ \t]*$", re.MULTILINE)
_FENCE = re.compile(r"^\s*(```|~~~)")


def _quoted_csv(text: str) -> str | None:
    """The CSV export quoted inside other text (a fenced block of a write-up, a `cat` in a log), the
    rest of the text blanked so that lines keep their numbers: from the header line to a fence or a
    line that is no CSV row (no comma), blank lines between its sections kept. None when not found."""
    lines = text.split("\n")
    start = next((i for i, s in enumerate(lines) if _CSV_HEADER.match(s)), None)
    if start is None:
        return None
    end = start
    while end < len(lines) and not _FENCE.match(lines[end]) and ("," in lines[end] or not lines[end].strip()):
        end += 1
    return "\n".join(s if start <= i < end else "" for i, s in enumerate(lines))


def _has_table(text: str | Lines) -> bool:
    """A console table of GenAI-Perf's own metrics: the titled one, or its `┃ Statistic ┃ avg ┃` header
    row (under the legacy `LLM Metrics` title, or pasted without any: `_bare_head`)."""
    return (search(_OWN_TITLE, text) and contains(_BOX_HEAD, text)) or search(_LEGACY_HEAD, text)


def sniff(text: str | Lines) -> bool:
    if _is_json(_head(text)):
        return is_json_export(text)
    if is_csv_export(text) or is_analyze_export(text) or _has_table(text):
        return True
    return search(_CSV_HEADER, text) and not contains(_BOX_HEAD, text)


def parse(text: str | Lines, source: str) -> Parsed:
    text = whole(text).replace("\r\n", "\n").replace("\r", "\n")
    messages: list[str] = []
    others: tuple[tuple[int, int], ...] = ()
    if _is_json(text):
        records, rejects, cells = _json(text, source, messages)
    elif is_analyze_export(text):
        records, rejects, cells = _analyze(text, source)
    elif text.lstrip().startswith("Metric,"):
        records, rejects, cells = _csv(text, source, messages)
    elif not _has_table(text) and (quoted := _quoted_csv(text)) is not None:
        records, rejects, cells = _csv(quoted, source, messages)  # the console table, where both, is read
    else:
        records, rejects, cells, others = _console(text, source, messages)
    if not records and not rejects:
        raise ParseError(source, 1, "no GenAI-Perf metric found")
    return finish(TOOL, source, records, rejects, messages, cells, others=others)


TOOL = register(
    Tool(
        name=NAME,
        settings=SETTINGS,
        sniff=sniff,
        parse=parse,
        description="NVIDIA GenAI-Perf profile_export_genai_perf.json / .csv and console table (serving contract)",
        command="genai-perf profile -m MODEL --concurrency N (console table; artifacts/.../profile_export_genai_perf.json, .csv)",
        metrics=METRICS,
        carries=CARRIES,
    )
)
