"""Reading a file as lines without its whole text (issue 21): the lines, the UTF-8 errors and every
parser's result are the same as from the text read whole."""

from __future__ import annotations

import json
import re

import pandas as pd
import pytest

from benchbook import config, ingest
from benchbook.ingest import ParseError, llama_bench, text
from benchbook.ingest.text import read_lines, split_n, whole

FIXTURES = config.PROJ_ROOT / "tests" / "fixtures"

TEXTS = [
    "",
    "\n",
    "a",
    "a\n",
    "a\n\n",
    "a\r\nb\rc\n",
    "\r",
    "x\r",
    "a\n\rb",
    "±é❯\nüber\r\n\r\n€🥇",
    "\ufeffx\ny",
    "  \n\n {\n",
]


@pytest.fixture(params=[3, 1 << 22], ids=["3-byte chunks", "4 MB chunks"])
def chunk(request, monkeypatch):
    """Read in tiny chunks too, so that a \\r\\n or a multi-byte character falls across two."""
    monkeypatch.setattr(text, "_CHUNK", request.param)


@pytest.mark.parametrize("s", TEXTS)
def test_lines_are_the_text_split(s, chunk, tmp_path):
    f = tmp_path / "t.txt"
    f.write_bytes(s.encode())
    lines = read_lines(f)
    norm = s.replace("\r\n", "\n").replace("\r", "\n")
    assert list(split_n(lines)) == norm.split("\n")
    assert list(lines) == [lines[i] for i in range(len(lines))] == norm.splitlines()
    assert lines[-1:] == norm.splitlines()[-1:]
    assert whole(lines) == norm
    assert text.first_char(lines) == s.lstrip()[:1]
    assert text.head(lines, 3) == norm[:3]


@pytest.mark.parametrize("s", TEXTS)
def test_lines_sent_to_another_process_are_the_same_lines(s, tmp_path):
    import pickle

    f = tmp_path / "t.txt"
    f.write_bytes(s.encode())
    lines = read_lines(f)
    for sent in (lines, split_n(lines)):  # a last empty line after a final line end, too
        back = pickle.loads(pickle.dumps(sent))
        assert list(back) == list(sent) and len(back) == len(sent) and whole(back) == whole(sent)


@pytest.mark.parametrize(
    "data, line, byte",
    [
        (b"abc\n\xffx", 2, 0xFF),
        (b"\n\n\n\xe2\x82", 4, 0xE2),  # cut short at the end
        (b"ab\n\xe2\x82\x28", 2, 0xE2),
        (b"ok\nok\nok\x80", 3, 0x80),
        (b"\x00\x01\xfe binary", 1, 0xFE),
    ],
)
def test_invalid_utf8_names_file_line_and_byte(data, line, byte, chunk, tmp_path):
    f = tmp_path / "bad.txt"
    f.write_bytes(data)
    with pytest.raises(ParseError) as err:
        read_lines(f)
    assert str(err.value) == f"bad.txt:{line}: not UTF-8 text (byte {byte:#04x})"


def test_valid_utf8_is_not_refused(tmp_path):
    f = tmp_path / "ok.txt"
    f.write_bytes("❯ 16634.04 ± 97.98\n".encode() * 3)
    assert len(read_lines(f)) == 3


def test_the_search_of_a_sniffer_spans_pieces(tmp_path):
    """A pattern on the last lines of one piece and the first of the next is found; one that is
    not in the file is not."""
    f = tmp_path / "t.txt"
    f.write_text("x\n" * 4094 + "batch_size |\nmsec/token\n" + "y\n" * 5000)
    lines = read_lines(f)
    assert text.search(re.compile(r"batch_size \|\nmsec"), lines)
    assert not text.search(re.compile(r"batch_size \|\ny"), lines)
    assert text.contains("msec/token", lines)
    assert not text.contains("tokens/sec", lines)


def _frames(parsed):
    return [(p.tool, p.table.reset_index(drop=True), p.rejected.reset_index(drop=True), p.messages) for p in parsed]


@pytest.mark.parametrize(
    "path",
    [
        *config.SEEDS.values(),
        FIXTURES / "llama-bench" / "llamacpp_readme_b1275.json",
        FIXTURES / "llama-bench" / "llamacpp_readme_b1275.jsonl",
        FIXTURES / "llama-bench" / "llamacpp_readme_b5163.csv",
        FIXTURES / "llama-bench" / "mi210_rocm.json",
    ],
    ids=lambda p: p.name,
)
def test_every_parser_reads_the_lines_as_the_text(path):
    """read_parsed (the file's lines) gives what each parser gives for the text read whole."""
    raw = path.read_text(encoding="utf-8")
    by_lines = ingest.read_parsed(path)
    assert [p.tool for p in by_lines] == ingest.detect(raw)
    by_text = [ingest.tools()[p.tool].parse(raw, path.name) for p in by_lines]
    for (t1, tab1, rej1, msg1), (t2, tab2, rej2, msg2) in zip(_frames(by_lines), _frames(by_text), strict=True):
        assert t1 == t2
        pd.testing.assert_frame_equal(tab1, tab2)
        pd.testing.assert_frame_equal(rej1, rej2)
        assert msg1 == msg2


def _llama_record(ts: float, n_prompt: int = 512) -> dict:
    return {
        "build_commit": "233d773d0",
        "build_number": 6413,
        "model_type": "llama 7B Q4_0",
        "n_prompt": n_prompt,
        "n_gen": 0,
        "avg_ts": ts,
        "stddev_ts": 1.5,
    }


def test_llama_json_split_by_blank_lines_is_read_whole(tmp_path):
    """A JSON array with blank lines inside it is one value: its span of lines grows until it
    parses, and its line numbers are those of the file."""
    body = json.dumps([_llama_record(100.0), _llama_record(200.0, 1024)], indent=2).replace("},", "},\n\n")
    doc = "# run\n\n" + body + "\n"
    f = tmp_path / "run.json"
    f.write_text(doc)
    got = ingest.read_parsed(f, "llama-bench")[0]
    want = llama_bench.parse(doc, "run.json")
    assert sorted(got.table["value"].dropna()) == [1.5, 1.5, 100.0, 200.0]
    pd.testing.assert_frame_equal(got.table, want.table)
    first = doc.splitlines().index('    "avg_ts": 200.0,') + 1
    assert first in set(got.table["line"])


def test_llama_json_cut_short_is_reported_as_before(tmp_path):
    """An object cut short: its numbers are rejected with their lines, and the message is the one
    the whole text gives."""
    rec = json.dumps(_llama_record(300.0), indent=2)
    doc = "intro\n" + rec[: rec.index('"stddev_ts"')] + "\n\nlater prose\n"
    f = tmp_path / "cut.json"
    f.write_text(doc)
    got = ingest.read_parsed(f, "llama-bench")[0]
    want = llama_bench.parse(doc, "cut.json")
    assert got.messages == want.messages and "does not parse" in got.messages[0]
    pd.testing.assert_frame_equal(got.rejected, want.rejected)
    assert list(got.rejected["line"]) == [doc.splitlines().index('  "avg_ts": 300.0,') + 1]


def test_lines_hold_about_the_file_not_its_decoded_text(tmp_path):
    """The lines of a file with characters outside Latin-1 take about its size in bytes, not the
    2x of its decoded text nor the 1.8x of one string per line (issue 21)."""
    import tracemalloc

    f = tmp_path / "big.txt"
    f.write_text("| llama 7B Q4_0 | 99 | pp512 | 16634.04 ± 97.98 | ❯\n" * 100_000, encoding="utf-8")
    size = f.stat().st_size
    tracemalloc.start()
    try:
        lines = read_lines(f)
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(lines) == 100_000 and lines[99_999].endswith("❯")
    assert held < 1.3 * size, held / size


def test_a_row_reads_as_its_record():
    from benchbook.ingest.rows import row, row_type

    kind = row_type({"model": "str", "pass": "str"})
    r = row(kind, {"line": 3, "model": "m", "metric": "x", "value": 1.5, "unit": "ms"})
    assert r.get("model") == "m" and r["line"] == 3 and r.get("pass") is None and r.get("note") is None
    assert r.get("nosuch", "d") == "d"
    assert tuple(r) == (3, "m", None, "x", None, 1.5, "ms", None)
