"""The appendices' tables over the seeds: big enough, every disagreement explained, counts pinned;
every reproduced number printed on its cited line, and agreement only within printed precision."""

import math
import re

import numpy as np
import pandas as pd
import pytest

from benchbook import checks, config, ingest
from benchbook.checks import agrees

SEEDS = list(config.SEEDS.values())
FIXTURE_FILES = sorted(
    f
    for f in config.FIXTURES_DIR.rglob("*")
    if f.is_file() and f.name != "README.md" and "compare" not in f.parts and checks.expand([f])
)
_NUMBER = re.compile(r"-?\d[\d,]*\.?\d*(?:[eE][-+]?\d+)?")


@pytest.fixture(scope="module")
def reproduction():
    return checks.reproduce_all(SEEDS)


@pytest.fixture(scope="module")
def audit():
    return checks.audit_all(SEEDS)


def test_at_least_100_quantities_from_all_five_sources(reproduction):
    assert len(reproduction) >= 100
    assert set(reproduction["source"]) == {p.name for p in SEEDS}
    # llama-bench's markdown table prints no number derived from other printed numbers
    assert set(reproduction["tool"]) == {
        "tgi-benchmark",
        "sglang-quant-report",
        "hf-batch-sweep",
        "attention-gym",
        "vllm-bench-serve",
    }


def _printed_on_line(table, path) -> list[str]:
    """Rows whose `published` value is not one of the numbers printed on their cited line."""
    lines = ingest._load_text(path).splitlines()
    bad = []
    for r in table.itertuples():
        text = lines[int(r.line) - 1] if 0 < r.line <= len(lines) else ""
        printed = [float(x.replace(",", "")) for x in _NUMBER.findall(text)]
        if not any(math.isclose(v, float(r.published), rel_tol=1e-12, abs_tol=1e-12) for v in printed):
            bad.append(f"{path.name}:{r.line}: {r.quantity} = {r.published} not on {text.strip()[:80]!r}")
    return bad


def _beyond_tolerance(table) -> list[str]:
    """Rows that agree although the recomputed value is further than their tolerance."""
    off = table[
        table["agrees"].eq(True)
        & ~((table["recomputed"] - table["published"]).abs() <= table["tolerance"] * (1 + 1e-9))
    ]
    return [f"{r.source}:{r.line}: {r.quantity}" for r in off.itertuples()]


def test_every_published_value_is_printed_on_its_cited_line(reproduction):
    """Opens each source, goes to the cited line and finds the number there: a reproduction row
    reproduces what the source printed, never a figure from our notes or our own analysis."""
    bad = []
    for path in SEEDS:
        bad += _printed_on_line(reproduction[reproduction["source"] == path.name], path)
    assert not bad, bad[:5]


def test_no_row_agrees_beyond_its_tolerance(reproduction):
    assert not _beyond_tolerance(reproduction)
    assert reproduction["tolerance"].notna().all() and (reproduction["tolerance"] > 0).all()


@pytest.mark.parametrize("path", FIXTURE_FILES, ids=[f.name for f in FIXTURE_FILES])
def test_fixture_rows_are_printed_and_within_tolerance(path):
    try:
        table = checks.reproduce_all([path])
    except ingest.ParseError:
        pytest.skip("not a tool output")
    assert not _printed_on_line(table, path)
    assert not _beyond_tolerance(table)


def test_analysis_is_not_reproduction(reproduction):
    """Little's law (in flight vs the cap), the notes' bandwidth figures and ranking positions (a
    medal, not a printed number) compare unlike things: they are not in the table."""
    q = reproduction["quantity"]
    assert not q.str.contains("Little|in flight|notes:|ranking position").any()
    vllm = reproduction[reproduction["tool"] == "vllm-bench-serve"]
    assert set(vllm["quantity"].str.split(": ").str[1]) == {
        "request_throughput",
        "output_throughput",
        "total_token_throughput",
    }


def test_the_comparator_is_the_printed_precision():
    """Half a unit of the last printed place, plus what the inputs carry, and nothing more."""
    assert checks.tolerance(2) == pytest.approx(0.005) and checks.tolerance(0, 0.25) == pytest.approx(0.75)
    assert checks.agrees(1.00, 1.0049, 2) and not checks.agrees(1.00, 1.0051, 2)
    assert checks.agrees(274.7, 274.7, 1) and not checks.agrees(512, 274.7, 0)
    assert checks.agrees(1.00, 1.0149, 2, carried=0.01) and not checks.agrees(1.00, 1.0151, 2, carried=0.01)
    assert not checks.agrees(float("nan"), 1.0, 2) and not checks.agrees(1.0, None, 2)
    assert (
        checks.printed_decimals(331.3) == 1
        and checks.printed_decimals(6.6376) == 4
        and checks.printed_decimals(330) == 1
    )


def test_every_row_follows_the_comparator(reproduction):
    """`agrees` in the table is the comparator applied to the row: published within tolerance."""
    within = (reproduction["recomputed"] - reproduction["published"]).abs() <= reproduction["tolerance"] * (1 + 1e-9)
    checked = checks.checkable(reproduction)
    assert (reproduction["agrees"][checked] == within[checked]).all()
    assert reproduction["agrees"][~checked].isna().all()  # no check: neither agrees nor disagrees


def test_every_disagreement_is_explained(reproduction):
    off = reproduction[reproduction["agrees"].eq(False)]
    assert off["why_not"].fillna("").str.len().gt(0).all()


def test_published_numbers_that_should_agree_do(reproduction):
    """Only the known disagreement classes remain; a new one (a parser or formula slip) fails here."""
    off = reproduction[reproduction["agrees"].eq(False)]
    by_tool = off.groupby("tool").size().to_dict()
    # TGI: "Average" throughput is a mean of per-run ratios (41 rows beyond print precision).
    # Everything else the six tools derived reproduces.
    assert by_tool == {"tgi-benchmark": 41}, by_tool
    assert off["why_not"].str.startswith("TGI averages per-run ratios").all()


def test_lowest_throughput_allows_for_microsecond_truncation(reproduction):
    """Seed 000 line 125 prints 53.81 tok/s beside a Highest latency of 130.07 ms: 7 / 0.13007 s
    rounds to 53.82, but a run of 130.0755 ms is stored as 130.075 (truncated to microseconds,
    printed 130.07) and gives 53.8149. The check must allow for that, and no more."""
    row = reproduction[(reproduction["line"] == 125) & reproduction["quantity"].str.startswith("decode_throughput min")]
    assert len(row) == 1
    r = row.iloc[0]
    assert r["published"] == 53.81 and r["recomputed"] == pytest.approx(7 / 0.13007)
    assert r["agrees"] and r["tolerance"] < 0.0075


def test_audit_counts_are_pinned(audit):
    counts = audit.groupby(["tool", "defect"]).size().to_dict()
    expected = {
        ("tgi-benchmark", "p90 < p50"): 20,
        ("tgi-benchmark", "p90 < mean"): 18,
        ("tgi-benchmark", "p90 below Highest"): 40,
        ("tgi-benchmark", "NaN row"): 15,
        ("tgi-benchmark", "batch size never run"): 5,
        ("tgi-benchmark", "blank row after NaN (merged)"): 10,
        ("tgi-benchmark", "blank numeric cell"): 1,
        ("sglang-quant-report", "duplicated run label"): 9,
        ("sglang-quant-report", "high-variance cell"): 2,
        ("sglang-quant-report", "mojibake"): 1,
        ("sglang-quant-report", "not-measured values printed as numbers"): 1,
        ("hf-batch-sweep", "empty column"): 2,
        ("hf-batch-sweep", "oom padding"): 4,
        ("llama-bench", "high coefficient of variation"): 6,
        ("llama-bench", "partial offload"): 1,
        ("attention-gym", "useful-FLOP credit"): 8,
        ("vllm-bench-serve", "TTFT includes server queueing"): 1,
    }
    for key, n in expected.items():
        assert counts.get(key) == n, (key, counts.get(key), n)
    assert audit["line"].notna().all() and audit["evidence"].str.len().gt(0).all()


def test_outlying_runs_are_named(audit):
    hv = audit[audit["defect"] == "high-variance cell"]
    text = " ".join(hv["evidence"].astype(str))
    assert "1526.74" in text and "2898.23" in text


def test_partial_run_is_audited():
    """A run that ended in a traceback (real attention-gym failure mode) is reported as such."""
    fixture = config.FIXTURES_DIR / "attention-gym" / "w7900_rocm_traceback.md"
    audit = checks.audit_all([fixture])
    assert audit["defect"].str.contains("traceback").any(), audit["defect"].unique()


def test_every_tool_uses_the_one_comparator(monkeypatch):
    """Each tool's reproduce() judges agreement with `checks.agrees`, looked up when it runs: a
    comparator that never agrees turns every row of every tool into a disagreement."""
    monkeypatch.setattr(checks, "agrees", lambda *a, **k: False)
    table = checks.reproduce_all(SEEDS + [config.FIXTURES_DIR / "llama-bench" / "llamacpp_readme_b1275.json"])
    assert set(table["tool"]) >= {"tgi-benchmark", "sglang-quant-report", "hf-batch-sweep", "attention-gym"}
    assert not table["agrees"].any()


def test_a_row_that_cannot_fail_is_counted_apart_not_as_agreement():
    t = pd.DataFrame(
        {
            "source": ["a"] * 3,
            "tool": ["t"] * 3,
            "line": [1, 2, 3],
            "quantity": ["std x", "std y", "mean z"],
            "published": [0.01, 0.02, 0.0],
            "recomputed": [0.005, 0.015, 0.004],
            "tolerance": [0.011, 0.011, 0.005],
            "agrees": [True, True, True],
        }
    )
    # 0.011 >= 0.01: any recomputed value from 0 to 0.021 agrees; 0.011 < 0.02 can fail
    assert list(checks.checkable(t)) == [False, True, False]
    s = checks.summary(t).iloc[0]
    assert (s["recomputed"], s["agree"], s["disagree"], s["not checkable"]) == (3, 1, 0, 2)


def test_a_number_compared_with_a_printed_copy_of_itself_is_no_check_and_an_uncheckable_row_has_no_verdict(
    reproduction,
):
    # the seed's ranking lines print each summary mean again (193.82 tok/s on line 1479 and in the summary)
    ranking = reproduction[reproduction["quantity"].str.startswith("ranking value")]
    assert len(ranking) == 49 and ranking["agrees"].isna().all()
    assert ranking["why_not"].str.startswith(checks.COPY).all() and not checks.checkable(ranking).any()
    # an uncheckable row (a tolerance covering the published value, or a copy) is written with agrees empty
    assert reproduction["agrees"][~checks.checkable(reproduction)].isna().all()
    assert set(reproduction["agrees"][checks.checkable(reproduction)]) <= {True, False}
    # the other way: a row whose recomputed value is arithmetic on other numbers is checked
    row = {"source": "a", "tool": "t", "quantity": "q", "published": 2.0, "recomputed": 2.0, "tolerance": 0.005}
    t = pd.DataFrame([{**row, "line": 1, "why_not": checks.copied(9)}, {**row, "line": 2, "why_not": None}])
    assert list(checks.checkable(t)) == [False, True]
    s = checks.summary(t.assign(agrees=[None, True])).iloc[0]
    assert (s["agree"], s["not checkable"]) == (1, 1)


def test_a_number_two_files_publish_is_counted_once():
    row = {"tool": "t", "line": 5, "quantity": "decode mean (a)", "published": 1.5, "recomputed": 1.49, "agrees": True}
    t = pd.DataFrame(
        [
            {**row, "source": "000.txt"},
            {**row, "source": "001.txt", "line": 9, "quantity": "decode mean (b)"},  # another label, same number
            {**row, "source": "001.txt", "published": 1.6},  # another number
            {**row, "source": "000.txt", "line": 6},  # the same file twice: two printed numbers
        ]
    )
    assert list(checks.repeats(t)) == ["", "000.txt line 5", "", ""]
    s = checks.summary(t).set_index("source")
    assert s.loc["001.txt", "recomputed"] == 1 and s.loc["001.txt", "repeated"] == 1


def test_on_the_seeds_vacuous_and_repeated_rows_are_counted_apart(reproduction):
    s = checks.summary(reproduction).set_index("source")
    # sglang: 66 standard deviations printed as 0.00 or 0.01, and 49 ranking values that print a summary mean again
    assert s.loc["002_720befe671f869ae.txt", "not checkable"] == 66 + 49
    assert s.loc["001_4e5344ced21f561d.txt", "repeated"] == 54  # seed 001 repeats seed 000's TP 1 section
    assert s.loc["001_4e5344ced21f561d.txt", "recomputed"] == 0
    assert (s["recomputed"] == s["agree"] + s["disagree"] + s["not checkable"]).all()


@pytest.mark.parametrize(
    "published, recomputed, decimals, carried, expected",
    [
        (22.07, 22.070183, 2, 0.0, True),  # within half a unit in the last printed place
        (22.07, 22.0749, 2, 0.0, True),
        (22.07, 22.0751, 2, 0.0, False),  # just past it
        (22.07, 22.17, 2, 0.0, False),
        (22.07, 21.97, 2, 0.0, False),  # on the other side
        (22.07, 22.17, 2, 0.1, True),  # the inputs' printed precision carries 0.1
        (22.07, 22.18, 2, 0.1, False),
        (100.0, 100.4, 0, 0.0, True),
        (100.0, 100.6, 0, 0.0, False),
        (math.nan, 22.07, 2, 0.0, False),  # a missing side never agrees
        (22.07, math.inf, 2, 0.0, False),
        (None, 22.07, 2, 0.0, False),
        ("n/a", 22.07, 2, 0.0, False),
    ],
)
def test_agrees_within_the_printed_precision_only(published, recomputed, decimals, carried, expected):
    assert checks.agrees(published, recomputed, decimals, carried) is expected


def test_a_doctored_published_number_is_caught_by_the_reproduction(tmp_path):
    """Seed 003 reproduces 70 of 70; with one printed msec/token changed (22.07 -> 22.17), exactly
    that quantity stops agreeing and the other 69 still do."""
    text = config.seed("003").read_text(encoding="utf-8")
    assert "| 45.31 \\| 22.07  |" in text
    doctored = tmp_path / "003_doctored.txt"
    doctored.write_text(text.replace("| 45.31 \\| 22.07  |", "| 45.31 \\| 22.17  |"), encoding="utf-8")
    clean = checks.reproduce_all([config.seed("003")])
    bad = checks.reproduce_all([doctored])
    assert clean["agrees"].all() and len(clean) == len(bad) == 70
    wrong = bad[~bad["agrees"].astype(bool)]
    assert len(wrong) == 1
    row = wrong.iloc[0]
    assert row["line"] == 10 and row["published"] == pytest.approx(22.17)
    assert row["recomputed"] == pytest.approx(1000 / 45.31)


@pytest.mark.parametrize("x, places", [(22.07, 2), (0.5, 1), (1e-07, 0), (1.5e-07, 0), (1e20, 0), (2.5e20, 0)])
def test_printed_decimals(x, places):
    assert checks.printed_decimals(x) == places


def _reproduction() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "source": ["b.txt", "b.txt", "a.txt", "a.txt", "a.txt", "a.txt"],
            "tool": ["llama", "llama", "tgi", "tgi", "tgi", "tgi"],
            "published": [50.0, np.nan, 100.0, 100.0, 0.0, 1.0],
            "recomputed": [55.0, 50.0, 101.0, 100.0, 1.0, 1.0],
            "agrees": [False, False, False, True, False, True],
            "why_not": ["off by 10 %", "not printed", "off by 1 %", np.nan, "printed 0", np.nan],
        }
    )


def test_summary_counts_agreement_per_source_and_tool():
    s = checks.summary(_reproduction()).set_index(["source", "tool"])
    none = {"not checkable": 0, "repeated": 0}
    assert s.loc[("a.txt", "tgi")].to_dict() == {"recomputed": 4, "agree": 2, "disagree": 2, **none}
    assert s.loc[("b.txt", "llama")].to_dict() == {"recomputed": 2, "agree": 0, "disagree": 2, **none}
    assert list(s.index) == [("b.txt", "llama"), ("a.txt", "tgi")]  # in the order of the table, not sorted


@pytest.mark.parametrize(
    "published, recomputed, decimals, expected",
    [
        (0.0, 0.5, 0, True),  # exactly half a unit off: inside
        (0.0, checks.tolerance(0) + 1e-9, 0, True),  # on the edge, binary slack included
        (0.0, 0.5 + 1.5e-9, 0, False),  # past the slack of 1e-9 (relative to max(1, |published|))
        (1e9, 1e9 + 1.2, 0, True),  # the slack grows with the value: 0.5 + 1e-9 x 1e9
        (1e9, 1e9 + 1.6, 0, False),
    ],
)
def test_agrees_at_the_edge_of_its_tolerance(published, recomputed, decimals, expected):
    assert checks.agrees(published, recomputed, decimals) is expected


def test_reproduce_all_counts_an_unrecomputable_quantity_as_a_disagreement(monkeypatch):
    """A tool module that could not recompute a published number (agrees missing) gives False, not
    True; the table has exactly the reproduction columns and a fresh index over all files."""
    from benchbook.checks import hf_batch

    def fake(path):
        rows = [{"line": 1, "published": 1.0, "agrees": np.nan}, {"line": 2, "published": 2.0, "agrees": True}]
        rows.append({"line": 3, "published": np.nan, "agrees": True})  # not published: left out
        return checks.frame(
            [{"source": path.name, "tool": "hf-batch-sweep", **r} for r in rows], checks.REPRODUCTION_COLUMNS
        )

    monkeypatch.setattr(hf_batch, "reproduce", fake)
    table = checks.reproduce_all([config.seed("003"), config.seed("003")])
    assert list(table.columns) == checks.REPRODUCTION_COLUMNS
    assert list(table.index) == [0, 1, 2, 3]
    assert table["agrees"].dtype == bool and list(table["agrees"]) == [False, True, False, True]


def test_audit_all_indexes_the_rows_of_all_files_afresh(monkeypatch):
    from benchbook.checks import hf_batch

    monkeypatch.setattr(hf_batch, "audit", lambda path: checks.frame([{"source": path.name}] * 2, checks.AUDIT_COLUMNS))
    table = checks.audit_all([config.seed("003"), config.seed("003")])
    assert list(table.index) == [0, 1, 2, 3] and list(table.columns) == checks.AUDIT_COLUMNS


def test_agrees_refuses_an_infinite_published_value():
    assert agrees(1.004, 1.0, 2)
    assert not agrees(math.inf, 1.0, 2)
    assert not agrees(1.0, math.inf, 2)
    assert not agrees(math.inf, math.inf, 2)


def test_no_defect_draws_a_message_not_empty_axes_or_a_warning():
    import warnings

    import matplotlib.pyplot as plt

    from benchbook.presentation import audit as audit_view
    from benchbook.presentation import reproduction as show

    empty = checks.audit_all([])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # matplotlib's "No artists with labels" UserWarning would fail here
        fig = audit_view.defects_figure(audit_view.defect_counts(empty))
    assert [t.get_text() for t in fig.axes[0].texts] == ["no defect found in these files"]
    plt.close(fig)
    assert show.disagreements(checks.reproduce_all([])).empty  # the page then says so in a sentence
