"""SGLang bench_serving copies the server's `/get_server_info` into each result object as
`server_info`. Older servers answer with their flat args (`model_path` at the top); newer ones nest
one args object per scheduler under `internal_states`, and a `--pd-separated` router answers with a
list per role (`prefill`, `decode`). The model is read from whichever shape the object has, and only
when every args object that names a model names the same one (synthetic objects, values made up)."""

from __future__ import annotations

import json

from benchbook.ingest import sglang_serving as s

BASE = {
    "tag": "pd_c8",
    "backend": "sglang",
    "dataset_name": "random",
    "request_rate": float("inf"),
    "max_concurrency": 8,
    "duration": 10.0,
    "completed": 20,
    "total_input_tokens": 2000,
    "total_output_tokens": 1000,
    "total_output_tokens_retokenized": 1000,
    "request_throughput": 2.0,
    "output_throughput": 100.0,
}


def _models(server_info: dict) -> set:
    obj = {**BASE, "server_info": server_info}
    return set(s.parse(json.dumps(obj) + "\n", "r.jsonl").table["model"])


def test_flat_server_args_name_the_model():
    assert _models({"model_path": "Qwen/Qwen3-8B", "tp_size": 1}) == {"Qwen/Qwen3-8B"}


def test_pd_separated_lists_per_role_name_the_model():
    args = {"model_path": "Qwen/Qwen2.5-3B-Instruct", "tp_size": 1}
    info = {
        "internal_states": [{**args, "disaggregation_mode": "decode"}],
        "prefill": [{**args, "disaggregation_mode": "prefill"}],
        "decode": [{**args, "disaggregation_mode": "decode"}],
    }
    assert _models(info) == {"Qwen/Qwen2.5-3B-Instruct"}


def test_roles_that_disagree_name_no_model():
    info = {"prefill": [{"model_path": "org/model-a"}], "decode": [{"model_path": "org/model-b"}]}
    models = _models(info)
    assert models and all(m is None or m != m for m in models)  # None (or NaN in the table): unnamed
