"""A shell comment written right over a launch command (`# 424B model 80G*8 GPU with FP8 quantization` over
`vllm serve ...-424B-... --quantization fp8`) says what that launch is: the precision it names is that launch's
model's, and a run of another model the guide benchmarks (its 28B) takes none of it. A comment over the run's
own model's launch, and one over no command, still state the file's precision."""

from __future__ import annotations

from benchbook.analysis import precision

RUN = "baidu/ERNIE-4.5-VL-28B-A3B-PT"


def _weights(tmp_path, lines: list[str], model: str) -> precision.Weights:
    path = tmp_path / "guide.md"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    stated = [n for v in precision.stated_names([str(path)]).values() for n in v]
    return precision.weights(model, assume=True, stated=stated)


def _guide(launched: str, over_command: bool = True) -> list[str]:
    return [
        "# A guide",
        "",
        "```bash",
        f"vllm serve {RUN} --trust-remote-code",
        "```",
        "",
        "```bash",
        "# 424B model 80G*8 GPU with FP8 quantization and CPU offloading",
        *([] if over_command else ["", "echo ready", "```", "", "```bash"]),
        f"vllm serve {launched} \\",
        "  --tensor-parallel-size 8 \\",
        "  --quantization fp8",
        "```",
    ]


def test_a_comment_over_another_models_launch_gives_the_run_no_precision(tmp_path):
    w = _weights(tmp_path, _guide("baidu/ERNIE-4.5-VL-424B-A47B-PT"), RUN)
    assert w.precision == "bf16" and w.source == "assumed"


def test_a_comment_over_the_runs_own_launch_gives_its_precision(tmp_path):
    w = _weights(tmp_path, _guide(RUN), RUN)
    assert w.precision == "fp8" and w.source == "file"
