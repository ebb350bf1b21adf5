"""A lifecycle report pasted after other text (a shell prompt run into a `cat`) and cut before its closing
brace is refused naming its `{`; the same report closed is not this refusal."""

from __future__ import annotations

from benchbook.ingest import inference_perf

PASTED = """```
}root@test:/ip# cat reports/stage_1_lifecycle_metrics.json
{
  "load_summary": {
    "count": 120,
    "requested_rate": 4.0
  },
  "successes": {
    "count": 120,
"""


def test_a_cut_report_after_a_prompt_is_named_at_its_brace():
    line, why = inference_perf.refuses(PASTED)
    assert line == 3
    assert why.startswith("an inference-perf report (lifecycle or Prometheus) that the copy ends inside, at line 9")


def test_the_same_report_closed_is_not_this_refusal():
    assert inference_perf.refuses(PASTED + "  }\n}\n```\n") is None
