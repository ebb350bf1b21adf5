"""Time parsing a synthetic 100,000-request `vllm bench serve --save-detailed` JSON.

The file has the shape `serve.py` writes (summary keys plus per-request `input_lens`, `output_lens`,
`ttfts`, `itls`, `latencies`, `start_times`, `queue_times`, `generated_texts`, `errors`), with
ShareGPT-like output lengths (mean about 92 tokens, as in seed 004). Run:

    .venv/bin/python benchmarks/bench_vllm_detailed.py [n_requests]
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path

import numpy as np


def synthetic(n: int, seed: int = 0) -> dict:
    rng = np.random.default_rng(seed)
    out = np.clip(rng.geometric(1 / 92, n), 1, 2048)
    ttft = rng.lognormal(np.log(0.1), 0.5, n)
    itls = [np.round(rng.gamma(4, 0.0075, k - 1), 6).tolist() for k in out]
    lat = ttft + np.array([sum(x) for x in itls])
    dur = float(lat.max() * 5)
    return {
        "date": "20250909-000000",
        "endpoint_type": "openai",
        "backend": "vllm",
        "label": None,
        "model_id": "synthetic/model",
        "tokenizer_id": "synthetic/model",
        "num_prompts": n,
        "request_rate": "inf",
        "burstiness": 1.0,
        "max_concurrency": 256,
        "duration": dur,
        "completed": n,
        "failed": 0,
        "total_input_tokens": int(n * 214),
        "total_output_tokens": int(out.sum()),
        "request_throughput": n / dur,
        "request_goodput": None,
        "output_throughput": out.sum() / dur,
        "total_token_throughput": (n * 214 + out.sum()) / dur,
        "input_lens": [214] * n,
        "output_lens": out.tolist(),
        "ttfts": ttft.tolist(),
        "itls": itls,
        "latencies": lat.tolist(),
        "start_times": np.sort(rng.uniform(0, dur, n)).tolist(),
        "queue_times": [0.0] * n,
        "generated_texts": ["x"] * n,
        "errors": [""] * n,
        "mean_ttft_ms": float(ttft.mean() * 1000),
        "median_ttft_ms": float(np.median(ttft) * 1000),
        "std_ttft_ms": float(ttft.std() * 1000),
        "p99_ttft_ms": float(np.percentile(ttft, 99) * 1000),
    }


def main(n: int = 100_000) -> None:
    from benchbook import ingest
    from benchbook.ingest import vllm_serve

    with tempfile.TemporaryDirectory() as tmp:
        f = Path(tmp) / "detailed.json"
        f.write_text(json.dumps(synthetic(n)))
        size = f.stat().st_size / 1e6
        t0 = time.perf_counter()
        df = ingest.read(f, tool="vllm-bench-serve")
        t1 = time.perf_counter()
        req = vllm_serve.requests(f)
        t2 = time.perf_counter()
    print(
        f"{n} requests, {size:.0f} MB: read() {t1 - t0:.2f} s ({len(df)} tidy rows), "
        f"requests() {t2 - t1:.2f} s ({len(req)} rows)"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100_000)
