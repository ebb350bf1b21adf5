"""`benchbook report`: two runs of one tool, matched number by number."""

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from benchbook import compare, config, ingest
from benchbook.cli import app

TGI_ALL = config.seed("000")
TGI_TP1 = config.seed("001")
W600 = config.FIXTURES_DIR / "compare" / "llama2_7b_600w.md"
W300 = config.FIXTURES_DIR / "compare" / "llama2_7b_300w.md"


def test_seed_001_is_the_tp1_table_of_seed_000():
    (c,) = compare.compare_files(TGI_ALL, TGI_TP1)
    n_all, n_tp1 = len(ingest.read(TGI_ALL)), len(ingest.read(TGI_TP1))
    assert c.tool == "tgi-benchmark" and n_tp1 < n_all
    assert len(c.ratios) == n_tp1  # every number of 001 finds its twin in 000's TP 1 table
    assert set(c.ratios["tp"]) == {"1"}
    assert np.allclose(c.ratios["ratio"], 1.0)
    assert len(c.only_b) == 0 and len(c.only_a) == n_all - n_tp1
    assert "section" in c.keys  # 000 needs it (two TP 8 / seq 100 tables differ only by it)


def test_llama_bench_power_levels():
    (c,) = compare.compare_files(W600, W300)
    r = c.ratios.set_index(["metric", "statistic"])
    assert r.loc[("pp_rate", "mean"), "A"] == 16634.04
    assert r.loc[("pp_rate", "mean"), "B"] == 12802.05
    assert r.loc[("pp_rate", "mean"), "ratio"] == pytest.approx(12802.05 / 16634.04)
    assert r.loc[("tg_rate", "mean"), "ratio"] == pytest.approx(260.42 / 278.95)
    assert r.loc[("tg_rate", "mean"), "better"] == "A"  # a rate: higher is better, and B is lower
    diff = c.run_settings.set_index("setting")
    assert diff.loc["power_limit_w", "A"] == "600" and diff.loc["power_limit_w", "B"] == "300"
    assert bool(diff.loc["power_limit_w", "differs"]) and not bool(diff.loc["model", "differs"])
    assert set(c.figures) == {"pp_rate", "tg_rate"}


def test_other_tool_is_refused():
    with pytest.raises(compare.CompareError, match="same tool"):
        compare.compare_files(TGI_TP1, W600)


def _tidy(rows):
    df = pd.DataFrame(rows)
    df.insert(0, "tool", "t")
    df.insert(1, "source", "x")
    df.insert(2, "line", range(1, len(df) + 1))
    df["statistic"] = "mean"
    df["unit"] = "ms"
    df["note"] = None
    return df


def test_keys_known_answers():
    # batch varies (a key); label is a text copy of batch (redundant, dropped); gpu is per run
    a = _tidy(
        [{"gpu": "A100", "batch": b, "label": f"bs{b}", "metric": "lat", "value": v} for b, v in [(1, 10.0), (2, 20.0)]]
    )
    b = _tidy(
        [{"gpu": "H100", "batch": b, "label": f"BS {b}", "metric": "lat", "value": v} for b, v in [(1, 5.0), (2, 5.0)]]
    )
    keys, per_run = compare.choose_keys(a, b)
    assert keys == ["batch"] and per_run == ["gpu"]
    c = compare.compare_tables(a, b, "t", ("a", "b"))
    assert list(c.ratios["ratio"]) == [0.5, 0.25]
    assert list(c.ratios["better"]) == ["B", "B"]  # a time: lower is better
    s = compare.metric_summary(c)
    assert s.loc[0, "geomean B/A"] == pytest.approx(np.sqrt(0.5 * 0.25))


def test_summary_with_no_usable_ratio_is_empty_not_a_crash():
    # A is zero everywhere: every ratio is NaN, so no metric has a geometric mean
    a = _tidy([{"batch": b, "metric": "lat", "value": 0.0} for b in (1, 2)])
    b = _tidy([{"batch": b, "metric": "lat", "value": 3.0} for b in (1, 2)])
    c = compare.compare_tables(a, b, "t", ("a", "b"))
    assert len(c.ratios) == 2 and c.ratios["ratio"].isna().all()
    s = compare.metric_summary(c)
    assert s.empty and list(s.columns)[:4] == ["metric", "statistic", "unit", "matched"]
    assert compare.summary_lines([c]) == ["t: 2 numbers matched, 0 only in A, 0 only in B (no run setting differs)"]
    assert "<h3>Summary per metric</h3>" in compare.report_html([c])


def test_repeats_are_averaged_and_ambiguous_rows_left_unmatched():
    a = _tidy(
        [{"batch": 1, "sec": s, "metric": "lat", "value": v} for s, v in [("x", 10.0), ("y", 30.0)]]
        + [{"batch": 2, "sec": "x", "metric": "lat", "value": 4.0}]
    )
    b = _tidy(
        [{"batch": 1, "sec": None, "metric": "lat", "value": 8.0}] * 2
        + [{"batch": 2, "sec": None, "metric": "lat", "value": 2.0}]
    )
    c = compare.compare_tables(a, b, "t", ("a", "b"))
    # batch 1 is ambiguous in A (sections x and y), so only batch 2 matches
    assert list(c.ratios["batch"]) == ["2"] and list(c.ratios["ratio"]) == [0.5]
    assert len(c.only_a) == 2 and len(c.only_b) == 1
    assert int(c.only_b["batch"].iloc[0]) == 1


def test_nothing_matches_is_an_error():
    a = _tidy([{"batch": b, "metric": "lat", "value": 1.0} for b in (1, 2)])
    b = _tidy([{"batch": b, "metric": "lat", "value": 1.0} for b in (4, 8)])
    with pytest.raises(compare.CompareError, match="no t measurement"):
        compare.compare_tables(a, b, "t", ("a", "b"))


def test_cli_report_is_compare_and_writes_a_page(tmp_path, machine_path):
    res = CliRunner().invoke(app, ["report", "--source", str(W600), "--source", str(W300), "-o", str(tmp_path)])
    assert res.exit_code == 0, res.output
    assert "power_limit_w: 600 -> 300" in res.output
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    (mc,) = compare.compare_runs([W600, W300])
    assert page.count("<img ") == len(mc.figures) == 2 and "data:image/png;base64," in page
    summary = compare.runs_summary(mc).set_index("metric")
    assert f"<td>{summary.loc['pp_rate', 'geomean ratio']:.4g}</td>" in page
    assert machine_path(page, str(tmp_path)) is None
    csv = pd.read_csv(tmp_path / "report_ratios.csv")
    assert len(csv) == len(mc.rows) and np.allclose(csv["ratio"], mc.rows["ratio"])


def test_cli_report_needs_two_sources(tmp_path):
    res = CliRunner().invoke(app, ["report", "--source", str(W600)])
    assert res.exit_code == 2 and "at least two" in res.output
