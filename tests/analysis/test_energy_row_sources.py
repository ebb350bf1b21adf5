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


def _scopes(*rows):
    """One run's rows, (metric, value, scope) each, as a table by scope."""
    rows = [dict(BASE, metric=m, value=v, unit=None, scope=s) for m, v, s in rows]
    return energy.runs(pd.DataFrame(rows)).set_index("scope")


def _run(**metrics):
    """One run's rows: metric=(value, scope)."""
    return _scopes(*((m, v, s) for m, (v, s) in metrics.items())).iloc[0]


def test_a_printed_tokens_per_joule_alone_is_the_figure():
    r = _run(tokens_per_joule=(4.0, "gpu"))
    assert r["j_per_output_token"] == 0.25 and r["tokens_basis"] == "printed tokens per joule"


def test_a_printed_energy_per_request_is_kept_beside_a_request_rate():
    r = _run(energy_per_request=(5.0, "gpu"), request_throughput=(2.0, None))
    assert r["j_per_request"] == 5.0
    # none printed: a power over the request rate is one, below one request a second too
    assert _run(mean_power=(100.0, "gpu"), request_throughput=(2.0, None))["j_per_request"] == 50.0
    assert _run(mean_power=(100.0, "gpu"), request_throughput=(0.5, None))["j_per_request"] == 200.0


def test_a_printed_tokens_per_joule_of_one_scope_counts_the_tokens_of_every_scope():
    """optimum-benchmark prints its efficiency over one energy: the tokens it implies (2 tok/J x 100 J)
    are the run's, so the CPU's 50 J are 0.25 J per token of those 200 tokens."""
    t = _scopes(("energy", 100.0, "gpu"), ("energy", 50.0, "cpu"), ("tokens_per_joule", 2.0, "gpu"))
    assert t.loc["gpu", "output_tokens"] == t.loc["cpu", "output_tokens"] == 200.0
    assert set(t["tokens_basis"]) == {"nominal"}
    assert t.loc["cpu", "j_per_output_token"] == 0.25
    # without the efficiency no count, and no figure
    t = _scopes(("energy", 100.0, "gpu"), ("energy", 50.0, "cpu"))
    assert t["output_tokens"].isna().all() and t["j_per_output_token"].isna().all()


def test_a_printed_requests_per_joule_counts_the_requests_of_every_scope():
    """0.5 requests per joule over the GPU's 100 J: 50 requests, 2 J each on the GPU, 1 J each on the CPU."""
    t = _scopes(("energy", 100.0, "gpu"), ("energy", 50.0, "cpu"), ("requests_per_joule", 0.5, "gpu"))
    assert t.loc["gpu", "requests"] == t.loc["cpu", "requests"] == 50.0
    assert (t.loc["gpu", "j_per_request"], t.loc["cpu", "j_per_request"]) == (2.0, 1.0)
    # a counted number of requests is the count, not the efficiency's
    t = _scopes(("energy", 100.0, "gpu"), ("requests", 40.0, None), ("requests_per_joule", 0.5, "gpu"))
    assert t.loc["gpu", "requests"] == 40.0 and t.loc["gpu", "j_per_request"] == 2.5


def test_an_idle_device_is_one_with_no_energy_above_its_idle_draw_at_all():
    """0 % utilization with requests served: an active energy of 0 J is an idle device; 0.5 J above idle
    is the run's, however small."""

    def row(active):
        return _run(
            energy=(100.0, "gpu"), energy_active=(active, "gpu"), gpu_utilization=(0.0, None), requests=(10.0, None)
        )

    assert row(0.0)["idle_device"] and pd.isna(row(0.0)["j_per_request"])
    assert not row(0.5)["idle_device"] and row(0.5)["j_per_request"] == 10.0


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


def test_an_energy_per_request_over_fewer_than_one_token_a_request_is_still_a_figure():
    r = _run(energy_per_request=(10.0, "gpu"), output_tokens_per_request=(0.5, None))
    assert (r["j_per_output_token"], r["tokens_basis"]) == (20.0, "per request")
    assert pd.isna(_run(energy_per_request=(10.0, "gpu"), output_tokens_per_request=(0.0, None))["j_per_output_token"])


def test_an_energy_without_a_duration_has_no_idle_share_from_its_power():
    # the figure is the energy over the tokens, not a power over a rate: the idle draw's share of that energy
    # needs the time it was drawn for, and 40 W of 100 W is not it
    r = _run(energy=(3000.0, "gpu"), output_tokens=(100.0, None), mean_power=(100.0, "gpu"), idle_power=(40.0, "gpu"))
    assert r["j_per_output_token"] == 30.0 and pd.isna(r["idle_share"])
