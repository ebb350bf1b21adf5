"""An Offline summary's completed samples: `samples_per_query` only where its rate over the max latency gives
the printed `Samples per second` to the digits printed; with `sample_concatenate_permutation` the query holds
whole copies of the `performance_sample_count` loaded, so the next whole number of them where that gives the
rate; neither where neither does."""

from __future__ import annotations

import pytest

from benchbook.ingest import mlperf

BANNER = "=" * 48


def _summary(rate: str, max_ns: int, per_query: int, loaded: int) -> str:
    return "\n".join(
        [
            BANNER,
            "MLPerf Results Summary",
            BANNER,
            "SUT name : PySUT",
            "Scenario : Offline",
            "Mode     : PerformanceOnly",
            f"Samples per second: {rate}",
            "Result is : VALID",
            "",
            BANNER,
            "Additional Stats",
            BANNER,
            "Min latency (ns)                : 7415211977",
            f"Max latency (ns)                : {max_ns}",
            "",
            BANNER,
            "Test Parameters Used",
            BANNER,
            f"samples_per_query : {per_query}",
            "target_qps : 360",
            f"performance_sample_count : {loaded}",
            "",
            "No errors encountered during test.",
            "",
        ]
    )


def _completed(text: str):
    df = mlperf.parse(text, "s.txt").table
    rows = df[df.metric == "completed"]
    return (rows.value.tolist(), rows.note.tolist())


def test_a_setting_that_gives_the_rate_is_the_samples_completed():
    # 51,200 / 2,994.801 s = 17.09629: printed 17.0963
    values, notes = _completed(_summary("17.0963", 2994801193381, 51200, 5000))
    assert values == [51200.0] and notes == [mlperf.OFFLINE_NOTE]


@pytest.mark.parametrize(
    ("rate", "max_ns", "per_query", "loaded", "whole"),
    [
        ("289.407", 823816006149, 237600, 1633, 238418),  # 146 x 1,633; the setting is 0.3 % short
        ("49.4137", 726621025968, 35904, 43, 35905),  # 835 x 43; the setting is one sample short
    ],
)
def test_a_concatenated_query_is_the_next_whole_number_of_copies_of_the_loaded_samples(
    rate, max_ns, per_query, loaded, whole
):
    values, notes = _completed(_summary(rate, max_ns, per_query, loaded))
    assert values == [float(whole)] and notes == [mlperf.CONCATENATED_NOTE]


def test_a_rate_neither_count_gives_states_no_samples_completed():
    # 237,600 / 823.816 s = 288.41 and 238,418 / 823.816 s = 289.41: a rate of 280.000 is neither
    assert _completed(_summary("280.000", 823816006149, 237600, 1633)) == ([], [])
