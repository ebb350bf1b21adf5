"""The name a server serves its weights under (`--served-model-name muse-glimmer-30b-bf16-spec`) is its operator's
name for what it loaded: where no model's name carries a precision tag, the served name's tag states the weights'
precision (never "assumed"). A model's own tag comes first, and two served names of two precisions state none."""

from __future__ import annotations

from benchbook.analysis import precision


def _weights(tmp_path, lines: list[str], model: str) -> precision.Weights:
    path = tmp_path / "run.md"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    stated = [n for v in precision.stated_names([str(path)]).values() for n in v]
    return precision.weights(model, assume=True, stated=stated)


def test_a_served_name_tagged_bf16_states_bf16(tmp_path):
    cmd = "vllm bench serve --model meta-models/Muse-Glimmer-30B --served-model-name muse-glimmer-30b-bf16-spec"
    w = _weights(tmp_path, [cmd], "meta-models/Muse-Glimmer-30B")
    assert w.precision == "bf16" and "assumed" not in w.source


def test_without_a_tagged_served_name_bf16_is_assumed(tmp_path):
    cmd = "vllm bench serve --model meta-models/Muse-Glimmer-30B --served-model-name muse-glimmer-30b"
    w = _weights(tmp_path, [cmd], "meta-models/Muse-Glimmer-30B")
    assert w.precision == "bf16" and "assumed" in w.source


def test_the_models_own_tag_comes_before_the_served_names(tmp_path):
    cmd = "vllm bench serve --model org/Model-30B-FP8 --served-model-name model-30b-bf16"
    assert _weights(tmp_path, [cmd], "org/Model-30B-FP8").precision == "fp8"


def test_two_served_names_of_two_precisions_state_none(tmp_path):
    lines = [
        "vllm bench serve --model org/Model-30B --served-model-name model-30b-bf16",
        "vllm bench serve --model org/Model-30B --served-model-name model-30b-int4",
    ]
    w = _weights(tmp_path, lines, "org/Model-30B")
    assert "assumed" in w.source
