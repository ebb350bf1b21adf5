"""The ML.ENERGY leaderboard's measurement tables (energy measured with Zeus through NVML).

Four layouts, all GPU energy only (the leaderboard: "`energy` (J): The average GPU energy consumed
by the model to generate a response"):

- the first benchmark's `data/<task>/<model>/benchmark.json` (ml-energy/benchmark, benchmark.py of
  2023): a JSON list with one record per response (`model`, `throughput`, `response_length`,
  `latency`, `energy`, `input`, `output`), each prompt generated alone (batch 1) on one GPU
  (`num_gpus=1`, a `ZeusMonitor` on that device's index), its window's time and GPU energy; the
  throughput is the response's tokens (the output re-encoded) over that time. No GPU is named.
- v1 CSV `<GPU>_<task>_benchmark.csv`, one row per model and batch size: `throughput` (tok/s, the
  mean generation rate), `response_length` (mean output tokens per response), `latency` (s per
  response) and `energy` (J per response). The file does not name the GPU; its name does
  (`A100_chat_benchmark.csv`), and the device is read from there, with a message.
- v2 JSON, one file per model, backend and request rate: `Model`, `Backend`, `GPU model`, `#GPUs`,
  `Request rate`, `Requests per second`, `Latency per request (s)`, `Energy per request (J)`. It
  gives no token counts, so no energy per token can be formed from it. The energy is its
  benchmark_client.py's `client_side_energy_per_request`: one ZeusMonitor window over every GPU the
  client sees (`num_gpus = len(zeus_monitor.gpu_indices)`, the `#GPUs`) / the requests completed, so
  the `#GPUs` GPUs' energy summed.
- v2 per-configuration JSON (ml-energy/leaderboard-v2's `data/llm_text_generation/<task>/<GPU>/<org>/
  <model>/bs<max_num_seqs>+tp<N>+pp<M>.json`, written by its aggregate_leaderboard_data.py): `Model`, `GPU`,
  `TP` (the GPUs of one pipeline stage: the run's `num_gpus`), `PP` (the stages: the nodes whose
  steady-state energy it sums), `Energy/req (J)` (steady-state GPU energy of every stage / steady-state
  output tokens x `Avg Output Tokens`), `Token tput (tok/s)` (steady-state output tokens / steady-state
  time), `Avg TPOT (s)`, `Avg BS (reqs)` (the running batch) and `Max BS (reqs)` (`max_num_seqs` x PP:
  the file name's bs is per stage). The run spans TP x PP GPUs.
- v3 per-model JSON (`public/data/models/<org>__<model>__<task>.json`), one configuration per GPU
  model, GPU count and batch cap, with J per output token at steady state: `ml_energy_v3`.
- the v1 columns re-typed as Markdown pipe tables (`model | throughput | response_length | latency |
  energy`, leaderboard-v2 pull request 20): the same numbers per model, one table per condition; the GPU
  from the heading above the tables (`**for A100**`, the first word of letters and digits such as A100),
  the condition from the line right above each table's header, each table's rows their own series.
"""

from __future__ import annotations

import csv
import io
import json
import re

from benchbook.ingest import energy, ml_energy_v3
from benchbook.ingest.core import Parsed, ParseError, Tool, register
from benchbook.ingest.text import Lines, head, whole

NAME = "ml-energy"

_V1_REQUIRED = ("model", "throughput", "response_length", "latency", "energy")
_V1_METRICS = {
    "energy": ("energy_per_request", "J", "gpu"),
    "response_length": ("output_tokens_per_request", "tok", None),
    "throughput": ("output_throughput", "tok/s", None),
    "latency": ("e2el", "ms", None),
}
_V2_KEYS = {
    "Energy per request (J)": ("energy_per_request", "J", "gpu"),
    "Requests per second": ("request_throughput", "req/s", None),
    "Latency per request (s)": ("e2el", "ms", None),
}
#: The v2 per-configuration JSON's keys -> (contract metric, unit, scope, statistic); its TPOT and running
#: batch have no column in the energy contract and are set aside with the reason.
_V2_CONFIG = {
    "Energy/req (J)": ("energy_per_request", "J", "gpu", "mean"),
    "Token tput (tok/s)": ("output_throughput", "tok/s", None, "value"),
    "Avg Output Tokens": ("output_tokens_per_request", "tok", None, "mean"),
}
_V2_CONFIG_ENERGY = '"Energy/req (J)"'
_V2_CONFIG_SETTINGS = ("TP", "PP", "Max BS (reqs)")
_GPU_IN_NAME = re.compile(r"^([A-Z]+\d+[A-Za-z0-9-]*)_[\w-]+_benchmark\.csv$")
_MEAN_NOTE = "mean over responses"


#: A Markdown pipe row (`a | b | c`, leading and trailing pipes optional) and its separator row.
_PIPE_SEP = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)+\|?\s*$")
#: A heading or a bold line alone (`**for A100**`, `## V100`), and a GPU's name in it (letters then digits).
_HEADING = re.compile(r"^\s*(?:#{1,6}\s+(?P<h>.+?)|\*\*(?P<b>[^*]+)\*\*:?)\s*$")
_GPU_WORD = re.compile(r"\b([A-Z]{1,3}\d{2,4}[A-Za-z0-9-]*)\b")


def _pipe_cells(line: str) -> list[str]:
    return [c.strip().strip("*`").lower() for c in line.strip().strip("|").split("|")]


def _pipe_tables(lines: list[str]) -> list[int]:
    """The 0-based lines of each Markdown pipe table header holding the v1 columns, over its separator."""
    return [
        i
        for i in range(len(lines) - 1)
        if "|" in lines[i] and _PIPE_SEP.match(lines[i + 1]) and all(c in _pipe_cells(lines[i]) for c in _V1_REQUIRED)
    ]


def _is_v1(start: str) -> bool:
    first = start.lstrip("\ufeff").lstrip().split("\n", 1)[0].strip().lower()
    cols = [c.strip() for c in first.split(",")]
    return all(c in cols for c in _V1_REQUIRED)


def _is_v0(start: str) -> bool:
    """A JSON list whose first record has the first benchmark's keys."""
    first = start.lstrip()
    return first[:1] == "[" and all(f'"{k}"' in first[:3000] for k in _V1_REQUIRED)


#: The leaderboard's diffusion tasks (text-to-image, text-to-video) count energy per image or video, no tokens.
_NO_TOKENS = re.compile(r'"energy_per_(image|video)_joules"')


def sniff(text: str | Lines) -> bool:
    start = head(text, 4000)
    if _is_v0(start):
        return True
    v3 = '"configurations"' in start and '"model_id"' in whole(text)
    v3 = v3 and ('"energy_per_token_joules"' in start or bool(_NO_TOKENS.search(start)))
    if '"Energy per request (J)"' in start or _V2_CONFIG_ENERGY in start or _is_v1(start) or v3:
        return True
    return bool(_pipe_tables(whole(text).splitlines()))


def parse(text: str | Lines, source: str) -> Parsed:
    body = whole(text)
    m = _NO_TOKENS.search(body)
    if m and '"energy_per_token_joules"' not in body:
        # a diffusion model's file: its energy is per image or video, and no chapter reads such a workload
        task = re.search(r'"task"\s*:\s*"([^"]+)"', body)
        line = body[: task.start()].count("\n") + 1 if task else 1
        what = f"{task[1]} file" if task else "file"
        raise ParseError(
            source, line, f"an ML.ENERGY {what}: energy per {m[1]}, no tokens, a workload no chapter of this book reads"
        )
    if body.lstrip().startswith("{"):
        return _parse_v2(body, source)
    if body.lstrip().startswith("["):
        return _parse_v0(body, source)
    if not _is_v1(body) and (tables := _pipe_tables(body.splitlines())):
        return _parse_v1_pipes(body.splitlines(), tables, source)
    return _parse_v1(body, source)


def _above(lines: list[str], i: int, pattern: re.Pattern) -> tuple[int, re.Match] | None:
    """The nearest line above line i (0-based) matching `pattern`, and the match."""
    for j in range(i - 1, -1, -1):
        if m := pattern.match(lines[j]):
            return j, m
    return None


def _parse_v1_pipes(lines: list[str], tables: list[int], source: str) -> Parsed:
    """The v1 columns as pipe tables: per table, its condition (the line right above its header) and its GPU
    (the nearest heading above naming one); each row a model's means, as in the v1 CSV."""
    records, rejects, messages, cells = [], [], [], 0
    for h in tables:
        header = _pipe_cells(lines[h])
        label = next((lines[j].strip() for j in range(h - 1, -1, -1) if lines[j].strip()), "")
        label = "" if "|" in label or _HEADING.match(label) else label.rstrip(":")
        heading = _above(lines, h, _HEADING)
        gpu = _GPU_WORD.search(heading[1]["h"] or heading[1]["b"]) if heading else None
        device = gpu.group(1) if gpu else None
        messages.append(
            f"{source}:{h + 1}: "
            + (
                f"the GPU is {device}, from the heading on line {heading[0] + 1}"
                if device
                else "no heading names the GPU"
            )
            + "; the file does not say how many GPUs each model ran on"
        )
        i = h + 2
        while i < len(lines) and "|" in lines[i]:
            cell = dict(zip(header, _pipe_cells(lines[i]), strict=False))
            # the model's name as written (the lower-cased cell is for matching the headers only)
            model = lines[i].strip().strip("|").split("|")[0].strip().strip("*`")
            where = ", ".join(x for x in (device, label) if x)
            base = dict(
                run=f"{model} ({where})" if where else model,
                model=model,
                device=device,
                device_count=None,
                backend=None,
                batch_size=None,
                request_rate=None,
                interval="run",
            )
            for col, text_value in cell.items():
                if col == "model":
                    continue
                v = _float(text_value)
                if v is None:
                    if text_value:
                        raise ParseError(source, i + 1, f"{col} is not a number: {text_value!r}")
                    continue
                cells += 1
                if col not in _V1_METRICS:
                    rejects.append((i + 1, f"{col} {text_value}", f"column {col!r} is not in the energy contract"))
                    continue
                metric, unit, scope = _V1_METRICS[col]
                value = v * 1000 if unit == "ms" else v
                note = _MEAN_NOTE + ("; printed in s" if unit == "ms" else "")
                records.append(
                    dict(
                        base,
                        scope=scope,
                        line=i + 1,
                        metric=metric,
                        statistic="mean",
                        value=value,
                        unit=unit,
                        note=note,
                    )
                )
            i += 1
    return energy.finish(TOOL, source, records, rejects, messages, cells, "leaderboard v1 columns in pipe tables")


def _parse_v1(body: str, source: str) -> Parsed:
    reader = csv.reader(io.StringIO(body.lstrip("\ufeff")))
    try:
        rows = list(reader)
    except csv.Error as exc:  # a NUL byte or a broken quote: say where, as every parser does
        raise ParseError(source, reader.line_num, f"not CSV ({exc})") from None
    h = next((k for k, r in enumerate(rows) if any(c.strip() for c in r)), 0)  # blank lines above the header
    if not rows or not _is_v1(",".join(rows[h])):
        raise ParseError(source, h + 1, f"expected an ML.ENERGY header with {', '.join(_V1_REQUIRED)}")
    header = [c.strip().lower() for c in rows[h]]
    m = _GPU_IN_NAME.match(source)
    device = m.group(1) if m else None
    messages = [
        f"{source}: the file does not name the GPU; "
        + (f"its file name says {device}" if device else "nor does its file name, so the device is unknown")
    ]
    records, rejects, cells = [], [], 0
    for i, row in enumerate(rows[h + 1 :], start=h + 2):
        if not any(c.strip() for c in row):
            continue
        if len(row) != len(header):
            raise ParseError(source, i, f"expected {len(header)} cells, found {len(row)}")
        cell = dict(zip(header, (c.strip() for c in row), strict=True))
        bs = _float(cell.get("batch_size"))
        base = dict(
            run=f"{cell['model']} bs{bs:g}" if bs is not None else cell["model"],
            model=cell["model"],
            device=device,
            device_count=1.0 if device else None,
            backend=None,
            batch_size=bs,
            request_rate=None,
            interval="run",
        )
        for col, text_value in cell.items():
            if col in ("model", "batch_size"):
                continue
            v = _float(text_value)
            if v is None:
                if text_value:
                    raise ParseError(source, i, f"{col} is not a number: {text_value!r}")
                continue
            cells += 1
            if col not in _V1_METRICS:
                rejects.append((i, f"{col} {text_value}", f"column {col!r} is not in the energy contract"))
                continue
            metric, unit, scope = _V1_METRICS[col]
            value = v * 1000 if unit == "ms" else v
            note = _MEAN_NOTE + ("; printed in s" if unit == "ms" else "")
            records.append(
                dict(base, scope=scope, line=i, metric=metric, statistic="mean", value=value, unit=unit, note=note)
            )
    return energy.finish(TOOL, source, records, rejects, messages, cells, "leaderboard v1 CSV")


def _parse_v0(body: str, source: str) -> Parsed:
    """The first benchmark's per-response records: each response is a run of batch 1 on one GPU, its
    energy and time those of the window that generated it, its tokens counted: the contract's per-request
    figures, each the mean of one response."""
    try:
        items = json.loads(body)
    except json.JSONDecodeError as exc:
        raise ParseError(source, exc.lineno, f"not valid JSON ({exc.msg})") from None
    if not isinstance(items, list) or not all(isinstance(x, dict) for x in items):
        raise ParseError(source, 1, "expected a JSON list of ML.ENERGY benchmark records")
    lines = ml_energy_v3.key_lines(body)
    messages = [f"{source}: the file does not name the GPU (benchmark.py ran on one GPU, by its index)"]
    records, rejects, cells, seen = [], [], 0, {}
    for k, item in enumerate(items):
        missing = [key for key in _V1_REQUIRED if key not in item]
        at = {key: lines.get(key, [1])[min(seen.get(key, 0), len(lines.get(key, [1])) - 1)] for key in item}
        for key in item:
            seen[key] = seen.get(key, 0) + 1
        if missing:
            raise ParseError(source, at.get("model", 1), f"record {k + 1} lacks {', '.join(missing)}")
        base = dict(
            run=f"{item['model']} response {k + 1}",
            model=item["model"] if isinstance(item["model"], str) else None,
            device=None,
            device_count=1.0,
            backend=None,
            batch_size=1.0,
            request_rate=None,
            interval="run",
        )
        for key, (metric, unit, scope) in _V1_METRICS.items():  # one response's: its mean is itself
            v = item[key]
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise ParseError(source, at[key], f"{key} is not a number: {v!r}")
            cells += 1
            value = v * 1000 if unit == "ms" else float(v)
            note = "one response" + ("; printed in s" if unit == "ms" else "")
            records.append(
                dict(
                    base, scope=scope, line=at[key], metric=metric, statistic="mean", value=value, unit=unit, note=note
                )
            )
    if not records:
        raise ParseError(source, 1, "an ML.ENERGY benchmark.json without a record")
    return energy.finish(TOOL, source, records, rejects, messages, cells, "benchmark v0 per-response JSON")


def _parse_v2(body: str, source: str) -> Parsed:
    try:
        obj = json.loads(body)
    except json.JSONDecodeError as exc:
        raise ParseError(source, exc.lineno, f"not valid JSON ({exc.msg})") from None
    if ml_energy_v3.is_v3(obj):
        records, rejects, cells, messages = ml_energy_v3.parse(obj, body, source)
        return energy.finish(TOOL, source, records, rejects, messages, cells, "leaderboard v3 per-model JSON")
    if ml_energy_v3.is_task(obj):
        records, rejects, cells, messages = ml_energy_v3.parse(obj, body, source)
        return energy.finish(TOOL, source, records, rejects, messages, cells, "leaderboard v3 per-task JSON")
    if isinstance(obj, dict) and "Energy/req (J)" in obj:
        return _parse_v2_config(obj, body, source)
    if not isinstance(obj, dict) or "Energy per request (J)" not in obj:
        raise ParseError(source, 1, "expected an ML.ENERGY result with 'Energy per request (J)'")
    lines = {k: n for n, s in enumerate(body.split("\n"), start=1) for k in obj if s.strip().startswith(f'"{k}"')}
    base = dict(
        run=f"{obj.get('Backend')} {obj.get('Model')} rate {obj.get('Request rate')}",
        model=obj.get("Model"),
        device=obj.get("GPU model"),
        device_count=_float(obj.get("#GPUs")),
        backend=obj.get("Backend"),
        batch_size=None,
        request_rate=_float(obj.get("Request rate")),
        interval="run",
    )
    records, rejects, cells = [], [], 0
    for key, v in obj.items():
        if isinstance(v, bool) or not isinstance(v, (int, float)) or key in ("#GPUs", "Request rate"):
            continue  # names, and the settings kept in their columns
        cells += 1
        if key not in _V2_KEYS:
            rejects.append((lines.get(key, 1), f"{key} {v}", f"key {key!r} is not in the energy contract"))
            continue
        metric, unit, scope = _V2_KEYS[key]
        value = float(v) * 1000 if unit == "ms" else float(v)
        note = "mean over requests; printed in s" if unit == "ms" else None
        # benchmark_client.py: one ZeusMonitor over every GPU it sees (`num_gpus = len(gpu_indices)`, the
        # `#GPUs`), its window's total energy / the requests completed: the GPUs' energy summed
        gpus = base["device_count"]
        note = energy.SUMMED.format(gpus) if scope and gpus else note
        stat = "value" if metric == "request_throughput" else "mean"
        records.append(_record(base, lines.get(key, 1), metric, stat, value, unit, scope, note))
    return energy.finish(TOOL, source, records, rejects, [], cells, "leaderboard v2 JSON")


def _record(base: dict, line: int, metric: str, stat: str, value: float, unit: str, scope, note) -> dict:
    """One leaderboard-v2 number as an energy row: the run's settings (`base`) and this value's own."""
    return dict(base, scope=scope, line=line, metric=metric, statistic=stat, value=value, unit=unit, note=note)


def _parse_v2_config(obj: dict, body: str, source: str) -> Parsed:
    """One model x batch cap x TP x PP configuration at steady state: its energy is that of all TP x PP GPUs."""
    lines = {k: n for n, s in enumerate(body.split("\n"), start=1) for k in obj if s.strip().startswith(f'"{k}"')}
    tp, pp, cap = (_float(obj.get(k)) for k in _V2_CONFIG_SETTINGS)
    gpus = tp * pp if tp and pp else None
    model = obj.get("Model") if isinstance(obj.get("Model"), str) else None
    device = obj.get("GPU") if isinstance(obj.get("GPU"), str) else None
    run = f"{model} on {gpus:g}x {device} (TP {tp:g}, PP {pp:g}), max batch {cap:g}" if gpus and cap else str(model)
    base = dict(
        run=run,
        model=model,
        device=device,
        device_count=gpus,
        backend=None,
        batch_size=cap,
        request_rate=None,
        interval="steady_state",
    )
    records, rejects, cells = [], [], 0
    for key, v in obj.items():
        if isinstance(v, bool) or not isinstance(v, (int, float)) or key in _V2_CONFIG_SETTINGS:
            continue  # names, and the settings kept in their columns
        cells += 1
        if key not in _V2_CONFIG:
            why = "the running batch (batch_size holds Max BS, its cap)" if key == "Avg BS (reqs)" else f"key {key!r}"
            rejects.append((lines.get(key, 1), f"{key} {v}", f"{why}: not in the energy contract"))
            continue
        metric, unit, scope, stat = _V2_CONFIG[key]
        note = energy.SUMMED.format(gpus) if scope and gpus else None
        records.append(_record(base, lines.get(key, 1), metric, stat, float(v), unit, scope, note))
    return energy.finish(TOOL, source, records, rejects, [], cells, "leaderboard v2 per-configuration JSON")


def _float(v) -> float | None:
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


TOOL = register(
    Tool(
        name=NAME,
        settings=energy.SETTINGS,
        sniff=sniff,
        parse=parse,
        description="ML.ENERGY leaderboard measurements (v1 CSV: J per response; v2 JSON: J per request, per rate "
        "or per batch cap x TP x PP; v3 "
        "per-model JSON: J per output token per GPU configuration), GPU energy",
        command="the ML.ENERGY benchmark (github.com/ml-energy/leaderboard), energy measured with Zeus",
        metrics={
            m: energy.METRICS[m]
            for m in (
                "energy_per_request",
                "energy_per_output_token",
                "mean_power",
                "output_tokens_per_request",
                "e2el",
            )
        },
    )
)
