"""A page's withheld verdicts, said once: one folded list under the findings, each sentence once (a
reason several verdicts share is one item), so that the page body holds only what the input shows."""

from __future__ import annotations

from benchbook.claims import Ledger


def sentences(ledger: Ledger, boxed=frozenset(), extra=()) -> list[str]:
    """The withheld (or implausible) claims' sentences that apply to this input and that the bottom
    line does not already hold, in page order, each once, then `extra` sentences."""
    texts = [
        " ".join(c.text.split())
        for c in ledger.claims
        if not c.shown and c.applicable and c.id not in boxed and c.text.strip()
    ]
    return list(dict.fromkeys([*texts, *extra]))


def folded(ledger: Ledger, boxed=frozenset(), extra=(), title: str = "What this input cannot show") -> str:
    """The withheld sentences as one dropdown (MyST), or nothing when there are none."""
    items = sentences(ledger, boxed, extra)
    if not items:
        return ""
    body = "\n".join(f"- {t}" for t in items)
    return f":::{{dropdown}} {title} ({len(items)})\n\n{body}\n:::"
