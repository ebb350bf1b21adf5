"""A JSON `machine` object (trtllm-bench's `--report_json`: `"machine": {"name": ..., "memory.total": ...}`,
its MACHINE DETAILS from nvidia-smi) names the GPU in its `name`; a `name` outside such an object names none."""

import json

from benchbook.ingest import context


def _devices(doc):
    facts = context.read(json.dumps(doc, indent=4).split("\n")).facts
    return [(f.value, f.line) for f in facts if f.name == "device"]


def test_the_machine_objects_name_is_the_device():
    doc = {"engine": {"model": "Qwen/Qwen2.5-0.5B-Instruct"}, "machine": {"name": "NVIDIA GeForce RTX 4070 Ti"}}
    assert _devices(doc) == [("NVIDIA GeForce RTX 4070 Ti", 6)]


def test_a_name_outside_a_machine_object_is_no_device():
    doc = {"engine": {"name": "NVIDIA GeForce RTX 4070 Ti"}, "name": "NVIDIA GeForce RTX 4070 Ti"}
    assert _devices(doc) == []
