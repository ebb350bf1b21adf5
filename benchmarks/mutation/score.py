"""Summarise a `mutmut run` (make mutation): the score per file and overall, and every mutant that
was not killed, written to benchmarks/mutation/results.json for benchmarks/mutation/README.md.
With `--names FILE` (sample.py) only the mutants named there are scored, into results-sample.json."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MUTMUT = Path(sys.executable).with_name("mutmut")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--names", type=Path, help="score only these mutants (one name per line)")
    args = ap.parse_args()
    only = set(args.names.read_text().split()) if args.names else None
    out = subprocess.run(
        [str(MUTMUT), "results", "--all", "true"], cwd=ROOT, capture_output=True, text=True, check=True
    )
    by_file: dict[str, Counter] = {}
    alive = []
    for line in out.stdout.splitlines():
        name, _, status = line.strip().rpartition(": ")
        if not name or (only is not None and name not in only):
            continue
        module = name.split(".x")[0] if ".x" in name else name.rsplit(".", 1)[0]
        by_file.setdefault(module, Counter())[status] += 1
        if status not in ("killed", "timeout"):
            alive.append({"mutant": name, "status": status})
    total = sum(by_file.values(), Counter())
    tested = sum(total.values()) - total["skipped"]
    score = (total["killed"] + total["timeout"]) / tested if tested else float("nan")
    result = {
        "score": round(score, 4),
        "killed": total["killed"] + total["timeout"],
        "tested": tested,
        "by_module": {m: dict(c) for m, c in sorted(by_file.items())},
        "not_killed": alive,
    }
    (ROOT / "benchmarks" / "mutation" / ("results-sample.json" if only else "results.json")).write_text(
        json.dumps(result, indent=1) + "\n"
    )
    print(f"mutation score: {result['killed']}/{tested} killed ({100 * score:.1f} %); {len(alive)} not killed")


if __name__ == "__main__":
    main()
