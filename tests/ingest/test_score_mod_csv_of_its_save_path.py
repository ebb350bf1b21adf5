"""score_mod.py's `--save-path` writes the columns it prints as a CSV (`print_results`: `csv.DictWriter` over
the table's columns, the shape column and each shape quoted): read as its github table is, the same
backends, passes and times (a real excerpt: pytorch PR 137036's doc-mask run, `nan` for a backend not run);
a CSV with no score_mod.py shape column is not claimed."""

from __future__ import annotations

from benchbook import ingest
from benchbook.ingest import score_mod

CSV = (
    'attn_type,dtype,"shape(B,Hq,M,Hkv,N,D)",fwd_math,fwd_fav3,fwd_compiled,fwd_fav3_speedup,fwd_mem_bw (TB/s),TFlops/s\n'
    'noop,torch.bfloat16,"(4, 16, 16384, 16, 16384, 64)",nan,8778.528213500977,12717.856407165527,0.6902521881403658,'
    "0.04221394665987225,348.51834362390525\n"
)
TABLE = (
    "| attn_type | dtype          | shape(B,Hq,M,Hkv,N,D)         |   fwd_math |   fwd_fav3 |   fwd_compiled |"
    "   fwd_fav3_speedup |   fwd_mem_bw (TB/s) |   TFlops/s |\n"
    "|-----------|----------------|-------------------------------|------------|------------|----------------|"
    "--------------------|---------------------|------------|\n"
    "| noop      | torch.bfloat16 | (4, 16, 16384, 16, 16384, 64) |        nan |   8778.528 |      12717.856 |"
    "              0.690 |               0.042 |    348.518 |\n"
)


def _read(tmp_path, text: str, name: str):
    f = tmp_path / name
    f.write_text(text)
    df = ingest.read(f)
    return {(r.backend, r.metric): round(r.value, 3) for r in df.itertuples()}, df


def test_the_csv_reads_as_the_table_it_saves(tmp_path):
    from_csv, df = _read(tmp_path, CSV, "results.csv")
    from_table, _ = _read(tmp_path, TABLE, "results.md")
    assert from_csv == from_table
    assert from_csv[("fav3", "latency")] == 8.779
    assert from_csv[("compiled", "tflops")] == 348.518
    assert set(df["dtype"]) == {"bf16"} and set(df["seq_len"]) == {16384}


def test_a_csv_without_the_shape_column_is_not_claimed():
    assert not score_mod.sniff("attn_type,dtype,shape,fwd_math\nnoop,torch.bfloat16,4,1.0\n")
    assert score_mod.sniff(CSV)
