"""The caption of the block holding a run's output (`Representative output — Hy3-FP8, TP4 on 4×GB300 ...`,
`Sample output ..., with the FP8 model on H200:`) names that run's device and TP: it wins over the headings
of sections about other machines and over launch commands elsewhere in the file. A run whose block has no
caption naming a device keeps the file's own reading (here the nearest heading that names a machine, and
its launch's TP)."""

from __future__ import annotations

import pandas as pd

from benchbook.analysis import roofline, serving

GUIDE = """# Guide

## Serving on 8×AMD MI300X

```bash
vllm serve org/Model-FP8 --tensor-parallel-size 8
```

## Serving on 8×H200

```bash
vllm serve org/Model-FP8 --tensor-parallel-size 8
```

## Benchmarking

{caption}

```shell
============ Serving Benchmark Result ============
Successful requests:                     160
```
"""


def _one(tmp_path, caption):
    path = tmp_path / "guide.md"
    path.write_text(GUIDE.format(caption=caption))
    at = 1 + GUIDE.format(caption=caption).splitlines().index("============ Serving Benchmark Result ============")
    r = pd.DataFrame({"source": ["guide.md"], "line": [at], "run": ["a"], "model": ["org/Model-FP8"]})
    return r, [path]


def test_the_caption_s_device_count_and_tp_are_the_run_s(tmp_path):
    r, paths = _one(tmp_path, "Representative output — Model-FP8, TP4 on 4×B200 (one tray),\nMTP=2:")
    ((pk, said, line),) = serving.device_per_run(r, paths)
    assert (pk.device, pk.count, line) == ("B200-180GB", 4, 17)  # the caption's first line
    assert "tp=4" in serving.parallelism_from_context(r, paths)["metadata"].iloc[0]


def test_without_a_caption_device_the_headings_decide_as_before(tmp_path):
    # the other way: a caption naming no device leaves the headings' reading: the nearest one's 8 x H200
    r, paths = _one(tmp_path, "Representative output:")
    ((pk, _, line),) = serving.device_per_run(r, paths)
    assert (pk.device, pk.count, line) == ("H200-SXM-141GB", 8, 9)
    assert "tp=8" in serving.parallelism_from_context(r, paths)["metadata"].iloc[0]
    assert roofline._captioned(roofline.ingest.context_of_text(GUIDE.format(caption="x")), 20) is None
