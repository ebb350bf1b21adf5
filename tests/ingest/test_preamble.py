"""A comment or a `$ cat result.json` line above a tool's output: every tool sees its output past
it by one rule (`ingest.preamble`), every number keeps the file's own line, and a file with nothing
but such lines, or with no tool output behind them, is still refused."""

from __future__ import annotations

import pytest

from benchbook import config, ingest
from benchbook.ingest import ParseError, UnknownFormat, preamble

FIXTURES = sorted(
    f
    for f in config.FIXTURES_DIR.glob("*/*")
    if f.is_file() and not f.name.endswith((".truth.yml", ".md")) and f.parent.name != "compare"
)
ABOVE = {"comment": "# run on the lab's box, see the notes\n", "cat": "$ cat {name}\n"}


def _values(df):
    return sorted(zip(df["tool"], df["metric"], df["statistic"], df["value"].fillna(-1.0), strict=True))


@pytest.mark.parametrize("kind", sorted(ABOVE))
@pytest.mark.parametrize("fixture", FIXTURES, ids=lambda f: f"{f.parent.name}/{f.name}")
def test_a_line_above_any_tools_output_changes_nothing_it_reads(fixture, kind, tmp_path):
    plain = ingest.read(fixture)
    moved = tmp_path / fixture.name
    moved.write_bytes(ABOVE[kind].format(name=fixture.name).encode() + fixture.read_bytes())
    df = ingest.read(moved)
    assert ingest.detect(ingest._load_lines(moved)) == ingest.detect(ingest._load_lines(fixture))
    assert _values(df) == _values(plain)
    # each number keeps its own line of the file (a reader that names the file as a whole says line 1)
    shifted = plain["line"].where(plain["line"] == 1, plain["line"] + 1)
    assert (df.sort_values(["tool", "metric", "statistic", "line"])["line"].to_numpy() >= 1).all()
    assert sorted(df["line"]) == sorted(shifted) or sorted(df["line"]) == sorted(plain["line"] + 1)


def test_a_wrapped_command_with_a_prompt_and_a_venv_is_one_preamble():
    lines = [
        "(vllm) user@gpu-box:~/bench$ python -m sglang.bench_one_batch \\",
        "    --model-path Qwen/Qwen3-8B --tp 2 \\",
        "    --batch-size 1 8",
        "",
        '{"run_name": "default"}',
    ]
    assert preamble.length(lines) == 4
    assert preamble.past("\n".join(lines)).split("\n") == ["", "", "", "", '{"run_name": "default"}']


def test_a_file_that_opens_with_its_output_has_no_preamble():
    assert preamble.length(['{"a": 1}', "# not above anything"]) == 0
    assert preamble.past("Metric,avg\n# a comment after\n") is None


def test_only_comments_is_no_preamble_and_is_refused(tmp_path):
    p = tmp_path / "notes.txt"
    p.write_text("# nothing ran\n$ cat result.json\ncat: result.json: No such file or directory\n")
    assert preamble.length(p.read_text().split("\n")) == 2
    with pytest.raises(UnknownFormat):
        ingest.read(p)
    q = tmp_path / "only.txt"
    q.write_text("# nothing ran\n# at all\n")
    assert preamble.past(q.read_text()) is None


def test_a_broken_output_past_the_preamble_is_refused_at_the_files_own_line(tmp_path):
    body = (config.FIXTURES_DIR / "ml-energy" / "A100_chat_benchmark.csv").read_text().split("\n")
    body[2] = body[2] + ",1"  # one cell too many on the second data row (line 3 of the CSV)
    p = tmp_path / "A100_chat_benchmark.csv"
    p.write_text("$ cat A100_chat_benchmark.csv\n" + "\n".join(body))
    with pytest.raises(ParseError) as err:
        ingest.read(p)
    assert err.value.line == 4
