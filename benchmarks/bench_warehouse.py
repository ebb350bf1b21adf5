"""The results warehouse at scale (issue 18): many result files in, one more added, and a cross-run
DuckDB query over many per-request rows.

    .venv/bin/python benchmarks/bench_warehouse.py                 # 10,000 files, 100 M rows
    .venv/bin/python benchmarks/bench_warehouse.py --files 1000 --rows 10000000
    .venv/bin/python benchmarks/bench_warehouse.py --steps rows --into /tmp/wh --no-write  # write once
    .venv/bin/python benchmarks/bench_warehouse.py --steps query --into /tmp/wh --repeat 5  # time again

Everything is synthetic and written to a temporary folder (removed at the end unless --keep or
--into): llama-bench markdown outputs, each with its own numbers and build (so each is a distinct
run), and per-request rows in the warehouse's requests layout (vLLM `--save-detailed` style TTFT and
TPOT per request, 100,000 per run). Each step runs in a fresh process, whose peak resident memory is
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
t1, c1 = time.perf_counter(), time.process_time()
warm = warehouse.ingest_into([Path(sys.argv[2])], Path(sys.argv[3]), log=lambda *_: None)
out = {"added": len(cold.added) + len(warm.added), "cold_s": t1 - t0, "warm_s": time.perf_counter() - t1,
       "warm_cpu_s": time.process_time() - c1}
"""

_MAKE_ROWS = """
import numpy as np, pandas as pd, pyarrow as pa, pyarrow.parquet as pq
runs, per_run, into = int(sys.argv[1]), int(sys.argv[2]), Path(sys.argv[3])
tool = "vllm-bench-serve"
rng = np.random.default_rng(0)
ids = [f"{i:016x}" for i in range(runs)]
for i, run_id in enumerate(ids):
    out_len = np.clip(rng.geometric(1 / 92, per_run), 1, 2048)
    ttft = rng.lognormal(np.log(80 + 5 * (i % 7)), 0.5, per_run)
    tpot = rng.gamma(4, 2.5, per_run)
    cols = {"block": "json 1", "request": np.arange(per_run), "success": True,
            "input_len": rng.integers(100, 2000, per_run), "output_len": out_len, "ttft_ms": ttft,
            "e2el_ms": ttft + tpot * (out_len - 1), "tpot_ms": tpot}
    df = pd.DataFrame(cols).reindex(columns=warehouse.REQUESTS_SCHEMA.names)
    warehouse._atomic_parquet(warehouse._table(df, warehouse.REQUESTS_SCHEMA), warehouse.requests_path(into, tool, run_id))
dates = pd.date_range("2025-01-01", periods=runs, freq="h").strftime("%Y-%m-%dT%H:%M:%S")
rows = pd.DataFrame({"run_id": ids, "source": [f"nightly/{d}.json" for d in dates], "sha256": ids, "run_date": dates,
                     "date_origin": "printed in the output", "model": "synthetic/model", "device": "NVIDIA H100",
                     "settings": "{}", "rows": 0})
warehouse._atomic_parquet(warehouse._table(rows, warehouse.RUNS_SCHEMA), into / "runs" / f"tool={tool}" / "requests-bench.parquet")
none = pd.DataFrame(columns=warehouse.MEASUREMENTS_SCHEMA.names)  # each runs part has its measurements part
warehouse._atomic_parquet(warehouse._table(none, warehouse.MEASUREMENTS_SCHEMA), into / "measurements" / f"tool={tool}" / "requests-bench.parquet")
out = {"rows": runs * per_run}
"""

#: Cross-run queries over every per-request row, each run in time order against the first (the
#: baseline). "slo": what per-request rows are kept for, a question the tool's own summary cannot
#: answer afterwards: per run the requests, the mean TTFT and the share of requests meeting an SLO
#: chosen after the runs (TTFT <= 200 ms and TPOT <= 50 ms: goodput), each as a ratio to the first
#: run. "percentiles": p50 and p99 TTFT recomputed exactly from the rows (the tool's own p50/p99 are
#: in `measurements` already). Means as sum / count, not avg: grouped by the hive partitions only
#: (tool, run_id), sum and count are aggregated one file at a time (DuckDB's partitioned aggregate),
#: avg goes through a hash table (0.4 s more CPU over 100 M rows).
QUERIES = {
    "slo": """
with per_run as (
  select tool, run_id, count(*) n, sum(ttft_ms) / count(ttft_ms) mean_ttft_ms,
         count_if(success and ttft_ms <= 200 and tpot_ms <= 50) / count(*) slo_share
  from requests group by tool, run_id
)
select r.run_date, p.run_id, p.n, p.mean_ttft_ms, p.slo_share,
       p.mean_ttft_ms / first(p.mean_ttft_ms) over w ttft_ratio, p.slo_share / first(p.slo_share) over w slo_ratio
from per_run p join runs r using (tool, run_id)
window w as (order by r.run_date)
order by r.run_date
""",
    "percentiles": """
with per_run as (
  select tool, run_id, count(*) n, quantile_cont(ttft_ms, [0.5, 0.99]) p
  from requests where success group by tool, run_id
)
select r.run_date, p.run_id, p.n, p.p[1] p50_ttft_ms, p.p[2] p99_ttft_ms,
       p.p[2] / first(p.p[2]) over w p99_ratio
from per_run p join runs r using (tool, run_id)
window w as (order by r.run_date)
order by r.run_date
""",
}

# The first execution in a fresh connection, then `repeat` more in it; wall and CPU (every thread of
# the process) per execution, with the load average before each.
_QUERY = """
import statistics
import numpy as np
into, sql, repeat = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
con = warehouse.connect(into)
walls, cpus, loads = [], [], []
for _ in range(1 + repeat):
    loads.append(round(os.getloadavg()[0], 2))
    w, c = time.perf_counter(), time.process_time()
    df = con.execute(sql).df()
    walls.append(round(time.perf_counter() - w, 3))
    cpus.append(round(time.process_time() - c, 3))
out = {"first_s": walls[0], "again_s": statistics.median(walls[1:]), "again_cpu_s": statistics.median(cpus[1:]),
       "walls_s": walls, "cpus_s": cpus, "loads": loads, "runs": len(df), "requests": int(df["n"].sum()),
       "last_row": {k: (round(float(v), 4) if isinstance(v, (float, np.floating)) else str(v)) for k, v in df.iloc[-1].items()}}
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
    ap.add_argument("--repeat", type=int, default=3, help="query executions after the first, same connection")
    ap.add_argument(
        "--steps",
        default="ingest,rows,query",
        help="comma-separated subset of ingest (the files), rows (write the per-request rows), query; the "
        "figures of steps not run are kept from benchmarks/warehouse.json",
    )
    ap.add_argument("--into", type=Path, help="work in this folder and keep it (to query a warehouse written before)")
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--no-write", action="store_true")
    a = ap.parse_args()
    steps = set(a.steps.split(","))
    if steps - {"ingest", "rows", "query"}:
        ap.error(f"unknown steps: {', '.join(sorted(steps - {'ingest', 'rows', 'query'}))}")
    tmp = a.into or Path(tempfile.mkdtemp(prefix="benchbook-warehouse-"))
    result = json.loads((HERE / "warehouse.json").read_text(encoding="utf-8"))
    result.pop("query_note", None)
    try:
        files, into = tmp / "files", tmp / "wh"
        if "ingest" in steps:
            t0 = time.perf_counter()
            write_files(files, a.files)
            print(f"wrote {a.files} files in {time.perf_counter() - t0:.1f} s", flush=True)
            result["ingest"] = step(_INGEST, files, into)
            print(f"ingest {a.files} files: {result['ingest']}", flush=True)
            result["ingest_again"] = step(_INGEST, files, into)
            print(f"ingest again (all present): {result['ingest_again']}", flush=True)
            one, two = tmp / "one", tmp / "two"
            write_files(one, 1, start=a.files)
            write_files(two, 1, start=a.files + 1)
            result["add_one"] = step(_ADD, one, two, into)  # the first add pays the lazy imports of a fresh process
            print(f"add one run: {result['add_one']}", flush=True)
            result["files"] = a.files
            result["ingest_when"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
        if "rows" in steps:
            per_run = 100_000
            shutil.rmtree(into / "requests", ignore_errors=True)
            result["make_rows"] = step(_MAKE_ROWS, max(1, a.rows // per_run), per_run, into)
            print(f"wrote per-request rows: {result['make_rows']}", flush=True)
            result["rows"] = result["make_rows"]["rows"]
        if "query" in steps:
            result["requests_mb"] = round(sum(p.stat().st_size for p in (into / "requests").rglob("*.parquet")) / 2**20)
            result["query"] = {name: step(_QUERY, into, sql, a.repeat) for name, sql in QUERIES.items()}
            print(f"queries: {result['query']}", flush=True)
            result["query_when"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    finally:
        if a.keep or a.into:
            print(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    result.update(
        {
            "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "steps": sorted(steps),
            "cpus": len(__import__("os").sched_getaffinity(0)),
            "python": platform.python_version(),
            "targets": TARGETS,
        }
    )
    if not a.no_write:
        (HERE / "warehouse.json").write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
        _write_readme(result)
    print(json.dumps(result, indent=1))


_QUERY_WORDS = {
    "slo": "per run: requests, mean TTFT, share meeting TTFT <= 200 ms and TPOT <= 50 ms, both as ratios to the "
    "first run",
    "percentiles": "per run: exact p50 and p99 TTFT, p99 as a ratio to the first run",
}


def _verdict(value: float, target: float) -> str:
    return f"<= {target:g} s ({'met' if value <= target else 'not met'})"


def _write_readme(r: dict) -> None:
    ing, n, q = r["ingest"], r["files"], r["query"]
    per_file_ms = 1000 * ing["cpu_s"] / n
    ten_k = per_file_ms * 10_000 / 1000 / 2
    table = "\n".join(
        [
            f"Ingest figures: {r['ingest_when']}; query figures: {r['query_when']}; {r['cpus']} CPUs, Python "
            f"{r['python']}; each step in a fresh process "
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
            f"| add one more run, same process | {r['add_one']['warm_s']:.2f} s "
            f"| {r['add_one'].get('warm_cpu_s', float('nan')):.2f} s | "
            f"| {_verdict(r['add_one']['warm_s'], TARGETS['add_one_s'])} |",
            *(
                f"| DuckDB, {name} query ({_QUERY_WORDS[name]}) over {qq['requests']:,} per-request rows of "
                f"{qq['runs']:,} runs ({r['requests_mb']:,.0f} MB of parquet): first in a fresh connection / median "
                f"of the {len(qq['walls_s']) - 1} next (load average {min(qq['loads']):.1f} to {max(qq['loads']):.1f}) "
                f"| {qq['first_s']:.2f} s / {qq['again_s']:.2f} s | {qq['cpus_s'][0]:.1f} s / {qq['again_cpu_s']:.1f} s "
                f"(on 2 idle cores about {qq['again_cpu_s'] / 2:.1f} s) | {qq['peak_rss_mb']:,.0f} MB "
                f"| {_verdict(qq['again_s'], TARGETS['query_s'])} |"
                for name, qq in q.items()
            ),
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
