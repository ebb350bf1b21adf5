"""GenAI-Perf's GPU telemetry tables in the energy contract: mean power per run summed over the
GPUs, the peak of one GPU, the energy counter's rise only where its printed decimals resolve it, the
power limit set aside as a cap; GenAI-Perf's own metrics tables stay the `genai-perf` parser's."""

from __future__ import annotations

import pytest

from benchbook import config, ingest
from benchbook.ingest import ParseError, genai_perf, genai_perf_telemetry

DOCS = config.FIXTURES_DIR / "genai-perf-telemetry" / "perf_analyzer_docs_gpu_telemetry.md"


def _value(t, run, metric):
    d = t[(t["run"] == run) & (t["metric"] == metric)]
    assert len(d) == 1, (run, metric, len(d))
    return float(d["value"].iat[0])


def test_the_docs_two_runs_read_one_gpu_and_four():
    (p,) = ingest.read_parsed(DOCS)
    assert p.tool == "genai-perf-telemetry"
    assert p.cells_read == len(p.table) + len(p.rejected)
    t = p.table
    assert _value(t, "telemetry at line 193", "mean_power") == pytest.approx(63.55)
    assert _value(t, "telemetry at line 193", "peak_power") == pytest.approx(111.39)
    assert _value(t, "telemetry at line 249", "mean_power") == pytest.approx(79.60 + 42.09 + 43.99 + 42.56)
    assert set(t.loc[t["run"] == "telemetry at line 249", "device_count"]) == {4.0}
    # the counter's min and max are equal at 0.01 MJ: no energy of the run, and 67.33 MJ never one
    assert "energy" not in set(t["metric"])
    reasons = set(p.rejected["reason"])
    assert "the board's power limit: a cap, not a measured draw" in reasons
    assert "a statistic of a cumulative energy counter's readings, not an energy" in reasons


def _box(energy_min: str, energy_max: str) -> str:
    return "\n".join(
        [
            "                 NVIDIA GenAI-Perf | Power Metrics",
            "│                       GPU Power Usage (W)                        │",
            "│ ┃ GPU Index ┃   avg ┃   min ┃    max ┃ │",
            "│ │         0 │ 63.55 │ 21.00 │ 111.39 │ │",
            "│                    Energy Consumption (MJ)                       │",
            "│ ┃ GPU Index ┃   avg ┃   min ┃   max ┃    │",
            f"│ │         0 │ 67.40 │ {energy_min} │ {energy_max} │    │",
            "",
        ]
    )


def test_a_counter_rise_the_decimals_resolve_is_kept_as_the_runs_energy():
    t = genai_perf_telemetry.parse(_box("67.33", "67.53"), "synthetic.txt").table
    e = t[t["metric"] == "energy"]
    assert float(e["value"].iat[0]) == pytest.approx(0.20e6) and e["scope"].iat[0] == "gpu"
    # the other way: a rise of one printed step is not known to better than that step
    t = genai_perf_telemetry.parse(_box("67.33", "67.34"), "synthetic.txt").table
    assert "energy" not in set(t["metric"])


def test_a_row_with_a_cell_missing_is_refused_naming_its_line(tmp_path):
    bad = tmp_path / "telemetry.txt"
    bad.write_text(_box("67.33", "67.53").replace("│ 21.00 ", ""))
    with pytest.raises(ParseError) as err:
        ingest.read(bad)
    assert err.value.line == 4 and "GPU Power Usage" in err.value.message


def test_telemetry_tables_alone_are_not_genai_perfs_metrics_but_beside_them_both_read():
    text = DOCS.read_text()
    assert ingest.detect(text) == ["genai-perf-telemetry"]
    llm = (config.FIXTURES_DIR / "genai-perf" / "issue393_qwen3_14b_console.txt").read_text()
    assert genai_perf.sniff(llm) and not genai_perf_telemetry.sniff(llm)
    assert set(ingest.detect(llm + "\n" + _box("1.00", "2.00"))) == {"genai-perf", "genai-perf-telemetry"}
