"""Device and model knowledge: the hardware and model tables, detection from printed strings, the
reader's own device, llama-bench CPU/GPU/partial runs, and model sizes."""

from __future__ import annotations

import json
import re

import pandas as pd
import pytest

from benchbook import config, hardware, ingest
from benchbook.analysis import roofline

FIX = config.FIXTURES_DIR / "llama-bench"


# --- the table ---------------------------------------------------------------------------------


def test_table_has_every_listed_device_with_a_source():
    t = hardware.hardware_table()
    assert len(t) >= 40 and t["source"].str.len().gt(10).all()
    wanted = """A10 A10G L4 L40S A100-PCIe-40GB A100-PCIe-80GB A100-SXM4-40GB A100-SXM4-80GB H100-PCIe
        H100-SXM5-80GB H100-NVL H200 H20 GH200 B200 B300 GB200 GB10 RTX-3090 RTX-4090 RTX-5090 RTX-6000-Ada
        RTX-PRO-6000-Blackwell-WS RTX-PRO-6000-Blackwell-Max-Q RTX-PRO-6000-Blackwell-Server MI210 MI250X MI300X
        MI325X MI355X W7900 RX-7900-XTX Radeon-8060S Radeon-8050S Arc-B580 Gaudi2 Gaudi3 M2-Ultra M3-Max M4-Max
        Xeon-E5-2690-v3 EPYC-9654 Ryzen-9-7950X"""
    for name in wanted.split():
        assert hardware.device(name).source, name
    assert set(t["kind"]) == {"gpu", "cpu", "apu", "accelerator"}
    # the names notebooks pass today still resolve, to the same figures as before
    a100 = hardware.device("A100-SXM4-80GB")
    assert (a100.bandwidth_gb_s, a100.fp16_tflops, a100.int8_tops, a100.power_w) == (2039, 312, 624, 400)
    pro = hardware.device("RTX-PRO-6000-Blackwell-WS")
    assert (pro.bandwidth_gb_s, pro.fp16_tflops) == (1792, 500)


def test_cpu_bandwidth_is_channels_times_speed():
    xeon = hardware.device("Xeon E5-2690 v3")
    assert xeon.kind == "cpu" and xeon.bandwidth_gb_s == pytest.approx(4 * 2133 * 8 / 1000, abs=0.05)
    assert "channels x MT/s x 8 B" in xeon.note
    assert hardware.device("EPYC 9654").bandwidth_gb_s == pytest.approx(12 * 4800 * 8 / 1000)


def test_every_last_level_cache_figure_has_its_source(tmp_path):
    t = hardware.hardware_table()
    known = t[t["llc_mb"].notna()]
    assert len(known) >= 40 and known["llc_source"].str.len().gt(10).all()
    assert hardware.device("A100-SXM4-80GB").llc_mb == 40 and hardware.device("MI300X").llc_mb == 256
    assert hardware.device("B200").llc_mb == 126  # measured by Chips and Cheese; NVIDIA's datasheet gives none
    blank = t[t["llc_mb"].isna()]  # left blank only with a note saying why, never silently
    assert len(blank) and blank["llc_source"].str.contains("LLC unknown", regex=False).all()
    t.loc[0, "llc_source"] = None
    bad = tmp_path / "bad.csv"
    t.to_csv(bad, index=False)
    with pytest.raises(ValueError, match="llc_mb without llc_source"):
        hardware.hardware_table(bad)


@pytest.mark.parametrize(
    ("name", "threads", "sockets"),
    [
        ("Xeon-E5-2690-v3", 48, 2),  # 12 cores, 24 threads per socket: 48 threads span two
        ("Xeon-E5-2690-v3", 24, 1),
        ("Xeon-E5-2690-v3", 25, 2),
        ("Xeon-E5-2690-v3", 200, 2),  # a two-socket board has no third
        ("Xeon-E5-2690-v3", None, 1),
        ("Ryzen-9-7950X", 64, 1),  # a desktop part: oversubscribed, never two sockets
        ("A100-SXM4-80GB", 48, 1),
    ],
)
def test_a_run_spans_the_sockets_its_threads_need(name, threads, sockets):
    assert hardware.device(name).sockets(threads) == sockets


def test_lowest_ridge_is_below_every_devices_own():
    ridge, name = roofline.lowest_ridge()
    assert hardware.device(name).kind in hardware.KINDS and 1 < ridge < 20
    own = [roofline.device_ridge(d, "fp16") or roofline.device_ridge(d, "fp32") or ridge for d in hardware.devices()]
    assert all(r >= ridge for r in own) and roofline.highest_ridge()[0] == max(own)


def test_schema_refuses_a_negative_bandwidth(tmp_path):
    t = pd.read_csv(config.HARDWARE_TABLE)
    good = tmp_path / "good.csv"
    t.to_csv(good, index=False)
    assert len(hardware.hardware_table(good)) == len(t)
    t.loc[0, "memory_bandwidth_gb_s"] = -600
    bad = tmp_path / "bad.csv"
    t.to_csv(bad, index=False)
    with pytest.raises(ValueError, match=r"bad\.csv.*memory_bandwidth_gb_s"):
        hardware.hardware_table(bad)


def test_models_schema_refuses_more_active_than_total(tmp_path):
    t = pd.read_csv(hardware.MODELS_TABLE)
    t.loc[0, "active_params_b"] = t.loc[0, "params_b"] * 2
    bad = tmp_path / "models.csv"
    t.to_csv(bad, index=False)
    with pytest.raises(ValueError, match="models.csv"):
        hardware.model_table(bad)
    assert len(hardware.model_table()) >= 30


# --- lookup and detection ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "printed, name",
    [
        ("NVIDIA RTX PRO 6000 Blackwell Workstation Edition", "RTX-PRO-6000-Blackwell-WS"),
        ("NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition", "RTX-PRO-6000-Blackwell-Max-Q"),
        ("AMD Radeon PRO W7900", "Radeon-PRO-W7900"),
        ("Intel(R) Arc(TM) B580 Graphics", "Arc-B580"),
        ("Intel(R) Arc(tm) B580 Graphics (BMG G21)", "Arc-B580"),
        ("AMD Radeon Graphics (gfx1151)", "Radeon-8060S"),
        ("Intel(R) Xeon(R) CPU E5-2690 v3 @ 2.60GHz", "Xeon-E5-2690-v3"),
        ("NVIDIA GB10", "GB10-128GB"),
        ("NVIDIA H100 80GB HBM3", "H100-SXM5-80GB"),
        ("NVIDIA H100 PCIe", "H100-PCIe-80GB"),
        ("AMD Instinct MI300X", "MI300X"),
        ("NVIDIA A100-SXM4-80GB", "A100-SXM4-80GB"),
        ("NVIDIA A100 80GB PCIe", "A100-PCIe-80GB"),
        ("Apple M3 Max", "Apple-M3-Max"),
        ("NVIDIA GeForce RTX 3090 Ti", "RTX-3090-Ti"),  # the longer alias beats "geforce rtx 3090"
        ("NVIDIA GeForce RTX 3090", "RTX-3090"),
        ("NVIDIA L4", "L4-24GB"),
        ("NVIDIA L40S", "L40S-48GB"),
        ("4x NVIDIA H20", "H20-96GB"),  # the H20 itself; its H20-3e is none (below)
        ("NVIDIA GeForce RTX 4080", "RTX-4080"),  # the desktop card; its laptop and SUPER namesakes are none
        ("RTX-4080", "RTX-4080"),
        ("8 x NVIDIA A100 SXM 80GB GPUs", "A100-SXM4-80GB"),  # gpustack's write-ups name the SXM4 card so
        ("AMD RYZEN AI MAX+ 395 w/ Radeon 8060S", "Ryzen-AI-Max-395"),  # a cpu_info: the CPU, not the iGPU
        ("AMD EPYC 9655 96-Core Processor", "EPYC-9655"),
    ],
)
def test_detect_real_strings(printed, name):
    assert hardware.detect(printed).name == name


@pytest.mark.parametrize(
    "printed",
    [
        "AMD Radeon Graphics",  # any AMD iGPU prints this: no guess
        "NVIDIA GeForce RTX 4090 + NVIDIA GeForce RTX 3090",  # two devices, equally specific
        "Apple M2",  # only the M2 Ultra is in the table
        "NVIDIA A100 PCIe",  # 40 or 80 GB: not said
        "4x NVIDIA H20-3e",  # a part the table lacks, whose name holds the H20's alias
        "NVIDIA GeForce RTX 4080 Laptop GPU",  # another chip (AD104), not the desktop RTX 4080 (AD103)
        "GeForce RTX 4080 SUPER",
        "NVIDIA GeForce RTX 4090 Laptop GPU",
        "",
    ],
)
def test_detect_ambiguous_or_unknown_is_none(printed):
    assert hardware.detect(printed) is None


def test_detect_reads_several_texts():
    assert hardware.detect(None, "### 600W", "llama-bench on the AMD Instinct MI300X box").name == "MI300X"


def test_device_by_name_or_alias_ignoring_case_and_punctuation():
    assert hardware.device("mi300x").name == "MI300X"
    assert hardware.device("a100 sxm4 80gb").name == "A100-SXM4-80GB"
    assert hardware.device("RTX PRO 6000").name == "RTX-PRO-6000-Blackwell-WS"


def test_known_is_the_device_a_name_or_alias_is_and_none_for_any_other_text():
    assert hardware.known("a100 sxm4 80gb") == hardware.device("a100 sxm4 80gb")
    assert hardware.known("RTX PRO 6000").name == "RTX-PRO-6000-Blackwell-WS"
    for text in ["MI300XX", "the run used 8 GPUs", "", "NVIDIA GeForce RTX 4090"]:  # a typo, prose, a printed name
        assert hardware.known(text) is None


def test_typo_lists_close_names():
    with pytest.raises(hardware.UnknownDevice, match=r"unknown device 'MI300XX' \(close names: MI300X") as e:
        hardware.device("MI300XX")
    assert isinstance(e.value, ValueError) and str(e.value).count(".") == 1
    with pytest.raises(hardware.UnknownDevice, match="H100-SXM5-80GB"):
        hardware.device("H100-SXM6-80GB")


# --- the Device ----------------------------------------------------------------------------------


def test_peak_and_ridge_with_fp16_bf16_fallback():
    h100 = hardware.device("H100-SXM5-80GB")
    assert h100.peak() == 989.4 and h100.peak("fp8") == 1978.9 and h100.peak("fp4") is None
    assert roofline.device_ridge(h100) == pytest.approx(989.4e12 / 3350e9) == pytest.approx(roofline.ridge(989.4, 3350))
    own = hardware.custom("my card", 500, peak_tflops=100)  # given as one number: bf16
    assert own.peak("fp16") == 100 and own.fp16_tflops == 100 and own.int8_tops is None
    cpu = hardware.device("Xeon-E5-2690-v3")
    assert cpu.peak("bf16") is None and roofline.device_ridge(cpu, "bf16") is None and cpu.peak("fp32") == 1.0
    with pytest.raises(ValueError, match="bandwidth"):
        hardware.custom("broken", -1)


# --- choosing the peak ---------------------------------------------------------------------------


def test_choose_precedence():
    printed = "NVIDIA H100 80GB HBM3"
    c = hardware.choose(gpu="MI300X", detected=printed)
    assert (c.device.name, c.source) == ("MI300X", "parameter")
    c = hardware.choose(detected=printed)
    assert (c.device.name, c.source) == ("H100-SXM5-80GB", "detected")
    assert c.sentence == "H100-SXM5-80GB (detected in the output)"
    assert hardware.choose(detected="AMD Radeon Graphics") is None  # a device the table lacks: none assumed
    assert hardware.choose() is None and hardware.choose(detected="nothing known") is None
    # the reader's own figures beat the detected ones, and keep the detected name
    c = hardware.choose(detected=hardware.device("MI300X"), bandwidth_gb_s=4000)
    assert (c.device.name, c.device.bandwidth_gb_s, c.device.peak(), c.source) == ("MI300X", 4000, 1307.4, "parameter")
    c = hardware.choose(bandwidth_gb_s=68.0, peak_tflops=1.0)
    assert (c.device.kind, c.device.bandwidth_gb_s, c.device.peak(), c.source) == ("custom", 68.0, 1.0, "parameter")
    c = hardware.choose(gpu="My Card", bandwidth_gb_s=500, peak_tflops=0.0)  # 0: not given
    assert (c.device.name, c.device.bandwidth_gb_s, c.device.peak(), c.source) == ("My Card", 500, None, "parameter")
    with pytest.raises(ValueError, match="bandwidth"):
        hardware.choose(peak_tflops=100)
    with pytest.raises(hardware.UnknownDevice):
        hardware.choose(gpu="MI300XX")
    with pytest.raises(ValueError, match="peak source"):  # a device is named or detected, never assumed
        hardware.PeakChoice(hardware.device("MI300X"), "assumed")


# --- llama-bench ---------------------------------------------------------------------------------


def test_llama_bench_modes():
    xeon = "Intel(R) Xeon(R) CPU E5-2690 v3 @ 2.60GHz"
    # a CPU-only build: backend CPU, whatever -ngl says -> the CPU and its DRAM bandwidth
    dev, mode = hardware.llama_bench_device({"backends": "CPU", "n_gpu_layers": 99, "cpu_info": xeon, "gpu_info": ""})
    assert (dev.name, mode, dev.bandwidth_gb_s) == ("Xeon-E5-2690-v3", "cpu", 68.3)
    # old JSON keys (no `backends`): every backend flag false is a CPU run
    old = {"cuda": False, "vulkan": False, "metal": False, "sycl": False, "cpu_info": xeon, "n_gpu_layers": 99}
    assert hardware.llama_bench_device(old)[1] == "cpu"
    assert hardware.llama_bench_device({**old, "cuda": True, "gpu_info": "NVIDIA GeForce RTX 3090"})[1] == "gpu"
    gpu = {"backend": "CUDA", "ngl": 99, "gpu": "NVIDIA H100 80GB HBM3", "cpu_info": xeon}
    dev, mode = hardware.llama_bench_device(gpu)
    assert (dev.name, mode) == ("H100-SXM5-80GB", "gpu")
    assert hardware.llama_bench_device({**gpu, "ngl": 0})[0].name == "Xeon-E5-2690-v3"
    assert hardware.llama_bench_device({**gpu, "ngl": 0})[1] == "cpu"
    assert hardware.llama_bench_device({**gpu, "ngl": 20, "n_layers": 33})[1] == "partial"
    assert hardware.llama_bench_device({**gpu, "ngl": 35, "n_layers": 33})[1] == "gpu"
    assert hardware.llama_bench_device({**gpu, "ngl": 20})[1] == "partial"  # below 99, layer count unknown
    assert hardware.llama_bench_device({**gpu, "n_cpu_moe": 12})[1] == "partial"
    assert hardware.llama_bench_device({"backends": "Metal,BLAS", "gpu_info": "Apple M3 Max"})[1] == "gpu"
    assert hardware.llama_bench_device({}) == (None, "unknown")


def _device_lines(text: str) -> list[str]:
    """The whole `Device N: ...` lines (the parser keeps only the text before the first comma)."""
    return [m[1] for m in re.finditer(r"^\s*Device \d+: (.+)$", text, re.M)]


@pytest.mark.parametrize(
    "fixture, name, mode",
    [
        ("w7900_rocm_vulkan.md", "Radeon-PRO-W7900", "gpu"),
        ("strix_halo_gfx1151_rocm.md", "Radeon-8060S", "gpu"),
        ("mi210_rocm.json", "MI210", "gpu"),
        ("xeon_e5_2690v3_cpu.json", "Xeon-E5-2690-v3", "cpu"),
    ],
)
def test_detection_on_real_outputs(fixture, name, mode):
    path = FIX / fixture
    df = ingest.read(path, "llama-bench")
    text = path.read_text(encoding="utf-8")
    raw = {}
    if path.suffix == ".json":  # fields the tidy table does not keep (cpu_info)
        raw = {"cpu_info": json.loads(text)[0]["cpu_info"]}
    if "gfx1151" in text:  # the device line's gfx id is cut off by the parser
        raw = {"gpu_info": _device_lines(text)[0]}
    found = {hardware.llama_bench_device({**r, **raw}) for r in df.drop_duplicates("model").to_dict("records")}
    assert {(d.name if d else None, m) for d, m in found} == {(name, mode)}


# --- models --------------------------------------------------------------------------------------


def test_gpt_oss_20b_is_moe_with_its_active_count():
    for printed in ("gpt-oss 20B MXFP4 MoE", "openai/gpt-oss-20b"):
        m = hardware.model_size(printed)
        assert m.moe and m.total_b == pytest.approx(20.9, abs=0.1) and m.active_b == pytest.approx(3.6, abs=0.05)
    dense = hardware.model_size("meta-llama/Llama-2-7b-hf")
    assert not dense.moe and dense.active_b == dense.total_b == 6.74


def test_moe_from_architecture_or_name():
    assert hardware.is_moe("some-model", architecture="qwen3moe")
    assert hardware.is_moe("deepseek2 671B IQ4_K_R4") and hardware.is_moe("Mixtral-8x7B-v0.1")
    assert hardware.is_moe("Qwen3-30B-A3B") and hardware.is_moe("foo 235B.A22B")
    assert not hardware.is_moe("llama 70B Q4_K - Medium") and not hardware.is_moe("Llama-3.1-8B")
    nxt = hardware.model_size("Ling-Next-80B-A3B-Instruct")  # no table row: the size its name writes
    assert (nxt.total_b, nxt.active_b, nxt.moe, nxt.source) == (80, 3, True, "size in the name")
    unknown_active = hardware.model_size("my-moe 40B", architecture="qwen3moe")
    assert unknown_active.moe and unknown_active.active_b is None and "unknown" in unknown_active.source


def test_size_from_the_name_and_printed_params():
    m = hardware.model_size("my-finetune-13b")
    assert (m.total_b, m.active_b, m.moe, m.source) == (13, 13, False, "size in the name")
    assert hardware.model_size("qwen2 1.5B Q4_K - Medium").total_b == 1.5
    assert hardware.model_size("bigscience/bloomz-7b1").total_b == 7.07  # table row, not "7b1" from the name
    printed = hardware.model_size("deepseek2 671B IQ4_K_R4 - 4.5 bpw", printed_params=672.05)
    assert (printed.total_b, printed.active_b) == (672.05, 37) and "printed" in printed.source
    # a distilled student is not its teacher
    distill = hardware.model_size("DeepSeek-R1-Distill-Llama-8B")
    assert (distill.total_b, distill.moe) == (8, False)
    assert hardware.model_size("DeepSeek-R1").moe


def test_unknown_model_is_none():
    assert hardware.model_size("mystery-model") is None
    assert hardware.model_size("") is None and hardware.model_size(None) is None


def test_a_part_the_table_lacks_is_not_taken_for_the_part_whose_alias_its_name_holds():
    from benchbook.analysis import roofline

    assert roofline.detect(["- **GPU**: 4 × NVIDIA H20-3e"]) is None
    assert roofline.detect(["DeepSeek-V4-Flash on H20-3e: Balanced"]) is None
    assert roofline.detect(["4x NVIDIA H20"]) == ("H20-96GB", 4)


def test_an_active_count_right_after_the_total_may_drop_its_b():
    """ "31B-A3" is the "<total>B-A<active>B" naming with the last B dropped; an "A3" elsewhere is not."""
    size = hardware.model_size("NVIDIA-Nemotron-Nano-31B-A3-v3-Mcore-FP8-HF")
    assert size.moe and (size.total_b, size.active_b) == (31.0, 3.0)
    assert not hardware.is_moe("Llama-A3-7B") and hardware.model_size("Llama-A3-7B").active_b == 7.0


def test_a_bare_part_code_of_several_rows_of_different_peaks_is_a_family_and_one_rows_name_is_not():
    assert [d.name for d in hardware.family("H100")] == ["H100-NVL-94GB", "H100-SXM5-80GB", "H100-PCIe-80GB"]
    assert len(hardware.family("a100")) == 4
    assert hardware.family("H100 SXM5") == [] and hardware.family("L40S") == []  # one row's name or alias
    assert hardware.family("P100") == [] and hardware.family("RTX4090D") == []  # parts the table lacks
    # V100 is four rows (SXM2 and PCIe, 16 and 32 GB; NVIDIA's V100 datasheet: 125 and 112 TFLOPS, 300 and 250 W)
    assert [d.name for d in hardware.family("V100")] == [
        "V100-PCIe-16GB",
        "V100-PCIe-32GB",
        "V100-SXM2-16GB",
        "V100-SXM2-32GB",
    ]
    assert hardware.detect("Tesla V100-SXM2-16GB").name == "V100-SXM2-16GB"  # nvidia-smi's name of the 16 GB part
    assert hardware.detect("Tesla V100-PCIE-32GB").name == "V100-PCIe-32GB"


def test_a_file_whose_printed_total_is_not_its_table_rows_gets_no_active_count_from_the_row():
    """llama-bench prints one label for an original and a pruned file: the original's 30.53 B is the
    table's Qwen3-30B-A3B (30.5 B, 3.3 B active); the pruned 28.12 B is not, so its active count is unknown."""
    label = "qwen3moe 30B.A3B Q2_K - Medium"
    assert hardware.model_size(label, printed_params=30.53).active_b == pytest.approx(3.3)
    pruned = hardware.model_size(label, printed_params=28.12)
    assert pruned.active_b is None and pruned.total_b == pytest.approx(28.12) and pruned.moe
    assert "active parameters not known for this file" in pruned.source
    dense = hardware.model_size("llama 8B Q4_K - Medium", printed_params=7.0)  # a dense row: the total is the active
    assert dense is None or dense.active_b == dense.total_b


def test_devices_named_apart_are_each_named_once_and_a_host_cpu_is_no_candidate():
    assert hardware.named_apart("applicable to H200, H100, GH200, L40S and A100 GPUs") == ["H200", "GH200", "L40S"]
    assert hardware.named_apart("one NVIDIA H100 80GB HBM3 GPU") == ["H100 80GB HBM3"]  # `H100 80GB` inside it
    assert hardware.named_apart("8x MI325X with two EPYC 9654 hosts") == ["MI325X"]
    assert hardware.named_apart("an EPYC 9654 node") == ["EPYC 9654"]  # a CPU alone is the device


def test_mi355_is_the_mi355x_and_mi350x_is_not():
    """AMD's MI350 series is the MI350X and the MI355X, so a write-up's `MI355` names the MI355X row; the
    MI350X (another part, lower power) is not that row."""
    assert hardware.device("MI355").name == hardware.device("Instinct MI355").name == "MI355X"
    assert hardware.detect("8x AMD MI355 GPUs").name == "MI355X"
    assert hardware.detect("MI350X") is None


def test_strix_halos_isa_names_both_of_its_gpus_and_a_radeon_name_one():
    # gfx1151 and "Strix Halo" are the die's: the Ryzen AI Max+ 395's 40-CU Radeon 8060S and the Max 385
    # and 390's 32-CU Radeon 8050S; a page says both (the higher peaks used), a Radeon name only its own
    assert [d.name for d in hardware.variants("AMD Radeon Graphics (gfx1151)")] == ["Radeon-8060S", "Radeon-8050S"]
    assert [d.name for d in hardware.variants("Strix Halo")] == ["Radeon-8060S", "Radeon-8050S"]
    assert hardware.variants("Radeon 8050S Graphics (RADV GFX1151)") == []
    assert hardware.detect("Radeon 8050S Graphics (RADV GFX1151)").name == "Radeon-8050S"
    assert hardware.device("Radeon-8050S").fp16_tflops == pytest.approx(32 * 512 * 2.8 / 1000, abs=0.05)


def test_a_bare_mi300_is_the_series_and_bounds_by_its_highest_part():
    """AMD's MI300 series is the MI300A (6 XCDs, an APU) and the MI300X (8 XCDs), whose dense 16-bit peaks
    differ (980.6 and 1,307.4 TFLOP/s): a bare `MI300` is either, so it is bounded by the higher; a part's
    own name is that part."""
    assert [d.name for d in hardware.variants("Test plan (on MI300)")] == ["MI300X", "MI300A"]
    assert hardware.detect("Test plan (on MI300)").name == "MI300X"
    assert hardware.detect("on an MI300A node").name == "MI300A" and hardware.variants("on an MI300A node") == []
    assert hardware.detect("MI300X").name == "MI300X" and hardware.variants("MI300X") == []
