"""The tp_scaling page calls its model one "the input does not name" only where the files show no sign
of a model (`analysis.tp.model_said`, the absence rule of `context.states`, issue #35 item 2): a model a
line names but no table carries is given with its line (and sizes nothing: it is tied to no table), a
line that speaks of a model and names none is quoted."""

from __future__ import annotations

import pytest

from benchbook.analysis import tp
from benchbook.topics import tp_scaling


def _write(tmp_path, text: str):
    f = tmp_path / "tgi.md"
    f.write_text(text, encoding="utf-8")
    return [f]


def test_a_model_a_command_names_is_given_with_its_line_and_sizes_nothing(tmp_path):
    paths = _write(
        tmp_path,
        "text-generation-launcher --model-id meta-llama/Llama-2-13b-hf --num-shard 2\n\n"
        "text-generation-launcher --model-id bigscience/bloomz-7b1 --num-shard 4\n",
    )
    said = tp.model_said(paths)
    assert (said["status"], said["value"], said["line"]) == ("stated", "meta-llama/Llama-2-13b-hf", 1)
    words = tp_scaling._unnamed(paths)
    assert words == "a model no table names (the input names meta-llama/Llama-2-13b-hf on line 1)"
    assert tp.model_size(words, 0.0, named=False)["total_b"] is None  # the quoted name is no table's
    assert tp.model_size("meta-llama/Llama-2-13b-hf")["total_b"] == pytest.approx(13.0, abs=0.1)


def test_a_line_that_speaks_of_a_model_without_a_name_is_quoted(tmp_path):
    paths = _write(tmp_path, "notes\nThe model was served from a local checkpoint.\n")
    said = tp.model_said(paths)
    assert (said["status"], said["line"]) == ("unread", 2)
    assert tp_scaling._unnamed(paths) == "a model line 2 speaks of without naming it"
    assert "does not name" not in tp_scaling._unnamed(paths)


def test_a_file_with_no_sign_of_a_model_is_said_not_to_name_it(tmp_path):
    paths = _write(tmp_path, "| Step | Batch Size | Average |\n|---|---|---|\n| Prefill | 1 | 10 ms |\n")
    assert tp.model_said(paths) == {"status": "absent"}
    assert tp_scaling._unnamed(paths) == "a model the input does not name"
