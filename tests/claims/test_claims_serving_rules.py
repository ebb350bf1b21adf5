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
