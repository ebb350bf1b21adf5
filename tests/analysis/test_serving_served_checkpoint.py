"""A run's model that is a served name sizing nothing (Triton's `ensemble`) beside the one checkpoint its file
names: the page names that line rather than say the input gives no size, and does not size the runs by it
(`analysis.serving.served_checkpoint`, the absence rule of issue #35 item 2)."""

from benchbook import config
from benchbook.analysis import serving
from benchbook.claims import rules

SPEC = (
    config.FIXTURES_DIR
    / "genai-perf"
    / "triton_docs_spec_decoding_eagle_vs_base_vicuna7b_rtx5880_rendered_no_fences.md"
)


def test_the_one_checkpoint_beside_a_served_name_is_found_with_its_line():
    assert serving.served_checkpoint("ensemble", [SPEC]) == ("/hf-models/vicuna-7b-v1.3", 63)


def test_a_model_the_table_or_its_name_sizes_needs_none(tmp_path):
    assert serving.served_checkpoint("meta-llama/Llama-3.1-8B-Instruct", [SPEC]) is None


def test_two_checkpoints_name_none(tmp_path):
    two = tmp_path / "two.md"
    two.write_text("BASE_MODEL=/hf-models/vicuna-7b-v1.3\nBASE_MODEL=/hf-models/llama-2-13b\n", encoding="utf-8")
    assert serving.served_checkpoint("ensemble", [two]) is None


def test_the_reason_names_the_checkpoint_never_a_missing_size():
    why = rules._missing_reason(["active_params_b", "bytes_per_token"], {"checkpoint": ["/hf/vicuna-7b", 63]})
    assert "line 63 names the checkpoint /hf/vicuna-7b" in why and "does not give the model" not in why
    assert "does not give the model’s size" in rules._missing_reason(["active_params_b"], {}).replace("'", "’")
