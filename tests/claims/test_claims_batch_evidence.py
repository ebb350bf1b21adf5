"""What the batch chapter's claims carry: the bound's dtype, what a flat latency times, the knee's rule."""

import pandas as pd

from benchbook.claims import batch as cb


def test_a_bound_names_the_dtype_of_its_step():
    row = pd.Series(
        dict(
            bandwidth_fraction=0.8,
            compute_fraction=0.1,
            intensity=2.0,
            ridge=150.0,
            batch_size=1,
            dtype="float16",
            framework="vllm",
            step_s=0.02,
            weight_bytes=14e9,
        )
    )
    ev = cb.bound("small", row, None, 0.5).evidence
    assert ev["dtype"] == "float16" and ev["series"] == "vllm float16"
    assert ev["step_ms"] == 20.0 and ev["weight_gb"] == 14.0


def test_a_flat_latency_says_what_the_tool_timed():
    flat = pd.DataFrame({"batch_size": [1, 2, 4], "latency_s": [0.01, 0.01, 0.01]})
    assert cb.latency_flat(flat.assign(timed="decode step")).evidence["timed"] == "decode step"
    assert cb.latency_flat(flat).evidence["timed"] == "generate() call"


def test_a_flat_latency_carries_the_batches_past_it_one_point_per_batch_size():
    flat = pd.DataFrame({"batch_size": [1, 2], "latency_s": [1.0, 1.0], "throughput_tok_s": [100.0, 200.0]})
    past = pd.DataFrame(
        {"batch_size": [8, 4, 8], "latency_s": [2.0, 1.5, 3.0], "throughput_tok_s": [400.0, 266.0, 266.0]}
    )
    ev = cb.latency_flat(flat, past).evidence
    # in batch order, a repeated batch size as its mean: the growth an exercise reads off without a device
    assert ev["past_xs"] == [4, 8] and ev["past_ys"] == [1.5, 2.5] and ev["past_tok_s"] == [266.0, 333.0]
    assert "past_xs" not in cb.latency_flat(flat).evidence  # nothing past the flat range: nothing carried


def test_the_knee_states_its_rule_even_without_a_knee():
    assert cb.knee(None).rule.startswith("the knee is the smallest batch reaching the given fraction of peak")


def test_a_flat_latency_carries_the_throughput_at_both_ends():
    flat = pd.DataFrame({"batch_size": [1, 2, 4], "latency_s": [1.0, 1.0, 1.0], "throughput_tok_s": [10.0, 20.0, 40.0]})
    ev = cb.latency_flat(flat).evidence
    assert (ev["first_tok_s"], ev["last_tok_s"]) == (10.0, 40.0)  # a fixed step time: throughput in proportion


def test_over_cap_names_little_s_law_and_says_why_it_does_not_apply():
    c = cb.over_cap(pd.DataFrame())
    assert c.rule.startswith("Little's law: requests in flight on average = request rate x mean latency")
    assert c.status == "withheld" and not c.applicable
    assert c.reason == "no run prints a concurrency cap with a rate and a mean latency"
