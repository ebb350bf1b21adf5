"""trtllm-bench parser: real reports of TensorRT-LLM 0.17, 0.21 and 1.0, the reproduction checks, bad input."""

from __future__ import annotations

import math

import pytest
from conftest import cell

from benchbook import config, ingest
from benchbook.checks import trtllm_bench as checks
from benchbook.ingest import ParseError
from benchbook.ingest import trtllm_bench as t

FIX = config.FIXTURES_DIR / "trtllm-bench"
OLD = FIX / "trtllm_bench_0.17_throughput_engine.txt"
STREAMING = FIX / "trtllm_bench_0.21_streaming_blog.txt"
TABBED = FIX / "trtllm_bench_0.21_blog_tabbed_overview.txt"
MULTIMODAL = FIX / "trtllm_bench_1.0_multimodal_docs.txt"
ALL = [OLD, STREAMING, TABBED, MULTIMODAL]


def parsed(path):
    return ingest.read_parsed(path, tool=t.NAME)[0]


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.name)
def test_detected_and_counted(path):
    assert t.sniff(path.read_text())
    p = parsed(path)
    assert p.cells_read == len(p.table) + len(p.rejected)


def test_old_layout_values_units_and_settings():
    p = parsed(OLD)
    tab = p.table
    row = cell(tab, "output_throughput", "value")
    assert (row["value"], row["line"], row["unit"]) == (28390.4265, 58, "tok/s")
    assert "Token Throughput" in row["note"]
    dur = cell(tab, "duration", "value")
    assert (dur["value"], dur["unit"]) == (pytest.approx(13.5256862), "s") and "ms" in dur["note"]
    assert cell(tab, "completed", "count")["value"] == 3000
    assert set(tab["model"]) == {"meta-llama/Llama-3.1-8B"}
    assert set(tab["dataset"]) == {"/tmp/synthetic_128_128.txt"}  # from the command line
    meta = tab["metadata"].iat[0]
    assert "backend=TRT" in meta and "max_batch_size=4096" in meta and "subcommand=throughput" in meta
    assert p.version == "TensorRT-LLM 0.17.0"
    # the issue rate (requests over ~0 ns) is read, then set aside by the range screen
    assert list(p.rejected["line"]) == [50] and "out of physical range" in p.rejected["reason"].iat[0]


def test_streaming_blocks_and_the_repeated_averages():
    p = parsed(STREAMING)
    tab = p.table
    assert cell(tab, "ttft", "p99")["value"] == 232.4339
    assert cell(tab, "tpot", "mean")["line"] == 41
    assert cell(tab, "e2el", "min")["value"] == 1050.1519
    assert cell(tab, "output_token_throughput_per_user", "p50")["unit"] == "tok/s/user"
    assert cell(tab, "per_user_output_throughput", "mean")["value"] == 117.1544
    assert cell(tab, "concurrent_requests", "mean")["value"] == 94.605
    assert cell(tab, "dataset_sequence_length", "p99")["value"] == 256
    # each block's AVERAGE repeats the mean printed above it: kept once, the repeat reported
    dup = p.rejected[p.rejected["reason"].str.startswith("duplicate row")]
    assert sorted(dup["line"]) == [48, 58, 68, 82]
    assert p.version == "TensorRT-LLM 0.21.0rc0"
    assert "backend=pytorch" in tab["metadata"].iat[0] and "ep=None" in tab["metadata"].iat[0]


def test_tabs_read_like_spaces():
    a, b = parsed(TABBED).table, parsed(STREAMING).table
    for metric, stat in [("request_throughput", "value"), ("duration", "value"), ("ttft", "mean")]:
        assert cell(a, metric, stat)["value"] == cell(b, metric, stat)["value"]


def test_newer_layout_without_version_is_guessed_from_its_sections():
    p = parsed(MULTIMODAL)
    assert p.version == "0.19+ layout (REQUEST DETAILS)"
    assert cell(p.table, "per_user_output_throughput", "mean")["value"] == 38.1959
    assert cell(p.table, "output_throughput_per_gpu", "value")["unit"] == "tok/s/gpu"


def test_command_line_gives_the_load_setting():
    text = "$ trtllm-bench --model m throughput --dataset d.jsonl --concurrency 64 --num_requests 500 --streaming\n"
    tab = t.parse(text + STREAMING.read_text(), "c.txt").table
    assert set(tab["max_concurrency"]) == {64.0} and set(tab["num_prompts"]) == {500.0}
    assert "streaming=yes" in tab["metadata"].iat[0]
    # without it the load is not known
    assert math.isnan(parsed(STREAMING).table["max_concurrency"].iat[0])


def test_short_model_flag_and_tab_wrapped_command_of_a_real_report():
    """TensorRT-LLM's DeepSeek-V3.2 blog: `trtllm-bench -m deepseek-ai/DeepSeek-V3.2-Exp \\` with tab-indented
    continuation lines and MTP in the config heredoc above the report."""
    tab = parsed(FIX / "dsv32_blog_b200_max_throughput_tp8_ep8_mtp1.md").table
    assert set(tab["model"]) == {"deepseek-ai/DeepSeek-V3.2-Exp"}
    assert set(tab["max_concurrency"]) == {256.0} and set(tab["num_prompts"]) == {768.0}
    assert "tp=8" in tab["metadata"].iat[0] and "speculative=MTP" in tab["metadata"].iat[0]
    assert cell(tab, "output_throughput_per_gpu", "value")["value"] == 1077.277


def test_command_wrapped_without_backslashes_is_read_whole():
    """The DeepSeek-R1 practice guide's B200 FP4 section indents `throughput` and each option under
    `trtllm-bench --model M` with no backslash: the command is still one command."""
    tab = parsed(FIX / "dsr1_blog_b200_max_throughput_fp4_tp8_ep8.md").table
    assert set(tab["model"]) == {"nvidia/DeepSeek-R1-0528-FP4"}
    assert set(tab["max_concurrency"]) == {7168.0} and set(tab["num_prompts"]) == {114688.0}
    assert "tp=8" in tab["metadata"].iat[0] and "ep=8" in tab["metadata"].iat[0]


def test_indented_lines_after_a_finished_command_are_not_its_options():
    """Only option lines carry a command on: an indented line of prose after it is not read as one,
    and a command that names no subcommand is no trtllm-bench run command."""
    text = "trtllm-bench --model m throughput --concurrency 4\n    see the notes below\n"
    tab = t.parse(text + STREAMING.read_text(), "c.txt").table
    assert set(tab["max_concurrency"]) == {4.0}
    text = "trtllm-bench --model m\n    --concurrency 4\nthe throughput is below\n"
    assert math.isnan(t.parse(text + STREAMING.read_text(), "c.txt").table["max_concurrency"].iat[0])


def test_unknown_label_is_rejected_with_its_reason():
    text = STREAMING.read_text().replace(
        "Total Latency (ms):", "Median Queue Time (ms):                           3.2000\nTotal Latency (ms):"
    )
    p = t.parse(text, "u.txt")
    reasons = [r for r in p.rejected["reason"] if "not known" in r]
    assert len(reasons) == 1 and "Median Queue Time" in reasons[0]
    assert p.cells_read == len(p.table) + len(p.rejected)


def test_two_reports_are_two_runs():
    p = t.parse(OLD.read_text() + "\n" + STREAMING.read_text(), "two.txt")
    assert list(p.table["run"].unique()) == ["report 1", "report 2"]
    assert set(p.table[p.table["run"] == "report 2"]["model"]) == {"meta-llama/Llama-3.1-8B-Instruct"}


@pytest.mark.parametrize("path", [OLD, STREAMING, MULTIMODAL], ids=lambda p: p.name)
def test_reproduction_agrees(path):
    r = checks.reproduce(path)
    assert len(r) >= 2 and r["agrees"].all()


def test_reproduction_catches_a_changed_number(tmp_path):
    bad = tmp_path / "changed.txt"
    bad.write_text(MULTIMODAL.read_text().replace("185.8351\nPer User", "195.8351\nPer User"))
    r = checks.reproduce(bad)
    row = r[r["quantity"] == "report 1: output_throughput"].iloc[0]
    assert not row["agrees"] and row["published"] == 195.8351


def test_audit_names_the_issue_rate():
    a = checks.audit(STREAMING)
    assert list(a["line"]) == [28] and a["defect"].iat[0] == "issue rate is not a physical rate"
    assert checks.audit(TABBED).empty


@pytest.mark.parametrize(
    "text",
    [
        "",
        "= PERFORMANCE OVERVIEW\n",
        "=" * 59 + "\n= PERFORMANCE OVERVIEW\n" + "=" * 59 + "\n",
        "=" * 59 + "\n= PERFORMANCE OVERVIEW\n" + "=" * 59 + "\nRequest Throughput (req/sec): none\n",
    ],
)
def test_bad_input_raises_parse_error(text):
    with pytest.raises(ParseError):
        t.parse(text, "bad.txt")


WSL = config.FIXTURES_DIR / "trtllm-bench" / "wsl_llama32_3b_vllm_fp4_then_trtllm_recipe.md"


def test_an_issue_rate_faster_than_any_request_is_an_unlimited_rate_the_report_states():
    """Issue Rate is requests over the span the tool enqueued them in: 16 requests in 1.5e-16 s, before the
    first finished (1,678 ms), is an unlimited rate; 2 req/s (8 s to enqueue) is not, and stays unknown."""
    burst = t.parse(WSL.read_text(), "wsl.md")
    assert set(burst.table["request_rate"]) == {math.inf}
    assert any("enqueued within 1.5e-16 s" in m for m in burst.messages)
    paced = t.parse(WSL.read_text().replace("1.0535E+17", "2.0000E+00"), "wsl.md")
    assert paced.table["request_rate"].isna().all() and not any("enqueued" in m for m in paced.messages)


CUT = """Issue Rate (req/sec):   2.3129E+15

===========================================================
= PERFORMANCE OVERVIEW
===========================================================
Request Throughput (req/sec):                     248.4751
Total Output Throughput (tokens/sec):             6957.3030
Total Latency (ms):                               120736.4401

-- Request Latency Breakdown (ms) -----------------------

[Latency] MINIMUM: 39903.1921
[Latency] AVERAGE: 53522.9014
"""


def test_a_report_cut_inside_its_request_block_keeps_the_issue_rate_above_its_banners():
    from benchbook.ingest import trtllm_bench

    got = trtllm_bench.parse(CUT, "cut.txt")
    rates = set(got.table["request_rate"])
    # 248.48 req/s x 120.7 s = 30,000 requests enqueued within 1.3e-11 s, before the first finished
    assert rates == {float("inf")} and any("an unlimited request rate" in m for m in got.messages)
    # the other way: without the line, the rate is not stated, and nothing is assumed here
    bare = trtllm_bench.parse(CUT.split("\n", 2)[2], "bare.txt")
    assert not any("unlimited" in m for m in bare.messages)


ETCHED = config.FIXTURES_DIR / "trtllm-bench" / "etched_llama31_70b_fp8_tp8_isl1024_osl1024_full_log.txt"


def test_a_report_without_request_latencies_reads_an_issue_span_under_a_microsecond_as_all_at_once():
    """A 0.16 report prints no per-request latency: 3,000 requests enqueued within 1.8e-11 s is faster than
    any request can finish, so all at once; at 1,000 req/s (3 s to enqueue) it is no burst, and stays unknown."""
    burst = t.parse(ETCHED.read_text(), "etched.txt")
    assert set(burst.table["request_rate"]) == {math.inf}
    assert any("faster than any request can finish" in m for m in burst.messages)
    paced = t.parse(ETCHED.read_text().replace("1.6324E+14", "1.0000E+03"), "etched.txt")
    assert paced.table["request_rate"].isna().all() and not any("enqueued" in m for m in paced.messages)
