"""The one place that owns paths and build settings.

Notebooks, tests and the CLI resolve data through these names, so a chapter finds its inputs the
same way under the book build, under papermill from any working directory, and under pytest.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

#: The book's files shipped inside the package (chapters, tables, pages; see setup.py), for an
#: installed copy that has no checkout around it.
PACKAGED_BOOK = Path(__file__).resolve().parent / "_book"


def _checkout() -> Path | None:
    """The repository root: BENCHBOOK_ROOT if set, else the checkout this package lives in."""
    env = os.environ.get("BENCHBOOK_ROOT")
    if env:
        return Path(env).resolve()
    here = Path(__file__).resolve()
    for parent in here.parents:
        if (parent / "_toc.yml").is_file() and (parent / "data").is_dir():
            return parent
    return None


def _find_root() -> tuple[Path, bool]:
    """(root, installed): the checkout when there is one (the book build reads it), else the book
    shipped inside an installed package, else the working directory."""
    root = _checkout()
    if root is not None:
        return root, False
    if (PACKAGED_BOOK / "_toc.yml").is_file():
        return PACKAGED_BOOK, True
    return Path.cwd().resolve(), False


PROJ_ROOT, INSTALLED = _find_root()
DATA_DIR = PROJ_ROOT / "data"
RAW_DIR = DATA_DIR / "raw"
PROCESSED_DIR = DATA_DIR / "processed"
HARDWARE_TABLE = DATA_DIR / "hardware.csv"
NOTEBOOKS_DIR = PROJ_ROOT / "notebooks"
BOOK_DIR = PROJ_ROOT / "book"
#: What the commands write: the checkout's _build, or ./_build where the book is installed (never
#: into the installed package).
BUILD_DIR = (Path.cwd().resolve() if INSTALLED else PROJ_ROOT) / "_build"
EXECUTED_DIR = BUILD_DIR / "executed"
STAGE_DIR = BUILD_DIR / "stage"
CACHE_DIR = BUILD_DIR / "cache"
HTML_DIR = BUILD_DIR / "html"
CLAIMS_DIR = BUILD_DIR / "claims"
FIXTURES_DIR = PROJ_ROOT / "tests" / "fixtures"

#: Seconds one cell may run before papermill stops the chapter (its per-cell execution timeout).
EXECUTION_TIMEOUT_S = 600

#: Environment variable naming a file where data reads are logged (the build's cache uses it).
READS_LOG_ENV = "BENCHBOOK_READS_LOG"

#: The seed files, by short name; chapter defaults refer to them through `seed()`.
SEEDS = {
    "000": RAW_DIR / "tgi_bloomz_tp" / "000_5f50b6ac26707e67.txt",
    "001": RAW_DIR / "tgi_bloomz_tp1" / "001_4e5344ced21f561d.txt",
    "002": RAW_DIR / "quant_regimes" / "002_720befe671f869ae.txt",
    "003": RAW_DIR / "bloom_batch" / "003_7819709fab0fbd59.txt",
    "004": RAW_DIR / "rtx_pro_6000" / "004_6d4f73623fb8afcd.txt",
}


def seed(name: str) -> Path:
    """Path of a seed file by its number ("000" ... "004")."""
    return SEEDS[name]


def resolve(path: str | os.PathLike) -> Path:
    """Resolve a user-given path: as given (absolute or relative to the working directory) if it
    exists, else relative to the repository root (so defaults work from any directory).

    Raises FileNotFoundError naming both places looked at.
    """
    p = Path(path).expanduser()
    if p.exists():
        return p.resolve()
    q = PROJ_ROOT / p
    if q.exists():
        return q.resolve()
    raise FileNotFoundError(f"{path}: no such file (looked in the working directory and the project root)")


def relative(path: str | os.PathLike) -> str:
    """A path for display: relative to the project root when inside it, else the file name only,
    so that no machine path reaches a page."""
    p = Path(path).resolve()
    try:
        return p.relative_to(PROJ_ROOT).as_posix()
    except ValueError:
        return p.name


def log_read(path: str | os.PathLike) -> None:
    """Record that a chapter read this file (for the build's content-addressed cache)."""
    log = os.environ.get(READS_LOG_ENV)
    if log:
        with open(log, "a", encoding="utf-8") as fh:
            fh.write(str(Path(path).resolve()) + "\n")


def atomic_write(path: Path, data: bytes | str) -> None:
    """Write to a hidden temporary beside `path`, then rename it over `path`: a reader never sees
    half a file, and a killed writer leaves only a hidden `.*.tmp` that the next run removes."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data.encode("utf-8") if isinstance(data, str) else data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)
