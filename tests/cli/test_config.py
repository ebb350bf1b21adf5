"""Paths resolve the same way from any working directory; displayed paths never leak the machine."""

import os

import pytest

from benchbook import config


def test_resolve_from_another_directory(tmp_path):
    rel = "data/raw/bloom_batch/003_7819709fab0fbd59.txt"
    cwd = os.getcwd()
    try:
        os.chdir(tmp_path)
        assert config.resolve(rel) == config.SEEDS["003"]
    finally:
        os.chdir(cwd)


def test_resolve_prefers_the_working_directory(tmp_path):
    mine = tmp_path / "run.txt"
    mine.write_text("x")
    assert config.resolve(mine) == mine.resolve()


def test_missing_file_names_it():
    with pytest.raises(FileNotFoundError, match="nope.txt"):
        config.resolve("nope.txt")


def test_relative_hides_machine_paths(tmp_path):
    assert config.relative(config.SEEDS["000"]) == "data/raw/tgi_bloomz_tp/000_5f50b6ac26707e67.txt"
    assert config.relative(tmp_path / "mine.json") == "mine.json"


def test_reads_are_logged(tmp_path, monkeypatch):
    log = tmp_path / "reads"
    monkeypatch.setenv(config.READS_LOG_ENV, str(log))
    config.log_read(config.SEEDS["003"])
    assert log.read_text().split() == [str(config.SEEDS["003"])]


def test_atomic_write_replaces_whole_and_leaves_no_temporary(tmp_path):
    target = tmp_path / "sub" / "page.html"
    config.atomic_write(target, "one")
    config.atomic_write(target, b"two")
    assert target.read_text() == "two" and sorted(p.name for p in target.parent.iterdir()) == ["page.html"]
