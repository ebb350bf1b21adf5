"""A llama.cpp quantization type written right after a model, a space between (`llama 8b q4_0`, `Llama-3.1-8B
Q4_K_M`), is the precision the sentence gives that model's weights: ggml's own names of its weight types, which
no other word spells. Behind a comma the type is a list's next item, and on a line naming two models it is not
tied to one of them: neither states a precision."""

from __future__ import annotations

from benchbook.ingest import context

TABLE = ["", "|    PP |     TG |    B |   N_KV |", "|-------|--------|------|--------|"]


def _precision(line: str) -> list[tuple[str, int]]:
    return [(str(f.value), f.line) for f in context.read([line, *TABLE]).get("precision")]


def test_a_quant_type_after_a_model_in_words_is_its_precision():
    line = "I ran the batched bench with llama 8b q4_0 for my devices as well to gather some more data for tuning."
    assert _precision(line) == [("q4_0", 1)]


def test_a_quant_type_after_a_model_named_by_its_id_is_its_precision():
    assert _precision("Results for Llama-3.1-8B Q4_K_M on my box") == [("Q4_K_M", 1)]
    assert _precision("Results for Llama-3.1-8B IQ4_XS on my box") == [("IQ4_XS", 1)]


def test_a_type_behind_a_comma_or_beside_two_models_or_apart_from_the_model_states_none():
    assert _precision("llama 8b, q4_0 and q8_0 compared") == []  # a list of types, not the model's
    assert _precision("We tested llama 8b q4_0 and qwen 7b q8_0") == []  # two models on the line
    assert _precision("llama 8b runs at 30 t/s; the q4_0 file is faster") == []  # not right after the model
    assert _precision("llama 8b q4_0x is a typo") == []  # no ggml type name
