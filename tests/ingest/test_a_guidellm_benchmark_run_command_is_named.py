"""GuideLLM's `guidellm benchmark` group runs its default subcommand `run`, which its docs and users
write out (`guidellm benchmark run \\`): a write-up holding that command and none of its output is
refused naming the command's line, as the short form is; a sentence naming the tool is no command."""

from __future__ import annotations

from benchbook import config
from benchbook.ingest import unclaimed

ISSUE514 = (
    config.FIXTURES_DIR.parent.parent
    / "benchmarks/first_read/unread/guidellm/guidellm_issue514_v03_v04_concurrent_sweep_llama33_70b_fp8_command_only.md"
)


def test_the_written_out_run_subcommand_is_a_guidellm_command():
    lines = ["Run it:", "", "guidellm benchmark run \\", '  --target="${GUIDELLM_TARGET}" \\', "  --rate=1,50"]
    assert unclaimed.command(lines) == (3, "a command that runs guidellm benchmark run, and none of its output")


def test_the_short_form_still_is_one():
    assert unclaimed.command(["guidellm benchmark --target http://localhost:8000"]) == (
        1,
        "a command that runs guidellm benchmark, and none of its output",
    )


def test_a_sentence_naming_the_run_subcommand_is_none():
    assert unclaimed.command(["The `guidellm benchmark run` command prints a table."]) is None


def test_the_real_bug_report_is_refused_at_its_command():
    lines = ISSUE514.read_text(encoding="utf-8").splitlines()
    assert unclaimed.command(lines) == (27, "a command that runs guidellm benchmark run, and none of its output")
