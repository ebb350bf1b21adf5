"""The TGI chapter's device sentence says why no device's peaks are used after looking at the whole
file: a device the input names that is several rows of the hardware table (`### A100`) is named with
its line, never called unnamed; only where the input names none does it say so."""

from __future__ import annotations

from benchbook.presentation import tp as view

FAMILY = {
    "device": None,
    "said": {
        "device_family": "A100",
        "device_family_line": 5,
        "device_family_rows": ["A100-SXM4-80GB", "A100-PCIe-80GB"],
    },
}


def test_a_named_family_is_said_with_its_line_and_not_as_unnamed():
    said = view.device_sentence(FAMILY)
    assert "names A100 (line 5)" in said and "Neither the input" not in said
    # the figure's caption leaves why to that sentence: the reason is said once on the page (issue 34)
    caption = view.caption("roofline", True, FAMILY)
    assert "no roof is drawn" in caption and "A100" not in caption and "says why" in caption


def test_an_input_that_names_no_device_is_said_to_name_none():
    assert view.device_sentence({"device": None, "said": {}}).startswith("Neither the input")
    assert "neither the input" not in view.caption("roofline", True, {"device": None, "said": {}}).lower()


def test_a_name_the_table_lacks_keeps_the_sentence_that_the_table_knows_none():
    unlisted = {"device": None, "said": {"device_unlisted": "cuda:0", "device_unlisted_line": 41}}
    assert view.device_sentence(unlisted).startswith("Neither the input")
