"""A write-up of llama-sweep-bench runs labels each table as llama-bench's write-ups do: the heading titling it
(`### IQ1_M`, `### IQ1_M_R4 (PR)` in ik_llama.cpp pull request 494) is its `section`, the prose line just above it
(`without my change`, `after my change to CMakeLists.txt` in pull request 537) its `caption`. Tables of the same
printed settings under different labels are different runs (other weights, another build): the page set IQ1_M's
207.66 tok/s aside as a "slower setting" of IQ1_M_R4's 209.81. A line above the table that is a log line, the
tool's settings line or a printed `key = value` is no caption.

A copy that lost a table's newlines runs its header, separator and log lines onto one line
(`| PP | TG | ... | S_TG t/s | | --- | --- | ... | ggml_backend_cuda_graph_compute: ...`): that header still heads the
rows on the lines below it (pull request 537's first table: 2 rows the page did not count)."""

from __future__ import annotations

from benchbook import ingest

HEADER = "|    PP |     TG |   N_KV |   T_PP s | S_PP t/s |   T_TG s | S_TG t/s |"
SEPARATOR = "|-------|--------|--------|----------|----------|----------|----------|"
ROWS = (
    "|  8192 |   2048 |      0 |   54.433 |   150.50 |  414.061 |     4.95 |\n"
    "|  8192 |   2048 |   8192 |   64.162 |   127.68 |  428.767 |     4.78 |\n"
)
#: one whole table: its header, its separator and its rows
TABLE = HEADER + "\n" + SEPARATOR + "\n" + ROWS


def _labels(tmp_path, text: str):
    p = tmp_path / "sweep.md"
    p.write_text(text)
    df = ingest.read(p)
    return df, df.groupby("table_line")[["section", "caption"]].first()


def test_heading_and_prose_line_above_a_table_label_it(tmp_path):
    text = (
        "#### Description\n\nwithout my change\n\n"
        + TABLE
        + "\nafter my change to CMakeLists.txt\n\n"
        + TABLE
        + "\n### IQ1_M_R4 (PR)\n\n"
        + TABLE
    )
    _, got = _labels(tmp_path, text)
    assert got["caption"].tolist()[:2] == ["without my change", "after my change to CMakeLists.txt"]
    assert got["section"].tolist() == ["Description", "Description", "IQ1_M_R4 (PR)"]
    assert got["caption"].isna().tolist()[2]  # a heading just above: no caption


def test_a_log_line_or_settings_line_above_a_table_is_no_caption(tmp_path):
    text = (
        "main: n_kv_max = 16384, n_batch = 8192, n_ubatch = 8192, flash_attn = 1, n_gpu_layers = 99\n\n"
        + TABLE
        + "\ntotal time =   13188.64 ms /  1844 tokens\n"
        + TABLE
    )
    _, got = _labels(tmp_path, text)
    assert got["caption"].isna().all()


def test_a_header_run_onto_its_separator_still_heads_the_rows_below(tmp_path):
    joined = (
        "| PP  | TG  | N_KV | T_PP s | S_PP t/s | T_TG s | S_TG t/s | | --- | --- | ---- | ------ | -------- | ------ | "
        "-------- | ggml_backend_cuda_graph_compute: disabling CUDA graphs due to mul_mat_id\n"
    )
    df, _ = _labels(tmp_path, "without my change\n\n" + joined + ROWS)
    assert sorted(df.loc[df["metric"] == "pp_rate", "value"]) == [127.68, 150.50]


def test_a_header_followed_by_other_text_is_no_header(tmp_path):
    p = tmp_path / "prose.md"
    p.write_text(HEADER + " and then some words\n" + ROWS)
    try:
        df = ingest.read(p, "llama-sweep-bench")
    except Exception:
        return  # refused: no table
    assert df.empty
