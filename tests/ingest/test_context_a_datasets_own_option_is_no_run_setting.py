"""`vllm bench serve`'s Namespace prints every dataset's options, used or not: `random_batch_size=1` is the
random dataset's embeddings batching ("Only used for embeddings benchmark"), never the run's batch; a bare
`batch_size=1` still is."""

from __future__ import annotations

from benchbook.ingest import context

NS = "Namespace(subparser='bench', dataset_name='sharegpt', {key}=1, request_rate=inf)"


def test_a_datasets_batch_option_is_not_the_runs_batch():
    assert not context.read([NS.format(key="random_batch_size")]).get("batch")


def test_a_bare_batch_size_is_the_runs_batch():
    assert [f.value for f in context.read([NS.format(key="batch_size")]).get("batch")] == [1]
