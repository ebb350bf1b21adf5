"""llama.cpp `llama-bench`: markdown tables, `-o json`, `-o jsonl`, `-o csv` and `-o sql`, alone or inside a write-up.

What llama-bench prints (tools/llama-bench/llama-bench.cpp):
each test is repeated `-r` times (default 5, after one warm-up run); `t/s` is the mean of the
per-repetition rates ``(n_prompt + n_gen) / t`` and `±` their sample (Bessel) standard deviation.
JSON and JSONL add `samples_ns` / `samples_ts`, one value per repetition.

How it lands in the tidy table
------------------------------
* One metric per kind of test, in tok/s: ``pp_rate`` (prompt processing, n_gen = 0), ``tg_rate``
  (generation, n_prompt = 0, including ``tg128 @ d8192``), ``pg_rate`` (``pp512+tg128``: the rate is
  (n_prompt + n_gen) tokens over the whole test, as llama-bench computes it). The test itself is a
  setting column (``test``, normalised to the current spelling: ``pp 512`` -> ``pp512``; ik_llama.cpp's
  ``tg64@pp128`` -> ``tg64 @ d128``) with ``n_prompt``, ``n_gen``, ``n_depth``.
* Statistics: ``mean`` and ``std`` (t/s and ±, or avg_ts / stddev_ts), and ``value`` per repetition
  (``rep`` = 1, 2, ...) from JSON ``samples_ts``. JSON/CSV also give the test duration
  (``avg_ns``, ``stddev_ns``, ``samples_ns``): metric ``<kind>_duration`` in ms.
* Markdown settings come from the table's columns, then from the command line above the table
  (``-m``, ``-ngl``, ``-fa``, ``-t``, ... when given a single value; after a shell prompt or
  ``VAR=value`` assignments, which go to extra_settings as ``env ...``; continued with a trailing backslash;
  quotes removed; a ``$(...)`` value is unknown), the device lines (gpu: ``Device 0: <name>, gfxNNNN``
  as "<name> (gfxNNNN)", ``ggml_vulkan: 0 = <name> (driver)``, ggml-opencl's ``device: '<name> (OpenCL ...)'``
  (one per device; its ``default device:`` line names the device, no listing), the GPU rows of the SYCL device
  list, ggml's ``register_device: registered device SYCL0 (<name>)`` of a non-CPU device), the ``build: <commit> (<number>)`` line after the table, a heading such as ``### 600W``
  (power_limit_w), and the prose line just above the table outside code (caption: "with ncmoe32"
  tells two runs of a write-up apart). A command, its devices and caption apply to the next table
  only. Log lines printed between the rows (``ggml_vulkan: Compiling shaders...``) are skipped.
  The ``size`` column is GiB (MiB below 1 GiB), ``params`` billions (or millions).
* JSON/CSV keep ``cpu_info`` as ``cpu`` (what names the device of a CPU-only run).
* Old JSON/CSV keys (``cuda``, ``metal``, ``gpu_blas``, ``opencl``, ... booleans; no ``n_depth``) give
  the backend name; new ones use ``backends``.

Counting: each number that is a measurement (mean, ±, each sample, each duration) is one numeric cell;
cells_read == len(table) + len(rejected).

Refused by name (`refuses`): a markdown table whose only llama-bench columns are `test` and `t/s` (other
columns of the writer's own beside them, `Peak VRAM`), its rows llama-bench tests with `mean ± sd` rates.
llama-bench's markdown printer writes model, size, params and backend on every row
(`markdown_printer`): such a table is copied by hand from its print, and its rows keep nothing of the run
but the test and the rate (a trimmed copy that keeps the backend or the model is read). Not read.
"""

from __future__ import annotations

import csv
import json
import math
import re
from dataclasses import dataclass, field

from benchbook.ingest import llama_timings
from benchbook.ingest.core import (
    NUMBER,
    Parsed,
    ParseError,
    Tool,
    finish,
    heading_words,
    markdown_cells,
    register,
    unread_table,
)
from benchbook.ingest.rows import Row, row, row_type
from benchbook.ingest.text import Lines, continued, search, split_n
from benchbook.nouns import counted

NAME = "llama-bench"

SETTINGS = {
    "section": "str",
    "model": "str",
    "model_file": "str",
    "model_size_gib": "float64",
    "params_b": "float64",
    "backend": "str",
    "gpu": "str",
    "cpu": "str",
    # how many GPUs llama-bench's own listing names: `gpu_info` joins every GPU device the build sees
    # (`get_gpu_info()`: ", " in current builds, "/" in old CUDA ones), the text output lists each on a
    # device line; none where the file prints no listing (a name from a heading is no count)
    "gpus_listed": "Int64",
    "caption": "str",
    "build": "str",
    "ngl": "Int64",
    "threads": "Int64",
    "n_cpu_moe": "Int64",
    "fa": "str",
    "type_k": "str",
    "type_v": "str",
    "n_batch": "Int64",
    "n_ubatch": "Int64",
    "test": "str",
    "n_prompt": "Int64",
    "n_gen": "Int64",
    "n_depth": "Int64",
    "power_limit_w": "float64",
    "rep": "Int64",
    # the repetitions each printed mean and std are of: the command line's -r (none printed: unknown)
    "n_reps": "Int64",
    "sweep_repeat": "Int64",
    "extra_settings": "str",
    # the script that printed the rate as an average over llama-bench runs (`COMPARE_SCRIPT`); none
    # for llama-bench's own output
    "averaged_by": "str",
}
#: compare-llama-bench.py: each t/s the unweighted mean of one build's avg_ts over its runs, no spread.
#: It shows its CPU column (cpu_info) wherever -ngl is not 99 or the build has no GPU BLAS, a Metal run
#: included: in its tables the CPU names the host, and decides no mode (`analysis.bandwidth.run_mode`).
COMPARE_SCRIPT = "compare-llama-bench.py"
#: A tidy row's columns, in the order its tuple holds them.
_ROW = row_type(SETTINGS)

METRICS = {
    "pp_rate": "tok/s: prompt processing rate (n_prompt tokens / test time), per repetition then averaged",
    "tg_rate": "tok/s: generation rate (n_gen single-token decodes / test time)",
    "pg_rate": "tok/s: (n_prompt + n_gen) / time of a pp+tg test",
    "pp_duration": "ms: wall time of one pp test repetition (JSON/CSV avg_ns, stddev_ns, samples_ns)",
    "tg_duration": "ms: wall time of one tg test repetition",
    "pg_duration": "ms: wall time of one pp+tg test repetition",
}

# ---------------------------------------------------------------------------------------------
# Test names

_TEST_RE = re.compile(
    r"^\s*(?:(?P<pp>pp)\s*(?P<np>\d+)\s*(?:\+\s*tg\s*(?P<ng2>\d+))?|(?P<tg>tg)\s*(?P<ng>\d+)"
    r"(?:\s*@\s*pp\s*(?P<gp>\d+))?)(?:\s*@\s*d\s*(?P<d>\d+))?\s*$"
)


def parse_test(name: str) -> tuple[int, int, int] | None:
    """(n_prompt, n_gen, n_depth) of a test name: ``pp512``, ``pp 512``, ``tg128 @ d8192``,
    ``pp4096+tg128``, ik_llama.cpp ``tg64@pp128`` (generation after a 128-token prompt, read as
    depth 128). None when the name is not a llama-bench test."""
    m = _TEST_RE.match(name or "")
    if not m:
        return None
    depth = int(m["d"]) if m["d"] else 0
    if m["pp"]:
        return int(m["np"]), int(m["ng2"]) if m["ng2"] else 0, depth
    if m["gp"]:
        return 0, int(m["ng"]), depth + int(m["gp"])
    return 0, int(m["ng"]), depth


def test_name(n_prompt: int, n_gen: int, n_depth: int) -> str:
    """The current llama-bench spelling of a test (markdown_printer::print_test)."""
    if n_prompt > 0 and n_gen == 0:
        base = f"pp{n_prompt}"
    elif n_gen > 0 and n_prompt == 0:
        base = f"tg{n_gen}"
    else:
        base = f"pp{n_prompt}+tg{n_gen}"
    return base + (f" @ d{n_depth}" if n_depth > 0 else "")


def kind(n_prompt: int, n_gen: int) -> str:
    """pp, tg or pg."""
    if n_gen == 0:
        return "pp"
    if n_prompt == 0:
        return "tg"
    return "pg"


# ---------------------------------------------------------------------------------------------
# Small converters

_NUM = NUMBER
_RATE_RE = re.compile(
    rf"^\s*(?P<mean>{_NUM}|nan|-?inf)\s*(?:(?P<pm>±|Â±|\+/-|\+-)\s*(?P<std>{_NUM}|nan|-?inf))?\s*$", re.I
)
_SIZE_RE = re.compile(rf"^\s*({_NUM})\s*(GiB|MiB|KiB|GB|MB)?\s*$", re.I)
_PARAMS_RE = re.compile(rf"^\s*({_NUM})\s*([BMK])?\s*$", re.I)
_INT_RE = re.compile(r"^\s*[-+]?\d+\s*$")


def _size_gib(text: str) -> float | None:
    m = _SIZE_RE.match(text or "")
    if not m:
        return None
    v = float(m[1])
    unit = (m[2] or "GiB").lower()
    return {"gib": v, "mib": v / 1024, "kib": v / 1024**2, "gb": v * 1e9 / 1024**3, "mb": v * 1e6 / 1024**3}[unit]


def _params_b(text: str) -> float | None:
    m = _PARAMS_RE.match(text or "")
    if not m:
        return None
    v = float(m[1])
    return v * {"b": 1.0, "m": 1e-3, "k": 1e-6}[(m[2] or "B").lower()]


def _int(v) -> int | None:
    if v is None or isinstance(v, bool):
        return int(v) if isinstance(v, bool) else None
    if isinstance(v, int):
        return v
    if isinstance(v, float) and math.isfinite(v) and v == int(v):
        return int(v)
    s = str(v).strip()
    return int(s) if _INT_RE.match(s) and len(s) < 19 else None


def _float(v) -> float | None:
    if v is None or isinstance(v, bool):
        return None
    if isinstance(v, (int, float)):
        return float(v)
    try:
        return float(str(v).strip())
    except ValueError:
        return None


def _fa(v) -> str | None:
    """flash_attn normalised: "1" (on), "0" (off), "auto"."""
    if v is None:
        return None
    s = str(v).strip().lower()
    if s in ("1", "true", "on", "yes", "enabled"):
        return "1"
    if s in ("0", "false", "off", "no", "disabled"):
        return "0"
    if s in ("-1", "auto"):
        return "auto"
    return s or None


def _str(v) -> str | None:
    if v is None:
        return None
    s = str(v).strip()
    return s or None


# ---------------------------------------------------------------------------------------------
# Context of a markdown table: headings, command line, device, build

_HEADING_RE = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_POWER_RE = re.compile(r"(?<![\w.])(\d{2,4}(?:\.\d+)?)\s?W(?:atts?)?\b", re.I)
_DEVICE_RE = re.compile(r"^\s*Device\s+(\d+):\s*([^,]+)(?:,\s*(gfx[0-9a-f]+))?", re.I)
_VULKAN_RE = re.compile(r"^\s*ggml_vulkan:\s*(\d+)\s*=\s*([^|]+?)\s*(?:\||$)")
#: Metal's device lines (``ggml_metal_init: found device: Apple M2`` / ``GPU name:   Apple M2``, a
#: timestamp and level may precede them): printed with -v, or pasted above a table from another tool
_METAL_RE = re.compile(r"\bggml_metal(?:_device)?_init:\s*(?:found device|GPU name):\s*(\S.*?)\s*$")
#: ggml's backend registry log (`register_device: registered device SYCL0 (Intel(R) Arc(TM) Pro B60 Graphics)`):
#: the device's name (backend and index) and description; CPU, BLAS and RPC are not a device llama-bench offloads to
_REGISTER_RE = re.compile(r"\bregister_device:\s*registered device\s+([A-Za-z]+)(\d*)\s*\((.+)\)\s*$")
_NOT_OFFLOAD = ("cpu", "blas", "rpc")
#: ggml-opencl's device prints (ggml-opencl.cpp): `ggml_opencl: device: 'NAME (OpenCL 3.0 ...)'` for each device
#: it probes (a listing), then `default device: '...'` (the first of them), or before 2025 `selecting device:
#: 'NAME'`; the OpenCL version after the name is the driver's, no part of the device's name (a copy may drop
#: the closing quote).
_OPENCL_RE = re.compile(r"\bggml_opencl:\s*(?P<which>default |selecting )?device:\s*'(?P<name>[^'`]+)")
_OPENCL_VERSION = re.compile(r"\s*\(OpenCL [^()]*(?:\([^()]*\)[^()]*)*\)\s*$")
_SYCL_RE = re.compile(r"^\s*\|\s*(\d+)\|\s*\[(\w+):(\w+):\d+\]\|\s*([^|]*?)\s*\|")
#: ggml-cuda's `ggml_cuda_init` when `cudaGetDeviceCount` fails (`failed to initialize CUDA: no CUDA-capable
#: device is detected`; ROCm and MUSA builds print their own name): it returns a device count of 0, so the
#: backend registers no device and llama-bench offloads nothing, whatever `-ngl` and the backend column say
_NO_GPU_RE = re.compile(r"\bggml_cuda_init:\s*failed to initialize (?:CUDA|ROCm|MUSA)\b")
#: a system listing's GPU line (`GPU: Intel Arc B580`, `- GPU: ...`): a name with a letter in it
_STATED_GPU_RE = re.compile(r"^\s*(?:[-*]\s+)?GPU\s*:\s*([A-Za-z][^|=]*?)\s*$")
_BUILD_RE = re.compile(r"^\s*build:\s*([0-9a-fA-F]+)\s*\((\d+)\)")
# a shell prompt (`$`, `❯`, `user@host:~$`, a `>` quote) and environment assignments may precede the program
_CMD_RE = re.compile(
    r"^\s*(?:```\s*)?(?:[^|`]*?[$❯>%#]\s+)?(?:\w+=\S*\s+)*(?:\S*[\\/])?llama-bench(?:\.exe)?(?=\s|$)(.*)$"
)
_ENV_RE = re.compile(r"(?<![\w-])([A-Z][A-Z0-9_]*=\S*)\s+(?=(?:\w+=\S*\s+)*(?:\S*[\\/])?llama-bench)")
_FENCE_RE = re.compile(r"^\s*(```|~~~)")


@dataclass
class _Ctx:
    headings: list[tuple[int, str]] = field(default_factory=list)
    cmd: dict[str, str] = field(default_factory=dict)
    env: list[str] = field(default_factory=list)
    devices: dict[tuple[str, int], str] = field(default_factory=dict)
    caption: str | None = None
    #: The GPU a write-up's system listing names (`GPU: Intel Arc B580`): the device of every table
    #: below it that prints no device line of its own; a heading or a command does not reset it.
    stated_gpu: str | None = None
    #: The GPU backend printed that it initialized no device (`_NO_GPU_RE`): the next table ran on the CPU.
    no_gpu: bool = False

    def section(self) -> str | None:
        return " / ".join(t for _, t in self.headings) or None

    def power(self) -> float | None:
        for _, t in reversed(self.headings):
            m = _POWER_RE.search(t)
            if m:
                return float(m[1])
        return None

    def gpus_listed(self) -> int | None:
        """How many devices the first listing seen names (none without a listing; 0 where the GPU backend
        printed that it found none)."""
        if not self.devices:
            return 0 if self.no_gpu else None
        first = next(iter(self.devices))[0]
        return sum(1 for kind, _ in self.devices if kind == first)

    def gpu(self) -> str | None:
        """The devices of the first listing seen (a SYCL build lists one GPU under level_zero and again
        under opencl)."""
        if not self.devices:
            return self.stated_gpu
        first = next(iter(self.devices))[0]
        return " + ".join(name for (kind, _), name in sorted(self.devices.items()) if kind == first)


_SUBST_RE = re.compile(r"\$\((?:[^()]|\([^()]*\))*\)|`[^`]*`")
_TOKEN_RE = re.compile(r"""(?:'[^']*'|"[^"]*"|[^\s'"])+""")
_QUOTED_RE = re.compile(r"'([^']*)'|\"([^\"]*)\"")
_SHELL_STOP = re.compile(r"^(?:\||\|\||&&?|;|\d?>.*|<.*)$")


def _shell_tokens(rest: str) -> list[str]:
    """Words of a shell command line up to a pipe, redirection or `;`, with quotes removed; a
    command substitution such as ``$(lscpu | ...)`` is one word (its value is not known)."""
    out = []
    for t in _TOKEN_RE.findall(_SUBST_RE.sub("$(...)", rest)):
        if _SHELL_STOP.match(t):
            break
        out.append(_QUOTED_RE.sub(lambda m: m[1] if m[1] is not None else m[2], t))
    return out


def _parse_cmd(rest: str) -> dict[str, str]:
    """Flags of a llama-bench command line: {flag: value}. llama-bench appends every occurrence of a
    flag to its list (`-m a.gguf -m b.gguf` runs both models, as `-p 512,1024` runs both lengths), so
    a flag given twice keeps its values as one comma list: it names no single value."""
    toks = _shell_tokens(rest)
    out: dict[str, str] = {}
    i = 0
    while i < len(toks):
        t = toks[i]
        if t.startswith("-") and not _NUM_ONLY.match(t):
            val = (
                toks[i + 1]
                if i + 1 < len(toks) and not (toks[i + 1].startswith("-") and not _NUM_ONLY.match(toks[i + 1]))
                else ""
            )
            key = t.lstrip("-")
            out[key] = f"{out[key]},{val}" if out.get(key) and val else val
            i += 2 if val else 1
        else:
            i += 1
    return out


_NUM_ONLY = re.compile(rf"^{_NUM}$")

#: command-line flag -> setting, for flags given one value.
_FLAG_SETTINGS = {
    "ngl": "ngl",
    "n-gpu-layers": "ngl",
    "t": "threads",
    "threads": "threads",
    "ncmoe": "n_cpu_moe",
    "n-cpu-moe": "n_cpu_moe",
    "fa": "fa",
    "flash-attn": "fa",
    "ctk": "type_k",
    "cache-type-k": "type_k",
    "ctv": "type_v",
    "cache-type-v": "type_v",
    "b": "n_batch",
    "batch-size": "n_batch",
    "ub": "n_ubatch",
    "ubatch-size": "n_ubatch",
}


#: A shell variable in a command (`$MODEL`, `${MODEL}`, `"$t"`): the shell put a value there that the
#: file does not show, so the flag names nothing (the table's own columns say what ran).
_SHELL_VAR = re.compile(r"\$\{?[A-Za-z_][A-Za-z0-9_]*")


def _unexpanded(value: str) -> bool:
    """Whether a command's flag value is, or holds, an unexpanded shell variable."""
    return bool(_SHELL_VAR.search(value))


#: markdown column header -> setting.
_MD_COLUMNS = {
    "model": "model",
    "size": "model_size_gib",
    "params": "params_b",
    "backend": "backend",
    "ngl": "ngl",
    "n_gpu_layers": "ngl",
    "threads": "threads",
    "n_threads": "threads",
    "n_cpu_moe": "n_cpu_moe",
    "fa": "fa",
    "flash_attn": "fa",
    "type_k": "type_k",
    "type_v": "type_v",
    "n_batch": "n_batch",
    "n_ubatch": "n_ubatch",
    "test": "test",
    # the first markdown printer (llama.cpp PR #2626, 2023) gave the test as these two columns
    "n_prompt": "test",
    "n_gen": "test",
    "t/s": "t/s",
}


#: A GFM delimiter row written without outer pipes (`-- | --`, `:--- | ---:`).
_BARE_DELIMITER = re.compile(r"^\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)+\|?\s*$")


def outer_pipes(lines: list[str]) -> list[str]:
    """The lines with the outer pipes GFM lets a table leave out (`model | size | ... | t/s` over
    `-- | -- | ...`, as a table copied from a rendered page is pasted) put back, one line for one,
    so the table reads as the tool prints it. A table is a header row over a delimiter row; its
    body runs to the first line without a pipe."""
    out = list(lines)
    i = 0
    while i < len(out) - 1:
        if "|" in out[i] and not out[i].lstrip().startswith("|") and _BARE_DELIMITER.match(out[i + 1]):
            j = i
            while j < len(out) and "|" in out[j] and not out[j].lstrip().startswith("|"):
                s = out[j].strip()
                out[j] = f"| {s} |" if not s.endswith("|") else f"| {s}"
                j += 1
            i = j
        else:
            i += 1
    return out


def _is_header(line: str) -> bool:
    if not line.lstrip().startswith("|"):
        return False
    cells = [c.lower() for c in markdown_cells(line)]
    return ("test" in cells or {"n_prompt", "n_gen"} <= set(cells)) and "t/s" in cells or _joined(cells) is not None


def _is_renamed_header(line: str) -> bool:
    """A llama-bench table header missing 'test' or 't/s' (renamed by a fork, a script or by hand):
    it names the model and at least two more of llama-bench's columns."""
    if not line.lstrip().startswith("|") or _is_header(line):
        return False
    cells = {c.lower() for c in markdown_cells(line)}
    return "model" in cells and len(cells & _MD_COLUMNS.keys()) >= 3


def _is_separator(line: str) -> bool:
    cells = markdown_cells(line)
    return any(cells) and all(re.fullmatch(r":?-+:?", c) for c in cells if c)


# ---------------------------------------------------------------------------------------------
# The parser


class _Out:
    def __init__(self) -> None:
        self.records: list[Row] = []  # tidy records as tuples (`rows.Row`)
        self.rejected: list[tuple[int, str, str]] = []
        self.messages: list[str] = []
        self.cells = 0
        self.blocks = 0
        self.source_of: list[int] = []  # per record: the table row, JSON object, CSV row or INSERT it came from
        self.current = 0
        self.fields: dict[int, dict[str, str]] = {}  # per record of a JSON/CSV/SQL object: its `RECORD_FIELDS`

    def keep(self, base: dict, line: int, metric: str, statistic: str, value: float | None, unit: str, note=None):
        self.cells += 1
        rec = dict(base)
        rec.update(line=line, metric=metric, statistic=statistic, unit=unit, note=note)
        rec["value"] = float("nan") if value is None else value
        self.records.append(row(_ROW, rec))
        self.source_of.append(self.current)

    def next_source(self) -> None:
        """The records kept from here on come from the next row, object or statement."""
        self.current += 1

    def reject(self, line: int, text: str, reason: str):
        self.cells += 1
        self.rejected.append((line, text, reason))


def _gpus_listed(gpu_info) -> int | None:
    """The GPUs a record's `gpu_info` names (one per description it joins); none for no text."""
    text = _str(gpu_info)
    return len([p for p in re.split(r", |/", text) if p.strip()]) if text else None


def _base(**kw) -> dict:
    rec = {k: None for k in SETTINGS}
    rec.update({k: v for k, v in kw.items() if k in SETTINGS})
    return rec


def _rate_rows(out: _Out, base: dict, line: int, cell: str, reps: int | None, said: str | None = None) -> None:
    """The t/s cell: 'mean ± std' (or a bare mean); `said` a note the mean carries (a printed ratio)."""
    m = _RATE_RE.match(cell)
    if not m:
        n = len(re.findall(_NUM, cell))
        if n == 0:
            out.messages.append(f"line {line}: t/s cell {cell!r} holds no number; row skipped")
        for _ in range(max(n, 0)):
            out.reject(line, cell, "t/s cell is not 'mean ± std'")
        return
    metric = f"{kind(base['n_prompt'], base['n_gen'])}_rate"
    if m["pm"] == "Â±":
        out.messages.append(f"line {line}: repaired mojibake 'Â±' (UTF-8 read as Latin-1) to '±'")
    mean = float(m["mean"])
    # 0 and NaN are llama-bench's "not measured"; a negative or infinite rate is left to the range screen
    note = "not measured (llama-bench printed 0 or NaN)" if mean == 0 or math.isnan(mean) else None
    out.keep(base, line, metric, "mean", mean if note is None else None, "tok/s", note or said)
    if m["std"] is not None:
        std = float(m["std"])
        snote = None
        if reps == 1 and std == 0:
            snote = "single repetition (-r 1): llama-bench prints 0 when it cannot compute a std"
        elif math.isnan(std):
            snote = "not measured (NaN)"
        out.keep(base, line, metric, "std", None if snote else std, "tok/s", snote)


#: a log line a program prints among llama-bench's rows: `tag: text`, a warning or error, a `...` progress
#: print, or a banner opened by a run of `=` or `*` (`============ Repacked 220 tensors`), which Markdown
#: gives no meaning
_LOG_LINE_RE = re.compile(r"^\s*[\w.\-\[\]]+:\s|^\s*[=*]{3,}\s+\S|warning|error|\.\.\.", re.I)

#: a tool's log line ("ggml_vulkan: ...", "load_backend: ...", "found 1 SYCL devices:"): never a caption
_LOG_TAG_RE = re.compile(r"^\s*(?:[a-z][a-z0-9]*_[a-z0-9_]*\s*:|found \d+ \w+ devices)", re.I)


#: ROCm's ISA override (`export HSA_OVERRIDE_GFX_VERSION=11.5.1`, or as a command's prefix)
_GFX_OVERRIDE_RE = re.compile(r"\bHSA_OVERRIDE_GFX_VERSION\s*=\s*[\"']?(\d+)\.(\d+)\.(\d+)")


def _gfx_overrides(lines: list[str]) -> dict[str, int]:
    """The gfx targets the file forces on ROCm, each with the line (1-based) that sets it. The ROCm
    runtime reports every GPU agent as the ISA that `HSA_OVERRIDE_GFX_VERSION=M.m.s` names
    (gfx{M}{m:x}{s:x}: 11.5.1 is gfx1151, 9.0.10 gfx90a), whatever the chip, so a device line's gfx
    target that one of these names is the override, not the part."""
    found = {}
    for i, line in enumerate(lines):
        for m in _GFX_OVERRIDE_RE.finditer(line):
            found.setdefault(f"gfx{int(m[1])}{int(m[2]):x}{int(m[3]):x}", i + 1)
    return found


def _device(line: str) -> tuple[str, int, str] | None:
    """A device line printed before the table: ("cuda", index, name) for ``Device N: name, ...``
    (ROCm's ``gfxNNNN`` arch kept: "AMD Radeon Graphics (gfx1151)"), ("vulkan", ...) for
    ``ggml_vulkan: N = name (driver) | ...``, ("metal", 0, name) for Metal's ``found device`` or ``GPU
    name`` line, ("sycl:<backend>", ...) for a GPU row of the SYCL
    device list (CPU rows are not the device llama-bench offloads to), (backend, ...) for ggml's
    ``register_device: registered device SYCL0 (description)`` of a device other than CPU, BLAS or RPC."""
    m = _DEVICE_RE.match(line)
    if m:
        name = m[2].strip()
        return "cuda", int(m[1]), f"{name} ({m[3].lower()})" if m[3] else name
    m = _VULKAN_RE.match(line)
    if m:
        return "vulkan", int(m[1]), m[2]
    m = _METAL_RE.search(line)
    if m:
        return "metal", 0, m[1]
    m = _SYCL_RE.match(line)
    if m and m[3].lower() == "gpu" and m[4]:
        return f"sycl:{m[2].lower()}", int(m[1]), m[4]
    m = _REGISTER_RE.search(line)
    if m and m[1].lower() not in _NOT_OFFLOAD:
        return m[1].lower(), int(m[2] or 0), m[3].strip()
    return None


def _command(lines: list[str], i: int) -> tuple[str, int] | None:
    """The llama-bench command at line i, joined with its ``\\`` continuation lines, and the index
    of its last line."""
    line = lines[i]
    if line.lstrip().startswith("|") or not _CMD_RE.search(line):
        return None
    return continued(lines, i, len(lines))


def _table_rows(lines: list[str], j: int, width: int) -> tuple[list[int], int, list[int]]:
    """Rows of the table whose body starts at line j: (row indices, end, skipped log lines). A log
    line printed between the rows (``ggml_vulkan: Compiling shaders...Done!``, a driver warning, the
    banner ik_llama.cpp's run-time repack prints, ``============ Repacked 220 tensors``) does not end the
    table when a row as wide as the header follows it: llama-bench prints its table to stdout while the
    loader writes to stderr, so a log line can land among the rows."""
    rows, logs, n = [], [], len(lines)
    while j < n:
        line = lines[j]
        if line.lstrip().startswith("|"):
            if _is_header(line):
                break
            if not _is_separator(line):
                rows.append(j)
            j += 1
            continue
        k = j
        while k < n and lines[k].strip() and not lines[k].lstrip().startswith("|") and _LOG_LINE_RE.search(lines[k]):
            if _FENCE_RE.match(lines[k]) or _HEADING_RE.match(lines[k]) or _BUILD_RE.match(lines[k]):
                break
            k += 1
        if k == j or k >= n or not lines[k].lstrip().startswith("|") or _is_header(lines[k]):
            break
        if len(markdown_cells(lines[k])) != width:
            break
        logs.extend(range(j, k))
        j = k
    return rows, j, logs


def _is_caption(line: str, in_fence: bool) -> bool:
    s = line.strip()
    return bool(s) and not in_fence and not s.startswith("|") and not _BUILD_RE.match(s) and not _LOG_TAG_RE.match(s)


def _parse_markdown(lines: list[str], out: _Out, taken: set[int]) -> None:
    ctx = _Ctx()
    in_fence = False
    i = 0
    n = len(lines)
    overrides = _gfx_overrides(lines)
    while i < n:
        line = lines[i]
        if i in taken:  # a compare-llama-bench.py table, read by `_parse_compare`
            i += 1
            continue
        if _FENCE_RE.match(line):
            in_fence = not in_fence
            i += 1
            continue
        h = _HEADING_RE.match(line)
        if h and not line.startswith("#!"):
            level = len(h[1])
            ctx.headings = [(lv, t) for lv, t in ctx.headings if lv < level] + [(level, heading_words(h[2]))]
            ctx.cmd, ctx.env, ctx.devices, ctx.caption, ctx.no_gpu = {}, [], {}, None, False
            i += 1
            continue
        if _NO_GPU_RE.search(line):
            ctx.devices, ctx.no_gpu = {}, True
            i += 1
            continue
        dev = _device(line)
        gfx = re.search(r"\((gfx[0-9a-f]+)\)$", dev[2]) if dev else None
        if gfx and gfx[1] in overrides:
            out.messages.append(
                f"line {i + 1}: the device's {gfx[1]} is the HSA_OVERRIDE_GFX_VERSION set at line "
                f"{overrides[gfx[1]]} (ROCm reports the forced target, not the chip's); the device is read as "
                f"{dev[2][: gfx.start()].strip()!r}"
            )
            dev = (*dev[:2], dev[2][: gfx.start()].strip())
        if dev:
            ctx.devices[dev[:2]] = dev[2]
            ctx.no_gpu = False
        if ocl := _OPENCL_RE.search(line):
            name = _OPENCL_VERSION.sub("", ocl["name"]).strip()
            if ocl["which"]:  # the device it runs on by default, no listing of every device it found
                ctx.stated_gpu = ctx.stated_gpu or name
            else:
                ctx.devices[("opencl", sum(1 for kind, _ in ctx.devices if kind == "opencl"))] = name
        m = _STATED_GPU_RE.match(line)
        if m:
            ctx.stated_gpu = m[1]
        cmd = _command(lines, i)
        if cmd:
            text, last = cmd
            m = _CMD_RE.search(text)
            flags, env = _parse_cmd(m[1]), _ENV_RE.findall(text)
            if ctx.cmd:  # several invocations listed with no table between: each prints its own table, and
                # the file does not say which one the next table is, so only what they all set applies
                flags = {k: v for k, v in flags.items() if ctx.cmd.get(k) == v}
                env = [e for e in env if e in ctx.env]
            ctx.cmd, ctx.env = flags, env
            ctx.devices, ctx.no_gpu = {}, False
            i = last + 1
            continue
        if not _is_header(line):
            if _is_renamed_header(line):
                j, items, message = unread_table(lines, i, NAME, "a 'test' and a 't/s' column")
                out.blocks += 1
                out.messages.append(message)
                for ln, text, reason in items:
                    out.reject(ln, text, reason)
                taken.update(range(i, j))
                i = j
                continue
            if not dev and _is_caption(line, in_fence):
                # prose just above a table (outside code) names what that run was: "with ncmoe32"
                text = line.strip()
                ctx.caption = text if len(text) <= 100 else text[:99] + "…"
            i += 1
            continue
        # a llama-bench table
        out.blocks += 1
        header = [c.lower() for c in markdown_cells(line)]
        joined = _joined(markdown_cells(line))
        drop = {k for k, _ in joined[0]} | {joined[1]} if joined else set()
        unknown = [c for k, c in enumerate(header) if c and c not in _MD_COLUMNS and k not in drop]
        if unknown:
            out.messages.append(
                f"line {i + 1}: columns {', '.join(unknown)} are not in the schema; kept as text in extra_settings"
            )
        j = i + 1
        if j < n and _is_separator(lines[j]):
            j += 1
        rows, j, logs = _table_rows(lines, j, len(markdown_cells(line)))
        if logs:
            out.messages.append(
                f"line {logs[0] + 1}: {counted(len(logs), 'log line')} printed inside the table skipped; the rows after them read"
            )
        # the build line: after the table, before any other table or heading
        build = None
        k = j
        while k < n and k < j + 8:
            bm = _BUILD_RE.match(lines[k])
            if bm:
                build = f"{bm[1]} ({bm[2]})"
                break
            if _is_header(lines[k]) or _HEADING_RE.match(lines[k]) or _CMD_RE.search(lines[k]):
                break
            k += 1
        table_ctx = {
            "section": ctx.section(),
            "gpu": ctx.gpu(),
            "gpus_listed": ctx.gpus_listed(),
            "caption": ctx.caption,
            "build": build,
            "power_limit_w": ctx.power(),
        }
        cmd = dict(ctx.cmd)
        for flag, val in cmd.items():
            if flag in _FLAG_SETTINGS and val and "," not in val and not _unexpanded(val):
                table_ctx.setdefault(_FLAG_SETTINGS[flag], val)
        # the tensor-buffer overrides the command sets, where the table prints no `ot` column (ik_llama.cpp's
        # llama-bench does not): they place the weights, so two commands' tables are two configurations
        buffers = next((cmd[k] for k in ("ot", "override-tensor", "override-tensors") if cmd.get(k)), None)
        if buffers and not _unexpanded(buffers):
            table_ctx["tensor_buffers"] = buffers.replace(",", ";")
        model_file = cmd.get("m") or cmd.get("model")
        if model_file and "," not in model_file and not _unexpanded(model_file):
            table_ctx["model_file"] = re.split(r"[\\/]", model_file)[-1]
        if ctx.env:
            table_ctx["env"] = " ".join(ctx.env)
        reps = _int(cmd.get("r") or cmd.get("repetitions"))
        if reps:
            table_ctx["n_reps"] = reps
        start = len(out.records)
        for r in rows:
            taken.add(r)
            if joined:
                _joined_row(lines[r], r + 1, markdown_cells(line), joined, table_ctx, reps, out)
                continue
            out.next_source()
            _md_row(lines[r], r + 1, header, table_ctx, reps, out)
        if any(_names_twice(v) for v in cmd.values()):
            _number_repeats(out, start)
        if not rows:
            out.messages.append(f"line {i + 1}: llama-bench table header with no rows (truncated output?)")
        taken.update(range(i, j))
        # a command, its devices and the prose above it belong to this table, not to the next one
        ctx.cmd, ctx.env, ctx.devices, ctx.caption = {}, [], {}, None
        i = j


def _names_twice(value) -> bool:
    """Whether a command-line value lists one item twice (`-d 0,0,512`)."""
    items = [x.strip() for x in str(value or "").split(",")]
    return len(items) > 1 and len(set(items)) < len(items)


def _number_repeats(out: _Out, start: int) -> None:
    """Records kept since `start` from one llama-bench run (a table whose command names a value twice,
    `-d 0,0,512` runs depth 0 twice; one JSON array or run of JSONL lines; one CSV table; a run of
    INSERT lines) that share settings, test, metric and statistic but come from different rows or
    objects: repeats to average, numbered 1, 2, ... in `sweep_repeat` in the output's order, never a
    conflict. One run prints each configuration once unless its sweep names it twice. (A markdown
    table without such a command, or two tables, that print the same test differently stay a
    conflict.)"""
    records = out.records
    skip = {_ROW._index[c] for c in ("line", "value", "note", "sweep_repeat")}
    groups: dict[tuple, list[int]] = {}
    for k in range(start, len(records)):
        key = tuple(v for i, v in enumerate(records[k]) if i not in skip)
        groups.setdefault(key, []).append(k)
    at = _ROW._index["sweep_repeat"]
    for ks in groups.values():
        sources = sorted({out.source_of[k] for k in ks})
        if len(sources) < 2:
            continue
        for k in ks:
            rec = list(records[k])
            rec[at] = sources.index(out.source_of[k]) + 1
            records[k] = _ROW(rec)


#: Markdown columns whose value is free text that may hold `|` (llama-bench's markdown printer joins a
#: row's fields with " | " and escapes nothing): `ot`, the tensor-buffer overrides, a list of regexes.
_FREE_TEXT_COLUMNS = ("ot",)


def _rejoin_free_text(cells: list[str], header: list[str]) -> list[str]:
    """A row with more cells than its header whose one free-text column holds `|`: the surplus cells
    are that column's pieces, joined back (the printer puts spaces only between fields)."""
    free = [header.index(c) for c in _FREE_TEXT_COLUMNS if c in header]
    surplus = len(cells) - len(header)
    if surplus <= 0 or len(free) != 1:
        return cells
    i = free[0]
    return cells[:i] + ["|".join(cells[i : i + surplus + 1])] + cells[i + surplus + 1 :]


def _test_of_counts(n_prompt: str | None, n_gen: str | None) -> str:
    """The test that a row of llama-bench's first printer (`n_prompt` and `n_gen` columns, no `test`) ran,
    named as llama-bench names it from the same two counts (`test::get_test_name`): pp<N> when it generates
    nothing, tg<M> when it has no prompt, pp<N>+tg<M> for both; '' where a count is not a number."""
    p, g = _int(n_prompt), _int(n_gen)
    if p is None or g is None or (p == 0 and g == 0):
        return ""
    return f"pp{p}" if g == 0 else f"tg{g}" if p == 0 else f"pp{p}+tg{g}"


def _md_row(
    line: str, lineno: int, header: list[str], tctx: dict, reps: int | None, out: _Out, said: str | None = None
) -> None:
    cells = _rejoin_free_text(markdown_cells(line), header)
    if len(cells) > len(header):
        extra = cells[len(header) :]
        if any(extra):
            # a row wider than its header with content in the extra cells: the t/s column cannot be placed,
            # so every rate it may hold is set aside: each 'mean ± std' cell, and the number under the
            # header's t/s (a bare mean has no ± to tell it by)
            at = header.index("t/s") if "t/s" in header else None
            rates = [
                c
                for i, c in enumerate(cells)
                if (m := _RATE_RE.match(c)) and re.search(_NUM, c) and (m["pm"] is not None or i == at)
            ]
            for c in rates:
                for _ in range(2 if _RATE_RE.match(c)["std"] is not None else 1):
                    out.reject(lineno, line.strip(), "row has more cells than the header")
            if not rates:
                out.messages.append(f"line {lineno}: row wider than the header with no t/s cell; skipped")
            return
        cells = cells[: len(header)]
    if len(cells) < len(header):
        rate_cells = [c for c in cells if "±" in c or "Â±" in c]
        for c in rate_cells:
            m = _RATE_RE.match(c)
            for _ in range(2 if (m and m["std"] is not None) else 1):
                out.reject(lineno, line.strip(), "row has fewer cells than the header (truncated?)")
        if not rate_cells:
            out.messages.append(f"line {lineno}: row with fewer cells than the header and no t/s cell; skipped")
        return
    row = dict(zip(header, cells, strict=True))
    test = row.get("test", "") if "test" in row else _test_of_counts(row.get("n_prompt"), row.get("n_gen"))
    parsed = parse_test(test)
    rate_cell = row.get("t/s", "")
    if parsed is None:
        m = _RATE_RE.match(rate_cell)
        nnum = (2 if m["std"] is not None else 1) if m else len(re.findall(_NUM, rate_cell))
        for _ in range(nnum):
            out.reject(lineno, line.strip(), f"test name {test!r} is not pp<N>, tg<N>, pp<N>+tg<M> (@ d<D>)")
        if nnum == 0:
            out.messages.append(f"line {lineno}: unknown test {test!r} and no t/s value; skipped")
        return
    n_prompt, n_gen, n_depth = parsed
    base = _base(**tctx)
    # columns the schema does not name (a fork's `mla`, `fmoe`, ...) still tell runs apart
    extra = [f"{col}={val}" for col, val in row.items() if col and col not in _MD_COLUMNS]
    if tctx.get("tensor_buffers") and "ot" not in row:
        extra.append(f"ot={tctx['tensor_buffers']}")
    if tctx.get("env"):
        extra.append(f"env {tctx['env']}")
    base["extra_settings"] = ", ".join(extra) or None
    for col, val in row.items():
        key = _MD_COLUMNS.get(col)
        if key is None or key in ("test", "t/s"):
            continue
        if key == "model_size_gib":
            base[key] = _size_gib(val)
        elif key == "params_b":
            base[key] = _params_b(val)
        elif key == "fa":
            base[key] = _fa(val)
        elif SETTINGS[key] == "Int64":
            base[key] = _int(val)
        else:
            base[key] = _str(val)
    for key in ("ngl", "threads", "n_cpu_moe", "n_batch", "n_ubatch"):
        if isinstance(base[key], str):
            base[key] = _int(base[key])
    if isinstance(base.get("fa"), str):
        base["fa"] = _fa(base["fa"])
    base["power_limit_w"] = _float(base["power_limit_w"])
    base.update(test=test_name(n_prompt, n_gen, n_depth), n_prompt=n_prompt, n_gen=n_gen, n_depth=n_depth)
    _rate_rows(out, base, lineno, rate_cell, reps, said)


#: A rate column of a table that joins two builds' llama-bench prints by hand (before
#: compare-llama-bench.py, 2023): `t/s (Master)`, `t/s (PR)`, `master   t/s`, `PR t/s`.
_JOINED_RATE_RE = re.compile(r"^(?:t/s\s*\(\s*(?P<a>[^)]*?)\s*\)|t/s\s+(?P<b>\S.*?)|(?P<c>\S.*?)\s+t/s)$", re.I)
#: Its ratio column: the second build's rate over the first's (`Speedup`, `spedup`, `ratio`), or their
#: difference in percent (`diff`: `+14.5%` is 100 x (second / first - 1)): a comparison, never a setting.
_RATIO_RE = re.compile(r"^(?:speed\s*-?up|spedup|ratio|diff)$", re.I)


def _joined(cells: list[str]) -> tuple[list[tuple[int, str]], int | None] | None:
    """([(column, build)], ratio column) of a llama-bench table whose one `t/s` column is two, each
    labelled with the build it ran (a `test` column and llama-bench's `mean ± sd` cells, joined by
    hand), else None."""
    low = [c.strip().lower() for c in cells]
    if "test" not in low or "t/s" in low:
        return None
    rates = []
    for k, c in enumerate(cells):
        m = _JOINED_RATE_RE.match(c.strip())
        if m and (m["a"] or m["b"] or m["c"]):
            rates.append((k, (m["a"] or m["b"] or m["c"]).strip()))
    if len(rates) != 2:
        return None
    return rates, next((k for k, c in enumerate(cells) if _RATIO_RE.match(c.strip())), None)


def _joined_row(line: str, lineno: int, cells_h: list[str], joined, tctx: dict, reps, out: _Out) -> None:
    """One row of a joined table: each build's rate read as that build's llama-bench row (the other
    columns shared); the printed ratio is the second rate over the first, checked, and kept as the
    second rate's note, not as a measurement."""
    rates, ratio_at = joined
    cells = markdown_cells(line)
    drop = {k for k, _ in rates} | ({ratio_at} if ratio_at is not None else set())
    shared_h = [c.lower() for k, c in enumerate(cells_h) if k not in drop] + ["t/s"]
    if len(cells) != len(cells_h):
        _md_row(line, lineno, [c.lower() for c in cells_h], tctx, reps, out)  # rejected as a wrong-width row
        return
    shared = [c for k, c in enumerate(cells) if k not in drop]
    means = [_RATE_RE.match(cells[k]) for k, _ in rates]
    printed = cells[ratio_at].strip() if ratio_at is not None else ""
    said = None
    if printed and all(means) and float(means[0]["mean"]):
        ratio = float(means[1]["mean"]) / float(means[0]["mean"])
        percent = printed.endswith("%")
        shown = _float(printed.rstrip("%").lstrip("+")) if percent else _float(printed)
        places = len(printed.rstrip("%").split(".")[1]) if "." in printed else 0
        said_ratio = 100 * (ratio - 1) if percent else ratio
        if shown is not None and abs(said_ratio - shown) > 0.5 * 10**-places + 1e-9:
            out.messages.append(
                f"line {lineno}: {cells_h[ratio_at].strip()} {printed} is not "
                + (
                    f"100 x ({rates[1][1]} / {rates[0][1]} - 1) ({said_ratio:.1f}%)"
                    if percent
                    else f"{rates[1][1]} / {rates[0][1]} ({ratio:.3f})"
                )
                + "; the two rates are kept, the printed ratio is not"
            )
        said = f"{cells_h[ratio_at].strip()} over {rates[0][1]} as printed: {printed} (ratio {ratio:.3f})"
    for n, (k, build) in enumerate(rates):
        out.next_source()
        text = "| " + " | ".join([*shared, cells[k]]) + " |"
        _md_row(text, lineno, shared_h, {**tctx, "build": build}, reps, out, said if n == 1 else None)


# ---------------------------------------------------------------------------------------------
# scripts/compare-llama-bench.py tables

#: compare-llama-bench.py's PRETTY_NAMES (lower case) -> setting. Its other columns (Embeddings, CPU
#: mask, Split mode, NKVO, ...) go to extra_settings as printed. `Num. of par.` is model_n_params, a count.
_CMP_COLUMNS = {
    "gpu": "gpu",
    "backends": "backend",
    "gpu layers": "ngl",
    "file": "model_file",
    "model": "model",
    "model size [gib]": "model_size_gib",
    "num. of par.": "params_b",
    "batch size": "n_batch",
    "microbatch size": "n_ubatch",
    "threads": "threads",
    "k type": "type_k",
    "v type": "type_v",
    "flashattention": "fa",
}
#: The script's header: its shown properties, then `Test | t/s <baseline> | t/s <compare> | Speedup`.
_CMP_HEADER_RE = re.compile(
    r"^\s*\|(?P<cols>(?:[^|]*\|)*?)\s*Test\s*\|\s*t/s\s+(?P<base>[^|]*?\S)\s*\|\s*t/s\s+(?P<cmp>[^|]*?\S)\s*\|"
    r"\s*Speedup\s*\|\s*$",
    re.I,
)
#: Speedup is printed with floatfmt ".2f": a recomputed ratio within half a unit of the last place agrees.
_SPEEDUP_TOLERANCE = 0.005 + 1e-9


def _cmp_settings(row: dict[str, str]) -> dict:
    """A compare row's settings from its shown properties (the CPU column is cpu_info, `cpu`)."""
    base = _base()
    extra = []
    for col, val in row.items():
        key = _CMP_COLUMNS.get(col.lower())
        if key is None:
            if col.lower() != "cpu":
                extra.append(f"{col}={val}")
            continue
        if key == "model_size_gib":
            base[key] = _float(val)
        elif key == "params_b":
            n = _float(val)
            base[key] = None if n is None else n / 1e9
        elif key == "fa":
            base[key] = _fa(val)
        elif SETTINGS[key] == "Int64":
            base[key] = _int(val)
        else:
            base[key] = _str(val)
    base["cpu"] = _str(next((v for c, v in row.items() if c.lower() == "cpu"), None))
    base["extra_settings"] = ", ".join(extra) or None
    base["averaged_by"] = COMPARE_SCRIPT
    return base


def _parse_compare(lines: list[str], out: _Out, taken: set[int]) -> None:
    """Every compare-llama-bench.py table: each of its two builds a run (``build`` = the name in its
    `t/s` header), each t/s the mean of that build's avg_ts over its llama-bench runs (unweighted, no
    spread, repetitions not printed); Speedup is compare / baseline, recomputed and checked, and kept as
    the compared rate's note, not as a measurement."""
    i = 0
    while i < len(lines):
        m = _CMP_HEADER_RE.match(lines[i])
        if not m or i + 1 >= len(lines) or not _is_separator(lines[i + 1]):
            i += 1
            continue
        body = lines[i + 2] if i + 2 < len(lines) else ""
        if "±" in body:  # llama-bench's `mean ± sd`: two builds' prints joined by hand (`_joined`), not the script's
            i += 1
            continue
        out.blocks += 1
        header = markdown_cells(lines[i])
        props = header[:-4]
        builds = (m["base"].strip(), m["cmp"].strip())
        taken.update((i, i + 1))
        j = i + 2
        while j < len(lines) and lines[j].lstrip().startswith("|"):
            taken.add(j)
            _cmp_row(lines[j], j + 1, props, builds, out)
            j += 1
        i = j


def _cmp_row(line: str, lineno: int, props: list[str], builds: tuple[str, str], out: _Out) -> None:
    cells = markdown_cells(line)
    rates = [_float(c) for c in cells[-3:-1]] if len(cells) == len(props) + 4 else []
    if len(rates) != 2 or None in rates:
        n = sum(len(re.findall(_NUM, c)) for c in cells[-3:-1])
        for _ in range(n):
            out.reject(lineno, line.strip(), "compare row does not have the header's cells")
        if not n:
            out.messages.append(f"line {lineno}: compare row with no t/s values; skipped")
        return
    test = cells[len(props)]
    parsed = parse_test(test)
    if parsed is None:
        for _ in rates:
            out.reject(lineno, line.strip(), f"test name {test!r} is not pp<N>, tg<N>, pp<N>+tg<M> (@ d<D>)")
        return
    n_prompt, n_gen, n_depth = parsed
    base = _cmp_settings(dict(zip(props, cells, strict=False)))
    base.update(test=test_name(n_prompt, n_gen, n_depth), n_prompt=n_prompt, n_gen=n_gen, n_depth=n_depth)
    speedup = _float(cells[-1])
    ratio = rates[1] / rates[0] if rates[0] else None
    if speedup is not None and ratio is not None and abs(ratio - speedup) > _SPEEDUP_TOLERANCE:
        out.messages.append(
            f"line {lineno}: Speedup {cells[-1]} is not t/s {builds[1]} / t/s {builds[0]} ({ratio:.3f}); "
            "the two rates are kept, the printed Speedup is not"
        )
    # the printed Speedup stays with the compared build's rate as a note: a ratio of two kept rates, no measurement
    said = f"Speedup over {builds[0]} as printed: {cells[-1]}" + (f" (ratio {ratio:.3f})" if ratio is not None else "")
    metric = f"{kind(n_prompt, n_gen)}_rate"
    for build, rate, note in zip(builds, rates, (None, said), strict=True):
        out.next_source()
        out.keep({**base, "build": build}, lineno, metric, "mean", rate, "tok/s", note)


# ---------------------------------------------------------------------------------------------
# JSON / JSONL / CSV records

_OLD_BACKENDS = [
    ("cuda", "CUDA"),
    ("vulkan", "Vulkan"),
    ("metal", "Metal"),
    ("sycl", "SYCL"),
    ("kompute", "Kompute"),
    ("opencl", "OpenCL"),
    ("cann", "CANN"),
]


def _truthy(v) -> bool:
    return str(v).strip().lower() in ("1", "true")


def _is_record(obj) -> bool:
    return isinstance(obj, dict) and ("avg_ts" in obj or "samples_ts" in obj) and ("n_prompt" in obj or "n_gen" in obj)


def _record_base(obj: dict, power: float | None, section: str | None) -> dict | None:
    n_prompt, n_gen, n_depth = (
        _int(obj.get("n_prompt")) or 0,
        _int(obj.get("n_gen")) or 0,
        _int(obj.get("n_depth")) or 0,
    )
    if n_prompt < 0 or n_gen < 0 or n_depth < 0 or (n_prompt == 0 and n_gen == 0):
        return None
    backend = _str(obj.get("backends"))
    if backend is None:
        hits = [name for key, name in _OLD_BACKENDS if key in obj and _truthy(obj[key])]
        if hits:
            backend = ",".join(hits)
        elif any(k in obj for k, _ in _OLD_BACKENDS) or "gpu_blas" in obj:
            backend = "BLAS" if _truthy(obj.get("blas", 0)) else "CPU"
    commit, number = _str(obj.get("build_commit")), _str(obj.get("build_number"))
    build = f"{commit} ({number})" if commit and number else commit
    size = _float(obj.get("model_size"))
    params = _float(obj.get("model_n_params"))
    fname = _str(obj.get("model_filename"))
    return _base(
        section=section,
        model=_str(obj.get("model_type")),
        model_file=re.split(r"[\\/]", fname)[-1] if fname else None,
        model_size_gib=size / 1024**3 if size is not None else None,
        params_b=params / 1e9 if params is not None else None,
        backend=backend,
        gpu=_str(obj.get("gpu_info")),
        gpus_listed=_gpus_listed(obj.get("gpu_info")),
        cpu=_str(obj.get("cpu_info")),
        build=build,
        ngl=_int(obj.get("n_gpu_layers")),
        threads=_int(obj.get("n_threads")),
        n_cpu_moe=_int(obj.get("n_cpu_moe")),
        fa=_fa(obj.get("flash_attn")),
        type_k=_str(obj.get("type_k")),
        type_v=_str(obj.get("type_v")),
        n_batch=_int(obj.get("n_batch")),
        n_ubatch=_int(obj.get("n_ubatch")),
        test=test_name(n_prompt, n_gen, n_depth),
        n_prompt=n_prompt,
        n_gen=n_gen,
        n_depth=n_depth,
        power_limit_w=power,
    )


#: The timing fields of llama.cpp pull request #12874 (April 2025, not merged; its branch's README shows
#: them), which timed a test's prompt and its generation apart: `avg_prompt_ts` = n_prompt / prompt time
#: and `avg_gen_ts` = n_gen / generation time (with their ns and std), in place of `avg_ts` / `avg_ns`.
SPLIT_FIELDS = {
    "prompt": ("avg_prompt_ns", "stddev_prompt_ns", "avg_prompt_ts", "stddev_prompt_ts"),
    "gen": ("avg_gen_ns", "stddev_gen_ns", "avg_gen_ts", "stddev_gen_ts"),
}
_UPSTREAM = ("avg_ns", "stddev_ns", "avg_ts", "stddev_ts")


def _unsplit(obj: dict, out: _Out, line: int) -> dict:
    """A record with split timings in llama-bench's own fields: a prompt-only test (n_gen 0) is its
    prompt timing, a generation-only test (n_prompt 0) its generation timing, the same numbers
    llama-bench's `avg_ts` gives for such a test; the other part's fields (a few ns of no work) are
    rejected with the reason. A pp+tg test timed in two parts has no tidy name (llama-bench's pg rate
    is the whole test's), so all its timing fields are rejected. A record without them is itself."""
    if "avg_ts" in obj or not any(k in obj for k in SPLIT_FIELDS["prompt"] + SPLIT_FIELDS["gen"]):
        return obj
    n_prompt, n_gen = _int(obj.get("n_prompt")) or 0, _int(obj.get("n_gen")) or 0
    part = "prompt" if n_gen == 0 else "gen" if n_prompt == 0 else None
    rest = {k: v for k, v in obj.items() if not any(k in f for f in SPLIT_FIELDS.values())}
    for name, fields in SPLIT_FIELDS.items():
        for k in fields:
            if k not in obj:
                continue
            if name == part:
                rest[_UPSTREAM[fields.index(k)]] = obj[k]
            elif part is None:
                out.reject(line, f"{k}={obj[k]}", "a pp+tg test timed in two parts (PR #12874): no tidy name")
            else:
                what = "prompt" if name == "prompt" else "generation"
                out.reject(line, f"{k}={obj[k]}", f"the {what} timing of a test with no {what} tokens (PR #12874)")
    return rest


#: The fields of a JSON/CSV/SQL record that tell runs apart and have no column of their own, by the
#: name llama-bench's markdown prints them under, with llama-bench's default (`cmd_params_defaults`):
#: the markdown table prints such a column only where a value differs from its default, and so does
#: `_name_fields` for a file's records.
RECORD_FIELDS = {
    "split_mode": ("sm", "layer"),
    "main_gpu": ("main_gpu", "0"),
    "no_kv_offload": ("nkvo", "0"),
    "use_mmap": ("mmap", "1"),
    "embeddings": ("embd", "0"),
    "tensor_split": ("ts", "0"),
    "no_op_offload": ("nopo", "0"),
    "devices": ("dev", "auto"),
    "tensor_buft_overrides": ("ot", "none"),
}


def _field_value(key: str, v) -> str:
    """A record field as markdown prints it (a flag as 0/1; a tensor split of zeros as 0)."""
    text = str(v).strip()
    if text.lower() in ("true", "false"):
        return "1" if text.lower() == "true" else "0"
    if key == "tensor_split" and all(_float(x) == 0 for x in text.split("/")):
        return "0"
    return text


def _record_fields(obj: dict) -> dict[str, str]:
    return {RECORD_FIELDS[k][0]: _field_value(k, obj[k]) for k in RECORD_FIELDS if obj.get(k) is not None}


def _name_fields(out: _Out) -> None:
    """Each record's `RECORD_FIELDS` that some record of the file sets off its default, added to its
    extra_settings as `name=value` (as the markdown table would print them), so that records that
    differ only there are not one setting's repeats."""
    defaults = dict(RECORD_FIELDS.values())
    shown = [
        n for n, _ in RECORD_FIELDS.values() if any(f.get(n, defaults[n]) != defaults[n] for f in out.fields.values())
    ]
    for i, f in out.fields.items():
        said = [f"{n}={f[n]}" for n in shown if n in f]
        if said:
            rec = out.records[i]
            at = rec._index["extra_settings"]
            extra = ", ".join([*([rec[at]] if rec[at] else []), *said])
            out.records[i] = type(rec)((*rec[:at], extra, *rec[at + 1 :]))


def _emit_record(obj: dict, base: dict | None, out: _Out, lines_of: dict[str, int], default_line: int) -> None:
    """The measured numbers of one JSON/CSV record."""
    start = len(out.records)
    try:
        _emit_measured(obj, base, out, lines_of, default_line)
    finally:
        fields = _record_fields(obj)
        out.fields |= dict.fromkeys(range(start, len(out.records)), fields) if fields else {}


#: llama-bench times a repetition as `get_time_ns() - t_start` into a `uint64_t` (llama-bench.cpp, `test::samples_ns`),
#: on `std::chrono::high_resolution_clock`, which need not be steady: a clock stepped back during the repetition
#: leaves 2^64 - d, a value of 2^63 or more that no duration reaches (2^63 ns is 292 years).
_WRAPPED_NS = 2.0**63


def _wrapped(samples: dict) -> set[int]:
    """The 0-based repetitions whose `samples_ns` is a negative duration stored unsigned (`_WRAPPED_NS`)."""
    ns = samples.get("samples_ns")
    if not isinstance(ns, list):
        return set()
    return {i for i, v in enumerate(ns) if (f := _float(v)) is not None and f >= _WRAPPED_NS}


def _valid_stats(samples: dict, wrapped: set[int]) -> dict[str, float | None]:
    """llama-bench's own statistics (`avg_ts`, `stdev_ts`, `avg_ns`, `stdev_ns`: the mean and the sample
    (Bessel) standard deviation of the repetitions, each rate 1e9 x tokens / samples_ns) over the repetitions
    that are durations; None where fewer than one (mean) or two (std) remain."""
    out: dict[str, float | None] = {}
    for key, src in (("ts", "samples_ts"), ("ns", "samples_ns")):
        arr = samples.get(src)
        vals = (
            [f for i, v in enumerate(arr) if i not in wrapped and (f := _float(v)) is not None and math.isfinite(f)]
            if isinstance(arr, list)
            else []
        )
        mean = sum(vals) / len(vals) if vals else None
        out[f"avg_{key}"] = mean
        out[f"stddev_{key}"] = (
            math.sqrt(sum((v - mean) ** 2 for v in vals) / (len(vals) - 1))
            if mean is not None and len(vals) > 1
            else None
        )
    return out


def _emit_measured(obj: dict, base: dict | None, out: _Out, lines_of: dict[str, int], default_line: int) -> None:
    """`_emit_record`'s numbers: each measured field and sample of the record, kept or rejected.

    A repetition whose `samples_ns` wrapped (`_wrapped`: the clock stepped back) measured nothing: its sample and
    rate are set aside, and the record's mean and std, which llama-bench computed over every repetition (the
    wrapped one as a rate of about 0 tok/s), are its own statistics over the other repetitions (`_valid_stats`)."""

    def ln(key: str) -> int:
        return lines_of.get(key, default_line)

    measured = [k for k in ("avg_ts", "stddev_ts", "avg_ns", "stddev_ns") if k in obj]
    samples = {k: obj.get(k) for k in ("samples_ts", "samples_ns") if k in obj}
    if base is None:
        for k in measured:
            out.reject(ln(k), f"{k}={obj[k]!r}", "record has no valid n_prompt/n_gen (cannot name the test)")
        for k, arr in samples.items():
            for v in arr if isinstance(arr, list) else [arr]:
                out.reject(ln(k), f"{k}: {v!r}", "record has no valid n_prompt/n_gen (cannot name the test)")
        return
    kd = kind(base["n_prompt"], base["n_gen"])
    n_samples = (
        len(samples.get("samples_ts") or samples.get("samples_ns") or [])
        if isinstance(samples.get("samples_ts", samples.get("samples_ns", [])), list)
        else None
    )
    wrapped = _wrapped(samples)
    valid = _valid_stats(samples, wrapped) if wrapped else {}
    if wrapped:
        reps = ", ".join(str(i + 1) for i in sorted(wrapped))
        out.messages.append(
            f"line {ln('samples_ns')}: {counted(len(wrapped), 'repetition')} ({reps}) of {base.get('test') or kd} with a samples_ns of"
            " 2^63 ns or more: a negative duration stored unsigned (the clock stepped back), set aside; its mean and"
            f" std are recomputed from the other {counted(n_samples - len(wrapped), 'repetition')}"
        )
    for k in measured:
        v = _float(obj[k])
        if v is None:
            out.reject(ln(k), f"{k}={obj[k]!r}", "not a number")
            continue
        is_ts = k.endswith("_ts")
        metric = f"{kd}_rate" if is_ts else f"{kd}_duration"
        unit = "tok/s" if is_ts else "ms"
        stat = "mean" if k.startswith("avg") else "std"
        note = None
        if wrapped:
            w = valid.get(k)
            note = (
                f"recomputed from the repetitions that are durations: llama-bench's {k} {obj[k]} counts"
                f" repetition {', '.join(str(i + 1) for i in sorted(wrapped))}, whose samples_ns wrapped (the clock stepped back)"
            )
            out.keep(base, ln(k), metric, stat, None if w is None else (w if is_ts else w / 1e6), unit, note)
            continue
        value = v if is_ts else v / 1e6
        if stat == "mean" and (v == 0 or math.isnan(v)):
            note, value = "not measured (llama-bench wrote 0 or NaN: no completed repetition)", None
        elif stat == "std" and v == 0 and n_samples is not None and n_samples <= 1:
            note, value = "single repetition: llama-bench writes 0 when it cannot compute a std", None
        elif math.isnan(v):
            note, value = "not measured (NaN)", None
        out.keep(base, ln(k), metric, stat, value, unit, note)
    for k, arr in samples.items():
        is_ts = k == "samples_ts"
        if not isinstance(arr, list):
            out.reject(ln(k), f"{k}: {arr!r}", "samples are not a list")
            continue
        for idx, v in enumerate(arr, start=1):
            f = _float(v)
            if f is None or not math.isfinite(f):
                out.reject(ln(k), f"{k}[{idx}]: {v!r}", "sample is not a finite number")
                continue
            if idx - 1 in wrapped:
                out.reject(
                    ln(k),
                    f"{k}[{idx}]: {v!r}",
                    "a repetition whose samples_ns is 2^63 ns or more: a negative duration stored unsigned (the clock"
                    " stepped back during it), no measurement",
                )
                continue
            rec = dict(base, rep=idx)
            out.keep(
                rec,
                ln(k),
                f"{kd}_rate" if is_ts else f"{kd}_duration",
                "value",
                f if is_ts else f / 1e6,
                "tok/s" if is_ts else "ms",
            )


def _key_lines(text: str, start: int, end: int, keys, base: int = 0) -> dict[str, int]:
    """1-based line of each key's first occurrence in text[start:end] (text begins after line `base`)."""
    out = {}
    base_line = base + text.count("\n", 0, start) + 1
    chunk = text[start:end]
    for k in keys:
        p = chunk.find(f'"{k}"')
        if p >= 0:
            out[k] = base_line + chunk.count("\n", 0, p)
    return out


_JSON_START = re.compile(r"^[ \t]*(?:```\s*\w*\s*)?([\[{])", re.M)


class _Span:
    """The file's lines from `start` on, joined: as many as the JSON value there needs (the file is
    never joined whole). `extend()` doubles the lines taken; `to_run_end()` takes them up to the
    next blank line."""

    def __init__(self, lines, start: int):
        self.lines, self.start, self.end, self.step = lines, start, start + 1, 1
        self.text = lines[start]

    def _take(self, end: int) -> None:
        self.end = end
        self.text = "\n".join(self.lines[self.start : end])

    def extend(self) -> bool:
        if self.end >= len(self.lines):
            return False
        self.step *= 2
        self._take(min(self.end + self.step, len(self.lines)))
        return True

    def to_run_end(self) -> None:
        j = self.end
        while j < len(self.lines) and self.lines[j].strip():
            j += 1
        if j > self.end:
            self._take(j)


def _needs_more(exc: Exception, text: str) -> bool:
    """Whether a JSON value failed only because the text taken stops too early."""
    if not isinstance(exc, json.JSONDecodeError):
        return False
    return exc.pos >= len(text.rstrip()) or exc.msg.startswith("Unterminated string")


def _parse_json_blocks(lines, out: _Out, ctx_at, taken_lines: set[int]) -> None:
    """Read the JSON values that start a line (or follow a code fence), each decoded from a span of
    lines just long enough for it."""
    i = 0
    doc = len(out.records)  # the records of the JSON values that follow one another without a gap
    for c in range(len(lines)):
        if c >= i and _JSON_START.match(lines[c]):
            if c > i:  # other text, or a blank line, before this value: the previous run's output ended
                _number_repeats(out, doc)
                doc = len(out.records)
            span = _Span(lines, c)
            _parse_json_span(span, out, ctx_at, taken_lines)
            i = span.end
    _number_repeats(out, doc)


#: The reason of a number set aside because its JSON record does not parse; the record's test follows.
UNPARSED = "inside a JSON object that does not parse"


def _test_of(seg: str) -> str:
    """The test of a llama-bench JSON record read from its text alone: `pp512`, `tg128`, `pp512+tg128`,
    with ` @ dN` for a depth, as llama-bench names it from n_prompt, n_gen and n_depth; `unknown test`
    where the record's text does not carry them."""
    n = {k: int(m[1]) for k in ("n_prompt", "n_gen", "n_depth") if (m := re.search(rf'"{k}"\s*:\s*(\d+)', seg))}
    if "n_prompt" not in n or "n_gen" not in n:
        return "unknown test"
    parts = [f"pp{n['n_prompt']}"] * bool(n["n_prompt"]) + [f"tg{n['n_gen']}"] * bool(n["n_gen"])
    return "+".join(parts) + (f" @ d{n['n_depth']}" if n.get("n_depth") else "")


def _parse_json_span(span: _Span, out: _Out, ctx_at, taken_lines: set[int]) -> None:
    dec = json.JSONDecoder()
    pos, base = 0, span.start
    text = span.text
    while pos < len(text):
        m = _JSON_START.search(text, pos)
        if not m:
            break
        start = m.start(1)
        line0 = base + text.count("\n", 0, start) + 1
        try:
            while True:
                try:
                    obj, end = dec.raw_decode(text, start)
                    break
                except (json.JSONDecodeError, RecursionError, ValueError) as exc:
                    if not (_needs_more(exc, text) and span.extend()):
                        raise
                    text = span.text
        except (json.JSONDecodeError, RecursionError, ValueError) as exc:
            head = text[start : start + 300]
            if any(k in head for k in ('"build_commit"', '"avg_ts"', '"n_prompt"', '"samples_ts"')):
                span.to_run_end()
                text = span.text
                n = len(text)
                out.blocks += 1
                out.messages.append(
                    f"line {line0}: llama-bench JSON that does not parse ({getattr(exc, 'msg', exc)}); "
                    "complete objects inside it are still read"
                )
                if text[start] == "{":
                    # an object cut short: its measured numbers are counted as rejected
                    nxt = _JSON_START.search(text, m.end())
                    blank = text.find("\n\n", start)
                    seg_end = min(nxt.start() if nxt else n, blank if blank >= 0 else n)
                    seg = text[start:seg_end]
                    why = f"{UNPARSED} ({_test_of(seg)})"  # the record's own test, so no page calls it absent
                    for km in re.finditer(r'"(avg_ts|stddev_ts|avg_ns|stddev_ns)"\s*:\s*(' + _NUM + ")", seg):
                        out.reject(line0 + seg.count("\n", 0, km.start()), km.group(0), why)
                    for ka in re.finditer(r'"(samples_ts|samples_ns)"\s*:\s*\[([^\]]*)', seg):
                        for idx, kn in enumerate(re.finditer(_NUM, ka[2]), start=1):
                            out.reject(
                                line0 + seg.count("\n", 0, ka.start(2) + kn.start()),
                                f"{ka[1]}[{idx}]: {kn[0]}",
                                why,
                            )
            pos = m.end()
            continue
        items = obj if isinstance(obj, list) else [obj]
        recs = [o for o in items if _is_record(o)]
        if not recs:
            pos = max(end, m.end())
            continue
        out.blocks += 1
        for ln in range(line0, base + text.count("\n", 0, end) + 2):
            taken_lines.add(ln - 1)
        # locate each object's span for line numbers
        cursor = start
        section, power = ctx_at(line0)
        for o in items:
            if not isinstance(o, dict):
                continue
            ostart = text.find("{", cursor, end)
            if ostart < 0:
                ostart = start
            try:
                _, oend = dec.raw_decode(text, ostart)
            except (json.JSONDecodeError, RecursionError, ValueError):
                oend = end
            cursor = oend
            if not _is_record(o):
                continue
            out.next_source()
            lines_of = _key_lines(
                text, ostart, oend, ("avg_ts", "stddev_ts", "avg_ns", "stddev_ns", "samples_ts", "samples_ns"), base
            )
            _emit_record(o, _record_base(o, power, section), out, lines_of, base + text.count("\n", 0, ostart) + 1)
        pos = end


def _parse_csv_blocks(lines: list[str], out: _Out, ctx_at, taken: set[int]) -> None:
    i, n = 0, len(lines)
    while i < n:
        line = lines[i]
        if i in taken or "_ts" not in line or "," not in line or line.lstrip().startswith(("|", "{", "[")):
            i += 1
            continue
        try:
            header = next(csv.reader([line.strip()]))
        except (csv.Error, StopIteration):
            i += 1
            continue
        header = [h.strip() for h in header]
        if not ({"avg_ts", "avg_prompt_ts"} & set(header)) or not ({"n_prompt", "n_gen"} & set(header)):
            i += 1
            continue
        out.blocks += 1
        section, power = ctx_at(i + 1)
        start = len(out.records)
        j = i + 1
        while j < n:
            raw = lines[j].strip()
            if not raw or raw.startswith(("```", "#", "|")):
                break
            try:
                cells = next(csv.reader([raw]))
            except (csv.Error, StopIteration):
                break
            if len(cells) != len(header):
                if len(cells) < 8 or "avg_ts" not in header:
                    break
                obj = _realign(header, cells)
                if obj is None:
                    _reject_unaligned(header, cells, j + 1, out)
                    j += 1
                    continue
                out.messages.append(
                    f"line {j + 1}: CSV row has {len(cells)} fields but the header {len(header)} "
                    "(a header edited apart from its rows); fields aligned from both ends"
                )
            else:
                obj = dict(zip(header, cells, strict=True))
            taken.add(j)
            out.next_source()
            obj = _unsplit(obj, out, j + 1)
            _emit_record(obj, _record_base(obj, power, section), out, {}, j + 1)
            j += 1
        _number_repeats(out, start)
        taken.update(range(i, j))
        i = j


def _reject_unaligned(header: list[str], cells: list[str], lineno: int, out: _Out) -> None:
    """A CSV row that cannot be aligned still holds its measured numbers: llama-bench writes them
    as the last fields, so they are found counting from the row's end and reported as rejected."""
    for k in ("avg_ns", "stddev_ns", "avg_ts", "stddev_ts"):
        if k not in header:
            continue
        pos = len(cells) - (len(header) - header.index(k))
        if 0 <= pos < len(cells) and _float(cells[pos]) is not None:
            out.reject(lineno, f"{k}={cells[pos]}", "CSV row cannot be aligned with its header")


def _realign(header: list[str], cells: list[str]) -> dict[str, str] | None:
    """A CSV row whose field count differs from its header's (seen in llama.cpp's own README, where
    the header lost `opencl` but the rows kept it, and where new fields were added to the header
    above older rows). The measured fields at the end (from n_prompt on) are aligned from the right,
    build_commit/build_number from the left, and the model/hardware fields with the shift that makes
    model_size and model_n_params integers and model_type text."""
    obj: dict[str, str] = {}
    tail_from = header.index("n_prompt") if "n_prompt" in header else header.index("avg_ts")
    k = len(header) - tail_from
    if k > len(cells):
        return None
    obj.update(zip(header[tail_from:], cells[len(cells) - k :], strict=True))
    if _int(obj.get("n_prompt", 0)) is None or _int(obj.get("n_gen", 0)) is None or _float(obj.get("avg_ts")) is None:
        return None
    if "test_time" in obj and not re.match(r"^\d{4}-\d\d-\d\d", obj["test_time"]):
        return None
    for name in header[:2]:
        obj[name] = cells[header.index(name)]
    mid_from = header.index("cpu_info") if "cpu_info" in header else 2
    diff = len(cells) - len(header)
    for d in sorted(range(-abs(diff), abs(diff) + 1), key=abs):

        def cell(name, d=d):
            i = header.index(name) + d if name in header else -1
            return cells[i] if 0 <= i < len(cells) - k else None

        size, params, mtype = cell("model_size"), cell("model_n_params"), cell("model_type")
        if _int(size) and _int(size) > 10**6 and _int(params) and mtype and _float(mtype) is None:
            for name in header[2:mid_from]:
                obj.setdefault(name, cells[header.index(name)])
            for name in header[mid_from:tail_from]:
                v = cell(name)
                if v is not None:
                    obj[name] = v
            break
    return obj


#: `-o sql` (sql_printer in tools/llama-bench/llama-bench.cpp): one INSERT per test, into table `test`
#: (until 2025) or `llama_bench`, with its column list, every value in single quotes and not escaped.
_SQL_RE = re.compile(r"^\s*INSERT INTO (?:test|llama_bench) \((?P<cols>[^)]*)\) VALUES \('(?P<vals>.*)'\);?\s*$")


def _parse_sql(lines: list[str], out: _Out, ctx_at, taken: set[int]) -> None:
    """The INSERT statements of `-o sql` output, read as the CSV rows they mirror (the same fields
    and values; the CREATE TABLE above them adds nothing the column list does not say)."""
    start, last = len(out.records), None
    for i, line in enumerate(lines):
        m = _SQL_RE.match(line) if i not in taken and "INSERT INTO" in line else None
        if not m:
            continue
        if last is not None and i != last + 1:  # a gap: the previous run's statements ended
            _number_repeats(out, start)
            start = len(out.records)
        last = i
        header = [c.strip() for c in m["cols"].split(",")]
        if not ({"avg_ts", "avg_prompt_ts"} & set(header)):
            continue
        out.blocks += 1
        taken.add(i)
        # llama-bench joins the quoted values with ", " and escapes nothing; a row with more or fewer
        # values than columns (llama.cpp's own README of build 1275 lost `opencl` from the column
        # list but not from the values) is aligned from both ends, as a CSV row is, or rejected
        cells = m["vals"].split("', '")
        obj = dict(zip(header, cells, strict=True)) if len(cells) == len(header) else _realign(header, cells)
        if obj is None:
            _reject_unaligned(header, cells, i + 1, out)
            continue
        if len(cells) != len(header):
            out.messages.append(
                f"line {i + 1}: INSERT has {len(cells)} values for {len(header)} columns (a column list edited "
                "apart from its values); fields aligned from both ends"
            )
        section, power = ctx_at(i + 1)
        out.next_source()
        obj = _unsplit(obj, out, i + 1)
        _emit_record(obj, _record_base(obj, power, section), out, {}, i + 1)
    _number_repeats(out, start)


def _context_index(lines: list[str]):
    """A function line -> (section, power_limit_w) from the headings above that line."""
    marks: list[tuple[int, str | None, float | None]] = []
    ctx = _Ctx()
    for idx, line in enumerate(lines):
        h = _HEADING_RE.match(line)
        if h:
            level = len(h[1])
            ctx.headings = [(lv, t) for lv, t in ctx.headings if lv < level] + [(level, heading_words(h[2]))]
            marks.append((idx + 1, ctx.section(), ctx.power()))

    def at(line: int):
        sec, pw = None, None
        for ln, s, p in marks:
            if ln > line:
                break
            sec, pw = s, p
        return sec, pw

    return at


#: llama-bench's own error line (`main: error: failed to load model 'm.gguf'`), printed before it exits.
ERROR_RE = re.compile(r"^main: error: ")


def parse(text: str | Lines, source: str) -> Parsed:
    """Parse every llama-bench block (markdown, JSON, JSONL, CSV) in a text (a string or a file's lines)."""
    if not isinstance(text, (str, Lines)):
        raise ParseError(source, None, "expected text")
    lines = split_n(text)
    if lines[0].startswith("\ufeff"):
        lines = [lines[0][1:], *lines[1:]]
    lines = outer_pipes(lines)
    out = _Out()
    taken: set[int] = set()
    _parse_compare(lines, out, taken)
    _parse_markdown(lines, out, taken)
    ctx_at = _context_index(lines)
    _parse_json_blocks(lines, out, ctx_at, taken)
    _parse_sql(lines, out, ctx_at, taken)
    _parse_csv_blocks(lines, out, ctx_at, taken)
    if out.blocks == 0:
        raise ParseError(
            source,
            1,
            "no llama-bench output found: expected a markdown table with 'test' and 't/s' columns, "
            "JSON/JSONL objects with avg_ts and n_prompt/n_gen, a CSV header with avg_ts, or -o sql INSERT lines",
        )
    if not out.records and not out.rejected:
        # llama-bench prints `main: error: failed to load model '...'` (and exits) when a model cannot be
        # loaded: a run that stopped there has no result, and the refusal names that line
        stop = next((i for i, s in enumerate(lines) if ERROR_RE.match(s.strip())), None)
        # llama-bench prints its table's header before the first test runs: a crash under a header with no
        # row under it (`_CRASH`) is the run failing at its first test, not a copy cut short
        header = next((i for i, s in enumerate(lines) if _is_header(s)), None)
        if stop is None and header is not None:
            stop = next((i for i in range(header + 1, len(lines)) if _CRASH.search(lines[i])), None)
        if stop is not None:
            raise ParseError(
                source, stop + 1, f"llama-bench stopped before its first result: {lines[stop].strip()[:100]}"
            )
        # the refusal names the line the output starts at (its first table header or record), not the file's first
        first = next((i for i, s in enumerate(lines) if _is_header(s) or _SNIFF_JSON.search(s)), 0)
        raise ParseError(
            source, first + 1, "llama-bench output with no measured rows (truncated before the first result?)"
        )
    _name_fields(out)
    out.records.sort(key=lambda r: r["line"])
    if out.records:  # a process that failed after its last row: the tests after it never ran
        last = out.records[-1]
        stop = failed_after(lines, last["line"] - 1)
        if stop is not None:
            ran = f"its rows up to {last.get('test') or 'that one'} ran, none after"
            out.messages.append(stopped_message(stop, last["line"] - 1, ran))
    return finish(TOOL, source, out.records, out.rejected, out.messages, out.cells, _builds)


def _builds(table) -> str | None:
    builds = sorted(table["build"].dropna().unique())
    return f"build {', '.join(builds)}" if builds else None


_SNIFF_MD = re.compile(r"^\s*\|.*\|\s*test\s*\|\s*t/s\s*\|", re.M | re.I)
_SNIFF_MD_RENAMED = re.compile(r"^\s*\|\s*model\s*\|\s*size\s*\|\s*params\s*\|", re.M | re.I)
#: The header of a table pasted without outer pipes (see `outer_pipes`).
_SNIFF_MD_BARE = re.compile(r"^\s*model\s*\|.*\|\s*test\s*\|\s*t/s\s*$", re.M | re.I)
#: two builds' llama-bench prints joined by hand: `| model | ... | test | ... | master t/s | PR t/s | ...`
_SNIFF_MD_JOINED = re.compile(r"^\s*\|\s*model\s*\|.*\|\s*test\s*\|.*t/s.*\|.*t/s", re.M | re.I)
_SNIFF_JSON = re.compile(r'"(?:avg_ts|samples_ts)"\s*:')
#: compare-llama-bench.py's header (`_CMP_HEADER_RE`).
_SNIFF_CMP = re.compile(r"^\s*\|.*\|\s*Test\s*\|\s*t/s [^|]+\|\s*t/s [^|]+\|\s*Speedup\s*\|\s*$", re.M | re.I)
_SNIFF_CSV = re.compile(r"^[^\n|{]*\bn_prompt\b[^\n]*\bavg_(?:prompt_)?ts\b", re.M)


_SNIFF_N = re.compile(r'"n_(?:prompt|gen)"\s*:')


#: A llama-bench rate as its markdown prints it: "%.2f ± %.2f" (bold or not).
_MEAN_SD = re.compile(rf"^\**\s*{NUMBER}\s*±\s*{NUMBER}\s*\**$")


#: A llama-bench command line (a prompt's or a bare one, `llama-bench.exe` on Windows).
_COMMAND_LINE = re.compile(r"(?:^|[\s/\\])llama-bench(?:\.exe)?\s+-")
#: How a process that crashed is reported under it: the shell's signal message (`Segmentation fault (core
#: dumped)`, `Aborted`, `Killed`, ...), ggml's own abort line (`GGML_ASSERT(...) failed`), or the C++
#: runtime's line for an exception nothing caught (`terminate called after throwing an instance of
#: 'vk::DeviceLostError'`, printed just before it aborts the process).
_CRASH = re.compile(
    r"^\s*(?:Segmentation fault|Aborted|Killed|Bus error|Floating point exception|Illegal instruction)\b"
    r"|GGML_ASSERT\(.*\) failed|^\s*terminate called after throwing an instance of\b",
    re.I,
)


#: What ends a llama.cpp process that failed, besides `_CRASH`: ggml's CUDA backend's `CUDA error: ...` (then it
#: aborts), `GGML_ABORT("fatal error")`'s `file.cuh:4255: fatal error` (ggml_abort prints file:line: message), and
#: an allocation that failed (`cudaMalloc failed: out of memory`, `... : out of memory`); and, for a process run
#: under cuda-gdb, the debugger's stop at a kernel's fault (`CUDA Exception: Warp Misaligned Address`: the
#: exception a run without the debugger reports as `CUDA error: misaligned address`), where the process halts.
_FAILED = re.compile(
    r"^\s*CUDA error\b|^\s*CUDA Exception: \w|\.\w+:\d+: fatal error\s*$|:\s*(?:\w+ failed:\s*)?out of memory\s*$",
    re.I,
)

#: The prefix of a parser's message that says a run stopped after its last result (`failed_after`).
STOPPED = "warning: the run stopped"


def failed_after(lines, last: int) -> tuple[int, str] | None:
    """(line, text) of the first line after the output's last result row (`last`, 0-based) that says the
    process failed: an abort or signal (`_CRASH`: `GGML_ASSERT(...) failed`, `Segmentation fault`,
    `Aborted`, ...), a CUDA error or a failed allocation (`_FAILED`), else None. The rows before it ran; what
    the run had still to do after them did not."""
    for j in range(last + 1, len(lines)):
        if _CRASH.search(lines[j]) or _FAILED.search(lines[j]):
            # the failure as the tool words it, not the source paths threads print before it
            said = _ASSERT.search(lines[j]) or _FATAL.search(lines[j])
            return j + 1, (said.group(0) if said else lines[j].strip())[:100]
    return None


_ASSERT = re.compile(r"GGML_ASSERT\(.*?\) failed")
_FATAL = re.compile(r"[\w.-]+:\d+: fatal error\s*$")


def stopped_message(stop: tuple[int, str], last: int, ran: str) -> str:
    """The parser's note of a run that failed after its last row (`failed_after`): where, and what ran."""
    return f"{STOPPED} at line {stop[0]} (`{stop[1]}`), after its last row (line {last + 1}): {ran}"


def crashed(lines) -> tuple[int, str] | None:
    """(line, text) of the crash under the first llama-bench command that printed no result before it
    (`_CRASH`), else None: a run that stopped there holds no result."""
    start = next((i for i, s in enumerate(lines) if _COMMAND_LINE.search(s)), None)
    if start is None:
        return None
    for j in range(start + 1, len(lines)):
        if _is_header(lines[j]) or _SNIFF_JSON.search(lines[j]):
            return None
        if _CRASH.search(lines[j]):
            return j + 1, lines[j].strip()[:100]
    return None


def refuses(text: str | Lines) -> tuple[int, str] | None:
    """(line, why) of a `| test | t/s |` table copied by hand from llama-bench's print, of a llama-bench
    run that crashed before its first result (`crashed`), or of a device list with no result after it
    (`llama_timings.devices_only`), else None (`Tool.refuses`)."""
    lines = split_n(text)
    stop = crashed(lines)
    if stop is not None:
        return stop[0], f"llama-bench stopped before its first result: {stop[1]}; no result to read"
    for i, raw in enumerate(lines[:-2]):
        head = [c.lower() for c in markdown_cells(raw)] if raw.lstrip().startswith("|") else []
        if "test" not in head or "t/s" not in head or set(head) & (set(_MD_COLUMNS) - {"test", "t/s"}):
            continue
        t, r = head.index("test"), head.index("t/s")
        body = [markdown_cells(b) for b in lines[i + 2 : i + 12] if b.lstrip().startswith("|")]
        if any(len(c) > max(t, r) and parse_test(c[t]) and _MEAN_SD.match(c[r]) for c in body):
            return i + 1, (
                "a '| test | t/s |' table copied by hand from llama-bench's print, which writes model, size, params "
                "and backend on every row: its rows keep nothing of the run but the test and the rate; not read"
            )
    return _tests_as_columns(lines) or _headerless_rows(lines) or llama_timings.devices_only(lines)


def _headerless_rows(lines) -> tuple[int, str] | None:
    """(line, why) of llama-bench's markdown rows with no header row above them (a writer cut it, or left
    `...` in its place): llama-bench's markdown printer opens every row with model, size, params and backend
    and closes it with test and t/s, but the columns between (ngl or threads, then each setting the run
    varied) are named only by the header, so a row's settings cannot be told apart from its neighbours'."""
    for i, raw in enumerate(lines):
        c = markdown_cells(raw) if raw.lstrip().startswith("|") else []
        if (
            len(c) >= 6
            and _SIZE_RE.match(c[1])
            and re.search(r"[GMK]i?B", c[1])
            and _PARAMS_RE.match(c[2])
            and parse_test(c[-2])
            and _MEAN_SD.match(c[-1])
        ):
            return i + 1, (
                "llama-bench rows with no header row above them: the columns between backend and test (the GPU "
                "layers or threads, and each setting the run varied) cannot be named, so no row's settings are "
                "known; not read"
            )
    return None


def _tests_as_columns(lines) -> tuple[int, str] | None:
    """(line, why) of a Markdown table whose header names llama-bench tests as columns (`| model | ... |
    pp128 | tg64 |`) and has no `test` column: llama-bench prints one row per test under `test` and
    `t/s`, so such a table is another program's or a writer's retabulation."""
    for i, raw in enumerate(lines[:-1]):
        rule = lines[i + 1].strip()
        if not raw.lstrip().startswith("|") or "-" not in rule or not set(rule) <= set("|-: "):
            continue
        head = [c.strip() for c in markdown_cells(raw)]
        tests = [c for c in head if parse_test(c)]
        if tests and "test" not in (c.lower() for c in head):
            return i + 1, (
                f"a table with llama-bench's tests as its columns ({', '.join(tests[:4])}), a layout llama-bench "
                "never prints (one row per test under 'test' and 't/s'): another program's table or a writer's "
                "retabulation; not read"
            )
    return None


def _empty_beside_sibling(text: str | Lines) -> bool:
    """Whether the text's llama-bench markdown headers have no row under them and it holds a
    llama-batched-bench or llama-sweep-bench table (each read by its own parser)."""
    from benchbook.ingest import llama_batched_bench, llama_sweep_bench

    if (
        not (llama_batched_bench.sniff(text) or llama_sweep_bench.sniff(text))
        or search(_SNIFF_JSON, text)
        or search(_SNIFF_CSV, text)
    ):
        return False
    lines = split_n(text)
    for i, raw in enumerate(lines):
        if _SNIFF_MD.match(raw) or _SNIFF_MD_RENAMED.match(raw) or _SNIFF_MD_BARE.match(raw):
            if any(re.search(r"\d", b) for b in lines[i + 2 : i + 3]):
                return False
    return True


def sniff(text: str | Lines) -> bool:
    """True when the text holds a llama-bench markdown table, JSON/JSONL record or CSV header; a
    header with no row under it beside a llama-batched-bench or llama-sweep-bench table (llama.cpp's bench
    script prints both) is that table's file, which its own parser reads, not a llama-bench output cut short."""
    if search(_SNIFF_MD, text) or search(_SNIFF_MD_RENAMED, text) or search(_SNIFF_MD_BARE, text):
        return not _empty_beside_sibling(text)
    if search(_SNIFF_MD_JOINED, text):
        return True
    if search(_SNIFF_CMP, text):
        return True
    if search(_SNIFF_JSON, text) and search(_SNIFF_N, text):
        return True
    return search(_SNIFF_CSV, text)


def table_facts(table) -> list[tuple]:
    """The run facts llama-bench's own columns print, each value with the rows that print it: the KV
    cache type (type_k and type_v: "q8_0" where both are, else "K q8_0, V f16"), the CPU threads
    (n_threads), the layers on the GPU (n_gpu_layers), and a device list `none` (`-dev none`, llama.cpp's
    "none = don't offload": the row ran on the CPU, whatever GPUs the build's log lists)."""
    out = []
    rows = table.drop_duplicates("line") if "line" in table else table
    for _, r in rows.iterrows():
        if re.search(r"(?:^|,\s*)dev=none(?:,|$)", str(r.get("extra_settings") or "")):
            out.append(("device", "dev none", int(r["line"]), "dev: none"))
        k, v = (r.get(c) if isinstance(r.get(c), str) and r.get(c) else None for c in ("type_k", "type_v"))
        if k or v:
            kv = k if k == v else ", ".join(f"{n} {x}" for n, x in (("K", k), ("V", v)) if x)
            out.append(("kv_dtype", kv, int(r["line"]), f"type_k: {k}, type_v: {v}"))
        for col, name in (("threads", "threads"), ("ngl", "gpu_layers")):
            x = r.get(col)
            if x is not None and not (isinstance(x, float) and math.isnan(x)) and str(x) != "<NA>":
                out.append((name, int(x), int(r["line"]), f"{col}: {x}"))
    return out


TOOL = register(
    Tool(
        name=NAME,
        settings=SETTINGS,
        sniff=sniff,
        parse=parse,
        description="llama.cpp llama-bench: markdown tables (with command, device, build and power headings), "
        "-o json/jsonl/csv/sql",
        command="llama-bench -m MODEL.gguf [-o json|jsonl|csv|sql]",
        metrics=METRICS,
        facts=table_facts,
        refuses=refuses,
    )
)
