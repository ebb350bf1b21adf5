"""`--cpu-offload-gb` in a launch of a model other than the runs' (a guide's 424B launch beside the
benchmark of its 28B sibling) offloads that model's weights, not the runs': it is not the runs' offload.
The same flag on a launch of the runs' own model is theirs."""

from __future__ import annotations

from benchbook.analysis import serving

GUIDE = (
    "# Guide\n\n```bash\nvllm serve baidu/ERNIE-4.5-VL-28B-A3B-PT --trust-remote-code\n```\n\n"
    "```bash\nvllm serve baidu/ERNIE-4.5-VL-424B-A47B-PT --tensor-parallel-size 8 --cpu-offload-gb 50\n```\n"
)


def test_another_model_s_offload_is_not_the_runs(tmp_path):
    p = tmp_path / "guide.md"
    p.write_text(GUIDE)
    assert serving.cpu_offload([str(p)], ["baidu/ERNIE-4.5-VL-28B-A3B-PT"]) is None


def test_the_runs_own_model_s_offload_is_theirs(tmp_path):
    # the other way: the runs are the 424B's, whose launch offloads 50 GB (line 8)
    p = tmp_path / "guide.md"
    p.write_text(GUIDE)
    assert serving.cpu_offload([str(p)], ["baidu/ERNIE-4.5-VL-424B-A47B-PT"]) == (50.0, 8)
    assert serving.cpu_offload([str(p)]) == (50.0, 8)  # no model known: the one offload the file states
