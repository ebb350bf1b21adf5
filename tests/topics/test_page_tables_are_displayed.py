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
