"""A launch's placeholder model (`--model-path $MODEL_PATH`) names no model: it neither hides the model a
title names in words from the absence rule (`serving.untied_models`) nor lets a page say the output names no
model; where nothing else speaks of one, the placeholder's own line is the sign quoted."""

from __future__ import annotations

from benchbook.analysis import serving


def test_a_title_naming_the_model_is_read_beside_a_placeholder_model_path(tmp_path):
    doc = tmp_path / "pr.md"
    doc.write_text("# Support dp-attention for MiniMax2.5\n\npython -m sglang.launch_server --model-path $MODEL_PATH\n")
    assert serving.untied_models([doc], []) == [["MiniMax2.5", 1, "words"]]


def test_a_placeholder_alone_is_quoted_as_the_line_that_speaks_of_a_model(tmp_path):
    doc = tmp_path / "cmd.md"
    doc.write_text("Results\n\npython -m sglang.launch_server --model-path $MODEL_PATH --tp 8\n")
    [[text, line, how]] = serving.untied_models([doc], [])
    assert (line, how) == (3, "sign") and "$MODEL_PATH" in text


def test_a_file_with_no_sign_of_a_model_still_names_none(tmp_path):
    doc = tmp_path / "bare.md"
    doc.write_text("Results\n\nSuccessful requests: 10\n")
    assert serving.untied_models([doc], []) == []


def test_a_named_model_beside_the_placeholder_is_the_one_named(tmp_path):
    doc = tmp_path / "two.md"
    doc.write_text("# Support MiniMax2.5\n\nvllm serve --model $M\nvllm bench serve --model org/Real-8B\n")
    assert serving.untied_models([doc], []) == [["org/Real-8B", 4, "named"]]
