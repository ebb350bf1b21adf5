"""The chapter's "Data set aside: N numbers" note counts numbers: a copy that ends at a section header (no
digit in it) or at a whole row read and marked as the copy's end sets none aside (real: sglang issue 1639,
cut at its `Inter-token Latency` header)."""

from __future__ import annotations

from benchbook import config, ingest

FIX = config.FIXTURES_DIR / "sglang-bench-serving" / "sglang_issue1639_sglang_vs_vllm_063_2000_prompts_cut.md"


def test_a_copy_cut_at_a_section_header_sets_no_number_aside():
    assert ingest.set_aside_note(FIX) is None


def test_a_copy_cut_inside_a_row_sets_that_number_aside(tmp_path):
    path = tmp_path / "cut.md"
    path.write_text(FIX.read_text(encoding="utf-8") + "Mean ITL (ms):                           7\n", encoding="utf-8")
    note = ingest.set_aside_note(path)
    assert note is not None and note.startswith(
        "Data set aside: 1 number of cut.md (1 cut where the copy ends, at line 25"
    )


def test_a_copy_cut_inside_a_headers_dashes_or_before_a_value_sets_no_number_aside(tmp_path):
    # sglang issue 913 ends at `-------`, sglang PR 905 at `Median E2E Latency (ms):` with no value: no digit
    for tail in ("-------\n", "Mean ITL (ms):\n", "Median E2E Latency (ms):\n", "P99 ITL (ms):\n"):
        path = tmp_path / "cut.md"
        text = FIX.read_text(encoding="utf-8")
        path.write_text(text[: text.rindex("---------------Inter")] + tail, encoding="utf-8")
        assert ingest.set_aside_note(path) is None
