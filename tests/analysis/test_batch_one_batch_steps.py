"""SGLang bench_one_batch in the batch chapter: each point is the median decode step the tool timed,
one series per run name and lengths (analysis.one_batch)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from benchbook.analysis import batch, one_batch
from benchbook.claims import batch as batch_claims
from benchbook.ingest import sglang_one_batch
from benchbook.presentation import batch as show


def _jsonl(rows) -> str:
    out = []
    for name, bs, il, ol, step in rows:
        r = dict(run_name=name, batch_size=bs, input_len=il, output_len=ol, prefill_latency=0.05)
        r.update(prefill_throughput=il * bs / 0.05, total_latency=0.05 + (ol - 1) * step)
        if ol > 1:
            r.update(median_decode_latency=step, median_decode_throughput=bs / step)
        r["overall_throughput"] = (il + ol) * bs / r["total_latency"]
        out.append(json.dumps(r))
    return "\n".join(out) + "\n"


def _sweep(text: str):
    df = sglang_one_batch.parse(text, "result.jsonl").table.assign(tool=one_batch.TOOL, source="result.jsonl")
    return one_batch.with_sweep(batch.sweep(df), df)


def test_a_point_is_the_median_decode_step_and_batch_over_it():
    sw = _sweep(_jsonl([("a", 1, 256, 32, 0.010), ("a", 8, 256, 32, 0.011)]))
    r = sw.set_index("batch_size")
    assert r.loc[8, "latency_s"] == pytest.approx(0.011)
    assert r.loc[8, "throughput_tok_s"] == pytest.approx(8 / 0.011)
    assert (r["new_tokens"] == 1).all() and (r["timed"] == one_batch.STEP).all()
    assert r["tool_ms_per_token"].isna().all()  # the tool prints no msec/token
    rl = batch.step_roofline(sw, {"": 1.0}, None)  # step time is the step, not the run over its tokens
    assert rl.set_index("batch_size").loc[8, "step_s"] == pytest.approx(0.011)


def test_run_names_and_lengths_split_series_but_one_name_is_not_named():
    two = _sweep(_jsonl([("a", 1, 256, 32, 0.01), ("b", 1, 256, 32, 0.02), ("a", 1, 512, 32, 0.01)]))
    assert set(two["variant"]) == {
        "run a, input 256, output 32",
        "run b, input 256, output 32",
        "run a, input 512, output 32",
    }
    one = _sweep(_jsonl([("a", 1, 256, 32, 0.01), ("a", 4, 256, 32, 0.01)]))
    assert set(one["variant"]) == {"input 256, output 32"}
    assert len(list(batch.series(one))) == 1


def test_output_len_one_has_no_decode_step_and_is_no_point():
    sw = _sweep(_jsonl([("a", 1, 256, 1, np.nan), ("a", 2, 256, 32, 0.01)]))
    assert list(sw["batch_size"]) == [2]


def test_console_runs_without_lengths_are_each_their_own_series():
    run = "Prefill. latency: 0.01 s, throughput: 100.00 token/s\n"
    text = "".join(
        run
        + f"Decode 0. Batch size: {b}, latency: 0.005 s, throughput: {b / 0.005:.2f} token/s\n"
        + f"Decode.  median latency: 0.005 s, median throughput: {b / 0.005:.2f} token/s\n"
        + "Total. latency:  0.100 s, throughput:   500.00 token/s\n"
        for b in (1, 2)
    )
    sw = _sweep(text)
    assert sorted(sw["variant"]) == ["run 1", "run 2"]
    with_cmd = "python -m sglang.bench_one_batch --model-path m --batch-size 1 2 --input-len 64 --output-len 8\n" + text
    assert set(_sweep(with_cmd)["variant"]) == {"input 64, output 8"}


def test_flat_steps_are_worded_as_a_decode_step_in_ms_and_a_call_otherwise():
    sw = _sweep(_jsonl([("a", b, 256, 32, 0.0090 + b * 1e-5) for b in (1, 2, 4)]))
    c = batch_claims.latency_flat(batch.flat_range(batch.rows_of(sw, batch.reference(sw)), tolerance=0.10))
    assert c.evidence["timed"] == one_batch.STEP
    bigcode = batch_claims.latency_flat(
        batch.flat_range(sw.drop(columns="timed").assign(latency_s=[1.0, 1.01, 1.02]), tolerance=0.10)
    )
    assert bigcode.evidence["timed"] == "generate() call"


def test_the_ms_sentence_says_the_tool_prints_no_msec_per_token():
    sw = _sweep(_jsonl([("a", 4, 256, 32, 0.008)]))
    text = show.ms_sentence(sw.iloc[0])
    assert "prints no" in text and "8.00 ms" in text and "tool prints 1000 / throughput" not in text


def test_the_prefill_and_the_run_are_said_beside_the_steps_and_only_for_this_tool():
    sw = _sweep(_jsonl([("a", 1, 256, 32, 0.01), ("a", 8, 256, 32, 0.011)]))
    text = show.prefill_sentence(sw, batch.reference(sw))
    assert "at batch 1 the prefill takes 50.00 ms (5,120 prompt tok/s)" in text and "at batch 8" in text
    assert show.prefill_sentence(sw.drop(columns="timed"), batch.reference(sw)) == ""


def test_the_knee_counts_distinct_batch_sizes_not_repeats():
    repeats = batch.knee(_sweep(_jsonl([("a", 1, 256, 32, 0.010), ("a", 1, 256, 32, 0.0101)])))
    assert repeats["n_points"].tolist() == [1]
    sizes = batch.knee(_sweep(_jsonl([("a", 1, 256, 32, 0.010), ("a", 2, 256, 32, 0.0101)])))
    assert sizes["n_points"].tolist() == [2]


def test_a_step_run_at_a_stated_tp_spans_that_many_devices():
    df = sglang_one_batch.parse(_jsonl([("a", 1, 256, 32, 0.010)]), "result.jsonl").table
    df = df.assign(tool=one_batch.TOOL, source="result.jsonl")
    assert one_batch.sweep(df.assign(tp=2))["devices"].tolist() == [2.0]
    assert one_batch.sweep(df.assign(tp=np.nan))["devices"].isna().all()


def test_the_gpu_each_label_names_is_recomputed_over_the_points_added_to_a_sweep():
    before = _sweep(_jsonl([("a", 1, 256, 32, 0.010)]))
    df = sglang_one_batch.parse(_jsonl([("b", 8, 256, 32, 0.011)]), "more.jsonl").table
    both = one_batch.with_sweep(before, df.assign(tool=one_batch.TOOL, source="more.jsonl"))
    assert len(both) == 2 and both["named_gpu"].tolist() == ["", ""]  # one GPU in the input: no label names it


def test_a_step_with_a_known_compute_lacks_its_bytes_per_weight_not_its_model_size():
    # real: sgl-project/sglang#4832 (Llama-3-8B, precision not stated): the page sized the model at 8.03 B
    # and gave each step's compute, yet called the empty weights-read cells "model size unknown"
    sw = _sweep(_jsonl([("a", 16, 1024, 512, 0.00896)]))
    sized = batch.step_roofline(sw, {"": 8.03}, None)
    assert np.isfinite(sized["achieved_tflops"].iat[0]) and np.isnan(sized["achieved_gb_s"].iat[0])
    why = show.step_missing(sized)
    assert why.loc[0, "weights read (GB/s)"] == "bytes per weight unknown (precision not stated)"
    # the other way: a model of no known size keeps "model size unknown" in both cells
    unsized = show.step_missing(batch.step_roofline(sw, {}, None))
    assert unsized.loc[0, "weights read (GB/s)"] == "model size unknown"
    assert unsized.loc[0, "compute (TFLOP/s)"] == "model size unknown"


def test_an_empty_weights_read_cell_names_what_the_file_says_of_a_precision():
    """The absence rule (`serving.fact_said`): "precision not stated" only where no line speaks of one."""
    sized = batch.step_roofline(_sweep(_jsonl([("a", 16, 1024, 512, 0.00896)])), {"": 8.03}, None)
    col = "weights read (GB/s)"
    unread = {"precision_status": "unread", "precision_line": 4, "precision_text": "quantized with AWQ"}
    assert show.step_missing(sized, unread).loc[0, col] == (
        "bytes per weight unknown (line 4 speaks of one without a precision this page can read)"
    )
    stated = {
        "precision_status": "stated",
        "precision_value": "auto",
        "precision_line": 2,
        "precision_text": "--dtype auto",
    }
    assert 'line 2 gives "--dtype auto", which this page does not take' in show.step_missing(sized, stated).loc[0, col]
    absent = show.step_missing(sized, {"precision_status": "absent"}).loc[0, col]
    assert absent == "bytes per weight unknown (precision not stated)"


def test_a_dtype_the_file_states_elsewhere_is_the_points_precision():
    """SGLang's loader logs `dtype=torch.bfloat16` for the weights it loaded: a console's points are bf16,
    not "precision not stated"; with no such line they stay unstated (nothing is assumed)."""
    text = _jsonl([("a", 4, 256, 32, 0.018)])
    df = sglang_one_batch.parse(text, "result.jsonl").table.assign(tool=one_batch.TOOL, source="result.jsonl")
    stated = one_batch.sweep(df, {"result.jsonl": ("torch.bfloat16",)})
    assert stated["dtype"].tolist() == ["bf16"] and stated["bytes_per_weight"].tolist() == [2.0]
    assert one_batch.sweep(df)["dtype"].tolist() == [batch.UNSTATED]


def test_a_loader_dtype_is_not_the_weights_of_a_quantized_checkpoint():
    """DeepSeek-R1's released checkpoint is fp8 (the model table): the loader's bf16 is then the compute dtype,
    so the points stay unstated rather than bf16."""
    text = _jsonl([("a", 4, 256, 32, 0.018)])
    df = sglang_one_batch.parse(text, "result.jsonl").table.assign(
        tool=one_batch.TOOL, source="result.jsonl", model="deepseek-ai/DeepSeek-R1"
    )
    got = one_batch.sweep(df, {"result.jsonl": ("torch.bfloat16",)})["dtype"].tolist()
    assert got == ["fp8"] or got == [batch.UNSTATED], got
    assert got != ["bf16"]


def test_a_point_keeps_its_lengths_and_a_report_of_the_input_length_alone_names_it():
    sw = _sweep(_jsonl([("a", 1, 256, 32, 0.01), ("a", 4, 256, 32, 0.01)]))
    assert set(sw["input_len"]) == {256} and set(sw["output_len"]) == {32}
    # bench_one_batch_server's report prints the input length alone: the series is named by it
    assert one_batch._variant({"run_name": "a", "input_len": 512, "output_len": None}, 1, 1) == "input 512"


_REPORT = """| batch size | input len | latency (s) | input throughput (tok/s) | output throughput (tok/s){itl} |
| ---------- | --------- | ----------- | ------------------------ | -------------------------{rule} |
| 1 | 8192 | 13.65 | 14632.70 | 78.20{c1} |
| 8 | 8192 | 21.24 | 15619.60 | 480.70{c8} |
"""


def test_a_server_report_without_its_itl_column_steps_at_batch_over_output_throughput():
    # bench_one_batch_server's output throughput is batch x output_len / (latency - TTFT): its ITL column
    # (pr 32570 prints 12.79 and 16.64 ms) is batch / output throughput, so a report that omits it keeps its points
    with_itl = _sweep(_REPORT.format(itl=" | ITL (ms)", rule=" | --------", c1=" | 12.79", c8=" | 16.64"))
    without = _sweep(_REPORT.format(itl="", rule="", c1="", c8=""))
    assert without.set_index("batch_size")["latency_s"].to_dict() == pytest.approx(
        with_itl.set_index("batch_size")["latency_s"].to_dict(), rel=1e-3
    )
    # the other way: a row with no output throughput has no decode step to read
    cut = _sweep(_REPORT.format(itl="", rule="", c1="", c8="").replace(" | 78.20 |", " |").replace(" | 480.70 |", " |"))
    assert cut.empty or not cut["has_result"].fillna(False).any()
