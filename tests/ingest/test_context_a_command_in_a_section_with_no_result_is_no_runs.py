"""A write-up's runs take the model of their own serving script, not of a command its conclusion recommends
or its setup lists for the client (gpustack's performance lab, stop 50, issue #35 class 1)."""

from __future__ import annotations

import pandas as pd

from benchbook.ingest import context

LAB = """# Optimizing M
## Conclusion
```bash
python3 -m sglang.launch_server --model-path org/M-FP8
```
## Benchmark Script
```bash
vllm bench serve --model org/M --num-prompts 100
```
## Experiment Results
### 1. Engine
```bash
vllm serve org/M
```
RESULT
### 2. Quantization
```bash
trtllm-serve org/M-FP8
```
RESULT
""".splitlines()


def test_each_result_takes_its_own_serving_scripts_model_over_a_recommended_one():
    table = pd.DataFrame({"line": [14, 19], "model": ["org/M", None]})
    context.fill(table, context.read(LAB))
    assert table["model"].tolist() == ["org/M", "org/M-FP8"]


def test_commands_listed_together_before_the_results_sections_tie_to_none():
    """Two servers listed in one setup section with no result, then both results in another: which ran
    which is unsaid, so neither is tied (the section with no result is superseded only by a nearer command
    in a section that holds a result)."""
    lines = ["## Setup", "vllm serve org/A", "vllm serve org/B", "## Results", "RESULT", "RESULT"]
    table = pd.DataFrame({"line": [5, 6], "model": ["org/A", None]})
    context.fill(table, context.read(lines))
    assert pd.isna(table.at[1, "model"])


def test_a_bare_name_is_the_hub_id_another_command_writes_in_full():
    table = pd.DataFrame({"line": [3, 6], "model": ["Org/M-30B", None]})
    lines = [
        "vllm bench serve --model Org/M-30B",
        "vllm serve Org/M-30B -tp 2",
        "RESULT",
        "mindie serve M-30B",
        "",
        "RESULT",
    ]
    context.fill(table, context.read(lines))
    assert table["model"].tolist() == ["Org/M-30B", "Org/M-30B"]


def test_trtllm_serve_and_mindie_serve_name_the_model_they_serve():
    models = {
        f.value for f in context.read(["trtllm-serve Qwen/Qwen3-8B", "mindie serve vllm-ascend/Q-W8A8"]).get("model")
    }
    assert models == {"Qwen/Qwen3-8B", "vllm-ascend/Q-W8A8"}
    assert not context.read(["We use trtllm-serve to host it."]).get("model")
