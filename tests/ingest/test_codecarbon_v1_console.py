"""CodeCarbon 1.x's console (`GPU Power Consumption : Power(kW=0.390005)`, `Energy consumed GPU :
Energy(kwh=...)`, mlco2/codecarbon issue 184) is read: the last GPU power line is the GPU's power, in W; the
energy lines are the tracker's one running total over every component (`_total_energy`, logged after each
component), so none is a component's energy and all are set aside; the CPU's power is set aside (from a
TDP or a counter: the log does not say). A 2.x console line is not taken for 1.x's."""

from __future__ import annotations

from benchbook.ingest import codecarbon

V1 = (
    "[codecarbon INFO @ 22:37:12] GPU Power Consumption : Power(kW=0.390005)\n"
    "[codecarbon INFO @ 22:37:12] Energy consumed GPU : Energy(kwh=0.11006903808049802)\n"
    "[codecarbon INFO @ 22:37:12] CPU Power Consumption : Power(kW=0.0425)\n"
    "[codecarbon INFO @ 22:37:12] Energy consumed CPU : Energy(kwh=0.1114854821467378)\n"
)


def test_the_last_gpu_power_is_kept_in_watts_and_the_running_totals_set_aside():
    p = codecarbon.parse(V1, "x.md")
    kept = p.table[["metric", "scope", "value", "line"]].to_dict("records")
    assert kept == [{"metric": "power_reading", "scope": "gpu", "value": 390.005, "line": 1}]
    reasons = dict(zip(p.rejected["line"], p.rejected["reason"], strict=True))
    assert reasons[2] == reasons[4] == codecarbon.V1_TOTAL and reasons[3] == codecarbon.V1_CPU


def test_an_earlier_blocks_gpu_power_is_a_running_reading_set_aside():
    p = codecarbon.parse(V1.replace("0.390005", "0.2") + V1, "x.md")
    assert list(p.table["line"]) == [5]


def test_a_2x_console_is_not_read_as_1x():
    line = "[codecarbon INFO @ 11:23:24] Energy consumed for all GPUs : 0.003595 kWh. Total GPU Power : 217.9 W\n"
    total = "[codecarbon INFO @ 11:23:24] 0.011535 kWh of electricity used since the beginning.\n"
    assert codecarbon.sniff(line + total) and not codecarbon._V1_SNIFF.search(line + total)
