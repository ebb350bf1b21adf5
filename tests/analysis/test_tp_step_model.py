"""The TP chapter's scaling model of a decode step and the all-reduces' lower bound, worked by hand."""

import numpy as np

from benchbook.analysis import tp
from benchbook.ingest.context import Context, Fact, Sign


def test_a_step_splits_its_work_and_pays_per_added_gpu():
    # 100 ms split over N, 10 ms per GPU past the first, 5 ms fixed: 105, 65, 60 ms at 1, 2, 4
    np.testing.assert_allclose(tp.tp_step_ms([1, 2, 4], 100.0, 10.0, 5.0), [105.0, 65.0, 60.0])


def test_the_allreduce_budget_counts_what_each_gpu_sends():
    b = tp.allreduce_budget(layers=32, hidden=4096, batch_size=1, n_gpus=2, link_gb_s=100.0)
    # 64 all-reduces of 4096 x 2 bytes; each GPU sends 2(N - 1)/N = 1 of each: 524,288 bytes
    assert b == {
        "allreduces": 64,
        "bytes_each": 8192.0,
        "bytes_sent": 524288.0,
        "link_gb_s": 100.0,
        "bandwidth_ms": 524288.0 / 1e11 * 1000,
    }


def test_a_window_keeps_only_the_lines_strictly_inside_it():
    facts = tuple(Fact(name="tp", value=2, line=n, source="text", text="TP 2") for n in (1, 5, 10))
    signs = tuple(Sign(name="tp", line=n, text="TP") for n in (1, 5, 10))
    inside = tp._within(Context(facts=facts, signs=signs), (1, 10))
    assert [f.line for f in inside.facts] == [5]
    assert [s.line for s in inside.signs] == [5]
