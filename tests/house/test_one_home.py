"""One home for each thing the book does once (issue #34, "Done means"): the roofline (one `Peaks`
class, one bytes-per-weight table, the ridge formula in `analysis/roofline.py` only), one notebook
executor, nothing that learns a chapter by parsing notebook source, and tests in one folder per
layer. Each check reads the package's source as code (its syntax tree) and is shown failing on a
small source that breaks it."""

from __future__ import annotations

import ast
from pathlib import Path

from benchbook import config
from benchbook.analysis import roofline

PKG = config.PROJ_ROOT / "src" / "benchbook"
TESTS = config.PROJ_ROOT / "tests"
ROOFLINE = "analysis/roofline.py"
EXECUTOR = "executor.py"
#: Precision names a bytes-per-weight table is keyed by (or, turned round, maps to).
PRECISIONS = {"fp32", "bf16", "fp16", "fp8", "int8", "fp4", "int4"}
#: Calls that run a notebook's cells in a kernel.
RUNS_A_NOTEBOOK = {"execute_notebook", "ExecutePreprocessor", "NotebookClient", "KernelManager", "start_new_kernel"}
#: Signs that a module reads notebook source.
NOTEBOOK_SOURCE = ("NOTEBOOKS_DIR", ".ipynb", "code-cell", "jupytext", "nbformat.read")
#: The test folders, one per layer (CONTRIBUTING.md, "Tests that must bite").
LAYERS = {"ingest", "analysis", "checks", "claims", "presentation", "topics", "book", "cli", "house"}


def _modules() -> dict[str, str]:
    return {p.relative_to(PKG).as_posix(): p.read_text(encoding="utf-8") for p in sorted(PKG.rglob("*.py"))}


def peaks_classes(source: str) -> list[str]:
    return [n.name for n in ast.walk(ast.parse(source)) if isinstance(n, ast.ClassDef) and "Peaks" in n.name]


def bytes_tables(source: str) -> list[int]:
    """Lines of dict literals that pair two or more precision names with their bytes per weight,
    either way round (a dict of colours or labels keyed by precision is not one)."""
    out = []
    for n in ast.walk(ast.parse(source)):
        if not isinstance(n, ast.Dict):
            continue
        pairs = [
            (k.value, v.value) if isinstance(v.value, (int, float)) else (v.value, k.value)
            for k, v in zip(n.keys, n.values, strict=True)
            if isinstance(k, ast.Constant) and isinstance(v, ast.Constant)
        ]
        named = [(name, b) for name, b in pairs if name in PRECISIONS and isinstance(b, (int, float))]
        if len(named) >= 2 and all(roofline.bytes_per_weight(name) == b for name, b in named):
            out.append(n.lineno)
    return out


def ridge_formulas(source: str) -> list[int]:
    """Lines that assign a name holding "ridge" from a division: the ridge computed by hand."""
    out = []
    for n in ast.walk(ast.parse(source)):
        targets = (
            n.targets
            if isinstance(n, ast.Assign)
            else [n.target]
            if isinstance(n, (ast.AnnAssign, ast.AugAssign))
            else []
        )
        named = any("ridge" in ast.unparse(t).lower() for t in targets)
        if (
            named
            and n.value is not None
            and any(isinstance(x, ast.BinOp) and isinstance(x.op, ast.Div) for x in ast.walk(n.value))
        ):
            out.append(n.lineno)
    return out


def notebook_runs(source: str) -> list[str]:
    names = []
    for n in ast.walk(ast.parse(source)):
        if isinstance(n, ast.Call):
            f = n.func
            name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
            if name in RUNS_A_NOTEBOOK:
                names.append(name)
    return names


def reads_notebooks_with_ast(source: str) -> bool:
    tree = ast.parse(source)
    imports_ast = any(
        (isinstance(n, ast.Import) and any(a.name == "ast" for a in n.names))
        or (isinstance(n, ast.ImportFrom) and n.module == "ast")
        for n in ast.walk(tree)
    )
    return imports_ast and any(sign in source for sign in NOTEBOOK_SOURCE)


def test_one_peaks_class_one_bytes_per_weight_table_and_the_ridge_formula_in_the_roofline_module():
    mods = _modules()
    assert {m: peaks_classes(s) for m, s in mods.items() if peaks_classes(s)} == {ROOFLINE: ["Peaks"]}
    assert [m for m, s in mods.items() if bytes_tables(s)] == [ROOFLINE]
    assert {m: ridge_formulas(s) for m, s in mods.items() if ridge_formulas(s) and m != ROOFLINE} == {}


def test_the_roofline_checks_find_a_second_home():
    assert peaks_classes("class DevicePeaks:\n    pass\n") == ["DevicePeaks"]
    assert bytes_tables('BPW = {"bf16": 2, "fp8": 1}\n') == [1]
    assert bytes_tables('PREC = {2.0: "bf16", 1.0: "fp8"}\n') == [1]  # the same table turned round
    assert bytes_tables('UNITS = {"bf16": "16-bit", "fp8": "8-bit"}\nN = {"bf16": 2}\n') == []
    assert bytes_tables('COLOUR = {"bf16": 0, "fp32": 4, "int8": 1}\n') == []  # palette indices
    assert ridge_formulas("ridge = peak_tflops * 1e12 / (bw * 1e9)\n") == [1]
    assert ridge_formulas('d["ridge"] = roofline.ridge(p, bw)\n') == []


def test_one_module_runs_notebooks():
    runs = {m: notebook_runs(s) for m, s in _modules().items() if notebook_runs(s)}
    assert set(runs) <= {EXECUTOR} and runs, runs


def test_the_executor_check_finds_a_second_runner():
    assert notebook_runs("import papermill\npapermill.execute_notebook(a, b)\n") == ["execute_notebook"]
    assert notebook_runs("import papermill  # warm the import only\n") == []


def test_no_module_reads_notebook_source_with_ast():
    """A chapter is learnt from its declaration (declarations.py), never by parsing its notebook."""
    assert [m for m, s in _modules().items() if reads_notebooks_with_ast(s)] == []


def test_the_ast_check_tells_a_notebook_reader_from_a_literal_parser():
    reader = "import ast\nfrom benchbook import config\ntree = ast.parse((config.NOTEBOOKS_DIR / 'x.md').read_text())\n"
    assert reads_notebooks_with_ast(reader)
    assert not reads_notebooks_with_ast("import ast\nvalue = ast.literal_eval(cell)\n")


def misplaced_tests(root: Path) -> list[str]:
    """Test files outside the layer folders: flat in tests/, or in a folder that is not a layer."""
    out = []
    for p in sorted(root.rglob("test_*.py")):
        rel = p.relative_to(root)
        if "fixtures" in rel.parts:
            continue
        if len(rel.parts) < 2 or rel.parts[0] not in LAYERS:
            out.append(rel.as_posix())
    return out


def test_every_test_file_sits_in_its_layers_folder():
    assert misplaced_tests(TESTS) == []


def test_the_layer_check_finds_a_flat_test_file(tmp_path):
    for rel in ("test_flat.py", "misc/test_found_in_review.py", "claims/test_claims_tp.py", "fixtures/x/test_data.py"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("", encoding="utf-8")
    assert misplaced_tests(tmp_path) == ["misc/test_found_in_review.py", "test_flat.py"]
