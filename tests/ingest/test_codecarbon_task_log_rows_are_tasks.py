"""CodeCarbon's task log (`start_task` / `stop_task`, written by `task_out` as
`emissions_<experiment>_<run_id>.csv`): a `task_name` column first, one row per task of one run, every row
with that run's run_id. Each row is its task, named by its task_name, even where tasks stop in the same
second (which the timestamp and the shared run_id cannot tell apart); a file without the column keeps the
timestamp as the run."""

from __future__ import annotations

from benchbook import config, ingest

COLUMNS = (
    "timestamp,project_name,run_id,duration,emissions,cpu_power,gpu_power,ram_power,cpu_energy,gpu_energy,"
    "ram_energy,energy_consumed,os,codecarbon_version,gpu_count,gpu_model,tracking_mode"
)


def _row(task: str | None, stamp: str, gpu_kwh: float) -> str:
    cells = (
        f"{stamp},rl,9c673e83-a5af,1.0,0.0001,20.0,40.0,20.0,0.00001,{gpu_kwh},0.00001,0.0001,"
        "Linux-7.0,3.3.0,1,1 x NVIDIA GeForce RTX 5090,machine\n"
    )
    return cells if task is None else f"{task},{cells}"


def _gpu_energy(tmp_path, header: str, body: str) -> dict:
    f = tmp_path / "emissions.csv"
    f.write_text(header + "\n" + body)
    t = ingest.read(f)
    gpu = t[(t["metric"] == "energy") & (t["scope"] == "gpu")]
    return dict(zip(gpu["run"], gpu["value"], strict=True))


def test_tasks_stopped_in_one_second_are_each_their_task(tmp_path):
    body = "".join(
        _row(task, "2026-09-08T23:44:37", kwh)
        for task, kwh in (("dynamics_model_update_0", 1e-4), ("rollout_0", 2e-6), ("gradient_updates_0", 3e-5))
    )
    runs = _gpu_energy(tmp_path, "task_name," + COLUMNS, body)
    assert sorted(runs) == ["dynamics_model_update_0", "gradient_updates_0", "rollout_0"]
    assert round(runs["rollout_0"], 2) == 7.2  # 2e-6 kWh x 3.6e6 J / kWh


def test_a_task_name_repeated_keeps_each_row_by_its_line(tmp_path):
    body = _row("warmup", "2026-09-08T23:44:31", 1e-5) + _row("warmup", "2026-09-08T23:44:32", 2e-5)
    runs = _gpu_energy(tmp_path, "task_name," + COLUMNS, body)
    assert sorted(runs) == ["warmup (row 2)", "warmup (row 3)"]


def test_rows_without_a_task_name_keep_their_timestamp(tmp_path):
    body = _row(None, "2026-09-08T23:44:31", 1e-5) + _row(None, "2026-09-08T23:44:40", 2e-5)
    runs = _gpu_energy(tmp_path, COLUMNS, body)
    assert sorted(runs) == ["2026-09-08T23:44:31", "2026-09-08T23:44:40"]


def test_the_real_task_log_has_its_eight_tasks_and_sets_none_aside_as_a_conflict():
    f = config.FIXTURES_DIR / "codecarbon" / "rl_dissections_rtx5090_v330_task_log_task_name_column_head8.csv"
    t = ingest.read(f)
    assert t["run"].nunique() == 8
    assert {"dynamics_model_update_0", "rollout_0", "synthetic_rollout_generation_0"} <= set(t["run"])
    assert not [m for m in t.attrs.get("messages", []) if "different values" in m]


def test_a_gpu_energy_of_0_beside_a_power_above_0_is_no_reading(tmp_path):
    runs = _gpu_energy(tmp_path, "task_name," + COLUMNS, _row("short", "2026-09-08T23:44:37", 0.0))
    assert runs == {}
    drew = _gpu_energy(tmp_path, "task_name," + COLUMNS, _row("short", "2026-09-08T23:44:37", 1e-7))
    assert list(drew) == ["short"]
