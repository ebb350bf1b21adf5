"""What one energy row takes from the file when it prints less than energy and a token count: the
tool's own tokens per joule, its own energy per request, an active energy beside a power reading;
and where a decode step's weight precision was read."""

import pandas as pd
import pytest

from benchbook.analysis import energy

BASE = dict(
    tool="t",
    source="r.txt",
    line=1,
    run="r",
    model=None,
    device=None,
    device_count=1.0,
    backend=None,
    batch_size=None,
    request_rate=None,
    interval="run",
    statistic="value",
    note=None,
)


def _run(**metrics):
    """One run's rows: metric=(value, scope)."""
    rows = [dict(BASE, metric=m, value=v, unit=None, scope=s) for m, (v, s) in metrics.items()]
    return energy.runs(pd.DataFrame(rows)).iloc[0]


def test_a_printed_tokens_per_joule_alone_is_the_figure():
    r = _run(tokens_per_joule=(4.0, "gpu"))
    assert r["j_per_output_token"] == 0.25 and r["tokens_basis"] == "printed tokens per joule"


def test_a_printed_energy_per_request_is_kept_beside_a_request_rate():
    r = _run(energy_per_request=(5.0, "gpu"), request_throughput=(2.0, None))
    assert r["j_per_request"] == 5.0
    # none printed: a power over the request rate is one
    assert _run(mean_power=(100.0, "gpu"), request_throughput=(2.0, None))["j_per_request"] == 50.0


def test_an_active_energy_without_a_total_leaves_the_idle_share_to_the_power():
    r = _run(
        energy_active=(300.0, "gpu"),
        mean_power=(100.0, "gpu"),
        idle_power=(40.0, "gpu"),
        output_throughput=(50.0, None),
    )
    assert r["idle_share"] == pytest.approx(0.4)  # 40 W idle of 100 W


def test_a_stated_weight_precision_says_where_it_was_read():
    w = energy.weights_bytes("meta-llama/Llama-3.1-8B", energy.DEFAULT_BYTES_PER_PARAM, stated="fp8")
    assert (w["precision"], w["precision_from"], w["weights_gb"]) == ("fp8", "output", 8.03)
    w = energy.weights_bytes("meta-llama/Llama-3.1-8B", energy.DEFAULT_BYTES_PER_PARAM)
    assert (w["precision"], w["precision_from"]) == ("bf16", "checkpoint")
