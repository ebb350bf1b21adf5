"""Every third-party module the package imports directly is a declared dependency (pyproject.toml),
so that installing benchbook alone never leaves an import to luck (issue 19)."""

from __future__ import annotations

import ast
import importlib.metadata
import re
import sys
import tomllib

from benchbook import config

PKG = config.PROJ_ROOT / "src" / "benchbook"


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _imported() -> dict[str, str]:
    """Top-level third-party module -> first file importing it (absolute imports, lazy ones too)."""
    found: dict[str, str] = {}
    for path in sorted(PKG.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top != "benchbook" and top not in sys.stdlib_module_names:
                    found.setdefault(top, path.relative_to(PKG).as_posix())
    return found


def _declared() -> set[str]:
    deps = tomllib.loads((config.PROJ_ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    return {_norm(re.split(r"[<>=!~;\[ ]", d, maxsplit=1)[0]) for d in deps}


def test_every_directly_imported_module_is_declared():
    declared = _declared()
    by_module = importlib.metadata.packages_distributions()
    missing = []
    for module, where in sorted(_imported().items()):
        dists = {_norm(d) for d in by_module.get(module, [])}
        assert dists, f"{where} imports {module}, which no installed distribution provides"
        if not dists & declared:
            missing.append(f"{module} ({where}; from {', '.join(sorted(dists))})")
    assert not missing, "imported but not in pyproject dependencies: " + "; ".join(missing)


def test_the_check_sees_the_imports_it_must():
    """The walk finds lazy imports inside functions too, and leaves out the standard library."""
    imported = _imported()
    assert {"numpy", "pandas", "matplotlib", "nbformat", "papermill", "typer"} <= set(imported)
    assert not {"json", "os", "benchbook"} & set(imported)
