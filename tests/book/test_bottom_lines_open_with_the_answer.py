"""The answer first, in every chapter's bottom line (issue #34 item 6): the box opens with a shown
finding whose first sentence carries its number, never with a caveat, a rule the reader has not
been given, or a withheld claim; the answer is one or two sentences (three where a chapter asks two
questions); a caveat stands on one line after all the answers. Checked on each chapter's own data,
and shown failing on boxes that break it."""

from __future__ import annotations

import importlib
import re

import pytest

from benchbook.chapter import setup
from benchbook.declarations import CHAPTERS, Box
from benchbook.presentation import bottom_line

#: How a sentence opens when it is not an answer: a caveat, a rule not yet given, a withheld claim.
NOT_AN_ANSWER = re.compile(
    r"^(\*?Caveat|\*?Withheld|\*?Warning|A confound|By this rule|This verdict|That verdict|However|Note\b|But\b)",
    re.I,
)
NUMBER = re.compile(r"\d")
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`*(\"'])")


def answer_first_problems(box: str, most: int = Box().sentences) -> list[str]:
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
    answers = [b for b in bullets if not b.startswith(("*Caveat:*", "*Withheld:*", "*Warning:*"))]
    if caveats and any(bullets.index(a) > caveats[0] for a in answers):
        out.append("a caveat before an answer")
    if (n := sum(len(SENTENCE_END.split(a)) for a in answers)) > most:
        out.append(f"{n} answer sentences")
    return out


@pytest.mark.parametrize("chapter", sorted(c.name for c in CHAPTERS if c.box.leads))
def test_every_chapters_bottom_line_opens_with_its_answer(chapter):
    p = setup(chapter, {})
    ledger = importlib.import_module(f"benchbook.topics.{chapter}").analyse(p).ledger
    box = bottom_line.box(ledger)
    most = bottom_line.box_of(chapter).sentences
    assert answer_first_problems(box, most) == [], box


def test_the_answer_first_check_fails_a_box_that_opens_with_a_caveat_or_a_rule():
    answer = "- In all 7 regimes, w8a8 is 1.25 to 1.45x faster than bf16: it halves the bytes."
    assert answer_first_problems(answer + "\n- *Caveat:* each scheme ran on its own GPU.") == []
    assert answer_first_problems("- A confound the comparisons carry: each scheme ran on its own GPU.\n" + answer)
    assert answer_first_problems("- By this rule, the knee is at 128.")
    assert answer_first_problems("- *Withheld:* No knee: one load only.")
    assert answer_first_problems("- Throughput stops paying early, where the server is full.")  # no number
    assert answer_first_problems(answer + "\n- *Caveat:* a.\n- *Caveat:* b.") == ["more than one caveat line"]


def test_the_answer_first_check_fails_three_answer_sentences_or_a_caveat_between_answers():
    one = "- At batch 512 it reaches 95% of its peak."
    two = "- From batch 1 to 64 a call takes 2.4 s: the step time is a fixed cost."
    assert answer_first_problems(f"{one}\n{two}\n- *Caveat:* That batch is fragile.") == []
    assert answer_first_problems(f"{one}\n- *Caveat:* That batch is fragile.\n{two}") == ["a caveat before an answer"]
    three = "- TP 2 turns at batch 1. The larger the batch, the later the turn. At batch 1: 17.56 ms on TP 2."
    assert answer_first_problems(three) == ["3 answer sentences"]
    assert answer_first_problems(three, most=3) == []  # a chapter that asks two questions
    assert answer_first_problems(f"{one}\n{two} Then a third.") == ["3 answer sentences"]
