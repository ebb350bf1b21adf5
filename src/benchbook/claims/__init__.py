"""Claims: every verdict a chapter makes, as an object with its evidence and the rule that licenses it.

A sentence such as "X wins" or "bound by memory bandwidth" is true only of some data. A claim keeps
the numbers it rests on (`evidence`) and the rule (`rule`), and its `status` says whether the page
may state it (`shown`), must say instead what is missing (`withheld`), or must warn that the
evidence breaks physics (`implausible`). The status is a function of the evidence alone
(`benchbook.claims.rules.judge`), so a ledger can be re-judged later (`benchbook claims check`).

Wording lives beside each chapter in notebooks/<chapter>.claims.yml (rendered by
`benchbook.presentation.wording`); rules live in `benchbook.claims.rules`.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field

STATUSES = ("shown", "withheld", "implausible")

#: The display type a chapter publishes its ledger under (an output of its last cell); the build
#: writes it to _build/claims/CHAPTER.json and `benchbook run` to DIR/CHAPTER.claims.json.
LEDGER_MIME = "application/vnd.benchbook.claims+json"

#: Claim kinds and the evidence each must carry (beyond what its rule needs to re-judge it).
KINDS: dict[str, tuple[str, ...]] = {
    "fraction_of_peak": ("fraction", "peak", "unit", "device", "peak_source"),
    "bound": ("verdict", "bandwidth_fraction", "compute_fraction", "threshold"),
    "winner": ("winners", "candidates", "metric", "alpha", "p_values"),
    "knee": ("x", "rule", "n_points", "strength", "min_points", "min_strength"),
    "sweet_spot": ("x", "rule", "n_points", "strength", "min_points", "min_strength"),
    "scaling": ("xs", "ys", "direction", "min_points"),
    "anomaly": ("count", "n"),
    "recommendation": ("choice", "metric", "value", "runner_up", "runner_up_value", "noise"),
    "comparison": ("a", "b", "ratio", "noise"),
    "energy_bound": ("joules_per_token", "rel_uncertainty", "power_source"),
}


def _plain(v):
    """JSON-safe evidence: numpy scalars to Python, non-finite floats to None."""
    if hasattr(v, "item") and not isinstance(v, (list, tuple, dict, str)):
        try:
            v = v.item()
        except (ValueError, AttributeError):
            pass
    if isinstance(v, float) and not math.isfinite(v):
        return None
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    return v


@dataclass
class Claim:
    """One verdict: what the page says (`text`), whether it may say it (`status`), and why."""

    id: str
    kind: str
    status: str
    rule: str
    evidence: dict
    reason: str = ""
    text: str = ""
    #: the closing sentence of `text` that qualifies a shown verdict (its fragility), so a bottom line
    #: can give the answer first and the caveat on one line after it
    caveat: str = ""

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"unknown claim kind {self.kind!r}")
        if self.status not in STATUSES:
            raise ValueError(f"unknown claim status {self.status!r}")
        self.evidence = _plain(dict(self.evidence))

    @property
    def shown(self) -> bool:
        return self.status == "shown"

    def to_dict(self) -> dict:
        return asdict(self)

    def withhold(self, reason: str) -> Claim:
        """The same claim, withheld for a reason its rule does not know (e.g. the sentence needs a
        value this input lacks). Withholding is always safe; `rules.check` accepts it."""
        return Claim(self.id, self.kind, "withheld", self.rule, self.evidence, reason, "")

    def not_applicable(self, reason: str) -> Claim:
        """The same claim, withheld because it cannot apply to this input's format at all (evidence
        `applicable: false`): not a gap in the data, so a page does not print it and its bottom line
        does not list it as withheld; the ledger keeps it, with its reason."""
        return Claim(self.id, self.kind, "withheld", self.rule, {**self.evidence, "applicable": False}, reason, "")

    @property
    def applicable(self) -> bool:
        return self.evidence.get("applicable") is not False


@dataclass
class Ledger:
    """The claims of one chapter run, in the order the page makes them."""

    chapter: str
    inputs: list[str]
    claims: list[Claim] = field(default_factory=list)

    def add(self, claim: Claim) -> Claim:
        if any(c.id == claim.id for c in self.claims):
            raise ValueError(f"claim id {claim.id!r} used twice in {self.chapter}")
        self.claims.append(claim)
        return claim

    def extend(self, claims) -> None:
        for c in claims:
            self.add(c)

    def get(self, claim_id: str) -> Claim:
        for c in self.claims:
            if c.id == claim_id:
                return c
        raise KeyError(claim_id)

    def to_dict(self) -> dict:
        return {"chapter": self.chapter, "inputs": list(self.inputs), "claims": [c.to_dict() for c in self.claims]}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1, allow_nan=False)

    @classmethod
    def from_dict(cls, d: dict) -> Ledger:
        return cls(d["chapter"], list(d.get("inputs", [])), [Claim(**c) for c in d.get("claims", [])])


def make(claim_id: str, kind: str, rule: str, evidence: dict) -> Claim:
    """A claim judged by its kind's rule from `evidence` alone (text is added by the wording layer)."""
    from benchbook.claims.rules import derive, judge

    ev = _plain(dict(evidence))
    ev.update(derive(kind, ev))
    status, reason = judge(kind, ev)
    return Claim(id=claim_id, kind=kind, status=status, rule=rule, evidence=ev, reason=reason)


def from_notebook(nb) -> dict | None:
    """The ledger an executed chapter published (the last one, if it published several)."""
    found = None
    for cell in nb.get("cells", []):
        for out in cell.get("outputs", []) or []:
            data = out.get("data") or {}
            if LEDGER_MIME in data:
                found = data[LEDGER_MIME]
    return dict(found) if found is not None else None
