"""checks.expand: which files a folder stands for, and that the folder itself is logged as read."""

from __future__ import annotations

from benchbook import checks, config

HF = config.FIXTURES_DIR / "hf-batch-sweep"


def test_folder_of_markdown_write_ups_is_not_empty():
    files = checks.expand(str(HF))
    expected = sorted(p.name for p in HF.iterdir() if p.suffix == ".md" and p.name != "README.md")
    assert [f.name for f in files] == expected and "readme_0253839c_bloom.md" in expected


def test_readme_and_manifests_are_skipped(tmp_path):
    for name in ("README.md", "run.manifest.yml", "notes.yaml", "a.txt", "b.md"):
        (tmp_path / name).write_text("x")
    assert [f.name for f in checks.expand(str(tmp_path))] == ["a.txt", "b.md"]


def test_listed_folder_is_logged(tmp_path, monkeypatch):
    log = tmp_path / "reads.log"
    monkeypatch.setenv(config.READS_LOG_ENV, str(log))
    checks.expand(f"{HF}, {config.SEEDS['003']}")
    assert log.read_text().splitlines() == [str(HF.resolve())]


def test_expand_keeps_files_and_expands_folders_in_order(tmp_path):
    first = tmp_path / "first.txt"
    first.write_text("x", encoding="utf-8")
    folder = tmp_path / "runs"
    (folder / "sub").mkdir(parents=True)
    for name in ("b.md", "a.txt", "README.md", "m.yml", "n.yaml", "sub/c.txt"):
        (folder / name).write_text("x", encoding="utf-8")
    want = [first, folder / "a.txt", folder / "b.md", folder / "sub" / "c.txt"]
    assert checks.expand(f"{first}, {folder}") == want
    assert checks.expand([str(first), str(folder)]) == want
    assert checks.expand((str(first),)) == [first]
