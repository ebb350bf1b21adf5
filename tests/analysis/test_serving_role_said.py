"""A launch command that serves one role of a disaggregated run (SGLang's `--disaggregation-mode
prefill`) states that role's devices, not the run's: where no `xPyD` layout says how many servers of
each role the run spans, the run's devices are not known, and the page says why."""

from __future__ import annotations

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
