"""A series keeps one colour across its chapter (#34): a TP, a batch size, a precision, a kernel or a
mask is drawn in the same colour in every figure of the chapter that shows it, and no two series of
the chapter share one (batch 1 and TP 1 were both blue; a mask and the kernel of the same name too).
Read from the legends of each chapter's figures on its default input."""

from __future__ import annotations

import importlib
import re

import matplotlib
import pytest

matplotlib.use("Agg")
import matplotlib.colors as mc  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402

from benchbook.chapter import setup  # noqa: E402
from benchbook.presentation.plotting import use_theme  # noqa: E402

#: A legend label's series, per chapter: (pattern, key); the first that matches names it.
SERIES = {
    "tp_scaling": [(r"\bTP (\d+)\b", "TP {}"), (r"^(?:batch|bs) (\d+)\b", "batch {}"), (r"^(fp16)$", "{}")],
    "batch_saturation": [(r"^(?:measured, )?(bf16|fp16|fp32)\b", "{}")],
    "attention_kernels": [
        (r"^(causal FA2|SDPA \+ mask|FlexAttention)$", "kernel {}"),
        (r"^(causal|sliding window \d+|prefix LM \d+)$", "mask {}"),
    ],
    "perf_per_watt": [
        (r"^(pp\d+|compute-bound \(prefill\))$", "prompt"),
        (r"^(tg\d+|memory-bound \(decode\))$", "generation"),
    ],
    "serving_saturation": [
        (r"^(output|total) tok/s", "{} tok/s"),
        (r"^(mean|median|p99)$", "latency {}"),
        (r"^(runs kept apart|Pareto front)$", "{}"),  # runs on the curve are the sweep's, in its blue
    ],
    "quantization_regimes": [
        (r"(?:^|: )(bf16|16-bit weights and compute)$", "16-bit"),
        (r"(?:^|: )(w8a16|int8 weights, fp16 compute)$", "w8a16"),
        (r"(?:^|: )(w8a8|int8 weights, int8 compute)$", "w8a8"),
    ],
}


@pytest.fixture(autouse=True)
def _theme():
    use_theme()
    yield
    plt.close("all")


def _colour(handle) -> str | None:
    """A legend handle's colour: its line's, else its face's, else (an open marker) its edge's."""
    for get in ("get_color", "get_facecolor", "get_edgecolor"):
        if not hasattr(handle, get):
            continue
        c = getattr(handle, get)()
        if not isinstance(c, str) and len(c) and not isinstance(c[0], float):
            c = c[0]  # a collection: its first colour
        try:
            hexed = mc.to_hex(c)
        except ValueError:
            continue
        if hexed != "#ffffff":
            return hexed
    return None


def legend_colours(fig) -> list[tuple[str, str | None]]:
    legends = list(fig.legends) + [ax.get_legend() for ax in fig.axes if ax.get_legend() is not None]
    return [
        (t.get_text(), _colour(h)) for leg in legends for t, h in zip(leg.get_texts(), leg.legend_handles, strict=True)
    ]


def clashes(drawn: dict[str, list[tuple[str, str | None]]], patterns) -> list[str]:
    """Series drawn in two colours across the figures, and colours two series share."""
    seen: dict[str, set[str]] = {}
    where: dict[str, set[str]] = {}
    for pairs in drawn.values():
        for label, colour in pairs:
            for pattern, key in patterns:
                m = re.search(pattern, label)
                if m and colour:
                    seen.setdefault(key.format(m.group(1)), set()).add(colour)
                    where.setdefault(colour, set()).add(key.format(m.group(1)))
                    break
    out = [f"{k} drawn in {sorted(c)}" for k, c in seen.items() if len(c) > 1]
    return out + [f"{c} shared by {sorted(k)}" for c, k in where.items() if len(k) > 1]


def test_the_check_finds_a_series_in_two_colours_and_a_colour_two_series_share():
    patterns = SERIES["tp_scaling"]
    assert clashes({"a": [("TP 2", "#e69f00"), ("TP 4", "#009e73")], "b": [("TP 2", "#e69f00")]}, patterns) == []
    assert clashes({"a": [("TP 2", "#e69f00")], "b": [("decode TP 2", "#0072b2")]}, patterns) == [
        "TP 2 drawn in ['#0072b2', '#e69f00']"
    ]
    assert clashes({"a": [("TP 1", "#0072b2")], "b": [("batch 1", "#0072b2")]}, patterns) == [
        "#0072b2 shared by ['TP 1', 'batch 1']"
    ]


@pytest.mark.parametrize("chapter", sorted(SERIES))
def test_a_series_keeps_one_colour_across_its_chapter(chapter):
    topic = importlib.import_module(f"benchbook.topics.{chapter}")
    figures = {k: f for k, f in topic.page(topic.analyse(setup(chapter, {}))).figures.items() if f is not None}
    drawn = {name: legend_colours(fig) for name, fig in figures.items()}
    matched = [
        label for pairs in drawn.values() for label, _ in pairs if any(re.search(p, label) for p, _ in SERIES[chapter])
    ]
    assert matched, "no legend names a series: the patterns no longer match the figures"
    assert clashes(drawn, SERIES[chapter]) == []
    if chapter == "quantization_regimes":  # the winners' panels have no legend: their colours are precisions'
        precision = {c for _, c in drawn["fig_lesson"]}
        used = {mc.to_hex(ln.get_color()) for ax in figures["fig_winners"].axes for ln in ax.get_lines()}
        assert used and used <= precision
