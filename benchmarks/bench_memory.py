"""Peak memory of `ingest.read_parsed` on a large input (issue 21: within 3x the input size).

    .venv/bin/python benchmarks/bench_memory.py --mb 200            # every seed, 200 MB each
    .venv/bin/python benchmarks/bench_memory.py --mb 20 --seed 004  # one seed, smaller

Each input is a seed document repeated, with its decimal numbers varied per copy (structure kept),
up to the size asked. Each file is read in a fresh Python process that imports the parsers first;
the figure is the growth of that process's peak resident memory (ru_maxrss) during the read,
divided by the file's size. The results go to benchmarks/memory.json and to the table in
benchmarks/README.md. A measurement, not a test: the numbers depend on the machine.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
README = HERE / "README.md"
START, END = "<!-- memory:start -->", "<!-- memory:end -->"

CHILD = """
import json, resource, sys, time
from benchbook import ingest
ingest.tools()
ingest.read_parsed(sys.argv[2])  # warm-up on the seed: imports, compiled patterns
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
t0 = time.perf_counter()
parsed = ingest.read_parsed(sys.argv[1])
seconds = time.perf_counter() - t0
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print(json.dumps({"base": base, "peak": peak, "seconds": seconds,
                  "tools": [p.tool for p in parsed],
                  "kept": sum(len(p.table) for p in parsed),
                  "rejected": sum(len(p.rejected) for p in parsed)}))
"""

_DECIMAL = re.compile(r"(?<![\w.])(\d+)\.(\d+)(?![\w.])")


def vary(text: str, i: int) -> str:
    """Copy i of a seed with its decimals' last digit shifted (the same rule as benchmarks/run.py)."""
    return _DECIMAL.sub(lambda m: f"{m.group(1)}.{m.group(2)[:-1]}{(int(m.group(2)[-1]) + i) % 10}", text)


def write_input(seed: Path, mb: float, dst: Path) -> int:
    """Write copies of the seed to dst until it holds `mb` megabytes; return its size in bytes."""
    text = seed.read_text(encoding="utf-8")
    variants = [vary(text, i) for i in range(10)]
    size, i = 0, 0
    with open(dst, "w", encoding="utf-8") as fh:
        while size < mb * 1e6:
            chunk = variants[i % 10] + "\n"
            fh.write(chunk)
            size += len(chunk.encode("utf-8"))
            i += 1
    return dst.stat().st_size


def measure(path: Path, seed: Path) -> dict:
    res = subprocess.run([sys.executable, "-c", CHILD, str(path), str(seed)], capture_output=True, text=True)
    if res.returncode != 0:
        return {"error": (res.stderr.strip().splitlines() or ["?"])[-1]}
    return json.loads(res.stdout)


def table(results: dict) -> str:
    rows = [
        "| seed (tools) | input | peak growth | x input | read time | rows kept / rejected |",
        "|---|---|---|---|---|---|",
    ]
    for key, r in results["runs"].items():
        if "error" in r:
            rows.append(f"| {key} | {r['mb']:.0f} MB | error: {r['error']} | | | |")
            continue
        grow = (r["peak"] - r["base"]) / 1e6
        load = f" (load {r['load']:.1f})" if "load" in r else ""
        rows.append(
            f"| {key} ({', '.join(r['tools'])}) | {r['mb']:.0f} MB | {grow:,.0f} MB | {grow / r['mb']:.2f} | "
            f"{r['seconds']:.1f} s{load} | {r['kept']:,} / {r['rejected']:,} |"
        )
    return f"Latest run: {results['when']}, Python {results['python']}.\n\n" + "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    sys.path.insert(0, str(HERE.parent / "src"))
    from benchbook import config

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mb", type=float, default=200, help="input size per seed, MB")
    ap.add_argument("--seed", action="append", help="seed key (000 ... 004); default all")
    ap.add_argument("--no-write", action="store_true", help="print only")
    args = ap.parse_args(argv)
    seeds = {k: p for k, p in sorted(config.SEEDS.items()) if not args.seed or k in args.seed}
    store = HERE / "memory.json"
    # runs of other seeds (measured at another size) are kept: each seed's latest run is reported
    results = json.loads(store.read_text(encoding="utf-8")) if store.is_file() and not args.no_write else {"runs": {}}
    results.update(when=time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), python=platform.python_version())
    with tempfile.TemporaryDirectory() as tmp:
        for key, seed in seeds.items():
            path = Path(tmp) / f"synthetic_{key}.txt"
            size = write_input(seed, args.mb, path)
            load = os.getloadavg()[0]  # the read time depends on it; the peak memory does not
            r = measure(path, seed)
            r["load"] = load
            r["mb"] = size / 1e6
            results["runs"][key] = r
            path.unlink()
            print(json.dumps({key: r}), flush=True)
    text = table(results)
    print(text)
    if not args.no_write:
        store.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
        readme = README.read_text(encoding="utf-8")
        if START in readme:
            head, rest = readme.split(START, 1)
            readme = head + START + "\n" + text + "\n" + END + rest.split(END, 1)[1]
            README.write_text(readme, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
