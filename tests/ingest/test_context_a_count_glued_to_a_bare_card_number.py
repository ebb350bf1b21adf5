"""A count glued to a GeForce card's bare model number (`8x3090`, `2x 5090`, `4 x 3090`) states that many of
the card (stop 48, issue #35 class 3: a title's `8x3090` above an 8-GPU llama-bench run was read as no device)."""

import pytest

from benchbook.ingest import context


def _read(line: str) -> tuple:
    ctx = context.read([line])
    return tuple(f.value for f in ctx.get("device")), tuple(f.value for f in ctx.get("device_count"))


@pytest.mark.parametrize(
    ("line", "device", "count"),
    [
        ("Did some tests as well (8x3090)", "RTX 3090", 8),
        ("# [bench] 2x 5090 / glm-5.3-flash", "RTX 5090", 2),
        ("# [bench] 4 x 3090 WRX80 llama-cpp-DeepSeek-V4-Flash", "RTX 3090", 4),
        ("ran on 8x RTX 3090", "RTX 3090", 8),  # the card named in full: the count before it, as before
        ("1x 3090 only", "RTX 3090", 1),
    ],
)
def test_a_count_glued_to_a_card_number_states_that_many_of_the_card(line, device, count):
    assert _read(line) == ((device,), (count,))


@pytest.mark.parametrize(
    "line",
    [
        "2x faster than before",  # a multiplier before a word
        "a 3x speedup over the 3090 numbers",  # a number with no count glued to it
        "rendered at 1920x1080",  # a resolution: the count is no count
        "8x4096 tokens",  # a number no card has
    ],
)
def test_a_multiplier_or_a_number_no_card_has_states_no_device(line):
    assert _read(line) == ((), ())


def test_two_cards_set_side_by_side_are_signs_not_the_runs():
    ctx = context.read(["2x 3090 vs 1x 5090"])
    assert not ctx.get("device") and any(s.name == "device" for s in ctx.signs)
