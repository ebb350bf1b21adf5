"""The house follows the data: ingest -> analysis -> claims -> presentation -> chapter, checked by
import-linter's layers contract (pyproject.toml), plus the analysis layer's own promise: numbers
only, no plotting and no sentences."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from benchbook import config

PKG = config.PROJ_ROOT / "src" / "benchbook"


def test_layers_contract_holds():
    exe = Path(sys.executable).with_name("lint-imports")
    res = subprocess.run([str(exe), "--no-cache"], cwd=config.PROJ_ROOT, capture_output=True, text=True)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-2000:]


def test_analysis_draws_nothing():
    for path in sorted((PKG / "analysis").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            assert not any(n.split(".")[0] in ("matplotlib", "seaborn", "IPython", "myst_nb") for n in names), (
                f"{path.name} imports {names}: figures and display belong in benchbook.presentation"
            )
