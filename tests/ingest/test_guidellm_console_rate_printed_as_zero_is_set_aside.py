"""GuideLLM's console rounds each Server Throughput cell to one decimal, so a synchronous run of
long requests (about 0.03 req/s) prints `0.0` requests per second. That cell is a rate under half its
last digit, not a rate of zero: it is set aside with the reason, while a nonzero rate beside it is
read (synthetic tables in the 0.4+ layout, values made up)."""

from __future__ import annotations

from benchbook.ingest import guidellm as g

_TABLE = (
    "ℹ Server Throughput Statistics (All Requests)\n"
    "|=============|=====|======|=======|======|========|=======|\n"
    "| Benchmark   | Requests               |||| Output Tokens ||\n"
    "| Strategy    | Per Sec   || Concurrency || Per Sec       ||\n"
    "|             | Mdn | Mean | Mdn   | Mean | Mdn    | Mean  |\n"
    "|-------------|-----|------|-------|------|--------|-------|\n"
    "| synchronous | {rate} | {rate}  | 1.0   | 1.0  | 33.4   | 33.4  |\n"
    "|=============|=====|======|=======|======|========|=======|\n"
)


def _rows(t, metric):
    return t[(t["run"] == "synchronous") & (t["metric"] == metric)]


def test_a_request_rate_printed_as_zero_is_set_aside_as_rounded():
    p = g.parse(_TABLE.format(rate="0.0"), "sync.txt")
    assert _rows(p.table, "request_throughput").empty
    rej = p.rejected
    reasons = rej[rej["text"].str.contains("Requests Per Sec")]["reason"].tolist()
    assert len(reasons) == 2 and all("under 0.05 req/s" in r and "not a zero rate" in r for r in reasons)
    assert set(_rows(p.table, "output_throughput")["value"]) == {33.4}  # the nonzero rate is kept (median, mean)
    assert set(_rows(p.table, "concurrency")["value"]) == {1.0}  # a count of 0 would not be a rate


def test_a_request_rate_printed_above_zero_is_read():
    p = g.parse(_TABLE.format(rate="0.2"), "sync.txt")
    assert set(_rows(p.table, "request_throughput")["value"]) == {0.2}
    assert not p.rejected["text"].str.contains("Requests Per Sec").any()
