"""ML.ENERGY's v2 `Energy per request (J)` is one Zeus window over every GPU the client sees (`#GPUs`), divided by
the requests completed (benchmark_client.py): the page says the figure is those GPUs together; a run on one GPU
says nothing of a sum, nor does a tool whose definition sums nothing (a file without the note)."""

from __future__ import annotations

import json

from benchbook import ingest
from benchbook.analysis import energy
from benchbook.claims import energy as ce
from benchbook.ingest import energy as contract
from benchbook.presentation import wording

RUN = {
    "Model": "mistralai/Mixtral-8x7B-Instruct-v0.1",
    "Backend": "vllm",
    "GPU model": "NVIDIA A100-SXM4-40GB",
    "#GPUs": 4,
    "Request rate": 8.0,
    "Requests per second": 2.9,
    "Latency per request (s)": 66.3,
    "Energy per request (J)": 168.9,
}


def _claim(tmp_path, **over):
    f = tmp_path / "rate8.00.json"
    f.write_text(json.dumps({**RUN, **over}, indent=2), encoding="utf-8")
    row = energy.runs(ingest.read(f)).iloc[0]
    return wording.word("perf_per_watt", ce.per_run(row, 1))


def test_the_energy_of_four_gpus_is_said_to_be_theirs_together(tmp_path):
    c = _claim(tmp_path)
    assert c.evidence["gpus_together"] == 4.0
    assert "168.9 J per request, measured GPU only (the 4 GPUs together)" in c.text


def test_one_gpu_says_no_sum(tmp_path):
    c = _claim(tmp_path, **{"#GPUs": 1})
    assert c.evidence["gpus_together"] is None and "together" not in c.text


def test_the_note_reads_back_its_count_and_nothing_else():
    assert contract.summed(contract.SUMMED.format(16.0)) == 16
    assert contract.summed("mean over requests; printed in s") is None and contract.summed(None) is None
