"""`benchbook ingest` names what it read (tool, version guess, runs) and, for a file of no known tool,
lists the formats it reads, one line per tool with the command that writes them."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from benchbook import config, ingest
from benchbook.cli import app

FIX = config.FIXTURES_DIR


def run(*args):
    return CliRunner().invoke(app, ["ingest", *map(str, args)])


def test_unknown_file_lists_every_tool_with_its_formats_and_command(tmp_path):
    junk = tmp_path / "notes.txt"
    junk.write_text("a shopping list\n")
    res = run(junk)
    assert res.exit_code == 2
    lines = res.output.strip().splitlines()
    assert lines[0] == "error: notes.txt:1: no known tool output found; benchbook ingest reads these formats:"
    listed = [line.strip().split(" — ", 1)[0] for line in lines[1:]]
    assert listed == list(ingest.tools())
    trt = next(line for line in lines if line.strip().startswith("trtllm-bench — "))
    assert "PERFORMANCE OVERVIEW" in trt and "made by: trtllm-bench --model" in trt
    sql = next(line for line in lines if line.strip().startswith("llama-bench — "))
    assert "sql" in sql and "made by: llama-bench" in sql


def test_every_registered_tool_says_what_it_reads_and_what_writes_it():
    for name, tool in ingest.tools().items():
        assert tool.description and tool.command, name


def test_a_known_but_broken_file_is_still_one_line(tmp_path):
    """Only 'no known tool' lists the formats; a file the tool refuses keeps its one sentence."""
    bad = tmp_path / "bad.txt"
    bad.write_text("=" * 59 + "\n= PERFORMANCE OVERVIEW\n" + "=" * 59 + "\nRequest Throughput (req/sec): none\n")
    res = run(bad, "--tool", "trtllm-bench")
    assert res.exit_code == 2 and len(res.output.strip().splitlines()) == 1
    assert res.output.startswith("error: bad.txt:")


@pytest.mark.parametrize(
    "path, said",
    [
        ("trtllm-bench/trtllm_bench_0.21_streaming_blog.txt", "detected: trtllm-bench (TensorRT-LLM 0.21.0rc0), 1 run"),
        (
            "trtllm-bench/trtllm_bench_1.0_multimodal_docs.txt",
            "detected: trtllm-bench (0.19+ layout (REQUEST DETAILS)), 1 run",
        ),
        (
            "llama-bench/llamacpp_readme_b1275.sql",
            "detected: llama-bench (build 3469684 (1275)), 1 configuration",
        ),  # pp512, tg128: one setting
        (
            "vllm-bench-offline/young_tw_llama31_70b_rocm.md",
            "detected: vllm-bench-offline (Throughput line with output tokens/s, vLLM PR #8914 or later), 2 runs",
        ),
    ],
)
def test_success_names_tool_version_and_runs(tmp_path, path, said):
    res = run(FIX / path, "-o", tmp_path / "out.csv")
    assert res.exit_code == 0, res.output
    lines = res.output.strip().splitlines()
    assert lines[0] == said
    assert "rows kept" in lines[-1]  # the summary stays the last line


def test_two_reports_are_two_runs(tmp_path):
    f = tmp_path / "two.log"
    f.write_text(
        (FIX / "trtllm-bench/trtllm_bench_0.17_throughput_engine.txt").read_text()
        + (FIX / "trtllm-bench/trtllm_bench_0.21_streaming_blog.txt").read_text()
    )
    res = run(f, "-o", tmp_path / "out.csv")
    assert res.exit_code == 0
    assert res.output.splitlines()[0] == "detected: trtllm-bench (TensorRT-LLM 0.17.0, 0.21.0rc0), 2 runs"


def test_the_run_on_your_data_page_names_every_tool_it_reads():
    """A format `benchbook ingest` reads but the page never names is one a reader cannot find."""
    from benchbook import config, ingest

    page = (config.BOOK_DIR / "run_on_your_data.md").read_text(encoding="utf-8")
    missing = [name for name in ingest.tools() if f"`{name}`" not in page and name not in page]
    assert not missing, missing
