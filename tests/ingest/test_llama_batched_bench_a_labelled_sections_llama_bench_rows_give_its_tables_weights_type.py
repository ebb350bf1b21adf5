"""A llama-batched-bench table prints no weights' type. llama.cpp's scripts/bench-models.sh writes, per model, a
`## <repo>` heading and a `Model: ...` label, then runs llama-batched-bench and llama-bench on the same `-m`
file; llama-bench's model column (`llama_model_desc`: architecture, size, the file's type) prints that type. So a
table whose model is its section's label takes the one description the section's llama-bench rows print (its
`weights`); rows of two descriptions give none, and a table whose model a command line names takes none (the
llama-bench rows beside it may be another file's). The batch chapter reads it as the table's precision."""

from __future__ import annotations

import pandas as pd

from benchbook import config
from benchbook.analysis import batched_bench
from benchbook.ingest import llama_batched_bench

SETTINGS = (
    "main: n_kv_max = 270336, n_batch = 2048, n_ubatch = 2048, flash_attn = 1, is_pp_shared = 0, "
    "n_gpu_layers = -1, n_threads = 20, n_threads_batch = 20\n\n"
)
TABLE = (
    "|    PP |     TG |    B |   N_KV |   T_PP s | S_PP t/s |   T_TG s | S_TG t/s |      T s |    S t/s |\n"
    "|-------|--------|------|--------|----------|----------|----------|----------|----------|----------|\n"
    "|   512 |     32 |    1 |    544 |    0.270 |  1895.57 |    0.399 |    80.13 |    0.669 |   812.60 |\n"
    "|   512 |     32 |    2 |   1088 |    0.230 |  4451.23 |    0.583 |   109.71 |    0.813 |  1337.56 |\n"
)
BENCH_HEAD = (
    "| model                          |       size |     params | backend    | ngl |            test |"
    "                  t/s |\n"
    "| ------------------------------ | ---------: | ---------: | ---------- | --: | --------------: |"
    " -------------------: |\n"
)


def _bench_row(desc: str, test: str = "pp2048") -> str:
    return f"| {desc:30} |  11.27 GiB |    20.91 B | CUDA       |  99 | {test:>15} |      4505.82 ± 12.90 |\n"


def _section(repo: str, *descs: str, command: str = "") -> str:
    rows = "".join(_bench_row(d, t) for d in descs for t in ("pp2048", "tg32"))
    return (
        f"## {repo}\n\nModel: https://huggingface.co/{repo}\n\n- `llama-batched-bench`\n\n{command}\n"
        + SETTINGS
        + TABLE
        + "\n\n- `llama-bench`\n\n"
        + (BENCH_HEAD + rows if descs else "")
        + "\nbuild: 11fb327bf (7941)\n\n"
    )


def _weights(text: str) -> list:
    t = llama_batched_bench.parse(text, "x.md").table
    return [w if isinstance(w, str) else None for w in t.groupby("table", sort=True)["weights"].first()]


def test_each_labelled_table_takes_its_own_sections_llama_bench_type():
    text = _section("ggml-org/gpt-oss-20b-GGUF", "gpt-oss 20B MXFP4 MoE") + _section(
        "ggml-org/gemma-3-4b-it-qat-GGUF", "gemma3 4B Q4_0"
    )
    assert _weights(text) == ["gpt-oss 20B MXFP4 MoE", "gemma3 4B Q4_0"]


def test_a_section_whose_llama_bench_rows_print_two_descriptions_gives_none():
    text = _section("a/mixed-GGUF", "llama 8B Q4_0", "llama 8B Q8_0")
    assert _weights(text) == [None]


def test_a_section_with_no_llama_bench_rows_gives_none():
    assert _weights(_section("a/alone-GGUF")) == [None]


def test_a_table_whose_model_a_command_names_takes_no_section_type():
    text = _section("a/one-GGUF", "llama 8B Q4_0", command="./llama-batched-bench -m models/other.gguf -npl 1,2\n")
    assert _weights(text) == [None]


def test_the_batch_chapter_reads_the_type_as_the_tables_precision():
    text = _section("ggml-org/gpt-oss-20b-GGUF", "gpt-oss 20B MXFP4 MoE") + _section(
        "a/mixed-GGUF", "x 8B Q4_0", "x 8B Q8_0"
    )
    t = llama_batched_bench.parse(text, "x.md").table.assign(tool="llama-batched-bench", source="x.md")
    sw = batched_bench.sweep(t)
    got = dict(zip(sw["model"], sw["dtype"], strict=False))
    assert got["ggml-org/gpt-oss-20b-GGUF"] == "fp4"
    assert got["a/mixed-GGUF"] == "precision not stated"


def test_the_sections_printed_size_gives_the_files_bytes_per_weight():
    text = _section("ggml-org/gpt-oss-20b-GGUF", "gpt-oss 20B MXFP4 MoE")
    t = llama_batched_bench.parse(text, "x.md").table
    assert t["weights_size_gib"].iloc[0] == 11.27 and t["weights_params_b"].iloc[0] == 20.91
    sw = batched_bench.sweep(t.assign(tool="llama-batched-bench", source="x.md"))
    # 11.27 GiB over 20.91 B weights: 0.579 byte each, the MXFP4 blocks' scales and the unquantised tensors
    assert abs(sw["bytes_per_weight"].iloc[0] - 11.27 * 2**30 / 20.91e9) < 1e-9
    # no size printed (the section's llama-bench rows lack it): the type's own bytes, 0.5 for fp4
    bare = llama_batched_bench.parse(text.replace("11.27 GiB", "        -"), "x.md").table
    assert (
        batched_bench.sweep(bare.assign(tool="llama-batched-bench", source="x.md"))["bytes_per_weight"].iloc[0] == 0.5
    )


def test_the_dgx_spark_results_give_every_table_its_llama_bench_type():
    f = (
        config.FIXTURES_DIR
        / "llama-batched-bench"
        / "llamacpp_benches_dgx_spark_gb10_b7941_six_models_batched_bench_and_llama_bench_depth_sweeps.md"
    )
    t = llama_batched_bench.parse(f.read_text(), str(f)).table
    firsts = t.groupby("table")["weights"].first()
    assert firsts.notna().all() and not pd.isna(firsts.iloc[0])
    assert firsts.iloc[0] == "gpt-oss 20B MXFP4 MoE"
