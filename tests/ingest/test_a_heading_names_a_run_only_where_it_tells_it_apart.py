"""A heading above a pasted result block names the run in it only where it tells that run apart: a
document's title (a pull request's or an issue's), a GitHub form's section heading, a `#` line that
is no markdown heading, or the one heading above every run names none of them; the run is then named
by its load, or by its place in the file. Each rule has a case where the heading does name the run."""

import yaml

from benchbook.ingest import headings, sglang_serving, vllm_serve


def _vllm(cap: int, done: int = 32) -> str:
    return (
        "============ Serving Benchmark Result ============\n"
        f"{'Successful requests:':<40} {done:<10}\n"
        f"{'Maximum request concurrency:':<40} {cap:<10}\n"
        f"{'Benchmark duration (s):':<40} {'10.00':<10}\n"
        f"{'Request throughput (req/s):':<40} {'3.20':<10}\n"
        "==================================================\n"
    )


def _sglang(rate: str, done: int = 300) -> str:
    return (
        "============ Serving Benchmark Result ============\n"
        "Backend:                                 sglang\n"
        f"Traffic request rate:                    {rate}\n"
        f"Successful requests:                     {done}\n"
        "Benchmark duration (s):                  130.98\n"
        "==================================================\n"
    )


def vllm_runs(text: str) -> list[str]:
    return list(vllm_serve.parse(text, "w.md").table["run"].unique())


def sglang_runs(text: str) -> list[str]:
    return list(sglang_serving.parse(text, "w.md").table["run"].unique())


def test_a_pull_requests_title_is_not_the_name_of_the_baseline_run_under_it():
    # sglang PR #4918's description: the title names the change, the block is the run without it
    text = "# Add DeepSeek V3/R1 shared experts fusion\n\n```shell\n" + _sglang("8.0") + "```\n"
    assert sglang_runs(text) == ["rate=8"]
    assert vllm_runs("# Add a faster kernel\n\n" + _vllm(8)) == ["c=8"]


def test_level_one_headings_over_one_run_each_name_them_even_the_first():
    text = "# request rate: 2\n\n" + _sglang("2.0") + "\n# request rate: 4\n\n" + _sglang("4.0")
    assert sglang_runs(text) == ["request rate: 2", "request rate: 4"]


def test_a_forms_section_heading_names_no_run_and_an_authors_heading_in_its_place_does():
    body = "## Motivation\n\n" + _vllm(8) + "\n## {}\n\n" + _vllm(16)
    assert vllm_runs(body.format("Modifications")) == ["c=8", "c=16"]
    assert vllm_runs(body.format("With the fused kernel")) == ["c=8", "With the fused kernel"]
    assert headings.is_form_heading("### 📚 The doc issue".lstrip("# "))
    assert headings.is_form_heading("Benchmark & Profiling")
    assert not headings.is_form_heading("Results on 8x H100")


def test_every_form_heading_comes_from_a_named_template():
    data = yaml.safe_load(headings.Path(headings.__file__).with_name("form_headings.yml").read_text(encoding="utf-8"))
    assert set(data) == {"vllm-project/vllm", "sgl-project/sglang"}
    for templates in data.values():
        for path, heads in templates.items():
            assert path.startswith(".github/") and heads, path


def test_a_hash_line_that_is_no_markdown_heading_names_no_run():
    # SGLang prints `#Input tokens: N` / `#Output tokens: N` before its block: no heading (no blank after #)
    prints = "#Input tokens: 50561\n#Output tokens: 25883\n"
    text = prints + _sglang("20.0") + "\n## golang\n" + prints + _sglang("20.0", 299)
    assert sglang_runs(text) == ["rate=20", "golang"]


def test_a_shell_comment_in_a_code_block_is_no_heading_but_a_label_right_above_a_block_is():
    fenced = "# Guide\n\n## Run\n\n```bash\n# export VLLM_USE_MODELSCOPE=True\nvllm bench serve --max-concurrency 8\n\n"
    assert vllm_runs(fenced + _vllm(8) + "```\n") == ["c=8"]
    rounds = "```shell\nvllm bench serve\n\n# round 1\n" + _vllm(8) + "\n# round 2\n" + _vllm(8) + "```\n"
    assert vllm_runs(rounds) == ["round 1", "round 2"]
    labelled = "```\n# Baseline\n" + _sglang("inf") + "# PR\n" + _sglang("inf", 299) + "```\n"
    assert sglang_runs(labelled) == ["Baseline", "PR"]


def test_the_heading_above_every_run_names_none_and_headings_above_one_run_each_do():
    assert vllm_runs("## Results\n\n" + _vllm(8) + "\n" + _vllm(16)) == ["c=8", "c=16"]
    assert vllm_runs("## Results\n\n" + _vllm(8)) == ["c=8"]
    assert vllm_runs("## 4 GPUs\n\n" + _vllm(8) + "\n## 8 GPUs\n\n" + _vllm(8)) == ["4 GPUs", "8 GPUs"]


def test_a_name_over_runs_at_several_loads_gets_each_ones_load_and_at_one_load_a_count():
    two_loads = "## Baseline\n\n" + _sglang("1.0") + _sglang("4.0") + "\n## PR\n\n" + _sglang("1.0")
    assert sglang_runs(two_loads) == ["Baseline, rate=1", "Baseline, rate=4", "PR"]
    one_load = "## Baseline\n\n" + _sglang("1.0") + _sglang("1.0", 299) + "\n## PR\n\n" + _sglang("1.0")
    assert sglang_runs(one_load) == ["Baseline", "Baseline #2", "PR"]


def test_run_names_fall_back_to_the_load_then_the_place_in_the_file():
    assert headings.run_names([None, None, None], ["c=8", "c=8", ""]) == ["c=8", "c=8 #2", "block 3"]
    assert headings.run_names(["H", "H"], ["c=1", "c=2"]) == ["H, c=1", "H, c=2"]
    assert headings.run_names(["H", "G"], ["c=1", "c=1"]) == ["H", "G"]


def test_a_heading_names_every_block_under_it_not_the_first_alone():
    # vLLM's blocks below one heading, the second with no heading of its own, at other caps
    text = "## 4 GPUs\n\n" + _vllm(8) + "\n" + _vllm(16) + "\n## 8 GPUs\n\n" + _vllm(8)
    assert vllm_runs(text) == ["4 GPUs, c=8", "4 GPUs, c=16", "8 GPUs"]
