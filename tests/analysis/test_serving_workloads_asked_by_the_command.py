"""Where the output prints neither token totals nor sequence lengths, the workload a run's command asks for
(AIPerf's `--synthetic-input-tokens-mean` / `--output-tokens-mean`, kept in its metadata) tells two runs apart:
32k/200 against 8k/300 tokens are two series, labelled as asked, never two loads of one sweep; commands asking
for the same lengths are one workload; a measured mean is taken before the asked one."""

import pandas as pd

from benchbook import config
from benchbook.analysis import serving

PREFILL = config.FIXTURES_DIR / "aiperf" / "aiperf_docs_prefill_concurrency_three_runs.md"


def _runs(*asked, measured=None):
    meta = [f"input_tokens_mean={i}; output_tokens_mean={o}; cli_command=aiperf profile" for i, o in asked]
    r = pd.DataFrame({"metadata": meta})
    if measured is not None:
        r["input_sequence_length_mean"], r["output_sequence_length_mean"] = zip(*measured, strict=True)
    return r


def test_runs_asking_for_other_lengths_are_other_workloads_labelled_as_asked():
    assert list(serving.workloads(_runs((32000, 200), (8000, 300)))) == [
        "asked: 32,000 in / 200 out tokens a request",
        "asked: 8,000 in / 300 out tokens a request",
    ]


def test_runs_asking_for_the_same_lengths_are_one_workload():
    assert list(serving.workloads(_runs((8000, 300), (8000, 300)))) == ["", ""]


def test_measured_means_are_taken_before_the_asked_ones():
    r = _runs((32000, 200), (8000, 300), measured=[(8100.0, 290.0), (8000.0, 300.0)])
    assert list(serving.workloads(r)) == ["", ""]


def test_the_prefill_tutorial_runs_are_three_series_not_a_sweep():
    r, _ = serving.load([PREFILL])
    assert serving.series_key(r).nunique() == 3
    assert serving.workloads(r).str.startswith("asked: ").all()
