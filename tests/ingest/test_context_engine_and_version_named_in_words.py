"""An engine and its version named in prose, a title, a table, an image tag or a pip pin are the run's
engine and version, tied to their line; a name with no version states the engine only where the run is on it."""

import pytest

from benchbook.ingest import context


def _engine(text: str) -> list[tuple[str, object, int]]:
    ctx = context.read(text.splitlines())
    return [(f.name, f.value, f.line) for f in ctx.facts if f.name in ("engine", "version")]


@pytest.mark.parametrize(
    ("text", "engine", "version"),
    [
        ("我在A100显卡，vLLM(0.11.1)上测试了一下：", "vLLM", "0.11.1"),
        ("pip install vllm==0.9.2", "vLLM", "0.9.2"),
        ("uv pip install 'sglang[all]==0.4.6'", "SGLang", "0.4.6"),
        ("| 镜像 | `quay.io/ascend/vllm-ascend:v0.18.0` |", "vLLM Ascend", "v0.18.0"),
        ("Tested on vllm-ascend v0.18.0", "vLLM Ascend", "v0.18.0"),
        ("## Build TGI 1.3.2 image", "TGI", "1.3.2"),
        ("| vLLM | 0.11.1 |", "vLLM", "0.11.1"),
        ("| vLLM-Ascend | 0.18.0rc1 |", "vLLM Ascend", "0.18.0rc1"),
        ("based on tensorrt-llm:0.12.0.dev2024073000 and", "TensorRT-LLM", "0.12.0.dev2024073000"),
        ("TensorRT-LLM version : v0.10.0", "TensorRT-LLM", "v0.10.0"),
        ("So TGI 1.2 is used instead.", "TGI", "1.2"),
    ],
)
def test_a_named_engine_and_its_version_are_stated_on_their_line(text, engine, version):
    got = _engine("intro\n" + text)
    assert ("engine", engine, 2) in got and ("version", version, 2) in got


@pytest.mark.parametrize(
    "text",
    [
        "vLLM 2x faster than before",
        "vLLM 1.5x faster than SGLang",
        "vLLM 12.3 tok/s on one GPU",
        "torch 2.5.1",
        "vllm-flash-attn 2.6.1",
        "| MMLU | granite | SGLang | 0.636 |",
    ],
)
def test_another_packages_version_or_a_measure_is_no_engine_version(text):
    assert not any(name == "version" for name, _, _ in _engine(text))


@pytest.mark.parametrize(
    ("text", "engine"),
    [
        ("## Serving with vLLM", "vLLM"),
        ("We ran the benchmark on SGLang.", "SGLang"),
        ('# fix "Total generated tokens:" is 0 if using --backend tgi and --endpoint /generate_stream', "TGI"),
    ],
)
def test_an_engine_the_run_is_on_is_stated_without_a_version(text, engine):
    assert _engine(text) == [("engine", engine, 1)]


@pytest.mark.parametrize(
    "text",
    [
        "# [Feature] performance alignment with vllm when serving Qwen",
        "ready to benchmark with SGLang's official script",
        "`--backend vllm` selects the OpenAI-completions client path",
        "run it with vllm bench serve",
        "compared with vLLM",
    ],
)
def test_an_engine_merely_mentioned_is_no_run_engine(text):
    assert _engine(text) == []


def test_llama_cpp_build_line_states_the_build():
    ctx = context.read(["main: build = 3391 (090fca7a)", "main: built with cc (GCC) 11 for x86_64"])
    assert [(f.value, f.line) for f in ctx.get("build")] == [("3391 (090fca7a)", 1)]
    assert not context.read(["main: building the index = 3391 (x)"]).get("build")


def test_a_line_naming_two_engines_ties_each_version_to_its_engine():
    got = _engine("我在A100显卡，vLLM(0.11.1)和sglang(0.5.6.post2)框架上测试了一下：")
    assert ("version", "0.11.1 (vLLM)", 1) in got and ("version", "0.5.6.post2 (SGLang)", 1) in got
    assert ("version", "0.11.1", 1) in _engine("vLLM(0.11.1) only")


@pytest.mark.parametrize(
    ("text", "engine"),
    [
        ("### 2. Enable Prefix Cache in MindIE", "MindIE"),
        ("## TensorRT-LLM", "TensorRT-LLM"),
        ("#### SGLang results", "SGLang"),
    ],
)
def test_a_heading_naming_one_engine_names_the_engine_of_the_runs_under_it(text, engine):
    assert _engine(text) == [("engine", engine, 1)]


@pytest.mark.parametrize(
    "text",
    [
        "## vLLM and SGLang",  # which of the two ran a run under it, the heading does not say
        "### MindIE vs vLLM",
        "## Comparison with vLLM (H100)",  # the section sets its runs beside vLLM's
        "## SGLang's bench_serving",  # the script, not the server
        "MindIE is fast",  # a sentence naming it runs nothing on it
        "# [Feature] MindIE support",  # a document's own title (a copied issue's) speaks of the thread
    ],
)
def test_a_heading_naming_two_engines_or_a_script_names_no_engine(text):
    assert _engine(text) == []


def test_mindie_and_its_release_are_read_as_written():
    assert _engine("x\n- MindIE: 2.1RC1") == [("engine", "MindIE", 2), ("version", "2.1RC1", 2)]
