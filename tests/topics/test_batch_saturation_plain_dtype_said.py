"""An offline run whose weights' precision nothing states, where the file states an unquantized dtype
(`dtype = bfloat16`), is said to have that dtype, which may be only the activations' of a quantized
checkpoint; another stated precision is said not to be taken as the weights'."""

from __future__ import annotations

from benchbook.topics import batch_saturation as topic


def test_a_stated_bf16_is_plain_and_a_stated_mixed_precision_is_not(tmp_path):
    plain, other = tmp_path / "plain.md", tmp_path / "other.md"
    plain.write_text("- dtype = bfloat16\n", encoding="utf-8")
    other.write_text("- quantization: mixed\n", encoding="utf-8")
    said = topic._precision_said([plain, other])
    assert said["plain.md"]["precision_status"] == "stated" and said["plain.md"]["precision_plain"] is True
    assert said["other.md"]["precision_plain"] is False
