"""One run's energies by component (CodeCarbon's GPU row beside its CPU row) are one configuration: the box
answers with the first (the GPU's), as it does for a file of one configuration; two runs' figures are two
configurations, and the first of them is not the answer."""

from __future__ import annotations

from benchbook.presentation import bottom_line


def _measured(i: int, run: str, scope: str, joules: float) -> dict:
    ev = {"run": run, "source": "emissions.csv", "scope": scope, "energy_j": joules}
    return {"id": f"measured_{i}", "status": "withheld", "kind": "energy_bound", "text": f"{joules} J", "evidence": ev}


def _ledger(*claims) -> dict:
    return {"chapter": "perf_per_watt", "claims": list(claims)}


def test_one_runs_gpu_and_cpu_energies_lead_with_the_first():
    led = _ledger(
        _measured(0, "2026-01-04T05:36:54", "gpu", 1_898_129), _measured(1, "2026-01-04T05:36:54", "cpu", 194_184)
    )
    assert [c["id"] for c in bottom_line.pick(led)] == ["measured_0"]


def test_two_runs_energies_do_not_lead_with_the_first():
    led = _ledger(_measured(0, "run a", "gpu", 1_000), _measured(1, "run b", "gpu", 2_000))
    assert "measured_0" not in [c["id"] for c in bottom_line.pick(led)]


def test_nor_with_the_next_row_of_the_table():
    """Five runs' GPU and CPU rows, none with a verdict: the second row (the first run's CPU) is no more the
    answer than the first; the box says the input decides none, and the page's table gives every row."""
    run = "2025-01-27T14:13:47"
    led = _ledger(
        _measured(0, run, "gpu", 288_736), _measured(1, run, "cpu", 45_434), _measured(2, "b", "gpu", 451_037)
    )
    assert not [c["id"] for c in bottom_line.pick(led) if c["id"].startswith("measured_")]


def test_a_third_configuration_after_one_runs_two_energies_is_another():
    run = "2026-01-04T05:36:54"
    led = _ledger(_measured(0, run, "gpu", 1_000), _measured(1, run, "cpu", 100), _measured(2, "run b", "gpu", 2_000))
    assert "measured_0" not in [c["id"] for c in bottom_line.pick(led)]
