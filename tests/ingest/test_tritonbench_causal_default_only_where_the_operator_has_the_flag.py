"""`--causal` is an argument of some tritonbench operators only (flash_attention's and
blackwell_attentions' `parse_op_args`, a flag that defaults to off): a command of theirs without it ran
non-causal attention. decoding_attention has no such argument and fixes its mask in code
(`CAUSAL = True`), so its command without the flag says nothing of the mask: never "non-causal"."""

from __future__ import annotations

from benchbook import ingest

DECODING = """
  (Batch, SeqLenQ, SeqLenKV, MaxLenKV, HeadQ, HeadKV, HeadD)    fa2_kvcache-latency    triton_splitk-latency
------------------------------------------------------------  ---------------------  -----------------------
                               (4, 1, 1024, 8192, 8, 1, 128)               0.028192                 0.139168
"""

BLACKWELL = """
  (Batch, Heads, SeqLen, Dhead)    sdpa-latency    flash_v2-latency
-------------------------------  --------------  ------------------
             (4, 48, 1024, 64)        0.24512             0.236768
"""


def _causal(tmp_path, command: str, table: str) -> set:
    f = tmp_path / "bench.md"
    f.write_text(f"$ {command}\n{table}")
    return set(ingest.read(f)["causal"].astype(object).where(lambda s: s.notna(), None))


def test_decoding_attention_without_the_flag_states_no_mask(tmp_path):
    assert _causal(tmp_path, "python run.py --op decoding_attention --num_inputs 1", DECODING) == {None}


def test_blackwell_attentions_without_the_flag_ran_non_causal(tmp_path):
    assert _causal(tmp_path, "python run.py --op blackwell_attentions", BLACKWELL) == {"non-causal"}


def test_blackwell_attentions_with_the_flag_ran_causal(tmp_path):
    assert _causal(tmp_path, "python run.py --op blackwell_attentions --causal", BLACKWELL) == {"causal"}
