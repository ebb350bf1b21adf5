"""Every serving parser builds a run's settings with one constructor: what its tool states, the rest unknown."""

import math

import pytest

from benchbook.ingest import aiperf, genai_perf, guidellm, inferencex, sglang_serving, trtllm_bench, vllm_serve
from benchbook.ingest.serving_settings import SETTINGS, run_settings


def test_unstated_numbers_are_nan_and_unstated_texts_none():
    s = run_settings("c=8", "json", max_concurrency=8.0)
    assert list(s) == list(SETTINGS)
    assert (s["run"], s["format"], s["max_concurrency"]) == ("c=8", "json", 8.0)
    assert math.isnan(s["request_rate"]) and math.isnan(s["num_prompts"]) and math.isnan(s["burstiness"])
    assert s["model"] is None and s["dataset"] is None and s["metadata"] is None


def test_a_stated_setting_is_kept_as_given():
    s = run_settings("rate 2", "text", request_rate=math.inf, model="m", metadata="tp=2")
    assert s["request_rate"] == math.inf and s["model"] == "m" and s["metadata"] == "tp=2"


def test_a_name_outside_the_contract_is_an_error_not_a_lost_setting():
    with pytest.raises(TypeError, match="concurrency"):
        run_settings("c=8", "json", concurrency=8.0)


@pytest.mark.parametrize("tool", [aiperf, genai_perf, guidellm, inferencex, sglang_serving, trtllm_bench])
def test_serving_tools_share_the_contract(tool):
    assert tool.SETTINGS == vllm_serve.SETTINGS == SETTINGS
