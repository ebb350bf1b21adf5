"""The report's pages without Sphinx (`presentation.page_html`): each role and directive the
chapters use is filled as myst-nb fills it, and one the book does not use is refused, never
printed raw."""

from __future__ import annotations

import matplotlib

matplotlib.use("agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from benchbook.presentation import outputs, page_html  # noqa: E402

P = outputs.GLUE_PREFIX


def _glued(name: str, data: dict) -> dict:
    return {
        "output_type": "display_data",
        "data": {P + k: v for k, v in data.items()},
        "metadata": {"scrapbook": {"name": name, "mime_prefix": P}},
    }


def _nb(markdown: str, *outs, tags=("remove-input",)) -> dict:
    return {
        "cells": [
            {"cell_type": "code", "metadata": {"tags": list(tags)}, "source": "x = 1", "outputs": list(outs)},
            {"cell_type": "markdown", "metadata": {}, "source": markdown},
        ]
    }


GLOSSARY = {"Goodput": "Requests that meet every SLO, per second.", "SLO": "A service-level objective."}


def _page(markdown: str, *outs, chapters=None, tags=("remove-input",)) -> str:
    html = page_html.page(_nb(markdown, *outs, tags=tags), "t", chapters or {}, GLOSSARY)
    return html[html.index("<article") :]


def test_glued_text_loses_its_quotes_and_takes_a_format():
    outs = [_glued("n", {"text/plain": "'1,000 requests'"}), _glued("x", {"text/plain": "2.5"})]
    page = _page("Read {glue:text}`n` at {glue:text}`x:.2f` s.", *outs)
    assert "Read 1,000 requests at 2.50 s." in page


def test_glued_markdown_is_commonmark_inline_and_myst_as_a_block():
    md = _glued("m", {"text/markdown": "**bold** and `code`"})
    block = _glued("b", {"text/markdown": ":::{admonition} Solution\n:class: dropdown\n\n42 W\n:::\n"})
    page = _page("A {glue:md}`m`.\n\n```{glue:md} b\n:format: myst\n```\n", md, block)
    assert "A <strong>bold</strong> and <code>code</code>." in page
    assert '<details class="admonition dropdown"><summary>Solution</summary>' in page and "42 W" in page


def test_an_admonition_without_dropdown_is_a_box_with_its_title():
    page = _page(":::{admonition} Bottom line\n:class: tip bottom-line\n\nThe answer.\n:::\n")
    assert '<div class="admonition tip bottom-line">' in page and "Bottom line</p>" in page
    assert "<details" not in page


def test_a_term_links_to_the_glossary_at_the_foot_which_holds_only_the_terms_used():
    page = _page("Compute {term}`goodput <Goodput>` here.")
    assert '<a class="reference internal" href="#term-Goodput">goodput</a>' in page
    assert 'id="term-Goodput"' in page and "term-SLO" not in page


def test_a_doc_links_only_to_a_chapter_of_the_report():
    page = _page("See {doc}`tp_scaling` and {doc}`The roofline <../book/roofline>`.", chapters={"tp_scaling": "TP"})
    assert '<a class="reference internal" href="tp_scaling.html">TP</a>' in page
    assert '<span class="xref std std-doc">The roofline</span>' in page


def test_a_figure_is_drawn_inline_with_its_caption_and_a_sentence_stands_alone():
    fig, ax = plt.subplots()
    ax.plot([1, 2], [3, 4])
    nb = {"cells": [{"cell_type": "code", "outputs": [_glued("f", {outputs.FIGURE: fig})]}]}
    outputs.draw(nb)  # as the executor draws a chapter's figures at the end of its run
    plt.close(fig)
    page = _page("```{glue:figure} f\n:name: fig-f\n\nThe caption.\n```\n", *nb["cells"][0]["outputs"])
    assert '<figure id="fig-f">' in page and 'src="data:image/svg+xml;base64,' in page
    assert "<figcaption>\n<p>The caption.</p>" in page


def test_a_table_shows_its_html_where_its_cell_stands_and_a_record_shows_nothing():
    table = {"output_type": "display_data", "data": {"text/html": "<table><tr><td>7</td></tr></table>"}}
    record = {"output_type": "display_data", "data": {"application/vnd.benchbook.claims+json": {}}}
    page = _page("After.", table, record)
    assert page.index("<td>7</td>") < page.index("After.")
    assert "claims" not in page


def test_a_removed_cell_shows_nothing_and_the_parameters_cell_its_code():
    table = {"output_type": "display_data", "data": {"text/html": "<b>hidden</b>"}}
    assert "hidden" not in _page("x", table, tags=("remove-cell",))
    assert "x = 1</code></pre>" in _page("x", tags=("parameters",))


@pytest.mark.parametrize("markdown", ["{math}`x`", "```{mermaid}\ngraph\n```\n", "{term}`Nonexistent`"])
def test_a_role_or_directive_the_book_does_not_use_is_refused(markdown):
    with pytest.raises(page_html.PageError):
        _page(markdown)


def test_figures_drawn_by_two_processes_are_the_figures_drawn_by_one():
    def notebook():
        outs = []
        for n in range(3):
            fig, ax = plt.subplots()
            ax.plot([1, 2, 3], [n, 2 * n, 1])
            ax.set_title(f"figure {n}")
            outs.append(_glued(f"f{n}", {outputs.FIGURE: fig}))
        return {"cells": [{"cell_type": "code", "outputs": outs}]}

    with matplotlib.rc_context({"svg.hashsalt": "benchbook"}):
        one, two = notebook(), notebook()
        outputs.draw(one)
        outputs.draw(two, workers=2)
    plt.close("all")
    svgs = [[o["data"][P + "image/svg+xml"] for o in nb["cells"][0]["outputs"]] for nb in (one, two)]
    assert svgs[0] == svgs[1] and len(set(svgs[0])) == 3


def test_figures_are_drawn_by_a_copy_only_where_a_core_is_free(monkeypatch):
    import os

    from benchbook import forked

    forks = []
    fork = os.fork
    monkeypatch.setattr(os, "fork", lambda: forks.append(1) or fork())

    def notebook():
        outs = []
        for n in range(3):
            fig, ax = plt.subplots()
            ax.plot([1, 2, 3], [n, 1, 2 * n])
            outs.append(_glued(f"f{n}", {outputs.FIGURE: fig}))
        return {"cells": [{"cell_type": "code", "outputs": outs}]}

    with matplotlib.rc_context({"svg.hashsalt": "benchbook"}):
        busy, free = notebook(), notebook()
        with forked.cores(1):  # every core at work: this process draws them all
            outputs.draw(busy, workers=2)
        assert forks == []
        with forked.cores(2):
            outputs.draw(free, workers=2)
        assert forks == [1]
    plt.close("all")
    svgs = [[o["data"][P + "image/svg+xml"] for o in nb["cells"][0]["outputs"]] for nb in (busy, free)]
    assert svgs[0] == svgs[1] and len(set(svgs[0])) == 3


def test_a_rubric_in_glued_myst_is_a_heading_outside_the_outline():
    block = _glued("q", {"text/markdown": "```{rubric} Why weight-only int8 loses\n```"})
    page = _page("```{glue:md} q\n:format: myst\n```\n", block)
    assert '<p class="rubric">Why weight-only int8 loses</p>' in page


def test_a_bare_doc_to_a_chapter_outside_the_report_shows_its_title_as_sphinx_does():
    page = _page("Next: {doc}`tp_scaling`.", chapters={})
    assert '<span class="xref std std-doc">Tensor-parallel scaling and its anomalies</span>' in page
    assert ">tp_scaling<" not in page
