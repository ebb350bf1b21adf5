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

from benchbook import config, hardware, measured
from benchbook.analysis import decode_gemm, roofline
from benchbook.presentation.plotting import color, finish, use_theme
from benchbook.presentation.roofline import plot_roofline

PAGE = "book/roofline_in_one_page.md"
FIGURE = "book/_roofline.svg"
GEMM_FIGURE = "book/_decode_gemm.svg"
#: The device the page derives in numbers (the one its worked example ran on), and the exercise's.
DEVICE = "RTX-PRO-6000-Blackwell-WS"
EXERCISE_DEVICE = "H100-SXM5-80GB"
#: Bytes per weight of the worked example's llama-2-7b Q4_0 file: its 3.82 GB over 6.74 billion weights.
Q4_0_BYTES_PER_WEIGHT = 3.82 / 6.74
#: The table row of the GPU the measured sweep ran on: nvidia-smi names it "NVIDIA H200" with 143,771 MiB
#: and a 700 W power limit, which only the SXM part allows (the NVL's limit is 600 W; data/hardware.csv).
GEMM_DEVICE = "H200-SXM-141GB"
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
        **_measured(),
    }


def _measured() -> dict[str, str]:
    """The numbers of the measured sweeps' section: the 16-bit step at batch 1, the ceilings it reached
    against the table's, the two critical batches, the kernel miss, the exercise's step time, and the
    FP8 sweep's ceilings and critical batch (`f_`)."""
    rows, d = measured.decode_gemm(), hardware.device(GEMM_DEVICE)
    s, f = decode_gemm.sweep(rows), decode_gemm.sweep(rows, "float8_e4m3fn")
    sheet = roofline.ridge(d.peak("fp16"), d.bandwidth_gb_s)
    ex = EXERCISE_GEMM_BATCH
    measured_ex = float(s.steps.loc[s.steps["batch"] == ex, "median_s"].iloc[0])
    predicted = s.bound_s(ex, s.bandwidth_gb_s, s.tflops)
    miss = s.kernel_misses[0] if s.kernel_misses else None
    after = int(s.steps.loc[s.steps["batch"] > miss, "batch"].iloc[0]) if miss else None
    at = dict(zip(s.steps["batch"], s.steps["median_s"], strict=True))
    return {
        "g_device": d.name,
        "g_weight_gb": f"{s.weight_gb:,.1f}",
        "g_k": f"{s.k:,}",
        "g_n": f"{s.n:,}",
        "g_batch1_ms": f"{s.read_s * 1e3:.2f}",
        "g_bw": f"{s.bandwidth_gb_s:,.0f}",
        "g_bw_sheet": f"{d.bandwidth_gb_s:,.0f}",
        "g_bw_share": f"{100 * s.bandwidth_gb_s / d.bandwidth_gb_s:.0f}",
        "g_tflops": f"{s.tflops:,.0f}",
        "g_tflops_sheet": f"{d.peak('fp16'):,.0f}",
        "g_tflops_share": f"{100 * s.tflops / d.peak('fp16'):.0f}",
        "g_ridge": f"{s.ridge:,.0f}",
        "g_batch": f"{s.critical_batch:,.0f}",
        "g_ridge_sheet": f"{sheet:,.0f}",
        "g_batch_sheet": f"{roofline.critical_batch(sheet, 2.0):,.0f}",
        "g_first_slower": f"{s.first_slower:,}",
        "g_first_slower_ms": f"{at[s.first_slower] * 1e3:.2f}",
        "g_spread": f"{100 * s.spread:.0f}",
        "g_miss": f"{miss:,}",
        "g_miss_ms": f"{at[miss] * 1e3:.2f}",
        "g_after_miss": f"{after:,}",
        "g_after_miss_ms": f"{at[after] * 1e3:.2f}",
        "g_ex_batch": f"{ex:,}",
        "g_ex_tflop": f"{ex * s.weight_gb / 1e3:,.2f}",
        "g_ex_predicted_ms": f"{predicted * 1e3:.2f}",
        "g_ex_measured_ms": f"{measured_ex * 1e3:.2f}",
        "g_ex_gap": f"{100 * (measured_ex / predicted - 1):.0f}",
        "f_weight_gb": f"{f.weight_gb:,.1f}",
        "f_batch": f"{int(f.steps['batch'].min()):,}",
        "f_read_ms": f"{f.read_s * 1e3:.2f}",
        "f_bw": f"{f.bandwidth_gb_s:,.0f}",
        "f_tflops": f"{f.tflops:,.0f}",
        "f_tflops_sheet": f"{d.peak('fp8'):,.0f}",
        "f_tflops_share": f"{100 * f.tflops / d.peak('fp8'):.0f}",
        "f_ridge": f"{f.ridge:,.0f}",
        "f_batch_star": f"{f.critical_batch:,.0f}",
        "f_first_slower": f"{f.first_slower:,}",
        **_under_power(s, d),
    }


def _listed(items: list[str]) -> str:
    """'a, b and c'."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def _under_power(s: decode_gemm.Sweep, d: hardware.Device) -> dict[str, str]:
    """The power run's numbers (`p_`): the board at the smallest batch, and past the sweep's bend
    (batches from its first slower one on) the power, the clock, the peak scaled to it and the
    share of that the steps reached."""
    limit_w, max_mhz = measured.gpu_limits()
    u = decode_gemm.under_power(measured.decode_gemm_power(), s.k, s.n, d.peak("fp16"), max_mhz)
    read, past = u.iloc[0], u[u["batch"] >= s.first_slower]
    return {
        "p_limit_w": f"{limit_w:,.0f}",
        "p_max_mhz": f"{max_mhz:,.0f}",
        "p_read_batch": f"{int(read['batch']):,}",
        "p_read_w": f"{read['power_w']:,.0f}",
        "p_read_mhz": f"{read['sm_mhz']:,.0f}",
        "p_read_share": f"{100 * read['power_w'] / limit_w:.0f}",
        "p_past_batches": _listed([f"{int(b):,}" for b in past["batch"]]),
        "p_past_w": f"{past['power_w'].min():,.0f}-{past['power_w'].max():,.0f}",
        "p_past_mhz": f"{past['sm_mhz'].min():,.0f}-{past['sm_mhz'].max():,.0f}",
        "p_past_tflops": f"{past['clocked_peak_tflops'].min():,.0f}-{past['clocked_peak_tflops'].max():,.0f}",
        "p_past_share": f"{100 * past['share_of_clocked_peak'].min():.0f}-{100 * past['share_of_clocked_peak'].max():.0f}",
    }


#: The batch the measured section's exercise asks a reader to predict, well past the ridge.
EXERCISE_GEMM_BATCH = 512


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


def gemm_figure():
    """The measured step time of the decode GEMM against its batch, beside the least time the table's
    peaks allow and the least the measured ceilings allow: flat while the weight read sets the pace,
    then rising in proportion to the batch past the ridge."""
    use_theme()
    rows, d = measured.decode_gemm(), hardware.device(GEMM_DEVICE)
    s, f = decode_gemm.sweep(rows), decode_gemm.sweep(rows, "float8_e4m3fn")
    st = s.steps
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    grid = list(range(1, int(max(st["batch"].max(), f.steps["batch"].max())) + 1))
    ax.plot(
        grid,
        [1e3 * s.bound_s(b, d.bandwidth_gb_s, d.peak("fp16")) for b in grid],
        color=color(7),
        linestyle="--",
        label="16-bit: least time at the table's peaks",
    )
    ax.plot(
        grid,
        [1e3 * s.bound_s(b, s.bandwidth_gb_s, s.tflops) for b in grid],
        color=color(0),
        label="16-bit: least time at measured ceilings",
    )
    hit = ~st["batch"].isin(s.kernel_misses)
    ax.errorbar(
        st.loc[hit, "batch"],
        1e3 * st.loc[hit, "median_s"],
        yerr=[
            1e3 * (st.loc[hit, "median_s"] - st.loc[hit, "low_s"]),
            1e3 * (st.loc[hit, "high_s"] - st.loc[hit, "median_s"]),
        ],
        fmt="o",
        color=color(3),
        markersize=5,
        label="16-bit: measured step (median of 3)",
    )
    if not hit.all():
        ax.plot(
            st.loc[~hit, "batch"],
            1e3 * st.loc[~hit, "median_s"],
            "o",
            mfc="none",
            color=color(3),
            markersize=7,
            label="16-bit: slower than a larger batch",
        )
    ax.plot(
        grid,
        [1e3 * f.bound_s(b, f.bandwidth_gb_s, f.tflops) for b in grid],
        color=color(2),
        label="FP8: least time at measured ceilings",
    )
    ax.errorbar(
        f.steps["batch"],
        1e3 * f.steps["median_s"],
        yerr=[1e3 * (f.steps["median_s"] - f.steps["low_s"]), 1e3 * (f.steps["high_s"] - f.steps["median_s"])],
        fmt="s",
        color=color(2),
        markersize=4,
        label="FP8: measured step (median of 3)",
    )
    ax.axvline(s.critical_batch, color=color(0), linestyle=":", linewidth=1)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    xt, yt = [1, 4, 16, 64, 256, 1024], [1, 2, 5, 10, 20]
    ax.set_xticks(xt, [f"{t:,}" for t in xt])
    ax.set_yticks(yt, [f"{t:,}" for t in yt])
    ax.minorticks_off()
    ax.set_ylim(1, 40)
    ax.set_xlabel("batch (sequences per decode step)")
    ax.set_ylabel("step time (ms)")
    ax.set_title(f"One weight read per decode step, on one {d.name}")
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
    return {
        PAGE: f"---\n{front}---\n\n{text}".encode(),
        FIGURE: _svg(figure()),
        GEMM_FIGURE: _svg(gemm_figure()),
    }
