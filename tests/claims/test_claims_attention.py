"""The attention chapter's claims: each verdict on the seed, and a synthetic case where it must come
out the other way (inside the noise, the other direction, an impossible peak, no device named)."""

from __future__ import annotations

import pandas as pd
import pytest

from benchbook import config, ingest
from benchbook.analysis import attention, roofline
from benchbook.claims import attention as ca
from benchbook.claims import attention as claims
from benchbook.claims import rules
from benchbook.claims.rules import MISSING_WORDS, check
from benchbook.presentation import attention as show
from benchbook.presentation import wording

SEED = config.seed("004")
FIXTURES = sorted(
    p
    for p in (config.FIXTURES_DIR / "attention-gym").iterdir()
    if p.name != "README.md" and not p.name.endswith(".truth.yml")
)
RTX = attention.peaks("RTX-PRO-6000-Blackwell-WS")


def _load(path):
    df, _ = ingest.read_all([path], tool="attention-gym")
    k = attention.with_work(attention.kernels(df))
    return k, attention.speedups(k), attention.roofline_points(k)


@pytest.fixture(scope="module")
def seed():
    return _load(SEED)


def _ledger(path, peaks=None):
    k, sp, pts = _load(path)
    peaks = peaks or attention.peaks("", [path.read_text(encoding="utf-8")])
    return wording.ledger("attention_kernels", [path.name], claims.all_claims(k, sp, pts, peaks))


def _sp(**cols) -> pd.DataFrame:
    """A speed-up table with one forward row per value."""
    n = len(next(iter(cols.values())))
    base = {"order": list(range(n)), "mask": [f"m{i}" for i in range(n)], "pass": ["fw"] * n, "seq_len": [8192] * n}
    sp = pd.DataFrame({**base, **cols})
    sp["ideal_vs_sdpa"] = 1 / sp["density"]
    return sp


NOISE = (0.05, 3)


def test_seed_ledger_is_clean_with_at_least_five_shown():
    led = _ledger(SEED)
    d = led.to_dict()
    assert check(d) == []
    shown = [c.id for c in led.claims if c.shown]
    assert len(shown) >= 5, shown
    assert set(shown) == {
        "flex_sparsest",
        "sdpa_printed",
        "skip_sparsest",
        "sdpa_fraction",
        "fa2_fraction",
        "sdpa_vs_fa2",
        "flex_vs_fa2_causal",
        "best_bound",
    }


@pytest.mark.parametrize("path", FIXTURES, ids=[p.name for p in FIXTURES])
def test_every_fixture_ledger_is_clean_and_prints_no_missing_value(path):
    led = _ledger(path)
    assert check(led.to_dict()) == []
    for c in led.claims:
        assert c.text and not MISSING_WORDS.search(c.text), (c.id, c.text)
        assert "None" not in c.text and "nan" not in c.text


# --- comparison ---------------------------------------------------------------------------------


def test_flex_sparsest_seed_and_inside_the_noise(seed):
    c = claims.flex_sparsest(seed[1], attention.noise(seed[0]))
    assert c.shown and c.evidence["mask"] == "doc_mask_mod" and c.evidence["ratio"] == pytest.approx(19.172, abs=1e-3)
    near = claims.flex_sparsest(_sp(density=[0.5], flex_vs_sdpa=[1.03]), NOISE)
    assert near.status == "withheld" and "within the noise" in near.reason
    none = claims.flex_sparsest(_sp(density=[1.0], flex_vs_sdpa=[2.0]), NOISE)
    assert none.status == "withheld" and none.evidence["mask"] is None


def test_skip_sparsest_says_less_on_the_seed_and_more_when_per_block_faster(seed):
    c = wording.word("attention_kernels", claims.skip_sparsest(seed[1], attention.noise(seed[0])))
    assert c.shown and c.evidence["more"] is False and c.evidence["ratio"] == pytest.approx(0.905, abs=1e-3)
    assert "more slowly than SDPA + mask" in c.text and "also computes each block faster" not in c.text
    # it stands alone on the page (the box, not the section, holds the sparsest mask's gain): it names both
    assert c.text.startswith("On doc mask mod, FlexAttention's 19.2x over SDPA + mask is 90% of the 21.2x")
    more = wording.word("attention_kernels", claims.skip_sparsest(_sp(density=[0.1], flex_vs_sdpa=[15.0]), NOISE))
    assert more.shown and more.evidence["more"] is True and "also computes each block faster" in more.text
    within = claims.skip_sparsest(_sp(density=[0.1], flex_vs_sdpa=[10.2]), NOISE)
    assert within.status == "withheld"


def test_dense_gain_withheld_on_the_seed_shown_when_every_gain_clears_the_noise(seed):
    c = wording.word("attention_kernels", claims.dense_gain(seed[1], attention.noise(seed[0])))
    assert c.status == "withheld" and c.evidence["mask"] == "tanh_softcap_30"
    assert "1.06x (tanh softcap 30) to 1.64x" in c.text and "inside the noise (7.3%)" in c.text
    faster = wording.word(
        "attention_kernels", claims.dense_gain(_sp(density=[1.0, 1.0], flex_vs_sdpa=[1.3, 1.6]), NOISE)
    )
    assert faster.shown and "still faster" in faster.text and "from 1.30x (m0) up to 1.60x" in faster.text
    slower = wording.word("attention_kernels", claims.dense_gain(_sp(density=[1.0], flex_vs_sdpa=[0.67]), NOISE))
    assert slower.shown and "slower than SDPA + mask for m0" in slower.text


def test_sdpa_vs_fa2_seed_slower_and_synthetic_equal(seed):
    c = wording.word("attention_kernels", claims.sdpa_vs_fa2(seed[0], attention.noise(seed[0])))
    assert c.shown and c.evidence["ratio"] == pytest.approx(122.566 / 324.933, abs=1e-3)
    assert "is also a slow kernel" in c.text and "38% of causal FA2's 325 TFLOP/s" in c.text
    assert "not a slow kernel" not in c.text
    k = seed[0].copy()
    fa2 = k["operation"] == "causal_fa2"
    k.loc[k["operation"] == "sdpa_mask", "work_tflops"] = k.loc[fa2, "work_tflops"].median() * 1.01
    same = claims.sdpa_vs_fa2(k, NOISE)
    assert same.status == "withheld" and "within the noise" in same.reason
    k.loc[k["operation"] == "sdpa_mask", "work_tflops"] = k.loc[fa2, "work_tflops"].median() * 1.5
    faster = wording.word("attention_kernels", claims.sdpa_vs_fa2(k, NOISE))
    assert faster.shown and "not a slower kernel" in faster.text


def test_flex_vs_fa2_causal_seed_and_without_a_causal_section(seed):
    c = claims.flex_vs_fa2_causal(seed[0], attention.noise(seed[0]))
    assert c.shown and c.evidence["ratio"] == pytest.approx(10.0974 / 6.6376)
    assert c.evidence["seq_len"] == 8192 and c.evidence["density"] == pytest.approx(0.5078)  # SDPA + mask's row
    # the TF/s the tool prints on that row (line 216: 34.8769 ms, 64.04 TF/s), and FA2's
    assert (c.evidence["sdpa_ms"], c.evidence["sdpa_printed"], c.evidence["fa2_printed"]) == (34.8769, 64.04, 331.3)
    k = seed[0][seed[0]["mask"] != "causal_mask"]
    gone = wording.word("attention_kernels", claims.flex_vs_fa2_causal(k, NOISE))
    assert gone.status == "withheld" and gone.text.startswith("This input has no plain causal-mask section")


# --- fraction_of_peak ---------------------------------------------------------------------------


def test_fraction_of_peak_seed_and_an_impossible_peak(seed):
    c = wording.word("attention_kernels", claims.kernel_fraction(seed[0], "sdpa_mask", RTX, "sdpa_fraction"))
    assert c.shown and c.evidence["fraction"] == pytest.approx(128.011 / 500, abs=1e-4)
    assert (c.evidence["device"], c.evidence["peak_source"]) == ("RTX-PRO-6000-Blackwell-WS", "parameter")
    assert "119 to 128 TFLOP/s" in c.text and "24% to 26%" in c.text
    tiny = attention.peaks("RTX-PRO-6000-Blackwell-WS", peak_tflops=100.0)
    bad = wording.word("attention_kernels", claims.kernel_fraction(seed[0], "causal_fa2", tiny, "fa2_fraction"))
    assert bad.status == "implausible" and bad.text.startswith("**Warning")
    # its own suspects, not the book's general ones: a device other than the run's, or another shape
    assert "the wrong device (its peak is not this run's)" in bad.text
    assert "a shape other than attention-gym's B=16, H=16, D=64" in bad.text
    missing = wording.word(
        "attention_kernels", claims.kernel_fraction(seed[0].iloc[0:0], "sdpa_mask", RTX, "sdpa_fraction")
    )
    assert (
        missing.status == "withheld"
        and missing.text == "This input has no SDPA + mask row, so its share of the peak is not stated."
    )


def test_no_device_states_each_kernels_work_rate_and_withholds_its_share(seed):
    none = attention.peaks("", ["a file that names no device"])
    c = wording.word("attention_kernels", claims.kernel_fraction(seed[0], "sdpa_mask", none, "sdpa_fraction"))
    assert c.status == "withheld" and c.reason == rules.NO_DEVICE
    assert c.text.startswith("SDPA + mask performs 119 to 128 TFLOP/s of real work") and "H100" not in c.text
    assert show.device_words(none).startswith(
        "not named: neither the input nor the gpu parameter names one the hardware table knows"
    )
    fig = show.roofline_figure(seed[2], none)
    assert not any("roofline" in ln.get_label() for ln in fig.axes[0].get_lines())
    assert "no device the hardware table knows" in fig.axes[0].get_title()


# --- bound --------------------------------------------------------------------------------------


def test_bound_compute_on_the_seed_device(seed):
    c = wording.word("attention_kernels", claims.best_bound(seed[2], RTX))
    assert c.shown and c.evidence["verdict"] == "compute"
    assert c.evidence["intensity"] == pytest.approx(2048) and c.evidence["operation"] == "causal_fa2"
    assert "causal FA2 (forward, causal mask), is compute-bound: it reaches 66% of the dense FP16 peak" in c.text
    # the fastest point may be a backward pass: the sentence names the pass it is
    bw = seed[2][seed[2]["pass"] == "bw"]
    assert "(backward, " in wording.word("attention_kernels", claims.best_bound(bw, RTX)).text


def test_bound_overhead_far_from_both_roofs_and_withheld_without_a_device(seed):
    big = roofline.Peaks("big", 8000.0, {"fp16": 5000.0}, "parameter")
    c = wording.word("attention_kernels", claims.best_bound(seed[2], big))
    assert c.shown and c.evidence["verdict"] == "overhead" and "limited by neither roof" in c.text
    # compute-bound on the seed's RTX PRO 6000; with no device named, none is assumed: withheld
    w = wording.word("attention_kernels", claims.best_bound(seed[2], attention.NONE))
    assert w.status == "withheld" and w.reason == rules.NO_DEVICE and "`gpu`" in w.text
    slow_memory = roofline.Peaks("x", 10.0, {"fp16": 500.0}, "parameter")
    assert claims.best_bound(seed[2], slow_memory).status == "implausible"


def test_sdpa_vs_fa2_evidence_ranges():
    k = pd.DataFrame(
        {
            "operation": ["sdpa_mask", "sdpa_mask", "causal_fa2", "causal_fa2", "sdpa_mask"],
            "pass": ["fw", "fw", "fw", "fw", "bw"],
            "mask": ["m1", "m2", "causal_mask", "other", "m1"],
            "work_tflops": [10.0, 20.0, 100.0, 120.0, 999.0],
            "density": [0.5, 1.0, 1.0, 1.0, 0.5],
        }
    )
    ev = ca.sdpa_vs_fa2(k, (0.05, 3)).evidence
    assert (ev["a"], ev["b"], ev["a_low"], ev["a_high"]) == (15.0, 110.0, 10.0, 20.0)
    assert (ev["b_low"], ev["b_high"], ev["n_masks"], ev["n_sparse"]) == (100.0, 120.0, 2, 1)


def test_dense_rows_and_sparsest_split_by_density():
    sp = pd.DataFrame(
        {
            "pass": ["fw", "fw", "fw", "bw"],
            "mask": ["full", "sliding", "causal", "full"],
            "density": [1.0, 0.25, 0.5, 1.0],
            "flex_vs_sdpa": [1.1, 3.0, 1.8, 1.0],
            "order": [0, 1, 2, 0],
        }
    )
    assert attention.dense_rows(sp)["mask"].tolist() == ["full"]
    assert attention.sparsest(sp, "fw")["mask"] == "sliding"
    assert ca.flex_sparsest(sp, (0.05, 3)).evidence["mask"] == "sliding"


def test_the_attention_claims_name_the_kernels_and_the_threshold_in_their_rules(seed):
    c = claims.dense_gain(seed[1], attention.noise(seed[0]))
    assert "SDPA + mask / FlexAttention" in c.rule
    led = {x.id: x for x in _ledger(SEED).claims}
    assert led["best_bound"].rule.startswith("bound rule on the best point: a limit is named only above ")


def test_skip_sparsest_carries_the_density_it_divides_by():
    c = claims.skip_sparsest(_sp(density=[0.1], flex_vs_sdpa=[15.0]), NOISE)
    assert c.evidence["density"] == 0.1 and c.evidence["ratio"] == pytest.approx(1.5)  # 15 over 1 / 0.1
