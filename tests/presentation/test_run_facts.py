"""What a reader's file states about its run, as the report shows it beside every page: each fact
as written with its lines, several values all kept, nothing for a fact the file does not state."""

from __future__ import annotations

from benchbook.ingest import context
from benchbook.presentation import run_facts

WRITE_UP = """# Qwen3-8B on 8 x MI325X
- GPU: AMD MI325X *8
vllm serve Qwen/Qwen3-8B --tensor-parallel-size 2

Average power: 512 W per GPU
vllm serve Qwen/Qwen3-8B --tensor-parallel-size 4
"""


def _facts(text: str) -> dict:
    return {s.name: s for s in run_facts.stated(context.read(text.splitlines()))}


def test_each_fact_is_shown_as_written_with_the_lines_it_is_read_from():
    facts = _facts(WRITE_UP)
    assert any("MI325X" in v and 2 in lines for v, lines in facts["device"].values)
    assert facts["model"].values == (("Qwen/Qwen3-8B", (3, 6)),)  # one value, both lines
    assert facts["power"].values[0][0] == "512 W, per GPU"  # unit and scope as the line gives them


def test_a_fact_stated_twice_with_different_values_shows_both():
    assert [v for v, _ in _facts(WRITE_UP)["tp"].values] == ["2", "4"]


def test_a_fact_the_file_does_not_state_is_left_out_not_said_absent():
    facts = _facts("| model | tok/s |\n|---|---|\n| x | 3 |\n")
    assert "device" not in facts and "tp" not in facts
    assert run_facts.html_list("f.md", []) == ""


def test_more_values_than_shown_are_counted():
    text = "\n".join(f"vllm serve m --tensor-parallel-size {n}" for n in (1, 2, 4, 8, 16))
    tp = _facts(text)["tp"]
    assert len(tp.values) == run_facts.MAX_VALUES and tp.more == 2
    html = run_facts.html_list("f.md", [tp])
    assert "and 2 other values" in html and "(line 1)" in html and "f.md" in html


def test_a_fact_read_from_json_names_the_field_it_is_read_from():
    facts = _facts('{"args": {"max_concurrency": 512, "model": "Qwen/Qwen3-0.6B"}}')
    assert (
        facts["concurrency"].values[0][0].startswith("512 (") and "max_concurrency" in facts["concurrency"].values[0][0]
    )


def test_a_launch_variant_with_no_result_after_it_is_not_listed_as_the_runs():
    """DeepSeek-V3.2's recipe: the results follow the TP 8 launch; the EP/DP section's `vllm serve ...
    -dp 8` after them launched none of them, so the list shows no DP (the TP of the run's launch stays)."""
    from benchbook import config, ingest

    path = config.FIXTURES_DIR / "vllm-bench-serve" / "recipes_deepseek_v32_8xh20_tp8_rate10_then_ep_dp_note.md"
    facts = {s.name: s for s in run_facts.stated(ingest.context_of(path))}
    assert "dp" not in facts and any(v == "8" and 35 in lines for v, lines in facts["tp"].values)
    # the other way: read without the results' lines, the file's every launch is listed
    assert "dp" in {s.name for s in run_facts.stated(context.read(ingest._load_lines(path)))}


def test_codecarbons_sum_over_the_hosts_gpus_is_shown_as_all_gpus_not_per_gpu():
    line = "[codecarbon INFO @ 11:23:24] Energy consumed for all GPUs : 0.003595 kWh. Total GPU Power : 217.9 W\n"
    facts = _facts(
        line + "[codecarbon INFO @ 11:23:24] Energy consumed for all CPUs : 0.0024 kWh. Total CPU Power : 186.0 W\n"
    )
    assert [v for v, _ in facts["power"].values] == ["217.9 W, all GPUs", "186 W, all CPUs"]
    assert _facts("Average GPU power: 350 W\n")["power"].values[0][0] == "350 W, per GPU"  # one device's
