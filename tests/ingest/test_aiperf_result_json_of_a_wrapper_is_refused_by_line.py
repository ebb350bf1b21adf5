"""A result JSON another program wrote from an AIPerf run in vLLM bench serve's key names (tt-inference-server's
`"backend": "aiperf"` record, no duration) is refused naming its opening line."""

from __future__ import annotations

from benchbook.ingest import aiperf

RECORD = """### Sample Result

```json
{
  "date": "20251210-160152",
  "backend": "aiperf",
  "model_id": "google/gemma-3-4b-it",
  "max_concurrency": 32,
  "mean_ttft_ms": 2396.53,
  "request_throughput": 3.96,
  "completed": 256
}
```
"""


def test_the_wrappers_record_is_refused_at_its_opening_brace():
    line, why = aiperf.TOOL.refuses(RECORD)
    assert line == 4
    assert '"backend": "aiperf" at line 6' in why and "without a duration" in why


def test_a_record_with_a_duration_or_another_backend_is_not_this_refusal():
    assert aiperf.TOOL.refuses(RECORD.replace('"completed": 256', '"duration": 64.6')) is None
    assert aiperf.TOOL.refuses(RECORD.replace('"aiperf"', '"vllm"')) is None
