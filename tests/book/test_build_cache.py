"""The build's execution cache: each kind of edit re-executes exactly the chapters it should.

A throwaway project (tmp_path) holds three tiny chapters that read different files through
`config.log_read`; the build runs in a subprocess with BENCHBOOK_ROOT pointing at it (the config
module resolves the root at import) and `--no-render` (execute + stage, no jupyter-book). The
package part of the cache key is pinned through BENCHBOOK_PACKAGE_HASH, so edits other people make
to src/benchbook while the tests run do not leak in, and a package edit is simulated by changing it.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from benchbook import build

REPO = Path(__file__).resolve().parents[2]

TOC = """format: jb-book
root: book/intro
chapters:
  - file: notebooks/alpha
  - file: notebooks/beta
  - file: notebooks/gamma
"""

READ = "from benchbook import config\n"


def _nb(*cells) -> nbformat.NotebookNode:
    nb = new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = list(cells)
    return nb


def _params(src: str):
    return new_code_cell(src, metadata={"tags": ["parameters"]})


def _chapters() -> dict[str, nbformat.NotebookNode]:
    return {
        # reads the file its parameter names
        "alpha": _nb(
            new_markdown_cell("# Alpha\n\nAlpha adds the numbers in its source."),
            _params('source = "data/a.txt"  # numbers to add'),
            new_code_cell(
                READ + "p = config.resolve(source)\nconfig.log_read(p)\n"
                "print('alpha total', sum(int(x) for x in p.read_text().split()))"
            ),
        ),
        # reads two fixed files
        "beta": _nb(
            new_markdown_cell("# Beta\n\nOld prose about beta."),
            new_code_cell(
                READ + "for name in ('b.txt', 'hardware.csv'):\n"
                "    f = config.DATA_DIR / name\n    config.log_read(f)\n"
                "    print('beta', name, len(f.read_bytes()))"
            ),
        ),
        # scans a folder: a file added there must re-execute it
        "gamma": _nb(
            new_markdown_cell("# Gamma"),
            new_code_cell(
                READ + "d = config.DATA_DIR / 'dir'\nconfig.log_read(d)\n"
                "print('gamma', sorted(p.name for p in d.iterdir()))"
            ),
        ),
    }


def _make_project(root: Path, chapters: dict[str, nbformat.NotebookNode] | None = None) -> Path:
    (root / "notebooks").mkdir(parents=True)
    (root / "book").mkdir()
    (root / "data" / "dir").mkdir(parents=True)
    for f in ("_config.yml", "requirements.txt"):
        shutil.copy(REPO / f, root / f)
    (root / "_toc.yml").write_text(TOC)
    (root / "book" / "intro.md").write_text("# Intro\n\nA test book.\n")
    (root / "data" / "a.txt").write_text("1 2 3\n")
    (root / "data" / "b.txt").write_text("bee\n")
    shutil.copy(REPO / "data" / "hardware.csv", root / "data" / "hardware.csv")
    (root / "data" / "dir" / "x.txt").write_text("x\n")
    for name, nb in (chapters or _chapters()).items():
        nbformat.write(nb, root / "notebooks" / f"{name}.ipynb")
    return root


LINE = re.compile(r"^\s+(executed|cached|FAILED)\s+(\S+)(?: \((.*)\) in [\d.]+ s)?")


def _build(root: Path, pkg: str = "pinned") -> dict:
    """Run `python -m benchbook.build --no-render` in the project; return what ran and why."""
    env = {**os.environ, "BENCHBOOK_ROOT": str(root), build.PACKAGE_HASH_ENV: pkg}
    env.pop("BENCHBOOK_READS_LOG", None)
    res = subprocess.run(
        [sys.executable, "-m", "benchbook.build", "--no-render", "--jobs", "2"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    executed, cached = {}, set()
    for line in res.stdout.splitlines():
        m = LINE.match(line)
        if m and m.group(1) == "executed":
            executed[m.group(2)] = m.group(3)
        elif m and m.group(1) == "cached":
            cached.add(m.group(2))
    return {"rc": res.returncode, "executed": executed, "cached": cached, "out": res.stdout, "err": res.stderr}


def _ok(r: dict) -> dict:
    assert r["rc"] == 0, r["out"] + r["err"]
    return r


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """A project built once from cold (every chapter executed)."""
    root = _make_project(tmp_path_factory.mktemp("cold") / "proj")
    r = _ok(_build(root))
    assert set(r["executed"]) == {"alpha", "beta", "gamma"}
    assert set(r["executed"].values()) == {"not executed before"}
    return root


@pytest.fixture
def proj(built, tmp_path) -> Path:
    """A private copy of the built project (the cache records project-relative paths)."""
    dst = tmp_path / "proj"
    shutil.copytree(built, dst)
    return dst


def _staged(root: Path, name: str) -> nbformat.NotebookNode:
    return nbformat.read(root / "_build" / "stage" / "notebooks" / f"{name}.ipynb", as_version=4)


def _outputs(nb) -> str:
    return "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.outputs)


def test_cold_build_outputs_and_no_machine_paths(built):
    executed = built / "_build" / "executed"
    assert sorted(p.name for p in executed.iterdir()) == ["alpha.ipynb", "beta.ipynb", "gamma.ipynb"]
    assert "alpha total 6" in _outputs(_staged(built, "alpha"))
    assert "gamma ['x.txt']" in _outputs(_staged(built, "gamma"))
    for p in executed.iterdir():
        text = p.read_text()
        assert str(built) not in text and "/tmp/" not in text
        pm = json.loads(text)["metadata"]["papermill"]
        assert pm["input_path"] == f"notebooks/{p.stem}.ipynb" and pm["output_path"] == p.name
    entry = json.loads((built / "_build" / "cache" / "alpha.json").read_text())
    assert set(entry["reads"]) == {"data/a.txt"}
    assert set(json.loads((built / "_build" / "cache" / "beta.json").read_text())["reads"]) == {
        "data/b.txt",
        "data/hardware.csv",
    }


def test_no_change_executes_nothing(proj):
    r = _ok(_build(proj))
    assert r["executed"] == {}
    assert r["cached"] == {"alpha", "beta", "gamma"}


def test_data_edit_executes_exactly_its_readers(proj):
    (proj / "data" / "a.txt").write_text("1 2 3 4\n")
    r = _ok(_build(proj))
    assert r["executed"] == {"alpha": "input data/a.txt changed"}
    assert "alpha total 10" in _outputs(_staged(proj, "alpha"))
    # same bytes again, new mtime: content hashes, so nothing runs
    (proj / "data" / "a.txt").write_text("1 2 3 4\n")
    assert _ok(_build(proj))["executed"] == {}
    with open(proj / "data" / "hardware.csv", "a") as fh:
        fh.write("\n")
    assert set(_ok(_build(proj))["executed"]) == {"beta"}


def test_file_added_to_a_scanned_folder_executes_the_scanner(proj):
    (proj / "data" / "dir" / "y.txt").write_text("y\n")
    r = _ok(_build(proj))
    assert r["executed"] == {"gamma": "input data/dir changed"}
    assert "gamma ['x.txt', 'y.txt']" in _outputs(_staged(proj, "gamma"))


def test_parameter_change_executes_that_chapter(proj):
    (proj / "data" / "a2.txt").write_text("10 20\n")
    path = proj / "notebooks" / "alpha.ipynb"
    nb = nbformat.read(path, as_version=4)
    nb.cells[1].source = 'source = "data/a2.txt"  # numbers to add'
    nbformat.write(nb, path)
    r = _ok(_build(proj))
    assert r["executed"] == {"alpha": "parameters changed"}
    assert "alpha total 30" in _outputs(_staged(proj, "alpha"))
    assert set(json.loads((proj / "_build" / "cache" / "alpha.json").read_text())["reads"]) == {"data/a2.txt"}


def test_code_change_executes_that_chapter(proj):
    path = proj / "notebooks" / "gamma.ipynb"
    nb = nbformat.read(path, as_version=4)
    nb.cells[1].source += "\nprint('more')"
    nbformat.write(nb, path)
    assert _ok(_build(proj))["executed"] == {"gamma": "code cells changed"}


WORDED = (
    "from benchbook.claims import make\n"
    "from benchbook.presentation import wording\n"
    "claim = make('odd', 'anomaly', 'odd rows', {{'count': 2, 'n': 5}})\n"
    "print(wording.ledger('{name}', [], [claim]).claims[0].text)"
)


def test_wording_edit_executes_only_that_chapter(tmp_path):
    """Editing notebooks/<chapter>.claims.yml re-executes that chapter and no other (the wording file
    is logged as read when the chapter words its claims)."""
    chapters = _chapters()
    for name in ("alpha", "beta"):
        chapters[name].cells.append(new_code_cell(WORDED.format(name=name)))
    root = _make_project(tmp_path / "proj", chapters)
    for name in ("alpha", "beta"):
        (root / "notebooks" / f"{name}.claims.yml").write_text(
            f"claims:\n  odd:\n    shown: '{name}: {{{{ count }}}} of {{{{ n }}}} rows are odd.'\n"
        )
    _ok(_build(root))
    assert "Alpha: 2 of 5 rows are odd." in _outputs(_staged(root, "alpha"))
    (root / "notebooks" / "alpha.claims.yml").write_text(
        "claims:\n  odd:\n    shown: 'Odd rows: {{ count }} of {{ n }}.'\n"
    )
    r = _ok(_build(root))
    assert r["executed"] == {"alpha": "input notebooks/alpha.claims.yml changed"}
    assert "Odd rows: 2 of 5." in _outputs(_staged(root, "alpha"))
    assert "Beta: 2 of 5 rows are odd." in _outputs(_staged(root, "beta"))


def test_package_change_executes_all(proj):
    r = _ok(_build(proj, pkg="edited"))
    assert r["executed"] == dict.fromkeys(("alpha", "beta", "gamma"), "package or dependencies changed")


def test_package_hash_follows_the_sources(tmp_path):
    pkg = tmp_path / "pkg"
    shutil.copytree(REPO / "src" / "benchbook", pkg, ignore=shutil.ignore_patterns("__pycache__"))
    req = tmp_path / "requirements.txt"
    shutil.copy(REPO / "requirements.txt", req)
    h0 = build.package_hash(pkg, req)
    assert build.package_hash(pkg, req) == h0
    (pkg / "presentation" / "plotting.py").write_text((pkg / "presentation" / "plotting.py").read_text() + "\n# edit\n")
    h1 = build.package_hash(pkg, req)
    assert h1 != h0
    req.write_text(req.read_text() + "extra==1.0\n")
    assert build.package_hash(pkg, req) != h1


def test_prose_edit_executes_nothing_and_stages_new_prose(proj):
    path = proj / "notebooks" / "beta.ipynb"
    nb = nbformat.read(path, as_version=4)
    nb.cells[0].source = "# Beta\n\nNew prose about beta."
    nb.cells.append(new_markdown_cell("An added closing paragraph."))
    nbformat.write(nb, path)
    r = _ok(_build(proj))
    assert r["executed"] == {}
    staged = _staged(proj, "beta")
    md = [c.source for c in staged.cells if c.cell_type == "markdown"]
    assert md == ["# Beta\n\nNew prose about beta.", "An added closing paragraph."]
    assert "beta b.txt 4" in _outputs(staged)  # the cached outputs are kept


def test_tampered_executed_copy_is_executed_again(proj):
    p = proj / "_build" / "executed" / "gamma.ipynb"
    p.write_text(p.read_text().replace("x.txt", "z.txt"))
    assert _ok(_build(proj))["executed"] == {"gamma": "executed copy modified"}


def test_failing_notebook_names_cell_and_leaves_no_executed_file(tmp_path):
    chapters = _chapters()
    chapters["gamma"].cells.append(new_code_cell("ratio = 1 / 0"))
    root = _make_project(tmp_path / "proj", chapters)
    r = _build(root)
    assert r["rc"] == 1
    assert "notebooks/gamma.ipynb: cell 2" in r["err"]
    assert "'ratio = 1 / 0'" in r["err"] and "ZeroDivisionError" in r["err"]
    executed = root / "_build" / "executed"
    assert not (executed / "gamma.ipynb").exists()
    assert not [p for p in executed.iterdir() if p.name.startswith(".")]
    assert not (root / "_build" / "cache" / "gamma.json").exists()


def test_printing_a_machine_path_fails_the_chapter(tmp_path):
    chapters = _chapters()
    chapters["beta"].cells.append(new_code_cell("print(config.PROJ_ROOT / 'data')"))
    root = _make_project(tmp_path / "proj", chapters)
    r = _build(root)
    assert r["rc"] == 1
    assert "notebooks/beta.ipynb: cell 2" in r["err"] and "machine path" in r["err"]
    assert not (root / "_build" / "executed" / "beta.ipynb").exists()


def test_ingest_runs_only_when_raw_data_changes(tmp_path, monkeypatch):
    from benchbook import config

    for name, sub in (("RAW_DIR", "raw"), ("PROCESSED_DIR", "processed"), ("CACHE_DIR", "cache")):
        monkeypatch.setattr(config, name, tmp_path / sub)
    monkeypatch.setenv(build.PACKAGE_HASH_ENV, "pinned")
    (tmp_path / "raw").mkdir()
    (tmp_path / "raw" / "r.txt").write_text("one\n")
    calls = []

    def run():
        calls.append(1)
        (tmp_path / "processed").mkdir(exist_ok=True)
        (tmp_path / "processed" / "t.csv").write_text(f"rows {len(calls)}\n")

    quiet = lambda m: None  # noqa: E731
    assert build.ingest_if_changed(run, quiet) is True
    assert build.ingest_if_changed(run, quiet) is False
    (tmp_path / "raw" / "r.txt").write_text("two\n")
    assert build.ingest_if_changed(run, quiet) is True
    (tmp_path / "processed" / "t.csv").unlink()  # a deleted output is rebuilt
    assert build.ingest_if_changed(run, quiet) is True
    monkeypatch.setenv(build.PACKAGE_HASH_ENV, "edited")
    assert build.ingest_if_changed(run, quiet) is True
    assert build.ingest_if_changed(run, quiet, force=True) is True
    assert len(calls) == 5


def test_render_prunes_figures_no_page_links(tmp_path, monkeypatch):
    from benchbook import config

    monkeypatch.setattr(config, "HTML_DIR", tmp_path)
    (tmp_path / "_images").mkdir()
    (tmp_path / "notebooks").mkdir()
    (tmp_path / "notebooks" / "a.html").write_text('<img src="../_images/new.png">')
    for name in ("new.png", "old.png"):
        (tmp_path / "_images" / name).write_bytes(b"png")
    build._prune_images()
    assert sorted(p.name for p in (tmp_path / "_images").iterdir()) == ["new.png"]


def test_ingest_all_removes_tables_of_tools_gone_from_raw(tmp_path, monkeypatch):
    from benchbook import config, ingest
    from benchbook.cli import ingest_all

    seed = config.seed("001")
    for name, sub in (("RAW_DIR", "raw"), ("PROCESSED_DIR", "processed")):
        monkeypatch.setattr(config, name, tmp_path / sub)
    (tmp_path / "raw").mkdir()
    shutil.copy(seed, tmp_path / "raw" / seed.name)
    (tmp_path / "processed").mkdir()
    (tmp_path / "processed" / "llama-bench.parquet").write_bytes(b"a table from a file since deleted")
    counts = ingest_all(log=lambda m: None)
    rows = ingest.read(seed)["tool"].value_counts().to_dict()
    assert counts == rows and "llama-bench" not in rows
    assert sorted(p.name for p in (tmp_path / "processed").glob("*.parquet")) == sorted(f"{t}.parquet" for t in rows)


def test_build_lock_makes_a_second_build_wait(tmp_path, monkeypatch):
    """While one process holds the lock (re-entered, as build() around execute_all does), another
    process's build waits for it, and goes on once it is released."""
    from benchbook import config

    monkeypatch.setattr(config, "BUILD_DIR", tmp_path / "_build")
    env = {**os.environ, "BENCHBOOK_ROOT": str(tmp_path)}
    other = "from benchbook import build\nwith build.build_lock():\n    print('acquired')\n"
    said = []
    with build.build_lock(log=said.append):
        with build.build_lock(log=said.append):
            pass
        proc = subprocess.Popen([sys.executable, "-u", "-c", other], env=env, stdout=subprocess.PIPE, text=True)
        assert proc.stdout.readline() == "  waiting for another build of this tree (_build/.lock)\n"
        assert proc.poll() is None  # blocked on the lock, which this process still holds
    rest, _ = proc.communicate(timeout=120)
    assert proc.returncode == 0 and rest == "acquired\n"
    assert said == []  # this process never waited, not even when re-entering
