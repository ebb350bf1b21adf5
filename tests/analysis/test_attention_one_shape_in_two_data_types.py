"""score_mod.py times one shape in several data types (`torch.bfloat16`, then `torch.float16`, each a row of
its table: pytorch PR 128678's flex decoding sweep): each row is its own measurement, kept with its own data
type and named with it, never joined into one whose numbers are the last row's; an input timed in one data
type keeps its plain name."""

from __future__ import annotations

import pandas as pd

from benchbook import ingest
from benchbook.analysis import attention_tritonbench as tb

HEAD = (
    "| shape                   | score_mod   | dtype          |   fwd_eager_time |   fwd_compiled_time |   GFlops/s |\n"
    "|-------------------------|-------------|----------------|------------------|---------------------|------------|\n"
)
BF16 = (
    "| (128, 1, 16, 128, 512)  | noop        | torch.bfloat16 |           38.677 |              37.493 |  14375.354 |\n"
)
FP16 = (
    "| (128, 1, 16, 128, 512)  | noop        | torch.float16  |           39.186 |              37.414 |  14405.349 |\n"
)


def _table(tmp_path, rows: str):
    f = tmp_path / "flex_decoding.md"
    f.write_text(HEAD + rows)
    return tb.table(ingest.read(f))


def test_two_data_types_of_one_shape_are_two_cases_each_with_its_own_numbers(tmp_path):
    t = _table(tmp_path, BF16 + FP16)
    compiled = t[t["backend"] == "compiled"].set_index("dtype")
    assert round(compiled.loc["bf16", "latency_ms"] * 1e3, 3) == 37.493
    assert round(compiled.loc["fp16", "latency_ms"] * 1e3, 3) == 37.414
    assert set(t["input"]) == {"noop (128, 1, 16, 128, 512), bf16", "noop (128, 1, 16, 128, 512), fp16"}
    assert len(tb.fastest(t)) == 2


def test_one_data_type_keeps_the_plain_input_name(tmp_path):
    t = _table(tmp_path, BF16)
    assert set(t["input"]) == {"noop (128, 1, 16, 128, 512)"}
    assert round(t.loc[t["backend"] == "eager", "latency_ms"].iloc[0] * 1e3, 3) == 38.677


def test_backends_each_in_one_type_at_one_shape_stay_one_case_compared():
    # an FP8 kernel beside a bf16 reference at one shape (flash-attention's FP8 script): one input, compared
    rows = [
        dict(tool=tb.FLASH, source="f.md", input="seqlen=2048", backend=b, dtype=d, metric="latency", value=v, line=3)
        for b, d, v in (("Pytorch", "bf16", 1.0), ("Flash3", "fp8", 0.2))
    ]
    t = tb.table(pd.DataFrame(rows).assign(op=None, causal="non-causal", **{"pass": "fwd"}))
    assert set(t["input"]) == {"seqlen=2048"}
    assert tb.fastest(t)["fastest"].tolist() == ["Flash3"]
