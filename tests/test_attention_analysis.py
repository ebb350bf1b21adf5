"""attention.py's chapter builders: glue values on the seed and the traceback fixture (the numbers
the chapter prints), synthetic branches, and the figures."""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
import pandas as pd
import pytest
from matplotlib.figure import Figure

from benchbook import config, ingest
from benchbook.analysis import attention, roofline
from benchbook.checks import attention_gym as checks

SEED = config.seed("004")
TRACEBACK = config.FIXTURES_DIR / "attention-gym" / "w7900_rocm_traceback.md"
GPU = "RTX-PRO-6000-Blackwell-WS"


def _load(path):
    df, messages = ingest.read_all([path], tool="attention-gym")
    return attention.with_work(attention.kernels(df)), messages


@pytest.fixture(scope="module")
def seed():
    return _load(SEED)


@pytest.fixture(scope="module")
def traceback_run():
    return _load(TRACEBACK)


def test_stop_note(seed, traceback_run):
    assert attention.stop_note(seed[1]) == "the run completed every section it started"
    note = attention.stop_note(traceback_run[1])
    assert note.startswith("the run stopped at line 57") and "'Sliding Window 1024'" in note
    assert attention.stop_note(["warning: something else", "warning: the run stopped here"]) == "the run stopped here"


def test_credit_values_seed(seed):
    v = attention.credit_values(seed[0], checks.reproduce(SEED))
    assert v == {"rep_n": 42, "rep_ok": 42, "fa2_min": 308.88, "fa2_max": 331.3}


def test_speedup_values_seed(seed):
    v = attention.speedup_values(attention.speedups(seed[0]))
    assert (v["sp_mask"], v["sp_pass"]) == ("doc mask mod", "FW")
    assert v["sp_density"] == pytest.approx(4.72)
    assert v["sp_speedup"] == pytest.approx(19.1722, abs=1e-4)
    assert (v["dense_min"], v["dense_max"]) == (pytest.approx(1.0633, abs=1e-4), pytest.approx(1.6931, abs=1e-4))
    assert v["causal_flex_fa2"] == pytest.approx(0.6574, abs=1e-4)


def test_speedup_values_traceback(traceback_run):
    v = attention.speedup_values(attention.speedups(traceback_run[0]))
    assert (v["sp_mask"], v["sp_pass"], v["sp_density"]) == ("causal mask", "BW", pytest.approx(50.78))
    assert v["causal_flex_fa2"] == pytest.approx(0.6136, abs=1e-4)


def test_speedup_values_without_dense_mask_or_fa2():
    sp = pd.DataFrame(
        {
            "mask": ["sliding_window", "causal_mask"],
            "pass": ["bw", "fw"],
            "density": [0.25, 0.5],
            "flex_vs_sdpa": [3.0, 2.0],
        }
    )
    v = attention.speedup_values(sp)
    assert (v["sp_mask"], v["sp_density"], v["sp_speedup"], v["sp_pass"]) == ("sliding window", 25.0, 3.0, "BW")
    assert all(math.isnan(v[k]) for k in ("dense_min", "dense_max", "causal_flex_fa2"))


def test_sdpa_values_and_table(seed, traceback_run):
    v = attention.sdpa_values(seed[0])
    assert (v["sd_mask"], v["sd_printed"]) == ("doc mask mod", 5.68)
    assert v["sd_work"] == pytest.approx(120.243, abs=1e-3)
    assert (v["sd_work_min"], v["sd_work_max"]) == (pytest.approx(118.864, abs=1e-3), pytest.approx(128.011, abs=1e-3))
    t = attention.sdpa_table(seed[0])
    assert list(t.columns) == ["mask", "density", "time_ms", "tflops", "work_tflops"] and len(t) == 7
    assert attention.sdpa_values(traceback_run[0])["sd_mask"] == "causal mask"


def test_roofline_values_seed(seed):
    k = seed[0]
    g = roofline.gpu(GPU)
    v = attention.roofline_values(k, attention.roofline_points(k), g)
    assert v["roof_sentence"] == (
        "every kernel here does at least 540 FLOPs per byte of compulsory traffic, right of the ridge at "
        "279 FLOP/byte: these kernels are compute-bound."
    )
    assert v["peak"] == 500.0 and v["best_label"] == "causal FA2 FW (causal mask)"
    assert v["best_work"] == pytest.approx(331.298, abs=1e-3) and v["best_pct"] == pytest.approx(66.26, abs=0.01)


def test_roofline_values_some_left_of_ridge(seed):
    k = seed[0]
    pts = attention.roofline_points(k)
    pts = pts.assign(intensity_flop_per_byte=[100.0, 200.0] + [1000.0] * (len(pts) - 2))
    v = attention.roofline_values(k, pts, roofline.gpu(GPU))
    assert v["roof_sentence"] == (
        "the least intense point does 100 FLOPs per byte of compulsory traffic, and 2 of 42 points sit left "
        "of the ridge at 279 FLOP/byte, where bandwidth bounds them; the others are compute-bound."
    )


def test_roofline_points_missing_density_counts_as_dense():
    k = pd.DataFrame(
        {
            "operation": ["sdpa_mask"],
            "seq_len": [8192.0],
            "density": [float("nan")],
            "pass": ["fw"],
            "work_tflops": [1.0],
        }
    )
    pts = attention.roofline_points(k)
    assert pts["intensity_flop_per_byte"].iat[0] == attention.intensity("sdpa_mask", 8192, 1.0)
    assert pts["label"].iat[0] == "F.sdpa + mask"


def test_figures_have_labelled_axes(seed):
    k = seed[0]
    g = roofline.gpu(GPU)
    figs = (
        attention.speedup_figure(attention.speedups(k)),
        attention.roofline_figure(attention.roofline_points(k), g),
    )
    for fig in figs:
        assert isinstance(fig, Figure)
        ax = fig.axes[0]
        assert ax.get_xlabel() and ax.get_ylabel() and ax.get_title()
    assert figs[1].axes[0].get_title() == "42 of 42 points right of the ridge (compute-bound)"
    bars = attention.tflops_figure(k)
    ax = bars.axes[0]
    assert isinstance(bars, Figure) and ax.get_ylabel() and ax.get_title()
    assert [t.get_text() for t in ax.get_xticklabels()][0] == "causal mask"  # the masks label the x axis
    plt.close("all")
