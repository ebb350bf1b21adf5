"""tritonbench's `accuracy` metric is its check that a backend's output matches the baseline's within
the operator's tolerance (`_get_accuracy`: 1 or 0). A row printed with accuracy 0 timed a different
result: the page says so and leaves it out of the comparisons; a row that passed stays in them. A real
blackwell_attentions table printed 0 on every triton_tutorial_FA2 row, which the first read ranked
fastest on 4 of 5 inputs."""

from __future__ import annotations

from benchbook import ingest
from benchbook.analysis import attention_tritonbench as tb
from benchbook.analysis import roofline
from benchbook.presentation import attention

HEAD = """python run.py --op blackwell_attentions --metrics accuracy,tflops --only triton_tutorial_FA2

 (Batch, Heads, Heads_KV, SeqLen, SeqLen_KV, Dhead)    sdpa-tflops    triton_tutorial_FA2-accuracy    triton_tutorial_FA2-tflops
----------------------------------------------------  -------------  ------------------------------  ----------------------------
"""


def _words(tmp_path, acc: int) -> str:
    f = tmp_path / "bench.md"
    f.write_text(
        HEAD
        + f"                    (4, 48, 48, 1024, 1024, 128) fwd        330.145                               {acc}"
        + "                       266.989\n"
        + f"                    (4, 48, 48, 2048, 2048, 128) fwd        355.122                               {acc}"
        + "                       427.985\n"
    )
    t = tb.table(ingest.read(f))
    return attention.triton_words(t, roofline.Peaks(None, None, {}, "unknown"))


def test_rows_that_failed_the_accuracy_check_are_said_and_left_out(tmp_path):
    words = _words(tmp_path, 0)
    assert "2 rows of triton_tutorial_FA2 failed tritonbench's accuracy check" in words
    assert "triton_tutorial_FA2 is fastest" not in words
    assert "The highest is 355.1 TFLOP/s (sdpa" in words


def test_rows_that_passed_the_accuracy_check_are_compared(tmp_path):
    words = _words(tmp_path, 1)
    assert (
        "failed tritonbench's accuracy check" not in words
        and "All 2 accuracy checks tritonbench printed passed" in words
    )
    assert "triton_tutorial_FA2 is fastest on 1" in words and "The highest is 428.0 TFLOP/s" in words
