"""A model name's precision tag beside a launch that quantizes on load (stop 60, cj, class 2): TGI's
`text-generation-launcher --quantize`, vLLM's and SGLang's `--quantization` make the server quantize (or load as
that scheme) the checkpoint it is given, so a `-fp16` in the checkpoint's name is not that launch's precision. The
run facts list the launch's flag with its line, and the name's tag only with the lines of launches that state
none (`context.launch_quantization`, `run_facts._name_tag`)."""

from __future__ import annotations

from benchbook import ingest
from benchbook.ingest import context
from benchbook.presentation import run_facts

PLAIN = "text-generation-launcher --model-id TheBloke/Llama-2-13B-Chat-fp16 &\n"
QUANT = "text-generation-launcher --model-id TheBloke/Llama-2-13B-Chat-fp16 --quantize {q} &\n"


def _precision(text: str):
    ctx = ingest.context_of_text(text)
    return [s.values for s in run_facts.stated(ctx) if s.name == "precision"], ctx


def test_a_launch_that_quantizes_on_load_is_listed_with_its_flag_not_the_names_tag():
    (values,), ctx = _precision(PLAIN + "\n" + QUANT.format(q="[bitsandbytes,bitsandbytes-nf4]"))
    assert context.launch_quantization(ctx) == {3: "--quantize [bitsandbytes,bitsandbytes-nf4]"}
    assert values == (
        ("fp16 (in the model's name)", (1,)),
        ("quantized on load: `--quantize [bitsandbytes,bitsandbytes-nf4]`, whatever the model's name says", (3,)),
    )


def test_every_launch_quantizing_leaves_no_tag_from_the_name():
    (values,), _ = _precision(QUANT.format(q="[bitsandbytes,bitsandbytes-fp4]"))
    assert [v for v, _ in values] == [
        "quantized on load: `--quantize [bitsandbytes,bitsandbytes-fp4]`, whatever the model's name says"
    ]


def test_launches_that_state_no_quantization_keep_the_names_tag_on_every_line():
    (values,), ctx = _precision(PLAIN + "\n" + PLAIN)
    assert context.launch_quantization(ctx) == {}
    assert values == (("fp16 (in the model's name)", (1, 3)),)


def test_a_quantization_the_reader_takes_is_the_stated_precision_with_its_line():
    (values,), ctx = _precision("vllm serve Qwen/Qwen3-8B-FP16 --quantization fp8\n")
    assert context.launch_quantization(ctx) == {1: "--quantization fp8"}
    assert values == (("fp8", (1,)),)
