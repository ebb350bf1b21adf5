"""ik_llama.cpp's llama-sweep-bench table read by the tool's own definitions (examples/sweep-bench/
sweep-bench.cpp): each row is llama-bench's `ppPP @ dN_KV` and `tgTG @ dN_KV` tests of one sequence, in
llama-bench's columns; PP is n_ubatch, the depth steps by it, S_PP = PP / T_PP and S_TG = TG / T_TG over
the printed rounding, and a row that breaks one is rejected whole with the definition named. The settings
line, a `llama-sweep-bench` command (`-m`, `-t`, `-fa`, `-sm`) and, where no command gives one, a heading
titling the table that names a split mode give the run's settings."""

import pytest

from benchbook import ingest
from benchbook.ingest import llama_sweep_bench
from benchbook.ingest.core import ParseError

HEAD = (
    "|    PP |     TG |   N_KV |   T_PP s | S_PP t/s |   T_TG s | S_TG t/s |\n"
    "|-------|--------|--------|----------|----------|----------|----------|\n"
)
ROWS = (
    "|   512 |    128 |      0 |    9.622 |    53.21 |   47.765 |     2.68 |\n"
    "|   512 |    128 |    512 |    8.314 |    61.58 |   24.781 |     5.17 |\n"
)


def _parse(text: str):
    return llama_sweep_bench.parse(text, "f.md")


def test_each_row_is_a_prompt_and_a_generation_test_at_its_depth():
    p = _parse(HEAD + ROWS)
    t = p.table[p.table["metric"].str.endswith("_rate")]
    assert list(t["test"]) == ["pp512", "tg128", "pp512 @ d512", "tg128 @ d512"]
    assert list(t["metric"]) == ["pp_rate", "tg_rate"] * 2 and list(t["value"]) == [53.21, 2.68, 61.58, 5.17]
    assert list(t["n_depth"]) == [0, 0, 512, 512] and set(t["n_ubatch"]) == {512} and set(t["table_line"]) == {1}
    assert list(t["n_prompt"]) == [512, 0, 512, 0] and list(t["n_gen"]) == [0, 128, 0, 128]
    times = p.table[p.table["unit"] == "s"]
    assert list(times["metric"]) == ["pp_time", "tg_time"] * 2 and list(times["value"]) == [
        9.622,
        47.765,
        8.314,
        24.781,
    ]
    assert ingest.detect(HEAD + ROWS) == ["llama-sweep-bench"]


def test_the_command_and_the_settings_line_give_the_settings():
    cmd = "./bin/llama-sweep-bench -m /LLM/google_gemma-3-27b-it-Q8_0.gguf -c 4096 -t 32 -fa -rtr -sm row\n\n"
    row = _parse(cmd + HEAD + ROWS).table.iloc[0]
    assert (row["model_file"], row["threads"], row["fa"], row["extra_settings"]) == (
        "google_gemma-3-27b-it-Q8_0.gguf",
        32,
        "1",
        "sm=row",
    )
    said = "main: n_kv_max = 4096, n_batch = 2048, n_ubatch = 512, flash_attn = 0, n_gpu_layers = 99, n_threads = 8, n_threads_batch = 8\n\n"
    row = _parse(said + HEAD + ROWS).table.iloc[0]
    assert (row["n_batch"], row["ngl"], row["threads"], row["fa"]) == (2048, 99, 8, "0")


def test_a_heading_titling_the_table_gives_its_split_mode_and_the_command_wins():
    titled = '### ik_llama.cpp, split mode "graph" - this PR\n\n' + HEAD + ROWS
    assert set(_parse(titled).table["extra_settings"]) == {"sm=graph"}
    cmd = "llama-sweep-bench -m m.gguf -sm layer\n"
    assert set(_parse(titled.replace("\n\n", "\n\n" + cmd, 1)).table["extra_settings"]) == {"sm=layer"}
    # a heading that names none, or one above another table, gives none
    assert _parse("# POC: CUDA tensor parallel\n\n" + HEAD + ROWS).table["extra_settings"].isna().all()
    other = '### split mode "graph"\n\n' + HEAD + ROWS + "\n" + HEAD + ROWS
    split = _parse(other).table.drop_duplicates("table_line")["extra_settings"]
    assert split.iloc[0] == "sm=graph" and split.isna().iloc[1]


@pytest.mark.parametrize(
    "row, why",
    [
        (
            "|   512 |    128 |   1024 |    8.389 |    71.03 |   25.398 |     5.04 |\n",
            "S_PP 71.03 t/s is not PP / T_PP",
        ),
        ("|   512 |    128 |   1024 |    8.389 |    61.03 |   25.398 |     6.04 |\n", "S_TG 6.04 t/s is not TG / T_TG"),
        ("|   512 |    128 |   1000 |    8.389 |    61.03 |   25.398 |     5.04 |\n", "N_KV 1000 is not a multiple"),
    ],
)
def test_a_row_that_breaks_the_tools_definitions_is_rejected_whole(row, why):
    p = _parse(HEAD + ROWS + row)
    assert len(p.table) == 8 and len(p.rejected) == 4
    assert p.rejected["reason"].str.contains(why, regex=False).all()


def test_a_pp_other_than_the_stated_n_ubatch_is_rejected():
    said = "main: n_kv_max = 4096, n_batch = 2048, n_ubatch = 256, flash_attn = 0\n\n"
    p = _parse(said + HEAD + ROWS)
    assert p.table.empty and p.rejected["reason"].str.contains("PP 512 is not n_ubatch = 256").all()


def test_the_memory_columns_are_kept_where_numbers():
    head = HEAD.replace("S_TG t/s |\n", "S_TG t/s |    RSS HWM | VRAM delta |\n", 1).replace("|\n|-", "|\n|-", 1)
    rows = "|   512 |    128 |      0 |    9.622 |    53.21 |   47.765 |     2.68 |    30012.5 |        n/a |\n"
    t = _parse(head + rows).table
    assert t.loc[t["metric"] == "rss_hwm", "value"].tolist() == [30012.5] and "vram_delta" not in set(t["metric"])


def test_a_row_with_too_few_cells_is_a_named_error_and_a_bare_header_reads_nothing():
    with pytest.raises(ParseError) as err:
        _parse(HEAD + "|   512 |    128 | 0 | 9.622 |\n| 512 | 128 | 512 | 8.314 | 61.58 | 24.781 | 5.17 |\n")
    assert err.value.line == 3 and "llama-sweep-bench row" in err.value.message
    with pytest.raises(ParseError):
        _parse(HEAD)
