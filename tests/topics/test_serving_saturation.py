"""The serving_saturation chapter without a notebook: `analyse` on the seed and on real fixtures, the
lesson's numbers (Little's law, the knee L* = mu x W0), and exercises recomputed from the result."""

from __future__ import annotations

import re

import numpy as np
import pytest

from benchbook.analysis import serving
from benchbook.chapter import setup
from benchbook.presentation import bottom_line, exercises, placement
from benchbook.topics import serving_saturation as topic

FIX = "tests/fixtures/vllm-bench-serve"


def run(source: str = "", **params):
    return topic.analyse(setup("serving_saturation", {**({"source": source} if source else {}), **params}))


@pytest.fixture(scope="module")
def seed():
    return run()


def test_the_seed_knee_is_at_a_cap_of_128_and_little_predicts_it_from_two_runs(seed):
    knee = seed.ledger.get("knee")
    assert knee.shown and knee.evidence["x"] == 128
    q = seed.queue
    # W0: c=32's estimated mean E2EL; mu: c=512's 1,000 requests / its duration (printed 37.30 req/s)
    assert q["w0_run"] == "c=32" and q["w0_s"] == pytest.approx(2.450, abs=0.001)
    assert q["mu_run"] == "c=512" and q["mu"] == pytest.approx(37.30, abs=0.01)
    assert q["knee_in_flight"] == pytest.approx(q["mu"] * q["w0_s"]) == pytest.approx(91.4, abs=0.1)
    # the knee's load really held 86 requests: within the bound L* (W0 is measured under load already)
    assert knee.evidence["knee_in_flight"] == pytest.approx(85.9, abs=0.1)
    assert knee.evidence["knee_in_flight"] < q["knee_in_flight"]


def test_every_run_obeys_littles_law_and_past_the_knee_waits_at_least_l_over_mu(seed):
    q = seed.queue
    for n, x, w in zip(q["in_flight"], q["rate"], q["latency_s"], strict=True):
        assert n == pytest.approx(x * w)
        assert x <= q["mu"] + 1e-9 and w >= n / q["mu"] - 1e-9
    # the model's two limits meet at L*
    tput, lat = serving.closed_loop(
        [q["knee_in_flight"] / 2, q["knee_in_flight"], 3 * q["knee_in_flight"]], q["w0_s"], q["mu"]
    )
    assert tput == pytest.approx([q["mu"] / 2, q["mu"], q["mu"]]) and lat == pytest.approx(
        [q["w0_s"], q["w0_s"], 3 * q["w0_s"]]
    )


def test_the_seed_underfilled_count_is_fragile_on_c64(seed):
    c = seed.ledger.get("underfilled")
    assert c.shown and c.evidence["near_run"] == "c=64" and "3 to 4 of 5 capped runs" in c.text


def test_the_exercises_are_recomputed_from_the_result(seed):
    one, two = exercises.serving_saturation(seed.ledger)
    lit = seed.lit.set_index("run")
    held = lit.loc["c=512", "request_rate_used"] * lit.loc["c=512", "mean_e2el_s"]
    assert f"{held:,.1f} requests" in one.answer and f"{held / 512:.1%}" in one.answer
    # the knee run's rate with no wait, L / W0, against its measured rate, from the run's own row
    q, knee = seed.queue, lit.loc["c=128"]
    no_wait = knee["in_flight"] / q["w0_s"]
    assert f"rate = L / W0 = {knee['in_flight']:.4g} / {q['w0_s']:.4g} = {no_wait:.4g} req/s" in two.steps[0]
    assert (
        f"{knee['request_rate_used'] / no_wait:.0%} of that" in two.steps[1] and "max concurrency 128" in two.question
    )
    assert f"fewer than L* = {q['mu'] * q['w0_s']:,.0f}" in two.answer


def test_a_rate_sweep_of_three_deployments_takes_the_lesson_from_one_series_and_withholds_the_knee():
    res = run(f"{FIX}/llmd_results.jsonl", sweep="request_rate")
    assert res.variable == "request_rate" and len(res.apart) == 3
    assert res.ledger.get("knee").status == "withheld" and "2 points" in res.ledger.get("knee").reason
    # W0 and mu from one deployment's two rates, never mixed across deployments
    first = serving.series_key(res.lit[res.lit["run"].isin(res.queue["runs"])]).nunique()
    assert first == 1 and len(res.queue["runs"]) == 2
    _, two = exercises.serving_saturation(res.ledger)
    assert two.lacking and two.needs == ["knee"]  # left out of the page: no number to work


def test_runs_of_one_load_or_of_different_models_give_no_knee_to_predict():
    # two blocks at one cap: a single load; five models at their caps: five one-load series
    assert run("tests/fixtures/sglang-bench-serving/nvfp4_sglang_oai_two_blocks_cap512.md").queue == {}
    assert run(f"{FIX}/mi100x4_tp4_five_models_caps_in_bullets.md").queue == {}


def test_a_page_says_each_shown_claim_once_and_what_it_cannot_decide_in_one_list():
    res = run(f"{FIX}/dgx_spark_ministral3_rate_sweep.jsonl", sweep="request_rate")
    here = placement.in_place(res.ledger)
    boxed = {c["id"] for c in bottom_line.pick(res.ledger)}
    box = bottom_line.box(res.ledger)
    for c in res.ledger.claims:
        said = [v for v in here.values() if v and v == c.text]
        assert len(said) + (c.id in boxed) <= 1, c.id
    # no device: the four roofline claims share one reason, said once, in the folded list; the box
    # gives the answer (throughput rises at every step) and lists nothing withheld
    folded = placement.folded(res.ledger)
    assert (box + folded).count("names a device the hardware table knows") == 1
    assert "names a device" in folded and "names a device" not in " ".join(here.values())
    assert len(box.splitlines()) == 1 and "rises at every step" in box and "Withheld" not in box


def test_the_page_has_no_raw_plural_and_draws_the_lesson_in_the_inputs_numbers(seed):
    import matplotlib.pyplot as plt

    pg = topic.page(seed)
    text = " ".join([*pg.texts.values(), *pg.markdown.values(), *(c.text for c in seed.ledger.claims)])
    assert not re.search(r"\w\(s\)", text)  # "1 run(s)", never; a unit "(s)" after a space is fine
    assert "L* = μ x W0 = 37.3 x 2.45 = 91 requests" in pg.markdown["queue"]
    ax = pg.figures["fig_queue"].axes[0]
    xs, ys = ax.lines[-1].get_data()  # the runs, at the requests they held in flight
    assert np.allclose(xs, seed.queue["in_flight"]) and np.allclose(ys, seed.queue["rate"])
    plt.close("all")


def test_without_two_loads_the_lesson_figure_is_drawn_in_units_of_the_knee():
    import matplotlib.pyplot as plt

    res = run(f"{FIX}/mi100x4_tp4_five_models_caps_in_bullets.md")
    pg = topic.page(res)
    assert "in units of the knee" in pg.markdown["queue"]
    assert "units of the knee" in pg.figures["fig_queue"].axes[0].get_xlabel()
    plt.close("all")


def test_a_sweep_that_never_flattens_gives_only_a_floor_under_the_capacity_and_no_knee():
    import matplotlib.pyplot as plt

    # DGX Spark, Ministral 3B: 0.1 to 0.5 req/s, elasticity 0.95 on the last step
    res = run(f"{FIX}/dgx_spark_ministral3_rate_sweep.jsonl", sweep="request_rate")
    assert res.ledger.get("knee").status == "withheld"
    pg = topic.page(res)
    assert "only a floor under the capacity μ" in pg.markdown["queue"] and "L* =" not in pg.markdown["queue"]
    labels = [t.get_text() for t in pg.figures["fig_queue"].axes[0].texts]
    assert not any("knee" in t for t in labels)
    plt.close("all")


def test_a_reason_the_box_does_not_give_is_said_once_in_the_folded_list():
    from benchbook.claims import Claim, Ledger

    def claim(cid, status, text, reason=""):
        return Claim(cid, "anomaly", status, "r", {"n": 1, "count": 1}, reason, text)

    led = Ledger("serving_saturation", [])
    for cid in ("knee", "goodput", "compute_best"):  # two in the box, the third in its section
        led.add(claim(cid, "shown", f"{cid} shown."))
    for cid in ("bandwidth_low", "bound_low"):  # two withheld for one reason the box does not give
        led.add(
            claim(
                cid, "withheld", f"{cid}: not stated for this input, because no device is named.", "no device is named"
            )
        )
    folded = placement.folded(led)
    assert folded.count("no device is named") == 1
    assert folded == "- Not stated, because no device is named:\n  - bandwidth_low.\n  - bound_low."


def test_a_withheld_sentence_worded_in_its_own_terms_stays_whole_in_the_folded_list():
    # the AIPerf README console prints no ITL: tpot_itl's sentence says so in its own words
    res = run("tests/fixtures/aiperf/aiperf_readme_example_output_console.txt")
    c = res.ledger.get("tpot_itl")
    assert c.status == "withheld" and c.reason not in c.text
    assert " ".join(c.text.split()) in placement.folded(res.ledger)


def test_each_block_is_set_against_the_device_its_heading_names():
    """Kimi-K2's recipe: the block under `### FP8 Benchmark on 16xH800` ran on H800s (a device the table
    lacks: no share of a peak), the two under `### FP8 Benchmark on 16xH200` on 16 H200s."""
    res = run(f"{FIX}/recipes_kimi_k2_16xh800_two_nodes_and_16xh200.md")
    low, best = res.ledger.get("bandwidth_low"), res.ledger.get("compute_best")
    assert not low.shown and low.evidence["device_unlisted"] == "H800" and low.evidence["device_unlisted_line"] == 58
    assert best.shown and best.evidence["device"] == "H200-SXM-141GB" and best.evidence["peak"] == 16 * 1979
    assert res.peaks is None and [e["device"] for e in res.said["by_heading"]] == ["H800", "H200-SXM-141GB"]
    # the other way: a device given as a parameter is every run's
    given = run(f"{FIX}/recipes_kimi_k2_16xh800_two_nodes_and_16xh200.md", gpu="H200")
    assert (
        given.peaks.device == "H200-SXM-141GB"
        and given.ledger.get("bandwidth_low").evidence["device"] == given.peaks.device
    )


def test_the_one_model_a_file_names_only_in_a_path_is_the_runs_and_is_sized_from_its_name(tmp_path):
    # real: vllm-project/recipes#443 names mistralai/Ministral-3-8B-Reasoning-2512 only in prose
    from benchbook import config

    one = config.FIXTURES_DIR / "vllm-bench-serve" / "recipes_pr443_mi300x_ministral3_8b_reasoning_cap32_cut.md"
    assert run(str(one)).size[:3] == (8.0, 8.0, "size in the name")
    # the other way: a file that names two models in paths ties neither to its run, so sizes none
    two = tmp_path / "two.md"
    two.write_text(
        "Compared mistralai/Ministral-3-8B-Reasoning-2512 with mistralai/Ministral-3-3B-Instruct-2512.\n\n"
        + one.read_text(encoding="utf-8").split("```\n", 1)[1]
    )
    assert run(str(two)).size[:3] == (None, None, "unknown")


def test_failures_are_the_prompts_sent_less_those_completed_only_where_the_file_states_the_number_sent(tmp_path):
    # real: ROCm/vllm#375 prints 999 successful requests and says `in 1000 requests` in a sentence above
    from benchbook import config

    fixture = "rocm_vllm_issue375_dsr1_8x_mi300x_random_rate10_999_of_1000_cut.md"
    real = (config.FIXTURES_DIR / "vllm-bench-serve" / fixture).read_text(encoding="utf-8")

    def said(text: str) -> str:
        path = tmp_path / "run.md"
        path.write_text(text, encoding="utf-8")
        return run(str(path)).ledger.get("failed").text

    # a sentence that counts the requests it sent (`in 1000 requests`) states the prompts, as the command's
    # `--num-prompts 1000` does: 1 of them failed (stop 45)
    assert "1 request failed beside the 999 that completed" in said(real)
    command = "\n```\npython benchmark_serving.py --dataset-name random --num-prompts 1000 --request-rate 10\n```\n"
    flag = said(real.replace("in 1000 requests ", "").replace("(request-rate 10):\n", "(request-rate 10):\n" + command))
    assert "1 request failed beside the 999 that completed" in flag
    # the other way: a count the sentence says completed is no count sent, and names its line
    outcome = said(real.replace("in 1000 requests ", "where 1000 requests completed "))
    assert "failed beside" not in outcome and "count this page does not read as the prompts sent" in outcome
    # and a file that speaks of no requests sent cannot tell whether any failed
    assert "cannot tell whether any failed" in said(real.replace("in 1000 requests ", ""))


def test_runs_at_one_load_are_configurations_so_none_is_called_the_lightest_load(seed):
    # real: schedcp's three runs share one load (rate inf, 100 prompts, no cap) and differ in the server
    # (cpu offload, UVM, UVM with prefetch); the first is no lighter than the third (68.7 against 47.2 in flight)
    low = run(f"{FIX}/schedcp_rtx5090_qwen3_30b_a3b_fp8_cpu_offload_uvm_three_runs.md").ledger.get("bandwidth_low")
    assert low.evidence["configurations"] == 3
    assert "the first of 3 runs at one load" in low.text and "lightest load (" not in low.text
    # the other way: the seed sweeps its cap, so its lowest cap is the lightest load
    seed_low = seed.ledger.get("bandwidth_low")
    assert seed_low.evidence["configurations"] == 0 and "At the lightest load (run" in seed_low.text
