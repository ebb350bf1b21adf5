"""An offline run's compute is set against the devices the file says it spans: NVIDIA's MLPerf results
folder `DGX-H100_H100-SXM-80GBx8_TRT` (`<system>_<accelerator>x<count>_<software>`) names eight
H100s, so 4,320 TFLOP/s is 540 per GPU, not "beyond one H100's peak". The one model the file names
where no run names one (`llama2-70b-99` in that path) is the run's and is sized, as the serving chapter
sizes it. The other way: the same summary under a folder that names no system has one device named by
nothing, and no model to size."""

from __future__ import annotations

from benchbook import config
from benchbook.chapter import setup
from benchbook.topics import batch_saturation

FIXTURE = config.FIXTURES_DIR / "mlperf-loadgen/dell_dgx_h100x8_trt_llama2_70b_99_offline_cat_summary_and_accuracy.txt"


def _offline(path):
    res = batch_saturation.analyse(setup("batch_saturation", {"source": str(path)}))
    return res, res.offline.iloc[0]


def test_the_system_folder_gives_the_devices_and_the_model(tmp_path):
    res, run = _offline(FIXTURE)
    assert res.named.device == "H100-SXM5-80GB" and res.named.count == 8
    assert run["devices"] == 8 and run["devices_line"] == 1
    assert round(run["achieved_tflops_per_device"]) == 540
    assert not run["beyond_any_peak"]
    assert res.sizes["llama2-70b-99"][0] > 60


def test_a_folder_that_names_no_system_gives_neither(tmp_path):
    text = FIXTURE.read_text(encoding="utf-8").replace("DGX-H100_H100-SXM-80GBx8_TRT/llama2-70b-99", "results")
    f = tmp_path / "summary.txt"
    f.write_text(text, encoding="utf-8")
    res, run = _offline(f)
    assert res.named.device is None
    assert "devices" not in run or not run["devices"] > 1
    assert not res.sizes
