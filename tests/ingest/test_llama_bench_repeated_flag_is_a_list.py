"""llama-bench appends every occurrence of a flag to its list: `-m a.gguf -m b.gguf` runs both models
in turn, as `-m a.gguf,b.gguf` would. A command that gives -m twice therefore names no single model
file for its table (the rows' own model strings say which ran); -m given once still labels every row.
A repeated -p likewise is a sweep of the prompt length, not its last value."""

from __future__ import annotations

from benchbook import ingest
from benchbook.ingest import llama_bench

TABLE = """| model                          |       size |     params | backend    | ngl |     sm | fa |            test |                  t/s |
| ------------------------------ | ---------: | ---------: | ---------- | --: | -----: | -: | --------------: | -------------------: |
| mistral3 14B Q4_K - Medium     |  13.34 GiB |    23.57 B | ROCm       |  99 | tensor |  1 |           pp512 |         91.98 ± 0.09 |
| mistral3 14B Q4_K - Medium     |  13.34 GiB |    23.57 B | ROCm       |  99 | tensor |  1 |          pp2048 |         83.61 ± 0.02 |
"""


def _read(tmp_path, command: str):
    f = tmp_path / "bench.md"
    f.write_text(f"```\n{command}\n```\n\n{TABLE}")
    return ingest.read(f, tool="llama-bench")


def test_two_model_flags_label_no_row_with_the_last_file(tmp_path):
    t = _read(tmp_path, "llama-bench -m models/Devstral-Small-Q4_K_M.gguf -m models/llama-2-7b.Q4_0.gguf -fa 1")
    assert t["model_file"].isna().all()
    assert set(t["model"]) == {"mistral3 14B Q4_K - Medium"}


def test_one_model_flag_still_labels_the_table(tmp_path):
    t = _read(tmp_path, "llama-bench -m models/Devstral-Small-Q4_K_M.gguf -fa 1")
    assert set(t["model_file"]) == {"Devstral-Small-Q4_K_M.gguf"}


def test_a_repeated_flag_keeps_every_value():
    assert llama_bench._parse_cmd("llama-bench -p 512 -p 1024 -ngl 99")["p"] == "512,1024"
    assert llama_bench._parse_cmd("llama-bench -p 512 -ngl 99")["p"] == "512"
