"""A run label taken from a markdown heading is the heading as a rendered page shows it: the HTML a
README writes into it (an anchor `<a name="toc_11"></a>`, `<b>`) is markup, not part of the name.
Text in angle brackets that is no tag (`<= 4 GPUs`) is the name's own."""

from benchbook.ingest import vllm_serve
from benchbook.ingest.core import heading_words

BLOCK = """\
{heading}

============ Serving Benchmark Result ============
Successful requests:                     1
Benchmark duration (s):                  5.68
Total input tokens:                      857
Total generated tokens:                  64
Request throughput (req/s):              0.18
Output token throughput (tok/s):         11.26
Total Token throughput (tok/s):          162.02
---------------Time to First Token----------------
Mean TTFT (ms):                          229.47
Median TTFT (ms):                        229.47
P99 TTFT (ms):                           229.47
==================================================
"""


def test_an_anchor_and_a_bold_tag_are_dropped_from_a_heading():
    assert heading_words('<a name="toc_11"></a>Test 9: 4 <b>GPU</b>  pods') == "Test 9: 4 GPU pods"


def test_angle_brackets_that_are_no_tag_stay():
    assert heading_words("Test 1: <= 4 GPUs, batch < 8") == "Test 1: <= 4 GPUs, batch < 8"


#: A second test's heading and block after the one under test: a heading names a run only where it tells
#: it apart from another (`headings.names`).
OTHER = BLOCK.format(heading="### Test 10: 8 GPU pods")


def test_a_serving_run_label_from_a_heading_with_an_anchor_has_no_markup():
    text = BLOCK.format(heading='### <a name="toc_11"></a>Test 9: 4 GPU pods') + OTHER
    df = vllm_serve.parse(text, "readme.md").table
    assert list(df["run"].unique()) == ["Test 9: 4 GPU pods", "Test 10: 8 GPU pods"]


def test_a_serving_run_label_from_a_plain_heading_is_as_written():
    df = vllm_serve.parse(BLOCK.format(heading="### Test 9: 4 GPU pods <= 8") + OTHER, "readme.md").table
    assert list(df["run"].unique()) == ["Test 9: 4 GPU pods <= 8", "Test 10: 8 GPU pods"]
