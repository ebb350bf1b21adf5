"""A container image names the engine and, where its tag is a version, the version (issue #35 class 1): each
project's published image and tag (vLLM `vllm/vllm-openai:vX.Y.Z`, SGLang `lmsysorg/sglang:vX.Y.Z-cuNNN`, TGI
`ghcr.io/huggingface/text-generation-inference:X.Y.Z`, Triton `nvcr.io/nvidia/tritonserver:YY.MM-<flavour>`),
read with its line; Triton's `-py3-sdk` image holds only the client tools and names no engine."""

from __future__ import annotations

import pytest

from benchbook.ingest import context


def _said(line: str) -> tuple[list, list]:
    c = context.read(["# serve it", line])
    return [(f.value, f.line) for f in c.get("engine")], [(f.value, f.line) for f in c.get("version")]


@pytest.mark.parametrize(
    ("line", "engine", "version"),
    [
        ("docker run --gpus all vllm/vllm-openai:v0.8.5 --model m", "vLLM", "v0.8.5"),
        ("docker run --gpus all lmsysorg/sglang:v0.4.6-cu124 python3 -m sglang.launch_server", "SGLang", "v0.4.6"),
        ('  "image": "lmsysorg/sglang-rocm:v0.5.12.post1-rocm720-mi35x-20260529",', "SGLang", "v0.5.12.post1"),
        ("docker run ghcr.io/huggingface/text-generation-inference:2.0.4 --model-id m", "TGI", "2.0.4"),
        ("docker run nvcr.io/nvidia/tritonserver:24.05-trtllm-python-py3", "Triton (TensorRT-LLM backend)", "24.05"),
        ("FROM vllm/vllm-openai:latest", "vLLM", None),  # a tag that is no version names the engine alone
    ],
)
def test_an_image_names_the_engine_and_its_tag_the_version(line, engine, version):
    engines, versions = _said(line)
    assert engines == [(engine, 2)]
    assert versions == ([(version, 2)] if version else [])


@pytest.mark.parametrize(
    "line",
    [
        "docker run -it --net=host nvcr.io/nvidia/tritonserver:24.06-py3-sdk",  # the client tools, no server
        "docker run -it nvcr.io/nvidia/tritonserver:${RELEASE}-py3-sdk",
        "see https://hub.docker.com/r/vllm/vllm-openai/tags",  # a link to the image's page runs nothing
        "git clone https://github.com/huggingface/text-generation-inference",
    ],
)
def test_the_sdk_image_and_a_link_name_no_engine(line):
    assert _said(line) == ([], [])


@pytest.mark.parametrize(
    ("fixture", "engine", "version"),
    [
        ("vllm-bench-serve/vllm_issue33497_dsv32_deepseek_mtp_tp8_cap8_v0150_cut.md", ("vLLM", 10), ("v0.15.0", 10)),
        # the section `## Start a vLLM Server` (line 14) over the image's command names it too
        ("aiperf/aiperf_docs_audio_qwen2_audio_7b_synthetic_c4_and_input_file_two_runs.md", ("vLLM", 22), None),
        ("genai-perf/trtllm_qwen25_72b_c10_korean_console.md", None, None),  # the -py3-sdk client image only
    ],
)
def test_the_real_files_images(fixture, engine, version):
    from benchbook import config

    c = context.read((config.FIXTURES_DIR / fixture).read_text(encoding="utf-8").splitlines())
    assert [(f.value, f.line) for f in c.get("engine") if f.source != "heading"] == ([engine] if engine else [])
    assert [(f.value, f.line) for f in c.get("version")] == ([version] if version else [])
