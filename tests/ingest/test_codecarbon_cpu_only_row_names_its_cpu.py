"""CodeCarbon's row names the GPU it tracked (`gpu_count`, `gpu_model`) and the CPU (`cpu_model`); a
row that tracked no GPU measured the CPU (and estimated RAM), so its device is the CPU it names (a real
Jetson Nano row: `ARMv8 Processor rev 1 (v8l)`, gpu_count and gpu_model empty); a row that tracked a
GPU keeps the GPU as its device."""

from __future__ import annotations

from benchbook import ingest

HEADER = (
    "timestamp,project_name,run_id,duration,emissions,cpu_power,gpu_power,ram_power,cpu_energy,gpu_energy,"
    "ram_energy,energy_consumed,os,codecarbon_version,cpu_count,cpu_model,gpu_count,gpu_model,tracking_mode\n"
)


def _devices(tmp_path, gpu_count: str, gpu_model: str) -> set:
    f = tmp_path / "emissions.csv"
    f.write_text(
        HEADER + "2026-04-27T04:36:33,codecarbon,11c9a078,2.83,1e-06,0.8,0.0,3.0,5.2e-07,0.0,1.9e-06,2.5e-06,"
        f"Linux-4.9.253-tegra-aarch64,3.2.3,2,ARMv8 Processor rev 1 (v8l),{gpu_count},{gpu_model},machine\n"
    )
    return set(ingest.read(f)["device"].dropna())


def test_a_row_that_tracked_no_gpu_names_its_cpu_as_the_device(tmp_path):
    assert _devices(tmp_path, "", "") == {"ARMv8 Processor rev 1 (v8l)"}


def test_a_row_that_tracked_a_gpu_keeps_the_gpu(tmp_path):
    assert _devices(tmp_path, "1", "1 x NVIDIA GeForce RTX 4090") == {"NVIDIA GeForce RTX 4090"}
