"""sglang-bench-offline parser: SGLang's bench_offline_throughput in its 2024 print and its result block."""

from __future__ import annotations

import math

import pytest

from benchbook import config, ingest
from benchbook.ingest import ParseError
from benchbook.ingest import sglang_offline as s

FIX = config.FIXTURES_DIR / "sglang-bench-offline"
PR = FIX / "sglang_pr1968_bench_offline_throughput_engine_vs_runtime.md"
BLOCKS = FIX / "sglang_issue7352_qwen32b_bf16_vs_fp8_dp2_tp4_offline_excerpt.md"
DICT = "{'run_name': 'before', 'total_input_tokens': 1000, 'total_latency': 2.0, 'total_output_tokens': 500, 'throughput': 750.0}"


def parse(text: str):
    return s.parse(text, "t.md")


def one(t, metric, **where):
    hit = t[t["metric"] == metric]
    for k, v in where.items():
        hit = hit[hit[k] == v]
    assert len(hit) == 1, (metric, where, len(hit))
    return hit.iloc[0]


def test_each_fixture_is_this_tool_only_and_no_other_fixture_is():
    for path in (PR, BLOCKS):
        assert ingest.detect(path.read_text(encoding="utf-8")) == [s.NAME]
    others = [
        p
        for p in config.FIXTURES_DIR.rglob("*")
        if p.is_file() and p.parent != FIX and not p.name.endswith((".truth.yml", "README.md"))
    ]
    assert [p.name for p in others if s.sniff(ingest._load_lines(p))] == []


def test_a_bare_throughput_line_is_no_sglang_output_without_its_command_or_dict():
    assert not s.sniff("Throughput: 1200.5 tokens/s\n")
    assert s.sniff("$ python -m sglang.bench_offline_throughput --model-path m\nThroughput: 1200.5 tokens/s\n")


def test_the_2024_print_keeps_the_throughput_line_once_and_the_dicts_totals():
    t = ingest.read(PR)
    assert sorted(set(t["run"])) == ["before (engine)", "before (runtime)"]
    engine = t[t["run"] == "before (engine)"]
    assert one(engine, "total_token_throughput")["value"] == pytest.approx(12577.550785919339)
    assert one(engine, "total_token_throughput")["line"] == 7
    assert one(engine, "total_generated_tokens")["value"] == 126886
    assert one(engine, "duration")["value"] == pytest.approx(28.642698895186186)
    assert one(t, "total_generated_tokens", run="before (runtime)")["backend"] == "runtime"
    p = ingest.read_parsed(PR, tool=s.NAME)[0]
    assert p.cells_read == len(p.table) + len(p.rejected) == 8  # the dict's throughput is the line's number


def test_throughput_lines_above_the_last_are_the_warmups():
    p = parse(f"Throughput: 80.0 tokens/s\nThroughput: 750.0 tokens/s\n{DICT}\n")
    assert one(p.table, "total_token_throughput")["value"] == 750.0
    assert list(p.rejected["line"]) == [1] and "warmup" in p.rejected["reason"].iat[0]
    # the other way: one line and its dict, nothing set aside
    q = parse(f"Throughput: 750.0 tokens/s\n{DICT}\n")
    assert q.rejected.empty and one(q.table, "total_token_throughput")["line"] == 1


def test_a_dict_alone_gives_its_throughput():
    p = parse(DICT + "\n")
    assert one(p.table, "total_token_throughput")["value"] == 750.0 and p.table["line"].eq(1).all()


def test_the_block_reads_its_rows_and_sets_aside_the_last_generation_rate():
    t = ingest.read(BLOCKS)
    first = t[t["run"] == "Qwen-32B(dp=2, tp=4)"]
    assert one(first, "throughput")["value"] == 8790.08
    assert one(first, "completed")["value"] == 1000
    assert first["tensor_parallel"].eq(4).all() and first["data_parallel"].eq(2).all()
    p = ingest.read_parsed(BLOCKS, tool=s.NAME)[0]
    assert len(p.rejected) == 2 and p.rejected["reason"].str.contains("last logged decode rate").all()
    assert p.cells_read == len(p.table) + len(p.rejected)


def test_a_block_without_a_label_is_numbered_and_states_no_parallelism():
    block = (BLOCKS.read_text(encoding="utf-8").split("```\n")[1]).split("Qwen-32B-FP8")[0]
    block = block.replace("Qwen-32B(dp=2, tp=4)\n", "")
    t = parse(block).table
    assert set(t["run"]) == {"run 1"} and t["tensor_parallel"].isna().all()
    assert math.isnan(t["data_parallel"].iat[0])


def test_two_runs_of_one_name_and_backend_are_numbered():
    p = parse(f"Throughput: 750.0 tokens/s\n{DICT}\nnext\nThroughput: 700.0 tokens/s\n{DICT}\n")
    assert sorted(set(p.table["run"])) == ["before 1", "before 2"]


def test_the_command_gives_model_dataset_and_parallelism():
    cmd = "python -m sglang.bench_offline_throughput --model-path org/M-7B --dataset-name random --tp-size 2 --dp 2\n"
    t = parse(cmd + f"Throughput: 750.0 tokens/s\n{DICT}\n").table
    assert set(t["model"]) == {"org/M-7B"} and set(t["dataset"]) == {"random"}
    assert t["tensor_parallel"].eq(2).all() and t["data_parallel"].eq(2).all()


def test_no_result_is_refused_naming_the_file():
    with pytest.raises(ParseError, match="t.md"):
        parse("python -m sglang.bench_offline_throughput --model-path m\nno numbers here\n")


COMMANDED = "python -m sglang.bench_offline_throughput --model-path m/M --num-prompts {n} --tp 2\n" + "\n".join(
    [
        "====== Offline Throughput Benchmark Result =======",
        "Successful requests:                     2000      ",
        "Request throughput (req/s):              12.77     ",
        "==================================================",
    ]
)


def test_the_command_above_a_block_is_its_own_where_it_asks_for_the_blocks_requests():
    t = parse(COMMANDED.format(n=2000)).table
    assert set(t["model"]) == {"m/M"} and set(t["tensor_parallel"]) == {2.0} and set(t["num_prompts"]) == {2000.0}


def test_a_command_asking_for_another_count_is_another_runs_and_gives_the_block_nothing():
    t = parse(COMMANDED.format(n=64)).table  # a warmup's --num-prompts 64 above a 2,000-request block
    assert "model" not in t or not t["model"].isin(["m/M"]).any()
    assert t["num_prompts"].isna().all() and t["tensor_parallel"].isna().all()


def test_a_flag_without_a_value_at_the_end_of_the_command_is_read_as_a_switch():
    cmd = "python -m sglang.bench_offline_throughput --model-path org/M-7B --tp-size 2 --disable-radix-cache\n"
    t = parse(cmd + f"Throughput: 750.0 tokens/s\n{DICT}\n").table
    assert set(t["model"]) == {"org/M-7B"} and t["tensor_parallel"].eq(2).all()


def test_a_result_dict_closes_its_run_even_where_the_next_print_follows_on_the_next_line():
    p = parse(f"Throughput: 750.0 tokens/s\n{DICT}\nThroughput: 700.0 tokens/s\n{DICT}\n")
    t = p.table[p.table["metric"] == "total_token_throughput"]
    assert sorted(zip(t["run"], t["value"], strict=True)) == [("before 1", 750.0), ("before 2", 700.0)]
    assert p.rejected.empty  # neither print is taken for the other's warmup


def test_a_string_delimiter_above_a_block_is_no_label():
    # real: a script keeps its result block inside a `'''` string under the command (half q, stop 44)
    block = (BLOCKS.read_text(encoding="utf-8").split("```\n")[1]).split("Qwen-32B-FP8")[0]
    t = parse(block.replace("Qwen-32B(dp=2, tp=4)\n", "'''\n")).table
    assert set(t["run"]) == {"run 1"}
    # the other way: a word on that line is the author's name for the run
    assert set(parse(block.replace("Qwen-32B(dp=2, tp=4)\n", "baseline\n")).table["run"]) == {"baseline"}


def test_a_dict_alone_gives_its_throughput_in_tokens_a_second():
    assert one(parse(DICT + "\n").table, "total_token_throughput")["unit"] == "tok/s"
