"""A count typed with an asterisk before a part's code (`tested on 8 * MI300x`) states that many of the part,
as `8x` and `8×` do (stop 49, issue #35 classes 1 and 3: a recipe's `tested on 8 * MI300x` was read as one
MI300X, and every share of a peak set against one GPU)."""

import pytest

from benchbook.ingest import context


def _read(line: str) -> tuple:
    ctx = context.read([line])
    return tuple(f.value for f in ctx.get("device")), tuple(f.value for f in ctx.get("device_count"))


@pytest.mark.parametrize(
    ("line", "device", "count"),
    [
        (" - tested on 8 * MI300x", "MI300x", 8),
        ("tested on 4*H100 over NVLink", "H100", 4),
        (" - tested on 8x MI300x", "MI300x", 8),  # the sign as before
    ],
)
def test_a_count_and_an_asterisk_before_a_part_state_that_many(line, device, count):
    assert _read(line) == ((device,), (count,))


@pytest.mark.parametrize(
    "line",
    [
        "the batch is 8 * 4096 tokens",  # a product of numbers names no part
        "2 * a faster kernel",  # a factor before words
    ],
)
def test_an_asterisk_between_numbers_or_words_states_no_part(line):
    assert _read(line) == ((), ())
