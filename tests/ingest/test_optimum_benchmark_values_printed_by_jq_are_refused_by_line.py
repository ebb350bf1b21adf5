"""optimum-benchmark report fields printed by a jq filter as bare values are refused naming the jq line."""

from __future__ import annotations

from benchbook.ingest import optimum_benchmark

JQ = """```bash
for i in {1..2}; do
    cat "experiments/llama-2-7b_ort/$i/benchmark_report.json" | jq '.batch_size, .decode.throughput."mean[tokens/s]"'
done

1
10.64650340356247
64
-744.356127863481
```
"""


def test_the_jq_line_is_named_with_the_values_it_printed():
    line, why = optimum_benchmark.refuses(JQ)
    assert line == 3
    assert "4 bare values" in why and '.decode.throughput."mean[tokens/s]"' in why


def test_a_jq_filter_over_other_keys_or_with_no_values_is_not_refused():
    assert optimum_benchmark.refuses(JQ.replace('.decode.throughput."mean[tokens/s]"', ".name")) is None
    assert optimum_benchmark.refuses(JQ.split("done")[0]) is None
