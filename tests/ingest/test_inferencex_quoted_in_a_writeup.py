"""InferenceX rows quoted in a fenced block of a write-up are read with their own line numbers (the
rest of the text blanked), and a number under a role's prefix counts as a cell unless it is one of the
role settings process_result.py writes (`decode_tp`, `prefill_dp_attention`, ...)."""

from __future__ import annotations

import json

import pytest

from benchbook.ingest import ParseError, inferencex

POINT = {
    "hw": "b200",
    "conc": 8,
    "tp": 8,
    "tput_per_gpu": 100.0,
    "mean_ttft": 0.5,
    "decode_tp": 8,
    "decode_avg_power_w": 700.0,
}


def _writeup(points) -> str:
    """A write-up as the DeepSeek-V4 note of stop 40 is laid out: prose, a hand-made table, then the
    rows in a ```json fence."""
    body = json.dumps(points, indent=2)
    return (
        "## Final run\n\n| GBS | TPOT |\n|---:|---:|\n| 16 | 22.1 |\n\nExact flat rows:\n\n```json\n" + body + "\n```\n"
    )


def test_the_fenced_rows_of_a_writeup_keep_their_lines():
    text = _writeup([POINT, dict(POINT, conc=64, mean_ttft=4.9)])
    p = inferencex.parse(text, "w.md")
    t = p.table
    ttft = t[(t["metric"] == "ttft") & (t["statistic"] == "mean")].sort_values("max_concurrency")
    assert ttft["value"].tolist() == pytest.approx([500.0, 4900.0])
    lines = text.split("\n")
    assert [lines[k - 1].strip() for k in ttft["line"]] == ['"mean_ttft": 0.5,', '"mean_ttft": 4.9,']
    assert p.cells_read == len(t) + len(p.rejected)


def test_a_writeup_whose_fence_holds_no_result_is_refused_as_before():
    with pytest.raises(ParseError, match="not valid JSON"):
        inferencex.parse('Notes\n\n```json\n{"hw": "b200", "conc": 1, "tput_per_gpu": }\n```\n', "w.md")


def test_a_roles_measurement_is_a_cell_and_its_setting_is_not():
    p = inferencex.parse(json.dumps(POINT, indent=1), "p.json")
    texts = set(p.rejected["text"])
    assert any(x.startswith("decode_avg_power_w") for x in texts)  # counted, with its reason
    assert not any(x.startswith("decode_tp") for x in texts) and "decode_tp=8" in p.table["metadata"].iat[0]
