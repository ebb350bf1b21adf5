"""How long a reader waits for a report: `benchbook report` against one `benchbook run` per chapter.

    .venv/bin/python benchmarks/bench_report.py [--repeat 3] [--no-write] [--case "one chapter"] [--no-run] [--against TREE]

Two inputs: one file that one chapter reads (a vLLM serving result: serving_saturation), and three
files that three chapters read (TGI, bigcode batch sweep, attention-gym). "Before" is what a
reader does today: one `benchbook run CHAPTER --source FILE` per chapter, one after another (each
starts papermill and its own kernel and renders its own Sphinx project). "After" is one
`benchbook report FILES -o DIR`. Each is run once untimed (the first run fills the OS, font and
bytecode caches: `ENV`), then `--repeat` times; medians. Writes benchmarks/report.json.
`--against TREE` also times the report of an earlier source tree (`git archive COMMIT | tar -x -C
TREE`) right after each of this one's, between the same two floors.

Targets (issue 34): a one-chapter report in at most 1.6 times the floor, the time Python needs to
`import pandas, matplotlib.pyplot, scipy.stats` on the same machine; a three-chapter report in at
most 2 times the floor. The floor is measured just before and just after each report (the same
minute, so under the same load); the ratio is the report's time over the mean of those two.
`--no-run` leaves out the "before" column (one `benchbook run` per chapter, minutes on a busy machine). The machine may be shared: the load average before and after
is recorded with the figures, and so is the CPU time of each command with everything it started
(kernels included), which a busy machine does not inflate: on an idle 2-core machine the wall time
is about the larger of half the CPU time and the longest chain of work that cannot run in parallel.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
FIX = REPO / "tests" / "fixtures"
BENCHBOOK = Path(sys.executable).with_name("benchbook")
CASES = {
    "one chapter": {"serving_saturation": FIX / "vllm-bench-serve" / "dgx_spark_08_sharegpt.md"},
    "three chapters": {
        "tp_scaling": FIX / "tgi-benchmark" / "bloomz_1b1_tp_2_4_8.md",
        "batch_saturation": FIX / "hf-batch-sweep" / "readme_0253839c_gpt2_mha.md",
        "attention_kernels": FIX / "attention-gym" / "rtx4090_flex_attn_noop.md",
    },
}
#: At most this many times the floor (issue 34).
TARGETS = {"one chapter": 1.6, "three chapters": 2.0}
FLOOR = [sys.executable, "-c", "import pandas, matplotlib.pyplot, scipy.stats"]
#: Every command runs with its modules' compiled bytecode, as a reader's install has it (pip compiles a
#: package's modules when it installs them, as it did the floor's): where PYTHONDONTWRITEBYTECODE is
#: set, a source checkout's modules would be compiled again at every run (a fifth of a second of a
#: report's CPU, none of the floor's). The untimed first run writes the caches.
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
#: The commands run in a temporary folder: a relative PYTHONPATH (`PYTHONPATH=src`) would name nothing
#: there, and the installed package (another checkout's, in a shared environment) would be measured.
if ENV.get("PYTHONPATH"):
    ENV["PYTHONPATH"] = os.pathsep.join(str(Path(p).resolve()) for p in ENV["PYTHONPATH"].split(os.pathsep) if p)


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _timed(cmd: list, cwd: Path, env: dict = ENV) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the command and everything it started: kernels, Sphinx)."""
    c0, t0 = _cpu(), time.perf_counter()
    res = subprocess.run([str(c) for c in cmd], cwd=cwd, capture_output=True, text=True, env=env)
    took, cpu = time.perf_counter() - t0, _cpu() - c0
    if res.returncode != 0:
        sys.exit(f"{' '.join(map(str, cmd))} failed:\n{res.stderr[-2000:]}")
    return took, cpu


def before(case: dict, tmp: Path) -> tuple[float, float]:
    """One `benchbook run` per chapter, one after another."""
    runs = [_timed([BENCHBOOK, "run", ch, "--source", f, "-o", tmp / "run" / ch, "-q"], tmp) for ch, f in case.items()]
    return sum(w for w, _ in runs), sum(c for _, c in runs)


def after(case: dict, tmp: Path, env: dict = ENV) -> tuple[float, float]:
    return _timed([BENCHBOOK, "report", *case.values(), "-o", tmp / "report"], tmp, env)


def earlier_env(src: Path) -> dict:
    """The environment that runs the package of an earlier source tree (`git archive` of a commit)."""
    return ENV | {"PYTHONPATH": os.pathsep.join([str(src / "src"), ENV.get("PYTHONPATH", "")]).rstrip(os.pathsep)}


def against_floor(case: dict, tmp: Path, earlier: dict | None = None) -> tuple:
    """(report wall, report CPU, floor wall, floor CPU, the earlier tree's (wall, CPU) or None): the
    floor the mean of one run just before the report(s) and one just after."""
    f1 = _timed(FLOOR, tmp)
    wall, cpu = after(case, tmp)
    then = after(case, tmp, earlier) if earlier is not None else None
    f2 = _timed(FLOOR, tmp)
    return wall, cpu, (f1[0] + f2[0]) / 2, (f1[1] + f2[1]) / 2, then


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-write", action="store_true")
    ap.add_argument("--out", default="report.json", help="file name under benchmarks/ (default report.json)")
    ap.add_argument("--case", choices=list(CASES), action="append", help="only this input (repeatable; default both)")
    ap.add_argument("--no-run", action="store_true", help="leave out one `benchbook run` per chapter")
    ap.add_argument(
        "--against",
        type=Path,
        help="an earlier source tree (git archive of a commit): its report timed after each of this one's",
    )
    args = ap.parse_args()
    results = {
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "load_before": os.getloadavg(),
            "niceness": os.nice(0),
        },
        "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "repeat": args.repeat,
        "cases": {},
    }
    with tempfile.TemporaryDirectory(prefix="benchbook-bench-report-") as t:
        tmp = Path(t)
        for name, case in CASES.items():
            if args.case and name not in args.case:
                continue
            earlier = earlier_env(args.against.resolve()) if args.against else None
            after(case, tmp)  # the first runs, untimed
            if earlier is not None:
                after(case, tmp, earlier)
            b = [] if args.no_run else [before(case, tmp) for _ in range(args.repeat)]
            a = [against_floor(case, tmp, earlier) for _ in range(args.repeat)]
            ratios = [w / f for w, _, f, *_ in a]
            row = {
                "chapters": list(case),
                "benchbook_run_each_wall_s": [w for w, _ in b],
                "benchbook_run_each_cpu_s": [c for _, c in b],
                "benchbook_report_wall_s": [w for w, *_ in a],
                "benchbook_report_cpu_s": [c for _, c, *_ in a],
                "floor_wall_s": [f for _, _, f, _, _ in a],
                "floor_cpu_s": [c for _, _, _, c, _ in a],
                "report_over_floor": ratios,
                "report_over_floor_cpu": [c / fc for _, c, _, fc, _ in a],
                "after_median_s": statistics.median(w for w, *_ in a),
                "after_median_cpu_s": statistics.median(c for _, c, *_ in a),
                "ratio_median": statistics.median(ratios),
                "target_ratio": TARGETS[name],
            }
            if earlier is not None:
                row["earlier_tree"] = args.against.name
                row["earlier_report_wall_s"] = [then[0] for *_, then in a]
                row["earlier_report_cpu_s"] = [then[1] for *_, then in a]
                row["earlier_over_floor"] = [then[0] / f for _, _, f, _, then in a]
                row["earlier_over_floor_cpu"] = [then[1] / fc for _, _, _, fc, then in a]
            if b:
                row["before_median_s"] = statistics.median(w for w, _ in b)
                row["before_median_cpu_s"] = statistics.median(c for _, c in b)
            row["met"] = row["ratio_median"] <= row["target_ratio"]
            results["cases"][name] = row
            print(
                f"{name}: benchbook report {row['after_median_s']:.1f} s wall, {row['after_median_cpu_s']:.1f} s CPU; "
                f"floor {statistics.median(row['floor_wall_s']):.1f} s wall, {statistics.median(row['floor_cpu_s']):.1f} s CPU; "
                f"{row['ratio_median']:.2f} x the floor (CPU {statistics.median(row['report_over_floor_cpu']):.2f} x; "
                f"target <= {row['target_ratio']} x: {'met' if row['met'] else 'not met'})"
                + (
                    f"; {args.against.name}: {statistics.median(row['earlier_report_wall_s']):.1f} s wall, "
                    f"{statistics.median(row['earlier_report_cpu_s']):.1f} s CPU"
                    if earlier is not None
                    else ""
                ),
                flush=True,
            )
    results["machine"]["load_after"] = os.getloadavg()
    print(f"load average before {results['machine']['load_before']}, after {results['machine']['load_after']}")
    if not args.no_write:
        (REPO / "benchmarks" / args.out).write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
