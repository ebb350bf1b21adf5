"""PyTorch's score_mod.py tables: each backend's time (printed in µs) per mask and shape, FlexAttention's
TFLOP/s and TB/s, the speed-ups and the average/max/min table set aside as recomputable, by the column
names of each version of the script."""

from __future__ import annotations

import pytest

from benchbook import config, ingest
from benchbook.ingest import ParseError, score_mod

FIX = config.FIXTURES_DIR / "pytorch-score-mod"
FILES = sorted(p for p in FIX.iterdir() if p.suffix == ".md" and p.name != "README.md")
SHAPE = "shape(B,Hq,M,Hkv,N,D)"

V2024 = (
    f"| score_mod | dtype | {SHAPE} | fwd_eager_time | fwd_compiled_time | fwd_speedup |\n"
    "|---|---|---|---|---|---|\n"
    "| noop | torch.float16 | (2, 8, 512, 8, 512, 64) | 30.000 | 20.000 | 1.500 |\n"
)
LATER = (
    f"| attn_type | dtype | {SHAPE} | flex_fwd_time | flex_fwd_TFlops | math_fwd_time | fwd_speedup_flex_over_math |\n"
    "|---|---|---|---|---|---|---|\n"
    "| causal | torch.bfloat16 | (1, 16, 1024, 16, 1024, 128) | 100.000 | 2.500 | 400.000 | 4.000 |\n"
)
SUMMARY = f"| Type | Speedup | score_mod | dtype | {SHAPE} |\n|---|---|---|---|---|\n| Average | 1.320 | | | |\n"


def _t(text):
    return score_mod.parse(text, "s.md")


def test_each_backends_time_is_read_in_ms_with_its_shape():
    p = _t(V2024)
    t = p.table.set_index("backend")
    assert t.loc["eager", "value"] == pytest.approx(0.030) and t.loc["compiled", "value"] == pytest.approx(0.020)
    assert set(p.table["unit"]) == {"ms"} and set(p.table["dtype"]) == {"fp16"}
    assert t.loc["eager", ["batch", "heads", "seq_len", "seq_len_kv", "d_head"]].tolist() == [2, 8, 512, 512, 64]
    assert t.loc["eager", "input"] == "noop (2, 8, 512, 8, 512, 64)"
    assert p.rejected["reason"].tolist() == [score_mod.SPEEDUP]


def test_the_later_per_backend_columns_keep_their_backend():
    t = _t(LATER).table
    flex = t[t["backend"] == "flex"].set_index("metric")["value"]
    assert flex["latency"] == pytest.approx(0.1) and flex["tflops"] == 2.5
    assert t[t["backend"] == "math"]["value"].tolist() == [pytest.approx(0.4)]


def test_the_average_max_min_table_is_set_aside_as_recomputable():
    p = _t(SUMMARY + "\n" + V2024)
    assert (p.rejected["reason"] == score_mod.SUMMARY).sum() == 1


def test_a_summary_table_with_no_sweep_in_the_file_is_not_called_recomputable():
    # a comment that folded its sweep away (pytorch PR 130850): the file holds no time to recompute from
    reasons = set(_t(SUMMARY).rejected["reason"])
    assert reasons == {score_mod.SUMMARY_ALONE} and "recomputable" not in score_mod.SUMMARY_ALONE


def test_the_bare_throughput_columns_are_flexattentions_and_read_only_beside_it():
    cols = "| fwd_mem_bw (TB/s) | TFlops/s |"
    with_flex = _t(
        V2024.replace("| fwd_speedup |", "| fwd_speedup " + cols).replace("| 1.500 |", "| 1.500 | 0.5 | 1.2 |")
    )
    got = with_flex.table[with_flex.table["metric"] != "latency"].set_index("metric")
    assert got.loc["tflops", "backend"] == "compiled" and got.loc["mem_bw", "value"] == 0.5
    math_only = V2024.replace("fwd_compiled_time", "fwd_fakv")  # no FlexAttention backend to own them
    without = _t(
        math_only.replace("| fwd_speedup |", "| fwd_speedup " + cols).replace("| 1.500 |", "| 1.500 | 0.5 | 1.2 |")
    )
    assert set(without.table["metric"]) == {"latency"}
    assert sum("is not read" in r for r in without.rejected["reason"]) == 2


def test_a_table_without_the_shape_column_is_refused_in_one_sentence():
    with pytest.raises(ParseError, match="no score_mod.py table"):
        _t(V2024.replace(SHAPE, "shape"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_number_of_a_real_table_is_kept_or_rejected(path):
    (p,) = ingest.read_parsed(path)
    assert p.tool == score_mod.NAME and p.cells_read == len(p.table) + len(p.rejected) > 0


def test_no_other_tools_fixture_is_taken_for_a_score_mod_table():
    others = [
        f
        for d in config.FIXTURES_DIR.iterdir()
        if d.is_dir() and d.name != FIX.name
        for f in d.iterdir()
        if f.is_file() and f.name != "README.md" and not f.name.endswith(".truth.yml")
    ]
    assert [f.name for f in others if score_mod.sniff(f.read_text(encoding="utf-8", errors="replace"))] == []
    assert all(ingest.detect(f.read_text(encoding="utf-8")) == [score_mod.NAME] for f in FILES)


def test_a_score_mod_and_a_mask_mod_column_name_the_case_together():
    (p,) = ingest.read_parsed(FIX / "pytorch_pr135505_kv_batch_broadcast_score_mod_mask_mod_fwd_bwd_excerpt.md")
    t = p.table
    causal = t[(t["input"] == "mask_mod=causal (2, 16, 512, 16, 512, 64)") & (t["pass"] == "bwd")]
    assert causal.set_index("backend")["value"].to_dict() == {
        "eager": pytest.approx(0.112576),
        "compiled": pytest.approx(0.140064),
    }
    assert t["input"].nunique() == 4 and set(t["pass"]) == {"fwd", "bwd"}
    assert "no score_mod or mask_mod (2, 16, 512, 16, 512, 64)" in set(t["input"])  # the script's None, None
    assert p.cells_read == 24 and len(p.rejected) == 8  # the two speed-ups of each row set aside


def test_the_first_decoding_versions_gflops_are_read_as_tflops():
    text = V2024.replace("| fwd_speedup |", "| fwd_speedup | GFlops/s |").replace("| 1.500 |", "| 1.500 | 980.735 |")
    t = _t(text).table
    row = t[t["metric"] == "tflops"].iloc[0]
    assert (row["backend"], row["value"], row["note"]) == (
        "compiled",
        pytest.approx(0.980735),
        "printed 980.735 GFlops/s",
    )


FIRST = (
    "| shape | score_mod | dtype | fwd_eager_time | fwd_compiled_time | bwd_eager_time | bwd_compiled_time | fwd_speedup | bwd_speedup |\n"
    "|---|---|---|---|---|---|---|---|---|\n"
    "| (2, 16, 512, 64) | noop | torch.bfloat16 | 19.936 | 19.092 | 57.851 | 193.564 | 1.044 | 0.299 |\n"
)


def test_the_first_versions_shape_is_batch_heads_seq_len_and_head_dim_with_keys_as_long_as_queries():
    """score_mod.py of May 2024 asserts `ExperimentConfig.shape` of length 4, (batch_size, num_heads,
    q_seq_len, head_dim), and generates keys as long as the queries: N = M, and as many key heads."""
    assert score_mod.sniff(FIRST)
    p = _t(FIRST)
    t = p.table.set_index(["backend", "pass"])
    assert t.loc[("compiled", "bwd"), "value"] == pytest.approx(0.193564)
    assert t.loc[("eager", "fwd"), ["batch", "heads", "seq_len", "seq_len_kv", "d_head"]].tolist() == [
        2,
        16,
        512,
        512,
        64,
    ]
    assert p.rejected["reason"].tolist() == [score_mod.SPEEDUP, score_mod.SPEEDUP]


def test_a_shape_column_not_followed_by_score_mod_is_not_this_scripts_table():
    for other in (
        FIRST.replace("| score_mod |", "| kernel |", 1),
        FIRST.replace("| shape | score_mod |", "| score_mod | shape |", 1),
    ):
        assert not score_mod.sniff(other)
        with pytest.raises(ParseError, match="no score_mod.py table"):
            _t(other)


#: The first version's summary (pytorch PR 128917, June 2024): its `shape` column after `Type | Speedup`, a `mask`.
FIRST_SUMMARY = (
    "| Type    |   Speedup | shape              | score_mod   | mask   | dtype          |\n"
    "|---------|-----------|--------------------|-------------|--------|----------------|\n"
    "| Average |     0.226 |                    |             |        |                |\n"
    "| Max     |     0.480 | (2, 16, 4096, 128) | causal_mask | <fn>   | torch.bfloat16 |\n"
)


def test_the_first_versions_summary_alone_is_claimed_and_each_ratio_set_aside_with_its_line():
    """The summary keys its rows as the sweep of its version does (`shape`, `score_mod`, after `Type |
    Speedup`): claimed, so that a file holding it alone is refused naming its line, not as no tool's."""
    assert score_mod.sniff(FIRST_SUMMARY)
    p = _t(FIRST_SUMMARY)
    assert p.table.empty and list(p.rejected["line"]) == [3, 4]
    assert set(p.rejected["reason"]) == {score_mod.SUMMARY_ALONE}
    for other in (  # the same summary without the first version's field order is no table of this script
        FIRST_SUMMARY.replace("| score_mod   |", "| kernel      |", 1),
        FIRST_SUMMARY.replace("|   Speedup |", "|   Ratio   |", 1),
    ):
        assert not score_mod.sniff(other)


#: sdpa.py's pretty table (pytorch PR 122857, MI300X): ExperimentConfig's fields, then times in µs.
SDPA = (
    "+------------+-----------+-----------+------------+-----------+-----------+----------------+--------------+---------------+\n"
    "| batch_size | num_heads | q_seq_len | kv_seq_len | embed_dim | is_causal |     dtype      | forward_time | backward_time |\n"
    "+------------+-----------+-----------+------------+-----------+-----------+----------------+--------------+---------------+\n"
    "|     1      |    16     |    256    |    256     |   2048    |   False   | torch.bfloat16 |  61.26629    |  976.24545    |\n"
    "|     1      |    16     |    256    |    256     |   2048    |   True    | torch.bfloat16 |  245.51834   |  1089.02246   |\n"
    "+------------+-----------+-----------+------------+-----------+-----------+----------------+--------------+---------------+\n"
)


def test_sdpa_py_rows_are_read_with_head_dim_from_embed_dim_and_their_causal_flag():
    """sdpa.py (score_mod.py's sibling) prints each config's forward and backward time in µs; the head
    dimension is embed_dim // num_heads (its ExperimentConfig.head_dim); no forced backend: the dispatcher's."""
    assert score_mod.sniff(SDPA)
    t = _t(SDPA).table.set_index(["causal", "pass"])
    assert t.loc[("non-causal", "fwd"), "value"] == pytest.approx(0.06126629)
    assert t.loc[("causal", "bwd"), ["d_head", "seq_len_kv", "op", "backend"]].tolist() == [
        128,
        256,
        score_mod.SDPA_OP,
        "sdpa",
    ]
    assert not score_mod.sniff(SDPA.replace("forward_time", "fwd_ms"))  # not sdpa.py's columns: not claimed


def test_sdpa_py_table_the_copy_ends_inside_is_marked_where_it_ends():
    """A copy whose last line is a row of a table it never closes (no `+---+` border after it) ends inside
    the table: that row is read and marked (what the run printed after it is not in the file); a row cut
    short there is set aside; a closed table carries no mark."""
    closed = _t(SDPA)
    assert closed.rejected.empty
    open_ = SDPA.rsplit("+", 1)[0].rsplit("\n", 1)[0] + "\n"  # the closing border dropped
    marked = _t(open_)
    assert len(marked.table) == len(closed.table)
    assert marked.rejected["line"].tolist() == [5]
    assert marked.rejected["reason"].str.startswith(ingest.COPY_ENDS_AFTER).all()
    short = _t(open_.rstrip("\n").rsplit("|", 2)[0] + "| 10")  # the last row cut inside its last cell
    assert len(short.table) == len(closed.table) - 2
    assert short.rejected["line"].tolist() == [5]
    assert not short.rejected["reason"].str.startswith(ingest.COPY_ENDS_AFTER).any()
