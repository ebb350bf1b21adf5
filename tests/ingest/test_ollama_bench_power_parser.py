"""obench.sh (Ollama eval rates) with the machine's power beside them, from geerlingguy/ai-benchmarks
issues: the script's average kept per model with the reading below it or in its heading, the single
runs set aside with their spread said, an average reading kept as a mean, not a bare reading."""

from __future__ import annotations

import pytest

from benchbook import config, ingest
from benchbook.analysis import energy as energy_analysis

FIX = config.FIXTURES_DIR / "ollama-bench-power"
PI = FIX / "ai_benchmarks_issue24_pi500plus.md"
RYZEN = FIX / "ai_benchmarks_issue33_ryzen_ai_5_340.md"
RADXA = FIX / "ai_benchmarks_issue13_radxa_o6_llama.md"


def _parsed(path):
    (p,) = ingest.read_parsed(path)
    assert p.tool == "ollama-bench-power" and p.cells_read == len(p.table) + len(p.rejected)
    return p


def _value(t, model, metric):
    d = t[(t["model"] == model) & (t["metric"] == metric)]
    assert len(d) == 1
    return float(d["value"].iat[0])


def test_each_model_gets_its_average_and_the_reading_below_it():
    p = _parsed(RYZEN)
    t = p.table
    assert _value(t, "llama3.1:8b", "output_throughput") == 10.46
    assert _value(t, "llama3.1:8b", "power_reading") == 51.7
    assert _value(t, "deepseek-r1:14b", "power_reading") == 50.4
    assert set(t.loc[t["metric"] == "power_reading", "scope"]) == {"system"}
    assert len(p.rejected) == 9
    rows = energy_analysis.runs(t).set_index("model")
    assert rows.loc["llama3.2:3b", "j_per_output_token"] == pytest.approx(51.1 / 23.81)
    assert rows.loc["llama3.2:3b", "tokens_basis"] == "machine power / eval rate"


def test_a_reading_in_the_heading_and_a_console_run_are_read_alike():
    t = _parsed(RADXA).table
    assert _value(t, "llama3.2:3b", "power_reading") == 30.3
    assert _value(t, "llama3.2:3b", "output_throughput") == 9.33
    u = _parsed(PI).table
    assert _value(u, "llama3.2:3b", "power_reading") == 13.0
    assert _value(u, "llama3.2:3b", "output_throughput") == 5.55


def test_an_average_reading_is_a_mean_power(tmp_path):
    f = tmp_path / "optiplex.md"
    f.write_text(RADXA.read_text().replace(" (30.3W)", "") + "\nConsumed about 143W on average.\n")
    t = _parsed(f).table
    assert _value(t, "llama3.2:3b", "mean_power") == 143.0
    assert not (t["metric"] == "power_reading").any()


def test_a_reading_above_every_benchmark_is_set_aside(tmp_path):
    f = tmp_path / "early.md"
    f.write_text("Power draw: 40W\n\n" + RADXA.read_text())
    p = _parsed(f)
    assert (p.rejected["reason"] == "no Ollama benchmark above this reading").sum() == 1


PEAK = FIX / "sbc_reviews_issue21_pi5_16gb_d0_ollama_power_peak_excerpt.md"
ROWS = FIX / "ai_benchmarks_issue2_m4_mac_mini_readme_rows_idle_6w.md"


def test_the_readme_table_gives_each_rows_rate_and_its_peak_under_a_power_peak_header():
    t = _parsed(PEAK).table
    assert _value(t, "llama3.2:3b", "output_throughput") == 4.88
    assert _value(t, "llama3.2:3b", "peak_power") == 11.9
    assert set(t["device"]) == {"Pi 5 - 16GB"} and "power_reading" not in set(t["metric"])
    assert ingest.detect(PEAK.read_text(encoding="utf-8")) == ["ollama-bench-power"]


def test_rows_without_a_header_give_a_reading_not_a_peak_and_the_idle_line_above_them():
    t = _parsed(ROWS).table
    assert _value(t, "llama3.2:3b", "power_reading") == 31.4 and "peak_power" not in set(t["metric"])
    assert _value(t, "llama3.1:8b", "idle_power") == 6.0
    # the other way: a header that names no peak keeps a reading too
    text = "| System | CPU/GPU | Model | Eval Rate | Power |\n|---|---|---|---|---|\n| X | GPU | m:1b | 10.0 Tokens/s | 20.0 W |\n"
    from benchbook.ingest import ollama_bench_power

    u = ollama_bench_power.parse(text, "t.md").table
    assert set(u["metric"]) == {"output_throughput", "power_reading"} and "idle_power" not in set(u["metric"])


def test_a_peak_alone_forms_no_energy_per_token():
    r = energy_analysis.runs(ingest.read(PEAK))
    assert r["j_per_output_token"].isna().all() and r["peak_power_w"].notna().all()
