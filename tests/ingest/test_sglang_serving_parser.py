"""sglang-bench-serving parser: real console blocks and JSONL of three SGLang eras, the serving
contract shared with vllm-bench-serve, and bad input."""

from __future__ import annotations

import json
import math

import pandas as pd
import pytest

from benchbook import config, ingest
from benchbook.ingest import ParseError, vllm_serve
from benchbook.ingest import sglang_serving as s

FIX = config.FIXTURES_DIR / "sglang-bench-serving"
TOOL = "sglang-bench-serving"
BBUF = FIX / "bbuf_deepseek_v3_shared_experts_fusion.md"
JIEWCC = FIX / "jiewcc_notes_r1_distill_fusion.md"
DATACRUNCH = FIX / "datacrunch_llama33_70b_online.jsonl"
DLORA = FIX / "dlora_lora_infinity.jsonl"
PR685 = FIX / "sglang_pr685_multi.jsonl"
ISSUE23896 = FIX / "sglang_issue23896_dsv4_flash_h20_eagle_tp4_vs_dp4.md"
PR5390 = FIX / "sglang_pr5390_r1_dp8_cutlass_mla.md"
A6000 = FIX / "a6000x2_qwen25_72b_gptq_dummy_rate10.md"
NVFP4 = FIX / "nvfp4_sglang_oai_two_blocks_cap512.md"
KIMI = FIX / "kimi_k26_8k_64k_cap80_command_below.md"
#: A banner quoted with `> ` over unquoted rows; a block pasted without its banner.
QUOTED = FIX / "sglang_pr14098_mindie_backend_sharegpt_1200_prompts_rate24_printed_8_cut.md"
HEADLESS = FIX / "sglang_pr5571_dsv3_shared_experts_fusion_30k_in_rate10_block_without_banner_cut.md"
ALL = [BBUF, JIEWCC, DATACRUNCH, DLORA, PR685, ISSUE23896, PR5390, A6000, NVFP4, KIMI, QUOTED, HEADLESS]


def parsed(path):
    return ingest.read_parsed(path, tool=TOOL)[0]


def cell(df, run, metric, statistic):
    hit = df[(df["run"] == run) & (df["metric"] == metric) & (df["statistic"] == statistic)]
    assert len(hit) == 1, (run, metric, statistic, len(hit))
    return hit.iloc[0]


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.name)
def test_detected_as_sglang_only(path):
    assert ingest.detect(path.read_text(encoding="utf-8")) == [TOOL]


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.name)
def test_nothing_lost(path):
    p = parsed(path)
    assert p.cells_read == len(p.table) + len(p.rejected) > 0


def test_bbuf_misspelt_concurrency_and_values():
    p = parsed(BBUF)
    t = p.table
    row = cell(t, "qps=1", "ttft", "mean")
    assert (row["value"], row["unit"], row["line"]) == (402.01, "ms", 25)
    assert cell(t, "qps=1", "itl", "max")["value"] == 1722.10
    assert cell(t, "qps=1", "itl", "p95")["value"] == 36.35
    assert cell(t, "qps=4", "total_token_throughput", "value")["value"] == 1290.29
    assert cell(t, "qps=4", "concurrency", "mean")["value"] == 52.17
    assert t["max_concurrency"].isna().all()  # "not set": no cap, NaN, not 0
    assert set(t["request_rate"]) == {1.0, 4.0}
    assert set(t["num_prompts"]) == {300}


def test_block_without_closing_row_is_read_and_reported():
    p = parsed(BBUF)
    second = p.table[p.table["run"] == "qps=1 #2"]  # the second run under `#### qps=1`, at the same load
    assert len(second) == 20
    assert cell(p.table, "qps=1 #2", "itl", "max")["line"] == 65
    assert len(p.messages) == 1 and "no closing row" in p.messages[0] and ":39:" in p.messages[0]


def test_jiewcc_newer_rows_and_command_settings():
    t = parsed(JIEWCC).table
    run = "c=64, rate=20"  # named by its settings, not its place in the file
    assert cell(t, run, "peak_output_throughput", "max")["value"] == 1236.00
    assert cell(t, run, "peak_concurrent_requests", "max")["value"] == 72
    assert cell(t, run, "tpot", "p99")["value"] == 31.67
    assert cell(t, run, "total_input_vision_tokens", "count")["value"] == 0
    first = t[t["run"] == run]
    assert set(first["dataset"]) == {"sharegpt"} and set(first["num_prompts"]) == {100}
    second = t[t["run"] == "c=64, rate=inf"]
    assert math.isinf(second["request_rate"].iat[0]) and set(second["max_concurrency"]) == {64}


def test_yaml_command_one_option_per_line_gives_the_server_settings():
    # issue 23896 writes `sglang serve` in a YAML `command:` block, one option per line, no backslash
    t = parsed(ISSUE23896).table
    b = t[t["run"] == "Config B (TP4 Low-Latency) raw output"]
    assert set(b["model"]) == {"DeepSeek-V4-Flash-FP8"}  # ~/.cache/... folder: its name is the model
    assert set(b["metadata"]) == {"backend=sglang; tp=4; speculative=EAGLE"}  # --speculative-algo, abbreviated
    assert cell(t, "Config B (TP4 Low-Latency) raw output", "spec_decode_acceptance_length", "value")["value"] == 2.86
    a = t[t["run"] == "Config A (TP4+DP4+DeepEP Balanced) raw output"]
    assert a["model"].isna().all()  # no command of its own: only its Accept length row tells its server
    assert set(a["metadata"]) == {"backend=sglang; speculative=method not named"}
    assert cell(t, "Config A (TP4+DP4+DeepEP Balanced) raw output", "itl", "max")["value"] == 52277.16
    p = parsed(PR5390)
    meta = "backend=sglang; tp=8; dp=8; dp_attention=yes; random_input_len=1000; random_output_len=1000"
    assert set(p.table["metadata"]) == {meta}  # one shell line: DP inside TP; the workload the client asks


def test_a_block_with_accept_length_and_one_without_are_two_servers():
    # no command in the file: the NVFP4 block prints `Accept length: 3.21`, the block above it none
    t = parsed(NVFP4).table
    assert t.drop_duplicates("run").set_index("run")["metadata"].to_dict() == {
        "c=512, rate=inf": "backend=sglang-oai",
        "NVFP4 Results": "backend=sglang-oai; speculative=method not named",
    }
    assert cell(t, "NVFP4 Results", "peak_output_throughput", "max")["value"] == 770.00
    assert cell(t, "c=512, rate=inf", "peak_concurrent_requests", "max")["value"] == 517


def test_old_jsonl_sweep():
    t = parsed(DATACRUNCH).table
    assert sorted(set(t["request_rate"])) == [1.0, 2.0, 4.0, 8.0, 16.0]
    row = cell(t, "json line 5", "output_throughput", "value")
    assert (row["value"], row["line"], row["dataset"]) == (4288.049348197696, 5, "random")
    assert cell(t, "json line 1", "ttft", "median")["value"] == 85.74514742940664
    assert cell(t, "json line 7", "total_generated_tokens", "count")["value"] == 461874
    assert t["max_concurrency"].isna().all()
    assert "random_input_len=1024" in t["metadata"].iat[0]


def test_bare_infinity_request_rate():
    t = parsed(DLORA).table
    assert t["request_rate"].map(math.isinf).all()
    assert cell(t, "json line 2", "duration", "value")["value"] == 0.10003678710199893


def test_july_2024_short_keys():
    t = parsed(PR685).table
    assert cell(t, "json line 2", "output_throughput", "value")["value"] == 344.5204016475801
    assert cell(t, "json line 1", "ttft", "median")["unit"] == "ms"
    assert cell(t, "json line 1", "total_input_tokens", "count")["value"] == 14688
    assert set(t["request_rate"]) == {1.0, 2.0}


#: Synthetic: one object with the keys python/sglang/bench_serving.py writes in 2025-26 (values made up).
NEWEST = {
    "tag": "c16",
    "backend": "sglang-oai",
    "dataset_name": "random",
    "request_rate": float("inf"),
    "max_concurrency": 16,
    "sharegpt_output_len": None,
    "random_input_len": 1024,
    "random_output_len": 512,
    "random_range_ratio": 1.0,
    "server_info": {"model_path": "Qwen/Qwen3-8B", "tp_size": 1},
    "duration": 20.5,
    "completed": 100,
    "total_input_tokens": 102400,
    "total_output_tokens": 51200,
    "total_output_tokens_retokenized": 51190,
    "request_throughput": 4.88,
    "total_throughput": 7492.68,
    "mean_e2e_latency_ms": 3200.0,
    "p90_e2e_latency_ms": 3900.0,
    "std_ttft_ms": 12.5,
    "p75_itl_ms": 9.0,
    "accept_length": None,
    "max_output_tokens_per_s": 3100.0,
    "max_concurrent_requests": 16,
    "itls": [[1.0]],
}


def test_newest_jsonl_keys():
    text = json.dumps(NEWEST) + "\n"
    p = s.parse(text, "new.jsonl")
    t = p.table
    assert set(t["run"]) == {"c16"} and set(t["model"]) == {"Qwen/Qwen3-8B"}
    assert set(t["max_concurrency"]) == {16}
    assert cell(t, "c16", "e2el", "p90")["value"] == 3900.0
    assert cell(t, "c16", "total_token_throughput", "value")["value"] == 7492.68
    assert cell(t, "c16", "peak_output_throughput", "max")["value"] == 3100.0
    acc = cell(t, "c16", "spec_decode_acceptance_length", "value")
    assert math.isnan(acc["value"]) and acc["note"] == "source wrote null"
    assert cell(t, "c16", "itl", "p75")["value"] == 9.0 and len(p.rejected) == 0  # every rank kept
    assert any("itls" in m for m in p.messages)
    assert p.cells_read == len(t)


def test_serving_contract_is_shared_with_vllm():
    tools = ingest.tools()
    assert ingest.SERVING_TOOLS[:2] == ("vllm-bench-serve", "sglang-bench-serving")
    assert tools[TOOL].settings == tools["vllm-bench-serve"].settings
    vllm_units = {m: d.split(":")[0] for m, d in vllm_serve.METRICS.items()}
    units = {m: d.split(":")[0] for m, d in s.METRICS.items()}
    assert {m: units[m] for m in units if m in vllm_units} == {m: vllm_units[m] for m in units if m in vllm_units}
    t = pd.concat([parsed(p).table for p in ALL])
    for metric, unit in t.groupby("metric")["unit"].first().items():
        assert units[metric] == unit, metric
    assert {"request_throughput", "output_throughput", "ttft", "tpot", "itl", "e2el", "completed"} <= set(t["metric"])


def test_vllm_parser_leaves_sglang_alone_and_back():
    for path in ALL:
        assert not vllm_serve.sniff(path.read_text(encoding="utf-8"))
    for path in (config.FIXTURES_DIR / "vllm-bench-serve").rglob("*"):
        if path.is_file() and path.name != "README.md":
            assert not s.sniff(path.read_text(encoding="utf-8")), path.name


def test_cli_writes_the_printed_numbers(tmp_path):
    from typer.testing import CliRunner

    from benchbook.cli import app

    out = tmp_path / "out.csv"
    res = CliRunner().invoke(app, ["ingest", str(JIEWCC), "-o", str(out)])
    assert res.exit_code == 0, res.output
    df = pd.read_csv(out)
    assert 16299.52 in set(df["value"]) and set(df["tool"]) == {TOOL}


@pytest.mark.parametrize(
    "text",
    [
        "",
        "{",
        '{"duration": 1}\n',
        '{"backend": "sglang", "median_ttft_ms": 1, "duration": 1, "completed": 1}\nnot json\n',
        "============ Serving Benchmark Result ============\nBackend:   sglang\nSuccessful requests:   many\n",
        "no result here\n",
    ],
)
def test_bad_input_raises_parse_error(text):
    with pytest.raises(ParseError):
        s.parse(text, "bad.txt")


def test_an_unknown_row_is_rejected_with_reason_and_p75_kept():
    text = (
        "============ Serving Benchmark Result ============\nBackend:    sglang\nSuccessful requests:  5\n"
        "P75 TTFT (ms):   3.0\nP100 TTFT (ms):   4.0\nWarp factor (x):   9\n" + "=" * 50 + "\n"
    )
    p = s.parse(text, "x.txt")
    assert len(p.table) == 2 and p.cells_read == 4 and set(p.table["statistic"]) == {"count", "p75"}
    assert [r.split(" (")[0] for r in p.rejected["reason"]] == [
        "percentile P100 is no rank between 0 and 100",
        "a row this parser has no tidy name for",
    ]


_BLOCK = """============ Serving Benchmark Result ============
Backend:                                 sglang
Traffic request rate:                    inf
Max request concurrency:                 8
Successful requests:                     16
Benchmark duration (s):                  10.00
Request throughput (req/s):              1.60
==================================================
"""


def test_a_lone_block_takes_its_command_from_below_with_shell_variables_resolved():
    script = 'MODEL_NAME="Kimi-K2.6"\nN=16\npython3 -m sglang.bench_serving --model $MODEL_NAME --num-prompts ${N} \\\n  --dataset-name random\n'
    t = s.parse(_BLOCK + script, "below.md").table
    assert set(t["model"]) == {"Kimi-K2.6"} and set(t["num_prompts"]) == {16.0} and set(t["dataset"]) == {"random"}


def test_a_command_below_one_of_several_blocks_is_the_next_blocks_not_this_ones():
    cmd = "python3 -m sglang.bench_serving --model other/model\n"
    t = s.parse(
        _BLOCK + cmd + _BLOCK.replace("concurrency:                 8", "concurrency:                 16"), "two.md"
    ).table
    first = t[t["max_concurrency"] == 8]
    assert first["model"].isna().all()  # the command between the blocks belongs to the second
    assert set(t.loc[t["max_concurrency"] == 16, "model"]) == {"other/model"}


def test_a_launch_in_a_subsection_of_the_launch_section_is_an_option_not_the_blocks_server():
    launch = "python3 -m sglang.launch_server --model m --tp 8{}\n"
    head = "# Guide\n\n## Launch\n\n" + launch.format("")
    option = "\n### EAGLE\n\n" + launch.format(" --speculative-algorithm EAGLE")
    lines = (head + option + "\n## Benchmark\n\npython3 -m sglang.bench_serving --model m\n").splitlines()
    assert _server_meta(lines) == "tp=8"
    # the other way: a launch in a section of its own (same level) is the nearest server above the block
    lines = (head + option.replace("### EAGLE", "## EAGLE") + "\n## Benchmark\n\n").splitlines()
    assert _server_meta(lines) == "tp=8; speculative=EAGLE"


def _server_meta(lines):
    ctx = s._context(lines, 0, len(lines))
    return s._with_server(ctx, ctx.pop("server"))["metadata"]


def _cookbook(caps, launches=("python3 -m sglang.launch_server --model m --tp 4\n",)):
    """A guide's test environment, its launch command(s) and one bench_serving block per cap, each
    under a heading of its own, as the SGLang cookbook pages lay them out."""
    text = "## 5. Benchmark\n\n" + "".join(launches)
    for i, c in enumerate(caps):
        block = _BLOCK.replace(
            "Max request concurrency:                 8", f"Max request concurrency:                 {c}"
        )
        text += (
            f"\n### 5.1.{i + 1} Load {c}\n\npython3 -m sglang.bench_serving --model m --max-concurrency {c}\n\n" + block
        )
    return text


def test_a_launch_command_serves_every_block_after_it_in_its_part_of_the_text():
    # the cookbook: one launch, then a block per load: every block ran against that server (one series)
    t = s.parse(_cookbook([1, 16, 100]), "cookbook.md").table
    assert t.groupby("run")["metadata"].first().tolist() == ["backend=sglang; tp=4"] * 3
    # the other way: a text that launches two servers before its results does not say which served a
    # later block (issue 23896's `Config A` / `Config B`), nor, where they span different device counts (16 and
    # 4), which served the block right under them (`context.alternatives`): no block takes either's sizes
    two = (
        "python3 -m sglang.launch_server --model m --tp 4 --dp 4\n",
        "python3 -m sglang.launch_server --model m --tp 4\n",
    )
    t = s.parse(_cookbook([1, 16], two), "configs.md").table
    meta = t.groupby("run")["metadata"].first()
    assert not meta.astype(str).str.contains("tp=").any()
    # launches that agree on the count (TP 4 and DP 4 on 4 devices each): the block right under them takes the
    # nearer one's, the later block none
    same = ("python3 -m sglang.launch_server --model m --dp 4\n", "python3 -m sglang.launch_server --model m --tp 4\n")
    meta = s.parse(_cookbook([1, 16], same), "configs.md").table.groupby("run")["metadata"].first()
    assert (meta == "backend=sglang; tp=4").sum() == 1


def test_the_self_contained_script_run_as_python_gives_the_command_settings():
    cmd = "python bench_serving.py --backend vllm --model m8 \\\n  --num-prompts 20 --dataset-name random\n"
    t = s.parse(cmd + _BLOCK, "script.md").table
    assert set(t["num_prompts"]) == {20.0} and set(t["model"]) == {"m8"}


def test_prose_that_names_the_script_is_no_command():
    prose = "A copy of v0.4.0's version lives at `bench_serving.py` in this repo, e.g. --num-prompts 20.\n"
    t = s.parse(prose + _BLOCK, "prose.md").table
    assert t["num_prompts"].isna().all()


def _sglang_block(banner: str, done: int) -> str:
    return (
        f"============ Serving Benchmark Result{banner} ============\n"
        "Backend:                                 sglang\n"
        "Traffic request rate:                    inf\n"
        f"Successful requests:                     {done}\n"
        "Benchmark duration (s):                  10.00\n"
        "==================================================\n"
    )


def test_a_renamed_banner_names_the_run_and_a_plain_one_leaves_the_heading():
    from benchbook.ingest import sglang_serving

    text = "## sweep\n" + _sglang_block(" (c=64)", 64) + "\n## baseline\n" + _sglang_block("", 32)
    t = sglang_serving.parse(text, "s.md").table
    assert cell(t, "c=64", "completed", "count")["value"] == 64
    assert cell(t, "baseline", "completed", "count")["value"] == 32


def test_the_workload_the_command_asks_for_is_kept_with_the_run():
    """`--random-input-len 3500 --random-output-len 1500` on the bench_serving command: the run's
    workload, in its metadata as SGLang's JSON result records it (`random_input_len=3500`)."""
    p = ingest.read(
        config.FIXTURES_DIR / "sglang-bench-serving" / "gb200x4_hw_line_qwen3_30b_a3b_nvfp4_base_vs_pr_two_workloads.md"
    )
    meta = p.groupby("run", sort=False)["metadata"].first()
    assert "random_input_len=3500; random_output_len=1500" in meta["Baseline"]
    assert "random_input_len=100; random_output_len=100" in meta["baseline"]


def test_sgl_jax_copy_of_the_benchmark_gives_its_prompts():
    # sgl-project/sglang-jax#183: `python3 -m sgl_jax.bench_serving ... --num-prompts 500`, tab-indented
    path = FIX / "sglang_jax_issue183_tpu_v6e1_vllm_backend_392_of_500_cut.md"
    text = path.read_text(encoding="utf-8")
    t = s.parse(text, path.name).table
    assert set(t["num_prompts"]) == {500.0}
    # another module of that name is no command of this benchmark: its options are not the run's
    other = s.parse(text.replace("sgl_jax.bench_serving", "sgl_jax.bench_other"), path.name).table
    assert other["num_prompts"].isna().all()


def _rated_block(rate: str, rows: str = "") -> str:
    return (
        "============ Serving Benchmark Result ============\n"
        "Backend:                                 sglang\n"
        f"Traffic request rate:                    {rate}\n"
        "Successful requests:                     90\n"
        "Benchmark duration (s):                  10.00\n"
        f"{rows}"
        "==================================================\n"
    )


def test_a_banner_quoted_in_markdown_is_read_with_its_rows_quoted_or_not():
    lazy = "> " + _rated_block("inf")  # markdown's lazy continuation: the rows below go on unquoted
    every = "".join("> " + line + "\n" for line in _rated_block("inf").splitlines())
    for text in (lazy, every):
        assert s.sniff(text)
        t = s.parse(text, "q.md").table
        assert t.loc[t["metric"] == "completed", "value"].tolist() == [90]
    # a `>` that is no quote marker (a shell prompt's `$ >` before the banner) leaves the block unread
    assert not s.sniff("$ >" + _rated_block("inf"))


def test_a_block_without_its_banner_is_read_when_it_holds_a_row_only_sglang_prints():
    rows = (
        "Total generated tokens (retokenized):    24859\n"
        "Request throughput (req/s):              0.85\n"
        "Mean E2E Latency (ms):                   56360.43\n"
        "==================================================\n"
    )
    parsed_ = s.parse("```shell\n" + rows, "headless.md")
    t = parsed_.table
    assert t.loc[t["metric"] == "request_throughput", "value"].tolist() == [0.85]
    assert set(t["format"]) == {s.HEADLESS} and "no banner" in parsed_.messages[0]
    # its absent rows are not said absent from the print: the format carries none
    assert ingest.carries(TOOL, s.HEADLESS, "request_rate") is False
    # the same rows as vLLM prints them (no retokenized count, `E2EL`): vLLM's block, not SGLang's
    vllm_rows = "Request throughput (req/s):              0.85\nMean E2EL (ms):    56360.43\n" + "=" * 50 + "\n"
    assert not s.sniff("```shell\n" + vllm_rows)
    # under a banner, the rows are that block's (one without a Backend row is none of SGLang's): no banner is missing
    assert not s.sniff("============ Serving Benchmark Result ============\n" + rows)


def test_a_command_asking_another_rate_than_the_block_prints_is_not_the_blocks():
    cmd = "python3 -m sglang.bench_serving --backend sglang --num-prompts 100 --request-rate {}\n"
    same = s.parse(cmd.format(8) + _rated_block("8.0"), "same.md")
    assert set(same.table["num_prompts"]) == {100.0}
    other = s.parse(cmd.format(24) + _rated_block("8.0"), "other.md")
    assert other.table["num_prompts"].isna().all()
    assert any("asks 24" in m for m in other.messages)


_CUT_BLOCK = """============ Serving Benchmark Result ============
Backend:                                 sglang
Traffic request rate:                    inf
Max request concurrency:                 8
Successful requests:                     200
Benchmark duration (s):                  202.64
"""


@pytest.mark.parametrize(
    "last,read",
    [
        ("Request throughput (req/s):              0", False),  # cut inside its number: .2f prints 0.99
        ("Request throughput (req/s):              0.9", False),
        ("Request throughput (req/s):              0.99", True),  # whole as the tool prints it
        ("Total generated tokens:                  53590", True),  # a count prints as an integer
        ("Mean TTFT (ms):                          nan", True),
    ],
)
def test_the_copys_last_line_is_read_only_if_whole_as_the_tool_prints_it(last, read):
    p = s.parse(_CUT_BLOCK + last + "\n", "cut.md")
    assert p.cells_read == len(p.table) + len(p.rejected)
    label = last.split(":")[0]
    kept = p.table[p.table["line"] == 7]
    assert (len(kept) == 1) is read, label
    if not read:
        assert p.rejected.iloc[0]["line"] == 7 and "cut where the copy ends" in p.rejected.iloc[0]["reason"]
        assert any("line 7 not" in m for m in p.messages)


def test_a_short_value_above_the_copys_last_line_is_the_tools_own():
    # the same short value on a line that is not the file's last is whole: a closing row follows
    p = s.parse(_CUT_BLOCK + "Request throughput (req/s):              0\n" + "=" * 50 + "\n", "whole.md")
    assert cell(p.table, p.table["run"].iloc[0], "request_throughput", "value")["value"] == 0


@pytest.mark.parametrize(
    "command,prompts",
    [
        ("python3 -m sglang.bench_serving --backend sglang --max-concurrency 8\n", 1000),  # its default
        ("python3 -m sglang.bench_serving --backend sglang --num-prompt 200\n", 200),  # argparse's prefix
        ("- Tool: `python3 -m sglang.bench_serving`\n", None),  # prose naming the module, no option
    ],
)
def test_a_bench_command_without_num_prompts_sent_the_tools_default(command, prompts):
    got = s.parse(command + _CUT_BLOCK + "=" * 50 + "\n", "x.md").table["num_prompts"].iat[0]
    assert math.isnan(got) if prompts is None else got == prompts, got


@pytest.mark.parametrize(
    "tail,cut",
    [
        ("---------------Time to First Token----------------\nMean TTFT (ms):\n", True),  # a label, no value
        ("-----Ti\n", True),  # a section header cut before its closing dashes (sglang PR 15912)
        ("The run above used the default settings.\n", False),  # prose after a block pasted without its close
        ("Input tok\n", True),  # a row's label cut before its colon (sglang PR 14782's last line, `Requ`)
        ("Results\n", False),  # a word that starts no row label of the block
        # a whole row, last of the copy, before the TTFT section every version prints (sglang issue 15825)
        ("", True),
        # a whole row inside the TTFT section: the ITL section and the closing row still follow (sglang PR 905)
        ("---------------Time to First Token----------------\nMean TTFT (ms):                          12.34\n", True),
        # the other way: a whole row in the ITL section the tool prints last, the closing row left out: whole
        ("---------------Inter-Token Latency----------------\nMean ITL (ms):                           12.34\n", False),
        # a section header cut inside its leading dashes, right under the last row (sglang issue 913)
        ("-------\n", True),
        # the other way: a markdown rule set apart from the block by a blank line is no header
        ("\n-------\n", False),
    ],
)
def test_a_copy_that_ends_in_a_row_or_header_cut_short_ends_inside_the_block(tail, cut):
    # real: sglang PRs 33030 (`Mean TTFT (ms):`) and 15912 (`-----Ti`), each the issue index's last line
    p = s.parse(_CUT_BLOCK + "Request throughput (req/s):              0.99\n" + tail, "tail.md")
    assert p.cells_read == len(p.table) + len(p.rejected)
    ends = p.rejected[p.rejected["reason"].str.startswith("cut where the copy ends")]
    assert (len(ends) == 1) is cut
    if cut:
        assert ends.iloc[0]["line"] == 7 + tail.count("\n")
        assert any("the copy ends inside the result block" in m for m in p.messages)


def test_a_caption_above_a_block_names_it_nearer_than_the_threads_title():
    # real: sglang PR 8552 heads its block `CUTLASS MoE perf:`, the path the PR's new kernels are set against
    text = (
        "# [NVIDIA] Add Low Latency NVFP4 decode kernels from Flashinfer\n\nCUTLASS MoE perf:\n\n```\n"
        + _BLOCK
        + "```\n"
    )
    assert set(s.parse(text, "caption.md").table["run"]) == {"CUTLASS MoE perf"}
    # the other way: with no caption (a sentence of more than three words) the run is named by its load,
    # never by the document's title (`headings.names`)
    text = text.replace("CUTLASS MoE perf:", "Here are the numbers we measured on the node:")
    assert set(s.parse(text, "title.md").table["run"]) == {"c=8, rate=inf"}


def test_output_file_lines_after_the_scripts_own_lines_are_read_and_a_cut_one_named():
    # real: sglang issue 12389 (`max_prefill:...` echoed above each record) and 9585 (the record cut short)
    obj = '{"backend": "sglang", "completed": 300, "total_output_tokens": 3, "total_output_tokens_retokenized": 3}'
    p = s.parse("max_prefill:8192,max_running_requests:64\n" + obj + "\n", "echo.txt")
    assert set(p.table["metric"]) >= {"completed"}
    assert any("with no JSON object" in m for m in p.messages)
    with pytest.raises(ParseError) as e:
        s.parse("root@host:~# cat tmp.out\n" + obj[:-3] + "\n", "cut.txt")
    assert e.value.line == 2
    # the other way: a result banner in the text is a console paste, never --output-file lines
    assert not s._is_jsonl("============ Serving Benchmark Result ============\n" + obj + "\n")


def test_a_banner_that_lost_its_rules_still_heads_a_block_with_its_backend_row():
    # real: sglang PRs 31659 and 31880 hold ` Serving Benchmark Result` without its `=` runs
    bare = _CUT_BLOCK.replace("============ Serving Benchmark Result ============", " Serving Benchmark Result")
    p = s.parse(bare + "Request throughput (req/s):              0.99\n" + "=" * 50 + "\n", "bare.md")
    assert set(p.table["metric"]) >= {"completed", "duration", "request_throughput"}
    # the other way: the words alone, with no Backend row under them, head no block
    assert not s.sniff(" Serving Benchmark Result\nSuccessful requests:                     200\n")
    # and a banner with a rule on one side only is no banner of the tool's
    assert not s.HEADER_RE.match("Serving Benchmark Result ====")


def test_a_copy_from_inside_the_e2e_section_is_sglangs_block_without_banner():
    # real: sglang PR 30047's comment chunk starts at `P95 E2E Latency`, above a CI test's [METRIC] lines
    tail = (
        "P95 E2E Latency (ms):                    46912.26  \n"
        "P99 E2E Latency (ms):                    49681.91  \n"
        "---------------Time to First Token----------------\n"
        "Mean TTFT (ms):                          18206.82  \n"
        "==================================================\n"
        '[METRIC] tpot=24.51 labels={"test_case": "x", "type": "perf"}\n'
    )
    p = s.parse("# title\n\n" + tail, "tail.md")
    assert set(p.table["format"]) == {s.HEADLESS} and {"e2el", "ttft"} <= set(p.table["metric"])
    # the other way: vLLM names that latency E2EL, and its rows alone make no SGLang block
    assert not s.sniff(tail.replace("E2E Latency", "E2EL"))


def test_a_copy_from_the_backend_row_without_banner_is_read_with_its_load():
    # LMCache PR 912 pasted the block from its `Backend:` row, no banner and no closing row: the rows
    # are SGLang's (Backend then Traffic request rate: only its block prints them under the banner)
    rows = _BLOCK.splitlines()[1:-1]  # from `Backend:` to the last row, the banner and the `=` rule left out
    t = s.parse("# results of CPU offload only\n```\n" + "\n".join(rows) + "\n", "copy.md").table
    assert set(t["max_concurrency"]) == {8} and set(t["format"]) == {"text"}
    assert cell(t, t["run"].iat[0], "completed", "count")["value"] == 16
    # the other way: the same rows under their banner are one block, not two
    assert s.parse(_BLOCK, "whole.md").table["run"].nunique() == 1
    # and rows without the `Backend:` / `Traffic request rate:` pair (vLLM's block has neither) are not claimed
    vllm = "\n".join(r for r in rows if not r.startswith(("Backend", "Traffic request rate")))
    assert not s.sniff(vllm)
