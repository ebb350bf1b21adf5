"""A BLOOM write-up's `| Model | Number of parameters | Hardware | Time per token in milliseconds for Batch
Size N |` table: ms per token per batch size, the dtype from the model name's suffix, the hardware as the
series' gpu and its count as the GPUs the run spans; the author's `oom`; a cell past the header dropped
where empty, set aside where it holds a number."""

from __future__ import annotations

import math

from benchbook.ingest import hf_batch

HEADER = (
    "| Model | Number of parameters | Hardware | Time per token in milliseconds for Batch Size 1 "
    "| Time per token in milliseconds for Batch Size 8 |\n| --- | --- | --- | --- | --- |\n"
)
TABLE = (
    HEADER
    + "| BLOOM-176-int8 | 176B | 4xA100 80GB | 282 | 37.5 |      |\n| BLOOM-176-bf16 | 176B | A100 80GB | 239 | oom |\n"
)


def test_each_cell_is_ms_per_token_with_the_rows_dtype_gpu_and_gpu_count():
    t = hf_batch.parse(TABLE, "b.md").table
    first = t[t["line"] == 3].set_index("batch_size")
    assert first["value"].tolist() == [282.0, 37.5] and set(first["metric"]) == {"ms_per_token"}
    assert set(first["model"]) == {"BLOOM-176"} and set(first["dtype"]) == {"int8"}
    assert set(first["gpu"]) == {"4xA100 80GB"} and set(first["devices"]) == {4}
    second = t[t["line"] == 4].set_index("batch_size")
    assert second["devices"].isna().all()  # a hardware cell without a count states none
    assert math.isnan(second.loc[8, "value"]) and second.loc[8, "note"] == hf_batch.MARKED_OOM


def test_a_number_past_the_header_is_set_aside_and_an_empty_cell_dropped():
    assert hf_batch.parse(TABLE, "b.md").rejected.empty
    p = hf_batch.parse(TABLE.replace("| 37.5 |      |", "| 37.5 | 9.9 |"), "b.md")
    assert p.rejected["text"].tolist() == ["9.9"]


def test_the_parameters_column_sizes_the_model_as_the_parser_names_it():
    assert hf_batch.printed_params(TABLE) == {"BLOOM-176": 176.0}
    assert hf_batch.printed_params(TABLE.replace("176B", "n/a")) == {}


def test_the_table_is_this_tools_output_and_a_table_without_its_columns_is_not():
    assert hf_batch.sniff(TABLE)
    assert not hf_batch.sniff(TABLE.replace("Hardware", "Device"))
