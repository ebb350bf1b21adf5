"""Every chapter executes with its defaults and produces its figures (through the build's cache)."""

import json

import pytest
from conftest import TOPICS, glued_text

from benchbook import build, config

pytestmark = pytest.mark.notebooks

CHAPTERS = build.chapters()


@pytest.fixture(scope="session")
def executed():
    build.build(log=lambda *_: None, render_html=False)
    return {n: json.loads((config.EXECUTED_DIR / f"{n}.ipynb").read_text(encoding="utf-8")) for n in CHAPTERS}


@pytest.mark.parametrize("name", CHAPTERS)
def test_chapter_runs_and_draws(executed, name):
    nb = executed[name]
    outputs = [o for c in nb["cells"] if c["cell_type"] == "code" for o in c["outputs"]]
    assert not [o for o in outputs if o["output_type"] == "error"]
    stderr = [o["text"] for o in outputs if o.get("name") == "stderr"]
    assert not stderr, f"{name} printed to stderr: {stderr[0][:300]}"
    images = [o for o in outputs if any(k.endswith(("image/png", "image/svg+xml")) for k in o.get("data", {}))]
    if name not in ("data_catalogue", "claims_ledger"):
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


def _outputs(nb):
    return [o for c in nb["cells"] if c["cell_type"] == "code" for o in c["outputs"]]


@pytest.mark.parametrize("name", CHAPTERS)
def test_figures_do_not_collide(executed, name):
    """Every glued figure was checked for colliding labels and legends over data, and passed."""
    from benchbook.presentation.plotting import FIGURE_CHECK_MIME

    outs = _outputs(executed[name])
    checks = [o["data"][FIGURE_CHECK_MIME] for o in outs if FIGURE_CHECK_MIME in o.get("data", {})]
    figures = [
        o
        for o in outs
        if "scrapbook" in o.get("metadata", {})
        and any(k.endswith(("image/png", "image/svg+xml")) for k in o.get("data", {}))
    ]
    assert len(checks) == len(figures), f"{name}: {len(figures)} figures glued, {len(checks)} checked"
    bad = [f"{c['figure']}: {p}" for c in checks for p in c["overlaps"]]
    assert not bad, f"{name}: " + "; ".join(bad[:10])


@pytest.mark.parametrize("name", TOPICS)
def test_ledger_is_published_clean_and_says_something(executed, name):
    from benchbook.claims import from_notebook
    from benchbook.claims.rules import check

    ledger = from_notebook(executed[name])
    assert ledger is not None, f"{name} published no claims ledger"
    assert check(ledger) == []
    shown = [c for c in ledger["claims"] if c["status"] == "shown"]
    assert len(shown) >= 5, f"{name}: only {len(shown)} shown claims on the seeds"
    on_disk = json.loads((config.CLAIMS_DIR / f"{name}.json").read_text(encoding="utf-8"))
    assert on_disk == ledger


@pytest.mark.parametrize("name", CHAPTERS)
def test_prose_prints_no_missing_value(executed, name):
    """No value placed in a sentence reads nan, None or n/a."""
    import re

    from benchbook.claims.rules import MISSING_WORDS

    md = "\n".join("".join(c["source"]) for c in executed[name]["cells"] if c["cell_type"] == "markdown")
    used = set(re.findall(r"\{glue:(?:text|md)\}`([A-Za-z0-9_]+)", md))
    bad = []
    for o in _outputs(executed[name]):
        meta = o.get("metadata", {}).get("scrapbook", {})
        if meta.get("name") in used:
            text = re.sub(r"`[^`]*`", "", glued_text(o["data"]))  # a code span quotes a command (`--request-rate inf`)
            if MISSING_WORDS.search(text.strip("'\"")):
                bad.append(f"{meta['name']} = {text[:80]}")
    assert not bad, f"{name}: " + "; ".join(bad)
