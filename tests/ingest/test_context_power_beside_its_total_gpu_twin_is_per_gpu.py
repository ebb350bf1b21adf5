"""InferenceX writes `avg_total_gpu_power_w` (every GPU's energy over the run's window, over that window) and
`avg_power_w` as that total divided by the GPUs observed (utils/aggregate_power.py): beside its twin a power key is
one GPU's, the twin and `total_gpu_energy_j` all GPUs'; alone, `avg_power_w` states no scope."""

from __future__ import annotations

from benchbook.ingest import context

POINT = [
    "{",
    '  "num_gpus": 8,',
    '  "avg_power_w": 295.666,',
    '  "avg_total_gpu_power_w": 2365.325,',
    '  "total_gpu_energy_j": 8609784.934',
    "}",
]


def readings(lines: list[str]) -> list[tuple[str, float, str]]:
    c = context.read(lines)
    return [(f.name, f.value, f.scope) for f in (*c.get("power"), *c.get("energy"))]


def test_a_power_beside_its_total_gpu_twin_is_per_gpu_and_the_twin_all_gpus():
    assert readings(POINT) == [
        ("power", 295.666, "per GPU"),
        ("power", 2365.325, "all GPUs"),
        ("energy", 8609784.934, "all GPUs"),
    ]


def test_the_same_key_without_its_twin_states_no_scope():
    alone = [x for x in POINT if "total_gpu" not in x]
    assert readings(alone) == [("power", 295.666, "scope not stated")]
