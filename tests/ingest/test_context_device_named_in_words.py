"""A device a heading, a short label line or a sentence names (by the hardware table's names and
aliases, or a TPU, Apple chip, Radeon RX or Intel processor code name the table may lack) is the run's device where no other line
names one and exactly one device is so named; several are signs naming their lines, never a device.
A device word inside another word, a URL or a path, and a parallel size (`TP16`) name none."""

from __future__ import annotations

import pytest

from benchbook.ingest import context


def _device(lines):
    c = context.read(lines)
    return [(f.value, f.line, f.source) for f in c.get("device")], c.values("device_count"), context.states(c, "device")


@pytest.mark.parametrize(
    ("lines", "device", "count"),
    [
        (["ran on b200 again to make sure we don't break sm100. Still within noise"], ("b200", 1, "prose"), []),
        (
            ["As the title says.", "", "On H100:", "```", "$ python run_benchmark.py triton", "```"],
            ("H100", 3, "prose"),
            [],
        ),
        (["## v6e-1 (single chip): 7.87  -> 8.37 req / sec"], ("v6e-1", 1, "heading"), [1]),
        (
            ["I'm seeing a bit of improvement with dual DGX Sparks connected via their 200G port"],
            ("DGX Spark", 1, "prose"),
            [2],
        ),
        (["Just ran it on M5, this is what I got."], ("M5", 1, "prose"), []),
        (["<details>", "<summary>AMD RX 6800 XT</summary>"], ("AMD RX 6800 XT", 2, "prose"), []),
        (["Single node (8× RTX PRO 6000 SM120), sglang v0.5.13."], ("RTX PRO 6000", 1, "prose"), [8]),
        # the title names the part; the sentence under it says what it is (an H20 with more memory): one device
        (
            ["# Add H20-3e fused MoE kernel tuning configs", "", "H20-3e is H20 GPU with 141G memory."],
            ("H20-3e", 1, "heading"),
            [],
        ),
        # an Intel processor by its code name: its built-in Arc GPU ran a SYCL table (llama.cpp PR 13109)
        (["### Lunar lake", "", "- `GGML_SYCL_DISABLE_OPT=0`"], ("Lunar lake", 1, "heading"), []),
        # a shorter name inside a longer one is the same device
        (["Tested on an H100 SXM.", "The H100 was idle otherwise."], ("H100 SXM", 1, "prose"), []),
        # a Snapdragon without the word where the sentence runs on it, and its Adreno GPU (llama.cpp OpenCL PRs)
        (["On X Elite,", "", "Before,"], ("X Elite", 1, "prose"), []),
        (["On 8 Elite Gen 5,", "master:"], ("8 Elite Gen 5", 1, "prose"), []),
        (["With Adreno 830,", "", "*master*"], ("Adreno 830", 1, "prose"), []),
    ],
)
def test_one_device_named_in_words_is_the_runs(lines, device, count):
    devices, counts, statement = _device(lines)
    assert devices == [device]
    assert counts == count
    assert statement.status == "stated"


def test_a_lake_that_is_no_code_name_names_no_device():
    assert context.read(["We ran it by the lake on a laptop.", "## Lake Tahoe results"]).get("device") == ()


def test_two_devices_in_prose_are_signs_naming_both_lines_and_no_device():
    lines = ["We first tried an A100 80GB.", "", "Then the same with an H200 for comparison."]
    c = context.read(lines)
    assert c.get("device") == ()
    assert sorted(s.line for s in c.signs if s.name == "device") == [1, 3]
    assert context.states(c, "device").status == "unread"


def test_each_of_several_devices_in_prose_is_a_sign_at_its_own_line():
    lines = ["We first tried an A100 80GB.", "Then an H200.", "Last a B200."]
    c = context.read(lines)
    assert c.get("device") == ()
    assert sorted((s.line, s.text) for s in c.signs if s.name == "device") == [
        (1, lines[0]),
        (2, lines[1]),
        (3, lines[2]),
    ]


def test_cards_joined_by_a_slash_are_two_devices():
    c = context.read(["- Test 1 : RTX4090/L4 - 24GB -  full precision"])
    assert c.get("device") == () and context.states(c, "device").status == "unread"


def test_a_variant_is_another_device_than_the_part_it_extends():
    # 8x96GB H20 and H20-3e: two parts, so no device, and the line is named
    c = context.read(["在 8x96GB H20 上可以部署，建议使用 H20-3e 等更大显存的 GPU。"])
    assert c.get("device") == ()
    assert context.states(c, "device").status == "unread"


@pytest.mark.parametrize(
    "lines",
    [
        ["## TP16", "", "### Launch"],  # a tensor-parallel size
        ["EP8 and PP2 were used."],
        ["See https://example.com/h100/results for the numbers."],  # a URL
        ["weights are under /data/a100/models/llama"],  # a path
        ["Qwen3-235B-A22B ran fine."],  # inside a model's id
        ["The GH100X die is not a part we know."],  # inside another word
        ["```", "On H100:", "```"],  # inside a code block
        ["The X Elite line of laptops is popular."],  # a Snapdragon without the word and no `on`: no device
        ["We add an 8 Elite kernel."],
    ],
)
def test_no_device_is_invented(lines):
    devices, counts, statement = _device(lines)
    assert devices == []
    assert statement.status != "stated" or counts


def test_a_pasted_table_without_its_separator_row_is_rows_of_pairs_not_a_header():
    # `| GPU | H100 |` over `| CPU | Xeon 8480 |`: each row a label and its value, so no CPU is read as a device
    c = context.read(["| GPU | H100 |", "| CPU | Xeon 8480 |"])
    assert c.values("device") == ["H100"] and c.values("cpu") == ["Xeon 8480"]
    # the other way: over Markdown's separator row the first row is a header naming each column's fact
    c = context.read(["| model | gpu | tok/s |", "|---|---|---|", "| llama | H100 | 12 |", "| llama | A100 | 9 |"])
    assert [(f.value, f.line) for f in c.get("device")] == [("H100", 3), ("A100", 4)]


def test_a_device_another_line_names_wins_over_prose():
    lines = ["GPU: NVIDIA A100-SXM4-80GB", "", "Earlier we tried an H100."]
    devices, _, _ = _device(lines)
    assert devices == [("NVIDIA A100-SXM4-80GB", 1, "key-value")]


def test_counted_servers_multiply_their_devices():
    c = context.read(["GPU server: 2 * 8 * h800"])
    assert c.values("device") == ["h800"] and c.values("device_count") == [16]


def test_a_tpu_setting_is_a_sign_of_a_device_not_a_device():
    c = context.read(["```", "TPU_BACKEND_TYPE=jax vllm serve \\", "  --tensor-parallel-size 1", "```"])
    statement = context.states(c, "device")
    assert statement.status == "unread" and statement.line == 2


_RPC_TABLE = [
    "| model                              |       size |   params | backend  |            test |            t/s |",
    "| ---------------------------------- | ---------: | -------: | -------- | --------------: | -------------: |",
    "| qwen3vlmoe 235B.A22B Q4_K - Medium | 124.91 GiB | 235.09 B | CUDA,RPC |            tg32 |   12.98 ± 0.05 |",
]


@pytest.mark.parametrize(
    ("lead", "listed"), [("with dual DGX Sparks connected via their 200G port", 2), ("on a DGX Spark", None)]
)
def test_devices_a_llama_bench_file_says_it_spans_are_the_devices_its_build_sees(tmp_path, lead, listed):
    # llama-bench's markdown has no gpu_info: the devices the prose counts are those a layer split spreads over
    from benchbook import ingest

    path = tmp_path / "run.md"
    path.write_text("\n".join([f"I'm seeing a bit of improvement {lead}.", "", *_RPC_TABLE]) + "\n")
    df = ingest.read(path, tool="llama-bench")
    assert set(df["gpu"]) == {"DGX Spark"}
    got = df["gpus_listed"].dropna().unique().tolist()
    assert got == ([listed] if listed else [])


def test_a_sentence_ending_on_the_device_names_it_and_a_file_name_does_not():
    assert context.read(["All of it ran on one GH200."]).values("device") == ["GH200"]
    assert context.read(["The log is in gh200.txt for later."]).values("device") == []


@pytest.mark.parametrize(
    "line",
    [
        "Unlike the RTX 4090 in last week's post, this box is a server.",
        "Target RPS above 10, a price-performance comparable to the Nvidia L4.",
        "It is about twice as fast as before, and faster than an A100.",
    ],
)
def test_a_device_set_beside_the_run_is_a_sign_not_the_device(line):
    c = context.read([line])
    assert c.get("device") == () and context.states(c, "device").status == "unread"


def test_a_phones_system_on_chip_named_in_a_sentence_is_the_device_and_one_compared_is_a_sign():
    """`Some results with Xiaomi 14 (snapdragon 8 gen 3):` names the chip whose GPU ran the model (the table
    lacks it: the page names it and its line); a chip set beside another run's names none, and a bare
    brand with no part names no device."""
    found, _, said = _device(["Some results with Xiaomi 14 (snapdragon 8 gen 3):", "", "| model | t/s |"])
    assert found == [("snapdragon 8 gen 3", 1, "prose")] and said.status == "stated"
    found, _, said = _device(["Some results with a Dimensity 9300 phone"])
    assert found == [("Dimensity 9300", 1, "prose")]
    found, _, said = _device(["This is faster than the Snapdragon 8 Gen 2 we had"])
    assert not found and said.status == "unread" and said.line == 1
    found, _, said = _device(["Built with the Snapdragon SDK"])
    assert not found and said.status != "stated"


def test_a_risc_v_board_named_in_a_title_is_the_device():
    """`# Benchmark HiFive Premier P550` names the SiFive board whose P550 cores ran the model (no GPU:
    Ollama runs on its CPU): the page names it and its line; the family word alone names no board."""
    found, _, said = _device(["# Benchmark HiFive Premier P550", "", "Running benchmark 3 times using model: x"])
    assert found == [("HiFive Premier P550", 1, "heading")] and said.status == "stated"
    found, _, said = _device(["# Notes on the HiFive boards"])
    assert not found


def test_a_product_named_with_a_hyphen_is_the_product():
    line = "with my setup (RTX-4080 in a Ryzen-5975WX box, Nvidia driver 575, so coopmat2 enabled)"
    assert context.read([line]).values("device") == ["RTX-4080"]
    assert context.read(["### Mainline on a Ryzen-5975WX"]).values("cpu") == ["Ryzen-5975WX"]


@pytest.mark.parametrize(
    ("heading", "devices"),
    [
        (
            "# [Hardware][AMD][Model] Add Triton MoE tuning support and optimized configs for Qwen3 omni for MI308X",
            ["MI308X"],
        ),
        ("## Tuned for H200", ["H200"]),
        ("## Tuned configs for H100 and H200", []),  # two parts: which ran, the title does not say
        ("## Kernels for FP16 and BF16", []),
    ],
)
def test_a_title_names_the_part_its_work_is_for(heading, devices):
    assert context.read([heading]).values("device") == devices
