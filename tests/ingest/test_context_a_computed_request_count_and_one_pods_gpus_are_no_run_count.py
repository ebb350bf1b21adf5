"""Two counts a line states that are not the run's: a count of requests the line computes (`S = G x P = 150 x 5 = 750
requests`, a workload's sizing comment: the result of arithmetic, `= N requests`) is no sign of the requests a run
sent, so the failure sentence sends no reader to it; and on a line whose counted pods give every GPU (`4 vLLM pods
..., each with 4 H100 GPUs`: 16, all GPUs), the 4 read from it is one pod's, scoped "per replica". A count of
requests written plainly (`in 1000 requests`) is still a sign, and a device count with no pods is unscoped."""

from __future__ import annotations

from benchbook.ingest import context


def _signs(lines, name):
    return [g.line for g in context.read(lines).signs if g.name == name]


def _counts(lines):
    return [(f.value, f.scope) for f in context.read(lines).facts if f.name == "device_count"]


def test_a_computed_count_of_requests_is_no_sign_of_the_requests_sent():
    assert _signs(["# - One FULL SET S = G × P = 150 × 5 = 750 requests"], "prompts") == []
    assert _signs(["# num_prompts_per_group P = 3 → One FULL SET S = G * P = 83 * 3 = 249 requests"], "prompts") == []


def test_a_count_of_requests_written_plainly_is_still_a_sign():
    assert _signs(["The set has S = 750 requests."], "prompts") == [1]  # assigned, not computed
    assert _signs(["The set holds 750 requests."], "prompts") == [1]


def test_one_pods_gpus_beside_every_pods_are_per_replica():
    line = (
        "The setup uses 4 vLLM pods running the `meta-llama/Llama-3.1-70B-Instruct` model, each with 4 H100 GPUs "
        "(Tensor-Parallelism=4)."
    )
    counts = _counts([line])
    assert (16, "all GPUs") in counts and (4, "per replica") in counts
    assert all(scope != "scope not stated" and scope is not None for _, scope in counts)


def test_a_device_count_without_pods_keeps_no_replica_scope():
    assert all(scope != "per replica" for _, scope in _counts(["The server runs on 4 H100 GPUs."]))
