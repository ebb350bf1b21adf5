"""vLLM's `--dtype` takes `half` and `float` beside `float16`/`bfloat16`/`float32`: a stated one is the run's
precision, never an assumed bf16 (stop 48, issue #35 class 2: a Ray compiled-graphs note serving with `--dtype half`)."""

from benchbook.analysis import precision


def test_a_served_dtype_half_is_the_runs_fp16(tmp_path):
    f = tmp_path / "run.md"
    f.write_text(
        "vllm serve Qwen/Qwen2.5-0.5B-Instruct \\\n  --pipeline-parallel-size 2 \\\n  --dtype half \\\n"
        "  --trust-remote-code\n"
        "python benchmarks/benchmark_serving.py --backend vllm --model Qwen/Qwen2.5-0.5B-Instruct --num-prompts 100\n",
        encoding="utf-8",
    )
    (stated,) = precision.stated_names([f]).values()
    w = precision.weights("Qwen/Qwen2.5-0.5B-Instruct", stated=stated)
    assert (w.precision, w.bytes_per_weight, w.source, w.detail) == ("fp16", 2.0, "file", "half")
    # the other way: with no dtype on the command, bf16 is still only assumed
    f.write_text("vllm serve Qwen/Qwen2.5-0.5B-Instruct --trust-remote-code\n", encoding="utf-8")
    (stated,) = precision.stated_names([f]).values()
    assert precision.weights("Qwen/Qwen2.5-0.5B-Instruct", stated=stated).source == "assumed"


def test_the_dtype_words_name_a_precision_only_as_a_whole_value():
    assert precision.tagged("half") == ("fp16", "half") and precision.tagged("float")[0] == "fp32"
    # the other way: inside a model's name or a phrase the word is no dtype
    assert precision.tagged("org/half-life-7b") is None and precision.tagged("float model") is None
