"""Model-server pods counted in prose (`4 vLLM pods running the ... model, each with 4 H100 GPUs
(Tensor-Parallelism=4)`, llm-d's reports) are replicas of the server behind its router: the run's requests
spread over all of them, so a run spans every pod's devices, 16 here, never the 4 of one pod. A single pod,
or pods spoken of without a count, names no replicas."""

from __future__ import annotations

from benchbook.ingest import context

LINE = (
    "The setup uses 4 vLLM pods running the `meta-llama/Llama-3.1-70B-Instruct` model, each with 4 H100 GPUs "
    "(Tensor-Parallelism=4)."
)


def _facts(lines, name):
    return [(f.value, f.scope) for f in context.read(lines).facts if f.name == name]


def test_counted_pods_are_replicas_and_each_ones_devices_times_them_are_every_gpu():
    assert [v for v, _ in _facts([LINE], "replicas")] == [4]
    assert (16, "all GPUs") in _facts([LINE], "device_count")
    assert [v for v, _ in _facts(["We deployed 8 model-server pods behind the gateway."], "replicas")] == [8]


def test_one_pod_or_uncounted_pods_name_no_replicas():
    assert _facts(["The setup uses 1 vLLM pod with 4 H100 GPUs."], "replicas") == []
    assert _facts(["The pods run vLLM, each with 4 H100 GPUs."], "replicas") == []
    assert (16, "all GPUs") not in _facts(["The pods run vLLM, each with 4 H100 GPUs."], "device_count")
