"""llama-bench tables with a machine's power reading under each (geerlingguy/ai-benchmarks issues):
the reading, the idle draw and the generation rate read from the real excerpts by hand, the wall
scope, an estimate per output token (the reading is not called a mean), placeholders refused."""

from __future__ import annotations

import pandas as pd
import pytest

from benchbook import config, ingest
from benchbook.analysis import energy
from benchbook.claims import energy as energy_claims
from benchbook.ingest import llama_bench_power

FIX = config.FIXTURES_DIR / "llama-bench-power"
I46 = FIX / "geerlingguy_ai_benchmarks_issue46_rtx2080ti_265k_excerpt.md"
I40 = FIX / "geerlingguy_ai_benchmarks_issue40_rtx3060_cm5_excerpt.md"


def _power(path):
    parsed = {p.tool: p for p in ingest.read_parsed(path)}
    assert set(parsed) == {"llama-bench", "llama-bench-power"}  # the rates stay llama-bench's too
    p = parsed["llama-bench-power"]
    assert p.cells_read == len(p.table) + len(p.rejected)
    return p


def _value(t, metric):
    d = t[t["metric"] == metric]
    assert len(d) == 1, metric
    return float(d["value"].iloc[0]), int(d["line"].iloc[0])


def test_reading_idle_and_generation_rate_with_their_lines():
    t = _power(I46).table
    assert _value(t, "power_reading") == (241.4, 16)
    assert _value(t, "idle_power") == (47.7, 5)
    assert _value(t, "output_throughput") == (424.32, 13)  # tg128, not a pp rate
    assert set(t.loc[t["scope"].notna(), "scope"]) == {"system"}  # the whole machine, at the wall
    assert "mean_power" not in set(t["metric"])  # the issue does not call the reading a mean
    assert set(t["device"]) == {"Intel Core Ultra 265K Custom PC 64GB on Ubuntu 25.10"}
    assert set(t["model"]) == {"tinyllama-1.1b-1t-openorca.Q4_K_M.gguf"}


def test_the_figure_per_token_is_an_estimate_and_the_idle_draw_comes_off_the_reading():
    r = energy.runs(_power(I46).table.assign(source=I46.name)).iloc[0]
    assert r["tokens_basis"] == "power reading / throughput"
    assert r["j_per_output_token"] == pytest.approx(241.4 / 424.32)
    assert r["j_per_output_token_active"] == pytest.approx((241.4 - 47.7) / 424.32)
    assert r["idle_share"] == pytest.approx(47.7 / 241.4)
    assert "estimate" in energy_claims.per_run(r, 0).rule


def test_without_an_idle_reading_no_idle_subtracted_figure():
    r = energy.runs(_power(I40).table.assign(source=I40.name)).iloc[0]
    assert r["j_per_output_token"] == pytest.approx(165 / 279.05)
    assert r["j_per_output_token_active"] != r["j_per_output_token_active"]  # NaN


def test_a_wall_estimate_is_never_ranked_with_a_gpu_figure():
    """A wall estimate (0.569 J/tok) and a GPU-only one (100 W / 424.32 tok/s, 0.236 J/tok) are
    different quantities: with one of each, no cheapest is named."""
    wall = _power(I46).table.assign(source=I46.name)
    rate = wall[wall["metric"] == "output_throughput"].assign(run="gpu run", source="g")
    power = rate.assign(metric="mean_power", value=100.0, unit="W", scope="gpu", statistic="mean")
    rows = energy.quoted(energy.runs(pd.concat([wall, rate, power], ignore_index=True)))
    assert set(rows["scope"]) == {"system", "gpu"}
    assert energy_claims.cheapest(rows, "j_per_output_token", "x").status == "withheld"


def test_a_placeholder_reading_is_not_a_number():
    text = I46.read_text(encoding="utf-8").replace("Power consumption: 241.4W", "Power consumption: TODOW")
    with pytest.raises(ingest.ParseError, match="no 'Power consumption"):
        llama_bench_power.parse(text, "x.md")
    assert not llama_bench_power.sniff(text)


LB = config.FIXTURES_DIR / "llama-bench"


def test_a_reading_said_around_is_a_reading_and_one_said_average_is_a_mean_over_the_run():
    around = _power(LB / "framework_desktop_gpt_oss_20b_vulkan.md").table  # "Power consumption around 97W"
    assert _value(around, "power_reading") == (97.0, 18)
    assert _value(around, "output_throughput") == (45.01, 12)  # tg128
    assert set(around["model"].dropna()) == {"gpt-oss-20b-F16.gguf"}  # the -m file, not the heading
    assert set(around["device"].dropna()) == {"Radeon 8060S Graphics (RADV GFX1151) (radv)"}  # the printed device
    average = _power(LB / "dell_xps13_cpu.md").table  # "Power consumption (average): 17.5W"
    assert _value(average, "mean_power") == (17.5, 12)
    assert "power_reading" not in set(average["metric"])
    row = energy.runs(average).iloc[0]
    # a mean over every test of the run divided by one test's rate: an estimate, not a measured energy
    assert row["tokens_basis"] == "run mean power / throughput"
    assert row["j_per_output_token"] == pytest.approx(17.5 / 24.80)
    # the same figure under a plain reading keeps the reading's basis: the file says neither mean nor peak
    assert energy.runs(around).iloc[0]["tokens_basis"] == "power reading / throughput"


I51 = FIX / "geerlingguy_ai_benchmarks_issue51_cix_cp8180_cpu_llama1b_excerpt.md"


def test_a_reading_said_avg_is_a_mean_over_the_run_under_its_table():
    """Issue 51 prints the author's mean as `Avg power consumption: 28W` under a CPU-only table."""
    t = _power(I51).table
    assert _value(t, "mean_power") == (28.0, 10)
    assert _value(t, "output_throughput") == (40.39, 7)  # tg128
    assert "power_reading" not in set(t["metric"])
    assert energy.runs(t).iloc[0]["j_per_output_token"] == pytest.approx(28.0 / 40.39)
    # the other way: the same line above any table has no generation test to go with, and is refused
    text = I51.read_text(encoding="utf-8")
    moved = "Avg power consumption: 28W\n\n" + text.replace("Avg power consumption: 28W\n", "")
    with pytest.raises(ingest.ParseError, match="no 'Power consumption"):
        llama_bench_power.parse(moved, "x.md")
