"""llm_benchmark (llm_benchmark/run_benchmark.py) runs `ollama run MODEL PROMPT --verbose` once per prompt and
prints `model_name =    MODEL`, then per prompt `prompt = PROMPT` and the `eval rate:` line it copied from that
run's stats, then `Average of eval rate:  X  tokens/s`, the mean of those lines. So each `eval rate:` line is one
request of the model named above it, and the average is no request: the page used to list `Average` as a model
of its own and every request as "the model on line N"."""

from benchbook.ingest import llama_timings, ollama_verbose

RUN = (
    "ollama_version: 0.5.7\n"
    "----------\n"
    "model_name =    mistral:7b\n"
    "prompt = Write a step-by-step guide on how to bake a chocolate cake from scratch.\n"
    "eval rate:            67.11 tokens/s\n"
    "prompt = Develop a python function that solves the following problem, sudoku game\n"
    "eval rate:            66.61 tokens/s\n"
    "--------------------\n"
    "Average of eval rate:  66.86  tokens/s\n"
    "----------------------------------------\n"
    "model_name =    phi4:14b\n"
    "prompt = Write a step-by-step guide on how to bake a chocolate cake from scratch.\n"
    "eval rate:            32.77 tokens/s\n"
    "--------------------\n"
    "Average of eval rate:  32.77  tokens/s\n"
)


def test_each_eval_rate_is_a_request_of_the_model_named_above_it():
    assert [b["model"] for b in ollama_verbose.blocks(RUN)] == ["mistral:7b", "mistral:7b", "phi4:14b"]
    t = llama_timings.parse(RUN, "x.md").table
    assert sorted(t["value"]) == [32.77, 66.61, 67.11]
    assert set(t["model"]) == {"mistral:7b", "phi4:14b"}


def test_an_average_of_runs_is_no_run():
    assert ollama_verbose.row("Average of eval rate:  66.86  tokens/s") is None
    assert ollama_verbose.row("Mean  eval rate: 31.69 tokens/s") is None
    # a run re-typed with its model first is still one
    assert ollama_verbose.row("qwen3  0.15.4-rocm  eval rate: 31.69 tokens/s") is not None


def test_an_eval_rate_line_alone_is_not_llm_benchmark_s():
    assert not ollama_verbose.sniff("eval rate:            67.11 tokens/s\n")
    assert not ollama_verbose.sniff("prompt = hello\neval rate:            67.11 tokens/s\n")
    assert ollama_verbose.sniff(RUN)
