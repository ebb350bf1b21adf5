"""The attention chapter's numbers (analysis) and figures (presentation): known answers on the seed
and the real fixtures, synthetic cases for each branch, and figures tested on the data they plot."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from benchbook import config, hardware, ingest
from benchbook.analysis import attention
from benchbook.checks import attention_gym as checks
from benchbook.presentation import attention as show

SEED = config.seed("004")
FIX = config.FIXTURES_DIR / "attention-gym"
TRACEBACK = FIX / "w7900_rocm_traceback.md"
NOOP = FIX / "rtx4090_flex_attn_noop.md"
STRIX = FIX / "strix_halo_aotriton_bench.md"


def _load(path):
    df, messages = ingest.read_all([path], tool="attention-gym")
    return attention.with_work(attention.kernels(df)), messages


@pytest.fixture(scope="module")
def seed():
    return _load(SEED)


def _row(k, mask, op, pass_="fw"):
    return k[(k["mask"] == mask) & (k["operation"] == op) & (k["pass"] == pass_)].iloc[0]


def test_stop_note():
    assert show.stop_note(_load(SEED)[1]) == "the run completed every section it started"
    note = show.stop_note(_load(TRACEBACK)[1])
    assert note.startswith("the run stopped at line 57") and "'Sliding Window 1024'" in note
    assert show.stop_note(["warning: something else", "warning: the run stopped here"]) == "the run stopped here"


def test_reproduction_of_the_seed_and_fixtures():
    rep = checks.reproduce(SEED)
    assert len(rep) == 42 and rep["agrees"].all()
    assert (
        show.reproduction_words(rep) == "42 of 42 printed TF/s cells agree with this formula at the printed precision"
    )
    # the modified Strix Halo benchmark runs other shapes: the formula at B=16, H=16, D=64 does not hold
    strix = checks.reproduce(STRIX)
    assert len(strix) == 16 and not strix["agrees"].any()


def test_work_on_the_default_shape(seed):
    k = seed[0]
    assert set(k["shape"]) == {"default"}
    # causal FA2 forward: 4 x 0.5 x 16 x 16 x 64 x 8192^2 FLOPs in 6.6376 ms
    fa2 = _row(k, "causal_mask", "causal_fa2")
    assert fa2["work_tflops"] == pytest.approx(4 * 0.5 * 16 * 16 * 64 * 8192**2 / 6.6376e-3 / 1e12)
    # SDPA + mask on the doc mask does all of S^2 (S = 32768) but is credited 4.72 % of it
    sd = _row(k, "doc_mask_mod", "sdpa_mask")
    assert sd["work_tflops"] == pytest.approx(4 * 16 * 16 * 64 * 32768**2 / 585.221e-3 / 1e12)
    assert sd["credit_ratio"] == pytest.approx(0.0472, abs=1e-3)
    w = attention.work_rates(k, "sdpa_mask")
    assert (w.min(), w.max()) == (pytest.approx(118.864, abs=1e-3), pytest.approx(128.011, abs=1e-3))


def test_work_on_another_shape_comes_from_the_printed_rate():
    """The Strix Halo bench prints B=1, H=1 at S=128: the time at the default shape would claim
    0.0886 ms for 256 x the work. The printed 0.02 TF/s carry the real shape."""
    k, _ = _load(STRIX)
    assert set(k["shape"]) == {"other"}
    tiny = k[(k["operation"] == "causal_fa2") & (k["pass"] == "fw") & (k["seq_len"] == 128)].iloc[0]
    assert tiny["work_tflops"] == pytest.approx(0.02)
    # the same row with a time consistent with the default shape counts as default
    synthetic = tiny.to_frame().T.assign(time_ms=4 * 0.5 * 16 * 16 * 64 * 128**2 / 0.02e12 * 1e3)
    assert attention.with_work(synthetic.drop(columns=["work_tflops", "credit_ratio", "shape"]))["shape"].iat[0] == (
        "default"
    )


def test_speedups_seed(seed):
    sp = attention.speedups(seed[0])
    doc = sp[(sp["mask"] == "doc_mask_mod") & (sp["pass"] == "fw")].iloc[0]
    assert doc["flex_vs_sdpa"] == pytest.approx(585.221 / 30.5244)
    assert doc["ideal_vs_sdpa"] == pytest.approx(1 / 0.0472)
    assert doc["per_block"] == pytest.approx(585.221 / 30.5244 * 0.0472)
    assert attention.sparsest(sp)["mask"] == "doc_mask_mod"
    assert list(attention.dense_rows(sp)["mask"]) == ["alibi_mod", "tanh_softcap_30", "tanh_softcap_approx_30"]
    causal = sp[(sp["mask"] == "causal_mask") & (sp["pass"] == "fw")].iloc[0]
    assert causal["flex_vs_fa2"] == pytest.approx(6.6376 / 10.0974)


def test_speedups_without_sparse_masks():
    k, _ = _load(NOOP)
    sp = attention.speedups(k)
    assert attention.sparsest(sp) is None and len(attention.dense_rows(sp)) == 1


def test_noise_from_the_re_timed_fa2(seed):
    value, n = attention.noise(seed[0])
    fa2 = [6.6376, 6.6637, 6.899, 6.7311, 6.8936, 7.1194]  # the six S = 8192 sections
    assert n == 6 and value == pytest.approx(max(fa2) / min(fa2) - 1)
    # one section per shape: no repeat, the floor
    assert attention.noise(_load(NOOP)[0]) == (attention.NOISE_FLOOR, 0)
    # a spread below the floor gives the floor
    tight = pd.DataFrame(
        {"operation": ["causal_fa2"] * 2, "pass": ["fw"] * 2, "seq_len": [8192] * 2, "time_ms": [1.0, 1.01]}
    )
    assert attention.noise(tight) == (attention.NOISE_FLOOR, 2)


def test_intensity_and_roofline_points(seed):
    # FA2 forward at S = 8192: 4 x 0.5 x S / (4 tensors x 2 bytes) = 2048 FLOP/byte, whatever B, H, D
    assert attention.intensity("causal_fa2", 8192, 1.0) == pytest.approx(2048)
    assert attention.intensity("causal_fa2", 8192, 1.0, b=1, h=1, d=128) == pytest.approx(2048)
    assert attention.intensity("sdpa_mask", 8192, 0.1, "bw") == pytest.approx(10 * 8192 / 16)
    pts = attention.roofline_points(seed[0])
    r = pts.iloc[0]
    assert r["achieved_gb_s"] == pytest.approx(r["achieved_tflops"] * 1e3 / r["intensity_flop_per_byte"])
    missing = pd.DataFrame(
        {"operation": ["sdpa_mask"], "seq_len": [8192.0], "density": [np.nan], "pass": ["fw"], "work_tflops": [1.0]}
    )
    assert attention.roofline_points(missing)["intensity_flop_per_byte"].iat[0] == attention.intensity(
        "sdpa_mask", 8192, 1.0
    )


def test_peaks_detected_given_or_none():
    text = SEED.read_text(encoding="utf-8")
    p = attention.peaks("", [text])
    assert (p.device, p.source, p.dense_tflops, p.bandwidth_gb_s) == (
        "RTX-PRO-6000-Blackwell-WS",
        "detected",
        500.0,
        1792.0,
    )
    assert p.ridge() == pytest.approx(500e12 / 1792e9)
    assert attention.peaks("A100-SXM4-80GB", [text]).source == "parameter"
    none = attention.peaks("", ["no device here"])
    assert none is attention.NONE and (none.device, none.source) == (None, None) and none.dense_tflops is None
    given = attention.peaks("", ["no device here"], peak_tflops=100.0)
    assert (given.dense_tflops, given.source) == (100.0, "parameter") and given.bandwidth_gb_s is None
    with pytest.raises(hardware.UnknownDevice):
        attention.peaks("no-such-gpu")


def _all_text(fig) -> str:
    return " ".join(t.get_text() for t in fig.findobj(match=lambda o: hasattr(o, "get_text")))


def test_tflops_figure_plots_the_printed_rates(seed):
    k = seed[0]
    fig = show.tflops_figure(k)
    ax = fig.axes[0]
    heights = [round(b.get_height(), 2) for b in ax.patches]
    fw = k[k["pass"] == "fw"]
    for op in ("causal_fa2", "sdpa_mask", "flexattention"):
        for v in fw[fw["operation"] == op]["tflops"]:
            assert round(v, 2) in heights
    assert len(heights) == 21 and ax.get_ylabel() and "as printed" in ax.get_title()
    assert [t.get_text() for t in ax.get_xticklabels()][0] == "causal mask"
    plt.close("all")


def test_speedup_figure_plots_measured_points_and_the_skip_line(seed):
    sp = attention.speedups(seed[0])
    fig = show.speedup_figure(sp)
    ax = fig.axes[0]
    pts = np.vstack([c.get_offsets() for c in ax.collections])
    fw = sp[sp["pass"] == "fw"]
    assert len(pts) == len(sp)
    assert any(np.allclose(p, (fw["density"].iat[0], fw["flex_vs_sdpa"].iat[0])) for p in pts)
    line = next(ln for ln in ax.get_lines() if ln.get_linestyle() == "--")
    x, y = line.get_data()
    assert np.allclose(np.asarray(x) * np.asarray(y), 1.0)
    assert "gains more" not in ax.get_title() and ax.get_xlabel() and ax.get_ylabel()
    empty = show.speedup_figure(sp.iloc[0:0])
    assert not empty.axes[0].collections and "No figure: no mask has both" in _all_text(empty)
    plt.close("all")


def test_roofline_figure_plots_performed_work(seed):
    k = seed[0]
    pts = attention.roofline_points(k)
    p = attention.peaks("RTX-PRO-6000-Blackwell-WS")
    fig = show.roofline_figure(pts, p)
    ax = fig.axes[0]
    drawn = np.vstack([c.get_offsets() for c in ax.collections])
    assert len(drawn) == len(pts)
    assert np.allclose(sorted(drawn[:, 1]), sorted(pts["achieved_tflops"]))
    roof = ax.get_lines()[0]
    assert max(roof.get_ydata()) == pytest.approx(500.0)
    assert ax.get_title() == "Performed work on the RTX-PRO-6000-Blackwell-WS roofline (parameter peaks)"
    plt.close("all")


def test_descriptions_name_only_what_the_input_has(seed):
    assert show.fa2_words(seed[0]).startswith("Across its 7 sections the causal FA2 forward row prints 308.9 to 331.3")
    assert show.fa2_words(_load(NOOP)[0]) == "Its one causal FA2 forward row prints 150.1 TF/s."
    assert "re-timed in 6 sections, moves by up to 7.3%, so differences inside 7.3%" in show.noise_words(seed[0])
    assert "a noise of 5% is assumed" in show.noise_words(_load(NOOP)[0])
    # the traceback run re-times FA2 twice, backward 764.289 vs 798.569 ms (4.5 %): below the floor, said so
    assert "moves by up to 4.5%, below the 5% floor used instead" in show.noise_words(_load(TRACEBACK)[0])
    said = show.device_words(attention.peaks("", ["none"]))
    assert said.startswith(
        "not named: neither the input nor the gpu parameter names one the hardware table knows, and none is"
    )
    own = show.device_words(attention.peaks("", ["none"], peak_tflops=100.0))
    assert own == "your device (100 TFLOP/s dense FP16; given as a parameter)"
    t = show.sdpa_table(seed[0])
    assert (
        list(t.columns) == ["mask", "block density", "time (ms)", "printed (TFLOP/s)", "performed (TFLOP/s)"]
        and len(t) == 7
    )


def test_sources_page_counts_the_seed_masks(seed):
    """book/sources.md states the seed's number of attention-gym masks; it must be the parsed count."""
    text = (config.PROJ_ROOT / "book" / "sources.md").read_text(encoding="utf-8")
    row = next(line for line in text.splitlines() if "attention-gym" in line and line.startswith("| 004"))
    stated = int(row.split("|")[2].split()[0])
    assert stated == seed[0]["mask"].nunique() == 7
