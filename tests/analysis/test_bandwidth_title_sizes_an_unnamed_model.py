"""A document title that says one parameter count (`70B model on M2 Max 96GB`, alone or beside a family) sizes
the runs whose rows name no model, where the file names no model of another size; a title naming two counts
(`7B vs 70B`) sizes none, and so does a title with none (`96GB` is memory)."""

from pathlib import Path

import pandas as pd

from benchbook.analysis import bandwidth

PR30 = (
    Path(__file__).parents[1]
    / "fixtures"
    / "llama-timings"
    / "llama_gpt_pr30_m2_max_96gb_70b_print_timings_three_runs_cut_excerpt.md"
)
TIMINGS = (
    "llama_print_timings:        eval time = 49937.32 ms /    30 runs   ( 1664.58 ms per token,     0.60 tokens per"
    " second)\n"
)


def _file(tmp_path, title: str, body: str = "") -> Path:
    f = tmp_path / "timings.md"
    f.write_text(f"# {title}\n\n{body}{TIMINGS}")
    return f


def test_the_pr_title_sizes_its_unnamed_model():
    assert bandwidth.title_size(PR30) == ("doc: add benchmark for 70B model on M2 Max 96GB", 1)


def test_a_family_beside_the_size_gives_the_tables_row(tmp_path):
    said = bandwidth.title_size(_file(tmp_path, "Llama 2 70B on an M2 Max"))
    assert said == ("Llama 2 70B on an M2 Max", 1)


def test_two_sizes_in_the_title_give_none(tmp_path):
    assert bandwidth.title_size(_file(tmp_path, "7B vs 70B model on M2 Max 96GB")) is None


def test_a_title_with_only_a_memory_size_gives_none(tmp_path):
    assert bandwidth.title_size(_file(tmp_path, "benchmark on M2 Max 96GB")) is None


def test_a_named_model_of_another_size_keeps_the_title_from_sizing(tmp_path):
    f = _file(tmp_path, "70B model on M2 Max", "Model: meta-llama/Llama-2-13b-chat-hf\n\n")
    assert bandwidth.title_size(f) is None


def test_only_rows_naming_no_model_take_the_title(tmp_path):
    rows = pd.DataFrame(
        {"source": [PR30.name, PR30.name], "model": [None, "llama-2-13b.gguf"], "model_file": [None, None]}
    )
    out = bandwidth.titled(rows.assign(params_b=float("nan")), [PR30])
    assert out["title_line"].tolist()[0] == 1.0
    assert pd.isna(out["title_line"].tolist()[1])
    assert bandwidth.row_model_size(bandwidth.override_table(None), out.iloc[0])["params_b"] == 70.0
