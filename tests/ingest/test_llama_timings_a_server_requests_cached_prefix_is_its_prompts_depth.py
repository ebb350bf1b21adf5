"""llama-server's slot log prints, before it batches a task's prompt, the cache it keeps: `kv cache rm [N, end)`
(2025: `n_tokens = T, memory_seq_rm [N, end)`), N the tokens of the prompt already cached by the request before
(tools/server `update_slots`); it prints it again before each later batch of the same prompt. The task's first
is the request's `n_cached`, and its prompt's rate is a rate at that depth (`pp2036 @ d1276`, as llama-bench's
`pp512 @ d4096`): requests that follow a growing cached prefix are no sweep of the prompt length."""

from __future__ import annotations

from benchbook.analysis import bandwidth, prefill
from benchbook.ingest import llama_timings


def _task(task: int, n_prompt: int, cached: list[int], n: int, ms: float, rm: str = "kv cache rm [{}, end)") -> str:
    lines = [
        f"slot launch_slot_: id  0 | task {task} | processing task",
        f"slot update_slots: id  0 | task {task} | new prompt, n_ctx_slot = 16384, n_keep = 0, n_prompt_tokens = {n_prompt}",
        *[f"slot update_slots: id  0 | task {task} | " + rm.format(c) for c in cached],
        f"slot print_timing: id  0 | task {task} | ",
        f"prompt eval time = {ms:10.2f} ms / {n:5d} tokens ({ms / n:8.2f} ms per token, {1e3 * n / ms:8.2f} tokens per second)",
        "       eval time =  155399.04 ms /  1138 tokens (  136.55 ms per token,     7.32 tokens per second)",
    ]
    return "\n".join(lines) + "\n"


SERVER = "./llama-server -m /models/llama-8B-Q4_0.gguf -ngl 99\n\n"
LOG = (
    SERVER
    + _task(1048, 1276, [536], 740, 9258.01)
    + _task(2187, 3312, [1276], 2036, 12816.60)
    + _task(3487, 5481, [3312, 5360], 2169, 21481.40)
)


def _table(text: str):
    return llama_timings.parse(text, "x.md").table.assign(source="x.md")


def test_each_request_takes_its_tasks_first_cache_rm_as_its_cached_prefix():
    t = _table(LOG)
    assert t.groupby("request")["n_cached"].first().tolist() == [536, 1276, 3312]


def test_the_2025_print_memory_seq_rm_reads_the_same():
    t = _table(_task(9, 3312, [1276], 2036, 12816.60, rm="n_tokens = 1276, memory_seq_rm [{}, end)"))
    assert t["n_cached"].iloc[0] == 1276


def test_a_log_with_no_cache_line_leaves_the_prefix_unknown_and_the_test_plain():
    text = "prompt eval time =     9258.01 ms /   740 tokens (   12.51 ms per token,    79.93 tokens per second)\n"
    t = _table(text)
    assert t["n_cached"].isna().all()
    assert bandwidth.request_rows(t, "pp_rate")["test"].tolist() == ["pp740"]


def test_the_prompt_rate_is_at_its_depth_and_no_prompt_length_sweep():
    rows = bandwidth.request_rows(_table(LOG), "pp_rate")
    assert rows["test"].tolist() == ["pp740 @ d536", "pp2036 @ d1276", "pp2169 @ d3312"]
    assert not [s for s in prefill.sweeps(rows) if s["setting"] == "n_prompt"]


def test_requests_of_one_depth_still_sweep_the_prompt_length():
    text = SERVER + "".join(_task(k, n, [0], n, n * 5.0) for k, n in ((1, 512), (2, 1024), (3, 2048)))
    rows = bandwidth.request_rows(_table(text), "pp_rate")
    assert rows["test"].tolist() == ["pp512", "pp1024", "pp2048"]
    assert [s["setting"] for s in prefill.sweeps(rows)] == ["n_prompt"]
