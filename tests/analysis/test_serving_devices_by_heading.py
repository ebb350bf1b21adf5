"""A write-up that heads each machine's part (`## GB10 ...`, later `## Benchmark on 16xH800`) ran the
blocks under each heading there: each run is measured against its own heading's device, and a run of
another file, whose headings name no machine, gets none from them."""

from __future__ import annotations

import pandas as pd

from benchbook.analysis import serving

# the last line holds a byte no UTF-8 reads: the file is still read, the byte replaced
TWO = b"# Bench\n\n## GB10 (DGX spark)\n\nresult A\n\n## Benchmark on 16xH800\n\nresult B \xff\n"


def _runs(tmp_path):
    two, plain = tmp_path / "two.md", tmp_path / "plain.md"
    two.write_bytes(TWO)
    plain.write_text("result C\n")
    r = pd.DataFrame({"source": ["two.md", "two.md", "plain.md"], "line": [5, 9, 1], "run": ["a", "b", "c"]})
    return r, [two, plain]


def test_each_run_takes_the_device_of_the_heading_above_it(tmp_path):
    r, paths = _runs(tmp_path)
    a, b, c = serving.device_per_run(r, paths)
    pk, said, line = a
    assert (pk.device, pk.count, said, line) == ("GB10-128GB", 1, {}, 3)  # a table device: nothing to say
    # the other way: a heading the table lacks gives no peaks and says which device it names
    assert b == (None, {"device_unlisted": "H800", "device_unlisted_line": 7}, 7)
    assert c is None  # the other file's headings name no machine: its run takes that file's device


def test_the_devices_said_list_each_heading_s_device_with_its_runs(tmp_path):
    r, paths = _runs(tmp_path)
    own = [d if d is not None else (None, {}, None) for d in serving.device_per_run(r, paths)]
    said = serving.devices_said(r, own)
    assert said[0] == {
        "device": "GB10-128GB",
        "line": 3,
        "listed": True,
        "count": 1,
        "bandwidth": 273.0,
        "runs": [{"run": "a", "line": 5}],
    }
    assert said[1]["device"] == "H800" and not said[1]["listed"] and said[1]["runs"] == [{"run": "b", "line": 9}]
    assert said[1]["count"] is None and said[1]["bandwidth"] is None
    assert said[2]["runs"] == [{"run": "c", "line": 1}] and said[2]["device"] is None
