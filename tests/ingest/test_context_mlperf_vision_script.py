"""MLPerf's reference vision scripts (`run_local.sh <backend> <model> <device>`, mlcommons/inference
vision/classification_and_detection/run_common.sh) name the model as a bare argument: one of the models
run_common.sh knows, before the flags; any other word, or a flag's value, is no model."""

from __future__ import annotations

import pytest

from benchbook.ingest import context

BLOCK = ["", "Samples per second: 2095.89"]


@pytest.mark.parametrize(
    ("line", "model"),
    [
        ("./run_local.sh tf mobilenet gpu --scenario Offline", "mobilenet"),
        ("./run_and_time.sh onnxruntime ssd-resnet34 cpu", "ssd-resnet34"),
        ("./run_local.sh onnxruntime gpu --scenario Offline", None),  # run_common.sh's default: not written
        ("./run_local.sh tf gpu --max-batchsize resnet50", None),  # a flag's value is the flag's
        ("bash run.sh tf mobilenet gpu", None),  # another script: its arguments are its own
    ],
)
def test_a_model_argument_of_mlperf_vision_scripts_is_the_runs_model(line, model):
    facts = context.read([line, *BLOCK]).get("model")
    assert [(f.value, f.source, f.line) for f in facts] == ([(model, "command", 1)] if model else [])
