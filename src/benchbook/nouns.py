"""A count with its noun agreeing ('1 file', '3 files'), for every sentence the package writes, from
the parsers' messages to the CLI's: a page or a terminal never prints a raw 'file(s)' (#34)."""

from __future__ import annotations


def counted(count, singular: str, plural: str = "") -> str:
    """`count` and its noun: whole numbers with thousands separators, other numbers as given;
    `plural` for an irregular noun (`counted(2, "query", "queries")`)."""
    number = f"{int(count):,}" if float(count).is_integer() else f"{count:g}"
    return f"{number} {singular if float(count) == 1 else (plural or singular + 's')}"


def named(singular: str, names, plural: str = "") -> str:
    """A noun agreeing with the names that follow it: 'key a', 'keys a, b'."""
    names = list(names)
    return f"{singular if len(names) == 1 else (plural or singular + 's')} {', '.join(map(str, names))}"
