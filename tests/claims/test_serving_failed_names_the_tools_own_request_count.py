"""Where an output prints no failure count, the page may name a line that speaks of the requests sent and say
which count it does read: the option of the tool that ran (AIPerf and GenAI-Perf take `--request-count`, their
`--num-prompts` is the dataset's unique entries; vLLM's and SGLang's bench_serving take `--num-prompts`). A
command's `--request-count` under `aiperf profile` states the prompts sent, and a count of requests a sentence
calls the warmup (sent before the measurement) is no sign of them (a dev.to post's AIPerf table once had
"line 35 speaks of `10 requests` ... it reads the benchmark's --num-prompts", of its second run's warmup)."""

from __future__ import annotations

from benchbook import config
from benchbook.analysis import serving
from benchbook.claims import serving as cs
from benchbook.ingest import context
from benchbook.presentation import wording

RETYPED = (
    config.FIXTURES_DIR / "aiperf/devto_qainsights_granite4_350m_ollama_aiperf_c1_retyped_table_then_c50_command_cut.md"
)


def _prompts(lines: list[str]) -> context.Statement:
    return context.states(context.read(lines), "prompts")


def test_aiperfs_request_count_states_the_prompts_and_its_num_prompts_does_not():
    said = _prompts(["aiperf profile --model m --request-count 50 --concurrency 1"])
    assert said.status == "stated" and [f.value for f in said.facts] == [50]
    assert _prompts(["aiperf profile --model m --num-requests 40"]).facts[0].value == 40
    assert not _prompts(["aiperf profile --model m --num-prompts 100 --concurrency 1"]).facts


def test_a_warmups_request_count_is_no_sign_of_the_prompts_sent():
    assert _prompts(["I also added a warmup of 10 requests to eliminate cold-start noise."]).status == "absent"
    said = _prompts(["We measured 200 requests after a warmup of 10 requests."])
    assert said.status == "unread" and said.sign.words == "200 requests"


def test_the_retyped_aiperf_page_no_longer_points_at_the_warmup():
    r, _ = serving.load([RETYPED])
    said = serving.fact_said([RETYPED], "prompts", "sent")
    assert (said["sent_status"], said["sent_value"], said["sent_line"]) == ("stated", 50, 21)
    c = wording.word("serving_saturation", cs.failed(r, said))
    assert "prints no count of failed requests, so the page cannot tell whether any failed" in c.text
    assert "line 35" not in c.text and "--num-prompts" not in c.text


def test_an_unread_count_is_said_with_the_option_of_the_tool_that_ran():
    r, _ = serving.load([RETYPED])
    unread = {"sent_status": "unread", "sent_line": 7, "sent_text": "we ran 200 requests", "sent_words": "200 requests"}
    aiperf = wording.word("serving_saturation", cs.failed(r, unread)).text
    assert "it reads the benchmark's `--request-count`" in aiperf and "--num-prompts" not in aiperf
    vllm = wording.word("serving_saturation", cs.failed(r.assign(tool="vllm-bench-serve"), unread)).text
    assert "it reads the benchmark's `--num-prompts`" in vllm
    other = wording.word("serving_saturation", cs.failed(r.assign(tool="guidellm"), unread)).text
    assert "it reads the count a command sets" in other and "--num-prompts" not in other
