"""The quantization chapter's logic, run without a notebook: on its seed (seed 002,
mtilyxuegao/qwen_quantization on an A100-SXM4-80GB) and on real result.jsonl fixtures, with the
known answers recomputed by hand from the runs, and for each rule a case where it comes out the
other way."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from benchbook import hardware
from benchbook.analysis import quant
from benchbook.chapter import setup
from benchbook.claims import quant as verdicts
from benchbook.claims import rules
from benchbook.presentation import exercises, placement
from benchbook.topics import quantization_regimes as topic

SEED = "data/raw/quant_regimes/002_720befe671f869ae.txt"
CUT = "tests/fixtures/sglang-quant-report/qwen_quantization_result_cut.jsonl"
THREE = "tests/fixtures/sglang-quant-report/seed002_three_schemes.jsonl"
DSV4 = "tests/fixtures/sglang-quant-report/dsv4_flash_1k8k.md"


def run(source: str, **params):
    return topic.analyse(setup("quantization_regimes", {"source": source, **params}))


@pytest.fixture(scope="module")
def seed():
    return run(SEED)


def claim(result, cid):
    return result.ledger.get(cid)


def test_w8a8_beats_the_baseline_in_all_seven_regimes_of_the_seed(seed):
    c = claim(seed, "w8a8_gain")
    assert c.status == "shown"
    ev = c.evidence
    assert (ev["count"], ev["n"]) == (7, 7)
    assert round(ev["low"], 2) == 1.25 and round(ev["high"], 2) == 1.45
    assert ev["p_max"] <= 0.011
    assert ev["baseline"] == "original" and ev["baseline_precision"] == "bf16"
    assert c.text.startswith("In all 7 regimes, the best w8a8 scheme is faster than original (bf16)")


def test_the_bottom_line_leads_with_the_w8a8_result_and_ends_with_the_caveat(seed):
    from benchbook.presentation import bottom_line

    picked = [c["id"] for c in bottom_line.pick(seed.ledger)]
    assert picked[0] == "w8a8_gain" and picked[-1] == "confound"
    caveat = bottom_line.box(seed.ledger).splitlines()[-1]
    assert "caveat" in caveat.lower() and len(caveat) <= 66  # one line of the book's box at 1300 px
    # the manifest's hardware the caveat once quoted is the page's setting sentence's
    assert "one GPU per model" not in caveat and "one GPU per model" in topic.page(seed).markdown["setting"]


def test_no_w8a8_gain_is_claimed_where_the_w8a8_runs_are_no_faster():
    """The other way: w8a8 runs equal to the baseline's (the seed's own baseline values, renamed)."""
    rt = pd.DataFrame(
        {
            "regime": ["decode_bound"] * 6,
            "scheme": ["original"] * 3 + ["w8a8_x"] * 3,
            "batch_size": [1] * 6,
            "output_throughput": [100.0, 101.0, 99.0, 100.5, 99.5, 100.0],
        }
    )
    best = quant.best_against_baseline(rt, {"decode_bound": "output_throughput"}, "original", ["w8a8_x"])
    c = verdicts.w8a8_gain(best, "original", 0.05, None)
    assert c.status == "withheld" and c.evidence["count"] == 0 and c.evidence["n"] == 1


def test_the_w8a16_decode_trend_is_shown_from_1_38_to_0_83_between_batch_1_and_64(seed):
    c = claim(seed, "w8a16_decode_trend")
    assert c.status == "shown"
    ev = c.evidence
    assert (ev["x_first"], ev["x_last"]) == (1, 64)
    assert round(ev["y_first"], 2) == 1.38 and round(ev["y_last"], 2) == 0.83
    # the ratio crosses 1 between batch 32 (1.06) and 64 (0.83): log-interpolated near 39
    assert 32 < ev["crossover_batch"] < 64
    assert round(ev["crossover_batch"]) == 39


def test_a_trend_judged_over_its_range_breaks_on_a_step_against_it_beyond_its_noise():
    ev = {"xs": [1, 8, 32, 64], "ys": [1.38, 1.31, 1.06, 0.83], "direction": "falls", "min_points": 3}
    ev |= {"judged": "ends", "tolerance": 0.02, "noise": [0.16, 0.37, 0.37], "point_noise": [0.15, 0.05, 0.37, 0.01]}
    assert rules.trend(ev) == "falls"
    # step by step, every step is inside its noise: judged so, a 40 % fall reads as flat
    assert rules.trend({**ev, "judged": None}) == "flat"
    rising = {**ev, "ys": [1.38, 1.31, 1.9, 0.83], "noise": [0.02, 0.02, 0.02]}
    assert rules.trend(rising) == "mixed"
    flat = {**ev, "ys": [1.0, 1.01, 0.99, 1.0]}
    assert rules.trend(flat) == "flat"
    assert rules.scaling(flat)[0] == "withheld"


def test_the_heading_about_weight_only_int8_promises_nothing_the_input_cannot_decide():
    text = open("notebooks/quantization_regimes.md", encoding="utf-8").read()
    assert "Why weight-only int8 loses at large batch" not in text
    assert "cannot decide" not in text


def test_exercise_one_reads_the_bytes_from_the_model_size_and_the_checkpoint_precision(seed):
    ev = claim(seed, "decode_bandwidth").evidence
    size = hardware.model_size("Qwen/Qwen3-4B-Instruct-2507")
    assert ev["active_params_b"] == size.active_b == 4.02
    assert ev["baseline_bytes_per_weight"] == 2.0  # bf16, the model table's checkpoint precision
    assert ev["bytes_per_weight"] == quant.precision(ev["scheme"])["bytes_per_weight"] == 1.0
    assert ev["baseline_step_gb"] == pytest.approx(8.04) and ev["step_gb"] == pytest.approx(4.02)
    first = exercises.quantization_regimes(seed.ledger)[0]
    text = " ".join([first.question, *first.steps, first.answer])
    assert "8.04 GB per step" in text and "4.02 GB per step" in text
    assert "2,039 GB/s / 8.04 GB x batch 1 = 253.6 tok/s" in text
    assert "2,039 / 4.02 x 1 = 507.2 tok/s" in text
    # the measured rates are the runs' own: output throughput of the smallest-batch decode
    runs = seed.clean[(seed.clean["regime"] == ev["regime"])]
    base_rate = runs[runs["scheme"] == "original"]["output_throughput"].mean()
    assert f"{base_rate:,.1f}" in first.question


def test_exercise_two_recomputes_the_ridge_and_the_weight_only_batches_from_the_device(seed):
    second = exercises.quantization_regimes(seed.ledger)[1]
    a100 = hardware.device("A100-SXM4-80GB")
    ridge = a100.peak("bf16") * 1000 / a100.bandwidth_gb_s
    assert round(ridge) == 153
    assert second.steps[0].startswith(f"Ridge = 312 x 1000 / 2,039 = {ridge:.0f} FLOP/byte.")
    assert f"B = {ridge:.0f} / 2 = {ridge / 2:.0f}, 16-bit ones (B FLOP/byte) at B = {ridge:.0f}." in second.steps[0]
    # batch 64, the largest measured, is below 77: the roofline predicts 2x; the runs measured 0.83x
    trend = seed.ledger.get("w8a16_decode_trend").evidence
    assert trend["x_last"] == 64 and "Batch 64 is below 77" in second.steps[1]
    assert second.answer == f"2.00x predicted at batch 64; the runs measured {trend['y_last']:.2f}x."
    assert "a loss from about batch 39" in second.steps[2]


def test_the_lesson_is_worked_on_the_run_device_else_on_an_example_said_so(seed):
    assert seed.lesson.device == "A100-SXM4-80GB" and not seed.lesson.example
    other = run(THREE)
    assert other.peaks is None and other.lesson.example
    b = np.array([1.0, 50, 100, 153.0, 1000])
    ideal = quant.ideal_speedups(b, 312, 624, 2039)
    assert ideal["w8a16"][:2] == pytest.approx([2, 2])
    assert ideal["w8a16"][2] == pytest.approx(312e12 / 2039e9 / 100)
    assert ideal["w8a16"][3:] == pytest.approx([1, 1], abs=0.01)
    assert ideal["w8a8"] == pytest.approx([2] * 5)


def test_the_cut_raw_file_keeps_the_w8a8_gain_and_leaves_out_its_timestamp_outlier():
    r = run(CUT)
    assert claim(r, "w8a8_gain").status == "shown"
    left = r.left_out
    assert list(left["value"].round(2)) == [1526.74]


def test_a_write_up_with_one_run_per_configuration_and_no_baseline_claims_no_gain():
    r = run(DSV4)
    assert r.baseline == ""
    assert claim(r, "w8a8_gain").status == "withheld"
    assert claim(r, "w8a16_decode_trend").status == "withheld"
    assert all(not c.text.startswith("In all") for c in r.ledger.claims)


def test_each_claim_is_said_once_on_the_page(seed):
    from benchbook.presentation import bottom_line

    boxed = {c["id"] for c in bottom_line.pick(seed.ledger)}
    said = placement.in_place(seed.ledger)
    assert all(said[f"here_{i}"] == "" for i in boxed)
    listed = placement.folded(seed.ledger)
    texts = [t for t in said.values() if t]
    assert all(t not in listed for t in texts)


def test_a_reason_several_withheld_claims_share_is_said_once():
    r = run(THREE)  # no manifest: no model, no device
    listed = placement.folded(r.ledger)
    for reason in {c.reason for c in r.ledger.claims if c.status == "withheld" and c.reason}:
        assert listed.count(reason) <= 1


def test_the_page_draws_no_figure_without_data_and_says_why():
    r = run(THREE)
    pg = topic.page(r)
    assert "fig_roofline" not in pg.figures
    assert pg.markdown["why_no_roofline"].startswith("No roofline figure")
    assert pg.markdown["why_no_heatmap"] == ""


def _legend(html: str) -> dict[str, str]:
    import re

    line = html.split('class="benchbook-legend"')[1].split("</td>")[0]
    return dict(re.findall(r"([\w.+-]+)&nbsp;=&nbsp;([\w.+-]+)", line))


def test_the_scheme_tables_show_short_aliases_with_a_legend_and_the_narrow_tables_none(seed):
    """The seed's metric and decision tables are too wide for an 800 px window's column with whole
    scheme names (#34 item 9): each shows aliases, its legend names every alias it shows, and
    `w8a16_sparse_awq` / `w8a16_smooth_awq` differ; the regimes table fits and keeps its names."""
    import re

    page = topic.page(seed)
    for name in ("sensitivity", "decision"):
        html = page.tables[name]()._repr_html_()
        legend = _legend(html)
        body = re.sub("<[^>]+>", " ", html.split("benchbook-legend")[0])
        assert set(re.findall(r"\bw8a\d+_\w+", body)) == set(legend), name
        assert "w8a8_sparse_smooth_gptq" not in body and legend["w8a8_sp_sm_g"] == "w8a8_sparse_smooth_gptq"
        assert set(legend.values()) <= set(topic.schemes(seed))
    assert {"w8a16_sp_a", "w8a16_sm_a"} <= set(_legend(page.tables["decision"]()._repr_html_()))
    assert "benchbook-legend" not in page.tables["regimes"]()._repr_html_()
    plt.close("all")  # the page drew its figures too


@pytest.mark.browser
def test_the_scheme_tables_fit_the_column_at_1300_and_800_px_in_chromium(seed):
    """Measured under the book's stylesheet in the text column at 1300 px (704 px) and at 800 px
    (560 px): with aliases neither table is wider than the column; with whole names the metric
    table was wider at both (757 px at 1300)."""
    from concurrent.futures import ThreadPoolExecutor
    from pathlib import Path

    from playwright.sync_api import sync_playwright
    from test_book_pages import MEASURE
    from test_browser import ARGS, CHROMIUM

    from benchbook.presentation import quant as show
    from benchbook.presentation import tables
    from benchbook.presentation.sphinx_book import CSS

    if not Path(CHROMIUM).is_file():
        pytest.fail(f"{CHROMIUM} is missing: run `make browser` (Debian's chromium package)")
    page = topic.page(seed)
    shown = [page.tables[n]()._repr_html_() for n in ("sensitivity", "decision")]
    plt.close("all")
    whole = tables.show(show.sensitivity_table(seed.sensitivity, seed.published), missing=show.SENSITIVITY_MISSING)
    frame = "<style>{}</style><main style='width: {}px'>{}</main>"

    def widths() -> dict[int, list[float]]:
        out = {}
        with sync_playwright() as p:
            b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            pg = b.new_page(viewport={"width": 1300, "height": 900})
            for col in (704, 560):
                out[col] = []
                for html in [*shown, whole._repr_html_()]:
                    pg.set_content(frame.format(CSS, col, html))
                    out[col] += [t["width"] for t in pg.evaluate(MEASURE)["tables"]]
            b.close()
        return out

    with ThreadPoolExecutor(1) as pool:  # Playwright's sync session may be open in this thread already
        w = pool.submit(widths).result()
    for col, (sens, decision, before) in w.items():
        assert sens <= col and decision <= col and before > col, (col, w)
