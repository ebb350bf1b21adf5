"""A text's context (`ingest.context_of_text`, what `analysis.roofline.named` reads a device from) is
read once inside `ingest.once()`, and taken from the file's own reading where the text is the file's
as `Path.read_text` gives it: a report's chapters ask for it after the report read every file."""

from __future__ import annotations

import pytest

from benchbook import config, ingest
from benchbook.ingest import context

GYM = config.FIXTURES_DIR / "attention-gym" / "rtx4090_flex_attn_noop.md"


@pytest.fixture
def reads(monkeypatch) -> list:
    done: list = []
    real = context.read
    monkeypatch.setattr(context, "read", lambda lines: done.append(1) or real(lines))
    return done


def test_a_files_text_takes_the_context_read_with_the_file(reads):
    text = GYM.read_text(encoding="utf-8")
    with ingest.once():
        ingest.context_of(GYM)
        assert len(reads) == 1
        assert ingest.context_of_text(text) == context.read(text.splitlines())
        assert len(reads) == 2  # the comparison's own read only
        ingest.context_of_text(text)
        assert len(reads) == 2


@pytest.mark.parametrize(
    "written",
    ["GPU: H100\nrun 1\n", "GPU: H100\r\nrun 1\r\n", "GPU: H100\x0crun 1\n"],
    ids=["lines", "crlf", "a form feed: a line break to splitlines only"],
)
def test_a_text_whose_lines_are_not_the_files_is_read_on_its_own(tmp_path, reads, written):
    path = tmp_path / "run.md"
    path.write_bytes(written.encode())
    text = path.read_text(encoding="utf-8")  # universal newlines: \r\n read as \n
    with ingest.once():
        ingest.context_of(path)
        got = ingest.context_of_text(text)
    assert got == context.read(text.splitlines())
    shared = "\x0c" not in written
    assert len(reads) == (1 if shared else 2) + 1  # the file's, the text's where not shared, the comparison's


def test_outside_once_a_text_is_read_each_time(reads):
    ingest.context_of_text("GPU: H100\n"), ingest.context_of_text("GPU: H100\n")
    assert len(reads) == 2
