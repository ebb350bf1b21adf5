"""The tp_scaling chapter's logic without a notebook: `analyse` and `page` on the seeds and on real TGI
outputs, their verdicts against numbers read from the files, and each exercise recomputed."""

from __future__ import annotations

import re

import matplotlib.pyplot as plt
import pytest

from benchbook import chapter, config
from benchbook.analysis import tp
from benchbook.claims.rules import check
from benchbook.presentation import exercises
from benchbook.topics import tp_scaling

FIX = "tests/fixtures/tgi-benchmark"


def _run(source: str | None = None, **params):
    ns = dict(params)
    if source:
        ns["source"] = source
    return tp_scaling.analyse(chapter.setup("tp_scaling", ns))


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def seeds():
    return _run()


@pytest.fixture(scope="module")
def bloomz_1b1():
    return _run(f"{FIX}/bloomz_1b1_tp_2_4_8.md")


@pytest.fixture(scope="module")
def mt0():
    return _run(f"{FIX}/mt0_xxl_tp_2_4_8.md")


def test_the_seed_ledger_is_clean_and_its_bottom_line_says_where_decode_turns_per_batch(seeds):
    assert check(seeds.ledger.to_dict()) == []
    turn = seeds.ledger.get("decode_turn")
    assert turn.shown and "TP 2 at batch 1 and 2" in turn.text and "TP 4 at batch 4 and 8" in turn.text
    # issue #35 item 7: at batch 8 the larger TPs beat TP 2 (26.20 ms): TP 4 20.25 ms, TP 8 19.76 ms
    b8 = seeds.ledger.get("decode_turn_8").evidence
    assert (b8["a_tp"], b8["a"], b8["turn_tp"], b8["turn_ms"], b8["max_ms"]) == (2, 26.20, 4, 20.25, 19.76)


def test_each_shown_claim_is_said_once_and_the_withheld_ones_in_one_folded_list(seeds):
    pg = tp_scaling.page(seeds)
    prose = "\n".join([*pg.markdown.values(), *pg.texts.values()])
    for c in seeds.ledger.claims:
        if c.shown and c.id not in {"decode_turn", "rec_throughput"}:  # the bottom line's are said there only
            assert prose.count(c.text) <= 1, c.id
    assert seeds.ledger.get("decode_turn").text not in prose
    folded = pg.markdown["withheld_list"]
    assert folded.startswith(":::{admonition}") and "Not stated, as no device's peaks are used" in folded
    assert prose.lower().count("neither the input nor the `gpu` parameter names") == 1  # the device paragraph
    assert "(s)" not in prose


def test_the_bottom_line_is_the_turn_and_its_reason_and_the_rest_is_said_once_in_its_section(seeds):
    """Issue 34 item 6: two sentences of answer; the batch-1 numbers are said once, in section 2's
    list of turns (its bullet, not a sentence above the list repeating it), and the throughput pick
    stands in the deployment section."""
    from benchbook.presentation import bottom_line

    box = bottom_line.box(seeds.ledger)
    pg = tp_scaling.page(seeds)
    assert box.startswith("- Adding GPUs stops making decode faster at TP 2") and "the later the turn" in box
    assert "28.75 ms per token on TP 1" not in box and "tokens per GPU" not in box
    assert pg.markdown["claims_turns"].startswith(
        "- Batch 1: fastest on TP 2 (17.56 ms per token, against 28.75 on TP 1)"
    )
    assert seeds.ledger.get("rec_throughput").text in pg.markdown["claims_deploy"]
    prose = "\n".join([box, *pg.markdown.values(), *pg.texts.values()])
    assert prose.count("28.75 on TP 1") == 1 and prose.count("the later the turn") == 1
    assert "At batch 1:" not in pg.markdown["claims_turns"]


def test_the_lesson_counts_the_seed_models_all_reduces(seeds):
    text = tp_scaling.page(seeds).markdown["allreduce_text"]
    # bloomz-7b1: 30 layers, hidden 4096; batch 1 on TP 8: 60 x 2 x 7/8 x 8,192 bytes = 860,160 bytes
    b = tp.allreduce_budget(30, 4096, 1, 8, 31.5)
    assert (b["allreduces"], b["bytes_each"], b["bytes_sent"]) == (60, 8192, 860_160)
    assert "60 all-reduces" in text and "860.2 kB" in text and f"{b['bandwidth_ms'] * 1000:.1f} µs" in text
    # the step grew 2.08 ms from TP 2 to TP 8 over 60 x 2 x (8 - 2) = 720 added ring steps
    assert "720 ring steps" in text and "2.9 µs per step" in text


def test_the_ring_all_reduce_and_the_scaling_model():
    assert tp.ring_allreduce_s(1, 1e6, 100, 1e-5) == 0.0
    # 4 GPUs: 6 steps of 10 us, and 6/4 of 1 MB over 100 GB/s = 15 us
    assert tp.ring_allreduce_s(4, 1e6, 100, 1e-5) == pytest.approx(6e-5 + 1.5e-5)
    n = [1, 2, 4, 8, 16]
    step = tp.tp_step_ms(n, 1.0, 1 / 16)
    assert n[int(step.argmin())] == 4  # sqrt(16)
    assert n[int(tp.tp_step_ms(n, 1.0, 1 / 64).argmin())] == 8


def test_the_exercises_recompute_from_the_seed_result(seeds):
    ev = seeds.ledger.get("decode_turn").evidence
    md = exercises.markdown(seeds.ledger.to_dict())
    # the lesson counts batch 1; the exercise the largest other batch that got slower past its turn:
    # batch 4, TP 4 (18.83 ms) to TP 8 (20.42 ms)
    at = seeds.ledger.get("decode_turn_4").evidence
    assert (ev["batch_size"], at["after"], at["turn_tp"], at["max_tp"]) == (1, "slower", 4, 8)
    assert "take batch 4 instead" in md
    b = tp.allreduce_budget(ev["layers"], ev["hidden"], 4, at["max_tp"], tp.LINKS[0][1])
    grew = (at["max_ms"] - at["turn_ms"]) * 1000
    assert f"{b['bytes_sent']:,.0f} bytes" in md and f"{b['bandwidth_ms'] * 1000:.1f} µs" in md
    assert f"{grew:,.0f} µs" in md and f"{grew / (b['bandwidth_ms'] * 1000):,.0f} times" in md
    # the turn predicted for batch 8 from batch 1: TP 2 x sqrt(72.77 / 28.75)
    guess = 2 * (72.77 / 28.75) ** 0.5
    assert f"{guess:.1f} GPUs" in md and "turns at TP 4" in md
    assert "none for this input" not in md


def test_on_a_real_output_with_no_turn_after_its_smallest_tp_nothing_of_the_seeds_is_said(bloomz_1b1):
    assert check(bloomz_1b1.ledger.to_dict()) == []
    turn = bloomz_1b1.ledger.get("decode_turn")
    # bloomz-1b1 at TP 2, 4, 8: TP 2 is fastest at every batch size (14.29 ms vs 14.99 ms on TP 8 at batch 1)
    assert turn.shown and turn.text.startswith("No TP past TP 2, the smallest measured, decodes faster")
    assert not turn.evidence["rises_with_batch"] and "later the turn" not in turn.text
    pg = tp_scaling.page(bloomz_1b1)
    assert "24 layers of hidden size 1,536" in pg.markdown["allreduce_text"]
    md = exercises.markdown(bloomz_1b1.ledger.to_dict())
    # the lesson counts batch 1 (14.29 ms on TP 2, 14.99 on TP 8); the exercise batch 32, the largest that
    # also got slower: 24 x 2 all-reduces of 1,536 x 32 x 2 bytes, 7/4 of each sent: 8,257.5 kB per GPU
    assert "take batch 32 instead" in md and "8,257.5 kB" in md
    assert "Exercise 2" not in md  # a turn at the smallest TP measured bounds the optimum, it does not place it
    everything = "\n".join([*pg.markdown.values(), *pg.texts.values(), md])
    assert not re.search(r"bloomz-7b1|28\.75|17\.56|data/raw", everything)


def test_on_a_real_output_whose_model_is_unknown_the_exercises_are_left_out(mt0):
    assert check(mt0.ledger.to_dict()) == []
    # mt0-xxl at batch 1-16: TP 8 within the noise of TP 2; at batch 32 TP 2 63.96 ms, TP 8 68.08 ms
    turn = mt0.ledger.get("decode_turn")
    assert turn.evidence["level"] == [1, 2, 4, 8, 16] and turn.evidence["turns"][0]["batches"] == [32]
    assert mt0.ledger.get("decode_turn_1").status == "withheld"
    pg = tp_scaling.page(mt0)
    assert "does not know the layer count" in pg.markdown["allreduce_text"]
    md = exercises.markdown(mt0.ledger.to_dict())
    assert "Exercise 1" not in md and "none for this input" not in md


def test_a_single_tp_output_draws_no_scaling_figure_and_says_why():
    r = _run(f"{FIX}/ms_build_mi300_llama3_70b.md")
    pg = tp_scaling.page(r)
    assert pg.figures["fig_speedup"] is None and pg.texts["cap_speedup"].startswith("Not drawn")
    assert pg.figures["fig_allreduce"] is not None
    assert "Only one TP (1)" in pg.markdown["claims_scaling"]
    # the 70B table states no TP (the launch above it is another model's): its one GPU is the chapter's assumption
    assert "at the TP 1 this chapter assumes, one GPU, it needs none" in pg.markdown["allreduce_text"]
    assert "this input ran on one" not in pg.markdown["allreduce_text"]
    assert config.relative(config.seed("000")) not in "\n".join(pg.markdown.values())


def test_one_gpu_is_the_inputs_only_where_it_states_tp_1(tmp_path):
    """The lesson's all-reduce sentence says the input ran on one GPU only where a table's TP 1 is stated
    (a launch's `--num-shard 1` for its model); where none is, that one GPU is `tp_unknown`, and said so."""
    bare = config.resolve(f"{FIX}/bloomz_7b1_mt_seq1024_dec8_bare_tables.md").read_text()
    stated = tmp_path / "stated.md"
    stated.write_text("```\ntext-generation-launcher --model-id bigscience/bloomz-7b1-mt --num-shard 1\n```\n\n" + bare)
    said = tp_scaling.page(_run(str(stated))).markdown["allreduce_text"]
    assert "(this input ran on one, which needs none)" in said
    assumed = tp_scaling.page(_run(f"{FIX}/bloomz_7b1_mt_seq1024_dec8_bare_tables.md")).markdown["allreduce_text"]
    assert "at the TP 1 this chapter assumes" in assumed and "this input ran on one" not in assumed


def test_the_seed_figures_collide_nowhere_and_the_lesson_figure_marks_each_turn(seeds):
    from benchbook.presentation.plotting import overlaps, readable, use_theme

    use_theme()
    for name, fig in tp_scaling.page(seeds).figures.items():
        readable(fig)
        assert overlaps(fig) == [], name
    fig = tp_scaling.page(seeds).figures["fig_allreduce"]
    minima = [ln.get_xdata()[0] for ln in fig.axes[0].get_lines() if ln.get_marker() == "o"]
    assert minima == pytest.approx([2, 4, 8])  # sqrt(a / b) for b = a / 4, a / 16, a / 64


def test_a_batch_size_keeps_its_colour_across_the_chapters_figures(seeds):
    from matplotlib.colors import to_hex

    from benchbook.presentation import tp as view
    from benchbook.presentation.plotting import ramp

    assert [view.series(v) for v in (1, 2, 4, 8, 16)] == [0, 1, 2, 3, 4]  # a TP's colour index
    figs = tp_scaling.page(seeds).figures
    handles, names = figs["fig_speedup"].axes[1].get_legend_handles_labels()  # decode, speed-up
    speed = {n: to_hex(h.lines[0].get_color()) for h, n in zip(handles, names, strict=True) if n.startswith("batch")}
    assert speed["batch 8"] == to_hex(ramp(8)) and speed["batch 1"] == to_hex(ramp(1))
    fits = {ln.get_label().split(":")[0]: to_hex(ln.get_color()) for ln in figs["fig_fit"].axes[1].get_lines()}
    assert fits["bs 1"] == to_hex(ramp(1)) and fits["bs 8"] == to_hex(ramp(8))


def test_a_quantized_table_has_its_own_heading_and_an_input_without_one_has_none(seeds, bloomz_1b1):
    # the seed holds a bitsandbytes run beside fp16 at the same TP: a finding on quantization, under its own heading
    page = tp_scaling.page(seeds)
    assert page.figures["fig_quant"] is not None
    assert page.markdown["quant_heading"] == "```{rubric} A quantized run against the same TP\n```"
    # one fp16 table per TP: no quantized run, so no heading (and no figure)
    other = tp_scaling.page(bloomz_1b1)
    assert other.figures["fig_quant"] is None and other.markdown["quant_heading"] == ""


def test_each_analysis_is_computed_once_for_the_claims_and_the_page(monkeypatch):
    """#34 house: the claims and the page read one `tp.Analysis`; before, each of these ran twice."""
    calls: dict[str, int] = {}
    for name in ("scaling", "scaling_fits", "turning_tp", "missing_batches", "quantization_slowdown", "throughput"):
        real = getattr(tp, name)

        def counted(*a, _real=real, _name=name, **k):
            calls[_name] = calls.get(_name, 0) + 1
            return _real(*a, **k)

        monkeypatch.setattr(tp, name, counted)
    tp_scaling.page(_run(f"{FIX}/bloomz_1b1_tp_2_4_8.md"))
    # missing_batches: once for every configuration, once for the main one
    assert calls == {
        "scaling": 1,
        "scaling_fits": 1,
        "turning_tp": 1,
        "missing_batches": 2,
        "quantization_slowdown": 1,
        "throughput": 1,
    }


def test_a_finding_of_none_stays_in_place_and_a_claim_the_input_cannot_decide_is_folded(monkeypatch):
    """A page that folds its withheld claims glued every one as nothing: on the one-TP seed the anomalies
    section read "Percentile inversions." and then only the tool's mechanism, though the file shows none
    (18 rows, p90 = p99 = Highest in each). A claim withheld as a finding is what the file shows."""
    from benchbook.presentation import outputs

    glued = {}
    monkeypatch.setattr(outputs, "glue", lambda name, value, markdown=False: glued.__setitem__(name, value))
    tp_scaling.page(_run("data/raw/tgi_bloomz_tp1/001_4e5344ced21f561d.txt")).glue()
    assert glued["claim_percentile_inversions"].startswith("No latency row has p90 < p50 in this input (18 rows")
    assert glued["claim_missing_batches"].startswith("Every batch size printed ran")
    assert glued["claim_decode_turn"] == ""  # withheld for fewer than two TPs: said in the folded list


def test_the_no_device_reason_is_said_once_and_the_folded_list_refers_to_it(seeds):
    """The device paragraph and the folded list's lead both gave "neither the input nor the gpu parameter
    names a device the hardware table knows" (#34 item 6): the list's lead refers to the paragraph."""
    from benchbook.claims import rules

    pg = tp_scaling.page(seeds)
    folded, device = pg.markdown["withheld_list"], pg.markdown["device_text"]
    assert device.startswith("Neither the input") and "the hardware table knows" in device
    assert "Not stated, as no device's peaks are used (the paragraph on the device says why):" in folded
    assert rules.no_device_reason({}) not in folded and "hardware table" not in folded
    assert "its share of a peak" in folded  # what each claim leaves unstated is still named


def test_a_reason_the_device_paragraph_does_not_give_keeps_its_words_in_the_folded_list():
    """A name the table lacks is said by the paragraph as "names no GPU the table knows"; the claims'
    reason names its line, so the list says that reason whole rather than refer to the paragraph."""
    from benchbook.claims import rules
    from benchbook.presentation import tp as view

    unlisted = {"device": None, "said": {"device_unlisted": "cuda:0", "device_unlisted_line": 41}}
    assert rules.no_device_reason(unlisted["said"]) not in view.reason_said(unlisted)
    assert list(view.reason_said({"device": None, "said": {}})) == [rules.no_device_reason({})]
    assert view.reason_said({"device": "H200-SXM-141GB", "said": {}}) == {}


def test_a_claim_the_bottom_line_states_is_not_glued_again_where_the_prose_names_it(monkeypatch):
    """A one-TP file's box falls back to its shown anomalies; the anomalies paragraph glued the same sentence
    again ("8 of 18 latency rows have p90 < p50 ...", twice on the page, issue 34: findings said once): a boxed
    claim's glue is what the box leaves, a claim the box does not state keeps its sentence."""
    from benchbook.presentation import bottom_line, outputs

    glued = {}
    monkeypatch.setattr(outputs, "glue", lambda name, value, markdown=False: glued.__setitem__(name, value))
    r = _run(f"{FIX}/bloomz_1b1_seq500_tp2.md")
    tp_scaling.page(r).glue()
    count = "8 of 18 latency rows have p90 < p50"
    assert count in glued["bottom_line"] and count not in glued["claim_percentile_inversions"]
    assert bottom_line.box(r.ledger) == glued["bottom_line"]
    glued.clear()
    tp_scaling.page(_run()).glue()  # the seeds' box states the turn: their inversions keep the whole sentence
    assert glued["claim_percentile_inversions"].startswith("20 of 93 latency rows have p90 < p50")
    assert "20 of 93" not in glued["bottom_line"]
