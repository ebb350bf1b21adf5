"""The instances a run spans are said as what they are: replicas of one server behind a load balancer or
router (`8 instances of vLLM`, `4 vLLM pods`) where the input names replicas and no disaggregated layout,
prefill and decode instances where it names one (`1P1D`)."""

from __future__ import annotations

from benchbook.analysis import serving


def test_pods_or_instances_of_a_server_are_replicas(tmp_path):
    pods = tmp_path / "pods.md"
    pods.write_text("The setup uses 4 vLLM pods running the model, each with 4 H100 GPUs (Tensor-Parallelism=4).\n")
    assert serving.replicated([pods])
    assert serving.instances([pods]) == (4, 4)


def test_a_prefill_decode_layout_is_not_replicas(tmp_path):
    pd_ = tmp_path / "pd.md"
    pd_.write_text("We ran a 1P1D layout, TP=4 each.\n")
    assert not serving.replicated([pd_])
    assert serving.instances([pd_]) == (2, 2)
    plain = tmp_path / "plain.md"
    plain.write_text("One vLLM server, TP=4.\n")
    assert not serving.replicated([plain])
