"""A launch command that serves one role of a disaggregated run (SGLang's `--disaggregation-mode
prefill`) states that role's devices, not the run's: where no `xPyD` layout says how many servers of
each role the run spans, the run's devices are not known, and the page says why."""

from __future__ import annotations

import pandas as pd

from benchbook.analysis import serving
from benchbook.claims import rules

PREFILL = "python -m sglang.launch_server --model /models/GLM-4.6-FP8/ --disaggregation-mode prefill --tp-size 8\n"


def test_one_roles_launch_command_leaves_the_runs_devices_unknown(tmp_path):
    f = tmp_path / "pd.md"
    f.write_text(PREFILL)
    said = serving.role_said([f])
    assert said == {"role": "prefill", "role_line": 1}
    assert "the prefill server's of a disaggregated run" in rules.no_device_reason(said)


def test_a_layout_that_counts_the_servers_or_no_role_gives_no_role(tmp_path):
    f = tmp_path / "pd.md"
    f.write_text("1P1D on two nodes\n" + PREFILL)  # the layout counts the instances: `analysis.serving.instances`
    assert serving.role_said([f]) == {}
    f.write_text(PREFILL.replace("--disaggregation-mode prefill ", ""))
    assert serving.role_said([f]) == {}


DECODE = PREFILL.replace("prefill", "decode")


def test_one_launch_command_per_role_counts_a_1p1d_runs_servers(tmp_path):
    f = tmp_path / "pd.md"
    f.write_text(PREFILL + "\n" + DECODE)
    assert serving.role_servers([f]) == [("prefill", 1, 8), ("decode", 3, 8)]
    runs = pd.DataFrame({"metadata": ["tp=8"]})
    assert serving.pd_instances([f], runs) == 2  # each server spans the runs' TP 8: the run spans 16 devices
    assert serving.pd_instances([f], pd.DataFrame({"metadata": ["tp=4"]})) == 1  # a count per server not theirs


def test_dp_attention_keeps_a_servers_dp_inside_its_tp_group(tmp_path):
    f = tmp_path / "pd.md"
    wrapped = DECODE.replace("--tp-size 8\n", "--tp-size 8 \\\n    --dp-size 8 --enable-dp-attention\n")
    f.write_text(PREFILL + wrapped)
    assert serving.role_servers([f]) == [("prefill", 1, 8), ("decode", 2, 8)]
    f.write_text(PREFILL + wrapped.replace(" --enable-dp-attention", ""))
    assert serving.role_servers([f]) == [("prefill", 1, 8), ("decode", 2, 64)]  # DP replicas of the TP group


def test_servers_of_different_sizes_are_counted_and_said(tmp_path):
    f = tmp_path / "pd.md"
    f.write_text(PREFILL + DECODE.replace("--tp-size 8", "--tp-size 4"))
    said = serving.role_said([f])
    assert said["role_servers"] == [("prefill", 1, 8), ("decode", 2, 4)]
    reason = rules.no_device_reason(said)
    assert "a prefill server on 8 devices (line 1) and a decode server on 4 devices (line 2), 12 devices" in reason
    assert "does not say how many" not in reason


def test_a_role_launched_twice_or_on_several_nodes_counts_no_servers(tmp_path):
    f = tmp_path / "pd.md"
    f.write_text(PREFILL + PREFILL + DECODE)  # two prefill commands: a layout the input does not count
    assert serving.role_servers([f]) == []
    f.write_text(PREFILL.replace("\n", " --nnodes 2 --node-rank 0\n") + DECODE)
    assert serving.role_servers([f]) == []
    f.write_text(PREFILL + DECODE.replace(" --tp-size 8", ""))  # the decode server's size not stated
    assert serving.role_servers([f]) == []
