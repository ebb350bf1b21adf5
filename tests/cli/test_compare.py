"""`benchbook compare` (once also called `benchbook report`) and the two-run library: runs matched number by number."""

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from benchbook import compare, config, ingest
from benchbook.analysis import compare as compare_ac
from benchbook.analysis.compare import SPREAD_STATS
from benchbook.cli import app

TGI_ALL = config.seed("000")
TGI_TP1 = config.seed("001")
W600 = config.FIXTURES_DIR / "compare" / "llama2_7b_600w.md"
W300 = config.FIXTURES_DIR / "compare" / "llama2_7b_300w.md"


def test_seed_001_is_the_tp1_table_of_seed_000():
    (c,) = compare.compare_runs([TGI_ALL, TGI_TP1])
    tp1 = ingest.read(TGI_TP1)
    compared = tp1[~tp1["statistic"].isin(SPREAD_STATS)]
    assert c.tool == "tgi-benchmark" and len(tp1) < len(ingest.read(TGI_ALL))
    assert len(c.rows) == len(compared)  # every number of 001 finds its twin in 000's TP 1 table
    assert set(c.rows["tp"]) == {"1"}
    assert np.allclose(c.rows["ratio"], 1.0) and set(c.rows["verdict"]) == {"within noise"}
    assert "section" in c.aligned.keys  # 000 needs it (two TP 8 / seq 100 tables differ only by it)
    assert "section" not in c.aligned.match  # 001 has no sections: it cannot be matched on


def test_llama_bench_power_levels():
    (c,) = compare.compare_runs([W600, W300])
    r = c.rows.set_index(["metric", "statistic"])
    assert r.loc[("pp_rate", "mean"), "baseline"] == 16634.04
    assert r.loc[("pp_rate", "mean"), "value"] == 12802.05
    assert r.loc[("pp_rate", "mean"), "ratio"] == pytest.approx(12802.05 / 16634.04)
    assert r.loc[("tg_rate", "mean"), "ratio"] == pytest.approx(260.42 / 278.95)
    assert r.loc[("tg_rate", "mean"), "verdict"] == "beyond noise"
    assert r.loc[("tg_rate", "mean"), "better"] == W600.name  # a rate: higher is better, and 300 W is lower
    diff = c.aligned.run_settings.set_index("setting")
    assert diff.loc["power_limit_w", W600.name] == "600" and diff.loc["power_limit_w", W300.name] == "300"
    assert bool(diff.loc["power_limit_w", "differs"]) and not bool(diff.loc["model", "differs"])
    assert set(c.figures) == {"pp_rate", "tg_rate"}


def test_other_tool_is_refused():
    with pytest.raises(compare.CompareError, match="same tool"):
        compare.compare_runs([TGI_TP1, W600])


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
    keys, per_run = compare_ac.choose_keys(a, b)
    assert keys == ["batch"] and per_run == ["gpu"]
    c = compare.compare_tables([a, b], "t", ["a", "b"])
    assert list(c.rows["ratio"]) == [0.5, 0.25]
    # single measurements: no noise estimate, so no run is called better however large the ratio
    assert list(c.rows["verdict"]) == ["no noise estimate"] * 2 and list(c.rows["better"]) == ["", ""]
    s = compare.runs_summary(c)
    assert s.loc[0, "geomean ratio"] == pytest.approx(np.sqrt(0.5 * 0.25))
    assert s.loc[0, "no noise estimate"] == 2


def test_summary_with_no_usable_ratio_is_nan_not_a_crash():
    # the baseline is zero everywhere: every ratio is NaN, so no metric has a geometric mean
    a = _tidy([{"batch": b, "metric": "lat", "value": 0.0} for b in (1, 2)])
    b = _tidy([{"batch": b, "metric": "lat", "value": 3.0} for b in (1, 2)])
    c = compare.compare_tables([a, b], "t", ["a", "b"])
    assert len(c.rows) == 2 and c.rows["ratio"].isna().all()
    assert set(c.rows["verdict"]) == {"not comparable"}
    s = compare.runs_summary(c)
    assert s["geomean ratio"].isna().all() and s.loc[0, "not comparable"] == 2
    assert compare.runs_lines([c])[1] == "  b: lat (mean) ratio geomean n/a; 2 not comparable"
    assert "<h3>Summary per run and metric</h3>" in compare.runs_html([c])


def test_repeats_are_samples_and_ambiguous_rows_left_unmatched():
    a = _tidy(
        [{"batch": 1, "sec": s, "metric": "lat", "value": v} for s, v in [("x", 10.0), ("y", 30.0)]]
        + [{"batch": 2, "sec": "x", "metric": "lat", "value": 4.0}]
    )
    b = _tidy(
        [{"batch": 1, "sec": None, "metric": "lat", "value": 8.0}] * 2
        + [{"batch": 2, "sec": None, "metric": "lat", "value": 2.0}]
    )
    c = compare.compare_tables([a, b], "t", ["a", "b"])
    # batch 1 is ambiguous in a (sections x and y), so only batch 2 matches
    assert list(c.rows["batch"]) == ["2"] and list(c.rows["ratio"]) == [0.5]
    un = c.aligned.unmatched
    assert len(un[un["run"] == 0]) == 2 and len(un[un["run"] == 1]) == 1
    # b's two rows at batch 1 are samples of one number: their mean, with n 2
    assert compare_ac.align([b, b], ["p", "q"]).values.query("batch == '1'")["n"].tolist() == [2, 2]


def test_nothing_matches_is_an_error():
    a = _tidy([{"batch": b, "metric": "lat", "value": 1.0} for b in (1, 2)])
    b = _tidy([{"batch": b, "metric": "lat", "value": 1.0} for b in (4, 8)])
    with pytest.raises(compare.CompareError, match="no t number"):
        compare.compare_tables([a, b], "t", ["a", "b"])


def test_cli_report_is_compare_and_writes_a_page(tmp_path, machine_path):
    res = CliRunner().invoke(app, ["compare", "--source", str(W600), "--source", str(W300), "-o", str(tmp_path)])
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
    res = CliRunner().invoke(app, ["compare", "--source", str(W600)])
    assert res.exit_code == 2 and "at least two" in res.output
