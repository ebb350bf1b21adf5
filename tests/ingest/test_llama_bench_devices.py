"""llama-bench: the device, command and caption around a table, read from real public outputs
(gaps found by reviewing them: cpu_info dropped, the gfx arch cut off, Vulkan/SYCL device lines
ignored, rows after a log line dropped, a command not recognised and its flags carried over)."""

from __future__ import annotations

import json
import re

import pandas as pd
import pytest

from benchbook import config, hardware, ingest
from benchbook.ingest import llama_bench as lb
from benchbook.ingest.core import ParseError

FIX = config.FIXTURES_DIR / "llama-bench"


def _parsed(name: str):
    return ingest.read_parsed(FIX / name, tool="llama-bench")[0]


def _printed_md_numbers(text: str) -> int:
    """Numbers printed in the t/s cells ('mean ± std') of the markdown rows, counted without the parser."""
    return 2 * len(re.findall(r"^\s*\|.*\|\s*[\d.]+\s*±\s*[\d.]+\s*\|\s*$", text, re.M))


def _means(table):
    return table[table.statistic == "mean"].set_index("line")


# --- 1. cpu_info --------------------------------------------------------------------------------


def test_cpu_info_is_kept_and_names_the_cpu_of_a_cpu_only_run():
    p = _parsed("xeon_e5_2690v3_cpu.json")
    raw = json.loads((FIX / "xeon_e5_2690v3_cpu.json").read_text(encoding="utf-8"))
    assert set(p.table.cpu) == {"Intel(R) Xeon(R) CPU E5-2690 v3 @ 2.60GHz"} == {r["cpu_info"] for r in raw}
    printed = sum(len(r["samples_ts"]) + len(r["samples_ns"]) + 4 for r in raw)
    assert len(p.table) + len(p.rejected) == p.cells_read == printed
    row = p.table.iloc[0].to_dict()
    dev, mode = hardware.llama_bench_device(row)  # the tidy row alone, no raw field added
    assert (dev.name, mode) == ("Xeon-E5-2690-v3", "cpu")


def test_cpu_info_of_a_gpu_run_does_not_make_it_a_cpu_run():
    p = _parsed("mi210_rocm.json")
    row = p.table.iloc[0].to_dict()
    assert row["cpu"] == "AMD EPYC 9655 96-Core Processor"
    dev, mode = hardware.llama_bench_device(row)
    assert (dev.name, mode) == ("MI210", "gpu")


# --- 2. the gfx arch of a ROCm device line --------------------------------------------------------


def test_rocm_device_line_keeps_the_gfx_arch():
    p = _parsed("strix_halo_gfx1151_rocm.md")
    assert set(p.table.gpu) == {"AMD Radeon Graphics (gfx1151)"}
    assert hardware.detect("AMD Radeon Graphics").__class__ is type(None)  # the name alone names nothing
    dev, mode = hardware.llama_bench_device(p.table.iloc[0].to_dict())
    assert (dev.name, mode) == ("Radeon-8060S", "gpu")
    text = (FIX / "strix_halo_gfx1151_rocm.md").read_text(encoding="utf-8")
    assert len(p.table) + len(p.rejected) == _printed_md_numbers(text) == 20


def test_gfx942_device_line_and_a_line_without_arch():
    # the device line of ggml-org/llama.cpp issue 13145 (an MI300X VF under ROCm), then a CUDA one
    text = (
        "  Device 0: AMD Instinct MI300X VF, gfx942:sramecc+:xnack- (0x942), VMM: no, Wave Size: 64\n"
        "| model | backend | test | t/s |\n|---|---|---|---|\n| llama 7B Q4_0 | ROCm | tg128 | 10.00 ± 0.10 |\n"
    )
    gpu = lb.parse(text, "mi300x.md").table.gpu.iloc[0]
    assert gpu == "AMD Instinct MI300X VF (gfx942)"
    assert hardware.detect(gpu).name == "MI300X"
    cuda = text.replace(
        "AMD Instinct MI300X VF, gfx942:sramecc+:xnack- (0x942), VMM: no, Wave Size: 64",
        "NVIDIA GeForce RTX 5090, compute capability 12.0, VMM: yes",
    )
    assert lb.parse(cuda, "cuda.md").table.gpu.iloc[0] == "NVIDIA GeForce RTX 5090"


# --- 3. Vulkan and SYCL device lines -----------------------------------------------------------


def test_vulkan_device_lines_are_read():
    w = _means(_parsed("w7900_rocm_vulkan.md").table)
    assert w.loc[27, "gpu"] == "AMD Radeon Pro W7900 (RADV NAVI31) (radv)" and w.loc[27, "backend"] == "Vulkan"
    assert w.loc[11, "gpu"] == "AMD Radeon Pro W7900"  # the ROCm table's own Device 0 line
    assert hardware.detect(w.loc[27, "gpu"]).name == "Radeon-PRO-W7900"
    s = _parsed("strix_halo_glm45_air_vulkan_radv.log").table
    assert set(s.gpu) == {"Radeon 8060S Graphics (RADV GFX1151) (radv)"}
    assert s.caption.isna().all()  # "ggml_vulkan: Found 1 Vulkan devices:" is a log line, not a caption
    assert hardware.llama_bench_device(s.iloc[0].to_dict())[0].name == "Radeon-8060S"


def test_sycl_device_list_names_the_gpu_once():
    # synthetic composition: the device list rows as printed in a public llama.cpp SYCL log (one
    # A770 seen through level_zero and opencl, plus the host CPU), above a made-up result row
    listing = (
        "found 3 SYCL devices:\n"
        "|ID|        Device Type|                                   Name|Version|units  |group   |group|size   |\n"
        "|--|-------------------|---------------------------------------|-------|-------|--------|-----|-------|\n"
        "| 0| [level_zero:gpu:0]|                Intel Arc A770 Graphics|    1.3|    512|    1024|   32| 16225M|\n"
        "| 1|     [opencl:gpu:0]|                Intel Arc A770 Graphics|    3.0|    512|    1024|   32| 16225M|\n"
        "| 2|     [opencl:cpu:0]|AMD Ryzen 5 5600G with Radeon Graphics         |    3.0|      4|    8192|   64|  8327M|\n"
    )
    table = "| model | backend | test | t/s |\n|---|---|---|---|\n| llama 7B Q4_0 | SYCL | tg128 | 10.00 ± 0.10 |\n"
    assert lb.parse(listing + table, "sycl.md").table.gpu.iloc[0] == "Intel Arc A770 Graphics"
    assert lb.parse(table, "bare.md").table.gpu.isna().all()


# --- 4. log lines between the separator and the rows ---------------------------------------------


def test_rows_after_a_log_line_are_read():
    p = _parsed("w7900_rocm_vulkan.md")
    m = _means(p.table)
    assert m.loc[27, "value"] == 1813.49 and m.loc[28, "value"] == 112.75
    text = (FIX / "w7900_rocm_vulkan.md").read_text(encoding="utf-8")
    assert len(p.table) + len(p.rejected) == p.cells_read == _printed_md_numbers(text) == 8
    assert not any("header with no rows" in msg for msg in p.messages)


def test_a_log_line_followed_by_prose_still_ends_the_table():
    head = "| model | backend | test | t/s |\n|---|---|---|---|\n"
    text = (
        head + "ggml_vulkan: Compiling shaders...Done!\nsome prose\n| llama 7B | CUDA | tg128 | 1.00 ± 0.10 |\n\n"
        "## next\n" + head + "| llama 7B | CUDA | tg128 | 2.00 ± 0.10 |\n"
    )
    p = lb.parse(text, "x.md")
    assert list(p.table.value[p.table.statistic == "mean"]) == [2.0]  # the row below the prose is not claimed
    assert any(msg.startswith("line 1: llama-bench table header with no rows") for msg in p.messages)
    shifted = lb.parse(text.replace("some prose\n", ""), "x.md")  # the log line alone does not end it
    assert list(shifted.table.value[shifted.table.statistic == "mean"]) == [1.0, 2.0]


# --- 5. commands: env prefixes, prompts, continuations; captions tell runs apart ------------------


def test_schedcp_runs_are_told_apart_and_nothing_is_set_aside():
    p = _parsed("schedcp_rtx5090_gpt_oss_120b.txt")
    text = (FIX / "schedcp_rtx5090_gpt_oss_120b.txt").read_text(encoding="utf-8")
    assert len(p.rejected) == 0 and len(p.table) == p.cells_read == _printed_md_numbers(text) == 32
    m = _means(p.table)
    assert m.loc[81, "n_cpu_moe"] == 32 and m.loc[81, "value"] == 260.14
    assert m.loc[64, "n_cpu_moe"] == 64
    # "With max prefetching": its own command (an env-prefixed line) has no -ncmoe
    assert m.loc[97, "value"] == 229.67 and pd.isna(m.loc[97, "n_cpu_moe"])
    assert m.loc[97, "caption"] == "With max prefetching" and m.loc[81, "caption"] == "with ncmoe32"
    assert m.loc[17, "extra_settings"] == "env GGML_CUDA_ENABLE_UNIFIED_MEMORY=1"
    # the command wrapped with `\` over three lines still gives the model file
    assert m.loc[17, "model_file"] == "ggml-org_gpt-oss-120b-GGUF_gpt-oss-120b-mxfp4-00001-of-00003.gguf"
    assert m.loc[36, "caption"] == "With UVM set to CPU first and then set to access by:"
    # the SYCL table after driver warnings, with its `user@host:~$` command
    assert m.loc[122, "value"] == 629.25 and m.loc[122, "backend"] == "SYCL"
    assert m.loc[122, "model_file"] == "tinyllama-1.1b-chat-v1.0.Q4_K_M.gguf" and pd.isna(m.loc[122, "caption"])
    pp = m[m.test == "pp512"]
    cfg = ["model_file", "gpu", "n_cpu_moe", "caption", "build", "extra_settings", "backend", "threads", "ngl"]
    assert len(pp.drop_duplicates(cfg)) == len(pp) == 8


def test_quoted_model_path_and_command_substitution():
    p = _parsed("strix_halo_gfx1151_rocm.md")
    assert set(p.table.model_file) == {f"deepseek-r1_{s}.gguf" for s in ("1.5b", "7b", "8b", "14b", "32b")}
    assert p.table.threads.isna().all()  # -t $(lscpu ...) is not a number the text gives
    assert lb._parse_cmd("-m 'a b.gguf' -t 8 2>&1 | tee -t 3") == {"m": "a b.gguf", "t": "8"}


def test_command_flags_do_not_carry_over_to_the_next_table():
    text = (
        "$ llama-bench -ncmoe 32 -m a.gguf\n| model | test | t/s |\n|---|---|---|\n| m | tg128 | 2.00 ± 0.10 |\n\n"
        "next run\n\n| model | test | t/s |\n|---|---|---|\n| m | tg128 | 3.00 ± 0.10 |\n"
    )
    m = _means(lb.parse(text, "x.md").table)
    assert m.loc[4, "n_cpu_moe"] == 32 and m.loc[4, "model_file"] == "a.gguf"
    assert pd.isna(m.loc[10, "n_cpu_moe"]) and pd.isna(m.loc[10, "model_file"]) and m.loc[10, "caption"] == "next run"


# --- 8. the ingest summary line ------------------------------------------------------------------


@pytest.mark.parametrize("n, said", [(1, "1 table not read"), (2, "2 tables not read")])
def test_summary_counts_in_the_singular_and_plural(n, said):
    rows = [("tool", "x.md", i + 1, "t", f"table not read (line {i + 1})") for i in range(n)]
    line = ingest.summary(5, rows)
    assert line.endswith(f"; {said}")
    assert f"{n} cell{'s' if n > 1 else ''} rejected" in line


_TABLE = """| model | size | params | backend | ngl | test | t/s |
| --- | ---: | ---: | --- | --: | ---: | ---: |
| qwen2 7B Q4_K - Medium | 4.36 GiB | 7.62 B | SYCL | 99 | tg128 | 66.48 ± 0.22 |
"""


def test_a_system_listings_gpu_line_names_the_device_of_the_tables_below_it():
    # ipex-llm issue 12991: "GPU: Intel Arc B580" under a System Information heading, the table under
    # another heading and a command: the device is the B580, and the hardware table places it
    t = _parsed("arc_b580_ipex_sycl.md").table
    assert set(t["gpu"].dropna()) == {"Intel Arc B580"}
    assert hardware.detect("Intel Arc B580").name == "Arc-B580"
    stated = "## System\n\nCPU: AMD Ryzen 9 9950X\nGPU: Intel Arc B580\n\n## Result\n\n" + _TABLE
    assert set(lb.parse(stated, "x.md").table["gpu"].dropna()) == {"Intel Arc B580"}
    # a device line llama-bench printed above the table wins over the listing
    printed = stated.replace(
        "## Result\n\n", "## Result\n\nggml_vulkan: 0 = Intel(R) Arc(TM) A770 Graphics (Intel) | uma: 0\n"
    )
    assert set(lb.parse(printed, "x.md").table["gpu"].dropna()) == {"Intel(R) Arc(TM) A770 Graphics (Intel)"}
    # no listing, no device line: no device
    assert lb.parse("## Result\n\n" + _TABLE, "x.md").table["gpu"].dropna().empty


def test_metal_device_lines_name_the_apple_chip():
    # as llama.cpp logs them (real lines, the index's llama.cpp CI logs): with or without a timestamp
    logged = "ggml_metal_init: found device: Apple M2 Ultra\nggml_metal_init: GPU name:   Apple M2 Ultra\n"
    stamped = "0.00.035.817 I ggml_metal_init: GPU name:   Apple M4 Max\n"
    for head, chip in ((logged, "Apple M2 Ultra"), (stamped, "Apple M4 Max")):
        t = lb.parse(head + _TABLE.replace("SYCL", "Metal,BLAS"), "x.md").table
        assert set(t["gpu"].dropna()) == {chip}
        assert hardware.detect(chip).name == chip.replace(" ", "-")
    # Metal,BLAS with no device line: no chip is guessed
    assert lb.parse(_TABLE.replace("SYCL", "Metal,BLAS"), "x.md").table["gpu"].dropna().empty


def test_ggml_register_device_lines_name_the_offload_device_and_not_the_cpu():
    """ggml's backend registry logs each device it registers: SYCL0's description is the device llama-bench
    offloads to; the CPU device is not, so a log registering only the CPU names no GPU."""
    text = (
        config.FIXTURES_DIR / "llama-bench" / "llamacpp_issue22413_arc_pro_b60_sycl_qwen35moe_register_device.md"
    ).read_text(encoding="utf-8")
    assert set(lb.parse(text, "b60.md").table["gpu"]) == {"Intel(R) Arc(TM) Pro B60 Graphics"}
    cpu_only = re.sub(r".*registered device SYCL0.*\n", "", text)
    assert lb.parse(cpu_only, "cpu.md").table["gpu"].isna().all()


def test_a_banner_a_program_prints_among_the_rows_does_not_end_the_table():
    head = "| model | backend | ser | test | t/s |\n|---|---|---|---|---|\n"
    row = "| qwen3moe ?B IQ3_K | CUDA | 4,1 | {t} | {v} ± 0.10 |\n"
    banner = lb.parse(head + "============ Repacked 220 tensors\n" + row.format(t="pp64", v="41.39"), "x.md")
    assert list(banner.table.value[banner.table.statistic == "mean"]) == [41.39]
    assert set(banner.table.extra_settings) == {"ser=4,1"}  # the value's own comma is kept
    with pytest.raises(ParseError, match="no measured rows"):  # a writer's line is no program's print
        lb.parse(head + "Then I repacked the tensors\n" + row.format(t="pp64", v="41.39"), "x.md")
