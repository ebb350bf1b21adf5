"""analysis.power and analysis.bandwidth on synthetic data with known answers and on the seed; the
figures' plotted data; the llama-bench checks."""

from __future__ import annotations

import json
import math
import re

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from benchbook import config, ingest
from benchbook.analysis import bandwidth, power
from benchbook.checks import AUDIT_COLUMNS, REPRODUCTION_COLUMNS
from benchbook.checks import llama_bench as checks
from benchbook.presentation import bandwidth as show_bw
from benchbook.presentation import power as show_power

SEED = config.seed("004")
GPU = "RTX-PRO-6000-Blackwell-WS"


@pytest.fixture(scope="module")
def seed_df():
    return ingest.read(SEED, tool="llama-bench")


def _table(rows, n_reps=5):
    t = pd.DataFrame(rows, columns=["test", "power_limit_w", "mean", "std"])
    t = t.assign(cv=t["std"] / t["mean"], n_reps=n_reps, reps_assumed=True, time_rate=np.nan, n_depth=0)
    t["se"] = t["cv"] / np.sqrt(t["n_reps"])
    t["metric"] = [("tg" if x.startswith("tg") else "pp") + "_rate" for x in t["test"]]
    return t


def _rows(**over):
    """Tidy llama-bench rows (mean and std) for one test at several limits, with settings."""
    base = {
        "model": "m",
        "model_file": "m.gguf",
        "test": "tg128",
        "n_depth": 0,
        "metric": "tg_rate",
        "backend": "CUDA",
        "gpu": None,
        "ngl": 99,
        "threads": 4,
        "n_cpu_moe": pd.NA,
        "fa": "1",
        "type_k": None,
        "type_v": None,
        "n_batch": pd.NA,
        "n_ubatch": pd.NA,
        "extra_settings": None,
        "build": None,
        "section": None,
        "model_size_gib": 1.0,
        "params_b": 1.0,
        "line": 1,
        "power_limit_w": np.nan,
    }
    base.update(over)
    rate, std = base.pop("rate", 100.0), base.pop("std", 1.0)
    return [{**base, "statistic": "mean", "value": rate}, {**base, "statistic": "std", "value": std}]


def test_sweet_spot_known_answer():
    t = _table([("a", 600, 100, 1), ("a", 500, 99, 1), ("a", 400, 96, 1), ("a", 300, 80, 1)])
    t = pd.concat([t, _table([("b", 600, 50, 1), ("b", 500, 40, 1)])])
    s = power.sweet_spot(t, 0.95).set_index("test")
    assert s.loc["a", "sweet_limit_w"] == 400 and s.loc["a", "retained"] == pytest.approx(0.96)
    assert s.loc["a", "saving_w"] == 200 and s.loc["a", "drop"] == pytest.approx(0.2)
    assert s.loc["b", "sweet_limit_w"] == 600  # 40 < 47.5
    assert power.sweet_spot(t, 0.5).set_index("test").loc["a", "sweet_limit_w"] == 300
    with pytest.raises(ValueError):
        power.sweet_spot(t, 1.5)


def test_pareto_and_clearly_dominated():
    x = [10, 9, 8, 7, 9]
    y = [5, 4, 4, 1, 6]
    assert list(power.pareto_frontier(x, y)) == [True, True, False, True, False]
    # 300 W is faster and cheaper than 250 W on the means, but inside the noise: not clearly dominated
    noisy = power.energy(_table([("pp", 300, 100.0, 40.0), ("pp", 250, 80.0, 40.0)]))
    assert list(power.pareto_by_test(noisy)) == [True, False]
    assert not power.clearly_dominated(noisy).any()
    quiet = power.energy(_table([("pp", 300, 100.0, 0.1), ("pp", 250, 80.0, 0.1)]))
    assert list(power.clearly_dominated(quiet)) == [False, True]
    # the same speed within the noise and cheaper: the top limit is clearly dominated
    flat = power.energy(_table([("tg", 600, 100.0, 0.5), ("tg", 400, 100.05, 0.5)]))
    assert list(power.clearly_dominated(flat)) == [True, False]


def test_knee_known_answer():
    x = [200, 300, 400, 500, 600]
    at, strength = power.knee(x, [50, 75, 100, 100, 100])
    assert at == 400 and strength == pytest.approx(1 / np.sqrt(2) / 2, rel=1e-6)
    assert power.knee(x, [1, 2, 3, 4, 5]) == (None, 0.0)  # straight line: no knee
    assert power.knee([1, 2], [1, 2]) == (None, 0.0)


def test_energy_estimate_limit_and_measured():
    t = _table([("tg", 400, 200.0, 20.0)])
    e = power.energy(t)
    r = e.iloc[0]
    # a limit is an upper bound: over the slowest tokens / total time 5 repetitions of 200 +- 20 allow
    assert (r["power_source"], r["rate_basis"], r["bound"]) == ("limit", "mean of repetitions", True)
    assert r["j_per_tok"] == pytest.approx(400 / power.slowest_rate(200.0, 20.0, 5)) and r["j_per_tok"] > 2.0
    assert r["rel_uncertainty"] == pytest.approx(0.1 / np.sqrt(5)) and r["averaging_bias"] == pytest.approx(0.01)
    m = power.energy(t, pd.DataFrame({"power_limit_w": [400], "power_w": [250.0]})).iloc[0]
    assert (m["j_per_tok"], m["power_source"], m["bound"]) == (1.25, "measured", False)
    assert m["tok_per_j"] == 0.8  # 200 tok/s at 250 W
    other = power.energy(t, pd.DataFrame({"power_limit_w": [300], "power_w": [250.0]})).iloc[0]
    assert other["power_source"] == "limit"  # no measurement at this limit: the limit stays


def test_rate_table_uses_samples_for_tokens_over_time():
    rows = _rows(power_limit_w=300.0, rate=150.0, std=70.7)
    rows += [{**rows[0], "statistic": "value", "value": v, "rep": i} for i, v in enumerate([100.0, 200.0])]
    t = power.rate_table(pd.DataFrame(rows))
    r = t.iloc[0]
    assert r["n_reps"] == 2 and not r["reps_assumed"]
    assert r["time_rate"] == pytest.approx(2 / (1 / 100 + 1 / 200))  # 133.3, below the printed mean 150
    e = power.energy(t).iloc[0]
    assert e["rate_basis"] == "samples" and e["j_per_tok"] == pytest.approx(300 / 133.333, rel=1e-4)
    assert e["averaging_bias"] == 0


def test_hold_fixed_keeps_the_combination_at_most_limits_not_the_first_row():
    rows = []
    for w in (300.0, 200.0):
        rows += _rows(power_limit_w=w, threads=4, rate=90.0, line=1)
    for w in (300.0, 250.0, 200.0):
        rows += _rows(power_limit_w=w, threads=16, rate=80.0, line=9)
    kept, configs = power.hold_fixed(pd.DataFrame(rows), "m")
    assert set(kept["threads"]) == {16} and configs["kept"].tolist() == [True, False]
    assert power.swept_settings(pd.DataFrame(rows), "m") == {"threads": [4, 16]}
    # the same limits: the faster combination wins, whatever comes first in the file
    rows = []
    for w in (300.0, 200.0):
        rows += _rows(power_limit_w=w, threads=4, rate=80.0, line=1)
        rows += _rows(power_limit_w=w, threads=16, rate=90.0, line=9)
    kept, configs = power.hold_fixed(pd.DataFrame(rows), "m")
    assert set(kept["threads"]) == {16}
    assert configs["score"].tolist() == pytest.approx([1.0, 80 / 90])  # each mean over the test's best


def test_quoted_tests_and_flat_top():
    t = _table([("pp512", 600, 100, 1), ("pp512", 300, 90, 1), ("tg128", 600, 50, 1), ("tg128", 500, 50.2, 1)])
    t = pd.concat([t, _table([("tg128", 400, 49.8, 1), ("tg128", 300, 40, 1)])], ignore_index=True)
    plus = _table([("pp512+tg128", 600, 100, 1), ("pp512+tg128", 300, 90, 1)]).assign(metric="pg_rate")
    assert power.quoted_tests(pd.concat([t, plus])) == {"pp": "pp512", "tg": "tg128"}
    assert power.flat_top(t, "tg128", 0.01)["power_limit_w"].tolist() == [600, 500, 400]
    assert power.flat_top(t, "pp512", 0.01)["power_limit_w"].tolist() == [600]


def test_seed_power_numbers(seed_df):
    model = power.pick_model(seed_df)
    assert model == "llama 7B Q4_0"
    kept, configs = power.hold_fixed(seed_df, model)
    assert len(configs) == 1 and power.swept_settings(seed_df, model) == {}
    t = power.energy(power.rate_table(kept, model))
    assert len(t) == 16 and (t["n_reps"] == 5).all() and t["reps_assumed"].all()
    s = power.sweet_spot(t, 0.95).set_index("test")
    assert s.loc["tg128", "sweet_limit_w"] == 350 and s.loc["pp512", "sweet_limit_w"] == 450
    cv = t.set_index(["test", "power_limit_w"])["cv"]
    assert cv[("pp512", 200.0)] == pytest.approx(4243.14 / 9115.39)  # 47%
    e = t.set_index(["test", "power_limit_w"])
    assert e.loc[("tg128", 600.0), "j_per_tok"] == pytest.approx(600 / power.slowest_rate(278.95, 0.23, 5))
    assert e.loc[("pp512", 200.0), "averaging_bias"] == pytest.approx((4243.14 / 9115.39) ** 2)
    # every bound is at least the limit over the printed mean, by more where the repetitions spread
    assert (t["j_per_tok"] >= t["power_w"] / t["mean"]).all() and t["bound"].all()
    assert e.loc[("pp512", 200.0), "j_per_tok"] > 1.5 * 200 / 9115.39  # CV 47 %: the mean of rates says little


def test_generation_rows_reduce_by_rule():
    rows = []
    for th, rate in ((1, 4.0), (8, 16.7), (32, 16.4)):
        rows += _rows(threads=th, rate=rate, backend="CPU", line=th)
    rows += _rows(test="tg128 @ d512", n_depth=512, rate=20.0, backend="CPU", line=50)
    a100 = {"model": "g", "model_file": "g.gguf", "gpu": "NVIDIA A100-SXM4-80GB"}
    rows += _rows(power_limit_w=600.0, rate=10.0, line=100, **a100)
    rows += _rows(power_limit_w=300.0, rate=12.0, line=101, **a100)
    g = bandwidth.generation_rows(pd.DataFrame(rows))
    assert list(g["mode"].unique()) == ["cpu", "gpu"]
    kept, every = bandwidth.reduce(g)
    assert sorted(zip(kept["model_key"], kept["threads"], kept["power_limit_w"].fillna(0), strict=True)) == [
        ("g.gguf", 4, 600.0),
        ("m.gguf", 8, 0.0),
    ]  # the fastest thread count, not the first row; the highest limit, though 300 W was faster
    why = dict(zip(every["line"].astype(str) + every["test"], every["why_dropped"], strict=True))
    assert why["1tg128"].startswith("slower settings: threads") and why["50tg128 @ d512"] == "depth > 0"
    assert bandwidth.swept(g)["threads"] == [1, 4, 8, 32] and bandwidth.swept(g)["n_depth"] == [0, 512]


def test_the_same_settings_under_two_engines_labels_are_two_engines_never_slower_settings():
    # ik_llama.cpp PR 180: the same command under "Regular llama.cpp:" (9.57 tok/s) and "ik_llama.cpp:" (10.01)
    rows = _rows(caption="Regular llama.cpp:", rate=9.57, backend="CPU", threads=32, line=16)
    rows += _rows(caption="ik_llama.cpp:", rate=10.01, backend="CPU", threads=32, line=26)
    kept, every = bandwidth.reduce(bandwidth.generation_rows(pd.DataFrame(rows)))
    assert kept["rate"].tolist() == [10.01]
    assert every.set_index("line").loc[16, "why_dropped"] == "another engine, build or configuration: Regular llama.cpp"
    # two builds (llama-bench's build_commit and build_number) of the same settings: two engines too
    rows = _rows(build="10e97801 (7099)", rate=9.0, line=1) + _rows(build="5aa1105da (6082)", rate=8.0, line=2)
    _, every = bandwidth.reduce(bandwidth.generation_rows(pd.DataFrame(rows)))
    assert (
        every.set_index("line").loc[2, "why_dropped"]
        == "another engine, build or configuration: build 5aa1105da (6082)"
    )
    # the other way: one build printed under two labels (a README's CSV and JSON sections) is one engine
    # (their printed spreads, 0.37 and 1.24 over 5 repetitions, make 1.08 tok/s apart a tie within the noise)
    rows = _rows(section="CSV", build="3469684 (1275)", rate=132.05, std=0.371342, line=56)
    rows += _rows(section="JSON", build="3469684 (1275)", rate=130.97, std=1.238924, line=122)
    _, every = bandwidth.reduce(bandwidth.generation_rows(pd.DataFrame(rows)))
    assert every.set_index("line").loc[122, "why_dropped"] == bandwidth.TIED + ": the same printed settings"
    # and one engine, settings that differ under their own captions: the slower is slower settings
    rows = _rows(caption="with ncmoe64", n_cpu_moe=64, rate=16.3, line=65)
    rows += _rows(caption="with ncmoe32", n_cpu_moe=32, rate=18.2, line=82)
    _, every = bandwidth.reduce(bandwidth.generation_rows(pd.DataFrame(rows)))
    assert every.set_index("line").loc[65, "why_dropped"] == "slower settings: n_cpu_moe 64 (placed: 32)"


def test_one_label_of_another_size_or_params_is_another_model_not_slower_settings():
    # a CI log: llama-bench's label (arch, size class, file type) of an original and a pruned file
    label = {"model": "qwen3moe 30B.A3B Q2_K - Medium", "model_file": None, "backend": "CPU"}
    rows = _rows(model_size_gib=10.48, params_b=30.53, rate=14.66, line=18, **label)
    rows += _rows(model_size_gib=10.76, params_b=28.12, rate=16.42, line=29, **label)
    kept, _ = bandwidth.reduce(bandwidth.generation_rows(pd.DataFrame(rows)))
    assert sorted(kept["rate"]) == [14.66, 16.42]
    assert kept["model_key"].nunique() == 2 and kept["model_key"].str.contains("30.53 B").any()
    # the other way: one label, one size and params twice (two thread counts) is one model
    rows = _rows(model_size_gib=10.48, params_b=30.53, rate=14.66, line=18, **label)
    rows += _rows(model_size_gib=10.48, params_b=30.53, rate=9.0, threads=2, line=29, **label)
    kept, every = bandwidth.reduce(bandwidth.generation_rows(pd.DataFrame(rows)))
    assert kept["rate"].tolist() == [14.66] and kept["model_key"].tolist() == [label["model"]]
    assert every.set_index("line").loc[29, "why_dropped"] == "slower settings: threads 2 (placed: 4)"


def test_points_devices_and_moe():
    rows = _rows(model="llama 7B Q4_0", model_size_gib=3.56, params_b=6.74, rate=100.0, gpu="NVIDIA A100-SXM4-80GB")
    rows += _rows(model="llama 7B Q4_0", model_file="x.gguf", model_size_gib=3.56, params_b=6.74, gpu="NVIDIA Foo 9")
    rows += _rows(model="llama 7B Q4_0", model_file="cpu.gguf", model_size_gib=3.56, params_b=6.74, backend="CPU")
    rows += _rows(model="gpt-oss 20B MXFP4 MoE", model_file="oss.gguf", model_size_gib=11.27, params_b=20.91)
    rows += _rows(model="qwen3moe 30B.A3B Q4_K", model_file="q.gguf", model_size_gib=17.28, params_b=30.53)
    rows += _rows(model="deepseek2 16B IQ4_NL_R4", model_file="d.gguf", model_size_gib=8.0, params_b=15.76)
    kept, _ = bandwidth.reduce(bandwidth.generation_rows(pd.DataFrame(rows)))
    p = bandwidth.points(kept).set_index("model_key")
    assert (p.loc["q.gguf", "active_params_b"], p.loc["q.gguf", "params_b"]) == (3.3, 30.53)
    given = bandwidth.points(kept, moe_override={"qwen3moe 30B.A3B": 6.6}).set_index("model_key")
    unprinted = bandwidth.points(kept.drop(columns="params_b")).set_index("model_key")  # no count printed
    assert unprinted.loc["q.gguf", "params_b"] == pytest.approx(30.5, abs=0.05)  # the model table's 30.5B total
    assert given.loc["q.gguf", "active_params_b"] == 6.6  # the reader's MoE size reaches the points
    gpu = p.loc["m.gguf"]
    assert (gpu["device"], gpu["peak_source"], gpu["peak_gb_s"]) == ("A100-SXM4-80GB", "detected", 2039)
    assert gpu["fraction_of_peak"] == pytest.approx(3.56 * 1024**3 * 100 / 1e9 / 2039)
    cpu = p.loc["cpu.gguf"]  # never compared with a GPU
    assert (cpu["offload"], cpu["peak_source"]) == ("cpu", "unknown") and pd.isna(cpu["fraction_of_peak"])
    unknown = p.loc["x.gguf"]  # a device the table lacks: no peak, never a default
    assert (unknown["device"], unknown["peak_source"]) == ("NVIDIA Foo 9", "unknown")
    assert pd.isna(unknown["fraction_of_peak"])
    oss = p.loc["oss.gguf"]  # MoE by its name, counted at its active parameters
    assert oss["architecture"] == "moe" and oss["active_params_b"] == pytest.approx(3.61)
    lite = p.loc["d.gguf"]  # MoE by its name, active count unknown: no bytes per token
    assert lite["architecture"] == "moe" and pd.isna(lite["active_params_b"]) and pd.isna(lite["bytes_per_token"])
    q = p.loc["q.gguf"]
    assert q["architecture"] == "moe" and q["bytes_per_token"] == pytest.approx(17.28 * 1024**3 * 3.3 / 30.53)
    # the reader's own device: a CPU with its DRAM bandwidth
    given = bandwidth.points(kept, peak_bandwidth_gb_s=68.0).set_index("model_key").loc["cpu.gguf"]
    assert (given["peak_source"], given["peak_gb_s"]) == ("parameter", 68.0)
    assert given["fraction_of_peak"] == pytest.approx(3.56 * 1024**3 * 100 / 1e9 / 68.0)
    named = bandwidth.points(kept, gpu="H100-SXM5-80GB").set_index("model_key").loc["m.gguf"]
    assert (named["device"], named["peak_source"]) == ("H100-SXM5-80GB", "parameter")


def test_seed_bandwidth(seed_df):
    p = bandwidth.decode_points(seed_df, GPU)
    r = p[(p["model"] == "llama 7B Q4_0") & (p["power_limit_w"] == 600)].iloc[0]
    assert r["bytes_per_token"] == pytest.approx(3.56 * 1024**3)
    assert r["bandwidth_gb_s"] == pytest.approx(1066.29, abs=0.01)
    assert r["fraction_of_peak"] == pytest.approx(0.595, abs=0.001)
    # no peaks given: the named device's own, 1792 GB/s and 500 dense 16-bit TFLOP/s (data/hardware.csv)
    assert (r["peak_gb_s"], r["peak_tflops"]) == (1792.0, 500.0)
    assert r["compute_fraction"] == pytest.approx(r["achieved_tflops"] / 500.0)
    # the reader's bandwidth for that device replaces the table's, and its TFLOP/s stay
    q = bandwidth.decode_points(seed_df, GPU, peak_bandwidth_gb_s=2000.0)
    r = q[(q["model"] == "llama 7B Q4_0") & (q["power_limit_w"] == 600)].iloc[0]
    assert (r["peak_gb_s"], r["peak_tflops"]) == (2000.0, 500.0)
    assert r["fraction_of_peak"] == pytest.approx(1066.29 / 2000.0, abs=1e-5)
    kept, every = bandwidth.reduce(bandwidth.generation_rows(seed_df))
    pts = bandwidth.points(kept)
    assert len(pts) == 6 and (pts["peak_source"] == "detected").all()
    assert pts[pts["model"] == "llama 7B Q4_0"]["power_limit_w"].tolist() == [600.0]
    assert (every["why_dropped"] == "lower power limit").sum() == 7
    seventy = pts[pts["model"] == "llama 70B Q4_K - Medium"].iloc[0]
    assert seventy["fraction_of_peak"] == pytest.approx(0.8077, abs=0.001)
    moe = pts[pts["model"] == "gpt-oss 120B Q8_0"].iloc[0]
    assert moe["architecture"] == "moe" and moe["bytes_per_token"] == pytest.approx(60.03 * 1024**3 * 5.13 / 116.83)
    big = pts[pts["model_key"].str.contains("405b")].iloc[0]
    assert big["offload"] == "partial" and "ngl 116 < 126" in big["offload_why"]


def test_moe_override_and_modes():
    over = bandwidth.override_table({"qwen3moe 30B.A3B": 6.6})
    size = bandwidth.model_size(over, 30.53, "q.gguf", "qwen3moe 30B.A3B Q4_K - Medium")
    assert (size["active_params_b"], size["size_source"]) == (6.6, "chapter parameter moe_active_params")
    size = bandwidth.model_size(bandwidth.override_table({}), 30.53, "q.gguf", "qwen3moe 30B.A3B Q4_K - Medium")
    assert size["active_params_b"] == 3.3 and size["size_source"].startswith("https://")
    dense = bandwidth.model_size(bandwidth.override_table({}), 6.74, None, "llama 7B Q4_0")
    assert (dense["architecture"], dense["active_params_b"]) == ("dense", 6.74)
    assert bandwidth.run_mode({"backend": "CPU", "ngl": 99}) == "cpu"
    assert bandwidth.run_mode({"backend": "CUDA", "ngl": 0}) == "cpu"
    assert bandwidth.run_mode({"backend": "CUDA", "ngl": 99}) == "gpu"
    assert bandwidth.run_mode({"backend": "CUDA", "ngl": 20, "model": "llama 7B Q4_0"}) == "partial"
    assert bandwidth.run_mode({"backend": "Metal,BLAS"}) == "gpu"
    # the layer count from the file name: 32 layers + the output layer, all 33 on the GPU
    assert bandwidth.run_mode({"backend": "CUDA", "ngl": 33, "model_file": "llama-2-7b.Q4_0.gguf"}) == "gpu"
    assert bandwidth.run_mode({"backend": "CUDA", "ngl": 33, "model_file": "m.gguf"}) == "partial"  # 33 < 99
    # a GPU named with no backend or -ngl is a GPU run, whatever CPU the output also names
    assert bandwidth.run_mode({"gpu": "NVIDIA A100-SXM4-80GB", "cpu": "AMD EPYC 7763"}) == "gpu"
    # an override for another model changes nothing; a model without a name is dense, as printed
    other = bandwidth.model_size(bandwidth.override_table({"mixtral": 12.9}), 6.74, None, "llama 7B Q4_0")
    assert other["active_params_b"] == 6.74
    unknown = bandwidth.model_size(bandwidth.override_table({}), 1.5, None)  # no name at all
    assert unknown == {"params_b": 1.5, "active_params_b": 1.5, "architecture": "dense", "size_source": "printed"}


def test_power_figures_plot_the_data(seed_df):
    t = power.energy(power.rate_table(seed_df, "llama 7B Q4_0"))
    fig = show_power.throughput_figure(t, "llama 7B Q4_0")
    assert len(fig.axes) == 2
    ax = fig.axes[0]  # pp512, limits ascending
    y = ax.lines[0].get_ydata()
    assert list(y)[:2] == [9115.39, 10619.58] and ax.get_xlabel() == "power limit (W)"
    fig = show_power.energy_figure(t, 0.12)
    ax = fig.axes[0]  # pp512: bars of the upper bounds, no floor line (the floor is a generated token's)
    assert ax.get_ylabel() == "energy per token (J)" and not ax.lines
    heights = sorted(p.get_height() for p in ax.patches)
    assert heights[0] == pytest.approx(t[t["test"] == "pp512"]["j_per_tok"].min())
    assert fig.axes[1].lines[0].get_ydata()[0] == 0.12  # tg128: the DRAM floor, dashed
    (legend,) = fig.legends  # the kinds of mark in grey, not in one panel's colour
    bar = legend.legend_handles[[t.get_text() for t in legend.get_texts()].index("at most")]
    assert bar.get_facecolor()[:3] == pytest.approx((0.5, 0.5, 0.5), abs=0.01)
    fig = show_power.cv_figure(t)
    assert max(fig.axes[0].lines[0].get_ydata()) == pytest.approx(100 * 4243.14 / 9115.39)
    assert show_power.throughput_figure(t.iloc[0:0], "m") is None  # no data: no figure
    plt.close("all")


def test_bandwidth_figures_plot_the_data(seed_df):
    kept, _ = bandwidth.reduce(bandwidth.generation_rows(seed_df))
    pts = bandwidth.points(kept)
    bars = show_bw.fraction_figure(pts).axes[0]
    widths = sorted(round(p.get_width(), 1) for p in bars.patches)
    assert len(widths) == 6 and widths[-1] == pytest.approx(80.8, abs=0.1)
    ceiling = show_bw.ceiling_figure(pts).axes[0]
    assert ceiling.lines[0].get_ydata()[0] * ceiling.lines[0].get_xdata()[0] == pytest.approx(1792)
    roof = show_bw.roofline_figure(pts).axes[0]
    assert roof.get_xlabel() == "arithmetic intensity (FLOP/byte)"
    none = show_bw.fraction_figure(pts.assign(fraction_of_peak=np.nan))
    assert none.axes[0].texts[0].get_text() == show_bw.NO_RESULTS
    plt.close("all")


def test_checks_seed():
    r = checks.reproduce(SEED)
    assert list(r.columns) == REPRODUCTION_COLUMNS
    # a markdown table prints nothing derived from other printed numbers: no reproduction rows (the
    # bandwidth a rate implies is analysis, not a number the tool printed)
    assert r.empty
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


EPYC_9654_GB_S = 460.8  # data/hardware.csv, EPYC-9654 (12 channels DDR5-4800)


A100_GB_S = 2039.0  # data/hardware.csv, A100-SXM4-80GB


def test_reader_cpu_is_used_for_a_cpu_only_run_and_a_gpu_is_not():
    cpu = bandwidth.choose_peak("EPYC-9654", {"mode": "cpu"})
    assert (cpu.device, cpu.bandwidth_gb_s, cpu.source) == ("EPYC-9654", EPYC_9654_GB_S, "parameter")
    # the same CPU named for a GPU run does not fit it: the printed GPU is used instead
    gpu = bandwidth.choose_peak("EPYC-9654", {"mode": "gpu", "gpu": "NVIDIA A100-SXM4-80GB"})
    assert (gpu.device, gpu.bandwidth_gb_s, gpu.source) == ("A100-SXM4-80GB", A100_GB_S, "detected")


def _tg(value, statistic="mean", line=10, **settings):
    """One llama-bench generation value in the warehouse's long format (synthetic)."""
    row = {"metric": "tg_rate", "statistic": statistic, "value": value, "line": line, "test": "tg128"}
    row.update({"model": "llama 7B Q4_0", "model_file": "llama-2-7b.Q4_0.gguf", "n_depth": 0})
    row.update({"backend": "CUDA", "gpu": "NVIDIA A100-SXM4-80GB"})
    row.update(settings)
    return row


def test_generation_rows_keep_caption_apart_and_the_printed_std():
    df = pd.DataFrame(
        [
            _tg(100.0, caption="run A", line=10),
            _tg(1.5, "std", caption="run A", line=10),
            _tg(120.0, caption="run B", line=20),
            _tg(2.5, "std", caption="run B", line=20),
        ]
    )
    rows = bandwidth.generation_rows(df)
    # two tables with different captions are two measurements, each with its own std
    assert rows["caption"].tolist() == ["run A", "run B"]
    assert rows["rate"].tolist() == [100.0, 120.0] and rows["rate_std"].tolist() == [1.5, 2.5]
    assert rows["line"].tolist() == [10, 20]


def test_generation_rows_of_no_generation_have_the_full_schema():
    df = pd.DataFrame([{**_tg(500.0), "metric": "pp_rate"}])
    rows = bandwidth.generation_rows(df)
    assert rows.empty
    for c in ("rate", "rate_std", "line", "mode", "model_key"):
        assert c in rows.columns


def test_label_falls_back_to_the_model_string():
    assert bandwidth.label({"model_file": None, "model": "llama 7B Q4_0", "line": 3}) == "llama 7B Q4_0"
    vllm = {"model": "meta-llama/Llama-3.1-8B-Instruct", "tool": "vllm-bench-offline", "line": 3}
    assert bandwidth.label(vllm) == "meta-llama/Llama-3.1-8B-Instruct (vLLM latency)"
    assert bandwidth.label({"model_file": "llama-2-7b.Q4_0.gguf", "model": "x"}) == "llama-2-7b.Q4_0"
    assert bandwidth.label({"model": " ", "line": 7.0}) == "the model on line 7"


LLAMA_31_8B_SOURCE = "https://huggingface.co/meta-llama/Llama-3.1-8B (8.03B)"  # data/models.csv


def test_latency_points_device_and_size_source():
    runs = pd.DataFrame(
        [
            {
                "run": "r1",
                "model": "meta-llama/Llama-3.1-8B-Instruct",
                "batch_size": 1.0,
                "input_len": 32.0,
                "output_len": 128.0,
                "tensor_parallel": float("nan"),
                "dtype": "bfloat16",
                "latency_s": 2.0,
                "line": 5,
                "why_left_out": "",
            }
        ]
    )
    pts = bandwidth.latency_points(runs, "A100-SXM4-80GB")
    p = pts.iloc[0]
    assert (p["device"], p["peak_gb_s"], p["peak_source"]) == ("A100-SXM4-80GB", A100_GB_S, "parameter")
    assert p["ridge"] == 312.0e12 / (A100_GB_S * 1e9)
    assert p["size_source"] == LLAMA_31_8B_SOURCE
    # 8.03B x 2 bytes = 16.06 GB per token at 128 / 2 s = 64 tok/s
    assert math.isclose(p["bandwidth_gb_s"], 16.06 * 64)


def test_layers_skip_a_missing_name():
    assert bandwidth.layers(None, "llama-2-7b.Q4_0.gguf")[0] == 32
    assert bandwidth.layers(float("nan"), None, "Mistral-Nemo-Base-2407")[0] == 40
    assert bandwidth.layers(None, "mystery") == (None, None)


def test_override_table_keeps_the_total():
    t = bandwidth.override_table({"deepseek": (3.0, 30.0), "mixtral": 13})
    assert t["model_pattern"].tolist() == ["deepseek", "mixtral"]
    assert t["params_b"].iloc[0] == 30.0 and pd.isna(t["params_b"].iloc[1])
    assert t["active_params_b"].tolist() == [3.0, 13.0]
    size = bandwidth.model_size(t, 16.0, "DeepSeek-V2-Lite.gguf")
    assert (size["params_b"], size["active_params_b"], size["architecture"]) == (30.0, 3.0, "moe")


def test_ngl_below_the_layers_or_unknown_layers_marks_partial_offload():
    base = {"model": None, "section": None, "n_cpu_moe": None, "params_b": 1.0, "model_size_gib": 1.0}
    base.update({"gpu": "NVIDIA A100-SXM4-80GB", "mode": "gpu", "rate": 100.0})
    cases = [
        ("llama-2-7b.Q4_0.gguf", 33, "full", ""),  # 32 layers + output, all on the GPU
        ("llama-2-7b.Q4_0.gguf", 40, "full", ""),
        ("llama-2-7b.Q4_0.gguf", 32, "partial", "ngl 32 < 32 layers + output"),
        ("mystery-a.gguf", 50, "partial", "ngl 50 (layer count unknown)"),
        ("mystery-b.gguf", 99, "full", ""),  # llama-bench's 'everything' value
    ]
    kept = pd.DataFrame([{**base, "model_file": f, "model_key": f"{f} {n}", "ngl": n} for f, n, _, _ in cases])
    pts = bandwidth.points(kept).set_index("model_key")
    for f, n, offload, why in cases:
        assert (pts.at[f"{f} {n}", "offload"], pts.at[f"{f} {n}", "offload_why"]) == (offload, why), (f, n)


def test_reduce_of_no_rows_keeps_its_columns():
    rows = bandwidth.generation_rows(pd.DataFrame([{**_tg(500.0), "metric": "pp_rate"}]))
    kept, every = bandwidth.reduce(rows)
    assert kept.empty and every.empty and every["kept"].dtype == bool
    assert list(every[every["kept"]].columns) == list(every.columns)  # selecting kept rows keeps the table
    assert int((~every["kept"]).sum()) == 0


def test_repeats_of_a_setting_are_averaged_with_their_spread(tmp_path):
    f = tmp_path / "repeated_depth.md"
    f.write_text(
        "$ ./llama-bench -m llama-2-7b.Q4_0.gguf -d 0,0\n"
        "| model | size | params | backend | ngl | test | t/s |\n"
        "| --- | ---: | ---: | --- | --: | ---: | ---: |\n"
        "| llama 7B Q4_0 | 3.56 GiB | 6.74 B | CUDA | 99 | tg128 | 100.00 ± 1.00 |\n"
        "| llama 7B Q4_0 | 3.56 GiB | 6.74 B | CUDA | 99 | tg128 | 110.00 ± 3.00 |\n"
    )
    rows = bandwidth.generation_rows(ingest.read(f, tool="llama-bench"))
    assert len(rows) == 1 and rows["repeats"].iloc[0] == 2 and rows["rate"].iloc[0] == pytest.approx(105.0)
    # two sets of 5 repetitions: (4 x (1 + 9) + 5 x (25 + 25)) / 9 is the variance of all ten
    assert rows["rate_std"].iloc[0] == pytest.approx(((4 * 10 + 5 * 50) / 9) ** 0.5)
    assert rows["line"].iloc[0] == 4  # the first repeat's line


def test_power_rates_average_repeats_with_their_spread_not_the_first(tmp_path):
    f = tmp_path / "repeated_power.md"
    f.write_text(
        "### 600W\n\n$ ./llama-bench -m llama-2-7b.Q4_0.gguf -d 0,0\n"
        "| model | size | params | backend | ngl | test | t/s |\n"
        "| --- | ---: | ---: | --- | --: | ---: | ---: |\n"
        "| llama 7B Q4_0 | 3.56 GiB | 6.74 B | CUDA | 99 | tg128 | 100.00 ± 1.00 |\n"
        "| llama 7B Q4_0 | 3.56 GiB | 6.74 B | CUDA | 99 | tg128 | 110.00 ± 3.00 |\n"
        "| llama 7B Q4_0 | 3.56 GiB | 6.74 B | CUDA | 99 | pp512 | 900.00 ± 9.00 |\n"
    )
    t = power.rate_table(ingest.read(f, tool="llama-bench")).set_index("test")
    assert t.loc["tg128", "mean"] == pytest.approx(105.0)  # not 100, the first repeat
    assert t.loc["tg128", "std"] == pytest.approx(((4 * 10 + 5 * 50) / 9) ** 0.5)
    assert t.loc["tg128", "n_reps"] == 10 and t.loc["tg128", "reps_assumed"]  # two printed means of 5 each
    assert (t.loc["pp512", "mean"], t.loc["pp512", "std"], t.loc["pp512", "n_reps"]) == (900.0, 9.0, 5)


def test_json_repeats_reach_the_bandwidth_rows_averaged(tmp_path):
    obj = {
        "build_commit": "8cf427ff",
        "gpu_info": "NVIDIA GeForce RTX 4080",
        "backends": "CUDA",
        "model_filename": "llama-2-7b.Q4_0.gguf",
        "model_type": "llama 7B Q4_0",
        "model_size": 3825065984,
        "model_n_params": 6738415616,
        "n_gpu_layers": 99,
        "n_prompt": 0,
        "n_gen": 128,
        "n_depth": 0,
    }
    f = tmp_path / "repeated.json"
    f.write_text(json.dumps([{**obj, "avg_ts": 100.0, "stddev_ts": 1.0}, {**obj, "avg_ts": 110.0, "stddev_ts": 3.0}]))
    rows = bandwidth.generation_rows(ingest.read(f, tool="llama-bench"))
    assert len(rows) == 1 and rows["repeats"].iat[0] == 2 and rows["rate"].iat[0] == pytest.approx(105.0)
    assert rows["rate_std"].iat[0] == pytest.approx(((4 * 10 + 5 * 50) / 9) ** 0.5)


# --- generation rows and points (mutation sample, seed 2026) --------------------------------------------------


def test_runs_that_differ_only_in_experts_kept_on_the_cpu_are_two_measurements():
    df = pd.DataFrame([_tg(30.0, n_cpu_moe=0, line=10), _tg(20.0, n_cpu_moe=8, line=11)])
    rows = bandwidth.generation_rows(df)
    assert rows["rate"].tolist() == [30.0, 20.0] and rows["n_cpu_moe"].tolist() == [0, 8]


def test_generation_rows_with_no_finite_mean_have_the_full_schema():
    rows = bandwidth.generation_rows(pd.DataFrame([_tg(np.nan), _tg(1.0, "std")]))
    assert rows.empty and {"rate", "rate_std", "repeats", "line", "mode", "model_key"} <= set(rows.columns)


def test_points_say_why_the_bytes_per_token_are_unknown():
    rows = _rows(model_file="nosize.gguf", model_size_gib=np.nan, params_b=6.74)
    rows += _rows(model="deepseek2 16B IQ4_NL_R4", model_file="d.gguf", model_size_gib=8.0, params_b=15.76)
    kept, _ = bandwidth.reduce(bandwidth.generation_rows(pd.DataFrame(rows)))
    src = bandwidth.points(kept).set_index("model_key")["bytes_source"]
    assert src["nosize.gguf"] == "unknown (no file size)"
    assert src["d.gguf"] == "unknown (MoE, active size unknown)"
    # the other way: a dense model's file size is what every token reads
    dense = _rows(model_file="m.gguf", model_size_gib=3.56, params_b=6.74)
    kept, _ = bandwidth.reduce(bandwidth.generation_rows(pd.DataFrame(dense)))
    assert bandwidth.points(kept)["bytes_source"].tolist() == ["file size (dense: every weight read once per token)"]


def test_a_partial_offload_streams_the_gpus_share_of_the_layers():
    """Llama 2 7B has 32 layers + the output layer; -ngl 11 puts 11 of 33 on the GPU: at most a third of
    the 3.56 GiB file streams from GPU memory per token."""
    base = dict(model="llama 7B Q4_0", model_file="llama-2-7b.Q4_0.gguf", model_size_gib=3.56, params_b=6.74)
    kept, _ = bandwidth.reduce(
        bandwidth.generation_rows(pd.DataFrame(_rows(ngl=11, gpu="NVIDIA A100-SXM4-80GB", **base)))
    )
    p = bandwidth.points(kept).iloc[0]
    assert p["offload"] == "partial" and "ngl 11 < 32 layers" in p["offload_why"]
    assert p["gpu_bytes_per_token"] == pytest.approx(3.56 * 1024**3 / 3)


def test_a_file_larger_than_the_gpus_memory_by_a_few_bytes_is_offloaded():
    """An A100-SXM4-80GB holds 80e9 bytes: a file of 80e9 + 40 bytes does not fit, one of 80e9 - 40 does."""
    gib = 1024**3

    def point(nbytes):
        rows = _rows(model_file="big.gguf", model_size_gib=nbytes / gib, params_b=40.0, gpu="NVIDIA A100-SXM4-80GB")
        kept, _ = bandwidth.reduce(bandwidth.generation_rows(pd.DataFrame(rows)))
        return bandwidth.points(kept).iloc[0]

    over = point(80e9 + 40)
    assert over["offload"] == "partial" and "GB of GPU memory" in over["offload_why"]
    assert point(80e9 - 40)["offload"] == "full"


def test_a_split_model_file_is_labelled_without_its_part_numbers():
    assert bandwidth.label({"model_file": "Qwen3-235B-A22B-Q4_K_M-00001-of-00003.gguf"}) == "Qwen3-235B-A22B-Q4_K_M"


def test_a_run_whose_output_names_no_model_keeps_its_rate():
    t = power.rate_table(pd.DataFrame(_rows(power_limit_w=300.0, rate=150.0, std=7.0, model=None)))
    assert t[["test", "power_limit_w", "mean", "std"]].values.tolist() == [["tg128", 300.0, 150.0, 7.0]]


def test_a_spread_without_its_mean_is_no_rate():
    rows = _rows(power_limit_w=300.0, rate=150.0, std=7.0)
    assert power.rate_table(pd.DataFrame([r for r in rows if r["statistic"] == "std"])).empty
    # the other way: with its mean it is one row
    assert power.rate_table(pd.DataFrame(rows))["mean"].tolist() == [150.0]


def test_the_quoted_test_is_the_one_at_the_most_limits_then_the_first_by_name():
    def row(test, limit):
        return {"test": test, "metric": "pp_rate", "power_limit_w": limit, "n_depth": 0}

    table = pd.DataFrame([row("pp512", 300.0), row("pp512", 200.0), row("pp1024", 300.0), row("pp1024", 200.0)])
    assert power.quoted_tests(table) == {"pp": "pp1024", "tg": None}  # a tie at two limits and depth 0
    assert power.quoted_tests(table.iloc[:3])["pp"] == "pp512"  # the other way: pp512 at more limits


def test_a_falling_curve_has_its_knee_where_it_bends():
    """10, 2, 1, 0.5 tok/s at 100-400 W: scaled, (1/3, 1.5/9.5) is farthest from the chord from (0, 1) to (1, 0)."""
    x, strength = power.knee([100, 200, 300, 400], [10.0, 2.0, 1.0, 0.5])
    assert x == 200.0 and strength == pytest.approx((1 - 1 / 3 - 1.5 / 9.5) / 2**0.5)


def test_knees_per_test():
    """tg128 at 100-400 W: 10, 20, 21, 21.5 tok/s. Scaled to [0, 1]: (1/3, 10/11.5) is farthest from the
    diagonal, by (0.8696 - 0.3333) / sqrt 2 = 0.379: the knee is 200 W. pp512 rises in a straight line: none."""
    t = _table(
        [("tg128", 100, 10.0, 0.1), ("tg128", 200, 20.0, 0.1), ("tg128", 300, 21.0, 0.1), ("tg128", 400, 21.5, 0.1)]
        + [("pp512", 100, 50.0, 1.0), ("pp512", 200, 100.0, 1.0), ("pp512", 300, 150.0, 1.0)]
    )
    k = power.knees(t)
    assert list(k) == ["pp512", "tg128"] and k["pp512"] == (None, 0.0, None)
    assert k["tg128"][0] == 200.0 and k["tg128"][1] == pytest.approx((10 / 11.5 - 1 / 3) / 2**0.5)
    # the noise at the knee: 2 x sqrt(se(200)^2 + se(chord at 200)^2) over the 11.5 tok/s range, over sqrt 2
    se = 0.1 / 5**0.5
    chord = ((2 / 3 * se) ** 2 + (1 / 3 * se) ** 2) ** 0.5
    assert k["tg128"][2] == pytest.approx(2 * (se**2 + chord**2) ** 0.5 / 11.5 / 2**0.5)


def test_rate_table_takes_the_repetitions_from_the_command_line_before_assuming_the_default():
    asked = power.rate_table(
        pd.DataFrame([{**r, "n_reps": 2} for r in _rows(power_limit_w=300.0, rate=150.0, std=15.0)])
    )
    assert asked.iloc[0]["n_reps"] == 2 and not asked.iloc[0]["reps_assumed"]
    assert asked.iloc[0]["se"] == pytest.approx(0.1 / np.sqrt(2))
    unsaid = power.rate_table(pd.DataFrame(_rows(power_limit_w=300.0, rate=150.0, std=15.0)))
    assert unsaid.iloc[0]["n_reps"] == 5 and unsaid.iloc[0]["reps_assumed"]


def test_the_spread_figure_labels_its_log_axis_plainly(seed_df):
    t = power.energy(power.rate_table(seed_df, "llama 7B Q4_0"))
    fig = show_power.cv_figure(t)
    fig.canvas.draw()
    labels = [x.get_text() for x in fig.axes[0].get_yticklabels() if x.get_text()]
    assert labels and all(re.fullmatch(r"[0-9.]+", x) for x in labels)  # 0.1, 1, 10: no powers of ten
    plt.close("all")


def test_the_sweep_table_shows_the_other_settings_where_they_differ():
    # a Typst page: -sm none against -sm layer (llama-bench's sm column, kept as other settings)
    rows = _rows(extra_settings="sm=none, embd=1", rate=35.36, line=37)
    rows += _rows(extra_settings="sm=layer, embd=1", rate=11.65, line=39)
    _, every = bandwidth.reduce(bandwidth.generation_rows(pd.DataFrame(rows)))
    t = show_bw.sweep_table(every)
    assert t["other settings"].tolist() == ["sm=none, embd=1", "sm=layer, embd=1"]
    # the other way: one value for every row is said once above the table, not as a column
    rows = _rows(extra_settings="embd=1", rate=35.36, line=37) + _rows(extra_settings="embd=1", rate=20.0, line=39)
    _, every = bandwidth.reduce(bandwidth.generation_rows(pd.DataFrame(rows)))
    assert "other settings" not in show_bw.sweep_table(every)
    assert "other settings embd=1" in show_bw.sweep_constants(every)


def test_a_knee_s_noise_takes_the_chord_from_the_first_and_last_points_errors():
    # at x 2 of 1..4 the chord is 1/3 of the way: its error is 2/3 of the last point's 2, over a rise of 2
    # (Kneedle's units), and the perpendicular of a chord rising 1 on 1 divides by sqrt 2
    got = power.knee_noise([1, 2, 4], [0.0, 2.0, 2.0], [0.0, 0.0, 2.0], 2)
    assert got == pytest.approx(power.NOISE_Z * (2 / 3) / 2 / 2**0.5)
    assert power.knee_noise([1, 2, 4], [0.0, 2.0, 2.0], [0.0, 2.0, 0.0], 2) == pytest.approx(power.NOISE_Z / 2**0.5)


def test_a_slow_rate_still_streams_and_the_file_s_name_sizes_its_model():
    """0.5 tok/s of a 3.56 GiB file is 1.91 GB/s; the reader's MoE size for `mixtral-8x7b` is found in
    the file's name alone (llama.cpp printed `llama 8x7B`)."""
    rows = _rows(model="llama 7B Q4_0", model_size_gib=3.56, params_b=6.74, rate=0.5, gpu="NVIDIA A100-SXM4-80GB")
    rows += _rows(model="llama 8x7B Q4_0", model_file="mixtral-8x7b-v0.1.Q4_0.gguf", model_size_gib=24.6)
    kept, _ = bandwidth.reduce(bandwidth.generation_rows(pd.DataFrame(rows)))
    p = bandwidth.points(kept, moe_override={"mixtral-8x7b": (12.9, 46.7)}).set_index("model_key")
    slow = p.loc["m.gguf"]
    assert slow["bandwidth_gb_s"] == pytest.approx(3.56 * 1024**3 * 0.5 / 1e9) and slow["file_gib"] == 3.56
    moe = p.loc["mixtral-8x7b-v0.1.Q4_0.gguf"]
    assert (moe["active_params_b"], moe["params_b"]) == (12.9, 46.7)


def test_a_defaulted_mode_is_not_said_as_every_rows_setting():
    # a sweep-bench table with no device, backend or GPU layers (ik_llama.cpp PR #287, a CPU run): the
    # analysis takes "gpu" for it, but the page must not state "mode gpu" as the run's
    rows = _rows(backend=None, ngl=pd.NA, rate=2.88, line=5) + _rows(backend=None, ngl=pd.NA, rate=2.59, line=6)
    _, every = bandwidth.reduce(bandwidth.generation_rows(pd.DataFrame(rows)))
    assert set(every["mode"]) == {"gpu"} and not every["mode_said"].any()
    assert "mode" not in show_bw.sweep_constants(every)
    # the other way: a CUDA backend with GPU layers tells the mode, and it is said once above the table
    rows = _rows(rate=35.36, line=37) + _rows(rate=20.0, line=39)
    _, every = bandwidth.reduce(bandwidth.generation_rows(pd.DataFrame(rows)))
    assert "mode gpu" in show_bw.sweep_constants(every)


def test_a_defaulted_mode_is_no_table_cell():
    # a CPU row that says its mode beside a sweep-bench row that says none: the table's mode column shows the
    # said one and leaves the other empty, never the analysis's "gpu" default
    said = _rows(backend="CPU", ngl=0, rate=5.0, line=5)
    bare = _rows(backend=None, ngl=pd.NA, rate=2.5, line=9, model="n", model_file="n.gguf")
    _, every = bandwidth.reduce(bandwidth.generation_rows(pd.DataFrame(said + bare)))
    table = show_bw.sweep_table(every)
    assert list(table["mode"].dropna()) == ["cpu"]
    # the other way: two said modes are both shown
    _, every = bandwidth.reduce(bandwidth.generation_rows(pd.DataFrame(said + _rows(rate=30.0, line=12))))
    assert set(show_bw.sweep_table(every)["mode"]) == {"cpu", "gpu"}
