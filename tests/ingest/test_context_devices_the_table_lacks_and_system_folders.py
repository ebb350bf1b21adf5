"""Devices named where the hardware table has no row or no word boundary helps:

- an accelerator family the table has no peaks for (NVIDIA's Jetson modules, Sophon's BM168x, Qualcomm's
  Cloud AI 100, Huawei's Ascend, NVIDIA's T4) is still a device the file names, so a page says which device
  it lacks rather than that none is named;
- a name glued to CJK text is a name (Chinese sets no spaces: `算子BM1684不支持`), but not one glued to
  ASCII letters or digits;
- NVIDIA's MLPerf results folder `<system>_<accelerator>x<count>_<software>` (`DGX-H100_H100-SXM-80GBx8_TRT`)
  names the accelerator and how many, and the model folder below it is no organisation's."""

from __future__ import annotations

import pytest

from benchbook.ingest import context


def _facts(lines, name):
    return [(f.value, f.line) for f in context.read(lines).get(name)]


@pytest.mark.parametrize(
    ("line", "device"),
    [
        ("I have ran retinanet on **jetson Orin** and found the latency is greater", "jetson Orin"),
        ("1. 目前只测试了fp32的模型，有一个deconv3d算子BM1684不支持，所以未测试", "BM1684"),
        ("Benchmarked on a Qualcomm Cloud AI 100 Standard card", "Qualcomm Cloud AI 100 Standard"),
        ("# Qualcomm Cloud AI - MLPerf Inference - Docker", "Qualcomm Cloud AI"),
        ("All numbers below were taken on an NVIDIA T4", "NVIDIA T4"),
        ("在H100上测试", "H100"),
    ],
)
def test_a_device_the_table_lacks_or_glued_to_cjk_is_named(line, device):
    assert _facts([line], "device") == [(device, 1)]


@pytest.mark.parametrize(
    "line",
    [
        "The Orinoco dataset was used for the run",  # inside another word
        "the BM16840 board",  # a longer part code
        "model xH100y test",  # glued to ASCII letters
        "a T4 slot on the board",  # a bare T4 names nothing
    ],
)
def test_the_same_names_inside_other_words_name_none(line):
    assert _facts([line], "device") == []


def test_a_system_folder_names_the_accelerator_and_its_count():
    line = "(mlperf) dell@dell:~/build/logs/2026.07.16/DGX-H100_H100-SXM-80GBx8_TRT/llama2-70b-99/Offline$ cat x.txt"
    assert _facts([line], "device") == [("H100-SXM-80GB", 1)]
    assert _facts([line], "device_count") == [(8, 1)]
    assert _facts([line], "path_model") == [("llama2-70b-99", 1)]


def test_a_folder_with_an_x_and_a_number_that_names_no_accelerator_names_none():
    line = "see ~/runs/sweep_final-v2x8_TRT/llama2-70b-99/Offline for the logs"
    assert _facts([line], "device") == []
    assert _facts([line], "device_count") == []


@pytest.mark.parametrize(
    ("line", "precision"),
    [
        ("included offline and server scenarios, evaluated on the MI355X platform using FP4 quantization.", "FP4"),
        ("The checkpoint was quantized to FP8 with llm-compressor.", "FP8"),
    ],
)
def test_a_sentence_naming_the_quantization_used_states_the_precision(line, precision):
    assert _facts([line], "precision") == [(precision, 1)]


@pytest.mark.parametrize(
    "line",
    [
        "FP4 quantization is coming in the next release.",  # no run used it
        "Compared with FP8 quantization, using FP4 quantization halves the weights.",  # a comparison
    ],
)
def test_a_quantization_spoken_of_but_not_used_states_none(line):
    assert _facts([line], "precision") == []


def test_an_mlperf_benchmark_named_by_its_suite_name_is_a_model_spoken_of():
    said = context.states(context.read(["I have ran retinanet on **jetson Orin** and found the latency"]), "model")
    assert said.status == "unread" and said.line == 1
    assert context.states(context.read(["I have ran it on **jetson Orin**"]), "model").status == "absent"
