"""Sentences from claims: templates filled from a claim's evidence, and how a page shows them.

A template is a `str.format` string over the claim's evidence (plus `reason`). Lists read as
"a, b and c"; a field that is missing (None, NaN) never reaches the page: the claim is withheld
with a sentence saying which value the input lacks. Change wording here, never a rule.
"""

from __future__ import annotations

import math
import string

from benchbook.claims import LEDGER_MIME, Claim, Ledger

#: What a page prints for a claim it may not make, unless the chapter gives its own wording.
DEFAULT_WITHHELD = "{topic}: not stated for this input, because {reason}."
DEFAULT_IMPLAUSIBLE = "**Warning: {topic} is not a result.** {reason}."
#: What a shown verdict adds when the margin to the threshold it turns on is inside the noise
#: (`claims.rules.margin`): the verdict could flip within the measurement's own spread.
FRAGILE = "This verdict is fragile: it is {margin:+.0%} from the threshold it turns on, inside the noise."
#: The same for a verdict that turns on a latency SLO (a load meets it or not).
FRAGILE_SLO = (
    "This verdict is fragile: its {slo_percentile} ({slo_value:,.2f} ms) is {margin:+.0%} from its SLO ({slo:g} ms), "
    "inside the noise."
)


class MissingValue(KeyError):
    """A template asked for a value the evidence does not have."""


def join(items) -> str:
    """'a', 'a and b', 'a, b and c'."""
    items = [str(i) for i in items]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


class _Formatter(string.Formatter):
    def get_value(self, key, args, kwargs):
        if key not in kwargs:
            raise MissingValue(key)
        return kwargs[key]

    def format_field(self, value, spec):
        if value is None or (isinstance(value, float) and not math.isfinite(value)):
            raise MissingValue(spec)
        if isinstance(value, (list, tuple)):
            return join(self.format_field(v, spec) if spec else v for v in value)
        if isinstance(value, dict):
            return join(f"{k} {self.format_field(v, spec) if spec else v}" for k, v in value.items())
        return super().format_field(value, spec)

    def get_field(self, field_name, args, kwargs):
        try:
            return super().get_field(field_name, args, kwargs)
        except (KeyError, IndexError, AttributeError, TypeError):
            raise MissingValue(field_name) from None


_FMT = _Formatter()


def fill(template: str, values: dict) -> str:
    """`template` formatted with `values`; raises MissingValue rather than print a missing value."""
    return _FMT.format(template, **values)


def say(claim: Claim, shown: str, *, topic: str, withheld: str | None = None, implausible: str | None = None) -> Claim:
    """The claim with its sentence: `shown` when the rule allows it, else the withheld or warning
    wording. A shown claim whose template needs a value the evidence lacks becomes withheld."""
    values = {**claim.evidence, "reason": claim.reason, "topic": topic}
    template = {
        "shown": shown,
        "withheld": withheld or DEFAULT_WITHHELD,
        "implausible": implausible or DEFAULT_IMPLAUSIBLE,
    }
    try:
        text = fill(template[claim.status], values)
    except MissingValue as exc:
        claim = claim.withhold(f"the input does not give {exc.args[0] or 'a value the sentence needs'}")
        values["reason"] = claim.reason
        text = fill(withheld or DEFAULT_WITHHELD, values)
    if claim.status == "shown" and claim.evidence.get("fragile") and claim.evidence.get("margin") is not None:
        text += " " + fill(FRAGILE_SLO if "slo_percentile" in claim.evidence else FRAGILE, values)
    claim.text = text[:1].upper() + text[1:]
    return claim


def glue_claims(ledger: Ledger) -> None:
    """Glue every claim's sentence as `claim_<id>` (hidden), for `{glue:md}` in the prose."""
    from IPython.display import Markdown
    from myst_nb import glue

    for c in ledger.claims:
        glue(f"claim_{c.id}", Markdown(c.text), display=False)


def publish(ledger: Ledger) -> None:
    """Emit the ledger as a cell output; the build writes it to _build/claims/, `benchbook run`
    beside the page. Nothing is written from inside the notebook."""
    from IPython.display import display

    display({LEDGER_MIME: ledger.to_dict()}, raw=True)


def block(ledger: Ledger, ids=None) -> str:
    """Markdown paragraphs of the named claims (all when `ids` is None), in ledger order; a sentence
    two claims share (the same verdict on two runs of one model) is said once."""
    want = None if ids is None else set(ids)
    return "\n\n".join(dict.fromkeys(c.text for c in ledger.claims if want is None or c.id in want))


def together(ledger: Ledger, ids) -> str:
    """The named claims as one paragraph, in the order given; consecutive claims withheld for the same
    reason are said once ("A, B and C: not stated for this input, because R."), so a page run on an
    input that lacks one thing does not repeat the same reason under every verdict."""
    by_id = {c.id: c for c in ledger.claims}
    out: list[tuple[list[str], str | None, str]] = []  # (topics, reason, text)
    for cid in ids:
        c = by_id.get(cid)
        if c is None:
            continue
        tail = f": not stated for this input, because {c.reason}."
        if c.status == "withheld" and c.text.endswith(tail):
            topic = c.text[: -len(tail)]
            if out and out[-1][1] == c.reason:
                out[-1][0].append(topic)
                continue
            out.append(([topic], c.reason, c.text))
        else:
            out.append(([], None, c.text))
    parts = []
    for topics, reason, text in out:
        if len(topics) > 1:
            rest = [t[:1].lower() + t[1:] if t[1:2].islower() else t for t in topics[1:]]
            text = f"{join([topics[0], *rest])}: not stated for this input, because {reason}."
        parts.append(text)
    return " ".join(parts)


def exercises_note(spec: dict, changed: dict) -> str:
    """The note above the exercises of a page run on other data or parameters than the book's."""
    default = spec.get("source", {}).get("default")
    data = f"the book's own data (`{default}`)" if default else "the book's own data"
    shown = join([f"`{k}`" for k in changed])  # names only: a value may be a path on the reader's machine
    # Plain Markdown: a kernel's Markdown output is rendered as CommonMark, where a directive would show raw.
    return (
        f"> **These exercises are about the book's data.** They are written for {data} with the "
        f"chapter's default parameters; their solutions describe that data, not this page, which was run "
        f"with other values of {shown}."
    )
