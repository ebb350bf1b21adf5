"""Sentences from claims, and how a page shows them.

Each chapter's wording lives beside it in `notebooks/<chapter>.claims.yml`, where a writer edits it
without opening Python: per claim (or glob of ids, e.g. `winner_*`) a `topic` and a Jinja2 template
for each status (`shown`, `withheld`, `implausible`), over the claim's evidence plus `reason`,
`topic`, `id`, `kind` and the file's `words` tables. The renderer is strict: a value the evidence
lacks (absent, None, NaN) never reaches the page; the claim is withheld with a sentence naming it.
A missing value is false in an `{% if %}`, so templates branch on what the input gives. A
`withheld` or `implausible` template that renders empty falls back to the claim kind's wording
(`kinds:`), then to the book's default. A shown verdict whose evidence is `fragile` (its margin to
the threshold inside the noise) adds the claim's `fragile` sentence (else its kind's, else the
book's). Whitespace is collapsed, so templates may wrap freely.
A chapter's descriptive sentences (what the input holds, what a section cannot show) live in the
same file under `sentences:`, rendered by `sentence`, and its back-of-envelope exercises (question,
solution steps, answer) under `exercises:`, rendered by `exercise`.
Claims and rules stay in Python (`benchbook.claims`); the build re-executes a chapter whose wording
file changed (the file is logged as read).
"""

from __future__ import annotations

import fnmatch
import functools
import math
import re
from importlib import resources
from pathlib import Path

import jinja2
import yaml

from benchbook import config
from benchbook.claims import LEDGER_MIME, Claim, Ledger


class MissingValue(KeyError):
    """A template asked for a value the evidence does not have."""


class WordingError(ValueError):
    """A chapter's wording file is unreadable or lacks a claim's sentence (the message names it)."""


def join(items) -> str:
    """'a', 'a and b', 'a, b and c'."""
    items = [str(i) for i in items]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _missing(value) -> bool:
    return (
        value is None or isinstance(value, jinja2.Undefined) or (isinstance(value, float) and not math.isfinite(value))
    )


def _name(value) -> str:
    return getattr(value, "_undefined_name", None) or "a value the sentence needs"


def _format(value, spec: str = "") -> str:
    """`value` formatted by a `str.format` spec; lists read as 'a, b and c', dicts as 'k v, ...'."""
    if _missing(value):
        raise MissingValue(_name(value))
    if isinstance(value, (list, tuple)):
        return join(_format(v, spec) if spec else v for v in value)
    if isinstance(value, dict):
        return join(f"{k} {_format(v, spec) if spec else v}" for k, v in value.items())
    return format(value, spec)


# --- the template filters (what a writer types after `|`) ---------------------------------------
def _fmt(value, spec: str = "") -> str:
    """Any `str.format` spec: `{{ x | fmt("+.4g") }}`."""
    return _format(value, spec)


def _pct(value, digits: int = 0) -> str:
    """A share as a percentage: 0.456 -> '46%' (`pct(1)` -> '45.6%')."""
    return _format(value, f".{digits}%")


def _pct_bound(value, digits: int, toward) -> str:
    if _missing(value):
        raise MissingValue(_name(value))
    scale = 10**digits
    # a share proven to be at least (most) so much is printed no higher (lower) than it proves; the
    # 1e-9 keeps a share that is exactly on a printed digit (0.99 stored as 0.98999...) on it
    return format(
        toward(float(value) * 100 * scale + (1e-9 if toward is math.floor else -1e-9)) / scale / 100, f".{digits}%"
    )


def _pct_down(value, digits: int = 0) -> str:
    """A lower bound on a share, rounded down: 0.989 -> '98%', never '99%' (what it does not prove)."""
    return _pct_bound(value, digits, math.floor)


def _pct_up(value, digits: int = 0) -> str:
    """An upper bound on a share, rounded up: 0.501 -> '51%'."""
    return _pct_bound(value, digits, math.ceil)


def _fixed(value, digits: int = 0) -> str:
    """A number with `digits` decimals, no thousands separator: `{{ ratio | fixed(2) }}x`."""
    return _format(value, f".{digits}f")


def _num(value, digits: int = 0) -> str:
    """A number with thousands separators: 12345.6 -> '12,346' (`num(1)` -> '12,345.6'). A value that is not
    zero never reads as one: under the last decimal shown it takes two significant figures (0.32 -> '0.32')."""
    text = _format(value, f",.{digits}f")
    if text.lstrip("-").strip("0.,") == "" and not _missing(value) and not isinstance(value, (list, tuple)):
        return _sig(value, 2) if float(value) != 0 else text
    return text


def _sig(value, digits: int = 3) -> str:
    """A number for prose at `digits` significant figures, never in scientific notation, with
    thousands separators and no trailing zeros: 5234.7 -> '5,235', 8.4162 -> '8.42', 0.25 -> '0.25'
    (`.3g` would print '5.23e+03' for a count)."""
    if _missing(value):
        raise MissingValue(_name(value))
    if isinstance(value, (list, tuple)):
        return join(_sig(v, digits) for v in value)
    v = float(value)
    if v == 0:
        return "0"
    decimals = max(0, digits - 1 - math.floor(math.log10(abs(v))))
    text = f"{round(v, decimals):,.{decimals}f}"
    text = text.rstrip("0").rstrip(".") if "." in text else text
    return "0" if text in ("-0", "") else text


def _span(low, high, spec: str = "") -> str:
    """'119 to 128', or one value when both ends print the same."""
    a, b = _format(low, spec), _format(high, spec)
    return a if a == b else f"{a} to {b}"


def _and_list(items) -> str:
    """'a, b and c'."""
    if _missing(items):
        raise MissingValue(_name(items))
    return join(items)


def _pick(keys, mapping, default=None) -> list:
    """The values of `keys` in `mapping` (`default` for a key it lacks): `{{ tied | pick(p_values, 0) }}`."""
    mapping = {} if _missing(mapping) else mapping
    return [mapping.get(k, default) for k in keys]


def _plural(count, singular: str, plural: str = "") -> str:
    """A count with its noun agreeing: `{{ n | plural("byte") }}` -> '1 byte', '2 bytes', '1.03 bytes'
    (`plural("degree of freedom", "degrees of freedom")` for an irregular one). Never '(s)'."""
    if _missing(count):
        raise MissingValue(_name(count))
    one = float(count) == 1
    return f"{_sig(count, 4)} {singular if one else (plural or singular + 's')}"


class _Missing(jinja2.StrictUndefined):
    """A value the evidence lacks: false in a test, equal only to another missing value, and an
    error wherever it would be printed."""

    def __bool__(self) -> bool:
        return False

    def __eq__(self, other) -> bool:
        return other is None or isinstance(other, jinja2.Undefined)

    def __ne__(self, other) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return id(self)


def _finalize(value):
    return _format(value)


_FILTERS = dict(
    fmt=_fmt,
    pct=_pct,
    pct_down=_pct_down,
    pct_up=_pct_up,
    fixed=_fixed,
    num=_num,
    sig=_sig,
    span=_span,
    and_list=_and_list,
    pick=_pick,
    plural=_plural,
)


class _Compiled(jinja2.FileSystemBytecodeCache):
    """Compiled templates kept between runs in jinja's cache folder (the temporary folder, this user's
    alone), as Python keeps a module's bytecode: compiling a chapter's templates is a tenth of its
    run, loading them a few milliseconds. A template's key is its text with the filters' names
    (a template compiled against other filters is compiled again); a cache that cannot be written
    is left unwritten, and each template compiled as without it."""

    def get_cache_key(self, name: str, filename: str | None = None) -> str:
        return super().get_cache_key(name + "\0" + ",".join(sorted(_FILTERS)), filename)

    def dump_bytecode(self, bucket) -> None:
        try:
            super().dump_bytecode(bucket)
        except OSError:
            pass


def _compiled():
    try:
        return _Compiled()
    except (OSError, RuntimeError):  # no folder of this user's alone in the temporary folder
        return None


#: A template is loaded by its text (`_template`), compiled once per text and kept (`_Compiled`).
_ENV = jinja2.Environment(
    loader=jinja2.FunctionLoader(lambda text: (text, None, lambda: True)),
    bytecode_cache=_compiled(),
    undefined=_Missing,
    finalize=_finalize,
    autoescape=False,
    keep_trailing_newline=False,
)
_ENV.filters.update(_FILTERS)


@functools.lru_cache(maxsize=2048)
def _template(text: str) -> jinja2.Template:
    return _ENV.get_template(text)


_UNDEFINED = re.compile(r"'([^']+)' is undefined")


def render(template: str, values: dict) -> str:
    """`template` rendered over `values`, whitespace collapsed; raises MissingValue rather than print
    a value that is absent, None or NaN."""
    ctx = {k: (_Missing(name=k) if _missing(v) else v) for k, v in values.items()}
    try:
        text = _template(template).render(ctx)
    except jinja2.UndefinedError as exc:
        m = _UNDEFINED.search(str(exc))
        raise MissingValue(m.group(1) if m else "a value the sentence needs") from None
    except (TypeError, ValueError) as exc:
        raise WordingError(f"a template cannot be filled: {exc} (in {template[:60]!r}...)") from None
    return " ".join(text.split())


# --- a chapter's wording file ---------------------------------------------------------------------
_STATUS_KEYS = {"topic", "shown", "withheld", "implausible", "caveat", "fragile", "reasons"}
_KIND_KEYS = {"withheld", "implausible", "fragile"}
_EXERCISE_KEYS = {"question", "steps", "answer"}


#: Wordings the package speaks itself, outside any chapter (`benchbook compare`): they ship inside the
#: package, as `benchbook/<name>.claims.yml`, so an installed wheel finds them without the book.
PACKAGE_WORDINGS = ("compare", "report")


def path(chapter: str) -> Path:
    """Where a chapter's wording lives: `notebooks/<chapter>.claims.yml` (a package wording:
    `benchbook/<name>.claims.yml`, found through importlib.resources)."""
    if chapter in PACKAGE_WORDINGS:
        return Path(str(resources.files("benchbook").joinpath(f"{chapter}.claims.yml")))
    return config.NOTEBOOKS_DIR / f"{chapter}.claims.yml"


def _where(chapter: str) -> str:
    """The wording file as a message names it (no machine path)."""
    return f"{'benchbook' if chapter in PACKAGE_WORDINGS else 'notebooks'}/{chapter}.claims.yml"


@functools.lru_cache(maxsize=64)
def _parse(p: Path, stamp: tuple, where: str) -> dict:
    try:
        # libyaml's loader where PyYAML has it: the same data, a tenth of the time
        data = yaml.load(p.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except FileNotFoundError:
        raise WordingError(f"{where}: no such file; every chapter with claims needs its wording file") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f" (line {mark.line + 1})" if mark else ""
        raise WordingError(f"{where}{line}: not valid YAML: {getattr(exc, 'problem', exc)}") from None
    if not isinstance(data, dict) or not isinstance(data.get("claims"), dict):
        raise WordingError(f"{where}: needs a `claims:` mapping of claim id to its sentences")
    for key, spec in data["claims"].items():
        if not isinstance(spec, dict) or "shown" not in spec or not set(spec) <= _STATUS_KEYS:
            raise WordingError(
                f"{where}: claim {key!r} needs `shown` (and may have only topic, withheld, implausible, fragile "
                "and reasons)"
            )
        if not isinstance(spec.get("reasons") or {}, dict):
            raise WordingError(f"{where}: claim {key!r}: `reasons` maps a reason's key to its words")
    for key, spec in (data.get("kinds") or {}).items():
        if not isinstance(spec, dict) or not set(spec) <= _KIND_KEYS:
            raise WordingError(f"{where}: kind {key!r} may have only withheld, implausible and fragile")
    sentences = data.get("sentences") or {}
    if not isinstance(sentences, dict) or not all(isinstance(t, str) for t in sentences.values()):
        raise WordingError(f"{where}: `sentences:` maps a name to one template")
    for key, text in sentences.items():
        try:
            _template(text)
        except jinja2.TemplateSyntaxError as exc:
            raise WordingError(f"{where}: sentence {key}: {exc.message}") from None
    for key, spec in (data.get("exercises") or {}).items():
        if (
            not isinstance(spec, dict)
            or not {"question", "answer"} <= set(spec) <= _EXERCISE_KEYS
            or not isinstance(spec.get("steps", []), list)
        ):
            raise WordingError(
                f"{where}: exercise {key!r} needs `question` and `answer` (and may have a list of `steps`)"
            )
        for text in (spec["question"], *spec.get("steps", []), spec["answer"]):
            try:
                _template(str(text or ""))
            except jinja2.TemplateSyntaxError as exc:
                raise WordingError(f"{where}: exercise {key}: {exc.message}") from None
    for group in ("claims", "kinds"):
        for key, spec in (data.get(group) or {}).items():
            for status, text in spec.items():
                try:
                    _template(str(text or ""))
                except jinja2.TemplateSyntaxError as exc:
                    raise WordingError(f"{where}: {key} ({status}): {exc.message}") from None
    return data


def load(chapter: str) -> dict:
    """The chapter's wording file, parsed and checked (logged as read, so editing it re-executes
    the chapter and no other)."""
    p = path(chapter)
    config.log_read(p)
    try:
        st = p.stat()
        stamp = (st.st_mtime_ns, st.st_size)
    except FileNotFoundError:
        stamp = ()
    return _parse(p, stamp, _where(chapter))


def _spec(data: dict, chapter: str, claim_id: str) -> dict:
    claims = data["claims"]
    if claim_id in claims:
        return claims[claim_id]
    for key, spec in claims.items():
        if fnmatch.fnmatchcase(claim_id, key):
            return spec
    raise WordingError(f"{_where(chapter)} has no sentence for claim {claim_id!r}")


def _frame(name: str) -> str:
    """A default sentence of every chapter (withheld, implausible, fragile), as the template
    benchbook/report.claims.yml words it: a chapter's own wording of it ranks first."""
    return str(load("report")["sentences"][name])


def _first(templates, values: dict, default: str) -> str:
    """The first of `templates` that renders non-empty (a missing value skips it), else `default`."""
    for t in templates:
        if not t:
            continue
        try:
            text = render(t, values)
        except MissingValue:
            continue
        if text:
            return text
    return render(default, values)


def word(chapter: str, claim: Claim) -> Claim:
    """The claim with its sentence from the chapter's wording file. A shown claim whose template needs
    a value the evidence lacks becomes withheld, saying which."""
    data = load(chapter)
    spec = _spec(data, chapter, claim.id)
    try:
        return _word(data, spec, claim)
    except WordingError as exc:
        raise WordingError(f"{_where(chapter)}, claim {claim.id!r}: {exc}") from None


def _word(data: dict, spec: dict, claim: Claim) -> Claim:
    kind = (data.get("kinds") or {}).get(claim.kind, {})
    values = {"id": claim.id, "kind": claim.kind, "words": data.get("words") or {}, **claim.evidence}
    topic_t = str(spec.get("topic") or claim.id)
    try:
        topic = render(topic_t, values)
    except MissingValue:
        topic = topic_t.split("{")[0].strip() or "This verdict"
    reasons = spec.get("reasons") or {}
    if claim.status == "withheld" and claim.reason in reasons:  # a reason worded here, by its key
        claim = claim.withhold(render(str(reasons[claim.reason]), values))
    values.update(reason=claim.reason, topic=topic)
    text = None
    if claim.status == "shown":
        try:
            text = render(spec["shown"], values)
        except MissingValue as exc:
            claim = claim.withhold(f"the input does not give {exc.args[0]}")
            values["reason"] = claim.reason
    if text is None:
        status = claim.status
        text = _first([spec.get(status), kind.get(status)], values, _frame(status))
    else:  # a shown verdict's caveats: its own (`caveat:`, where it renders), then its margin inside the noise
        caveats = [_first([spec.get("caveat")], values, "")]
        if claim.evidence.get("fragile") and not _missing(claim.evidence.get("margin")):
            default = _frame("fragile_slo" if "slo_percentile" in claim.evidence else "fragile")
            caveats.append(_first([spec.get("fragile"), kind.get("fragile"), default], values, _frame("fragile_plain")))
        if caveats := [c[:1].upper() + c[1:] for c in caveats if c]:
            claim.caveat = " ".join(caveats)
            text += " " + claim.caveat
    claim.text = text[:1].upper() + text[1:]
    return claim


def ledger(chapter: str, inputs: list[str], claims) -> Ledger:
    """The chapter's ledger: every claim worded, in page order."""
    led = Ledger(chapter, inputs)
    led.extend(word(chapter, c) for c in claims)
    return led


def sentence(chapter: str, name: str, **values) -> str:
    """One of the chapter's descriptive sentences (its file's `sentences:`, not a verdict), rendered
    over `values` and the file's `words`; empty when it needs a value the input lacks."""
    data = load(chapter)
    template = (data.get("sentences") or {}).get(name)
    if template is None:
        raise WordingError(f"{_where(chapter)} has no sentence {name!r}")
    try:
        return render(template, {"words": data.get("words") or {}, **values})
    except MissingValue:
        return ""
    except WordingError as exc:
        raise WordingError(f"{_where(chapter)}, sentence {name!r}: {exc}") from None


def exercise(chapter: str, name: str, values: dict) -> tuple[str, list[str], str]:
    """One of the chapter's back-of-envelope exercises (its file's `exercises:`): the question, the
    solution's steps and the answer, rendered over `values` (numbers the chapter computed, named
    with their units) and the file's `words`. A step that renders empty is left out; a value the
    input lacks raises MissingValue, so that the page leaves the exercise out."""
    data = load(chapter)
    spec = (data.get("exercises") or {}).get(name)
    if spec is None:
        raise WordingError(f"{_where(chapter)} has no exercise {name!r}")
    ctx = {"words": data.get("words") or {}, **values}
    try:
        steps = [render(str(t), ctx) for t in spec.get("steps", [])]
        return render(str(spec["question"]), ctx), [t for t in steps if t], render(str(spec["answer"]), ctx)
    except WordingError as exc:
        raise WordingError(f"{_where(chapter)}, exercise {name!r}: {exc}") from None


def words(chapter: str) -> dict:
    """The chapter's `words` tables (display names shared by its sentences and its descriptions)."""
    return load(chapter).get("words") or {}


def glue_claims(ledger: Ledger, said: dict[str, str] | None = None) -> None:
    """Glue every claim's sentence as `claim_<id>` (hidden), for `{glue:md}` in the prose; one that
    is not applicable to the input (`Claim.not_applicable`) as nothing, and one in `said` (a claim the
    bottom line states) as what it maps to (what the box leaves)."""
    from benchbook.presentation import outputs

    said = said or {}
    for c in ledger.claims:  # a claim that cannot apply to the input's format says nothing on its page
        outputs.glue(f"claim_{c.id}", said.get(c.id, c.text) if c.applicable else "", markdown=True)


def publish(ledger: Ledger) -> None:
    """Emit the ledger as a cell output; the build writes it to _build/claims/, `benchbook run`
    beside the page. Nothing is written from inside the notebook."""
    from benchbook.presentation import outputs

    outputs.display_raw({LEDGER_MIME: ledger.to_dict()})


def block(ledger: Ledger, ids=None) -> str:
    """Markdown paragraphs of the named claims (all when `ids` is None), in ledger order; a sentence
    two claims share (the same verdict on two runs of one model) is said once."""
    want = None if ids is None else set(ids)
    return "\n\n".join(dict.fromkeys(c.text for c in ledger.claims if want is None or c.id in want))


def block_after(ledger: Ledger, ids, **said) -> str:
    """`block`, each shown claim re-worded knowing what the sentence before the paragraphs said once
    for all of them (`said`, seen by the templates as `lead`: e.g. `peak=True` where a lead names the
    one peak every share is of), so that part is not repeated in every claim (issue 34)."""
    if not said:
        return block(ledger, ids)
    want = set(ids)
    texts = []
    for c in ledger.claims:
        if c.id in want:
            lead = Claim(c.id, c.kind, c.status, c.rule, {**c.evidence, "lead": said}, c.reason)
            texts.append(word(ledger.chapter, lead).text if c.shown else c.text)
    return "\n\n".join(dict.fromkeys(texts))


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
    # names only: a value may be a path on the reader's machine; its wording is in benchbook/report.claims.yml
    return sentence("report", "exercises_note", default=spec.get("source", {}).get("default"), changed=list(changed))
