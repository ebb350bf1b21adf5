"""A file that names several devices in its prose and ties none to the run (`BM1684` tested, `BM1686` to
come) names them: what the page is told says the device's name with its line, never that the line speaks
of a device "but not named". A line that only speaks of GPUs gives its line alone."""

from __future__ import annotations

from benchbook.analysis import roofline

TWO = "1. 目前只测试了fp32的模型，deconv3d算子BM1684不支持，所以未测试\n2. 等BM1686出片后，在BM1686上测试\n"


def test_several_named_devices_are_said_by_name():
    said = roofline.said(roofline.named([TWO]))
    assert said == {"device_sign_line": 1, "device_sign_words": "BM1684"}


def test_a_line_that_only_speaks_of_gpus_gives_its_line():
    said = roofline.said(roofline.named(["The run used all the GPUs of the node.\n"]))
    assert said.get("device_sign_line") == 1 and "device_sign_words" not in said
