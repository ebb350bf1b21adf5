"""ROCm reports every GPU as the ISA that `HSA_OVERRIDE_GFX_VERSION=M.m.s` forces (gfx{M}{m:x}{s:x}),
whatever the chip: a Radeon 890M (gfx1150) run with `export HSA_OVERRIDE_GFX_VERSION=11.5.1` prints
`Device 0: AMD Radeon Graphics, gfx1151`, Strix Halo's target. A device line's gfx target that the file
forces names the override, not the part; a target the file does not force still names the part."""

from __future__ import annotations

from benchbook import ingest
from benchbook.ingest import llama_bench

BLOCK = """```
ggml_cuda_init: found 1 ROCm devices:
  Device 0: AMD Radeon Graphics, gfx1151 (0x1151), VMM: no, Wave Size: 32
| model                          |       size |     params | backend    | ngl |          test |                  t/s |
| ------------------------------ | ---------: | ---------: | ---------- | --: | ------------: | -------------------: |
| qwen2 7B Q4_K - Medium         |   4.36 GiB |     7.62 B | ROCm       |  99 |         tg128 |         17.49 ± 0.01 |
```
"""


def _gpus(tmp_path, preamble: str) -> set:
    f = tmp_path / "bench.md"
    f.write_text(preamble + BLOCK)
    return set(ingest.read(f, tool="llama-bench")["gpu"])


def test_a_forced_target_is_not_the_chip(tmp_path):
    assert _gpus(tmp_path, "```\nexport HSA_OVERRIDE_GFX_VERSION=11.5.1\n```\n\n") == {"AMD Radeon Graphics"}


def test_an_unforced_target_names_the_chip(tmp_path):
    assert _gpus(tmp_path, "") == {"AMD Radeon Graphics (gfx1151)"}
    # another override (an RDNA 3 card forced to gfx1100) leaves gfx1151 as printed
    assert _gpus(tmp_path, "HSA_OVERRIDE_GFX_VERSION=11.0.0 llama-bench -m m.gguf\n\n") == {
        "AMD Radeon Graphics (gfx1151)"
    }


def test_the_override_version_is_the_isa_name():
    lines = ["export HSA_OVERRIDE_GFX_VERSION=11.5.1", "HSA_OVERRIDE_GFX_VERSION='9.0.10' ./llama-bench"]
    assert llama_bench._gfx_overrides(lines) == {"gfx1151": 1, "gfx90a": 2}
