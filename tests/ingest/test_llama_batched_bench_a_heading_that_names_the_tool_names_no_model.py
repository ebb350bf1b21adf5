"""llama-batched-bench names its model on its command line: `-m PATH`, or the older builds' positional form
`batched-bench MODEL_PATH [N_KV_MAX] [N_BATCH] ...`, whose first argument is a file. A Markdown heading that
names the tool (`## batched-bench 4 dies, pp 2048, batch 1/4/8/16/32`) is a title, not a command (a shell
prompt is at most one `#`), and a bare number is one of the positional form's sizes, never its model: the
table under them has no model of its own. A command line above a table still names its model, in either
form, and a root prompt's `# ./batched-bench MODEL ...` is still a command."""

from benchbook.ingest import llama_batched_bench

HEAD = (
    "|    PP |     TG |    B |   N_KV |   T_PP s | S_PP t/s |   T_TG s | S_TG t/s |      T s |    S t/s |\n"
    "|-------|--------|------|--------|----------|----------|----------|----------|----------|----------|\n"
)
ROW = "|  2048 |    128 |    1 |   2176 |    0.847 |  2418.41 |    1.735 |    73.77 |    2.582 |   842.77 |\n"


def _models(text: str) -> set:
    t = llama_batched_bench.parse(text, "run.md").table
    return set(t["model"].dropna())


def test_a_heading_naming_the_tool_and_a_die_count_names_no_model():
    assert _models("## batched-bench 4 dies, pp 2048, batch 1/4/8/16/32\n\n" + HEAD + ROW) == set()


def test_a_positional_number_is_no_model():
    assert _models("$ ./batched-bench 8192 0 0\n\n" + HEAD + ROW) == set()


def test_a_command_above_the_table_names_its_model():
    assert _models("$ ./llama-batched-bench -m models/qwen3-8b-q8_0.gguf -npl 1\n\n" + HEAD + ROW) == {
        "models/qwen3-8b-q8_0.gguf"
    }


def test_a_root_prompts_positional_model_is_still_read():
    assert _models("# ./batched-bench models/7B/ggml-model-q4_0.gguf 2048 0 999\n\n" + HEAD + ROW) == {
        "models/7B/ggml-model-q4_0.gguf"
    }
