"""The bandwidth-roofline claims: fraction of peak, bound and size trend, each both ways."""

from __future__ import annotations

import pandas as pd
import pytest

from benchbook import config, hardware, ingest
from benchbook.analysis import bandwidth, roofline
from benchbook.claims import bandwidth as cb
from benchbook.claims import rules
from benchbook.presentation import bandwidth as show
from benchbook.presentation import wording


def point(**over):
    """One placed generation result (an A100-like device, a dense 7B model at 60 % of peak)."""
    p = {
        "model": "llama 7B Q4_0",
        "model_file": "llama-7b.gguf",
        "model_key": "llama-7b.gguf",
        "test": "tg128",
        "gpu": "NVIDIA A100-SXM4-80GB",
        "mode": "gpu",
        "rate": 300.0,
        "rate_std": 1.0,
        "line": 10,
        "device": "A100-SXM4-80GB",
        "peak_gb_s": 2039.0,
        "peak_tflops": 312.0,
        "peak_source": "detected",
        "ridge": 153.0,
        "architecture": "dense",
        "params_b": 6.74,
        "active_params_b": 6.74,
        "size_source": "printed",
        "bytes_per_token": 3.82e9,
        "bandwidth_gb_s": 1146.0,
        "fraction_of_peak": 1146.0 / 2039.0,
        "compute_fraction": 2 * 6.74e9 * 300 / 1e12 / 312,
        "intensity_flop_per_byte": 2 * 6.74e9 / 3.82e9,
        "offload": "full",
        "offload_why": "",
    }
    p.update(over)
    return pd.Series(p)


def test_fraction_shown_names_device_and_source():
    c = wording.word("bandwidth_roofline", cb.fraction(point(), "bw_1"))
    assert c.status == "shown" and c.evidence["streaming"] and c.evidence["active_params_b"] == 6.74
    assert "56% of the 2,039 GB/s of the A100-SXM4-80GB" in c.text and c.evidence["peak_source"] == "detected"
    # where the peak came from is said once per section, before the shares, not in every share's sentence
    assert "the device the input names" not in c.text
    lead = wording.sentence("bandwidth_roofline", "peak_lead", peaks=[_peak(c, "detected")])
    assert "A100-SXM4-80GB's 2,039 GB/s" in lead and "the device the input names" in lead
    assert c.text.startswith("`llama-7b`")


def test_fraction_above_peak_is_a_warning_with_causes():
    c = wording.word("bandwidth_roofline", cb.fraction(point(fraction_of_peak=5.63, bandwidth_gb_s=11480.0), "bw_1"))
    assert c.status == "implausible" and c.text.startswith("**Warning")
    assert "563%" in c.text and "MoE model counted as dense" in c.text and "several GPUs" in c.text
    assert "peak), several GPUs (" in c.text and "counted) and a unit mistaken" in c.text  # a, b, c and d
    moe = wording.word(
        "bandwidth_roofline", cb.fraction(point(fraction_of_peak=1.3, architecture="moe", active_params_b=3.0), "bw_1")
    )
    assert moe.status == "implausible" and "active-parameter count assumed for this MoE model (3.0B)" in moe.text


def test_fraction_withheld_cpu_unknown_device_and_moe():
    cpu = point(mode="cpu", offload="cpu", device=None, peak_source="unknown", peak_gb_s=None, fraction_of_peak=None)
    c = wording.word("bandwidth_roofline", cb.fraction(cpu, "bw_1"))
    assert c.status == "withheld" and "CPU's own memory bandwidth" in c.text and "RTX" not in c.text
    other = point(gpu="NVIDIA GeForce RTX 3090 Ti", device="NVIDIA GeForce RTX 3090 Ti", peak_source="unknown")
    c = wording.word("bandwidth_roofline", cb.fraction(other.drop(["peak_gb_s"]).reindex(other.index), "bw_1"))
    assert c.status == "withheld" and "`NVIDIA GeForce RTX 3090 Ti`" in c.text
    moe = point(architecture="moe", active_params_b=None, bytes_per_token=None, fraction_of_peak=None)
    c = wording.word("bandwidth_roofline", cb.fraction(moe, "bw_1"))
    assert c.status == "withheld" and "moe_active_params" in c.text


def test_fraction_on_the_cpu_with_given_peak():
    cpu = point(mode="cpu", offload="cpu", device="EPYC 9654", peak_source="parameter", peak_gb_s=68.0)
    c = wording.word("bandwidth_roofline", cb.fraction(cpu, "bw_1"))
    assert c.status == "shown" and "CPU-only run" in c.text and "of the 68 GB/s of the EPYC 9654" in c.text
    lead = wording.sentence("bandwidth_roofline", "peak_lead", peaks=[_peak(c, "parameter")])
    assert "given by the chapter's parameters" in lead


def _peak(c, source: str) -> dict:
    """The peak lead's entry for claim `c`'s device, as the bandwidth page gives it."""
    return dict(device=c.evidence["device"], peak=c.evidence["peak"], unit="GB/s", what="", source=source)


def test_bound_both_ways_and_partial_offload():
    assert (
        wording.word("bandwidth_roofline", cb.bound(point(), "bound_1", 0.5)).evidence["verdict"] == "memory-bandwidth"
    )
    low = wording.word(
        "bandwidth_roofline", cb.bound(point(fraction_of_peak=0.28, compute_fraction=0.003), "bound_1", 0.5)
    )
    assert low.evidence["verdict"] == "overhead" and "reaches neither roof's threshold (50%): 28.0%" in low.text
    assert (
        wording.word("bandwidth_roofline", cb.bound(point(fraction_of_peak=0.28), "bound_1", 0.25)).evidence["verdict"]
        == "memory-bandwidth"
    )
    part = wording.word("bandwidth_roofline", cb.bound(point(offload="partial", offload_why="ngl 10"), "bound_1", 0.5))
    assert part.status == "withheld" and "partly offloaded" in part.text
    unknown = wording.word(
        "bandwidth_roofline", cb.bound(point(fraction_of_peak=None, compute_fraction=None), "bound_1", 0.5)
    )
    assert unknown.status == "shown" and unknown.evidence["verdict"] == rules.NOT_COMPUTE
    assert "cannot be compute-bound on any device: 3.5 FLOP/byte" in unknown.text
    nothing = point(fraction_of_peak=None, compute_fraction=None, intensity_flop_per_byte=None)
    assert wording.word("bandwidth_roofline", cb.bound(nothing, "bound_1", 0.5)).status == "withheld"


def test_a_device_free_verdict_needs_an_intensity_below_every_ridge():
    low, name = rules.NOT_COMPUTE, roofline.lowest_ridge()[1]
    below = point(fraction_of_peak=None, compute_fraction=None, intensity_flop_per_byte=11.0)
    c = wording.word("bandwidth_roofline", cb.bound(below, "bound_1", 0.5))
    assert c.evidence["verdict"] == low and name in c.text
    above = point(fraction_of_peak=None, compute_fraction=None, intensity_flop_per_byte=13.0)
    assert wording.word("bandwidth_roofline", cb.bound(above, "bound_1", 0.5)).status == "withheld"


def test_a_bound_inside_the_noise_of_its_threshold_is_marked_fragile():
    # 0.51 of the peak against a 0.5 threshold: +2 %, inside a rate whose standard error is 4 %
    near = wording.word("bandwidth_roofline", cb.bound(point(fraction_of_peak=0.51, rate_std=30.0), "bound_1", 0.5))
    assert near.evidence["fragile"] and near.evidence["margin"] == pytest.approx(0.02)
    assert near.status == "shown" and "fragile: it is 2% over the threshold" in near.text
    clear = wording.word("bandwidth_roofline", cb.bound(point(fraction_of_peak=0.51, rate_std=1.0), "bound_1", 0.5))
    assert not clear.evidence["fragile"] and "fragile" not in clear.text
    assert rules.check({"chapter": "x", "claims": [near.to_dict(), clear.to_dict()]}) == []


def test_size_trend_both_ways():
    rises = pd.DataFrame(
        [point(bytes_per_token=b, fraction_of_peak=f) for b, f in ((4e9, 0.6), (8e9, 0.7), (4e10, 0.8))]
    )
    c = wording.word("bandwidth_roofline", cb.size_trend(rises))
    assert c.status == "shown" and "from 60% to 80%" in c.text
    mixed = rises.assign(fraction_of_peak=[0.6, 0.5, 0.8])
    assert wording.word("bandwidth_roofline", cb.size_trend(mixed)).status == "withheld"
    assert wording.word("bandwidth_roofline", cb.size_trend(rises.head(2))).status == "withheld"


def test_a_size_trend_leaves_out_a_point_whose_bytes_may_fit_in_the_cache():
    # 2 GB a token at 90 % of the peak would break the rise, but it may be read from the last-level cache
    pts = [point(bytes_per_token=b, fraction_of_peak=f) for b, f in ((4e9, 0.6), (8e9, 0.7), (4e10, 0.8))]
    cached = point(bytes_per_token=2e9, fraction_of_peak=0.9)
    t = pd.DataFrame([*pts, cached]).assign(may_fit_in_cache=[False, False, False, True])
    c = cb.size_trend(t)
    assert c.status == "shown" and c.evidence["xs"] == [4e9, 8e9, 4e10]
    assert cb.size_trend(t.assign(may_fit_in_cache=False)).status == "withheld"


def test_a_size_trend_leaves_out_a_share_above_the_peak():
    # 447 % of the peak is beyond physics (an MoE read as dense, several GPUs): not a point of the trend
    pts = [point(bytes_per_token=b, fraction_of_peak=f) for b, f in ((4e9, 0.6), (8e9, 0.7), (4e10, 0.8))]
    beyond = point(bytes_per_token=1.3e11, fraction_of_peak=4.47)
    c = cb.size_trend(pd.DataFrame([*pts, beyond]))
    assert c.status == "shown" and c.evidence["xs"] == [4e9, 8e9, 4e10]
    alone = cb.size_trend(pd.DataFrame([beyond]))
    assert alone.status == "withheld" and alone.evidence["xs"] == []


def _ledger(path, **kw):
    df = ingest.read(path, tool="llama-bench")
    kept, _ = bandwidth.reduce(bandwidth.generation_rows(df))
    pts = bandwidth.points(kept, sockets=bandwidth.sockets_said([path]), **kw)
    return wording.ledger("bandwidth_roofline", ["x"], cb.build(pts, 0.5))


def test_seed_ledger():
    led = _ledger(config.seed("004"))
    assert rules.check(led.to_dict()) == []
    assert sum(c.shown for c in led.claims) >= 5
    fr = [c for c in led.claims if c.kind == "fraction_of_peak"]
    assert len(fr) == 6 and all(c.evidence["peak_source"] == "detected" for c in fr)
    moe = [c for c in fr if c.evidence["architecture"] == "moe"]
    assert sorted(c.evidence["active_params_b"] for c in moe) == [3.3, 5.13]
    assert led.get("bw_size_trend").shown


def test_cpu_only_fixture_is_never_compared_with_a_gpu():
    path = config.FIXTURES_DIR / "llama-bench" / "ik_llama_pr273.md"
    led = _ledger(path)
    assert rules.check(led.to_dict()) == []
    fr = [c for c in led.claims if c.kind == "fraction_of_peak"]
    # the CPU the output names (llama-bench's cpu_info) is the only device a CPU-only run is put against
    assert fr and all(c.evidence["mode"] == "cpu" for c in fr)
    shown = [c for c in fr if c.status == "shown"]
    # 48 threads on a 24-thread Xeon span two sockets: both sockets' memory channels are the roof
    assert shown and all(c.evidence["device"] == "Xeon-E5-2690-v3 (2 sockets)" for c in shown)
    assert all(c.evidence["sockets"] == 2 and c.evidence["peak"] == pytest.approx(2 * 68.3) for c in shown)
    assert "45% of the 137 GB/s" in shown[0].text
    # a decode at 3.5 FLOP/byte is not compute-bound on any device, whatever its share of the peak
    assert {led.get(i).evidence["verdict"] for i in ("bound_1", "bound_2")} == {rules.NOT_COMPUTE}
    assert all(c.evidence["peak_source"] == "detected" for c in shown)
    given = _ledger(path, peak_bandwidth_gb_s=400.0)
    fr = [c for c in given.claims if c.kind == "fraction_of_peak"]
    assert all(c.evidence["peak_source"] == "parameter" and c.evidence["peak"] == 400.0 for c in fr)
    assert all(c.evidence["architecture"] == "moe" for c in fr)  # deepseek2: MoE, never dense


@pytest.mark.parametrize("name", ["llamacpp_readme_b1275.md", "llamacpp_readme_b5163.md"])
def test_fixture_ledgers_are_clean(name):
    led = _ledger(config.FIXTURES_DIR / "llama-bench" / name)
    assert rules.check(led.to_dict()) == []


def test_a_result_with_no_model_name_is_named_by_its_line():
    p = point(model=float("nan"), model_file=None, line=12, bytes_per_token=None, fraction_of_peak=None)
    c = wording.word("bandwidth_roofline", cb.fraction(p, "bw_1"))
    assert c.text.startswith("`the model on line 12`: the output prints no model size")
    assert rules.check({"chapter": "x", "claims": [c.to_dict()]}) == []


def test_bound_beyond_physics_is_a_warning():
    c = wording.word("bandwidth_roofline", cb.bound(point(fraction_of_peak=1.44), "bound_1", 0.5))
    assert c.status == "implausible" and c.text.startswith("**Warning: no limit can be named for `llama-7b`")


def test_weights_that_fit_in_cache_get_a_caveat_and_no_bound():
    tiny = point(bytes_per_token=4.8e7, may_fit_in_cache=True, llc_mb=64.0, fraction_of_peak=0.9, mode="cpu")
    c = wording.word("bandwidth_roofline", cb.fraction(tiny.replace({"full": "cpu"}), "bw_1"))
    assert c.status == "shown" and "stay in on-chip cache" in c.text
    b = wording.word("bandwidth_roofline", cb.bound(tiny, "bound_1", 0.5))
    assert b.status == "withheld" and "(48 MB per token) fit in the device's 64 MB last-level cache" in b.text
    assert wording.word("bandwidth_roofline", cb.bound(point(may_fit_in_cache=False), "bound_1", 0.5)).status == "shown"


@pytest.mark.parametrize(
    ("device", "gb", "fits"),
    [
        ("A100-SXM4-80GB", 0.8, False),  # 40 MB of L2: a flat 1 GB rule called 0.8 GB cache-resident
        ("A100-SXM4-80GB", 0.039, True),
        ("MI300X", 0.2, True),  # 256 MB of Infinity Cache
        ("Ryzen-9-7950X", 0.07, False),  # 64 MB of L3
    ],
)
def test_cache_residence_is_judged_by_the_devices_last_level_cache(device, gb, fits):
    d = hardware.device(device)
    pk = roofline.of_device(d, "detected")
    assert bandwidth.fits_in_cache(gb * 1e9, pk) is fits
    assert bandwidth.fits_in_cache(gb * 1e9, bandwidth.UNKNOWN) is False  # no cache figure: nothing assumed


@pytest.mark.parametrize(
    ("device", "gb", "unknown"),
    [
        ("Apple-M3-Max", 0.2, True),  # Apple publishes no system-level cache size: blank in the table
        ("Apple-M3-Max", 4.0, False),  # larger than any device's cache: it streams, whatever the cache
        ("MI300X", 0.2, False),  # 256 MB of Infinity Cache, known: fits_in_cache judges it
    ],
)
def test_a_blank_last_level_cache_is_unknown_not_assumed(device, gb, unknown):
    d = hardware.device(device)
    pk = roofline.of_device(d, "detected")
    assert bandwidth.llc_unknown(gb * 1e9, pk) is unknown
    assert bandwidth.llc_unknown(gb * 1e9, bandwidth.UNKNOWN) is False  # no device: nothing to look up


def test_a_small_model_on_a_device_of_unknown_cache_gets_no_bound():
    small = point(bytes_per_token=2e8, llc_unknown=True, device="Apple-M3-Max", fraction_of_peak=0.6)
    b = wording.word("bandwidth_roofline", cb.bound(small, "bound_1", 0.5))
    assert b.status == "withheld" and "LLC unknown" in b.text and "(200 MB per token)" in b.text
    f = wording.word("bandwidth_roofline", cb.fraction(small, "bw_1"))
    assert f.status == "shown" and "LLC unknown" in f.text
    assert wording.word("bandwidth_roofline", cb.bound(point(llc_unknown=False), "bound_1", 0.5)).status == "shown"
    assert "LLC unknown" not in wording.word("bandwidth_roofline", cb.fraction(point(), "bw_1")).text


def test_bounds_block_says_once_when_no_peak_is_known(tmp_path):
    # the discussion's text names its GPU (an RTX-4080, which the hardware table holds): without that line
    # no device is known
    text = (config.FIXTURES_DIR / "llama-bench" / "ik_llama_discussion18_cpu_vs_gpu.txt").read_text(encoding="utf-8")
    path = tmp_path / "discussion18_no_device.txt"
    path.write_text(text.replace("RTX-4080", "GPU"), encoding="utf-8")
    led = _ledger(path)
    # no device is known, yet a decode at 4 FLOP/byte is not compute-bound on any: said once per sentence
    text = show.block(led, "bound")
    assert text.count("`IQ2_BN - 2.06 bpw TriLM (CUDA)` cannot be compute-bound on any device: 4.1 FLOP/byte") == 1
    unknown = [c.withhold("no peak") for c in led.claims if c.kind == "bound"]
    assert show.block(wording.ledger("bandwidth_roofline", [], unknown), "bound").startswith(
        "No result has a known fraction"
    )
    seed = _ledger(config.seed("004"))
    assert show.block(seed, "bound").count("\n\n") == 5  # one paragraph per model


def test_bound_evidence_and_its_device():
    c = cb.bound(point(), "bound_1", 0.5)
    assert set(c.evidence) == {
        "verdict",
        "bandwidth_fraction",
        "compute_fraction",
        "intensity",
        "ridge",
        "threshold",
        "noise",
        "margin",
        "fragile",
        "lowest_ridge",
        "lowest_ridge_device",
        "label",
        "device",
        "mode",
        "host_cpu",
        "line",
    }
    assert c.evidence["verdict"] == "memory-bandwidth" and c.evidence["device"] == "A100-SXM4-80GB"
    assert c.evidence["host_cpu"] is None  # a run of known mode: its CPU is no reason
    # a printed device the table lacks: its name is no peak's device
    unknown = point(gpu="Some GPU", device="Some GPU", peak_source="unknown", peak_gb_s=None, fraction_of_peak=None)
    assert cb.bound(unknown, "bound_1", 0.5).evidence["device"] is None


def test_fraction_evidence_gb_per_token_and_test():
    c = cb.fraction(point(), "bw_1")
    assert c.evidence["gb_per_token"] == 3.82 and c.evidence["test"] == "tg128"
    assert "300.00 tok/s x 3.82 GB per token" in wording.word("bandwidth_roofline", c).text


def test_suspects_name_the_tool_that_splits_over_gpus():
    llama = cb.suspects(point())
    assert any("llama-bench splits the layers" in s for s in llama)
    assert not any("tensor-parallel vLLM" in s or "bf16 is assumed" in s for s in llama)
    vllm = cb.suspects(point(rate_kind="lower bound", precision_source="assumed"))
    assert any("tensor-parallel vLLM" in s for s in vllm) and any("bf16 is assumed" in s for s in vllm)
    table = cb.suspects(point(rate_kind="lower bound", precision_source="checkpoint"))
    assert not any("bf16 is assumed" in s for s in table) and any("model table's checkpoint" in s for s in table)
    assert not any("llama-bench" in s for s in vllm)
    row = cb.suspects(point(extra_settings="sm=row"))  # a row split: every GPU read at once
    assert "several GPUs (a row split reads every GPU at once and their bandwidths add)" in row


def test_a_partly_offloaded_model_gets_its_verdict_from_arithmetic():
    # 300 tok/s is 3.33 ms per token; 1 GB on the GPU needs 0.49 ms at 2,039 GB/s: the host sets the pace
    host = point(offload="partial", offload_why="ngl 10 < 32 layers + output", gpu_bytes_per_token=1e9)
    c = wording.word("bandwidth_roofline", cb.bound(host, "bound_1", 0.5))
    assert c.kind == "comparison" and c.status == "shown" and c.evidence["b"] == pytest.approx(1e9 / 2039e9 * 1000)
    assert c.evidence["offload_why"] == "ngl 10 < 32 layers + output"
    assert "needs at most 0.5 ms of the 3.3 ms each token takes, so the part on the host" in c.text
    # 6.5 GB on the GPU needs 3.19 ms of 3.33: inside the rate's noise, no verdict
    near = point(offload="partial", offload_why="x", gpu_bytes_per_token=6.5e9, rate_std=20.0)
    assert wording.word("bandwidth_roofline", cb.bound(near, "bound_1", 0.5)).status == "withheld"
    # more than the token's time: the assumed split is wrong, never a verdict
    wrong = point(offload="partial", offload_why="x", gpu_bytes_per_token=8e9)
    assert "the split is wrong" in wording.word("bandwidth_roofline", cb.bound(wrong, "bound_1", 0.5)).reason
    unknown_split = point(offload="partial", offload_why="ngl 10 (layer count unknown)", gpu_bytes_per_token=None)
    assert wording.word("bandwidth_roofline", cb.bound(unknown_split, "bound_1", 0.5)).kind == "bound"
    # a known split on a GPU of unknown peak: no arithmetic either
    unknown_peak = point(offload="partial", offload_why="x", gpu_bytes_per_token=1e9, peak_source="unknown")
    assert cb.offload_split(unknown_peak, "bound_1") is None
    assert cb.offload_split(host, "bound_1") is not None
    assert cb.fraction(host, "fraction_1").evidence["offload_why"] == "ngl 10 < 32 layers + output"


def test_the_seeds_offloaded_405b_is_host_bound():
    led = _ledger(config.seed("004"))
    c = led.get("bound_6")
    assert c.kind == "comparison" and c.status == "shown" and c.evidence["gpu_gb"] == pytest.approx(96.0)
    assert rules.check(led.to_dict()) == []


def test_the_seeds_size_trend_and_bounds_are_judged_by_the_rate_noise():
    led = _ledger(config.seed("004"))
    trend = led.get("bw_size_trend").evidence
    assert len(trend["noise"]) == len(trend["xs"]) - 1 and all(n > 0 for n in trend["noise"])
    for c in led.claims:
        if c.kind == "bound" and c.evidence.get("bandwidth_fraction") is not None:
            assert c.evidence["noise"] > 0 and c.evidence["fragile"] is False, c.id  # the seed's margins are wide


def test_a_size_trend_step_inside_the_rate_noise_is_not_a_step():
    pts = pd.DataFrame(
        [point(bytes_per_token=b, fraction_of_peak=f) for b, f in ((4e9, 0.60), (8e9, 0.61), (4e10, 0.8))]
    )
    # a 1 % step beyond a 0.3 % noise (std 1 of 300)
    assert wording.word("bandwidth_roofline", cb.size_trend(pts)).status == "shown"
    noisy = pts.assign(rate_std=15.0)  # 2 x 15 / sqrt(5) / 300 x sqrt(2): 6 % per step
    assert wording.word("bandwidth_roofline", cb.size_trend(noisy)).status == "withheld"


def test_a_rate_without_a_printed_spread_adds_no_noise_to_a_ratio():
    """Only p prints a std: the ratio's band is p's alone, the same as p's own band."""
    p = pd.Series({"rate": 100.0, "rate_std": 5.0})
    q = pd.Series({"rate": 50.0, "rate_std": None})
    assert cb.rate_noise(p, q) == pytest.approx(cb.rate_noise(p))
    assert cb.rate_noise(pd.Series({"rate": 100.0}), q) is None


def test_a_cpu_run_on_fewer_threads_than_its_chip_gets_no_compute_verdict():
    # a CPU's compute peak in the table is every thread busy: one thread has a far lower roof, so an
    # intensity below every device's ridge does not show that compute does not limit it
    cpu = dict(mode="cpu", offload="cpu", gpu=None, intensity_flop_per_byte=3.3, compute_fraction=None)
    unknown = point(**cpu, threads=1, device=None, peak_source="unknown", fraction_of_peak=None, cpu_threads=None)
    c = wording.word("bandwidth_roofline", cb.bound(unknown, "bound_1", 0.5))
    assert c.status == "withheld" and "on 1 thread," in c.text and "does not name the CPU" in c.text
    named = dict(unknown, device="Intel(R) Xeon(R) CPU E5-2690 v3 @ 2.60GHz")  # printed, not a table row
    c = wording.word("bandwidth_roofline", cb.bound(point(**named), "bound_1", 0.5))
    assert "names the CPU Intel(R) Xeon(R) CPU E5-2690 v3" in c.text and "does not name the CPU" not in c.text
    known = dict(cpu, device="Ryzen-9-9950X", peak_gb_s=89.6, peak_tflops=4.4, ridge=49.1, cpu_threads=32)
    low = dict(known, fraction_of_peak=0.2, compute_fraction=0.05)  # neither roof near: "overhead" at all threads
    assert cb.bound(point(**low, threads=32), "bound_1", 0.5).evidence["verdict"] == "overhead"
    assert cb.bound(point(**low, threads=32), "bound_1", 0.5).status == "shown"
    few = wording.word("bandwidth_roofline", cb.bound(point(**low, threads=8), "bound_1", 0.5))
    assert few.status == "withheld" and "8 threads of the 32 of the Ryzen-9-9950X" in few.text
    # a memory-bandwidth verdict stands on any thread count: the bandwidth roof does not shrink with threads
    high = dict(known, fraction_of_peak=0.8, compute_fraction=0.05)
    assert cb.bound(point(**high, threads=8), "bound_1", 0.5).evidence["verdict"] == "memory-bandwidth"
    assert cb.bound(point(**high, threads=8), "bound_1", 0.5).status == "shown"


def test_two_backends_of_one_model_are_told_apart_on_the_page():
    # ROCm and Vulkan on one card: the same model file, so the backend names each point
    two = pd.DataFrame(
        [
            {"model_file": "llama-2-7b.Q4_0.gguf", "backend": "ROCm", "line": 10},
            {"model_file": "llama-2-7b.Q4_0.gguf", "backend": "Vulkan", "line": 20},
            {"model_file": "other.gguf", "backend": "Vulkan", "line": 30},
        ]
    )
    assert bandwidth._distinct_labels(two) == ["llama-2-7b.Q4_0 (ROCm)", "llama-2-7b.Q4_0 (Vulkan)", "other"]
    same = two.assign(backend="CUDA")  # one backend twice (two sweeps): the line tells them apart
    assert bandwidth._distinct_labels(same)[:2] == ["llama-2-7b.Q4_0 (line 10)", "llama-2-7b.Q4_0 (line 20)"]
    builds = two.assign(engine=["b1000:", "b2000:", ""])  # two builds: the engine names each point first
    assert bandwidth._distinct_labels(builds)[:2] == ["llama-2-7b.Q4_0 (b1000)", "llama-2-7b.Q4_0 (b2000)"]
    w7900 = _ledger(config.FIXTURES_DIR / "llama-bench" / "w7900_rocm_vulkan.md")
    labels = {c.evidence["label"] for c in w7900.claims if c.kind == "fraction_of_peak"}
    assert labels == {"llama-2-7b.Q4_0 (ROCm)", "llama-2-7b.Q4_0 (Vulkan)"}


def test_the_rate_noise_counts_the_repetitions_the_command_asked_for():
    # -r 2 (geerlingguy's runs): the standard error is sd / sqrt(2), not the default's sd / sqrt(5)
    default = cb.rate_noise(point(rate=36.23, rate_std=17.62))
    two = cb.rate_noise(point(rate=36.23, rate_std=17.62, n_reps=2))
    assert two == pytest.approx(default * (5 / 2) ** 0.5)
    assert cb.rate_noise(point(rate=36.23, rate_std=17.62, n_reps=5)) == pytest.approx(default)
    rows = bandwidth.generation_rows(ingest.read(config.FIXTURES_DIR / "llama-bench" / "rx580_p550_vulkan.md"))
    assert rows["n_reps"].tolist() == [2]  # the command line's -r 2


def test_an_moe_share_below_the_threshold_names_no_overhead():
    # gpt-oss-20b's F16 file keeps attention and the output matrix at 16 bits beside MXFP4 experts: the
    # file x active/total estimate is low, so 42% of the peak does not show that overhead limits it
    moe = dict(architecture="moe", bytes_source="file size x 3.61B active / 20.91B total (openai)")
    moe.update(model="gpt-oss ?B F16", file_gib=12.83, params_b=20.91)  # 5.3 bits per parameter, not 16
    low = dict(moe, fraction_of_peak=0.42, compute_fraction=0.005, intensity_flop_per_byte=3.0)
    c = wording.word("bandwidth_roofline", cb.bound(point(**low), "bound_1", 0.5))
    assert c.status == "withheld" and "5.3 bits per parameter" in c.text and "same bits" in c.text
    assert c.reason.endswith("and the share of the peak, may be well above this estimate and the threshold")
    # a file about as small as its type says (Q4_K_M: experts and the rest near 4.5 bits) keeps the verdict
    even = dict(low, model="qwen3moe 30B.A3B Q4_K - Medium", file_gib=17.28, params_b=30.53)
    assert cb.bound(point(**even), "bound_1", 0.5).status == "shown"
    # above the threshold the estimate is a floor of the bytes, so the memory-bandwidth verdict stands
    high = dict(moe, fraction_of_peak=0.75, compute_fraction=0.01, intensity_flop_per_byte=3.0)
    assert cb.bound(point(**high), "bound_1", 0.5).evidence["verdict"] == "memory-bandwidth"
    assert cb.bound(point(**high), "bound_1", 0.5).status == "shown"
    # a dense model at the same share keeps its overhead verdict
    assert cb.bound(point(fraction_of_peak=0.42, compute_fraction=0.005), "bound_1", 0.5).status == "shown"


def test_sockets_inferred_from_the_threads_are_said_to_be_assumed():
    xeon = _ledger(config.FIXTURES_DIR / "llama-bench" / "xeon_e5_2690v3_cpu.json").get("bw_1")
    assert xeon.evidence["sockets"] == 2 and xeon.evidence["threads_per_socket"] == 24
    assert "its 48 threads are more than one socket's 24, so 2 sockets are assumed" in xeon.text
    one = wording.word("bandwidth_roofline", cb.fraction(point(mode="cpu", offload="cpu", threads=16), "bw_1"))
    assert "sockets are assumed" not in one.text  # one socket: nothing inferred


def _with_line(tmp_path, line: str):
    """The Xeon fixture (48 threads on a 24-thread part) with `line` written above its results."""
    src = config.FIXTURES_DIR / "llama-bench" / "ik_llama_pr273.md"
    path = tmp_path / "xeon.md"
    path.write_text(line + "\n\n" + src.read_text(encoding="utf-8"), encoding="utf-8")
    return _ledger(path).get("bw_1")


def test_sockets_the_file_states_bound_those_the_threads_span(tmp_path):
    # lscpu's `Socket(s):` line: the machine holds one socket, so 48 threads share it and one socket is the roof
    one = _with_line(tmp_path, "Socket(s):             1")
    assert one.evidence["sockets"] == 1 and one.evidence["sockets_status"] == "stated"
    assert one.evidence["peak"] == pytest.approx(68.3)
    assert "Line 1 states the machine's sockets (`Socket(s): 1`): one socket" in one.text
    assert "assumed" not in one.text and "more CPU sockets" not in " ".join(one.evidence["suspects"])
    # a write-up's `dual-socket`: two sockets, said as the file's, not assumed
    two = _with_line(tmp_path, "Run on a dual-socket Xeon box.")
    assert two.evidence["sockets"] == 2 and two.evidence["peak"] == pytest.approx(2 * 68.3)
    assert "so they span 2 of its 2 sockets" in two.text and "assumed" not in two.text


def test_a_numa_line_is_named_not_called_an_absence_of_sockets(tmp_path):
    # numactl's node count is no socket count (one socket may hold several nodes): unread, its line named
    c = _with_line(tmp_path, "available: 2 nodes (0-1)")
    assert c.evidence["sockets_status"] == "unread" and c.evidence["sockets"] == 2
    assert (
        "Line 1 speaks of the machine's sockets or NUMA nodes (`available: 2 nodes (0-1)`) but gives no socket count"
        in c.text
    )
    assert "does not say how many sockets" not in c.text


def test_a_cpu_run_beyond_its_peak_suspects_sockets_not_gpus():
    cpu = point(mode="cpu", offload="cpu", device="EPYC-9654", peak_gb_s=460.8, fraction_of_peak=1.6, sockets=1)
    c = wording.word("bandwidth_roofline", cb.fraction(cpu, "bw_1"))
    assert c.status == "implausible" and "more CPU sockets than the 1 assumed" in c.text
    assert "several GPUs" not in c.text
    assert "several GPUs" in wording.word("bandwidth_roofline", cb.fraction(point(fraction_of_peak=1.6), "bw_1")).text


def _no_peak(**over):
    unknown = dict(peak_source="unknown", peak_gb_s=None, peak_tflops=None, ridge=None, fraction_of_peak=None)
    unknown |= dict(compute_fraction=None, bytes_per_token=None, intensity_flop_per_byte=None, bandwidth_gb_s=None)
    return point(gpu=None, device=None, **unknown, **over)


def test_a_run_of_unknown_mode_names_its_host_cpu_as_why_no_device_is_used():
    b = wording.word("bandwidth_roofline", cb.bound(_no_peak(mode="unknown", cpu="Apple M3 Max"), "bound_1", 0.5))
    assert b.status == "withheld" and "CPU column names the host, Apple M3 Max (line 10)" in b.text


def test_a_cpu_run_with_no_known_peak_is_not_said_to_name_only_its_host():
    b = wording.word("bandwidth_roofline", cb.bound(_no_peak(mode="cpu", cpu="Some CPU"), "bound_1", 0.5))
    assert b.status == "withheld" and "names the host" not in b.text


def test_a_prefill_carries_its_rate_and_the_rate_s_spread():
    p = pd.Series({"rate": 5000.0, "rate_std": 40.0, "tflops": 67.4, "peak_tflops": 312.0, "line": 7})
    ev = cb.prefill(p, "pp_1").evidence
    assert (ev["rate"], ev["rate_std"], ev["achieved_tflops"]) == (5000.0, 40.0, 67.4)


def test_an_moe_model_of_unknown_active_size_is_withheld_with_the_parameter_to_pass():
    c = cb.bound(point(architecture="moe", active_params_b=None), "bound_1", 0.5)
    assert c.status == "withheld"
    assert c.reason == "moe_active_unknown"  # a key: its words are the chapter's (`reasons:` of bound_*)
    worded = wording.word("bandwidth_roofline", c)
    assert worded.reason.startswith("its active parameter count is unknown (an MoE model; pass moe_active_params)")
    assert worded.text.endswith(f"because {worded.reason}.")


def test_each_fastest_prefill_is_a_claim_that_names_its_peak_s_source_and_why_no_share_is_its_own():
    fastest = pd.DataFrame(
        [
            {"rate": 5000.0, "tflops": 67.4, "peak_tflops": 312.0, "peak_source": "detected", "line": 7},
            {"rate": 900.0, "tflops": 12.0, "peak_source": "unknown", "no_share": "offloaded", "line": 9},
        ]
    )
    first, second = cb.prefill_claims(fastest)
    assert (first.id, second.id) == ("pp_1", "pp_2")
    assert first.evidence["peak_source"] == "detected" and first.evidence["two_devices"] is None
    assert second.evidence["peak_source"] == "unknown"
    assert second.evidence["two_devices"] == cb.TWO_DEVICES["offloaded"]  # -ngl 0: neither peak bounds it
