"""The devices a device line spans: the count on its own line, and never zero devices."""

from benchbook.analysis import roofline
from benchbook.ingest.context import Context, Fact


def _count(n: int) -> int:
    text = f"{n} x H100"
    ctx = Context(facts=(Fact("device_count", n, 3, "prose", text), Fact("device", "H100", 3, "prose", text)))
    return roofline._count(ctx, ctx.facts[1])


def test_a_count_on_the_device_s_line_is_the_devices_used():
    assert _count(4) == 4


def test_a_count_of_zero_is_no_count_and_the_run_has_one_device():
    assert _count(0) == 1
