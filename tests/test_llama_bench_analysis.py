"""power.py and bandwidth.py on synthetic data with known answers and on the seed; checks."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from benchbook import config, ingest
from benchbook.analysis import bandwidth, power
from benchbook.presentation import plotting
from benchbook.checks import AUDIT_COLUMNS, REPRODUCTION_COLUMNS
from benchbook.checks import llama_bench as checks

SEED = config.seed("004")
GPU = "RTX-PRO-6000-Blackwell-WS"


@pytest.fixture(scope="module")
def seed_df():
    return ingest.read(SEED, tool="llama-bench")


def _table(rows):
    return pd.DataFrame(rows, columns=["test", "power_limit_w", "mean", "std"]).assign(
        cv=lambda d: d["std"] / d["mean"]
    )


def test_sweet_spot_known_answer():
    t = _table(
        [
            ("a", 600, 100, 1),
            ("a", 500, 99, 1),
            ("a", 400, 96, 1),
            ("a", 300, 80, 1),
            ("b", 600, 50, 1),
            ("b", 500, 40, 1),
        ]
    )
    s = power.sweet_spot(t, 0.95).set_index("test")
    assert s.loc["a", "sweet_limit_w"] == 400 and s.loc["a", "retained"] == pytest.approx(0.96)
    assert s.loc["a", "saving_w"] == 200
    assert s.loc["b", "sweet_limit_w"] == 600  # 40 < 47.5
    assert power.sweet_spot(t, 0.5).set_index("test").loc["a", "sweet_limit_w"] == 300
    with pytest.raises(ValueError):
        power.sweet_spot(t, 1.5)


def test_sweet_spot_peak_not_at_top_limit():
    t = _table([("a", 600, 99, 1), ("a", 500, 100, 1), ("a", 400, 94, 1)])
    s = power.sweet_spot(t, 0.95).iloc[0]
    assert s["peak_limit_w"] == 500 and s["sweet_limit_w"] == 500


def test_pareto_known_answer():
    x = [10, 9, 8, 7, 9]
    y = [5, 4, 4, 1, 6]
    # (8,4) dominated by (9,4); (9,6) dominated by (9,4)
    assert list(power.pareto_frontier(x, y)) == [True, True, False, True, False]
    assert list(power.pareto_frontier([1, np.nan], [1, 1])) == [True, False]


def test_knee_known_answer():
    x = [200, 300, 400, 500, 600]
    assert power.knee(x, [50, 75, 100, 100, 100]) == 400  # flat from 400 W up
    assert power.knee(x, [1, 2, 3, 4, 5]) is None  # straight line: no knee
    assert power.knee([1, 2], [1, 2]) is None


def test_energy_bounds_and_measured():
    t = _table([("tg", 400, 200.0, 1.0)])
    e = power.energy(t, pd.DataFrame({"power_limit_w": [400], "power_w": [250.0]}))
    assert e["j_per_tok_bound"].iloc[0] == 2.0 and e["tok_per_j_bound"].iloc[0] == 0.5
    assert e["j_per_tok"].iloc[0] == 1.25 and e["j_per_tok"].iloc[0] <= e["j_per_tok_bound"].iloc[0]


def test_seed_power_chapter_numbers(seed_df):
    model = power.pick_model(seed_df)
    assert model == "llama 7B Q4_0"
    t = power.rate_table(seed_df, model)
    assert len(t) == 16
    s = power.sweet_spot(t, 0.95).set_index("test")
    assert s.loc["tg128", "sweet_limit_w"] == 350 and s.loc["pp512", "sweet_limit_w"] == 450
    cv = t.set_index(["test", "power_limit_w"])["cv"]
    assert cv[("pp512", 600.0)] == pytest.approx(97.98 / 16634.04)
    assert cv[("pp512", 200.0)] == pytest.approx(4243.14 / 9115.39)  # 47%
    assert power.retained_at(t, "tg128", 400.0) == pytest.approx(1.0)
    assert power.retained_at(t, "pp512", 400.0) == pytest.approx(15225.27 / 16634.04)
    e = power.energy(t)
    assert e.set_index(["test", "power_limit_w"]).loc[("tg128", 600.0), "j_per_tok_bound"] == pytest.approx(
        600 / 278.95
    )


def test_seed_bandwidth(seed_df):
    p = bandwidth.decode_points(seed_df, GPU)
    r = p[(p["model"] == "llama 7B Q4_0") & (p["power_limit_w"] == 600)].iloc[0]
    assert r["bytes_per_token"] == pytest.approx(3.56 * 1024**3)
    assert r["bandwidth_gb_s"] == pytest.approx(1066.29, abs=0.01)
    assert r["fraction_of_peak"] == pytest.approx(0.595, abs=0.001)  # "about 60%"
    seventy = p[p["model"] == "llama 70B Q4_K - Medium"].iloc[0]
    assert seventy["fraction_of_peak"] == pytest.approx(0.8077, abs=0.001)
    moe = p[p["model"] == "gpt-oss 120B Q8_0"].iloc[0]
    assert moe["architecture"] == "moe"
    assert moe["bytes_per_token"] == pytest.approx(60.03 * 1024**3 * 5.13 / 116.83)
    big = p[p["model_file"].str.contains("405b")].iloc[0]
    assert big["offload"] == "partial" and "ngl 116 < 126" in big["offload_why"]
    one = bandwidth.one_per_model(p)
    assert len(one) == 6 and (one[one["model"] == "llama 7B Q4_0"]["power_limit_w"] == 600).all()


def test_moe_override():
    t = bandwidth.moe_table({"qwen3moe 30B.A3B": 3.0})
    assert t[t["model_pattern"] == "qwen3moe 30B.A3B"]["active_params_b"].iloc[0] == 3.0
    assert bandwidth.hardware_name("NVIDIA RTX PRO 6000 Blackwell Workstation Edition") == GPU
    assert bandwidth.hardware_name("Apple M2") is None


def test_checks_seed():
    r = checks.reproduce(SEED)
    assert list(r.columns) == REPRODUCTION_COLUMNS
    notes = r[r["quantity"].str.startswith("notes:")]
    assert len(notes) == 5 and notes["agrees"].all()
    a = checks.audit(SEED)
    assert list(a.columns) == AUDIT_COLUMNS
    assert set(a["defect"]) == {"high coefficient of variation", "no build line", "partial offload"}
    assert a[a["defect"] == "partial offload"]["line"].tolist() == [138]
    assert a[a["defect"] == "no build line"]["line"].tolist() == [137]


def test_checks_json_samples_reproduce():
    r = checks.reproduce(config.FIXTURES_DIR / "llama-bench" / "llamacpp_readme_b1275.json")
    s = r[r["quantity"].str.contains("samples_ts|sample std")]
    assert len(s) == 4 and s["agrees"].all()
    m = s[s["quantity"].str.startswith("mean") & s["quantity"].str.endswith("tg128")].iloc[0]
    assert m["recomputed"] == pytest.approx(np.mean([130.019, 131.295, 129.362, 131.86, 132.293]))


@pytest.fixture(scope="module")
def seed_energy(seed_df):
    return power.energy(power.rate_table(seed_df, "llama 7B Q4_0"))


def test_seed_chapter_prose(seed_energy):
    t = seed_energy
    assert power.has_power(t) and power.prose_tests(t) == {"pp": "pp512", "tg": "tg128"}
    assert power.retained_prose(t, 400.0) == {
        "ret_min_pp": "55%",
        "ret_q_pp": "92%",
        "ret_min_tg": "68%",
        "ret_q_tg": "100%",
    }
    e = power.energy_prose(t)
    assert (e["jpt_top_tg"], e["jpt_best_tg"], e["jpt_best_limit_tg"]) == ("2.151 J/token", "1.054 J/token", "200 W")
    assert (e["jpt_top_pp"], e["tpj_best_pp"]) == ("0.036 J/token", "45.6 tokens/J")
    sweet = power.sweet_table(t, 0.95)
    assert list(sweet["knee_w"]) == [400.0, 350.0]
    assert sweet.set_index("test").loc["tg128", "pareto_limits_w"].split(", ")[-1] == "200"
    assert power.sweet_prose(t, sweet) == {
        "sweet_pp": "450 W",
        "sweet_ret_pp": "96.6%",
        "saving_pp": "150 W",
        "knee_pp": "400 W",
        "sweet_tg": "350 W",
        "sweet_ret_tg": "98.5%",
        "saving_tg": "250 W",
        "knee_tg": "350 W",
    }
    st = power.stability_prose(t)
    assert (st["cv_hi_pp"], st["cv_lo_pp"], st["pm_hi_pp"], st["pm_lo_pp"]) == ("0.6%", "46.5%", "98", "4243")
    assert (st["cv_hi_tg"], st["cv_lo_tg"]) == ("0.1%", "1.5%")


def test_prose_without_power_limits_says_na():
    one = power.energy(_table([("pp512", 600, 100.0, 1.0), ("tg128", 600, 20.0, 0.1)]))
    empty = power.rate_table(pd.DataFrame(columns=["metric", "power_limit_w", "model", "statistic", "value"]))
    for t in (one, empty):
        assert not power.has_power(t)
        prose = power.retained_prose(t, 400.0) | power.energy_prose(t) | power.stability_prose(t)
        prose |= power.sweet_prose(t, None)
        assert len(prose) == 2 * (2 + 4 + 4 + 4) and set(prose.values()) == {"n/a"}
    assert "1 power limit(s)" in power.no_power_message(1)


def test_prose_for_a_test_the_input_lacks():
    t = power.energy(_table([("pp512+tg128", 600, 100.0, 1.0), ("pp512+tg128", 300, 60.0, 1.0)]))
    assert power.prose_tests(t) == {"pp": None, "tg": None}
    # the combined test is not the pp test the prose quotes
    assert power.retained_prose(t, 300.0) == {
        "ret_min_pp": "n/a",
        "ret_q_pp": "n/a",
        "ret_min_tg": "n/a",
        "ret_q_tg": "n/a",
    }
    t = power.energy(_table([("tg64", 600, 100.0, 1.0), ("tg64", 300, 60.0, 3.0)]))
    assert power.retained_prose(t, 300.0) == {
        "ret_min_tg": "60%",
        "ret_q_tg": "60%",
        "ret_min_pp": "n/a",
        "ret_q_pp": "n/a",
    }
    e = power.energy_prose(t)
    assert (e["jpt_top_tg"], e["jpt_best_tg"], e["jpt_best_limit_tg"], e["tpj_best_tg"]) == (
        "6.000 J/token",
        "5.000 J/token",
        "300 W",
        "0.2 tokens/J",
    )
    assert e["jpt_top_pp"] == "n/a"
    assert power.stability_prose(t)["pm_lo_tg"] == "3" and power.stability_prose(t)["cv_lo_pp"] == "n/a"


def test_energy_table_and_measured_note():
    t = power.energy(_table([("tg", 400, 200.0, 1.0)]))
    assert list(power.energy_table(t).columns) == [
        "test",
        "limit (W)",
        "tok/s",
        "J/token (upper bound)",
        "tokens/J (lower bound)",
    ]
    m = power.energy(_table([("tg", 400, 200.0, 1.0)]), pd.DataFrame({"power_limit_w": [400], "power_w": [250.0]}))
    assert list(power.energy_table(m).columns)[-3:] == ["power_w", "j_per_tok", "tok_per_j"]
    assert power.measured_note(True).startswith("A measured-power table was given")
    assert power.measured_note(False).startswith("No measured power was given")


def test_figures_have_labelled_axes(seed_energy):
    from matplotlib.figure import Figure

    for fig in (
        power.throughput_figure(seed_energy, "llama 7B Q4_0"),
        power.energy_figure(seed_energy),
        power.cv_figure(seed_energy),
    ):
        assert isinstance(fig, Figure)
        for ax in fig.axes:
            assert ax.get_xlabel() and ax.get_ylabel() and ax.get_title()
    assert len(power.throughput_figure(seed_energy, "m").axes) == 2
    msg = plotting.message_figure("one power limit only")
    assert isinstance(msg, Figure) and msg.axes[0].texts[0].get_text() == "one power limit only"
    plt.close("all")


def test_retained_prose_quotes_the_plain_pp_test_not_a_combined_one():
    rows = [("pp512", 600, 100.0, 1.0), ("pp512", 300, 90.0, 1.0)]
    rows += [("pp512+tg128", 600, 100.0, 1.0), ("pp512+tg128", 300, 50.0, 1.0)]
    t = power.energy(_table(rows))
    prose = power.retained_prose(t, 300.0)
    assert (prose["ret_min_pp"], prose["ret_q_pp"]) == ("90%", "90%")  # pp512's, not the combined 50%


@pytest.fixture(scope="module")
def seed_models(seed_df):
    return bandwidth.one_per_model(bandwidth.decode_points(seed_df, GPU))


@pytest.fixture(scope="module")
def g():
    from benchbook.analysis import roofline

    return roofline.gpu(GPU)


def test_bandwidth_input_prose(seed_models, g):
    assert bandwidth.input_prose(seed_models, g) == {
        "n_models": "6",
        "params_range": ", from 6.74 to 405.85 billion parameters",
        "gpu_name": GPU,
        "gpu_bw": "1,792 GB/s",
        "gpu_mem": "96 GB",
    }
    assert bandwidth.input_prose(seed_models.head(1), g)["params_range"] == ""  # one size: no range
    empty = bandwidth.input_prose(pd.DataFrame(), g)
    assert (empty["n_models"], empty["params_range"]) == ("0", "")


def test_bandwidth_notes():
    assert "no generation (tg) result" in bandwidth.coverage_note(0)
    assert "one model only" in bandwidth.coverage_note(1)
    assert bandwidth.coverage_note(2) is None
    other = pd.DataFrame({"gpu": [None, "NVIDIA GeForce RTX 4080"]})
    assert bandwidth.device_note(other, GPU).startswith("Note: the input names the device `NVIDIA GeForce RTX 4080`")
    same = pd.DataFrame({"gpu": ["NVIDIA RTX PRO 6000 Blackwell Workstation Edition"]})
    assert bandwidth.device_note(same, GPU) is None
    assert bandwidth.device_note(pd.DataFrame({"gpu": [None]}), GPU) is None


def test_bandwidth_bytes_table(seed_models):
    t = bandwidth.bytes_table(seed_models)
    assert list(t.columns) == [
        "label", "architecture", "file (GiB)", "params (B)", "active (B)", "GB read / token", "how",
    ]  # fmt: skip
    assert len(t) == 6
    r = t.set_index("label").loc["llama-2-7b.Q4_0"]
    assert (r["architecture"], r["GB read / token"]) == ("dense", 3.823)  # 3.56 GiB, read whole
    moe = t.set_index("label").loc["Qwen3-30B-A3B-Q4_K_M"]
    assert moe["architecture"] == "moe" and moe["how"].startswith("file size x 3.3B active")


def test_bandwidth_ceiling_prose_seed(seed_models):
    assert bandwidth.ceiling_prose(seed_models) == {
        "best_model": "shisa-v2-llama3.3-70b.i1-Q4_K_M",
        "best_frac": "81%",
        "best_gbs": "1,447 GB/s",
        "dense_range": "60% to 81%",
        "small_model": "llama-2-7b.Q4_0",
        "small_frac": "60%",
        "small_rate": "278.9 tok/s",
        "small_ceiling": "469 tok/s",
        "moe_list": "Qwen3-30B-A3B-Q4_K_M 28%, gpt-oss-120b-UD-Q8_K_XL 31%",
        "partial_list": "shisa-v2-llama3.1-405b-IQ2_XXS (ngl 116 < 126 layers + output; file 107.3 GB > 96 GB of "
        "GPU memory): 2.68 tok/s, 16% of peak",
    }


def test_bandwidth_ceiling_prose_without_dense_or_points():
    moe_only = pd.DataFrame(
        [
            {
                "model_file": "m.gguf",
                "model": "m",
                "architecture": "moe",
                "offload": "full",
                "fraction_of_peak": 0.25,
                "bytes_per_token": 1e9,
                "rate": 10.0,
            }
        ]
    )
    v = bandwidth.ceiling_prose(moe_only)
    assert v["moe_list"] == "m 25%" and v["partial_list"] == "none in this input"
    assert {v[k] for k in ("best_model", "best_frac", "best_gbs", "dense_range", "small_model")} == {"n/a"}
    assert {v[k] for k in ("small_frac", "small_rate", "small_ceiling")} == {"n/a"}
    empty = bandwidth.ceiling_prose(pd.DataFrame())
    assert empty["moe_list"] == empty["partial_list"] == "none in this input" and empty["dense_range"] == "n/a"


def test_bandwidth_roofline_prose(seed_models, g):
    assert bandwidth.roofline_prose(seed_models, g) == {"intensity": "3.3 to 7.6 FLOP/byte", "ridge": "279 FLOP/byte"}
    assert bandwidth.roofline_prose(pd.DataFrame(), g) == {"intensity": "n/a", "ridge": "279 FLOP/byte"}


def test_bandwidth_figures_have_labelled_axes(seed_models, g):
    from matplotlib.figure import Figure

    for fig in (bandwidth.ceiling_figure(seed_models, g), bandwidth.roofline_figure(seed_models, g)):
        assert isinstance(fig, Figure)
        ax = fig.axes[0]
        assert ax.get_xlabel() and ax.get_ylabel() and ax.get_title()
    bars = bandwidth.fraction_figure(seed_models)
    ax = bars.axes[0]
    assert isinstance(bars, Figure) and ax.get_xlabel() and ax.get_title()
    assert len(ax.get_yticklabels()) == 6  # one bar per model, labelled by model
    for make in (
        lambda p: bandwidth.ceiling_figure(p, g),
        bandwidth.fraction_figure,
        lambda p: bandwidth.roofline_figure(p, g),
    ):
        msg = make(pd.DataFrame())
        assert isinstance(msg, Figure) and msg.axes[0].texts[0].get_text() == "no generation results"
    plt.close("all")
