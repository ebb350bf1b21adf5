"""The BLOOM inference scripts' README tabulates their `Throughput per token including tokenize` (msecs:
the timed generate() calls over all their new tokens) as `| project \\ bs | 1 | 8 | ... |`, a row per
framework and dtype, under a title naming the GPUs (`Throughput in msecs on 8x80GB gpus:`); the part is
the one a line above names with the same count and memory. `oom` is the author's mark, a blank a batch
not run. The model is the checkpoint the scripts' `--name` flags load, the others' origin."""

from __future__ import annotations

import math

from benchbook import ingest
from benchbook.ingest import hf_batch

README = """# Inference scripts for BLOOM

Here are some benchmark resuls on JeanZay's 8x80GB A100 node w/ 512GB of CPU memory:

Throughput in msecs on 8x80GB gpus:

| project      \\ bs |      1 |     8 |    16 |
| :---------------- | :----- | :---- | :---- |
| accelerate   bf16 | 230.38 | 31.78 |  oom  |
| ds-zero      bf16 |    283 |       |       |

Throughput in msecs 4x80GB A100:

| project      \\ bs |      1 |     8 |
| :---------------- | :----- | :---- |
| ds-inference int8 | 156.51 | 20.11 |

deepspeed --num_gpus 8 bloom-ds-inference.py --name microsoft/bloom-deepspeed-inference-fp16
python bloom-accelerate-inference.py --name bigscience/bloom --batch_size 1 --benchmark
"""


def _table(tmp_path, text):
    f = tmp_path / "README.md"
    f.write_text(text)
    return ingest.read(f, tool="hf-batch-sweep")


def test_each_row_is_a_framework_and_dtype_on_the_titles_gpus(tmp_path):
    t = _table(tmp_path, README)
    got = {(r.framework, r.dtype, r.gpu, r.devices, r.batch_size): r.value for r in t.itertuples()}
    assert got[("accelerate", "bf16", "8xA100 80GB", 8, 1)] == 230.38
    assert got[("ds-inference", "int8", "4xA100 80GB", 4, 8)] == 20.11
    assert math.isnan(got[("accelerate", "bf16", "8xA100 80GB", 8, 16)])
    notes = dict(zip(zip(t["framework"], t["batch_size"], strict=True), t["note"], strict=True))
    assert notes[("accelerate", 16)] == hf_batch.MARKED_OOM and notes[("ds-zero", 8)] == hf_batch.EMPTY_NOTE
    assert set(t["model"]) == {"bigscience/bloom"} and set(t["metric"]) == {"ms_per_token"}


def test_a_title_that_names_no_gpus_leaves_the_device_unknown(tmp_path):
    text = README.replace("on 8x80GB gpus", "").replace("JeanZay's 8x80GB A100 node", "a node")
    t = _table(tmp_path, text)
    assert t[t["framework"] == "accelerate"]["gpu"].isna().all()


def test_the_model_is_the_checkpoint_the_others_come_from():
    assert (
        hf_batch._scripts_model(["microsoft/bloom-deepspeed-inference-fp16", "bigscience/bloom"]) == "bigscience/bloom"
    )
    assert hf_batch._scripts_model(["bigscience/bloom", "facebook/opt-66b"]) is None
