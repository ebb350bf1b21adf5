"""A shell command reads on past a line's end while a quoted string is open (POSIX sh): AIPerf's
template endpoint passes a multi-line `--extra-inputs payload_template:'{...}'`, and the options after
the closing quote (`--concurrency 4`) are the run's. Where the quote closes on a line with no trailing
backslash, the command ends there, and AIPerf's default cap of 1 holds; a markdown fence ends a block
whatever quote a copy left open."""

from __future__ import annotations

from benchbook import ingest
from benchbook.ingest.aiperf_console import open_quote

TABLE = """            NVIDIA AIPerf | LLM Metrics
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━┳━━━━━━━━┓
┃                      Metric ┃    avg ┃    p99 ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━╇━━━━━━━━┩
│        Request Latency (ms) │ 456.78 │ 554.32 │
│  Request Throughput (req/s) │   8.78 │      - │
└─────────────────────────────┴────────┴────────┘
"""

QUOTED = """aiperf profile \\
  --model your-model \\
  --endpoint-type template \\
  --extra-inputs payload_template:'
  {
    "text": {{ text|tojson }}
  }' \\
  --concurrency 4 \\
  --request-count 20
"""


def _cap(tmp_path, command):
    f = tmp_path / "run.md"
    f.write_text(command + "\n" + TABLE)
    runs = ingest.read(f).drop_duplicates("run")
    return list(runs["max_concurrency"]), list(runs["num_prompts"])


def test_options_after_a_quoted_argument_over_several_lines_are_read(tmp_path):
    assert _cap(tmp_path, QUOTED) == ([4.0], [20.0])


def test_a_closed_quote_without_a_backslash_ends_the_command(tmp_path):
    ended = QUOTED.replace("}' \\\n", "}'\n")
    caps, prompts = _cap(tmp_path, ended)
    assert caps == [1.0] and prompts[0] != prompts[0]  # neither option after the quote is read


def test_open_quote_follows_the_shell_rules():
    assert open_quote("aiperf profile --extra-inputs payload_template:'")
    assert not open_quote("aiperf profile --extra-inputs payload_template:'{}'")
    assert open_quote("aiperf profile --x \"it's")  # a single quote inside double quotes opens nothing
    assert not open_quote("aiperf profile --x it\\'s")  # an escaped quote opens nothing


def test_a_fence_ends_a_command_whose_copy_left_a_quote_open(tmp_path):
    fenced = "```\naiperf profile --model m --extra-inputs x:'{\n```\n\n--concurrency 8\n\n```\n"
    caps, _ = _cap(tmp_path, fenced)
    assert caps == [1.0]  # `--concurrency 8` stands outside the command's block
