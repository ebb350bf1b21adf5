"""A batch page's table of runs with no batch setting shows each number to the table's significant
digits once: trtllm-bench's `Request Throughput (req/sec): 0.1341` reads 0.134, not a two-decimal 0.13
padded to 0.130 (a digit the output does not print)."""

from __future__ import annotations

import pytest

from benchbook import chapter
from benchbook.presentation import batch as show
from benchbook.presentation import tables
from benchbook.topics import batch_saturation

FIX = "tests/fixtures/trtllm-bench/dsr1_blog_b200_min_latency_fp4_tp8_ep2_mtp3.md"


@pytest.fixture(scope="module")
def offline():
    return batch_saturation.analyse(chapter.setup("batch_saturation", {"source": FIX})).offline


def test_the_table_keeps_the_printed_value(offline):
    assert show.offline_table(offline)["req/s"].iat[0] == pytest.approx(0.1341, abs=1e-4)


def test_the_page_shows_three_significant_digits_of_it(offline):
    html = tables.show(show.offline_table(offline)).to_html()
    assert ">0.134<" in html and ">0.130<" not in html
