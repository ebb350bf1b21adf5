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
    assert "**Regression**: 1 number worse" in text
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


SERVE = config.FIXTURES_DIR / "vllm-bench-serve" / "dgx_spark_08_sharegpt.md"


def _serving(tmp_path, name: str, throughput: str):
    """A synthetic run: the real vLLM result block with its output throughput replaced."""
    text = SERVE.read_text(encoding="utf-8").replace(
        "Output token throughput (tok/s):         61.17", f"Output token throughput (tok/s):         {throughput}"
    )
    path = tmp_path / f"synthetic_{name}.md"
    path.write_text(text, encoding="utf-8")
    return path


def test_two_runs_of_the_same_settings_are_not_their_own_noise(tmp_path):
    """vLLM prints no spread; the baseline and the new run declare the same settings, so their own
    difference would be the noise and nothing could ever regress: no noise estimate, exit 0, said."""
    base, slow = _serving(tmp_path, "base", "61.17"), _serving(tmp_path, "slow", "48.90")  # -20 %
    res = _compare(base, slow, "--fail-on-regression", "output_throughput", "--summary", "-", "-o", tmp_path / "out")
    assert res.exit_code == 0, res.output
    assert "1 number has no noise estimate" in res.output and "| no noise estimate |" in res.output


@pytest.mark.parametrize("tolerance, code", [("0.05", 1), ("0.25", 0)])
def test_a_tolerance_judges_what_has_no_noise_estimate(tmp_path, tolerance, code):
    base, slow = _serving(tmp_path, "base", "61.17"), _serving(tmp_path, "slow", "48.90")  # -20 %
    args = ["--fail-on-regression", "output_throughput", "--tolerance", tolerance, "--summary", "-"]
    res = _compare(base, slow, *args, "-o", tmp_path / "out")
    assert res.exit_code == code, res.output
    assert ("worse, beyond tolerance" in res.output) == (code == 1)
    assert ("within tolerance" in res.output) == (code == 0)


def test_a_number_without_any_spread_cannot_fail_and_the_summary_says_so():
    """Two synthetic runs of other settings, neither with a spread: a latency up 50 % is not judged."""
    base, slow = (_latency(v).query("statistic == 'mean'") for v in (100.0, 150.0))
    slow = slow.assign(batch=1, gpu="B")
    base = base.assign(gpu="A")
    mc = compare.compare_tables([base, slow], "t", ["base", "slow"])
    rows = compare.watched([mc], ["lat"])
    assert not rows["worse"].any() and rows["outcome"].tolist() == ["no noise estimate"]
    text = compare.summary_markdown([mc], rows)
    assert "**No regression**" in text and "1 number has no noise estimate" in text
    assert compare.watched([mc], ["lat"], tolerance=0.1)["outcome"].tolist() == ["worse, beyond tolerance"]


def test_the_help_says_two_single_runs_need_a_tolerance():
    """Two runs with no spread cannot regress by the noise rule: `compare --help` says so, and
    names --tolerance as what judges them (the behaviour is the two tests above)."""
    res = runner.invoke(app, ["compare", "--help"], terminal_width=200)
    assert res.exit_code == 0, res.output
    text = " ".join(res.output.replace("│", " ").split())
    assert "Two single runs with no spread" in text and "cannot show a regression by the noise rule" in text
    assert "--tolerance 0.05 to fail it when it is worse than the baseline by more than 5 %" in text
    assert "(two single runs with no spread): worse by more than it fails" in text
