"""A precision named on a line that says the load or run failed (`fail: strict load rejects ...`, a `ValueError`,
`unsupported`) is a format the run could not use: no fact of the run read, only a sign of the fact. go-mlx's vLLM
Metal note gave "precision or quantization: 4bit (line 33); 8bit (line 36)" from rows of formats that failed to load,
while the one run read is bf16. Its two long rows also escaped the rule that a table of several precisions ties none
to every run: a row's text is kept to 200 characters, so a long row had lost its closing pipe."""

from __future__ import annotations

from benchbook import config, ingest
from benchbook.ingest import context

HEAD = ["| Quant | vLLM Metal |", "| --- | --- |"]


def _precision(lines: list[str]) -> context.Statement:
    return context.states(context.read(lines), "precision")


def test_a_precision_on_a_row_that_says_the_load_failed_is_a_sign_not_a_fact():
    said = _precision([*HEAD, "| `fp8` | fail: strict load rejects `80` extra tensors |"])
    assert said.status == "unread" and said.sign.words == "fp8"
    assert _precision(["--quantization fp8 fails with ValueError: unsupported"]).status == "unread"


def test_a_precision_on_a_row_that_ran_is_still_a_fact():
    said = _precision([*HEAD, "| `fp8` | ok: `3.57 s` one-batch latency |"])
    assert said.status == "stated" and [f.value for f in said.facts] == ["fp8"]
    assert _precision(["vllm serve m --quantization fp8"]).facts[0].value == "fp8"


def test_a_long_row_of_a_table_of_several_precisions_ties_none_to_every_run():
    long = "| `8bit` | ok: " + "x" * 220 + " |"
    said = _precision([*HEAD, "| `bf16` | ok: 3.5 s |", long])
    assert said.status == "unread" and not said.facts


def test_the_go_mlx_note_states_no_precision_of_a_format_that_failed():
    path = (
        config.FIXTURES_DIR
        / "vllm-bench-offline/go_mlx_gemma4_e2b_m3_ultra_vllm_metal_bench_latency_bf16_quant_failures.md"
    )
    said = context.states(ingest.context_of(path), "precision")
    assert not said.facts and said.status == "unread"
