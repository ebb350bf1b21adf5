"""A page says each sentence once (#34): runs whose figures read alike (three AIPerf runs, each with 0% of its
requests within the page's SLOs and nothing else to say) are named in one sentence, "Runs `a`, `b` and `c`,
each: ..."; runs whose figures differ keep a sentence each."""

from benchbook import config
from benchbook.analysis import serving
from benchbook.presentation import serving as show

PREFILL = config.FIXTURES_DIR / "aiperf" / "aiperf_docs_prefill_concurrency_three_runs.md"
MULTI = config.FIXTURES_DIR / "genai-perf" / "perf_analyzer_docs_multi_modal.md"


def _figures(path) -> str:
    r, _ = serving.load([path])
    lit = serving.littles_law(r)
    return show.figures_sentence(lit, serving.goodput_bounds(lit, 450.0, 40.0), 450.0, 40.0)


def test_runs_with_the_same_figures_are_said_in_one_sentence():
    text = _figures(PREFILL)
    assert text.count("of its requests within both") == 1
    assert text.startswith("Runs `") and "`, each: 0% of its requests" in text and " and `" in text


def test_runs_with_other_figures_keep_a_sentence_each():
    text = _figures(MULTI)
    assert text.count("Run `") == 2 and "Runs `" not in text and "each:" not in text
