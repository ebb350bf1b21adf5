"""How a model is split over the several GPUs a sweep row spans, by the absence rule (`batch.split_said`):
a split the rest of the file states sets the roofs (tensor parallel: the GPUs' summed peaks; accelerate's
device_map: one GPU's), a line that speaks of one unread is named, and only a file with neither is said not
to say how the model is split."""

from __future__ import annotations

import pytest

from benchbook.chapter import setup
from benchbook.topics import batch_saturation as topic

BLOOM = "tests/fixtures/hf-batch-sweep/hf_blog_pr463_bloom176_int8_bf16_ms_per_token_batch_1_8_32_excerpt.md"
A100 = 2039.0  # A100-SXM4-80GB's GB/s, the hardware table's


def _run(tmp_path, line: str):
    """The BLOOM table's header and its 8xA100 80GB row (one GPU named, so the `gpu` parameter places it),
    with `line` below."""
    path = tmp_path / "bloom.md"
    rows = open(BLOOM, encoding="utf-8").read().splitlines()
    text = "\n".join([*rows[:2], next(r for r in rows if "8xA100 80GB" in r)])
    path.write_text(text + ("\n\n" + line + "\n" if line else "\n"), encoding="utf-8")
    r = topic.analyse(setup("batch_saturation", {"source": str(path), "gpu": "A100-SXM4-80GB"}))
    return r, topic.page(r).markdown["device"]


def _peak(r, gpu: str) -> float:
    return float(r.roofline.loc[r.roofline["gpu"] == gpu, "peak_gb_s"].iloc[0])


def test_device_map_runs_the_gpus_in_turn_so_one_gpus_roofs(tmp_path):
    r, words = _run(tmp_path, 'm = AutoModelForCausalLM.from_pretrained("bigscience/bloom", device_map="auto")')
    assert _peak(r, "8xA100 80GB") == pytest.approx(A100)
    assert "Line 5 states how the model is split over the GPUs a run spans" in words
    assert "one GPU at a time" in words and "does not say how the model is split" not in words


def test_a_tensor_parallel_size_works_them_together_so_their_summed_roofs(tmp_path):
    r, words = _run(tmp_path, "python bloom-ds-inference.py --tensor_parallel 8 --batch_size 32")
    assert _peak(r, "8xA100 80GB") == pytest.approx(8 * A100)
    assert "as tensor parallel does, so a run's roofs are its GPUs' summed peaks" in words


def test_a_line_that_speaks_of_a_split_without_one_is_named(tmp_path):
    r, words = _run(tmp_path, "These runs used DeepSpeed.")
    assert r.roofline["peak_gb_s"].isna().all()
    assert "line 5 speaks of how the model is split over them (`These runs used DeepSpeed.`)" in words
    assert "does not say how the model is split" not in words


def test_only_a_file_with_no_sign_of_a_split_is_said_not_to_state_it(tmp_path):
    r, words = _run(tmp_path, "")
    assert r.roofline["peak_gb_s"].isna().all()
    assert "the input does not say how the model is split over them" in words
