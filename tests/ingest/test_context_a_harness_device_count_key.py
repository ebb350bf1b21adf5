"""AMD's MLPerf harness prints its config as YAML (`harness_config:` ... `device_count: 1`): that key states the
GPUs the run uses, as `num_gpus` does; a device's index (`device_ids`, `GPU: 0`) counts none."""

from __future__ import annotations

from benchbook.ingest import context


def test_a_device_count_key_states_the_runs_devices():
    lines = ["harness_config:", "  tensor_parallelism: 1", "  device_count: 1"]
    assert context.read(lines).values("device_count") == [1]


def test_a_device_index_counts_no_devices():
    assert context.read(["harness_config:", "  device_ids: 3", "GPU: 0"]).values("device_count") == []
