"""What a reader's file states about its run, fact by fact, each with the lines it is read from
(`ingest.context`): the report shows it beside every chapter page, so every fact written around the
tool's numbers (a heading's device, a command's TP, an appended power line) reaches the page as the
file states it, whether or not a chapter's rule uses it. Nothing is inferred here: values are shown
as written, several values of one fact all shown, and a fact the file does not state is left out
(never said to be absent: that needs `context.states`)."""

from __future__ import annotations

import html
from dataclasses import dataclass

from benchbook.ingest import context
from benchbook.presentation import wording

#: The package wording that names each fact (`words: facts:`) and holds the report's sentences.
WORDING = "report"
#: Distinct values shown per fact, and the lines cited per value, before the rest are counted.
MAX_VALUES = 3
MAX_LINES = 3
MAX_CHARS = 80


@dataclass(frozen=True)
class Stated:
    """One fact as the file states it: its label and each distinct value with its lines."""

    name: str
    label: str
    values: tuple[tuple[str, tuple[int, ...]], ...]
    more: int = 0


def _shown(fact: context.Fact) -> str:
    raw = fact.value
    if isinstance(raw, float) and raw.is_integer():
        raw = int(raw)  # 512 W, as the file writes it, not 512.0
    value = " ".join(str(raw).split())
    if len(value) > MAX_CHARS:
        value = value[: MAX_CHARS - 1].rstrip() + "…"
    if fact.name in ("power", "power_limit", "energy", "rate") and fact.unit and fact.unit not in value:
        value = f"{value} {fact.unit}"
    if fact.scope and fact.scope != "scope not stated":
        value = f"{value}, {fact.scope}"
    key = fact.text.split(":", 1)[0].strip() if fact.source == "json" else ""
    if key and len(key) <= 40:  # the field it is read from: a worker's `max_concurrency` is not the run's load
        value = f"{value} ({key})"
    return value


def stated(
    ctx: context.Context,
    models: tuple[tuple[str, tuple[int, ...]], ...] = (),
    read: frozenset[int] = frozenset(),
    achieved: frozenset[tuple[int, float]] = frozenset(),
) -> list[Stated]:
    """Every fact `ctx` holds (not headings), in `context.NAMES` order, values in the order the
    file's precedence gives them; a model named in a path only where no model is named otherwise.
    `models`: the models the tool's own output names (its parser's, with the lines that name them),
    which come first where the text names a model in sentences only, so that a model a sentence names
    for another run (a page that speaks of several benchmarks) is never shown alone as the run's. `read`:
    the lines the tool's rows come from; a caption's fact over a block holding none of them is left out, and
    so is a value the file leaves to a variable (`context.placeholder`) and a fact a thread's writer states
    who wrote none of the posts holding them. `achieved`: (line, value) of each request throughput the tool's
    own rows give as measured (MLPerf endpoints' `QPS: 2323.27`, inference-perf's `successes.rate`): a rate
    read there with that value is what the run achieved, never the rate it was offered, so it is no fact of
    the run's load."""
    labels = (wording.words(WORDING).get("facts") or {}) if (ctx.facts or models) else {}
    out = []
    for name in context.NAMES:
        if name == "path_model" and (ctx.get("model") or models):
            continue  # a model named elsewhere: the paths' folders add nothing to it
        by_value: dict[str, list[int]] = {}
        if name == "model" and ctx.get("model") and all(f.source == "prose" for f in ctx.get("model")):
            # only sentences name a model: they may speak of another run (a page of several benchmarks); a
            # command, heading or key names the run's own, and the list stays as the text gives it
            written = [str(f.value).lower() for f in ctx.get("model")]
            for value, lines in models:
                if lines and not any(value.lower() in w or w in value.lower() for w in written):
                    by_value.setdefault(value, []).extend(lines)  # a model the text around it does not name
        for fact in context.of_posts(ctx, ctx.get(name), read):
            if name == "rate" and _achieved(fact, achieved):
                continue  # the tool's measured throughput, which the page gives as a result
            if context.labels_another_block(fact, read) or context.placeholder(fact.value):
                continue  # another block's caption, or a value left for the reader to fill (`vllm serve $MODEL_NAME`, `<path to model>`)
            by_value.setdefault(_shown(fact), []).append(fact.line)
        if not by_value:
            continue
        values = tuple((v, tuple(sorted(set(lines)))) for v, lines in by_value.items())
        out.append(Stated(name, labels.get(name, name), values[:MAX_VALUES], max(0, len(values) - MAX_VALUES)))
    if not any(s.name == "precision" for s in out) and (tags := _name_tag(out, context.launch_quantization(ctx))):
        at = context.NAMES.index("precision")
        out.insert(
            sum(context.NAMES.index(s.name) < at for s in out if s.name in context.NAMES),
            Stated("precision", labels.get("precision", "precision"), tags),
        )
    return out


def _name_tag(out: list[Stated], quantized: dict[int, str] | None = None) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """The weights' precision the run's model names in its own name, where the file states none otherwise
    (`MiniMax-M2.5-W8A8`, `...-bf16`: `analysis.precision.tagged`, the tag as written), with the lines that name
    the model; none where the models' names give different precisions. `quantized`: the lines whose launch
    states its own quantization (`context.launch_quantization`: TGI's `--quantize`, vLLM's and SGLang's
    `--quantization`, line -> flag): there the server quantized the checkpoint on load, so the name's tag is
    not that launch's precision; the flag is listed with its line instead, and the tag only with the lines
    of launches that state none."""
    from benchbook.analysis import precision

    quantized = quantized or {}
    lines: dict[str, list[int]] = {}
    written: dict[str, str] = {}
    bare: list[tuple[str, tuple[int, ...]]] = []
    tagged: list[tuple[str, tuple[int, ...]]] = []
    on_load: dict[str, list[int]] = {}
    for s in out:
        if s.name not in ("model", "path_model"):
            continue
        for value, at in s.values:
            name = value.rsplit(" (", 1)[0] if value.endswith(")") else value  # less the JSON key `_shown` adds
            if t := precision.tagged(name):
                for n in at:
                    if n in quantized:
                        on_load.setdefault(quantized[n], []).append(n)
                own = tuple(n for n in at if n not in quantized)
                if own:
                    lines.setdefault(t[0], []).extend(own)
                    written.setdefault(t[0], t[1])
                tagged.append((precision.checkpoint(name), at))
            else:
                bare.append((precision.checkpoint(name), at))
    # a model without a tag is the tagged one's alias only where the lines naming the tagged one name it too and
    # its name is part of it (`served_model_name='minimax-m2.5'` in the dump of `model='.../MiniMax-M2.5-W8A8'`);
    # another model named apart (`--model Qwen/Qwen3-8B` in one command, `Qwen/Qwen3-8B-FP8` in the next) is
    # another checkpoint, and leaves no one tag
    if len(lines) > 1 or not all(any(b in t and set(b_at) <= set(t_at) for t, t_at in tagged) for b, b_at in bare):
        return ()
    said = tuple(
        (wording.sentence(WORDING, "name_tag", tag=written[prec]), tuple(sorted(set(at)))) for prec, at in lines.items()
    )
    return said + tuple(
        (wording.sentence(WORDING, "launch_quant", flag=flag), tuple(sorted(set(at)))) for flag, at in on_load.items()
    )


def _achieved(fact: context.Fact, achieved: frozenset[tuple[int, float]]) -> bool:
    """Whether `fact` is a measured request throughput of the tool's rows: its line and its value."""
    try:
        v = float(fact.value)
    except (TypeError, ValueError):
        return False
    return any(line == fact.line and abs(v - x) <= 1e-9 * max(1.0, abs(x)) for line, x in achieved)


def _lines(lines: tuple[int, ...]) -> str:
    shown = ", ".join(str(n) for n in lines[:MAX_LINES])
    extra = len(lines) - MAX_LINES
    return ("line " if len(lines) == 1 else "lines ") + shown + (f" and {extra} more" if extra > 0 else "")


def html_list(file: str, facts: list[Stated]) -> str:
    """The facts as an HTML paragraph and list (empty when the file states none)."""
    if not facts:
        return ""
    items = []
    for s in facts:
        values = "; ".join(f"<code>{html.escape(v)}</code> ({_lines(lines)})" for v, lines in s.values)
        if s.more:
            values += "; " + html.escape(wording.sentence(WORDING, "more_values", n=s.more))
        items.append(f"<li>{html.escape(s.label)}: {values}</li>")
    intro = html.escape(wording.sentence(WORDING, "run_facts", file=file))
    return f'<p>{intro}</p><ul class="benchbook-run-facts">{"".join(items)}</ul>'
