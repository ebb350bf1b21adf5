"""A `benchbook run` page is a one-chapter book: its links to other chapters must print their
titles, as the book and the report do, not their file names (which Sphinx shows for a page it
cannot find)."""

import json

from benchbook import declarations
from benchbook.single_page import titled_links


def _notebook(text: str) -> str:
    return json.dumps({"cells": [{"cell_type": "markdown", "source": [text]}]})


def test_a_bare_link_to_a_chapter_gets_its_title():
    out = json.loads(titled_links(_notebook("**Next:** {doc}`bandwidth_roofline`.")))
    title = declarations.chapter("bandwidth_roofline").title
    assert out["cells"][0]["source"][0] == f"**Next:** {{doc}}`{title} <bandwidth_roofline>`."


def test_a_link_with_its_own_title_or_to_no_chapter_is_kept():
    text = "{doc}`The roofline in one page <../book/roofline_in_one_page>`; {doc}`glossary`"
    assert json.loads(titled_links(_notebook(text)))["cells"][0]["source"][0] == text
