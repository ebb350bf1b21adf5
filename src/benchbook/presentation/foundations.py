"""The foundations page (book/roofline_in_one_page.md) is static prose; its roofline figure and the
numbers of its critical-batch derivation and exercise are computed from data/hardware.csv when the
book is staged, so the page never types a number the table gives. The prose refers to each number by
name (a MyST substitution, `{{ ridge }}`); `staged` writes them into the staged copy's front matter
and draws the figure beside it."""

from __future__ import annotations

import io

import matplotlib.pyplot as plt
import pandas as pd
import yaml

from benchbook import config, hardware
from benchbook.analysis import roofline
from benchbook.presentation.plotting import finish, use_theme
from benchbook.presentation.roofline import plot_roofline

PAGE = "book/roofline_in_one_page.md"
FIGURE = "book/_roofline.svg"
#: The device the page derives in numbers (the one its worked example ran on), and the exercise's.
DEVICE = "RTX-PRO-6000-Blackwell-WS"
EXERCISE_DEVICE = "H100-SXM5-80GB"
#: Bytes per weight of the worked example's llama-2-7b Q4_0 file: its 3.82 GB over 6.74 billion weights.
Q4_0_BYTES_PER_WEIGHT = 3.82 / 6.74
#: The batch sizes the figure places on the roofline besides the critical one (16-bit weights).
BATCHES = (1, 8, 64)


def numbers() -> dict[str, str]:
    """Every number the page's prose names, formatted as the page prints it."""
    d, x = hardware.device(DEVICE), hardware.device(EXERCISE_DEVICE)
    ridge = roofline.ridge(d.peak("fp16"), d.bandwidth_gb_s)
    x16 = roofline.ridge(x.peak("fp16"), x.bandwidth_gb_s)
    x8 = roofline.ridge(x.peak("fp8"), x.bandwidth_gb_s)
    return {
        "device": d.name,
        "bandwidth": f"{d.bandwidth_gb_s:,.0f}",
        "tflops": f"{d.peak('fp16'):,.0f}",
        "ridge": f"{ridge:,.0f}",
        "batch16": f"{roofline.critical_batch(ridge, 2.0):,.0f}",
        "q4_bytes": f"{Q4_0_BYTES_PER_WEIGHT:.2f}",
        "batch4": f"{roofline.critical_batch(ridge, Q4_0_BYTES_PER_WEIGHT):,.0f}",
        "x_device": x.name,
        "x_bandwidth": f"{x.bandwidth_gb_s:,.0f}",
        "x_tflops16": f"{x.peak('fp16'):,.1f}",
        "x_tflops8": f"{x.peak('fp8'):,.1f}",
        "x_ridge16": f"{x16:,.0f}",
        "x_ridge8": f"{x8:,.0f}",
        "x_batch16": f"{roofline.critical_batch(x16, 2.0):,.0f}",
        "x_batch8": f"{roofline.critical_batch(x8, 1.0):,.0f}",
    }


def figure():
    """The device's roofline with decode at batch 1, 8 and 64 and at the critical batch, 16-bit
    weights: intensity = 2 FLOPs x batch / 2 bytes per weight, performance what the roof allows."""
    use_theme()
    d = hardware.device(DEVICE)
    ridge = roofline.ridge(d.peak("fp16"), d.bandwidth_gb_s)
    star = roofline.critical_batch(ridge, 2.0)
    batches = [*BATCHES, star]
    intensity = [2.0 * b / 2.0 for b in batches]
    pts = pd.DataFrame(
        {
            "intensity_flop_per_byte": intensity,
            "achieved_tflops": roofline.attainable_tflops(intensity, d, d.peak("fp16")),
            "label": [f"decode, batch {b:,.0f}" for b in BATCHES] + [f"decode, batch {star:,.0f} (the ridge)"],
        }
    )
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    plot_roofline(ax, d, pts, peak_tflops=d.peak("fp16"), hue_col="label", xlim=(0.5, 5_000))
    ax.set_title(f"16-bit decode on the {d.name} roofline")
    xt, yt = [1, 10, 100, 1000], [1, 10, 100, 1000]
    ax.set_xticks(xt, [f"{t:,}" for t in xt])
    ax.set_yticks(yt, [f"{t:,}" for t in yt])
    ax.set_ylim(0.5, 2 * d.peak("fp16"))
    ax.minorticks_off()
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=2)
    fig.tight_layout()
    finish(fig)
    return fig


def _svg(fig) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(fig)
    return buf.getvalue()


def staged() -> dict[str, bytes]:
    """The staged page (its prose with the numbers in its front matter) and its figure, by path
    relative to the project root; nothing for a project without the page."""
    page = config.PROJ_ROOT / PAGE
    if not page.is_file():
        return {}
    text = page.read_text(encoding="utf-8")
    front = yaml.safe_dump({"myst": {"substitutions": numbers()}}, sort_keys=True, allow_unicode=True)
    return {PAGE: f"---\n{front}---\n\n{text}".encode(), FIGURE: _svg(figure())}
