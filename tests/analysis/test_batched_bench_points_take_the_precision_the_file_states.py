"""A llama-batched-bench table names no model, and a command above it may name none either; its points take the
precision the rest of the file states (`precision.stated_names`, as bench_one_batch's points do), so a sentence
`I ran the batched bench with llama 8b q4_0` gives them Q4_0 weights; a file that states none leaves them
"precision not stated"."""

from __future__ import annotations

from benchbook import config, ingest
from benchbook.analysis import batched_bench, precision
from benchbook.analysis.batch import UNSTATED

HEAD = (
    "|    PP |     TG |    B |   N_KV |   T_PP s | S_PP t/s |   T_TG s | S_TG t/s |      T s |    S t/s |\n"
    "|-------|--------|------|--------|----------|----------|----------|----------|----------|----------|\n"
    "|   512 |    128 |    1 |    640 |    0.184 |  2777.25 |    1.551 |    82.55 |    1.735 |   368.90 |\n"
    "|   512 |    128 |    2 |    768 |    0.176 |  2902.45 |    8.671 |    29.52 |    8.847 |    86.80 |\n"
)


def _dtypes(tmp_path, prose: str) -> set[str]:
    path = tmp_path / "bench.md"
    path.write_text(prose + "\n\n" + HEAD, encoding="utf-8")
    return set(batched_bench.sweep(ingest.read(path), precision.stated_names([path]))["dtype"])


def test_a_precision_in_prose_is_the_points_precision(tmp_path):
    assert _dtypes(tmp_path, "I ran the batched bench with llama 8b q4_0 for my devices.") == {"int4"}


def test_a_file_that_states_no_precision_leaves_it_unstated(tmp_path):
    assert _dtypes(tmp_path, "I ran the batched bench with llama 8b for my devices.") == {UNSTATED}
    # without the file's names (the old call), nothing is read from the prose
    path = tmp_path / "bench.md"
    path.write_text("I ran the batched bench with llama 8b q4_0.\n\n" + HEAD, encoding="utf-8")
    assert set(batched_bench.sweep(ingest.read(path))["dtype"]) == {UNSTATED}


def test_the_pr10991_comment_gives_its_points_q4_0():
    path = (
        config.FIXTURES_DIR
        / "llama-batched-bench"
        / ("llamacpp_pr10991_vulkan_rtx3090_llama8b_q4_0_batched_bench_master_b1_10_cut_excerpt.md")
    )
    sw = batched_bench.sweep(ingest.read(path), precision.stated_names([path]))
    assert set(sw["dtype"]) == {"int4"} and set(sw["bytes_per_weight"]) == {0.5}
