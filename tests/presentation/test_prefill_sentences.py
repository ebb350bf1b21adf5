"""The prompt-processing and sweep sentences of the bandwidth page: each value of a swept setting with
its flag and rate, never "slower settings"; the settings every result shares, named as llama-bench's flags."""

from __future__ import annotations

from benchbook.presentation import bandwidth as show

SM = {
    "setting": "sm",
    "test": "tg128",
    "model": "m",
    "device": None,
    "values": [("none", 35.36, 0.07, 37), ("layer", 11.65, 10.84, 39)],
}


def test_a_sweep_names_its_setting_and_gives_each_value_its_rate():
    text = show.sweep_sentences([SM], [])
    assert "-sm none 35.36 ± 0.07 tok/s against -sm layer 11.65 ± 10.84 tok/s" in text
    assert "split mode" in text and "slower" not in text


def test_no_sweep_says_so_and_a_shared_kv_cache_type_is_stated():
    text = show.sweep_sentences([], [("type_k", "q8_0"), ("threads", 12)])
    assert "the KV cache type of K (-ctk) q8_0" in text and "the CPU threads (-t) 12" in text
    assert "sweeps none" in text
    assert "sweeps none" not in show.sweep_sentences([SM], [])


def test_a_pp_record_that_does_not_parse_is_named_not_called_absent():
    import pandas as pd

    none = pd.DataFrame()
    said = show.prefill_intro(none, 0, [{"test": "pp512", "line": 50}])
    assert "pp512 (rate at line 50) does not parse" in said and "prompt-processing (pp) result was read" not in said


def test_no_pp_result_read_is_said_as_read_not_as_the_files_absence():
    """A file can hold pp rates of a format the chapter does not read (llama-bench summary lines beside a
    vLLM bench latency run): the page says what it read, never that the input holds none."""
    import pandas as pd

    said = show.prefill_intro(pd.DataFrame(), 0, [])
    assert "No prompt-processing (pp) result was read from the input" in said and "holds no" not in said
    one = show.prefill_intro(pd.DataFrame({"rate": [4294.3]}), 1, [])
    assert "The input holds 1 prompt-processing result" in one and "was read" not in one
