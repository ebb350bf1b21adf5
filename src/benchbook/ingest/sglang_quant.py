"""Parser for SGLang `bench_one_batch_server` results: the `result.jsonl` rows and the markdown
report that mtilyxuegao/qwen_quantization `performance/analyze_results.py` generates from them.

What the tools write (sglang python/sglang/bench_one_batch_server.py; qwen_quantization performance/analyze_results.py):

* `python -m sglang.bench_one_batch_server ... --run-name NAME` appends one JSON object per run to
  `result.jsonl`: `run_name`, `batch_size`, `input_len`, `output_len`, `latency` (s, one whole
  streamed batch), `output_throughput` and `overall_throughput` (tok/s), `last_gen_throughput`,
  and in later versions `input_throughput`, `last_ttft` (s), `acc_length` (-1 without speculative
  decoding), `cache_hit_rate` (null when unknown). Release 0.5.3 (the seed's) writes no
  `input_throughput` key.
* `analyze_results.py` groups the rows by (batch_size, input_len, output_len) and by the run name
  without `_runN`, and prints per configuration a summary table ("mean ± std", std omitted when 0;
  a key missing from every row prints `0.00`), the individual runs ("N/A" for a missing key), a
  "Statistics" list (mean ± std) and, at the end, a ranking by mean output throughput.

The seed report went through a UTF-8 -> Windows-1252 round trip (`Â±` for `±`, `ðŸ¥‡` for the
gold medal); each damaged line is repaired with encode("cp1252")/decode("utf-8") and the repair is
reported in `messages`.

SGLang's accuracy benchmark, `benchmark/gsm8k/bench_sglang.py`, prints `Accuracy: 0.396`, `Invalid:
0.003`, `Latency: 10.905 s` and `Output throughput: 11035.006 token/s` (four lines, in this order) for one
pass over `--num-questions` questions against whichever server is up: a scheme's accuracy with the speed of
that one pass, no batch, lengths or repeats. A file holding such prints and no bench_one_batch_server row
is refused naming its first `Accuracy:` line (`refuses`, `GSM8K`): the quantization chapter compares schemes by
repeated speed runs at set shapes and has no place for an accuracy.

Settings: `model` is the configuration name without `_runN` (e.g. `w8a16_awq_interactive`);
`scheme` and `regime` split it at a known regime suffix (interactive, decode_bound, ...), else the
regime is named after the shape (`bs1_in1024_out1024`) and the scheme is the whole name; `run` is
the run label as printed (`run3`, or the whole run name when it has no `_runN`); `section` says
where the number was read (summary, run, statistics, ranking).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from pathlib import Path

from benchbook.ingest.core import NUMBER, Parsed, ParseError, Tool, finish, markdown_cells, register
from benchbook.ingest.rows import Row, row, row_type
from benchbook.ingest.text import Amended, Lines, splitlines
from benchbook.nouns import named

NAME = "sglang-quant-report"

SETTINGS = {
    "model": "str",
    "scheme": "str",
    "regime": "str",
    "run": "str",
    "batch_size": "int64",
    "input_len": "int64",
    "output_len": "int64",
    "section": "str",
}
#: A tidy row's columns, in the order its tuple holds them.
_ROW = row_type(SETTINGS)

METRICS = {
    "latency": "s: wall time of one streamed /generate call for the whole batch (prefill + all decode steps)",
    "output_throughput": "tok/s: batch x output_len / (latency - TTFT of the last request): decode phase only "
    "(release 0.5.3; the earliest release divided by the whole latency)",
    "overall_throughput": "tok/s: batch x (input_len + output_len) / latency",
    "input_throughput": "tok/s: batch x input_len / TTFT; absent from 0.5.3 rows (the report prints 0.00 / N/A)",
    "last_gen_throughput": "tok/s: the server's last reported generation throughput",
    "last_ttft": "s: time to first token of the last request of the batch",
    "acc_length": "tok: mean accepted length with speculative decoding (-1 without)",
    "cache_hit_rate": "fraction: prefix-cache hit rate",
    "runs": "runs: number of runs behind a summary row",
}

#: Regime names used by qwen_quantization's run_multi_config_benchmark.sh, with their shapes (batch
#: size, input length, output length). They live in a JSON file beside this module so that the
#: parameter checks can read them without importing pandas.
REGIMES = {
    name: tuple(shape)
    for name, shape in json.loads(Path(__file__).with_name("sglang_quant_regimes.json").read_text()).items()
}

_UNITS = {
    "latency": "s",
    "output_throughput": "tok/s",
    "overall_throughput": "tok/s",
    "input_throughput": "tok/s",
    "last_gen_throughput": "tok/s",
    "last_ttft": "s",
    "ttft": "s",
    "acc_length": "tok",
    "cache_hit_rate": "fraction",
}
_JSON_SETTINGS = ("run_name", "batch_size", "input_len", "output_len")
_DISPLAY = {
    "latency": "latency",
    "output throughput": "output_throughput",
    "overall throughput": "overall_throughput",
    "input throughput": "input_throughput",
}
_SUMMARY_HEADER = [
    "model",
    "runs",
    "latency (s)",
    "output throughput (tok/s)",
    "overall throughput (tok/s)",
    "input throughput (tok/s)",
]
_SUMMARY_METRICS = [None, "runs", "latency", "output_throughput", "overall_throughput", "input_throughput"]

_NUM = NUMBER + "|nan|NaN|inf|-inf"
_PM = r"(?:±|\+/-|\+-)"
_RE_CONFIG = re.compile(r"^(#{2,3})\s*Configuration:\s*batch_size=(\d+),\s*input_len=(\d+),\s*output_len=(\d+)\s*$")
_RE_TITLE = re.compile(r"^#\s*Performance Benchmark Results\s*$")
_RE_SUMMARY = re.compile(r"^###\s*Summary Table\s*$")
_RE_DETAILS = re.compile(r"^###\s*Detailed Results\s*$")
_RE_RANKING_HEAD = re.compile(r"^##\s*Performance Ranking\b.*$")
_RE_MODEL = re.compile(r"^####\s+(\S+)\s*$")
_RE_TOTAL_RUNS = re.compile(r"^-\s*\*\*Total runs:\*\*\s*(\d+)\s*$")
_RE_TOTAL_MODELS = re.compile(r"^\*\*Total models tested:\*\*\s*(\d+)\s*$")
_RE_RUN = re.compile(r"^\s{1,4}-\s*`([^`]+)`:\s*$")
_RE_RUN_METRIC = re.compile(r"^\s{3,8}-\s*(Latency|Output Throughput|Overall Throughput|Input Throughput):\s*(.*?)\s*$")
_RE_STATS_HEAD = re.compile(r"^-\s*\*\*Statistics:\*\*\s*$")
_RE_STAT_METRIC = re.compile(
    r"^\s{1,2}-\s*(Latency|Output Throughput|Overall Throughput|Input Throughput):\s*(.*?)\s*$"
)
_RE_RANK = re.compile(r"^(\S+)\s+\*\*([^*]+)\*\*:\s*(.*?)\s*$")
_RE_RUN_SUFFIX = re.compile(r"^(.*)_(run\d+)$")
_MARKERS = ("Â", "Ã", "ð", "â€", "Î", "Ï")


def _fix_mojibake(line: str) -> str | None:
    """The line with a UTF-8 -> cp1252 (or Latin-1) round trip undone, or None when it is not one."""
    if line.isascii() or not any(m in line for m in _MARKERS):
        return None
    out = bytearray()
    for ch in line:
        try:
            out += ch.encode("cp1252")
        except UnicodeEncodeError:
            if ord(ch) < 256:  # a C1 control that Latin-1 decoding leaves where cp1252 has a hole
                out.append(ord(ch))
            else:
                return None
    try:
        fixed = out.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return fixed if fixed != line else None


def _fixed(line: str) -> str:
    """The line with its mojibake undone (twice-damaged text needs two passes)."""
    for _ in range(2):
        again = _fix_mojibake(line)
        if again is None:
            break
        line = again
    return line


class _Repaired(Sequence):
    """The lines as `repair` gives them, each repaired as it is read and none kept: what `sniff`
    looks at (holding a large file's repaired lines for a yes/no costs about 0.4x the file)."""

    def __init__(self, lines: Sequence[str]):
        self._lines = lines

    def __len__(self) -> int:
        return len(self._lines)

    def __getitem__(self, i: int) -> str:  # the sniffer reads single lines only
        return _fixed(self._lines[i])

    def __iter__(self):
        return map(_fixed, self._lines)


def repair(text: str | Lines) -> tuple[Sequence[str], list[str]]:
    """Split into lines and undo mojibake per line; returns (lines, messages). A file's lines are
    never changed in place (other parsers read them too): the repaired ones are laid over them."""
    lines = splitlines(text)
    overlay = Amended(lines) if isinstance(text, Lines) else None
    n_fixed, first = 0, 0
    examples: dict[str, str] = {}
    for i, line in enumerate(lines):
        fixed = _fixed(line)
        if fixed != line:
            n_fixed += 1
            first = first or i + 1
            for bad, good in (("Â±", "±"), ("ðŸ¥‡", "🥇"), ("ðŸ¥ˆ", "🥈"), ("ðŸ¥‰", "🥉")):
                if bad in line:
                    examples.setdefault(bad, good)
            if overlay is None:  # a string's own list of lines: repaired in place
                lines[i] = fixed
            else:
                overlay.fix(i, fixed)
    msgs = []
    if n_fixed:
        shown = ", ".join(f"{b!r} -> {g!r}" for b, g in examples.items()) or "non-ASCII characters"
        msgs.append(
            f"repaired mojibake (UTF-8 bytes decoded as Windows-1252) on {n_fixed} lines, "
            f"first at line {first}: {shown}"
        )
    return (overlay if overlay is not None and n_fixed else lines), msgs


def split_model(model: str, batch_size: int, input_len: int, output_len: int) -> tuple[str, str]:
    """(scheme, regime) of a configuration name such as `w8a16_awq_interactive`."""
    for regime in sorted(REGIMES, key=len, reverse=True):
        if model.endswith("_" + regime) and len(model) > len(regime) + 1:
            return model[: -len(regime) - 1], regime
        if model == regime:
            return model, regime
    for regime, shape in REGIMES.items():
        if shape == (batch_size, input_len, output_len):
            return model, regime
    return model, f"bs{batch_size}_in{input_len}_out{output_len}"


def split_run(run_name: str) -> tuple[str, str]:
    """(model, run label) of a run name: `x_run3` -> (`x`, `run3`); without `_runN` both are the name."""
    m = _RE_RUN_SUFFIX.match(run_name)
    return (m.group(1), m.group(2)) if m else (run_name, run_name)


def _num(text: str) -> float | None:
    text = text.strip()
    if re.fullmatch(_NUM, text):
        return float(text)
    return None


class _Reader:
    """Collects records, rejected cells and messages for one file."""

    def __init__(self, source: str):
        self.source = source
        self.records: list[Row] = []  # tidy records as tuples (`rows.Row`)
        self.rejected: list[tuple[int, str, str]] = []
        self.messages: list[str] = []
        self.cells = 0

    def keep(
        self, line: int, settings: dict, metric: str, statistic: str, value: float, unit: str, note: str | None = None
    ) -> None:
        self.cells += 1
        if value is not None and not math.isfinite(value) and not math.isnan(value):
            self.rejected.append((line, str(value), f"{metric}: infinite value"))
            return
        self.records.append(
            row(
                _ROW,
                {
                    **settings,
                    "line": line,
                    "metric": metric,
                    "statistic": statistic,
                    "value": value,
                    "unit": unit,
                    "note": note,
                },
            )
        )

    def reject(self, line: int, text: str, reason: str) -> None:
        self.cells += 1
        self.rejected.append((line, text, reason))


def _settings(model: str, run: str | None, bs: int, inp: int, out: int, section: str) -> dict:
    scheme, regime = split_model(model, bs, inp, out)
    return {
        "model": model,
        "scheme": scheme,
        "regime": regime,
        "run": run,
        "batch_size": bs,
        "input_len": inp,
        "output_len": out,
        "section": section,
    }


# --- result.jsonl rows -------------------------------------------------------------------------

_RE_JSON_START = re.compile(r'^\s*\{\s*"run_name"\s*:')
_RE_JSON_PAIR = re.compile(r'"([A-Za-z_][A-Za-z0-9_]*)"\s*:\s*(' + _NUM + r")(?=\s*[,}]|\s*$)")


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _json_row(r: _Reader, lineno: int, raw: str) -> bool:
    """Read one result.jsonl object; returns False when the line is not such an object."""
    try:
        obj = json.loads(raw)
    except (ValueError, RecursionError):
        pairs = _RE_JSON_PAIR.findall(raw)
        for key, val in pairs:
            if key not in ("batch_size", "input_len", "output_len"):
                r.reject(lineno, f"{key}: {val}", "invalid or truncated JSON object")
        r.messages.append(
            f"line {lineno}: a result.jsonl object that is not valid JSON (truncated?); "
            f"its {sum(k not in ('batch_size', 'input_len', 'output_len') for k, _ in pairs)} "
            "numbers are reported as rejected"
        )
        return True
    if not isinstance(obj, dict):
        return False
    missing = [k for k in _JSON_SETTINGS if k not in obj]
    bad = [k for k in _JSON_SETTINGS[1:] if k in obj and not (_is_int(obj[k]) and obj[k] >= 0)]
    numeric = {
        k: v
        for k, v in obj.items()
        if k not in _JSON_SETTINGS and (v is None or (isinstance(v, (int, float)) and not isinstance(v, bool)))
    }
    if missing or bad or not isinstance(obj.get("run_name"), str):
        why = f"missing {named('key', missing)}" if missing else f"bad {named('setting', bad or ['run_name'])}"
        for k, v in numeric.items():
            r.reject(lineno, f"{k}: {v}", f"result.jsonl row without usable settings: {why}")
        return True
    model, run = split_run(obj["run_name"])
    s = _settings(model, run, obj["batch_size"], obj["input_len"], obj["output_len"], "run")
    arrays = sorted(k for k, v in obj.items() if isinstance(v, (list, dict)))
    if arrays:
        r.messages.append(f"line {lineno}: per-request array keys not read: {', '.join(arrays)}")
    for k, v in numeric.items():
        unit = _UNITS.get(k, "unknown")
        note = None if k in _UNITS else "key not known to the parser: unit unknown"
        if v is None:
            r.keep(lineno, s, k, "value", float("nan"), unit, "null in result.jsonl (not measured)")
        elif k == "acc_length" and v < 0:
            r.keep(lineno, s, k, "value", float("nan"), unit, f"{v} means no speculative decoding")
        elif isinstance(v, float) and math.isnan(v):
            r.keep(lineno, s, k, "value", v, unit, "source wrote NaN")
        else:
            r.keep(lineno, s, k, "value", float(v), unit, note)
    return True


# --- the markdown report ---------------------------------------------------------------------


def _pm(text: str) -> tuple[float | None, float | None, bool]:
    """Parse "12.34 ± 0.56" or "12.34"; returns (mean, std, ok)."""
    parts = re.split(_PM, text)
    if len(parts) == 2:
        a, b = _num(parts[0]), _num(parts[1])
        return a, b, a is not None and b is not None
    if len(parts) == 1:
        a = _num(parts[0])
        return a, None, a is not None
    return None, None, False


def _summary_row(r: _Reader, lineno: int, line: str, cfg: tuple[int, int, int]) -> None:
    cells = markdown_cells(line)
    name = cells[0].strip("`").strip() if cells else ""
    if len(cells) != len(_SUMMARY_HEADER) or not name:
        for c in cells[1:]:
            if re.search(r"\d", c):
                r.reject(lineno, c, f"summary row with {len(cells)} cells, expected {len(_SUMMARY_HEADER)}")
        return
    s = _settings(name, None, *cfg, "summary")
    runs = _num(cells[1])
    if runs is None:
        r.reject(lineno, cells[1], "Runs is not a number")
    else:
        r.keep(lineno, s, "runs", "count", runs, "runs")
    for cell, metric in zip(cells[2:], _SUMMARY_METRICS[2:], strict=True):
        mean, std, ok = _pm(cell)
        unit = _UNITS[metric]
        if not ok:
            if cell.upper() in ("N/A", "NA", "NAN", "", "-"):
                r.keep(lineno, s, metric, "mean", float("nan"), unit, f"printed {cell or 'blank'}: not measured")
            else:
                r.reject(lineno, cell, f"{metric}: expected 'mean ± std' or 'mean'")
            continue
        if std is None and mean == 0.0:
            r.keep(
                lineno,
                s,
                metric,
                "mean",
                float("nan"),
                unit,
                "0.00 printed for a key missing from result.jsonl: not measured",
            )
            continue
        r.keep(lineno, s, metric, "mean", mean, unit)
        if std is not None:
            r.keep(lineno, s, metric, "std", std, unit)


def _metric_value(r: _Reader, lineno: int, s: dict, label: str, text: str, statistic_pm: bool) -> None:
    metric = _DISPLAY[label.lower()]
    unit = _UNITS[metric]
    if text.upper() == "N/A":
        r.keep(
            lineno,
            s,
            metric,
            "mean" if statistic_pm else "value",
            float("nan"),
            unit,
            "N/A: the result.jsonl row has no such key (not measured)",
        )
        return
    if statistic_pm:
        mean, std, ok = _pm(text)
        if not ok or std is None:
            r.reject(lineno, text, f"{metric}: expected 'mean ± std'")
            return
        r.keep(lineno, s, metric, "mean", mean, unit)
        r.keep(lineno, s, metric, "std", std, unit)
        return
    m = re.fullmatch(r"(" + _NUM + r")\s*(s|tok/s)?", text)
    if not m:
        r.reject(lineno, text, f"{metric}: expected a number with unit")
        return
    if m.group(2) and m.group(2) != unit:
        r.reject(lineno, text, f"{metric}: unit {m.group(2)!r}, expected {unit!r}")
        return
    r.keep(lineno, s, metric, "value", float(m.group(1)), unit)


def _markdown(r: _Reader, lines: list[str]) -> None:
    cfg: tuple[int, int, int] | None = None
    mode = None  # summary, details, ranking
    in_ranking = False
    model: str | None = None
    run: tuple[str, str] | None = None  # (model, label)
    in_stats = False
    models_in_cfg: dict[tuple, int] = {}
    runs_seen: dict[tuple, list[str]] = {}
    total_runs: dict[tuple, tuple[int, int]] = {}
    ranked: dict[tuple, list[int]] = {}
    for i, line in enumerate(lines, start=1):
        stripped = line.strip()
        m = _RE_CONFIG.match(stripped)
        if m:
            cfg = (int(m.group(2)), int(m.group(3)), int(m.group(4)))
            mode = "ranking" if (in_ranking or m.group(1) == "###") else "config"
            if mode == "ranking":
                in_ranking = True
                ranked.setdefault(cfg, [])
            model, run, in_stats = None, None, False
            continue
        if _RE_RANKING_HEAD.match(stripped):
            in_ranking, mode, cfg, model, run = True, "ranking", None, None, None
            continue
        if _RE_TITLE.match(stripped) or stripped == "---":
            continue
        if cfg is None:
            continue
        if mode == "ranking":
            m = _RE_RANK.match(stripped)
            if m:
                name, text = m.group(2).strip(), m.group(3)
                s = _settings(name, None, *cfg, "ranking")
                v = re.fullmatch(r"(" + _NUM + r")\s*tok/s", text)
                if v:
                    r.keep(i, s, "output_throughput", "mean", float(v.group(1)), "tok/s")
                    ranked[cfg].append(i)
                else:
                    r.reject(i, text, "ranking entry: expected '<number> tok/s' (truncated?)")
                    ranked[cfg].append(i)
            continue
        m = _RE_TOTAL_MODELS.match(stripped)
        if m:
            models_in_cfg[cfg] = int(m.group(1))
            continue
        if _RE_SUMMARY.match(stripped):
            mode, model, run = "summary", None, None
            continue
        if _RE_DETAILS.match(stripped):
            mode, model, run = "details", None, None
            continue
        if mode == "summary" and stripped.startswith("|"):
            low = [c.lower() for c in markdown_cells(stripped)]
            if low and low[0] == "model":
                if low != _SUMMARY_HEADER:
                    r.messages.append(f"line {i}: summary header differs from analyze_results.py's: {stripped}")
                continue
            if set(stripped) <= set("|-: "):
                continue
            _summary_row(r, i, stripped, cfg)
            continue
        m = _RE_MODEL.match(stripped)
        if m and mode == "details":
            model, run, in_stats = m.group(1), None, False
            runs_seen.setdefault((cfg, model), [])
            continue
        m = _RE_TOTAL_RUNS.match(stripped)
        if m and model is not None:
            total_runs[(cfg, model)] = (int(m.group(1)), i)
            continue
        if _RE_STATS_HEAD.match(stripped) and model is not None:
            in_stats, run = True, None
            continue
        m = _RE_RUN.match(line)
        if m and model is not None:
            run_model, label = split_run(m.group(1))
            if run_model != model:
                r.messages.append(f"line {i}: run {m.group(1)!r} listed under model {model!r}")
            run, in_stats = (run_model, label), False
            runs_seen.setdefault((cfg, model), []).append(label)
            continue
        m = _RE_RUN_METRIC.match(line)
        if m and not in_stats:
            if run is None:
                r.reject(i, m.group(2), "run metric line outside a run block")
            else:
                _metric_value(r, i, _settings(run[0], run[1], *cfg, "run"), m.group(1), m.group(2), False)
            continue
        m = _RE_STAT_METRIC.match(line)
        if m and in_stats and model is not None:
            _metric_value(r, i, _settings(model, None, *cfg, "statistics"), m.group(1), m.group(2), True)
            continue
    # Consistency notes the audit also reports.
    for key, labels in runs_seen.items():
        dup = sorted({x for x in labels if labels.count(x) > 1})
        if dup:
            r.messages.append(f"{key[1]}: duplicated {named('run label', dup)} (kept as separate runs)")
        if key in total_runs and total_runs[key][0] != len(labels):
            r.messages.append(
                f"line {total_runs[key][1]}: {key[1]} says {total_runs[key][0]} runs, {len(labels)} listed"
            )
    for key, lines_ in ranked.items():
        n = models_in_cfg.get(key)
        if n is not None and len(lines_) < n:
            r.messages.append(
                f"ranking for batch_size={key[0]}, input_len={key[1]}, output_len={key[2]} "
                f"lists {len(lines_)} of {n} models (truncated?)"
            )


def _has_markdown(lines: list[str]) -> bool:
    saw_cfg = saw_table = False
    for line in lines:
        s = line.strip()
        if _RE_CONFIG.match(s):
            saw_cfg = True
        elif s.lower().replace(" ", "").startswith("|model|runs|latency(s)|output"):
            saw_table = True
        elif _RE_RUN_METRIC.match(line) and saw_cfg:
            saw_table = True
        if saw_cfg and saw_table:
            return True
    return False


#: bench_sglang.py's four result lines, in the order it prints them (benchmark/gsm8k/bench_sglang.py).
_GSM8K = re.compile(
    r"^\s*Accuracy:\s*[0-9.]+\s*\n\s*Invalid:\s*[0-9.]+\s*\n\s*Latency:\s*[0-9.]+\s*s\s*\n"
    r"\s*Output throughput:\s*[0-9.]+\s*token/s\s*$",
    re.M,
)
GSM8K = (
    "SGLang's gsm8k bench_sglang.py result (Accuracy, Invalid, Latency, Output throughput: one pass over its "
    "questions against the server then up), an accuracy benchmark, not a bench_one_batch_server run: the "
    "quantization chapter compares schemes' speed at a set batch size and lengths and has no place for an "
    "accuracy, so nothing here is read"
)


def refuses(text: str | Lines) -> tuple[int, str] | None:
    """(line, why) of the first `Accuracy:` of a gsm8k bench_sglang.py result, else None (`Tool.refuses`)."""
    lines = splitlines(text)
    for i, line in enumerate(lines):
        if line.lstrip().startswith("Accuracy:") and _GSM8K.match(
            "\n".join(lines[k] for k in range(i, min(i + 4, len(lines))))
        ):
            return i + 1, GSM8K
    return None


def _json_lines(lines: list[str]) -> list[int]:
    return [i for i, line in enumerate(lines) if _RE_JSON_START.match(line)]


def sniff(text: str | Lines) -> bool:
    """True when the text holds an analyze_results.py report or bench_one_batch_server rows."""
    try:
        lines = _Repaired(splitlines(text))
        if _has_markdown(lines):
            return True
        for i in _json_lines(lines):
            try:
                obj = json.loads(lines[i])
            except (ValueError, RecursionError):
                continue
            if isinstance(obj, dict) and all(k in obj for k in _JSON_SETTINGS) and "latency" in obj:
                return True
    except Exception:  # noqa: BLE001 - sniffing never raises
        return False


def parse(text: str | Lines, source_name: str) -> Parsed:
    """Parse a report or a result.jsonl (or a document holding either) into the tidy table."""
    if not isinstance(text, (str, Lines)):
        raise ParseError(source_name, None, "expected text")
    lines, msgs = repair(text)
    r = _Reader(source_name)
    r.messages.extend(msgs)
    found = False
    for i in _json_lines(lines):
        found = _json_row(r, i + 1, lines[i].strip()) or found
    if _has_markdown(lines):
        found = True
        _markdown(r, lines)
    if not found:
        raise ParseError(
            source_name,
            1,
            "expected an analyze_results.py report ('## Configuration: batch_size=...' "
            'with a summary table) or bench_one_batch_server result.jsonl rows ({"run_name": ...})',
        )
    if not r.records and not r.rejected:
        raise ParseError(source_name, 1, "a quantization report without any numbers (truncated?)")
    return finish(TOOL, source_name, r.records, r.rejected, r.messages, r.cells)


TOOL = register(
    Tool(
        name=NAME,
        settings=SETTINGS,
        sniff=sniff,
        parse=parse,
        description="SGLang bench_one_batch_server result.jsonl rows and the quantization report "
        "(summary tables, per-run details, statistics, rankings) generated from them by "
        "qwen_quantization's analyze_results.py.",
        command="python -m sglang.bench_one_batch_server ... --run-name NAME (result.jsonl), or analyze_results.py's report",
        metrics=METRICS,
        screen_repeats=False,  # a repeated run label is a separate run block, reported by the audit
        refuses=refuses,
    )
)

__all__ = ["NAME", "SETTINGS", "METRICS", "REGIMES", "sniff", "parse", "repair", "split_model", "split_run"]
