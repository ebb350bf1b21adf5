"""The teaching parts of the book, without a browser: the back-of-envelope arithmetic (the exercises
built from it are in tests/presentation/test_exercises.py), the bottom-line box and the front page's
findings, and the worked example of the foundations page against the data it cites."""

from __future__ import annotations

import pytest

from benchbook import config, hardware, ingest
from benchbook.analysis import bandwidth, roofline
from benchbook.analysis import envelope as env
from benchbook.declarations import Box
from benchbook.presentation import bottom_line


def _claim(cid, status="shown", text="", **evidence):
    return {
        "id": cid,
        "kind": "comparison",
        "status": status,
        "rule": "r",
        "evidence": evidence,
        "reason": None if status == "shown" else "the input lacks it",
        "text": text or f"sentence {cid} 1.",
    }


def _ledger(chapter, *claims):
    return {"chapter": chapter, "inputs": [], "claims": list(claims)}


def test_envelope_arithmetic_known_answers():
    assert env.ceiling(1792, 3.82) == pytest.approx(469.1, abs=0.1)
    assert env.share(278.95, 469.11) == pytest.approx(0.5946, abs=1e-4)
    assert env.intensity(6.74, 3.82) == pytest.approx(3.529, abs=1e-3)
    assert roofline.ridge(500, 1792) == pytest.approx(279.0, abs=0.1)
    assert env.tokens_per_s(336.5, 14.7) == pytest.approx(11_445.6, abs=0.5)
    assert env.dram_floor(3.82, 3.9) == pytest.approx(0.1192, abs=1e-4)  # 3.82e9 bytes x 8 bits x 3.9 pJ
    assert env.product([0.5, 2.0, 1.5]) == pytest.approx(1.5)


def test_bottom_line_takes_shown_claims_in_priority_and_leaves_a_withheld_one_to_the_folded_list():
    ids = ["a", "b", "c", "d", "e", "f"]
    led = _ledger(
        "x",
        _claim("f", text="F 6."),
        _claim("b", status="withheld", text="B: not stated, because R."),
        _claim("a", text="A 1."),
        _claim("d", text="D 4."),
        _claim("e", text="E 5."),
        _claim("c", text="C 3."),
    )
    picked = [c["id"] for c in bottom_line.pick(led, ids)]
    assert picked == ["a", "c", "d"][: Box().sentences]
    box = bottom_line.box(led, ids)
    assert "B: not stated" not in box and box.index("A 1.") < box.index("C 3.")  # the folded list says B
    assert "D 4." not in box  # two answers at most: the next shown claim is its section's to say
    assert "says why" in bottom_line.box(_ledger("x"), ids) or "none of" in bottom_line.box(_ledger("x"), ids)


def test_findings_follow_the_reading_order_and_link_their_chapter():
    ledgers = [
        _ledger("tp_scaling", _claim("rec_throughput", text="TP 1 gives 45.9 tok/s.")),
        _ledger("bandwidth_roofline", _claim("bw_size_trend", text="From 60% to 81%.")),
    ]
    md = bottom_line.findings(ledgers, {"bandwidth_roofline": "Bandwidth", "tp_scaling": "TP"})
    lines = md.strip().splitlines()
    assert lines[0].startswith("- From 60% to 81%.") and "<../notebooks/bandwidth_roofline>" in lines[0]
    assert "TP 1 gives 45.9" in lines[1]


def test_a_finding_is_said_on_the_front_page_as_its_box_says_it_with_its_caveat():
    long = _claim("decode_turn", text="TP 2 turns at batch 1. Because R. At batch 1: 17 ms. Fragile: x.")
    long["caveat"] = "Fragile: x."
    md = bottom_line.findings([_ledger("tp_scaling", long)], {"tp_scaling": "TP"})
    # tp_scaling's sections give a caveat whole: the front page says its reason on one line (issue 34)
    assert md.startswith("- TP 2 turns at batch 1. Because R. Fragile: its chapter says by how much. (")
    assert "17 ms" not in md and "x." not in md
    # a chapter whose box gives its caveats whole (tracking's) keeps the caveat as it is
    track = _claim("changes", text="The rate changed at b2. Because R.")
    track["caveat"] = "Fragile: x."
    assert bottom_line.findings([_ledger("tracking", track)], {"tracking": "T"}).startswith(
        "- The rate changed at b2. Because R. Fragile: x. ("
    )
    short = _claim("decode_turn", text="TP 2 turns at batch 1. Because R.")
    assert bottom_line.findings([_ledger("tp_scaling", short)], {"tp_scaling": "TP"}).startswith(
        "- TP 2 turns at batch 1. Because R. ("
    )


def test_the_foundations_pages_worked_example_is_the_data():
    """book/roofline_in_one_page.md types its numbers (a static page): they must be the seed's."""
    page = (config.PROJ_ROOT / "book" / "roofline_in_one_page.md").read_text(encoding="utf-8")
    df, _ = ingest.read_all([config.RAW_DIR / "rtx_pro_6000" / "004_6d4f73623fb8afcd.txt"], tool="llama-bench")
    kept, _ = bandwidth.reduce(bandwidth.generation_rows(df))
    pts = bandwidth.points(kept, "", {}, 0.0, 0.0)
    row = pts[pts["model_file"].str.startswith("llama-2-7b")].iloc[0]
    gb = row["bytes_per_token"] / 1e9
    peak = hardware.device("RTX-PRO-6000-Blackwell-WS").bandwidth_gb_s
    ceil = env.ceiling(peak, gb)
    for shown in (
        f"{gb:.2f} GB",
        f"{peak:,.0f} GB/s",
        f"{ceil:.0f} tok/s",
        f"{row['rate']:.2f} tok/s",
        f"{100 * row['rate'] / ceil:.1f} %",
        f"{row['rate'] * gb:,.0f} GB/s",
        f"{env.intensity(row['active_params_b'], gb):.1f} FLOP/byte",
    ):
        assert shown in page, f"the page does not say {shown}"


def test_a_spread_is_written_with_the_plus_minus_sign_in_prose_wording_and_figures():
    """ "mean +- 1 sd" (quantization's winners figures, their caption and the roofline section) is the
    typed stand-in for ±; pages print the sign. The check reads every text a page is made from."""
    import re

    import matplotlib
    import pandas as pd

    matplotlib.use("Agg")
    from benchbook.presentation import quant as quant_show

    texts = [
        *(config.PROJ_ROOT / "notebooks").glob("*.md"),
        *(config.PROJ_ROOT / "notebooks").glob("*.claims.yml"),
        *(config.PROJ_ROOT / "src" / "benchbook").glob("*.claims.yml"),
        *(config.PROJ_ROOT / "book").glob("*.md"),
    ]
    typed = [f"{f.name}: {m.group(0)!r}" for f in texts for m in re.finditer(r"\+- ?\w", f.read_text(encoding="utf-8"))]
    assert typed == []
    winners = pd.DataFrame(
        {"regime": ["base"] * 2, "scheme": ["original", "w8a8_x"], "mean": [1.0, 2.0], "std": [0.1, 0.1]}
        | {"rank": [2, 1], "in_winner_set": [False, True], "metric": ["latency"] * 2}
    )
    fig = quant_show.winners_figure(winners)
    titles = [ax.get_title() for ax in fig.axes]
    assert titles == ["base: mean ± 1 sd"]
