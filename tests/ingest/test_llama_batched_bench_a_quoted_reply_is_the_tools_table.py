"""A thread's reply quoting a run in a Markdown blockquote (`> ` before every line) holds the tool's table as
printed: the quote markers are the forum's, not the tool's, so the table is read as if unquoted, each row at
its own line, and its command, written as a code span (`` `llama-batched-bench -m M.gguf ...` ``), names its
model. A quoted table whose rows break the tool's formulas is still rejected, and a table with no quote
markers is read as before."""

from benchbook.ingest import llama_batched_bench

HEAD = (
    "|    PP |     TG |    B |   N_KV |   T_PP s | S_PP t/s |   T_TG s | S_TG t/s |      T s |    S t/s |\n"
    "|-------|--------|------|--------|----------|----------|----------|----------|----------|----------|\n"
)
ROWS = (
    "|   128 |    128 |    1 |    256 |    2.158 |    59.33 |    3.076 |    41.61 |    5.233 |    48.92 |\n"
    "|   128 |    128 |    2 |    512 |    1.814 |   141.12 |    4.738 |    54.03 |    6.552 |    78.14 |\n"
)
CMD = "`llama-batched-bench -m /models1/Qwen_Qwen3-0.6B-Q6_K.gguf -c 4096 -npp 128 -ntg 128 -npl 1,2`\n\n"


def _quoted(text: str) -> str:
    return "".join(f"> {line}\n" if line else ">\n" for line in text.split("\n")[:-1])


def test_a_quoted_table_is_read_with_its_model_and_lines():
    text = "> 👤 **someone** replied:<br>\n" + _quoted(CMD + HEAD + ROWS)
    assert llama_batched_bench.sniff(text)
    t = llama_batched_bench.parse(text, "reply.md").table
    assert sorted(t["line"].unique()) == [6, 7]
    assert set(t["model"]) == {"/models1/Qwen_Qwen3-0.6B-Q6_K.gguf"}
    assert t.loc[(t["line"] == 7) & (t["metric"] == "generation_throughput"), "value"].item() == 54.03


def test_a_quoted_row_that_breaks_a_formula_is_still_rejected():
    bad = ROWS.replace("54.03", "99.99")
    p = llama_batched_bench.parse(_quoted(HEAD + bad), "reply.md")
    assert sorted(p.table["line"].unique()) == [3] and not p.rejected.empty


def test_an_unquoted_table_is_read_as_before():
    t = llama_batched_bench.parse(CMD + HEAD + ROWS, "run.md").table
    assert sorted(t["line"].unique()) == [5, 6]
