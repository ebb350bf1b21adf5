"""The serving claims state their rules whatever the input holds (the page and the ledger print them)."""

import pandas as pd

from benchbook.claims import serving as cs


def test_a_bound_s_rule_ends_at_the_threshold_it_is_judged_against():
    c = cs.bound("low", None, None, 0.5, False)
    assert c.rule.startswith("memory-bandwidth") and c.rule.endswith("of the threshold")


def test_the_own_limits_rule_is_stated_where_no_run_states_limits():
    c = cs.own_slos(pd.DataFrame(), applies=False)
    assert c.status == "withheld" and not c.applicable
    assert c.rule == (
        "the percentiles the output prints against the limits it states for its own scenario (union bound); "
        "LoadGen checks them in the Server scenario only"
    )


def test_runs_of_several_models_are_not_said_to_lack_the_model_s_size():
    """Two 70B models (the MI355 recipe's FP8-KV and MXFP4 blocks): the roofline sizes one model, so the
    bandwidth claim is withheld for that, never because "the input does not give the model's size"."""
    from benchbook.analysis.roofline import Peaks

    peaks = Peaks(device="X", bandwidth_gb_s=1000.0, tflops={"bf16": 100.0}, source="detected")
    row = pd.Series({"run": "a", "in_flight": 8.0, "bandwidth_fraction": None, "achieved_gb_s": None})
    two = cs.bandwidth(row, peaks, None, 1.0, models=2)
    assert two.status == "withheld" and "the runs are of 2 models" in two.reason
    assert "model's size" not in two.reason and "bytes moved per token" not in two.reason
    one = cs.bandwidth(row, peaks, None, 1.0, models=1)
    assert "the model's size" in one.reason and "models" not in one.reason
