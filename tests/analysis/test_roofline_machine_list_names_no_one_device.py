"""A write-up that lists the machines it has (`1. 2x H100 NVL`, `4. 1x H200 NVL`, `8. 2x A100 SXM4`)
names no one of them as the run's: the page names them all and assumes none, unless a heading names
one of them (`### Build engine optimized for dual A100s`), which is then the run's. A list of one
device still names it."""

from __future__ import annotations

from benchbook.analysis import roofline

MACHINES = """## Machines I have installed this on:
1. 2x H100 NVL
2. 1x RTX PRO 6000 WS
3. 1x H200 NVL - India
4. 2x A100 SXM4 with 80GB VRAM each

```
[BENCHMARK] num_samples 100
```
"""


def test_a_list_of_machines_names_none_of_them():
    found = roofline.named([MACHINES])
    assert found.device is None and found.unlisted is None
    assert len(found.several) == 3 and found.listed == (2, 4, 5)
    assert "in the items of a list (lines 2, 4, 5)" in roofline.said(found)["device_several_where"]


def test_a_heading_that_names_one_of_them_names_the_runs():
    text = MACHINES.replace("```\n[BENCH", "### Build engine optimized for dual H200s\n```\n[BENCH")
    found = roofline.named([text])
    assert not found.several and roofline.label(found).startswith("H200")
    assert (found.fact or found.unlisted).line == 7


def test_a_list_of_one_device_still_names_it():
    one = "Hardware:\n- 1x H200 NVL\n- 512 GB RAM\n"
    found = roofline.named([one])
    assert not found.several and roofline.label(found) is not None and "H200" in roofline.label(found)
