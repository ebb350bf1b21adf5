"""A run's model that is the name a launch command serves one checkpoint under (`vllm serve M
--served-model-name X`, the name clients send for M): the runs are of M, sized by M
(`analysis.serving.served_as`), never "a checkpoint no run is tied to" (issue #35, classes 1 and 2).
`--served-model-name auto` is a name, not a default (`ingest.context`)."""

from benchbook import config, ingest
from benchbook.analysis import serving

SERVE = config.FIXTURES_DIR / "vllm-bench-serve"
JETSON = SERVE / "wangjunjian_jetson_thor_qwen3_8b_random_2048_128_cap8_cap1_cut.md"
ASCEND = SERVE / "vllm_ascend_pr1353_dsr1_w8a8_tp16_rate1_cap24_before_mla_multistream_cut.md"


def _file(tmp_path, text):
    f = tmp_path / "notes.md"
    f.write_text(text, encoding="utf-8")
    return [f]


def test_the_served_name_of_a_one_model_launch_is_that_checkpoint(tmp_path):
    src = _file(
        tmp_path, "vllm serve /models/Qwen/Qwen3-8B --served-model-name qwen3\nvllm bench serve --model qwen3\n"
    )
    assert serving.served_as("qwen3", src) == ("/models/Qwen/Qwen3-8B", 1)


def test_a_multi_line_launch_ties_auto_to_its_model(tmp_path):
    src = _file(
        tmp_path,
        "python -m vllm.entrypoints.openai.api_server --model=/DeepSeek-R1-W8A8 \\\n"
        "    --served-model-name auto \\\n    -tp=16\n",
    )
    assert serving.served_as("auto", src) == ("/DeepSeek-R1-W8A8", 1)


def test_the_real_outputs_size_their_runs_by_the_served_checkpoint():
    assert serving.served_as("qwen3", [JETSON]) == ("/models/Qwen/Qwen3-8B", 8)
    assert serving.served_as("auto", [ASCEND]) == ("/DeepSeek-R1-W8A8", 14)


def test_a_name_no_launch_serves_is_tied_to_nothing(tmp_path):
    # the checkpoint is launched without a served name: `qwen3` may stand for any model the server holds
    src = _file(tmp_path, "vllm serve /models/Qwen/Qwen3-8B\nvllm bench serve --model qwen3\n")
    assert serving.served_as("qwen3", src) is None


def test_one_name_served_for_two_checkpoints_names_neither(tmp_path):
    src = _file(
        tmp_path,
        "vllm serve /models/Qwen/Qwen3-8B --served-model-name chat\n"
        "vllm serve /models/Qwen/Qwen3-32B --served-model-name chat\n",
    )
    assert serving.served_as("chat", src) is None


def test_another_served_name_ties_nothing_to_the_runs(tmp_path):
    src = _file(tmp_path, "vllm serve /models/Qwen/Qwen3-8B --served-model-name small\n")
    assert serving.served_as("qwen3", src) is None


def test_a_model_the_table_sizes_needs_no_tie(tmp_path):
    src = _file(tmp_path, "vllm serve /models/Qwen/Qwen3-8B --served-model-name Qwen/Qwen3-32B\n")
    assert serving.served_as("Qwen/Qwen3-32B", src) is None


def test_auto_is_a_served_name_but_no_other_settings_value(tmp_path):
    src = _file(tmp_path, "vllm serve /models/Qwen/Qwen3-8B --served-model-name auto --dtype auto\n")[0]
    ctx = ingest.context_of_lines(src)
    assert [f.value for f in ctx.get("served_name")] == ["auto"]
    assert not ctx.get("dtype") and not ctx.get("precision")
