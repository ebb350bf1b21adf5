"""The --record-power summary of SGLang bench_serving / vllm bench serve in the energy contract: the
real block of sglang PR #21034 (8 GPUs, 2 samples), and the vLLM PR's lines for a block under a
result (its output rate divides the mean power). Values as printed; the GPU count from the tool's
own median total / per-GPU median."""

from __future__ import annotations

import pytest

from benchbook import config, ingest
from benchbook.analysis import energy as energy_analysis
from benchbook.ingest import ParseError, serving_power

SGLANG = config.FIXTURES_DIR / "serving-power" / "sglang_pr21034_record_power_8gpu.txt"

#: vllm PR #38647's example lines (result block and GPU section), with the PR code's later summary
#: lines computed from them (1653.77 tok/s / 649.00 W median), and no CPU socket read.
VLLM = """\
============ Serving Benchmark Result ============
Successful requests:                     300
Benchmark duration (s):                  72.85
Output token throughput (tok/s):         1653.77
-------------GPU Power (all devices)--------------
P25 Total Power (total W):               575.50
Mean Total Power (total W):              679.93
Median Total Power (total W):            649.00
Median Power (per-GPU W):                649.00
P75 Total Power (total W):               784.50
Power samples:                           15
-------------CPU Power (all sockets)--------------
CPU Mean Total Power (W):                None
CPU Power samples:                       None
------------------Power summary-------------------
Output toks/joule (GPU):                 2.5482
==================================================
"""


def _table(path):
    (p,) = [q for q in ingest.read_parsed(path) if q.tool == "serving-power"]
    assert p.cells_read == len(p.table) + len(p.rejected)
    return p


def _one(t, metric, scope):
    d = t[(t["metric"] == metric) & (t["scope"] == scope)] if scope else t[t["metric"] == metric]
    assert len(d) == 1, (metric, scope)
    return float(d["value"].iat[0])


def test_the_real_block_keeps_the_means_and_the_tools_tokens_per_joule_and_counts_its_gpus():
    p = _table(SGLANG)
    t = p.table
    assert _one(t, "mean_power", "gpu") == 2236.50
    assert _one(t, "mean_power", "cpu") == 254.40
    assert _one(t, "tokens_per_joule", "gpu+cpu") == 13.70
    assert set(t["device_count"]) == {8.0}  # 2236.50 / 279.56
    assert len(p.rejected) == 10
    assert any("2 samples only" in m for m in p.messages)
    # no rate beside the power: the page's figure is the tool's own, inverted
    rows = energy_analysis.runs(t).set_index("scope")
    assert rows.loc["gpu+cpu", "j_per_output_token"] == pytest.approx(1 / 13.70)
    assert rows.loc["gpu+cpu", "tokens_basis"] == "printed tokens per joule"
    assert pd_isna(rows.loc["gpu", "j_per_output_token"])


def pd_isna(v) -> bool:
    return v != v


def test_under_a_result_block_the_mean_power_is_divided_by_its_output_rate(tmp_path):
    f = tmp_path / "bench.txt"
    f.write_text(VLLM)
    p = _table(f)
    t = p.table
    assert _one(t, "output_throughput", None) == 1653.77
    assert set(t["device_count"]) == {1.0}
    assert not (t["scope"] == "cpu").any()
    assert any("not recorded (None)" in m for m in p.messages)
    rows = energy_analysis.runs(t).set_index("scope")
    assert rows.loc["gpu", "j_per_output_token"] == pytest.approx(679.93 / 1653.77)
    assert rows.loc["gpu", "tokens_basis"] == "sampled power / throughput"
    # the serving parser reads the result rows and leaves the power sections (a `None` among them) alone
    (serve,) = [q for q in ingest.read_parsed(f) if q.tool == "vllm-bench-serve"]
    assert serve.table["line"].max() <= 4 and (serve.rejected["line"] < 5).all()


def test_a_per_gpu_median_that_does_not_divide_the_total_gives_no_count(tmp_path):
    f = tmp_path / "bench.txt"
    f.write_text(SGLANG.read_text().replace("279.56", "300.00"))
    assert _table(f).table["device_count"].isna().all()


def test_the_parser_named_on_a_file_without_a_power_block_refuses_it():
    with pytest.raises(ParseError, match="GPU Power"):
        serving_power.parse("Successful requests: 3\n", "x.txt")
