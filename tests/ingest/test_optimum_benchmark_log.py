"""optimum-benchmark's console log: the report its `report` logger prints at the end of a run, read
as the JSON report is (the same run's benchmark.json is the check), colour codes and all."""

from __future__ import annotations

import pytest

from benchbook import config, ingest
from benchbook.ingest import ParseError, optimum_benchmark, optimum_benchmark_log

FIX = config.FIXTURES_DIR / "optimum-benchmark"
LOG = FIX / "benchlab_llama31_8b_energy_star_console_benchmark.log"
JSON = FIX / "benchmark.json"


def _by_key(table):
    return {(r.interval, r.scope, r.metric): r.value for r in table.itertuples()}


def test_the_console_report_reads_as_the_json_report_of_the_same_run():
    (p,) = ingest.read_parsed(LOG)
    assert p.tool == "optimum-benchmark"
    assert p.cells_read == len(p.table) + len(p.rejected) == 23
    log, js = _by_key(p.table), _by_key(ingest.read(JSON))
    assert set(log) == set(js)
    for k, v in log.items():  # six printed decimals of kWh: within half a unit of the sixth (1.8 J)
        tol = 1.8 if k[2] == "energy" else 1e-6 * abs(js[k])
        assert v == pytest.approx(js[k], abs=tol), k
    assert log[("decode", "gpu", "energy")] == pytest.approx(0.119945 * 3.6e6)
    assert log[("decode", "gpu+cpu+ram", "tokens_per_joule")] == pytest.approx(7059021.617040 / 3.6e6)


def _report(*lines: str) -> str:
    head = "[MAIN-PROCESS][2025-01-01 00:00:00,000][report][INFO] - "
    return "\n".join(head + s for s in lines) + "\n"


def test_only_the_report_loggers_lines_are_read():
    text = _report("+ decode:", "\t+ energy:", "\t\t+ gpu: 0.100000 (kWh)") + (
        "[ISOLATED-PROCESS][2025-01-01 00:00:00,000][energy][INFO] - \t\t+ gpu: 9.000000 (kWh)\n"
    )
    assert optimum_benchmark.sniff(text)
    p = optimum_benchmark.parse(text, "synthetic_benchmark.log")
    assert p.cells_read == 1 and list(p.table["value"]) == [pytest.approx(360000.0)]
    # the other way: without a report line, the energy tracker's lines are nobody's report
    assert not optimum_benchmark_log.is_log(text.split("\n", 3)[3])


def test_latency_and_memory_lines_are_counted_and_set_aside():
    text = _report("+ decode:", "\t+ latency:", "\t\t+ count: 3", "\t\t+ mean: 1.500000 (s)", "\t+ energy:")
    text += _report("\t\t+ total: 0.200000 (kWh)")
    p = optimum_benchmark.parse(text, "synthetic_benchmark.log")
    assert p.cells_read == 3 and len(p.table) == 1 and len(p.rejected) == 2
    assert set(p.rejected["reason"]) == {"latency: not part of the energy contract"}


def test_a_value_outside_a_measurement_heading_is_refused_naming_its_line(tmp_path):
    bad = tmp_path / "benchmark.log"
    bad.write_text(_report("+ decode:", "\t\t+ gpu: 0.100000 (kWh)"))
    with pytest.raises(ParseError) as err:
        ingest.read(bad)
    assert err.value.line == 2 and "outside a measurement heading" in err.value.message


FAILED = "[MAIN-PROCESS][2025-01-01 00:00:00,000][process][ERROR] - \t+ Received traceback from isolated process\n"


def test_a_report_with_no_energy_section_is_refused_naming_its_line_and_the_failed_invocation_before_it():
    text = FAILED + _report("+ decode:", "\t+ latency:", "\t\t+ mean: 1.862123 (s)")
    assert ingest.detect(text) == ["optimum-benchmark"]
    with pytest.raises(
        ParseError, match=r":2: .*one before it stopped in a traceback at line 1\) has no energy section"
    ):
        optimum_benchmark.parse(text, "t.log")
    with pytest.raises(ParseError, match=r":1: an optimum-benchmark console log whose report has no energy section"):
        optimum_benchmark.parse(_report("+ decode:", "\t+ latency:", "\t\t+ mean: 1.0 (s)"), "t.log")


def test_after_a_failed_invocation_the_last_ones_energy_report_is_read():
    text = FAILED + _report("+ decode:", "\t+ energy:", "\t\t+ gpu: 0.100000 (kWh)")
    t = optimum_benchmark.parse(text, "t.log").table
    assert t["value"].tolist() == [pytest.approx(0.1 * 3.6e6)] and t["line"].tolist() == [4]


def test_a_copy_that_starts_inside_a_section_is_refused_saying_its_heading_is_cut(tmp_path):
    cut = tmp_path / "benchmark.log"
    cut.write_text(_report("\t\t+ p50: 0.571676 (s)", "+ prefill:", "\t+ latency:", "\t\t+ mean: 0.369960 (s)"))
    with pytest.raises(ParseError) as err:
        ingest.read(cut)
    assert err.value.line == 1 and "heading it does not hold" in err.value.message
    assert "energy" not in err.value.message  # no heading the copy lacks is named as if it were there
