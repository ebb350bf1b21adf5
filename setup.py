"""Ships the book inside the wheel: the chapters, the hardware and model tables, the seed data and
the pages a re-run links to are copied into `benchbook/_book/` when the package is built, so an
installed `benchbook` runs anywhere (`benchbook.config` finds them there when no checkout is around
it). Everything else is declared in pyproject.toml.

Patterns are globs, so a chapter, a `notebooks/*.claims.yml` or a table added later ships without
an edit here. An editable install (`make venv`) reads the checkout itself and copies nothing.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

BOOK_FILES = (
    "_config.yml",
    "_toc.yml",
    "notebooks/*.md",
    "notebooks/*.ipynb",
    "notebooks/*.yml",
    "data/*.csv",
    "data/raw/**/*",
    "data/series/**/*",
    "data/measured/*",
    "book/*.md",
)


class BuildWithBook(build_py):
    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return
        here = Path(__file__).resolve().parent
        target = Path(self.build_lib) / "benchbook" / "_book"
        for pattern in BOOK_FILES:
            for src in sorted(here.glob(pattern)):
                if src.is_file() and ".ipynb_checkpoints" not in src.parts:
                    dest = target / src.relative_to(here)
                    dest.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copyfile(src, dest)


setup(cmdclass={"build_py": BuildWithBook})
