"""The book's chapters, each one declaration: name, question, the tools it reads, its parameters and
its figures.

Every entry point reads these (the notebook's `setup`, `benchbook list/run/report`, the build, the
"Run it on your data" page); nothing learns about a chapter by reading notebook source. A notebook's
`parameters` cell repeats the defaults as literals because papermill injects values after it;
`tests/book/test_declarations.py` holds the two equal.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Param:
    """One chapter parameter: its default fixes its type; `help` is what `benchbook list` shows."""

    name: str
    default: object
    help: str = ""

    @property
    def type(self) -> str:
        return type(self.default).__name__ if self.default is not None else "None"


@dataclass(frozen=True)
class Box:
    """What the chapter's bottom-line box answers with: its claim ids from the most to the least
    important (ids, never sentences), the most sentences its answer holds (issue 34 item 6: one or two,
    with its number and its reason; a chapter that asks two questions, enough for an answer to each),
    and whether the chapter's sections say what the box cuts from a long first answer (elsewhere the
    box says that answer whole, so nothing it states is said nowhere)."""

    leads: tuple[str, ...] = ()
    sentences: int = 2
    sections_say_rest: bool = False


@dataclass(frozen=True)
class Chapter:
    """What a chapter is, apart from its prose."""

    name: str
    title: str
    question: str
    tools: tuple[str, ...] = ()
    paths: tuple[str, ...] = ("source",)
    figures: tuple[str, ...] = ()
    parameters: tuple[Param, ...] = field(default_factory=tuple)
    box: Box = Box()

    def spec(self) -> dict[str, dict]:
        """name -> {type, default, help}, in the order the parameters cell lists them."""
        return {p.name: {"type": p.type, "default": p.default, "help": p.help} for p in self.parameters}


CHAPTERS: tuple[Chapter, ...] = (
    Chapter(
        name="attention_kernels",
        title="Attention kernels: FlexAttention, FlashAttention-2 and SDPA with a mask",
        question="For masks other than plain causal, how much does a block-sparse kernel gain over dense attention with a mask, and how do the printed TFLOP/s figures mislead?",
        tools=("attention-gym", "tritonbench", "flash-attn-benchmark", "pytorch-score-mod", "attention-gym-selected"),
        paths=("source",),
        figures=("fig_density", "fig_tflops", "fig_speedup", "fig_roof"),
        parameters=(
            Param(
                "source",
                "data/raw/rtx_pro_6000/004_6d4f73623fb8afcd.txt",
                "attention-gym benchmark.py output (file or list)",
            ),
            Param(
                "gpu",
                "",
                "GPU of the run (a name or alias in data/hardware.csv); empty: detect it from the file, else none (shares of a peak withheld)",
            ),
            Param("peak_tflops", 0.0, "dense FP16 peak of your device in TFLOP/s; 0 takes it from the hardware table"),
            Param(
                "peak_bandwidth_gb_s",
                0.0,
                "memory bandwidth of your device in GB/s; 0 takes it from the hardware table",
            ),
        ),
        box=Box(leads=("flex_sparsest", "sdpa_printed"), sections_say_rest=True),
    ),
    Chapter(
        name="bandwidth_roofline",
        title="The bandwidth roofline of token generation",
        question="Single-stream generation should be limited by how fast the device streams the weights: how close does the run get?",
        tools=("llama-bench", "llama-sweep-bench", "vllm-bench-offline", "llama-timings"),
        paths=("source",),
        figures=("fig_ceiling", "fig_fraction", "fig_roofline"),
        parameters=(
            Param(
                "source",
                "data/raw/rtx_pro_6000/004_6d4f73623fb8afcd.txt",
                "llama-bench output (markdown, json, jsonl or csv)",
            ),
            Param(
                "gpu",
                "",
                "GPU the runs used (a row of data/hardware.csv); empty takes the device line the output printed",
            ),
            Param(
                "peak_bandwidth_gb_s",
                0.0,
                "your device's peak memory bandwidth in GB/s (a CPU's DRAM for CPU-only runs); 0 uses the table",
            ),
            Param("peak_tflops", 0.0, "your device's dense fp16 peak in TFLOP/s; 0 uses the table"),
            Param(
                "moe_active_params",
                {},
                "MoE override {model pattern: active params in billions}; empty uses data/models.csv",
            ),
            Param("bound_threshold", 0.5, "share of a peak above which that roof is named as the limit"),
        ),
        box=Box(leads=("bw_size_trend", "bw_3", "bound_3", "bw_6", "bw_1")),
    ),
    Chapter(
        name="batch_saturation",
        title="Batch saturation: how far does batching pay?",
        question="On one GPU, how many sequences should share a generate() call before extra batch stops buying throughput, what limits the speed on the way, and what does each sequence pay for it?",
        tools=(
            "hf-batch-sweep",
            "vllm-bench-offline",
            "trtllm-static-batch",
            "mlperf-loadgen",
            "trtllm-bench",
            "sglang-bench-one-batch",
            "sglang-bench-offline",
            "llama-batched-bench",
        ),
        paths=("source",),
        figures=("fig_floor", "fig_throughput", "fig_roofline", "fig_ms"),
        parameters=(
            Param(
                "source",
                "data/raw/bloom_batch/003_7819709fab0fbd59.txt",
                "bigcode-inference-benchmark tables (file or list of files)",
            ),
            Param(
                "knee_fraction", 0.95, "saturation rule: smallest batch reaching this fraction of the peak throughput"
            ),
            Param("bound_threshold", 0.5, "a regime is bound by a roof when it reaches this fraction of that peak"),
            Param(
                "gpu",
                "",
                "GPU of the run (a name or alias in data/hardware.csv); empty: the one the output names, else none (shares of a peak withheld)",
            ),
            Param(
                "peak_bandwidth_gb_s",
                0.0,
                "peak memory bandwidth (GB/s) for a device the table lacks; 0 takes the table's",
            ),
            Param("peak_tflops", 0.0, "dense peak compute (TFLOP/s) for a device the table lacks; 0 takes the table's"),
            Param(
                "params_b", 0.0, "model size in billions of parameters; 0 reads it from the output or the model table"
            ),
        ),
        box=Box(
            leads=("knee", "latency_flat", "bandwidth_small", "compute_large", "dtypes_small"), sections_say_rest=True
        ),
    ),
    Chapter(
        name="claims_ledger",
        title="The claims ledger: every verdict, its evidence and its rule",
        question="Which verdict did each chapter reach, on what evidence, by which rule?",
        tools=(),
        paths=("source",),
        figures=(),
        parameters=(
            Param("source", "_build/claims", "folder of claims ledgers (CHAPTER.json or CHAPTER.claims.json files)"),
        ),
    ),
    Chapter(
        name="data_audit",
        title="Data audit: every defect, found by code",
        question="Which defects does each raw file carry, found by code?",
        tools=(),
        paths=("source",),
        figures=("fig_defects",),
        parameters=(
            Param("source", "data/raw", "raw files or folders to audit (comma-separated)"),
            Param("csv_out", "_build/audit.csv", 'where to write the full table ("" for nowhere)'),
        ),
    ),
    Chapter(
        name="data_catalogue",
        title="Data catalogue and data dictionary",
        question="What does each raw file hold, where did it come from, and what does each column mean?",
        tools=(),
        paths=("raw_dir",),
        figures=(),
        parameters=(Param("raw_dir", "data/raw", "folder of raw files with *.manifest.yml beside them"),),
    ),
    Chapter(
        name="perf_per_watt",
        title="Performance per watt: measured energy and power caps",
        question="How many joules does a token cost, measured where, and how far is that from what physics requires?",
        tools=(
            "llama-bench",
            "ml-energy",
            "optimum-benchmark",
            "inference-energy",
            "aiperf-telemetry",
            "genai-perf-telemetry",
            "llama-bench-power",
            "codecarbon",
            "serving-power",
            "ollama-bench-power",
            "zeus-llm-csv",
        ),
        paths=("source",),
        figures=("fig_caps", "fig_measured", "fig_throughput", "fig_energy", "fig_cv"),
        parameters=(
            Param(
                "source",
                "data/raw/rtx_pro_6000/004_6d4f73623fb8afcd.txt",
                'llama-bench output (power limits from headings like "### 600W") or a measured energy file (ML.ENERGY, optimum-benchmark, inference-energy, AIPerf GPU telemetry, llama-bench tables with a power reading, CodeCarbon emissions.csv, a --record-power summary, obench.sh with a power reading)',
            ),
            Param(
                "gpu",
                "",
                "GPU the runs used (a row of data/hardware.csv); empty takes the device line the output printed",
            ),
            Param(
                "bytes_per_param",
                2.0,
                "bytes per weight for the weights-read floor where no llama-bench file size gives them (2 defers to a precision the run or model table states)",
            ),
            Param(
                "peak_fraction", 0.95, "sweet spot: lowest limit keeping this fraction of each test's peak throughput"
            ),
            Param(
                "measured_power",
                None,
                "optional CSV with power_limit_w, power_w (mean measured draw, W) and optionally test",
            ),
            Param(
                "model",
                "",
                "model to analyse (the llama-bench model string); empty picks the one run at the most limits",
            ),
            Param(
                "quote_limit_w",
                400.0,
                "power limit (W) the prose quotes retained throughput at; the nearest measured limit is used",
            ),
        ),
        box=Box(
            leads=(
                *("caps_differ", "sweet_spot_tg"),
                *("measured_cheapest", "measured_spread"),
                "energy_top_tg",  # without a measured draw, the joules-per-token question's answer is this bound
                "measured_0",  # a file of one measured configuration: its energy per token is the answer
            ),
            sentences=3,  # how low a cap can go (and why), and what a token costs
        ),
    ),
    Chapter(
        name="quantization_regimes",
        title="Quantization winners by workload regime",
        question="Which quantization scheme should you serve, for which workload?",
        tools=("sglang-quant-report",),
        paths=("source",),
        figures=("fig_lesson", "fig_heatmap", "fig_winners", "fig_winners_more", "fig_roofline", "fig_phases"),
        parameters=(
            Param(
                "source",
                "data/raw/quant_regimes/002_720befe671f869ae.txt",
                "a quantization report or a bench_one_batch_server result.jsonl",
            ),
            Param(
                "metric_by_regime",
                {
                    "interactive": "latency",
                    "long_context": "latency",
                    "decode_bound": "output_throughput",
                    "prefill_bound": "overall_throughput",
                    "medium_batch": "overall_throughput",
                    "base": "overall_throughput",
                    "high_concurrency": "overall_throughput",
                },
                "metric that decides each regime (others: latency at batch 1, else overall_throughput)",
            ),
            Param("alpha", 0.05, "significance level of the Welch t-test and 1 - confidence of the intervals"),
            Param(
                "baseline", "", 'scheme the speed-ups are measured against ("" takes original when the input has it)'
            ),
            Param(
                "outlier_rule",
                "cv>0.10",
                'flag cells whose runs vary more than this ("cv>X" or "mad>X"); flagged values are left out',
            ),
            Param(
                "gpu",
                "",
                'GPU of the roofline, a name or alias in data/hardware.csv ("" takes it from the input\'s manifest, else the one device it names)',
            ),
            Param("peak_bandwidth_gb_s", 0.0, "memory bandwidth of your GPU in GB/s (0 takes the hardware table's)"),
            Param("peak_tflops", 0.0, "dense 16-bit peak of your GPU in TFLOP/s (0 takes the hardware table's)"),
            Param(
                "model_id", "", 'model whose size places the roofline points ("" takes it from the input\'s manifest)'
            ),
            Param(
                "bound_threshold", 0.5, "fraction of a peak above which a step is called bandwidth- or compute-bound"
            ),
        ),
        box=Box(leads=("w8a8_gain", "confound"), sections_say_rest=True),
    ),
    Chapter(
        name="reproduction",
        title="Reproduction: every derived number, recomputed",
        question="Does every number a source derived follow from the numbers it measured?",
        tools=(),
        paths=("source",),
        figures=("fig_agreement",),
        parameters=(
            Param("source", "data/raw", "raw files or folders to check (comma-separated)"),
            Param("csv_out", "_build/reproduction.csv", 'where to write the full table ("" for nowhere)'),
        ),
    ),
    Chapter(
        name="serving_saturation",
        title="The serving saturation curve",
        question="How much load should one server take before the extra throughput is not worth the latency it costs, and what limits it on the way?",
        tools=(
            "vllm-bench-serve",
            "sglang-bench-serving",
            "aiperf",
            "genai-perf",
            "trtllm-bench",
            "trtllm-gptmanager",
            "inference-perf",
            "guidellm",
            "llm-d-benchmark-report",
            "mlperf-loadgen",
            "inferencex",
        ),
        paths=("source",),
        figures=("fig_queue", "fig_saturation", "fig_tradeoff", "fig_roofline", "fig_pareto"),
        parameters=(
            Param(
                "source",
                "data/raw/rtx_pro_6000/004_6d4f73623fb8afcd.txt",
                "vllm bench serve output: text, JSON or JSONL; a list or comma-separated",
            ),
            Param(
                "sweep", "auto", "the swept setting: auto (the one the file varies), max_concurrency or request_rate"
            ),
            Param(
                "knee_threshold",
                0.25,
                "knee: first step where relative throughput gain / relative sweep gain falls below this",
            ),
            Param("slo_ttft_ms", 450.0, "TTFT SLO (ms); default MLPerf Inference llama2-70b-interactive, p99"),
            Param("slo_tpot_ms", 40.0, "TPOT SLO (ms); default MLPerf Inference llama2-70b-interactive, p99"),
            Param("bound_threshold", 0.5, "a load is bound by a roof when it reaches this fraction of that peak"),
            Param(
                "gpu",
                "",
                "GPU of the server (a name or alias in data/hardware.csv); empty: detect it from the input, else none (shares of a peak withheld)",
            ),
            Param(
                "peak_bandwidth_gb_s",
                0.0,
                "peak memory bandwidth (GB/s) for a device the table lacks; 0 takes the table's",
            ),
            Param("peak_tflops", 0.0, "dense peak compute (TFLOP/s) for a device the table lacks; 0 takes the table's"),
            Param(
                "params_b",
                0.0,
                "model size in billions of parameters; 0 takes it from the model table or the model's name",
            ),
        ),
        box=Box(
            leads=("knee", "goodput", "compute_best", "growth", "own_slos", "failed", "uncapped"),
            sections_say_rest=True,
        ),
    ),
    Chapter(
        name="tp_scaling",
        title="Tensor-parallel scaling and its anomalies",
        question="When you shard a model over more GPUs with tensor parallelism, what do you get back, and where does it stop paying?",
        tools=("tgi-benchmark",),
        paths=("source",),
        figures=("fig_allreduce", "fig_speedup", "fig_fit", "fig_roofline", "fig_quant", "fig_throughput"),
        parameters=(
            Param(
                "source",
                "data/raw/tgi_bloomz_tp/000_5f50b6ac26707e67.txt,data/raw/tgi_bloomz_tp1/001_4e5344ced21f561d.txt",
                "one or more TGI benchmark files, comma-separated",
            ),
            Param(
                "gpu",
                "",
                "GPU the run used, a name or alias in data/hardware.csv; empty detects it from the input, else none (shares of a peak withheld)",
            ),
            Param(
                "peak_bandwidth_gb_s",
                0.0,
                "peak memory bandwidth per GPU in GB/s, for a GPU the table lacks; 0 takes the table's",
            ),
            Param(
                "peak_tflops", 0.0, "peak dense fp16 TFLOP/s per GPU, for a GPU the table lacks; 0 takes the table's"
            ),
            Param("params_b", 0.0, "model parameters in billions; 0 means infer from the model id via data/models.csv"),
            Param("bytes_per_param", 2.0, "bytes per weight: 2 for fp16 or bf16"),
            Param(
                "kv_bytes_per_token",
                0.0,
                "KV-cache bytes per token; 0 looks the model up and counts weights only when unknown",
            ),
            Param("tp_unknown", 1, "TP to assume when a file does not state it"),
            Param(
                "bound_threshold",
                0.5,
                "fraction of a peak a measurement must reach before that peak is named as its limit",
            ),
            Param("jump_threshold", 1.3, "flag latency growing this many times faster than the batch size"),
            Param("slowdown_tolerance", 0.02, "flag decode getting slower by more than this fraction with more GPUs"),
        ),
        box=Box(leads=("decode_turn", "rec_throughput"), sections_say_rest=True),
    ),
    Chapter(
        name="tracking",
        title="Tracking performance across runs",
        question="Over a series of runs of the same benchmark, did performance change, where, by how much, and how sure is that?",
        tools=(),
        paths=("source",),
        figures=("fig_smallest_p", "fig_series"),
        parameters=(
            Param(
                "source",
                "data/series/strix_halo_gpt_oss_20b/vulkan_radv_fa1",
                "result files or folders (comma-separated), or one warehouse folder",
            ),
            Param("metric", "pp_rate", "the metric to follow, e.g. pp_rate, tg_rate, output_throughput"),
            Param(
                "where", "", "settings the runs must have, comma-separated KEY and VALUE pairs joined by an equals sign"
            ),
            Param("alpha", 0.05, "significance level of each change, between 0 and 1"),
        ),
        box=Box(leads=("changes",)),
    ),
)

BY_NAME: dict[str, Chapter] = {c.name: c for c in CHAPTERS}


def chapter(name: str) -> Chapter:
    """The declaration of `name`; KeyError for a name the book has no chapter for."""
    return BY_NAME[name]


def register(c: Chapter) -> Chapter:
    """Declare a chapter of a project's own (a notebook beside the book's, run by `benchbook run`)."""
    BY_NAME[c.name] = c
    return c
