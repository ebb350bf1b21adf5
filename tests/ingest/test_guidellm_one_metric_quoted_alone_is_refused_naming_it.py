"""One metric of a GuideLLM benchmarks report quoted alone in an issue (guidellm issue 216: the
`time_to_first_token_ms` statistics of 99 successful requests against Ollama, their mean and median
negative) is refused naming its line: the benchmark around it is not in the file, and a negative time is
said as one no request took. A report that holds its benchmarks is not this case."""

from __future__ import annotations

from benchbook.ingest import guidellm

ISSUE216 = """### Faulty Output JSON Example:

```
"time_to_first_token_ms": {
    "successful": {
        "mean": -1715507074412.1443,
        "median": -1750878354510.5388,
        "max": 89488.18135261536,
        "count": 99
    }
}
```
"""


def test_one_metric_quoted_alone_is_refused_at_its_line_with_its_negative_times_said():
    line, why = guidellm.refuses(ISSUE216)
    assert line == 4
    assert "`time_to_first_token_ms`, 99 values" in why
    assert "its mean and median are negative, a time no request took" in why


def test_a_positive_metric_is_refused_without_the_negative_clause():
    _, why = guidellm.refuses(ISSUE216.replace("-17", "17"))
    assert "negative" not in why and "quoted alone" in why


def test_the_other_way_a_report_with_its_benchmarks_is_not_this_refusal():
    assert guidellm._metric_extract('{"benchmarks": [\n' + ISSUE216 + "\n]}") is None
