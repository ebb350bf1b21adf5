"""A vLLM bench latency run whose batch size no line ties to it: the page names a line that speaks of one
(the absence rule, `serving.fact_said` for batch) and says the output does not say the batch size only
where no line does; a batch size the file states is the run's."""

from __future__ import annotations

from benchbook.chapter import setup
from benchbook.topics import batch_saturation as topic

FIXTURE = "tests/fixtures/vllm-bench-offline/vllm_pr36517_mi355x_tp2_latency_replicates_cut.md"


def _offline(tmp_path, line: str, at: int = 0) -> str:
    """The batch sentence of the fixture with `line` inserted before its line `at` + 1 (0: above the
    thread's first byline, so another writer's than the results'; 4: inside the results' own post)."""
    path = tmp_path / "latency.md"
    lines = open(FIXTURE, encoding="utf-8").read().split("\n")
    path.write_text("\n".join([*lines[:at], line, "", *lines[at:]]), encoding="utf-8")
    r = topic.analyse(setup("batch_saturation", {"source": str(path)}))
    return topic.page(r).markdown["offline_sentence"]


def test_a_batch_size_set_from_a_variable_is_named_unread(tmp_path):
    words = _offline(tmp_path, "vllm bench latency --model x --batch-size $BS")
    assert "line 1 speaks of a batch size (`vllm bench latency --model x --batch-size $BS`)" in words
    assert "does not say the batch size" not in words


def test_a_batch_size_stated_in_the_runs_own_post_is_the_runs(tmp_path):
    words = _offline(tmp_path, "vllm bench latency --model x --batch-size 16", at=4)
    assert "per batch of 16" in words and "does not say the batch size" not in words


def test_a_batch_size_another_writer_states_above_the_thread_is_named_not_taken(tmp_path):
    words = _offline(tmp_path, "vllm bench latency --model x --batch-size 16")
    assert "per batch of 16" not in words and "the batch size line 1 states (16" in words


def test_only_a_file_with_no_sign_of_a_batch_size_does_not_say_it(tmp_path):
    assert "but the output does not say the batch size" in _offline(tmp_path, "Run on two MI355X.")
