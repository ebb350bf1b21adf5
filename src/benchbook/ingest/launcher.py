"""A launcher's tag, or a copy tool's file name, before each line a process printed: not the tool's text.

Open MPI's `mpirun --tag-output` (`-tag-output`, Open MPI 5's `--output tag`) writes
`[jobid,rank]<stdout>:` (`<stderr>:`, `<stddiag>:`) before every line a rank prints; Open MPI 5
adds one space after the colon. The tool's own lines are what follows the tag; the tag says which
rank printed them, so a reader keeps it beside the line and reads a block only where every line of
it carries the same tag (one rank's print, never lines of two ranks taken as one block).

GNU grep, searching several files (or with `-H`), writes the file's name before each line it prints:
`NAME:` before a line that matched and `NAME-` before a line of context (`-A`, `-B`, `-C`; grep's
manual, "Output Line Prefix Control"). A block copied with `grep -A11 "Offline Throughput Benchmark
Result" run.out*` is the tool's block behind its file's name, and a log the launcher tagged keeps the
tag after the name (`NAME-[1,0]<stdout>:`). A name is such a prefix only where grep's own shape shows
it: a matched line `NAME:` and, before or after it with no other line between, context lines
`NAME-` of the same name (a `key: value` row alone never is); the name is the line's tag.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from benchbook.ingest.text import Amended

MPI_TAG_RE = re.compile(r"^\[\d+,\d+\]<std(?:out|err|diag)>: ?")
_GREP_MATCH_RE = re.compile(r"^([^\s:]+):")


def _grep_names(lines: Sequence[str]) -> list[str]:
    """Each line's grep file-name prefix (with its `:` or `-`), "" where none: a run of lines that all
    begin with one name and its separator, holding a matched line (`NAME:`) and a context line (`NAME-`)."""
    names = [""] * len(lines)
    i = 0
    while i < len(lines):
        m = _GREP_MATCH_RE.match(lines[i])
        if not m:
            i += 1
            continue
        name = m.group(1)
        lo, hi = i, i + 1
        while lo > 0 and not names[lo - 1] and lines[lo - 1].startswith((name + ":", name + "-")):
            lo -= 1
        while hi < len(lines) and lines[hi].startswith((name + ":", name + "-")):
            hi += 1
        if any(lines[j].startswith(name + "-") for j in range(lo, hi)):
            for j in range(lo, hi):
                names[j] = lines[j][: len(name) + 1]
            i = hi
        else:
            i += 1
    return names


def untagged(lines: Sequence[str]) -> tuple[Sequence[str], list[str]]:
    """The lines with any grep file name and mpirun tag taken off (line numbers kept), and each line's
    tag ("" where none): the file's name and the rank's tag, so one file's and one rank's lines share one."""
    out, tags = Amended(lines), []
    for i, (s, name) in enumerate(zip(lines, _grep_names(lines), strict=True)):
        rest = s[len(name) :]
        m = MPI_TAG_RE.match(rest)
        tags.append(name[:-1] + (m.group(0).rstrip() if m else ""))
        if name or m:
            out.fix(i, rest[m.end() :] if m else rest)
    return out, tags
