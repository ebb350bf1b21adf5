"""vLLM's `--cpu-offload-gb N` keeps N GB of the weights in CPU memory and moves them to the GPU at every
forward pass. A launch without it, or with 0, offloads nothing."""

from __future__ import annotations

import pytest

from benchbook.analysis import serving


@pytest.mark.parametrize(
    ("flag", "found"), [(" --cpu-offload-gb 8", (8.0, 2)), (" --cpu-offload-gb 0", None), ("", None)]
)
def test_a_servers_cpu_offload_is_read_from_its_launch(tmp_path, flag, found):
    p = tmp_path / "run.md"
    p.write_text(f"# run\nvllm serve Qwen/Qwen3-30B-A3B-FP8 --enforce-eager{flag}\n")
    assert serving.cpu_offload([str(p)]) == found
