"""The tracking chapter's logic without a notebook: `analyse` on the seed series and on two more real
series, the answer it gives as a sentence, the page (each claim once, withheld steps folded) and the
exercise recomputed from the number of runs."""

from __future__ import annotations

from math import comb

import pytest

from benchbook.chapter import setup
from benchbook.claims import rules
from benchbook.presentation import bottom_line, exercises, placement
from benchbook.topics import tracking as topic

SEED = "data/series/strix_halo_gpt_oss_20b/vulkan_radv_fa1"
GLM = "data/series/strix_halo_glm45_air_q6"


def run(source: str, **params):
    return topic.analyse(setup("tracking", {"source": source, **params}))


@pytest.fixture(scope="module")
def seed():
    return run(SEED)


def test_the_seed_answers_in_a_sentence_with_the_change_its_size_and_p(seed):
    led = seed.ledger
    assert rules.check(led.to_dict()) == []
    c = led.get("changes")
    assert c.shown and c.evidence["count"] == 1 and c.evidence["run"] == "b6486.log"
    box = bottom_line.box(led)
    assert box.startswith(
        "- The prompt-processing rate changed level once in these 8 runs, just before b6486.log: from 729.8 to"
        " 1,436 tok/s (1.97 x). Of random orders of the same values, only a share p = 0.036"
    )  # levels at four figures, grouped as every number in prose (".4g" printed 1436, and 1.2e+04 past 9,999)
    assert "1 change in level over 8 runs at alpha 0.05" not in box  # a sentence, not a tally
    # the answer, then its caveat on one line: the 5 runs after the change are too few to test, though they climb
    answer, caveat = box.split("\n")
    assert caveat.startswith("- *Caveat:* The 5 runs from b6486.log to b8743.log are too few for the test")
    assert "(no order of 5 runs gives p below 0.2)" in caveat and "from 1,204 to 1,574 tok/s" in caveat
    assert seed.smallest_p == pytest.approx(1 / 35)


def test_the_seed_page_says_each_claim_once_and_folds_the_steps_inside_the_noise(seed):
    page = topic.page(seed)
    body = bottom_line.box(seed.ledger) + "\n".join(page.markdown.values())
    for c in seed.ledger.claims:
        if c.shown:  # the box gives a caveat on its own line after the answer: each said once
            answer = c.text[: -len(c.caveat)].rstrip() if c.caveat else c.text
            assert body.count(answer) == 1 and (not c.caveat or body.count(c.caveat) == 1), c.id
    folded = page.markdown["withheld"]
    assert (
        folded.startswith(f":::{{admonition}} {placement.FOLDED_TITLE}") and folded.count("\n- ") == 4
    )  # four steps inside the spread
    assert set(page.figures) == {"fig_series", "fig_smallest_p"}
    assert page.texts["smallest_p_words"] == "0.029" and (page.texts["fewest_05"], page.texts["fewest_01"]) == (
        "8",
        "10",
    )


def test_at_alpha_001_eight_runs_cannot_show_the_change():
    r = run(SEED, alpha=0.01)
    c = r.ledger.get("changes")
    assert c.status == "withheld" and "no order of the values can give a p-value below 0.029" in c.text
    assert r.ledger.get("step_3").shown  # the steps do not depend on alpha


def test_four_runs_of_another_model_cannot_show_a_change_at_all():
    r = run(f"{GLM}/vulkan_radv")
    c = r.ledger.get("changes")
    assert len(r.runs) == 4 and c.status == "withheld" and "below 0.33" in c.text
    # the bottom line gives the answer the page can give (a step beyond both runs' spread), not the withheld test
    assert bottom_line.box(r.ledger).startswith(
        "- Against b6182.log, b6486.log gives 1.644 x the prompt-processing rate"
    )


def test_a_series_on_another_backend_reads_and_judges_its_steps():
    r = run(f"{GLM}/rocm7_rc")
    assert rules.check(r.ledger.to_dict()) == []
    page = topic.page(r)
    assert page.texts["n_runs"] == str(len(r.runs)) and "(s)" not in " ".join(page.markdown.values())


def test_the_exercise_predicts_the_floor_of_the_split_the_change_makes(seed):
    first, step = exercises.tracking(seed.ledger)
    # the seed's change comes after 3 of its 8 runs: p >= 2 / C(8, 3), the p the test found (exactly)
    (change,) = seed.changes
    n, a = len(seed.runs), change.index
    assert f"2 / C({n}, {a}), 2 out of {comb(n, a)}" in first.steps[1]
    assert change.p_value == pytest.approx(2 / comb(n, a)) and "the floor itself" in first.steps[2]
    # the step nearest one spread: b7423 -> b7670, +2.4% against 4.1%, within the noise
    ev = seed.ledger.get("step_5").evidence
    assert f"{ev['a'] / ev['b']:.3f}" in step.steps[0] and seed.ledger.get("step_5").status == "withheld"
    assert f"{abs(ev['a'] / ev['b'] - 1) / ev['noise']:.2f} spreads: less than one" in step.steps[1]


def test_a_metric_no_run_reports_is_one_sentence():
    from benchbook.parameters import ParameterError

    with pytest.raises(ParameterError, match=r"^no run reports metric 'nope'"):
        run(SEED, metric="nope")


def test_the_lesson_figure_draws_the_formula_and_reads_at_the_page_size(seed):
    from benchbook.presentation.plotting import MIN_TEXT_PX, overlaps, readable

    fig = topic.page(seed).figures["fig_smallest_p"]
    x, y = fig.axes[0].lines[0].get_data()
    assert list(y) == pytest.approx([2 / comb(int(n), int(n) // 2) for n in x])
    assert readable(fig) >= MIN_TEXT_PX and overlaps(fig) == []
    assert [t.get_text() for t in fig.axes[0].get_yticklabels()] == ["0.001", "0.01", "0.05", "0.3"]  # plain


def test_a_metric_is_named_in_words_where_the_wording_file_knows_it_and_as_its_column_otherwise(seed):
    """The bottom line read "The pp_rate changed level": a column name where a sentence wants a
    quantity. A metric the wording file does not name stays the column, in code."""
    from benchbook.claims import Claim
    from benchbook.presentation import wording

    assert seed.ledger.get("changes").text.startswith("The prompt-processing rate changed level once")
    c = seed.ledger.get("changes")
    odd = Claim(c.id, c.kind, c.status, c.rule, {**c.evidence, "metric": "e2el"})
    assert wording.word("tracking", odd).text.startswith("The `e2el` changed level once")
