"""ML.ENERGY leaderboard-v2's per-configuration JSON (aggregate_leaderboard_data.py): a run spans TP x PP
GPUs, its energy per request is all of theirs at steady state, Max BS is the batch cap (max_num_seqs x PP)."""

from __future__ import annotations

import json

import pytest

from benchbook import config
from benchbook.ingest import ml_energy

FIX = config.FIXTURES_DIR / "ml-energy"


def _config(**over) -> str:
    d = {
        "Model": "mistralai/Mixtral-8x22B-Instruct-v0.1",
        "GPU": "NVIDIA A100-SXM4-40GB",
        "TP": 8,
        "PP": 2,
        "Energy/req (J)": 540.0,
        "Avg TPOT (s)": 0.47,
        "Token tput (tok/s)": 1411.7,
        "Avg Output Tokens": 389.4,
        "Avg BS (reqs)": 1018.1,
        "Max BS (reqs)": 1024,
    }
    d.update(over)
    return json.dumps(d, indent=2)


def test_the_run_spans_tp_times_pp_gpus_at_its_batch_cap_and_its_energy_is_theirs():
    p = ml_energy.parse(_config(), "bs512+tp8+pp2.json")
    t = p.table.set_index("metric")
    assert set(p.table["device_count"]) == {16.0} and set(p.table["batch_size"]) == {1024.0}
    assert set(p.table["interval"]) == {"steady_state"}
    assert (t.loc["energy_per_request", "value"], t.loc["energy_per_request", "scope"]) == (540.0, "gpu")
    assert t.loc["energy_per_request", "note"] == "all 16 GPUs together"
    assert t.loc["output_tokens_per_request", "value"] == pytest.approx(389.4)
    assert [r.rsplit(" ", 1)[0] for r in p.rejected["text"]] == ["Avg TPOT (s)", "Avg BS (reqs)"]


def test_one_stage_spans_its_tp_gpus_only():
    p = ml_energy.parse(_config(PP=1, **{"Max BS (reqs)": 128}), "bs128+tp4+pp1.json")
    assert set(p.table["device_count"]) == {8.0} and set(p.table["batch_size"]) == {128.0}
    single = ml_energy.parse(_config(TP=1, PP=1), "bs1024+tp1+pp1.json")
    assert set(single.table["device_count"]) == {1.0}


def test_the_real_files_are_read_with_their_gpus():
    llama = ml_energy.parse((FIX / "leaderboard_v2_llama31_70b_a100_bs128_tp8_pp1.json").read_text(), "l.json")
    mixtral = ml_energy.parse((FIX / "leaderboard_v2_mixtral_8x22b_a100_bs512_tp8_pp2.json").read_text(), "m.json")
    assert set(llama.table["device_count"]) == {8.0} and set(mixtral.table["device_count"]) == {16.0}
    assert ml_energy.sniff(_config()) and not ml_energy.sniff(_config().replace("Energy/req (J)", "Energy (J)"))
