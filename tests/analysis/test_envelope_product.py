"""The back-of-envelope ratio of the last run to the first, from its step-to-step ratios."""

from benchbook.analysis import envelope


def test_the_ratio_of_the_ends_is_the_product_of_the_steps():
    assert envelope.product([2.0, 1.5, 0.5]) == 1.5
    assert envelope.product([]) == 1.0  # no step: the run against itself
