"""Where the rest of a file names the weights' precision (issue #35 class 2): a checkpoint whose name carries a
precision token (`..._FP8_...` in a `git clone` of its Hub repository) states it as that token, and a table column
named for the dtype states it for the runs of its rows where they share one; a `--kv-cache-dtype fp8` is the KV
cache's dtype and states nothing of the weights."""

from __future__ import annotations

from benchbook.analysis import precision
from benchbook.ingest import context


def _weights(tmp_path, lines: list[str], model: str | None = None) -> precision.Weights:
    path = tmp_path / "run.md"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    stated = [n for v in precision.stated_names([str(path)]).values() for n in v]
    return precision.weights(model, assume=False, stated=stated)


def test_a_cloned_checkpoint_named_fp8_states_fp8(tmp_path):
    lines = ["```bash", "git clone https://huggingface.co/amd/Llama-2-70b-chat-hf_FP8_MLPerf_V2 /model/fp8/", "```"]
    w = _weights(tmp_path, lines, model="Llama 2 70B")
    assert (w.precision, w.bytes_per_weight) == ("fp8", 1.0)


def test_a_kv_cache_dtype_of_fp8_states_no_weights_precision(tmp_path):
    lines = ["vllm serve meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype fp8 --tensor-parallel-size 1"]
    w = _weights(tmp_path, lines)
    assert w.precision is None and w.source == "not stated"
    assert [f.value for f in context.read(lines).get("kv_dtype")] == ["fp8"]


def test_a_dtype_column_its_rows_share_states_the_weights_precision(tmp_path):
    lines = [
        "| Workload | Engine | Size | Dtype | TPS/GPU |",
        "|---|---|---|---|---:|",
        "| inference_deepseek-r1 | TRT-LLM | 671b | nvfp4 | 4100.4 |",
        "| inference_llama3.3 | TRT-LLM | 70b | nvfp4 | 6526.2 |",
    ]
    assert [(f.value, f.line) for f in context.read(lines).get("precision")] == [("nvfp4", 3), ("nvfp4", 4)]
    assert _weights(tmp_path, lines).precision == "fp4"


def test_a_dtype_column_whose_rows_differ_gives_no_run_another_rows_precision(tmp_path):
    lines = [
        "| Model | Dtype | tok/s |",
        "|---|---|---:|",
        "| Llama-3.1-8B | bf16 | 900 |",
        "| Llama-3.1-8B | fp8 | 1500 |",
    ]
    ctx = context.read(lines)
    assert not ctx.get("precision")
    assert {(s.line, s.words) for s in ctx.signs if s.name == "precision"} >= {(3, "bf16"), (4, "fp8")}
    assert context.states(ctx, "precision")  # the rows speak of it: no absence is claimed
    assert _weights(tmp_path, lines).precision is None


def test_a_quark_name_gives_the_weights_the_format_after_its_w():
    name = "amd/Llama-2-70b-chat-hf-WMXFP4-AMXFP4-KVFP8-Scale-UINT8-6.0MLPerf-GPTQ"
    assert precision.tagged(name) == ("fp4", "WMXFP4")  # not GPTQ's int4: GPTQ only made the MXFP4 weights
    # the other way: the activations' and the KV cache's formats are not the weights'
    assert precision.tagged("Llama-2-70b-AMXFP4-KVFP8") is None
