"""A weights folder that neither the model table nor its name sizes (`/ep_fp8_weight`) takes the size of
the table models the headings above it name, where they all have one size (`serving.titled_size`); two
sizes, no such heading, or a heading below the launch size nothing. (sglang issue 3812's `/dsv3_fp8_weight`
is sized by its name since the table holds DeepSeek-V3's short name, `dsv3`.)"""

from __future__ import annotations

import pytest

from benchbook.analysis import serving

LAUNCH = ["", "python -m sglang.launch_server --model-path /ep_fp8_weight --tp 16", ""]


@pytest.mark.parametrize(
    ("title", "size"),
    [
        ("# Benchmark results of Expert Parallelism on DeepSeek-v3/R1", (671.0, 37.0, "DeepSeek-v3", 1)),
        (
            "# Qwen3-32B and DeepSeek-R1-Distill-Qwen-32B",
            (32.76, 32.76, "DeepSeek-R1-Distill-Qwen-32B or Qwen3-32B", 1),
        ),
        ("# DeepSeek-V3 vs Qwen3-32B", None),  # two sizes: which weights the folder holds is not said
        ("# Expert parallelism on two nodes", None),  # no table model named
    ],
)
def test_a_weights_folder_under_a_title_naming_models_of_one_size_has_that_size(tmp_path, title, size):
    doc = tmp_path / "run.md"
    doc.write_text("\n".join([title, *LAUNCH]), encoding="utf-8")
    got = serving.titled_size("ep_fp8_weight", [doc])
    assert (got[:2] + got[3:] if got else None) == size


def test_a_heading_below_the_launch_or_a_model_the_table_sizes_takes_no_title_size(tmp_path):
    doc = tmp_path / "run.md"
    doc.write_text("\n".join(["# Notes", *LAUNCH, "## DeepSeek-V3 next"]), encoding="utf-8")
    assert serving.titled_size("ep_fp8_weight", [doc]) is None  # the heading comes after the launch
    doc.write_text("\n".join(["# DeepSeek-V3", "", "vllm serve Qwen/Qwen3-32B --tp 2"]), encoding="utf-8")
    assert serving.titled_size("Qwen/Qwen3-32B", [doc]) is None  # the table sizes it


def test_a_launch_that_ends_the_folder_with_a_slash_names_the_same_folder(tmp_path):
    doc = tmp_path / "run.md"
    launch = [line.replace("/ep_fp8_weight ", "/ep_fp8_weight/ ") for line in LAUNCH]
    doc.write_text("\n".join(["# Expert Parallelism on DeepSeek-v3/R1", *launch]), encoding="utf-8")
    assert serving.titled_size("ep_fp8_weight", [doc])[:2] == (671.0, 37.0)
