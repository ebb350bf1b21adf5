"""benchbook anywhere: the wheel carries the book, and an installed `benchbook report` works from an
empty folder outside the checkout, on real fixtures of four tools.

The wheel is built offline from a copy of the sources (`pip wheel --no-build-isolation`, this
environment's setuptools) and installed, alone, into a fresh virtual environment; its dependencies
come from this environment through one `.pth` line, so nothing is downloaded. The checkout and its
`src/` are not on that interpreter's path, and the command runs in a folder outside the checkout.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from benchbook import config

ROOT = config.PROJ_ROOT
FIXTURES = {
    "tgi-benchmark": config.FIXTURES_DIR / "tgi-benchmark" / "bloomz_1b1_tp_2_4_8.md",
    "hf-batch-sweep": config.FIXTURES_DIR / "hf-batch-sweep" / "readme_0253839c_gpt2_mha.md",
    "attention-gym": config.FIXTURES_DIR / "attention-gym" / "rtx4090_flex_attn_noop.md",
    "vllm-bench-serve": config.FIXTURES_DIR / "vllm-bench-serve" / "dgx_spark_08_sharegpt.md",
}
#: What the sources' copy needs to build: the package and the book files setup.py ships.
SOURCES = ("src", "notebooks", "book", "data/raw", "data/series", "data/hardware.csv", "data/models.csv")
SOURCES += ("_config.yml", "_toc.yml", "setup.py", "pyproject.toml", "README.md", "MANIFEST.in")

pytestmark = pytest.mark.notebooks


def _env() -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "BENCHBOOK_ROOT", "VIRTUAL_ENV")}
    env["PYTHONNOUSERSITE"] = "1"
    return env


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> tuple[Path, Path]:
    """(the fresh environment's bin folder, the wheel)."""
    tmp = tmp_path_factory.mktemp("anywhere")
    src = tmp / "sources"
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", ".ipynb_checkpoints")
    for rel in SOURCES:
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        if (ROOT / rel).is_dir():
            shutil.copytree(ROOT / rel, src / rel, ignore=ignore)
        else:
            shutil.copy(ROOT / rel, src / rel)
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    subprocess.run(
        [*pip, "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-w", tmp / "dist", src],
        check=True,
        cwd=tmp,
        env=_env(),
    )
    (wheel,) = (tmp / "dist").glob("benchbook-*.whl")
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", venv], check=True)
    site = Path(
        subprocess.run(
            [venv / "bin" / "python", "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
    )
    (site / "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    subprocess.run([*pip, "--python", venv / "bin" / "python", "install", "--no-deps", "--no-index", wheel], check=True)
    return venv / "bin", wheel


def test_the_wheel_carries_the_chapters_and_tables(installed):
    _, wheel = installed
    names = set(zipfile.ZipFile(wheel).namelist())
    for chapter in ("serving_saturation", "tp_scaling", "batch_saturation", "attention_kernels"):
        assert f"benchbook/_book/notebooks/{chapter}.ipynb" in names
        assert f"benchbook/_book/notebooks/{chapter}.md" in names
    for table in ("hardware.csv", "models.csv"):
        assert f"benchbook/_book/data/{table}" in names
    assert "benchbook/_book/book/glossary.md" in names and "benchbook/_book/_config.yml" in names
    assert "benchbook/__main__.py" in names


def test_installed_report_runs_outside_the_checkout(installed, tmp_path, machine_path):
    bindir, _ = installed
    run = tmp_path / "reader"
    run.mkdir()
    for f in FIXTURES.values():
        shutil.copy(f, run / f.name)
    assert ROOT not in run.resolve().parents

    probe = subprocess.run(
        [
            bindir / "python",
            "-c",
            "import benchbook, sys, json; from benchbook import config; "
            "print(json.dumps([benchbook.__file__, sys.path, config.INSTALLED, str(config.PROJ_ROOT)]))",
        ],
        cwd=run,
        env=_env(),
        capture_output=True,
        text=True,
        check=True,
    )
    where, path, is_installed, book_root = json.loads(probe.stdout)
    assert Path(where).is_relative_to(bindir.parent) and is_installed
    assert Path(book_root).is_relative_to(bindir.parent)
    assert str(ROOT) not in path and str(ROOT / "src") not in path and "" not in path[1:]

    version = subprocess.run([bindir / "benchbook", "--version"], env=_env(), capture_output=True, text=True)
    assert version.returncode == 0 and version.stdout.startswith("benchbook ")
    module = subprocess.run(
        [bindir / "python", "-m", "benchbook", "--version"], env=_env(), capture_output=True, text=True
    )
    assert module.stdout == version.stdout

    names = [f.name for f in FIXTURES.values()]
    res = subprocess.run(
        [bindir / "benchbook", "report", *names, "-o", "out"], cwd=run, env=_env(), capture_output=True, text=True
    )
    assert res.returncode == 0, res.stdout + res.stderr[-3000:]
    out = run / "out"
    index = (out / "index.html").read_text(encoding="utf-8")
    for chapter in ("tp_scaling", "batch_saturation", "serving_saturation", "attention_kernels"):
        assert f'href="{chapter}.html"' in index and (out / f"{chapter}.html").is_file(), chapter
        assert f'href="{chapter}.claims.json"' in index, chapter
        ledger = json.loads((out / f"{chapter}.claims.json").read_text(encoding="utf-8"))
        assert ledger["chapter"] == chapter and ledger["claims"]
    for name in names:
        assert name in index
    remote = re.compile(r"""(?:src|href)\s*=\s*["'](?:https?:)?//|url\(\s*["']?(?:https?:)?//""")
    for f in out.rglob("*"):
        if f.suffix in (".html", ".js", ".css", ".json", ".ipynb", ".md", ".txt"):
            text = f.read_text(encoding="utf-8", errors="replace")
            assert not remote.search(text), f"{f.relative_to(out)} loads from the network"
            leak = machine_path(text, str(ROOT), str(run), str(bindir.parent))
            assert leak is None, f"{f.relative_to(out)}: {leak!r}"
