"""llama-batched-bench's table read by the tool's own formulas (tools/batched-bench/batched-bench.cpp):
every row kept with its settings, a row whose numbers break a formula rejected whole with the formula
named, the prompt mode from the settings line or else from N_KV, and the model from the one command
line above a table (a README's several examples name none)."""

import pytest

from benchbook import config, ingest
from benchbook.ingest import llama_batched_bench, llama_bench
from benchbook.ingest.core import ParseError

DIR = config.FIXTURES_DIR / "llama-batched-bench"
HEAD = (
    "|    PP |     TG |    B |   N_KV |   T_PP s | S_PP t/s |   T_TG s | S_TG t/s |      T s |    S t/s |\n"
    "|-------|--------|------|--------|----------|----------|----------|----------|----------|----------|\n"
)
ROW = "|   128 |    128 |    8 |   2048 |    0.751 |  1363.27 |    7.344 |   139.43 |    8.095 |   252.99 |\n"


def _value(p, line, metric):
    t = p.table
    return t.loc[(t["line"] == line) & (t["metric"] == metric), "value"].item()


def test_the_readme_table_is_read_with_its_values():
    p = ingest.read_parsed(DIR / "llamacpp_batched_bench_readme_026bb1b.md")[0]
    assert p.tool == "llama-batched-bench" and len(p.table) == 72 and p.rejected.empty
    assert _value(p, 42, "generation_throughput") == 465.40 and _value(p, 42, "generation_time") == 8.801
    row = p.table[p.table["line"] == 42].iloc[0]
    assert (row["pp"], row["tg"], row["batch"], row["n_kv"], row["pp_shared"]) == (128, 128, 32, 8192, 0)
    assert p.table["model"].isna().all()  # three example commands above: none is tied to the table


def test_the_settings_line_gives_the_run_settings():
    p = ingest.read_parsed(DIR / "llamacpp_pr16894_bench_models_script_batched_bench_metal_qwen2_7b_q8_excerpt.md")[0]
    row = p.table.iloc[0]
    assert (row["n_kv_max"], row["n_batch"], row["n_ubatch"], row["flash_attn"], row["n_gpu_layers"]) == (
        20480,
        2048,
        2048,
        1,
        -1,
    )
    assert row["pp_shared"] == 0 and row["n_threads"] == 16 and len(p.table) == 36
    assert any(":16: a llama-bench table header with no row" in m for m in p.messages)


def test_the_one_command_above_names_the_model():
    p = ingest.read_parsed(DIR / "llamacpp_issue3478_batched_bench_openblas_cpu_mistral7b_q4_0_excerpt.md")[0]
    assert set(p.table["model"]) == {"mistral-7b-instruct-v0.1.Q4_0.gguf"} and len(p.table) == 48
    assert _value(p, 11, "prompt_time") == 22.274 and _value(p, 18, "total_throughput") == 13.98


def test_a_build_step_chained_before_the_command_names_no_model():
    # `make -j batched-bench && ./batched-bench MODEL ...` (llama.cpp PR #4280): the make target has no
    # model after it in its own command, so the model is the path the next command gives, never `&&`
    assert (
        llama_batched_bench._command(
            "make -j batched-bench && ./batched-bench ./models/llama-7b-v2/ggml-model-q8_0.gguf 10880 1 99 0 128 128 1,2"
        )
        == "./models/llama-7b-v2/ggml-model-q8_0.gguf"
    )
    p = ingest.read_parsed(DIR / "llamacpp_pr4280_m3_max_batched_bench_q8_0_master_kv_pad_cut_excerpt.md")[0]
    assert "&&" not in set(p.table["model"]) and "ggml-model-q8_0.gguf" in str(set(p.table["model"]))


def test_a_single_command_and_a_prefixed_one_keep_their_model():
    # the rule must not fire on one command, nor on a program behind an env prefix
    assert llama_batched_bench._command("./llama-batched-bench -m m.gguf -npp 128") == "m.gguf"
    assert llama_batched_bench._command("env -i ./build/bin/llama-batched-bench -m a/b.gguf -c 8192") == "a/b.gguf"
    assert llama_batched_bench._command("make -j batched-bench") is None


def test_a_row_that_breaks_the_generation_formula_is_rejected_naming_it():
    bad = ROW.replace("139.43", "239.43")
    p = llama_batched_bench.parse(HEAD + ROW + bad, "f.md")
    assert set(p.table["line"]) == {3} and len(p.rejected) == 6
    assert (p.rejected["line"] == 4).all() and p.rejected["reason"].str.contains("S_TG 239.43 t/s is not B x TG").all()


def test_rounding_of_the_printed_times_is_not_a_contradiction():
    # 128 / 0.108 = 1185.19, yet the tool printed 1186.64 from the unrounded time: within %.3f's half step
    row = "|   128 |    128 |    1 |    256 |    0.108 |  1186.64 |    3.079 |    41.57 |    3.187 |    80.32 |\n"
    assert len(llama_batched_bench.parse(HEAD + row, "f.md").table) == 6


def test_n_kv_tells_a_shared_prompt_and_a_stated_mode_must_agree():
    shared = "|   128 |    128 |    8 |   1152 |    0.094 |  1361.70 |    7.344 |   139.43 |    7.438 |   154.88 |\n"
    p = llama_batched_bench.parse(HEAD + shared, "f.md")
    assert len(p.table) == 6 and (p.table["pp_shared"] == 1).all()
    stated = "main: n_kv_max = 16384, n_batch = 2048, n_ubatch = 512, flash_attn = 0, is_pp_shared = 0, n_gpu_layers = 99\n\n"
    p = llama_batched_bench.parse(stated + HEAD + shared, "f.md")
    assert p.table.empty and p.rejected["reason"].str.contains("as is_pp_shared = 0 makes it").all()


def test_an_n_kv_of_neither_mode_is_rejected():
    p = llama_batched_bench.parse(HEAD + ROW.replace("|   2048 |", "|   2000 |"), "f.md")
    assert len(p.rejected) == 6 and p.rejected["reason"].str.contains("N_KV 2000 is neither").all()
    p = llama_batched_bench.parse(HEAD + ROW.replace("|   2048 |", "|   2000 |") + ROW, "f.md")
    assert len(p.table) == 6 and p.rejected["reason"].str.contains("as the table's other rows tell").all()


def test_a_short_row_inside_the_table_is_refused_naming_its_line():
    with pytest.raises(ParseError) as err:
        llama_batched_bench.parse(HEAD + "|   128 |    128 |    8 |   2048 |    0.751 |\n" + ROW, "f.md")
    assert err.value.line == 3


def test_detection_keeps_the_two_llama_cpp_tables_apart():
    llama = (config.FIXTURES_DIR / "llama-bench" / "llamacpp_readme_b5163.md").read_text(encoding="utf-8")
    assert not llama_batched_bench.sniff(llama) and llama_bench.sniff(llama)
    assert ingest.detect(HEAD + ROW) == ["llama-batched-bench"]
