"""vllm-bench-serve parser: seed 004, real public outputs, every variant, and bad input."""

from __future__ import annotations

import json
import math

import pandas as pd
import pytest

from benchbook import config, ingest
from benchbook.ingest import ParseError, core
from benchbook.ingest import vllm_serve as v

FIX = config.FIXTURES_DIR / "vllm-bench-serve"
TOOL = "vllm-bench-serve"


def parsed(path):
    return ingest.read_parsed(path, tool=TOOL)[0]


def cell(df, run, metric, statistic):
    hit = df[(df["run"] == run) & (df["metric"] == metric) & (df["statistic"] == statistic)]
    assert len(hit) == 1, (run, metric, statistic, len(hit))
    return hit.iloc[0]


@pytest.fixture(scope="module")
def seed():
    return parsed(config.seed("004"))


def test_seed_c256_output_throughput(seed):
    row = cell(seed.table, "c=256", "output_throughput", "value")
    assert row["value"] == 3004.18
    assert row["unit"] == "tok/s"
    assert row["line"] == 605
    assert row["max_concurrency"] == 256


def test_seed_runs_and_settings(seed):
    t = seed.table
    assert sorted(t["run"].unique()) == sorted(["c=max", "c=32", "c=64", "c=128", "c=256", "c=512"])
    assert set(t["model"]) == {"shisa-ai/shisa-v2-unphi4-14b"}
    assert set(t["dataset"]) == {"sharegpt"}
    assert set(t["num_prompts"]) == {1000}
    assert all(math.isinf(x) for x in t["request_rate"])
    unc = t[t["run"] == "c=max"]
    assert unc["max_concurrency"].isna().all()  # no cap: NaN, not 0
    assert cell(t, "c=max", "ttft", "mean")["value"] == 9718.01
    assert cell(t, "c=max", "tpot", "mean")["value"] == 305.36
    assert cell(t, "c=32", "duration", "value")["value"] == 84.29
    assert cell(t, "c=32", "total_generated_tokens", "count")["value"] == 91928


def test_seed_counts_and_only_vllm_blocks(seed):
    assert seed.cells_read == len(seed.table) + len(seed.rejected) == 96
    assert seed.table["line"].min() > 395  # nothing taken from llama-bench or attention-gym above "# vLLM"
    df = ingest.read(config.seed("004"))
    assert TOOL in set(df["tool"])


def test_namespace_hard_wrapped_is_joined():
    ctx = v._context(config.seed("004").read_text().split("\n"), 440, 462)
    assert ctx["max_concurrency"] == 32 and ctx["model"] == "shisa-ai/shisa-v2-unphi4-14b"


def test_newest_text_block_dgx_spark():
    p = parsed(FIX / "dgx_spark_08_sharegpt.md")
    t = p.table
    run = t["run"].iloc[0]
    assert cell(t, run, "failed", "count")["value"] == 0
    assert cell(t, run, "e2el", "p90")["value"] == 18639.03
    assert cell(t, run, "ttft", "p50")["value"] == 148.12
    assert cell(t, run, "tpot", "p95")["value"] == 45.68
    assert cell(t, run, "total_token_throughput", "value")["value"] == 133.35  # lower-case "token"
    assert cell(t, run, "peak_concurrent_requests", "max")["value"] == 10
    assert t["request_rate"].iloc[0] == 0.3 and t["burstiness"].iloc[0] == 0.7
    assert t["num_prompts"].iloc[0] == 250 and t["dataset"].iloc[0] == "sharegpt"
    assert math.isnan(t["max_concurrency"].iloc[0])
    assert p.cells_read == len(t) + len(p.rejected)


def test_jsonl_llmd_results():
    p = parsed(FIX / "llmd_results.jsonl")
    t = p.table
    assert t["run"].nunique() == 9
    assert p.cells_read == len(t) + len(p.rejected) == 180
    inf_runs = t[t["request_rate"] == math.inf]["run"].unique()
    assert len(inf_runs) == 3  # "request_rate": "inf"
    assert t["max_concurrency"].isna().all()  # null
    g = t[t["metric"] == "request_goodput"]  # old "request_goodput:" key, null
    assert len(g) == 9 and g["value"].isna().all() and g["note"].str.contains("--goodput").all()
    r = cell(t, "json 9", "output_throughput", "value")
    assert r["value"] == pytest.approx(11011.349280220396)
    assert r["line"] == 9
    assert "deployment=kvcache" in r["metadata"]


def test_log_with_text_block_and_json_line():
    p = parsed(FIX / "llmd_readme_inf_run.md")
    t = p.table
    assert set(t["format"]) == {"text", "json"}
    txt = t[t["format"] == "text"]
    assert txt["dataset"].iloc[0] == "random" and math.isinf(txt["request_rate"].iloc[0])
    assert "deployment=base" in txt["metadata"].iloc[0]
    assert cell(t, txt["run"].iloc[0], "ttft", "p99")["value"] == 1353.17
    js = cell(t, "json line 58", "ttft", "p99")
    assert js["value"] == pytest.approx(1353.1694669699937) and js["line"] == 58


def test_prefixed_log_spec_decode_goodput_and_rejects():
    p = parsed(FIX / "synthetic_text_variants.txt")
    t = p.table
    run = t["run"].iloc[0]
    assert t["max_concurrency"].iloc[0] == 40 and t["request_rate"].iloc[0] == 20
    assert cell(t, run, "request_goodput", "value")["value"] == 7.5
    assert cell(t, run, "spec_decode_position_1_acceptance_rate", "value")["value"] == 60
    nan = cell(t, run, "tpot", "median")
    assert math.isnan(nan["value"]) and nan["note"] == "source printed nan"
    assert list(p.rejected["line"]) == [34] and cell(t, run, "ttft", "p25")["line"] == 18  # every rank kept
    assert p.cells_read == len(t) + len(p.rejected)


def test_save_detailed_json_and_requests():
    p = parsed(FIX / "synthetic_save_detailed.json")
    assert p.cells_read == len(p.table) + len(p.rejected)
    assert any("requests()" in m for m in p.messages)
    req = v.requests(FIX / "synthetic_save_detailed.json")
    assert len(req) == 6
    assert req["success"].tolist() == [True, True, True, True, True, False]
    assert req.loc[0, "tpot_ms"] == pytest.approx(30.0)  # (0.4 - 0.1) / (11 - 1)
    assert req.loc[3, "tpot_ms"] == 0.0  # one output token: the tool counts TPOT as 0
    assert req.loc[4, "queue_time_ms"] == pytest.approx(200.0)


def test_requests_without_latencies_use_ttft_plus_itls(tmp_path):
    obj = json.loads((FIX / "synthetic_save_detailed.json").read_text())
    del obj["latencies"]
    f = tmp_path / "old.json"
    f.write_text(json.dumps(obj))
    req = v.requests(f)
    assert req.loc[0, "e2el_ms"] == pytest.approx(400.0)


def test_pretty_printed_json_lines(tmp_path):
    obj = json.loads((FIX / "llmd_results.jsonl").read_text().splitlines()[0])
    f = tmp_path / "one.json"
    f.write_text(json.dumps(obj, indent=2))
    t = parsed(f).table
    row = cell(t, "json 1", "p99_ttft_ms".split("_")[1], "p99")
    assert row["line"] == 1 + json.dumps(obj, indent=2).split("\n").index('  "p99_ttft_ms": 98.69780922984769,')


def test_sniff_rejects_foreign_output():
    assert not v.sniff("| model | size | test | t/s |\n| --- | --- | --- | --- |\n")
    sglang = "============ Serving Benchmark Result ============\nBackend:  sglang\nSuccessful requests: 1\n" + "=" * 50
    assert not v.sniff(sglang)
    assert v.sniff((FIX / "llmd_results.jsonl").read_text())


@pytest.mark.parametrize(
    "text",
    [
        "============ Serving Benchmark Result ============\n",
        "============ Serving Benchmark Result ============\nSuccessful requests:  1x0\n" + "=" * 50,
        '{"duration": 1.0, "request_throughput": 2.0, "completed": 2}\n{not json',
        "[1, 2]",
        "",
    ],
)
def test_bad_input_raises_parse_error(text):
    with pytest.raises(ParseError):
        v.parse(text, "bad.txt")


SEED_BLOCK = config.seed("004").read_text().split("# vLLM", 1)[1]
JSON_TEXT = (FIX / "synthetic_save_detailed.json").read_text()


def _only_parse_error(text):
    try:
        v.parse(text, "x")
    except ParseError:
        pass


@pytest.mark.parametrize("enc", ["latin-1", "utf-16"])
def test_reencoded(enc):
    raw = SEED_BLOCK.encode("utf-8").decode(enc, errors="replace")
    _only_parse_error(raw)


def test_a_write_ups_own_list_names_the_model_and_the_devices_a_run_spans():
    df = parsed(FIX / "dual_spark_qwen3_30b_nvfp4_eager_12_failed.md").table
    assert set(df["model"]) == {"MrVolts/Qwen3-30B-A3B-Thinking-2507-NVFP4"}
    assert set(df["metadata"]) == {"hardware=2x DGX Spark (256GB combined); tp=2"}


BLOCK = (
    "============ Serving Benchmark Result ============\n"
    "Successful requests:                     10\n"
    "Output token throughput (tok/s):         12.29\n"
    "==================================================\n"
)


def test_the_list_does_not_override_the_command_and_a_bad_size_is_not_read(tmp_path):
    f = tmp_path / "list.md"
    f.write_text(
        "## run\n- Model: `someone/other-model`\n- Tensor Parallel Size: two\n- **Pipeline Parallel Size:** 2\n"
        "vllm bench serve --model meta-llama/Llama-3.1-8B --max-concurrency 4\n" + BLOCK
    )
    df = parsed(f).table
    assert set(df["model"]) == {"meta-llama/Llama-3.1-8B"}  # the command names the model: the list does not replace it
    assert set(df["metadata"]) == {"pp=2"}  # "two" is no number: no tp


def test_a_list_under_another_heading_is_not_this_blocks(tmp_path):
    f = tmp_path / "list.md"
    f.write_text("## setup\n- Tensor Parallel Size: 4\n## run\n" + BLOCK)
    df = parsed(f).table
    assert df["metadata"].isna().all() and df["model"].isna().all()


def test_the_progress_bar_above_a_block_gives_the_prompts_sent_where_nothing_else_does(tmp_path):
    # vllm-project/vllm#9070's shape: a 2024 block with no failure count under a bar of 4096 requests
    block = (
        "Traffic request rate: inf\n"
        "100%|█████████████| 4096/4096 [01:27<00:00, 46.61it/s]\n"
        "============ Serving Benchmark Result ============\n"
        f"{'Successful requests:':<40} {979:<10}\n"
        f"{'Benchmark duration (s):':<40} {'87.88':<10}\n"
        f"{'Request throughput (req/s):':<40} {'11.14':<10}\n"
        "==================================================\n"
    )
    p = tmp_path / "bar.txt"
    p.write_text(block)
    assert set(ingest.read(p, tool="vllm-bench-serve")["num_prompts"]) == {4096}  # the rest failed: 3,117
    # a command above the bar: the bar, printed by the run itself (tqdm's total is the requests it sent:
    # fewer than --num-prompts where the dataset holds fewer), is the count; a command pasted below it wins
    p.write_text("python benchmark_serving.py --num-prompts 5000\n" + block)
    assert set(ingest.read(p, tool="vllm-bench-serve")["num_prompts"]) == {4096}
    lines = block.split("\n")
    p.write_text("\n".join([lines[1], "python benchmark_serving.py --num-prompts 5000", lines[0], *lines[2:]]))
    assert set(ingest.read(p, tool="vllm-bench-serve")["num_prompts"]) == {5000}
    p.write_text(block.replace("100%|█████████████| 4096/4096 [01:27<00:00, 46.61it/s]\n", ""))
    assert ingest.read(p, tool="vllm-bench-serve")["num_prompts"].isna().all()  # no bar: unknown


def test_a_heading_that_is_a_hub_model_id_names_the_model_of_the_block_under_it(tmp_path):
    block = (
        "============ Serving Benchmark Result ============\n"
        f"{'Successful requests:':<40} {1000:<10}\n"
        f"{'Request throughput (req/s):':<40} {'2.52':<10}\n"
        "==================================================\n"
    )
    p = tmp_path / "two.md"
    p.write_text(f"### openai/gpt-oss-20b\n\n```\n{block}```\n\n### Results on one L40S\n\n```\n{block}```\n")
    df = ingest.read(p, tool="vllm-bench-serve")
    models = df.groupby("run", sort=False)["model"].first()
    assert models["openai/gpt-oss-20b"] == "openai/gpt-oss-20b"
    assert models.isna()["Results on one L40S"]  # a heading of words names no model


def test_a_wrapped_abbreviated_command_reaches_every_round_of_its_log_and_no_further(tmp_path):
    # the Ascend PD fixture's shape: one `vllm bench serve \` command over three `# round N` blocks
    block = (
        "============ Serving Benchmark Result ============\n"
        f"{'Successful requests:':<40} {55:<10}\n"
        f"{'Failed requests:':<40} {45:<10}\n"
        f"{'Request throughput (req/s):':<40} {'0.47':<10}\n"
        "==================================================\n"
    )
    cmd = "vllm bench serve \\\n  --model org/m \\\n  --request-rate 10 \\\n  --num-prompt 100\n\n"
    p = tmp_path / "rounds.md"
    p.write_text(f"```shell\n{cmd}# round 1\n{block}\n# round 2\n{block}```\n\n```\n# other\n{block}```\n")
    df = ingest.read(p, tool="vllm-bench-serve")
    first = df.groupby("run", sort=False)[["model", "num_prompts", "request_rate"]].first()
    assert first.loc["round 1"].tolist() == ["org/m", 100.0, 10.0]  # `--num-prompt`: argparse's prefix
    assert first.loc["round 2"].tolist() == ["org/m", 100.0, 10.0]  # no setting of its own: the same command
    # pasted apart, behind a code fence: the command's settings are not carried over; its model is, as the
    # model of the nearest command above the result (context.fill, said in a message)
    assert first.loc["other", "model"] == "org/m" and first.loc["other", ["num_prompts", "request_rate"]].isna().all()


def test_a_write_ups_own_list_over_a_block_beats_the_shared_command_and_a_placeholder_is_no_model(tmp_path):
    # the 4 x MI100 write-up's shape: one command for every model (`--model <model> --max-concurrency
    # 50`), then per model a heading, its Hub id and its own cap as list items
    block = (
        "============ Serving Benchmark Result ============\n"
        f"{'Successful requests:':<40} {50:<10}\n"
        f"{'Request throughput (req/s):':<40} {'0.24':<10}\n"
        "==================================================\n"
    )
    p = tmp_path / "mi100.md"
    p.write_text(
        "```bash\npython benchmarks/benchmark_serving.py --model <model> --max-concurrency 50\n```\n"
        f"## Granite\n* ibm-granite/granite-3.3-8b-instruct\n* max-concurrency 25\n\n```\n{block}```\n"
        f"## Cogito\n* btbtyler09/cogito-v1-preview-llama-70B-gptq-8bit\n* --max-concurrency 6\n* --num-prompts 50\n"
        f"```\n{block}```\n## Phi\n* max-concurrency=20\n```\n{block}```\n"
    )
    df = ingest.read(p, tool="vllm-bench-serve").groupby("run", sort=False).first()
    assert df.loc["Granite", ["model", "max_concurrency"]].tolist() == ["ibm-granite/granite-3.3-8b-instruct", 25.0]
    assert df.loc["Cogito", ["max_concurrency", "num_prompts"]].tolist() == [6.0, 50.0]
    assert df.loc["Phi", "max_concurrency"] == 20.0 and pd.isna(df.loc["Phi", "model"])  # `<model>` names none


def test_a_hub_cache_snapshot_path_as_the_model_is_the_repo_it_holds():
    """InferenceX's multi-node harness passes the Hugging Face cache folder as `--model`: the saved
    result's `model_id` is `/models/models--openai--gpt-oss-120b/snapshots/<sha>/`, the repo
    openai/gpt-oss-120b in huggingface_hub's cache layout."""
    path = FIX / "inferencex_multinode_gpt_oss_120b_concurrency_128_gpus_16_ctx_8_gen_8.json"
    assert set(ingest.read(path)["model"]) == {"openai/gpt-oss-120b"}
    text = path.read_text().replace(
        "/models/models--openai--gpt-oss-120b/snapshots/", "/models/gpt-oss-120b/snapshots/"
    )
    assert set(v.parse(text, "x.json").table["model"]) == {  # no cache layout: the path as given
        "/models/gpt-oss-120b/snapshots/b5c939de8f754692c1647ca79fbf85e8c1e70f8a/"
    }


def test_the_lines_above_a_prefixed_block_are_read_through_its_prefix():
    # yiliu30/vllm-fork: two blocks pasted as `# ` shell comments, each under the pre-run lines the
    # benchmark prints (`# Traffic request rate: inf`, `# Maximum request concurrency: 32`) and its bar
    t = ingest.read(FIX / "yiliu30_vllm_fork_pp_local_test_res_cap32_commented.sh", tool=TOOL)
    assert set(t["max_concurrency"]) == {32} and set(t["request_rate"]) == {math.inf}
    assert set(t["num_prompts"]) == {32}  # the commented bar's total
    assert not t["run"].str.contains("%|", regex=False).any()  # a commented bar is no heading
    # two unnamed blocks under the same settings are two runs of them, not one run given twice
    assert sorted(set(t["run"])) == ["c=32, rate=inf", "c=32, rate=inf #2"]
    assert len(t.attrs["rejected"]) == 0


def test_unnamed_blocks_under_different_settings_keep_their_own_labels(tmp_path):
    def block(n):
        return (
            f"Maximum request concurrency: {n}\n"
            "============ Serving Benchmark Result ============\n"
            f"{'Successful requests:':<40} {n:<10}\n"
            f"{'Request throughput (req/s):':<40} {n / 10:<10}\n"
            "==================================================\n"
        )

    p = tmp_path / "log.txt"
    p.write_text(block(8) + block(16))
    assert sorted(set(ingest.read(p, tool=TOOL)["run"])) == ["c=16", "c=8"]


def test_a_commented_line_over_an_unprefixed_block_is_a_heading_that_states_its_cap(tmp_path):
    block = (
        "============ Serving Benchmark Result ============\n"
        f"{'Successful requests:':<40} {32:<10}\n"
        f"{'Request throughput (req/s):':<40} {'0.21':<10}\n"
        "==================================================\n"
    )
    p = tmp_path / "notes.md"
    p.write_text("# Maximum request concurrency: 8\n\n" + block)
    t = ingest.read(p, tool=TOOL)
    # the block has no `# ` prefix: the line is the author's heading, not a line of the block; a heading
    # in the tool's own words (`Maximum request concurrency:`) states the cap of the run under it (context)
    assert t["max_concurrency"].eq(8).all()
    # the heading is above the file's every run (its only one): it tells no run apart, so names none
    assert set(t["run"]) == {"block 1"}
    p.write_text("# Notes on concurrency\n\n" + block)  # a heading that speaks of a cap gives none
    assert ingest.read(p, tool=TOOL)["max_concurrency"].isna().all()


RENAMED = """```text
============ Serving Benchmark Result (16K/1K - Conc 256) ============
Successful requests:                     256
Output token throughput (tok/s):         2978.71
Mean TTFT (ms):                          27999.59

============ Serving Benchmark Result (8K/8K - c=32) ============
Successful requests:                     64
Output token throughput (tok/s):         2054.19
Mean TTFT (ms):                          2275.68

```
"""


def test_renamed_banner_names_the_run_and_its_cap():
    p = v.parse(RENAMED, "r.md")
    assert set(p.table["run"]) == {"16K/1K - Conc 256", "8K/8K - c=32"}
    assert cell(p.table, "16K/1K - Conc 256", "output_throughput", "value")["value"] == 2978.71
    assert cell(p.table, "16K/1K - Conc 256", "ttft", "mean")["max_concurrency"] == 256
    assert cell(p.table, "8K/8K - c=32", "completed", "count")["max_concurrency"] == 32


def test_abridged_block_without_closing_row_is_read_and_reported():
    p = v.parse(RENAMED, "r.md")
    assert len(p.table) == 6
    assert len(p.messages) == 2 and all("no closing row" in m for m in p.messages)
    assert ":2:" in p.messages[0] and ":7:" in p.messages[1]


def test_banner_label_without_a_cap_leaves_the_cap_unknown():
    text = RENAMED.replace("Conc 256", "prefill heavy")
    p = v.parse(text, "r.md")
    assert math.isnan(cell(p.table, "16K/1K - prefill heavy", "completed", "count")["max_concurrency"])


def test_a_block_cut_where_the_copy_ends_reads_every_whole_line_and_sets_the_last_aside_naming_it():
    # first block, no blank line, fence or close after it, its last row cut inside its number (27999.59 -> 2799)
    text = RENAMED.split("\n\n")[0].replace("27999.59", "2799") + "\n"
    p = v.parse(text, "cut.md")
    # lines 3-4 are whole (a line follows each); line 5, the copy's last, lacks the two decimals vLLM prints
    assert sorted(p.table["metric"]) == ["completed", "output_throughput"]
    assert p.rejected["line"].tolist() == [5] and p.rejected["reason"].iat[0].startswith(core.COPY_ENDS)
    assert "line 5" in p.rejected["reason"].iat[0] and p.cells_read == len(p.table) + len(p.rejected)
    assert any("the copy ends inside the result block, at line 5" in m for m in p.messages)


@pytest.mark.parametrize(
    ("last", "read"),
    [
        ("Mean TTFT (ms):                          27999.59", True),  # two decimals, as vLLM prints it
        ("Failed requests:                         0", True),  # a count of 0: a cut count never reads 0
        ("Failed requests:                         1", False),  # a count that may have lost digits (12, 105)
        ("Mean TTFT (ms):                          27999.5", False),  # cut inside its decimals
        ("Mean TTFT (ms):", False),  # a label alone
    ],
)
def test_the_copys_last_row_is_read_only_where_whole_as_the_tool_prints_it(last, read):
    """vLLM prints every row but the counts with two decimals (`{:<10.2f}`) and a count without leading zeros:
    a last row in that form is whole, read and marked as the copy's end; any other may be cut (stop 49: a
    quoted block ending `Failed requests: 0` was said to print no failure count)."""
    text = "============ Serving Benchmark Result ============\nSuccessful requests:                     256\n" + last
    p = v.parse(text + "\n", "cut.md")
    assert (len(p.table) == 2) is read and len(p.rejected) == 1 and p.rejected["line"].tolist() == [3]
    assert p.rejected["reason"].iat[0].startswith(core.COPY_ENDS_AFTER) is read
    assert p.cells_read == len(p.table) + len(p.rejected)


def test_a_row_a_writer_wrapped_in_bold_is_read_as_the_tool_printed_it():
    """vllm-project/vllm#5316 wrapped two rows in markdown bold (`**Request throughput (req/s):  8.41**`): the tool
    prints no asterisk, so the row inside is read; an asterisk inside a row is no such pair and refuses it."""
    block = (
        "============ Serving Benchmark Result ============\n"
        "Successful requests:                     1000      \n"
        "**Request throughput (req/s):              8.41**      \n"
        "==================================================\n"
    )
    t = v.parse(block, "bold.md").table
    assert cell(t, t["run"].iat[0], "request_throughput", "value")["value"] == 8.41
    with pytest.raises(ParseError, match="expected a number"):
        v.parse(block.replace("**Request", "Request"), "half.md")


def test_a_block_closed_where_the_copy_ends_sets_nothing_aside():
    text = RENAMED.split("\n\n")[0] + "\n" + "=" * 50 + "\n"
    p = v.parse(text, "whole.md")
    assert len(p.table) == 3 and p.rejected.empty and not p.messages


def test_a_garbled_line_above_where_the_copy_ends_is_still_refused_naming_it():
    text = (
        RENAMED.split("\n\n")[0].replace("Output token throughput (tok/s):", "Output token throughput (tok/s)") + "\n"
    )
    with pytest.raises(ParseError, match="expected 'Label: value'") as err:
        v.parse(text, "cut.md")
    assert err.value.line == 4


def test_a_closing_row_a_paste_trimmed_still_closes_the_block():
    # vLLM prints 50 `=`; pastes keep 42 or 48 (real: vllm_pr15401_..., vllm_pr29346_...)
    for width in (42, 48):
        text = RENAMED.split("\n\n")[0] + "\n" + "=" * width + "\n\nprose after it, 12 words\n"
        p = v.parse(text, "trimmed.md")
        assert len(p.table) == 3 and p.rejected.empty and not p.messages


def test_the_set_aside_note_names_the_line_where_the_copy_ends(tmp_path):
    path = tmp_path / "cut.md"
    path.write_text(RENAMED.split("\n\n")[0].replace("27999.59", "2799") + "\n")  # its last row cut short
    note = ingest.set_aside_note(path, tool=TOOL)
    assert "cut where the copy ends, at line 5: that line may be cut short" in note
    path.write_text(RENAMED.split("\n\n")[0] + "\n" + "=" * 50 + "\n")
    assert ingest.set_aside_note(path, tool=TOOL) is None


def test_a_prose_line_naming_the_tool_leaves_the_model_to_the_command_below_it():
    prose = "We used the native `vllm bench serve` CLI tool.\n\n```bash\nvllm bench serve --model org/m \\\n  --max-concurrency 8\n```\n\n"
    p = v.parse(prose + RENAMED, "r.md")
    assert cell(p.table, "16K/1K - Conc 256", "completed", "count")["model"] == "org/m"
    assert cell(p.table, "8K/8K - c=32", "completed", "count")["model"] == "org/m"  # same fence: same command
    alone = v.parse("We used the native `vllm bench serve` CLI tool.\n\n" + RENAMED, "r.md")
    assert alone.table["model"].isna().all()  # the prose line names no model


BARE = """allgather_reducescatter:
```
Successful requests:                     1000
Failed requests:                         0
Maximum request concurrency:             256
Benchmark duration (s):                  121.84
Request throughput (req/s):              8.21
Output token throughput (tok/s):         2101.11
Mean TTFT (ms):                          526.52
```
"""


def test_a_block_pasted_without_its_banner_is_read_from_successful_requests_on():
    p = v.parse(BARE, "bare.md")
    assert cell(p.table, p.table["run"].iat[0], "completed", "count")["line"] == 3
    assert len(p.table) == 6 and p.table["max_concurrency"].eq(256).all() and p.rejected.empty
    assert v.sniff(BARE)


def test_rows_of_another_tool_under_successful_requests_are_no_bare_vllm_block():
    # SGLang prints its own rows among the shared ones (`Total generated tokens (retokenized)`)
    sglang = BARE.replace("Mean TTFT (ms):", "Total generated tokens (retokenized):")
    assert not v.sniff(sglang)
    short = "\n".join(BARE.splitlines()[:5]) + "\n```\n"  # three rows: too few to be the tool's block
    assert not v.sniff(short)


def test_a_name_a_write_up_puts_before_the_banners_title_names_the_run():
    text = RENAMED.replace("Serving Benchmark Result (16K/1K - Conc 256)", "Helion Serving Benchmark Result")
    p = v.parse(text, "named.md")
    assert set(p.table["run"]) == {"Helion", "8K/8K - c=32"}


BLOCK = (
    "============ Serving Benchmark Result ============\nSuccessful requests:                     1\n" + "=" * 50 + "\n"
)
BAR = "100%|##########| 100/100 [00:02<00:00, 34.85it/s]\n"
COMMAND = "vllm bench serve --model m --num-prompts 500\n"


def test_a_progress_bar_below_the_command_is_the_runs_own_prompt_count():
    # real: vllm-project/vllm#24005 pastes `--num-prompts 500` in one fence and a bar of 100/100 in the next
    below = v.parse(COMMAND + BAR + BLOCK, "x.md")
    assert below.table["num_prompts"].iat[0] == 100
    above = v.parse(BAR + COMMAND + BLOCK, "x.md")  # the other way: the command is the nearer print
    assert above.table["num_prompts"].iat[0] == 500


def test_a_closing_row_the_paste_trimmed_still_closes_the_block():
    # vLLM prints "=" * 50; a PR comment kept 42 of them (vllm-project/vllm#15401)
    whole = RENAMED.split("\n\n")[0] + "\n"
    p = v.parse(whole + "=" * 42 + "\n", "trimmed.md")
    assert len(p.table) and not p.messages
    five = v.parse(whole + "=" * 5 + "\n", "five.md")  # a short run of '=' is no closing row: the copy ends
    assert five.rejected["reason"].str.startswith(core.COPY_ENDS).all() and any("copy ends" in x for x in five.messages)


def test_two_blocks_under_headings_of_one_name_are_two_runs_in_the_read_summary():
    """Kimi-K2's recipe heads two blocks `### Expected Output` (8 prompts at 1 req/s, 16 at 10000): the
    summary counts runs as the serving chapter keys them, by label and settings, so 3 runs, not 2."""
    path = config.FIXTURES_DIR / "vllm-bench-serve" / "recipes_kimi_k2_16xh800_two_nodes_and_16xh200.md"
    (parsed,) = ingest.read_parsed(path, tool="vllm-bench-serve")
    assert ingest.detected(parsed).endswith("3 runs")
    # the other way: the rows of one block (one label, one set of settings) are one run
    parsed.table = parsed.table[parsed.table["run"] == "Expected Output, rate=10000 #2"]
    assert ingest.detected(parsed).endswith("1 run")


@pytest.mark.parametrize(
    "command,prompts",
    [
        ("vllm bench serve --model m --dataset-name sharegpt\n", 1000),  # the tool's default, every one sent
        ("python benchmarks/benchmark_serving.py --backend vllm --model m\n", 1000),
        ("vllm bench serve --model m --num-prompts 500\n", 500),  # the command's own count
        ("Run the `vllm bench serve` CLI against the server.\n", None),  # prose naming the tool: no command
        ("python benchmark.py --backend vllm --request-rate 5\n", None),  # a copy: its default is not vLLM's
    ],
)
def test_a_command_without_num_prompts_sent_the_tools_default(command, prompts):
    # real: vllm-project/vllm#16458 (987 of the default 1,000 completed) and #23696 (1,000 of 1,000)
    got = v.parse(command + BLOCK, "x.md").table["num_prompts"].iat[0]
    assert math.isnan(got) if prompts is None else got == prompts, got


def test_a_caption_above_the_fence_a_block_opens_names_the_run():
    # real: LMCache-Ascend PR 220 writes `Sync`, a blank line, then the fenced block (its async store below)
    title = "# Implement Store Async\n\n"
    p = v.parse(title + "Sync\n\n```\n" + BLOCK + "```\n", "sync.md")
    assert set(p.table["run"]) == {"Sync"}
    p = v.parse(title + "CUTLASS MoE perf:\n```\n" + BLOCK + "```\n", "caption.md")  # its colon is the caption's
    assert set(p.table["run"]) == {"CUTLASS MoE perf"}
    # the other way: a fence closing a command's block above the one the block opens is no caption (and
    # the document's title names no run: `headings.names`)
    p = v.parse(title + "```\n" + COMMAND + "```\n```\n" + BLOCK + "```\n", "command.md")
    assert set(p.table["run"]) == {"block 1"}


def test_a_speculative_decoding_header_says_the_run_drafted_tokens_even_cut_where_the_copy_ends():
    # real: vllm-project/recipes PR 819's copy ends at `---------------Speculative Decoding-`; vLLM prints that
    # section only when the server reports speculative-decoding stats
    head = BLOCK.replace("=" * 50 + "\n", "")
    p = v.parse(
        head + "Mean ITL (ms):                           193.42\n---------------Speculative Decoding-\n", "cut.md"
    )
    assert set(p.table["metadata"]) == {"speculative=speculative decoding"}
    # the other way: a block without the section states nothing of it
    assert v.parse(BLOCK, "plain.md").table["metadata"].isna().all()


def test_a_traffic_rate_printed_with_its_rps_unit_is_the_rate_offered(tmp_path):
    # ovg-project/kvcached#136's shape: 2025's benchmark_serving.py prints a finite rate as
    # f"Traffic request rate: {request_rate} RPS." (and `inf` bare)
    block = (
        "Traffic request rate: 15.0 RPS.\n"
        "Burstiness factor: 1.0 (Poisson process)\n"
        "Maximum request concurrency: 100\n"
        "============ Serving Benchmark Result ============\n"
        f"{'Successful requests:':<40} {100:<10}\n"
        f"{'Request throughput (req/s):':<40} {'3.75':<10}\n"
        "==================================================\n"
    )
    p = tmp_path / "rps.txt"
    p.write_text(block)
    assert set(ingest.read(p, tool=TOOL)["request_rate"]) == {15.0}
    p.write_text(block.replace("15.0 RPS.", "inf"))
    assert set(ingest.read(p, tool=TOOL)["request_rate"]) == {math.inf}
    p.write_text(block.replace("15.0 RPS.", "15.0 QPS."))  # no unit the tool prints: not read as a rate
    assert ingest.read(p, tool=TOOL)["request_rate"].isna().all()


def test_words_a_writer_appended_after_a_rows_value_are_not_read_and_the_value_is(tmp_path):
    # vllm-project/vllm#26478 marks its new row: `Failed requests:  0   <<<<<<< New line`
    rows = [
        "============ Serving Benchmark Result ============",
        f"{'Successful requests:':<40} {1000:<10}",
        f"{'Failed requests:':<40} {0:<10} <<<<<<< New line",
        f"{'Request throughput (req/s):':<40} {'42.15':<10}",
        "==================================================",
    ]
    p = tmp_path / "noted.txt"
    p.write_text("\n".join(rows) + "\n")
    df = ingest.read(p, tool=TOOL)
    assert set(df[df["metric"] == "failed"]["value"]) == {0.0}
    # a second number after the value is no note: the row is not the tool's
    p.write_text("\n".join([*rows[:2], f"{'Failed requests:':<40} {0:<10} 12", *rows[3:]]) + "\n")
    with pytest.raises(ParseError, match="expected 'Label: value'"):
        ingest.read(p, tool=TOOL)


def test_a_sections_container_args_set_every_block_under_its_sub_headings():
    # stop 47 (KubeAI's prefix-aware load balancing): a Job's `args:` list under `## 800 concurrent requests`
    # runs the three blocks below it, one under each `###` strategy
    job = "```yaml\n      args:\n        - --model=llama-8b-fp8\n        - --request-rate=800\n        - --max-concurrency=800\n```\n"
    text = "## 800 concurrent requests\n" + job + "### Round Robin\n" + BLOCK + "### Prefix Hash\n" + BLOCK
    text += "## 1600 concurrent requests\n" + job.replace(
        "=800\n        - --max-concurrency=800", "=200\n        - --max-concurrency=1600"
    )
    text += "### Round Robin\n" + BLOCK
    df = v.parse(text, "x.md").table.drop_duplicates("run")
    assert df["max_concurrency"].tolist() == [800, 800, 1600] and df["request_rate"].tolist() == [800, 800, 200]
    assert set(df["model"]) == {"llama-8b-fp8"}
    assert df["metadata"].isna().all()  # no conversations replayed: no prefix reuse said
    replay = text.replace("- --model=llama-8b-fp8\n", "- --model=llama-8b-fp8\n        - --max-conversations=800\n")
    meta = v.parse(replay, "x.md").table["metadata"]
    assert meta.str.contains("prefix_reuse=multi-turn conversations replayed").all()
    # the other way: a block whose own command sets the cap keeps it, and a list that is no argument list
    # (`- Model: x`) or under a sibling section sets nothing
    own = "## 800\n" + job + "### A\nvllm bench serve --model m --max-concurrency 4\n" + BLOCK
    assert v.parse(own, "x.md").table["max_concurrency"].iat[0] == 4
    sibling = "## a\n" + job + "## b\n" + BLOCK
    assert v.parse(sibling, "x.md").table["max_concurrency"].isna().all()


def test_a_markdown_heading_after_a_blank_line_ends_a_block_pasted_without_its_closing_row():
    """vllm-project/vllm#5316 pasted a block to its P99 TPOT row, then `### awq performance:` and a cut command:
    the heading is the author's (vLLM prints no `#`), so the block ends above it and the command below is not
    read as the block's cut last row; in a log pasted as comments (`# ` before each line) a `# ` line after a
    blank one is the block's own."""
    rows = "Successful requests:                     1000\nMean TPOT (ms):                          190.66\n"
    text = f"============ Serving Benchmark Result ============\n{rows}\n### awq performance:\npython -m x --model a-4k -\n"
    p = v.parse(text, "h.md")
    assert len(p.table) == 2 and p.rejected.empty
    commented = "".join(f"# {r}\n" for r in ("=" * 12 + " Serving Benchmark Result " + "=" * 12, *rows.splitlines()))
    more = "\n# " + "-" * 15 + "Inter-token Latency" + "-" * 16 + "\n# Mean ITL (ms):                           9.54\n"
    p = v.parse(commented + more + "# " + "=" * 50 + "\n", "c.md")
    assert "itl" in set(p.table["metric"])


def _two_blocks_under_captions(second: str) -> str:
    """A recipe guide's shape: a launch and a client command, then each block under a bullet stating its load."""
    block = (
        "```shell\n"
        "============ Serving Benchmark Result ============\n"
        "Successful requests:                     1000\n"
        "{cap}"
        "Benchmark duration (s):                  102.90\n"
        "Request throughput (req/s):              9.72\n"
        "Output token throughput (tok/s):         1235.27\n"
        "==================================================\n"
        "```\n"
    )
    return (
        "```bash\nvllm serve org/Model-8B --tensor-parallel-size 4\n```\n\n"
        "```bash\nvllm bench serve --model org/Model-8B --num-prompts 1000 --request-rate 10\n```\n\n"
        "+ request-rate: 10, no max-concurrency setting\n\n"
        + block.format(cap="")
        + f"\n{second}\n\n"
        + block.format(cap="Maximum request concurrency:             1\n")
    )


def test_a_caption_stating_a_blocks_load_keeps_the_launched_model_unless_it_names_another():
    """A bullet over a block that states the block's own load (`+ max-concurrency: 1， no request-rate setting`)
    says what changed: the model the commands above serve still ran it, and the rate the command gave is not
    passed on. A caption naming another model makes the block that model's."""
    t = v.parse(_two_blocks_under_captions("+ max-concurrency: 1， no request-rate setting"), "guide.md").table
    runs = t.drop_duplicates("run").set_index("line")
    assert list(runs["model"]) == ["org/Model-8B", "org/Model-8B"]
    assert math.isnan(runs["request_rate"].iloc[1]) and runs["max_concurrency"].iloc[1] == 1
    t = v.parse(_two_blocks_under_captions("+ other/Model-70B, max-concurrency: 1"), "guide.md").table
    assert list(t.drop_duplicates("run")["model"]) == ["org/Model-8B", "other/Model-70B"]
    t = v.parse(_two_blocks_under_captions("The second run, at one request at a time:"), "guide.md").table
    assert t.drop_duplicates("run")["model"].isna().iloc[1]


def test_a_build_named_by_its_commit_above_the_results_is_each_blocks_server_setting():
    """`results for the postprocess_skip (b199bb3...)` above the blocks names the build they ran on: each block
    below it, up to the next such line, is that build's; a word in parentheses that is no commit names none."""
    block = (
        "============ Serving Benchmark Result ============\n"
        "Successful requests:                     500\n"
        "Maximum request concurrency:             32\n"
        "Benchmark duration (s):                  252.00\n"
        "Output token throughput (tok/s):         4069.25\n"
        "==================================================\n"
    )
    text = (
        "results for the last_precompiled   (4e5ca89cfe98121642d76b40e32a006f4d0fbf3b)\n\n"
        + block
        + "\n"
        + block
        + "\nresults for the postprocess_skip (b199bb3b6c558166953619a340221b55d84805b7)\n\n"
        + block
    )
    t = v.parse(text, "builds.md").table.drop_duplicates("run")
    assert [m.split("; ")[-1] for m in t["metadata"]] == [
        "build=last_precompiled (4e5ca89)",
        "build=last_precompiled (4e5ca89)",
        "build=postprocess_skip (b199bb3)",
    ]
    t = v.parse(text.replace("4e5ca89cfe98121642d76b40e32a006f4d0fbf3b", "baseline"), "words.md").table
    assert t.drop_duplicates("run")["metadata"].isna().iloc[0]


def test_blocks_printed_one_under_another_repeat_a_command_the_script_runs_again():
    """A script that runs one command three times in a row (`run_one 32` on three lines) prints three blocks one
    under another: the second and third repeat the first. Two blocks pasted together under no such script (two
    versions an issue's title compares) are two runs, never repeats."""
    block = (
        "============ Serving Benchmark Result ============\n"
        "Successful requests:                     500\n"
        "Maximum request concurrency:             32\n"
        "Output token throughput (tok/s):         4069.25\n"
        "==================================================\n"
    )
    prose = "The results of the runs, in the order they ran, follow here.\n\n"
    script = "```\nrun_one 32\nrun_one 32\nrun_one 32\n```\n\n" + prose
    t = v.parse(script + block + "\n\n" + block + "\n" + block, "script.md").table
    assert t.drop_duplicates("run")["run"].tolist() == ["c=32", "c=32, repeat 2", "c=32, repeat 3"]
    t = v.parse("```\nrun_one 32\n```\n\n" + prose + block + "\n" + block, "pasted.md").table
    assert t.drop_duplicates("run")["run"].tolist() == ["c=32", "c=32 #2"]
