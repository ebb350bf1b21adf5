"""A sentence naming two different wattages that no processor ties apart gives no one power reading of
the run (a limit of another rig and the draw after a move, llama.cpp PR 7314): it is a sign the page
names by its line. One wattage, the same wattage twice, or each wattage tied to its processor read."""

from __future__ import annotations

import pytest

from benchbook.ingest import context

P40 = (
    "@JohannesGaessler Looks like you were right and there was something power limiting the P40s in my main "
    "rig to around 70W.  I've moved them to the secondary and now they're >200W during these tests."
)


def test_two_wattages_are_a_sign_not_a_reading():
    facts = context.read([P40])
    assert not facts.get("power") and not facts.get("power_limit")
    assert [s.line for s in facts.signs if s.name == "power"] == [1]


@pytest.mark.parametrize(
    ("line", "watts"),
    [
        ("Consumed around 153W on the single node.", 153.0),
        ("Power draw 350 W (350W at the wall meter).", 350.0),  # one wattage, twice
        ("Now both the CPU at 1.9W and the GPU at 2.4W are at 100% and :", 1.9),  # each tied to a processor
    ],
)
def test_one_wattage_or_each_tied_to_a_processor_is_a_reading(line, watts):
    assert [f.value for f in context.read([line]).get("power")] == [watts]
