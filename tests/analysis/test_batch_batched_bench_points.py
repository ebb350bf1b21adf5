"""llama-batched-bench rows as batch_saturation points: throughput S_TG, the generation phase T_TG as
the latency of TG new tokens per sequence (so the step, latency / new tokens, is T_TG / TG, the mean
decode step of the batch), one series per table, (PP, TG) and prompt mode; the prompt phase and the
whole row beside it, never the point itself."""

import pytest

from benchbook import config, ingest
from benchbook.analysis import batch, batched_bench

DIR = config.FIXTURES_DIR / "llama-batched-bench"


def test_each_row_is_a_point_of_its_generation_phase():
    sw = batched_bench.sweep(ingest.read(DIR / "llamacpp_batched_bench_readme_026bb1b.md"))
    assert len(sw) == 12 and set(sw["timed"]) == {batched_bench.GENERATION}
    r = sw[(sw["batch_size"] == 32) & (sw["output_len"] == 128)].iloc[0]
    assert r["throughput_tok_s"] == 465.40 and r["latency_s"] == 8.801 and r["new_tokens"] == 128
    assert r["per_sequence_ms_per_token"] == pytest.approx(8.801 / 128 * 1000)
    assert (r["prefill_s"], r["prefill_tok_s"], r["total_s"], r["total_tok_s"]) == (3.408, 1201.73, 12.209, 670.96)
    assert set(sw["variant"]) == {"PP 128, TG 128", "PP 128, TG 256"}


def test_the_roofline_step_is_the_mean_decode_step():
    sw = batched_bench.sweep(
        ingest.read(DIR / "llamacpp_issue3478_batched_bench_openblas_cpu_mistral7b_q4_0_excerpt.md")
    )
    assert set(sw["dtype"]) == {"int4"} and set(sw["framework"]) == {"llama.cpp"}
    assert set(sw["model"]) == {"mistral-7b-instruct-v0.1.Q4_0.gguf"}  # the model the table's rows ran
    rl = batch.step_roofline(sw, {"mistral-7b-instruct-v0.1.Q4_0.gguf": 7.24}, None)
    first = rl[(rl["batch_size"] == 1) & (rl["variant"] == "PP 128, TG 64")].iloc[0]
    assert first["step_s"] == pytest.approx(6.203 / 64)


def test_a_shared_prompt_is_a_series_of_its_own():
    head = (
        "|    PP |     TG |    B |   N_KV |   T_PP s | S_PP t/s |   T_TG s | S_TG t/s |      T s |    S t/s |\n"
        "|-------|--------|------|--------|----------|----------|----------|----------|----------|----------|\n"
    )
    own = "|   128 |    128 |    8 |   2048 |    0.751 |  1363.27 |    7.344 |   139.43 |    8.095 |   252.99 |\n"
    shared = "|   128 |    128 |    8 |   1152 |    0.094 |  1361.70 |    7.344 |   139.43 |    7.438 |   154.88 |\n"
    one = ingest.tools()["llama-batched-bench"].parse(head + own + "\n" + head + shared, "f.md").table
    sw = batched_bench.sweep(one)
    assert sorted(sw["variant"]) == ["table 1, PP 128, TG 128", "table 2, PP 128, TG 128, prompt shared"]
