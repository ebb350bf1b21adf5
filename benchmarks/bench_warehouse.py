"""The results warehouse at scale (issue 18): many result files in, one more added, and a cross-run
DuckDB query over many per-request rows.

    .venv/bin/python benchmarks/bench_warehouse.py                 # 10,000 files, 100 M rows
    .venv/bin/python benchmarks/bench_warehouse.py --files 1000 --rows 10000000

Everything is synthetic and written to a temporary folder (removed at the end unless --keep):
llama-bench markdown outputs, each with its own numbers and build (so each is a distinct run), and
per-request rows in the warehouse's measurements layout (vLLM `--save-detailed` style TTFT per
request, 100,000 per run). Each step runs in a fresh process, whose peak resident memory is
reported. Writes benchmarks/warehouse.json and the table between the markers in README.md.
"""

from __future__ import annotations

import argparse
import json
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
TARGETS = {"ingest_all_s": 60.0, "add_one_s": 0.5, "query_s": 2.0}

_TEMPLATE = """ggml_cuda_init: found 1 CUDA devices:
  Device 0: NVIDIA H100 80GB HBM3, compute capability 9.0, VMM: yes
| model                          |       size |     params | backend    | ngl |            test |                  t/s |
| ------------------------------ | ---------: | ---------: | ---------- | --: | --------------: | -------------------: |
| llama 8B Q4_K - Medium         |   4.58 GiB |     8.03 B | CUDA       |  99 |           pp512 |     {pp:.2f} ± {pps:.2f} |
| llama 8B Q4_K - Medium         |   4.58 GiB |     8.03 B | CUDA       |  99 |           tg128 |       {tg:.2f} ± {tgs:.2f} |

build: {sha:08x} ({build})
"""


def write_files(folder: Path, n: int, start: int = 0) -> None:
    import random

    rng = random.Random(start)
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(start, start + n):
        text = _TEMPLATE.format(
            pp=9000 + rng.uniform(-200, 200),
            pps=rng.uniform(5, 50),
            tg=150 + rng.uniform(-3, 3),
            tgs=rng.uniform(0.1, 1),
            sha=rng.getrandbits(32),
            build=4000 + i,
        )
        (folder / f"run_{i:05d}.md").write_text(text, encoding="utf-8")


# Each step is a small script run in a fresh interpreter; it prints one JSON line.
_STEP = """
import json, os, resource, sys, time
from pathlib import Path
t_start = time.perf_counter()
from benchbook import warehouse
t0 = time.perf_counter()
{body}
s = time.perf_counter() - t0
me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({{"s": s, "import_s": t0 - t_start, "cpu_s": me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime,
                  "peak_rss_mb": max(me.ru_maxrss, kids.ru_maxrss) / 1024, "load": os.getloadavg()[0], **out}}))
"""

_INGEST = """
rep = warehouse.ingest_into([Path(sys.argv[1])], Path(sys.argv[2]), log=lambda *_: None)
out = {"added": len(rep.added), "present": len(rep.present), "failed": len(rep.failed)}
"""

_ADD = """
cold = warehouse.ingest_into([Path(sys.argv[1])], Path(sys.argv[3]), log=lambda *_: None)
t1 = time.perf_counter()
warm = warehouse.ingest_into([Path(sys.argv[2])], Path(sys.argv[3]), log=lambda *_: None)
out = {"added": len(cold.added) + len(warm.added), "cold_s": t1 - t0, "warm_s": time.perf_counter() - t1}
"""

_MAKE_ROWS = """
import duckdb
runs, per_run, into = int(sys.argv[1]), int(sys.argv[2]), Path(sys.argv[3])
folder = into / "measurements" / "tool=vllm-bench-serve"
folder.mkdir(parents=True, exist_ok=True)
con = duckdb.connect()
con.execute("SET preserve_insertion_order = false")
con.execute(f'''COPY (
    SELECT printf('req%010d', i // {per_run}) AS run_id, (i % {per_run})::BIGINT AS line, 'ttft' AS metric,
           'request' AS statistic, 20 + 80 * random() + (i // {per_run} % 7) AS value, 'ms' AS unit,
           NULL::VARCHAR AS note, '{{}}' AS settings
    FROM range({runs} * {per_run}) t(i)
) TO '{folder}' (FORMAT parquet, PER_THREAD_OUTPUT true, ROW_GROUP_SIZE 1000000)''')
out = {"rows": runs * per_run}
"""

_QUERY = """
sql = ("select run_id, count(*) n, avg(value) mean_ms, approx_quantile(value, 0.99) p99_ms from measurements "
       "where metric = 'ttft' and statistic = 'request' group by run_id order by mean_ms desc limit 10")
df = warehouse.query(sql, Path(sys.argv[1]))
out = {"groups_shown": len(df), "top_mean_ms": float(df["mean_ms"].iloc[0])}
"""


def step(body: str, *args) -> dict:
    code = _STEP.format(body=body.strip())
    res = subprocess.run([sys.executable, "-c", code, *map(str, args)], capture_output=True, text=True, check=False)
    if res.returncode:
        raise SystemExit(f"step failed:\n{res.stderr[-2000:]}")
    return json.loads(res.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--files", type=int, default=10_000)
    ap.add_argument("--rows", type=int, default=100_000_000, help="per-request rows (100,000 per run)")
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--no-write", action="store_true")
    a = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="benchbook-warehouse-"))
    try:
        files, into = tmp / "files", tmp / "wh"
        t0 = time.perf_counter()
        write_files(files, a.files)
        print(f"wrote {a.files} files in {time.perf_counter() - t0:.1f} s", flush=True)
        ingest = step(_INGEST, files, into)
        print(f"ingest {a.files} files: {ingest}", flush=True)
        again = step(_INGEST, files, into)
        print(f"ingest again (all present): {again}", flush=True)
        one, two = tmp / "one", tmp / "two"
        write_files(one, 1, start=a.files)
        write_files(two, 1, start=a.files + 1)
        add = step(_ADD, one, two, into)  # the first add pays the lazy imports of a fresh process
        print(f"add one run: {add}", flush=True)
        per_run = 100_000
        rows = step(_MAKE_ROWS, max(1, a.rows // per_run), per_run, into)
        print(f"wrote per-request rows: {rows}", flush=True)
        step(_QUERY, into)  # the first query reads parquet footers cold from disk; the second is timed
        query = step(_QUERY, into)
        print(f"query: {query}", flush=True)
        size_mb = sum(p.stat().st_size for p in into.rglob("*.parquet")) / 2**20
    finally:
        if a.keep:
            print(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    result = {
        "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "cpus": len(__import__("os").sched_getaffinity(0)),
        "python": platform.python_version(),
        "files": a.files,
        "rows": rows["rows"],
        "warehouse_mb": round(size_mb, 1),
        "ingest": ingest,
        "ingest_again": again,
        "add_one": add,
        "query": query,
        "targets": TARGETS,
    }
    if not a.no_write:
        (HERE / "warehouse.json").write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
        _write_readme(result)
    print(json.dumps(result, indent=1))


def _verdict(value: float, target: float) -> str:
    return f"<= {target:g} s ({'met' if value <= target else 'not met'})"


def _write_readme(r: dict) -> None:
    ing, n = r["ingest"], r["files"]
    per_file_ms = 1000 * ing["cpu_s"] / n
    ten_k = per_file_ms * 10_000 / 1000 / 2
    table = "\n".join(
        [
            f"Latest run: {r['when']}, {r['cpus']} CPUs, Python {r['python']}; each step in a fresh process "
            f"(interpreter and imports, about {r['add_one']['import_s']:.1f} s, not counted in the times); load "
            f"average during the ingest {ing['load']:.1f}.",
            "",
            "| measurement | time | CPU | peak memory | target |",
            "|---|---|---|---|---|",
            f"| ingest {n:,} llama-bench files into an empty warehouse | {ing['s']:.1f} s | {ing['cpu_s']:.0f} s "
            f"({per_file_ms:.0f} ms per file) | {ing['peak_rss_mb']:,.0f} MB per process | |",
            f"| 10,000 files on 2 idle cores, from that CPU time | {ten_k:.0f} s | | "
            f"| {_verdict(ten_k, TARGETS['ingest_all_s'])} |",
            f"| the same {n:,} files again (all present: hashed, not parsed) | {r['ingest_again']['s']:.1f} s "
            f"| {r['ingest_again']['cpu_s']:.1f} s | {r['ingest_again']['peak_rss_mb']:,.0f} MB | |",
            f"| add one run to the {n:,}, first call of a fresh process | {r['add_one']['cold_s']:.2f} s | "
            f"| {r['add_one']['peak_rss_mb']:,.0f} MB | |",
            f"| add one more run, same process | {r['add_one']['warm_s']:.2f} s | | "
            f"| {_verdict(r['add_one']['warm_s'], TARGETS['add_one_s'])} |",
            f"| DuckDB: mean and p99 TTFT per run over {r['rows']:,} per-request rows "
            f"({r['warehouse_mb']:,.0f} MB of parquet) | {r['query']['s']:.2f} s | {r['query']['cpu_s']:.1f} s "
            f"| {r['query']['peak_rss_mb']:,.0f} MB | {_verdict(r['query']['s'], TARGETS['query_s'])} |",
        ]
    )
    readme = HERE / "README.md"
    text = readme.read_text(encoding="utf-8")
    new = f"<!-- warehouse:start -->\n{table}\n<!-- warehouse:end -->"
    if "<!-- warehouse:start -->" in text:
        text = re.sub(r"<!-- warehouse:start -->.*?<!-- warehouse:end -->", new, text, flags=re.S)
    else:
        text = text.rstrip("\n") + "\n\n" + new + "\n"
    readme.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
