"""The sglang-quant-report parser on the seed, the fixtures, and damaged input."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchbook import config, ingest
from benchbook.ingest import ParseError
from benchbook.ingest import sglang_quant as sq
from benchbook.ingest.text import read_lines

FIX = config.FIXTURES_DIR / "sglang-quant-report"
SEED = config.seed("002")
SEED_TEXT = SEED.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def seed():
    return ingest.read_parsed(SEED, tool=sq.NAME)[0]


def test_seed_cell_accounting(seed):
    assert seed.cells_read == len(seed.table) + len(seed.rejected)
    assert len(seed.rejected) == 0
    # 7 configs x 7 models: summary 9 numbers + 4 ranking/statistics..., 147 runs x 4 metrics
    assert (seed.table["section"] == "run").sum() == 147 * 4
    assert (seed.table["section"] == "ranking").sum() == 49


def test_seed_w8a16_awq_interactive_runs(seed):
    t = seed.table
    r = t[(t["model"] == "w8a16_awq_interactive") & (t["section"] == "run")]
    assert list(r["run"].unique()) == ["run2", "run3"]
    out = r[r["metric"] == "output_throughput"].sort_values("line")
    assert list(out["value"]) == [177.15, 177.29, 179.36]
    assert list(out["line"]) == [63, 68, 73]
    lat = r[r["metric"] == "latency"]
    assert set(lat["value"]) == {0.40} and set(lat["unit"]) == {"s"}
    inp = r[r["metric"] == "input_throughput"]
    assert len(inp) == 3 and inp["value"].isna().all() and inp["note"].str.contains("N/A").all()
    assert set(r["scheme"]) == {"w8a16_awq"} and set(r["regime"]) == {"interactive"}
    assert set(r["batch_size"]) == {1} and set(r["input_len"]) == {128} and set(r["output_len"]) == {64}


def test_seed_summary_and_mojibake(seed):
    t = seed.table
    s = t[(t["model"] == "w8a8_sparse_smooth_gptq_base") & (t["section"] == "summary")]
    got = {(m, st_): v for m, st_, v in zip(s["metric"], s["statistic"], s["value"], strict=True)}
    assert got[("output_throughput", "mean")] == 4249.88
    assert got[("output_throughput", "std")] == 1170.70
    assert got[("runs", "count")] == 3
    assert math.isnan(got[("input_throughput", "mean")])  # 0.00 printed for a missing key
    assert any("mojibake" in m and "Windows-1252" in m for m in seed.messages)
    assert any("w8a16_awq_interactive: duplicated run label run3" in m for m in seed.messages)
    # ranking lines after the repaired medals
    first = t[(t["section"] == "ranking")].sort_values("line").iloc[0]
    assert first["model"] == "w8a8_sparse_smooth_gptq_interactive" and first["value"] == 193.82


def test_repair_is_exact():
    lines, msgs = sq.repair("0.38 Â± 0.01\nðŸ¥‡ **x**: 1.00 tok/s\ncafé ±\n")
    assert lines == ["0.38 ± 0.01", "🥇 **x**: 1.00 tok/s", "café ±"]
    assert msgs and "2 lines" in msgs[0]


def test_repair_of_a_files_lines_is_the_same_overlay_read_any_way(tmp_path):
    """A file's lines are repaired as an overlay (UTF-8 in one buffer): read by index, from the end,
    by slice and in order, each line is the repaired one and the file's own lines are unchanged."""
    path = tmp_path / "report.md"
    path.write_text("ok\n0.38 Â± 0.01\nplain\nðŸ¥‡ **x**: 1.00 tok/s\ncafé ±\nðŸ¥ˆ y\n", encoding="utf-8")
    raw = read_lines(path)
    lines, msgs = sq.repair(raw)
    want = ["ok", "0.38 ± 0.01", "plain", "🥇 **x**: 1.00 tok/s", "café ±", "🥈 y"]
    assert list(lines) == want and [lines[i] for i in range(len(want))] == want
    assert lines[-1] == "🥈 y" and lines[1:4] == want[1:4] and len(lines) == len(want)
    assert raw[1] == "0.38 Â± 0.01"  # the file's lines, as other parsers read them
    assert "3 lines, first at line 2" in msgs[0]
    with pytest.raises(ValueError, match="increasing order"):
        lines.fix(0, "again")


def test_split_model():
    assert sq.split_model("w8a8_sparse_smooth_gptq_high_concurrency", 64, 256, 128) == (
        "w8a8_sparse_smooth_gptq",
        "high_concurrency",
    )
    assert sq.split_model("original_base", 32, 256, 32) == ("original", "base")
    assert sq.split_model("default", 1, 1024, 1024) == ("default", "bs1_in1024_out1024")
    assert sq.split_model("mymodel", 1, 128, 64) == ("mymodel", "interactive")
    assert sq.split_run("a_b_run12") == ("a_b", "run12") and sq.split_run("default") == ("default", "default")


def test_fixture_pr5822_old_keys():
    p = ingest.read_parsed(FIX / "pr5822_flashinfer_mla.jsonl")
    assert [x.tool for x in p] == [sq.NAME]
    t = p[0].table
    assert p[0].cells_read == len(t) == 9
    row = t[(t["batch_size"] == 16) & (t["metric"] == "output_throughput")]
    assert row["value"].item() == 567.47 and row["line"].item() == 3
    assert set(t["metric"]) == {"latency", "output_throughput", "overall_throughput"}


def test_fixture_dsv4_json_in_markdown():
    p = ingest.read_parsed(FIX / "dsv4_flash_1k8k.md", tool=sq.NAME)[0]
    t = p.table
    assert p.cells_read == len(t) == 16
    r = t[t["batch_size"] == 1016].set_index("metric")
    assert r.loc["last_ttft", "value"] == 250.2049 and r.loc["last_ttft", "unit"] == "s"
    assert r.loc["input_throughput", "value"] == 4158.13
    assert math.isnan(r.loc["acc_length", "value"]) and "speculative" in r.loc["acc_length", "note"]
    assert math.isnan(r.loc["cache_hit_rate", "value"])
    assert set(t["line"]) == {9, 15}


def test_fixture_three_schemes():
    t = ingest.read(FIX / "seed002_three_schemes.jsonl")
    assert set(t["scheme"]) == {"original", "w8a16_awq", "w8a8_smooth_gptq"}
    assert set(t["regime"]) == {"interactive", "decode_bound", "high_concurrency"}
    assert len(t) == 27 * 3


def test_sniff_mixed_and_foreign():
    assert ingest.detect(SEED_TEXT) == [sq.NAME]
    for s in ("000", "001", "003", "004"):
        assert not sq.sniff(config.seed(s).read_text(encoding="utf-8")), s
    doc = "# notes\n\nsome vLLM text\n\n" + SEED_TEXT + "\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"
    p = sq.parse(doc, "mixed.md")
    assert p.cells_read == len(p.table) == 1323
    r = p.table[
        (p.table["model"] == "w8a16_awq_interactive")
        & (p.table["metric"] == "output_throughput")
        & (p.table["section"] == "run")
    ]
    assert list(r["line"]) == [63 + 4, 68 + 4, 73 + 4]


def test_truncated_report_keeps_what_is_there():
    lines = SEED_TEXT.splitlines()
    cut = "\n".join(lines[:-3]) + "\n5. **w8a16_awq_high_conc"
    p = sq.parse(cut, "cut.txt")
    assert p.cells_read == len(p.table) + len(p.rejected)
    assert any("lists 4 of 7 models" in m for m in p.messages)


def test_bad_json_rows_are_rejected_not_lost():
    text = (
        '{"run_name": "a_run1", "batch_size": 1, "input_len": 8, "output_len": 8, "latency": 1.5, '
        '"output_throughput": 10.0, "overall_throughput": 10.67}\n'
        '{"run_name": "a_run2", "batch_size": 1, "input_len": 8, "output_len": 8, "latency": 1.4, "output_thr'
    )
    p = sq.parse(text, "r.jsonl")
    assert len(p.table) == 3 and len(p.rejected) == 1 and p.cells_read == 4
    assert "truncated" in p.rejected["reason"].iloc[0]


def test_not_this_tool():
    with pytest.raises(ParseError):
        sq.parse(config.seed("000").read_text(encoding="utf-8"), "000.txt")
    with pytest.raises(ParseError):
        sq.parse("", "empty.txt")


_SMALL = "\n".join(SEED_TEXT.splitlines()[:120])


def _only_parse_error(text: str) -> None:
    try:
        p = sq.parse(text, "x.txt")
    except ParseError:
        return
    assert p.cells_read == len(p.table) + len(p.rejected)


@settings(max_examples=50, deadline=None)
@given(st.text(max_size=300))
def test_garbage(text):
    _only_parse_error('{"run_name": ' + text)
    _only_parse_error("## Configuration: batch_size=1, input_len=2, output_len=3\n" + text)


def test_json_nan_has_a_note():
    line = (
        (FIX / "seed002_three_schemes.jsonl").read_text().splitlines()[0].replace('"latency": 0.51', '"latency": NaN')
    )
    p = sq.parse(line, "nan.jsonl")
    t = p.table.set_index("metric")
    assert math.isnan(t.loc["latency", "value"]) and t.loc["latency", "note"] == "source wrote NaN"
    assert t.loc["output_throughput", "value"] == 138.03 and not isinstance(t.loc["output_throughput", "note"], str)
