"""SGLang's gsm8k bench_sglang.py print (Accuracy, Invalid, Latency, Output throughput) is an accuracy
benchmark the quantization chapter has no place for: a file holding it and nothing a tool reads is refused
in one sentence naming its `Accuracy:` line; beside a tool's output it claims nothing."""

from __future__ import annotations

import pytest

from benchbook import config, ingest
from benchbook.ingest import sglang_quant

PRINT = "Accuracy: 0.396\nInvalid: 0.003\nLatency: 10.905 s\nOutput throughput: 11035.006 token/s\n"


def test_a_file_of_gsm8k_prints_is_refused_naming_its_accuracy_line(tmp_path):
    f = tmp_path / "gsm8k.md"
    f.write_text("FP8\n```bash\npython3 benchmark/gsm8k/bench_sglang.py --num-questions 1319\n" + PRINT + "```\n")
    with pytest.raises(ingest.ParseError) as err:
        ingest.read(f)
    assert not isinstance(err.value, ingest.UnknownFormat)
    assert err.value.line == 4 and err.value.message == sglang_quant.GSM8K


def test_a_print_missing_its_lines_is_no_gsm8k_result(tmp_path):
    f = tmp_path / "partial.md"
    f.write_text("Accuracy: 0.396\nInvalid: 0.003\n")
    with pytest.raises(ingest.UnknownFormat):
        ingest.read(f)


def test_beside_a_tools_output_the_gsm8k_print_claims_nothing():
    f = config.FIXTURES_DIR / "sglang-bench-serving" / "gb200x4_hw_line_qwen3_30b_a3b_nvfp4_base_vs_pr_two_workloads.md"
    assert sglang_quant.refuses(f.read_text(encoding="utf-8")) is not None
    assert ingest.detect(ingest._load_text(f)) == ["sglang-bench-serving"]
    assert set(ingest.read(f)["tool"]) == {"sglang-bench-serving"}
