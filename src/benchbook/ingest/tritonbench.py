"""tritonbench operator tables (meta-pytorch/tritonbench `python run.py --op OP`, earlier
`python run_benchmark.py triton --op OP` in pytorch/benchmark): one `tabulate` table per run, a row
per input shape and a column per backend and metric (`sdpa-latency`, `flash_v2-tflops`, ...).

What the numbers are (tritonbench's operator benchmark): `latency` is the kernel time in ms (triton's
`do_bench`; the median of the timed runs, printed with its spread as `0.052000 (±14.23%)` in the
`with_variance` mode: the median is read, the spread kept in the cell's note), `tflops` the
operator's FLOPs over that time, `speedup` against the operator's baseline,
`gbps` bytes moved per second; the first column names the input (`(Batch, Heads, SeqLen, Dhead)`, or
one dimension such as `SeqLen`), and an `average` row is tritonbench's mean over the inputs above it,
set aside (it is recomputable, not an input). The operator, `--causal` and `--bwd` come from the
command line above a table where one is kept (`+ python run.py --op flash_attention ...`), and so do
flash_attention's fixed `--batch`, `--n-heads` and `--d-head` where the input column gives only the
sequence length (`shape_from` "command line"; the operator iterates the sequence length over its
inputs at that batch, heads and head size). FLOPs are tritonbench's `flops` metric of that operator
(4 x B x H x S^2 x D forward, half with `--causal`, 2.5x for `--bwd`: `analysis.attention_tritonbench`).

A metric cell holding text instead of a number is tritonbench's `error_msg` for that backend at that input
(`CUDA OOM`, `not supported`, or an exception's text, printed in place of its first metric): a failed timing,
set aside with its reason and named in one warning, never skipped silently.

Refused by name (`refuses`): the A/B report of `run.py --side-a=... --side-b=...` (tritonbench
`utils/ab_test.py`). Its `Performance Summary` prints per backend and metric `latency : +8.9% avg [-4.5%
to +25.9%]`: the mean over the input shapes of (B - A) / A x 100 and its range, no kernel time or TFLOP/s
of its own; its `Detailed Comparison` prints side A's and side B's value (a latency's median) per backend
and input. The attention chapter reads one configuration's kernel times per input, so an A/B
report is not read.
"""

from __future__ import annotations

import re
import shlex

from benchbook.ingest.core import NUMBER, Parsed, ParseError, Tool, finish, register
from benchbook.ingest.text import Lines, search, split_n, whole

NAME = "tritonbench"

SETTINGS = {
    "op": "str",
    "backend": "str",
    "input": "str",
    "batch": "Int64",
    "heads": "Int64",
    "seq_len": "Int64",
    "seq_len_kv": "Int64",
    "d_head": "Int64",
    "causal": "str",
    "pass": "str",
    "shape_from": "str",
}
METRICS = {
    "latency": "ms: kernel time (triton do_bench)",
    "tflops": "TFLOP/s: the operator's FLOPs / latency",
    "speedup": "x: the baseline's latency / this backend's",
    "gbps": "GB/s: bytes moved / latency",
    "accuracy": "1 or 0: whether the backend's output matched the baseline's within the operator's tolerance",
}
_UNITS = {"latency": "ms", "tflops": "TFLOP/s", "speedup": "x", "gbps": "GB/s", "accuracy": "fraction"}
#: A metric cell holding text: tritonbench's `error_msg` for that backend at that input, printed in place of
#: its first metric, the others left blank (`BenchmarkOperatorResult`'s table; `error_msg` is "CUDA OOM" for
#: torch.cuda.OutOfMemoryError, "not supported" for NotImplementedError, else the exception's text).
FAILED = "tritonbench printed {msg!r} in place of the timing: the backend failed at this input, no measurement"
_ERRORS = {"CUDA OOM": "out of GPU memory", "not supported": "the backend does not run that input"}
#: The warning that names them (the attention chapter's completeness line reads it).
FAILED_WARNING = "warning: the run did not time every input:"
_METRIC_COL = re.compile(r"^(?P<backend>.+)-(?P<metric>[a-z_]+)$")
_HEADER = re.compile(r"^\s*\S.*?\s{2,}\S+-(?:latency|tflops|speedup|gbps)(?:\s{2,}\S+)*\s*$")
_RULE = re.compile(r"^\s*-+(?:\s{2,}-+)+\s*$")
_SNIFF = re.compile(r"(?m)^\s*\S.*?\s{2,}\S+-(?:latency|tflops)\b.*\n\s*-+(?:\s{2,}-+)+\s*$")
_COMMAND = re.compile(r"(?:run\.py|run_benchmark\.py\s+triton)\b")
_DIMS = {"batch": "batch", "heads": "heads", "seqlen": "seq_len", "seqlen_kv": "seq_len_kv", "dhead": "d_head"}
#: flash_attention's shape flags (--batch, --n-heads, --d-head): fixed over the inputs, where a table's
#: first column gives only the sequence length.
_SHAPE_FLAGS = {"--batch": "batch", "--n-heads": "heads", "--d-head": "d_head"}
#: A latency printed with its spread (`--latency-mode with_variance`: `Latency.to_str` prints
#: f"{p50:6f} (±{pct:.2f}%)"): the median of the timed runs, and the farthest run's distance from it.
_SPREAD = re.compile(rf"(?P<value>{NUMBER})\s+\(±(?P<pct>[0-9.]+)%\)")
SPREAD_NOTE = "median of the timed runs; the farthest run is {pct}% from it"
AVERAGE = "tritonbench's mean over the inputs above: recomputable, not an input"


#: ab_test.py's summary line: f"  {metric:<12}: {avg:+5.1f}% avg [{min:+.1f}% to {max:+.1f}%]".
_AB_SUMMARY = re.compile(rf"^\s*[a-z_]+\s*:\s*{NUMBER}% avg \[{NUMBER}% to {NUMBER}%\]\s*$")
_AB_DETAIL = re.compile(r"^\s*Backend\s+\S+\s+Config A\s+Config B\s+Difference\s*$")


#: Triton's `triton.testing.perf_report` print (`Mark._run`: `print(bench.plot_name + ':')`, then the pandas
#: frame, its index from 0, one column per x name and one per line name): `fused-attention-batch4-head32-d128:`.
#: The frame is filled row by row from floats, so its first x value prints with a decimal point (`1024.0`).
_PERF_REPORT_NAME = re.compile(r"^\s*([\w.\-\[\]]+):\s*$")
_PERF_REPORT_ROW = re.compile(r"^\s*0\s+-?\d+\.\d")


def _perf_report(lines: list[str]) -> tuple[int, str] | None:
    """(line, name) of the first Triton `perf_report` frame: its name line, a header, then row 0."""
    for i in range(len(lines) - 2):
        m = _PERF_REPORT_NAME.match(lines[i])
        if m and len(lines[i + 1].split()) >= 2 and _PERF_REPORT_ROW.match(lines[i + 2]):
            return i + 1, m[1]
    return None


#: tritonbench's `--metrics kineto_trace`: each cell the directory the input's Kineto trace was written to.
_TRACE = "each cell the directory a Kineto trace of that input was written to"
#: Any tritonbench table's header: the input's label, then `BACKEND-METRIC` columns, over its row of dashes.
_ANY_HEADER = re.compile(r"^\s*\S.*?(?:\s{2,}\S+-[a-z_]+)+\s*$")


def _unread_metrics(lines: list[str]) -> tuple[int, list[str]] | None:
    """(line, metrics) of the first tritonbench table none of whose metric columns is one read here (the
    `--metrics` tritonbench prints that are no measurement: `kineto_trace`, each cell the directory of that
    input's trace), where the file holds no table with one."""
    found = None
    for i in range(len(lines) - 1):
        if _ANY_HEADER.match(lines[i]) and _RULE.match(lines[i + 1]):
            cols = [c for c in _cells(lines[i], _spans(lines[i + 1]))[1:] if _METRIC_COL.match(c)]
            metrics = list(dict.fromkeys(_METRIC_COL.match(c)["metric"] for c in cols))
            if not metrics or any(m in _UNITS for m in metrics):
                return None
            found = found or (i + 1, metrics)
    return found


def refuses(text: str | Lines) -> tuple[int, str] | None:
    """(line, why) of the first Performance Summary line of tritonbench's A/B report, of a Triton
    `perf_report` frame (the tutorials' and kernel authors' print, not a tritonbench operator table), or of
    a tritonbench table of metrics that are no measurement (`_unread_metrics`), else None (`Tool.refuses`)."""
    lines = split_n(whole(text))
    first = next((i for i, raw in enumerate(lines, start=1) if _AB_SUMMARY.match(raw)), None)
    if first is None and (unread := _unread_metrics(lines)):
        names = " and ".join(f"`{m}`" for m in unread[1])
        what = _TRACE if unread[1] == ["kineto_trace"] else "metrics the attention chapter does not read"
        return unread[
            0
        ], f"a tritonbench table whose only metrics are {names}: {what}, no kernel time or TFLOP/s; not read"
    if first is None:
        frame = _perf_report(lines)
        if frame is None:
            return None
        return frame[0], (
            f"Triton's perf_report frame `{frame[1]}` (the values its benchmark function returns, per x value and "
            "per line): a Triton script's print, not a tritonbench operator table; not read"
        )
    if any(_AB_DETAIL.match(raw) for raw in lines):
        why = "a comparison of two configurations, which the attention chapter does not read"
    else:
        why = (
            "each backend's mean change in percent from side A to side B over the input shapes, with no "
            "kernel time or TFLOP/s of its own"
        )
    return first, f"tritonbench's A/B test summary: {why}; not read"


def sniff(text: str | Lines) -> bool:
    return search(_SNIFF, text)


def _spans(rule: str) -> list[tuple[int, int]]:
    """Each column's reach in a tabulate table: from the end of the dashes on its left to the start of
    those on its right (cells are right- or left-aligned within their dashes and may overrun them)."""
    dashes = [m.span() for m in re.finditer(r"-+", rule)]
    return [
        (dashes[k - 1][1] if k else 0, dashes[k + 1][0] if k + 1 < len(dashes) else 1 << 30) for k in range(len(dashes))
    ]


def _cells(line: str, spans: list[tuple[int, int]]) -> list[str]:
    return [line[a:b].strip() for a, b in spans]


#: Operators whose own arguments define `--causal` as a flag that defaults to off (`parse_op_args` of
#: operators/flash_attention and operators/blackwell_attentions): a command of theirs without it ran
#: non-causal attention. Any other operator's mask is not `--causal`'s default: ragged_attention (HSTU)
#: masks by `--attn-mask-type` (default `lower_triangular`), flex_attention by `--mod-type` (printed per
#: row), decoding_attention in code (`CAUSAL = True`, with no `--causal` argument); so without the flag
#: their command does not say the mask.
_CAUSAL_FLAG_OFF = frozenset({"flash_attention", "blackwell_attentions"})


#: The x_val labels only one tritonbench operator registers (`@register_x_val(label=...)` in its
#: operators/<op>/operator.py): a table without its command line still names its operator by them. A label
#: two operators share (`(Batch, Heads, SeqLen, SeqLen_KV, Dhead)`: flash_attention and blackwell_attentions)
#: names none.
_LABEL_OPS = {
    "(B, Hq, M, Hkv, N, D) | Mask Type": "flex_attention",
    "(Batch, SeqLenQ, SeqLenKV, MaxLenKV, HeadQ, HeadKV, HeadD)": "decoding_attention",
}


def _labelled_op(first: str) -> dict:
    """op from a table's x_val label, where one operator owns it (causal and pass unknown: no command)."""
    op = _LABEL_OPS.get(re.sub(r"\s+", " ", first.strip()))
    return {"op": op, "causal": None, "pass": None} if op else {}


def _command(lines, upto: int) -> dict:
    """op, causal and pass from the last tritonbench command line above line `upto` (0-based)."""
    for i in range(upto - 1, -1, -1):
        if _COMMAND.search(lines[i]) and "--op" in lines[i]:
            try:
                words = shlex.split(lines[i].lstrip("+$ "))
            except ValueError:
                words = lines[i].split()
            out = {"pass": None}
            if "--op" in words and words.index("--op") + 1 < len(words):
                out["op"] = words[words.index("--op") + 1]
            flag_off = out.get("op") in _CAUSAL_FLAG_OFF
            out["causal"] = "causal" if "--causal" in words else ("non-causal" if flag_off else None)
            for flag, dim in _SHAPE_FLAGS.items():  # the operator's fixed dimensions, where the command sets them
                if flag in words and words.index(flag) + 1 < len(words) and words[words.index(flag) + 1].isdigit():
                    out[dim] = int(words[words.index(flag) + 1])
            if "--bwd" in words or ("--mode" in words and "bwd" in words):
                out["pass"] = "bwd"
            elif "--fwd" in words or ("--mode" in words and "fwd" in words):
                out["pass"] = "fwd"
            return out
    return {}


def _dims(first: str, value: str) -> dict:
    """Batch, heads, sequence lengths and head size from the input column, by its header's names."""
    names = [_DIMS.get(re.sub(r"\W", "", n).lower()) for n in first.strip("() ").split(",")]
    vals = [v.strip() for v in value.strip("() ").split(",")]
    if len(names) != len(vals):
        return {}
    return {n: int(v) for n, v in zip(names, vals, strict=True) if n and re.fullmatch(r"\d+", v)}


#: A write-up's own label over one of its tables (`Before:`, `After:`, `main:`): a short line ending
#: in a colon, alone above the table (a code fence and blank lines between them).
_LABEL = re.compile(r"^\s*(?P<label>[A-Za-z][\w .+/-]{0,30}?)\s*:\s*$")


def _label(lines, i: int) -> str | None:
    """The label a write-up puts above the table whose header is line i: each tritonbench run prints its
    own table, so two tables of the same inputs under `Before:` and `After:` are two runs (two
    versions of the kernel), told apart by that label in their backend's name."""
    for j in range(i - 1, max(i - 5, -1), -1):
        s = lines[j].strip()
        if not s or s.startswith(("```", "~~~")):
            continue
        m = _LABEL.match(s)
        return m["label"] if m else None
    return None


def parse(text: str | Lines, source: str) -> Parsed:
    lines = split_n(whole(text))
    records, rejects, cells, messages, failures = [], [], 0, [], []
    i = 0
    while i < len(lines) - 1:
        if not (_HEADER.match(lines[i]) and _RULE.match(lines[i + 1])):
            i += 1
            continue
        spans = _spans(lines[i + 1])
        header = _cells(lines[i], spans)
        cmd = _command(lines, i)
        if not cmd and (cmd := _labelled_op(header[0])):
            messages.append(
                f"{source}:{i + 1}: no tritonbench command above the table: its input label is the "
                f"{cmd['op']} operator's alone; causal and pass unknown"
            )
        elif not cmd:
            messages.append(
                f"{source}:{i + 1}: no tritonbench command above the table: operator, causal and pass unknown"
            )
        label = _label(lines, i)
        body = range(
            i + 2,
            next((k for k in range(i + 2, len(lines)) if not lines[k].strip() or _HEADER.match(lines[k])), len(lines)),
        )
        printed = [_cells(lines[k], spans)[0] for k in body]
        seen: dict[str, int] = {}
        j = i + 2
        while j < len(lines) and lines[j].strip() and not _HEADER.match(lines[j]):
            row = _cells(lines[j], spans)
            first = row[0]
            seen[first] = seen.get(first, 0) + 1
            # an operator that draws its inputs (ragged_attention's random sequence lengths) prints the
            # same x_val for different inputs: each row is its own input, numbered in the table's order
            name = f"{first} #{seen[first]}" if printed.count(first) > 1 else first
            base = dict(op=cmd.get("op"), input=name, causal=cmd.get("causal"), **{"pass": cmd.get("pass")})
            table_dims = _dims(header[0], first)
            base.update(table_dims)
            # a dimension the table's input column lacks is the command line's, said so (`shape_from`)
            given = {k: cmd[k] for k in _SHAPE_FLAGS.values() if k in cmd and k not in table_dims}
            base.update(given, shape_from="command line" if given else "table")
            for col, raw in zip(header[1:], row[1:], strict=False):
                m = _METRIC_COL.match(col)
                if not raw:
                    continue
                spread = _SPREAD.fullmatch(raw)
                if spread:
                    raw = spread["value"]
                if not re.fullmatch(NUMBER, raw):
                    if re.search(r"\d", raw):
                        raise ParseError(source, j + 1, f"expected a number under {col!r}, found {raw!r}")
                    if m is not None and m["metric"] in _UNITS and first.lower() != "average":
                        # tritonbench's error_msg in place of the backend's first metric: its timing failed here
                        failures.append((j + 1, m["backend"], first, raw))
                        rejects.append((j + 1, f"{col} {raw}", FAILED.format(msg=raw)))
                    continue
                cells += 1
                if first.lower() == "average":
                    rejects.append((j + 1, f"{col} {raw}", AVERAGE))
                elif m is None or m["metric"] not in _UNITS:
                    rejects.append((j + 1, f"{col} {raw}", f"column {col!r} is not a tritonbench metric read here"))
                else:
                    records.append(
                        dict(
                            base,
                            backend=f"{m['backend']} ({label})" if label else m["backend"],
                            line=j + 1,
                            metric=m["metric"],
                            statistic="value",
                            value=float(raw),
                            unit=_UNITS[m["metric"]],
                            note=SPREAD_NOTE.format(pct=spread["pct"]) if spread else None,
                        )
                    )
            j += 1
        i = j
    if failures:
        messages.append(_failed_message(failures))
    empty = "no tritonbench table (a column NAME-latency or NAME-tflops over a row of dashes) found"
    return finish(TOOL, source, records, rejects, messages, cells, empty=empty)


def _failed_message(failures: list[tuple[int, str, str, str]]) -> str:
    """One warning naming every timing tritonbench printed an error for: backend, what it printed and
    means, the inputs and their lines (the chapter's completeness line says it)."""
    by: dict[tuple[str, str], list[tuple[int, str]]] = {}
    for line, backend, name, msg in failures:
        by.setdefault((backend, msg), []).append((line, " ".join(name.split())))
    parts = []
    for (backend, msg), where in by.items():
        inputs = " and ".join(name for _, name in where)
        lines = ", ".join(str(line) for line, _ in where)
        meaning = _ERRORS.get(msg, "the exception it raised")
        parts.append(f"{backend} printed {msg!r} ({meaning}) at {inputs} (line{'s' if len(where) > 1 else ''} {lines})")
    n = len(failures)
    return f"{FAILED_WARNING} {n} timing{'s' if n > 1 else ''} failed: " + "; ".join(parts)


#: tritonbench's cuDNN backend is labelled with the library it ran (`label=f"cudnn_{torch.backends.cudnn.version()}"`,
#: operators/flash_attention/operator.py): cuDNN's version integer, major x 10,000 + minor x 100 + patch
#: from cuDNN 9 on (90100 is 9.1.0), major x 1,000 + minor x 100 + patch before it (8902 is 8.9.2).
_CUDNN = re.compile(r"^cudnn_(?P<v>\d{4,6})\b")


def cudnn_version(backend: str) -> str | None:
    """The cuDNN release a `cudnn_NNNNN` backend label names, else None."""
    m = _CUDNN.match(backend)
    if not m:
        return None
    v = int(m["v"])
    major, rest = (v // 10000, v % 10000) if v >= 90000 else (v // 1000, v % 1000)
    return f"cuDNN {major}.{rest // 100}.{rest % 100}"


def table_facts(table) -> list[tuple]:
    """The cuDNN release a `cudnn_NNNNN` column names, on the first row that prints it."""
    out, seen = [], set()
    for backend, line in zip(table.get("backend", []), table.get("line", []), strict=False):
        version = cudnn_version(str(backend))
        if version and version not in seen:
            seen.add(version)
            out.append(("version", version, int(line), str(backend).split(" (")[0]))
    return out


TOOL = register(
    Tool(
        name=NAME,
        settings=SETTINGS,
        sniff=sniff,
        parse=parse,
        description="tritonbench operator tables (python run.py --op flash_attention ...): latency, TFLOP/s, "
        "speedup per backend and input",
        command="python run.py --op flash_attention --metrics latency,tflops (meta-pytorch/tritonbench)",
        metrics=METRICS,
        facts=table_facts,
        refuses=refuses,
    )
)
