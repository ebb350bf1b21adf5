"""llama.cpp's model string (`<arch> <type> <ftype>`) prints an MoE's experts in its type (`8x7B`,
`30B.A3B`) or names an MoE architecture (`deepseek2`): a plain size under another architecture is a
dense model. A file named after an MoE of the model table (`deepseek-r1_1.5b.gguf`, a distill whose
string is `qwen2 1.5B`) whose printed total contradicts that row is another model: the row is not used,
and the model is sized as the dense one it prints. The same table row still sizes a file whose string
says MoE (a pruned `qwen3moe`), with its active count unknown."""

from __future__ import annotations

from benchbook import hardware
from benchbook.analysis import bandwidth


def _size(printed_model: str, params_b: float, file: str) -> dict:
    return bandwidth.model_size(
        bandwidth.override_table(None), params_b, file, printed_model, None, printed_model=printed_model
    )


def test_a_dense_string_is_not_the_moe_row_its_file_name_matches():
    size = _size("qwen2 1.5B Q4_K - Medium", 1.78, "deepseek-r1_1.5b.gguf")
    assert size["architecture"] == "dense"
    assert size["active_params_b"] == 1.78


def test_an_moe_string_keeps_the_row_with_its_active_count_unknown():
    size = _size("deepseek2 671B Q4_K - Medium", 600.0, "deepseek-r1_671b.gguf")
    assert size["architecture"] == "moe"
    assert size["active_params_b"] is None


def test_which_strings_are_dense():
    assert hardware.printed_dense("qwen2 1.5B Q4_K - Medium")
    assert hardware.printed_dense("LLaMA 7B mostly Q4_0")
    assert not hardware.printed_dense("llama 8x7B Q4_0")  # Mixtral: the experts in the type
    assert not hardware.printed_dense("qwen3moe 30B.A3B IQ4_XS - 4.25 bpw")
    assert not hardware.printed_dense("deepseek2 16B Q4_0")  # an MoE architecture with a plain type
    assert not hardware.printed_dense("laguna ?B Q8_0")  # an unknown type says neither
