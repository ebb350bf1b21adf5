"""A llama-bench command whose flag holds an unexpanded shell variable (`--model $MODEL`, `-t "$t"`)
names nothing: the shell put a value there that the file does not show (a real README reassigns
MODEL six times above one such command, then pastes six models' rows). The table's own columns say
what ran; a literal flag value still labels the table under it."""

from __future__ import annotations

from benchbook import ingest

TABLE = """| model                          |       size |     params | backend    | ngl |            test |                  t/s |
| ------------------------------ | ---------: | ---------: | ---------- | --: | --------------: | -------------------: |
| gemma3 12B Q8_0                |  11.64 GiB |    11.77 B | ROCm       |  99 |           tg128 |         28.41 ± 0.12 |
| qwen3 14B Q4_0                 |   7.95 GiB |    14.77 B | ROCm       |  99 |           tg128 |         39.02 ± 0.23 |
"""


def _read(tmp_path, command: str):
    f = tmp_path / "bench.md"
    f.write_text(f"```\n{command}\n```\n\n{TABLE}")
    return ingest.read(f, tool="llama-bench")


def test_a_model_flag_holding_a_shell_variable_labels_no_row(tmp_path):
    t = _read(tmp_path, "llama-bench --model $MODEL -t 16 --flash-attn 0")
    assert t["model_file"].isna().all()
    assert set(t["model"]) == {"gemma3 12B Q8_0", "qwen3 14B Q4_0"}


def test_a_braced_variable_and_a_quoted_thread_variable_name_nothing(tmp_path):
    t = _read(tmp_path, 'llama-bench -m "${MODELS}/x.gguf" -t "$t"')
    assert t["model_file"].isna().all()


def test_a_literal_model_path_still_labels_the_table(tmp_path):
    t = _read(tmp_path, "llama-bench -m models/qwen3-14b.gguf -t 16")
    assert set(t["model_file"]) == {"qwen3-14b.gguf"}
