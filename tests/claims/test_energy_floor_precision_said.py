"""The weights-read floor's bytes per weight go through the absence rule (`energy.facts_said`): a
precision the rest of the file states is used with its line, a line that speaks of one unread is named,
and "the file does not give the weights' precision" is said only where neither is."""

from __future__ import annotations

import json

import pytest

from benchbook import ingest
from benchbook.analysis import energy as energy_analysis
from benchbook.claims import energy as energy_claims
from benchbook.presentation import wording

NAME = "acme__Unlisted-9000__lm-arena-chat.json"


def _floor(tmp_path, said: dict, j_per_token: float = 8.0, batch: bool = True):
    conf = {
        "gpu_model": "B200",
        "num_gpus": 1,
        "max_num_seqs": 8,
        "energy_per_token_joules": j_per_token,
        "energy_per_request_joules": 800.0 * j_per_token,
        "avg_power_watts": 900.0 * j_per_token / 8.0,
        "output_throughput_tokens_per_sec": 450.0,
        "avg_output_len": 800.0,
    }
    obj = {"model_id": "acme/Unlisted-9000", "task": "lm-arena-chat", "activated_params_billions": 9.0}
    obj |= {"total_params_billions": 9.0, "configurations": [conf]}
    f = tmp_path / NAME
    f.write_text(json.dumps(obj, indent=2))
    runs = energy_analysis.runs(ingest.read(f))
    gpu = runs[runs["scope"] == "gpu"].iloc[0]
    gpu = gpu if batch else gpu.copy().where(gpu.index != "batch_size")
    c = energy_claims.floor(gpu, 0, energy_analysis.DEFAULT_BYTES_PER_PARAM, said={NAME: said})
    return wording.word("perf_per_watt", c)


def test_a_precision_stated_beside_the_rows_sets_the_bytes_with_its_line(tmp_path):
    said = {"precision_status": "stated", "precision_value": "FP8", "precision_line": 3, "precision_text": "dtype: FP8"}
    c = _floor(tmp_path, said)
    assert c.evidence["bytes_source"] == "precision" and c.evidence["weights_gb"] == pytest.approx(9.0)
    assert "as line 3 states (`dtype: FP8`)" in c.text and "does not give" not in c.text


def test_a_line_that_speaks_of_a_precision_unread_is_named(tmp_path):
    said = {"precision_status": "unread", "precision_line": 2, "precision_text": "quantized, see the blog"}
    c = _floor(tmp_path, said)
    assert c.evidence["bytes_source"] == "assumed" and c.evidence["weights_gb"] == pytest.approx(18.0)
    assert "as line 2 speaks of a precision (`quantized, see the blog`) without one" in c.text
    assert "does not give the weights' precision" not in c.text


def test_only_an_absent_precision_is_said_not_given(tmp_path):
    c = _floor(tmp_path, {"precision_status": "absent"})
    assert "the bytes per parameter are assumed, the file does not give the weights' precision" in c.text


def test_precision_said_reads_each_file_by_its_name(tmp_path):
    f = tmp_path / "run.md"
    f.write_text("# run\n\nQuantization: fp8\n")
    said = energy_analysis.facts_said([f])["run.md"]
    assert (said["precision_status"], said["precision_value"], said["precision_line"]) == ("stated", "fp8", 3)


@pytest.mark.parametrize(
    ("said", "words"),
    [
        (
            {"batch_status": "unread", "batch_line": 5, "batch_text": "--max-num-seqs $N"},
            "several sequences per step (line 5 speaks of a batch size (`--max-num-seqs $N`) without one",
        ),
        (
            {"batch_status": "stated", "batch_value": 64, "batch_line": 2, "batch_text": "batch: 64"},
            "several sequences per step (line 2 states a batch size of 64 (`batch: 64`) that no row of the file carries)",
        ),
        ({"batch_status": "absent"}, "several sequences per step (the file does not say how many)"),
    ],
)
def test_a_floor_above_the_measured_energy_names_what_the_file_says_of_the_batch(tmp_path, said, words):
    c = _floor(tmp_path, {"precision_status": "absent", **said}, j_per_token=0.05, batch=False)
    assert c.evidence["batch_size"] is None and c.evidence["ratio"] < 1
    assert words in c.text
    assert said["batch_status"] == "absent" or "does not say how many" not in c.text
