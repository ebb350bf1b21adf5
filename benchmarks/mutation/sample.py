"""A random sample of the mutants of `[tool.mutmut]`, run and scored (make mutation-sample).

The whole set (about 19,000 mutants) takes hours on two cores; a random sample of 400 takes about
a quarter of an hour and estimates the score within about 2 points either way (95 %). Steps:
mutmut writes every mutant and collects which tests cover which function (a `mutmut run` filtered
on a name that matches nothing, which then stops), the sample is drawn from the names in
mutants/**/*.meta with a fixed seed, mutmut runs those, and score.py scores them.

    .venv/bin/python benchmarks/mutation/sample.py [--n 400] [--seed 2026] [--max-children 2]
        [--within PREFIX ...]

`--within` draws only from the mutants whose names start with one of the prefixes: a module
(`benchbook.measured.`) or a function (`benchbook.ingest.core.x_cut_item__`), to sample code
added since the last draw.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MUTMUT = Path(sys.executable).with_name("mutmut")
NAMES = ROOT / "benchmarks" / "mutation" / "sample.txt"


def names(n: int, seed: int, within: tuple[str, ...] = ()) -> list[str]:
    """n mutant names drawn at random (the same ones for the same seed and code), from those that
    start with one of `within` where it is given."""
    every = sorted(
        k
        for meta in (ROOT / "mutants").rglob("*.meta")
        for k in json.loads(meta.read_text())["exit_code_by_key"]
        if not within or k.startswith(within)
    )
    random.Random(seed).shuffle(every)
    return every[:n]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=400)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--max-children", type=int, default=2)
    ap.add_argument("--within", action="append", default=[], help="draw only names that start with this")
    args = ap.parse_args()
    # writes the mutants and the coverage stats, then stops: no mutant is named "-"
    subprocess.run([str(MUTMUT), "run", "--max-children", str(args.max_children), "-"], cwd=ROOT, capture_output=True)
    chosen = names(args.n, args.seed, tuple(args.within))
    if not chosen:
        sys.exit("mutmut wrote no mutants (see `mutmut run` for why)")
    NAMES.write_text("\n".join(chosen) + "\n")
    subprocess.run([str(MUTMUT), "run", "--max-children", str(args.max_children), *chosen], cwd=ROOT, check=True)
    subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "mutation" / "score.py"), "--names", str(NAMES)],
        cwd=ROOT,
        check=True,
    )


if __name__ == "__main__":
    main()
