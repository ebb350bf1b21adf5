"""A llama-batched-bench table's model: the one a batched-bench command line above it names, else the one
`Model: X` label line of its section. llama.cpp's scripts/bench-models.sh writes, for each model, a
`## <repo>` heading, `Model: https://huggingface.co/<repo>` and then the tables of the tools it runs with
`-hf <repo>`, no command line among them: each table is that repository's. Two different labels since the
previous table tie none; a command line's model wins over a label."""

from __future__ import annotations

from benchbook import config
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


def _models(text: str) -> list:
    t = llama_batched_bench.parse(text, "x.md").table
    return list(dict.fromkeys(m if isinstance(m, str) else None for m in t["model"]))


def _section(repo: str) -> str:
    return (
        f"## {repo}\n\nModel: https://huggingface.co/{repo}\n\n- `llama-batched-bench`\n\n\n" + SETTINGS + TABLE + "\n"
    )


def test_each_table_takes_the_model_label_of_its_section():
    text = _section("ggml-org/gpt-oss-20b-GGUF") + _section("ggml-org/gpt-oss-120b-GGUF")
    assert _models(text) == ["ggml-org/gpt-oss-20b-GGUF", "ggml-org/gpt-oss-120b-GGUF"]


def test_two_different_labels_above_one_table_tie_none():
    text = "Model: a/one\n\nModel: b/two\n\n" + SETTINGS + TABLE
    assert _models(text) == [None]


def test_a_command_line_names_the_model_over_a_label():
    text = "Model: a/one\n\n./llama-batched-bench -m models/two.gguf -npl 1,2\n\n" + SETTINGS + TABLE
    assert _models(text) == ["models/two.gguf"]


def test_the_dgx_spark_results_tie_each_of_six_tables_to_its_model():
    f = (
        config.FIXTURES_DIR
        / "llama-batched-bench"
        / "llamacpp_benches_dgx_spark_gb10_b7941_six_models_batched_bench_and_llama_bench_depth_sweeps.md"
    )
    t = llama_batched_bench.parse(f.read_text(), str(f)).table
    assert t.groupby("table")["model"].first().tolist()[:2] == [
        "ggml-org/gpt-oss-20b-GGUF",
        "ggml-org/gpt-oss-120b-GGUF",
    ]
    assert t["model"].nunique() == 6
