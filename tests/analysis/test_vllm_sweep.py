"""`vllm bench sweep serve` output folders: settings from the combination folders' names, repeats kept
as repeats, summaries not counted twice; the folder as a chapter's source and as `benchbook ingest DIR`."""

from __future__ import annotations

import shutil

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benchbook import config, ingest
from benchbook.ingest import ParseError
from benchbook.ingest import vllm_serve as v

SWEEP = config.FIXTURES_DIR / "vllm-bench-serve" / "synthetic_sweep"
COMBO = "SERVE--max_num_seqs=128-BENCH--max_concurrency={c}"


@pytest.mark.parametrize(
    "name,expected",
    [
        ("SERVE--max_num_seqs=64-BENCH--max_concurrency=32", ({"max_num_seqs": "64"}, {"max_concurrency": "32"})),
        (
            "SERVE--max_num_seqs=64-max_num_batched_tokens=8192",
            ({"max_num_seqs": "64", "max_num_batched_tokens": "8192"}, {}),
        ),
        ("BENCH--request_rate=0.5-num_prompts=100", ({}, {"request_rate": "0.5", "num_prompts": "100"})),
        ("SERVE--model=Qwen_Qwen3-4B-BENCH--max_concurrency=8", ({"model": "Qwen_Qwen3-4B"}, {"max_concurrency": "8"})),
    ],
)
def test_folder_names_give_the_settings(name, expected):
    assert v.sweep_params(name) == {"serve": expected[0], "bench": expected[1]}


@pytest.mark.parametrize("name", ["results", "20260301_101500", "run=0.json", "SERVE-max=1", ""])
def test_other_names_are_not_combinations(name):
    assert v.sweep_params(name) is None


@given(st.text())
def test_any_name_is_a_combination_or_not(name):
    out = v.sweep_params(name)
    assert out is None or set(out) == {"serve", "bench"}


def test_run_files_in_order_and_summaries_left_out():
    files, notes = v.sweep_files(SWEEP)
    assert [v.source_name(f) for f in files] == [
        f"{COMBO.format(c=c)}/run={n}.json" for c in (1, 4, 16, 64) for n in (0, 1)
    ]
    assert len(notes) == 5 and all("not read" in n for n in notes)
    assert notes[-1] == "20260301_101500/summary.csv not read: it repeats the runs' JSON"


def test_folder_read_as_its_runs_with_repeats():
    df = ingest.read(SWEEP)
    tput = df[df["metric"] == "output_throughput"]
    assert list(tput["value"]) == [141.6, 139.8, 523.9, 518.2, 1702.5, 1688.1, 2297.3, 2318.0]
    assert list(tput["max_concurrency"]) == [1, 1, 4, 4, 16, 16, 64, 64]
    # a repeat is the same run (same label and settings) in another file
    assert tput.groupby("run")["source"].nunique().tolist() == [2, 2, 2, 2]
    assert set(tput["run"]) == {f"max_num_seqs=128, max_concurrency={c}" for c in (1, 4, 16, 64)}
    assert set(df["metadata"]) == {"max_num_seqs=128"}  # the serve parameter, not a cell
    assert df.attrs["rejected"] == []
    assert sum("summary.json not read" in m for m in df.attrs["messages"]) == 4


def test_a_run_number_marks_the_swept_keys_and_only_then(tmp_path):
    """run_number and the swept parameters are settings in a sweep's file; the same unknown key in a
    plain --save-result file is a number with no tidy name (rejected, counted)."""
    text = (SWEEP / "20260301_101500" / COMBO.format(c=4) / "run=0.json").read_text()
    swept = v.parse(text, "run=0.json")
    assert swept.rejected.empty and swept.cells_read == len(swept.table) == 39
    plain = v.parse(text.replace('"run_number": 0,', ""), "x.json")
    assert list(plain.rejected["text"]) == ["max_num_seqs: 128"]


def test_summary_json_read_where_no_run_file_is_left(tmp_path):
    shutil.copytree(SWEEP, tmp_path / "s")
    combo = tmp_path / "s" / "20260301_101500" / COMBO.format(c=16)
    for f in combo.glob("run=*.json"):
        f.unlink()
    files, _ = v.sweep_files(tmp_path / "s")
    assert combo / "summary.json" in files and len(files) == 7
    df = ingest.read(tmp_path / "s")
    t = df[(df["metric"] == "output_throughput") & (df["max_concurrency"] == 16)]
    assert list(t["value"]) == [1702.5, 1688.1]
    assert list(t["run"]) == [f"max_num_seqs=128, max_concurrency=16 run={n}" for n in (0, 1)]  # one file, two runs
    assert df.attrs["rejected"] == []  # no conflict between the two repeats


def test_a_folder_that_is_no_sweep_is_refused(tmp_path):
    with pytest.raises(ParseError, match="is a folder"):
        ingest.read(tmp_path)


def test_the_chapter_source_and_its_runs():
    from benchbook.analysis import serving
    from benchbook.parameters import resolve_inputs

    paths = resolve_inputs(str(SWEEP), tools=("vllm-bench-serve",))
    assert len(paths) == 8
    r, _ = serving.load(paths)
    assert len(r) == 8 and list(r["max_concurrency"]) == [1, 1, 4, 4, 16, 16, 64, 64]
    with pytest.raises(Exception, match="folder"):
        resolve_inputs(str(SWEEP), tools=("hf-batch-sweep",))


def test_cli_ingest_folder(tmp_path):
    import pandas as pd
    from typer.testing import CliRunner

    from benchbook.cli import app

    out = tmp_path / "out.csv"
    res = CliRunner().invoke(app, ["ingest", str(SWEEP), "-o", str(out)])
    assert res.exit_code == 0, res.output
    assert "summary.csv not read" in res.output
    assert pd.read_csv(out)["source"].nunique() == 8


def test_2024_save_result_keys(tmp_path):
    """Synthetic, with the keys `benchmarks/benchmark_serving.py` wrote in 2024 (`best_of`,
    `use_beam_search`, `input_throughput`, per-request `ttfts`/`itls` in seconds, no `failed`):
    best_of is a setting, not a cell; the arrays are per-request data in seconds."""
    import json

    obj = {
        "date": "20240815-101500",
        "backend": "vllm",
        "model_id": "m",
        "tokenizer_id": "m",
        "best_of": 1,
        "use_beam_search": False,
        "num_prompts": 2,
        "request_rate": "inf",
        "duration": 2.0,
        "completed": 2,
        "total_input_tokens": 20,
        "total_output_tokens": 6,
        "request_throughput": 1.0,
        "input_throughput": 10.0,
        "output_throughput": 3.0,
        "mean_ttft_ms": 150.0,
        "input_lens": [10, 10],
        "output_lens": [3, 3],
        "ttfts": [0.1, 0.2],
        "itls": [[0.05, 0.05], [0.05, 0.07]],
        "generated_texts": ["a", "b"],
        "errors": ["", ""],
    }
    p = v.parse(json.dumps(obj), "old.json")
    assert p.rejected.empty and p.cells_read == len(p.table) == 8
    assert "best_of=1" in p.table["metadata"].iat[0] and "use_beam_search=False" in p.table["metadata"].iat[0]
    row = p.table[p.table["metric"] == "input_throughput"].iloc[0]
    assert (row["value"], row["unit"]) == (10.0, "tok/s")
    assert "per-request arrays" in p.messages[0]
    path = tmp_path / "old.json"
    path.write_text(json.dumps(obj))
    req = v.requests(path)  # no `latencies` in 2024: E2EL = TTFT + the sum of the chunk gaps, in ms
    assert list(req["ttft_ms"]) == [100.0, 200.0] and list(req["e2el_ms"].round(6)) == [200.0, 320.0]


RUN_TEXT = (SWEEP / "20260301_101500" / COMBO.format(c=4) / "run=0.json").read_text()
SUMMARY_TEXT = (SWEEP / "20260301_101500" / COMBO.format(c=4) / "summary.json").read_text()
