"""The one context reader: facts read from any text around a tool's output, each tied to its line
and source, signs kept, one precedence, conflicts stated, absence only after looking."""

from __future__ import annotations

import pytest

from benchbook import config
from benchbook.ingest import context

FIX = config.FIXTURES_DIR


def _read(text: str) -> context.Context:
    return context.read(text.splitlines())


def _fixture(rel: str) -> context.Context:
    return context.read((FIX / rel).read_text(encoding="utf-8").splitlines())


def _one(c: context.Context, name: str) -> context.Fact:
    facts = c.get(name)
    assert facts, f"no {name} read"
    return facts[0]


# ------------------------------------------------------------------------------ commands
@pytest.mark.parametrize(
    ("command", "tp"),
    [
        ("vllm serve meta-llama/Llama-3.1-8B --tensor-parallel-size 2", 2),
        ("CUDA_VISIBLE_DEVICES=0,1,2,3 vllm serve m --tensor-parallel-size=4", 4),
        ("python -m sglang.launch_server --model-path m --tp 8", 8),
        ("python3 -m sglang.launch_server --model-path m --tp-size 2", 2),
        ("text-generation-launcher --model-id m --num-shard 4", 4),
        ("trtllm-bench --model m throughput --tp 8", 8),
    ],
)
def test_a_launch_command_states_the_tp_on_its_line(command, tp):
    c = _read(f"some notes\n\n{command}\n")
    f = _one(c, "tp")
    assert (f.value, f.line, f.source) == (tp, 3, "command")


@pytest.mark.parametrize(
    "command,batches",
    [
        # SGLang bench_one_batch runs every value of `--batch-size` (nargs="+"): the flag states each (sglang PR 11322)
        ("python3 -m sglang.bench_one_batch --batch-size 1 2 4 8 --input-len 1024 --tp 8", {1, 2, 4, 8}),
        # the other way: one value, then another flag, states that one only
        ("python3 -m sglang.bench_one_batch --batch-size 8 --input-len 1024 2>&1 | tee log", {8}),
    ],
)
def test_a_flag_followed_by_several_numbers_states_each_of_them(command, batches):
    c = _read(f"notes\n\n{command}\n")
    assert {f.value for f in c.facts if f.name == "batch"} == batches
    assert _one(c, "tp").value == 8 if "--tp" in command else True


def test_a_command_wrapped_with_backslashes_is_read_on_the_flags_own_line():
    c = _read(
        "vllm serve Qwen/Qwen3-8B \\\n  --dtype bfloat16 \\\n  --tensor-parallel-size 2 \\\n  --kv-cache-dtype fp8\n"
    )
    assert (_one(c, "model").value, _one(c, "model").line) == ("Qwen/Qwen3-8B", 1)
    assert (_one(c, "tp").value, _one(c, "tp").line) == (2, 3)
    assert _one(c, "precision").value == "bfloat16"
    assert _one(c, "kv_dtype").value == "fp8"


@pytest.mark.parametrize(
    ("text", "model"),
    [
        ("python vllm_bench.py --model_path meta-llama/Llama-3.1-8B --tokenizer_path t", "meta-llama/Llama-3.1-8B"),
        ("$ python3 benchmarks/benchmark_serving.py --model m --tp 2", "m"),
        ("`python -m mytool.bench --model m`", "m"),
        ("./run.py \\\n  --model m", "m"),
        ("python servers/levanter_server.py &> out.txt\n--model m", None),  # no flag: no command
        ("Run python bench.py --model m to compare.", None),  # a program named in a sentence
    ],
)
def test_a_python_program_followed_by_flags_is_a_command_whatever_its_tool(text, model):
    c = _read(text)
    assert [f.value for f in c.get("model") if f.source == "command"] == ([model] if model else [])


def test_a_flag_outside_any_command_is_not_taken_for_a_setting():
    c = _read("Pass --tp 4 to shard the model.\n")
    assert not c.get("tp")


def test_the_visible_devices_of_an_env_prefix_are_counted_apart_from_the_devices_used():
    c = _read("CUDA_VISIBLE_DEVICES=0,1 vllm serve m --tensor-parallel-size 2\n")
    assert _one(c, "visible_devices").value == 2
    assert not c.get("device_count")


def test_weights_and_tokenizer_are_kept_apart():
    c = _read("text-generation-benchmark --tokenizer-name meta-llama/Llama-2-7b-hf -b 1\n")
    assert _one(c, "tokenizer").value == "meta-llama/Llama-2-7b-hf"
    assert not c.get("model")


def test_a_wrapped_tgi_docker_command_reads_its_shards_and_not_its_device_files():
    c = _fixture("tgi-benchmark/ms_build_mi300_llama3_70b.md")
    assert [(f.value, f.line) for f in c.get("tp") if f.source == "command"] == [(1, 12)]
    assert not c.get("device")  # `--device=/dev/kfd` is a docker flag, not a GPU


# ------------------------------------------------------------------- key-value lines, headings
def test_a_hardware_block_names_the_device_and_how_many():
    c = _fixture("sglang-bench-serving/sglang_issue23896_dsv4_flash_h20_eagle_tp4_vs_dp4.md")
    dev, n = _one(c, "device"), _one(c, "device_count")
    assert (dev.value, dev.line, dev.source) == ("NVIDIA H20-3e", 5, "key-value")
    assert (n.value, n.line) == (4, 5)


def test_a_bold_key_with_its_colon_inside_the_bold_is_a_key():
    c = _fixture("vllm-bench-serve/dgx_spark_08_sharegpt.md")
    assert _one(c, "device").value == "DGX Spark NVIDIA GB10 128GB"
    assert _one(c, "date").value == "2026-08-16 17:00:17"


def test_a_heading_above_a_tgi_block_states_the_shard_count():
    c = _fixture("tgi-benchmark/bloomz_1b1_seq500_tp2.md")
    assert {(f.value, f.source) for f in c.get("tp")} == {(2, "heading")}


def test_a_heading_names_tp_and_dp_in_short_form():
    c = _read("### Config A (TP4 + DP2)\n")
    assert (_one(c, "tp").value, _one(c, "dp").value) == (4, 2)
    assert _one(c, "heading").value == "Config A (TP4 + DP2)"


def test_a_log_prefix_names_a_rank_not_a_tp_size():
    """SGLang prints `[%(asctime)s TP<rank>]` before each line: a rank, never a size; the same `TP2`
    outside that prefix is a size, and a TP of 0 is never one."""
    c = _read("[2026-02-26 10:25:20 TP0] Reset HybridReqToTokenPool\n[2026-02-26 10:25:21 DP1 TP3] Load weight end.\n")
    assert not c.get("tp") and not c.get("dp")
    c = _read("[2026-02-26 10:25:20 TP1] Served with TP2 on 2 GPUs\n")
    assert [f.value for f in c.get("tp")] == [2]
    assert not _read("Results (TP0 worker)\n").get("tp")


def test_a_vllm_worker_prefix_names_a_rank_not_a_tp_size():
    """vLLM's workers print `(<process name> pid=<pid>)` before each line, the name built of their ranks
    (`VllmWorker TP2`, `Worker_DP0_TP5_EP5`): vllm-project/vllm#23504 logs `(VllmWorker TP2 pid=...)` on a
    DP8TP4 run. The same `TP2` after the prefix is a size."""
    c = _read("(VllmWorker TP2 pid=1298912) WARNING 08-23 18:31:51 [fp8_utils.py:581] Using default config\n")
    assert not c.get("tp")
    assert not _read("(Worker_DP0_TP5_EP5 pid=919) INFO [EP Rank 5/16] Expert parallelism is enabled.\n").get("tp")
    c = _read("(VllmWorker TP1 pid=77) INFO Served with TP2 on 2 GPUs\n")
    assert [f.value for f in c.get("tp")] == [2]
    assert [f.value for f in _read("(TP2 on two cards)\n").get("tp")] == [2]  # no pid: no process's prefix


def test_parallel_degrees_glued_into_one_word_are_each_a_size():
    c = _read("Testing DeepSeek V3 for DP8TP4EP32\n")
    assert (_one(c, "dp").value, _one(c, "tp").value, _one(c, "ep").value) == (8, 4, 32)
    assert not _read("model_DP8TP4 checkpoint\n").get("tp")  # inside another word: no size
    assert not _read("DP8 build\n").get("tp")


@pytest.mark.parametrize(
    ("line", "tp"),
    [
        ("Same story on Falcon-40b (shards =4 on 4 A10G)", [4]),  # stop 51 (half ay), TGI PR 586
        ("num shards: 2, sequence length 512", [2]),
        ("Loading safetensors checkpoint shards: 100% Completed | 2/2", []),  # a weights file's shards
        ("shards: 50% done", []),  # a progress percentage
        ("the model is sharded on two cards", []),  # no count
    ],
)
def test_tgis_shard_count_written_in_prose_is_its_tensor_parallel_degree(line, tp):
    assert [f.value for f in _read(line + "\n").get("tp")] == tp


def test_a_sentence_before_a_command_on_its_line_is_prose():
    # stop 51 (half ay), TGI issue 1452: the machine is named in the sentence that runs the command
    c = _read("test on runpod 2x 3090 using `text-generation-benchmark --tokenizer-name org/M -s 1000`\n")
    assert (c.values("device"), c.values("device_count")) == (["RTX 3090"], [2])
    c = _read(
        "This recipe runs on 4 chips with Tensor Parallelism size 8, and benchmarks it with `vllm bench serve --model m`\n"
    )
    assert c.values("tp") == [8]
    # the other way: a prompt or an environment before the program is the command's own
    assert not _read("$ text-generation-benchmark --tokenizer-name org/M\n").get("device")
    assert not _read("CUDA_VISIBLE_DEVICES=0 vllm serve m --dtype bfloat16\n").get("device")


def test_a_table_row_that_speaks_of_a_device_is_read_as_its_words():
    # stop 51 (half ay): a runner table's cell names the GPU the note's Metal runs used
    c = _read(
        "| Runner | Version evidence |\n| --- | --- |\n| llama.cpp | backends `BLAS,MTL`, GPU `Apple M3 Ultra` |\n"
    )
    assert c.values("device") == ["Apple M3 Ultra"]
    # the other way: a row that does not speak of a device stays the table's data
    assert not _read("| model | tok/s |\n| --- | --- |\n| Apple M3 Ultra notes | 42 |\n").get("device")


def test_a_switchs_true_or_false_names_no_model():
    """vLLM's 2023 engine config line: `model='llama-2-70b', ..., use_dummy_weights=False, use_np_weights=False`."""
    c = _read("Initializing an LLM engine with config: model='org/Llama-2-70b-hf', use_dummy_weights=False\n")
    assert [f.value for f in c.get("model")] == ["org/Llama-2-70b-hf"]
    assert [f.value for f in _read("weights=org/Llama-2-7b-hf\n").get("model")] == ["org/Llama-2-7b-hf"]


def test_a_heading_that_names_no_count_gives_none():
    c = _read("## Results on H100\n")
    assert not c.get("device_count") and not c.get("tp")
    assert _one(c, "heading").value == "Results on H100"  # resolved against the hardware table above this layer


def test_a_prose_line_counts_devices_only_when_it_speaks_of_gpus():
    assert _one(_read("4 x MI100 GPUs with Infinity Fabric Link\n"), "device_count").value == 4
    assert not _read("256 GB (8 x 32GB) DDR4-2666MHz\n").get("device_count")


def test_an_accelerator_counted_by_its_device_type_is_a_device_count():
    # PyTorch's device types for Gaudi, Ascend and Intel GPUs: `2x HPUs` counts two devices
    assert _one(_read("Run the benchmark for Mixtral 8x7B on 2x HPUs.\n"), "device_count").value == 2
    assert _one(_read("The job used 16 NPUs.\n"), "device_count").value == 16
    assert not _read("HPU graphs were enabled for 2 runs.\n").get("device_count")
    assert not _read("Mixtral 8x7B on 8 NPUs per node.\n").get("device_count")


def test_a_code_ending_in_a_lower_case_x_names_a_series_of_parts():
    # AMD's CI names its MI350-series lane `MI35x` (sglang PR 32570: "on 8× MI35x")
    c = _read("- Add GLM-5.2-FP8 accuracy and performance coverage on 8× MI35x with ROCm 7.2.\n")
    assert (_one(c, "device").value, _one(c, "device_count").value) == ("MI35x", 8)
    assert _one(_read("Tested on 8x MI300X.\n"), "device").value == "MI300X"
    assert not _read("The new kernel is 8x faster.\n").get("device")


# --------------------------------------------------------------------------- environment dumps
def test_nvidia_smi_rows_name_each_gpu():
    smi = (
        "| GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. ECC |\n"
        "|   0  NVIDIA H100 80GB HBM3          On  | 00000000:18:00.0 Off |                    0 |\n"
        "|   1  NVIDIA H100 80GB HBM3          On  | 00000000:2A:00.0 Off |                    0 |\n"
    )
    c = _read(smi)
    assert [(f.value, f.line, f.source) for f in c.get("device")] == [
        ("NVIDIA H100 80GB HBM3", 2, "env-dump"),
        ("NVIDIA H100 80GB HBM3", 3, "env-dump"),
    ]


def test_rocm_smi_and_lscpu_lines_name_the_gpu_and_the_cpu():
    c = _read(
        "GPU[0]\t\t: Card Series: \t\tAMD Instinct MI300X\nModel name:            AMD EPYC 9654 96-Core Processor\n"
    )
    assert _one(c, "device").value == "AMD Instinct MI300X"
    assert _one(c, "cpu").value == "AMD EPYC 9654 96-Core Processor"


def test_cpuinfo_model_name_is_the_cpu_and_a_model_key_stays_the_model():
    c = _read("cores 4\nmodel name\t: AMD EPYC 9V74 80-Core Processor\n")
    assert _one(c, "cpu").value == "AMD EPYC 9V74 80-Core Processor"
    assert not [f for f in c.facts if f.name == "model"]
    c = _read("model_name: meta-llama/Llama-3.1-8B-Instruct\n")
    assert _one(c, "model").value == "meta-llama/Llama-3.1-8B-Instruct"
    assert not [f for f in c.facts if f.name == "cpu"]


def test_llama_bench_cpu_info_names_the_cpu():
    c = _fixture("llama-bench/llamacpp_readme_b1275.json")
    assert _one(c, "cpu").value == "13th Gen Intel(R) Core(TM) i9-13900K"
    assert _one(c, "device").value == "NVIDIA GeForce RTX 3090 Ti"


def test_llama_bench_cpu_info_and_gpu_info_columns_of_a_markdown_table_are_read():
    table = (
        "| cpu_info | gpu_info | model | t/s |\n| --- | --- | --- | ---: |\n"
        "| AMD Ryzen 9 7950X | NVIDIA GeForce RTX 4090 | llama 7B | 100.0 |\n"
    )
    c = _read(table)
    assert (_one(c, "cpu").value, _one(c, "cpu").line) == ("AMD Ryzen 9 7950X", 3)
    assert _one(c, "device").value == "NVIDIA GeForce RTX 4090"
    assert not _read("| model | t/s |\n| --- | ---: |\n| llama 7B | 100.0 |\n").get("cpu")


def test_a_backend_device_id_and_a_number_under_a_device_key_name_no_device():
    c = _read('{"devices": "ROCm0", "gpu": 0.0413, "cpu": 1.2e-05}\n')
    assert not c.get("device") and not c.get("cpu")
    # a number written as text under the key names none either; a name does
    assert not _read("cpu: 1.5\n").get("cpu")
    assert _read("cpu: AMD EPYC 9654\n").values("cpu") == ["AMD EPYC 9654"]


def test_ggml_init_lines_name_the_device_and_count():
    c = _read("ggml_cuda_init: found 2 CUDA devices:\n  Device 0: NVIDIA GeForce RTX 3090, compute capability 8.6\n")
    assert _one(c, "device_count").value == 2
    assert _one(c, "device").value == "NVIDIA GeForce RTX 3090"


# ------------------------------------------------------------------------------- JSON metadata
def test_json_metadata_keys_are_read_on_their_lines():
    c = _fixture("inferencex/glm5.1_tp2_conc4_offloadnone_fp4_sglang_mi355x_agentic.json")
    assert (_one(c, "tp").value, _one(c, "tp").source) == (2, "json")
    assert _one(c, "device").value == "mi355x"
    assert _one(c, "precision").value == "fp4"


def test_ml_energys_weight_precision_is_the_weights_precision():
    c = _fixture("ml-energy/meta-llama__Llama-4-Scout-17B-16E-Instruct__image-chat.json")
    assert (_one(c, "precision").value, _one(c, "precision").line) == ("bfloat16", 1652)
    # a precision key of another meaning is not it
    assert _read('{"kv_cache_precision": "fp8"}\n').values("precision") == []


def test_a_schema_version_is_not_the_engine_version():
    c = _read('{"version": 1, "vllm_version": "0.8.5"}\n')
    assert c.values("version") == ["0.8.5"]


# ---------------------------------------------------------------------------- power and energy
def test_an_appended_power_line_is_read_with_its_unit_and_scope_not_stated():
    c = _fixture("llama-bench-power/geerlingguy_ai_benchmarks_issue46_rtx2080ti_265k_excerpt.md")
    idle, run = c.get("power")
    assert (idle.value, idle.unit, idle.scope, idle.line) == (47.7, "W", "idle", 5)
    assert (run.value, run.unit, run.scope, run.line) == (241.4, "W", "scope not stated", 16)


@pytest.mark.parametrize(
    ("line", "scope"),
    [
        ("Average GPU power: 350 W", "per GPU"),
        ("Power per GPU: 350 W", "per GPU"),
        ("Whole system power: 900 W", "whole node"),
        ("Power at the wall: 410 W", "wall"),
        ("Average power: 350 W", "scope not stated"),
        # CodeCarbon's console: a sum over the host's GPUs or CPUs, neither one device's nor the node's
        (
            "[codecarbon INFO @ 11:23:24] Energy consumed for all GPUs : 0.003595 kWh. Total GPU Power : 217.9 W",
            "all GPUs",
        ),
        (
            "[codecarbon INFO @ 18:28:46] Energy consumed for all CPUs : 0.001248 kWh. All CPUs Power : 42.5 W",
            "all CPUs",
        ),
        ("Total CPU Power : 186.0 W", "all CPUs"),
    ],
)
def test_a_power_reading_carries_the_scope_its_line_states(line, scope):
    assert _one(_read(line), "power").scope == scope


def test_a_power_limit_is_not_a_power_reading():
    c = _read("Power limit: 300 W\n")
    assert not c.get("power") and _one(c, "power_limit").value == 300.0


def test_a_power_number_without_a_unit_is_a_sign_not_a_reading():
    c = _read("avg power: 241.4\n")
    assert not c.get("power")
    s = context.states(c, "power")
    assert (s.status, s.line) == ("unread", 1)
    assert _one(_read("avg_power_w: 241.4\n"), "power").unit == "W"  # the key states the unit


def test_energy_keeps_its_unit():
    f = _one(_read("Total energy: 183155.23 J (0.050876 kWh)\n"), "energy")
    assert (f.value, f.unit) == (183155.23, "J")


def test_an_energy_in_a_sentence_is_read_with_its_unit_only_where_the_sentence_says_energy():
    f = _one(_read("The benchmark used 12.5 kJ of energy.\n"), "energy")
    assert (f.value, f.unit, f.line, f.source) == (12.5, "kJ", 1, "prose")
    assert not _read("The benchmark used 12.5 kJ.\n").get("energy")


@pytest.mark.parametrize(
    "line",
    ['  "Energy/req (J)": 529.1048462011807,', "D1  Energy per token:          0.3500 J/token"],
)
def test_an_energy_per_request_or_token_is_no_energy_reading_but_a_sign(line):
    """ML.ENERGY's `Energy/req (J)` is steady-state energy / tokens x mean output tokens: a ratio, never the
    energy a run used; the file still speaks of energy, so its line is a sign, not an absence."""
    c = _read("{\n" + line + "\n}\n" if line.startswith(" ") else line + "\n")
    assert not c.get("energy")
    assert context.states(c, "energy").status == "unread"
    assert _one(_read('  "Total energy (J)": 529.1,\n'), "energy").value == 529.1  # an energy over the run is one


# ------------------------------------------------------------------------ absence after looking
def test_a_fact_read_anywhere_is_stated_with_its_line():
    s = context.states(_read("# Notes\n\nGPU: 2x A100\n"), "device")
    assert (s.status, s.line, s.facts[0].value) == ("stated", 3, "A100")


def test_a_sign_without_a_value_is_unread_and_names_its_line():
    s = context.states(_read("intro\nWe ran with tensor parallelism across the node.\n"), "tp")
    assert (s.status, s.line) == ("unread", 2)


def test_no_sign_anywhere_is_absent():
    s = context.states(_read("Throughput: 100 tok/s\n"), "tp")
    assert (s.status, s.line) == ("absent", None)


def test_an_unknown_fact_name_is_refused():
    with pytest.raises(ValueError, match="unknown fact"):
        context.states(context.Context(), "colour")


# -------------------------------------------------------------------- precedence and conflicts
def test_facts_come_in_one_precedence_command_before_key_value_before_heading():
    c = _read("## Run at TP 8\n\nTP: 4\n\nvllm serve m --tensor-parallel-size 2\n")
    assert [f.source for f in c.get("tp")] == ["command", "key-value", "heading"]
    assert c.values("tp") == [2, 4, 8]


def test_the_parsers_fact_comes_first_and_a_context_fact_that_disagrees_is_a_conflict():
    c = context.merge({"tp": 2}, _read("# Throughput at TP 4\n"))
    assert _one(c, "tp").source == "parser"
    (conflict,) = c.conflicts
    assert (conflict.first.value, conflict.other.value, conflict.other.line) == (2, 4, 1)


def test_a_context_fact_that_agrees_with_the_parser_is_no_conflict():
    c = context.merge({"tp": 4, "model": "Qwen/Qwen3-8B"}, _read("# TP 4\nvllm serve qwen/qwen3-8b --tp 4\n"))
    assert c.conflicts == ()


def test_ggml_vulkan_device_lines_name_the_device_with_its_brand_marks():
    c = _fixture("llama-bench/arc_a310_pi500_vulkan.md")
    assert (_one(c, "device").value, _one(c, "device").line) == ("Intel(R) Arc(tm) A310 Graphics", 9)


def test_a_count_in_prose_needs_a_part_name_with_a_digit():
    assert not _read("The GPU is 5x faster for PP.\n").get("device")
    assert _one(_read("The GPU box: 8x H100 SXM\n"), "device").value == "H100 SXM"


def test_a_count_before_a_comparison_is_a_factor_not_parts():
    """`so 8x to 16x faster depending on whether 8 or 16 gpus were used` (the BLOOM scripts' README on
    ZeRO's streams) compares speeds: `16x faster depending` names no device, though a digit follows."""
    text = "so 8x to 16x faster depending on whether 8 or 16 gpus were used!\n"
    assert not _read(text).get("device")
    assert _one(_read("The run used 16x A100 80GB GPUs\n"), "device").value == "A100 80GB"


def test_counts_offered_with_a_part_word_and_a_bare_memory_size_name_no_device():
    """`pre-shard the weights TP-wise for 8x and 16x gpus` offers two counts; `GPU: ~50GB` gives the memory
    a process takes. Neither names a device; `GPU: NVIDIA A100 80GB` does."""
    offered = _read("The plan is to pre-shard the weights TP-wise for 8x and 16x gpus and load them.\n")
    assert not offered.get("device") and not offered.get("device_count")
    assert not _read("-  GPU: ~50GB\n").get("device")
    assert not _read("-  CPU: ~10GB\n").get("cpu")
    assert _one(_read("GPU: NVIDIA A100 80GB\n"), "device").value == "NVIDIA A100 80GB"


def test_two_counts_offered_are_no_count():
    """`depending on whether 8 or 16 gpus were used` offers two counts: neither is the run's; `16 gpus` alone is."""
    assert not _read("divided by 8 or 16, depending on whether 8 or 16 gpus were used.\n").get("device_count")
    assert _one(_read("The run used 16 gpus.\n"), "device_count").value == 16


# ------------------------------------------------------------------- merge into a parser's table
def test_a_cpu_line_above_a_markdown_table_names_the_cpu_the_table_leaves_empty():
    from benchbook import ingest

    df = ingest.read(FIX / "llama-bench" / "arc_b580_ipex_sycl.md")
    assert set(df["cpu"]) == {"AMD Ryzen 9 9950X"}
    assert any("read from line 5" in m for m in df.attrs["messages"])


def test_a_column_the_parser_filled_is_left_alone_and_several_values_fill_nothing():
    import pandas as pd

    table = pd.DataFrame({"cpu": ["EPYC 9654", "EPYC 9654"]})
    assert context.fill(table, _read("CPU: Xeon 8480\n")) == [] and set(table["cpu"]) == {"EPYC 9654"}
    empty = pd.DataFrame({"cpu": [None, None]})
    (msg,) = context.fill(empty, _read("CPU: Xeon 8480\n\nCPU: EPYC 9654\n"))
    assert empty["cpu"].isna().all() and "ties none to the table" in msg


def test_a_long_file_is_read_at_its_head_and_tail_with_the_files_line_numbers():
    lines = ["GPU: 8x H100", *(['{"ttft_ms": 1.0}'] * (2 * context.EDGE + 10)), "TP: 4"]
    c = context.read(lines)
    assert (_one(c, "device_count").value, _one(c, "device_count").line) == (8, 1)
    assert (_one(c, "tp").value, _one(c, "tp").line) == (4, len(lines))


# ------------------------------------------------------------- line forms around a console table
def test_a_hardware_line_with_a_count_after_a_star_and_a_comment_names_the_part_and_count():
    c = _read("```txt\nGPU: AMD MI325X *8 # only four loaded\n```\n")
    assert (_one(c, "device").value, _one(c, "device_count").value) == ("MI325X", 8)


def test_a_key_value_table_row_names_the_device_below_its_header_only():
    c = _read("| item | value |\n|---|---|\n| **GPU** | NVIDIA GeForce RTX 3080 Ti |\n| VRAM | 11910 MB |\n")
    assert (_one(c, "device").value, _one(c, "device").line) == ("NVIDIA GeForce RTX 3080 Ti", 3)
    # a reading under a GPU label and a wide data table name no device
    assert not _read("| name | value |\n|---|---|\n| GPU | 45% |\n").get("device")
    assert not _read("| gpu | tok/s | ms | W |\n|---|---|---|---|\n| 1 | 2 | 3 | 4 |\n").get("device")


def test_a_heading_names_a_gpu_by_its_product_line_and_prose_does_not():
    c = _read("### Example Output of the Benchmark (RTX 5060 Ti 16GB)\n")
    assert (_one(c, "device").value, _one(c, "device").source) == ("RTX 5060 Ti 16GB", "heading")
    # the other way: a sentence that names a card is not the run's device
    assert not _read("Unlike the RTX 4090 in last week's post, this box is a server.\n").get("device")


@pytest.mark.parametrize(
    ("line", "name", "value"),
    [
        ('  -e sbnb_genai_perf_model="Qwen/Qwen3-0.6B" \\', "model", "Qwen/Qwen3-0.6B"),
        ("  -e sbnb_genai_perf_concurrency=24", "concurrency", 24),
        ("### 8.1 vLLM log (batch_size=1)", "batch", 1),
        (
            "Using configuration from E=256,N=384,device_name=NVIDIA_H100_80GB_HBM3,dtype=fp8_w8a8.json",
            "device",
            "NVIDIA_H100_80GB_HBM3",
        ),
        (
            "Using configuration from E=256,N=384,device_name=NVIDIA_H100_80GB_HBM3,dtype=fp8_w8a8.json",
            "precision",
            "fp8_w8a8",
        ),
    ],
)
def test_a_key_equals_value_anywhere_states_its_fact(line, name, value):
    assert _one(_read(line + "\n"), name).value == value


@pytest.mark.parametrize("line", ["draft_model=Qwen/Qwen3-0.6B", "max_batch_size=256", "--max-batch-size 256"])
def test_a_qualified_key_states_nothing_of_the_runs_own_model_or_batch(line):
    c = _read(line + "\n")
    assert not c.get("model") and not c.get("batch")


def test_a_hex_id_is_no_device_count():
    c = _read("device_name=Intel(R)_Graphics_[0xe223],dtype=int4_w4a16.json\n")
    assert _one(c, "device").value == "Intel(R)_Graphics_[0xe223]" and not c.get("device_count")


def test_the_model_concurrency_and_batch_a_table_leaves_empty_are_filled_and_a_placeholder_fills_nothing():
    import pandas as pd

    table = pd.DataFrame({"model": [None], "max_concurrency": [float("nan")], "batch_size": [float("nan")]})
    msgs = context.fill(
        table, _read("genai-perf profile --model Qwen/Qwen2.5-7B --concurrency 10\n\n# run (batch_size=1)\n")
    )
    assert (table["model"].iat[0], table["max_concurrency"].iat[0], table["batch_size"].iat[0]) == (
        "Qwen/Qwen2.5-7B",
        10,
        1,
    )
    assert len(msgs) == 3
    held = pd.DataFrame({"model": [None]})
    assert context.fill(held, _read("trtllm-bench --model_path $MODEL_PATH throughput\n")) == []
    assert held["model"].isna().all()


def test_a_json_field_the_parser_left_aside_fills_no_column():
    import pandas as pd

    table = pd.DataFrame({"max_concurrency": [float("nan")]})
    assert context.fill(table, _read('{"strategy": {"type_": "constant", "max_concurrency": 512}}\n')) == []
    assert table["max_concurrency"].isna().all()


def test_a_line_under_a_command_is_its_own_unless_the_command_wraps_onto_it():
    under = context.read(["vllm serve m --tensor-parallel-size 2", "Average power: 512 W per GPU"])
    assert [(f.name, f.line) for f in under.get("power")] == [("power", 2)]
    # the other way: a backslash or a flag line carries the command on
    wrapped = context.read(["vllm serve m \\", "  --tensor-parallel-size 4 \\", "  --max-num-seqs 8", "GPU: H100"])
    assert [f.value for f in wrapped.get("tp")] == [4] and [f.line for f in wrapped.get("device")] == [4]
    flags = context.read(["vllm serve m", "--tensor-parallel-size 8"])
    assert [f.value for f in flags.get("tp")] == [8]


@pytest.mark.parametrize(
    ("line", "total", "active"),
    [
        ("Hy3-preview 是大规模语言模型，参数规模为 295B，其中激活参数为 21B。", 295.0, 21.0),
        ("DeepSeek-V3 (671B total, 37B activated; 685B with the MTP module)", 671.0, 37.0),
        ("Qwen3-30B-A3B has 30.5B parameters, 3.3B active", 30.5, 3.3),
        ("a 7B-parameter model", 7.0, None),
        ("we trained on 5B tokens with a 70B model", None, None),  # tokens and a bare size state no count
    ],
)
def test_a_model_size_stated_in_prose_is_read_in_billions(line, total, active):
    c = _read(line)
    assert [f.value for f in c.get("params")] == ([total] if total else [])
    assert [f.value for f in c.get("active_params")] == ([active] if active else [])


def test_a_product_name_in_prose_is_a_device_only_on_a_line_that_speaks_of_one():
    c = _read("在本次测试 （单卡 `RTX4090D 24G` ）中 vLLM 的速度更快")  # 单卡: one card
    assert [(f.name, f.value, f.line) for f in c.get("device")] == [("device", "RTX4090D", 1)]
    assert not _read("The RTX 4090 is faster than the RTX 3090 in other reviews").get("device")
    # a quoted data row (a llama-bench CSV or SQL line) is the parser's, not prose
    assert not _read('"8cf427ff","5163","AMD Ryzen 7","NVIDIA GeForce RTX 4080","CUDA"').get("device")


def test_a_short_model_flag_is_read_in_the_commands_whose_tool_defines_it():
    """GenAI-Perf's and AIPerf's `-m` names the served model; `python -m` names a module."""
    c = _read("genai-perf profile \\\n  -m ensemble \\\n  --concurrency 1")
    assert [(f.value, f.line) for f in c.get("model")] == [("ensemble", 2)]
    assert not _read("python3 -m sglang.bench_serving --backend sglang --num-prompts 10").get("model")


def test_a_device_restated_by_a_shorter_name_fills_the_column_with_the_longer_and_two_devices_fill_nothing():
    import pandas as pd

    one = pd.DataFrame({"gpu": [None, None]})
    text = "Runs on a Radeon 8060S GPU (gfx1151).\n\nGPU: Radeon 8060S Graphics (gfx1151)\n"
    (msg,) = context.fill(one, _read(text))
    assert set(one["gpu"]) == {"Radeon 8060S Graphics (gfx1151)"} and "read from line 3" in msg
    two = pd.DataFrame({"gpu": [None, None]})
    (msg,) = context.fill(two, _read("GPU: H800\n\nGPU: H200\n"))
    assert two["gpu"].isna().all() and "ties none to the table" in msg


def test_a_part_after_on_or_using_is_the_device_a_run_ran_on_and_a_precision_is_none():
    assert [f.value for f in _read("Run with sdpa and colfax_cutlass on H100:").get("device")] == ["H100"]
    assert [f.value for f in _read("benchmarked on an MI300X").get("device")] == ["MI300X"]
    assert [f.value for f in _read("# Results on A100 80GB").get("device")] == ["A100 80GB"]
    assert not _read("turn on FP16 kernels; tuned on SM90").get("device")  # a precision, a compute capability
    assert not _read("based on Llama3 results").get("device")  # no part's code


@pytest.mark.parametrize(
    ("line", "model"),
    [
        (
            "Dataset Path:  /workspace/datasets/nvidia/Llama-3.1-8B-Instruct-FP8/128_128_30000.jsonl",
            "nvidia/Llama-3.1-8B-Instruct-FP8",
        ),
        ("ls /models/MiniCPM-SALA/config.json", "MiniCPM-SALA"),  # a folder under a models folder
        ("cd /models/gguf/", None),  # no `-` or digit: a kind of file, not a model
        ("output/2024/run_8B/x.log", None),  # `_8B` is no name part; `2024` is no organisation
        ("see artifacts/llama-3.1-8b-instruct-openai-chat-concurrency1/profile.json", None),  # a tool's output folder
        ("x --tokenizer /m/Meta-Llama-3-8B-Instruct/", None),  # a tokenizer's path names no weights
        ("see https://huggingface.co/Qwen/Qwen3-8B", None),  # a link, not a path
    ],
)
def test_a_model_named_in_a_path_is_a_folder_under_models_or_an_org_name_pair_with_a_size(line, model):
    assert [f.value for f in _read(line).get("path_model")] == ([model] if model else [])


@pytest.mark.parametrize(
    ("line", "instances", "one"),
    [
        ("对应 1P1D 的两个节点", 2, False),
        ("PD + NIXL (1P1D, TP=4 each)", 2, False),
        ("a 3p1d layout over disaggregated nodes", 4, False),
        ("Collocated baseline (TP=4)", None, True),
        ("aggregated serving", None, True),
        ("# Aggregated across all pods", None, False),  # metrics summed, no serving layout
        ("disaggregated serving", None, False),
        ("version 1.0P2D", None, False),
    ],
)
def test_a_prefill_decode_layout_is_read_as_its_instances(line, instances, one):
    ctx = context.read([line])
    assert ctx.values("instances") == ([instances] if instances else [])
    assert bool(ctx.get("layout")) is one


@pytest.mark.parametrize(
    ("line", "instances"),
    [
        ("The benchmarks were run on 8 instances of vLLM serving LLama 3.1 8B", 8),  # stop 47, KubeAI
        ("8 replicas of llama 3 8b and each uses a single L4 GPU", 8),
        ("* Scale: 8 instances of vLLM", 8),
        ("1 instance of vLLM", None),  # one replica spans no more than its own devices
        ("we keep 8 instances running", None),  # not replicas of a server named
        ("compared 3 instances", None),
    ],
)
def test_replicas_of_one_server_behind_a_balancer_are_read_as_its_replicas(line, instances):
    assert context.read([line]).values("replicas") == ([instances] if instances else [])
    assert context.read([line]).values("instances") == []  # no prefill/decode layout


def test_ggml_register_device_lines_name_the_card_and_the_cpu_by_their_descriptions():
    """ggml-backend-reg's `register_device: registered device NAME (DESC)`: DESC is the card a
    backend device drives; the `CPU` device's DESC is the processor."""
    c = _read(
        "register_device: registered device SYCL0 (Intel(R) Arc(TM) Pro B60 Graphics)\n"
        "register_device: registered device CPU (Intel(R) Core(TM) Ultra 7 265K)\n"
    )
    assert [(f.value, f.line, f.source) for f in c.get("device")] == [
        ("Intel(R) Arc(TM) Pro B60 Graphics", 1, "env-dump")
    ]
    assert [(f.value, f.line) for f in c.get("cpu")] == [("Intel(R) Core(TM) Ultra 7 265K", 2)]
    # a device id with no description in brackets names no card
    assert not _read("load_backend: registered device SYCL0\n").get("device")


def test_a_product_named_after_on_or_using_in_prose_is_a_stated_device():
    c = _read("Performance seems stable with the change on an Arc B70.")
    assert [(f.value, f.line, f.source) for f in c.get("device")] == [("Arc B70", 1, "prose")]
    assert [f.value for f in _read("Same build, using an RTX 4090 24GB here").get("device")] == ["RTX 4090 24GB"]
    # a product compared against, not run on, is no device of the run
    assert not _read("This is faster than an Arc B70 in other reviews.").get("device")
    assert not _read("Tried it on a budget build.").get("device")


def test_a_yaml_key_takes_its_meaning_from_the_mapping_it_sits_in():
    """llm-d's report: `accelerator: {model: ..., count: ...}` names the device and its count, and
    `model: {name: ...}` the model; a `model:` key outside a device mapping stays the model."""
    c = _read(
        "stack:\n"
        "  - standardized:\n"
        "      model:\n"
        "        name: Qwen/Qwen3-0.6B\n"
        "      accelerator:\n"
        "        model: NVIDIA-H100-80GB-HBM3\n"
        "        count: 8\n"
        "      role: decode\n"
        "model: meta-llama/Llama-3.1-8B\n"
    )
    assert [(f.value, f.line) for f in c.get("device")] == [("NVIDIA-H100-80GB-HBM3", 6)]
    assert [(f.value, f.line) for f in c.get("device_count")] == [(8, 7)]
    assert [(f.value, f.line) for f in c.get("model")] == [("Qwen/Qwen3-0.6B", 4), ("meta-llama/Llama-3.1-8B", 9)]
    # a `name:` under a mapping that is neither a device nor a model names neither
    assert not _read("metadata:\n  name: run-17\n").get("model")


def test_obench_names_the_model_after_using_model_and_nothing_after_it():
    c = _read("Running benchmark 3 times using model: llama3.2:3b (30.3W)\n")
    assert [(f.value, f.line) for f in c.get("model")] == [("llama3.2:3b", 1)]
    # the key names the model whatever its name; without the key, a name no other rule reads (no size, no
    # table name) is no model (`llama3.2:3b` is one by its size: the model table's Llama 3.2 3B)
    assert [f.value for f in _read("Running benchmark 3 times using model: mymodel:latest\n").get("model")] == [
        "mymodel:latest"
    ]
    assert not _read("Running benchmark 3 times using: mymodel:latest\n").get("model")


def test_a_command_quoted_inside_another_is_read():
    """`kubectl exec ... -- bash -c "vllm bench serve --model M ..."`: the quoted command's flags count."""
    c = _read(
        'kubectl exec deploy/x -- bash -c \\\n  "vllm bench serve --backend vllm --model Qwen/Qwen3.8-27B \\\n   --num-prompts 128"'
    )
    assert [(f.value, f.line, f.source) for f in c.get("model")] == [("Qwen/Qwen3.8-27B", 2, "command")]


def test_results_left_without_a_model_take_the_nearest_command_above_them():
    import pandas as pd

    text = (
        "vllm bench latency --model org/Qwen3-30B-A3B\n"  # line 1
        "Avg latency: 1.8 seconds\n"
        "vllm bench latency --model org/Llama-3.1-8B\n"  # line 3
        "Avg latency: 3.4 seconds\n"
    )
    table = pd.DataFrame({"line": [2, 4], "model": [None, None]})
    (msg,) = context.fill(table, _read(text))
    assert list(table["model"]) == ["org/Qwen3-30B-A3B", "org/Llama-3.1-8B"] and "nearest command above" in msg
    # a row the parser named keeps its name; a path it wrote by its last part is spelled the same
    part = pd.DataFrame({"line": [2, 4], "model": ["Qwen3-30B-A3B", None]})
    context.fill(part, _read(text.replace("org/Qwen3-30B-A3B", "/models/Qwen3-30B-A3B")))
    assert list(part["model"]) == ["Qwen3-30B-A3B", "org/Llama-3.1-8B"]
    # a result above every command is tied to none: the column stays empty, said
    above = pd.DataFrame({"line": [1, 4], "model": [None, None]})
    (msg,) = context.fill(above, _read("Avg latency: 1.8 seconds\n" + text))
    assert above["model"].isna().all() and "ties none to the table" in msg


@pytest.mark.parametrize(
    ("line", "precision"),
    [
        ("Run on Llama-3-8B-Instruct W4A8KV4 with `--max-num-seqs 8`", "W4A8KV4"),
        ("Serving Qwen3.5-397B-A17B-GPTQ-Int4 over two nodes", "GPTQ-Int4"),
        ("gpt-oss-120b MXFP4 on one H100", "MXFP4"),
        ("We compare FP8 against bf16 on H100", None),  # a scheme named apart from any model
        ("Llama-3.1-8B in bf16", None),
    ],
)
def test_a_quantization_scheme_written_after_a_model_name_is_its_precision(line, precision):
    assert [f.value for f in _read(line).get("precision")] == ([precision] if precision else [])


def test_a_quantization_tag_of_a_model_set_beside_another_is_that_models_not_the_runs():
    """vllm-project/vllm#17788's title compares `Qwen3-32B vs Qwen2-32B-FP8`; its run serves Qwen3-32B in
    bf16. The FP8 is the other model's checkpoint: a sign, never the run's precision."""
    c = _read("# benchmark_serving results for Qwen3-32B vs Qwen2-32B-FP8 are almost the same.\n")
    assert not c.get("precision")
    assert [s.words for s in c.signs if s.name == "precision" and s.words] == ["Qwen2-32B-FP8"]
    # the same model beside its own checkpoint, or no comparison: the tag is the run's
    assert [f.value for f in _read("Qwen3-32B-FP8 vs SGLang on H100\n").get("precision")] == ["FP8"]
    assert [f.value for f in _read("Qwen3-32B and Qwen2-32B-FP8 on H100\n").get("precision")] == ["FP8"]


def test_total_names_a_scope_for_a_power_but_not_for_an_energy():
    """An energy is summed over its interval: `M1 Total energy:` (inference-energy, one GPU's NVML
    energy) names no scope; a `Total Power` is summed over devices, the node's."""
    assert _one(_read("M1  Total energy:              38877.71 J (0.010799 kWh)"), "energy").scope == "scope not stated"
    assert _one(_read("Mean Total Power (W): 2236.5"), "power").scope == "whole node"
    assert _one(_read("Total system energy: 120 kJ"), "energy").scope == "whole node"


def test_a_part_counted_beside_an_instance_type_is_the_device():
    c = _read("2× p5.48xlarge (16× H100 GPUs with EFA per instance)")
    assert _one(c, "device").value == "H100" and _one(c, "device_count").value == 16
    # an instance type with no part beside it stays what the line names
    assert _one(_read("Ran on 2x p5.48xlarge GPU instances"), "device").value == "p5"


def test_a_rate_under_a_token_count_is_a_token_rate_not_a_request_rate():
    """inference-perf's Prometheus report: `successes.rate` counts requests a second, the `rate` of
    `prompt_len` / `output_len` counts tokens a second."""
    line = '{"successes": {"count": 28207, "rate": 137.6, "prompt_len": {"mean": 13767, "rate": 27404.0}, "output_len": {"rate": 8786.8}}}'
    assert [f.value for f in _read(line).get("rate")] == [137.6]
    assert not _read('{"output_len": {"mean": 4388, "rate": 8786.8}}').get("rate")
    assert [f.value for f in _read('{"load": {"rate": 20}}').get("rate")] == [20.0]


def test_a_placeholder_model_command_between_a_server_and_its_results_ties_them_to_no_model():
    """A recipe serving two models, then `--model ${model}` above the results: neither server's model
    is the results' (the MI355 recipe's FP8-KV and MXFP4 blocks)."""
    import pandas as pd

    text = "vllm serve org/A-FP8\n\nvllm serve org/A-MXFP4\n\nvllm bench serve --model ${model}\nresult\n"
    table = pd.DataFrame({"line": [6], "model": [None]})
    context.fill(table, _read(text))
    assert table["model"].isna().all()


_CAPTIONED = """vllm serve org/A-70B-FP8 --tensor-parallel-size 1

vllm serve org/A-70B-MXFP4 --tensor-parallel-size 1

vllm bench serve --model ${{model}} --max-concurrency 64

{first}
```
Successful requests: 128
```

{second}
```
Successful requests: 128
```
"""


def test_a_caption_over_a_result_block_names_its_model():
    """A write-up labels each pasted output with the line above it (the MI355 recipe: "`amd/Llama-3.3-
    70B-Instruct-FP8-KV` TP1 8k/1k conc=64 performance on MI355"): each block takes that model, even
    below a `--model ${model}` command, where no caption would leave it to no model."""
    import pandas as pd

    text = _CAPTIONED.format(first="`org/A-70B-FP8` TP1 conc=64 on MI355", second="**org/A-70B-MXFP4**")
    c = _read(text)
    assert [(f.value, f.line) for f in c.get("model") if f.source == "caption"] == [
        ("org/A-70B-FP8", 7),
        ("org/A-70B-MXFP4", 12),
    ]
    table = pd.DataFrame({"line": [9, 14], "model": [None, None]})
    (msg,) = context.fill(table, c)
    assert list(table["model"]) == ["org/A-70B-FP8", "org/A-70B-MXFP4"] and "caption above it" in msg
    # a caption naming two models compares them, and one over a block of commands speaks of the
    # commands: neither names a block's model
    both = _CAPTIONED.format(first="org/A-70B-FP8 against org/B-8B", second="Results:")
    assert not [f for f in _read(both).get("model") if f.source == "caption"]
    over_command = "Inspired by `z-lab/Qwen3.6-35B-A3B-DFlash`:\n```\nvllm serve org/A-8B --tp 2\n```\n"
    assert [(f.value, f.source) for f in _read(over_command).get("model")] == [("org/A-8B", "command")]


def test_a_command_between_a_caption_and_its_results_is_the_nearer():
    """**qwen3-32B** over a section whose command names `~/models/qwen3-32B`: the command ties the
    results; a caption naming the same model adds no second value to the file's one model."""
    import pandas as pd

    text = "**Qwen3-32B**\n\n```\nvllm bench throughput --model org/Qwen3-32B-AWQ\n```\n```\nThroughput: 1 requests/s\n```\n"
    table = pd.DataFrame({"line": [7], "model": [None]})
    (msg,) = context.fill(table, _read(text))
    assert list(table["model"]) == ["org/Qwen3-32B-AWQ"] and "read from line 4" in msg


def test_commands_listed_together_before_all_results_tie_them_to_no_model():
    """A setup section with one client command per engine, the results in a later section: the last
    command is not the first block's (the TPU v4-8 vLLM / EasyDeL write-up)."""
    import pandas as pd

    text = "python bench.py --model_path org/A\n\npython bench.py --model_path org/B\n\nresult A\n\nresult B\n"
    table = pd.DataFrame({"line": [5, 7], "model": [None, None]})
    context.fill(table, _read(text))
    assert table["model"].isna().all()


def test_a_value_of_unknown_states_nothing():
    assert not _read("model:\n  name: unknown\n").get("model")
    assert [f.value for f in _read("model:\n  name: Qwen/Qwen3-32B\n").get("model")] == ["Qwen/Qwen3-32B"]


@pytest.mark.parametrize(
    ("heading", "device"),
    [
        ("### A100", "A100"),
        ("## A100 80GB", "A100 80GB"),
        ("### MI250", "MI250"),
        ("### P99", None),
        ("### FP16", None),
    ],
)
def test_a_heading_that_is_a_gpu_part_code_names_the_device_and_a_percentile_or_precision_does_not(heading, device):
    facts = [f.value for f in context.read([heading]).facts if f.name == "device"]
    assert facts == ([device] if device else [])


def test_a_cpu_named_in_a_heading_is_the_cpu_and_the_same_words_in_a_command_are_not():
    said = context.read(["# Framework 12 - Intel i3-1315U", "", "| model | size |"])
    assert [(f.value, f.line) for f in said.facts if f.name == "cpu"] == [("Intel i3-1315U", 1)]
    assert context.states(said, "cpu").status == "stated"
    assert not [f for f in context.read(["./run --tag Intel-i3-1315U"]).facts if f.name == "cpu"]
    assert context.states(context.read(["# Benchmark results"]), "cpu").status == "absent"


@pytest.mark.parametrize(
    ("line", "device"),
    [
        ("# Serve and benchmark Qwen3.8-27B with vLLM on TPU7x (Ironwood)", "TPU7x"),
        ("## Results on TPU v6e", "TPU v6e"),
        ("Ran on a TPU v5e-8 slice with 8 chips.", "TPU v5e"),
        ("## TPU support is planned", None),  # the word alone names no generation
        ("## 昇腾 Atlas 300I Duo 上的使用案例", "Atlas 300I Duo"),  # Huawei's card, by its product name
        ("# Atlas of results", None),
        ("In one short sentence: what is a TPU?", None),
    ],
)
def test_a_tpu_or_an_atlas_card_named_by_its_product_is_a_device(line, device):
    assert [f.value for f in _read(line).get("device")] == ([device] if device else [])


# ------------------------------------------------------------------------------ model identifiers
@pytest.mark.parametrize(
    ("text", "models"),
    [
        ("### 接下来使用 vllm serve 这个模型\n", []),  # Chinese prose, 'then vllm serve this model'
        ("### Then vllm serve the model\n", []),  # a plain word after `vllm serve` in a sentence
        ("model: 这个模型\n", []),
        ("### 接下来使用 vllm serve Qwen/Qwen2.5-7B-Instruct\n", ["Qwen/Qwen2.5-7B-Instruct"]),
        ("vllm serve ./Qwen2.5-7B-Instruct --port 8000\n", ["./Qwen2.5-7B-Instruct"]),
        ("genai-perf profile -m ensemble --concurrency 1\n", ["ensemble"]),  # the tool's own model flag
        ("vllm serve ${MODEL_PATH} --port 8000\n", ["${MODEL_PATH}"]),  # a placeholder stays one
    ],
)
def test_a_model_value_is_an_identifier_never_prose(text, models):
    assert [f.value for f in _read(text).get("model")] == models


# ------------------------------------------------------------------------------ accuracy harnesses
def test_an_accuracy_harness_command_and_its_printed_config_give_no_load():
    c = _read(
        'lm_eval --model local-completions --model_args "model=deepseek-ai/DeepSeek-V3.2,num_concurrent=32" '
        "--tasks gsm8k\n\n"
        "local-completions (model=deepseek-ai/DeepSeek-V3.2,num_concurrent=32), gen_kwargs: (None), limit: None, "
        "num_fewshot: 5, batch_size: 1\n\n"
        "evalscope eval --model m1 --datasets aime25 --eval-batch-size 32 \\\n  --generation-config concurrency=16\n"
    )
    assert not c.get("concurrency") and not c.get("batch") and not c.get("rate")
    assert not [s for s in c.signs if s.name in ("concurrency", "batch", "rate")]
    assert {f.value for f in c.get("model")} == {"deepseek-ai/DeepSeek-V3.2"}  # the served model still named


def test_a_benchmark_command_beside_no_harness_keeps_its_concurrency():
    c = _read(
        "vllm bench serve --model m1 --max-concurrency 32\n\nconcurrent_requests=20 for the sweep\n\n"
        "evalscope perf --model m1 --parallel 8 concurrency=8\n"  # EvalScope's load test: a load
    )
    assert sorted(f.value for f in c.get("concurrency")) == [8, 20, 32]


# ------------------------------------------------------------------------------ MLCommons CM
@pytest.mark.parametrize("prog", ["cm run script", "cmr", "mlcr"])
def test_an_mlcommons_cm_command_names_its_model(prog):
    c = _read(f"{prog} --tags=run-mlperf,inference --model=bert-99 --backend=onnxruntime --device=cuda\n")
    f = _one(c, "model")
    assert (f.value, f.source, f.line) == ("bert-99", "command", 1)
    assert not c.get("device")  # `--device=cuda` is CM's device kind, not a device's name


def test_a_model_flag_in_no_command_is_no_model():
    assert not _read("Pass --model=bert-99 to the harness.\n").get("model")


@pytest.mark.parametrize(
    ("text", "model"),
    [
        # the note names the same model with its organisation: that fuller id is the model
        ("- Model: Kimi-K2.6 (Registry: `moonshotai/Kimi-K2.6`)\n", "moonshotai/Kimi-K2.6"),
        # a note of the weights' size and a setting is no part of the name
        ("- **Model**: google/gemma-4-31B-it (59GB, auto-selects tp=1)\n", "google/gemma-4-31B-it"),
        # a note naming another model's id does not replace the one named
        ("- Model: Qwen3-8B (draft model: `Qwen3-0.6B`)\n", "Qwen3-8B"),
        ("Model: HuggingFace model name eg. meta-llama/Llama-2-7b-hf or a local path\n", None),  # a flag's help
    ],
)
def test_a_model_identifier_is_the_id_before_its_bracketed_note_and_help_text_is_none(text, model):
    c = _read(text)
    assert [f.value for f in c.get("model")] == ([model] if model else [])
    assert not c.get("path_model")  # the help text's example id names no model either


def test_a_served_model_name_is_the_commands_model_not_a_second_one():
    """`vllm serve M --served-model-name x` serves M under the name x: a client's `MODEL="x"` names M,
    so the table's model is M (the GB10/GH200 GuideLLM write-up)."""
    import pandas as pd

    text = 'vllm serve Qwen/Qwen3.6-35B-A3B \\\n    --served-model-name qwen3.6-35b\n\nMODEL="qwen3.6-35b"\n'
    ctx = _read(text)
    assert _one(ctx, "served_name").value == "qwen3.6-35b" and context.served_names(ctx, ["Qwen/Qwen3.6-35B-A3B"])
    table = pd.DataFrame({"model": [None], "line": [9]})
    (msg,) = context.fill(table, ctx)
    assert table["model"].iat[0] == "Qwen/Qwen3.6-35B-A3B" and "read from line 1 (command)" in msg
    # the other way: a client naming another model than the served name is a second model: the file's
    # one model is no longer every row's, and only the nearest-command rule ties one
    other = pd.DataFrame({"model": [None], "line": [9]})
    (msg,) = context.fill(other, _read(text.replace('MODEL="qwen3.6-35b"', 'MODEL="llama-3-8b"')))
    assert "nearest command" in msg


def test_a_server_launch_after_every_result_states_nothing_of_them():
    """Two alternative scripts (`--data-parallel-size 4`, then `--tensor-parallel-size 4`), the results,
    then a variant (`-dp 8`): the variant launched none of them, so its DP is kept as a sign (its line
    named, never an absence); of the two above, the nearest ran the results (`launched`)."""
    lines = [
        "vllm serve org/M \\",
        "    --data-parallel-size 4",
        "",
        "vllm serve org/M \\",
        "    --tensor-parallel-size 4",
        "",
        "Successful requests: 10",
        "",
        "vllm serve org/M -dp 8",
    ]
    ctx = context.read(lines)
    assert context.launched(ctx, lines, [7]) == 4
    ran = context.ran(ctx, lines, [7])
    assert [f.value for f in ran.get("dp")] == [4] and [s.line for s in ran.signs if s.name == "dp"] == [9]
    # the other way: one launch, a result after every launch, or launches all written after the results
    one = lines[3:8]
    assert context.ran(context.read(one), one, [4]) == context.read(one)
    assert context.ran(ctx, lines, [7, 10]) == ctx and context.launched(ctx, lines, [3, 7]) is None
    assert context.ran(ctx, lines, [0]) == ctx
    # two launches are enough: the one above the results ran them, the one after states nothing of them
    two = lines[3:]
    ran = context.ran(context.read(two), two, [4])
    assert not ran.get("dp") and [s.line for s in ran.signs if s.name == "dp"] == [6]


def test_a_switch_before_a_flag_does_not_take_the_flag_as_its_value():
    """`--trust-remote-code --data-parallel-size 16`: a token that starts with a dash and a letter is the
    next flag (Kimi-K2's DP 16 launch read no DP)."""
    c = context.read(["vllm serve org/M --trust-remote-code --data-parallel-size 16"])
    assert _one(c, "dp").value == 16
    # the other way: a switch followed by a value-less end keeps nothing, and a value stays a value
    assert not context.read(["vllm serve org/M --trust-remote-code"]).get("dp")
    assert _one(context.read(["vllm serve org/M --data-parallel-size 2 --trust-remote-code"]), "dp").value == 2


def test_a_board_a_heading_names_is_the_machine_never_the_device():
    """`# Benchmark Radxa Dragon Q8B` over a CPU-only llama-bench table names the machine it ran on;
    over a card (`# Benchmark AMD Radeon AI Pro R9700 32GB`, `## Raspberry Pi CM5 16GB`) the board hosts
    the card, which stays the device."""
    c = _read("# Benchmark Radxa Dragon Q8B\n\n## tinyllama-1.1b.gguf\n")
    assert _one(c, "machine").value == "Radxa Dragon Q8B" and not c.get("device")
    host = _read("# Benchmark AMD Radeon AI Pro R9700 32GB\n\n## Raspberry Pi CM5 16GB\n")
    assert [f.value for f in host.get("device")] == ["AMD Radeon AI Pro R9700 32GB"]
    assert _one(host, "machine").value == "Raspberry Pi CM5 16GB"
    # the other way: a board named in prose is no heading's machine, and `on` ends the board's name
    assert not _read("We also tried a Raspberry Pi 5.\n").get("machine")
    assert _one(_read("## Testing on Raspberry Pi 5 running Pi OS\n"), "machine").value == "Raspberry Pi 5"


def test_genai_perfs_num_prompts_is_its_dataset_size_not_the_requests_sent():
    """GenAI-Perf's `--num-prompts` (`--num-dataset-entries`) is the number of unique payloads it reuses
    until the benchmark ends; `--request-count` is the requests (genai_perf/parser.py)."""
    assert not _read("genai-perf profile -m M --num-prompts 100 --concurrency 10\n").get("prompts")
    assert _one(_read("genai-perf profile -m M --request-count 40 --num-prompts 100\n"), "prompts").value == 40
    # the other way: vLLM's bench serve sends its --num-prompts requests
    assert _one(_read("vllm bench serve --model M --num-prompts 100\n"), "prompts").value == 100


def test_expert_parallelism_switched_on_without_a_size_is_unread_on_its_line_never_absent():
    """`--enable-expert-parallel` turns EP on without saying its size: the EP is unread (line 1), so a
    page may not say the file does not state it; a launch without the switch leaves it absent."""
    st = context.states(context.read(["vllm serve org/M --enable-expert-parallel"]), "ep")
    assert (st.status, st.sign.name, st.sign.line) == ("unread", "ep", 1)
    assert context.states(context.read(["vllm serve org/M --tensor-parallel-size 8"]), "ep").status == "absent"


@pytest.mark.parametrize(
    "heading,device", [("## TP16", None), ("## EP8", None), ("## H100", "H100"), ("### B200", "B200")]
)
def test_a_heading_of_a_parallel_size_names_no_device(heading, device):
    # real: sgl-project/sglang#3812 heads its tensor-parallel section `## TP16` (the servers are H800s)
    c = _read(heading + "\n")
    assert [f.value for f in c.get("device")] == ([device] if device else [])
    if heading == "## TP16":
        assert _one(c, "tp").value == 16


@pytest.mark.parametrize("line,count", [("GPU server: 2 * 8 * h800", 16), ("GPU server: 8 * h800", 8)])
def test_a_count_of_counted_devices_multiplies_them(line, count):
    c = _read(line + "\n")
    assert (_one(c, "device").value, _one(c, "device_count").value) == ("h800", count)


@pytest.mark.parametrize(
    "line,device",
    [
        ("ran on b200 again to make sure we don't break sm100. Still within noise", "b200"),  # vllm#43232
        ("tested on h100 with TP 8", "h100"),
        ("runs fine on x86 and on arm64", None),  # an architecture, no part
        ("deployed on p5 instances", None),  # an instance type
        ("ran on sm100 only", None),  # a compute capability
        # real: an issue digest's sgl-project/sglang#2219, "I used one A30 card, and used Qwen2-7B-Instruct"
        ("I used one A30 card, and used Qwen2-7B-Instruct, the speed with quantization seems no different", "A30"),
        ("we used an mi300x for the sweep", "mi300x"),
        ("we used FP16 weights and used 80 GB of memory", None),  # a precision and a size name no part
    ],
)
def test_a_part_written_in_lower_case_where_a_run_ran_is_its_device(line, device):
    c = _read(line + "\n")
    assert [f.value for f in c.get("device")] == ([device] if device else [])


def test_the_word_after_a_vllm_image_in_a_docker_run_is_the_model_it_serves():
    # real: vllm-project/recipes#476 wraps `docker run ... \` with the image and the model on one line
    text = (
        "docker run --device=/dev/kfd -p 8000:8000 \\\n"
        "  vllm/vllm-openai-rocm:latest mistralai/Ministral-3-3B-Instruct-2512 \\\n"
        "  --tensor-parallel-size 1\n"
    )
    c = _read(text)
    assert [f.value for f in c.get("model")] == ["mistralai/Ministral-3-3B-Instruct-2512"]
    assert not c.get("path_model")
    # the other way: an option after the image is no model, and a pulled image serves none
    assert not _read("docker run vllm/vllm-openai:v0.9.0 --model \\\n").get("model")
    assert not _read("docker pull vllm/vllm-openai:latest && echo done\n").get("model")


def test_a_name_that_adds_a_weights_format_names_another_checkpoint_not_the_same_model_in_full():
    import pandas as pd

    def filled(text: str) -> object:
        t = pd.DataFrame({"model": [""], "line": [1]})
        context.fill(t, context.read(text.split("\n")))
        return t["model"].iat[0]

    # two run labels, one with FP8 (sglang issue 7352): two checkpoints, so neither is every run's model
    assert filled("Qwen-32B(dp=2, tp=4)\nresults\nQwen-32B-FP8(dp=2, tp=4)\nresults\n") in ("", None)
    # the same model in words and in full (an instruct suffix) is still one model, the fuller name
    assert filled("# Add llama 3.3 70b\n\nserved meta-llama/Llama-3.3-70B-Instruct today\n") not in ("", None)


def test_a_title_label_before_a_name_the_file_writes_alone_is_the_writers_not_the_models():
    import pandas as pd

    def filled(text: str) -> object:
        t = pd.DataFrame({"model": [""], "line": [1]})
        context.fill(t, context.read(text.split("\n")))
        return t["model"].iat[0]

    # real: vllm-project/vllm-ascend#11751, a crowd-test task's title; the comments name the model bare,
    # glued to Chinese text (a Hugging Face name is ASCII: the CJK words are no part of it)
    text = "# 【众测任务】hjh2-Qwen3-VL-8B-Instruct 部署验证\n\n任务完成，Qwen3-VL-8B-Instruct模型测试结果如下：\n"
    assert filled(text) == "Qwen3-VL-8B-Instruct"
    # the other way: a leading word of the model table's names is the model's own (`Meta-Llama-3-70B`)
    text = "# Meta-Llama-3-70B-Instruct on two GPUs\n\nWe served Llama-3-70B-Instruct with vLLM.\n"
    assert filled(text) == "Meta-Llama-3-70B-Instruct"


def test_a_dtype_right_after_a_model_named_in_words_is_its_precision():
    # real: Said-Akbar/triton-gcn5#3, the line under two `Throughput:` lines
    c = _read("When I use : export X=0\nI got: Throughput: 7.77 requests/s\n\nIt's Qwen 7B 2.5，bf16.\n")
    assert [f.value for f in c.get("precision")] == ["bf16"]
    # the other way: a dtype elsewhere in the sentence, not behind the model's name, is none
    assert not _read("Qwen 7B was slow; the bf16 kernels are to blame.\n").get("precision")


def test_a_neuron_ls_table_counts_its_devices_and_the_cores_each_holds():
    """`neuron-ls` lists each device with its NeuronCores (one parallel rank each): 2 devices of 2 cores.
    The same row shape under another header (a results table) is no device listing."""
    listing = (
        "+--------+--------+--------+-----------+---------+\n"
        "| NEURON | NEURON | NEURON | CONNECTED |   PCI   |\n"
        "| DEVICE | CORES  | MEMORY |  DEVICES  |   BDF   |\n"
        "+--------+--------+--------+-----------+---------+\n"
        "| 0      | 2      | 32 GB  | 1         | 80:1e.0 |\n"
        "| 1      | 2      | 32 GB  | 0         | 90:1e.0 |\n"
    )
    c = _read(listing)
    assert [(f.value, f.line) for f in c.get("device_cores")] == [(2, 5), (2, 6)]
    assert _one(c, "device_count").value == 2
    other = _read("| run | batch | memory |\n|---|---|---|\n| 0 | 2 | 32 GB |\n")
    assert not other.get("device_cores") and not other.get("device_count")


def test_a_model_file_named_in_a_sentence_is_the_model():
    assert _read("We ran llama-2-7b.Q4_0.gguf on it.\n").values("model") == ["llama-2-7b.Q4_0.gguf"]
    assert not _read("We ran the 7B model on it.\n").get("model")


def test_a_comment_after_a_keyed_value_is_no_part_of_it():
    c = _read("batch_size: 8  # per GPU\nmodel: org/m-7b  # the chat one\ndevice: H100 SXM  # rented\n")
    assert (c.values("batch"), c.values("model"), c.values("device")) == ([8], ["org/m-7b"], ["H100 SXM"])


def test_a_model_column_the_parser_filled_in_part_takes_the_rest_from_the_nearest_command_and_says_so():
    import pandas as pd

    c = _read("vllm serve org/A-7B\nresult\nresult a\nvllm serve org/B-7B\nresult\nresult b\n")
    table = pd.DataFrame({"model": ["org/A-7B", None], "line": [3, 6]})
    assert context.fill(table, c) == ["model: each result takes the model of the nearest command above it (lines 1, 4)"]
    assert table["model"].tolist() == ["org/A-7B", "org/B-7B"]
    # every row named by the parser: nothing filled, nothing said
    full = pd.DataFrame({"model": ["org/A-7B", "org/C-7B"], "line": [3, 6]})
    assert context.fill(full, c) == [] and full["model"].tolist() == ["org/A-7B", "org/C-7B"]


def test_a_model_fact_keeps_the_line_it_was_read_from():
    (fact,) = _read("intro\nmodel: org/m-7b\n").get("model")
    assert (fact.value, fact.line, fact.text) == ("org/m-7b", 2, "model: org/m-7b")
    (title,) = _read("# Llama 3.3 70B on one node\nx\n").get("model")  # named in words, by a heading
    assert (title.value, title.line, title.text) == ("Llama 3.3 70B", 1, "# Llama 3.3 70B on one node")


def test_a_part_counted_after_its_makers_name_beside_an_instance_type_is_read():
    c = _read("We ran 2x p5.48xlarge (16x NVIDIA H100 GPUs).\n")
    assert (c.values("device_count"), c.values("device")) == ([16], ["NVIDIA H100 GPUs"])


def test_a_family_and_its_version_without_a_size_is_a_sign_of_the_model_not_an_absence():
    # real: sgl-project/sglang#15912's label line, ROCm/vllm#375's title
    c = _read("Server performance using torch_native backend with Llama3.1 and enabled LoRA\n")
    assert not c.get("model")  # no one model of the table: its size is not given
    assert [s.words for s in c.signs if s.name == "model"] == ["Llama3.1"]
    # a title naming one release as an id of a table family and its version names it (vllm-project/recipes#884):
    # the page names the model and says its size is not known (`_versioned`)
    c = _read("# [doc] deepseek-v4-flash: add Ascend 950DT and 950PR 8-card FP8 Preview recipe\n")
    assert c.values("model") == ["deepseek-v4-flash"]
    # the other way: a count after a family word, or a family glued to other letters, is no version
    for text in ("We ran Llama 3 times on the box\n", "x = metas[0].value\n"):
        assert not [s for s in _read(text).signs if s.name == "model"]


def test_a_counted_parts_name_ends_with_its_code_and_variant():
    # real: ROCm/vllm#375's title, `on 8 x AMD MI300X AssertionError: FP8 weight padding ...`
    c = _read("# [Bug]: Unable to load deepseek r1 on 8 x AMD MI300X AssertionError: FP8 weight padding\n")
    assert [f.value for f in c.get("device")] == ["AMD MI300X"] and [f.value for f in c.get("device_count")] == [8]
    # the other way: a variant after the code is the part's own (`A100-SXM4-80GB`, `H100 80GB HBM3`)
    assert [f.value for f in _read("# Runs on 8 x A100-SXM4-80GB nodes\n").get("device")] == ["A100-SXM4-80GB"]
    assert [f.value for f in _read("# Llama on 8x H100 80GB HBM3\n").get("device")] == ["H100 80GB HBM3"]


def test_a_rate_a_sentence_states_above_results_that_print_none_is_theirs():
    import pandas as pd

    def filled(text: str, result_line: int) -> float:
        t = pd.DataFrame({"request_rate": [float("nan")], "line": [result_line]})
        context.fill(t, context.read(text.split("\n")))
        return t["request_rate"].iat[0]

    # real: ROCm/vllm#375, `... a random dataset in 1000 requests (request-rate 10):` above the block
    text = "Here are the results of benchmark_serving with a random dataset in 1000 requests (request-rate 10):\n"
    assert [f.value for f in context.read([text]).get("rate")] == [10.0]
    assert filled(text + "\nresults\n", 3) == 10.0
    # the other way: a rate stated below the results (the next run's Namespace) is not theirs
    assert pd.isna(filled("results\n" + text, 1))
    # and a rate word without the flag's hyphenated name states nothing
    assert not context.read(["the request rate was 10 times higher\n"]).get("rate")


def test_a_count_of_requests_in_a_sentence_is_a_sign_of_the_prompts_sent():
    # real: ROCm/vllm#375, a sentence that states a rate also counts the requests it sent (stop 45: stated)
    text = "benchmark_serving with a random dataset in 1000 requests (request-rate 10):"
    ctx = context.read([text])
    assert [(f.line, f.value) for f in ctx.get("prompts")] == [(1, 1000)]
    # the other way: a rate in requests per second speaks of no requests sent
    assert context.states(context.read(["we sent 10 requests per second"]), "prompts").status == "absent"
    # a count of requests that completed is an outcome: a sign, never the prompts sent
    done = context.read(["where 1000 requests completed (request-rate 10):"])
    assert not done.get("prompts") and context.states(done, "prompts").status == "unread"
    # and the benchmark's option, even in a sentence, states them
    flag = context.read(["benchmark_serving with a random dataset (num-prompts 1000, request-rate 10):"])
    assert context.states(flag, "prompts").status == "stated"


def test_a_served_model_in_quotes_and_a_server_run_by_its_path_name_the_weights():
    # stop 46: `vllm serve "lukealonso/GLM-5.1-NVFP4"` (the shell's quotes are no part of the name) and
    # `./bin/llama-server -m ../models/X.gguf` (a CLI run by its path is that CLI; its -m file by its base name)
    ctx = context.read(
        [
            '              VLLM_ENABLE_PCIE_ALLREDUCE=1 vllm serve "lukealonso/GLM-5.1-NVFP4" \\',
            "`./bin/llama-server -m ../models/Qwen3.5-2B-UD-Q4_K_XL.gguf --jinja --port 8000 -ngl 999`",
        ]
    )
    models = {f.value: f for f in ctx.get("model")}
    assert set(models) == {"lukealonso/GLM-5.1-NVFP4", "Qwen3.5-2B-UD-Q4_K_XL.gguf"}
    assert all(context.serves(f) for f in models.values())
    # the other way: a program named in a sentence is no command, and a client's --model is not what a server loads
    ctx = context.read(["We tried ./bin/llama-server on it.", "vllm bench serve --model Qwen/Qwen3-8B --num-prompts 8"])
    assert [(f.value, context.serves(f)) for f in ctx.get("model")] == [("Qwen/Qwen3-8B", False)]


def test_a_cli_named_inside_a_sentence_runs_nothing_and_the_sentence_is_read_as_prose():
    # stop 46 (vLLM issue #37113): the sentence names `vllm bench serve` and, after it, the devices it ran on
    line = "I am not able to reproduce it with a traditional vllm bench serve command on my 8x RTX PRO 6000. "
    ctx = context.read([line])
    assert (ctx.values("device"), ctx.values("device_count")) == (["RTX PRO 6000"], [8])
    # the other way: the same program opening a line, in backticks, or with flags after it, is a command
    for cmd in (
        "vllm serve Qwen/Qwen3-8B",
        "Run `vllm serve Qwen/Qwen3-8B` first.",
        "then vllm serve Qwen/Qwen3-8B -tp 2",
    ):
        assert context.read([cmd]).get("model")[0].source == "command", cmd


def test_one_spaced_setting_alone_in_brackets_is_a_setting_of_the_block_it_labels():
    # stop 46 (vLLM issue #12101): `*) base (concurrency = 1):` labels the block after it
    assert context.read(["*) base (concurrency = 1):"]).values("concurrency") == [1]
    # the other way: a bracket holding a sentence or two settings spaced is prose, not one setting
    assert context.read(["base (we set concurrency = 1 on the client):"]).values("concurrency") == []
    assert context.read(["(a = 1, concurrency = 2)"]).values("concurrency") == []


@pytest.mark.parametrize(
    "line",
    [
        "Capturing batches (bs=1 avail_mem=2.91 GB): 100%|████████| 4/4 [00:00<00:00,  5.37it/s]",
        "Capturing batches (bs=64 avail_mem=11.62 GB):   0%|          | 0/12 [00:00<?, ?it/s]",
        "Loading safetensors checkpoint shards: 100% Completed | 2/2 [00:01<00:00,  1.72it/s]",
    ],
)
def test_a_progress_bar_states_no_setting_of_the_run(line):
    """A progress bar's description (`bs=1`) counts a step of the tool's own warm-up, not the run's batch."""
    assert not _read(line + "\n").facts


def test_a_key_equals_value_beside_a_percentage_that_is_no_progress_bar_is_read():
    assert _one(_read("bs=4 (100% of the GPU)\n"), "batch").value == 4


@pytest.mark.parametrize(
    "line,device",
    [
        ("I serve two models on the Ascend 910 platform with the same tp2dp8", "Ascend 910"),  # sglang issue 15825
        ("Tested on one Ascend 910B4 NPU", "Ascend 910B4"),
        # the other way: the backend's name, no chip, names no device
        ("python -m sglang.launch_server --attention-backend ascend", None),
        # the device type the server runs on: an Ascend NPU, its chip unknown
        ("python -m sglang.launch_server --device npu --attention-backend ascend", "Ascend NPU"),
        ("python -m sglang.launch_server --device cuda --attention-backend fa3", None),
        # nor a list of chips, which does not say which one ran (vllm-project/recipes PR 884's title)
        ("# [doc] deepseek-v4-flash: add Ascend 950DT and 950PR 8-card FP8 Preview recipe", None),
    ],
)
def test_an_ascend_npu_named_by_its_chip_is_the_device(line, device):
    got = [f.value for f in _read(line + "\n").facts if f.name == "device"]
    assert got == ([device] if device else [])


def test_a_chip_named_anywhere_is_the_device_of_a_run_on_device_npu():
    lines = ["I serve on the Ascend 910B4 platform", "python -m sglang.launch_server --device npu --tp 2"]
    assert [f.value for f in context.read(lines).get("device")] == ["Ascend 910B4"]


def test_a_gpu_label_that_only_counts_gives_the_count_and_no_device():
    ctx = context.read(["GPU: 8 GPUs"])
    assert [f.value for f in ctx.get("device_count")] == [8] and not ctx.get("device")
    # the other way: a name beside the count is a device as written
    assert [f.value for f in context.read(["GPUs: 8 GPUs (A100)"]).get("device")] == ["8 GPUs (A100)"]


def test_a_name_the_text_does_not_write_is_given_in_the_table_s_words():
    assert context.written({"llama 3.1 8b": "Llama-3.1-8B"}, "# Results on Llama-3.1-8B") == ["Llama-3.1-8B"]
    # the other way: a text that writes it nowhere keeps the table's words
    assert context.written({"llama 3.1 8b": "Llama-3.1-8B"}, "# Results") == ["llama 3.1 8b"]


def test_a_csv_rows_cpu_column_names_the_cpu_of_that_row():
    """CodeCarbon's `cpu_model` column (its EmissionsData) names the machine's CPU, which no energy table keeps."""
    lines = [
        "timestamp,project_name,cpu_model,gpu_model",
        '2025-09-26T12:21:28,codecarbon,"11th Gen Intel(R) Core(TM) i7-11700K @ 3.60GHz",1 x NVIDIA GeForce RTX 3080 Ti',
    ]
    got = [(f.value, f.line) for f in context.read(lines).get("cpu")]
    assert got == [("11th Gen Intel(R) Core(TM) i7-11700K @ 3.60GHz", 2)]
    # the other way: a CSV without such a column, or a line of other fields under one, names no CPU
    assert not context.read(["timestamp,project_name,gpu_model", "t,p,H100"]).get("cpu")
    assert not context.read([lines[0], "a,b"]).get("cpu")


@pytest.mark.parametrize(
    ("line", "torch"),
    [
        ("`torch-2.4.0a0+gite6ee832` (main branch at that point):", "2.4.0a0+gite6ee832"),  # pytorch PR 122857
        ("pip install torch==2.5.1+cu121", "2.5.1+cu121"),
        ("torch version: 2.3.0+cu121", "2.3.0+cu121"),
        ("PyTorch 2.6 nightly", "2.6"),
        # the other way: another package, a measure, or torch's own tools name no release
        ("torchvision==0.19.0", None),
        ("torch_npu 2.1.0", None),
        ("torch 2x faster", None),
        ("pytorch-triton 3.0.0", None),
        ("CUDA used to build PyTorch: 12.1", None),  # collect_env's toolkit line
    ],
)
def test_a_pytorch_release_is_named_apart_from_the_engine_version(line, torch):
    ctx = context.read(["intro", line])
    assert [(f.value, f.line) for f in ctx.get("torch")] == ([(torch, 2)] if torch else [])
    assert not ctx.get("version")


@pytest.mark.parametrize(
    ("line", "count"),
    [
        ("Hardware: TPU v6e-64 (16 nodes × 4 chips)", 64),  # a v6e slice's type counts its chips
        ("| Hardware | TPU v6e-64 (16 nodes × 4 chips) |", 64),
        ("Hardware: TPU v5litepod-8", 8),
        ("Hardware: TPU v5p-8", None),  # v4's and v5p's type counts TensorCores, two a chip: no chip count
        ("Hardware: TPU v6e", None),  # a generation alone counts nothing
    ],
)
def test_a_cloud_tpu_slice_type_counts_its_chips_where_google_names_it_by_them(line, count):
    said = context.read(["| Field | Value |", "|---|---|", line] if line.startswith("|") else [line])
    assert [f.value for f in said.get("device_count")] == ([count] if count else [])


@pytest.mark.parametrize(
    ("line", "instances"),
    [
        ("one prefill server on node-1, one decode server on node-2, sglang-router in front.", 2),
        ("We ran 2 prefill instances and 1 decode instance behind the router.", 3),
        ("The prefill server and the decode server share a node.", None),  # no count of either
        ("one prefill server; the decode side is not disaggregated.", None),
    ],
)
def test_a_disaggregated_layout_in_words_counts_its_prefill_and_decode_servers(line, instances):
    assert [f.value for f in _read(line).get("instances")] == ([instances] if instances else [])
