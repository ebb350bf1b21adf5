"""Where the batch chapter has no batch size with a result (an offline run alone), each empty figure
is replaced by its own sentence: the throughput figure and the msec/token figure said the same bare
fragment ("No batch size with a result") twice on one page, beside a sentence saying it a third time.
A sweep with results draws both figures."""

from __future__ import annotations

import matplotlib.pyplot as plt

from benchbook.chapter import setup
from benchbook.topics import batch_saturation as topic


def _figures(source: str) -> dict:
    return topic.page(topic.analyse(setup("batch_saturation", {"source": source}))).figures


def test_an_offline_run_alone_gets_one_distinct_sentence_per_empty_figure():
    figs = _figures("tests/fixtures/vllm-bench-offline/lfm25_350m_h100_bench_throughput.md")
    said = [getattr(figs[k], "benchbook_message", None) for k in ("fig_throughput", "fig_ms", "fig_roofline")]
    plt.close("all")
    assert all(s and s.startswith("No ") and s.endswith(".") for s in said), said
    assert len(set(said)) == 3


def test_a_sweep_with_results_draws_both_figures():
    figs = _figures("data/raw/bloom_batch/003_7819709fab0fbd59.txt")
    drawn = [getattr(figs[k], "benchbook_message", None) for k in ("fig_throughput", "fig_ms")]
    plt.close("all")
    assert drawn == [None, None]
