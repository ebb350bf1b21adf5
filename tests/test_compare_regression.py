"""`benchbook compare --fail-on-regression METRIC`: exit 1 only when a run is worse than the baseline
beyond the noise the tool reports, with a Markdown summary a CI job can post."""

from __future__ import annotations

import pandas as pd
import pytest
from typer.testing import CliRunner

from benchbook import compare, config
from benchbook.cli import app

REAL = config.DATA_DIR / "series" / "strix_halo_glm45_air_q6" / "vulkan_radv" / "b6119.log"
runner = CliRunner()


def _llama_bench(tmp_path, name: str, tg: str, pp: str = "127.36 ± 0.46"):
    """A synthetic run: the real b6119.log with its two t/s cells replaced."""
    text = REAL.read_text(encoding="utf-8")
    text = text.replace("127.36 ± 0.46", pp).replace("16.78 ± 0.01", tg)
    path = tmp_path / f"synthetic_{name}.log"
    path.write_text(text, encoding="utf-8")
    return path


def _compare(*args):
    return runner.invoke(app, ["compare", *map(str, args)])


def test_a_drop_beyond_the_noise_exits_1_and_says_so(tmp_path):
    base = _llama_bench(tmp_path, "base", "16.78 ± 0.05")
    slow = _llama_bench(tmp_path, "slow", "15.10 ± 0.05")  # -10 %, noise about 0.4 %
    md = tmp_path / "summary.md"
    res = _compare(base, slow, "--fail-on-regression", "tg_rate", "--summary", md, "-o", tmp_path / "out")
    assert res.exit_code == 1, res.output
    assert "regression: tg_rate (mean) of synthetic_slow.log is 0.900 x synthetic_base.log" in res.output
    text = md.read_text(encoding="utf-8")
    assert "**Regression**: 1 number(s)" in text
    assert "| synthetic_slow.log | tg_rate (mean, tok/s) |" in text and "**worse, beyond noise**" in text


def test_a_drop_within_the_noise_exits_0(tmp_path):
    base = _llama_bench(tmp_path, "base", "16.78 ± 0.50")
    slow = _llama_bench(tmp_path, "slow", "16.50 ± 0.50")  # -1.7 %, noise about 4 %
    md = tmp_path / "summary.md"
    res = _compare(base, slow, "--fail-on-regression", "tg_rate", "--summary", md, "-o", tmp_path / "out")
    assert res.exit_code == 0, res.output
    assert "regression:" not in res.output
    assert "**No regression** beyond the noise (1 within noise)" in md.read_text(encoding="utf-8")


def test_a_gain_beyond_the_noise_is_no_regression(tmp_path):
    base = _llama_bench(tmp_path, "base", "16.78 ± 0.05")
    fast = _llama_bench(tmp_path, "fast", "18.50 ± 0.05")
    res = _compare(base, fast, "--fail-on-regression", "tg_rate", "--summary", "-", "-o", tmp_path / "out")
    assert res.exit_code == 0, res.output
    assert "better, beyond noise" in res.output


def test_only_the_watched_metric_decides(tmp_path):
    """pp_rate falls beyond its noise, but only tg_rate is watched; watching pp_rate too fails."""
    base = _llama_bench(tmp_path, "base", "16.78 ± 0.05")
    other = _llama_bench(tmp_path, "other", "16.78 ± 0.05", pp="100.00 ± 0.40")
    out = tmp_path / "out"
    assert _compare(base, other, "--fail-on-regression", "tg_rate", "-o", out).exit_code == 0
    res = _compare(base, other, "--fail-on-regression", "tg_rate", "--fail-on-regression", "pp_rate:mean", "-o", out)
    assert res.exit_code == 1, res.output


def _latency(value: float) -> pd.DataFrame:
    """A synthetic tidy run of tool `t`: one mean latency (ms) with its standard deviation."""
    df = pd.DataFrame({"statistic": ["mean", "std"], "value": [value, 1.0]})
    df.insert(0, "tool", "t")
    df.insert(1, "source", "x")
    df.insert(2, "line", [1, 2])
    df["batch"], df["metric"], df["unit"], df["note"] = 1, "lat", "ms", None
    return df


def test_a_lower_is_better_unit_regresses_upwards():
    """A latency that rises beyond the noise is worse; one that falls beyond it is better."""
    mc = compare.compare_tables([_latency(100.0), _latency(120.0), _latency(80.0)], "t", ["base", "up", "down"])
    rows = compare.watched([mc], ["lat"]).set_index("label")
    assert rows.loc["up", "worse"] and rows.loc["up", "outcome"] == "worse, beyond noise"
    assert not rows.loc["down", "worse"] and rows.loc["down", "outcome"] == "better, beyond noise"


@pytest.mark.parametrize(
    "spec, said",
    [("ttft", "the runs hold no ttft to compare; they hold: pp_rate, tg_rate"), ("tg_rate:p99", "no tg_rate (p99)")],
)
def test_a_metric_the_runs_lack_is_one_sentence_and_exit_2(tmp_path, spec, said):
    base = _llama_bench(tmp_path, "base", "16.78 ± 0.05")
    slow = _llama_bench(tmp_path, "slow", "15.10 ± 0.05")
    res = _compare(base, slow, "--fail-on-regression", spec, "-o", tmp_path / "out")
    assert res.exit_code == 2 and said in res.output, res.output
    assert not (tmp_path / "out").exists()
