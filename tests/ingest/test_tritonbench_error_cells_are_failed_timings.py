"""tritonbench prints a backend's `error_msg` in place of its first metric where the timing failed
("CUDA OOM" for torch.cuda.OutOfMemoryError, "not supported" for NotImplementedError): that cell is a
failed timing, set aside with its reason and named in one warning (the attention chapter's completeness
line), never skipped silently; a table with numbers only raises no such warning."""

from __future__ import annotations

from benchbook import ingest
from benchbook.ingest import tritonbench
from benchbook.presentation import attention as show

OOM = """$ python run.py --op flex_attention
               (B, Hq, M, Hkv, N, D) | Mask Type       eager-latency    eager-tflops    compiled-latency    compiled-tflops
------------------------------------------------  ------------------  --------------  ------------------  -----------------
  (8, 16, 4096, 16, 4096, 128) |            noop  93.069984 (±0.00%)       11.8138     4.523712 (±0.05%)           244.005
  (8, 16, 8192, 16, 8192, 128) |            noop            CUDA OOM                  16.141216 (±5.77%)           273.537
"""


def _read(tmp_path, text: str):
    f = tmp_path / "bench.md"
    f.write_text(text)
    return ingest.read(f)


def test_an_error_in_place_of_a_timing_is_a_failed_timing_named_in_a_warning(tmp_path):
    t = _read(tmp_path, OOM)
    warnings = [m for m in t.attrs["messages"] if m.startswith(tritonbench.FAILED_WARNING)]
    assert warnings == [
        f"{tritonbench.FAILED_WARNING} 1 timing failed: eager printed 'CUDA OOM' (out of GPU memory) at "
        "(8, 16, 8192, 16, 8192, 128) | noop (line 5)"
    ]
    eager = t[(t["backend"] == "eager") & (t["metric"] == "latency")]
    assert list(eager["line"]) == [4]  # the failed input has no eager timing
    aside = ingest.set_aside_frame(t)
    assert "no measurement" in aside.loc[aside["line"] == 5, "reason"].iloc[0]
    assert "did not time every input: 1 timing failed" in show.stop_note(t.attrs["messages"])


def test_a_table_of_numbers_only_says_the_run_completed(tmp_path):
    t = _read(tmp_path, "\n".join(OOM.splitlines()[:4]) + "\n")  # the row that failed left out
    assert not [m for m in t.attrs["messages"] if m.startswith(tritonbench.FAILED_WARNING)]
    assert show.stop_note(t.attrs["messages"]) == "the run completed every section it started"
