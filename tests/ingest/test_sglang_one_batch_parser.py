"""SGLang bench_one_batch: the real console of a PR thread (warmup set aside, the benchmark run read),
and the result.jsonl lines in the shape `latency_test_run_once` writes them (a configuration met
again is a repeat, not a conflict nor another load). Values are the file's, checked against the
tool's own formulas (decode throughput = batch / median step latency)."""

from __future__ import annotations

import json
import re

import pytest

from benchbook import config, ingest
from benchbook.ingest import ParseError, sglang_one_batch

FIX = config.FIXTURES_DIR / "sglang-bench-one-batch"
PR30147 = FIX / "sglang_pr30147_mlx_qwen_bs1_console.txt"


def _one(t, metric, **where):
    d = t[t["metric"] == metric]
    for k, v in where.items():
        d = d[d[k] == v]
    assert len(d) == 1, (metric, where, len(d))
    return float(d["value"].iat[0])


def test_the_warmup_is_set_aside_and_the_benchmark_run_is_read():
    (p,) = ingest.read_parsed(PR30147)
    assert p.cells_read == len(p.table) + len(p.rejected) == 32
    assert set(p.rejected["reason"]) == {sglang_one_batch.WARMUP} and len(p.rejected) == 16
    assert set(p.rejected["line"]) == set(range(2, 10))
    t = p.table
    assert set(t["run"]) == {1} and set(t["batch_size"]) == {1}
    assert _one(t, "prefill_latency") == 0.01014
    assert _one(t, "prefill_throughput") == 5916.43
    assert _one(t, "decode_latency") == 0.00572
    assert _one(t, "total_latency") == 0.062
    assert _one(t, "overall_throughput") == 1122.76
    assert sorted(t.loc[t["metric"] == "decode_step_latency", "step"]) == [0, 1, 2, 3, 4]
    # the tool's median throughput is batch / median step latency, to its printed rounding
    assert _one(t, "decode_throughput") == pytest.approx(1 / 0.00572, rel=1e-3)


def test_a_console_without_warmup_marker_is_all_benchmark_and_old_steps_are_numbered(tmp_path):
    p = tmp_path / "latency.txt"
    p.write_text(
        "python3 -m sglang.bench_latency --model ../Qwen2-7B-Instruct --batch-size 1 --input-len 200 "
        "--output-len 100 --tp 2\n"
        "Prefill. latency: 0.03508 s, throughput:   5700.84 token/s\n"
        "Decode.  latency: 0.01952 s, throughput:     51.23 token/s\n"
        "Decode.  latency: 0.01947 s, throughput:     51.37 token/s\n"
        "Decode.  median latency: 0.01924 s, median throughput:     51.98 token/s\n"
        "Total. latency:  1.942 s, throughput:    154.52 token/s\n"
    )
    (parsed,) = ingest.read_parsed(p)
    t = parsed.table
    assert len(parsed.rejected) == 0
    assert sorted(t.loc[t["metric"] == "decode_step_latency", "step"]) == [0, 1]
    assert set(t["model"]) == {"../Qwen2-7B-Instruct"} and set(t["tp"]) == {2}
    assert set(t["input_len"]) == {200} and set(t["output_len"]) == {100} and set(t["batch_size"]) == {1}
    # (200 + 100) x 1 / 1.942 s, as the tool computes its overall throughput
    assert _one(t, "overall_throughput") == pytest.approx(300 / 1.942, rel=1e-3)


def test_a_sweep_command_gives_no_single_length_to_its_runs(tmp_path):
    p = tmp_path / "sweep.txt"
    p.write_text(
        "python -m sglang.bench_one_batch --model-path m --batch 4 8 --input-len 1024 --output-len 1 1024\n"
        "Benchmark ...\n"
        "Prefill. latency: 3.73642 s, throughput:   1096.24 token/s\n"
        "Total. latency:  3.736 s, throughput:   1097.31 token/s\n"
        "Prefill. latency: 3.58247 s, throughput:   1143.34 token/s\n"
        "Total. latency: 22.969 s, throughput:    356.65 token/s\n"
    )
    t = ingest.read(p)
    assert sorted(set(t["run"])) == [1, 2]
    assert set(t["input_len"]) == {1024}
    assert t["output_len"].isna().all() and t["batch_size"].isna().all()


def _line(bs, il, ol, prefill, **more):
    return json.dumps(
        dict(run_name="test_run", batch_size=bs, input_len=il, output_len=ol, prefill_latency=prefill, **more)
    )


def test_jsonl_repeats_of_a_configuration_are_repeats_not_conflicts(tmp_path):
    p = tmp_path / "result.jsonl"
    p.write_text(
        "\n".join(
            [
                _line(4, 1024, 1, 3.7364, prefill_throughput=1096.2, total_latency=3.7364, overall_throughput=1097.3),
                _line(4, 1024, 1024, 3.5825, median_decode_latency=0.018888, total_latency=22.969),
                _line(4, 1024, 1, 3.70, prefill_throughput=1107.0, total_latency=3.70, overall_throughput=1107.3),
            ]
        )
        + "\n"
    )
    (parsed,) = ingest.read_parsed(p)
    t = parsed.table
    assert len(parsed.rejected) == 0
    assert sorted(t.loc[t["metric"] == "prefill_latency", "rep"]) == [1, 1, 2]
    assert _one(t, "prefill_latency", output_len=1, rep=2) == 3.70
    assert _one(t, "decode_latency") == 0.018888
    assert any(re.search(r"repeats? a configuration", m) for m in parsed.messages)


def test_a_broken_result_line_is_refused_naming_its_line(tmp_path):
    p = tmp_path / "result.jsonl"
    p.write_text(_line(1, 8, 8, 0.1, total_latency=0.2) + "\n" + '{"run_name": "x", "batch_size": 1,\n')
    with pytest.raises(ParseError) as err:
        ingest.read(p)
    assert err.value.line == 2


def test_a_total_line_before_any_prefill_is_refused_naming_its_line(tmp_path):
    p = tmp_path / "out.txt"
    p.write_text(
        "Benchmark ...\nTotal. latency:  1.942 s, throughput:    154.52 token/s\n"
        "Prefill. latency: 0.03508 s, throughput:   5700.84 token/s\n"
    )
    with pytest.raises(ParseError) as err:
        ingest.read(p)
    assert err.value.line == 2


MINICPM = FIX / "minicpm_sala_bs4_in1024_out512_console_zh.md"


def test_what_comes_before_benchmark_is_the_warmup_even_when_its_marker_was_cut():
    # the tool prints `Warmup ...`, the warmup run, then `Benchmark ...`: this note kept only the last
    (p,) = ingest.read_parsed(MINICPM)
    assert set(p.rejected["reason"]) == {sglang_one_batch.WARMUP} and len(p.rejected) == 16
    assert set(p.rejected["line"]) == set(range(80, 88))
    t = p.table
    assert set(t["run"]) == {1}
    assert _one(t, "prefill_latency") == 0.37183
    assert _one(t, "decode_latency") == 0.01175
    assert _one(t, "total_latency") == 6.395


def test_the_console_takes_the_command_nearest_above_it():
    t = ingest.read(MINICPM)
    assert set(t["batch_size"]) == {4}
    assert set(t["input_len"]) == {1024} and set(t["output_len"]) == {512}  # not the first command's 256 / 32
    # the tool's total throughput: (input + output) x batch / total latency
    assert _one(t, "overall_throughput") == pytest.approx((1024 + 512) * 4 / 6.395, rel=1e-3)


def test_a_command_below_the_console_is_not_its_command(tmp_path):
    p = tmp_path / "notes.txt"
    p.write_text(
        "python -m sglang.bench_one_batch --model-path m --batch-size 2 --input-len 128 --output-len 8\n"
        "Benchmark ...\n"
        "Prefill. latency: 0.01000 s, throughput:  25600.00 token/s\n"
        "Total. latency:  0.100 s, throughput:   2720.00 token/s\n"
        "# next time:\n"
        "python -m sglang.bench_one_batch --model-path m --batch-size 8 --input-len 4096 --output-len 64\n"
    )
    t = ingest.read(p)
    assert set(t["input_len"]) == {128} and set(t["output_len"]) == {8}


_RUN = """```
Prefill. latency: 2.84264 s, throughput:  11527.30 token/s
Decode 0. Batch size: 32, latency: 0.21257 s, throughput:    150.54 token/s
Decode.  median latency: {lat} s, median throughput:    {tput} token/s
Total. latency:  4.755 s, throughput:   6958.84 token/s
```
"""
_CMD = "```bash\npython3 -m sglang.bench_one_batch --model-path m --tp-size 4 --batch 32 --input-len 1024 --output-len 10\n```\n"


def test_one_command_printed_once_per_captioned_kernel_is_one_run_per_caption(tmp_path):
    """The captions above each block tell the runs apart: configurations, not repeats of one."""
    f = tmp_path / "kernels.md"
    f.write_text(
        _CMD
        + "\nDefault triton backend:\n"
        + _RUN.format(lat="0.21319", tput="150.10")
        + "\nRec unroll\n"
        + _RUN.format(lat="0.20708", tput="154.53"),
        encoding="utf-8",
    )
    df = ingest.read(f, tool="sglang-bench-one-batch")
    assert list(df.drop_duplicates("run")["run_name"]) == ["Default triton backend", "Rec unroll"]


def test_one_caption_over_every_run_names_none(tmp_path):
    f = tmp_path / "out.md"
    f.write_text(_CMD + "\nterminal output:\n" + _RUN.format(lat="0.21319", tput="150.10"), encoding="utf-8")
    df = ingest.read(f, tool="sglang-bench-one-batch")
    assert "run_name" not in df or df["run_name"].isna().all()
