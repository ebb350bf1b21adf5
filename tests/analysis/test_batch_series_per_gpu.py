"""A batch series is (model, framework, gpu, dtype): one file sweeping the same model, framework and
dtype on two GPUs gives two curves, two knees and two sets of claims, never one curve over mixed points.

The input is synthetic, in the layout of seed 003 (data/raw/bloom_batch): BLOOM / HF-accelerate, a
bf16 column, one section per GPU. Known answers (knee rule: smallest batch reaching 95 % of the peak):

* A100 80GB: 100, 200, 400, 780, 800 tok/s at batch 1..16, oom at 32. Peak 800 at 16; 95 % is 760,
  first reached at batch 8. Latency (batch x 100 / tok/s) 1.00, 1.00, 1.00, 1.03, 2.00 s: flat to 8.
* H100 80GB: 200, 400, 800, 1600, 3000, 3100 tok/s at batch 1..32. Peak 3100 at 32; 95 % is 2945,
  first reached at batch 16. Latency 0.50, 0.50, 0.50, 0.50, 0.53, 1.03 s: flat to 16.

Mixed into one series, the peak would be 3100 for both and each batch size would appear twice.
"""

from __future__ import annotations

import pandas as pd
import pytest

from benchbook import ingest
from benchbook.analysis import batch, roofline
from benchbook.claims import batch as cb
from benchbook.presentation import batch as show

A100 = {1: (100.0, 1.00), 2: (200.0, 1.00), 4: (400.0, 1.00), 8: (780.0, 1.03), 16: (800.0, 2.00), 32: None}
H100 = {1: (200.0, 0.50), 2: (400.0, 0.50), 4: (800.0, 0.50), 8: (1600.0, 0.50), 16: (3000.0, 0.53), 32: (3100.0, 1.03)}


def _section(gpu: str, points: dict, dtype: str = "bf16") -> str:
    """One GPU's throughput and latency tables, as bigcode's parse_logs.py prints them."""
    thr = [f"| {b} | " + (f"{p[0]:.2f} \\| {1000 / p[0]:.2f}" if p else "oom") + " |" for b, p in points.items()]
    lat = [f"| {b} | " + (f"{p[1]:.2f}" if p else "oom") + " |" for b, p in points.items()]
    head = [f"| batch_size | {dtype} |", "|:----------:|:----:|"]
    return "\n".join([gpu, "", "tokens/sec | msec/token", *head, *thr, "", "sec", *head, *lat, ""])


def _sweep(tmp_path, *sections: str) -> pd.DataFrame:
    f = tmp_path / "sweep.md"
    f.write_text("# bigcode-inference-benchmark\n\nBLOOM\\\nHF-accelerate\\\n" + "\n".join(sections), encoding="utf-8")
    return batch.sweep(ingest.read(f, tool="hf-batch-sweep"))


@pytest.fixture
def two(tmp_path):
    return _sweep(tmp_path, _section("A100 80GB", A100), _section("H100 80GB", H100))


@pytest.fixture
def one(tmp_path):
    return _sweep(tmp_path, _section("A100 80GB", A100))


def test_two_gpus_are_two_series_each_with_its_own_knee(two):
    assert [k[2] for k, _ in batch.series(two)] == ["A100 80GB", "H100 80GB"]
    k = batch.knee(two, 0.95).set_index("gpu")
    assert (k.loc["A100 80GB", "peak_tok_s"], k.loc["A100 80GB", "peak_batch_size"]) == (800.0, 16)
    assert (k.loc["A100 80GB", "knee_batch_size"], k.loc["A100 80GB", "n_points"]) == (8, 5)
    assert (k.loc["H100 80GB", "peak_tok_s"], k.loc["H100 80GB", "peak_batch_size"]) == (3100.0, 32)
    assert (k.loc["H100 80GB", "knee_batch_size"], k.loc["H100 80GB", "n_points"]) == (16, 6)
    assert batch.reference(two) == ("BLOOM", "HF-accelerate", "H100 80GB", "bf16", "")
    ref = batch.rows_of(two, batch.reference(two))
    assert ref["batch_size"].tolist() == [1, 2, 4, 8, 16, 32] and ref["throughput_tok_s"].max() == 3100.0


def test_two_gpus_memory_limits_apart(two):
    m = batch.memory_limit(two).set_index("gpu")
    assert (m.loc["A100 80GB", "last_ok"], m.loc["A100 80GB", "first_missing"]) == (16, 32)
    assert m.loc["H100 80GB", "status"] == "no limit" and m.loc["H100 80GB", "last_ok"] == 32
    text = show.limits_sentence(batch.memory_limit(two))
    assert "HF-accelerate bf16 on A100 80GB has a result up to batch 16 and none from 32" in text
    assert list(show.limits_table(batch.memory_limit(two)).columns[:4]) == ["model", "framework", "gpu", "dtype"]


def test_claims_per_series(two):
    k = batch.knee(two, 0.95).set_index("gpu")
    a, h = cb.knee(k.loc["A100 80GB"]), cb.knee(k.loc["H100 80GB"])
    assert (a.evidence["x"], a.evidence["peak_tok_s"], a.status) == (8, 800.0, "shown")
    assert (h.evidence["x"], h.evidence["peak_tok_s"], h.status) == (16, 3100.0, "shown")
    assert a.evidence["series"] == "HF-accelerate bf16 on A100 80GB"
    assert h.evidence["series"] == "HF-accelerate bf16 on H100 80GB"
    flat = {
        gpu: cb.latency_flat(batch.flat_range(batch.rows_of(two, key), tolerance=cb.FLAT_TOLERANCE)).evidence
        for key, gpu in ((k, k[2]) for k, _ in batch.series(two))
    }
    assert (flat["A100 80GB"]["first"], flat["A100 80GB"]["last"]) == (1, 8)
    assert (flat["H100 80GB"]["first"], flat["H100 80GB"]["last"]) == (1, 16)
    assert batch.dtype_pair(two, batch.reference(two)) is None  # one dtype per GPU: no pair across GPUs


def test_figure_plots_each_gpu_from_its_own_points(two):
    fig = show.plot_throughput(two, batch.knee(two, 0.95), knee_shown=True)
    curves = sorted(
        (list(ln.get_xdata()), list(ln.get_ydata())) for ln in fig.axes[0].get_lines() if ln.get_linestyle() == "-"
    )
    assert curves == [
        ([1, 2, 4, 8, 16], [100.0, 200.0, 400.0, 780.0, 800.0]),
        ([1, 2, 4, 8, 16, 32], [200.0, 400.0, 800.0, 1600.0, 3000.0, 3100.0]),
    ]
    knee_lines = [ln for ln in fig.axes[0].get_lines() if ln.get_linestyle() == ":"]
    assert [ln.get_xdata()[0] for ln in knee_lines] == [16]  # the fastest series' knee, not a mixed one
    assert sorted(ln.get_label() for ln in fig.axes[0].get_lines() if ln.get_linestyle() == "-") == [
        "bf16 on A100 80GB",
        "bf16 on H100 80GB",
    ]
    ms = show.plot_ms_per_token(two)
    per_seq = sorted(list(ln.get_xdata()) for ln in ms.axes[0].get_lines() if ln.get_marker() not in ("None", None, ""))
    assert per_seq == [[1, 2, 4, 8, 16], [1, 2, 4, 8, 16, 32]]


def test_one_gpu_is_one_series_and_labels_name_no_gpu(one):
    assert [k for k, _ in batch.series(one)] == [("BLOOM", "HF-accelerate", "A100 80GB", "bf16", "")]
    k = batch.knee(one, 0.95)
    assert len(k) == 1 and k["knee_batch_size"].iat[0] == 8
    assert cb.knee(k.iloc[0]).evidence["series"] == "HF-accelerate bf16"
    fig = show.plot_throughput(one, k, knee_shown=True)
    assert [ln.get_label() for ln in fig.axes[0].get_lines() if ln.get_marker() == "o"] == ["bf16"]
    assert "gpu" not in show.knee_table(k).columns
    assert "gpu" not in show.limits_table(batch.memory_limit(one)).columns
    assert show.limits_sentence(batch.memory_limit(one)).startswith("HF-accelerate bf16 has a result up to batch 16")


def test_two_gpus_with_different_dtypes_need_no_gpu_in_labels(tmp_path):
    """Each (model, framework, dtype) is on one GPU: two series, told apart by dtype alone."""
    sw = _sweep(tmp_path, _section("A100 80GB", A100), _section("H100 80GB", H100, dtype="fp16"))
    k = batch.knee(sw, 0.95).set_index("dtype")
    assert (k.loc["bf16", "gpu"], k.loc["bf16", "knee_batch_size"]) == ("A100 80GB", 8)
    assert (k.loc["fp16", "gpu"], k.loc["fp16", "knee_batch_size"]) == ("H100 80GB", 16)
    assert set(k["named_gpu"]) == {""}
    fig = show.plot_throughput(sw, batch.knee(sw, 0.95), knee_shown=False)
    assert sorted(ln.get_label() for ln in fig.axes[0].get_lines()) == ["bf16", "fp16"]


def test_roofline_of_one_device_leaves_the_other_gpus_steps_out(two, one):
    pk = roofline.choose("", ["A100 80GB"])
    rl = batch.step_roofline(two, {"BLOOM": 1.0}, pk).set_index(["gpu", "batch_size"])
    assert rl.loc[("A100 80GB", 1), "peak_gb_s"] == pk.total_bandwidth_gb_s
    assert rl.loc[("A100 80GB", 1), "bandwidth_fraction"] == pytest.approx(2e9 / 0.01 / 1e9 / pk.total_bandwidth_gb_s)
    h100 = rl.loc["H100 80GB"]
    assert h100["peak_gb_s"].isna().all() and h100["compute_fraction"].isna().all()
    # one GPU named: its steps keep the roofline even when the device is given apart from the output
    h = roofline.choose("H100-SXM5-80GB", [])
    assert batch.step_roofline(one, {"BLOOM": 1.0}, h)["peak_gb_s"].eq(h.total_bandwidth_gb_s).all()
    fig = show.plot_roofline(batch.step_roofline(two, {"BLOOM": 1.0}, pk), pk)
    steps = [ln for ln in fig.axes[0].get_lines() if ln.get_marker() == "o"]
    assert len(steps) == 1 and list(steps[0].get_xdata()) == [1, 2, 4, 8, 16]  # A100 only: intensity = 2 x batch / 2


def test_one_batch_size_run_is_no_result_at_every_batch_size_up_to_it(tmp_path):
    only = _sweep(tmp_path, _section("H100 80GB", {32: (3100.0, 1.03)}))
    m = batch.memory_limit(only).iloc[0]
    assert (m["status"], m["last_ok"], m["sizes"]) == ("no limit", 32, 1)
    text = show.limits_sentence(batch.memory_limit(only))
    assert "has a result at batch 32, the one batch size it ran" in text and "every batch size" not in text


def test_a_sweep_without_a_limit_has_a_result_at_every_batch_size_it_ran(two):
    text = show.limits_sentence(batch.memory_limit(two))
    assert "on H100 80GB has a result at every batch size it ran, up to 32" in text
