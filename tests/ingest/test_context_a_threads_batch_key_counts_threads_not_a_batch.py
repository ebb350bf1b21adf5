"""llama.cpp prints its thread counts as `system_info: n_threads = 16 (n_threads_batch = 16) / 32`:
`n_threads_batch` (`-tb, --threads-batch`) is "number of threads to use during batch and prompt processing",
a count of threads, never how many sequences the run batched. A key whose earlier part names threads is
no batch; `batch_size = 16` and a bracketed `(batch_size = 4)` still are."""

from __future__ import annotations

from benchbook.ingest import context


def _batch(line: str) -> list:
    return [f.value for f in context.read([line, ""]).get("batch")]


def test_llama_cpps_threads_batch_is_no_batch():
    line = "system_info: n_threads = 16 (n_threads_batch = 16) / 32 | ROCm : NO_VMM = 1 | PEER_MAX_BATCH_SIZE = 128 |"
    assert _batch(line) == []


def test_a_threads_batch_assignment_is_no_batch():
    assert _batch("run with threads_batch=8") == []


def test_a_batch_size_is_still_a_batch():
    assert _batch("batch_size = 16") == [16]


def test_a_bracketed_batch_size_is_still_a_batch():
    assert _batch("## base (batch_size = 4):") == [4]
