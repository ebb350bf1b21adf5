"""The tgi-benchmark parser on the seeds, on real public outputs, and on damaged input."""

from __future__ import annotations

import math
import re

import pandas as pd
import pytest
from conftest import one_row

from benchbook import config, ingest
from benchbook.ingest import ParseError, core, tgi

FIX = config.FIXTURES_DIR / "tgi-benchmark"


@pytest.fixture(scope="module")
def seed0():
    return ingest.read_parsed(config.seed("000"), tool="tgi-benchmark")[0]


@pytest.fixture(scope="module")
def seed1():
    return ingest.read_parsed(config.seed("001"), tool="tgi-benchmark")[0]


def test_tp4_decode_token_mean_bs8(seed0):
    r = one_row(seed0.table, tp=4, metric="decode_token_latency", batch_size=8, statistic="mean")
    assert r.value == 20.25 and r.unit == "ms" and r.line == 146
    assert r.sequence_length == 1024 and r.quantize == "none" and r.model == "bigscience/bloomz-7b1-mt"


def test_seed0_sections_and_settings(seed0):
    df = seed0.table
    assert sorted(df.tp.unique()) == [1, 2, 4, 8]
    bnb = one_row(
        df,
        tp=8,
        sequence_length=100,
        quantize="bitsandbytes",
        metric="decode_token_latency",
        batch_size=1,
        statistic="mean",
    )
    assert bnb.value == 86.81 and bnb.line == 262
    assert bnb.section == "TP 8 / Sequence Length 100 / Quantization: bitsandbytes"
    fp16 = one_row(
        df, tp=8, sequence_length=100, quantize="none", metric="decode_token_latency", batch_size=1, statistic="mean"
    )
    assert fp16.value == 17.92
    assert set(df.max_batch_total_tokens.unique()) == {32000}
    assert (df.decode_length == 8).all() and (df.n_runs == 10).all()
    # 6 blocks x (3 steps x 6 bs x 6 stats + 2 steps x 6 bs x 3 stats) = 6 x 144
    assert len(df) == 864


def test_cells_accounted_for(seed0, seed1):
    for p in (seed0, seed1):
        assert p.cells_read == len(p.table) + len(p.rejected)
        assert len(p.rejected) == 0


def test_prefill_throughput_is_seq_per_s(seed1):
    r = one_row(seed1.table, metric="prefill_throughput", batch_size=1, statistic="mean")
    assert r.value == 7.15 and r.unit == "seq/s" and "tokens/secs" in r.note
    d = one_row(seed1.table, metric="decode_throughput", batch_size=32, statistic="max")
    assert d.value == 131.77 and d.unit == "tok/s"


def test_seed1_tp_from_num_shard(seed1):
    assert (seed1.table.tp == 1).all()
    assert any("num_shard" in m for m in seed1.messages)


def test_nan_and_merged_rows(seed0):
    df = seed0.table
    nan = one_row(df, tp=2, metric="prefill_latency", batch_size=16, statistic="mean")
    assert math.isnan(nan.value) and "no runs" in nan.note
    merged = one_row(df, tp=2, metric="prefill_latency", batch_size=32, statistic="p99")
    assert math.isnan(merged.value) and "blank row after a NaN row" in merged.note and merged.line == 102
    # the two blank numeric cells in "Sequence Length 100 / No Quantization", Decode (token) bs 4
    for stat in ("p90", "p99"):
        b = one_row(
            df, tp=8, sequence_length=100, quantize="none", metric="decode_token_latency", batch_size=4, statistic=stat
        )
        assert b.value == 18.68 and "merged it with the identical cell above" in b.note and b.line == 225


def test_fixture_new_version_top_n_tokens():
    p = ingest.read_parsed(FIX / "ms_build_mi300_llama3_70b.md", tool="tgi-benchmark")[0]
    df = p.table
    assert p.cells_read == len(df) + len(p.rejected) == 144
    assert "top_n_tokens=None" in df.parameters.iloc[0] and "frequency_penalty=None" in df.parameters.iloc[0]
    assert (df.sequence_length == 2048).all() and (df.decode_length == 128).all() and (df.warmups == 2).all()
    assert df.tp.isna().all()  # the --num-shard 1 in that README launched another model
    assert any("TP not taken" in m for m in p.messages)
    r = one_row(df, metric="decode_token_latency", batch_size=8, statistic="mean")
    assert r.value == 18.63
    assert one_row(df, metric="decode_throughput", batch_size=32, statistic="mean").value == 1164.14


def test_fixture_multi_tp_mt0():
    df = ingest.read(FIX / "mt0_xxl_tp_2_4_8.md")
    assert sorted(df.tp.unique()) == [2, 4, 8]
    assert one_row(df, tp=8, metric="prefill_latency", batch_size=32, statistic="mean").value == 352.84
    assert (df.model == "bigscience/mt0-xxl-mt").all()


def test_fixture_blank_batch_size_continuation_rows():
    df = ingest.read(FIX / "mt0_xxl_tp4_bs16.md")
    assert set(df.batch_size) == {16}
    r = one_row(df, metric="decode_total_latency", statistic="mean")
    assert r.value == 121758.35 and r.tp == 4 and r.sequence_length == 500 and r.decode_length == 1000
    assert "merged" in r.note  # the batch size was blank


def test_sniff_mixed_document_and_foreign():
    assert tgi.sniff(config.seed("000").read_text())
    assert not tgi.sniff(config.seed("004").read_text())
    assert not tgi.sniff(config.seed("002").read_text())
    text = "# notes\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n" + config.seed("001").read_text() + "\n\nmore prose\n"
    p = tgi.parse(text, "mixed.md")
    assert one_row(p.table, metric="prefill_latency", batch_size=1, statistic="mean").line == 53 + 6


def test_bad_inputs_raise_parse_error():
    with pytest.raises(ParseError):
        tgi.parse("hello world\n", "x.txt")
    hdr = "| Step | Batch Size | Average | Lowest | Highest |\n|---|---|---|---|---|\n"
    with pytest.raises(ParseError) as e:
        tgi.parse(hdr + "| Prefill | 1 | 1.0 tokens/secs |\n", "x.txt")
    assert e.value.line == 3
    with pytest.raises(ParseError):
        tgi.parse(hdr + "|  | 1 | 1 tokens/secs | 1 tokens/secs | 1 tokens/secs |\n", "x.txt")
    with pytest.raises(ParseError):
        tgi.parse(hdr + "| Prefill | one | 1 tokens/secs | 1 tokens/secs | 1 tokens/secs |\n", "x.txt")


def test_bad_cell_is_rejected_not_lost():
    hdr = "| Step | Batch Size | Average | Lowest | Highest |\n|---|---|---|---|---|\n"
    p = tgi.parse(hdr + "| Decode | 1 | 1.5 tokens/secs | oops | 2 ms |\n", "x.txt")
    assert p.cells_read == 3 and len(p.table) == 1 and len(p.rejected) == 2
    assert p.table.iloc[0].value == 1.5


SEED0 = config.seed("000").read_text()


def test_reencoded_with_bom_reads_like_the_seed(tmp_path, seed0):
    f = tmp_path / "r.txt"
    f.write_bytes((SEED0 + "\nÂ± é\n").encode("utf-8-sig"))
    df = ingest.read(f, tool="tgi-benchmark")
    assert len(df) == len(seed0.table) == 864
    assert list(df["value"].fillna(-1)) == list(seed0.table["value"].fillna(-1))


# utf-16 fails at its byte-order mark; in latin-1 and cp1252 "Â±" happens to be valid UTF-8 ("±"),
# so the first bad byte is the "é" on the appended last line.
@pytest.mark.parametrize(
    "enc, line, byte", [("utf-16", 1, "0xff"), ("latin-1", None, "0xe9"), ("cp1252", None, "0xe9")]
)
def test_reencoded_is_not_utf8(tmp_path, enc, line, byte):
    f = tmp_path / "r.txt"
    f.write_bytes((SEED0 + "\nÂ± é\n").encode(enc))
    with pytest.raises(ParseError, match=rf"not UTF-8 text \(byte {byte}\)") as e:
        ingest.read(f, tool="tgi-benchmark")
    assert e.value.source == "r.txt"
    assert e.value.line == (line or SEED0.count("\n") + 2)


def test_with_quantization_headings_are_separate_configurations():
    """rocm_llama2_13b_bnb.md: four runs of one model under "#### Without Bitsandbytes Results",
    "With Bitsandbytes Results", "With Bitsandbytes-nf4 Results", "With Bitsandbytes-fp4 Results"."""
    path = FIX / "rocm_llama2_13b_bnb.md"
    printed = len(re.findall(r"[-+]?\d+(?:\.\d+)? (?:ms|tokens/secs)", path.read_text(encoding="utf-8")))
    df = ingest.read(path, tool="tgi-benchmark")
    assert len(df.attrs["rejected"]) == 0 and len(df) == printed == 576
    assert df.groupby("quantize").size().to_dict() == {
        "none": 144,
        "bitsandbytes": 144,
        "bitsandbytes-nf4": 144,
        "bitsandbytes-fp4": 144,
    }
    nf4 = one_row(df, quantize="bitsandbytes-nf4", metric="prefill_latency", batch_size=1, statistic="mean")
    assert nf4.section == "Quantization: bitsandbytes-nf4"
    fp16 = one_row(df, quantize="none", metric="prefill_latency", batch_size=1, statistic="mean")
    assert fp16.value == 69.99 and fp16.section == "No Quantization"
    bnb = one_row(df, quantize="bitsandbytes", metric="prefill_latency", batch_size=1, statistic="mean")
    assert bnb.value == 221.88


@pytest.mark.parametrize(
    "heading, quant",
    [("With GPTQ Results", "gptq"), ("Without AWQ", "none"), ("With warmup Results", None)],
)
def test_with_heading_names_a_quantization_only_for_a_known_method(heading, quant):
    table = "| Step | Batch Size | Average | Lowest | Highest |\n|---|---|---|---|---|\n| Decode | 1 | 5.0 tokens/secs | 4.0 tokens/secs | 6.0 tokens/secs |\n"
    df = tgi.parse(f"## {heading}\n{table}", "h.md").table
    # a heading naming no method, and no launch in the file: the quantization is not stated (never "none")
    assert set(df.quantize) == {quant} if quant else df.quantize.isna().all()
    sections = set(df.section.fillna(""))
    assert sections == ({""} if quant is None else {"No Quantization" if quant == "none" else f"Quantization: {quant}"})


_TABLE = """| Parameter          | Value |
|--------------------|-------|
| Model              | {model} |
| Sequence Length    | 10    |
| Decode Length      | 8     |
| N Runs             | 10    |
| Warmups            | 1     |

| Step           | Batch Size | Average  | Lowest   | Highest  | p50      | p90      | p99      |
|----------------|------------|----------|----------|----------|----------|----------|----------|
| Prefill        | 1          | 36.38 ms | 35.92 ms | 36.92 ms | 36.38 ms | 36.92 ms | 36.92 ms |
"""


@pytest.mark.parametrize(
    ("assigned", "tp"),
    [("org/model-7b", 1), ("org/another-model", None)],
)
def test_launch_command_model_variable_is_resolved(assigned, tp):
    """`--model-id $model` names the model its shell assignment set: its `--num-shard` is the run's TP only
    when that model is the one benchmarked (a hub cache folder of org/model-7b is that model)."""
    launch = f"model={assigned}\ndocker run --gpus all \\\n--model-id $model \\\n--num-shard 1\n\n"
    table = _TABLE.format(model="/data/models--org--model-7b/snapshots/9869033e74f2ae74499e96a6267bd42bd6aac511")
    p = tgi.parse(launch + table, "launch.md")
    assert set(p.table["model"]) == {"org/model-7b"}
    assert (p.table["tp"] == tp).all() if tp else p.table["tp"].isna().all()


def test_hub_cache_folder_names_its_repo_id():
    assert (
        tgi.hub_id("/data/models--aisingapore--sealion7b-instruct-nc/snapshots/98690")
        == "aisingapore/sealion7b-instruct-nc"
    )
    assert tgi.hub_id("models--bigscience--bloomz-7b1") == "bigscience/bloomz-7b1"
    assert tgi.hub_id("/scratch/models/llama-7b") == "/scratch/models/llama-7b"


def test_fixture_sealion_one_shard_of_an_eight_gpu_vm():
    """aisingapore/sealion's TGI README: `--num-shard 1` on a continuation line, `--model-id $model`, the
    tokenizer a hub cache folder; the VM has 8 GPUs, the run one."""
    p = ingest.read_parsed(FIX / "sealion7b_tp1_top_n_256.md", tool="tgi-benchmark")[0]
    assert set(p.table["model"]) == {"aisingapore/sealion7b-instruct-nc"} and set(p.table["tp"]) == {1}
    assert p.cells_read == len(p.table) == 144


def test_num_shard_environment_variable_sets_the_tp_from_its_line_on():
    """The launcher reads `--num-shard` from `NUM_SHARD` too: a heading `NUM_SHARD=4` above the second of two
    tables with the same parameters makes them two configurations (TP unknown, TP 4), not a conflict."""
    table = _TABLE.format(model="org/model-7b")
    p = tgi.parse("# TGI 1.0.1\n" + table + "\n# TGI 1.0.1 NUM_SHARD=4\n" + table, "env.md")
    assert len(p.table) == 12 and p.table["tp"].isna().sum() == 6 and set(p.table["tp"].dropna()) == {4}
    assert any("NUM_SHARD (line" in m for m in p.messages)


@pytest.mark.parametrize(
    ("line", "tp"),
    [
        ("NUM_SHARD=2 text-generation-launcher --model-id org/model-7b", 2),
        ("NUM_SHARD=4 text-generation-launcher --model-id org/model-7b --num-shard 2", 2),
        ("export NUM_SHARDS=4", None),
        ("# run with num_shard 4", None),
    ],
)
def test_num_shard_environment_form_is_read_and_an_explicit_argument_wins(line, tp):
    p = tgi.parse(line + "\n\n" + _TABLE.format(model="org/model-7b"), "env.md")
    assert p.table["tp"].tolist() == [tp if tp else pd.NA] * len(p.table)


def test_fixture_llama_tokenizer_one_shard_then_num_shard_4():
    """Narsil's TGI 1.0.1 notes: the same parameters twice, the second under `# TGI:1.0.1 NUM_SHARD=4`."""
    p = ingest.read_parsed(FIX / "llama_tokenizer_tgi101_shard1_vs_shard4.md", tool="tgi-benchmark")[0]
    assert p.cells_read == len(p.table) == 288
    assert one_row(p.table, tp=4, metric="decode_token_latency", batch_size=32, statistic="mean").value == 22.17
    assert p.table.loc[p.table["tp"].isna(), "value"].size == 144


LAT = (
    "| Step | Batch Size | Average | Lowest | Highest | p50 | p90 | p99 |\n"
    "|---|---|---|---|---|---|---|---|\n"
    "| Prefill | 1 | 42.07 ms | 41.35 ms | 43.72 ms | 41.82 ms | 43.72 ms | 43.72 ms |\n"
)


def test_a_row_cut_where_the_copy_ends_is_set_aside_naming_its_line_and_the_rows_above_are_read():
    # tgi-gaudi PR #192's paste ends inside `|                | 8          | 29.0`
    p = tgi.parse(LAT + "|  | 2 | 29.0\n", "cut.md")
    assert len(p.table) == 6 and p.rejected["line"].tolist() == [4]
    assert p.rejected["reason"].iat[0].startswith(core.COPY_ENDS)
    whole = tgi.parse(LAT, "whole.md")  # a whole last row (every cell, closing pipe) is read
    assert len(whole.table) == 6 and whole.rejected.empty
    with pytest.raises(ParseError) as e:  # the other way: a short row with a line after it is no cut
        tgi.parse(LAT + "|  | 2 | 29.0\n| | 4 | 1.0 ms | 1.0 ms | 1.0 ms | 1.0 ms | 1.0 ms | 1.0 ms |\n", "bad.md")
    assert e.value.line == 4


@pytest.mark.parametrize(
    ("launch", "quant"),
    [
        ("", None),  # no launch in the file: it states no quantization
        ("text-generation-launcher --model-id bigscience/bloom --num-shard 2\n", "none"),  # the launcher's default
        ("text-generation-launcher --model-id bigscience/bloom --quantize gptq\n", "gptq"),
    ],
)
def test_no_quantization_is_the_launchers_default_only_where_the_file_shows_a_launch(launch, quant):
    table = "| Step | Batch Size | Average | Lowest | Highest |\n|---|---|---|---|---|\n| Decode | 1 | 5.0 tokens/secs | 4.0 tokens/secs | 6.0 tokens/secs |\n"
    df = tgi.parse(f"{launch}\n{table}", "l.md").table
    assert set(df.quantize) == {quant} if quant else df.quantize.isna().all()


def test_a_table_stating_no_quantization_takes_the_one_the_rest_of_the_file_states():
    table = "| Step | Batch Size | Average | Lowest | Highest |\n|---|---|---|---|---|\n| Decode | 1 | 5.0 tokens/secs | 4.0 tokens/secs | 6.0 tokens/secs |\n"
    launched = "text-generation-launcher --model-id bigscience/bloom --quantize gptq\n"
    df = tgi.parse(f"{table}\n{launched}\n{table}", "two.md").table
    assert set(df.quantize) == {"gptq"}
    both = f"{launched}\n{table}\ntext-generation-launcher --model-id bigscience/bloom --quantize awq\n\n{table}"
    assert set(tgi.parse(both, "both.md").table.quantize) == {"gptq", "awq"}  # two stated: each its own
