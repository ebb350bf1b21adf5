"""A line asking someone for a run (`can you check ... on b200`) says where a run is wanted, not where one
ran: it gives no device (a sign naming its line), where a sentence saying where a run ran gives one."""

from __future__ import annotations

from benchbook.analysis import roofline
from benchbook.claims.rules import no_device_reason
from benchbook.ingest import context

ASKED = "can you check after the latest 2 prs I just landed they should have helped perf at least on b200"


def test_a_request_names_no_device_and_leaves_a_sign_on_its_line():
    ctx = context.read(["results:", ASKED])
    assert not ctx.get("device") and [s.line for s in ctx.signs if s.name == "device"] == [2]
    found = roofline.named(["results:\n" + ASKED])
    assert found.device is None
    assert roofline.said(found) == {"device_asked_line": 2}
    assert "asks for a run on a device" in no_device_reason(roofline.said(found))


def test_a_sentence_saying_where_the_run_ran_names_its_device():
    assert roofline.named(["results:\nI ran it again on b200"]).device == "B200-180GB"
