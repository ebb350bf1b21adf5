"""CodeCarbon's `gpu_model` counts every GPU of the machine (`8 x NVIDIA H20`), while `gpu_count` is the
GPUs it tracked (`len(gpu_ids)`, from `CUDA_VISIBLE_DEVICES` or the tracker's argument), whose energy the
row holds (a real file, ArkNightmaster/AIRA's, writes `1` or `2` beside `8 x NVIDIA H20`): what the file
states of its run is the tracked count; where `gpu_count` is empty the model's count stands."""

from __future__ import annotations

from benchbook import ingest

HEADER = (
    "timestamp,project_name,run_id,duration,emissions,cpu_power,gpu_power,ram_power,cpu_energy,gpu_energy,"
    "ram_energy,energy_consumed,os,codecarbon_version,cpu_count,cpu_model,gpu_count,gpu_model,tracking_mode\n"
)


def _counts(tmp_path, gpu_count: str, gpu_model: str) -> set:
    f = tmp_path / "emissions.csv"
    f.write_text(
        HEADER + "2025-05-30T02:07:24,codecarbon,093d29bc,273.17,0.064,42.5,602.69,377.76,0.0032,0.0599,"
        f"0.0286,0.0917,Linux-5.15.0-124-generic-x86_64-with-glibc2.35,2.8.3,224,Intel(R) Xeon(R) Platinum 8480+,"
        f"{gpu_count},{gpu_model},machine\n"
    )
    return {f.value for f in ingest.context_of(f).get("device_count")}


def test_the_tracked_count_stands_for_the_machines(tmp_path):
    assert _counts(tmp_path, "2", "8 x NVIDIA H20") == {2.0}


def test_an_empty_gpu_count_leaves_the_models_count(tmp_path):
    assert _counts(tmp_path, "", "8 x NVIDIA H20") == {8}
