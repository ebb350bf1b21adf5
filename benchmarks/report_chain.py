"""CPU of a report's own process and of the forked copies it reaped, for one `benchbook report`.

    PYTHONPATH=TREE/src .venv/bin/python benchmarks/report_chain.py OUT FILE...

On a busy machine a report's wall time says nothing of the second core, which other work holds. The
CPU of the report's own process is the chain a reader waits on where a second core is free (the
copies work beside it, and the queue has them finish together), so it stands in for the idle wall
time; the copies' CPU is what moved to the other core. Prints one JSON line: {"self", "children"}.
"""

from __future__ import annotations

import json
import resource
import sys


def cpu(who) -> float:
    r = resource.getrusage(who)
    return r.ru_utime + r.ru_stime


def main() -> int:
    from benchbook.cli import app

    out, files = sys.argv[1], sys.argv[2:]
    sys.argv = ["benchbook", "report", *files, "-o", out]
    try:
        app()
    except SystemExit as e:
        if e.code:
            return int(e.code)
    print(json.dumps({"self": cpu(resource.RUSAGE_SELF), "children": cpu(resource.RUSAGE_CHILDREN)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
