"""A write-up that runs one of flash-attention's benchmark scripts and ends before any line the run printed
(a real one: flash-attention issue 2570's environment and `benchmarks/benchmark_attn.py` command, cut there in
the stored copy) is refused in one sentence naming the command's line; a command followed by timings in a
layout this module does not read is not said to have none, and the script's own lines are read."""

from __future__ import annotations

from benchbook.ingest import flash_attn_bench

HEAD = "### Environment\n\n- GPU: NVIDIA B200 (SM100)\n\n```bash\n# MHA\n"
COMMAND = "CUDA_VISIBLE_DEVICES=0 python benchmarks/benchmark_attn.py \\\n  --fwd --bwd --headdim 25\n"


def test_a_command_with_no_timing_after_it_is_refused_naming_its_line():
    line, why = flash_attn_bench.refuses(HEAD + COMMAND)
    assert line == 7
    assert "benchmark_attn.py" in why and "ends before the run printed" in why


def test_timings_in_another_layout_after_the_command_are_not_said_to_be_missing():
    table = "  hdim causal batch seqlen        FA4\n   64  False    32   1024    0.39/702/31.2%/1.37/17.1%\n"
    assert flash_attn_bench.refuses(HEAD + COMMAND + "```\n" + table) is None


def test_the_scripts_own_lines_are_read_not_refused():
    out = "### causal=False, headdim=64, batch_size=32, seqlen=512 ###\nFlash2 fwd: 308.40 TFLOPs/s, bwd: 243.05 TFLOPs/s, fwd + bwd: 258.71 TFLOPs/s\n"
    assert flash_attn_bench.sniff(COMMAND + out)
    assert flash_attn_bench.refuses(COMMAND + out) is None
