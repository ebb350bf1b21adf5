"""Tracking a metric over runs: order, steps against the tools' own spread, the chapter on the real
series and on another one, and `benchbook ingest --into` / `history` on bad input."""

from __future__ import annotations

import json
import re

import numpy as np
import pandas as pd
import pytest
import yaml
from conftest import page_text
from typer.testing import CliRunner

from benchbook import config, warehouse
from benchbook.analysis import tracking
from benchbook.analysis.changes import Change
from benchbook.claims import tracking as ct
from benchbook.cli import app
from benchbook.presentation import wording

SERIES = config.DATA_DIR / "series" / "strix_halo_glm45_air_q6"
GPT_OSS = config.DATA_DIR / "series" / "strix_halo_gpt_oss_20b" / "vulkan_radv_fa1"

_TABLE = """{date}
| model                          |       size |     params | backend    | ngl |            test |                  t/s |
| ------------------------------ | ---------: | ---------: | ---------- | --: | --------------: | -------------------: |
| llama 7B Q4_0                  |   3.56 GiB |     6.74 B | CUDA       |  99 |           pp512 |     {pp:>8.2f} ± {sd:.2f} |

build: 0000000 ({build})
"""


def _synthetic_series(folder, values, dates=None, sd=0.5):
    """llama-bench markdown files, one per run (synthetic: made here, see the docstring's caller)."""
    folder.mkdir(parents=True, exist_ok=True)
    for i, v in enumerate(values):
        date = "" if dates is None else f"started {dates[i]}"
        (folder / f"run_{i:02d}.md").write_text(_TABLE.format(date=date, pp=v, sd=sd, build=1000 + i), encoding="utf-8")
    return folder


def test_parse_where():
    assert tracking.parse_where("backend=ROCm, ngl = 99,") == {"backend": "ROCm", "ngl": "99"}
    assert tracking.parse_where("") == {}
    with pytest.raises(ValueError, match="KEY=VALUE"):
        tracking.parse_where("backend")


def test_smallest_p_of_short_series():
    # 4 runs, splits of at least 2: only 2|2; 8 of the 24 orders reach the best split
    assert tracking.smallest_p(4) == pytest.approx(1 / 3)
    assert tracking.smallest_p(3) == 1.0
    assert tracking.smallest_p(8) == pytest.approx(1 / 35)  # 2 x 4! x 4! / 8!
    assert tracking.smallest_p(20) == pytest.approx(2 / 184_756)  # any length: 2 / C(20, 10)
    assert (tracking.fewest_runs(0.05), tracking.fewest_runs(0.01)) == (8, 10)


def test_the_smallest_p_is_what_the_test_gives_on_a_clean_step():
    """Every order of a clean step, counted: the share that splits as well is 2 / C(n, n // 2), odd n too
    (a ramp, the most gradual series, is not the extreme: for 7 runs it gives 0.1, a step 0.057)."""
    import itertools

    import numpy as np

    from benchbook.analysis.changes import _best_split_gain

    for n in (5, 6, 7):
        x = np.r_[np.arange(n // 2) * 0.01, 5 + np.arange(n - n // 2) * 0.01]
        perms = np.array(list(itertools.permutations(x)))
        share = (_best_split_gain(perms, 2) >= _best_split_gain(x, 2) * (1 - 1e-12)).mean()
        assert share == pytest.approx(tracking.smallest_p(n))


def test_real_series_in_the_order_given_with_its_spread():
    s = tracking.load([SERIES / "rocm7_rc"], "pp_rate")
    assert s.order == "given" and s.undated == 4 and s.statistic == "mean"
    assert s.runs["label"].tolist() == ["b6119.log", "b6123.log", "b6181.log", "b6486.log"]
    assert s.runs["value"].tolist() == [124.18, 118.52, 69.52, 92.20]
    assert s.runs["std"].tolist() == [0.48, 0.35, 0.17, 0.11]
    steps = tracking.steps(s.runs)
    assert steps["ratio"].iloc[1] == pytest.approx(69.52 / 118.52)
    assert steps["noise"].iloc[1] == pytest.approx(2 * np.hypot(0.17 / 69.52, 0.35 / 118.52))
    assert steps[["previous_value", "value"]].iloc[1].tolist() == [118.52, 69.52]
    # the files given in reverse: the order follows what was given
    rev = tracking.load(sorted((SERIES / "rocm7_rc").glob("*.log"), reverse=True), "pp_rate")
    assert rev.runs["label"].tolist() == ["b6486.log", "b6181.log", "b6123.log", "b6119.log"]


def test_default_series_is_eight_builds_in_build_order_with_printed_settings_drift():
    s = tracking.load([GPT_OSS], "pp_rate")
    assert s.order == "given" and s.undated == 8
    builds = [6119, 6122, 6182, 6486, 7423, 7670, 8577, 8743]
    assert s.runs["label"].tolist() == [f"b{b}.log" for b in builds]
    assert s.runs["value"].tolist() == [728.38, 728.71, 732.35, 1204.49, 1395.08, 1429.10, 1577.96, 1574.45]
    assert s.runs["std"].iloc[3] == 13.52
    # the same configuration printed two ways: ngl 999 then 99, the model as '?B' then '20B'
    assert len(tracking.load([GPT_OSS], "pp_rate", {"ngl": "99"}).runs) == 6
    assert len(tracking.load([GPT_OSS], "pp_rate", {"model": "gpt-oss 20B MXFP4 MoE"}).runs) == 5


def test_printed_dates_order_the_runs_not_the_names(tmp_path):
    folder = _synthetic_series(
        tmp_path / "s", [10.0, 20.0, 30.0], dates=["2025-03-02 08:00:00", "2025-03-03 08:00:00", "2025-03-01 08:00:00"]
    )
    s = tracking.load([folder], "pp_rate")
    assert s.order == "date" and s.undated == 0
    assert s.runs["value"].tolist() == [30.0, 10.0, 20.0]


def test_tool_spread_missing_gives_no_noise(tmp_path):
    s = tracking.load([_synthetic_series(tmp_path / "s", [10.0, 11.0])], "pp_rate")
    runs = s.runs.assign(std=np.nan)
    assert tracking.steps(runs)["noise"].tolist() == [None]


def test_a_bad_filter_or_metric_is_one_sentence():
    with pytest.raises(warehouse.WarehouseError, match="no run reports metric 'nope'"):
        tracking.load([SERIES / "rocm7_rc"], "nope")
    with pytest.raises(warehouse.WarehouseError, match="no setting 'gpu_kind'"):
        tracking.load([SERIES / "rocm7_rc"], "pp_rate", {"gpu_kind": "x"})


def _ledger(nb_path):
    from benchbook.claims import from_notebook

    return from_notebook(json.loads(nb_path.read_text(encoding="utf-8")))


@pytest.mark.notebooks
def test_chapter_on_the_real_series(tmp_path):
    import papermill as pm

    out = tmp_path / "tracking.ipynb"
    pm.execute_notebook(
        str(config.NOTEBOOKS_DIR / "tracking.ipynb"), str(out), cwd=str(config.PROJ_ROOT), progress_bar=False
    )
    led = {c["id"]: c for c in _ledger(out)["claims"]}
    # gpt-oss-20b on Vulkan over eight builds: the prompt rate jumps at build 6486 (about 730 to 1204 tok/s)
    assert led["changes"]["status"] == "shown" and led["changes"]["evidence"]["count"] == 1
    ch = led["change_1"]
    assert ch["evidence"]["run"] == "b6486.log" and ch["evidence"]["p_value"] < 0.05
    assert ch["evidence"]["b"] == pytest.approx((728.38 + 728.71 + 732.35) / 3)
    assert led["step_3"]["status"] == "shown" and "1.645 x" in led["step_3"]["text"]
    assert led["step_1"]["status"] == "withheld"  # 728.38 to 728.71: within the runs' spread
    # the series' truth card, read against the prose a reader sees
    card = yaml.safe_load(GPT_OSS.with_name(GPT_OSS.name + ".truth.yml").read_text(encoding="utf-8"))
    text = page_text(json.loads(out.read_text(encoding="utf-8")))
    assert [r for r in card["must_say"] if not re.search(r, text, re.IGNORECASE)] == []
    assert [r for r in card["must_not_say"] if re.search(r, text, re.IGNORECASE)] == []


@pytest.mark.notebooks
def test_chapter_reruns_with_papermill_on_another_series(tmp_path):
    import papermill as pm

    rng = np.random.default_rng(4)
    values = np.round(np.r_[rng.normal(100, 0.5, 10), rng.normal(90, 0.5, 10)], 2)  # as printed
    dates = [f"2025-01-{d:02d} 03:00:00" for d in range(1, 21)]
    folder = _synthetic_series(tmp_path / "nightly", values, dates=dates)
    out = tmp_path / "tracking.ipynb"
    pm.execute_notebook(
        str(config.NOTEBOOKS_DIR / "tracking.ipynb"),
        str(out),
        parameters={"source": str(folder), "metric": "pp_rate", "where": "backend=CUDA", "alpha": 0.01},
        cwd=str(config.PROJ_ROOT),
        progress_bar=False,
    )
    led = {c["id"]: c for c in _ledger(out)["claims"]}
    assert led["changes"]["status"] == "shown" and led["changes"]["evidence"]["count"] == 1
    ch = led["change_1"]
    assert ch["status"] == "shown" and ch["evidence"]["index"] == 10 and ch["evidence"]["run"] == "run_10.md"
    assert ch["evidence"]["size"] == pytest.approx(values[10:].mean() - values[:10].mean())


def test_cli_ingest_into_and_history(tmp_path):
    into = tmp_path / "wh"
    res = CliRunner().invoke(app, ["ingest", str(SERIES), "--into", str(into)])
    assert res.exit_code == 0, res.output
    assert "8 runs added, 0 already there" in res.stderr
    again = CliRunner().invoke(
        app, ["ingest", str(SERIES / "rocm7_rc"), str(SERIES / "vulkan_radv"), "--into", str(into)]
    )
    assert "0 runs added, 8 already there" in again.stderr
    res = CliRunner().invoke(app, ["history", str(into), "--metric", "pp_rate", "--where", "backend=Vulkan", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["values"] == [127.36, 127.35, 126.55, 208.01] and out["changes"] == []


@pytest.mark.parametrize(
    "args,words",
    [
        (["ingest", "no_such_dir/", "--into", "{tmp}/wh"], "no_such_dir: no such file or folder"),
        (["ingest", "README.md", "--into", "{tmp}/wh"], "README.md:"),
        (["ingest", "--into", "{tmp}/wh"], "give the files or folders"),
        (["history", "{series}", "--metric", "pp_rate", "--where", "nokey"], "expected KEY=VALUE"),
        (["history", "{series}", "--metric", "nope"], "no run reports metric 'nope'"),
    ],
)
def test_cli_bad_input_is_one_line_and_exit_2(tmp_path, args, words):
    args = [a.format(tmp=tmp_path, series=SERIES / "rocm7_rc") for a in args]
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 2, res.output
    err = res.stderr.strip()
    assert words in err and len(err.splitlines()) == 1 and "Traceback" not in res.output


TRACK_RUNS = pd.DataFrame({"label": ["r0", "r1", "r2", "r3"], "unit": ["tok/s"] * 4})


def test_tracking_change_evidence():
    """100 -> 150 before run 2, size 50 in [40, 70]: half-width max(20, 10) = 20, noise 20 / 100."""
    c = Change(index=2, before=100.0, after=150.0, size=50.0, low=40.0, high=70.0, p_value=0.01)
    ev = ct.change(TRACK_RUNS, c, 1, 0.05, "output_throughput").evidence
    assert (ev["ratio"], ev["noise"], ev["run"], ev["previous_run"], ev["unit"]) == (1.5, 0.2, "r2", "r1", "tok/s")


def test_tracking_any_change_and_build():
    step = Change(index=2, before=100.0, after=150.0, size=50.0, low=40.0, high=70.0, p_value=0.01)
    c = ct.any_change(TRACK_RUNS, [step], 0.05, "output_throughput", 0.1)
    ev = c.evidence
    assert (ev["count"], ev["n"], ev["alpha"], ev["smallest_p"], ev["run"], ev["ratio"]) == (1, 4, 0.05, 0.1, "r2", 1.5)
    said = wording.word("tracking", c).text
    assert said.startswith("The output throughput changed level once in these 4 runs, just before r2: from 100 to 150")
    assert "a share p = 0.01, below alpha 0.05" in said
    # the other way: no change, and a series too short for the level asked
    none = wording.word("tracking", ct.any_change(TRACK_RUNS, [], 0.01, "pp_rate", 1 / 3))
    assert none.status == "withheld" and "no order of the values can give a p-value below 0.33" in none.text
    steps = pd.DataFrame(
        [{"value": 110.0, "previous_value": 100.0, "ratio": 1.1, "noise": 0.01, "run": "r1", "previous": "r0"}]
    ).assign(position=1)
    out = ct.build(TRACK_RUNS, [], steps, 0.05, "output_throughput", 0.5)
    assert [c.id for c in out] == ["changes", "step_1"]
    assert out[0].status == "withheld" and "no order of the values" in out[0].reason  # 4 runs: p >= 0.5


def test_a_steps_noise_takes_the_printed_spread_or_half_its_last_digit():
    """15.5 +- 0.001 twice: each spread is 0.001 (printed to three decimals, half a digit is 0.0005),
    noise 2 x sqrt(2) x 0.001 / 15.5. 15.49 +- 0.00 twice: a spread printed as 0.00 is under 0.005, so 0.005."""
    runs = pd.DataFrame({"position": [1, 2], "label": ["a", "b"], "value": [15.5, 15.5], "std": [0.001, 0.001]})
    assert tracking.steps(runs)["noise"].iloc[0] == pytest.approx(2 * 2**0.5 * 0.001 / 15.5)
    zero = runs.assign(value=15.49, std=0.0)
    assert tracking.steps(zero)["noise"].iloc[0] == pytest.approx(2 * 2**0.5 * 0.005 / 15.49)


def test_a_folder_without_benchmark_output_is_one_sentence(tmp_path):
    with pytest.raises(warehouse.WarehouseError, match="^no file among the sources holds output of a known tool$"):
        tracking.load([tmp_path], "output_throughput")


def test_an_undated_warehouse_is_read_in_the_order_of_its_sources(tmp_path):
    wh = tmp_path / "wh"
    warehouse.ingest_into(sorted((SERIES / "rocm7_rc").glob("*.log"), reverse=True), wh, log=lambda *_: None)
    s = tracking.load([wh], "pp_rate")
    assert s.order == "source" and s.undated == 4
    assert s.runs["label"].tolist() == ["b6119.log", "b6123.log", "b6181.log", "b6486.log"]
