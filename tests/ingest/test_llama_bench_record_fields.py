"""A JSON/CSV/SQL record's fields that have no column of their own (split_mode, no_kv_offload...)
reach extra_settings by their markdown names where some record of the file sets one off llama-bench's
default, so two records that differ only there are two settings, never one setting's repeats."""

from __future__ import annotations

import json

import pandas as pd

from benchbook import ingest
from benchbook.analysis import bandwidth, prefill


def _record(split_mode: str, avg_ts: float, **more) -> dict:
    return {
        "build_commit": "c5a7788",
        "build_number": 8233,
        "backends": "CUDA",
        "gpu_info": "NVIDIA GeForce RTX 4090",
        "model_filename": "m.gguf",
        "model_type": "qwen3 8B Q6_K",
        "model_size": 6206523392,
        "model_n_params": 7568416768,
        "n_gpu_layers": 99,
        "split_mode": split_mode,
        "main_gpu": 0,
        "no_kv_offload": False,
        "use_mmap": True,
        "tensor_split": "0.00",
        "n_prompt": 0,
        "n_gen": 128,
        "n_depth": 0,
        "avg_ts": avg_ts,
        "stddev_ts": 0.1,
        **more,
    }


def _read(tmp_path, records) -> pd.DataFrame:
    path = tmp_path / "r.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
    return ingest.read(path, tool="llama-bench")


def test_records_that_differ_only_in_split_mode_are_a_sweep_of_it(tmp_path):
    df = _read(tmp_path, [_record("none", 35.36), _record("layer", 11.65)])
    assert sorted(df["extra_settings"].unique()) == ["sm=layer", "sm=none"]
    rows = bandwidth.generation_rows(df)
    assert len(rows) == 2 and rows["repeats"].tolist() == [1, 1]
    (s,) = prefill.sweeps(rows)
    assert s["setting"] == "sm" and [v[:2] for v in s["values"]] == [("none", 35.36), ("layer", 11.65)]


def test_records_at_llama_bench_defaults_add_no_setting(tmp_path):
    df = _read(tmp_path, [_record("layer", 35.36), _record("layer", 35.30, no_kv_offload=False)])
    assert df["extra_settings"].isna().all()
