"""A wattage a line works out from bare numbers (`So power = 180 * 0.5 = 90W = 0.09 kW`, a reply computing a
CPU's TDP times CodeCarbon's constant, mlco2/codecarbon issue 184) is what a formula gives, not a reading of
the run: a sign the page names by its line. A reading written as one (`Power consumption: 241.4W`) reads."""

from __future__ import annotations

from benchbook.ingest import context


def test_a_worked_out_wattage_is_a_sign_not_a_reading():
    facts = context.read(["So power = 180 * 0.5 = 90W = 0.09 kW"])
    assert not facts.get("power")
    assert [s.line for s in facts.signs if s.name == "power"] == [1]


def test_a_wattage_written_as_a_reading_reads():
    assert [f.value for f in context.read(["Power consumption: 241.4W"]).get("power")] == [241.4]
