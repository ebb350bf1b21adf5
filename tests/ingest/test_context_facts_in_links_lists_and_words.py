"""Run facts a write-up states outside a tool's table, each read by one rule of the context reader and each with a
case where the rule comes out the other way:

- a labelled value that goes on as a comma list of `key value` items (`vllm version: 0.4.3, gpu A40, 46Gi, single
  gpu`, vLLM issue 5316): the label's value is the first item, and an item led by a fact's key states that fact;
- a run said in words to use the CPU alone (`When using CPU only`, llama.cpp PR 2926) where the file names no
  other device: its device is the CPU, how many not stated; a `CPU offload` keeps the model on a GPU;
- a model named in a Markdown link: by its text (`[Hunyuan-A13B](...)`, a MoE's active count its one size) or by
  the GGUF file it links to (ik_llama.cpp PR 1116's `[IQ4_XS model from Unsloth](.../Hunyuan-A13B-Instruct-IQ4_XS.gguf)`);
  a link to another model inside a sentence about one names neither;
- a labelled model id in backticks with notes after it (`**Model:** `nvidia/Kimi-K2.5-NVFP4` (591 GB, ...), BF16-KV`,
  the TokenSpeed write-up): the id."""

from __future__ import annotations

from benchbook.ingest import context


def _facts(*lines: str, names=("model", "device", "device_count", "version")) -> list[tuple[str, object]]:
    return [(f.name, f.value) for f in context.read(list(lines)).facts if f.name in names]


def test_a_comma_list_of_key_value_items_after_a_label_states_each_fact():
    facts = _facts("vllm version: 0.4.3, gpu A40, 46Gi, single gpu")
    assert ("version", "0.4.3") in facts and ("device", "A40") in facts
    assert ("version", "0.4.3, gpu A40, 46Gi, single gpu") not in facts


def test_a_comma_list_with_no_keyed_item_is_one_value_and_an_unlabelled_sentence_states_none():
    assert ("version", "0.4.3, 2024 build") in _facts("vllm version: 0.4.3, 2024 build")
    assert _facts("Notes: ran on gpu A40, fine") == []


def test_a_run_said_to_use_the_cpu_alone_has_the_cpu_as_its_device():
    text = "When using CPU only and the default sampling parameters the average t/s increases from 0.44 to 0.52:"
    assert _facts(text) == [("device", "CPU")]
    assert _facts("Ok, I ran it with only CPUS.") == [("device", "CPU")]


def test_a_cpu_offload_or_a_file_naming_a_gpu_is_no_cpu_only_run():
    assert _facts("We ran with CPU offload of 8 GB.") == []
    assert _facts("CPU-only layers stay on the host.") == []
    assert _facts("One H100 80GB.", "A CPU only baseline is below.") == [("device", "H100")]


def test_a_model_named_in_a_links_text_or_by_the_gguf_file_it_links_to():
    assert _facts("We ran [Hunyuan-A13B](https://huggingface.co/tencent/Hunyuan-A13B-Instruct) today.") == [
        ("model", "Hunyuan-A13B")
    ]
    linked = (
        "The following results are for the [IQ4_XS model from Unsloth](https://huggingface.co/unsloth/"
        "Hunyuan-A13B-Instruct-GGUF/blob/main/Hunyuan-A13B-Instruct-IQ4_XS.gguf)."
    )
    assert _facts(linked) == [("model", "Hunyuan-A13B-Instruct-IQ4_XS.gguf")]


def test_a_link_to_another_model_inside_a_sentence_about_one_names_neither():
    ctx = context.read(
        ["Results for Llama-3.1-8B; compare [Qwen2-7B](https://huggingface.co/Qwen/Qwen2-7B) elsewhere."]
    )
    assert not ctx.get("model")
    assert [s.words for s in ctx.signs if s.name == "model"] == ["Llama-3.1-8B, Qwen2-7B"]


def test_a_labelled_id_in_backticks_with_notes_after_it_is_the_id():
    line = "**Model:** `nvidia/Kimi-K2.5-NVFP4` (591 GB, 119 safetensors), BF16-KV"
    assert _facts(line) == [("model", "nvidia/Kimi-K2.5-NVFP4")]
    assert _facts("Model: `org/x` is what we used") == []  # a sentence after the id: prose, no label's value


def test_a_guide_offering_a_cpu_only_deployment_beside_gpus_names_no_cpu_run():
    # llm-d's inference-scheduling guide: GPU kinds listed, then `For CPU-only deployment (no GPUs required), see`
    guide = ["- **NVIDIA GPUs**: Any NVIDIA GPU", "", "For CPU-only deployment (no GPUs required), see below."]
    assert _facts(*guide) == []
