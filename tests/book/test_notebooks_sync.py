"""Chapters are jupytext pairs: the MyST source and an .ipynb without outputs that say the same."""

import json

import jupytext
import pytest

from benchbook import build, config

SOURCES = sorted(config.NOTEBOOKS_DIR.glob("*.md"))


def test_every_toc_chapter_has_a_pair():
    for name in build.chapters():
        assert (config.NOTEBOOKS_DIR / f"{name}.md").is_file(), f"notebooks/{name}.md missing"
        assert (config.NOTEBOOKS_DIR / f"{name}.ipynb").is_file(), f"notebooks/{name}.ipynb missing (make sync)"


@pytest.mark.parametrize("md", SOURCES, ids=lambda p: p.stem)
def test_pair_in_sync(md):
    ipynb = md.with_suffix(".ipynb")
    assert ipynb.is_file(), f"{ipynb.name} missing: run make sync"
    a = jupytext.read(md)
    b = jupytext.read(ipynb)
    cells_a = [(c.cell_type, c.source.strip(), sorted(c.metadata.get("tags", []))) for c in a.cells]
    cells_b = [(c.cell_type, c.source.strip(), sorted(c.metadata.get("tags", []))) for c in b.cells]
    assert cells_a == cells_b, f"{md.name} and {ipynb.name} differ: run make sync"


@pytest.mark.parametrize("md", SOURCES, ids=lambda p: p.stem)
def test_committed_notebook_has_no_outputs(md):
    nb = json.loads(md.with_suffix(".ipynb").read_text(encoding="utf-8"))
    assert nb["metadata"]["kernelspec"]["language"] == "python"
    for cell in nb["cells"]:
        if cell["cell_type"] == "code":
            assert cell["outputs"] == [], f"{md.stem}: a code cell has outputs"
            assert cell["execution_count"] is None, f"{md.stem}: a code cell has an execution count"


@pytest.mark.parametrize("md", SOURCES, ids=lambda p: p.stem)
def test_one_parameters_cell_then_setup(md):
    nb = jupytext.read(md)
    code = [c for c in nb.cells if c.cell_type == "code"]
    tagged = [i for i, c in enumerate(code) if "parameters" in c.metadata.get("tags", [])]
    assert tagged == [0], f"{md.stem}: the first code cell, and only it, must be tagged parameters"
    assert f'setup("{md.stem}"' in code[1].source, f"{md.stem}: the second code cell must call setup()"
