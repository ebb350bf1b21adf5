"""A sweep row over several GPUs whose split the output does not state (a BLOOM write-up's `4xA100 80GB`):
its rate is 1000 / the printed ms per token, it states no tokens per sequence, and no peak is its own, so
every share of a peak is withheld, with the reason; a bigcode row keeps its printed rate and its 100 tokens,
and a device count from a stated TP keeps its summed roofs."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from benchbook.analysis import batch, roofline
from benchbook.claims.rules import no_device_reason
from benchbook.ingest import hf_batch

TABLE = (
    "| Model | Number of parameters | Hardware | Time per token in milliseconds for Batch Size 1 "
    "| Time per token in milliseconds for Batch Size 8 |\n| --- | --- | --- | --- | --- |\n"
    "| BLOOM-176-bf16 | 176B | 8xA100 80GB | 250 | 40 |\n"
)
BIGCODE = (
    "A100 80GB\n\ntokens/sec | msec/token\n\n| batch_size | bf16 |\n|---|---|\n| 1 | 10 \\| 100 |\n| 8 | 40 \\| 25 |\n"
    "\nsec\n\n| batch_size | bf16 |\n|---|---|\n| 1 | 10 |\n| 8 | 20 |\n"
)


def _sweep(text):
    return batch.sweep(hf_batch.parse(text, "b.md").table)


def test_the_rate_is_the_inverse_of_the_ms_per_token_and_no_tokens_per_sequence_are_assumed():
    sw = _sweep(TABLE)
    assert sw["throughput_tok_s"].tolist() == [pytest.approx(4.0), pytest.approx(25.0)]
    assert sw["new_tokens"].isna().all() and set(sw["split"]) == {batch.SPLIT_UNSTATED}
    assert batch.split_unstated(sw) == {"device_split": ["8xA100 80GB"]}


def test_a_bigcode_table_keeps_its_printed_rate_its_tokens_and_its_one_gpu():
    sw = _sweep(BIGCODE)
    assert sw["throughput_tok_s"].tolist() == [10.0, 40.0] and set(sw["new_tokens"]) == {100.0}
    assert set(sw["split"]) == {""} and batch.split_unstated(sw) == {}


def test_no_share_of_a_peak_for_gpus_split_in_a_way_not_stated():
    peaks = roofline.of_device(roofline.hardware.device("A100-SXM4-80GB"), "parameter")
    rl = batch.step_roofline(_sweep(TABLE), {"BLOOM-176": 176.0}, peaks)
    assert rl["peak_tflops"].isna().all() and rl["compute_fraction"].isna().all()
    assert rl["achieved_tflops"].iloc[-1] == pytest.approx(2 * 176e9 * 25.0 / 1e12)


def test_a_stated_tp_keeps_its_devices_summed_roofs():
    sw = _sweep(BIGCODE).assign(devices=2.0, split="")
    peaks = roofline.of_device(roofline.hardware.device("A100-SXM4-80GB"), "parameter")
    rl = batch.step_roofline(sw, {"": 1.0}, peaks)
    assert np.allclose(rl["peak_gb_s"], 2 * peaks.total_bandwidth_gb_s)


def test_the_reason_names_the_runs_and_both_splits():
    why = no_device_reason({"device_split": ["4xA100 80GB", "8xA100 80GB"]})
    assert "4xA100 80GB and 8xA100 80GB" in why and "tensor parallel" in why and "device_map" in why


def test_a_split_the_rest_of_the_file_states_fills_only_the_rows_whose_table_did_not():
    sw = pd.DataFrame({"split": [batch.SPLIT_UNSTATED, "tensor"], "batch_size": [1, 2]})
    said = {"split_status": "stated", "split_value": "in turn"}
    assert batch.with_split(sw, said)["split"].tolist() == ["in turn", "tensor"]
    unread = {"split_status": "unread", "split_value": None}
    assert batch.with_split(sw, unread)["split"].tolist() == [batch.SPLIT_UNSTATED, "tensor"]


def test_a_tensor_parallel_size_above_one_states_a_tensor_split_and_two_splits_are_unread(tmp_path):
    tp = tmp_path / "tp.sh"
    tp.write_text("python bench.py --tensor-parallel-size 4\n")
    assert batch.split_said([tp]) == {
        "split_status": "stated",
        "split_value": "tensor",
        "split_line": 1,
        "split_text": "python bench.py --tensor-parallel-size 4",
    }
    # the other way: two splits, neither tied to the runs, are a sign read as no split; no sign is absent
    two = tmp_path / "two.sh"
    two.write_text("./llama-bench -m m.gguf -sm layer\n./llama-bench -m m.gguf -sm row\n")
    said = batch.split_said([two])
    assert said == {"split_status": "unread", "split_line": 1, "split_text": "./llama-bench -m m.gguf -sm layer"}
    none = tmp_path / "none.sh"
    none.write_text("./llama-bench -m m.gguf\n")
    assert batch.split_said([none]) == {"split_status": "absent"}
