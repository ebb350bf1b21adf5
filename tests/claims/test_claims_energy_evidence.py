"""The evidence the measured-energy claims hand to their sentences, on synthetic tables with known
answers: the spread names both ends, the floor's one read of the weights at the run's mean power, its
unit and where its device came from, and a device given by parameter reaching the floor."""

from __future__ import annotations

import pytest
from test_energy_analysis import _rows, _table

from benchbook.analysis import energy
from benchbook.claims import energy as claims

#: Llama-3.1-8B in 2 bytes a weight: 16.06 GB read once at an H100 SXM's 3350 GB/s.
READ_S = 8.03 * 2 / 3350


def _with_power(rows, watts):
    base = {k: v for k, v in rows[0].items() if k not in ("metric", "value", "unit", "scope")}
    return [*rows, dict(base, metric="mean_power", value=watts, unit="W", scope="gpu")]


def test_the_spread_names_the_costliest_and_the_cheapest_run():
    table = energy.quoted(
        _table(_rows("dear", energy_j=300.0, tokens=1000.0), _rows("cheap", energy_j=100.0, tokens=1000.0))
    )
    ev = claims.spread(table).evidence
    assert (ev["a_run"], ev["b_run"]) == ("dear", "cheap")
    assert ev["ratio"] == pytest.approx(3.0)


def test_one_read_of_the_weights_costs_the_runs_mean_power_for_the_reads_time():
    run = _with_power(
        _rows("r", energy_j=10_000.0, tokens=1000.0, model="Llama-3.1-8B", device="H100 SXM", batch=1.0), 500.0
    )
    c = claims.floor(energy.quoted(_table(run)).iloc[0], 0, 2.0)
    assert c.evidence["mean_power_w"] == 500.0
    assert c.evidence["floor_read_j"] == pytest.approx(500.0 * READ_S, rel=1e-3)
    # 10 J per output token measured: at least 500 x 0.0048 s / 10 J = 0.24 sequences a read
    assert c.evidence["min_sharing"] == pytest.approx(500.0 * READ_S / 10.0, rel=1e-3)
    without = claims.floor(
        energy.quoted(
            _table(_rows("r", energy_j=10_000.0, tokens=1000.0, model="Llama-3.1-8B", device="H100 SXM", batch=1.0))
        ).iloc[0],
        0,
        2.0,
    )
    assert without.evidence["floor_read_j"] is None


def test_the_floor_at_a_known_batch_is_in_joules_per_output_token_and_says_where_its_device_came_from():
    row = energy.quoted(
        _table(_rows("r", energy_j=10_000.0, tokens=1000.0, model="Llama-3.1-8B", device="H100 SXM", batch=1.0))
    ).iloc[0]
    detected = claims.floor(row, 0, 2.0)
    given = claims.floor(row, 0, 2.0, given_device=True)
    assert detected.evidence["unit"] == given.evidence["unit"] == "J per output token"
    assert (detected.evidence["peak_source"], given.evidence["peak_source"]) == ("detected", "parameter")


def test_a_device_given_by_parameter_is_the_floors_device_where_the_file_names_none():
    table = _table(_rows("r", energy_j=10_000.0, tokens=1000.0, model="Llama-3.1-8B", batch=1.0))
    floors = [c for c in claims.build(table, 2.0) if c.id == "floor_0"]
    assert floors[0].status == "withheld"
    floors = [c for c in claims.build(table, 2.0, device="H100 SXM") if c.id == "floor_0"]
    assert floors[0].shown and floors[0].evidence["floor_device"] == "H100-SXM5-80GB"
    assert floors[0].evidence["peak_source"] == "parameter"


def test_the_floor_reads_the_weights_at_the_precision_the_row_states():
    """Llama-3.1-8B: 8.03 B weights, 1 byte each in the row's fp8 (8.03 GB), 2 in its bf16 checkpoint
    where the row states none. With nothing said elsewhere of a batch size, its status is `absent`."""
    run = _rows("r", energy_j=10_000.0, tokens=1000.0, model="Llama-3.1-8B", device="H100 SXM", batch=1.0)
    fp8 = claims.floor(energy.quoted(_table([dict(r, precision="fp8") for r in run])).iloc[0], 0, 2.0).evidence
    assert (fp8["precision"], fp8["precision_from"], fp8["weights_gb"]) == ("fp8", "output", pytest.approx(8.03))
    plain = claims.floor(energy.quoted(_table(run)).iloc[0], 0, 2.0).evidence
    assert (plain["precision"], plain["precision_from"]) == ("bf16", "checkpoint")
    assert plain["batch_status"] == "absent"
