"""Where a run's weight precision was read: the line of the output that states it, or the name."""

from benchbook.analysis import batch, precision


def test_a_stated_quantization_is_quoted_as_the_weights_source():
    w = precision.weights("org/m", quantization="fp8")
    assert (w.precision, w.source, w.detail) == ("fp8", "output", "quantization fp8")


def test_a_batch_run_keeps_where_its_precision_came_from():
    assert batch.run_precision("org/Model-FP8", assume=False) == {
        "precision": "fp8",
        "precision_assumed": False,
        "precision_source": "name",
        "bytes_per_weight": 1.0,
    }


def test_a_checkpoint_s_precision_names_the_config_it_was_read_from():
    w = precision.weights("meta-llama/Llama-3.1-8B-Instruct")
    assert (w.precision, w.source) == ("bf16", "checkpoint")
    assert w.detail == "https://huggingface.co/meta-llama/Llama-3.1-8B/blob/main/config.json (torch_dtype bfloat16)"
