"""A download or pull names the weights a run used (issue #35 class 1): `hf download ORG/NAME`,
`huggingface-cli download ORG/NAME`, `ollama pull NAME` are read like `--model`, each with its line, and a
`--model DIR` that a download's `--local-dir DIR` filled runs the weights it fetched (the gemma4 README's
`hf download google/gemma-4-12B-it --local-dir ./model_weights_12B_it`, then `--model ./model_weights_12B_it`)."""

from __future__ import annotations

import pytest

from benchbook.ingest import context


def _models(lines: list[str]) -> list[tuple[object, int]]:
    return [(f.value, f.line) for f in context.read(lines).get("model")]


@pytest.mark.parametrize(
    ("line", "model"),
    [
        ("hf download google/gemma-4-12B-it", "google/gemma-4-12B-it"),
        (
            "huggingface-cli download Qwen/Qwen2.5-7B-Instruct-GPTQ-Int8 --local-dir q",
            "Qwen/Qwen2.5-7B-Instruct-GPTQ-Int8",
        ),
        ("$ ollama pull granite4:350m", "granite4:350m"),
        ("ollama pull mistral", "mistral"),  # a plain name where the line is the command
        ("docker exec -it ollama ollama run llama3.1:8b --verbose", "llama3.1:8b"),
    ],
)
def test_a_download_or_pull_names_the_model_with_its_line(line, model):
    assert _models(["# get the weights", line]) == [(model, 2)]


@pytest.mark.parametrize(
    "line",
    [
        "hf download HuggingFaceH4/ultrachat_200k --repo-type dataset",  # a data set, not weights
        "huggingface-cli download --repo-type=dataset GAIR/LIMO --local-dir data",
        "hf download $MODEL",  # a placeholder names nothing
        "see the hf download docs",  # a sentence, no command
    ],
)
def test_a_dataset_download_or_a_placeholder_names_no_model(line):
    assert _models([line]) == []


def test_a_model_folder_a_download_filled_runs_the_weights_it_fetched():
    lines = [
        "hf download google/gemma-4-12B-it --local-dir ./model_weights_12B_it",
        "hf download mattbucci/gemma-4-12B-AWQ --local-dir ./model_mattbucci_12B_it_AWQ",
        "python calc_latency.py \\",
        "  --model ./model_weights_12B_it \\",
        "  --concurrency 10",
    ]
    assert _models(lines) == [
        ("google/gemma-4-12B-it", 1),
        ("mattbucci/gemma-4-12B-AWQ", 2),
        ("google/gemma-4-12B-it", 4),
    ]


def test_a_model_folder_no_download_filled_stays_as_written():
    lines = ["hf download google/gemma-4-12B-it --local-dir ./weights_a", "python x.py --model ./weights_b"]
    assert ("./weights_b", 2) in _models(lines)


def test_the_gemma4_readme_names_both_downloads_and_the_folder_its_run_used():
    from benchbook import config

    path = config.FIXTURES_DIR / "aiperf/gemma4_hack_base_12b_it_bf16_vs_awq4bit_two_titled_runs_ja.md"
    got = _models(path.read_text(encoding="utf-8").splitlines())
    assert got == [("google/gemma-4-12B-it", 20), ("mattbucci/gemma-4-12B-AWQ", 23), ("google/gemma-4-12B-it", 33)]


@pytest.mark.parametrize(
    ("line", "model"),
    [
        (
            "git clone https://huggingface.co/amd/Llama-2-70b-chat-hf_FP8_MLPerf_V2 /model/llama2-70b-chat-hf/fp8_quantized/",
            "amd/Llama-2-70b-chat-hf_FP8_MLPerf_V2",
        ),
        ("$ git lfs clone https://hf.co/Qwen/Qwen2.5-7B-Instruct-AWQ", "Qwen/Qwen2.5-7B-Instruct-AWQ"),
        ("git clone --depth 1 https://huggingface.co/meta-llama/Llama-3.1-8B.git", "meta-llama/Llama-3.1-8B"),
    ],
)
def test_a_git_clone_of_a_hub_repository_is_a_download_of_its_weights(line, model):
    assert _models(["# get the weights", line]) == [(model, 2)]


@pytest.mark.parametrize(
    "line",
    [
        "git clone https://huggingface.co/datasets/anon8231489123/ShareGPT_Vicuna_unfiltered",  # a data set
        "git clone https://github.com/mlcommons/inference.git",  # code, no Hub repository
    ],
)
def test_a_git_clone_of_a_dataset_or_of_code_names_no_model(line):
    assert _models([line]) == []


def test_the_folder_a_git_clone_fills_runs_the_weights_it_fetched():
    lines = [
        "git clone https://huggingface.co/amd/Llama-2-70b-chat-hf_FP8_MLPerf_V2 /model/llama2-fp8",
        "vllm serve /model/llama2-fp8 --tensor-parallel-size 8",
    ]
    assert _models(lines) == [
        ("amd/Llama-2-70b-chat-hf_FP8_MLPerf_V2", 1),
        ("amd/Llama-2-70b-chat-hf_FP8_MLPerf_V2", 2),
    ]
