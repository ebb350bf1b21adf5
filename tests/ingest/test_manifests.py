"""Raw data is immutable and described: every raw file has a manifest whose sha256 matches its bytes."""

import hashlib

import pytest
import yaml

from benchbook import config, ingest

RAW = sorted(p for p in config.RAW_DIR.rglob("*") if p.is_file() and not p.name.endswith(".manifest.yml"))


def test_the_five_seeds_are_present():
    assert len(RAW) == 5
    assert {p.name[:3] for p in RAW} == {"000", "001", "002", "003", "004"}


@pytest.mark.parametrize("raw", RAW, ids=lambda p: p.name[:3])
def test_manifest_matches_bytes_and_tools(raw):
    manifest = raw.with_name(raw.stem + ".manifest.yml")
    assert manifest.is_file(), f"{raw.name} has no manifest"
    m = yaml.safe_load(manifest.read_text(encoding="utf-8"))
    assert m["file"] == raw.name
    assert hashlib.sha256(raw.read_bytes()).hexdigest() == m["sha256"], f"{raw.name} was edited"
    for key in ("tool", "model", "hardware", "settings", "facts", "chapters"):
        assert m.get(key), f"{manifest.name}: {key} missing"
    assert sorted(ingest.detect(raw.read_text(encoding="utf-8"))) == sorted(m["tools"])


def test_catalogue_counts_lines_with_or_without_a_final_newline(tmp_path):
    from benchbook import catalogue

    texts = {"ends.txt": b"a\nb\n", "open.txt": b"a\nb", "seed.txt": config.seed("003").read_bytes()}
    for name, data in texts.items():
        (tmp_path / name).write_bytes(data)
        m = {"file": name, "tools": ["t"], "sha256": hashlib.sha256(data).hexdigest()}
        (tmp_path / f"{name}.manifest.yml").write_text(yaml.safe_dump(m))
    got = catalogue.manifests(tmp_path).set_index("file")["lines"].to_dict()
    seed_lines = len(config.seed("003").read_text(encoding="utf-8").split("\n"))  # no final newline
    assert got == {"ends.txt": 2, "open.txt": 2, "seed.txt": seed_lines}
