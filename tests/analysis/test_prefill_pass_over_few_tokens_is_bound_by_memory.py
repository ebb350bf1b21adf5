"""A prompt pass over few tokens uses each weight it reads for 2 FLOPs per token, so its FLOPs per byte of
weights (2 x tokens / bytes per weight: the file size over the parameters, else 1 bit, the fewest any weight
is stored in) can sit left of the device's ridge; there the memory, not the compute, bounds it and its share
of the compute peak is withheld (`prefill.pass_intensity`). A pass of enough tokens stays against the compute
roof, and a micro-batch caps the tokens one pass holds."""

from __future__ import annotations

import pandas as pd
import pytest

from benchbook import ingest
from benchbook.analysis import prefill
from benchbook.claims import bandwidth as claims

HEAD = "| model | size | params | backend | ngl | n_ubatch | test | t/s |\n| --- | ---: | ---: | --- | --: | --: | ---: | ---: |\n"


def _point(tmp_path, test, ubatch=512, size="3.56 GiB"):
    path = tmp_path / "t.md"
    row = f"| llama 7B Q4_0 | {size} | 7.00 B | CUDA | 99 | {ubatch} | {test} | 100.00 ± 1.00 |\n"
    path.write_text(HEAD + row, encoding="utf-8")
    return prefill.points(prefill.prompt_rows(ingest.read(path, tool="llama-bench")), gpu="RTX-4090").iloc[0]


def test_a_pass_over_a_few_tokens_is_left_of_the_ridge_and_sets_no_compute_share(tmp_path):
    p = _point(tmp_path, "pp8")  # 3.56 GiB / 7e9 = 0.546 B a weight: 2 x 8 / 0.546 = 29 FLOP/B < 165 / 1.008 = 164
    assert p["no_share"] == "below_ridge" and pd.isna(p["share"])
    assert p["max_intensity"] == pytest.approx(2 * 8 / (3.56 * 1024**3 / 7e9))
    c = claims.prefill(p, "pp_1")
    assert c.status == "withheld" and "the memory, not the compute, bounds it" in c.reason
    assert "8 prompt tokens" in c.reason and "the file size over the parameters" in c.reason


def test_a_pass_of_enough_tokens_keeps_its_compute_share(tmp_path):
    p = _point(tmp_path, "pp512")  # 2 x 512 / 0.546 = 1,875 FLOP/B, right of the ridge
    assert p["no_share"] is None and p["share"] > 0
    assert claims.prefill(p, "pp_1").status == "shown"


def test_a_micro_batch_caps_the_tokens_of_one_pass(tmp_path):
    p = _point(tmp_path, "pp512", ubatch=32)  # 2 x 32 / 0.546 = 117 FLOP/B: left of the ridge again
    assert p["tokens_per_pass"] == 32 and p["no_share"] == "below_ridge"


def test_with_no_file_size_the_fewest_bytes_a_weight_takes_keep_the_bound_an_upper_one(tmp_path):
    one = _point(tmp_path, "pp1", size="-")  # 2 x 1 / (1/8) = 16 FLOP/B, left of the ridge whatever the precision
    assert one["max_intensity"] == pytest.approx(16) and one["no_share"] == "below_ridge"
    many = _point(tmp_path, "pp64", size="-")  # up to 1,024 FLOP/B: it may be compute-bound, so not withheld for this
    assert many["no_share"] is None
