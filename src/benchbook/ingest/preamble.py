"""Lines a person put above a tool's output: a comment (`# run on 2x H100`), a shell prompt with
the command that printed the file (`$ cat result.json`, `user@host:~$ python -m ...`, wrapped with
`\\` or not), blank lines. A tool that does not see its output in a file as written is offered the
file with those leading lines blanked (`past`): each line keeps its number, so what the parser
reports still names the file's own lines. The lines themselves stay in the file for the readers
of run facts."""

from __future__ import annotations

import re

from benchbook.ingest.text import Lines

#: A comment line, or a shell prompt (an optional `(venv)` and `user@host:path`, then `$` or `%`).
_PREAMBLE = re.compile(r"\s*(?:#|(?:\([\w.-]+\)\s*)?(?:[\w.-]+@[\w.-]+(?::\S*)?\s*)?[$%](?:\s|$))")

#: Lines looked at: a preamble longer than this is not one (a log, a script).
_MOST = 50


def length(lines) -> int:
    """How many of the first lines are preamble: blank, comment or prompt lines, and the lines a
    command wrapped with a trailing `\\` continues onto. 0 when the file opens with something else."""
    n, wrapped = 0, False
    for line in lines:
        if n >= _MOST:
            return 0
        if not (wrapped or not line.strip() or _PREAMBLE.match(line)):
            return n if any(x.strip() for x in lines[:n]) else 0
        wrapped = line.rstrip().endswith("\\")
        n += 1
    return 0  # nothing but preamble: no output behind it


def past(text: str | Lines) -> str | Lines | None:
    """The text with its preamble lines blanked (same number of lines), None when it has none."""
    if isinstance(text, Lines):
        n = length(text[: min(len(text), _MOST + 1)])
        return text.blanked(n) if n else None
    lines = text.split("\n")
    n = length(lines[: _MOST + 1])
    if not n:
        return None
    return "\n".join([""] * n + lines[n:])
