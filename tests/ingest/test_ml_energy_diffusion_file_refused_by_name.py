"""The ML.ENERGY leaderboard's diffusion tasks (text-to-image, text-to-video) give energy per image or video
and no tokens: such a file is the tool's, refused in one sentence that says so (not "no known tool output");
a file with energy per token beside them is read as before."""

from __future__ import annotations

import json

import pytest

from benchbook import ingest
from benchbook.ingest import ParseError, ml_energy

IMAGE = {
    "activated_params_billions": 12.0,
    "configurations": [
        {
            "avg_power_watts": 861.2,
            "batch_size": 1,
            "energy_per_image_joules": 6678.8,
            "gpu_model": "B200",
            "num_gpus": 1,
        }
    ],
    "model_id": "black-forest-labs/FLUX.1-dev",
    "task": "text-to-image",
}


def test_a_text_to_image_file_is_ml_energys_and_refused_in_one_sentence(tmp_path):
    f = tmp_path / "flux.json"
    f.write_text(json.dumps(IMAGE, indent=2))
    assert ingest.detect(f.read_text()) == [ml_energy.NAME]
    with pytest.raises(ParseError, match="an ML.ENERGY text-to-image file: energy per image, no tokens"):
        ingest.read(f)


def test_a_file_with_energy_per_token_is_still_read(tmp_path):
    tokens = dict(IMAGE, task="gpqa")
    tokens["configurations"] = [dict(IMAGE["configurations"][0], energy_per_token_joules=1.5, max_num_seqs=8)]
    f = tmp_path / "model.json"
    f.write_text(json.dumps(tokens, indent=2))
    t = ingest.read(f)
    assert "energy_per_output_token" in set(t["metric"])
