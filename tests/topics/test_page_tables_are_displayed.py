"""A chapter's table appears where its cell asks for it (`Page.show`), whether its callable returns
the table or displays it itself: the attention and quantization chapters' callables return a
Styler, and `Page.show` dropped it, so their pages showed none of their tables (#34)."""

from __future__ import annotations

import pandas as pd

from benchbook.claims import Ledger
from benchbook.topics import Page


def test_a_returned_table_is_displayed_and_a_self_displayed_one_once(capsys):
    from IPython.display import display

    frame = pd.DataFrame({"regime": ["decode_bound"], "recommended": ["w8a8_smooth_gptq"]})
    page = Page(
        Ledger("quantization_regimes", []),
        tables={"returned": lambda: frame, "itself": lambda: display(frame), "none": lambda: None},
    )
    page.show("returned")
    assert capsys.readouterr().out.count("w8a8_smooth_gptq") == 1
    page.show("itself")
    assert capsys.readouterr().out.count("w8a8_smooth_gptq") == 1
    page.show("none")
    assert capsys.readouterr().out == ""


def test_a_callable_that_returns_a_list_is_refused_not_printed_as_one():
    import pytest
    from IPython.display import display

    frame = pd.DataFrame({"run": ["c=8"]})
    page = Page(Ledger("serving_saturation", []), tables={"each": lambda: [display(frame), display(frame)]})
    with pytest.raises(TypeError, match="not a list"):
        page.show("each")


def test_every_table_of_the_serving_chapter_displays_itself_and_prints_nothing_else(capsys):
    from benchbook.chapter import setup
    from benchbook.topics import serving_saturation as topic

    pg = topic.page(topic.analyse(setup("serving_saturation", {})))
    for name in pg.tables:
        pg.show(name)
    assert "[None" not in capsys.readouterr().out
