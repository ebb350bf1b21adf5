"""extra_settings joins each `name=value` llama-bench printed with `, `. A value may hold a comma of its
own (ik_llama.cpp's `ser` column prints `4,1`, smart expert reduction's two numbers): it stays one value,
where splitting at every comma made the page say 'ser 4'. The `env VAR=...` part a command's prefix
adds is still its own."""

from __future__ import annotations

from benchbook.analysis import bandwidth


def test_a_values_own_comma_is_kept():
    assert bandwidth.setting_pairs("amb=512, ser=4,1, ts=1.00") == {"amb": "512", "ser": "4,1", "ts": "1.00"}


def test_the_env_part_and_plain_settings_still_part():
    pairs = bandwidth.setting_pairs("mmap=0, env GGML_CUDA_ENABLE_UNIFIED_MEMORY=1")
    assert pairs == {"mmap": "0", "env GGML_CUDA_ENABLE_UNIFIED_MEMORY": "1"}
    assert bandwidth.setting_pairs("sm=row, nkvo=1") == {"sm": "row", "nkvo": "1"}
