"""The answer first, in every chapter's bottom line (issue #34 item 6): the box opens with a shown
finding whose first sentence carries its number, never with a caveat, a rule the reader has not
been given, or a withheld claim; a caveat stands on one line after an answer. Checked on each
chapter's own data, and shown failing on boxes that break it."""

from __future__ import annotations

import importlib
import re

import pytest

from benchbook.chapter import setup
from benchbook.presentation import bottom_line

#: How a sentence opens when it is not an answer: a caveat, a rule not yet given, a withheld claim.
NOT_AN_ANSWER = re.compile(
    r"^(\*?Caveat|\*?Withheld|\*?Warning|A confound|By this rule|This verdict|That verdict|However|Note\b|But\b)",
    re.I,
)
NUMBER = re.compile(r"\d")


def answer_first_problems(box: str) -> list[str]:
    """What keeps a box's Markdown from opening with its answer."""
    lines = [line for line in box.splitlines() if line.strip()]
    if not lines:
        return ["the box is empty"]
    bullets = [line.removeprefix("- ").strip() for line in lines]
    first = bullets[0]
    out = []
    if NOT_AN_ANSWER.match(first):
        out.append(f"opens with {first[:40]!r}, not the answer")
    if not NUMBER.search(re.split(r"(?<=[.!?])\s", first, maxsplit=1)[0]):
        out.append(f"its first sentence holds no number: {first[:60]!r}")
    caveats = [i for i, b in enumerate(bullets) if b.startswith("*Caveat:*")]
    if len(caveats) > 1:
        out.append("more than one caveat line")
    return out


@pytest.mark.parametrize("chapter", sorted(bottom_line.PRIORITY))
def test_every_chapters_bottom_line_opens_with_its_answer(chapter):
    p = setup(chapter, {})
    ledger = importlib.import_module(f"benchbook.topics.{chapter}").analyse(p).ledger
    box = bottom_line.box(ledger)
    assert answer_first_problems(box) == [], box


def test_the_answer_first_check_fails_a_box_that_opens_with_a_caveat_or_a_rule():
    answer = "- In all 7 regimes, w8a8 is 1.25 to 1.45x faster than bf16: it halves the bytes."
    assert answer_first_problems(answer + "\n- *Caveat:* each scheme ran on its own GPU.") == []
    assert answer_first_problems("- A confound the comparisons carry: each scheme ran on its own GPU.\n" + answer)
    assert answer_first_problems("- By this rule, the knee is at 128.")
    assert answer_first_problems("- *Withheld:* No knee: one load only.")
    assert answer_first_problems("- Throughput stops paying early, where the server is full.")  # no number
    assert answer_first_problems(answer + "\n- *Caveat:* a.\n- *Caveat:* b.") == ["more than one caveat line"]
