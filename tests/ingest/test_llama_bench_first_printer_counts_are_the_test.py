"""llama-bench's first markdown printer (llama.cpp PR #2626, August 2023) gave each test as two columns,
`n_prompt` and `n_gen`, where later builds print one `test` name made from the same two counts
(`test::get_test_name`): 512 / 0 is pp512, 0 / 128 is tg128, 512 / 128 is pp512+tg128. Such a table is
read as llama-bench's; a table with only one of the two counts names no test and stays unread."""

from __future__ import annotations

from benchbook import ingest

TABLE = """My results:

| model | backend | n_gpu_layers | n_prompt | n_gen | t/s |
| ----- | ------- | ------------ | -------- | ----- | --- |
| LLaMA 7B mostly Q4_0 | CUDA | 99 | 512 | 0 | 2153.50 ± 24.75 |
| LLaMA 7B mostly Q4_0 | CUDA | 99 | 0 | 128 | 128.65 ± 0.13 |
| LLaMA 7B mostly Q4_0 | CUDA | 99 | 512 | 128 | 449.72 ± 1.27 |
"""


def test_the_two_counts_name_the_test(tmp_path):
    f = tmp_path / "bench.md"
    f.write_text(TABLE)
    t = ingest.read(f, tool="llama-bench")
    means = t[t["statistic"] == "mean"].set_index("test")["value"].to_dict()
    assert means == {"pp512": 2153.50, "tg128": 128.65, "pp512+tg128": 449.72}
    assert set(t[t["test"] == "tg128"]["metric"]) == {"tg_rate"}
    assert not t.attrs["rejected"]


def test_one_count_alone_names_no_test(tmp_path):
    f = tmp_path / "bench.md"
    f.write_text(TABLE.replace("| n_gen ", "| other "))
    parsed = ingest.read_parsed(f, tool="llama-bench")[0]
    assert parsed.table.empty and len(parsed.rejected) > 0  # every number set aside as an unread table
