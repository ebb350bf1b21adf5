"""A measured value that is not zero never prints as 0 (stop 49: "The best run (rate=4) does 0 TFLOP/s" for
0.32 TFLOP/s): under the last decimal `num` shows, it takes two significant figures; a zero stays 0 and
a value the decimals show is printed as before."""

import pytest

from benchbook.presentation import wording


@pytest.mark.parametrize(
    ("value", "digits", "text"),
    [(0.324, 0, "0.32"), (0.004, 1, "0.004"), (-0.2, 0, "-0.2")],
)
def test_a_value_under_the_last_decimal_shown_takes_significant_figures(value, digits, text):
    assert wording._num(value, digits) == text


@pytest.mark.parametrize(
    ("value", "digits", "text"),
    [(0, 0, "0"), (0.0, 1, "0.0"), (12345.6, 0, "12,346"), (86.2, 0, "86"), (0.5, 1, "0.5")],
)
def test_a_zero_or_a_value_the_decimals_show_prints_as_before(value, digits, text):
    assert wording._num(value, digits) == text
