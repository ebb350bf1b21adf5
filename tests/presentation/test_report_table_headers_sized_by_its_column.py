"""A report page's text column is wider than the book's: a table whose header words overflow the
book's column but fit the report's keeps its headers whole there ("dtype", not "dtyp / e"); one
that overflows the report's too may still break them, so that it never runs past the column."""

import pandas as pd

from benchbook.presentation import page_html, tables


def _names(width: int, columns: int) -> list[str]:
    """`columns` headers, each one word of `width` characters (room taken: width + 2 each)."""
    return [chr(ord("a") + k) * width for k in range(columns)]


def _whole(names: list[str]) -> bool:
    html = tables.show(pd.DataFrame([[1.0] * len(names)], columns=names)).to_html()
    return 'class="dataframe benchbook-table benchbook-whole-headers"' in page_html.whole_headers(html)


def test_headers_over_the_books_column_but_within_the_reports_are_kept_whole():
    names = _names(7, 9)  # 9 x 9 = 81 characters: over the book's 80, within the report's
    assert sum(len(n) + 2 for n in names) <= page_html.HEADER_CHARS
    assert not tables.header_fits(names)
    assert _whole(names)


def test_headers_over_the_reports_column_may_break():
    names = _names(7, 10)  # 10 x 9 = 90 characters
    assert sum(len(n) + 2 for n in names) > page_html.HEADER_CHARS
    assert not _whole(names)


def test_a_report_page_marks_its_table():
    names = _names(7, 9)
    nb = {
        "cells": [
            {
                "cell_type": "code",
                "source": "",
                "metadata": {"tags": ["remove-input"]},
                "outputs": [
                    {
                        "output_type": "display_data",
                        "data": {"text/html": tables.show(pd.DataFrame([[1.0] * 9], columns=names)).to_html()},
                        "metadata": {},
                    }
                ],
            }
        ]
    }
    assert "benchbook-whole-headers" in page_html.page(nb, "t", {}, {})
