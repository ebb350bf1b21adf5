"""A command's `<placeholder>` (a writer's stand-in for a path, which a shell would read as a redirection)
is no value of its flag: `--model /usr/src/models/<llama2 merged LORA model>.ggml.q4_k_m.bin` names no
model file (the page used to call the model "<llama2"); a plain `-m` path still names it."""

from __future__ import annotations

from benchbook.ingest import llama_timings

PROMPT = "llama_print_timings: prompt eval time =   215.73 ms /    14 tokens (   15.41 ms per token,    64.90 tokens per second)"
EVAL = "llama_print_timings:        eval time = 22698.24 ms /   490 runs   (   46.32 ms per token,    21.59 tokens per second)"


def _table(*lines):
    return llama_timings.parse("\n".join(lines), "x.md").table


def test_a_placeholder_in_angle_brackets_names_no_model_file():
    command = './build/bin/main --model /usr/src/models/<llama2 merged LORA model>.ggml.q4_k_m.bin --threads 22 -p "x"'
    t = _table(command, PROMPT, EVAL)
    assert t["model_file"].isna().all() and set(t["threads"]) == {22}
    t = _table("./main -m models/7B/ggml-model-q4_0.bin -t 8", PROMPT, EVAL)
    assert set(t["model_file"]) == {"ggml-model-q4_0.bin"}
