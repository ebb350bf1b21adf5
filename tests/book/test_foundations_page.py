"""The foundations page's roofline figure, critical batch and exercise come from data/hardware.csv when
the book is staged: every number its prose names is defined, and each is the table's arithmetic."""

from __future__ import annotations

import re

import pytest
import yaml

from benchbook import config, hardware
from benchbook.analysis import roofline
from benchbook.presentation import foundations
from benchbook.presentation.plotting import overlaps


def test_every_number_the_page_names_is_staged_and_none_is_left_unnamed():
    page = (config.PROJ_ROOT / foundations.PAGE).read_text(encoding="utf-8")
    used = set(re.findall(r"\{\{\s*(\w+)\s*\}\}", page))
    assert used and used <= set(foundations.numbers())
    staged = foundations.staged()[foundations.PAGE].decode()
    front = yaml.safe_load(staged.split("---\n")[1])
    assert front["myst"]["substitutions"] == foundations.numbers()
    assert staged.endswith(page)


def test_the_critical_batch_is_the_ridge_times_bytes_per_weight_over_two():
    # the RTX PRO 6000: 500 TFLOP/s / 1,792 GB/s = 279 FLOP/byte; 16-bit weights: 279 sequences
    d = hardware.device("RTX-PRO-6000-Blackwell-WS")
    ridge = roofline.ridge(d.peak("fp16"), d.bandwidth_gb_s)
    assert ridge == pytest.approx(279.0, abs=0.1) and roofline.critical_batch(ridge, 2.0) == pytest.approx(ridge)
    n = foundations.numbers()
    assert (n["ridge"], n["batch16"], n["batch4"]) == ("279", "279", "79")
    # the other way: 8-bit weights computed in 16 bits halve it; FP8 compute doubles the ridge back
    assert roofline.critical_batch(ridge, 1.0) == pytest.approx(ridge / 2)
    assert (n["x_ridge16"], n["x_batch16"], n["x_ridge8"], n["x_batch8"]) == ("295", "295", "591", "295")


def test_the_page_has_its_figure_and_an_exercise_with_a_hidden_solution():
    page = (config.PROJ_ROOT / foundations.PAGE).read_text(encoding="utf-8")
    assert "```{figure} _roofline.svg" in page
    assert "**Exercise.**" in page and ":::{admonition} Solution\n:class: dropdown" in page
    fig = foundations.figure()
    assert overlaps(fig) == []
    labels = [t.get_text() for t in fig.axes[0].get_xticklabels()]
    assert labels == ["1", "10", "100", "1,000"]  # plain tick labels
    assert foundations.staged()[foundations.FIGURE].startswith(b"<?xml")


def test_the_exercise_says_fp8_leaves_the_critical_batch_where_it_was_only_where_the_table_does():
    """The solution's prose ('the two cancel') is typed: it holds while the exercise's device computes
    FP8 at twice its 16-bit rate, so that half the bytes meet a doubled ridge at the same batch."""
    page = (config.PROJ_ROOT / foundations.PAGE).read_text(encoding="utf-8")
    n = foundations.numbers()
    assert "the two cancel" in page and "{{ x_batch16 }}" in page and "{{ x_batch8 }}" in page
    assert n["x_batch16"] == n["x_batch8"]
    x = hardware.device(foundations.EXERCISE_DEVICE)
    b16 = roofline.critical_batch(roofline.ridge(x.peak("fp16"), x.bandwidth_gb_s), 2.0)
    b8 = roofline.critical_batch(roofline.ridge(x.peak("fp8"), x.bandwidth_gb_s), 1.0)
    assert b8 == pytest.approx(b16, rel=0.01)


def _sixteen_bit_ridges(devices) -> list[float]:
    """The 16-bit ridge (FLOP/byte) of each device that is not a CPU and has a 16-bit peak."""
    return [
        roofline.ridge(d.peak("fp16"), d.bandwidth_gb_s)
        for d in devices
        if d.kind != "cpu" and d.peak("fp16") and d.bandwidth_gb_s
    ]


def test_every_gpu_ridge_is_tens_of_flop_per_byte_or_more_most_hundreds_as_the_page_says():
    page = (config.PROJ_ROOT / foundations.PAGE).read_text(encoding="utf-8")
    assert "ridge point at tens of FLOP/byte or more, most at hundreds" in " ".join(page.split())
    ridges = _sixteen_bit_ridges(hardware.devices())
    assert min(ridges) >= 10 and sorted(ridges)[len(ridges) // 2] >= 100
    # the other way: a GPU with a ridge of 8 FLOP/byte would make the sentence false
    slow = hardware.Device("slow", "gpu", "x", 8, 1000.0, {"fp16": 8.0})
    assert min(_sixteen_bit_ridges([slow])) < 10


def test_the_measured_section_says_all_three_repeats_of_the_kernel_miss_were_slower():
    """'in all three repeats': every repeat of the missed batch took longer than every repeat of the
    next larger batch; the figure has the sweep's points and no text under 10 px."""
    from benchbook import measured
    from benchbook.analysis import decode_gemm
    from benchbook.presentation.plotting import readable

    page = (config.PROJ_ROOT / foundations.PAGE).read_text(encoding="utf-8")
    assert "in all three repeats" in page and "```{figure} _decode_gemm.svg" in page
    rows = measured.decode_gemm()
    rows = rows[rows["dtype"] == "bfloat16"]
    s = decode_gemm.sweep(rows)
    n = foundations.numbers()
    miss, after = int(n["g_miss"]), int(n["g_after_miss"])
    assert rows["repeat"].nunique() == 3
    assert rows.loc[rows["batch"] == miss, "seconds"].min() > rows.loc[rows["batch"] == after, "seconds"].max()
    assert miss in s.kernel_misses
    fig = foundations.gemm_figure()
    assert overlaps(fig) == [] and readable(fig) >= 10
    assert foundations.staged()[foundations.GEMM_FIGURE].startswith(b"<?xml")
