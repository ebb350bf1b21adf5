"""`N GPUs` in a sentence is a count of the run's devices, except where N is a GeForce card's model number
in the hardware table: `Running on 2x9115, 768gb ram, 3090 gpu` names one RTX 3090, not 3090 GPUs. Other
numbers before `GPU` stay counts, large ones included."""

from __future__ import annotations

from benchbook import config
from benchbook.ingest import context


def _counts(line: str) -> list:
    return [f.value for f in context.read([line]).facts if f.name == "device_count"]


def test_a_cards_model_number_before_gpu_is_no_count():
    assert _counts("Running on 2x9115, 768gb ram, 3090 gpu") == []
    assert _counts("Running on a 4090 GPU") == []


def test_other_numbers_before_gpus_are_counts():
    assert _counts("Ran on 8 GPUs.") == [8]
    assert _counts("a cluster of 1024 GPUs") == [1024]


def test_the_bisect_write_up_counts_no_3090_devices():
    f = (
        config.FIXTURES_DIR
        / "llama-bench"
        / "ik_llama_issue490_2x_epyc_9115_rtx3090_deepseek_v3_iq4_k_r4_four_build_bisect_build_line_after_table.md"
    )
    facts = context.read(f.read_text().splitlines()).facts
    assert 3090 not in [x.value for x in facts if x.name == "device_count"]
