"""bench_one_batch's console pasted into a shell script as `# ` comments: read through the comment
marker, its settings from the command that ran (not the commented-out alternatives)."""

from __future__ import annotations

import pytest
from conftest import cell

from benchbook import config, ingest
from benchbook.ingest import sglang_one_batch

SCRIPT = config.FIXTURES_DIR / "sglang-bench-one-batch" / "amd_rocm_grok1_w4a8_tp8_bs1_commented_console.sh"

CONSOLE = """Benchmark ...
Prefill. latency: 0.32363 s, throughput:   3164.09 token/s
Decode.  median latency: 0.01577 s, median throughput:     63.41 token/s
Total. latency:  2.327 s, throughput:    495.07 token/s
"""


def test_a_commented_console_reads_with_the_settings_of_the_command_that_ran():
    assert ingest.detect(SCRIPT.read_text()) == ["sglang-bench-one-batch"]
    (p,) = ingest.read_parsed(SCRIPT)
    t = p.table
    assert set(t["batch_size"]) == {1} and set(t["tp"]) == {8} and set(t["input_len"]) == {1024}
    assert set(t["model"]) == {"/mnt/raid/models/amd--grok-1-W4A8KV8/"}
    assert cell(t, "decode_latency", "median")["value"] == pytest.approx(0.01577)
    assert (p.rejected["reason"] == sglang_one_batch.WARMUP).sum() == 16


def _script(command: str) -> str:
    return command + "\n" + "".join("# " + s + "\n" for s in CONSOLE.splitlines())


def test_commented_commands_count_only_where_none_ran():
    ran = "python -m sglang.bench_one_batch --model m --batch-size 4 --input 8 --output 8\n# python -m sglang.bench_one_batch --model m --batch-size 32 --input 8 --output 8"
    t = sglang_one_batch.parse(_script(ran), "s.sh").table
    assert set(t["batch_size"]) == {4}
    # the other way: with every command commented, the nearest one above the output is the run's
    only = "# python -m sglang.bench_one_batch --model m --batch-size 32 --input 8 --output 8"
    t = sglang_one_batch.parse(_script(only), "s.sh").table
    assert set(t["batch_size"]) == {32}


def test_a_commented_decode_line_before_any_prefill_is_refused_naming_its_line():
    text = "# Benchmark ...\n# Decode.  median latency: 0.01577 s, median throughput:     63.41 token/s\n"
    text += "# Prefill. latency: 0.32363 s, throughput:   3164.09 token/s\n# Total. latency:  2.327 s, throughput:    495.07 token/s\n"
    with pytest.raises(ingest.ParseError) as err:
        sglang_one_batch.parse(text, "s.sh")
    assert err.value.line == 2
