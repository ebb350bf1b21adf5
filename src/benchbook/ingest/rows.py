"""Tidy rows held as tuples while a parser reads (issue 21).

A record dict of 15 to 40 settings takes 0.6 to 1.5 KB, a tuple of the same values a third of
that, and a large file has a million of them before `tidy` builds the table. A `Row` is such a tuple
that `tidy` reads as it reads a dict (`row.get(column)`).
"""

from __future__ import annotations

from sys import intern

from benchbook.ingest.core import LEAD_COLUMNS, TAIL_COLUMNS


class Row(tuple):
    """A tidy record as a tuple; `columns` (set per tool by `row_type`) names its items."""

    __slots__ = ()
    _index: dict[str, int] = {}

    def get(self, column: str, default=None):
        i = self._index.get(column)
        return default if i is None else self[i]

    def __getitem__(self, key):
        return tuple.__getitem__(self, key if isinstance(key, (int, slice)) else self._index[key])


def row_type(settings) -> type[Row]:
    """The Row class of a tool: line, its settings, metric, statistic, value, unit, note."""
    columns = [c for c in [*LEAD_COLUMNS, *settings, *TAIL_COLUMNS] if c not in ("tool", "source")]
    return type("Row", (Row,), {"__slots__": (), "_index": {c: i for i, c in enumerate(columns)}})


def row(kind: type[Row], record: dict) -> Row:
    """A record dict as a Row of that kind (a column it lacks is None)."""
    return kind([intern(v) if type(v) is str else v for v in map(record.get, kind._index)])
