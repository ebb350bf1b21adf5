"""llama.cpp's `-ctk, --cache-type-k` and `-ctv, --cache-type-v` (common/arg.cpp) set the KV cache's data
type: a command that passes them states it. llama-batched-bench and llama-sweep-bench, run by path after
`env -i` or not, are commands as llama-bench is, so their flags are read; the same flag in a sentence is not."""

from benchbook.ingest import context


def _kv(lines):
    return {(f.value, f.line) for f in context.read(lines).get("kv_dtype")}


def test_a_batched_bench_command_states_its_kv_cache_type():
    line = "env -i ./build/bin/llama-batched-bench -m ~/gguf/m.gguf -npl 1 -npp 512 -ntg 128 -ctk q4_0 -ctv q4_0"
    assert _kv(["```sh", line, "```"]) == {("q4_0", 2)}


def test_the_long_flags_and_a_sweep_bench_command_state_it_too():
    line = "./llama-sweep-bench -m m.gguf -c 8192 --cache-type-k q8_0 --cache-type-v q8_0"
    assert _kv([line]) == {("q8_0", 1)}


def test_the_flag_named_in_a_sentence_states_nothing():
    assert _kv(["I did not pass -ctk q8_0 to the bench this time."]) == set()
