"""The warehouse: idempotent and incremental ingest, DuckDB queries, and the same answers from Dask."""

from __future__ import annotations

import shutil
from pathlib import Path

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
    par = warehouse.ingest_into([series], tmp_path / "par", log=lambda *_: None, workers=2)
    one = warehouse.ingest_into([series], tmp_path / "one", log=lambda *_: None, workers=1)
    assert par.added == one.added and len(one.added) == 8 and not par.failed
    names = sorted(p.relative_to(tmp_path / "par").as_posix() for p in (tmp_path / "par").rglob("*.parquet"))
    assert names == sorted(p.relative_to(tmp_path / "one").as_posix() for p in (tmp_path / "one").rglob("*.parquet"))

    parse = ingest.read_parsed

    def no_parse(path, *a, **k):
        assert Path(path).suffix != ".log", f"{path}: a file already in the warehouse was parsed again"
        return parse(path, *a, **k)  # the folder's README: no tool, parsed to say so

    monkeypatch.setattr(ingest, "read_parsed", no_parse)
    again = warehouse.ingest_into([series], tmp_path / "one", log=lambda *_: None, workers=1)
    assert again.added == [] and sorted(again.present) == sorted(one.added)
