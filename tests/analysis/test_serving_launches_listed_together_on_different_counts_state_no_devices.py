"""Server launches written together above a result (no result between them) that span different device counts
(`--tp-size 4`, then `--tp-size 8`, then the benchmark and its block) are the servers a write-up compared: the
file does not say which printed the block, so neither states its parallel sizes and no one peak is the run's.
Launches that agree on the count (a TP 4 and a DP 4 script on one 4-GPU host), or each followed by its own
result, still state them."""

from __future__ import annotations

import pandas as pd

from benchbook.analysis import serving
from benchbook.ingest import context, sglang_serving

BLOCK = [
    "============ Serving Benchmark Result ============",
    "Backend:                                 sglang",
    "Max request concurrency:                 32",
    "Successful requests:                     500",
    "Benchmark duration (s):                  55.29",
    "Request throughput (req/s):              9.04",
    "Output token throughput (tok/s):         904.00",
    "=" * 50,
]


def _text(first: str, second: str) -> list[str]:
    return [
        "Tested on H20.",
        f"python3 -m sglang.launch_server --model /m/Qwen3-235B-A22B {first} --port 30000",
        "",
        f"python3 -m sglang.launch_server --model /m/Qwen3-235B-A22B {second} --port 30000",
        "",
        "python3 -m sglang.bench_serving --backend sglang --num-prompts 500 --max-concurrency 32",
        "",
        *BLOCK,
    ]


def test_two_launches_on_4_and_8_devices_give_the_block_neither_count():
    lines = _text("--tp-size 4", "--tp-size 8")
    ctx = context.read(lines)
    assert context.alternatives(ctx, lines, [11]) == {2, 4}
    assert context.launched(ctx, lines, [11]) is None
    df = sglang_serving.parse("\n".join(lines), "run.md").table
    assert not df["metadata"].astype(str).str.contains("tp=").any()


def test_the_runs_peak_is_none_and_the_counts_are_evidence(tmp_path):
    lines = _text("--tp-size 4", "--tp-size 8")
    f = tmp_path / "run.md"
    f.write_text("\n".join(lines) + "\n", encoding="utf-8")
    r = pd.DataFrame({"source": ["run.md"], "model": ["Qwen3-235B-A22B"], "metadata": [None], "line": [11]})
    r = serving.parallelism_from_context(r, [f])
    assert serving.compared_spans(r) == [(4, 2), (8, 4)]
    assert serving.devices(r) == 1 and serving.spanning(_peaks(), r) is None
    assert serving.spans_said(_peaks(), r) == {"device_compared": "H20-96GB", "compared_spans": [(4, 2), (8, 4)]}


def test_launches_on_one_count_leave_the_nearest_the_runs(tmp_path):
    """The other way: TP 4 and DP 4 span 4 devices each; the nearer launch ran the block."""
    lines = _text("--dp-size 4", "--tp-size 4")
    ctx = context.read(lines)
    assert context.alternatives(ctx, lines, [11]) == set() and context.launched(ctx, lines, [11]) == 4
    assert "tp=4" in str(sglang_serving.parse("\n".join(lines), "run.md").table["metadata"].iloc[0])


def test_a_result_between_the_launches_ties_each_its_own():
    """The other way: a block under each launch (no two launches together above one result)."""
    lines = _text("--tp-size 4", "--tp-size 8")
    lines = lines[:3] + BLOCK + lines[3:]
    ctx = context.read(lines)
    assert context.alternatives(ctx, lines, [6, 19]) == set()
    df = sglang_serving.parse("\n".join(lines), "run.md").table
    meta = df.drop_duplicates("line")["metadata"].astype(str).tolist() if "line" in df else []
    assert any("tp=4" in m for m in meta) and any("tp=8" in m for m in meta)


def _peaks():
    from benchbook.analysis import roofline

    return roofline.of_named(roofline.named(["H20"]))
