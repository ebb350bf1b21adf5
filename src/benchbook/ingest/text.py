"""A file's text as lines, read without ever holding the whole decoded text (issue 21).

A 200 MB file decoded to one `str` takes 400 MB as soon as one character is outside Latin-1
(CPython stores a string at the width of its widest character), and a list of its lines takes
about 1.8x the file (one object per line). `read_lines` keeps the file's bytes and the offsets of
its lines and decodes a line when a parser reads it. The parsers take either that or a plain string
(tests, stdin): `splitlines`, `split_n` and `whole` give each parser the view it was written
against, `search` / `contains` / `head` what a sniffer looks at.
"""

from __future__ import annotations

import codecs
import csv
import io
import json
import re
from array import array
from bisect import bisect_left
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import numpy as np

from benchbook.ingest.core import ParseError

#: Bytes validated and scanned for line ends at a time. Small enough that the temporaries (a decoded
#: piece, a mask) come and go from the same heap memory: with 4 MB pieces the allocator kept about
#: 0.3x the file after reading it.
_CHUNK = 1 << 20
_BLOCK = 4096


class Lines(Sequence):
    """The lines of a UTF-8 file, split at `\\n`, `\\r\\n` and `\\r`, without their ends. Held as the
    file's bytes and the offsets of its lines (about 1.1x the file); a line is decoded when it is
    read, so no parser needs the whole text as one string. `final_newline` says whether the file
    ended with a line end; `with_last_empty()` is the same lines followed by an empty one (the view of
    `text.split("\\n")`)."""

    def __init__(self, data: bytes, starts: np.ndarray, ends: np.ndarray, final_newline: bool, cr: bool):
        self._data, self._arrays = data, (starts, ends)
        self._starts, self._ends = memoryview(starts), memoryview(ends)
        self._n = self._real = len(ends)
        self.final_newline = final_newline
        self._cr = cr

    def __getstate__(self) -> dict:  # sent from the forked copy that read the file (`ingest.kept`)
        return {k: v for k, v in self.__dict__.items() if k not in ("_starts", "_ends")}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._starts, self._ends = (memoryview(a) for a in self._arrays)

    def with_last_empty(self) -> Lines:
        out = Lines(self._data, *self._arrays, self.final_newline, self._cr)
        out._n += 1
        return out

    def blanked(self, n: int) -> Lines:
        """The same lines with the first `n` made of spaces (each byte but the line ends): what a
        parser sees of a file once lines before its output are set aside, every line keeping its
        number and its place in the bytes."""
        starts, ends = self._arrays
        cut = int(ends[n - 1]) if n else 0
        head = bytes(32 if b not in (10, 13) else b for b in self._data[:cut])
        out = Lines(head + self._data[cut:], starts, ends, self.final_newline, self._cr)
        out._n = self._n
        return out

    def __len__(self) -> int:
        return self._n

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(self._n))]
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError("line index out of range")
        if i >= self._real:
            return ""
        return self._data[self._starts[i] : self._ends[i]].decode()

    def block(self, a: int, b: int) -> str:
        """Lines a to b (0-based, b excluded, within the file) joined by `\\n`, decoded at once."""
        if a >= b:
            return ""
        s = self._data[self._starts[a] : self._ends[b - 1]].decode()
        return s.replace("\r\n", "\n").replace("\r", "\n") if self._cr else s

    def __iter__(self) -> Iterator[str]:
        for a in range(0, self._real, _BLOCK):
            yield from self.block(a, min(a + _BLOCK, self._real)).split("\n")
        if self._n > self._real:
            yield ""


def read_lines(path: Path, name: str | None = None) -> Lines:
    """The lines of a UTF-8 file. Invalid UTF-8 is a ParseError naming the file, the line and the byte."""
    data = path.read_bytes()
    decoder = codecs.getincrementaldecoder("utf-8")()
    for off in range(0, len(data) + 1, _CHUNK):  # validate without holding the decoded text
        chunk = data[off : off + _CHUNK]
        try:
            decoder.decode(chunk, final=off + _CHUNK > len(data))
        except UnicodeDecodeError as exc:  # exc.object: the decoder's pending bytes + this chunk
            pos = off - (len(exc.object) - len(chunk)) + exc.start
            line = data.count(b"\n", 0, pos) + 1
            raise ParseError(name or path.name, line, f"not UTF-8 text (byte {data[pos]:#04x})") from None
    arr = np.frombuffer(data, np.uint8)
    dtype = np.uint32 if len(data) < 2**32 else np.uint64

    def where(byte: int) -> np.ndarray:  # offsets of a byte, piece by piece, in 4 bytes each where they fit
        parts = [(np.flatnonzero(arr[o : o + _CHUNK] == byte) + o).astype(dtype) for o in range(0, len(arr), _CHUNK)]
        return np.concatenate(parts) if parts else np.empty(0, dtype)

    lf = where(10)
    cr = b"\r" in data
    if cr:
        crs = where(13)
        crlf = crs[(crs + 1 < len(arr)) & (arr[np.minimum(crs + 1, len(arr) - 1)] == 10)]
        ends = np.union1d(crs, lf[~np.isin(lf, crlf + 1)])
        nxt = ends + 1 + np.isin(ends, crlf)
    else:
        ends, nxt = lf, lf + 1
    final_newline = len(ends) > 0 and int(nxt[-1]) == len(data)
    if not final_newline and len(data):
        ends = np.append(ends, len(data))
    starts = np.concatenate([np.zeros(1, dtype), nxt[: len(ends) - 1]]).astype(dtype, copy=False)
    return Lines(data, starts, ends.astype(dtype, copy=False), bool(final_newline), cr)


def splitlines(text: str | Lines) -> Sequence[str]:
    """The lines as `text.splitlines()` gives them (a file's lines as read)."""
    return text if isinstance(text, Lines) else text.splitlines()


def split_n(text: str | Lines) -> Sequence[str]:
    """The lines as `text.replace("\\r\\n", "\\n").replace("\\r", "\\n").split("\\n")` gives them
    (a last, empty line after a final line end)."""
    if isinstance(text, Lines):
        return text.with_last_empty() if text.final_newline or not len(text) else text
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def whole(text: str | Lines) -> str:
    """The text as one string, line ends as `\\n`: for the formats that need it whole (one JSON
    document); a plain string is returned as given."""
    if isinstance(text, Lines):
        return text.block(0, len(text._ends)) + ("\n" if text.final_newline else "")
    return text


def blocks(text: str | Lines, size: int = _BLOCK, overlap: int = 8) -> Iterator[str]:
    """The text in pieces of `size` lines joined by `\\n` (consecutive pieces share `overlap` lines,
    so a pattern spanning a few lines is still found): what a sniffer searches, so that it never
    needs the whole text. A plain string is one piece."""
    if not isinstance(text, Lines):
        yield text
        return
    n = len(text._ends)
    for start in range(0, max(n - overlap, 1), size - overlap):
        yield text.block(start, min(start + size, n))


#: A Markdown code fence (CommonMark): its indent, at most three spaces, and its run of backticks or tildes.
FENCE = re.compile(r"^( {0,3})(`{3,}|~{3,})")


def fences(lines: Sequence[str]) -> Iterator[tuple[int, int, int]]:
    """Each fenced code block of a Markdown text, as CommonMark reads it: (its opening fence's line
    index, its closing fence's, the opening fence's indent). A closing fence is a run of the same
    character at least as long, with nothing after it; a block the text ends inside closes at
    `len(lines)`. Only lines that start with a fence's character are looked at closely."""
    opened = None
    for i, line in enumerate(lines):
        if line[:4].lstrip(" ")[:1] not in ("`", "~"):
            continue
        m = FENCE.match(line)
        if not m:
            continue
        if opened is None:
            opened, indent, mark = i, len(m.group(1)), m.group(2)
            continue
        if m.group(2)[0] != mark[0] or len(m.group(2)) < len(mark) or line[m.end() :].strip():
            continue  # not the closing fence of this block
        yield opened, i, indent
        opened = None
    if opened is not None:
        yield opened, len(lines), indent


def fenced_blocks(lines: Sequence[str]) -> Iterator[tuple[int, int, list[str]]]:
    """Each fenced code block (`fences`) with its content, up to the opening fence's indent taken off
    each line. Write-ups quote a tool's output in such a block."""
    for opened, closed, indent in fences(lines):
        yield opened, closed, [re.sub(rf"^ {{0,{indent}}}", "", x) for x in lines[opened + 1 : closed]]


def diff_added(lines: Sequence[str]) -> list[str]:
    """The lines with each line a `diff` fence adds (a unified diff's `+`, as GitHub shows a review
    thread's suggested text) read without its marker: text a write-up quotes as added to a document is
    the document's. Every other line, and the `+++` file header, as written; one line per line."""
    out = list(lines)
    for opened, closed, _ in fences(lines):
        if lines[opened].strip().lstrip("`~").strip().lower() != "diff":
            continue
        for k in range(opened + 1, closed):
            if out[k].startswith("+") and not out[k].startswith("+++"):
                out[k] = out[k][1:]
    return out


def only_block(lines: Sequence[str], opened: int, closed: int, body: Sequence[str]) -> str:
    """The text with only a block's content (`body`, one line per line inside its fences) left, every
    other line blanked, so that each keeps its number."""
    return "\n".join([""] * (opened + 1) + list(body) + [""] * (len(lines) - closed))


def continued(lines: Sequence[str], i: int, hi: int, more: Callable[[str], bool] | None = None) -> tuple[str, int]:
    """Line `i` joined with the lines that continue it, below `hi`: while a part ends in the shell's `\\` (that
    backslash dropped), or the next line is one `more` accepts (a YAML `command:` block's option lines); each part
    stripped, joined by one space. With the index of its last line: a wrapped command is one command."""
    parts, j = [lines[i].strip()], i
    while j + 1 < hi and (parts[-1].endswith("\\") or (more is not None and more(lines[j + 1]))):
        parts[-1] = parts[-1].removesuffix("\\").strip()
        j += 1
        parts.append(lines[j].strip())
    return " ".join(p for p in parts if p), j


def last_command(lines: Sequence[str], lo: int, hi: int, opens: Callable[[str], bool]) -> str | None:
    """The last command in lines[lo:hi] whose first line (stripped) `opens` says starts one, its lines
    continued by a trailing `\\` joined (`continued`): the command a log prints above the results it ran."""
    found = None
    i = lo
    while i < hi:
        if opens(lines[i].strip()):
            found, i = continued(lines, i, hi)
            found = found.rstrip("\\").strip()
        i += 1
    return found


def search(pattern: re.Pattern, text: str | Lines) -> bool:
    """Whether the pattern occurs in the text (in one of its `blocks`)."""
    return any(pattern.search(b) for b in blocks(text))


def contains(needle: str, text: str | Lines) -> bool:
    """Whether a substring (of one line) occurs in the text."""
    return any(needle in b for b in blocks(text))


def head(text: str | Lines, n: int) -> str:
    """The first `n` characters of the text (a sniffer that looks at the start only)."""
    if not isinstance(text, Lines):
        return text[:n]
    k, size, real = 0, 0, len(text._ends)
    while k < real and size < n:
        size += len(text[k]) + 1
        k += 1
    return (text.block(0, k) + ("\n" if k < real or text.final_newline else ""))[:n]


def first_char(text: str | Lines) -> str:
    """The text's first character that is not white space, "" when none (`text.lstrip()[:1]`)."""
    if not isinstance(text, Lines):
        return text.lstrip()[:1]
    for line in text:
        if s := line.lstrip():
            return s[0]
    return ""


class Amended(Sequence):
    """Lines with some of them replaced, without copying the rest: a parser's repair of a file's
    lines (other parsers read the file's lines as they are). The new lines are kept as UTF-8 in one
    buffer with their positions (a repaired line holding an emoji takes four bytes a character as a
    `str`, and a dict of a quarter of a million of them about 0.7x the file: issue 21)."""

    def __init__(self, lines: Sequence[str]):
        self._lines = lines
        self._at, self._ends, self._blob = array("L"), array("L"), bytearray()

    def fix(self, i: int, line: str) -> None:
        """Replace line i (lines are fixed in increasing order)."""
        if self._at and i <= self._at[-1]:
            raise ValueError("Amended.fix: lines must be fixed in increasing order")
        self._blob += line.encode()
        self._at.append(i)
        self._ends.append(len(self._blob))

    def _fixed(self, k: int) -> str:
        return self._blob[self._ends[k - 1] if k else 0 : self._ends[k]].decode()

    def __len__(self) -> int:
        return len(self._lines)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        k = bisect_left(self._at, i)
        return self._fixed(k) if k < len(self._at) and self._at[k] == i else self._lines[i]

    def __iter__(self) -> Iterator[str]:
        k, at = 0, self._at
        for i, line in enumerate(self._lines):
            if k < len(at) and at[k] == i:
                yield self._fixed(k)
                k += 1
            else:
                yield line


def csv_rows(lines: Sequence[str], source: str, first_line: int) -> list[list[str]]:
    """The rows of a CSV block whose first line is `first_line` (1-based), or a ParseError naming
    the line: a stray carriage return or NUL byte inside a block makes `csv` raise its own error."""
    reader = csv.reader(io.StringIO("\n".join(lines)))
    try:
        return list(reader)
    except csv.Error as exc:
        raise ParseError(source, first_line + max(reader.line_num - 1, 0), f"not CSV ({exc})") from None


def csv_blocks(lines: Sequence[str], source: str) -> Iterator[tuple[int, list[list[str]]]]:
    """Each block of non-blank lines as (its first line's 0-based index, its CSV rows): the exports that
    print one CSV table per section, sections parted by a blank line (GenAI-Perf, AIPerf)."""
    i = 0
    while i < len(lines):
        if not lines[i].strip():
            i += 1
            continue
        start = i
        while i < len(lines) and lines[i].strip():
            i += 1
        yield start, csv_rows(lines[start:i], source, start + 1)


def json_object(text: str, source: str, not_json: str, not_object: str) -> dict:
    """The one JSON object a file holds, or a ParseError: `not_json` where it does not parse (at the
    decoder's line; a nesting too deep for Python counts as not parsing), `not_object` where it
    parses to something other than an object."""
    try:
        obj = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        raise ParseError(source, getattr(exc, "lineno", 1), not_json) from None
    if not isinstance(obj, dict):
        raise ParseError(source, 1, not_object)
    return obj


#: A label that counts runs rather than naming one (`第一次` / `第2次`, Chinese "the first / second
#: time"; `run 2`, `repeat 3`, `trial 1`, `2nd run`, `round 2`): the runs under such labels are repeats of
#: one configuration, which the text above them names.
REPEAT_LABEL = re.compile(
    r"^\s*(?:第\s*[一二三四五六七八九十\d]+\s*[次轮遍]|(?:run|repeat|trial|try|round|attempt|iteration)\s*#?\s*\d+"
    r"|\d+(?:st|nd|rd|th)\s+(?:run|try|trial|round|attempt|repeat))\s*[:：.]?\s*$",
    re.I,
)


def repeat_label(label: str | None) -> bool:
    """Whether `label` counts repeats (`REPEAT_LABEL`) instead of naming a configuration."""
    return bool(label) and bool(REPEAT_LABEL.match(label))
