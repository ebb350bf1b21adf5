"""A dgxc-benchmarking log name (`--- <Model>_TP<n>_EP<n>_PP<n>_CON<n>_<use case>_streaming-on_<job>.out ---`)
above a PERFORMANCE OVERVIEW its parser cut from the log names that block's run and gives its settings."""

from benchbook.ingest import trtllm_bench

BLOCK = """= PERFORMANCE OVERVIEW
===========================================================
Request Throughput (req/sec):                     {rps}
Total Output Throughput (tokens/sec):             {tps}
Total Token Throughput (tokens/sec):              20100.0246
Total Latency (ms):                               52167.8963
Average request latency (ms):                     7928.0253
Per User Output Throughput [w/ ctx] (tps/user):   16.8550
Per GPU Output Throughput (tps/gpu):              {tps}
"""


def _runs(text: str):
    t = trtllm_bench.parse(text, "f.md").table
    return t[["run", "model", "max_concurrency", "dataset", "metadata"]].drop_duplicates("run")


def test_the_name_line_gives_the_block_its_concurrency_degrees_model_and_use_case():
    text = "\n".join(
        [
            "--- Llama3.3-70B_TP1_EP1_PP1_CON640_chat_streaming-on_190.out ---",
            BLOCK.format(rps="78.5157", tps="10050.0123"),
            "--- DeepSeek-R1_max_throughput_TP4_EP4_PP1_CON1024_reasoning_streaming-on_351.out ---",
            BLOCK.format(rps="16.2583", tps="16258.3472"),
        ]
    )
    runs = _runs(text).set_index("run")
    chat = runs.loc["Llama3.3-70B_TP1_EP1_PP1_CON640_chat_streaming-on_190"]
    assert chat["max_concurrency"] == 640 and chat["model"] == "Llama3.3-70B" and chat["dataset"] == "chat"
    r1 = runs.loc["DeepSeek-R1_max_throughput_TP4_EP4_PP1_CON1024_reasoning_streaming-on_351"]
    assert r1["max_concurrency"] == 1024 and r1["dataset"] == "reasoning"
    assert "tp=4" in r1["metadata"] and "ep=4" in r1["metadata"]


def test_a_name_line_without_a_concurrency_is_a_name_and_no_setting():
    text = "\n".join(["--- nightly_build_42 ---", BLOCK.format(rps="78.5157", tps="10050.0123")])
    run = _runs(text).iloc[0]
    assert run["run"] == "nightly_build_42"
    assert run["max_concurrency"] != run["max_concurrency"]  # NaN: the name states no concurrency
    assert run[["dataset", "model"]].isna().all()


def test_a_block_under_prose_keeps_no_name_from_it():
    text = "\n".join(["Results of the run -- see below:", "", BLOCK.format(rps="78.5157", tps="10050.0123")])
    assert _runs(text).iloc[0]["run"] != "Results of the run -- see below:"
