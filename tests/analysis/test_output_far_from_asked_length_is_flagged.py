"""A run whose measured mean output is more than WORKLOAD_SPREAD from what its command asks for is flagged
(the echo of the prompt named where the output is the asked input plus output); a mean within it is not."""

from pathlib import Path

import pandas as pd

from benchbook.analysis import serving
from benchbook.presentation import serving as show

FIXTURE = Path(__file__).parents[1] / "fixtures" / "genai-perf"
ECHOED = FIXTURE / "trtllm_backend_llama2_7b_doc_zh_ensemble_c1_osl300_vs_requested_100_excerpt.md"


def _run(measured: float, asked_in: float = 200, asked_out: float = 100) -> pd.DataFrame:
    meta = f"input_tokens_mean={asked_in:g}; output_tokens_mean={asked_out:g}; cli_command=genai-perf profile"
    return pd.DataFrame({"run": ["c=1"], "metadata": [meta], "output_sequence_length_mean": [measured]})


def test_genai_perf_console_asking_100_and_counting_300_is_flagged_as_the_prompt_echoed():
    r, _ = serving.load([ECHOED])
    off = serving.output_off_asked(r)
    assert off[["measured", "asked", "asked_input"]].values.tolist() == [[300.0, 100.0, 200.0]]
    assert off["echo"].tolist() == [True]
    said = show.asked_output_note(r)
    assert "a mean of 300 output tokens a request, though its command asks for 100" in said
    assert "the 200 input tokens it asks for plus the 100 output tokens" in said


def test_a_mean_within_the_spread_of_the_asked_length_is_not_flagged():
    assert serving.output_off_asked(_run(130)).empty
    assert serving.output_off_asked(_run(70)).empty
    assert show.asked_output_note(_run(99.6)) == ""


def test_a_far_mean_that_is_not_input_plus_output_names_no_echo():
    off = serving.output_off_asked(_run(180))
    assert off["echo"].tolist() == [False]
    said = show.asked_output_note(_run(180))
    assert "plus the" not in said and "ignored that" in said


def test_a_mean_far_under_the_asked_length_says_the_requests_ended_short():
    said = show.asked_output_note(_run(40))
    assert "ended far short of the length asked" in said
    assert "cannot exceed" not in said


def test_a_run_whose_command_asks_no_length_is_not_flagged():
    r = pd.DataFrame(
        {"run": ["c=1"], "metadata": ["cli_command=genai-perf profile"], "output_sequence_length_mean": [300.0]}
    )
    assert serving.output_off_asked(r).empty


def test_sglang_random_output_len_is_the_top_of_a_range_and_is_not_flagged():
    meta = "random_input_len=1024; random_output_len=1024"
    r = pd.DataFrame({"run": ["c=1"], "metadata": [meta], "output_sequence_length_mean": [514.52]})
    assert serving.output_off_asked(r).empty
