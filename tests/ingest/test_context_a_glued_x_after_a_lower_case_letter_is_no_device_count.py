"""A device counted after its name (`H100x8`, `A100-80GBx4`, `MI300X x 8`) puts the multiplication `x` after
a part's code: a digit or a capital. Glued after a lower-case letter the `x` is a letter of a word: a run
label's context variant (`qwen38-27b-q8_0-ctx2 dp4-q8 die0`) names no device and no count of two. A count
written with a space (`rtx4090 x 2`), a `×` or `*`, or glued after a code, is still read."""

from __future__ import annotations

from benchbook.ingest import context


def _facts(line: str) -> dict[str, list]:
    c = context.read([line, "", "| PP | TG | B |"])
    return {n: [f.value for f in c.get(n)] for n in ("device", "device_count")}


def test_a_run_labels_ctx2_is_no_device_and_no_count():
    facts = _facts("# qwen38-27b-q8_0-ctx2 dp4-q8 die0  2026-09-06T19:54:31+00:00")
    assert facts == {"device": [], "device_count": []}


def test_a_code_with_a_glued_x_is_still_counted():
    facts = _facts("# H100x8 run")
    assert facts["device_count"] == [8]


def test_a_spaced_x_after_a_lower_case_name_is_still_counted():
    facts = _facts("# rtx4090 x 2 run")
    assert facts["device_count"] == [2]
