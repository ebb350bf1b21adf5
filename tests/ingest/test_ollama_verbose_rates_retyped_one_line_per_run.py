"""Ollama's `--verbose` rate fields re-typed one run per line after a writer's label (`qwen3  0.15.4-rocm
prompt eval rate: 179.80 tokens/s eval rate: 31.69 tokens/s`): each line one request, the label its caption and
its first word the model where it is a model name as Ollama writes one; a line with other words after or
between the fields, or another unit, is no such line and the file stays refused naming it."""

from __future__ import annotations

import pytest

from benchbook import ingest
from benchbook.ingest import ollama_verbose
from benchbook.ingest.core import ParseError

ROWS = [
    "> glm-4.7-flash        0.15.4-rocm       prompt eval rate: 93.72 tokens/s eval rate: 36.22 tokens/s",
    "> qwen3                0.15.5-rc0-rocm   prompt eval rate: 172.61 tokens/s eval rate: 32.02 tokens/s",
    "> lfm2.5-thinking:1.2b 0.15.4-rocm       prompt eval rate: 269.60 tokens/s eval rate: 170.19 tokens/s",
]


def _read(tmp_path, lines):
    f = tmp_path / "rates.md"
    f.write_text("\n".join(lines) + "\n")
    return ingest.read(f)


def test_each_retyped_line_is_one_request_with_its_label_and_model(tmp_path):
    df = _read(tmp_path, ["Rates per build:", "", *ROWS])
    assert set(df["format"]) == {ollama_verbose.FORMAT} and set(df["request"]) == {1, 2, 3}
    tg = df[df["metric"] == "tg_rate"].sort_values("request")
    assert tg["value"].tolist() == [36.22, 32.02, 170.19] and tg["line"].tolist() == [3, 4, 5]
    assert tg["model"].tolist() == ["glm-4.7-flash", "qwen3", "lfm2.5-thinking:1.2b"]
    assert tg["caption"].tolist() == [
        "glm-4.7-flash        0.15.4-rocm",
        "qwen3                0.15.5-rc0-rocm",
        "lfm2.5-thinking:1.2b 0.15.4-rocm",
    ]
    assert df[df["metric"] == "pp_rate"].sort_values("request")["value"].tolist() == [93.72, 172.61, 269.60]


def test_a_label_of_one_word_or_no_model_name_names_no_model():
    assert ollama_verbose.row("run1 eval rate: 36.22 tokens/s") == ("run1", {"eval rate": "36.22"})
    assert ollama_verbose.row("0.15.4 rocm eval rate: 36.22 tokens/s")[0] == "0.15.4 rocm"
    assert ollama_verbose.row("    eval rate:            17.23 tokens/s") is None  # the stats' own line


@pytest.mark.parametrize(
    "line",
    [
        "glm-4.7-flash 0.15.4 prompt eval rate: 93.72 tokens/s which is slow",  # prose after the field
        "glm-4.7-flash 0.15.4 prompt eval rate: 93.72 t/s eval rate: 36.22 t/s",  # not Ollama's unit
        "glm-4.7-flash 0.15.4 prompt eval rate: 93.72 tokens/s and eval rate: 36.22 tokens/s",  # a word between
    ],
)
def test_a_line_that_is_not_ollamas_fields_alone_stays_refused_naming_it(tmp_path, line):
    assert ollama_verbose.row(line) is None
    with pytest.raises(ParseError, match=r"rates.md:1: "):
        _read(tmp_path, [line])
