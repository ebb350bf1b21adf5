"""The warehouse: idempotent and incremental ingest, DuckDB queries, and the same answers from Dask."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from benchbook import config, warehouse


@pytest.fixture(scope="module")
def wh(tmp_path_factory):
    into = tmp_path_factory.mktemp("wh")
    rep = warehouse.ingest_into([config.RAW_DIR], into, log=lambda *_: None)
    assert rep.added and not rep.failed
    return into


def test_same_file_twice_is_one_run(wh, tmp_path):
    before = sorted(p.name for p in wh.rglob("*.parquet"))
    rep = warehouse.ingest_into([config.seed("000"), config.RAW_DIR], wh, log=lambda *_: None)
    assert rep.added == [] and len(rep.present) >= 7
    assert sorted(p.name for p in wh.rglob("*.parquet")) == before
    # a copy under another name is the same content: the same run
    copy = tmp_path / "renamed.txt"
    shutil.copy(config.seed("000"), copy)
    assert warehouse.ingest_into([copy], wh, log=lambda *_: None).added == []


def test_adding_one_file_rewrites_nothing(wh):
    mtimes = {p: p.stat().st_mtime_ns for p in wh.rglob("*.parquet")}
    fx = config.FIXTURES_DIR / "tgi-benchmark" / "mt0_xxl_tp4_bs16.md"
    rep = warehouse.ingest_into([fx], wh, log=lambda *_: None)
    assert len(rep.added) == 1
    assert all(p.stat().st_mtime_ns == t for p, t in mtimes.items())
    n = warehouse.query("select count(*) n from runs where tool = 'tgi-benchmark'", wh)["n"].iat[0]
    assert n == 3  # seeds 000 and 001, and the fixture


def test_seed_rows_match_the_parser(wh):
    from benchbook import ingest

    df = ingest.read(config.seed("002"))
    got = warehouse.query(
        "select count(*) n, sum(value) s from measurements where tool = 'sglang-quant-report'", wh
    ).iloc[0]
    assert got["n"] == len(df)
    assert got["s"] == pytest.approx(df["value"].sum())
    # settings travel as JSON and can be queried
    bs = warehouse.query(
        "select distinct cast(settings->>'batch_size' as int) bs from measurements "
        "where tool = 'sglang-quant-report' and settings->>'batch_size' is not null order by bs",
        wh,
    )["bs"].tolist()
    assert bs == sorted(int(x) for x in df["batch_size"].dropna().unique())


def test_unknown_file_named_explicitly_is_reported_not_written(tmp_path):
    junk = tmp_path / "notes.txt"
    junk.write_text("hello\n")
    into = tmp_path / "wh"
    rep = warehouse.ingest_into([junk], into, log=lambda *_: None)
    assert rep.added == [] and len(rep.failed) == 1 and "notes.txt" in rep.failed[0]
    assert not list(into.rglob("*.parquet"))


def test_a_folder_that_is_not_a_warehouse(tmp_path):
    with pytest.raises(warehouse.WarehouseError, match="not a warehouse"):
        warehouse.query("select 1", tmp_path)


def test_bad_sql_is_one_sentence(wh):
    with pytest.raises(warehouse.WarehouseError, match="query failed"):
        warehouse.query("select nope from runs", wh)


def test_run_date_from_the_output():
    assert warehouse.run_date('{"date": "20250314-101500", "x": 1}') == "2025-03-14T10:15:00"
    assert warehouse.run_date("started 2024-11-02 08:00:01 on host") == "2024-11-02T08:00:01"
    assert warehouse.run_date("no date here 12345") is None


def test_dask_reads_the_same_files_and_agrees_with_duckdb(wh):
    dd = pytest.importorskip("dask.dataframe")
    from distributed import Client, LocalCluster

    sql = "select tool, metric, count(value) n, coalesce(sum(value), 0) s from measurements group by tool, metric"
    duck = warehouse.query(sql, wh).set_index(["tool", "metric"]).sort_index()
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
        with Client(cluster):
            ddf = dd.read_parquet(str(wh / "measurements"))
            g = ddf.groupby(["tool", "metric"])["value"].agg(["count", "sum"]).compute()
    g.index = g.index.set_levels([lvl.astype(str) for lvl in g.index.levels])
    g = g.sort_index()
    assert list(g.index) == list(duck.index)
    assert g["count"].tolist() == duck["n"].tolist()
    assert g["sum"].tolist() == pytest.approx(duck["s"].tolist())


def test_parallel_ingest_gives_the_same_runs_and_a_present_file_is_not_parsed(tmp_path, monkeypatch):
    from benchbook import ingest

    series = config.DATA_DIR / "series"
    monkeypatch.setattr(warehouse, "PARALLEL_FROM", 2)
    monkeypatch.setattr(warehouse, "CHUNK", 3)  # several tasks, each writing its own parts
    par = warehouse.ingest_into([series], tmp_path / "par", log=lambda *_: None, workers=2)
    one = warehouse.ingest_into([series], tmp_path / "one", log=lambda *_: None, workers=1)
    assert par.added == one.added and len(one.added) == 16 and not par.failed  # the runs of data/series
    assert len(list((tmp_path / "par" / "runs").rglob("*.parquet"))) > 1
    for view, order in (("runs", "run_id"), ("measurements", "run_id, line, metric, statistic, settings")):
        sql = f"select * exclude (source) from {view} order by {order}" if view == "runs" else None
        sql = sql or f"select * from {view} order by {order}"
        a, b = warehouse.query(sql, tmp_path / "par"), warehouse.query(sql, tmp_path / "one")
        pd.testing.assert_frame_equal(a, b)

    parse = ingest.read_parsed

    def no_parse(path, *a, **k):
        assert Path(path).suffix != ".log", f"{path}: a file already in the warehouse was parsed again"
        return parse(path, *a, **k)  # the folder's README: no tool, parsed to say so

    monkeypatch.setattr(ingest, "read_parsed", no_parse)
    again = warehouse.ingest_into([series], tmp_path / "one", log=lambda *_: None, workers=1)
    assert again.added == [] and sorted(again.present) == sorted(one.added)


def test_the_same_content_twice_in_one_call_is_one_run(tmp_path):
    a, b = tmp_path / "in" / "a.txt", tmp_path / "in" / "b.txt"
    a.parent.mkdir()
    shutil.copy(config.seed("000"), a)
    shutil.copy(config.seed("000"), b)
    rep = warehouse.ingest_into([a, b], tmp_path / "wh", log=lambda *_: None)
    assert len(rep.added) == 1 and rep.present == rep.added
    assert warehouse.query("select count(*) n from runs", tmp_path / "wh")["n"].iat[0] == 1


def test_an_interrupted_ingest_is_finished_without_double_rows(tmp_path):
    wh = tmp_path / "wh"
    warehouse.ingest_into([config.RAW_DIR], wh, log=lambda *_: None)
    n = warehouse.query("select count(*) n from measurements", wh)["n"].iat[0]
    part = next((wh / "runs").glob("tool=tgi-benchmark/*.parquet"))
    part.unlink()  # as if the ingest stopped after writing the measurements part
    assert warehouse.query("select count(*) n from runs where tool = 'tgi-benchmark'", wh)["n"].iat[0] == 0
    rep = warehouse.ingest_into([config.RAW_DIR], wh, log=lambda *_: None)
    assert len(rep.added) == 2 and not rep.failed  # seeds 000 and 001
    assert warehouse.query("select count(*) n from measurements", wh)["n"].iat[0] == n


def test_per_request_rows_are_kept_numeric_and_join_their_run(tmp_path):
    from benchbook.ingest import vllm_serve

    fx = config.FIXTURES_DIR / "vllm-bench-serve" / "synthetic_save_detailed.json"
    rep = warehouse.ingest_into([fx, config.seed("000")], tmp_path, log=lambda *_: None)
    assert len(rep.added) == 2
    want = vllm_serve.requests(fx)
    got = warehouse.query(
        "select q.*, r.source from requests q join runs r using (run_id) order by q.block, q.request", tmp_path
    )
    assert len(got) == len(want) and (got["source"] == config.relative(fx)).all()
    # latencies are stored as float32: each the float32 nearest the file's seconds times 1000, exactly
    for col in ("ttft_ms", "e2el_ms", "tpot_ms"):
        assert str(got[col].dtype) == "float32"
        assert (got[col].to_numpy() == want[col].to_numpy().astype(np.float32)).all()
        assert ((got[col] - want[col]).abs() <= 2**-24 * want[col].abs()).all()  # float32's half ulp
    assert (got["output_len"] == want["output_len"]).all() and str(got["output_len"].dtype) == "int32"
    assert str(got["request"].dtype) == "int64"
    # the run id is a hive partition of the path, as the tool is
    (run_id,) = got["run_id"].unique()
    assert warehouse.requests_path(tmp_path, "vllm-bench-serve", run_id).is_file()
    # a warehouse without per-request rows still has the view, empty
    empty = tmp_path / "empty"
    warehouse.ingest_into([config.seed("000")], empty, log=lambda *_: None)
    assert warehouse.query("select count(*) n from requests", empty)["n"].iat[0] == 0


def test_per_request_rows_of_no_run_are_removed_by_the_next_ingest(tmp_path):
    """What an interrupted ingest leaves (a requests part, no runs row) goes; a run's own part stays."""
    fx = config.FIXTURES_DIR / "vllm-bench-serve" / "synthetic_save_detailed.json"
    (run_id,) = warehouse.ingest_into([fx], tmp_path, log=lambda *_: None).added
    kept = warehouse.requests_path(tmp_path, "vllm-bench-serve", run_id)
    stray = warehouse.requests_path(tmp_path, "vllm-bench-serve", "ffffffffffffffff")
    stray.parent.mkdir(parents=True)
    shutil.copy(kept, stray)
    rep = warehouse.ingest_into([fx], tmp_path, log=lambda *_: None)
    assert rep.present == [run_id] and kept.is_file() and not stray.exists()


def test_a_run_id_of_digits_stays_text_in_the_requests_view(tmp_path):
    """Hive partition values that look like numbers are not cast: a run id of hex digits is text."""
    warehouse.ingest_into([config.seed("000")], tmp_path, log=lambda *_: None)
    row = pd.DataFrame({"block": ["json 1"], "request": [0], "success": [True], "ttft_ms": [12.5]})
    table = warehouse._table(row.reindex(columns=warehouse.REQUESTS_SCHEMA.names), warehouse.REQUESTS_SCHEMA)
    warehouse._atomic_parquet(table, warehouse.requests_path(tmp_path, "vllm-bench-serve", "1234567890123456"))
    got = warehouse.query("select tool, run_id, ttft_ms from requests", tmp_path)
    assert got.to_dict("records") == [{"tool": "vllm-bench-serve", "run_id": "1234567890123456", "ttft_ms": 12.5}]


_BATCH_FILES = [config.RAW_DIR, *(config.FIXTURES_DIR / d for d in ("mlperf-loadgen", "trtllm-bench", "tgi-benchmark"))]


def test_checks_once_per_batch_give_what_each_file_gives():
    """`settle` over many files = `tidy` and `Parsed` on each file alone: tables, rejected rows
    (range, duplicates, conflicts: the trtllm-bench and mlperf fixtures have some), messages."""
    from benchbook import ingest
    from benchbook.ingest import core

    files = [f for d in _BATCH_FILES for f in sorted(d.rglob("*")) if f.is_file() and f.name != "README.md"]
    raw, alone = [], []
    for f in files:
        try:
            alone += ingest.read_parsed(f)
        except ingest.ParseError:
            continue
        with core.deferred_checks():
            raw += ingest.read_parsed(f)
    settled = core.settle(raw)
    assert len(settled) == len(alone) > 15
    assert sum(len(p.rejected) > 0 for p in alone) >= 4
    for a, b in zip(alone, settled, strict=True):
        pd.testing.assert_frame_equal(a.table, b.table)
        pd.testing.assert_frame_equal(a.rejected, b.rejected)
        assert a.messages == b.messages


def test_a_batch_names_the_file_the_schema_refuses_and_screens_the_others():
    from benchbook import ingest
    from benchbook.ingest import core

    tool = ingest.tools()["llama-bench"]
    good = [{"line": 3, "test": "pp512", "metric": "pp", "statistic": "mean", "value": 9000.0, "unit": "tok/s"}]
    twice = [*good, {**good[0], "line": 4}]  # the same row again: a duplicate the screen sets aside
    bad = [{**good[0], "metric": "Not A Metric"}]
    with core.deferred_checks():
        results = [
            core.Parsed("llama-bench", core.tidy(tool, list(recs), src))  # tidy empties the list it is given
            for recs, src in ((good, "good.md"), (bad, "bad.md"), (twice, "twice.md"))
        ]
    assert len(results[2].table) == 2 and results[2].rejected.empty  # nothing checked yet
    out = core.settle(results)
    with pytest.raises(ingest.ParseError) as alone:
        core.tidy(tool, bad, "bad.md")
    assert isinstance(out[1], ingest.ParseError) and str(out[1]) == str(alone.value) and "bad.md" in str(out[1])
    assert len(out[0].table) == 1 and out[0].table["ngl"].dtype == "Int64"
    assert len(out[2].table) == 1 and out[2].rejected["reason"].str.startswith("duplicate row").tolist() == [True]
    assert out[2].messages == core.Parsed("llama-bench", core.tidy(tool, twice, "twice.md")).messages
