"""Every chapter executes with its defaults and produces its figures (through the build's cache)."""

import json

import pytest

from benchbook import build, config

pytestmark = pytest.mark.notebooks

CHAPTERS = build.chapters()


@pytest.fixture(scope="session")
def executed():
    build.execute_all(CHAPTERS, jobs=2, log=lambda *_: None)
    return {n: json.loads((config.EXECUTED_DIR / f"{n}.ipynb").read_text(encoding="utf-8")) for n in CHAPTERS}


@pytest.mark.parametrize("name", CHAPTERS)
def test_chapter_runs_and_draws(executed, name):
    nb = executed[name]
    outputs = [o for c in nb["cells"] if c["cell_type"] == "code" for o in c["outputs"]]
    assert not [o for o in outputs if o["output_type"] == "error"]
    stderr = [o["text"] for o in outputs if o.get("name") == "stderr"]
    assert not stderr, f"{name} printed to stderr: {stderr[0][:300]}"
    images = [o for o in outputs if any(k.endswith("image/png") for k in o.get("data", {}))]
    if name not in ("data_catalogue",):
        assert images, f"{name} drew no figure"


@pytest.mark.parametrize("name", CHAPTERS)
def test_no_machine_paths(executed, name, machine_path):
    assert machine_path(json.dumps(executed[name])) is None, f"{name}: a machine path in the executed notebook"


@pytest.mark.parametrize("name", CHAPTERS)
def test_glued_numbers_exist(executed, name):
    md = "\n".join("".join(c["source"]) for c in executed[name]["cells"] if c["cell_type"] == "markdown")
    glued = {
        o["metadata"]["scrapbook"]["name"]
        for c in executed[name]["cells"]
        if c["cell_type"] == "code"
        for o in c["outputs"]
        if "scrapbook" in o.get("metadata", {})
    }
    import re

    used = set(re.findall(r"\{glue:[a-z]+\}`([A-Za-z0-9_]+)", md)) | set(
        re.findall(r"```\{glue:figure\} ([A-Za-z0-9_]+)", md)
    )
    assert used <= glued, f"{name}: prose refers to unglued names {sorted(used - glued)}"


def test_plain_papermill_from_another_directory(tmp_path):
    """The README's promise: plain papermill, run from anywhere, finds the data through config."""
    import subprocess
    import sys
    from pathlib import Path

    papermill = Path(sys.executable).with_name("papermill")
    nb = config.NOTEBOOKS_DIR / "data_catalogue.ipynb"
    res = subprocess.run(
        [str(papermill), str(nb), "out.ipynb", "--no-progress-bar"], cwd=tmp_path, capture_output=True, text=True
    )
    assert res.returncode == 0, res.stderr[-2000:]
    out = json.loads((tmp_path / "out.ipynb").read_text(encoding="utf-8"))
    text = json.dumps([c.get("outputs", []) for c in out["cells"]])
    assert "000_5f50b6ac26707e67.txt" in text  # the catalogue listed the real raw files
