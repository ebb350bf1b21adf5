"""A GPU-only energy whose mean power over its duration is above the devices' board power (the hardware
table's `power_w` x their count, past `OVER_BOARD_MARGIN`) is no measurement of its interval: its
per-token figures are dropped, so it is never compared, and its claim says why. Real cases: CodeCarbon's
22.52 J over 0.003527 s on an RTX 4090 (6.4 kW), 270-370 W on an 80 W RTX 3050 Ti Laptop GPU."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from benchbook.analysis import energy
from benchbook.claims import energy as claims
from benchbook.presentation import wording


def _run(run, *, energy_j, seconds, device="NVIDIA GeForce RTX 4090", count=1.0, scope="gpu"):
    base = dict(
        tool="codecarbon",
        source="emissions.csv",
        line=1,
        run=run,
        model=None,
        device=device,
        device_count=count,
        backend=None,
        batch_size=None,
        request_rate=None,
        interval="run",
        statistic="value",
        note=None,
    )
    return [
        dict(base, metric="energy", value=energy_j, unit="J", scope=scope),
        dict(base, metric="output_tokens", value=100.0, unit="tok", scope=None),
        dict(base, metric="duration", value=seconds, unit="s", scope=None),
    ]


def _table(*runs):
    return energy.runs(pd.DataFrame([r for rs in runs for r in rs])).set_index("run")


def test_an_energy_above_the_board_power_is_no_measurement_and_is_never_compared():
    t = _table(_run("short", energy_j=22.52, seconds=0.003527), _run("long", energy_j=2500.0, seconds=10.0))
    assert t.loc["short", "over_board"] and t.loc["short", "board_power_w"] == 450.0
    assert np.isnan(t.loc["short", "j_per_output_token"])  # 6.4 kW on a 450 W card
    assert not t.loc["long", "over_board"]  # 250 W: a measurement
    assert t.loc["long", "j_per_output_token"] == pytest.approx(25.0)


@pytest.mark.parametrize(
    ("device", "count", "watts", "over"),
    [
        ("NVIDIA GeForce RTX 3050 Ti Laptop GPU", 1.0, 270.0, True),  # an 80 W laptop part
        ("NVIDIA GeForce RTX 3050 Ti Laptop GPU", 1.0, 90.0, False),  # Dynamic Boost's headroom: inside the margin
        ("NVIDIA GeForce RTX 4090", 2.0, 800.0, False),  # two cards: 900 W of board power
        ("NVIDIA GeForce RTX 4090", np.nan, 6000.0, False),  # how many cards is unknown: no bound
        ("a GPU the table lacks", 1.0, 6000.0, False),  # no board power known: no bound
    ],
)
def test_the_bound_is_the_board_power_of_every_device_the_energy_covers(device, count, watts, over):
    t = _table(_run("r", energy_j=watts * 10.0, seconds=10.0, device=device, count=count))
    assert bool(t.loc["r", "over_board"]) is over


def test_a_whole_system_energy_is_not_bounded_by_a_gpus_board_power():
    t = _table(_run("r", energy_j=6000.0, seconds=10.0, scope="system"))
    assert not t.loc["r", "over_board"]


def test_the_claim_says_the_mean_power_and_the_board_power_and_is_withheld():
    t = energy.runs(pd.DataFrame(_run("2025-07-11T00:24:27", energy_j=22.524, seconds=0.003527)))
    c = claims.per_run(t.iloc[0], 0)
    assert c.status == "withheld" and c.evidence["board_power_w"] == 450.0
    text = wording.word("perf_per_watt", c).text
    assert "22.52 J GPU only over 0.003527 s is a mean of 6,386 W, above the 450 W board power" in text
    assert "left out of every comparison" in text


def test_every_figure_per_token_or_request_of_an_energy_above_the_board_power_is_dropped():
    def rows(run, energy_j, seconds):
        out = _run(run, energy_j=energy_j, seconds=seconds)
        extra = dict(out[0], scope=None)
        return [
            *out,
            dict(extra, metric="prompt_tokens", value=50.0, unit="tok"),
            dict(extra, metric="requests", value=4.0, unit="req"),
            dict(out[0], metric="energy_active", value=energy_j / 2, unit="J"),
        ]

    t = _table(rows("short", 22.52, 0.003527), rows("long", 2500.0, 10.0))
    figures = ["j_per_request", "j_per_output_token", "j_per_token", "tok_per_j", "j_per_output_token_active"]
    assert t.loc["short", figures].isna().all()
    assert t.loc["long", figures].tolist() == pytest.approx([625.0, 25.0, 2500.0 / 150, 0.04, 12.5])


def test_a_mean_exactly_at_the_margin_is_still_a_measurement():
    at = _table(_run("r", energy_j=450.0 * energy.OVER_BOARD_MARGIN * 10.0, seconds=10.0))  # 562.5 W on 450 W
    assert not at.loc["r", "over_board"]
    above = _table(_run("r", energy_j=5626.0, seconds=10.0))
    assert above.loc["r", "over_board"]


def test_no_devices_or_no_time_gives_no_bound():
    assert not _table(_run("r", energy_j=6000.0, seconds=10.0, count=0.0)).loc["r", "over_board"]
    t = _table(_run("r", energy_j=22.52, seconds=0.0))  # a duration of 0 s: no mean power to bound
    assert not t.loc["r", "over_board"] and t.loc["r", "board_power_w"] == 450.0
