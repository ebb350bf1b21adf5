"""tritonbench labels its cuDNN backend with the library it ran (`cudnn_{torch.backends.cudnn.version()}`):
the list of what a file states gives that release, read by cuDNN's version rule (major x 10,000 + minor
x 100 + patch from cuDNN 9 on, major x 1,000 before it), on the first row that prints it."""

from __future__ import annotations

from benchbook.ingest import tritonbench

TABLE = """$ python run.py --op flash_attention --batch 1 --n-heads 24 --seq-len 4608 --d-head 128 --only cudnn,sdpa --metrics tflops

  (Batch, Heads, SeqLen, Dhead)    sdpa-tflops    {cudnn}-tflops
-------------------------------  -------------  --------------------
             (1, 24, 4608, 128)        329.483               631.338
"""


def _facts(cudnn: str) -> list[tuple]:
    return tritonbench.table_facts(tritonbench.parse(TABLE.format(cudnn=cudnn), "t.md").table)


def test_cudnn_9_backend_label_names_its_release():
    assert _facts("cudnn_90100") == [("version", "cuDNN 9.1.0", 5, "cudnn_90100")]


def test_cudnn_8_labels_count_thousands_for_the_major_version():
    assert tritonbench.cudnn_version("cudnn_8902") == "cuDNN 8.9.2"
    assert tritonbench.cudnn_version("cudnn_91002") == "cuDNN 9.10.2"


def test_a_backend_without_a_version_number_states_no_version():
    # the other way: a plain `cudnn` column (or any other backend) names no release
    assert _facts("cudnn") == []
    assert tritonbench.cudnn_version("flash_v3") is None
