"""What every chapter parameter may be: one table, keyed by parameter name.

The same name means the same idea in every chapter (`alpha` is always a significance level, `gpu`
always a row of the hardware table), so a constraint is written once and every chapter that
declares the name gets it. `check()` runs in `benchbook.chapter.setup`, which `benchbook run` calls
before papermill starts, so a wrong value is refused in one sentence before any kernel exists.

Checks run cheapest first: type and range (no import), then names looked up in data tables
(GPU, model), then files a parameter points to, then names that must exist in the input.
"""

from __future__ import annotations

import csv
import json
import math
import os
import re
import stat
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from benchbook import config


class ParameterError(ValueError):
    """A chapter parameter that cannot be used, said in one sentence."""


def _fail(name: str, what: str, value) -> None:
    raise ParameterError(f"parameter {name!r} must be {what}, got {value!r}.")


def is_number(value) -> bool:
    """A real, finite number (bool is not one: `-p alpha True` is a mistake)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


#: `cv>X` flags cells whose coefficient of variation exceeds X; `mad>X` flags runs whose modified
#: z-score exceeds X.
OUTLIER_RULE = re.compile(r"\s*(cv|mad)\s*>\s*((?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?)\s*")


def parse_outlier_rule(rule) -> tuple[str, float]:
    """ "cv>0.10" or "mad>3.5" -> (kind, threshold); ValueError for anything else (threshold <= 0 too)."""
    m = OUTLIER_RULE.fullmatch(str(rule))
    if not m or float(m.group(2)) <= 0:
        raise ValueError(f"outlier_rule {rule!r}: expected 'cv>X' or 'mad>X' with X > 0, e.g. 'cv>0.10'")
    return m.group(1), float(m.group(2))


def input_problem(path: Path) -> str | None:
    """Why `path` cannot be read as an input file, found before anything but a regular file is
    opened (a FIFO would block the reader): None for an existing, readable regular file."""
    try:
        st = path.stat()
    except FileNotFoundError:
        return "does not exist"
    except OSError as exc:
        return f"cannot be read ({exc.strerror})"
    if stat.S_ISDIR(st.st_mode):
        return "is a folder, not a file"
    if not stat.S_ISREG(st.st_mode):
        return "is not a regular file (a pipe, device or socket)"
    if not os.access(path, os.R_OK):
        return "cannot be read (permission denied)"
    try:  # a regular file now, so opening cannot block; the first byte shows an I/O error
        with open(path, "rb") as fh:
            fh.read(1)
    except OSError as exc:
        return f"cannot be read ({exc.strerror or exc})"
    return None


def output_problem(path: Path, folder: bool = False) -> str | None:
    """Why `path` cannot be written as an output file (or, with `folder`, used as an output
    folder), found without creating anything: None when it can."""
    try:
        if path.exists() or path.is_symlink():
            if folder and not path.is_dir():
                return "exists and is not a folder"
            if not folder and path.is_dir():
                return "is a folder; give a file name"
            if not folder and not path.is_file():
                return "exists and is not a regular file"
            if not os.access(path, os.W_OK | (os.X_OK if folder else 0)) or _immutable(path):
                return "cannot be written (permission denied)"
            if not folder:
                path = path.parent
                return None if os.access(path, os.W_OK | os.X_OK) and not _immutable(path) else _NOT_WRITABLE
            return None
        parent = path.parent
        while not (parent.exists() or parent.is_symlink()):
            parent = parent.parent
        if not parent.is_dir():
            return f"cannot be created ({parent.name} is not a folder)"
        if not os.access(parent, os.W_OK | os.X_OK) or _immutable(parent):
            return _NOT_WRITABLE
    except OSError as exc:
        return f"cannot be used ({exc.strerror})"
    return None


_NOT_WRITABLE = "cannot be created (its folder is not writable)"


def _immutable(path: Path) -> bool:
    """Whether the file or folder carries the immutable flag (`chattr +i`), which stops even root."""
    flags = getattr(os.stat(path), "st_flags", None)  # BSD, macOS
    if flags is not None:
        return bool(flags & (stat.UF_IMMUTABLE | stat.SF_IMMUTABLE))
    try:
        import fcntl
        import struct

        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return False
    try:
        raw = fcntl.ioctl(fd, 0x80086601, struct.pack("l", 0))  # FS_IOC_GETFLAGS
        return bool(struct.unpack("l", raw)[0] & 0x10)  # FS_IMMUTABLE_FL
    except OSError:
        return False
    finally:
        os.close(fd)


def regular_file(path: Path, name: str, shown: str | None = None) -> None:
    """Refuse, before reading it, anything but an existing readable regular file (named as the
    user gave it, `shown`, else by its file name)."""
    problem = input_problem(path)
    if problem:
        raise ParameterError(f"parameter {name!r}: {shown or path.name} {problem}.")


# --------------------------------------------------------------------------------------------
# Constraint kinds. Each is called as constraint(name, value, context) and raises ParameterError.
# `stage` orders them: 0 needs nothing, 1 looks at a file a parameter names (standard library only),
# 2 looks a name up in a data table, 3 resolves and sniffs the input files, 4 reads the input.
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Number:
    """A finite number between `low` and `high`; open or closed at each end; optionally an integer."""

    low: float = -math.inf
    high: float = math.inf
    low_open: bool = True
    high_open: bool = True
    integer: bool = False
    stage = 0

    def describe(self) -> str:
        kind = "an integer" if self.integer else "a number"
        if self.high == math.inf:
            if self.low == 0:
                return f"{kind} {'above' if self.low_open else 'of at least'} 0"
            return f"{kind} {'above' if self.low_open else 'of at least'} {self.low:g}"
        left, right = "(" if self.low_open else "[", ")" if self.high_open else "]"
        return f"{kind} in {left}{self.low:g}, {self.high:g}{right}"

    def __call__(self, name: str, value, context: Context) -> None:
        ok = is_number(value) and (not self.integer or float(value).is_integer())
        if ok:
            above = value > self.low if self.low_open else value >= self.low
            below = value < self.high if self.high_open else value <= self.high
            ok = above and below
        if not ok:
            _fail(name, self.describe(), value)


PROBABILITY = Number(0, 1)
FRACTION = Number(0, 1, high_open=False)
POSITIVE = Number(0)
NON_NEGATIVE = Number(0, low_open=False)


@dataclass(frozen=True)
class Choice:
    """One of a few fixed words."""

    choices: tuple[str, ...]
    stage = 0

    def __call__(self, name: str, value, context: Context) -> None:
        if value not in self.choices:
            _fail(name, " or ".join(repr(c) for c in self.choices), value)


@dataclass(frozen=True)
class Text:
    """Any string (an empty one means the chapter chooses)."""

    stage = 0

    def __call__(self, name: str, value, context: Context) -> None:
        if not isinstance(value, str):
            _fail(name, "a string", value)


@dataclass(frozen=True)
class KeyValues:
    """Settings to filter on: comma-separated KEY=VALUE pairs ("" for none)."""

    stage = 0

    def __call__(self, name: str, value, context: Context) -> None:
        items = [x.strip() for x in value.split(",")] if isinstance(value, str) else None
        if items is None or any(x and (not x.partition("=")[1] or not x.partition("=")[0].strip()) for x in items):
            _fail(name, "comma-separated KEY=VALUE pairs, e.g. 'backend=ROCm, ngl=99'", value)


@dataclass(frozen=True)
class Inputs:
    """Input files or folders: a path, a comma-separated string of paths, or a list of them. When
    the chapter reads it as input (`paths` of setup), each is resolved and checked, without being
    read, by `resolve_inputs`, and the context keeps the resolved list."""

    stage = 3

    def __call__(self, name: str, value, context: Context) -> None:
        items = value if isinstance(value, (list, tuple)) else [value]
        if not items or not all(isinstance(v, (str, os.PathLike)) and str(v).strip() for v in items):
            _fail(name, "a file name, a comma-separated list of them, or a list", value)
        if name in context.paths:
            context.values[name] = resolve_inputs(value, name, context.tools)


@dataclass(frozen=True)
class NumberMap:
    """A mapping of names to numbers that satisfy `number`."""

    number: Number
    stage = 0

    def __call__(self, name: str, value, context: Context) -> None:
        if not isinstance(value, Mapping):
            _fail(name, "a mapping {name: number}", value)
        for key, v in value.items():
            if not isinstance(key, str):
                _fail(name, "a mapping with string keys", value)
            self.number(f"{name}[{key!r}]", v, context)


@dataclass(frozen=True)
class OutlierRule:
    """`cv>X` or `mad>X` with X > 0 (see `parse_outlier_rule`)."""

    stage = 0

    def __call__(self, name: str, value, context: Context) -> None:
        try:
            parse_outlier_rule(value)
        except ValueError:
            _fail(name, "'cv>X' or 'mad>X' with X > 0, e.g. 'cv>0.10'", value)


@dataclass(frozen=True)
class Device:
    """A device named (or aliased) in the hardware table (data/hardware.csv); "" where that is the
    chapter's default (the chapter then detects the device in the input, or assumes none)."""

    stage = 2

    def __call__(self, name: str, value, context: Context) -> None:
        if value == "" and context.defaults.get(name) == "":
            return
        if not isinstance(value, str) or not value.strip():
            _fail(name, "a device name from data/hardware.csv", value)
        from benchbook import hardware

        try:
            hardware.device_name(value)  # the csv module only: a wrong name is refused before pandas loads
        except ValueError as exc:  # hardware.UnknownDevice, with the close names
            said = str(exc.args[0] if exc.args else exc).rstrip(".")
            raise ParameterError(f"parameter {name!r}: {said}.") from None


@dataclass(frozen=True)
class KnownModel:
    """A model whose parameter count is known (data/models.csv, or a size in its name); "" where
    that is the chapter's default (the chapter then takes the model from the input)."""

    stage = 2

    def __call__(self, name: str, value, context: Context) -> None:
        if value == "" and context.defaults.get(name) == "":
            return
        if not isinstance(value, str) or not value.strip():
            _fail(name, "a model known to data/models.csv or with its size in the name", value)
        from benchbook.hardware import model_size

        if model_size(value) is None:
            raise ParameterError(
                f"parameter {name!r}: no parameter count known for model {value!r} "
                "(not in data/models.csv, and no size such as 7B in the name)."
            )


@dataclass(frozen=True)
class OutputFile:
    """Where a chapter writes a file ("" for nowhere), relative to the project root unless
    absolute: a file that can be written (see `output_problem`)."""

    stage = 1

    def __call__(self, name: str, value, context: Context) -> None:
        if not isinstance(value, str):
            _fail(name, 'a file name, or "" for nowhere', value)
        if not value:
            return
        problem = output_problem(Path(value) if Path(value).is_absolute() else config.PROJ_ROOT / value)
        if problem:
            raise ParameterError(f"parameter {name!r}: {value} {problem}.")


@dataclass(frozen=True)
class CsvFile:
    """A CSV file (None for none): regular, readable, UTF-8, with `columns` in its header and
    numbers in the `numeric` ones on every row."""

    columns: tuple[str, ...]
    numeric: tuple[str, ...] = ()
    stage = 1

    def __call__(self, name: str, value, context: Context) -> None:
        if not isinstance(value, (str, os.PathLike)) or not str(value).strip():
            _fail(name, f"a CSV file with columns {', '.join(self.columns)}", value)
        try:
            path = config.resolve(value)
        except FileNotFoundError:
            raise ParameterError(f"parameter {name!r}: {value} does not exist.") from None
        regular_file(path, name)
        try:
            text = path.read_bytes().decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ParameterError(f"parameter {name!r}: {path.name} is not UTF-8 text (byte {exc.start}).") from None
        except OSError as exc:
            raise ParameterError(f"parameter {name!r}: {path.name} cannot be read ({exc.strerror}).") from None
        if "\x00" in text:
            raise ParameterError(f"parameter {name!r}: {path.name} is binary, not a CSV file.")
        rows = list(csv.reader(text.splitlines()))
        header = [h.strip() for h in rows[0]] if rows else []
        missing = [c for c in self.columns if c not in header]
        if missing:
            raise ParameterError(
                f"parameter {name!r}: {path.name} needs columns {', '.join(self.columns)} (missing {', '.join(missing)})."
            )
        if len(rows) < 2:
            raise ParameterError(f"parameter {name!r}: {path.name} has a header but no rows.")
        for line, row in enumerate(rows[1:], start=2):
            for col in self.numeric:
                cell = row[header.index(col)].strip() if header.index(col) < len(row) else ""
                try:
                    ok = math.isfinite(float(cell))
                except ValueError:
                    ok = False
                if not ok:
                    raise ParameterError(
                        f"parameter {name!r}: {path.name} line {line}: {col} is {cell!r}, not a finite number."
                    )


@dataclass(frozen=True)
class InInput:
    """A value of `column` in the chapter's input (empty allowed when `empty_ok`: the chapter picks).

    `quick`, where given, reads the names from one input file's text without pandas (None when it
    cannot tell): `early` then refuses a missing name before the input is detected and parsed."""

    column: str
    what: str
    empty_ok: bool = False
    quick: Callable[[str], set[str] | None] | None = None
    stage = 4

    def __call__(self, name: str, value, context: Context) -> None:
        if self.empty_ok and value == "":
            return
        if not isinstance(value, str) or not value:
            _fail(name, f"a {self.what} in the input", value)
        df = context.table()
        if df is None or self.column not in df:
            return
        self._refuse_unless_in(name, value, {str(v) for v in df[self.column].dropna().unique()})

    def early(self, name: str, value, context: Context) -> None:
        """The same check on the names `quick` reads from the raw input files (stage 2.5)."""
        if self.quick is None or not isinstance(value, str) or not value:
            return
        sources = context.values.get("source")
        have: set[str] = set()
        for item in sources if isinstance(sources, (list, tuple)) else str(sources or "").split(","):
            try:
                path = config.resolve(str(item).strip())
                text = path.read_bytes().decode("utf-8") if input_problem(path) is None else None
            except (OSError, UnicodeDecodeError):
                text = None
            names = self.quick(text) if text is not None else None
            if names is None:  # a file it cannot read: the full check at stage 4 decides
                return
            have |= names
        self._refuse_unless_in(name, value, have)

    def _refuse_unless_in(self, name: str, value: str, names: set[str]) -> None:
        if value not in names:
            have = sorted(names)
            shown = ", ".join(have[:12]) + (", ..." if len(have) > 12 else "")
            raise ParameterError(f"parameter {name!r}: no {self.what} {value!r} in the input; it has: {shown}.")


#: A configuration name in an SGLang quantization report's summary table, or a run name of its
#: result.jsonl (ingest/sglang_quant.py reads both in full).
_QUANT_NAME = re.compile(r'^\|\s*`([^`|]+)`\s*\||"run_name":\s*"([^"]+)"', re.MULTILINE)


def quant_schemes(text: str) -> set[str] | None:
    """The schemes a quantization report or result.jsonl names (configuration names without the
    `_runN` and the regime suffix, as `sglang_quant.split_model` splits them), or None when the
    text names none."""
    configs = {re.sub(r"_run\d+$", "", a or b) for a, b in _QUANT_NAME.findall(text)}
    if not configs:
        return None
    regimes = sorted(_quant_regimes(), key=len, reverse=True)
    return {
        next((c[: -len(r) - 1] for r in regimes if c.endswith("_" + r) and len(c) > len(r) + 1), c) for c in configs
    }


@cache
def _quant_regimes() -> tuple[str, ...]:
    """The names of `ingest.sglang_quant.REGIMES`, from the JSON file that module reads: importing
    the parser loads pandas, which the check must not wait for."""
    source = Path(__file__).with_name("ingest") / "sglang_quant_regimes.json"
    return tuple(json.loads(source.read_text(encoding="utf-8")))


@dataclass(frozen=True)
class MetricMap:
    """A mapping {regime: metric} whose metrics are numeric columns of the chapter's run table."""

    runs: str  # "module:function" turning the input's tidy table into the run table
    stage = 4

    def __call__(self, name: str, value, context: Context) -> None:
        if not isinstance(value, Mapping) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in value.items()
        ):
            _fail(name, "a mapping {regime: metric}", value)
        df = context.table()
        if df is None or not value:
            return
        import importlib

        module, func = self.runs.split(":")
        try:
            table = getattr(importlib.import_module(module), func)(df)
        except (KeyError, ValueError):  # the input cannot make a run table: the chapter says why
            return
        have = sorted(c for c in table.columns if str(table[c].dtype).startswith(("float", "int")))
        for regime, metric in value.items():
            if metric not in have:
                raise ParameterError(
                    f"parameter {name!r}: regime {regime!r} names metric {metric!r}, which the input does not "
                    f"have; it has: {', '.join(have)}."
                )


def resolve_inputs(value, name: str = "source", tools: tuple[str, ...] = ()) -> list[Path]:
    """Turn a path parameter (str, comma-separated str, or list) into existing files, checking
    that each holds output of one of `tools` (when given). Anything but a regular file is refused
    before it is opened (a FIFO would block the reader); a folder is accepted only by a chapter
    that reads no one tool (`tools` empty: it reads every file in the folder)."""
    items = value if isinstance(value, (list, tuple)) else [s for s in str(value).split(",") if s.strip()]
    out = []
    for item in items:
        try:
            p = config.resolve(str(item).strip())
        except FileNotFoundError:
            raise ParameterError(f"parameter {name!r}: {item!r} does not exist (no such file or folder).") from None
        except OSError as exc:  # a name too long, a loop of links
            raise ParameterError(f"parameter {name!r}: {item!r} cannot be used ({exc.strerror}).") from None
        if "vllm-bench-serve" in tools and p.is_dir():  # a vllm bench sweep folder: its run files
            from benchbook.ingest.vllm_serve import sweep_files

            files = sweep_files(p)[0]
            if files:
                out += [resolve_inputs([str(f)], name, tools)[0] for f in files]
                continue
        if tools or not p.is_dir():  # a folder is an input only where the chapter reads every file in it
            regular_file(p, name, Path(str(item).strip()).name)
        elif not os.access(p, os.R_OK | os.X_OK):
            raise ParameterError(f"parameter {name!r}: {p.name} cannot be read (permission denied).")
        if tools:
            from benchbook import ingest

            try:
                found = ingest.detect(ingest._load_text(p))
            except ingest.ParseError as exc:
                raise ParameterError(f"parameter {name!r}: {exc}.") from None
            except OSError as exc:
                raise ParameterError(f"parameter {name!r}: {p.name} cannot be read ({exc.strerror}).") from None
            if not set(found) & set(tools):
                what = ", ".join(found) if found else "no known tool"
                raise ParameterError(
                    f"parameter {name!r}: {p.name} holds output of {what}, but this chapter reads {' or '.join(tools)}."
                )
        out.append(p)
    return out


class Context:
    """What the input-dependent checks need: the chapter's input files and tool, read once."""

    def __init__(self, values: dict, tools: tuple[str, ...] = (), paths: tuple[str, ...] = (), defaults=None):
        self.values = dict(values)
        self.defaults = defaults or {}
        self.tools = tools
        self.paths = paths
        self._table = None
        self._read = False

    def table(self):
        """The chapter's input as one tidy table (None when it has no file input or cannot be read:
        the chapter's own reading then says why)."""
        if not self._read:
            self._read = True
            sources = self.values.get("source")
            if isinstance(sources, (list, tuple)) and sources and all(isinstance(s, Path) for s in sources):
                from benchbook import ingest

                tool = self.tools[0] if len(self.tools) == 1 else None
                try:
                    self._table = ingest.read_all([s for s in sources if s.is_file()], tool=tool)[0]
                except (ingest.ParseError, ValueError, OSError):
                    self._table = None
        return self._table


Constraint = Callable[[str, object, Context], None]

#: Every chapter parameter, by name. A parameter a notebook declares must be here
#: (tests/cli/test_parameters.py checks every notebook), so no value reaches a kernel unchecked.
CONSTRAINTS: dict[str, Constraint] = {
    # inputs and outputs
    "source": Inputs(),
    "raw_dir": Inputs(),
    "csv_out": OutputFile(),
    "measured_power": CsvFile(("power_limit_w", "power_w"), numeric=("power_limit_w", "power_w")),
    # names that must exist
    "gpu": Device(),
    "gpu_name": Device(),
    "model_id": KnownModel(),
    "model": InInput("model", "model", empty_ok=True),
    "baseline": InInput("scheme", "scheme", empty_ok=True, quick=quant_schemes),
    "metric_by_regime": MetricMap("benchbook.analysis.quant:runs"),
    "sweep": Choice(("auto", "max_concurrency", "request_rate")),
    "outlier_rule": OutlierRule(),
    "metric": Text(),  # checked against the runs by the chapter (the warehouse names the known ones)
    "where": KeyValues(),
    # statistics
    "alpha": PROBABILITY,
    # fractions of a peak or of a whole
    "knee_fraction": FRACTION,
    "peak_fraction": FRACTION,
    "bound_threshold": FRACTION,
    "slowdown_tolerance": Number(0, 1, low_open=False),
    # thresholds, SLOs and physical sizes
    "knee_threshold": POSITIVE,
    "jump_threshold": POSITIVE,
    "slo_ttft_ms": POSITIVE,
    "slo_tpot_ms": POSITIVE,
    "quote_limit_w": POSITIVE,
    "peak_bandwidth_gb_s": NON_NEGATIVE,  # 0 means: from the hardware table
    "peak_tflops": NON_NEGATIVE,  # 0 means: from the hardware table
    "params_b": NON_NEGATIVE,  # 0 means: infer from the model id
    "bytes_per_param": POSITIVE,
    "kv_bytes_per_token": NON_NEGATIVE,  # 0 means: look the model up, else count weights only
    "tp_unknown": Number(1, low_open=False, integer=True),
    "moe_active_params": NumberMap(POSITIVE),
}


def check(
    chapter: str,
    values: dict,
    *,
    defaults: dict | None = None,
    tools: tuple[str, ...] = (),
    paths: tuple[str, ...] = ("source",),
) -> dict:
    """Check every value against its constraint, cheapest first; return the values with the input
    parameters (`paths`) resolved to lists of files.

    `defaults` maps each declared name to its default: a parameter whose default is None may be
    left None (it is optional). `tools` are the tools the chapter reads (checked in each input file,
    and used to read the input for the checks that need it). Raises ParameterError (one sentence)
    at the first value that cannot be used.
    """
    defaults = defaults or {}
    unknown = sorted(set(values) - set(CONSTRAINTS))
    if unknown:
        raise ParameterError(
            f"chapter {chapter!r} declares parameter {unknown[0]!r}, which has no constraint in benchbook.parameters."
        )
    context = Context(values, tools, paths, defaults)
    todo = [(name, value) for name, value in values.items() if not (value is None and defaults.get(name, 0) is None)]
    steps = [(CONSTRAINTS[name].stage, CONSTRAINTS[name], name, value) for name, value in todo]
    steps += [(2.5, c.early, name, value) for name, value in todo if hasattr(c := CONSTRAINTS[name], "early")]
    for _, constraint, name, value in sorted(steps, key=lambda step: step[0]):
        constraint(name, value, context)
    return context.values
