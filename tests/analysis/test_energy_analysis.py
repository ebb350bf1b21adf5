"""Measured energy per token and its verdicts on synthetic tables with known answers: the scope and
the idle subtraction each change a verdict, and the weights-read floor flags what physics forbids."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from benchbook.analysis import energy
from benchbook.claims import energy as claims
from benchbook.presentation import wording


def _rows(run, *, energy_j, tokens, scope="gpu", idle_w=None, seconds=None, model=None, device=None, batch=None):
    base = dict(
        tool="inference-energy",
        source=f"{run}.txt",
        line=1,
        run=run,
        model=model,
        device=device,
        device_count=1.0,
        backend=None,
        batch_size=batch,
        request_rate=None,
        interval="run",
        statistic="value",
        note=None,
    )
    out = [
        dict(base, metric="energy", value=energy_j, unit="J", scope=scope),
        dict(base, metric="output_tokens", value=tokens, unit="tok", scope=None),
    ]
    if idle_w is not None:
        out.append(dict(base, metric="idle_power", value=idle_w, unit="W", scope=scope))
    if seconds is not None:
        out.append(dict(base, metric="duration", value=seconds, unit="s", scope=None))
    return out


def _table(*runs):
    return energy.runs(pd.DataFrame([r for rs in runs for r in rs]))


def test_energy_per_output_token_and_its_idle_subtracted_twin():
    t = _table(_rows("a", energy_j=1000.0, tokens=500.0, idle_w=1.0, seconds=400.0))
    r = t.iloc[0]
    assert r["j_per_output_token"] == pytest.approx(2.0)
    assert r["tok_per_j"] == pytest.approx(0.5)
    assert r["j_per_output_token_active"] == pytest.approx((1000 - 400) / 500)
    assert r["idle_share"] == pytest.approx(0.4)


def test_a_runs_claim_carries_its_idle_power():
    r = _table(_rows("a", energy_j=1000.0, tokens=500.0, idle_w=1.0, seconds=400.0)).iloc[0]
    assert claims.per_run(r, 0).evidence["idle_power_w"] == 1.0
    assert claims.per_run(_table(_rows("b", energy_j=1000.0, tokens=500.0)).iloc[0], 0).evidence["idle_power_w"] is None


def test_idle_subtraction_changes_which_run_is_cheapest():
    # a: 1.00 J/tok with a high idle draw (0.40 of it idle); b: 0.90 J/tok with almost none
    a = _rows("a", energy_j=1000.0, tokens=1000.0, idle_w=4.0, seconds=100.0)
    b = _rows("b", energy_j=900.0, tokens=1000.0, idle_w=0.5, seconds=100.0)
    t = _table(a, b)
    total = claims.cheapest(energy.quoted(t), "j_per_output_token", "measured_cheapest")
    active = claims.idle_order(energy.quoted(t))
    assert total.shown and total.evidence["a_run"] == "b"
    assert active.shown and active.evidence["a_run"] == "a"
    assert active.evidence["same_as_total"] is False


def test_idle_subtraction_keeps_the_order_when_idle_is_alike():
    a = _rows("a", energy_j=1000.0, tokens=1000.0, idle_w=1.0, seconds=100.0)
    b = _rows("b", energy_j=900.0, tokens=1000.0, idle_w=1.0, seconds=100.0)
    active = claims.idle_order(energy.quoted(_table(a, b)))
    assert active.shown and active.evidence["a_run"] == "b" and active.evidence["same_as_total"] is True


def test_a_wall_figure_is_never_ranked_with_a_gpu_figure():
    # the wall run looks cheapest per token only because it is a different quantity; it is left out
    gpu_a = _rows("gpu-a", energy_j=1000.0, tokens=1000.0)
    gpu_b = _rows("gpu-b", energy_j=800.0, tokens=1000.0)
    wall = _rows("wall", energy_j=500.0, tokens=1000.0, scope="system")
    c = claims.cheapest(energy.quoted(_table(gpu_a, gpu_b, wall)), "j_per_output_token", "measured_cheapest")
    assert c.shown and c.evidence["a_run"] == "gpu-b" and c.evidence["scope"] == "gpu"
    assert c.evidence["other_scopes"] == ["whole system at the wall"]


def test_two_runs_of_different_scopes_only_are_not_compared():
    gpu = _rows("gpu", energy_j=1000.0, tokens=1000.0)
    wall = _rows("wall", energy_j=500.0, tokens=1000.0, scope="system")
    c = claims.cheapest(energy.quoted(_table(gpu, wall)), "j_per_output_token", "measured_cheapest")
    assert not c.shown


def test_a_difference_inside_the_single_run_tolerance_is_withheld():
    a = _rows("a", energy_j=1000.0, tokens=1000.0)
    b = _rows("b", energy_j=980.0, tokens=1000.0)
    c = claims.cheapest(energy.quoted(_table(a, b)), "j_per_output_token", "measured_cheapest")
    assert c.status == "withheld" and "noise" in c.reason


def test_below_the_weights_floor_at_a_known_batch_is_implausible():
    # 8.03 B parameters x 2 bytes / 3350 GB/s x 700 W = 3.36 J per step, one token per step at batch 1
    run = _rows("r", energy_j=100.0, tokens=1000.0, model="Llama-3.1-8B", device="H100 SXM", batch=1.0)
    c = claims.floor(energy.quoted(_table(run)).iloc[0], 0, 2.0)
    assert c.evidence["b"] == pytest.approx(8.03 * 2 / 3350 * 700, rel=1e-3)
    assert c.status == "implausible"


def test_above_the_weights_floor_is_stated():
    run = _rows("r", energy_j=10_000.0, tokens=1000.0, model="Llama-3.1-8B", device="H100 SXM", batch=1.0)
    c = claims.floor(energy.quoted(_table(run)).iloc[0], 0, 2.0)
    assert c.shown and c.evidence["ratio"] == pytest.approx(10 / (8.03 * 2 / 3350 * 700), rel=1e-3)


def test_no_floor_without_a_known_device():
    run = _rows("r", energy_j=10_000.0, tokens=1000.0, model="Llama-3.1-8B", device="A100")
    c = claims.floor(energy.quoted(_table(run)).iloc[0], 0, 2.0)
    assert c.status == "withheld" and "device" in c.reason


def test_energy_per_token_counts_prompt_tokens_when_the_file_gives_them():
    rows = _rows("a", energy_j=1200.0, tokens=400.0)
    prompt = dict(rows[1], metric="prompt_tokens", value=800.0)
    t = _table(rows + [prompt])
    assert t.iloc[0]["j_per_output_token"] == pytest.approx(3.0)
    assert t.iloc[0]["j_per_token"] == pytest.approx(1.0)


def test_without_prompt_tokens_no_energy_per_token_is_formed():
    t = _table(_rows("a", energy_j=1200.0, tokens=400.0))
    assert pd.isna(t.iloc[0]["j_per_token"])


def test_a_little_below_the_rough_floor_is_said_not_called_beyond_physics():
    # 0.7 of the rated-power floor: the card may read at full bandwidth below its rating
    floor_j = 8.03 * 2 / 3350 * 700
    run = _rows("r", energy_j=0.7 * floor_j * 1000, tokens=1000.0, model="Llama-3.1-8B", device="H100 SXM", batch=1.0)
    c = claims.floor(energy.quoted(_table(run)).iloc[0], 0, 2.0)
    assert c.shown and c.evidence["ratio"] == pytest.approx(0.7, rel=1e-3)


def test_the_measured_energy_ledger_re_judges_clean():
    from benchbook.claims.rules import check
    from benchbook.presentation import wording

    below = _rows("below", energy_j=100.0, tokens=1000.0, model="Llama-3.1-8B", device="H100 SXM", batch=1.0)
    above = _rows("above", energy_j=9000.0, tokens=1000.0, model="Llama-3.1-8B", device="H100 SXM", batch=1.0)
    led = wording.ledger("perf_per_watt", ["x"], claims.build(_table(below, above), 2.0))
    assert check(led.to_dict()) == []
    assert led.get("floor_1").status == "implausible" or led.get("floor_0").status == "implausible"


def test_the_scope_changes_which_run_is_cheapest():
    # on the GPU alone a is cheaper; counting CPU and RAM too, b is: two rankings, never one
    a = _rows("a", energy_j=900.0, tokens=1000.0) + _rows("a", energy_j=1500.0, tokens=1000.0, scope="gpu+cpu+ram")
    b = _rows("b", energy_j=1000.0, tokens=1000.0) + _rows("b", energy_j=1200.0, tokens=1000.0, scope="gpu+cpu+ram")
    rows = energy.quoted(_table(a, b))
    gpu = claims.cheapest(rows[rows["scope"] == "gpu"], "j_per_output_token", "x")
    total = claims.cheapest(rows[rows["scope"] == "gpu+cpu+ram"], "j_per_output_token", "x")
    assert gpu.shown and gpu.evidence["a_run"] == "a"
    assert total.shown and total.evidence["a_run"] == "b"
    both = claims.cheapest(rows, "j_per_output_token", "x")  # a tie of scopes: the narrower one ranks
    assert both.evidence["scope"] == "gpu" and both.evidence["other_scopes"] == ["GPU + CPU + RAM"]


def _power_rows(run, *, mean_w, tok_s, req_s=None, energy_j=None, tokens=None):
    rows = _rows(run, energy_j=energy_j if energy_j is not None else 0.0, tokens=tokens or 0.0)
    base = {k: v for k, v in rows[0].items() if k not in ("metric", "value", "unit", "scope")}
    out = [
        r
        for r in rows
        if (r["metric"] == "energy" and energy_j is not None) or (r["metric"] == "output_tokens" and tokens)
    ]
    out.append(dict(base, metric="mean_power", value=mean_w, unit="W", scope="gpu"))
    out.append(dict(base, metric="output_throughput", value=tok_s, unit="tok/s", scope=None))
    if req_s is not None:
        out.append(dict(base, metric="request_throughput", value=req_s, unit="req/s", scope=None))
    return out


def test_without_an_energy_mean_power_over_throughput_gives_the_figure_per_token():
    r = _table(_power_rows("p", mean_w=300.0, tok_s=1000.0, req_s=5.0)).iloc[0]
    assert r["tokens_basis"] == "power / throughput"
    assert r["j_per_output_token"] == pytest.approx(0.3) and r["j_per_request"] == pytest.approx(60.0)
    c = claims.per_run(r, 0)
    assert c.shown and "mean measured power" in c.rule


def test_a_power_over_a_zero_output_rate_is_no_energy_per_token():
    r = _table(_power_rows("p", mean_w=300.0, tok_s=0.0)).iloc[0]
    assert np.isnan(r["j_per_output_token"])
    assert _table(_power_rows("p", mean_w=300.0, tok_s=600.0)).iloc[0]["j_per_output_token"] == pytest.approx(0.5)


def test_a_counted_energy_wins_over_power_over_throughput():
    r = _table(_power_rows("p", mean_w=300.0, tok_s=1000.0, energy_j=500.0, tokens=1000.0)).iloc[0]
    assert r["tokens_basis"] == "counted" and r["j_per_output_token"] == pytest.approx(0.5)


def test_a_run_that_counts_prompt_tokens_states_energy_per_token_beside_per_output_token():
    from benchbook.presentation import wording

    rows = _rows("a", energy_j=3000.0, tokens=1000.0)
    rows.append(dict(rows[1], metric="prompt_tokens", value=2000.0))
    c = claims.per_run(_table(rows).iloc[0], 0)
    text = wording.word("perf_per_watt", c).text
    assert "3 J per output token" in text and "1 J per token (prompt and output)" in text
    assert "GPU only" in text


# --- which figure each scope takes (mutation sample, seed 2026) ------------------------------------------------


def test_each_scope_takes_its_own_power_over_the_shared_throughput():
    """The system at the wall draws 500 W, the GPU 300 W, over 1000 tok/s: 0.5 and 0.3 J per output token."""
    rows = _power_rows("p", mean_w=300.0, tok_s=1000.0)
    base = {k: v for k, v in rows[0].items() if k not in ("metric", "value", "unit", "scope")}
    t = _table([dict(base, metric="mean_power", value=500.0, unit="W", scope="system"), *rows]).set_index("scope")
    assert t.loc["gpu", "j_per_output_token"] == pytest.approx(0.3)
    assert t.loc["system", "j_per_output_token"] == pytest.approx(0.5)


def test_a_power_reading_of_each_scope_stays_with_it():
    rows = _power_rows("p", mean_w=300.0, tok_s=1000.0)
    base = {k: v for k, v in rows[0].items() if k not in ("metric", "value", "unit", "scope")}
    readings = [
        dict(base, metric="power_reading", value=500.0, unit="W", scope="system"),
        dict(base, metric="power_reading", value=200.0, unit="W", scope="gpu"),
        dict(base, metric="output_throughput", value=1000.0, unit="tok/s", scope=None),
    ]
    t = _table(readings).set_index("scope")
    assert t.loc["gpu", "j_per_output_token"] == pytest.approx(0.2)
    assert t.loc["gpu", "tokens_basis"] == "power reading / throughput"


def test_a_printed_energy_per_request_and_per_output_token_are_kept():
    """The file prints 5 J per request and 0.02 J per output token beside 1000 J over 100 requests (10 J
    each, counted): the printed per-request figure stands, and the printed per-token one is kept to check."""
    rows = _rows("a", energy_j=1000.0, tokens=500.0)
    extra = [
        dict(rows[0], metric="energy_per_request", value=5.0, unit="J"),
        dict(rows[0], metric="energy_per_output_token", value=0.02, unit="J"),
        dict(rows[1], metric="requests", value=100.0, unit="req"),
    ]
    r = _table(rows + extra).iloc[0]
    assert r["j_per_request"] == 5.0 and r["printed_j_per_output_token"] == 0.02
    assert r["j_per_output_token"] == pytest.approx(2.0)
    counted = _table(rows + extra[2:]).iloc[0]
    assert counted["j_per_request"] == pytest.approx(10.0) and pd.isna(counted["printed_j_per_output_token"])


def test_the_floor_without_a_batch_or_a_device_says_which_it_lacks():
    run = _rows("r", energy_j=10_000.0, tokens=1000.0, model="Llama-3.1-8B", device="H100 SXM")
    c = claims.floor(energy.quoted(_table(run)).iloc[0], 0, 2.0)
    assert c.kind == "comparison" and c.rule == (
        "measured J per output token / (active weights bytes / peak bandwidth x rated power), batch unknown"
    )
    nodev = _rows("r", energy_j=10_000.0, tokens=1000.0, model="Llama-3.1-8B", device="A100")
    c = claims.floor(energy.quoted(_table(nodev)).iloc[0], 0, 2.0)
    assert c.reason == "the device's bandwidth and power are not known, so no floor can be formed"
    nomodel = _rows("r", energy_j=10_000.0, tokens=1000.0, model="no-such-model", device="H100 SXM")
    c = claims.floor(energy.quoted(_table(nomodel)).iloc[0], 0, 2.0)
    assert c.reason == "the model's size is not known, so no floor can be formed"


def test_the_cheapest_per_request_is_only_among_runs_without_a_figure_per_token():
    """a costs 4 J per request but has a per-token figure (ranked there); b (6 J) and c (8 J) have none:
    b is the cheapest per request."""
    a = _rows("a", energy_j=400.0, tokens=1000.0)
    a.append(dict(a[0], metric="energy_per_request", value=4.0, unit="J"))
    others = []
    for run, j in (("b", 6.0), ("c", 8.0)):
        rs = _rows(run, energy_j=None, tokens=None)
        others += [dict(rs[0], metric="energy_per_request", value=j, unit="J")]
    c = claims.per_request(energy.quoted(_table(a, others)))
    assert (c.evidence["a_run"], c.evidence["b_run"]) == ("b", "c")


def _bench(source, model_file, model, gib, params_b):
    """A llama-bench row of `source` as `energy.read` gives it: the model file and its printed size."""
    return pd.DataFrame(
        [dict(source=source, model_file=model_file, model=model, section=None, model_size_gib=gib, params_b=params_b)]
    )


def test_a_printed_gguf_size_is_the_weights_bytes_of_the_floor():
    run = _rows("r", energy_j=10_000.0, tokens=1000.0, model="llama-8b.Q4_0.gguf", device="H100 SXM", batch=1.0)
    row = energy.quoted(_table(run)).iloc[0]
    bench = _bench("r.txt", "llama-8b.Q4_0.gguf", "llama 8B Q4_0", 4.33, 8.03)
    c = claims.floor(row, 0, 2.0, bench=bench)
    assert c.evidence["bytes_source"] == "file"
    assert c.evidence["weights_gb"] == pytest.approx(4.33 * 1024**3 / 1e9)
    text = wording.word("perf_per_watt", c).text
    assert "4.33 GiB model file" in text and "assumed" not in text
    # the other way: no printed size, so the bytes are the precision the name's Q4_0 tag states
    c = claims.floor(row, 0, 2.0)
    assert c.evidence["bytes_source"] == "precision" and c.evidence["precision"] == "int4"


def test_an_moe_file_counts_only_its_active_share_of_the_printed_size():
    model = "gpt-oss-20b-F16.gguf"
    run = _rows("r", energy_j=10_000.0, tokens=1000.0, model=model, device="H100 SXM", batch=1.0)
    bench = _bench("r.txt", model, "gpt-oss ?B F16", 12.83, 20.91)
    c = claims.floor(energy.quoted(_table(run)).iloc[0], 0, 2.0, bench=bench)
    assert c.evidence["weights_gb"] == pytest.approx(12.83 * 1024**3 / 1e9 * 3.61 / 20.91)
    assert c.evidence["experts_smaller"]  # MXFP4 experts in an "F16" file: the true bytes are higher


def test_without_a_file_size_the_stated_precision_gives_the_bytes_else_they_are_assumed():
    stated = _rows("r", energy_j=10_000.0, tokens=1000.0, model="gpt-oss-20b", device="H100 SXM", batch=1.0)
    c = claims.floor(energy.quoted(_table(stated)).iloc[0], 0, 2.0)
    assert c.evidence["bytes_source"] == "precision"
    assert c.evidence["weights_gb"] == pytest.approx(3.61 * 1.028)
    assert "assumed" not in wording.word("perf_per_watt", c).text
    unstated = _rows("r", energy_j=10_000.0, tokens=1000.0, model="Mistral-7B", device="H100 SXM", batch=1.0)
    c = claims.floor(energy.quoted(_table(unstated)).iloc[0], 0, 2.0)
    assert c.evidence["bytes_source"] == "assumed" and c.evidence["weights_gb"] == pytest.approx(7.24 * 2)
    assert "assumed" in wording.word("perf_per_watt", c).text
    c = claims.floor(energy.quoted(_table(unstated)).iloc[0], 0, 1.0)
    assert c.evidence["bytes_source"] == "parameter" and c.evidence["weights_gb"] == pytest.approx(7.24)


def _util(rows, pct):
    return [*rows, dict(rows[0], metric="gpu_utilization", value=pct, unit="%", scope=None)]


def test_a_power_log_of_an_idle_device_forms_no_energy_per_token():
    """0 % GPU utilization and no energy above the idle draw while tokens were served: the log watched
    another (idle) GPU, so no J/token, idle-subtracted figure or share is formed; at 40 % utilization, or with
    energy above idle, the same numbers are the run's."""
    idle = _table(_util(_rows("a", energy_j=38877.7, tokens=508705.0, idle_w=61.79, seconds=630.0), 0.0)).iloc[0]
    assert idle["idle_device"] and pd.isna(idle["j_per_output_token"]) and pd.isna(idle["j_per_output_token_active"])
    c = claims.per_run(idle, 0)
    assert c.status == "withheld" and "watched an idle device" in c.reason
    busy = _table(_util(_rows("b", energy_j=38877.7, tokens=508705.0, idle_w=61.79, seconds=630.0), 40.0)).iloc[0]
    assert not busy["idle_device"] and busy["j_per_output_token"] == pytest.approx(38877.7 / 508705)
    above = _table(_util(_rows("c", energy_j=60000.0, tokens=508705.0, idle_w=61.79, seconds=630.0), 0.0)).iloc[0]
    assert not above["idle_device"] and above["j_per_output_token_active"] > 0


def test_runs_keep_the_order_the_file_gives_them():
    t = _table(_rows("zeta", energy_j=100.0, tokens=10.0), _rows("alpha", energy_j=100.0, tokens=10.0))
    assert t["run"].tolist() == ["zeta", "alpha"]


def test_repeats_of_one_configuration_pool_into_one_row_named_for_the_configuration():
    t = pd.DataFrame(
        {
            "source": "s",
            "run": ["r1", "r2", "r3"],
            "configuration": ["tp2", "tp2", ""],
            "joules_per_token": [1.0, 3.0, 5.0],
        }
    )
    got = energy.pooled(t, "joules_per_token")
    assert got["run"].tolist() == ["tp2", "r3"]  # a run that names no configuration is its own
    assert got["joules_per_token"].tolist() == [2.0, 5.0] and got["repeats"].tolist() == [2, 1]
