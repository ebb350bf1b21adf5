"""The bandwidth_roofline chapter's logic without a notebook: `analyse` and `page` on the seed and on
real llama-bench outputs, the lesson's ceiling and each exercise recomputed from the result."""

from __future__ import annotations

import re

import matplotlib.pyplot as plt
import pytest

from benchbook import chapter, hardware
from benchbook.analysis import envelope as env
from benchbook.claims.rules import check
from benchbook.presentation import bottom_line, exercises
from benchbook.topics import bandwidth_roofline

FIX = "tests/fixtures/llama-bench"


def _run(source: str | None = None):
    return bandwidth_roofline.analyse(chapter.setup("bandwidth_roofline", {"source": source} if source else {}))


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def seed():
    return _run()


def test_the_seed_lesson_works_the_ceiling_of_its_smallest_dense_model(seed):
    text = bandwidth_roofline.page(seed).markdown["lesson_text"]
    # llama-2-7b Q4_0: 3.56 GiB = 3.82 GB per token; the RTX PRO 6000's 1,792 GB/s / 3.82 = 469 tok/s; 278.95 measured
    peak = hardware.device("RTX-PRO-6000-Blackwell-WS").bandwidth_gb_s
    row = seed.points[seed.points["model_file"].str.startswith("llama-2-7b")].iloc[0]
    gb = row["bytes_per_token"] / 1e9
    ceiling = env.ceiling(peak, gb)
    assert f"`llama-2-7b.Q4_0` reads {gb:.2f} GB per token" in text
    assert f"{peak:,.0f} / {gb:.2f} = {ceiling:,.0f} tokens/s" in text and "278.95 tokens/s: 59.5%" in text


def test_the_seed_bottom_line_is_the_trend_whose_top_is_the_closest_result_said_once(seed):
    assert check(seed.ledger.to_dict()) == []
    pg = bandwidth_roofline.page(seed)
    # the closest result (the 70B at 81%) is the trend's top point: the trend gives its share already
    assert pg.box == ["bw_size_trend"]
    box = bottom_line.box(seed.ledger, pg.box)
    assert "from 60% to 81%" in box and "81% of the 1,792 GB/s" not in box and "*Withheld:*" not in box
    big = next(c for c in seed.ledger.claims if c.evidence.get("label", "").startswith("shisa-v2-llama3.3"))
    assert big.shown and big.evidence["fraction"] == seed.ledger.get("bw_size_trend").evidence["high"]
    prose = "\n".join(pg.markdown.values())
    for cid in pg.box:
        assert seed.ledger.get(cid).text not in prose
    assert "(s)" not in prose + box


def test_the_exercises_recompute_from_the_seed_result(seed):
    md = exercises.markdown(seed.ledger.to_dict())
    # predicted for the 70B from the 7B at an equal share: 278.95 x 3.82 / 42.51; the ridge over 3.53 FLOP/byte
    small = seed.ledger.get("bw_3").evidence
    big = next(c.evidence for c in seed.ledger.claims if c.evidence.get("label", "").startswith("shisa-v2-llama3.3"))
    # from the factors the step prints (3.82 and 42.51 GB): 25.07, where the unrounded bytes give 25.08
    guess = round(small["rate"], 2) * round(small["gb_per_token"], 2) / round(big["gb_per_token"], 2)
    assert f"= {guess:,.2f} tok/s" in md and "= 25.07 tok/s" in md and f"{big['rate']:,.2f} measured" in md
    # the critical batch of the 70B (the 7B's is the foundations page's): the ridge over 3.32 FLOP/byte, 84
    i = env.intensity(big["active_params_b"], big["gb_per_token"])
    ridge = seed.ledger.get("bound_5").evidence["ridge"]
    assert f"about {ridge / i:,.0f} sequences" in md and "about 79 sequences" not in md
    achieved = 2 * big["active_params_b"] * big["rate"] / 1e3
    assert f"{achieved:.2f} x 10^12 FLOP/s, {achieved / (ridge * 1.792):.2%} of the 500 TFLOP/s roof" in md


def test_a_one_model_output_shows_its_own_numbers_and_leaves_out_what_it_cannot_give():
    r = _run(f"{FIX}/llamacpp_readme_b1275.json")
    assert check(r.ledger.to_dict()) == []
    pg = bandwidth_roofline.page(r)
    # llama 7B Q4_0 on an RTX 3090 Ti (gpu_info): 1,008 GB/s / 3.83 GB = 264 tok/s; 130.97 measured
    assert "1,008 / 3.83 = 264 tokens/s" in pg.markdown["lesson_text"]
    assert pg.box == ["bw_1"] and "trend" not in bottom_line.box(r.ledger, pg.box).lower()
    md = exercises.markdown(r.ledger.to_dict())
    assert md.count("**Exercise ") == 1 and "RTX-3090-Ti's ridge" in md
    everything = "\n".join([*pg.markdown.values(), *pg.texts.values(), md])
    assert not re.search(r"RTX-PRO-6000|278\.95|data/raw|shisa", everything)


def test_an_output_of_a_device_the_table_lacks_draws_no_figure_and_says_why():
    r = _run(f"{FIX}/rx580_p550_vulkan.md")
    pg = bandwidth_roofline.page(r)
    # an RX 580 the hardware table does not hold: nothing placed under a ceiling
    assert len(r.points) and r.points["fraction_of_peak"].isna().all()
    assert all(f is None for f in pg.figures.values())
    assert pg.texts["cap_ceiling"].startswith("Not drawn") and "not worked" in pg.markdown["lesson_text"]


@pytest.mark.parametrize(
    ("source", "said"),
    [
        ("tests/fixtures/llama-bench/arc_a310_pi500_vulkan.md", False),
        ("tests/fixtures/vllm-bench-offline/qwen35_0p8b_rtx3080ti_latency_report_zh.md", True),
    ],
)
def test_how_a_vllm_latency_run_is_counted_is_said_only_where_the_input_has_one(source, said):
    """Issue #34: a paragraph about `vllm bench latency` stood on every llama-bench page."""
    from benchbook.chapter import setup
    from benchbook.topics import bandwidth_roofline

    md = bandwidth_roofline.page(bandwidth_roofline.analyse(setup("bandwidth_roofline", {"source": source}))).markdown
    assert ("vLLM `bench latency` run at batch 1" in md["vllm_bytes"]) is said


def test_the_peak_a_section_measures_against_is_said_once_before_its_shares(seed):
    """Issue 34: "(its peak from the table, for the device the output names)" closed each of the
    eleven share sentences of the seed page; the device's peak and its source are said once per section."""
    md = bandwidth_roofline.page(seed).markdown
    for key, peak in (("fractions", "1,792 GB/s"), ("prefill_claims", "500 TFLOP/s dense 16-bit peak")):
        assert md[key].count("its peak from the table") == 1
        assert md[key].startswith(
            f"Each share below is of the RTX-PRO-6000-Blackwell-WS's {peak}: its peak from the table"
        )
    shares = [c.text for c in seed.ledger.claims if c.shown and c.id.startswith(("bw_", "pp_"))]
    assert len(shares) >= 6 and not any("its peak from" in t for t in shares)


def test_each_share_under_a_lead_naming_one_peak_says_that_peak_not_the_device_and_its_peak_again(seed):
    """Issue 34: after "Each share below is of the RTX-PRO-6000-Blackwell-WS's 1,792 GB/s", six lines each
    ended "of the 1,792 GB/s of the RTX-PRO-6000-Blackwell-WS"; under one peak a line gives the number, not the
    device and its peak's kind again, and the ledger (read without the lead) keeps the device in every claim."""
    md = bandwidth_roofline.page(seed).markdown
    for key, peak in (("fractions", "1,792 GB/s."), ("prefill_claims", "500 TFLOP/s.")):
        assert md[key].count("RTX-PRO-6000-Blackwell-WS") == 1 and md[key].count(f"% of the {peak}") >= 4
    ledger = [c.text for c in seed.ledger.claims if c.shown and c.id.startswith("bw_") and c.kind == "fraction_of_peak"]
    assert ledger and all("of the 1,792 GB/s of the RTX-PRO-6000-Blackwell-WS" in t for t in ledger)


def test_shares_of_two_peaks_keep_each_device_and_its_peak_in_every_line(seed):
    from benchbook.claims import Claim
    from benchbook.presentation import bandwidth as show
    from benchbook.presentation import wording

    real = [c for c in seed.ledger.claims if c.shown and c.id.startswith("bw_") and c.kind == "fraction_of_peak"]
    a, b = real[:2]

    def on(c, device, peak):
        return Claim(c.id, c.kind, "shown", c.rule, {**c.evidence, "device": device, "peak": peak})

    one = wording.ledger("bandwidth_roofline", [], [on(a, "H100-SXM", 3350.0), on(b, "H100-SXM", 3350.0)])
    two = wording.ledger("bandwidth_roofline", [], [on(a, "H100-SXM", 3350.0), on(b, "L4-24GB", 300.0)])
    said_once = show.shares(one, [a.id, b.id], "GB/s")
    assert said_once.count("H100-SXM") == 1 and said_once.count("% of the 3,350 GB/s.") == 2
    said_each = show.shares(two, [a.id, b.id], "GB/s")
    assert "of the 3,350 GB/s of the H100-SXM." in said_each and "of the 300 GB/s of the L4-24GB." in said_each


def test_shares_of_two_devices_name_each_peak_once_and_a_section_with_no_share_names_none():
    from benchbook.claims import Claim, Ledger
    from benchbook.presentation import bandwidth as show

    def share(cid, device, peak, source="detected", status="shown"):
        ev = {"device": device, "peak": peak, "peak_source": source, "fraction": 0.5}
        return Claim(cid, "fraction_of_peak", status, "r", ev)

    led = Ledger(
        "bandwidth_roofline",
        [],
        [
            share("bw_a", "H100-SXM", 3350.0),
            share("bw_b", "H100-SXM", 3350.0),
            share("bw_c", "A100-SXM4-80GB", 2039.0, "parameter"),
        ],
    )
    lead = show.peak_lead(led, ["bw_a", "bw_b", "bw_c"], "GB/s")
    assert lead.startswith(
        "Each share below is of its device's peak: the H100-SXM's 3,350 GB/s (its peak from the table"
    )
    assert (
        lead.count("H100-SXM") == 1
        and "the A100-SXM4-80GB's 2,039 GB/s (its peak as given by the chapter's parameters)" in lead
    )
    withheld = Ledger("bandwidth_roofline", [], [share("bw_a", "H100-SXM", 3350.0, status="withheld")])
    assert show.peak_lead(withheld, ["bw_a"], "GB/s") == ""
