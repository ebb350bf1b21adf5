"""vllm-bench-offline parser: real `vllm bench throughput/latency` outputs of two eras, JSON, bad input."""

from __future__ import annotations

import pandas as pd
import pytest

from benchbook import config, ingest
from benchbook.ingest import ParseError
from benchbook.ingest import vllm_offline as v

FIX = config.FIXTURES_DIR / "vllm-bench-offline"
TOOL = "vllm-bench-offline"
ROCM = FIX / "young_tw_llama31_70b_rocm.md"
PR = FIX / "vllm_pr8914_before_after.md"
#: vLLM 0.5.3 notes: two latency runs, the second with --kv-cache-dtype 'fp8' (the first has it commented out).
KV = FIX / "wjb_llama3_8b_latency_fp8kv_and_throughput.md"


def parsed(path):
    return ingest.read_parsed(path, tool=TOOL)[0]


def cell(df, metric, statistic, **where):
    hit = df[(df["metric"] == metric) & (df["statistic"] == statistic)]
    for k, val in where.items():
        hit = hit[hit[k] == val]
    assert len(hit) == 1, (metric, statistic, where, len(hit))
    return hit.iloc[0]


def test_detected_and_no_other_tool_claims_them():
    for path in (ROCM, PR):
        assert ingest.detect(path.read_text(encoding="utf-8")) == [TOOL]


def test_rocm_throughput_values_lines_and_settings():
    t = parsed(ROCM).table
    thr = t[t["benchmark"] == "throughput"]
    assert cell(thr, "request_throughput", "value")["value"] == 5.35
    assert cell(thr, "total_token_throughput", "value")["value"] == 2735.50
    row = cell(thr, "throughput", "value")
    assert (row["value"], row["unit"], row["line"]) == (1369.41, "tok/s", 16)
    assert cell(thr, "total_input_tokens", "count")["line"] == 17
    assert cell(thr, "total_generated_tokens", "count")["value"] == 256000
    assert set(thr["model"]) == {"meta-llama/Llama-3.1-70B-Instruct"}
    assert (thr["input_len"] == 256).all() and (thr["output_len"] == 256).all()
    assert (thr["num_prompts"] == 1000).all() and (thr["tensor_parallel"] == 1).all()
    assert thr["batch_size"].isna().all()  # not a throughput-benchmark option
    assert set(thr["run"]) == {"測試一：Llama3.1-70B-Instruct 模型在 ROCm 環境下的吞吐量"}


def test_rocm_latency_statistics_and_rejected_percentiles():
    p = parsed(ROCM)
    lat = p.table[p.table["benchmark"] == "latency"]
    assert cell(lat, "latency", "mean")["value"] == 5.2564156893700105
    assert cell(lat, "latency", "p50")["value"] == 5.258143185500103
    assert cell(lat, "latency", "p99")["line"] == 41
    assert set(lat["unit"]) == {"s"}
    assert (lat["batch_size"] == 8).all() and (lat["output_len"] == 128).all()
    assert len(p.rejected) == 0 and list(lat[lat["statistic"].isin(["p10", "p25", "p75"])]["line"]) == [36, 37, 39]
    assert p.cells_read == len(p.table) + len(p.rejected) == 12


def test_old_two_value_line_is_total_tokens_with_a_note():
    p = parsed(PR)
    t = p.table
    before = t[t["line"] == 5]
    assert set(before["metric"]) == {"request_throughput", "total_token_throughput"}
    old = cell(before, "total_token_throughput", "value")
    assert old["value"] == 20926.37 and "prompt + output" in old["note"]
    after = t[t["line"] == 10]
    assert cell(after, "throughput", "value")["value"] == 11426.69
    assert pd.isna(cell(after, "total_token_throughput", "value")["note"])
    assert set(t["run"]) == {"throughput 1", "throughput 2"}
    assert p.cells_read == 5


def test_quantization_and_kv_cache_dtype_from_the_command_line_not_from_a_comment():
    t = parsed(KV).table
    first, second = cell(t, "latency", "mean", line=3), cell(t, "latency", "mean", line=12)
    assert (first["value"], second["value"]) == (1.5671795869944618, 2.3462807028670793)
    assert pd.isna(first["kv_cache_dtype"]) and second["kv_cache_dtype"] == "fp8"  # `# --kv-cache-dtype` is a comment
    assert set(t["dtype"].dropna()) == {"bfloat16"}
    old = cell(t, "total_token_throughput", "value")
    assert old["value"] == 11970.13 and "prompt + output" in old["note"]
    q = parsed(FIX / "vllm_docs_torchao_int8wo_latency.md").table
    assert set(q["quantization"]) == {"torchao"} and set(q["model"]) == {"jerryzh168/llama3-8b-int8wo"}


def test_json_throughput_and_latency():
    thr = parsed(FIX / "synthetic_throughput_output.json")
    assert cell(thr.table, "request_throughput", "value")["value"] == 80.0
    assert cell(thr.table, "duration", "value")["unit"] == "s"
    assert cell(thr.table, "completed", "count")["line"] == 3
    lat = parsed(FIX / "synthetic_latency_output.json")
    assert cell(lat.table, "latency", "mean")["value"] == 1.514
    assert cell(lat.table, "latency", "p90")["value"] == 1.538
    assert len(lat.rejected) == 0 and {"p10", "p25", "p75"} <= set(lat.table["statistic"])
    assert any("5 per-iteration latencies" in m for m in lat.messages)
    assert lat.cells_read == len(lat.table) + len(lat.rejected) == 7


def test_latency_percentiles_without_avg_line_start_a_run():
    text = "10% percentile latency: 1.5 seconds\n50% percentile latency: 1.6 seconds\nAvg latency: 2.0 seconds\n"
    p = v.parse(text, "x.txt")
    assert sorted(set(p.table["run"])) == ["latency 1", "latency 2"]
    assert cell(p.table, "latency", "mean")["run"] == "latency 2"


def test_a_repeated_statistic_is_a_new_run_not_a_conflict():
    text = "Avg latency: 1.0 seconds\n50% percentile latency: 1.1 seconds\n50% percentile latency: 1.2 seconds\n"
    p = v.parse(text, "x.txt")
    assert len(p.rejected) == 0 and len(p.table) == 3


def test_cli_writes_the_printed_numbers(tmp_path):
    from typer.testing import CliRunner

    from benchbook.cli import app

    out = tmp_path / "out.csv"
    res = CliRunner().invoke(app, ["ingest", str(ROCM), "-o", str(out)])
    assert res.exit_code == 0, res.output
    df = pd.read_csv(out)
    assert 1369.41 in set(df["value"]) and 16 in set(df["line"])
    assert set(df["tool"]) == {TOOL}


@pytest.mark.parametrize(
    "text",
    [
        "",
        "hello\n",
        "{",
        "[1, 2]",
        '{"foo": 1}',
        "Throughput: requests/s\n",
    ],
)
def test_bad_input_raises_parse_error(text):
    with pytest.raises(ParseError):
        v.parse(text, "bad.txt")


def test_text_value_in_json_is_rejected_not_kept():
    p = v.parse('{"avg_latency": "fast", "percentiles": {"50": 1.0}}', "x.json")
    assert list(p.rejected["reason"]) == ["expected a number"]
    assert p.cells_read == 2


def test_run_on_your_data_names_the_new_formats():
    page = (config.BOOK_DIR / "run_on_your_data.md").read_text(encoding="utf-8")
    for needle in ("vllm bench throughput", "vllm bench latency", "sglang.bench_serving", "aiperf profile"):
        assert needle in page, needle
    for tool in ("vllm-bench-offline", "sglang-bench-serving", "aiperf"):
        assert f"`{tool}`" in page, tool


_REPEATS = """**qwen3-0.6B**

```bash
vllm bench throughput --model Qwen/Qwen3-0.6B --input-len 256 --output-len 128 \\
  --tensor-parallel-size 4
```

```bash
# 第一次
Throughput: 1.84 requests/s, 2124.55 total tokens/s, 236.06 output tokens/s
# 第二次
Throughput: 2.13 requests/s, 2458.73 total tokens/s, 273.19 output tokens/s
```

{caption}

```bash
# 第一次
Throughput: 1.64 requests/s, 1887.75 total tokens/s, 209.75 output tokens/s
```
"""


def test_repeat_labels_name_repeats_of_the_configuration_above_them():
    """`# 第一次 / # 第二次` (the first / second time) under one command are repeats of it: each keeps
    the command's settings and is labelled by the bold caption above it, never set aside as runs of
    one label with different values; a caption writing a flag (`--tensor-parallel-size=1 结果：`)
    changes that setting for the block under it."""
    p = v.parse(_REPEATS.format(caption="--tensor-parallel-size=1 结果："), "x.md")
    t = p.table[p.table["metric"] == "request_throughput"]
    assert list(t["run"]) == [
        "qwen3-0.6B 第一次",
        "qwen3-0.6B 第二次",
        "qwen3-0.6B (--tensor-parallel-size=1) 第一次",
    ]
    assert list(t["tensor_parallel"]) == [4.0, 4.0, 1.0] and set(t["model"]) == {"Qwen/Qwen3-0.6B"}
    assert len(p.rejected) == 0
    # a block in another fence under a caption that changes nothing takes no setting from the command
    other = v.parse(_REPEATS.format(caption="Results on the other server:"), "x.md").table
    last = other[other["metric"] == "request_throughput"].iloc[-1]
    assert pd.isna(last["model"]) and pd.isna(last["tensor_parallel"])
    # a label that names a configuration is kept as written
    named = v.parse(_REPEATS.replace("# 第二次", "# eager mode").format(caption=""), "x.md").table
    assert "eager mode" in set(named["run"])


@pytest.mark.parametrize(
    ("label", "repeat"),
    [("第一次", True), ("第 3 次", True), ("run 2", True), ("Repeat 3:", True), ("2nd run", True)],
)
def test_a_label_counting_runs_is_a_repeat_label(label, repeat):
    from benchbook.ingest.text import repeat_label

    assert repeat_label(label) is repeat
    assert repeat_label(f"{label} with fp8 weights") is False  # a label that names something more


def test_a_label_naming_a_run_is_no_repeat_label():
    from benchbook.ingest.text import repeat_label

    for label in ("rate=2, run 1", "Run on H100", "第一次测试 TP4", "throughput 1", "", None):
        assert repeat_label(label) is False


BAR = FIX / "vllm_issue25915_qwen3_8b_bf16_fp8_h100_bench_throughput_two_versions.md"


def test_the_progress_bars_speeds_at_its_end_are_a_run_whose_copy_keeps_no_throughput_line():
    # LLM.generate's tqdm postfix (vllm/entrypoints/llm.py `_run_engine`): tokens of the finished requests
    # over the bar's elapsed time; the issue quotes only these, the first without its `speed input:` label
    p = parsed(BAR)
    out = p.table[p.table["metric"] == "throughput"]
    assert list(out["value"]) == [4481.69, 4868.31, 5408.88, 5304.03]
    assert list(out["line"]) == [14, 20, 30, 36]
    assert set(out["note"]) == {v.BAR_NOTE}
    assert list(p.table[p.table["metric"] == "input_throughput"]["value"]) == [2375.11, 2783.16, 2697.18, 2794.50]
    assert list(out["model"]) == ["Qwen/Qwen3-8B", "Qwen/Qwen3-8B-FP8"] * 2
    assert set(out["output_len"]) == {2048.0}  # the command in Markdown inline code: its closing backtick is no value
    assert any("progress bar at its end (lines 14, 20, 30, 36" in m for m in p.messages)


@pytest.mark.parametrize(
    "text",
    [
        # the bar a Throughput line follows: that line is the run's result
        "Processed prompts: 100%|███| 10/10 [00:01<00:00, est. speed input: 900.00 toks/s, output: 90.00 toks/s]\n"
        "Throughput: 9.50 requests/s, 950.00 total tokens/s, 85.00 output tokens/s\n",
        # a bar's earlier state followed by its last
        "Processed prompts:  90%|█  | 9/10 [00:01<00:00, est. speed input: 800.00 toks/s, output: 80.00 toks/s]\n"
        "Processed prompts: 100%|███| 10/10 [00:01<00:00, est. speed input: 900.00 toks/s, output: 90.00 toks/s]\n",
    ],
)
def test_a_bar_before_its_end_or_followed_by_its_throughput_line_is_no_result(text):
    p = v.parse(text, "x.log")
    assert 80.0 not in set(p.table["value"])
    bar = p.table[p.table["note"] == v.BAR_NOTE]
    assert len(bar) in (0, 2)  # only the last state of a bar with no Throughput line below it
    assert (p.table["metric"] == "throughput").sum() == 1


def test_a_bar_copied_before_its_end_alone_is_no_result():
    with pytest.raises(ParseError):
        v.parse(
            "Processed prompts:  50%|█  | 5/10 [00:01<00:01, est. speed input: 800.00 toks/s, output: 80.00 toks/s]\n",
            "x",
        )


HF_AND_VLLM = """vLLM:
```
python benchmark_throughput.py --input-len 128 --model org/M --output-len 128 --backend vllm

Processed prompts: 100%|████████████| 1000/1000 [00:59<00:00, 16.94it/s]
Throughput: 16.90 requests/s, 4326.03 tokens/s
```
HF:
```
python benchmark_throughput.py --input-len 128 --model org/M --output-len 128 --backend hf --hf-max-batch-size 128

 50%|██████      | 500/1000 [00:56<00:56,  8.88it/s]
Throughput: 8.88 requests/s, 2272.90 tokens/s
```
"""


def test_the_hf_backend_runs_in_float16_and_a_finished_bar_counts_the_requests(tmp_path):
    """`--backend hf`: the throughput benchmark's `run_hf` loads the model with torch_dtype=torch.float16, so
    that run is fp16 whatever its checkpoint stores, and the vLLM run keeps no dtype of its own (stop 50,
    vllm-project/vllm#4702). A progress bar at its end (`1000/1000`) gives the requests; one cut at 50 % none."""
    f = tmp_path / "hf_and_vllm.md"
    f.write_text(HF_AND_VLLM)
    t = parsed(f).table.drop_duplicates("run")
    assert pd.isna(t.iloc[0]["dtype"]) and t.iloc[1]["dtype"] == v.HF_BACKEND_DTYPE == "float16"
    assert t.iloc[0]["num_prompts"] == 1000 and pd.isna(t.iloc[1]["num_prompts"])
