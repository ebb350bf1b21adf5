"""Measure the book's build, cache, re-run and ingest costs on this machine, in one run.

    make benchmark                      # or: .venv/bin/python benchmarks/run.py [--repeat 3]

Everything runs on a copy of the project in a temporary folder (sources, data, notebooks and a
snapshot of src/, imported through PYTHONPATH), so the real tree is never touched and edits other
people make to the package during the run do not leak in. Writes benchmarks/results.json and the
table between the markers in benchmarks/README.md. See benchmarks/README.md for what each number is.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat
import yaml

REPO = Path(__file__).resolve().parents[1]
HERE = Path(__file__).resolve().parent
VENV_BIN = Path(sys.executable).parent
COPIED = [
    "_config.yml",
    "_toc.yml",
    "requirements.txt",
    "pyproject.toml",
    "Makefile",
    "book",
    "data",
    "notebooks",
    "src",
]
IGNORED = shutil.ignore_patterns("__pycache__", "*.egg-info", "processed", ".ipynb_checkpoints")
TARGETS = {
    "no_change_make_book_s": "< 3 s",
    "cold_speedup_vs_force_baseline": ">= 1.5x",
    "rerun_overhead_vs_script": "< 2x",
    "ingest_time_per_mb_1000x_over_10x": "<= 1.2x",
}
LINE = re.compile(r"^\s+(executed|cached|FAILED)\s+(\S+)")


def log(msg: str) -> None:
    print(msg, flush=True)


# ------------------------------------------------------------------------------------------------
# the throwaway project


def use_copy(root: Path) -> None:
    """Import benchbook from the copy's src/, rooted at the copy (config reads the root at import)."""
    os.environ["BENCHBOOK_ROOT"] = str(root)
    sys.path.insert(0, str(root / "src"))


def placeholder(name: str) -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [
        nbformat.v4.new_markdown_cell(f"# {name}\n\nPlaceholder made by the benchmark: chapter not written yet."),
        nbformat.v4.new_code_cell("import pandas as pd\n\npd.DataFrame({'x': [1, 2]})"),
    ]
    return nb


def make_copy(dst: Path, allow_missing: bool, stub: tuple[str, ...] = ()) -> tuple[list[str], list[str]]:
    """Copy the project into dst (mtimes kept); returns (chapters, placeholders made). Chapters in
    `stub`, and (with allow_missing) those without a notebook, are replaced by a placeholder."""
    dst.mkdir(parents=True)
    for name in COPIED:
        src = REPO / name
        if src.is_dir():
            shutil.copytree(src, dst / name, ignore=IGNORED)
        elif src.is_file():
            shutil.copy2(src, dst / name)
    use_copy(dst)
    from benchbook import build

    chapters = build.chapters()
    missing = [c for c in chapters if not (dst / "notebooks" / f"{c}.ipynb").is_file()]
    if missing and not allow_missing:
        sys.exit(f"chapters in _toc.yml without a notebook: {', '.join(missing)} (use --allow-missing to stub them)")
    missing += [c for c in chapters if c in stub and c not in missing]
    for name in missing:
        nbformat.write(placeholder(name), dst / "notebooks" / f"{name}.ipynb")
    # make's venv stamp, fresh, so that `make book` checks it exactly as in a set-up checkout
    (dst / ".bench-stamp").touch()
    return chapters, missing


def env_for(root: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("BENCHBOOK_")}
    env.update(
        BENCHBOOK_ROOT=str(root),
        PYTHONPATH=str(root / "src"),
        MPLBACKEND="Agg",
        PYDEVD_DISABLE_FILE_VALIDATION="1",
        PATH=f"{VENV_BIN}{os.pathsep}{os.environ.get('PATH', '')}",
    )
    return env


def timed(cmd: list[str], root: Path, check: bool = True) -> tuple[float, str]:
    t0 = time.perf_counter()
    res = subprocess.run(cmd, cwd=root, env=env_for(root), capture_output=True, text=True)
    dt = time.perf_counter() - t0
    if check and res.returncode != 0:
        sys.stderr.write(res.stdout[-4000:] + res.stderr[-4000:])
        raise SystemExit(f"benchmark step failed ({res.returncode}): {' '.join(map(str, cmd[:3]))} ...")
    return dt, res.stdout + res.stderr


def make_book(root: Path) -> tuple[float, dict]:
    venv = VENV_BIN.parent
    cmd = ["make", "-s", "book", f"VENV={venv}", f"STAMP={root / '.bench-stamp'}"]
    dt, out = timed(cmd, root)
    ran = {"executed": [], "cached": []}
    for line in out.splitlines():
        m = LINE.match(line)
        if m and m.group(1) in ran:
            ran[m.group(1)].append(m.group(2))
    return dt, ran


def edit_prose(root: Path, chapter: str, i: int) -> None:
    path = root / "notebooks" / f"{chapter}.ipynb"
    nb = nbformat.read(path, as_version=4)
    md = [c for c in nb.cells if c.cell_type == "markdown"]
    md[-1].source += f"\n\nBenchmark prose edit {i}."
    nbformat.write(nb, path)


def edit_code(root: Path, chapter: str, i: int) -> None:
    path = root / "notebooks" / f"{chapter}.ipynb"
    nb = nbformat.read(path, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(f"_benchmark_edit = {i}", metadata={"tags": ["remove-cell"]}))
    nbformat.write(nb, path)


def edit_data(root: Path, rel: str, i: int) -> None:
    with open(root / rel, "a", encoding="utf-8") as fh:
        fh.write("\n")


def restore(root: Path, rel: str) -> None:
    shutil.copy2(REPO / rel, root / rel)


# ------------------------------------------------------------------------------------------------
# build scenarios


def bench_builds(root: Path, chapters: list[str], args, out: dict) -> None:
    samples: dict[str, list[float]] = {k: [] for k in ("cold", "no_change", "prose_edit", "code_edit", "data_edit")}
    ran: dict[str, dict] = {}
    code_nb = f"notebooks/{args.chapter}.ipynb"
    for i in range(args.repeat):
        for rel in (code_nb, args.data_file):
            restore(root, rel)
        shutil.rmtree(root / "_build", ignore_errors=True)
        shutil.rmtree(root / "data" / "processed", ignore_errors=True)
        steps = [
            ("cold", None),
            ("no_change", None),
            ("prose_edit", lambda i=i: edit_prose(root, args.chapter, i)),
            ("code_edit", lambda i=i: edit_code(root, args.chapter, i)),
            ("data_edit", lambda i=i: edit_data(root, args.data_file, i)),
        ]
        for name, edit in steps:
            if edit:
                edit()
            dt, r = make_book(root)
            samples[name].append(dt)
            ran[name] = r
            log(f"  [{i + 1}/{args.repeat}] {name:10s} {dt:6.2f} s  executed: {', '.join(r['executed']) or '-'}")
    for rel in (code_nb, args.data_file):
        restore(root, rel)
    out["make_book"] = {
        k: {"median_s": statistics.median(v), "samples_s": v, "executed": ran[k]["executed"]}
        for k, v in samples.items()
    }
    out["make_book"]["edited"] = {"prose_and_code": code_nb, "data": args.data_file}


def bench_force_baseline(base: Path, chapters: list[str], args, out: dict) -> None:
    """Plain `jupyter-book build` with execute_notebooks: force (sequential, no cache). A build that
    fails is recorded as an error, not a time: a failed build is no baseline to compare with."""
    cfg = yaml.safe_load((base / "_config.yml").read_text())
    cfg["execute"] = {"execute_notebooks": "force", "timeout": 600, "allow_errors": False}
    (base / "_config.yml").write_text(yaml.safe_dump(cfg, sort_keys=False))
    for md in (base / "notebooks").glob("*.md"):  # one source per page, as the build uses
        md.unlink()
    timed([str(VENV_BIN / "benchbook"), "ingest", "--all"], base)  # the chapters' inputs, untimed
    samples = []
    for i in range(args.repeat):
        shutil.rmtree(base / "_build", ignore_errors=True)
        t0 = time.perf_counter()
        res = subprocess.run(
            [str(VENV_BIN / "jupyter-book"), "build", str(base), "--keep-going", "-q"],
            cwd=base,
            env=env_for(base),
            capture_output=True,
            text=True,
        )
        if res.returncode != 0:
            sys.stderr.write(res.stdout[-4000:] + res.stderr[-4000:])
            log(f"  [{i + 1}/{args.repeat}] force      failed: jupyter-book exited {res.returncode}")
            out["force_baseline"] = {"error": f"jupyter-book build exited {res.returncode}"}
            return
        samples.append(time.perf_counter() - t0)
        log(f"  [{i + 1}/{args.repeat}] force      {samples[-1]:6.2f} s")
    out["force_baseline"] = {"median_s": statistics.median(samples), "samples_s": samples}


# ------------------------------------------------------------------------------------------------
# one chapter re-run with new parameters: papermill vs the same code as a plain script


def bench_rerun(root: Path, args, out: dict) -> None:
    chapter, params = args.rerun_chapter, dict(p.split("=", 1) for p in args.rerun_param)
    nb = root / "notebooks" / f"{chapter}.ipynb"
    work = root / "_bench_rerun"
    work.mkdir(exist_ok=True)
    pflags = [x for k, v in params.items() for x in ("-p", k, v)]
    papermill = [str(VENV_BIN / "papermill"), str(nb), str(work / "out.ipynb"), *pflags, "--no-progress-bar"]
    # the script: papermill's own parameterisation (--prepare-only), then jupytext to a .py file
    timed([*papermill[:2], str(work / "prepared.ipynb"), *pflags, "--prepare-only"], root)
    timed(
        [str(VENV_BIN / "jupytext"), "--to", "py:percent", str(work / "prepared.ipynb"), "-o", str(work / "s.py")], root
    )
    script = [sys.executable, str(work / "s.py")]
    pm, sc = [], []
    for i in range(args.repeat):
        pm.append(timed(papermill, root)[0])
        sc.append(timed(script, root)[0])
        log(f"  [{i + 1}/{args.repeat}] re-run {chapter}: papermill {pm[-1]:.2f} s, plain script {sc[-1]:.2f} s")
    out["rerun"] = {
        "chapter": chapter,
        "parameters": params,
        "papermill_median_s": statistics.median(pm),
        "script_median_s": statistics.median(sc),
        "papermill_samples_s": pm,
        "script_samples_s": sc,
    }


# ------------------------------------------------------------------------------------------------
# ingest throughput on synthetic inputs 1x ... 1000x the seeds

_DECIMAL = re.compile(r"(?<![\w.])(\d+)\.(\d+)(?![\w.])")


def vary(text: str, i: int) -> str:
    """Copy i of a seed with its measured numbers varied (last decimal digit), structure kept."""
    if i == 0:
        return text
    return _DECIMAL.sub(lambda m: f"{m.group(1)}.{m.group(2)[:-1]}{(int(m.group(2)[-1]) + i) % 10}", text)


def synth(text: str, k: int) -> str:
    """k copies of a seed document (real-shaped blocks, varied numbers), as one file."""
    variants = [vary(text, i) for i in range(min(k, 10))]
    return "\n".join(variants[i % len(variants)] for i in range(k))


def bench_ingest(root: Path, args, out: dict) -> None:
    from benchbook import config, ingest  # from the copy: see use_copy

    registry = ingest.tools()
    seeds = {k: p.read_bytes().decode("utf-8") for k, p in config.SEEDS.items()}
    by_tool: dict[str, dict] = {}
    for key, text in seeds.items():
        for tool in ingest.detect(text):
            by_tool.setdefault(tool, {"seeds": [], "sizes": {}})["seeds"].append(key)
    for tool, rec in by_tool.items():
        base = [seeds[k] for k in rec["seeds"]]
        registry[tool].parse(base[0], "warmup.txt")  # imports, regex compilation
        for k in args.sizes:
            docs = [synth(t, k) for t in base]
            mb = sum(len(d.encode("utf-8")) for d in docs) / 1e6
            times, rows, err = [], 0, None
            for _ in range(args.repeat if k < 1000 else max(1, min(args.repeat, 2))):
                t0 = time.perf_counter()
                try:
                    rows = sum(len(registry[tool].parse(d, f"synthetic_{k}x.txt").table) for d in docs)
                except Exception as exc:  # report, do not stop the other measurements
                    err = f"{type(exc).__name__}: {str(exc)[:200]}"
                    break
                times.append(time.perf_counter() - t0)
            del docs
            if err:
                rec["sizes"][str(k)] = {"mb": mb, "error": err}
                log(f"  ingest {tool:20s} {k:5d}x  {mb:8.2f} MB  error: {err}")
                continue
            t = statistics.median(times)
            rec["sizes"][str(k)] = {
                "mb": mb,
                "rows": rows,
                "median_s": t,
                "mb_per_s": mb / t,
                "rows_per_s": rows / t,
                "s_per_mb": t / mb,
            }
            log(f"  ingest {tool:20s} {k:5d}x  {mb:8.2f} MB  {rows:9d} rows  {t:7.3f} s  {mb / t:7.2f} MB/s")
        s = rec["sizes"]
        if "10" in s and "1000" in s and "s_per_mb" in s["10"] and "s_per_mb" in s["1000"]:
            rec["s_per_mb_1000x_over_10x"] = s["1000"]["s_per_mb"] / s["10"]["s_per_mb"]
    out["ingest"] = by_tool


# ------------------------------------------------------------------------------------------------
# summary


def summarise(out: dict) -> dict:
    mb = out.get("make_book", {})
    ratios, verdict = {}, {}
    if mb:
        cold = mb["cold"]["median_s"]
        for k in ("no_change", "prose_edit", "code_edit", "data_edit"):
            ratios[f"{k}_over_cold"] = mb[k]["median_s"] / cold
        verdict["no_change_make_book_s"] = mb["no_change"]["median_s"] < 3
    if mb and "median_s" in out.get("force_baseline", {}):
        ratios["cold_speedup_vs_force_baseline"] = out["force_baseline"]["median_s"] / mb["cold"]["median_s"]
        verdict["cold_speedup_vs_force_baseline"] = ratios["cold_speedup_vs_force_baseline"] >= 1.5
    if "rerun" in out:
        r = out["rerun"]
        ratios["rerun_overhead_vs_script"] = r["papermill_median_s"] / r["script_median_s"]
        verdict["rerun_overhead_vs_script"] = ratios["rerun_overhead_vs_script"] < 2
    lin = {
        t: rec["s_per_mb_1000x_over_10x"]
        for t, rec in out.get("ingest", {}).items()
        if "s_per_mb_1000x_over_10x" in rec
    }
    if lin:
        ratios["ingest_time_per_mb_1000x_over_10x"] = lin
        verdict["ingest_time_per_mb_1000x_over_10x"] = {t: v <= 1.2 for t, v in lin.items()}
    return {"ratios": ratios, "targets": TARGETS, "met": verdict}


def table(out: dict) -> str:
    rows = ["| measurement | median | ratio | target |", "|---|---|---|---|"]
    mb, ratios, met = out.get("make_book", {}), out["summary"]["ratios"], out["summary"]["met"]

    def ok(key):
        v = met.get(key)
        return "" if v is None else (" (met)" if v is True else " (NOT met)" if v is False else "")

    if mb:
        cold = mb["cold"]["median_s"]
        rows.append(f"| cold `make book` (no cache, {out['jobs']} jobs) | {cold:.1f} s | 1 | |")
        for k, label in (
            ("no_change", "no-change `make book`"),
            ("prose_edit", "after a prose-only edit"),
            ("code_edit", "after one notebook's code edit"),
            ("data_edit", "after one data file changed"),
        ):
            t = mb[k]["median_s"]
            tgt = "< 3 s" + ok("no_change_make_book_s") if k == "no_change" else ""
            rows.append(f"| {label} ({len(mb[k]['executed'])} executed) | {t:.2f} s | {t / cold:.2f} x cold | {tgt} |")
    if "error" in out.get("force_baseline", {}):
        rows.append(f"| `jupyter-book build`, execute_notebooks: force | {out['force_baseline']['error']} | | |")
    elif "force_baseline" in out:
        fb = out["force_baseline"]["median_s"]
        sp = ratios["cold_speedup_vs_force_baseline"]
        rows.append(
            f"| `jupyter-book build`, execute_notebooks: force | {fb:.1f} s | cold is {sp:.2f}x faster | "
            f">= 1.5x{ok('cold_speedup_vs_force_baseline')} |"
        )
    if "rerun" in out:
        r = out["rerun"]
        rows.append(
            f"| re-run `{r['chapter']}` with papermill | {r['papermill_median_s']:.2f} s | "
            f"{ratios['rerun_overhead_vs_script']:.2f} x script | < 2x{ok('rerun_overhead_vs_script')} |"
        )
        rows.append(f"| same code as a plain script | {r['script_median_s']:.2f} s | 1 | |")
    for tool, rec in out.get("ingest", {}).items():
        s = rec["sizes"]
        big = max((int(k) for k, v in s.items() if "mb_per_s" in v), default=None)
        if big is None:
            rows.append(f"| ingest {tool} | error | | |")
            continue
        v = s[str(big)]
        lin = rec.get("s_per_mb_1000x_over_10x")
        flag = met.get("ingest_time_per_mb_1000x_over_10x", {}).get(tool)
        lin_s = f"s/MB 1000x / 10x = {lin:.2f}" if lin is not None else ""
        tgt = "<= 1.2" + ("" if flag is None else " (met)" if flag else " (NOT met)")
        rows.append(
            f"| ingest {tool}, {big}x seeds ({v['mb']:.1f} MB) | {v['median_s']:.2f} s, {v['mb_per_s']:.1f} MB/s, "
            f"{v['rows_per_s']:,.0f} rows/s | {lin_s} | {tgt} |"
        )
    return "\n".join(rows)


def write_readme(out: dict) -> None:
    readme = HERE / "README.md"
    text = readme.read_text(encoding="utf-8")
    start, end = "<!-- results:start -->", "<!-- results:end -->"
    m = out["machine"]
    block = (
        f"{start}\nLatest run: {out['date']}, {m['cpus']} CPUs, Python {m['python']}, {out['repeat']} repeats "
        f"(medians){'; placeholders for: ' + ', '.join(out['placeholders']) if out['placeholders'] else ''}.\n\n"
        f"{table(out)}\n{end}"
    )
    if start in text and end in text:
        text = text[: text.index(start)] + block + text[text.index(end) + len(end) :]
    else:
        text += "\n" + block + "\n"
    readme.write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3, help="runs per measurement; medians are reported (default 3)")
    ap.add_argument("--jobs", type=int, default=2, help="informational: the build's parallelism (default 2)")
    ap.add_argument("--chapter", default=None, help="chapter edited for the prose/code scenarios (default: first)")
    ap.add_argument(
        "--data-file",
        default="data/raw/tgi_bloomz_tp/000_5f50b6ac26707e67.txt",
        help="file changed for the data scenario (a trailing newline is appended)",
    )
    ap.add_argument("--rerun-chapter", default="perf_per_watt", help="chapter re-run with papermill vs script")
    ap.add_argument("--rerun-param", action="append", default=None, help="NAME=VALUE for the re-run (repeatable)")
    ap.add_argument("--sizes", default="1,10,100,1000", help="ingest input sizes, multiples of the seeds")
    ap.add_argument("--only", default="builds,force,rerun,ingest", help="which parts to run (comma-separated)")
    ap.add_argument("--allow-missing", action="store_true", help="stub chapters in _toc.yml that have no notebook")
    ap.add_argument("--stub", default="", help="chapters to replace by a placeholder (comma-separated)")
    ap.add_argument("--keep", action="store_true", help="keep the temporary copy (its path is printed)")
    ap.add_argument("--no-write", action="store_true", help="print results only; leave results.json and README")
    args = ap.parse_args(argv)
    args.sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    args.rerun_param = args.rerun_param or ["peak_fraction=0.9"]
    parts = set(args.only.split(","))
    tmp = Path(tempfile.mkdtemp(prefix="benchbook-bench-"))
    out: dict = {
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform()},
        "repeat": args.repeat,
        "jobs": args.jobs,
    }
    try:
        root = tmp / "project"
        chapters, missing = make_copy(root, args.allow_missing, tuple(filter(None, args.stub.split(","))))
        args.chapter = args.chapter or chapters[0]
        out["chapters"], out["placeholders"] = chapters, missing
        log(f"benchmarking {len(chapters)} chapters ({len(missing)} placeholders) in a temporary copy")
        if "builds" in parts:
            log("make book scenarios")
            bench_builds(root, chapters, args, out)
        if "force" in parts:
            log("plain jupyter-book build, execute_notebooks: force")
            base = tmp / "baseline"
            shutil.copytree(root, base, ignore=shutil.ignore_patterns("_build", "processed", "__pycache__"))
            bench_force_baseline(base, chapters, args, out)
        if "rerun" in parts:
            log("one chapter re-run with new parameters")
            bench_rerun(root, args, out)
        if "ingest" in parts:
            log("ingest throughput")
            bench_ingest(root, args, out)
    finally:
        if args.keep:
            log(f"kept the copy in {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    out["summary"] = summarise(out)
    print(table(out))
    if not args.no_write:
        (HERE / "results.json").write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
        write_readme(out)
        log("wrote benchmarks/results.json and the table in benchmarks/README.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
