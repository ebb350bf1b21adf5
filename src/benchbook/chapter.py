"""What every chapter notebook does first: check its parameters, then resolve its inputs.

A wrong parameter stops the chapter in its first code cell with one sentence (ParameterError),
instead of a traceback forty cells down.
"""

from __future__ import annotations

import math
import sys
import types

from benchbook import declarations, parameters
from benchbook.parameters import ParameterError, resolve_inputs

__all__ = ["ParameterError", "declared", "exercises_note", "fmt", "resolve_inputs", "setup"]

#: Names a kernel defines by itself; anything else in the namespace before setup() is a parameter.
_KERNEL_NAMES = {"In", "Out", "get_ipython", "exit", "quit", "open"}


def declared(chapter: str) -> dict[str, dict]:
    """The parameters a chapter declares (`benchbook.declarations`): name -> {type, default, help}."""
    try:
        return declarations.chapter(chapter).spec()
    except KeyError:
        raise ParameterError(
            f"there is no chapter called {chapter!r}; the book's chapters are: {', '.join(declarations.BY_NAME)}."
        ) from None


def _type_ok(value, default) -> bool:
    if default is None or value is None:
        return True
    if isinstance(default, bool):
        return isinstance(value, bool)
    if isinstance(default, float):
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if isinstance(default, (list, tuple)):
        return isinstance(value, (list, tuple, str))
    return isinstance(value, type(default))


def _plain_numpy_reprs() -> None:
    """Show numpy scalars as plain Python numbers (numpy 2 prints `np.float64(2.5)`), so that values
    glued into the prose format as numbers."""
    if "IPython" not in sys.modules:  # no kernel here (e.g. `benchbook run` checking parameters)
        return
    import numpy as np
    from IPython import get_ipython

    ip = get_ipython()
    if ip is None:
        return
    fmt = ip.display_formatter.formatters["text/plain"]
    # Registered per concrete type: IPython's own printer for `float` would win over np.floating.
    for t in (np.float16, np.float32, np.float64, np.longdouble):
        fmt.for_type(t, lambda obj, p, cycle: p.text(repr(float(obj))))
    for t in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64):
        fmt.for_type(t, lambda obj, p, cycle: p.text(repr(int(obj))))
    fmt.for_type(np.bool_, lambda obj, p, cycle: p.text(repr(bool(obj))))


def fmt(v, spec: str = ".0f", unit: str = "") -> str:
    """A number for the prose: formatted with `spec` and followed by `unit`, or "n/a" when the input
    could not give it (None, NaN or infinite)."""
    if v is None or (isinstance(v, float) and not math.isfinite(v)):
        return "n/a"
    return f"{v:{spec}}{unit}"


def setup(chapter: str, namespace: dict) -> dict:
    """Validate a chapter's parameters and return them with paths resolved.

    `namespace` is the notebook's globals(); names in it that the chapter does not declare were
    passed by mistake. The declaration's `paths` name the parameters that hold input files (a string,
    a list of strings, or a comma-separated string); each must exist and, when the chapter names
    `tools`, hold output of one of those tools.
    """
    _plain_numpy_reprs()
    spec = declared(chapter)
    given = {
        k: v
        for k, v in namespace.items()
        if not k.startswith("_") and k not in _KERNEL_NAMES and not isinstance(v, types.ModuleType) and not callable(v)
    }
    unknown = sorted(set(given) - set(spec))
    if unknown:
        raise ParameterError(f"unknown parameter {unknown[0]!r} for chapter {chapter!r}; it takes: {', '.join(spec)}.")
    values = {}
    for name, info in spec.items():
        value = given.get(name, info["default"])
        if not _type_ok(value, info["default"]):
            raise ParameterError(f"parameter {name!r} should be {type(info['default']).__name__}, got {value!r}.")
        values[name] = value
    defaults = {name: info["default"] for name, info in spec.items()}
    decl = declarations.chapter(chapter)
    return parameters.check(chapter, values, defaults=defaults, tools=decl.tools, paths=decl.paths)


def changed_parameters(chapter: str, namespace: dict) -> dict:
    """The parameters this run set to something other than the chapter's defaults, output files
    (`*_out`, which a re-run points into its own folder) left out: where a page writes its table
    changes nothing the page says."""
    return {
        name: namespace[name]
        for name, info in declared(chapter).items()
        if name in namespace and namespace[name] != info["default"] and not name.endswith("_out")
    }


def exercises_note(chapter: str, namespace: dict) -> None:
    """Display, above a chapter's exercises, that they and their solutions describe the book's own
    data, when this page was run on other data or parameters: the solutions are about the seeds and
    must not read as statements about the reader's run."""
    changed = changed_parameters(chapter, namespace)
    if not changed:
        return
    from benchbook.presentation import outputs, wording

    outputs.display(wording.exercises_note(declared(chapter), changed), markdown=True)
