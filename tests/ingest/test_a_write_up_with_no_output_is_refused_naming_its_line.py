"""A write-up that holds a benchmark's command, its settings or an empty report, and none of what was
measured, is refused naming the line of what it holds (issue #35 item 2: a refusal says what was seen
and where): a cookbook whose results are `Pending update...`, a copy cut before the output, an
inference-perf report of no request, a GuideLLM report cut inside its `args`."""

from __future__ import annotations

import pytest

from benchbook import ingest
from benchbook.ingest import guidellm, inference_perf, unclaimed

PENDING = """### 5.2 Speed Benchmark

- Hardware: NVIDIA H200 GPU (8x)

```bash
sglang serve \\
  --model-path moonshotai/Kimi-K2.6 \\
  --tp 8
```

```bash
python3 -m sglang.bench_serving \\
  --backend sglang \\
  --num-prompts 10
```

```
Pending update...
```
"""


def _refusal(tmp_path, text: str) -> ingest.UnknownFormat:
    p = tmp_path / "notes.md"
    p.write_text(text, encoding="utf-8")
    with pytest.raises(ingest.ParseError) as exc:
        ingest.read_parsed(p)
    return exc.value


def test_a_benchmark_command_with_no_output_is_named_before_the_server_it_ran_against(tmp_path):
    exc = _refusal(tmp_path, PENDING)
    assert exc.line == 12 and exc.sign == "a command that runs sglang.bench_serving, and none of its output"
    # a server launch alone is named as one, with no benchmark output
    alone = PENDING.split("```bash\npython3")[0]
    assert unclaimed.command(alone.splitlines()) == (6, "a command that launches sglang serve, and no benchmark output")


def test_a_tool_named_in_a_sentence_is_no_command():
    prose = ["It runs 6% slower than the official `vllm bench serve` command (`--num-prompts 1000`)."]
    assert unclaimed.command(prose) is None
    assert unclaimed.command(["   vllm bench serve --num-prompts 1000"]) == (
        1,
        "a command that runs vllm bench serve, and none of its output",
    )


def test_a_tool_named_at_the_end_of_a_title_is_no_command_and_the_run_below_is_named():
    # sglang issue 4161: its title ends with the module's name; the command that ran it is further down
    text = [
        "# [Bug] DeepSeek server crushed while using sglang.bench_serving",
        "",
        "I run a DeepSeek R1 server but it crush while i test the throuput by python3 -m sglang.bench_serving",
        "(deepseekr1) [root@VM /]# python3 -m sglang.bench_serving   --backend sglang --num-prompts 180",
    ]
    assert unclaimed.command(text) == (4, "a command that runs sglang.bench_serving, and none of its output")
    # the other way: the module run with no flag, alone on its line, is a command
    assert unclaimed.command(["python3 -m sglang.bench_serving"]) == (
        1,
        "a command that runs sglang.bench_serving, and none of its output",
    )
    assert unclaimed.command(["$ llama-bench"]) == (1, "a command that runs llama-bench, and none of its output")


def test_an_inference_perf_report_of_no_request_is_refused_naming_it():
    zero = 'example output:\n{"load_summary": {}, "successes": {"count": 0, "rate": 0.0}, "failures": {}}\n'
    assert inference_perf.refuses(zero) == (2, inference_perf.NOTHING_MEASURED)
    # the other way: a report of requests is not refused by this rule
    assert inference_perf.refuses(zero.replace('"count": 0', '"count": 12')) is None


def test_a_guidellm_report_cut_inside_its_args_is_refused_naming_them():
    args = '```json\n{\n  "args": {\n    "target": "http://x",\n    "profile": "constant",\n    "rate": [2, 5],\n    "output_formats": ["json"],\n'
    line, why = guidellm.refuses(args)
    assert line == 3 and "ends before its `benchmarks`" in why
    # the other way: a copy that reaches its benchmarks is no such refusal
    assert guidellm._args_only(args + '  },\n  "benchmarks": [\n') is None


def test_an_attention_benchmark_command_with_no_output_is_named():
    # PyTorch's FlexAttention sweep and flash-attention's script, whose outputs benchbook reads
    sweep = [
        "```",
        "PYTORCH_CUDA_ALLOC_CONF=x python -W ignore benchmarks/transformer/score_mod.py -dtype bfloat16 -s 1024",
        "```",
    ]
    assert unclaimed.command(sweep) == (
        2,
        "a command that runs benchmarks/transformer/score_mod.py, and none of its output",
    )
    assert unclaimed.command(["python benchmarks/benchmark_flash_attention.py"]) == (
        1,
        "a command that runs benchmarks/benchmark_flash_attention.py, and none of its output",
    )
    # the other way: the script named in a sentence is no command
    assert unclaimed.command(["We ran `score_mod.py` on an A6000 last week."]) is None
