"""obench.sh prints `Running benchmark N times using model: M` above each model's runs; a write-up that
retypes the line in another case (`running benchmark 3 times ...`) keeps the script's words, and the runs
and average under it are read as that model's. Words that are not the script's name no section."""

from benchbook.ingest import ollama_bench_power

RUNS = [
    "",
    "| Run | Eval Rate (Tokens/Second) |",
    "|-----|-----------------------------|",
    "| 1 | 80.32 tokens/s |",
    "| 2 | 80.11 tokens/s |",
    "| 3 | 80.17 tokens/s |",
    "|**Average Eval Rate**| 80.20 tokens/second |",
]


def _rates(text: str) -> dict:
    t = ollama_bench_power.parse(text, "run.md").table
    rates = t[t["metric"] == "output_throughput"]
    return dict(zip(rates["model"], rates["value"], strict=True))


def test_the_section_line_in_lower_case_is_the_scripts():
    text = "\n".join(
        [
            "running benchmark 3 times using model: llama3.2:3b",
            *RUNS,
            "",
            "Running benchmark 3 times using model: deepseek-r1",
        ]
    )
    assert ollama_bench_power.sniff(text)
    assert _rates(text) == {"llama3.2:3b": 80.2}


def test_a_line_in_other_words_names_no_section():
    text = "\n".join(
        ["ran the benchmark 3 times with model llama3.2:3b", *RUNS, "Running benchmark 3 times using model: x"]
    )
    assert _rates(text) == {}
