"""A TGI table section that states no TP takes the one TP the rest of its file states (a launch
command, a heading, a key-value line), never another model's, and the page says where it came from."""

from __future__ import annotations

import pandas as pd

from benchbook import config
from benchbook.analysis import tp
from benchbook.presentation import tp as view

FIX = config.FIXTURES_DIR / "tgi-benchmark"


def _w(name: str, model: str = "meta-llama/Llama-2-7b-hf", tp_value=None) -> pd.DataFrame:
    return pd.DataFrame({"source": [name, name], "model": [model, model], "tp": [tp_value, tp_value]})


def _fill(tmp_path, text: str, **kw):
    f = tmp_path / "run.md"
    f.write_text(text)
    return tp.fill_tp(_w("run.md", **kw), [f], 1)


def test_a_launch_command_for_the_same_model_states_the_tp(tmp_path):
    w, (note,) = _fill(
        tmp_path, "text-generation-launcher --model-id meta-llama/Llama-2-7b-hf --num-shard 2\n\n| x |\n"
    )
    assert list(w["tp"]) == [2, 2] and w["tp_stated"].all()
    assert (note["status"], note["tp"], note["line"], note["source"]) == ("stated", 2, 1, "command")
    assert "states TP 2 on line 1" in view.tp_sentence([note])


def test_a_heading_states_the_tp_of_the_tables_below(tmp_path):
    w, (note,) = _fill(tmp_path, "# Benchmarks\n\n## Llama 2 on 4 shards, TP 4\n\n| x |\n")
    assert list(w["tp"]) == [4, 4] and (note["source"], note["line"]) == ("heading", 3)


def test_the_shard_count_of_a_command_launching_another_model_is_not_taken(tmp_path):
    w, (note,) = _fill(
        tmp_path, "docker run image --model-id meta-llama/Meta-Llama-3-8B --num-shard 1\n", model="x/Llama-3-70B"
    )
    assert list(w["tp"]) == [1, 1] and not w["tp_stated"].any()  # assumed (tp_unknown), not stated
    assert (note["status"], note["model"]) == ("other_model", "meta-llama/Meta-Llama-3-8B")
    assert "another model" in view.tp_sentence([note])


def test_the_real_workshop_file_launches_another_model_than_it_benchmarks():
    from benchbook import ingest

    raw, _ = ingest.read_all([FIX / "ms_build_mi300_llama3_70b.md"], tool="tgi-benchmark")
    w, _ = tp.combine(tp.wide(raw))
    _, (note,) = tp.fill_tp(w, [FIX / "ms_build_mi300_llama3_70b.md"], 1)
    assert (note["status"], note["line"]) == ("other_model", 12)


def test_several_tps_with_no_tie_to_the_table_are_named_and_the_tp_assumed(tmp_path):
    w, (note,) = _fill(tmp_path, "## TP 2\n\n## TP 4\n\n| x |\n")
    assert not w["tp_stated"].any() and (note["status"], note["values"]) == ("several", [2, 4])


def test_a_line_that_speaks_of_shards_without_a_number_is_named(tmp_path):
    w, (note,) = _fill(tmp_path, "top_tokens_llama2_7b_shard_x.txt\n\n| x |\n")
    assert (note["status"], note["line"]) == ("unread", 1)
    assert "line 1 speaks of one" in view.tp_sentence([note])


def test_no_sign_of_a_tp_anywhere_is_the_only_not_stated(tmp_path):
    w, (note,) = _fill(tmp_path, "| x |\n")
    assert note["status"] == "absent" and "does not state its TP anywhere" in view.tp_sentence([note])


def test_tables_that_state_their_tp_need_no_note(tmp_path):
    w, notes = _fill(tmp_path, "--num-shard 8\n", tp_value=2)
    assert notes == [] and list(w["tp"]) == [2, 2]


def test_a_command_for_the_same_model_that_states_another_tp_is_a_conflict_the_page_states(tmp_path):
    text = "text-generation-launcher --model-id meta-llama/Llama-2-7b-hf --num-shard 4\n"
    w, (note,) = _fill(tmp_path, text, tp_value=2)
    assert list(w["tp"]) == [2, 2]  # the tables' own TP ranks first
    assert (note["status"], note["tp"], note["other"], note["line"]) == ("conflict", 2, 4, 1)
    assert "states TP 4 for the same model" in view.tp_sentence([note])


def test_a_command_for_another_model_is_no_conflict(tmp_path):
    text = "text-generation-launcher --model-id bigscience/bloom --num-shard 4\n"
    assert _fill(tmp_path, text, tp_value=2)[1] == []


def _two_tables(tmp_path, text: str):
    """A file whose first table (rows on lines 5-6) states no TP and whose second (lines 20-21) states
    TP 4, as the parser gives them."""
    f = tmp_path / "run.md"
    f.write_text(text)
    w = pd.DataFrame({"source": ["run.md"] * 4, "model": ["m"] * 4, "tp": [None, None, 4, 4], "line": [5, 6, 20, 21]})
    return tp.fill_tp(w, [f], 1)


def test_a_table_without_a_tp_is_said_to_state_none_never_the_file(tmp_path):
    """TP is stated per table: the second table's TP 4 is the file's statement about that table, so
    the page says the first states none, and never that the file states no TP anywhere."""
    lines = ["# TGI 1.0.1", "", "| x |", "", "", "", "", "", "", "", "", "", "", "", "# TGI NUM_SHARD=4", ""]
    w, (note,) = _two_tables(tmp_path, "\n".join(lines) + "\n")
    assert list(w["tp"]) == [1, 1, 4, 4] and list(w["tp_stated"]) == [False, False, True, True]
    assert (note["status"], note["first"], note["last"], note["others"]) == (
        "table_absent",
        5,
        6,
        [{"tp": 4, "first": 20, "last": 21}],
    )
    said = view.tp_sentence([note])
    assert "The tables on lines 5-6 of" in said and "TP 4 for its tables on lines 20-21" in said
    assert "anywhere" not in said


def test_a_tp_stated_above_a_table_is_that_tables_and_not_the_next_ones(tmp_path):
    """The other way: a command above the first table states its TP; a `TP: 8` line between the two
    tables sits above the second (whose own TP the parser read) and is not the first table's."""
    lines = ["text-generation-launcher --model-id m --num-shard 2", "", "| x |", "", "", "", "", "", "TP: 8"]
    w, (note,) = _two_tables(tmp_path, "\n".join(lines) + "\n")
    assert list(w["tp"]) == [2, 2, 4, 4] and w["tp_stated"].all()
    assert (note["status"], note["tp"], note["line"]) == ("stated", 2, 1)
    assert "states TP 2 on line 1 (its command), above them" in view.tp_sentence([note])
    w, (note,) = _two_tables(tmp_path, "# x\n\n| x |\n\n\n\n\n\nTP: 8\n")
    assert list(w["tp"]) == [1, 1, 4, 4] and note["status"] == "table_absent"


def test_one_count_of_devices_the_run_used_is_its_shard_count(tmp_path):
    # TGI splits a model only by tensor parallel, one shard per device: a run on 2 HPUs is TP 2
    w, (note,) = _fill(tmp_path, "Run the benchmark for Mixtral 8x7B on 2x HPUs.\n\n| x |\n")
    assert list(w["tp"]) == [2, 2] and w["tp_stated"].all()
    assert (note["status"], note["tp"], note["line"]) == ("devices", 2, 1)
    assert "runs it on 2 devices" in view.tp_sentence([note])


def test_two_counts_of_devices_give_no_shard_count(tmp_path):
    w, (note,) = _fill(tmp_path, "We ran on 2 GPUs.\n\nThen on a server with 4 GPUs.\n\n| x |\n")
    assert not w["tp_stated"].any() and note["status"] == "absent"


def test_a_throughput_table_alone_is_stated_with_its_averages():
    rows = [("prefill_throughput", 1, 3.75), ("prefill_throughput", 32, 880.87), ("decode_throughput", 1, 16.76)]
    w = pd.DataFrame(rows, columns=["metric", "batch_size", "mean"])
    dec, pre = tp.throughputs_only(w)
    assert (dec["step"], dec["first"], dec["n"]) == ("decode", 16.76, 1)
    assert (pre["unit"], pre["last_batch"], pre["last"]) == ("seq/s", 32, 880.87)
    # the other way: with a latency table the throughputs are the sections' own numbers, not listed apart
    lat = pd.DataFrame([("decode_token_latency", 1, 59.6)], columns=["metric", "batch_size", "mean"])
    assert tp.throughputs_only(pd.concat([w, lat])) == []
