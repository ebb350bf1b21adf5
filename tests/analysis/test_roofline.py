"""The device a file names, read by the one context reader and resolved against the hardware table:
with its count, the part the table lacks, or the line that speaks of a device unread."""

from __future__ import annotations

import math

import pytest

from benchbook import config
from benchbook.analysis import roofline

FIX = config.FIXTURES_DIR


def test_an_nvidia_smi_listing_names_the_gpu_and_counts_its_rows():
    smi = "\n".join(
        f"|   {i}  NVIDIA H100 80GB HBM3          On  | 00000000:1{i}:00.0 Off |        0 |" for i in range(8)
    )
    assert roofline.detect([f"results\n{smi}\n"]) == ("H100-SXM5-80GB", 8)


def test_one_gpu_of_a_listing_counts_one():
    assert roofline.detect(["|   0  NVIDIA H100 80GB HBM3          On  | 00000000:18:00.0 Off |        0 |\n"]) == (
        "H100-SXM5-80GB",
        1,
    )


def test_the_devices_a_run_spans_are_those_it_used_not_those_the_machine_has():
    machine = "| GPUs Available   | 2 x L40S |\n\n"
    one = machine + "```\nilab model serve --model-path m --backend vllm --gpus 1\n```\n"
    found = roofline.named([one])
    assert (found.device, found.count, found.counted) == ("L40S-48GB", 1, True)
    # the other way: the run used both (--gpus 2), or the device's own line counts what the run used
    assert roofline.detect([machine + "```\nilab model serve --model-path m --gpus 2\n```\n"]) == ("L40S-48GB", 2)
    assert roofline.detect(["| GPU | 2 x L40S |\n"]) == ("L40S-48GB", 2)


def test_a_machine_count_alone_is_no_count_of_the_run():
    found = roofline.named(["GPUs available: 4 x H100 80GB HBM3\n"])
    assert found.count == 1 and not found.counted


def test_a_section_heading_names_the_device():
    assert roofline.detect(["# Notes\n\n## Throughput on 2x A100 80GB\n\n| a | b |\n"]) == ("A100-SXM4-80GB", 2)


def test_a_heading_naming_two_devices_names_none():
    found = roofline.named(["## A100 vs H100\n"])
    assert found.device is None and found.unlisted is None


def test_a_device_the_table_lacks_is_named_with_its_line_not_called_absent():
    text = (FIX / "sglang-bench-serving/sglang_issue23896_dsv4_flash_h20_eagle_tp4_vs_dp4.md").read_text()
    found = roofline.named([text])
    assert found.device is None
    assert (found.unlisted.value, found.unlisted.line) == ("NVIDIA H20-3e", 5)


def test_a_line_that_speaks_of_a_gpu_without_a_name_is_a_sign():
    found = roofline.named(["intro\nAll runs used the same GPU.\n"])
    assert found.device is None and found.unlisted is None and found.sign.line == 2


def test_no_sign_of_a_device_anywhere_is_absent():
    found = roofline.named(["Throughput: 100 tok/s\n"])
    assert (found.device, found.unlisted, found.sign) == (None, None, None)


def test_a_line_that_is_a_device_alias_and_nothing_else_names_it():
    assert roofline.detect(["Benchmark\n\nA100 80GB\n\n| batch | latency |\n"]) == ("A100-SXM4-80GB", 1)
    assert roofline.detect(["We compared our numbers with published A100 80GB and H100 figures at length.\n"]) is None


def test_two_label_lines_naming_two_devices_name_no_one_device_of_the_whole_input():
    # a write-up's `RTX 4090` over one pasted block and `7900 XTX` over the next: each block ran on its own
    text = "Results.\n\nRTX 4090\n```\nFlash2 fwd: 150.90 TFLOPs/s\n```\n\n7900 XTX\n```\nFlash2 fwd: 42.98 TFLOPs/s\n```\n"
    found = roofline.named([text])
    assert found.device is None and found.several == ("RTX-4090", "Radeon-RX-7900-XTX") and found.alone == (3, 8)
    assert roofline.said(found)["device_several_apart"] is True
    # the same device over both blocks is that device
    assert roofline.detect([text.replace("7900 XTX", "RTX 4090")]) == ("RTX-4090", 1)


def test_a_prose_line_about_a_gpu_names_the_device_it_ran_on():
    assert roofline.detect(["intro\nThe full stack is executed on a single L40s GPU.\n"]) == ("L40S-48GB", 1)


def test_a_prose_line_listing_several_gpus_names_none_of_them_as_the_runs():
    line = "Below procedures are applicable to H200, H100, GH200, L40S and A100 GPUs for a few popular models.\n"
    found = roofline.named(["intro\n" + line])
    assert found.device is None and found.several == ("H200", "GH200", "L40S") and found.fact.line == 2
    # one device in several words (an alias inside a longer one) is still one device, the run's
    assert roofline.detect(["intro\nThe run used one NVIDIA H100 80GB HBM3 GPU.\n"]) == ("H100-SXM5-80GB", 1)


def test_over_a_file_and_its_metadata_the_device_named_with_its_count_wins():
    assert roofline.detect(['{"hw": "mi355x"}\n', "gpus=8xmi355x; hw=mi355x"]) == ("MI355X", 8)
    assert roofline.detect(['{"hw": "mi355x"}\n', "hw=h100"]) == ("MI355X", 1)  # neither counted: the first


def test_a_rocm_device_line_keeps_its_gfx_arch_which_names_the_part():
    text = "ggml_cuda_init: found 1 ROCm devices:\n  Device 0: AMD Radeon Graphics, gfx1151 (0x1151), VMM: no\n"
    assert roofline.detect([text]) == ("Radeon-8060S", 1)


def test_the_ridge_and_the_critical_batch_in_numbers():
    # RTX PRO 6000: 500 TFLOP/s over 1,792 GB/s; 16-bit weights reach it at B* = ridge, 8-bit at half
    r = roofline.ridge(500, 1792)
    assert r == pytest.approx(279.0, abs=0.1)
    assert roofline.critical_batch(r, 2.0) == pytest.approx(r) and roofline.critical_batch(r, 1.0) == pytest.approx(
        r / 2
    )


def test_one_table_gives_the_bytes_per_weight_of_every_precision():
    assert [roofline.bytes_per_weight(p) for p in ("fp32", "bf16", "fp8", "int8 weight-only", "int4", "int3")] == [
        4.0,
        2.0,
        1.0,
        1.0,
        0.5,
        0.375,
    ]
    assert math.isnan(roofline.bytes_per_weight("nf5"))


def test_a_name_several_variants_fit_is_ambiguous_and_the_page_says_which_it_could_be():
    """'A100 80GB' fits the A100-SXM4-80GB (2,039 GB/s) and the A100-PCIe-80GB (1,935 GB/s): the
    roofline takes the higher peaks and says both, never 'named in the input'."""
    from benchbook.analysis import precision
    from benchbook.presentation import serving as show

    pk = roofline.choose("", ["A100 80GB"])
    assert pk.device == "A100-SXM4-80GB" and pk.variants == (("A100-SXM4-80GB", 2039.0), ("A100-PCIe-80GB", 1935.0))
    words = show.device_sentence(pk, "m", 8.0, 8.0, "table", precision.weights("m"))
    assert "A100-SXM4-80GB at 2,039 GB/s and A100-PCIe-80GB at 1,935 GB/s" in words and "named in" not in words
    # the other way: a name one variant fits, the variant given as a parameter, or variants of equal peaks
    for pk in (roofline.choose("", ["NVIDIA A100-SXM4-80GB"]), roofline.choose("A100 80GB", [])):
        assert pk.device == "A100-SXM4-80GB" and pk.variants == ()
    assert roofline.choose("", ["A100 80GB PCIe"]).device == "A100-PCIe-80GB"
    assert roofline.choose("", ["A100 40GB"]).variants == ()  # the SXM4 and PCIe 40 GB parts share every peak
    named = show.device_sentence(
        roofline.choose("", ["NVIDIA A100-SXM4-80GB"]), "m", 8.0, 8.0, "t", precision.weights("m")
    )
    assert "(named in the input)" in named


def test_two_devices_named_side_by_side_are_neither_taken_and_the_reason_names_both():
    found = roofline.named(["Tested on 4×H800 and 4×H200 with the model.\n"])
    assert found.device is None and found.several == ("H800", "H200")
    assert roofline.said(found) == {
        "device_several": "H800 and H200",
        "device_several_line": 1,
        "device_several_where": "side by side (line 1)",
    }
    assert roofline.choose("", ["Tested on 4×H800 and 4×H200.\n"]) is None
    # the other way: one counted part on the line is the run's device, with its count
    one = roofline.named(["Tested on 4×H200 with the model.\n"])
    assert (one.device, one.count) == ("H200-SXM-141GB", 4)


def test_headings_naming_two_devices_leave_the_run_untaken_and_the_reason_names_both():
    """A write-up whose sections serve on different machines (`### Serving on 8xH200`, `### Serving on
    8xMI300x`) does not say which ran a block it ties to neither: no device is taken for it."""
    text = (
        "# Guide\n\n### Serving on 8xH200 GPUs\n\nvllm serve m --tensor-parallel-size 8\n\n"
        "### Serving on 8xMI300x GPUs\n\nvllm serve m --tensor-parallel-size 8\n\n### Benchmarking\n"
    )
    found = roofline.named([text])
    assert found.device is None and found.several == (
        "H200",
        "MI300x GPUs",
    )  # a part's name ends at its code (`H200`); `MI300x` is no code in capitals
    assert roofline.said(found)["device_several_where"] == "in the headings of lines 3 and 7"
    assert roofline.choose("", [text]) is None
    # the other way: headings that name one device, twice, name the run's
    one = roofline.named([text.replace("MI300x", "H200")])
    assert one.device == "H200-SXM-141GB" and one.count == 8


def test_a_device_named_late_in_a_long_line_of_prose_is_read():
    intro = "This article details the results of the vLLM engine with several models, " * 4
    found = roofline.named([f"# Bench\n\n{intro}tested on a system equipped with NVIDIA A100 80GB GPU.\n"])
    assert found.device is not None and found.device.startswith("A100") and found.fact.line == 3
    # the other way: the same long line naming no device names none
    assert roofline.named([f"# Bench\n\n{intro}tested on a system of ours.\n"]).device is None


def test_a_device_named_in_prose_spans_the_one_count_the_file_states():
    text = (
        "# Bench\n\nTested on a system equipped with NVIDIA A100 80GB GPU.\n\n### Test 9: 4 GPU pods host the model\n"
    )
    found = roofline.named([text])
    assert found.device.startswith("A100") and found.count == 4 and found.counted
    # the other way: two different counts, or one that counts the machine's devices, say nothing of the run
    two = text + "\n### Test 10: 2 GPU pods host the model\n"
    assert roofline.named([two]).count == 1
    assert roofline.named([text.replace("4 GPU pods host the model", "8 GPUs available")]).count == 1


def test_available_counts_the_machine_only_where_it_speaks_of_devices():
    assert roofline.MACHINE_COUNT.search("| GPUs Available   | 2 x L40S |")
    assert roofline.MACHINE_COUNT.search("8 GPUs installed in the node")
    assert not roofline.MACHINE_COUNT.search(
        "Test 9: 4 GPU pods host the model (Available KV cache memory in each GPU: 45 GiB)"
    )


def test_a_labelled_line_names_one_device_in_several_words_never_several_devices():
    # InferenceX's metadata: two labels for one machine; a sentence naming two devices is the other case
    one = roofline.named(["gpus=8xh100; hw=h100-dgxc"])
    assert one.several == () and one.unlisted.value == "h100"
    assert len(roofline.named(["The runs used 4×H800 and 4×H200 GPUs."]).several) == 2


def test_each_block_takes_the_device_of_the_nearest_heading_above_it():
    """A write-up heading each machine's part (`### Benchmark on 16xH800`, `### Benchmark on 16xH200`)
    ran the block under each heading there, a device the hardware table lacks (H800) included."""
    text = (
        "# Guide\n\n## Benchmarking\n\n### Benchmark on 16xH800\n\n### Expected Output\n\nresult A\n\n"
        "### Benchmark on 16xH200\n\n```bash\n# run on 8xH100 first\n```\n\nresult B\n\nresult C\n\n"
        "## Other notes\n\nresult D\n"
    )
    rows = text.splitlines()
    at = roofline.headed_at(text, [rows.index(x) + 1 for x in ("result A", "result B", "result C", "result D")])
    assert at[0].device is None and at[0].unlisted.value == "H800" and at[0].unlisted.line == 5
    assert at[1].device == at[2].device == "H200-SXM-141GB" and at[1].count == 16  # the code comment is no heading
    # the other way: a heading of a higher level closes the part; the block takes what the file says (two
    # machines, neither chosen)
    assert at[3].device is None and at[3].several == ("H800", "H200")
    # and a file whose headings name one device leaves every block to the file's device
    assert roofline.headed_at(text.replace("16xH800", "16xH200"), [9]) is None


def test_headings_naming_a_device_the_table_lacks_beside_one_it_knows_name_two_machines():
    """`### on 16xH800` and `### on 16xH200`: two machines, though the table knows only the H200, so a
    block tied to neither takes no device."""
    text = "# G\n\n### Benchmark on 16xH800\n\nx\n\n### Benchmark on 16xH200\n\ny\n"
    found = roofline.named([text])
    assert found.device is None and found.several == ("H800", "H200") and found.headed == (3, 7)
    # the other way: the H800 only in prose beside the H200 heading leaves the heading's device the run's
    one = roofline.named([text.replace("### Benchmark on 16xH800", "The H800 cluster is similar.")])
    assert one.device == "H200-SXM-141GB"


def test_a_heading_that_names_a_table_device_in_words_heads_its_part():
    """`## GB10 (DGX spark)` and `## GH200 (Isambard-AI)`: each section's runs ran on its machine."""
    text = "# Bench\n\n## GB10 (DGX spark)\n\nresult A\n\n## GH200 (Isambard-AI)\n\nresult B\n"
    a, b = roofline.headed_at(text, [5, 9])
    assert a.device == "GB10-128GB" and b.device.startswith("GH200")
    assert roofline.named([text]).several == ("GB10 (DGX spark)", "GH200 (Isambard-AI)")
    # the other way: a file with one such heading names the device of every block
    assert roofline.headed_at(text.replace("GH200", "Cluster B"), [5, 9]) is None


def test_headings_that_write_one_table_device_two_ways_name_one_machine():
    text = "## Results on H200 SXM\ntext\n## More on H200\nmore\n"
    found = roofline.named([text])
    assert (found.device, found.several) == ("H200-SXM-141GB", ())
    assert roofline.headed_at(text, [2, 4]) is None
    # the other way: headings naming two table devices are two machines, and the run is on neither
    two = roofline.named(["## Results on H200 SXM\ntext\n## More on B200\nmore\n"])
    assert (two.device, two.several) == (None, ("H200 SXM", "B200"))


def test_a_device_name_alone_on_a_line_of_a_code_block_names_it_at_that_line():
    found = roofline.named(["Setup\n```\nH200\n```\nthe run took 3 s\n"])
    assert (found.device, found.count, found.fact.value, found.fact.line) == ("H200-SXM-141GB", 1, "H200-SXM-141GB", 3)


def test_an_environment_dump_states_the_count_so_its_device_wins_over_one_named_without():
    dump = (
        "ggml_cuda_init: found 2 CUDA devices:\n  Device 0: NVIDIA H100 80GB HBM3\n  Device 1: NVIDIA H100 80GB HBM3\n"
    )
    found = roofline.named([dump])
    assert (found.device, found.count, found.counted) == ("H100-SXM5-80GB", 2, True)
    assert roofline.detect(["hw=h200", dump]) == ("H100-SXM5-80GB", 2)
    assert roofline.detect(["hw=h200", "hw=h100-sxm5-80gb"]) == ("H200-SXM-141GB", 1)  # neither counted: the first


def test_a_device_a_table_row_names_spans_the_count_of_gpus_the_file_says_it_used():
    text = "| setup | NVIDIA H200 GPU |\n|---|---|\n| x | 1 |\nWe used 2 GPUs.\n"
    found = roofline.named([text])
    assert (found.device, found.count, found.counted) == ("H200-SXM-141GB", 2, True)
    one = roofline.named([text.replace("We used 2 GPUs.\n", "")])  # no count stated: one, taken as 1
    assert (one.device, one.count, one.counted) == ("H200-SXM-141GB", 1, False)


def test_a_device_name_written_with_underscores_for_spaces_is_the_table_device():
    # vLLM writes a device's name with `_` for spaces in its tuned config file names
    assert roofline.detect(["E=64,N=1280,device_name=NVIDIA_H100_80GB_HBM3.json\n"]) == ("H100-SXM5-80GB", 1)


def test_headings_naming_two_tpus_the_table_lacks_are_two_machines():
    found = roofline.named(["## TPU v5e-4\nx\n## TPU v5p-4\ny\n"])
    assert (found.device, found.several) == (None, ("TPU v5e", "TPU v5p"))
    assert len(roofline.headed_at("## TPU v5e-4\nx\n## TPU v5p-4\ny\n", [2, 4])) == 2


def test_the_peaks_are_the_named_devices_even_where_its_line_also_names_a_part_several_rows_fit():
    p = roofline.choose("", ["device: H200 # was an A100 80GB\n"])
    assert (p.device, p.variants) == ("H200-SXM-141GB", ())


def test_a_device_late_in_a_long_table_row_that_speaks_of_a_gpu_is_read_from_the_whole_row():
    row = "| GPU | " + "a setting of the run, " * 10 + "NVIDIA H200 |\n"
    assert len(row) > 200  # a sign keeps only the first 200 characters
    assert roofline.detect([row]) == ("H200-SXM-141GB", 1)


def test_a_bracketed_aside_naming_another_device_is_not_the_runs_device():
    """`GPU: NVIDIA H200 (replacing our A100 80GB)`: the aside names the device the H200 replaced; the
    longest alias in the whole value (A100 80GB) is not the run's. An aside naming no device is part of
    the name (`A100 80GB (SXM4)`), and so is one naming the same part (`Radeon Graphics (gfx1151)`)."""
    assert roofline.detect(["GPU: NVIDIA H200 (replacing our A100 80GB)\n"]) == ("H200-SXM-141GB", 1)
    assert roofline.detect(["GPU: NVIDIA A100 80GB (SXM4)\n"]) == ("A100-SXM4-80GB", 1)
    assert roofline.detect(["GPU: NVIDIA A100 80GB\n"]) == ("A100-SXM4-80GB", 1)
    assert roofline.detect(["GPU: AMD Radeon Graphics (gfx1151)\n"]) == ("Radeon-8060S", 1)


def test_a_name_several_table_rows_fit_is_said_as_written_and_a_name_of_one_row_is_not():
    # `MI300` is AMD's series of the MI300A and the MI300X: taken as the MI300X, and said as the file writes it
    mi300 = roofline.named(["GPU: MI300\n"])
    assert roofline.fits_said(mi300) == {"device_fits": "MI300", "device_fits_line": 1}
    assert roofline.fits_said(roofline.named(["Run on L40S:\n"])) == {}
