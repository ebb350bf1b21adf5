"""A llama-sweep-bench command written over several lines ends each but the last in `\\`, which the shell joins
away: the model of `-m '/models_llm/x.gguf' -c 16384 \\` is the file `x.gguf`, without its quotes (shlex refuses
the unpaired backslash, and a plain split would keep them)."""

from __future__ import annotations

from benchbook.ingest import llama_sweep_bench


def test_a_continued_lines_quoted_model_path_loses_its_quotes():
    line = "./llama-sweep-bench -m '/models_llm/DeepSeek-R1-0528-UD-Q3_K_XL-00001-of-00007.gguf' -c 16384 -ngl 999 \\"
    assert llama_sweep_bench.command(line)["model_file"] == "DeepSeek-R1-0528-UD-Q3_K_XL-00001-of-00007.gguf"


def test_a_whole_command_on_one_line_reads_as_before():
    line = "./llama-sweep-bench -m /models/Qwen3-30B-A3B-Q8_0.gguf -c 16384 -ngl 99 -t 8"
    got = llama_sweep_bench.command(line)
    assert got["model_file"] == "Qwen3-30B-A3B-Q8_0.gguf"
