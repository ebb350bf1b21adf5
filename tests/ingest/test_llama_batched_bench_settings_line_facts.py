"""The settings line llama-batched-bench prints above its table (`n_gpu_layers = 52, n_threads = 8`) states
where the model's layers went and the CPU threads for the rows below it: run facts a page lists with their
rows, each cited at the settings line (the rows print neither). A table printed without that line states
neither."""

from benchbook.ingest import llama_batched_bench

SETTINGS = (
    "llama_batched_bench: n_kv_max = 262144, n_batch = 2048, n_ubatch = 1024, flash_attn = -1, "
    "is_pp_shared = 0, is_tg_separate = 0, n_gpu_layers = 52, n_threads = 8, n_threads_batch = 8"
)
TABLE = [
    "|    PP |     TG |    B |   N_KV |   T_PP s | S_PP t/s |   T_TG s | S_TG t/s |      T s |    S t/s |",
    "|-------|--------|------|--------|----------|----------|----------|----------|----------|----------|",
    "| 65536 |    128 |    1 |  65664 |  118.385 |   553.58 |   20.138 |     6.36 |  138.523 |   474.03 |",
]


def test_the_settings_line_gives_the_layers_on_the_gpu_and_the_threads_of_its_rows():
    parsed = llama_batched_bench.parse("\n".join([SETTINGS, "", *TABLE]), "run.md")
    facts = {(name, value, line) for name, value, line, _ in llama_batched_bench.table_facts(parsed.table)}
    assert facts == {("gpu_layers", 52, 1), ("threads", 8, 1)}


def test_each_table_s_facts_are_cited_at_its_own_settings_line():
    other = SETTINGS.replace("n_gpu_layers = 52", "n_gpu_layers = 99")
    parsed = llama_batched_bench.parse("\n".join([SETTINGS, "", *TABLE, "", other, "", *TABLE]), "run.md")
    facts = {(name, value, line) for name, value, line, _ in llama_batched_bench.table_facts(parsed.table)}
    assert facts == {("gpu_layers", 52, 1), ("threads", 8, 1), ("gpu_layers", 99, 7), ("threads", 8, 7)}


def test_a_table_without_the_settings_line_states_neither():
    parsed = llama_batched_bench.parse("\n".join(TABLE), "run.md")
    assert llama_batched_bench.table_facts(parsed.table) == []


def test_the_settings_line_is_read_under_the_function_name_any_build_prints():
    # `"%s: n_kv_max = ...", __func__`: `main:` in most builds, after the log's time and level in some
    for prefix in ("main:", "0.01.002.003 I main:"):
        line = SETTINGS.replace("llama_batched_bench:", prefix)
        parsed = llama_batched_bench.parse("\n".join([line, "", *TABLE]), "run.md")
        assert ("gpu_layers", 52) in {(n, v) for n, v, _, _ in llama_batched_bench.table_facts(parsed.table)}
