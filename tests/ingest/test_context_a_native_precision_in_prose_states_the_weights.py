"""A guide's sentence that names the weights' native precision (`run Seed-OSS-36B models with vLLM and native
BF16 precision`, `Native FP8 weights (14B)`) states the precision the checkpoint was released in: a fact of
the file, so a run of it is not "assumed" bf16. A precision named without `native`, or one set beside
another (`unlike native BF16`), is no such statement."""

from __future__ import annotations

import pytest

from benchbook import ingest
from benchbook.analysis import precision

MODEL = "ByteDance-Seed/Seed-OSS-36B-Instruct"


def _facts(tmp_path, line: str):
    path = tmp_path / "guide.md"
    path.write_text(
        f"# Guide\n\n{line}\n\n```bash\nvllm serve {MODEL} --tensor-parallel-size 8\n```\n", encoding="utf-8"
    )
    ctx = ingest.context_of_lines(str(path))
    stated = [n for v in precision.stated_names([str(path)]).values() for n in v]
    return [f.value for f in ctx.get("precision")], precision.weights(MODEL, assume=True, stated=stated)


def test_native_bf16_in_a_guides_sentence_states_the_precision(tmp_path):
    facts, w = _facts(
        tmp_path, "This guide describes how to run Seed-OSS-36B models with vLLM and native BF16 precision."
    )
    assert facts == ["BF16"]
    assert w.precision == "bf16" and w.source == "file"


def test_native_fp8_weights_state_fp8(tmp_path):
    facts, _ = _facts(tmp_path, 'description: "Native FP8 weights, fits on one GPU"')
    assert "FP8" in facts


def test_a_sentence_without_native_states_nothing(tmp_path):
    facts, w = _facts(tmp_path, "This guide describes how to run Seed-OSS-36B models with vLLM.")
    assert facts == [] and w.source == "assumed"


def test_a_native_precision_set_beside_another_is_no_statement(tmp_path):
    facts, _ = _facts(tmp_path, "FP8 halves the memory compared to native BF16.")
    assert "BF16" not in facts


@pytest.mark.parametrize(
    "line",
    ["* **Quant mode**: native BF16 &rarr; post-quantised FP8", "This guide runs DeepSeek-R1 with native FP8 or FP4."],
)
def test_a_native_precision_beside_another_on_its_line_is_no_statement(tmp_path, line):
    facts, w = _facts(tmp_path, line)
    assert facts == [] and w.source == "assumed"
