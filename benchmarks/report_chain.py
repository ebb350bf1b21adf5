"""How long a report would take on an idle machine, from the CPU of each process it forks.

    .venv/bin/python benchmarks/report_chain.py [--repeat 3] [--case "three chapters"] [--against TREE] [--out FILE]

On a machine other sessions keep busy, a report's wall time says little of what a reader with two
free cores waits: the report's processes wait for the CPU like everyone else's. Their CPU times
inflate far less. Each report runs in its own process (`one`), which records, in every process of
the report (`os.fork` and `forked.Forked` watched from outside the package), when it forks a copy,
when it starts waiting for a copy's result and when the wait ends, each at its own CPU time. The
**chain** replays those events as if each process had a core of its own: a process's clock
advances by its CPU; a copy starts at its parent's clock at the fork; a wait ends at the later of
the parent's clock and the copy's end. The report's chain is its root's clock at the end, what an
idle machine with as many free cores as processes run at once would take (the report never runs
more processes at once than `report.WORKERS`, 2 here, except for moments around a fork). The floor
(`import pandas, matplotlib.pyplot, scipy.stats`) is timed by its CPU just before and just after
each report; on an idle machine its wall time is its CPU time.

`--against TREE` also measures an earlier source tree's report (`git archive COMMIT | tar -x -C
TREE`) right after each of this one's, between the same two floors. Prints one line per case;
with `--out`, writes the runs as JSON under benchmarks/.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))

from bench_report import CASES, ENV, FLOOR, TARGETS, earlier_env  # noqa: E402


def _cpu(who=resource.RUSAGE_SELF) -> float:
    r = resource.getrusage(who)
    return r.ru_utime + r.ru_stime


def watch(log_fd: int) -> None:
    """Record this process's forks, waits and end (and those of every copy it forks) into `log_fd`,
    one JSON line each: {"pid", "event", "cpu", "other"}."""
    from benchbook import forked

    def note(event: str, other: int = 0) -> None:
        line = json.dumps({"pid": os.getpid(), "event": event, "cpu": _cpu(), "other": other}) + "\n"
        os.write(log_fd, line.encode())

    fork, exit_, result = os.fork, os._exit, forked.Forked.result

    def watched_fork():
        pid = fork()
        if pid == 0:
            note("start")
        else:
            note("fork", pid)
        return pid

    def watched_exit(code):
        note("end")
        exit_(code)

    def watched_result(self, failed):
        note("wait", self.pid)
        try:
            return result(self, failed)
        finally:
            note("waited", self.pid)

    os.fork, os._exit, forked.Forked.result = watched_fork, watched_exit, watched_result
    note("start")


def chain(lines: list[dict]) -> dict:
    """The replay (see the module's text): {"chain": the root's clock at its end, "cpu": every
    process's CPU together, "processes": how many}."""
    events: dict[int, list[dict]] = {}
    for e in lines:
        events.setdefault(e["pid"], []).append(e)
    root = lines[0]["pid"]
    starts: dict[int, float] = {root: 0.0}
    ends: dict[int, float] = {}

    def replay(pid: int) -> float:
        if pid in ends:
            return ends[pid]
        clock, last = starts[pid], 0.0
        for e in events.get(pid, []):
            clock += e["cpu"] - last
            last = e["cpu"]
            if e["event"] == "fork":
                starts[e["other"]] = clock
            elif e["event"] == "waited" and e["other"] in starts:
                clock = max(clock, replay(e["other"]))
        ends[pid] = clock
        return clock

    total = replay(root)
    cpu = sum(max(e["cpu"] for e in evs) for evs in events.values())
    return {"chain": total, "cpu": cpu, "processes": len(events)}


def one(out: str, files: list[str], log: str) -> int:
    """Run `benchbook report FILES -o OUT` in this process, its processes watched into LOG."""
    fd = os.open(log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    watch(fd)
    from benchbook.cli import app

    sys.argv = ["benchbook", "report", *files, "-o", out]
    try:
        app()
    except SystemExit as e:
        if e.code:
            return int(e.code)
    os._exit(0)  # as the report's own command ends (noted by `watch`)


def measured(files: list[str], tmp: Path, env: dict) -> dict:
    log = tmp / "chain.log"
    log.unlink(missing_ok=True)
    cmd = [sys.executable, __file__, "one", str(tmp / "report"), str(log), *map(str, files)]
    res = subprocess.run(cmd, cwd=tmp, capture_output=True, text=True, env=env)
    if res.returncode != 0:
        sys.exit(f"report failed:\n{res.stderr[-2000:]}")
    return chain([json.loads(line) for line in log.read_text().splitlines()])


def floor_cpu(tmp: Path) -> float:
    c0 = _cpu(resource.RUSAGE_CHILDREN)
    subprocess.run(FLOOR, cwd=tmp, check=True, env=ENV)
    return _cpu(resource.RUSAGE_CHILDREN) - c0


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "one":
        return one(sys.argv[2], sys.argv[4:], sys.argv[3])
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--case", choices=list(CASES), action="append", help="only this input (default both)")
    ap.add_argument("--against", type=Path, help="an earlier source tree (git archive of a commit)")
    ap.add_argument("--out", help="file name under benchmarks/ for the runs as JSON")
    args = ap.parse_args()
    results = {"when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "load_before": os.getloadavg(), "cases": {}}
    with tempfile.TemporaryDirectory(prefix="benchbook-report-chain-") as t:
        tmp = Path(t)
        for name, case in CASES.items():
            if args.case and name not in args.case:
                continue
            files = list(case.values())
            trees = {"this": ENV} | ({"earlier": earlier_env(args.against.resolve())} if args.against else {})
            for env in trees.values():  # untimed: fills the bytecode and template caches
                measured(files, tmp, env)
            runs = []
            for _ in range(args.repeat):
                f1 = floor_cpu(tmp)
                run = {k: measured(files, tmp, env) for k, env in trees.items()}
                run["floor_cpu"] = (f1 + floor_cpu(tmp)) / 2
                runs.append(run)
            row = {"runs": runs, "target": TARGETS[name]}
            for k in trees:
                row[k] = {
                    "chain_over_floor": statistics.median(r[k]["chain"] / r["floor_cpu"] for r in runs),
                    "chain_s": statistics.median(r[k]["chain"] for r in runs),
                    "cpu_s": statistics.median(r[k]["cpu"] for r in runs),
                }
            results["cases"][name] = row
            said = "; ".join(
                f"{k}: chain {v['chain_s']:.2f} s, CPU {v['cpu_s']:.2f} s, {v['chain_over_floor']:.2f} x the floor"
                for k, v in row.items()
                if k in trees
            )
            floors = [r["floor_cpu"] for r in runs]
            print(f"{name}: {said} (floor CPU {min(floors):.2f} to {max(floors):.2f} s)", flush=True)
    results["load_after"] = os.getloadavg()
    print(f"load average before {results['load_before']}, after {results['load_after']}")
    if args.out:
        (REPO / "benchmarks" / args.out).write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
