"""The tidy contract, checked on every seed for every tool it holds."""

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from benchbook import config, ingest
from benchbook.ingest import core
from benchbook.ingest.core import LEAD_COLUMNS, REJECTED_COLUMNS, TAIL_COLUMNS

SEEDS = sorted(config.SEEDS.items())


def _parsed():
    for name, path in SEEDS:
        for parsed in ingest.read_parsed(path):
            yield pytest.param(path, parsed, id=f"{name}-{parsed.tool}")


@pytest.mark.parametrize(("path", "parsed"), list(_parsed()))
def test_nothing_is_lost_silently(path, parsed):
    assert parsed.cells_read > 0
    assert parsed.cells_read == len(parsed.table) + len(parsed.rejected), (
        f"{path.name}/{parsed.tool}: {parsed.cells_read} numeric cells read, "
        f"{len(parsed.table)} kept + {len(parsed.rejected)} rejected"
    )
    assert list(parsed.rejected.columns) == REJECTED_COLUMNS


@pytest.mark.parametrize(("path", "parsed"), list(_parsed()))
def test_columns_and_schema(path, parsed):
    df = parsed.table
    assert list(df.columns[:3]) == LEAD_COLUMNS
    assert list(df.columns[-5:]) == TAIL_COLUMNS
    assert (df["source"] == path.name).all()
    tool = ingest.tools()[parsed.tool]
    tool.schema().validate(df)
    missing = df[df["value"].isna()]
    assert missing["note"].notna().all(), "every missing value carries a note saying why"


@pytest.mark.parametrize(("path", "parsed"), list(_parsed()))
def test_every_number_points_at_its_line(path, parsed):
    """The `line` of each kept number is a line of the raw file that holds that number's digits."""
    lines = path.read_text(encoding="utf-8").splitlines()
    df = parsed.table.dropna(subset=["value"])
    assert df["line"].between(1, len(lines)).all()
    bad = []
    for line, value in zip(df["line"], df["value"], strict=True):
        digits = re.sub(r"\D", "", lines[line - 1])
        lead = str(int(abs(value)))
        if lead != "0" and lead not in digits:
            bad.append((line, value))
    assert len(bad) <= 0.02 * len(df), f"numbers not found on their line (line, value): {bad[:5]}"


def test_read_stacks_every_tool_of_a_mixed_document():
    df = ingest.read(config.SEEDS["004"])
    assert set(df["tool"]) == {"llama-bench", "attention-gym", "vllm-bench-serve"}
    assert isinstance(df.attrs["rejected"], list)
    again = pd.concat([df, ingest.read(config.SEEDS["003"])], ignore_index=True)
    assert len(again) > len(df)


def test_unknown_content_raises_parse_error(tmp_path):
    junk = tmp_path / "notes.txt"
    junk.write_text("hello\nnothing to see here\n")
    with pytest.raises(ingest.ParseError, match=r"notes.txt:1: no known tool output"):
        ingest.read(junk)


def test_non_utf8_names_the_line(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"line one\nline \xff two\n")
    with pytest.raises(ingest.ParseError, match=r"bad.txt:2: not UTF-8"):
        ingest.read(bad)


def test_cli_error_is_one_sentence_then_the_formats(tmp_path):
    from typer.testing import CliRunner

    from benchbook.cli import app

    junk = tmp_path / "junk.txt"
    junk.write_text("garbage\n")
    res = CliRunner().invoke(app, ["ingest", str(junk)])
    assert res.exit_code == 2
    assert res.output.strip().splitlines() == [
        "error: junk.txt:1: no known tool output found; benchbook ingest reads these formats:",
        *(f"  {line}" for line in ingest.formats()),
    ]


def _json_numbers(values) -> int:
    return sum(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)


@pytest.mark.parametrize("name", ["llamacpp_readme_b1275.json", "llamacpp_readme_b1275.jsonl"])
def test_llama_bench_json_count_is_independent(name):
    """The parser counts inside keep()/reject(); count the measured numbers from the raw JSON here."""
    import json

    path = config.FIXTURES_DIR / "llama-bench" / name
    text = path.read_text(encoding="utf-8")
    objs = json.loads(text) if name.endswith(".json") else [json.loads(x) for x in text.splitlines() if x.strip()]
    expected = sum(
        _json_numbers(o.get(k) for k in ("avg_ns", "stddev_ns", "avg_ts", "stddev_ts"))
        + _json_numbers(o.get("samples_ns", []))
        + _json_numbers(o.get("samples_ts", []))
        for o in objs
    )
    p = ingest.read_parsed(path, tool="llama-bench")[0]
    assert expected > 0 and len(p.table) + len(p.rejected) == expected


@pytest.mark.parametrize("name", ["seed002_three_schemes.jsonl", "pr5822_flashinfer_mla.jsonl"])
def test_sglang_jsonl_count_is_independent(name):
    """Every number of a result.jsonl row that is not a setting (batch_size, input_len, output_len),
    counted from the raw JSON, is in the table or in rejected."""
    import json

    path = config.FIXTURES_DIR / "sglang-quant-report" / name
    rows = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip().startswith("{")]
    settings = ("batch_size", "input_len", "output_len")
    expected = sum(
        _json_numbers(v for k, v in r.items() if k not in settings) + sum(v is None for v in r.values()) for r in rows
    )
    p = ingest.read_parsed(path, tool="sglang-quant-report")[0]
    assert expected > 0 and len(p.table) + len(p.rejected) == expected


# An independent count, from the raw side: every number printed on a markdown table row that the
# parser read must reappear in that row's tidy records (as a value or a setting) or in its
# rejected cells. A parser that drops a column or a cell fails here even if its own counter agrees.
_NUMBER = re.compile(r"(?<![\w.])[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?(?![\w.])")
FIXTURES = sorted(
    p
    for p in (config.PROJ_ROOT / "tests" / "fixtures").rglob("*.md")
    if p.name != "README.md" and p.parent.name != "compare"
)


#: A number written with thousands separators (`2,017`, `1,524.16`, an author's table): one number, not two.
_GROUPED = re.compile(r"(?<![\w.,])[-+]?\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\w.,])")


def _numbers(text) -> set[float]:
    return {round(float(x), 6) for x in _NUMBER.findall(str(text))}


def _unaccounted(path) -> dict[int, list[str]]:
    lines = path.read_text(encoding="utf-8").splitlines()
    df = ingest.read(path)
    rejected = pd.DataFrame(df.attrs["rejected"], columns=REJECTED_COLUMNS)
    out = {}
    for line, rows in df.groupby("line"):
        text = lines[int(line) - 1]
        if not text.lstrip().startswith("|"):
            continue
        known = set()
        for col in rows.columns.drop(["line", "source"]):
            for v in rows[col].dropna():
                known |= {round(float(v), 6)} if isinstance(v, int | float) or hasattr(v, "dtype") else _numbers(v)
        # llama-bench's size column is kept in GiB: a size printed in MiB (below 1 GiB) is that number x 1024
        if "model_size_gib" in rows:
            known |= {round(float(v) * 1024, 2) for v in rows["model_size_gib"].dropna()}
        # and its params column is kept in billions: a count printed in millions (below 1e9, "%.2f M") x 1000
        if "params_b" in rows:
            known |= {round(float(v) * 1000, 2) for v in rows["params_b"].dropna()}
            # compare-llama-bench.py's `Num. of Par.` is the count itself (model_n_params)
            known |= {float(round(float(v) * 1e9)) for v in rows["params_b"].dropna()}
        # a time kept in s that the row prints in ms (or kept in ms, printed in s): that number x or / 1000
        times = rows[rows["unit"].isin(["s", "ms"])]["value"].dropna() if "unit" in rows else []
        known |= {round(float(v) * k, 6) for v in times for k in (1000.0, 0.001)}
        # an energy kept in J that the row prints in kWh (optimum-benchmark's reports) or Wh: that number / 3.6e6 or 3,600
        joules = rows[rows["unit"].eq("J")]["value"].dropna() if "unit" in rows else []
        known |= {round(float(v) / k, 6) for v in joules for k in (3.6e6, 3600.0)}
        # and a rate per J printed per kWh (`samples/kWh` kept as req/J): that number x 3.6e6
        per_joule = rows[rows["unit"].astype(str).str.endswith("/J")]["value"].dropna() if "unit" in rows else []
        known |= {round(float(v) * k, 6) for v in per_joule for k in (3.6e6, 3600.0)}
        for t in rejected.loc[rejected["line"] == line, "text"]:
            known |= _numbers(t)
        grouped = [x.replace(",", "") for x in _GROUPED.findall(text)]
        printed = grouped + _NUMBER.findall(_GROUPED.sub(" ", text))
        missing = [x for x in printed if round(float(x), 6) not in known]
        if missing:
            out[int(line)] = missing
    return out


@pytest.mark.parametrize("path", [p for _, p in SEEDS] + FIXTURES, ids=lambda p: p.name)
def test_every_number_on_a_table_row_is_kept_or_rejected(path):
    assert _unaccounted(path) == {}


def test_table_lines_the_parsers_skip_are_settings_or_progress_bars():
    """The only numeric table lines of the seeds that yield no row: TGI's generation-argument table
    (its settings land in every row) and the tqdm progress bars in seed 004's vLLM log."""
    skipped = {}
    for name, path in SEEDS:
        lines = path.read_text(encoding="utf-8").splitlines()
        df = ingest.read(path)
        seen = set(df["line"]) | {r["line"] for r in df.attrs["rejected"]}
        skipped[name] = [
            lines[i].split("|")[1].strip() or "progress bar"
            for i in range(len(lines))
            if lines[i].lstrip().startswith("|") and _NUMBER.search(lines[i]) and i + 1 not in seen
        ]
    tgi_args = ["Sequence Length", "Decode Length", "N Runs", "Warmups"]
    assert skipped == {"000": tgi_args, "001": tgi_args, "002": [], "003": [], "004": ["progress bar"] * 6}


def test_conflicts_count_missing_settings_as_a_value():
    """Two rows with the same (missing) TP and different values conflict; a lone row does not."""
    from benchbook.ingest import core

    df = pd.DataFrame(
        {
            "tp": [np.nan, np.nan, 2.0, 4.0],
            "metric": ["tok_s"] * 4,
            "statistic": ["mean"] * 4,
            "value": [10.0, 12.0, 10.0, 11.0],
            "source": ["a", "b", "a", "a"],
            "line": [1, 1, 2, 3],
        }
    )
    out = core.conflicts(df, ["tp"])
    assert sorted(out["value"]) == [10.0, 12.0] and out["tp"].isna().all()


def test_register_puts_the_tool_in_the_registry():
    from benchbook import ingest
    from benchbook.ingest import core

    tool = core.Tool(name="zz-test-tool", settings={}, sniff=lambda text: False, parse=lambda text, source: None)
    try:
        assert core.register(tool) is tool
        assert ingest.tools()["zz-test-tool"] is tool
    finally:
        core.REGISTRY.pop("zz-test-tool", None)


SERVE = Path(__file__).parents[1] / "fixtures" / "vllm-bench-serve"
SHAREGPT = SERVE / "dgx_spark_08_sharegpt.md"


def test_validated_builds_a_missing_schema():
    """A tool whose schema is not cached yet (the first file of a process) still validates."""
    core._SCHEMAS.pop("vllm-bench-serve", None)
    df = ingest.read(SHAREGPT, tool="vllm-bench-serve")
    v = df[(df["metric"] == "output_throughput") & (df["statistic"] == "value")]["value"]
    assert v.tolist() == [61.17]


BURST = SERVE / "dgx_spark_ministral3_J_monday_burst.md"


def test_settle_keeps_the_valid_file_when_another_is_refused():
    """A batch the schema refuses is validated file by file: only the bad file becomes a ParseError."""
    with core.deferred_checks():
        good = ingest.read_parsed(SHAREGPT, tool="vllm-bench-serve")[0]
        bad = ingest.read_parsed(BURST, tool="vllm-bench-serve")[0]
    bad.table["statistic"] = "no such statistic"
    out = core.settle([good, bad])
    assert isinstance(out[0], core.Parsed) and isinstance(out[1], core.ParseError)
    assert BURST.name in str(out[1])
    t = out[0].table
    assert t[(t["metric"] == "output_throughput") & (t["statistic"] == "value")]["value"].tolist() == [61.17]


def test_screen_object_values():
    """A value column of Python objects (a table built by hand, not by `tidy`) is screened as numbers."""
    table = pd.DataFrame(
        {
            "tool": ["t", "t"],
            "source": ["f", "f"],
            "line": [1, 2],
            "metric": ["ttft", "tpot"],
            "statistic": ["mean", "mean"],
            "value": pd.Series([5.0, -1.0], dtype=object),
            "unit": ["ms", "ms"],
            "note": [None, None],
        }
    )
    kept, rejected, _ = core.screen(table)
    assert kept["metric"].tolist() == ["ttft"]
    assert rejected["line"].tolist() == [2] and rejected["reason"].tolist() == [f"{core.OUT_OF_RANGE}: negative ms"]


def test_tables_stacked_with_a_column_of_two_dtypes_keep_each_value_as_it_was():
    # 2**53 + 1 is exact as an int64 and not as a float64: stacked beside a float column it stays itself
    big = 2**53 + 1
    a, b = pd.DataFrame({"value": [big], "line": [1]}), pd.DataFrame({"value": [0.5], "line": [2]})
    out = core._stack([a, b])
    assert out["value"].tolist() == [big, 0.5] and isinstance(out["value"][0], int)
    assert out["line"].dtype == "int64"  # a column of one dtype is left as it is
