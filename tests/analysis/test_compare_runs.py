"""`benchbook compare`: N runs of one tool against a baseline, judged against the tools' own noise."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from benchbook import compare, config
from benchbook.analysis import compare as ac
from benchbook.cli import app

SERIES = config.DATA_DIR / "series" / "strix_halo_glm45_air_q6"
ROCM = sorted((SERIES / "rocm7_rc").glob("*.log"))


def _run(value, gpu="A100", batch=(1,), std=None, reps=None):
    """A synthetic tidy table of tool `t`: one latency number per batch size."""
    rows = []
    for b in batch:
        if reps is not None:
            rows += [{"gpu": gpu, "batch": b, "rep": i, "statistic": "mean", "value": v} for i, v in enumerate(reps)]
        else:
            rows.append({"gpu": gpu, "batch": b, "statistic": "mean", "value": value})
            if std is not None:
                rows.append({"gpu": gpu, "batch": b, "statistic": "std", "value": std})
    df = pd.DataFrame(rows)
    df.insert(0, "tool", "t")
    df.insert(1, "source", "x")
    df.insert(2, "line", range(1, len(df) + 1))
    df["metric"] = "lat"
    df["unit"] = "ms"
    df["note"] = None
    return df


def test_repeated_runs_of_one_setting_are_within_noise():
    # three runs declare the same settings: their spread (sd 1.0) is the noise of each
    runs = [_run(v) for v in (100.0, 101.0, 99.0)]
    al = ac.align(runs, ["r1", "r2", "r3"])
    assert set(al.values["s_from"]) == {"repeats"}
    rows = ac.against(al, 0)
    assert rows["noise"].tolist() == pytest.approx([2 * np.hypot(1 / 101, 1 / 100), 2 * np.hypot(1 / 99, 1 / 100)])
    assert all(abs(r - 1) <= n for r, n in zip(rows["ratio"], rows["noise"], strict=True))


def test_a_difference_beyond_the_repeats_spread_is_beyond_noise():
    # the same three repeats, and a fourth run on another GPU, 20 % slower
    runs = [_run(v) for v in (100.0, 101.0, 99.0)] + [_run(120.0, gpu="H100", std=1.0)]
    rows = ac.against(ac.align(runs, ["r1", "r2", "r3", "h"]), 0).set_index("label")
    assert rows.loc["h", "ratio"] == pytest.approx(1.2)
    assert abs(rows.loc["h", "ratio"] - 1) > rows.loc["h", "noise"]


def test_single_measurements_have_no_noise_estimate():
    runs = [_run(100.0), _run(100.0, gpu="H100")]  # one number each, no spread, no repeat
    al = ac.align(runs, ["a", "b"])
    assert al.values["s"].isna().all()
    rows = ac.against(al, 0)
    assert rows["noise"].tolist() == [None]


def test_printed_spread_samples_and_zero_spread():
    # llama-bench style ±: the printed std; samples (rep): their standard deviation
    al = ac.align([_run(50.0, std=0.5), _run(None, reps=[49.0, 51.0, 50.0])], ["md", "json"])
    got = al.values.set_index("run")
    assert got.loc[0, "s"] == 0.5 and got.loc[0, "s_from"] == "std"
    assert got.loc[1, "value"] == 50.0 and got.loc[1, "s"] == pytest.approx(1.0) and got.loc[1, "s_from"] == "samples"
    # a spread printed as 0.00 is below half the last digit, not zero
    assert ac.half_digit(15.49, 0.0) == pytest.approx(0.005)
    z = ac.align([_run(15.49, std=0.0), _run(15.52, gpu="B", std=0.0)], ["a", "b"]).values
    assert z["s"].tolist() == pytest.approx([0.005, 0.005])


def test_half_the_last_digit_of_a_value_repr_writes_with_an_exponent():
    """0.00005 (`repr`: 5e-05) has five decimals, so a spread printed as 0.00000 beside it is under
    0.000005, not 0.5; 1e16 (`repr`: 1e+16) has none; beyond six decimals the half digit stays 5e-07."""
    assert ac.half_digit(5e-05, 0.0) == pytest.approx(5e-06)
    assert ac.half_digit(1e16, 0.0) == 0.5
    assert ac.half_digit(1.5e-07, 0.0) == pytest.approx(5e-07)
    assert ac.half_digit(12.0, 0.0) == 0.5


def test_min_max_give_a_rough_spread():
    df = _run(10.0)
    extra = df.assign(statistic=["min"], value=[8.0]), df.assign(statistic=["max"], value=[12.0])
    al = ac.align([pd.concat([df, *extra], ignore_index=True), _run(11.0, gpu="B")], ["tgi", "b"])
    row = al.values.set_index("run").loc[0]
    assert row["s"] == 1.0 and row["s_from"] == "min-max"  # (max - min) / 4


def test_real_series_verdicts_and_no_better_at_ratio_one(tmp_path):
    (mc,) = compare.compare_runs(ROCM)
    r = mc.rows.set_index(["label", "metric"])
    # b6181's prompt rate: 69.52 ± 0.17 against 124.18 ± 0.48
    assert r.loc[("b6181.log", "pp_rate"), "ratio"] == pytest.approx(69.52 / 124.18)
    assert r.loc[("b6181.log", "pp_rate"), "verdict"] == "beyond noise"
    assert r.loc[("b6181.log", "pp_rate"), "better"] == "b6119.log"  # a rate, and the baseline's is higher
    assert all(c.kind == "comparison" for c in mc.claims) and len(mc.claims) == len(mc.rows)
    # the same file twice: every ratio is exactly 1, inside the noise, and no run is better
    (same,) = compare.compare_runs([ROCM[0], ROCM[0]])
    assert (same.rows["ratio"] == 1.0).all() and set(same.rows["verdict"]) == {"within noise"}
    assert set(same.rows["better"]) == {""}


def test_no_noise_estimate_is_a_withheld_claim():
    a = _run(100.0)
    b = _run(90.0, gpu="H100")
    al = ac.align([a, b], ["a", "b"])
    rows = ac.against(al, 0)
    claim = compare._claim(rows.iloc[0], al.keys, "a", "t", 0)
    assert claim.status == "withheld" and "no noise estimate" in claim.reason
    assert compare._verdict(claim) == "no noise estimate"


def test_cli_json_and_baseline(tmp_path):
    res = CliRunner().invoke(app, ["compare", *map(str, ROCM), "--baseline", "3", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)["comparisons"][0]
    assert out["baseline"] == "b6181.log" and [r["label"] for r in out["runs"]] == [p.name for p in ROCM]
    assert out["settings_that_differ"]["ngl"] == {
        "b6119.log": "999",
        "b6123.log": "999",
        "b6181.log": "99",
        "b6486.log": "99",
    }
    pp = {n["run"]: n for n in out["numbers"] if n["metric"] == "pp_rate"}
    assert pp["b6486.log"]["ratio"] == pytest.approx(92.20 / 69.52) and pp["b6486.log"]["verdict"] == "beyond noise"
    assert "b6181.log" not in pp  # the baseline is not compared with itself


@pytest.mark.parametrize(
    "args,words",
    [
        (["compare", "only_one.log"], "at least two"),
        (["compare", str(ROCM[0]), str(ROCM[1]), "--baseline", "5"], "--baseline must be between 1 and 2"),
        (["compare", str(ROCM[0]), str(config.seed("001"))], "no tool in common"),
        (["compare", str(ROCM[0]), "missing.log"], "missing.log"),
        (["compare", str(ROCM[0]), str(ROCM[1]), "--label", "x"], "--label once per run"),
    ],
)
def test_cli_bad_input_is_one_line_and_exit_2(args, words):
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 2, res.output
    err = res.stderr.strip()
    assert words in err and len(err.splitlines()) == 1 and "Traceback" not in res.output


def test_a_setting_that_varies_within_or_across_tables_is_a_key():
    def tidy(batches, gpu):
        return pd.DataFrame(
            {"batch": batches, "gpu": gpu, "metric": "lat", "statistic": "mean", "unit": "ms", "value": 1.0}
        )

    keys, per_run = ac.choose_keys(tidy([1, 2], "A100"), tidy([1, 2], "H100"))
    assert keys == ["batch"] and per_run == ["gpu"]
    assert ac.choose_keys(tidy([1], "A100"), tidy([1], "A100")) == ([], ["batch", "gpu"])


@pytest.mark.parametrize(
    ("printed", "half"),
    [((0.00005,), 0.000005), ((1.5e-7, 2.0), 0.5e-6), ((15.49, 0.0), 0.005), ((120.0,), 0.5)],
)
def test_half_a_digit_of_a_small_number_is_read_from_its_digits_not_its_exponent_form(printed, half):
    # repr(0.00005) is '5e-05': read as it prints, its last digit is the fifth decimal, not a whole unit
    # (past six decimals the half digit stays 5e-07, as before)
    assert ac.half_digit(*printed) == pytest.approx(half)
