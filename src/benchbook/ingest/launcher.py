"""A launcher's tag before each line a process printed, which is not the tool's text.

Open MPI's `mpirun --tag-output` (`-tag-output`, Open MPI 5's `--output tag`) writes
`[jobid,rank]<stdout>:` (`<stderr>:`, `<stddiag>:`) before every line a rank prints; Open MPI 5
adds one space after the colon. The tool's own lines are what follows the tag; the tag says which
rank printed them, so a reader keeps it beside the line and reads a block only where every line of
it carries the same tag (one rank's print, never lines of two ranks taken as one block).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from benchbook.ingest.text import Amended

MPI_TAG_RE = re.compile(r"^\[\d+,\d+\]<std(?:out|err|diag)>: ?")


def untagged(lines: Sequence[str]) -> tuple[Sequence[str], list[str]]:
    """The lines with any mpirun tag taken off (line numbers kept), and each line's tag ("" where
    none)."""
    out, tags = Amended(lines), []
    for i, s in enumerate(lines):
        m = MPI_TAG_RE.match(s)
        tags.append(m.group(0).rstrip() if m else "")
        if m:
            out.fix(i, s[m.end() :])
    return out, tags
