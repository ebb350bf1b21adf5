"""The weights-read floor of an ML.ENERGY configuration uses the model size the file states
(`activated_params_billions`, `total_params_billions`, `weight_precision`) where the model table
lacks the model: a real DeepSeek-V3.1 file stating 671B total and 37B active in fp8 was told 'the
model's size is not known'. A file that states no size keeps the floor withheld."""

from __future__ import annotations

import json

from benchbook import ingest
from benchbook.analysis import energy as energy_analysis
from benchbook.claims import energy as energy_claims


def _file(tmp_path, **top) -> dict:
    conf = {
        "gpu_model": "B200",
        "num_gpus": 8,
        "max_num_seqs": 8,
        "energy_per_token_joules": 8.0,
        "energy_per_request_joules": 6400.0,
        "avg_power_watts": 3600.0,
        "output_throughput_tokens_per_sec": 450.0,
        "avg_output_len": 800.0,
        "parallelization": {"tensor_parallel": 1, "expert_parallel": 8, "data_parallel": 1},
    }
    obj = {"model_id": "acme/Unlisted-MoE-9000", "task": "lm-arena-chat", "weight_precision": "fp8", **top}
    obj["configurations"] = [conf]
    f = tmp_path / "acme__Unlisted-MoE-9000__lm-arena-chat.json"
    f.write_text(json.dumps(obj, indent=2))
    runs = energy_analysis.runs(ingest.read(f))
    gpu = runs[runs["scope"] == "gpu"].iloc[0]
    return energy_claims.floor(gpu, 0, energy_analysis.DEFAULT_BYTES_PER_PARAM).evidence | {
        "status": energy_claims.floor(gpu, 0, energy_analysis.DEFAULT_BYTES_PER_PARAM).status
    }


def test_the_stated_active_size_and_precision_give_the_floor(tmp_path):
    ev = _file(tmp_path, activated_params_billions=37.0, total_params_billions=671.0, architecture="MoE")
    assert ev["active_params_b"] == 37.0 and ev["params_b"] == 671.0
    assert ev["weights_gb"] == 37.0  # fp8: one byte per weight
    assert ev["floor_j"] == 37.0 / 8000 * 1000  # the B200's bandwidth and rated power


def test_a_file_stating_no_size_keeps_the_floor_withheld(tmp_path):
    ev = _file(tmp_path)
    assert ev["weights_gb"] is None and ev["status"] == "withheld"
