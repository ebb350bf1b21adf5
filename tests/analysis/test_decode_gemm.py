"""The measured decode GEMM sweep (data/measured/): the ceilings it reached, its ridge, and the rule
that a step slower than a larger batch's is a kernel miss, each checked on the H200 file and both ways
on synthetic sweeps with a known answer."""

from __future__ import annotations

import pandas as pd
import pytest

from benchbook import hardware, measured
from benchbook.analysis import decode_gemm

K, N = 1024, 4096  # a 8 MiB synthetic weight: 2 x K x N bytes


def _rows(seconds_by_batch: dict[int, float]) -> pd.DataFrame:
    return pd.DataFrame(
        [
            {
                "device": "x",
                "dtype": "bfloat16",
                "repeat": 1,
                "batch": b,
                "k": K,
                "n": N,
                "weight_bytes": 2 * K * N,
                "seconds": t,
            }
            for b, t in seconds_by_batch.items()
        ]
    )


def _roofline_times(bandwidth_gb_s: float, tflops: float, batches) -> dict[int, float]:
    weight = 2 * K * N
    return {b: max(weight / (bandwidth_gb_s * 1e9), b * weight / (tflops * 1e12)) for b in batches}


def test_a_sweep_on_an_exact_roofline_has_its_ridge_at_compute_over_bandwidth():
    times = _roofline_times(1000.0, 100.0, [1, 2, 4, 8, 16, 32, 64, 128, 256, 512])
    s = decode_gemm.sweep(_rows(times))
    assert s.bandwidth_gb_s == pytest.approx(1000.0)
    assert s.tflops == pytest.approx(100.0)
    assert s.ridge == pytest.approx(100.0) and s.critical_batch == pytest.approx(100.0)
    assert s.kernel_misses == ()
    # batch 128 is 1.28 x batch 1's time: the first more than 10 % slower
    assert s.first_slower == 128
    assert s.bound_s(64, 1000.0, 100.0) == pytest.approx(times[64])


def test_a_step_slower_than_a_larger_batch_is_a_kernel_miss_and_not_the_bend():
    times = _roofline_times(1000.0, 100.0, [1, 2, 4, 8, 16, 32, 64, 128, 256])
    times[16] *= 1.3  # slower than batches 32 and 64, which do more work
    s = decode_gemm.sweep(_rows(times))
    assert s.kernel_misses == (16,)
    assert s.first_slower == 128
    # the other way: 5 % slower than the next batch is within the rule's margin
    times[16] = times[32] * 1.05
    assert decode_gemm.sweep(_rows(times)).kernel_misses == ()
    # exactly 10 % slower is not more than 10 %: no miss either
    times[16] = (1 + decode_gemm.SLOWER) * times[32]
    assert decode_gemm.sweep(_rows(times)).kernel_misses == ()


def test_a_sweep_of_one_batch_reads_the_weight_in_that_step_and_bends_nowhere():
    """8 MiB (8,388,608 bytes, 0.008388608 GB: a GB is 1e9 bytes) read in 8.388608 us is 1000 GB/s."""
    s = decode_gemm.sweep(_rows({1: 8.388608e-6}))
    assert s.weight_gb == 0.008388608 and (s.k, s.n) == (K, N)
    assert s.bandwidth_gb_s == pytest.approx(1000.0)
    assert (s.first_slower, s.kernel_misses) == (None, ())


def test_the_h200_sweep_reads_its_weight_at_most_of_the_table_bandwidth_and_bends_near_153():
    s = decode_gemm.sweep(measured.decode_gemm())
    d = hardware.device("H200-SXM-141GB")
    assert s.weight_gb == pytest.approx(15.032, abs=0.001)
    assert s.bandwidth_gb_s == pytest.approx(4485, abs=1) and s.bandwidth_gb_s < d.bandwidth_gb_s
    assert s.tflops == pytest.approx(685.3, abs=0.1) and s.tflops < d.peak("fp16")
    assert round(s.critical_batch) == 153 and s.first_slower == 160
    assert s.kernel_misses == (64,)
    # no measured step beats the least time the table's peaks allow
    for b, t in zip(s.steps["batch"], s.steps["low_s"], strict=True):
        assert t >= s.bound_s(b, d.bandwidth_gb_s, d.peak("fp16"))


def test_a_row_that_breaks_the_schema_stops_the_load_naming_the_file(tmp_path):
    bad = _rows({1: 0.001, 2: -0.001})
    path = tmp_path / "sweep.csv"
    bad.to_csv(path, index=False)
    with pytest.raises(ValueError, match=r"^sweep\.csv: "):
        measured.decode_gemm(path)
    _rows({1: 0.001, 2: 0.001}).to_csv(path, index=False)
    assert len(measured.decode_gemm(path)) == 2
    # a batch is a whole number of rows: 1.5 is refused though it is at least 1
    _rows({1: 0.001, 1.5: 0.001}).to_csv(path, index=False)
    with pytest.raises(ValueError, match=r"^sweep\.csv: "):
        measured.decode_gemm(path)


def test_a_power_sample_whose_step_time_is_no_number_stops_the_load_naming_the_file(tmp_path):
    path = tmp_path / "power.csv"
    head = "dtype,batch,sample,seconds_in,power_w,sm_mhz,step_s\n"
    path.write_text(head + "bfloat16,1,10,1.0,503.95,1980,1\n", encoding="utf-8")
    steps = measured.decode_gemm_power(path)["step_s"]
    assert steps.dtype == "float64" and steps.tolist() == [1.0]  # a whole second is still a float
    path.write_text(head + "bfloat16,1,10,1.0,503.95,1980,fast\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"^power\.csv: Error while coercing 'step_s'"):
        measured.decode_gemm_power(path)


def test_a_power_sample_given_twice_stops_the_load_naming_the_file(tmp_path):
    path = tmp_path / "power.csv"
    row = "bfloat16,1,10,1.0,503.95,1980,0.5\n"
    path.write_text("dtype,batch,sample,seconds_in,power_w,sm_mhz,step_s\n" + row + row, encoding="utf-8")
    with pytest.raises(ValueError, match=r"^power\.csv: .*not unique"):
        measured.decode_gemm_power(path)
    # the other way: the same batch and sample number in another data type is another sample
    path.write_text(path.read_text(encoding="utf-8").replace(row, "float8_e4m3fn,1,10,1.0,503.95,1980,0.5\n", 1))
    assert len(measured.decode_gemm_power(path)) == 2


def test_fp8_on_the_h200_halves_the_weight_read_and_keeps_the_critical_batch():
    """Half the bytes per weight meet a ridge about twice as high: the measured critical batch of the
    FP8 sweep is within 5 % of the 16-bit one's, while its step at small batch takes about half as long."""
    rows = measured.decode_gemm()
    s, f = decode_gemm.sweep(rows), decode_gemm.sweep(rows, "float8_e4m3fn")
    assert f.bytes_per_weight == 1 and s.bytes_per_weight == 2
    assert f.read_s / s.read_s == pytest.approx(0.53, abs=0.02)
    assert f.ridge / s.ridge == pytest.approx(1.98, abs=0.05)
    assert f.critical_batch == pytest.approx(s.critical_batch, rel=0.05)
    assert f.first_slower == s.first_slower == 160
    # the other way: with the 16-bit compute ceiling, one byte per weight halves the critical batch
    assert decode_gemm.roofline.critical_batch(
        decode_gemm.roofline.ridge(s.tflops, f.bandwidth_gb_s), 1.0
    ) == pytest.approx(s.critical_batch / 2, rel=0.1)
    with pytest.raises(ValueError, match="no float16 rows"):
        decode_gemm.sweep(rows, "float16")


def test_a_clock_held_lower_by_the_power_limit_lowers_the_compute_roof_in_proportion():
    samples = pd.DataFrame(
        [
            {
                "dtype": "bfloat16",
                "batch": b,
                "sample": i,
                "seconds_in": 1.0 + i / 10,
                "power_w": w,
                "sm_mhz": mhz,
                "step_s": t,
            }
            for b, w, mhz, t in [(1, 300.0, 2000.0, 0.010), (512, 700.0, 1000.0, 0.020)]
            for i in range(3)
        ]
    )
    u = decode_gemm.under_power(samples, K, N, peak_tflops=100.0, max_mhz=2000.0)
    big = u.set_index("batch").loc[512]
    assert big["clocked_peak_tflops"] == pytest.approx(50.0)  # half the clock, half the roof
    assert big["tflop_per_s"] == pytest.approx(2 * 512 * K * N / 0.020 / 1e12)
    assert big["share_of_clocked_peak"] == pytest.approx(big["tflop_per_s"] / 50.0)
    # the other way: at the full clock the roof is the table's
    assert u.set_index("batch").loc[1, "clocked_peak_tflops"] == pytest.approx(100.0)


def test_the_h200_held_its_power_limit_and_lowered_its_clock_past_the_bend():
    limit_w, max_mhz = measured.gpu_limits()
    assert (limit_w, max_mhz) == (700.0, 1980.0)
    s = decode_gemm.sweep(measured.decode_gemm())
    u = decode_gemm.under_power(measured.decode_gemm_power(), s.k, s.n, 989.0, max_mhz)
    read, past = u.iloc[0], u[u["batch"] >= s.first_slower]
    assert read["batch"] == 1 and read["sm_mhz"] == max_mhz and read["power_w"] < limit_w
    assert (past["sm_mhz"] < max_mhz).all() and (past["power_w"] > 0.98 * limit_w).all()
    assert past["share_of_clocked_peak"].between(0.85, 1.0).all()


def test_a_nvidia_smi_file_without_the_limits_is_refused_naming_it(tmp_path):
    path = tmp_path / "smi.csv"
    path.write_text("name, memory.total [MiB]\nNVIDIA H200, 143771 MiB\n")
    with pytest.raises(ValueError, match=r"^smi\.csv: "):
        measured.gpu_limits(path)
