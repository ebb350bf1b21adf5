"""CodeCarbon writes `gpu_model` as `"".join(f"{i} x {name}" ...)` over the distinct GPU names
(emissions_tracker.py), so a machine with two models glues them (`1 x NVIDIA GeForce RTX 40601 x NVIDIA
GeForce RTX 3080 Ti`, a real row beside `gpu_count` 2): the run spans both, and no one of them is its
device; one model keeps its name and count."""

from __future__ import annotations

from benchbook import ingest
from benchbook.ingest import context

HEADER = (
    "timestamp,project_name,run_id,duration,emissions,cpu_power,gpu_power,ram_power,cpu_energy,gpu_energy,"
    "ram_energy,energy_consumed,os,codecarbon_version,cpu_count,cpu_model,gpu_count,gpu_model,tracking_mode\n"
)
JOINED = "1 x NVIDIA GeForce RTX 40601 x NVIDIA GeForce RTX 3080 Ti"


def _csv(tmp_path, gpu_count: str, gpu_model: str):
    f = tmp_path / "emissions.csv"
    f.write_text(
        HEADER + "2025-04-08T13:11:19,codecarbon,93ea7b4e,0.4039,1.0e-05,62.5,114.08,29.42,6.69e-06,1.22e-05,"
        f"3.15e-06,2.21e-05,Linux-5.15.0-136-generic-x86_64-with-glibc2.35,2.8.3,20,Intel(R) Core(TM) i9-10850K,"
        f"{gpu_count},{gpu_model},machine\n"
    )
    return f


def test_two_glued_models_are_two_devices_named_together(tmp_path):
    df = ingest.read(_csv(tmp_path, "2", JOINED))
    assert set(df["device"].dropna()) == {"NVIDIA GeForce RTX 4060 + NVIDIA GeForce RTX 3080 Ti"}
    assert set(df["device_count"].dropna()) == {2}


def test_the_list_of_what_the_file_states_names_each_model_and_counts_two(tmp_path):
    ctx = ingest.context_of(_csv(tmp_path, "2", JOINED))
    assert {f.value for f in ctx.get("device")} == {"NVIDIA GeForce RTX 4060", "NVIDIA GeForce RTX 3080 Ti"}
    assert {f.value for f in ctx.get("device_count")} == {2}


def test_one_model_keeps_its_name_and_count(tmp_path):
    df = ingest.read(_csv(tmp_path, "8", "8 x Tesla V100-SXM2-32GB"))
    assert set(df["device"].dropna()) == {"Tesla V100-SXM2-32GB"}
    assert set(df["device_count"].dropna()) == {8}


def test_a_count_is_the_shortest_run_of_digits_before_its_sign():
    assert context.joined_parts("2 x A1002 x H100 80GB HBM3") == [(2, "A100"), (2, "H100 80GB HBM3")]
    assert context.joined_parts("1 x NVIDIA GeForce MX450") == []
    assert context.joined_parts("2 x 8 x H100") == []  # servers of eight: no part without a name
