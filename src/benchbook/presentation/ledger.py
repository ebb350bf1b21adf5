"""The claims appendix: ledgers read back and laid out as tables a reader can audit."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from benchbook import config, declarations
from benchbook.claims.rules import check


def ledger_files(paths) -> list[Path]:
    """Ledger files from files and folders (a folder gives its *.json, sorted)."""
    out: list[Path] = []
    for p in map(Path, paths):
        out += sorted(p.glob("*.json")) if p.is_dir() else [p]
    return out


def load(paths) -> list[dict]:
    """Every ledger, in file order; each file read is logged for the build's cache."""
    ledgers = []
    for f in ledger_files(paths):
        config.log_read(f)
        ledgers.append(json.loads(f.read_text(encoding="utf-8")))
    return ledgers


def _evidence(ev: dict) -> str:
    def show(v):
        if isinstance(v, float):
            return f"{v:.4g}"
        if isinstance(v, list) and len(v) > 8:
            return "[" + ", ".join(map(show, v[:8])) + f", … {len(v) - 8} more]"
        if isinstance(v, list):
            return "[" + ", ".join(map(show, v)) + "]"
        if isinstance(v, dict):
            return "{" + ", ".join(f"{k}: {show(x)}" for k, x in v.items()) + "}"
        return "–" if v is None else str(v)

    return "; ".join(f"{k} = {show(v)}" for k, v in ev.items())


def status(c: dict) -> str:
    """A claim's status as the appendix reads it: a withheld claim that cannot apply to the input's
    format at all (`Claim.not_applicable`) is "not applicable", not a gap in the data."""
    if c["status"] == "withheld" and (c.get("evidence") or {}).get("applicable") is False:
        return "not applicable"
    return c["status"]


def claims_table(ledgers: list[dict]) -> pd.DataFrame:
    """One row per claim: chapter, id, kind, status, sentence, rule, evidence, reason."""
    rows = []
    for led in ledgers:
        for c in led.get("claims", []):
            rows.append(
                {
                    "chapter": led.get("chapter", ""),
                    "claim": c["id"],
                    "kind": c["kind"],
                    "status": status(c),
                    "sentence": c.get("text", ""),
                    "rule": c.get("rule", ""),
                    "evidence": _evidence(c.get("evidence") or {}),
                    "why not shown": c.get("reason") or "",
                }
            )
    return pd.DataFrame(
        rows, columns=["chapter", "claim", "kind", "status", "sentence", "rule", "evidence", "why not shown"]
    )


def summary(ledgers: list[dict]) -> pd.DataFrame:
    """Claims per chapter and status, and the problems a re-judging finds."""
    t = claims_table(ledgers)
    s = t.pivot_table(index="chapter", columns="status", values="claim", aggfunc="count", fill_value=0)
    s = s.reindex(columns=["shown", "withheld", "not applicable", "implausible"], fill_value=0)
    problems: dict[str, int] = {}
    for led in ledgers:
        problems[led.get("chapter", "")] = problems.get(led.get("chapter", ""), 0) + len(check(led))
    s["problems on re-judging"] = [problems.get(ch, 0) for ch in s.index]
    return s.reset_index()


#: How each status reads at the head of a claim.
STATUS_MARK = {
    "shown": "✓ shown",
    "withheld": "– withheld",
    "not applicable": "· not applicable",
    "implausible": "⚠ implausible",
}


def _title(chapter: str) -> str:
    """A chapter's title, from its declaration; its id for a ledger of no declared chapter."""
    found = declarations.BY_NAME.get(chapter)
    return found.title if found else chapter


def _code(text: str) -> str:
    """`text` as an inline code span that survives any backticks inside it."""
    text = " ".join(str(text).split())
    return f"`` {text} ``" if text else "–"


def sections(ledgers: list[dict]) -> str:
    """MyST: one folded section per chapter (its counts in the title), each claim as its status
    and sentence, with its evidence, rule and reason folded under it."""
    out = []
    for led in ledgers:
        claims = led.get("claims", [])
        counts = {s: sum(status(c) == s for c in claims) for s in STATUS_MARK}
        head = ", ".join(f"{n} {s}" for s, n in counts.items() if n)
        chapter = led.get("chapter", "")
        out.append(f"::::{{admonition}} {_title(chapter)} ({head})\n:class: dropdown\n")
        for c in claims:
            text = " ".join((c.get("text") or "(no sentence)").split())
            out.append(f"**{STATUS_MARK.get(status(c), status(c))}**: {text}\n")
            body = [f"Rule: {c.get('rule') or '–'}", f"Evidence: {_code(_evidence(c.get('evidence') or {}))}"]
            if c.get("reason"):
                body.append(f"Why not shown: {c['reason']}")
            out.append(
                f":::{{admonition}} Evidence and rule of `{c['id']}` ({c['kind']})\n:class: dropdown\n\n"
                + "\n\n".join(body)
                + "\n:::\n"
            )
        out.append("::::\n")
    return "\n".join(out)
