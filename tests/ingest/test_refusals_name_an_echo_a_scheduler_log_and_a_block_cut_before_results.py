"""A file that holds what a benchmark prints before its results (SGLang's `benchmark_args=Namespace(...)`,
inference-perf's configuration echo), a server's own log (SGLang's `Decode batch.` lines), SGLang-JAX's
benchmark command, or an SGLang result block cut after its settings, is refused naming that line (issue #35
item 2), never with "no known tool output found" alone or a line that is not what it says."""

from __future__ import annotations

import pytest

from benchbook import ingest
from benchbook.ingest import unclaimed


def _refusal(tmp_path, text: str) -> ingest.ParseError:
    p = tmp_path / "notes.md"
    p.write_text(text, encoding="utf-8")
    with pytest.raises(ingest.ParseError) as exc:
        ingest.read_parsed(p)
    return exc.value


def test_a_benchmarks_echo_of_its_settings_is_named_by_its_line():
    # real: sglang PR 7762, inference-perf PR 77
    lines = ["### the complete log", "```shell", "benchmark_args=Namespace(backend='sglang', num_prompts=256, ra"]
    assert unclaimed.command(lines) == (3, "sglang.bench_serving's echo of its arguments, and none of its results")
    echo = ["Example output:", "```", "Benchmarking with the following config:", "", "api: completion"]
    assert unclaimed.command(echo) == (3, "inference-perf's echo of its configuration, and no report")
    # the other way: a sentence about a config names nothing
    assert unclaimed.command(["We benchmark with the following settings: TP 8."]) is None


def test_sglangs_scheduler_log_is_named_as_a_servers_log():
    # real: antgroup/sglang PR 4
    log = (
        "2025-10-29 02:27:35 INFO 8900 [ DP15 TP15 EP15 scheduler_metrics_mixin.py:222] Decode batch. #running-req: 48"
    )
    line, what = unclaimed.command(["**Example Output**:", "```", log])
    assert line == 3 and what.startswith("SGLang's scheduler log")
    assert unclaimed.command(["the decode batch size was 48"]) is None


def test_sglang_jaxs_bench_one_batch_is_a_benchmarks_command_and_a_log_lines_plural_no_table(tmp_path):
    # real: sgl-project/sglang-jax PR 627: `head(s)` in a comma-rich log line is a plural, not seconds
    text = (
        "```\nuv run python -m sgl_jax.bench_one_batch --model-path Qwen/Qwen2.5-0.5B --attention-backend fa\n"
        "[2026-01-06 07:50:27 TP0] KV heads distribution for GQA model: original_kv_heads=2, tp_size=1, "
        "each device gets 2 head(s), no replication needed, padding_strategy=replicate\n"
        "Fetching 10 files: 100%|████| 10/10 [00:00<00:00, 119495.84it/s]\n"
    )
    exc = _refusal(tmp_path, text)
    assert exc.line == 2 and exc.sign == "a command that runs sgl_jax.bench_one_batch, and none of its output"
    # the other way: a bare `(s)` in a header is seconds, so a table of it is still found
    assert unclaimed.sign(["model, batch, latency (s), note", "a, 1, 0.5, x"]) is not None


def test_an_sglang_block_cut_after_its_settings_is_refused_at_its_banner(tmp_path):
    # real: sglang PR 14165, the --plot-throughput chart then a block cut at `Max request concurrency`
    text = (
        "intro\n\n============ Serving Benchmark Result ============\n"
        "Backend:                                 sglang-oai\nTraffic request rate:                    inf\n"
        "Max request concurrency\n"
    )
    exc = _refusal(tmp_path, text)
    assert exc.line == 3 and "stops at line 5 before any result" in str(exc)
    # the other way: a block with a result row is read
    whole = text.replace("Max request concurrency\n", "Successful requests:                     80\n")
    assert ingest.read_parsed(_write(tmp_path, whole))


def _write(tmp_path, text: str):
    p = tmp_path / "whole.md"
    p.write_text(text, encoding="utf-8")
    return p
