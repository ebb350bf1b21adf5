"""The batch_saturation chapter without a notebook: `analyse` on the seed and on real fixtures, the
lesson's numbers (the step-time floor and the critical batch), the saturation batch against its noise,
and exercises recomputed from the result."""

from __future__ import annotations

import re

import numpy as np
import pytest

from benchbook.analysis import batch
from benchbook.chapter import setup
from benchbook.presentation import bottom_line, exercises, placement
from benchbook.topics import batch_saturation as topic

FIX = "tests/fixtures/hf-batch-sweep"


def run(source: str = "", **params):
    return topic.analyse(setup("batch_saturation", {**({"source": source} if source else {}), **params}))


@pytest.fixture(scope="module")
def seed():
    return run()


def test_the_seed_floor_is_the_weights_over_the_a100s_bandwidth_and_b_star_its_ridge(seed):
    fl = seed.floor
    # BLOOM as the bigcode README configures it: 1.3115 B parameters, bf16 (2 bytes), on an A100 80GB
    assert fl["dtype"] == "bf16" and fl["bytes_per_weight"] == 2.0 and fl["params_b"] == pytest.approx(1.3115)
    assert fl["weights_ms"] == pytest.approx(1.3115e9 * 2 / 2039e9 * 1e3)  # 1.29 ms
    assert fl["critical_batch"] == pytest.approx(312e12 / 2039e9 * 2 / 2)  # 153 sequences
    assert fl["top_tok_s"] == pytest.approx(312e12 / (2 * 1.3115e9))
    # the step model: flat at the weights' time until B*, then B x FLOPs / peak
    t = batch.step_time([1, fl["critical_batch"], 2 * fl["critical_batch"]], 2.623e9, 2039.0, 2 * 1.3115e9, 312.0)
    assert t[0] == pytest.approx(t[1]) and t[2] == pytest.approx(2 * t[1])
    assert fl["first_step_ms"] == pytest.approx(2.37 / 100 * 1e3)  # 2.37 s for 100 tokens at batch 1


def test_the_seed_saturation_batch_is_fragile(seed):
    knee = seed.ledger.get("knee")
    assert knee.evidence["x"] == 512 and knee.evidence["fragile"] and knee.evidence["noise_from"] == "series"
    assert "clears the 95% line by 0.2%" in knee.text


def test_the_exercises_are_recomputed_from_the_result(seed):
    one, two, three = exercises.batch_saturation(seed.ledger)
    ref = batch.rows_of(seed.sweep, seed.key).set_index("batch_size")["throughput_tok_s"]
    # at the saturation batch (512) the floor is the compute's, 512 x 2 x 1.3115e9 / 312e12; the step is
    # 512 / its throughput, 16x that: the bend is not at a roof
    floor_ms = 512 * 2 * 1.3115e9 / 312e12 * 1e3
    assert f"{floor_ms:.4g} ms, set by the compute" in one.steps[2]
    assert f"{512 / ref[512] * 1e3:.4g} ms per step, {512 / ref[512] * 1e3 / floor_ms:.1f}x the floor" in one.steps[2]
    assert "not at a roof" in one.answer
    # from batch 1 to 64 the added sequences' FLOPs could add at most 63 x 100 x 2 x 1.3115e9 / 312e12 (53 ms, and
    # none below B*), against the call times the sweep printed (not throughput x 64, which the box implies)
    lat = batch.rows_of(seed.sweep, seed.key).set_index("batch_size")["latency_s"]
    pred_ms = 63 * 100 * 2 * 1.3115e9 / 312e12 * 1e3
    assert f"= {pred_ms:.2g} ms at most." in two.steps[1]
    assert f"{lat[64]:.2f} - {lat[1]:.2f} s = {(lat[64] - lat[1]) * 1e3:.2g} ms" in two.steps[2]
    # the device-free line through 128 and 256 meets the flat 64 call near batch 105, before the A100's B* = 153;
    # carried to 1,792 it predicts more than the run gives: the cost per sequence grows with the batch
    c = (lat[256] - lat[128]) / 128
    turn = (lat[64] - (lat[128] - 128 * c)) / c
    assert f"= {turn:,.0f} sequences" in three.steps[1] and turn < 153
    assert "put B* at 153: the run turns earlier" in three.answer and "falls short of the line" in three.answer


def test_a_readme_that_prints_its_size_and_names_an_a100_gets_the_floor_from_the_printed_size():
    res = run(f"{FIX}/readme_0253839c_bloom.md")
    assert res.peaks.device == "A100-SXM4-80GB"
    assert res.floor["params_b"] == pytest.approx(1.311535104) and res.floor["dtype"] == "fp16"
    assert res.ledger.get("knee").evidence["x"] == 512


def test_a_series_that_never_falls_is_read_against_the_inputs_largest_wobble_and_no_device_is_said_once():
    res = run(f"{FIX}/readme_0253839c_gpt2_mha.md")
    knee = res.ledger.get("knee")
    # DS-inference fp16 rises at every batch; HF fp32 falls 4.2 % from 640 (4,124.01) to 768 (3,950.39)
    assert knee.evidence["noise_from"] == "input"
    assert knee.evidence["knee_noise"] == pytest.approx(1 - 3950.39 / 4124.01)
    assert knee.evidence["fragile"] and "in another series" in knee.text
    assert res.floor == {}
    folded = placement.folded(res.ledger)
    box = bottom_line.box(res.ledger)
    assert (box + folded).count("names a device the hardware table knows") == 1
    boxed = {c["id"] for c in bottom_line.pick(res.ledger)}
    here = placement.in_place(res.ledger)
    # a boxed claim's section says only what the box leaves (its caveat whole, stop 48), never its answer
    left = bottom_line.rest(res.ledger)
    assert all(here[f"here_{c.id}"] == left.get(c.id, "") for c in res.ledger.claims if c.id in boxed)
    assert "in another series" in here["here_knee"] and "in another series" not in box
    one, _, turn = exercises.batch_saturation(res.ledger)
    assert one.lacking and "compute_large" in one.needs  # left out of the page: no peak to work against
    assert [e.name for e in exercises.applicable(res.ledger)] == ["measured_turn"]  # it still teaches, no device


def test_the_device_free_exercise_is_recomputed_from_the_series_times():
    res = run(f"{FIX}/readme_0253839c_gpt2_mha.md")
    lat = batch.rows_of(res.sweep, res.key).set_index("batch_size")["latency_s"]
    tok = batch.rows_of(res.sweep, res.key).set_index("batch_size")["throughput_tok_s"]
    # DS-inference fp16 is flat to batch 128; the line through 256 and 384 meets its call there, 512 is the top
    c = (lat[384] - lat[256]) / 128
    shared = lat[256] - 256 * c
    turn = (lat[128] - shared) / c
    predicted = 512 * 100 / (shared + 512 * c)
    ex = exercises.batch_saturation(res.ledger)[-1]
    assert f"= {c * 1e3:.3g} ms per call" in ex.steps[0] and f"= {shared:.2f} s." in ex.steps[0]
    assert f"= {turn:,.0f} sequences" in ex.steps[1] and 128 < turn <= 256 and "The run turns there" in ex.answer
    assert f"= {predicted:,.0f} tok/s" in ex.steps[2] and f"{tok[512]:,.0f} tok/s" in ex.steps[2]
    assert "B*" not in ex.answer  # no device named: none to set the turn against


def test_the_page_draws_the_lesson_in_the_inputs_numbers_or_in_units(seed):
    import matplotlib.pyplot as plt

    pg = topic.page(seed)
    assert "B* = 153 x 2 / 2 = 153 sequences" in pg.markdown["floor"]
    ax = pg.figures["fig_floor"].axes[0]
    xs, ys = ax.lines[-1].get_data()
    assert list(xs) == seed.floor["batches"] and np.allclose(ys, seed.floor["tok_s"])
    text = " ".join([*pg.texts.values(), *pg.markdown.values(), *(c.text for c in seed.ledger.claims)])
    assert not re.search(r"\w\(s\)", text)
    none = topic.page(run(f"{FIX}/readme_0253839c_gpt2_mha.md"))
    assert (
        "in units of B*" in none.markdown["floor"] and "units of B*" in none.figures["fig_floor"].axes[0].get_xlabel()
    )
    plt.close("all")


def test_offline_runs_alone_have_no_batch_to_saturate():
    res = run("tests/fixtures/vllm-bench-offline/lfm25_350m_h100_bench_throughput.md")
    assert len(res.offline) >= 1 and res.ledger.get("knee").status == "withheld" and res.floor == {}
    pg = topic.page(res)
    assert "no batch size with a result" in pg.markdown["notes"]
    import matplotlib.pyplot as plt

    plt.close("all")
