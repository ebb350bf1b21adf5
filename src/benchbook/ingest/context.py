"""The run facts written around a tool's output, read from any text in the file (issue 35).

A benchmark's table rarely says everything about its run: the GPU and how many, the TP, the model
and the power drawn often sit in a heading above it, the launch command, a `GPU: ...` bullet, an
nvidia-smi dump or a line an author appended. `read` walks every line once and returns one
`Context` per file: each `Fact` tied to its line and to the kind of text it came from, and each
`Sign` (a line that mentions a fact but gives no value this reader can take) kept, so that a page
claims an absence only after looking (`states`).

Precedence, one order for every fact: the parser's own structured fields (what the tool itself
recorded: its table, its result JSON) come first, then this reader's sources in the order of
`SOURCES`: the run's command line, then JSON/YAML metadata, then environment dumps (nvidia-smi,
rocm-smi, lscpu, llama-bench's cpu_info/gpu_info), then `key: value` / `KEY=value` lines, then
headings, then captions (the line right above a code block, or a bold line alone, naming the one
model the block below it ran), then prose. `merge` puts the parser's facts first and records every context fact of a
higher or lower source whose value differs from the parser's as a `Conflict`: the page states it
rather than silently picking one. Device names stay as written here: resolving them against the
hardware table is the analysis layer's job (`analysis.roofline`).
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from benchbook import config
from benchbook.ingest.core import SEPARATOR_RE

#: Where a fact was read, from most to least trusted after the parser's own fields.
SOURCES = ("parser", "command", "json", "env-dump", "key-value", "heading", "caption", "prose")

#: The facts a record can hold.
NAMES = (
    "device",
    "machine",
    "device_count",
    "device_cores",
    "visible_devices",
    "nodes",
    "cpu",
    "sockets",
    "tp",
    "pp",
    "dp",
    "ep",
    "instances",
    "replicas",
    "instances_at_once",
    "layout",
    "role",
    "cpu_offload",
    "split",
    "model",
    "path_model",
    "served_name",
    "params",
    "active_params",
    "tokenizer",
    "precision",
    "kv_dtype",
    "threads",
    "gpu_layers",
    "engine",
    "version",
    "build",
    "torch",
    "concurrency",
    "batch",
    "rate",
    "prompts",
    "runs",
    "power",
    "power_limit",
    "energy",
    "date",
)

#: Power and energy scopes; a reading whose line names none is "scope not stated".
SCOPES = ("per GPU", "all GPUs", "all CPUs", "whole node", "wall", "idle", "scope not stated")


@dataclass(frozen=True)
class Fact:
    """One fact as the file states it: `value` (int, float or str), its 1-based `line`, the
    `source` kind (one of `SOURCES`) and the line's `text`; `unit` and `scope` for power and
    energy (`scope` one of `SCOPES`), `unit` also for a rate; a device count of scope "all GPUs"
    counts every machine's devices (`5x servers, each with 8x MI300X`), not one machine's."""

    name: str
    value: object
    line: int
    source: str
    text: str
    unit: str | None = None
    scope: str | None = None
    command: int | None = None  # the first line of the command a command-line fact belongs to
    until: int | None = None  # a caption's last line: the end of the block or section it labels
    #: the script whose defaults the fact is (`The perftest.sh script runs with the following defaults:` above its
    #: paragraph): a setting of that script's runs only (`fill`)
    script: str | None = None
    #: who wrote the post of a copied issue thread the fact was read in (`BYLINE`; "" above the first byline,
    #: a description whose writer the copy does not name): one writer's facts are not another's runs' (`of_posts`)
    writer: str | None = None


@dataclass(frozen=True)
class Sign:
    """A line that mentions a fact (`name`) but gives no value this reader can take."""

    name: str
    line: int
    text: str
    #: the fact as the line writes it where it ties to no one value: a model in words (`Llama 70B`), or one
    #: of the devices a line names beside another (so a line naming two gives two signs); the requests sent in
    #: words (`1000 requests`)
    words: str | None = None


@dataclass(frozen=True)
class Conflict:
    """Two statements of one fact that disagree: `first` ranks higher by the precedence."""

    name: str
    first: Fact
    other: Fact


@dataclass(frozen=True)
class Context:
    """Everything one file states about its run: facts in precedence order, signs, conflicts."""

    facts: tuple[Fact, ...] = ()
    signs: tuple[Sign, ...] = ()
    conflicts: tuple[Conflict, ...] = ()
    #: (line, script) of each line that runs a shell script (`docker exec srv ~/scripts/perftest.sh`): the
    #: results below it, up to the next, are that script's
    scripts: tuple[tuple[int, str], ...] = ()
    #: (first line, last line, writer) of each post of a copied issue thread (`BYLINE`), none elsewhere
    posts: tuple[tuple[int, int, str], ...] = ()
    #: the lines of the file's Markdown headings outside code blocks (`sections`): where its sections start
    headings_at: tuple[int, ...] = ()
    #: (label line, last line it labels) of each caption (`_read_captions`: `HP:` over a fenced block)
    labels: tuple[tuple[int, int], ...] = ()

    def get(self, name: str) -> tuple[Fact, ...]:
        """The facts of `name`, highest precedence first, then by line."""
        return tuple(f for f in self.facts if f.name == name)

    @property
    def headings(self) -> tuple[Fact, ...]:
        """The file's headings (name "heading"), where a device or a setting is often named."""
        return self.get("heading")

    def same_command(self, fact: Fact, name: str) -> tuple[Fact, ...]:
        """The facts of `name` that the command `fact` was read from states (none for a fact read
        elsewhere): e.g. the model a `--num-shard` belongs to."""
        if fact.command is None:
            return ()
        return tuple(f for f in self.get(name) if f.command == fact.command)

    def values(self, name: str) -> list:
        """The distinct values of `name`, in precedence order."""
        return list(dict.fromkeys(f.value for f in self.get(name)))


@dataclass(frozen=True)
class Statement:
    """What a file says of one fact: `status` "stated" (with `facts`), "unread" (a `sign` is
    there but gave no value: the page names its line) or "absent" (no sign anywhere)."""

    name: str
    status: str
    facts: tuple[Fact, ...] = ()
    sign: Sign | None = None

    @property
    def line(self) -> int | None:
        """The line a page cites: the first fact's, else the sign's, else None."""
        if self.facts:
            return self.facts[0].line
        return self.sign.line if self.sign else None


def states(context: Context, name: str, beside: Iterable = ()) -> Statement:
    """Whether the file states `name`: the one decision behind every "not stated" on a page. A
    fact read anywhere is "stated"; else a line that mentions it is "unread" (the page names that
    line, never an absence); else "absent", the only status that allows "not stated". `beside`: the
    values a page has already tied to other runs (the models the named runs serve), which state
    nothing of a run that has none, so the decision is over the file's other facts and its signs."""
    if name not in NAMES:
        raise ValueError(f"unknown fact {name!r}; the facts are {', '.join(NAMES)}")
    beside = set(beside)
    facts = tuple(f for f in context.get(name) if f.value not in beside)
    if facts:
        return Statement(name, "stated", facts)
    signs = [s for s in context.signs if s.name == name]
    return Statement(name, "unread", sign=signs[0]) if signs else Statement(name, "absent")


# ------------------------------------------------------------------------------------- keys
def _norm(key: str) -> str:
    """A key in lower case, runs of other characters as `_`; a number sign before a noun is "number
    of" (`#GPUs` is `num_gpus`)."""
    key = key.strip().strip("*`\"'")
    norm = re.sub(r"[^a-z0-9]+", "_", key.lower()).strip("_")
    return f"num_{norm}" if re.match(r"#[A-Za-z]", key) else norm


#: A parallel degree's word and the short name of its fact.
_PAR_NAME = {"tensor": "tp", "pipeline": "pp", "data": "dp", "expert": "ep"}
#: Key names (normalised: lower case, runs of other characters as `_`) and the fact each states.
KEYS: dict[str, str] = {
    **dict.fromkeys(("gpu", "gpus", "device", "devices", "hardware", "accelerator", "accelerators"), "device"),
    **dict.fromkeys(("gpu_type", "gpu_name", "gpu_model", "gpu_info", "device_name", "hw", "card"), "device"),
    **dict.fromkeys(
        ("num_gpus", "gpu_count", "n_gpus", "ngpus", "number_of_gpus", "gpus_per_node", "total_gpus"), "device_count"
    ),
    # AMD's MLPerf harness config (`harness_config:` ... `device_count: 1`): the GPUs the run uses
    "device_count": "device_count",
    **dict.fromkeys(("nodes", "num_nodes", "nnodes", "node_count", "number_of_nodes"), "nodes"),
    **dict.fromkeys(("cpu", "cpu_info", "cpu_model", "cpu_name"), "cpu"),
    # lscpu's `Socket(s):` (normalised `socket_s`), the CPU packages the machine holds
    **dict.fromkeys(("socket_s", "sockets", "num_sockets", "cpu_sockets", "socket_count", "n_sockets"), "sockets"),
    **dict.fromkeys(("tp", "tp_size", "tensor_parallel", "tensor_parallel_size", "num_shard", "num_shards"), "tp"),
    **dict.fromkeys(("pp", "pp_size", "pipeline_parallel", "pipeline_parallel_size"), "pp"),
    **dict.fromkeys(("dp", "dp_size", "data_parallel", "data_parallel_size"), "dp"),
    **dict.fromkeys(("ep", "ep_size", "expert_parallel", "expert_parallel_size", "moe_ep_size"), "ep"),
    # a write-up's table of its setup names the degrees in words (`| Tensor Parallelism | 64 |`, `TP degree: 8`)
    **{
        f"{w}_{end}": n
        for w, n in _PAR_NAME.items()
        for end in ("parallelism", "parallel_degree", "parallelism_degree")
    },
    **{f"{n}_degree": n for n in ("tp", "pp", "dp", "ep")},
    **dict.fromkeys(("model", "model_id", "model_name", "model_path", "served_model_name", "weights"), "model"),
    **dict.fromkeys(("tokenizer", "tokenizer_name", "tokenizer_id"), "tokenizer"),
    # ML.ENERGY's `weight_precision` (its build_data.py: the weights' dtype, `bfloat16`, `fp8`, `mxfp4`)
    **dict.fromkeys(
        ("dtype", "precision", "quantization", "quantize", "quant", "weight_dtype", "weight_precision"), "precision"
    ),
    # TensorRT-LLM's ENGINE DETAILS `Dtype` (tensorrt_llm/bench/dataclasses/reporting.py), as a write-up names it
    "engine_dtype": "precision",
    **dict.fromkeys(("kv_cache_dtype", "kv_dtype", "kv_cache_type"), "kv_dtype"),
    **dict.fromkeys(("engine", "framework", "inference_engine", "serving_engine"), "engine"),
    **dict.fromkeys(
        ("engine_version", "vllm_version", "sglang_version", "tgi_version", "trtllm_version", "tensorrt_llm_version"),
        "version",
    ),
    **dict.fromkeys(("build", "build_commit", "commit", "git_commit"), "build"),
    **dict.fromkeys(
        ("concurrency", "max_concurrency", "max_request_concurrency", "num_concurrent", "concurrent_requests"),
        "concurrency",
    ),
    # vLLM's banner prints `Maximum request concurrency:`, SGLang's `Max request concurrency:` (some versions
    # `Max reqeuest concurrency:`), each the run's --max-concurrency
    **dict.fromkeys(("maximum_request_concurrency", "max_reqeuest_concurrency", "concurrency_level"), "concurrency"),
    **dict.fromkeys(("batch_size", "batch", "bs"), "batch"),
    **dict.fromkeys(("request_rate", "rate", "qps", "req_rate", "traffic_request_rate"), "rate"),
    **dict.fromkeys(("num_prompts", "prompts", "num_requests", "request_count"), "prompts"),
    # the timed repetitions of each measurement (text-generation-benchmark's `N Runs` row, its `--runs`)
    **dict.fromkeys(("n_runs", "num_runs"), "runs"),
    **dict.fromkeys(("power", "avg_power", "average_power", "power_draw", "power_consumption", "gpu_power"), "power"),
    **dict.fromkeys(("mean_power", "power_w", "avg_power_w", "idle_power", "idle_power_draw"), "power"),
    # InferenceX's sum over the deployment's GPUs (utils/aggregate_power.py: `avg_total_gpu_power_w`, the energy
    # of every GPU over the run's window divided by it; `total_gpu_energy_j`, that energy)
    "avg_total_gpu_power_w": "power",
    "total_gpu_energy_j": "energy",
    **dict.fromkeys(("power_limit", "power_cap", "power_limit_w", "pl"), "power_limit"),
    **dict.fromkeys(("energy", "energy_j", "total_energy", "energy_consumed", "gpu_energy"), "energy"),
    **dict.fromkeys(("date", "timestamp", "test_time", "run_date", "datetime", "generated", "generated_at"), "date"),
}

#: Command-line flags (without dashes, normalised) and the fact each sets.
FLAGS: dict[str, str] = {
    **dict.fromkeys(("tensor_parallel_size", "tp", "tp_size", "num_shard", "tensor_parallel"), "tp"),
    **dict.fromkeys(("pipeline_parallel_size", "pp", "pp_size"), "pp"),
    **dict.fromkeys(("data_parallel_size", "dp", "dp_size"), "dp"),
    **dict.fromkeys(("ep", "ep_size", "expert_parallel_size", "moe_ep_size"), "ep"),
    **dict.fromkeys(("nnodes", "num_nodes"), "nodes"),
    **dict.fromkeys(("gpus", "num_gpus", "n_gpus"), "device_count"),  # ilab's, docker's --gpus N: the GPUs used
    **dict.fromkeys(("model", "model_path", "model_id", "model_name"), "model"),
    # vLLM's and SGLang's `--served-model-name X`: the name clients send for the command's model (one model)
    **dict.fromkeys(("served_model_name",), "served_name"),
    **dict.fromkeys(("tokenizer", "tokenizer_name", "tokenizer_path"), "tokenizer"),
    **dict.fromkeys(("dtype", "quantization", "quantize"), "precision"),
    **dict.fromkeys(("kv_cache_dtype",), "kv_dtype"),
    # llama.cpp's `-ctk, --cache-type-k` and `-ctv, --cache-type-v` (common/arg.cpp): the KV cache's data type
    **dict.fromkeys(("cache_type_k", "cache_type_v", "ctk", "ctv"), "kv_dtype"),
    **dict.fromkeys(("max_concurrency", "concurrency"), "concurrency"),
    **dict.fromkeys(("batch_size",), "batch"),
    **dict.fromkeys(("request_rate",), "rate"),
    **dict.fromkeys(("num_prompts",), "prompts"),
    **dict.fromkeys(("runs", "n_runs", "num_runs"), "runs"),
    **dict.fromkeys(("backend",), "engine"),
    # SGLang's `--disaggregation-mode prefill|decode`: the server serves one role of a disaggregated run
    # (prefill and decode servers behind a router), so its devices are that role's, not the run's
    **dict.fromkeys(("disaggregation_mode",), "role"),
}
#: Short flags whose meaning is the tool's own, by the command they sit in: GenAI-Perf's and AIPerf's
#: `-m` is the served model's name (`-m, --model`), where `python -m` names a module.
#: text-generation-benchmark's `-r` is its `--runs` (benchmark/src/main.rs, clap's `short`).
SHORT_FLAGS: dict[str, dict[str, str]] = {
    "genai-perf": {"m": "model"},
    "aiperf": {"m": "model"},
    "text-generation-benchmark": {"r": "runs"},
}
#: Flags whose meaning is the tool's own, by the command they sit in (None: no fact of `NAMES`): GenAI-Perf's
#: `--num-prompts` is its `--num-dataset-entries`, "the number of unique payloads to sample from", reused
#: until the benchmark ends, never the requests sent; its `--request-count` is those (genai_perf/parser.py).
#: AIPerf keeps both meanings: `--num-dataset-entries`/`--num-prompts` is the dataset's unique entries, and
#: `--request-count`/`--num-requests` "the maximum number of requests to send" (aiperf docs/cli_options.md).
TOOL_FLAGS: dict[str, dict[str, str | None]] = {
    "genai-perf": {"num_prompts": None, "num_dataset_entries": None, "request_count": "prompts"},
    "aiperf": {"num_prompts": None, "num_dataset_entries": None, "request_count": "prompts", "num_requests": "prompts"},
}

_INTS = {
    "sockets",
    "device_count",
    "device_cores",
    "nodes",
    "tp",
    "pp",
    "dp",
    "ep",
    "instances",
    "replicas",
    "concurrency",
    "batch",
    "prompts",
    "runs",
}

#: The words that show a line speaks of a fact, read or not (`Sign`): a page claims an absence
#: only where none of them appears.
_SIGN_WORDS: dict[str, str] = {
    # 单卡 / 双卡 / 多卡 / 显卡: one, two, several cards, graphics card (Chinese write-ups)
    # a TPU-only setting (tpu-inference's `TPU_BACKEND_TYPE=jax`) says the run was on a TPU, not which one
    "device": r"\b(gpus?|[hnx]pus?|accelerators?|nvidia|geforce|radeon|instinct|tesla|quadro|gaudi|ascend|tpu)\b|\btpu_\w+=|单卡|双卡|多卡|显卡",
    "cpu": r"\b(cpu|cpu_info|processor|lscpu|epyc|xeon|ryzen|threadripper|core\s+i[3579])\b",
    # the CPU packages, or the NUMA nodes that a socket count may lie behind (lscpu's `NUMA node(s):`,
    # `numactl --hardware`'s `available: 2 nodes (0-1)`, llama.cpp's `--numa distribute`): NUMA nodes are
    # not sockets (one socket may hold several, AMD's NPS4), so they give no count
    "sockets": r"\bsockets?\b|\bnuma\b|^\s*available:\s*\d+\s+nodes\b",
    "tp": r"(tensor[-_ ]?parallel|\btp[-_ ]?(size|degree)?\b|shard)",
    "pp": r"(pipeline[-_ ]?parallel|\bpp[-_ ]?size\b)",
    "dp": r"(data[-_ ]?parallel|\bdp[-_ ]?size\b)",
    "ep": r"(expert[-_ ]?parallel|\bep[-_ ]?size\b)",
    "power": r"\b(power|watts?|wattage)\b",
    "energy": r"\b(energy|joules?|kwh|wh)\b",
    "rate": r"(request[-_ ]rate|\breq/s\b|requests? per second|\bqps\b)",
    "concurrency": r"\bconcurren(cy|t)\b",
    "batch": r"\bbatch[-_ ]?size\b",
    # the requests sent spoken of: a count of requests in words (`in 1000 requests`), not a rate; no option's
    # name (genai-perf's `--num-prompts` is its dataset's size, not the requests it sends)
    "prompts": r"\b\d[\d,]*\s+requests\b(?!\s*(?:per\b|/|a\s+second))",
    "runs": r"\bn[-_ ]?runs\b|--runs\b|\bnum[-_]runs\b",
    # how many GPUs, spoken of without a count read: GPUs in the plural (docker's `--gpus all`), a GPU count's
    # key, multi-GPU; 单卡 / 双卡 / 多卡 (one, two, several cards)
    "device_count": r"\bgpus\b|\b[hnx]pus\b|\bmulti[- ]?gpus?\b|\b(?:num|n)[_-]?gpus\b|\bgpu[_ ]count\b|单卡|双卡|多卡",
    # how the model is split over its GPUs, spoken of: accelerate's device_map, llama.cpp's split mode, a
    # parallelism named without a size, DeepSpeed (its inference engine shards by tensor parallel, ZeRO does not)
    "split": r"\bdevice[-_ ]?map\b|--split[-_]mode\b|\bsplit[-_ ]mode\b|(?<![\w-])-sm\b|\b(?:tensor|pipeline|model)[-_ ]?parallel"
    r"|\bdeepspeed\b|\bshard(?:ed|s|ing)?\b",
    # a power limit set or spoken of (nvidia-smi's `-pl`/`--power-limit`, rocm-smi's `--setpoweroverdrive`)
    "power_limit": r"\bpower[-_ ]?(?:limits?|caps?)\b|(?<![\w-])-pl\b|--power-limit\b|--setpower(?:overdrive|limit)\b",
    "date": r"\b(date|timestamp)\b",
    # or an MLPerf Inference benchmark's model by the name the suite gives it (mlcommons/inference: `retinanet`,
    # `resnet50`, `bert-99`, `gptj`, `3d-unet`, `dlrm-v2`, `rnnt`, `sdxl`; v0.5's `SSD-small` and `SSD-large`, its
    # names for ssd-mobilenet and ssd-resnet34), which names no weights this reader sizes
    "model": r"\b(model|checkpoint|weights)\b|\b(?:retinanet|resnet-?50|bert-99(?:\.9)?|gpt-?j(?:-99(?:\.9)?)?|3d-unet"
    r"|dlrm(?:-v2)?|rnnt|sdxl|ssd-(?:resnet34|mobilenet|small|large))\b",
    # the weights' precision spoken of (a dtype word, a quantization method or format) where no value was read
    "precision": r"\b(dtype|precision|quantiz(?:ed|ation|e)|bf16|bfloat16|fp16|float16|fp8|fp4|int8|int4|nvfp4|mxfp4"
    r"|awq|gptq|w4a16|w8a8|w4a8)\b",
}
_SIGNS = {k: re.compile(v, re.I) for k, v in _SIGN_WORDS.items()}

# ---------------------------------------------------------------------------------- patterns
_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.+?)\s*#*\s*$")
#: A banner a benchmark prints over a section (`------GPU Power (all devices)------`, `=== Serving Benchmark
#: Result ===`), its title in group 1; a bare rule of dashes or equals signs closes the section (no title).
_BANNER = re.compile(r"^\s*(?:[-=]{3,}\s*([^-=\s][^-=]*?)\s*[-=]{3,}|[-=]{5,})\s*$")
#: A flag and its value; a token that starts with a dash and a letter is the next flag, never the value of a
#: switch before it (`--trust-remote-code --data-parallel-size 16`).
_FLAG = re.compile(r"(?<![\w-])--?([A-Za-z][\w-]*)(?:[ =]+((?!--?[A-Za-z])[^\s\\`'\"]+|'[^']*'|\"[^\"]*\"))?")
#: A command line: a known CLI anywhere in the line (after an optional `KEY=value` environment), or a
#: line that starts (after a prompt `$ `, `> ` or a backtick) with a Python program, `python[3] [-m]
#: module` or a script path ending `.py`, followed by a flag or a wrapping `\`: a script of any tool
#: (`python vllm_bench.py --model_path ...`) takes its settings as flags the same way. A Python
#: program named in a sentence, or run with no flag (`python servers/x.py &> out.txt`), is none. A CLI run by
#: its path (`./bin/llama-server`, `~/venv/bin/vllm serve`) is that CLI.
_CLI = re.compile(
    r"(?:^|[\s`$>\"'])(?:[A-Z_][A-Z0-9_]*=\S+\s+)*(?:\.{0,2}/?(?:[\w.~-]+/)+)?"
    r"(vllm\s+serve|vllm\s+bench|sglang\s+serve|mindie\s+serve|python[\d.]*\s+-m\s+(?:sglang|vllm)[\w.]*|"
    r"text-generation-launcher|text-generation-benchmark|llama-bench|llama-batched-bench|llama-sweep-bench|llama-server|"
    r"trtllm-bench|trtllm-serve|"
    r"genai-perf|guidellm|aiperf|ilab\s+model\s+serve|cm\s+run|cmr|mlcr|docker\s+run|torchrun|mpirun|srun|"
    r"(?:hf|huggingface-cli|modelscope)\s+download|ollama\s+(?:pull|run)|git\s+(?:lfs\s+)?clone(?=\s.*?//(?:hf|huggingface)\.co/))\b"
    r"|^\s*(?:[$>]\s+|`)?(?:[A-Z_][A-Z0-9_]*=\S+\s+)*"
    r"((?:python[\d.]*\s+(?:-m\s+[\w.]+|[\w./~-]+\.py)|[\w./~-]+\.py))(?=\s+--?[A-Za-z]|\s+\\$)"
)
#: What may stand before a command's program on its line: a prompt (`$ `, `root@host:/app# `, `> `), an opening
#: backtick or quote, a list marker, `KEY=value` settings, a wrapper that runs it (`sudo`, `docker exec NAME`).
_CLI_LEAD = re.compile(
    r"(?:.*[$#>]\s|\s*[-*+]\s+)?\s*[`\"'(]?\s*(?:[A-Z_][A-Z0-9_]*=\S+\s+)*"
    r"(?:(?:sudo|nohup|time|exec)\s+|docker\s+exec\s+(?:-\w+\s+)*[\w.-]+\s+)*(?:\.{0,2}/?(?:[\w.~-]+/)+)?"
)
_CLI_ARGS = re.compile(r"\s--?[A-Za-z]|\\\s*$")


class _Commands:
    """`_CLI` where a line runs the program: the program opens the line (`_CLI_LEAD`), follows a backtick, or
    has flags (or a wrapping `\\`) after it. A CLI named inside a sentence with none (`... with a traditional
    vllm bench serve command on my 8x RTX PRO 6000.`) runs nothing: that line's words are prose. So does one
    quoted inline in a sentence that goes on after its closing backtick (`Sample output by the `vllm bench
    serve` command, with the FP8 model on H200:`): the backticks set a program's name in the sentence apart,
    and the words after it (the model, the device) are the sentence's."""

    pattern = _CLI

    def search(self, line: str) -> re.Match | None:
        m = _CLI.search(line)
        if m is None or m.group(2) or _CLI_ARGS.search(line, m.end()):
            return m
        before = line[: m.start(1)]
        if before.rstrip().endswith("`") and _NAMED_INLINE.match(line, m.end()):
            return None
        return m if _CLI_LEAD.fullmatch(before) or before.rstrip().endswith("`") else None


#: What follows a program quoted inline in a sentence: at most its subcommand's word (`serve` of `vllm bench
#: serve`; a model or a path after it is an argument, run), the closing backtick, then more words of the
#: sentence (`` `vllm bench serve` command, with ...``); a line that ends at the backtick runs it.
_NAMED_INLINE = re.compile(r"(?:\s+[a-z][a-z_-]*)?`[^A-Za-z`\n]*[A-Za-z]")


_COMMAND = _Commands()
#: A server CLI whose first argument is the model it serves: `vllm serve MODEL`, `sglang serve MODEL`,
#: TensorRT-LLM's `trtllm-serve MODEL` (its positional `model`: a Hugging Face id or a checkpoint path) and
#: GPUStack's `mindie serve MODEL` (a vLLM-like command GPUStack maps to MindIE's JSON configuration and runs
#: with mindieservice_daemon, as its performance-lab write-ups say beside it). `trtllm-serve` is a click group
#: whose default command is `serve` (tensorrt_llm/commands/serve.py, `DefaultGroup.resolve_command`: a first
#: argument that names no subcommand is the model of `serve`), so `trtllm-serve serve MODEL` and
#: `trtllm-serve mm_embedding_serve MODEL` (both `@click.argument("model")`) name their model after the
#: subcommand; a subcommand's name is never the model (`trtllm-serve disaggregated -c FILE` names none).
SERVE_MODEL = re.compile(
    r"(?<![\w-])(?:(?:vllm|sglang|mindie)\s+serve"
    r"|trtllm-serve(?:\s+(?:serve|mm_embedding_serve)(?=\s+[\"']?[^\s\\`'\"-]))?"
    r"(?!\s+(?:serve|grpc|disaggregated|disaggregated_mpi_worker|mm_embedding_serve)(?![\w-])))"
    r"\s+[\"']?([^\s\\`'\"-][^\s\\`'\"]*)"
)
#: A download or pull names the weights it fetches: `hf download REPO_ID` and `huggingface-cli download REPO_ID`
#: (huggingface_hub's CLI, the repository id first; a model unless `--repo-type dataset|space`), `ollama pull NAME`
#: and `ollama run NAME` (Ollama's CLI: the model to fetch, or to fetch and run). Its `--local-dir DIR` is where
#: those weights land, so a later `--model DIR` runs them (`_Reader.downloads`). `git clone` of a Hub repository's
#: address (`https://huggingface.co/ORG/NAME`, the Hub's "Clone repository" instructions) fetches the same weights,
#: into the folder its second argument names; a `datasets/` or `spaces/` address is no model.
_DOWNLOAD = re.compile(
    r"\b(?:(?:hf|huggingface-cli)\s+download|ollama\s+(?:pull|run))\s+([^\s\\`'\"-][^\s\\`'\"]*)"
    r"|\bgit\s+(?:lfs\s+)?clone\s+(?:\S+\s+)*?https?://(?:huggingface\.co|hf\.co)/(?!datasets/|spaces/)"
    r"([\w.-]+/[\w.-]+?)(?:\.git)?/?(?:\s+([^\s\\`'\"-][^\s\\`'\"]*))?(?:\s|$)"
)
#: A line that opens with the program (after a prompt or a backtick; `docker exec NAME ollama`): there a plain
#: word after the verb is a model (`ollama pull mistral`).
_LINE_PROGRAM = re.compile(r"\s*(?:[$>]\s+|`)?(?:[\w./~-]*/)?(?:hf|huggingface-cli|ollama|docker\s+exec)\b")
_NOT_MODEL_REPO = re.compile(r"--repo[-_]type[ =]+[\"']?(?:dataset|space)s?\b")
_LOCAL_DIR = re.compile(r"--local[-_]dir[ =]+[\"']?([^\s\\`'\"]+)")
#: An engine's container image and its tag, as each project publishes it: vLLM `vllm/vllm-openai[-rocm]:vX.Y.Z`
#: (docs.vllm.ai, "Deploying with Docker"), AMD's `rocm/vllm`, vLLM Ascend `quay.io/ascend/vllm-ascend:vX.Y.Z`
#: (vllm-ascend.readthedocs.io, "Installation", Docker), SGLang `lmsysorg/sglang[-rocm]:vX.Y.Z[-cuNNN]`
#: (docs.sglang.io, "Installation", Docker: `lmsysorg/sglang:v0.5.19-cu129`, a version and its CUDA build) and AMD's `rocm/sgl-dev`, TGI
#: `ghcr.io/huggingface/text-generation-inference:X.Y.Z` (huggingface.co/docs/text-generation-inference,
#: Quick Tour), Ollama `ollama/ollama:X.Y.Z`, Triton `nvcr.io/nvidia/tritonserver:YY.MM-<flavour>` whose tag is the
#: Triton release and whose flavour its backend (`trtllm-python-py3`: TensorRT-LLM, `vllm-python-py3`: vLLM) or,
#: `py3-sdk`, the client tools only (perf_analyzer, genai-perf: no engine; Triton's release compatibility matrix,
#: docs.nvidia.com/deeplearning/triton-inference-server/user-guide/docs/introduction/compatibility.html).
#: A tag that is no version (`latest`, `main`, a commit `sha-...`, a date) names the engine alone.
_IMAGE = re.compile(
    r"(?<![\w./-])(?:[\w-]+(?:\.[\w-]+)+/)?"
    r"(vllm/vllm-openai(?:-rocm)?|rocm/vllm(?:-dev)?|ascend/vllm-ascend|lmsysorg/sglang(?:-rocm)?|rocm/sgl-dev"
    r"|huggingface/text-generation-inference|ollama/ollama|nvidia/tritonserver)(?::([\w.+-]+))?(?![\w/-])"
)
_IMAGE_ENGINE = {"vllm-ascend": "vLLM Ascend", "vllm": "vLLM", "sglang": "SGLang", "sgl-dev": "SGLang"}
_IMAGE_ENGINE |= {"text-generation-inference": "TGI", "ollama": "Ollama"}
_TRITON_FLAVOURS = {"trtllm": "Triton (TensorRT-LLM backend)", "vllm": "Triton (vLLM backend)"}
_TAG_VERSION = re.compile(r"^(v?\d+\.\d+(?:\.\d+)?(?:\.post\d+|rc\d+)?)(?![\d])|[_-]vllm[_-](v?\d+\.\d+(?:\.\d+)?)")
#: An engine named in words, a title, a table or a pip pin (`vLLM 0.11.1`, `vLLM(0.11.1)`, `vllm==0.9.2`,
#: `sglang[all]==0.4.6`, `vllm-ascend v0.18.0`, `vllm version: 0.9.2`), each spelling as its project writes it.
#: A version is the number right after the name, never one of another package (`vllm-flash-attn 2.6.1`,
#: `torch 2.5.1`) nor a measure (`vLLM 1.5x faster`, `vLLM 12.3 tok/s`); in a table's next cell only a full
#: `X.Y.Z` or `vX.Y` is one (`| vLLM | 0.636 |` is a score). With no version a name states the engine only where
#: it names the run's (`_ENGINE_RUN`).
#: The client backends of SGLang's bench_serving that post to SGLang's own API (its `ASYNC_REQUEST_FUNCS`:
#: `sglang` and `sglang-native` call `async_request_sglang_generate`, the native `/generate` that SGLang serves), so
#: its `Backend:` row (and its JSONL's `backend`) names the server; its other backends speak the OpenAI API any
#: server offers (`sglang-oai`, `vllm`, `lmdeploy`) or another server's (`trt`), and name no engine here.
_NATIVE_BACKENDS = {"sglang": "SGLang", "sglang-native": "SGLang"}
#: An MLPerf LoadGen log (its summary's banner, `SUT name :`): LoadGen calls the system under test in the harness's
#: own process, so the harness's `backend:` (AMD's `backend: vllm`, the reference implementations' `--backend`) is
#: the engine that ran the model, where a serving client's backend names only the API it posts to.
_LOADGEN_LOG = re.compile(r"MLPerf Results Summary|^\s*SUT name\s*:")
#: A version as an engine's release or build names one: it holds a number (`0.9.2`, `v0.4.3`, `25.01`, a commit);
#: a word under a version key (AMD's harness's `engine_version: sync`, the engine's mode) is none.
_VERSION_ID = re.compile(r"\d")
_ENGINE_WORDS = {"vllm-ascend": "vLLM Ascend", "vllm": "vLLM", "sglang": "SGLang", "tgi": "TGI"}
_ENGINE_WORDS |= {"text-generation-inference": "TGI", "tensorrt-llm": "TensorRT-LLM", "tensorrt_llm": "TensorRT-LLM"}
_ENGINE_WORDS |= {"trt-llm": "TensorRT-LLM", "llama.cpp": "llama.cpp", "ollama": "Ollama", "lmdeploy": "LMDeploy"}
_ENGINE_WORDS |= {"mindie": "MindIE"}  # Huawei's Ascend serving engine (`MindIE 2.1RC1`)
_ENGINE_NAME = r"(?<![A-Za-z0-9_/.:-])(" + "|".join(re.escape(k) for k in _ENGINE_WORDS) + r")(?:\[[\w,]+\])?"
_SUFFIX = r"(?:\.post\d+|\.dev\d+|rc\d+)?(?![\w%×]|\.\w)(?!\s*(?:[x×%]|times\b|ms\b|s\b|sec|tok|req|GB|GiB|MB))"
_ENGINE_VERSION = re.compile(
    _ENGINE_NAME
    + r"(?:(?:\s*==\s*|\s*\(\s*|\s*:\s*|\s+version\s*[:=]?\s*|\s+|-(?=v\d))(v?\d+\.\d+(?:\.\d+)?"
    + _SUFFIX
    + r")|\s*\|\s*((?:v\d+\.\d+(?:\.\d+)?|\d+\.\d+\.\d+)"
    + _SUFFIX
    + "))",
    re.I,
)
#: An engine named with no version where a sentence or title says the run is on it: on, using or via it, served
#: by it, or served, launched, deployed, run, tested, profiled or benchmarked with it (`## Serving with vLLM`), not
#: its script (`SGLang's benchmark`) nor a comparison (`alignment with vllm`). vLLM's client `--backend tgi` posts to
#: TGI's own `/generate_stream` API, so a TGI server; its other backends speak the OpenAI API any server offers.
_ENGINE_RUN = re.compile(
    r"(?:\b(?:on|using|via|served\s+by)\s+(?:the\s+)?"
    r"|\b(?:serv|launch|deploy|run|ran|test|profil|benchmark)\w*\b[^.;:]{0,60}?\bwith\s+(?:the\s+)?)"
    + _ENGINE_NAME
    + r"(?![\w-]|\.\w|'s\b|\s+bench\b)|--backend[ =]+(tgi)\b",
    re.I,
)
#: A section setting its runs beside another engine's (`## Comparison with vLLM (H100)`): it names theirs, not its own.
_COMPARISON = re.compile(r"\bcompar(?:ison|ing)\b", re.I)
#: An engine's name as a title writes it, not its script or its benchmark (`SGLang's bench_serving`, `vLLM bench`).
_ENGINE_NAMED = re.compile(_ENGINE_NAME + r"(?![\w-]|\.\w|'s\b|\s+bench\b)", re.I)
#: `docker run ... vllm/vllm-openai[-rocm]:TAG MODEL ...` (the image on a line of its own in a wrapped
#: command): vLLM's OpenAI images run `vllm serve` as their entrypoint, so the first word after the image
#: is the model it serves, an id with a `/` or a digit (the options after it are its flags).
_IMAGE_MODEL = re.compile(r"(?<![\w/])vllm/vllm-openai[\w-]*(?::\S+)?\s+([\w.~][^\s\\`'\"]*[/\d][^\s\\`'\"]*)")
#: A model's identifier: a path, an `org/name` or a name, in the characters Hugging Face ids, file names
#: and served names use (`Qwen2.5-7B-Instruct`, `./models/x`, `llama3.2:3b`), a note in brackets after it
#: allowed (`Kimi-K2.6 (Registry: moonshotai/Kimi-K2.6)`; the fact is the id, `_without_note`). Prose (`这个模型`, "this model", a flag's help
#: text) is none, and where a word merely follows `vllm serve` in a sentence (`then vllm serve the
#: model`), only a name with a digit, a separator or a path is one: a plain word is the sentence's.
_MODEL_ID = re.compile(r"[\w.~/][\w.:+@~/-]*(?:\s+\(.*\))?", re.ASCII)
_PLAIN_WORD = re.compile(r"[A-Za-z]+")
#: A labelled value that opens with an id in backticks and goes on with notes about it (its size in brackets, a
#: detail after a comma): the code span marks where the id ends.
_CODE_HEAD = re.compile(r"`?([\w.~/][\w.:+@~/-]*)`\s*(?:[(,;].*)?")
_NOTED = re.compile(r"([^\s(]+)\s+\((.*)\)\s*")
_ORG_ID = re.compile(r"[\w.~-]+/[\w.~-]+")


def _without_note(value: str) -> str:
    """A model id without the note in brackets after it (`google/gemma-4-31B-it (59GB, auto-selects tp=1)`: the
    weights' size and a setting, no part of the name), or the id the note gives the same model by with its
    organisation (`Kimi-K2.6 (Registry: moonshotai/Kimi-K2.6)`: the fuller name of one model)."""
    m = _NOTED.fullmatch(value)
    if not m:
        return value
    same = [x for x in _ORG_ID.findall(m.group(2)) if _last_part(x).lower() == _last_part(m.group(1)).lower()]
    return same[0] if same else m.group(1)


#: MLPerf's reference vision scripts (`./run_local.sh tf mobilenet gpu --scenario Offline`): run_common.sh
#: (mlcommons/inference vision/classification_and_detection) reads each bare word before the flags as the
#: backend, the device or, where it is one of the models the script knows, the model.
_MLPERF_VISION = re.compile(r"(?<![\w-])run_(?:local|and_time)\.sh((?:[ \t]+(?!-)[\w-]+)+)")
_MLPERF_VISION_MODELS = frozenset(
    {"resnet50", "mobilenet", "ssd-mobilenet", "ssd-resnet34", "ssd-resnet34-tf", "retinanet"}
)
#: An accuracy harness's command or the configuration line it prints (lm-evaluation-harness's
#: `local-completions (model=...,num_concurrent=32), gen_kwargs: (...), limit: ..., num_fewshot: ...`;
#: EvalScope's `evalscope eval ... --eval-batch-size` and its log): its concurrency and batch are the
#: harness's requests while it scores answers, never a load of the benchmark whose results the file
#: prints. `evalscope perf` is EvalScope's load test, not its accuracy harness: its load is a load.
_HARNESS = re.compile(r"(?<![\w-])(?:lm[_-]eval|evalscope(?!\s+perf\b))(?![\w-])|\), gen_kwargs: \(.*\bnum_fewshot: ")
_LOAD = {"concurrency", "rate", "batch", "prompts"}
_KV = re.compile(
    r"^\s*(?:[-*+>|]\s+)*(?:\d+\.\s+)?([*_`\"']*)(#?[A-Za-z][\w .()/-]{0,40}?)\1\s*[:=]\s*(\S.*?)\s*,?\s*$"
)
_JSON_PAIR = re.compile(
    r"\"(#?[A-Za-z][\w .-]{0,40})\"\s*:\s*(\"(?:[^\"\\]|\\.)*\"|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|true|false|null)"
)
#: One setting alone in brackets, spaced or not (`(concurrency = 1)`, `(batch_size=1)`).
_BRACKET_SETTING = re.compile(r"\(\s*([A-Za-z][A-Za-z0-9_]{0,40})\s+=\s+[\"']?([^\s,;&\"'()]+)[\"']?\s*\)")
_ENV = re.compile(r"(?<![\w-])([A-Za-z][A-Za-z0-9_]{0,40})=[\"']?([^\s,;&\"']+)")
_VISIBLE = re.compile(r"\b(?:CUDA|HIP|ROCR|ASCEND_RT)_VISIBLE_DEVICES=[\"']?(\d+(?:,\d+)*)")
_PAIRS = re.compile(r"(?:^|;)\s*([a-z][\w-]{0,30})=([^;=]+?)\s*(?=;|$)")
_NVSMI_ROW = re.compile(r"^\|\s*(\d+)\s+(.+?)\s+(?:On|Off)\s*\|")
#: `neuron-ls` (AWS Neuron) lists each device in a table under the header `| DEVICE | CORES | MEMORY |`;
#: a row `| 0 | 2 | 32 GB | 11, 1 | ...`: its index, its NeuronCores (as the runtime counts them: one
#: tensor-, pipeline- or data-parallel rank each) and its memory.
_NEURON_LS_HEAD = re.compile(r"^\|\s*DEVICE\s*\|\s*CORES\s*\|\s*MEMORY\s*\|", re.I)
_NEURON_LS_ROW = re.compile(r"^\|\s*(\d+)\s*\|\s*(\d+)\s*\|\s*\d+\s*GB\s*\|")
_NVSMI_L = re.compile(r"^\s*GPU\s+(\d+):\s*(.+?)\s*\((?:UUID|S/N)")
_ROCM = re.compile(
    r"^\s*GPU\[(\d+)\]\s*:\s*(?:Card [Ss]eries|Card [Mm]odel|Marketing Name|Device Name)\s*:\s*(.+?)\s*$"
)
_GGML_DEVICE = re.compile(r"^\s*Device\s+(\d+):\s*([^,\n]+)(?:,\s*(gfx[0-9a-f]+))?", re.I)
_GGML_VULKAN = re.compile(r"^\s*ggml_\w+:\s*(\d+)\s*=\s*(.+?)\s*(?:\s\(|\|)")
#: ggml's backend registry line (`ggml-backend-reg.cpp`, `register_device`: "%s: registered device %s (%s)",
#: the device's name then its description): a backend device (`SYCL0`, `CUDA0`) names the card it drives, and
#: the `CPU` device names the processor.
_GGML_REGISTER = re.compile(r"\bregistered device\s+(\S+)\s+\((.+)\)\s*$")
_GGML_FOUND = re.compile(r"found\s+(\d+)\s+(?:CUDA|ROCm|HIP|SYCL|Vulkan|Metal)\s+devices?", re.I)
#: A power limit set by the vendors' tools, in watts (nvidia-smi `-pl, --power-limit`; rocm-smi
#: `--setpoweroverdrive WATTS`, `--setpowerlimit`; amd-smi `set --power-cap`): the limit the GPUs ran under.
_SMI_LIMIT = re.compile(
    r"\b(?:nvidia-smi|rocm-smi|amd-smi)\b.*?(?:(?<![\w-])-pl|--power-limit|--setpoweroverdrive|--setpowerlimit|--power-cap)"
    r"(?:[ =]+([^\s;&|`'\"]+))?"
)
#: How a model is split over several GPUs, as the tools set it: accelerate's `device_map="auto"` (or
#: `balanced`, `sequential`: whole layers on each GPU, run one GPU at a time), llama.cpp's `-sm, --split-mode
#: {none,layer,row,tensor}` (llama-bench's JSON `split_mode`) and ik_llama.cpp's `graph`: `layer` runs the GPUs
#: in turn; `row`, `tensor` (docs/multi-gpu.md: tensor parallelism, weights and KV cache split) and `graph`
#: (ik_llama.cpp's tensor parallelism) split each layer over them; `none` keeps the model on one GPU. A list
#: (llama-bench's `-sm tensor,layer`) runs each mode in turn: it states no one split.
_DEVICE_MAP = re.compile(r"\bdevice_map\b[\"']?\s*[=:]?\s*[\"']?(auto|balanced(?:_low_0)?|sequential)\b")
_SPLIT_MODE = re.compile(
    r"(?:--split[-_]mode|(?<![\w-])-sm|\bsplit_mode[\"']?\s*:)[ =]*[\"']?(none|layer|row|tensor|graph)\b(?!,)"
)
#: The split each names: "tensor" (the GPUs work together: their peaks add), "in turn" (one at a time:
#: one GPU's peaks), "none" (one GPU).
SPLITS = {"row": "tensor", "tensor": "tensor", "graph": "tensor", "layer": "in turn", "none": "none"}
_LSCPU = re.compile(r"^\s*Model name:\s*(.+?)\s*$")
#: neofetch, fastfetch and screenfetch print the system's facts as `Key: value` lines to the right of an
#: ASCII logo (`    kMMMMMMMMMMMMMMMMMMMMMMd     CPU: Apple M1 Max`): the logo's characters, a run of
#: spaces, then the pair, read as the pair it is (its CPU and GPU keys only).
_FETCH = re.compile(r"^.*?\S\s{3,}((?:CPU|GPU)\s*:\s*\S.*?)\s*$")
#: /proc/cpuinfo's CPU key, as the kernel prints it (`seq_printf(m, "model name\t: %s\n", ...)`): the
#: processor, never the model being benchmarked (a paste may turn the tab into spaces; lscpu's is `Model name:`).
_CPUINFO = re.compile(r"^\s*model name\s+:\s*(.+?)\s*$")
_COUNTED = re.compile(
    r"\b([1-9]\d{0,2})\s*[x×*]\s*((?:NVIDIA|AMD|Intel)?[\s_-]*[A-Za-z][\w-]*(?:[ _-][\w-]+){0,3})", re.I
)
#: A count alone in words of counting (`GPUs: 16 total (8 per rank)`, `8 in total`, `16 (8 per node)`): how many,
#: under a device key, not a part's name; the first number is the count of the run's devices.
_COUNT_ONLY = re.compile(
    r"([1-9]\d{0,3})\s*(?:total|in\s+total|in\s+all|overall)?\s*"
    r"(?:[(,;:-]\s*[1-9]\d{0,3}\s*(?:per|/|each\s+per|on\s+each)\s*(?:rank|node|host|server|machine|worker|pod)s?\s*\)?)?",
    re.I,
)
_PER_PART = re.compile(r"[1-9]\d{0,3}\s*(?:per|/)\s*(?:rank|node|host|server|machine|worker|pod)s?", re.I)
#: A memory size alone (`GPU: ~50GB`, memory per process): no part's name.
_MEMORY_ONLY = re.compile(r"[~≈<>]?\s*\d+(?:\.\d+)?\s*[GMT]i?B", re.I)
#: A measured quantity, a number and its unit, bracketed or not (`0.000041 (kWh)`, `250 W`, `12.5 %`): what a
#: device used or read (optimum-benchmark's `+ gpu: 0.000041 (kWh)`), not a device's name.
_QUANTITY_ONLY = re.compile(r"-?\d[\d,]*(?:\.\d+)?(?:e[-+]?\d+)?\s*\(?\s*(?:k?Wh|[kMG]?J|k?W|%|s|ms)\s*\)?", re.I)
#: Counts offered or ranged (`8x and 16x gpus`, `8x to 16x ...`): no one count is the run's.
_OFFERED = re.compile(r"(?:and|or|to)\s+\d", re.I)
#: A comparison after a count (`8x to 16x faster`, `2x more`): the count is a factor, not parts.
_FACTOR = re.compile(
    r"\b(?:faster|slower|more|less|fewer|higher|lower|better|worse|larger|smaller|speed-?ups?)\b", re.I
)
#: A count right before a counted part (`2 * ` of `2 * 8 * h800`, `2x ` of `2x 8x H100`): so many of them.
_OUTER_COUNT = re.compile(r"\b([1-9]\d{0,2})\s*[x×*]\s*$", re.I)
#: A multiplication `x` glued to the name must follow a part's code (`H100x8`, `A100-80GBx4`): after a lower-case
#: letter it is a letter of a word (`qwen38-27b-q8_0-ctx2`, a run label's context variant), not a count.
_COUNT_AFTER = re.compile(r"\b([A-Za-z][\w-]*\d[\w-]*)(?:\s*[×*]\s*|\s+x\s*|(?<![a-z])x\s*)([1-9]\d{0,2})\b")
#: A part's code as a count precedes it (`8x H100`, `8× MI35x`: AMD's series name ends in a lower-case `x`).
_COUNTED_CODE = r"[A-Z]{1,3}\d{2,4}(?:x|[A-Z]{0,2})"
#: A count joined to a part's code by a multiplication sign (`4×H800`, `8x H100`, `2x MI300X`), the
#: way hardware is written: read in any line (`5x faster` names no part: the code needs a digit).
#: A code may end in a lower-case `x`: a part written loosely (`8x AMD MI300x`) or AMD's name for a series
#: of parts (`8× MI35x`, the MI350X and MI355X): a device named either way, which the hardware table places
#: or lacks. The sign may be typed as an asterisk (`tested on 8 * MI300x`), as keyboards lack `×`.
_PART_COUNTED = re.compile(r"(?<![\w.])([1-9]\d{0,2})\s?[x×*]\s?((?:NVIDIA |AMD )?" + _COUNTED_CODE + r")(?![\w-])")
#: A part's code as hardware is named (`H100`, `MI300X`, `B200`): capitals then two to four digits. A cloud
#: instance type (`p5.48xlarge`, `a3-highgpu-8g`) is written in lower case and names no part by itself.
_PART_CODE = re.compile(r"\b[A-Z]{1,3}\d{2,4}[A-Z]{0,2}\b")
#: A part's code and the variant words that may follow it (`H100 SXM5`, `A100-SXM4-80GB`, `H100 80GB HBM3`): the
#: end of a part's name; a word after them (`MI300X AssertionError`, `H100 GPUs`) is the sentence's.
_PART_VARIANT = re.compile(rf"{_PART_CODE.pattern}(?:[ -](?:SXM\d?|PCIe|NVL|HBM\d[eE]?|\d{{2,3}}\s?GB))*")
#: `8 GPUs`; not `2 GPU nodes` (a count of nodes) nor `8 GPUs each` / `8 GPUs per node` (a count of one node's),
#: nor the second of two counts offered (`8 or 16 gpus`, `4 to 8 GPUs`, `8x and 16x gpus`: no one count is the run's).
#: An accelerator is also counted by the device type PyTorch gives it (`2x HPUs`: Intel Gaudi's `hpu`, Ascend's
#: `npu`, Intel GPUs' `xpu`): a count of devices that names no product.
_N_GPUS = re.compile(
    r"(?<!\bor )(?<!\bto )(?<!\band )\b(\d{1,4})\s*(?:x\s*)?(?:GPUs|GPU|[HNX]PUs|[HNX]PU|cards|accelerators)\b"
    r"(?!\s+(?:nodes?|servers?|hosts?|machines?|each)\b|\s+per\s+(?:node|server|host|machine)\b)",
    re.I,
)
#: A parallel degree in capitals (`TP4`, `DP=2`), or glued to its size in lower case (`with tp8`, `ep8`), or set
#: in lower case with a spaced `=` (`on NVIDIA B200, tp = 2`: the assignment a launch writes `tp=2`, which
#: `_ENV` reads unspaced): `pp` alone in lower case is llama-bench's prompt test (`pp512`), so a lower-case PP is
#: read only glued to another degree.
_SHORT_PAR = re.compile(r"(?<![\w-])(?:(TP|PP|DP|EP)\s*[=:]?\s*|((?i:tp|dp|ep))(?:\s+=\s*|\s*=\s+)?)(\d{1,4})(?![\w.])")
#: Parallel degrees written glued into one word (`DP8TP4EP32`, `TP4PP2`, `dcp8tp16`), or joined by `+`
#: (`dcp8+tp8`): each its own size. A DCP (decode context parallel, SGLang's and vLLM's `--dcp-size`) splits the KV
#: cache over the TP group's own ranks, so it names no size of its own here and adds no device.
_GLUED_PAR = re.compile(r"(?<![\w-])(?i:DCP|TP|PP|DP|EP)\d{1,4}(?:\+?(?i:DCP|TP|PP|DP|EP)\d{1,4})+(?![\w.])")
_GLUED_PART = re.compile(r"(?<![A-Za-z])((?i:TP|PP|DP|EP))(\d{1,4})")
#: A log line's prefix naming the process that wrote it: SGLang's bracket with its time (`[%(asctime)s TP0]`,
#: `[... DP1 TP3]`: `configure_logger(prefix=f" TP{tp_rank}")`) and vLLM's worker in parentheses with its pid
#: (`(VllmWorker TP2 pid=1298912)`, `(Worker_DP0_TP5_EP5 pid=919)`: `decorate_logs(process_name)`, the name
#: built of `_TP{tp_rank}`): its `TP<n>` is that process's rank, never a parallel size.
#: A progress bar (tqdm's `desc: 42%|████▏     | 5/12 [00:01<00:02, 3.1it/s]`, vLLM's and SGLang's
#: `Loading ... shards: 100% Completed | 2/2 [00:01<00:00, ...]`): its description names the step it counts
#: (`Capturing batches (bs=1 avail_mem=...)`: the CUDA-graph capture of batch size 1), no setting of the run.
_PROGRESS = re.compile(r"\b\d{1,3}%(?:\s*Completed\s*)?\|.*?\b\d+/\d+\s*\[\d")
_LOG_PREFIX = re.compile(r"^\s*(?:\[[^\]]*\b\d{1,2}:\d{2}(?::\d{2})?[^\]]*\]|\([^()]*\bpid=\d+\))")
_POWER = re.compile(r"(-?\d+(?:\.\d+)?)\s*(kW|mW|W|watts?)\b(?!h)", re.I)
_ENERGY = re.compile(r"(-?\d+(?:\.\d+)?)\s*(kWh|Wh|MJ|kJ|J|joules?)\b", re.I)
#: An energy per request, response or token (`Energy/req (J)`, `Energy per token: 0.35 J/token`): a ratio,
#: not the energy an interval used, so no energy reading.
_PER_UNIT = re.compile(
    r"(?:/|\bper\b|_per_)\s*(?:1k\s*)?(?:req(?:uest)?s?|responses?|tok(?:en)?s?|quer(?:y|ies)|samples?|prompts?)\b",
    re.I,
)
_DATE = re.compile(r"\b((?:19|20)\d\d-[01]\d-[0-3]\d(?:[T ][0-2]\d:[0-5]\d(?::[0-5]\d)?)?)")
_BACKEND_ID = re.compile(
    r"(?:CUDA|ROCm|HIP|Vulkan|Metal|MTL|SYCL|CPU|BLAS|OpenCL)\d*(?:[,/](?:CUDA|ROCm|HIP|Vulkan|Metal|MTL|SYCL|CPU|BLAS|OpenCL)\d*)*",
    re.I,
)
_MODEL_FILE = re.compile(r"(?<![\w/.-])([\w.-]+\.(?:gguf|safetensors))\b")
#: A Markdown link to a GGUF file (`[IQ4_XS model from Unsloth](https://huggingface.co/.../Hunyuan-A13B-Instruct-IQ4_XS.gguf)`):
#: the weights the sentence names, by the file's name, as a bare file name names them.
_LINKED_FILE = re.compile(r"\]\((?:[^)\s]*/)?([\w.-]+\.gguf)(?:\?[^)\s]*)?\)")
#: The weights a llama.cpp server loads: `llama-server -m PATH/NAME.gguf` (its `-m, --model FNAME`), named by the
#: file's base name.
_SERVER_FILE = re.compile(r"(?<![\w-])(?:-m|--model)[ =]+[\"']?(?:[^\s\"']*/)?([\w.-]+\.gguf)\b")
_BOLD_KEY = re.compile(r"\*\*([^*:]{1,40}):\*\*")
#: A parallel degree written as words: "a tensor parallel degree of 8", "a data parallel of 3" (replicas).
_PAR_WORDS = re.compile(
    r"(tensor|pipeline|data|expert)[- ]parallel(?:ism)?\s*(?:\((?:TP|PP|DP|EP)\))?\s*(?:size|degree)?\s*[-:=]?\s*"
    r"(?:of\s+)?(\d{1,3})\b",
    re.I,
)
#: TGI's tensor-parallel degree is its shard count (the launcher's `--num-shard`; it logs "Sharding model on N
#: processes"), written in prose as `shards =4 on 4 A10G` or `num shards: 2`; a weights file's shards (`Loading
#: checkpoint shards: 2/2`), TensorRT-LLM's `Number of Tensor Parallel Shards` (its own key, read as such) and a
#: progress percentage (`shards: 50%`) are not one.
_SHARD_COUNT = re.compile(
    r"(?<![\w-])(?<!checkpoint )(?<!parallel )(?:num[ _-]?)?shards?\s*[=:]\s*(\d{1,2})\b(?![\d.]*\s*[%/])", re.I
)
#: A machine's CPU sockets as words: `dual-socket`, `2-socket`, `2 sockets`, `two CPU sockets`.
_SOCKET_WORDS = re.compile(
    r"\b(\d{1,2}|one|single|two|dual|four|quad|eight)[- ]?(?:cpu[- ]?|processor[- ]?)?sockets?\b(?![-_]\w)", re.I
)
_SOCKET_NUMBERS = {"one": 1, "single": 1, "two": 2, "dual": 2, "four": 4, "quad": 4, "eight": 8}
#: A disaggregated serving layout as vLLM's, SGLang's and Dynamo's write-ups name it: `1P1D`, `3P1D`
#: (x prefill instances, y decode instances; each its own TP x PP x DP devices).
_XPYD = re.compile(r"(?<![A-Za-z0-9_.])(\d{1,2})\s?P\s?(\d{1,2})\s?D(?![A-Za-z0-9_])", re.I)
#: The words that count devices in the plural or singular (`GPUs`, `8 accelerators`, `2x HPUs`).
_COUNT_NOUN = r"(?:GPUs?|accelerators?|cards?|[HNX]PUs?)"
#: A sentence giving each machine of a kind its devices (`Each MI355X platform comes with 8 MI355X GPUs`, `each node
#: has 8 GPUs`, `each server is equipped with 4 H100 accelerators`): a run on one such machine spans that many (the
#: count of one machine's, as `_N_GPUS` leaves `8 GPUs per node`), of the device the sentence names where it names one.
_EACH_HAS = re.compile(
    r"\beach\s+(?:[^\s.,;:]+\s+){1,4}?(?:comes?\s+with|has|have|is\s+equipped\s+with|ships?\s+with|contains|houses)"
    r"\s+([1-9]\d{0,2})\s+((?:[\w-]+\s+){0,3}?)" + _COUNT_NOUN + r"\b",
    re.I,
)
#: A line that runs a shell script: the script's path (`~/scripts/perftest.sh`, `./run.sh`) or its name first on the
#: line (`perftest.sh 1024`, `bash bench.sh`); a sentence that speaks of one (`Run the perftest.sh command`) runs none.
_SCRIPT_RUN = re.compile(r"(?:^\s*(?:\$\s+)?(?:(?:bash|sh)\s+)?|[\s=]\S*/)([\w.-]+\.sh)(?![\w.-])")
#: A sentence giving a script's defaults (`The perftest.sh script runs with the following defaults:`,
#: `Defaults of bench.sh:`): the settings of its paragraph are that script's, not every run's.
_SCRIPT_DEFAULTS = re.compile(r"([\w.-]+\.sh)\b[^.]*\bdefaults?\b|\bdefaults?\b[^.]*?\b([\w.-]+\.sh)\b", re.I)
#: A Markdown link, `[words](address)`: its words are the sentence's.
_MD_LINK = re.compile(r"\[([^\]]*)\]\([^)\s]*\)")
#: Markdown's strong-emphasis marks (`Based on **NVIDIA A30 + Llama-3.1-8B**`): markup around words, never
#: part of a name, so a part a sentence says a run ran on is read through them.
_MD_STRONG = re.compile(r"\*\*|__")
#: Replicas of one server behind a load balancer, counted in words (`8 instances of vLLM`, `8 replicas of
#: llama 3 8b`): the benchmark's requests spread over all of them, so a run spans every replica's devices.
#: A disaggregated layout in words (`one prefill server on node-1, one decode server on node-2`, `2x prefill, 3x decode
#: instances`: the noun said once, for both): x prefill and y decode servers, as `1P1D` writes them, on one line.
_PD_SERVERS = re.compile(
    r"\b(one|two|three|four|\d{1,2})(?:\s+|\s?[x×]\s+)prefill(?:\s+(?:servers?|instances?|nodes?|workers?))?\b.{0,80}?"
    r"\b(one|two|three|four|\d{1,2})(?:\s+|\s?[x×]\s+)decode\s+(?:servers?|instances?|nodes?|workers?)\b",
    re.I,
)
_PD_COUNT = {"one": "1", "two": "2", "three": "3", "four": "4"}
#: Machines counted in prose (`5x servers`, `2 nodes`, `5x AMD MI300X servers`, `2 GPU nodes`): the count is of
#: machines, never of devices, whatever part the words between name; a count whose noun is singular (`an 8x B200
#: node`) counts the devices of one machine.
_MACHINES = re.compile(
    r"(?<![\w.])([1-9]\d{0,2})\s?[x×*]?\s?((?:(?:NVIDIA|AMD|Intel)\s+)?(?:" + _COUNTED_CODE + r"\s+)?"
    r"(?:GPU\s+)?)(?i:servers?|nodes?|hosts?|machines?)\b(?![-_])"
)
_NUMA = re.compile(r"\bnuma\b|^\s*available:\s*\d+\s+nodes\b", re.I)
#: A count of each machine's devices (`each equipped with 8x AMD MI300X GPUs`, `8 GPUs each`, `8 H100 per node`).
_PER_MACHINE = re.compile(
    rf"\beach\b[^.;()]{{0,40}}?(?<![\w.])([1-9]\d{{0,2}})\s?[x×*]?\s?(?:[\w-]+\s+){{0,3}}?{_COUNT_NOUN}\b"
    rf"|(?<![\w.])([1-9]\d{{0,2}})\s?[x×*]?\s?(?:[\w-]+\s+){{0,3}}?{_COUNT_NOUN}\s+(?:each|per\s+(?:node|server|host|machine))\b",
    re.I,
)
#: Devices counted as a whole (`40 GPUs in total`, `a total of 16 H100 GPUs`): every machine's.
_TOTAL_DEVICES = re.compile(
    r"(?<![\w.])([1-9]\d{0,3})\s?[x×*]?\s?(?:[\w-]+\s+){0,3}?" + _COUNT_NOUN + r"\s+(?:in\s+)?total\b"
    r"|\btotal\s+(?:of\s+)?([1-9]\d{0,3})\s?[x×*]?\s?(?:[\w-]+\s+){0,3}?" + _COUNT_NOUN + r"\b",
    re.I,
)
_REPLICAS = re.compile(r"(?<![\w.])(\d{1,3})\s+(?:instances|replicas)\s+of\b", re.I)
#: Model-server pods counted in words (`4 vLLM pods running the ... model`, `8 model server pods`): in a Kubernetes
#: deployment (llm-d's, inference-perf's) each pod is one replica of the server behind the router, so a run's
#: requests spread over all of them, each with its own devices (`each with 4 H100 GPUs`, TP 4).
_PODS = re.compile(r"(?<![\w.])(\d{1,3})\s+(?:(?:vLLM|SGLang|TGI|model[- ]server|serving|inference)\s+)?pods\b", re.I)
#: A configuration that runs prefill and decode in one instance, named beside disaggregated ones
#: ("collocated baseline", Dynamo's "aggregated"; `\b` keeps "disaggregated" out).
_ONE_INSTANCE = re.compile(
    r"\bcol?located\b|\baggregated\s+(?:baseline|serving|deployment|mode|setup|config\w*)\b", re.I
)  # "aggregated" alone also sums metrics ("Aggregated across all pods"): only beside a serving noun
_MD_ROW = re.compile(r"^\s*\|(.*)\|\s*$")
_QUOTED_ROW = re.compile(r"[\"']\s*,\s*[\"']")
#: A count sign between a count and a name (`1 x NVIDIA ...`), as CodeCarbon writes a part it counts.
_COUNT_SIGN = re.compile(r" x (?=\S)")


def joined_parts(field: str) -> list[tuple[int, str]]:
    """(count, name) of each part a field counts with nothing between the parts, as CodeCarbon writes
    its `gpu_model` (`"".join(f"{i} x {name}" for name, i in Counter(gpu_names).items())`,
    emissions_tracker.py): `1 x NVIDIA GeForce RTX 40601 x NVIDIA GeForce RTX 3080 Ti` is one RTX 4060
    and one RTX 3080 Ti. A part's count is the shortest run of the digits before its ` x ` that does not
    start with 0 (a name ends in its model number; a count of one model is small). [] where the field
    counts fewer than two parts, or a part would have no name (`2 x 8 x H100` counts servers of eight)."""
    text = field.strip()
    first = re.match(r"([1-9]\d{0,2}) x (?=\S)", text)
    if not first:
        return []
    parts, count, start = [], int(first.group(1)), first.end()
    for sign in _COUNT_SIGN.finditer(text, first.end()):
        digits = re.search(r"\d+$", text[start : sign.start()])
        if not digits:
            continue
        run = digits.group(0)
        cut = next((k for k in range(len(run) - 1, -1, -1) if run[k] != "0"), None)
        name = text[start : sign.start() - (len(run) - cut)].strip() if cut is not None else ""
        if cut is None or not re.search(r"[A-Za-z]", name):
            return []
        parts.append((count, name))
        count, start = int(run[cut:]), sign.end()
    name = text[start:].strip()
    if not parts or not re.search(r"[A-Za-z]", name):
        return []
    return [*parts, (count, name)]


#: A model's size as a write-up states it, in billions: its total (`295B parameters`, `671B total`,
#: 参数规模为 295B, 总参数 295B) and its active parameters (`37B activated`, `21B active parameters`,
#: 激活参数为 21B). Read in prose and headings; which model it sizes is the reader's to check (the line
#: names it).
_B = r"(\d+(?:\.\d+)?)\s?B\b"
_TOTAL_PARAMS = re.compile(
    rf"{_B}[\s-]*(?:total\b|(?:total\s+)?param(?:eter)?s?\b)|(?:参数规模|总参数量?|参数量)\s*(?:为|是|[:：])?\s*{_B}",
    re.I,
)
_ACTIVE_PARAMS = re.compile(rf"{_B}[\s-]*(?:activ(?:e|ated)\b)|激活参数量?\s*(?:为|是|[:：])?\s*{_B}", re.I)
#: A GPU named by its product line (`RTX 5060 Ti 16GB`, `RTX4090D 24G`, `RTX-4080`, `Radeon RX 7900 XTX`, `Arc Pro
#: B70`): read in a heading, a labelled line or a table row, and in prose only on a line that speaks of
#: a device (a `GPU` or `显卡` word: a sentence without one may name another run's card).
_PRODUCT = re.compile(
    r"\b(?:(?:NVIDIA|AMD|Intel)\s+)?(?:GeForce\s+)?(?:RTX|GTX|Quadro|Titan|Radeon(?:\s+(?:RX|Pro|AI\s+Pro))?|Arc(?:\s+Pro)?)"
    r"(?:\s*|-)[A-Z]{0,2}\d{2,4}[A-Z]{0,3}(?:\s+(?:Ti|SUPER|Super|XTX|XT|GRE|Ada|Laptop))*(?:\s+\d{1,3}\s*GB)?\b"
    # a Google TPU by its generation, as Google Cloud names them: `TPU v5e`, `TPU v6e`, `TPU7x` (Ironwood)
    r"|\bTPU\s?v?\d{1,2}[a-z]{0,2}\b"
    # a Huawei Atlas card or server as Huawei names them: `Atlas 300I Duo`, `Atlas 800I A2`
    r"|\bAtlas\s?\d{3}[A-Z]?(?:\s(?:Duo|DUO|Pro|A2|A3))?\b"
    # a Huawei Ascend NPU by its chip, as Huawei names them: `Ascend 910`, `Ascend 910B4`, `Ascend 950PR`; not
    # the first of a list of chips (`Ascend 950DT and 950PR`: which one ran, the list does not say)
    r"|\bAscend\s?\d{3}[A-Z]{0,2}\d?\b(?!\s*(?:and|or|&|/|,)\s*\d{3})"
)
#: A part named as where a run ran (`Run ... on H100:`, `benchmarked on an MI300X`, `using 8 x A100`, `I used
#: one A30 card`... the count is `_PART_COUNTED`'s): `on`, `using` or `used` and a part's code (letters, then two to four digits),
#: with its form factor or memory where written (`on H100 SXM5`, `on A100 80GB`). Read in prose and
#: headings; a precision (`on FP16`) or a compute capability (`on SM90`) is no part. Whether the
#: hardware table knows the part is the analysis layer's to say.
_ON_PART = re.compile(
    r"\b(?:on|using|used)\s+(?:an?\s+|one\s+|a\s+single\s+|the\s+)?(?!(?:FP|BF|TF|INT|UINT|SM)\d)"
    r"((?:NVIDIA\s+|AMD\s+)?[A-Z]{1,3}\d{2,4}[A-Z]{0,2}"
    r"(?:[ -](?:SXM\d?|PCIe|NVL|HBM3e?|\d{2,3}\s?GB))*)(?![\w-])"
)
#: A title naming the part its work is for (`optimized configs for Qwen3 omni for MI308X`, `Tuned for H200`): in a
#: heading, the device the numbers under it ran on, as `on` names it; one part alone (`for H100 and H200` names none).
_FOR_PART = re.compile(
    r"\bfor\s+(?:the\s+)?(?!(?:FP|BF|TF|INT|UINT|SM|PR)\d)((?:NVIDIA\s+|AMD\s+)?[A-Z]{1,3}\d{2,4}[A-Z]{0,2})(?![\w-])(?!\s*(?:and|or|&|/|,|vs)\b)"
)
#: A file path (`/workspace/datasets/nvidia/Llama-3.1-8B-Instruct-FP8/128_128_30000.jsonl`, `/models/X`):
#: two or more components joined by `/`, not part of a URL.
_PATH = re.compile(r"(?<![\w:/.-])((?:~|\.{1,2})?/?(?:[\w.+-]+/)+[\w.+-]+)/?")
#: Folders whose entries are models' weights: the folder under one names the served model.
_MODELS_DIRS = {"models", "model", "checkpoints", "weights", "llm_model", "llm_models", "hf_models", "hub"}
#: Folders a tool writes its own outputs to, named after the run (GenAI-Perf's `artifacts/<model>-<service>-...`,
#: `results/<model>_<date>`): never an organisation whose name pair is a model id.
_OUTPUT_DIRS = {"results", "result", "artifacts", "outputs", "output", "logs", "log", "runs", "data", "datasets", "tmp"}
#: A parameter count as a model's name writes it (`8B`, `0.6B`, `30B-A3B`, `70b`): one `-` or `.` part of the
#: name (`run_8B` is a folder of runs).
#: A system's folder as NVIDIA's MLPerf Inference harness names it, `<system>_<accelerator>x<count>[_<software>]`
#: (`DGX-H100_H100-SXM-80GBx8_TRT`, the results and logs folder of each run: NVIDIA's `code/common/systems`):
#: the accelerator and how many the run spans.
_SYSTEM_ID = re.compile(r"[A-Za-z0-9][\w-]*?_(?P<device>[A-Za-z][A-Za-z0-9-]*?)x(?P<count>\d{1,3})(?:_[A-Za-z][\w-]*)?")
_NAME_SIZE = re.compile(r"(?:^|[-.])\d+(?:\.\d+)?[BbMm](?:$|[-.])")
#: A mixture of experts' active count as its name's one size (`Hunyuan-A13B`): a model named by a size all the same.
_ACTIVE_SIZE = re.compile(r"(?:^|[-.])A\d+(?:\.\d+)?B(?:$|[-.])")
#: A parameter count written BLOOM's way, its tenth after the unit (`-7b1`, `-1b7`: 7.1 and 1.7 billion).
_TENTH_SIZE = re.compile(r"(?:^|[-.])\d+[Bb]\d(?:$|[-.])")
#: A file name (the last component, with an extension): a data set or a log, never a model's folder.
_FILE_NAME = re.compile(r"\.(?:jsonl?|csv|txt|log|ya?ml|py|sh|md|parquet|arrow|pkl|bin|gguf|safetensors)$", re.I)
#: A product (`_PRODUCT`) named as where a run ran: `on an Arc B70`, `using an RTX 4090`.
#: A heading that is a GPU's part code and nothing else (`### A100`, `## MI250`, `### H100 80GB`):
#: the device the section under it ran on. Precisions (`FP16`), compute capabilities (`SM80`), parallel
#: sizes (`## TP16`, `EP8`) and a percentile's heading (`### P99`) are no part.
_HEADING_PART = re.compile(
    r"^(?!(?:FP|BF|TF|INT|UINT|SM|TP|PP|DP|EP)\d)(?!P\d{2}(?:\.\d+)?$)(?:NVIDIA\s+|AMD\s+)?"
    + _PART_CODE.pattern
    + r"(?:[ -](?:SXM\d?|PCIe|NVL|HBM3e?|\d{2,3}\s?GB))*$"
)
#: A CPU product as people name it (`Intel i3-1315U`, `Intel Core i7-12700K`, `Core Ultra 5 125H`,
#: `AMD Ryzen 7 7840U`, `Ryzen-5975WX`, `EPYC 9654`, `Xeon Gold 6338`): in a heading, the CPU the section ran on.
_CPU_PRODUCT = re.compile(
    r"\b(?:(?:Intel\s+)?(?:Core\s+)?i[3579]-\d{4,5}[A-Z]{0,2}|(?:Intel\s+)?Core\s+Ultra\s+\d\s+\d{3}[A-Z]{0,2}"
    r"|(?:AMD\s+)?Ryzen(?:\s+|-)(?:AI\s+)?(?:Threadripper\s+)?(?:PRO\s+)?(?:\d\s+(?:HX\s+)?)?\d{3,4}[A-Z0-9]{0,3}"
    r"|(?:AMD\s+)?(?i:epyc)\s+\d{4}[A-Z]?"
    r"|(?:Intel\s+)?(?i:xeon)\s+(?:(?:Platinum|Gold|Silver|Bronze|w\d-)\s*)?(?:E[357]-)?[A-Z]?\d{4,5}[A-Z]{0,2}(?:\s+v\d)?)\b"
)
#: A single-board computer as its maker names it (`Radxa Dragon Q8B`, `Raspberry Pi 5`, `Orange Pi 5 Plus`,
#: `Jetson Orin Nano`): in a heading, the machine the section ran on, the device of a run on its CPU and the
#: host of a card it drives (`# Benchmark AMD RX 9070 XT on Raspberry Pi 5`): a `machine`, never a device.
_BOARD = re.compile(
    r"\b(?:Raspberry\s+Pi|Radxa|Orange\s+Pi|Banana\s+Pi|ODROID|Khadas|LattePanda|Pine64|BeagleBone|Turing\s+Pi"
    r"|(?:NVIDIA\s+)?Jetson)(?:[ -](?!(?:on|with|and|vs|running|using)\b)[A-Za-z0-9][\w+]*){0,3}"
)
#: A part written in lower case where a run ran (`ran on b200 again`, `tested on h100`): only the code
#: forms of GPU parts (NVIDIA's A/B/H/L/V and GB/GH, AMD's MI, then two to four digits), so that
#: `on x86`, `on arm64` or an instance type (`on p5`) name none.
_ON_PART_LOWER = re.compile(
    r"\b(?:on|using|used)\s+(?:an?\s+|one\s+|the\s+)?((?:mi|gb|gh|[abhlv])\d{2,4}[a-z]{0,2})(?![\w-])"
)
#: A count of parts joined by their interconnect, as a write-up says where a run ran (`on a 4 NVLink connected
#: H100-sxm-80GB`, `8 NVLink-connected A100s`, `2 PCIe connected L40S`): that many of the part. The part's
#: variant words may be written in lower case (`-sxm-80GB`, `pcie`), as prose often does.
_LINKED_PART = re.compile(
    r"(?<![\w.])([1-9]\d{0,2})\s+(?:x\s+)?(?:NVLink|NVLINK|NVL|PCIe|PCIE|xGMI|Infinity Fabric)[- ]?"
    r"(?:connected|linked|bridged)\s+((?:NVIDIA\s+|AMD\s+)?[A-Z]{1,3}\d{2,4}[A-Z]{0,2}"
    r"(?:[ -](?i:SXM\d?|PCIe|NVL|HBM3e?|\d{2,3}\s?GB))*)s?(?![\w-])"
)
_ON_PRODUCT = re.compile(r"\b(?:on|using|used)\s+(?:an?\s+|one\s+|a\s+single\s+|the\s+)?(" + _PRODUCT.pattern + ")")
#: A YAML key that opens a mapping (`accelerator:`, `- metadata:  # a comment`), its indent taken at the key.
#: A JSON object's opening line (`"machine": {`, one key a line as `json.dump(indent=...)` writes) opens one too.
_YAML_OPEN = re.compile(r'^(\s*(?:-\s+)?)"?([A-Za-z][\w-]*)"?\s*:\s*(?:\{\s*)?(?:#.*)?$')
#: A key's meaning inside a mapping the key alone does not give: a report's `accelerator: {model: ...,
#: count: ...}` (llm-d's benchmark report: the accelerator's model is the device) and `model: {name: ...}`.
#: TensorRT-LLM's extra LLM-API options (`--extra_llm_api_options FILE.yml`) nest `dtype` in `kv_cache_config:`,
#: the `KvCacheConfig.dtype` of tensorrt_llm/llmapi/llm_args.py ("The data type to use for the KV cache"):
#: the KV cache's dtype, never the weights'. A mapping's own key is looked up as written where KEYS lacks it.
NESTED: dict[str, dict[str, str]] = {
    "device": {**dict.fromkeys(("model", "name", "type", "product"), "device"), "count": "device_count"},
    "model": dict.fromkeys(("name", "id", "path", "model_id"), "model"),
    "kv_cache_config": {"dtype": "kv_dtype"},
    # trtllm-bench's `--report_json` `machine` object (reporting.py, from nvidia-smi: `name`, `memory.total`,
    # `clocks.mem`), its MACHINE DETAILS section: its `name` is the GPU's
    "machine": {"name": "device"},
}
#: Ollama's obench.sh: `echo "Running benchmark $count times using model: $model"` names the model
#: (one Ollama name, no spaces); what follows it on the line (an author's `(30.3W)`) is not the model.
_USING_MODEL = re.compile(r"\busing model$", re.I)
#: A line that opens or closes a fenced code block (CommonMark: three or more backticks or tildes).
_FENCE = re.compile(r"^\s{0,3}(?:`{3,}|~{3,})")
#: A bold line alone (`**qwen3-32B**`, `**Llama-3.1-8B:**`): a write-up's caption of the section under it.
_BOLD_LINE = re.compile(r"^\s*\*\*([^*]+)\*\*\s*[:：]?\s*$")
#: A model's name as a caption writes it (`amd/Llama-3.3-70B-Instruct-FP8-KV`, `qwen3-0.6B`): a name of
#: `-`/`.` parts, under an organisation or not, one part of which is a parameter count (`_NAME_SIZE`). Hugging
#: Face names are ASCII: a CJK word glued to one (`Qwen3-VL-8B-Instruct模型测试结果如下`) is no part of it.
#: Each part after a hyphen ends in a letter or digit: a full stop after the name ends the sentence, not the name.
_CAPTION_MODEL = re.compile(r"(?<![\w/.~-])((?:[A-Za-z][\w.-]*/)?[A-Za-z][\w.]*(?:-[\w.]*\w)+)(?![\w/-])", re.ASCII)
#: A quantization scheme written after a model's name in prose (`Llama-3-8B-Instruct W4A8KV4`,
#: `Qwen3.5-397B-GPTQ-Int4`, `Qwen 32B GPTQ 8 bit`: a GPTQ's width kept with it): the name carries a size (`8B`) and the scheme a width (QServe's `W4A8KV4`:
#: 4-bit weights, 8-bit activations, 4-bit KV), so the line states the weights' precision.
_MODEL_QUANT = re.compile(
    r"(?<![\w/.-])[A-Za-z][\w.]*(?:-[\w.]+)*?-\d+(?:\.\d+)?[BMbm](?:-[A-Za-z][\w.]*?)*?[-_ ]"
    r"(W\d+A(?:\d+|FP8)(?:KV\d+)?|NVFP4|MXFP4|FP8|AWQ|GPTQ(?:[-_ ](?:Int[2348]|[2348][-_ ]?bits?))?|Int[48])(?![\w-])"
)
#: A sentence that says which quantization the run used (`evaluated on the MI355X platform using FP4
#: quantization`, `quantized to FP8`): the weights' precision, whatever the model's name says.
_QUANT_PHRASE = re.compile(
    r"(?i)\b(?:using|with|in)\s+(NVFP4|MXFP4|W\d+A\d+|FP[48]|INT[48])\s+quantization\b"
    r"|\bquantized\s+(?:to|in|as)\s+(NVFP4|MXFP4|W\d+A\d+|FP[48]|INT[48])\b"
)
#: A checkpoint's own precision in words (`run ... with vLLM and native BF16 precision`, `Native FP8 weights`):
#: the dtype the weights were released in, which a guide states once for the models it serves.
_NATIVE_PRECISION = re.compile(r"(?i)\bnative\s+(BF16|BFloat16|FP16|FP8|NVFP4|MXFP4)\b")
#: The precisions a line may name beside a native one: a line naming another (`native BF16 → post-quantised
#: FP8`, `native FP8 or FP4`) sets two side by side, a conversion or a choice, and states neither of a run.
_PRECISION_WORD = re.compile(r"(?i)(?<![\w-])(BF16|BFloat16|FP16|Float16|FP8|FP4|NVFP4|MXFP4|INT8|INT4|FP32)(?![\w-])")
_SAME_PRECISION = {"bfloat16": "bf16", "float16": "fp16"}


def _native_precision(text: str) -> str | None:
    """The precision a line calls the weights' native one (`_NATIVE_PRECISION`), where it names no other."""
    m = _NATIVE_PRECISION.search(text)
    if not m:
        return None
    key = lambda w: _SAME_PRECISION.get(w.lower(), w.lower())  # noqa: E731
    named = {key(w) for w in _PRECISION_WORD.findall(text)}
    return m.group(1) if named <= {key(m.group(1))} else None


#: A model's name with its size (`Qwen3-32B`, `Llama-3.1-8B-Instruct`): one of the models a line names.
_SIZED_NAME = re.compile(r"(?<![\w/.-])[A-Za-z][\w.]*(?:-[\w.]+)*?-\d+(?:\.\d+)?[BMbm](?![\w.])")


#: A dtype written as an item of its own (`, fp16.`, `(bf16)`, `; FP8;`): on a line naming one model, the
#: shorthand of a run's setup (`Max throughput for llama3.1 8B ISL/OSL=128/128, fp16. H100.`) gives its weights.
_DTYPES = r"(bf16|bfloat16|fp16|float16|fp8|fp32|float32|int8|int4)"
_DTYPE_ITEM = re.compile(rf"(?:^|[,;(]|\.\s)\s*{_DTYPES}\s*(?=[,;.)]|$)", re.I)
_DTYPE_WORD = re.compile(rf"\b{_DTYPES}\b", re.I)
#: Words that give a dtype to something other than the weights: the KV cache, activations, an accumulator,
#: attention or the compute.
_OTHER_DTYPE = re.compile(r"\b(?:kv|cache|activations?|accum\w*|attention|compute|lora|scales?)\b", re.I)


def _read_dtype_item(r: _Reader, text: str, i: int, source: str, line: str) -> None:
    """The weights' precision a line's dtype item states (`_DTYPE_ITEM`), where the line names one model (read
    on it), compares nothing, gives no other precision and speaks of no other thing a dtype could be of."""
    if not any(f.name == "model" and f.line == i for f in r.facts) or any(
        f.name == "precision" and f.line == i for f in r.facts
    ):
        return
    items = {m.group(1).lower() for m in _DTYPE_ITEM.finditer(text)}
    written = {w.lower() for w in _DTYPE_WORD.findall(text)}  # `fp16, bf16 and fp8 runs`: runs of several
    if len(items) == 1 and written == items and not compares(text) and not _OTHER_DTYPE.search(text):
        r.add("precision", _DTYPE_ITEM.search(text).group(1), i, source, line)


def _compared_model(text: str, tagged) -> bool:
    """Whether a line that sets things beside each other (`compares`: `A vs B`, `compared with`) names
    another model than the one a quantization tag is read off (`tagged`, a `_MODEL_QUANT` match): the
    tag is then that model's checkpoint, one of the compared, not the run's weights."""
    others = [o.group(0) for o in _SIZED_NAME.finditer(text) if o.end() <= tagged.start() or o.start() >= tagged.end()]
    return compares(text) and any(not _same_model(o, tagged.group(0)) for o in others)


#: The quantization scheme `_MODEL_QUANT` reads after a model's name, written after a name in words too.
_SCHEME_AFTER = r"[-_ ](W\d+A(?:\d+|FP8)(?:KV\d+)?|NVFP4|MXFP4|FP8|FP4|AWQ|GPTQ(?:[-_ ](?:Int[2348]|[2348][-_ ]?bits?))?|Int[48])(?![\w-])"
#: A dtype written right after a model named in words, its version between them or not, behind a comma
#: (`Qwen 7B 2.5，bf16`, `Llama 70B, fp16`): the sentence gives the model's weights that dtype.
_DTYPE_AFTER = r"(?:\s+v?\d+(?:\.\d+)?)?\s*[,，]\s*(bf16|fp16|fp32|bfloat16|float16|float32|fp8|int8|int4)\b"
#: A llama.cpp quantization type written right after a model, named by its id or in words, a space between
#: (`llama 8b q4_0`, `Llama-3.1-8B Q4_K_M`, `qwen2 7B IQ4_XS`): ggml's own names of its weight types (`Q4_0`,
#: `Q4_K_M`, `IQ4_XS`, llama.cpp's `ggml_type_name` and the quantize tool's `Q4_K_M` presets), which no other
#: word spells, so the sentence gives that model's weights the type. A type behind a comma is a list's next item.
_GGUF_NAME = r"I?Q[1-8]_(?:[01]|K(?:_(?:S|M|L|XL))?|XXS|XS|S|M|NL)"
_GGUF_AFTER = rf"(?:\s+v?\d+(?:\.\d+)?)?[ \t]+({_GGUF_NAME})(?![\w.-])"
#: A llama.cpp weight type anywhere in a line, inside a name too (`qwen38-27b-q8_0-opt`, `x-Q4_K_M.gguf`).
_GGUF_TYPE = re.compile(rf"(?<![A-Za-z0-9])({_GGUF_NAME})(?![A-Za-z0-9])", re.I)
#: Words that make a `key=value` key name another part of the run than its own model, batch or devices
#: (`draft_model=`, `max_batch_size=`, `prefill_tp=`): such a key is read only when spelled out in `KEYS`.
_QUALIFIERS = {"draft", "spec", "speculative", "ref", "reference", "reward", "judge", "teacher", "embedding"}
_QUALIFIERS |= {"max", "min", "prefill", "decode", "target", "vision", "default", "eval"}
#: A count of threads for a phase (llama.cpp's `n_threads_batch`, `-tb, --threads-batch`: "number of threads to
#: use during batch and prompt processing", printed by `system_info: n_threads = 16 (n_threads_batch = 16)`):
#: the key counts threads, not sequences in a batch.
_QUALIFIERS |= {"threads", "thread"}
#: A dataset's own options in `vllm bench serve`'s Namespace (`random_batch_size=1`: "Batch size for random
#: sampling. Only used for embeddings benchmark", `sonnet_input_len`): the dataset generator's, not the run's.
_QUALIFIERS |= {"random", "sonnet", "sharegpt", "hf", "custom", "burstgpt", "blazedit"}
#: A figure summed over the host's GPUs or CPUs (CodeCarbon's `Energy consumed for all GPUs`, `Total GPU
#: Power`, 1.x's `All GPUs Power`; `all CPUs`, `Total CPU Power`): the sum over those devices, neither one
#: device's nor the whole node's.
_SCOPE_WORDS = (
    ("idle", r"\bidle\b"),
    # InferenceX's keys (`avg_total_gpu_power_w`, `total_gpu_energy_j`) spell the words with underscores
    # SGLang / vLLM `--record-power`'s banners: `GPU Power (all devices)`, `CPU Power (all sockets)`
    ("all GPUs", r"\ball\s+gpus\b|(?<![a-z])total[\s_]+gpu[\s_]+(power|energy)(?![a-z])|\bgpu\b.*\ball\s+devices\b"),
    ("all CPUs", r"\ball\s+cpus\b|\btotal\s+cpu\s+(power|energy)\b|\bcpu\b.*\ball\s+sockets\b"),
    ("per GPU", r"(per[- ]gpu|each gpu|/gpu|\bper card\b|\bgpu\s*\d*\s*(power|energy)|nvidia-smi|rocm-smi)"),
    ("wall", r"(\bwall\b|outlet|at the plug|kill[- ]a[- ]watt|\bmeter\b|\bpsu\b|smart plug)"),
    ("whole node", r"(\bnode\b|\bsystem\b|\bserver\b|\bwhole\b|\bmachine\b|\btotal\b|\bpackage\b)"),
)
#: A build as tools name one: one identifier (a commit, a build number, a version, a tag), with llama.cpp's
#: build number in brackets after its commit (`build: 87e767e5c (9644)`), never a sentence.
_BUILD_ID = re.compile(r"[\w.+~-]+(?:\s+\(\w+\))?")
#: A processor at a power in a sentence (`both the CPU at 1.9W and the GPU at 2.4W`, `the GPU is at 100% and
#: 3.2W`): a reading with no `power` word, the processor it is of named before it on the line.
_AT_WATTS = re.compile(r"\b(?:CPU|GPU|SoC|NPU)\b[^.;:]{0,25}?\bat\b[^.;:]{0,15}?\b\d+(?:\.\d+)?\s?m?W\b")
_LIMIT = re.compile(r"\b(limit|cap|capped|-pl\b|power[-_ ]limit|tdp)\b", re.I)


#: A wattage a line works out from bare numbers (`So power = 180 * 0.5 = 90W`: a TDP times CodeCarbon's
#: constant, mlco2/codecarbon issue 184): what a formula gives, not a reading of the run.
_WORKED_WATTS = re.compile(r"\b\d+(?:\.\d+)?\s*[*×]\s*\d+(?:\.\d+)?\s*=\s*\d+(?:\.\d+)?\s*k?W\b")


def _offers_wattages(text: str) -> bool:
    """A sentence naming two different wattages that no processor ties apart (`power limiting the P40s
    in my main rig to around 70W ... now they're >200W during these tests`) gives no one reading of
    the run: a before and after, a limit and a draw. Only `CPU at 1.9W and the GPU at 2.4W` names whose
    each one is."""
    watts = {float(v) * {"kw": 1000.0, "mw": 0.001}.get(u.lower(), 1.0) for v, u in _POWER.findall(text)}
    return len(watts) > 1 and not _AT_WATTS.search(text)


#: A stated conversion of the weights, `A → B` or `A -> quant-B`: the run used B (a quantization step's prefix
#: dropped).
_CONVERTED = re.compile(r"(?:→|->)\s*(?:quant(?:ized)?[-_ ]?)?([A-Za-z][\w.]*)\s*$", re.I)
#: Keys that count devices in the plural (`GPUs`): a whole number under one is how many, not a name.
_PLURAL_DEVICES = {"gpus", "devices", "accelerators"}


def _keyed_pairs(key: str, value: str) -> list[tuple[str, str]]:
    """(fact, value) of a key-value row: one, or one per part where the key joins names with `/` and the
    value as many values (`GPUs / TP | 8 / 8`); a whole number under a plural device key is the device count."""
    keys, values = key.split("/"), value.split("/")
    pairs = zip(keys, values, strict=True) if len(keys) == len(values) > 1 else [(key, value)]
    out = []
    for k, v in pairs:
        name = KEYS.get(_norm(k))
        if name == "device" and _norm(k) in _PLURAL_DEVICES and v.strip().isdigit():
            name = "device_count"
        if name:
            out.append((name, v.strip()))
    return out


_SPACED_PAIR = re.compile(r"([A-Za-z][\w-]{0,20})\s+(\S.*)")


def _comma_pairs(value: str) -> tuple[str, list[tuple[str, str]]]:
    """A labelled value that goes on as a comma list of `key value` items (`vllm version: 0.4.3, gpu A40, 46Gi,
    single gpu`): the first item is the label's value, and each later item whose first word is a fact's key
    (`KEYS`: `gpu`) states that fact; (value, [(fact, value)]). A list with no such item is one value, as written."""
    first, *items = re.split(r",\s+", value)
    more = [
        (KEYS[_norm(m.group(1))], m.group(2))
        for x in items
        if (m := _SPACED_PAIR.fullmatch(x.strip()))
        if _norm(m.group(1)) in KEYS
    ]
    return (first, more) if more else (value, [])


def _key(key: str) -> str | None:
    """The fact a `key=value` key states: a `KEYS` name, else its last `_` parts when they are one
    and no part before them qualifies it (`sbnb_genai_perf_model` states the model, `draft_model`
    and `max_batch_size` do not)."""
    norm = _norm(key)
    if norm in KEYS:
        return KEYS[norm]
    parts = norm.split("_")
    for k in range(1, len(parts)):
        if "_".join(parts[k:]) in KEYS:
            return None if _QUALIFIERS & set(parts[:k]) else KEYS["_".join(parts[k:])]
    return None


def _value(raw: str) -> str:
    """A `key=value` value as meant: a closing bracket of the text around it and a file's extension
    (vLLM's MoE config file `...,dtype=int4_w4a16.json`) dropped."""
    raw = re.sub(r"\.(?:json|ya?ml|log|txt|csv)$", "", raw)
    while raw.endswith(")") and raw.count(")") > raw.count("("):
        raw = raw[:-1]
    return raw


def _scope_under(line: str, banner: str, name: str = "power") -> str:
    """A reading's scope: its line's, or, where the line names none but a `total` (SGLang's `P25 Total Power
    (total W)`), the scope the banner printed above it names (`---GPU Power (all devices)---`: the total
    is over all GPUs, not the whole node's)."""
    own = _scope(line, name)
    if not banner or own not in ("whole node", "scope not stated"):
        return own
    if re.search(r"(?i)\bper[- ]\w", line):  # one device's or socket's share (`per-socket W`), not the banner's sum
        return own
    if _scope(re.sub(r"(?i)\btotal\b", "", line)) != "scope not stated":  # the line names its own scope
        return own
    return b if (b := _scope(banner, name)) != "scope not stated" else own


def _scope(line: str, name: str = "power") -> str:
    """The scope a power or energy line names. An energy is always summed over its interval, so its
    `Total` (inference-energy's `M1 Total energy:`, the NVML energy of the one GPU it logs) names
    no scope; a power's `Total` is summed over devices (SGLang's `Total Power`)."""
    low = re.sub(r"\btotal\b", "", line.lower()) if name == "energy" else line.lower()
    for scope, pat in _SCOPE_WORDS:
        if re.search(pat, low):
            return scope
    return "scope not stated"


def _as_int(v: str) -> int | None:
    """A whole number as a value writes it, a bracketed note after it aside (`64 (effective tensor axis 8)`)."""
    v = re.sub(r"\s+\([^()]*\)$", "", str(v).strip()).strip().strip("`'\",")
    return int(v) if re.fullmatch(r"\d{1,6}", v) else None


def _as_float(v: str) -> float | None:
    v = str(v).strip().strip("`'\",")
    try:
        return float(v)
    except ValueError:
        return None


def _clean(v: str) -> str:
    return str(v).strip().strip("*`'\"").strip().rstrip(",").strip()


#: The facts whose value is a name (a model, a device, a precision): a switch's True or False names none.
_NAMES = {"model", "device", "precision"}


class _Reader:
    """Collects facts and signs as lines are read; one per file."""

    def __init__(self) -> None:
        self.facts: list[Fact] = []
        self.signs: list[Sign] = []
        self._seen: set[tuple] = set()
        self.command: int | None = None  # the first line of the command being read
        self.banner = (
            ""  # the title of the last banner a tool printed (`---GPU Power (all devices)---`), "" after a bare rule
        )
        self.tool: str = ""  # the program that command runs (`genai-perf`, `vllm serve`)
        self.smi_rows: dict[int, int] = {}  # GPU index -> line, of nvidia-smi / rocm-smi / neuron-ls listings
        self.neuron_ls = False  # inside a `neuron-ls` device table
        self.parents: list[tuple[int, str]] = []  # (indent, key) of the YAML mappings the line sits in
        self.prose: list[tuple[int, str]] = []  # (line, value) of model values that were prose, not identifiers
        self.downloads: dict[str, str] = {}  # a download's `--local-dir`, as `_local` writes it -> the id it fetched
        self.npu: tuple[int, str] | None = None  # (line, text) of the first `--device npu` (`_NPU_DEVICE`)
        self.loadgen = False  # the lines hold an MLPerf LoadGen log (`_LOADGEN_LOG`)

    def nest(self, line: str) -> None:
        """Track the YAML mappings `line` sits in: a key with no value (`accelerator:`) opens one;
        a line indented no deeper than an open key closes it."""
        m = _YAML_OPEN.match(line)
        indent = len(m.group(1)) if m else len(line) - len(line.lstrip(" -"))
        while self.parents and self.parents[-1][0] >= indent:
            self.parents.pop()
        if m:
            self.parents.append((indent, _norm(m.group(2))))

    def add(self, name, value, line, source, text, unit=None, scope=None) -> bool:
        if value is None or (isinstance(value, str) and not value.strip()):
            return False
        if name in _INTS:
            value = _as_int(value) if not isinstance(value, int) else value
            if value is None:
                return False
        if name == "model" and isinstance(value, str) and (head := _CODE_HEAD.fullmatch(value)):
            value = head.group(1)  # `nvidia/Kimi-K2.5-NVFP4` (591 GB, 119 safetensors), BF16-KV
        if name == "model" and not placeholder(value) and not _MODEL_ID.fullmatch(str(value)):
            self.prose.append((line, str(value)))
            return False
        if name == "model" and isinstance(value, str):
            value = _without_note(value)
        if name == "model" and _local(str(value)) in self.downloads:
            value = self.downloads[_local(str(value))]  # the folder a download wrote: the weights it fetched
        key = (name, value, line, source)
        if key not in self._seen:
            self._seen.add(key)
            command = self.command if source == "command" else None
            self.facts.append(Fact(name, value, line, source, text.strip()[:200], unit, scope, command))
        return True

    def named(self, value: str, line: int, source: str, text: str) -> None:
        """A model a heading or prose names, as written (words included: `llama 3.3 70b`)."""
        key = ("model", value, line, source)
        if key not in self._seen:
            self._seen.add(key)
            self.facts.append(Fact("model", value, line, source, text.strip()[:200]))

    # --- one fact from a key and its value, whatever the source
    def keyed(self, name: str, raw, line: int, source: str, text: str) -> bool:
        raw = _clean(re.split(r"\s+#\s", raw)[0]) if isinstance(raw, str) else raw  # a `# comment` after it
        # `auto` is a setting's default elsewhere, but `--served-model-name auto` is a name: vLLM's and SGLang's
        # served name takes no special value, so clients send `auto` for the model
        blank = ("auto",) if name != "served_name" else ()
        if raw in (None, "", "null", "None", "none", "N/A", "n/a", "-", "unknown", *blank) or str(raw).startswith(
            ("{", "[")
        ):
            return False
        if name in _NAMES and str(raw).lower() in ("true", "false"):  # a switch (`use_dummy_weights=False`)
            return False
        if name in ("power", "energy"):
            return self.reading(name, str(raw), line, source, text, key_unit=text)
        if name == "power_limit":
            m = _POWER.search(str(raw))
            v = _as_float(m.group(1)) if m else _as_float(raw)
            return self.add(name, v, line, source, text, unit=(m.group(2) if m else None))
        if name == "rate":
            v = _as_float(raw)
            if v is None and str(raw).strip().lower() in ("inf", "infinity"):
                v = float("inf")
            v = v if v is not None and v > 0 else None  # a negative or zero rate stands for "none set"
            return self.add(name, v, line, source, text, unit="req/s")
        if name in ("device", "cpu") and (
            isinstance(raw, (int, float))
            or _as_float(raw) is not None
            or _MEMORY_ONLY.fullmatch(str(raw).strip())
            or _QUANTITY_ONLY.fullmatch(str(raw).strip())
        ):
            # a number under a device key (optimum-benchmark's energy per device, bare or with its unit), or a memory
            # size (`CPU: ~10GB`, what a process takes) names none
            return False
        if name == "device":
            return self.device(str(raw), line, source, text)
        if name == "precision" and (m := _CONVERTED.search(str(raw))):
            raw = m.group(1)  # `bfloat16 → quant-FP8`: the checkpoint's dtype, converted to what the run used
        if name == "date":
            m = _DATE.search(str(raw))
            return self.add(name, m.group(1) if m else None, line, source, text)
        if name == "version" and not _VERSION_ID.search(str(raw)):
            return False
        if name == "build" and not _BUILD_ID.fullmatch(str(raw)):
            return False  # a log line after `# build:` (`ggml_cuda_init: found 4 ROCm devices ...`) names no build
        if name in _INTS:
            return self.add(name, raw if isinstance(raw, int) else _as_int(str(raw)), line, source, text)
        return self.add(name, str(raw), line, source, text)

    def reading(self, name: str, raw: str, line: int, source: str, text: str, key_unit: str = "") -> bool:
        """A power or energy reading with its unit (from the value or its key, e.g. `power_w`)
        and its scope (from the line's words); a bare number whose unit nothing states is a sign."""
        if name == "energy" and _PER_UNIT.search(key_unit or text):
            self.signs.append(Sign(name, line, text.strip()[:200]))  # energy is stated, as a ratio: no absence
            return False
        if name == "power" and _WORKED_WATTS.search(text):  # a formula's result, not the run's reading
            self.signs.append(Sign(name, line, text.strip()[:200]))
            return False
        pat = _POWER if name == "power" else _ENERGY
        m = pat.search(raw)
        if m:
            value, unit = float(m.group(1)), m.group(2)
        else:
            value = _as_float(raw)
            km = re.search(r"(?:_|\b|\()(w|kw|j|kj|wh|kwh)\)?\s*[\":]*\s*$", key_unit.split(":")[0].lower())
            unit = km.group(1).replace("w", "W").replace("j", "J").replace("kW", "kW") if km else None
            if value is None or unit is None:
                self.signs.append(Sign(name, line, text.strip()[:200]))
                return False
        low = text.lower()
        if name == "power" and _LIMIT.search(low) and "consum" not in low:
            return self.add("power_limit", value, line, source, text, unit=unit)
        return self.add(name, value, line, source, text, unit=unit, scope=_scope_under(text, self.banner, name))

    def device(self, raw: str, line: int, source: str, text: str) -> bool:
        """A device label: its name as written, with a count when it gives one (`4 x H100`,
        `H100 x 8`, `8 GPUs`)."""
        raw = _clean(raw)
        if _BACKEND_ID.fullmatch(raw):
            return False  # a backend's device id (llama-bench's `ROCm0`), not a name
        m = _COUNTED.search(raw)
        if m:
            self.add("device_count", int(m.group(1)), line, source, text)
            return self.add("device", _clean(m.group(2)), line, source, text)
        m = _COUNT_AFTER.search(raw)
        if m:
            self.add("device_count", int(m.group(2)), line, source, text)
            return self.add("device", _clean(m.group(1)), line, source, text)
        m = _TPU_CHIPS.search(raw)
        if m:  # a Cloud TPU slice by its type (`TPU v6e-64 (16 nodes × 4 chips)`): v5e's and v6e's count chips
            self.add("device_count", int(m.group(1)), line, source, text)
        m = _N_GPUS.search(raw)
        if m and m.group(1) in _card_numbers(str(config.DATA_DIR / "hardware.csv")):
            m = None  # `3090 GPU`: the card's model number, not a count (`_gpus_counted`)
        if m:
            self.add("device_count", int(m.group(1)), line, source, text)
            if not raw.replace(m.group(0), "").strip(" ,;()-"):
                return True  # `8 GPUs`: a count, no name
        if re.fullmatch(r"\d+", raw):
            return self.add("device_count", int(raw), line, source, text)
        if m := _COUNT_ONLY.fullmatch(raw):  # `16 total (8 per rank)`: how many, no name
            return self.add("device_count", int(m.group(1)), line, source, text)
        if _PER_PART.fullmatch(raw):
            return False  # `8 per node`: a count per part of the run, neither a name nor the run's count
        if not re.search(r"[A-Za-z]", raw) or _MEMORY_ONLY.fullmatch(raw):
            return False  # `45%` or `~50GB` under a GPU label is a reading, not a name
        return self.add("device", raw, line, source, text)


def _size_sign(r: _Reader, lines: list[str], at: int, cols: list[str], first: int) -> None:
    """A tool's table that sizes its model in a `params` column (llama-bench's `34.66 B`): a sign of the
    model's size on its first row, whichever model and run the row is of (the page that sizes a run from
    elsewhere names this line rather than say the file gives no size)."""
    if "params" not in cols or at + 2 >= len(lines):
        return
    cells = [c.strip() for c in lines[at + 2].strip().strip("|").split("|")]
    if len(cells) == len(cols) and re.search(r"\d", size := cells[cols.index("params")]):
        words = f"{size} of {cells[cols.index('model')]}" if "model" in cols else size
        r.signs.append(Sign("params", at + 2 + first, lines[at + 2].strip()[:200], words=words))


def _md_table_columns(row: str) -> list[str]:
    return [_norm(c) for c in row.strip().strip("|").split("|")]


def _walk_json(obj, path: str = "") -> Iterable[tuple[str, object]]:
    if isinstance(obj, Mapping):
        for k, v in obj.items():
            yield from _walk_json(v, str(k))
            if not isinstance(v, (Mapping, list)):
                yield str(k), v
    elif isinstance(obj, list):
        for v in obj[:200]:
            yield from _walk_json(v, path)


#: Lines read at each end of a longer file: the facts around a tool's output sit in a write-up's head
#: and tail, and a data dump of millions of lines (a --save-detailed JSON) is not walked line by line.
EDGE = 5000


def read(lines: Sequence[str]) -> Context:
    """The run facts the lines of one file state, in precedence order (`SOURCES`), with the signs
    of facts no line gave a value for. `lines` is the file's lines (a `text.Lines` or a list of
    strings); of a file longer than 2 x `EDGE` lines, the first and last `EDGE` are read (line
    numbers stay the file's)."""
    n = len(lines)
    if n > 2 * EDGE:
        head = _read(lines[:EDGE], 1)
        tail = _read(lines[n - EDGE :], n - EDGE + 1)
        order = {s: k for k, s in enumerate(SOURCES)}
        kept, worded = _worded_last(_calls_last(head.facts + tail.facts))
        facts = sorted(kept, key=lambda f: (order[f.source], f.line))
        return Context(
            tuple(facts),
            head.signs + tail.signs + worded,
            scripts=head.scripts + tail.scripts,
            posts=head.posts + tail.posts,
            headings_at=head.headings_at + tail.headings_at,
            labels=head.labels + tail.labels,
        )
    return _read(list(lines), 1)


def _read(lines: list[str], first: int) -> Context:
    """`read` over `lines`, the first of them line `first` of the file."""
    r = _Reader()
    r.loadgen = any(_LOADGEN_LOG.search(x) for x in lines)
    table_cols: list[str] | None = None
    table_at = 0  # the facts read before the markdown table being read
    cpu_col: tuple[int, int] | None = None  # (fields, index) of a CSV header's CPU column (`_csv_cpu`)
    in_command = wrapped = harness = False
    defaults: str | None = None  # the script whose defaults the paragraph being read gives
    scripts = []
    for i, raw in enumerate(lines, start=first):
        line = raw.rstrip("\n")
        text = line.strip()
        if not text:
            _one_precision(r, table_at)
            table_cols, in_command, r.neuron_ls, defaults, cpu_col = None, False, False, None, None
            table_at = len(r.facts)
            continue
        if (run := _SCRIPT_RUN.search(line)) and not text.startswith("#"):
            scripts.append((i, run.group(1)))
        if _MD_ROW.match(line):  # a table's row is no line of a paragraph of defaults
            defaults = None
        elif m := _SCRIPT_DEFAULTS.search(line):
            defaults = m.group(1) or m.group(2)
        before, n_signs = len(r.facts), len(r.signs)
        harness = bool(_HARNESS.search(line)) or (harness and wrapped)
        # a command goes on past its line only where that line ends in a backslash or the next one
        # is a flag: an author's `Average power: 512 W` under a command is a line of its own
        in_command = in_command and (wrapped or text.startswith("-"))
        continued = in_command and not _COMMAND.search(line)
        r.nest(line)
        if m := _BANNER.match(line):
            r.banner = m.group(1) or ""
        if not continued:
            _read_line(r, line, i)
        # markdown tables whose header names a fact (llama-bench's gpu_info / cpu_info columns, a report's Dtype)
        row = _MD_ROW.match(line)
        # a header is a row over Markdown's separator row: a pasted table's first row without one (`| GPU | H100 |`
        # over `| CPU | Xeon |`) is a row of pairs, never a header whose cells name the columns below
        headed = i - first + 1 < len(lines) and bool(SEPARATOR_RE.match(lines[i - first + 1]))
        if row and table_cols is None and headed:
            _one_precision(r, table_at)
            cols = _md_table_columns(line)
            table_cols = cols if any(KEYS.get(c) in _TABLE_FACTS for c in cols) else []
            table_at = len(r.facts)
            _size_sign(r, lines, i - first, cols, first)
        elif row and table_cols:
            cells = [c.strip() for c in row.group(1).split("|")]
            if len(cells) == len(table_cols) and not all(set(c) <= set(":- ") for c in cells):
                for col, cell in zip(table_cols, cells, strict=True):
                    name = KEYS.get(col)
                    if name in _TABLE_FACTS:
                        r.keyed(name, cell, i, "env-dump", line)
        elif row and 2 <= len(cells := [c.strip() for c in row.group(1).split("|")]) <= 3:
            # a key | value (| note) table (a report's hardware table): each row below its header one label
            if not set(cells[1]) <= set(":- "):
                for name, value in _keyed_pairs(cells[0], cells[1]):
                    r.keyed(name, value, i, "key-value", line)
        elif not row:
            _one_precision(r, table_at)
            table_cols, table_at = None, len(r.facts)
        _failed_precision(r, line, before)
        cpu_col = _csv_cpu(r, line, i, cpu_col)
        # a command wrapped over several lines: its flags, on lines of their own, still count
        starts = bool(_COMMAND.search(line))
        if starts and not in_command:
            r.command, r.tool = i, _tool(_COMMAND.search(line))
        if starts or in_command:
            _read_flags(r, line, i)
        else:
            _read_prose_flags(r, line, i)
        in_command = starts or in_command
        wrapped = text.endswith("\\")
        _read_paths(r, line, i)
        kind = "command" if starts or in_command else "json" if _JSON_PAIR.search(line) else "prose"
        _read_image(r, line, i, kind)
        _read_journal(r, line, i)
        _read_engine_named(r, line, i, "heading" if _HEADING.match(line) else kind)
        for m in _TORCH.finditer(line):
            r.add("torch", m.group(1), i, "heading" if _HEADING.match(line) else kind, line)
        for m in _MLPERF_VISION.finditer(line):
            for word in m.group(1).split():
                if word in _MLPERF_VISION_MODELS:
                    r.add("model", word, i, "command", line)
        # a model named in a sentence leaves the line's other signs standing, and so does a heading's own
        # record (`## concurrency 64` speaks of a concurrency whether or not a value is read from it)
        if all((f.name == "model" and f.source in WORDED) or f.name in _BESIDE for f in r.facts[before:]):
            if not _NOTICE.search(line):  # a copyright notice speaks of the document's owner, not the run
                _sign(r, line, i)
        elif not any(f.name == "prompts" for f in r.facts[before:]):  # `in 1000 requests (request-rate 10)`
            _sign(r, line, i, _ALONGSIDE)  # a sentence that states a rate still speaks of the requests it sent
        if defaults:  # a paragraph giving a script's defaults (`KEY=value` lines): that script's runs' only
            r.facts[before:] = [replace(f, script=defaults) if f.source == "key-value" else f for f in r.facts[before:]]
        if harness:  # an accuracy harness's line: its own requests, no load of the benchmark
            r.facts[before:] = [f for f in r.facts[before:] if f.name not in _LOAD]
            r.signs[n_signs:] = [g for g in r.signs[n_signs:] if g.name not in _LOAD]
    _one_precision(r, table_at)
    if r.smi_rows:  # an nvidia-smi / rocm-smi listing counts its GPUs by their indices
        last = max(r.smi_rows.values())
        r.add("device_count", len(r.smi_rows), last, "env-dump", lines[last - first])
    _read_form_fields(r, lines, first)
    _read_devices_in_words(r, lines, first)
    _read_cpu_only(r, lines, first)
    _read_npu(r)
    _per_gpu_twins(r, lines)
    _per_replica(r)
    labels = _read_captions(r, lines, first)  # last: a caption's scope holds every fact read from its line
    posts = _read_posts(r, lines, first)
    if first == 1:
        _read_json_document(r, lines)
    order = {s: k for k, s in enumerate(SOURCES)}
    kept, worded = _worded_last(_calls_last(r.facts))
    facts = sorted(kept, key=lambda f: (order[f.source], f.line))
    read_lines = {(f.name, f.line) for f in facts}
    signs = tuple(dict.fromkeys(s for s in (*r.signs, *worded) if (s.name, s.line) not in read_lines))
    at = tuple(n + first - 1 for n in sections(lines))
    return Context(tuple(facts), signs, scripts=tuple(scripts), posts=posts, headings_at=at, labels=labels)


#: A CSV header's column naming the machine's CPU (CodeCarbon's `cpu_model`, written by its `EmissionsData`): a CPU
#: no energy tool's table keeps, so each row's cell is the CPU of that row's run.
_CSV_CPU = ("cpu_model", "cpu_info", "cpu_name")


def _csv_cpu(r: _Reader, line: str, i: int, col: tuple[int, int] | None) -> tuple[int, int] | None:
    """The CPU a CSV row gives under its header's CPU column (`_CSV_CPU`), read as a fact of its line; the
    column, (fields, index), for the rows below a header that has one, None after a line of other fields."""
    if "," not in line:
        return None
    cells = next(csv.reader([line]))
    if col is None or len(cells) != col[0]:
        names = [_norm(c) for c in cells]
        return next(((len(cells), k) for k, c in enumerate(names) if c in _CSV_CPU), None) if len(cells) > 2 else None
    r.keyed("cpu", cells[col[1]], i, "env-dump", line)
    return col


#: The facts a markdown table's column states for the run of each row, by its header (`KEYS`).
_TABLE_FACTS = ("device", "cpu", "tp", "device_count", "precision")


def _one_precision(r: _Reader, start: int) -> None:
    """The precisions a table's Dtype or Precision column gave (the facts from `start` on, read from its rows):
    where its rows give one precision, every run of the file has it; where they give several, each is one row's,
    which this reader ties to no run, so each row is a sign of the fact, not a value for every run."""
    # a row's text is kept to 200 characters, so a long row is known by its opening pipe, not by its closing one
    rows = [f for f in r.facts[start:] if f.name == "precision" and f.source == "env-dump" and f.text.startswith("|")]
    if len({str(f.value).lower() for f in rows}) > 1:
        r.facts[start:] = [f for f in r.facts[start:] if f not in rows]
        r.signs.extend(Sign("precision", f.line, f.text, words=str(f.value)) for f in rows)


#: A line that says a load or run failed (`fail: strict load rejects ...`, `ValueError`, `unsupported`): a
#: precision it names is one the run could not use, no fact of the run read; the line is a sign of it.
_FAILED = re.compile(r"\bfail(?:s|ed|ure)?\b|\b\w*Error\b|\berror\b|\bunsupported\b|\bnot supported\b", re.I)


def _failed_precision(r: _Reader, line: str, before: int) -> None:
    """The precisions read from `line` (the facts from `before` on) as signs where the line says it failed
    (`_FAILED`)."""
    if not _FAILED.search(line):
        return
    failed = [f for f in r.facts[before:] if f.name == "precision"]
    r.facts[before:] = [f for f in r.facts[before:] if f.name != "precision"]
    r.signs.extend(Sign("precision", f.line, f.text, words=str(f.value)) for f in failed)


#: A run said in words to use no GPU (`When using CPU only`, `CPU-only`, `with only CPUs`, `only on the CPU`); a
#: `CPU offload` or `CPU-only layers` keeps the model on a GPU.
_CPU_ONLY = re.compile(
    r"\bCPU[- ]only\b(?![- ](?:layers?|offload|tensors?|ops?|parts?)\b)|\bonly\s+(?:on\s+(?:the\s+)?)?CPUs?\b", re.I
)


_GPU_WORD = re.compile(r"\bGPUs?\b", re.I)


def _read_cpu_only(r: _Reader, lines: list[str], first: int) -> None:
    """The device of a run a file says in words ran on the CPU alone, where the file names no other device: the
    CPU (how many, only where a line says), at the first line saying so. A file naming a device, or speaking of
    GPUs anywhere (`Any NVIDIA GPU`, `the backend is still GPU`: a guide offering a CPU-only deployment beside
    GPU ones), names no CPU-only run."""
    if any(f.name in ("device", "machine") for f in r.facts):
        return
    if any(g.name in ("device", "device_count") and _GPU_WORD.search(g.text) for g in r.signs):
        return
    for i, raw in enumerate(lines, start=first):
        if _CPU_ONLY.search(raw) and not _COMMAND.search(raw):
            r.add("device", "CPU", i, "prose", raw)
            return


#: Facts a line gives beside the run's others, which leave that line's other signs standing: a heading's own
#: record, the machine's sockets, the runs, the model's split.
_BESIDE = {"heading", "sockets", "runs", "split"}
#: Signs kept on a line whatever other facts it gave: a sentence states one setting and speaks of another.
_ALONGSIDE = ("prompts",)


#: A model given as a keyword argument of a call in code (`llm = LLM(model="meta-llama/Llama-3.1-8B-Instruct",
#: max_num_batched_tokens=16384)`, `SamplingParams(...)` beside it): an identifier, its opening bracket, then the
#: argument, with no space before the bracket (a heading's `(batch_size=1)` or a sentence's bracket is no call).
_CALL_MODEL = re.compile(r"[A-Za-z_][\w.]*\((?:[^()]*,)?\s*(?:model|model_name|model_id|model_path)\s*=")


def _calls_last(facts: list[Fact]) -> list[Fact]:
    """`facts` without the models a code call's keyword argument names (`LLM(model=X)`, `_CALL_MODEL`) where
    the tool's command in the file names another model (`benchmark_throughput.py --model Y`): the command is
    what ran, and the call is code the text shows for another purpose (how to set an engine argument), so
    its model is no statement about the run. A file whose only model is in a call (a script of its own that
    ran it), whose command names the same model, or whose command leaves it to a variable (`--model ${model}`
    above GuideLLM's `Backend(type=..., model=X)` report line), keeps it."""
    commanded = {
        str(f.value).lower()
        for f in facts
        if f.name == "model" and f.source == "command" and not placeholder(f.value)  # `--model ${model}`: none
    }
    if not commanded:
        return list(facts)
    return [
        f
        for f in facts
        if not (
            f.name == "model"
            and f.source != "command"
            and _CALL_MODEL.search(f.text)
            and str(f.value).lower() not in commanded
        )
    ]


def _worded_last(facts: list[Fact]) -> tuple[list[Fact], tuple[Sign, ...]]:
    """(`facts` without the models a title or prose names (`WORDED`) where a command, a labelled line or a
    caption names one (a template's placeholder, `--model M`, names none): that names the run's model, and a
    sentence's (`Inspired by X`) is another's; those
    models kept as signs with their `words`, so that a run no command ties a model to still has the
    heading that may name its model, never an absence)."""
    if any(f.name == "model" and f.source not in WORDED and not placeholder(f.value) for f in facts):
        if _held_by_file(facts):  # `./qwen-3-Q4_K_XL.gguf` under `Qwen3-235B-A22B drafted by ...`
            return [f for f in facts if f.name != "model" or f.source in WORDED], ()
        worded = [f for f in facts if f.name == "model" and f.source in WORDED]
        kept = [f for f in facts if not (f.name == "model" and f.source in WORDED)]
        return kept, tuple(Sign("model", f.line, f.text, words=str(f.value)) for f in worded)
    return list(facts), ()


def _held_by_file(facts: list[Fact]) -> bool:
    """Whether every model a command or a label names is a weights file whose name gives no parameter count
    (`./qwen-3-Q4_K_XL.gguf`: a quantizer's name for Qwen3's weights, which size unsaid) and the title or
    headings name one sized model of that family and version (`Qwen3-235B-A22B`): the heading then says
    which model the file holds. A file named with a size (`llama-2-7b.Q4_0.gguf`), one of another release
    (`qwen-2.5-...` under a Qwen3 heading) or a heading naming several keeps the command's."""
    said = [f for f in facts if f.name == "model" and f.source not in WORDED]
    worded = list(dict.fromkeys(str(f.value) for f in facts if f.name == "model" and f.source in WORDED))
    if len(worded) != 1 or not (_NAME_SIZE.search(_last_part(worded[0])) or _ACTIVE_SIZE.search(worded[0])):
        return False
    release = _release(worded[0])
    return bool(release) and all(
        _MODEL_FILE.search(_last_part(f.value))
        and not _LISTED_SIZE.search(_last_part(f.value))
        and _release(f.value) == release
        for f in said
    )


def _release(name) -> str | None:
    """A model name's family and version as one word (`qwen3` of `Qwen3-235B-A22B` and of `qwen-3-Q4_K_XL.gguf`,
    `llama3.1` of `Llama-3.1-8B`), or None where its first word is no family with a version."""
    ws = _model_words(_last_part(name)).split()
    m = re.fullmatch(r"([a-z]{3,})(\d+(?:\.\d+)?)?", ws[0]) if ws else None
    if not m:
        return None
    if m.group(2):
        return ws[0]
    return f"{ws[0]}{ws[1]}" if len(ws) > 1 and re.fullmatch(r"\d+(?:\.\d+)?", ws[1]) else None


#: A setting printed as unset, the tools' own word for it (vLLM's `Maximum request concurrency: None`, SGLang's
#: `Max request concurrency: not set`): the line states the setting is off, so it is no sign of an unread value.
_UNSET = re.compile(r"[:=]\s*[\"']?(?:none|null|not set|unset)[\"']?\s*,?\s*$", re.I)
_SETTINGS = {"tp", "pp", "dp", "ep", "concurrency", "rate", "batch"}
#: A cap printed as unset inside a record (`"max_concurrency": null`, llm-d's `concurrency: .inf`): no cap.
_UNSET_CAP = re.compile(
    r"concurren(?:cy|t)\w*[\"']?\s*[:=]\s*[\"']?(?:none|null|not set|unset|\.?inf(?:inity)?)\b", re.I
)
#: A measured concurrency is no sign of a cap: one printed with decimals (SGLang's `Concurrency: 48.06`, vLLM's
#: `Peak concurrent requests: 100.00`, GenAI-Perf's `Effective Concurrency,32.92`; every tool takes its cap as
#: an integer, argparse `type=int`, and prints it so), or one a statistic names (`Peak concurrent requests: 3`).
_MEASURED_CONCURRENCY = re.compile(
    r"\bconcurren(?:cy|t)\b[\w ()/]*[\s:=,|]+\d+\.\d+"
    r"|\b(?:peak|mean|median|avg|average|effective|measured)\s+(?:request\s+)?concurren(?:cy|t)\b",
    re.I,
)

#: A line of a copyright or licence notice (`Copyright (c) 2025, NVIDIA CORPORATION`, `Neither the name of NVIDIA
#: CORPORATION nor ...`): it names who owns the text, so its words are no sign of the run's device or anything else.
_NOTICE = re.compile(
    r"\bcopyright\b|\(c\)\s*(?:19|20)\d\d|\bSPDX-License|\ball rights reserved\b|\bcorporation\b"
    r"|\bredistributions?\b|\bthis software is provided\b|\blicen[cs]ed under\b",
    re.I,
)
#: Requests per second measured, not sent: a throughput or goodput line (vLLM's `Request throughput (req/s):`)
#: is no sign of a request rate setting.
_MEASURED_RATE = re.compile(r"\b(?:throughput|goodput)\b", re.I)
#: A benchmark's rules for a model (`meets mlperf model requirements`, `the model constraints`: MLPerf's rules set
#: each model's latency constraint and quality target): the word names what a model must meet, never which model
#: ran, so it is no sign of the run's model; a model word elsewhere on the line still is.
_MODEL_RULES = re.compile(r"\bmodels?\s+(?:requirements?|rules?|constraints?)\b", re.I)


def _sign(r: _Reader, line: str, i: int, names=tuple(_SIGNS)) -> None:
    """Lines that gave no fact but mention one: kept as signs (at most one per fact and line); a setting
    the line prints as unset (`_UNSET`, `_UNSET_CAP`), a measured concurrency (`_MEASURED_CONCURRENCY`) and a
    measured rate (`_MEASURED_RATE`) are none, and so is a benchmark's rules for a model (`_MODEL_RULES`).
    `names`: the facts looked for (by default, all)."""
    for name in names:
        pat = _SIGNS[name]
        if not pat.search(line) or (name in _SETTINGS and _UNSET.search(line)):
            continue
        if name == "model" and not pat.search(_MODEL_RULES.sub(" ", line)):
            continue
        if name == "concurrency" and (_MEASURED_CONCURRENCY.search(line) or _UNSET_CAP.search(line)):
            continue
        if name == "rate" and _MEASURED_RATE.search(line):
            continue
        counts = [m for m in pat.finditer(line) if name != "prompts" or not _warmup(line, m.start())]
        if not counts:
            continue  # the warmup's requests are no sign of the prompts a run sent either
        words = counts[0].group(0) if name in _ALONGSIDE else None  # the count as written
        r.signs.append(Sign(name, i, line.strip()[:200], words))


def _tool(m: re.Match) -> str:
    """The program a `_COMMAND` match runs: the known CLI, else the Python program."""
    return m.group(1) or m.group(2)


#: A serving tool's flag written in a sentence without its dashes, right before its value (ROCm/vllm#375's
#: `(request-rate 10)`): the hyphenated name is the flag's, so the sentence states that setting.
_PROSE_FLAG = re.compile(r"(?<![\w-])(request-rate|max-concurrency|num-prompts)[ =:]+(\d+(?:\.\d+)?|inf)\b", re.I)


#: The prompts a run sent, counted in a sentence: `1000 prompts` (a prompt is sent, whatever the verb), or
#: requests after the words that say they were sent (`in 1000 requests`, `with 500 requests`, `sent 200
#: requests`); a count the sentence says completed, failed or per unit (`999 requests completed`, `10 requests
#: per second`) is an outcome or a rate, never the prompts sent.
_PROSE_PROMPTS = re.compile(
    r"(?:\b(\d[\d,]*)\s+prompts\b|\b(?:in|with|of|for|over|sending|sent|send|running)\s+(\d[\d,]*)\s+requests\b)"
    r"(?!\s*(?:per\b|/|a\s+second|(?:were\s+|have\s+|had\s+)?(?:completed|succeeded|successful|failed|finished)))",
    re.I,
)


#: A count of requests a sentence calls the warmup (`a warmup of 10 requests`): the tools send those before
#: the measurement and count none of them (AIPerf's and GenAI-Perf's `--warmup-request-count`, vLLM's
#: `--num-warmups`), so they are never the prompts a run sent.
_WARMUP = re.compile(r"\bwarm[-\s]?up\b", re.I)


def _warmup(line: str, start: int) -> bool:
    """Whether the count at `start` is the warmup's (`_WARMUP` in the 24 characters before it), or one the line
    computes (`_COMPUTED`)."""
    return bool(_WARMUP.search(line[max(0, start - 24) : start])) or bool(_COMPUTED.search(line[:start]))


#: A count a line computes: the result of an equation, `= N` after arithmetic on numbers (`S = G x P = 150 x 5 =
#: 750 requests`, a workload's sizing comment): a quantity worked out, no statement of the requests a run sent.
_COMPUTED = re.compile(r"\d\s*[x×*+/]\s*[\d,.]+\s*=\s*$")


_OFFERED_COUNT = re.compile(r"\d[\d,]*\s*(?:or|to|and|-|–)\s*$", re.I)


def _read_prose_flags(r: _Reader, line: str, i: int) -> None:
    for m in _PROSE_FLAG.finditer(line):
        name = FLAGS.get(_norm(m.group(1)))
        if name:
            r.keyed(name, m.group(2), i, "prose", line)
    found = [m for m in _PROSE_PROMPTS.finditer(line) if not _warmup(line, m.start())]
    counts = {int((m.group(1) or m.group(2)).replace(",", "")) for m in found}
    offered = any(_OFFERED_COUNT.search(line[: m.start(1) if m.group(1) else m.start(2)]) for m in found)
    if len(counts) == 1 and not offered:  # two counts (`100 or 1000 prompts`, `100 to 1000`) state neither
        r.keyed("prompts", counts.pop(), i, "prose", line)


def _local(path: str) -> str:
    """A local folder as one key however it is written (`./x/`, `x`, `"x"`)."""
    return re.sub(r"^(?:\./)+", "", _clean(path)).rstrip("/")


def _read_download(r: _Reader, line: str, i: int) -> None:
    """The model a download or pull command fetches (`_DOWNLOAD`), and the folder it lands in."""
    m = _DOWNLOAD.search(line)
    if not m or _NOT_MODEL_REPO.search(line) or placeholder(m.group(1) or m.group(2)):
        return
    model = _clean(m.group(1) or m.group(2))
    if _PLAIN_WORD.fullmatch(model) and not _LINE_PROGRAM.match(line):
        return  # `see the hf download docs`: a plain word after the verb in a sentence is the sentence's
    r.add("model", model, i, "command", line)
    d = _LOCAL_DIR.search(line)
    folder = d.group(1) if d else m.group(3)  # `--local-dir DIR`, or git clone's own DIR argument
    if folder and _local(folder) not in ("", "."):
        r.downloads[_local(folder)] = model


def _read_image(r: _Reader, line: str, i: int, source: str) -> None:
    """The engine and its version an image names (`_IMAGE`), on a command (a Dockerfile's `FROM`, a
    compose file's `image:` are commands too), in JSON or in prose."""
    for m in _IMAGE.finditer(line):
        repo, tag = m.group(1), m.group(2) or ""
        if repo == "nvidia/tritonserver":
            flavour = next((v for k, v in _TRITON_FLAVOURS.items() if f"-{k}-" in f"-{tag}-"), None)
            if "sdk" in tag.split("-") or not tag:
                continue  # the client tools' image, or no flavour: no engine named
            engine = flavour or "Triton"
            v = re.match(r"\d\d\.\d\d(?!\d)", tag)
            version = v.group(0) if v else None
        else:
            engine = next(e for k, e in _IMAGE_ENGINE.items() if repo.split("/")[1].startswith(k))
            v = _TAG_VERSION.search(tag)
            version = (v.group(1) or v.group(2)) if v else None
        source = "command" if re.match(r"\s*(?:FROM|image:)\s", line, re.I) else source
        r.add("engine", engine, i, source, line)
        r.add("version", version, i, source, line)


#: The PyTorch release a line names (`torch-2.4.0a0+gite6ee832` above an sdpa.py table, `torch==2.5.1`, `PyTorch 2.6`,
#: `torch version: 2.3.0+cu121`, as `torch.__version__` prints it): the framework an attention kernel's timings
#: ran on, or a serving engine's; never the engine's own version (`version`), nor the toolkit collect_env says built
#: it (`CUDA used to build PyTorch: 12.1`).
_TORCH = re.compile(
    r"(?<![\w.-])(?<!build\s)(?:py)?torch(?:\s*==\s*|-|\s+version\s*[:=]?\s*|\s*:\s*|\s+)v?"
    r"(\d+\.\d+(?:\.\d+)?(?:(?:a|b|rc)\d+)?(?:\.dev\d+)?(?:\+[\w.]+)?)(?![\w.]*\s*(?:[x×%]|times\b))",
    re.I,
)


#: llama.cpp's build line, `<function>: build = N (commit)` (its `print_build_info`, `"%s: build = %d (%s)"` with
#: `__func__`, LLAMA_BUILD_NUMBER, LLAMA_COMMIT), which every example and tool prints before loading.
_LLAMA_BUILD = re.compile(r"^\s*\w+: build = (\d+ \(\w+\))\s*$")


#: A syslog or journald line (`Aug  2 20:54:27 host ollama[420]: ...`, `journalctl`'s default short format, or its
#: ISO form): its identifier and process id name the program that wrote the message, so an engine's name there is
#: the engine whose log the line is (Ollama's embedded llama.cpp server prints its `print_timings` under `ollama[pid]`).
_JOURNAL = re.compile(
    r"^\s*(?:[A-Z][a-z]{2}\s+\d{1,2}\s+\d\d:\d\d:\d\d|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\S*)\s+\S+\s+([\w.-]+)\[\d+\]:"
)


def _read_journal(r: _Reader, line: str, i: int) -> None:
    """The engine a journal line's program is (`_JOURNAL`), where its identifier is an engine's name: once, at
    its first line (a journal repeats its prefix on every line)."""
    m = _JOURNAL.match(line)
    engine = _ENGINE_WORDS.get(m.group(1).lower()) if m else None
    if engine and not any(f.name == "engine" and f.value == engine and f.source == "env-dump" for f in r.facts):
        r.add("engine", engine, i, "env-dump", line)


#: A word that makes the engine's version after it a bound on versions, not one a run used: `After SGLang v0.5.2,
#: ... may return incorrect responses` (the releases after it, the run on one of them), `since vLLM 0.6.0`, `before
#: TGI 2.0`, `newer than vLLM 0.8`, `>= sglang 0.4`. The engine is still the one the sentence speaks of.
_VERSION_BOUND = re.compile(
    r"(?:\b(?:after|since|before|until|till|prior\s+to|(?:newer|older|later|earlier|higher|lower)\s+than"
    r"|starting\s+(?:from|with|at)|up\s+to)|[<>]=?)\s*$",
    re.I,
)


def _read_engine_named(r: _Reader, line: str, i: int, source: str) -> None:
    """The engine and its version a line names in words (`_ENGINE_VERSION`), else the engine a sentence
    runs on (`_ENGINE_RUN`). A version written as a bound (`_VERSION_BOUND`: `After SGLang v0.5.2`) is a sign
    of a version spoken of, never the run's."""
    found = []
    for m in _ENGINE_VERSION.finditer(line):
        version = m.group(2) or m.group(3)
        if version and _VERSION_BOUND.search(line[max(0, m.start() - 24) : m.start()]):
            r.signs.append(Sign("version", i, line.strip()[:200], words=m.group(0)))
            version = None
        found.append((m.group(1), version))
    if source != "command":  # a command's `--backend` is read with its flags
        found = found or [(m.group(1) or m.group(2), None) for m in _ENGINE_RUN.finditer(line)]
    if (
        source == "heading"
        and not found
        and not compares(line)
        and not _COMPARISON.search(line)
        and len(_HEADING.match(line).group(1)) > 1
    ):
        # a section's title naming one engine (`### 2. Enable Prefix Cache in MindIE`) names the engine of the runs
        # under it; one naming two (`## vLLM and SGLang`) says which of them ran none of its runs. A document's
        # own title (`# `: a copied issue's, `[Feature] performance alignment with vllm`) speaks of the thread.
        named = {_ENGINE_WORDS[m.group(1).lower()]: m.group(1) for m in _ENGINE_NAMED.finditer(line)}
        found = [(w, None) for w in named.values()] if len(named) == 1 else []
    several = len({n.lower() for n, _ in found}) > 1
    for name, version in found:
        engine = _ENGINE_WORDS[name.lower()]
        r.add("engine", engine, i, source, line)
        r.add("version", f"{version} ({engine})" if several and version else version, i, source, line)


#: `--device npu`: SGLang's server (its `--device`: cuda, xpu, hpu, npu or cpu) and vLLM Ascend's scripts put the run
#: on the device type `torch_npu` registers for Huawei's Ascend NPUs; which chip, the flag does not say.
_NPU_DEVICE = re.compile(r"(?<![\w-])--device[ =]+[\"']?npu(?![\w-])")


def _read_npu(r: _Reader) -> None:
    """An Ascend NPU, chip not named, as the device of a file whose command runs on `--device npu` (`_NPU_DEVICE`)
    where no line names an Ascend chip (`Ascend 910B4`: that chip is the device)."""
    if r.npu and not any(f.name == "device" and "ascend" in str(f.value).lower() for f in r.facts):
        r.add("device", "Ascend NPU", r.npu[0], "command", r.npu[1])


#: vLLM's `--cpu-offload-gb N`: N GB of the weights kept in CPU memory and moved to the GPU at every forward
#: pass (vLLM's engine arguments), so the host link, not a GPU roof, sets the step's pace.
_CPU_OFFLOAD = re.compile(r"--cpu[-_]offload[-_]gb[= ](\d+(?:\.\d+)?)")


#: Further bare numbers after a flag's first value (`--batch-size 1 2 4 8`): an argparse option with
#: `nargs="+"` (SGLang bench_one_batch's `--batch-size`, `--input-len`, `--output-len`) runs every value,
#: so the flag states each of them, never its first alone.
_MORE_VALUES = re.compile(r"(?:[ \t]+\d+(?:\.\d+)?(?=[ \t]|$|`))+")


#: A server launch's own quantization flag (TGI's `text-generation-launcher --quantize`, vLLM's and SGLang's
#: `--quantization`): the server quantizes the checkpoint on load, or loads it as that scheme, so the weights it
#: ran are those, whatever precision the checkpoint's name gives; its value as written (one scheme, or a
#: write-up's `[a,b,c]` for one launch per scheme, which `keyed` leaves as a sign).
_LAUNCH_QUANT = re.compile(r"(?<![\w-])(--quantiz(?:e|ation))[ =]+([^\s\\`'\"&|;]+)")


def launch_quantization(ctx: Context) -> dict[int, str]:
    """The lines whose launch states its quantization (`_LAUNCH_QUANT`), read as a precision fact or left as a
    precision sign: line -> the flag as written (`--quantize [bitsandbytes,bitsandbytes-nf4]`)."""
    out: dict[int, str] = {}
    for item in (*ctx.get("precision"), *(s for s in ctx.signs if s.name == "precision")):
        if m := _LAUNCH_QUANT.search(item.text):
            out.setdefault(item.line, f"{m.group(1)} {m.group(2)}")
    return out


def _read_flags(r: _Reader, line: str, i: int) -> None:
    _read_download(r, line, i)
    served = _SERVER_FILE.search(line) if _LAUNCH.search(line) else None
    for m in (SERVE_MODEL.search(line), _IMAGE_MODEL.search(line), served, *_MODEL_FILE.finditer(line)):
        if m and not _PLAIN_WORD.fullmatch(_clean(m.group(1))):
            r.add("model", _clean(m.group(1)), i, "command", line)
    for m in _FLAG.finditer(line):
        own = TOOL_FLAGS.get(r.tool, {})
        name = own[_norm(m.group(1))] if _norm(m.group(1)) in own else FLAGS.get(_norm(m.group(1)))
        name = name or SHORT_FLAGS.get(r.tool, {}).get(m.group(1))
        if name and m.group(2) is not None and not m.group(2).startswith("-"):
            value = m.group(2)
            if name == "engine" and value.strip("'\"").lower() in _NATIVE_BACKENDS:
                value = _NATIVE_BACKENDS[value.strip("'\"").lower()]  # `--backend sglang`: SGLang's own API, one engine
            more = _MORE_VALUES.match(line, m.end()) if _as_float(value) is not None else None
            for v in (value, *more.group(0).split()) if more else (value,):
                if not r.keyed(name, v, i, "command", line) and name in _SIGNS:
                    r.signs.append(Sign(name, i, line.strip()[:200]))  # `--max-concurrency $C`: set, not readable
        elif _norm(m.group(1)) in ("enable_expert_parallel", "enable_ep_moe") and m.group(2) is None:
            r.signs.append(Sign("ep", i, line.strip()[:200]))
    for m in _VISIBLE.finditer(line):
        r.add("visible_devices", len([x for x in m.group(1).split(",") if x.strip()]), i, "command", line)
    if r.npu is None and _NPU_DEVICE.search(line):
        r.npu = (i, line)
    m = _CPU_OFFLOAD.search(line)
    if m and float(m.group(1)) > 0:
        r.add("cpu_offload", float(m.group(1)), i, "command", line)


#: vLLM's warning where a GPU has no FP4 unit (vllm/model_executor/layers/quantization/utils/marlin_utils_fp4.py:
#: "... Weight-only FP4 compression will be used leveraging the Marlin kernel"): FP4 weights, matmuls at 16 bits.
_MARLIN_FP4 = re.compile(r"Weight-only FP4 compression will be used")


#: A copied GitHub thread's own title (the archive's heading, `### 🔀 [#494](https://github.com/ikawrakow/
#: ik_llama.cpp/pull/494) - ...`), linking the pull request, issue or discussion it copies: the thread is of
#: that repository, so its engine (`_REPO_ENGINES`) is the engine the thread's own runs are built from.
_THREAD_TITLE = re.compile(r"\[#\d+\]\(https://github\.com/[\w.-]+/([\w.-]+)/(?:pull|issues|discussions)/\d+\)")
#: An engine's repository, by name: ik_llama.cpp is a fork of llama.cpp with its own kernels, quantization types
#: and `llama-sweep-bench`, never mainline llama.cpp.
_REPO_ENGINES = {"ik_llama.cpp": "ik_llama.cpp"} | {
    k: _ENGINE_WORDS[k] for k in ("llama.cpp", "vllm", "sglang", "text-generation-inference", "tensorrt-llm")
}


def _read_line(r: _Reader, line: str, i: int) -> None:
    """One line's facts: headings, environment dumps, JSON pairs, key-value lines, short forms."""
    line = _BOLD_KEY.sub(r"\1:", line)  # `**Model:** x` is `Model: x`
    if _PROGRESS.search(line):
        return  # a progress bar: what it counts is a step's, not the run's (`_PROGRESS`)
    if m := _LLAMA_BUILD.match(line):
        r.add("build", m.group(1), i, "env-dump", line)
        return
    if _MARLIN_FP4.search(line):
        r.add("precision", "fp4 weight-only", i, "env-dump", line)  # the server's own log
    h = _HEADING.match(line)
    if h:
        r.add("heading", h.group(2), i, "heading", line)
        if (m := _THREAD_TITLE.search(h.group(2))) and (engine := _REPO_ENGINES.get(m.group(1).lower())):
            r.add("engine", engine, i, "heading", line)  # the copied thread's own title: its repository's engine
        m = _KV.match(h.group(2))
        name = KEYS.get(_norm(m.group(2))) if m else None
        if not (name and r.keyed(name, m.group(3), i, "heading", line)):
            _read_assignments(r, h.group(2), i, "heading")
            _read_prose(r, h.group(2), i, "heading", line)
        return
    if _NEURON_LS_HEAD.match(line):
        r.neuron_ls = True
        return
    m = _NEURON_LS_ROW.match(line) if r.neuron_ls else None
    if m:  # a device's cores: the ranks TP x PP x DP count are these, not devices
        r.add("device_cores", int(m.group(2)), i, "env-dump", line)
        r.smi_rows[int(m.group(1))] = i
        return
    for pat in (_NVSMI_ROW, _NVSMI_L, _ROCM):
        m = pat.match(line)
        if m:
            r.add("device", _clean(m.group(2)), i, "env-dump", line)
            r.smi_rows[int(m.group(1))] = i
            return
    m = _GGML_DEVICE.match(line)
    if m:  # ROCm's `gfxNNNN` arch kept: "AMD Radeon Graphics (gfx1151)" names the part
        r.add("device", _clean(m.group(2)) + (f" ({m.group(3).lower()})" if m.group(3) else ""), i, "env-dump", line)
        return
    m = _GGML_VULKAN.match(line)
    if m:
        r.add("device", _clean(m.group(2)), i, "env-dump", line)
        return
    m = _GGML_REGISTER.search(line)
    if m:
        r.add("cpu" if m.group(1).upper() == "CPU" else "device", _clean(m.group(2)), i, "env-dump", line)
        return
    m = _GGML_FOUND.search(line)
    if m:
        r.add("device_count", int(m.group(1)), i, "env-dump", line)
        return
    for m in (_DEVICE_MAP.search(line), _SPLIT_MODE.search(line)):
        source = "command" if _COMMAND.search(line) else "key-value"
        if m:
            r.add("split", SPLITS.get(m.group(1), "in turn"), i, source, line)
    m = _SMI_LIMIT.search(line)
    if m:  # a value that is no number (`-pl $pl` in a loop over limits) is a sign, kept by `_sign`
        if r.add("power_limit", _as_float(m.group(1) or ""), i, "command", line, unit="W"):
            _sign(r, line, i)  # the line's other signs stand (`nvidia-smi` speaks of an NVIDIA device it names none of)
    m = _LSCPU.match(line) or _CPUINFO.match(line)
    if m:
        r.add("cpu", m.group(1), i, "env-dump", line)
        return
    pairs = _JSON_PAIR.findall(line)
    if pairs:
        skipped = _token_rates(line)
        for k, v in pairs:
            if skipped and _norm(k) == "rate" and skipped.pop(0) == v:
                continue
            parent = KEYS.get(r.parents[-1][1], r.parents[-1][1]) if r.parents else None
            name = NESTED.get(parent, {}).get(_norm(k)) or KEYS.get(_norm(k))
            if _norm(k) == "backend" and v.startswith('"') and json.loads(v) in _NATIVE_BACKENDS:
                r.add("engine", _NATIVE_BACKENDS[json.loads(v)], i, "json", f"{k}: {v}")
            if name:
                val = json.loads(v) if not v.startswith('"') else json.loads(v)
                r.keyed(name, val if not isinstance(val, bool) else None, i, "json", f"{k}: {v}")
        return
    cmd = _COMMAND.search(line)
    if cmd:  # a command: its flags are read by `_read_flags`; a sentence before it on the line is prose
        before = line[: cmd.start(1)]
        if not _CLI_LEAD.fullmatch(before):  # `test on runpod 2x 3090 using `text-generation-benchmark ...``
            _read_prose(r, before.rstrip(" `\"'("), i, "prose", line)
        # a command quoted inline closes at its backtick and the sentence goes on (`Run `trtllm-bench throughput
        # -h` to see ... on a 4 NVLink connected H100-sxm-80GB.`): the words after it are prose too
        close = line.find("`", cmd.end()) if before.rstrip().endswith("`") else -1
        if close != -1 and re.search(r"[A-Za-z]", line[close + 1 :]):
            _read_prose(r, line[close + 1 :], i, "prose", line)
        return
    m = _KV.match(line)
    fetched = _FETCH.match(line)
    if fetched and (m is None or KEYS.get(_norm(m.group(2))) is None):
        line = fetched.group(1)  # a system-info tool's `CPU: ...` beside its logo: the pair alone
        m = _KV.match(line)
    if m and not _MD_ROW.match(line) and len(_ENV.findall(line)) < 2:  # `a=1,b=2`: assignments, read below
        parent = KEYS.get(r.parents[-1][1], r.parents[-1][1]) if r.parents else None
        name = NESTED.get(parent, {}).get(_norm(m.group(2))) or KEYS.get(_norm(m.group(2)))
        if _norm(m.group(2)) == "backend" and m.group(3).strip().lower() in _NATIVE_BACKENDS:
            r.add("engine", _NATIVE_BACKENDS[m.group(3).strip().lower()], i, "key-value", line)
            return
        if _norm(m.group(2)) == "backend" and r.loadgen and m.group(3).strip().lower() in _ENGINE_WORDS:
            r.add("engine", _ENGINE_WORDS[m.group(3).strip().lower()], i, "key-value", line)
            return
        if name is None and _USING_MODEL.search(m.group(2)):
            r.add("model", _clean(m.group(3).split()[0]), i, "key-value", line)
            return
        if name is None and re.search(r"\bpower\b", m.group(2), re.I):
            name = "power"
        if name is None and re.search(r"\benergy\b", m.group(2), re.I):
            name = "energy"
        value, more = _comma_pairs(m.group(3))
        if name and r.keyed(name, value, i, "key-value", line):
            for other, v in more:
                r.keyed(other, v, i, "key-value", line)
            _read_prose(r, value, i, "key-value", line, devices=False)
            return
    _read_assignments(r, line, i, "key-value")
    for m in _PAIRS.finditer(line):  # `key=value; key=value` (a run's metadata, vLLM's --metadata)
        name = KEYS.get(_norm(m.group(1)))
        if name:
            r.keyed(name, m.group(2), i, "key-value", line)
    _read_prose(r, line, i, "prose", line)


def _token_rates(line: str) -> list[str]:
    """The `rate` values a one-line JSON object holds under a token count (inference-perf's
    Prometheus report: `"output_len": {"mean": 4388, "rate": 8786.8}` is tokens/s), in order, each
    with None for a `rate` elsewhere: these are token rates, never a request rate."""
    try:
        doc = json.loads(line)
    except ValueError:
        return []
    out: list[str] = []

    def walk(obj, parent: str) -> None:
        if isinstance(obj, Mapping):
            for k, v in obj.items():
                if _norm(str(k)) == "rate" and not isinstance(v, (Mapping, list)):
                    out.append(json.dumps(v) if _TOKEN_PARENT.search(parent) else None)
                walk(v, _norm(str(k)))
        elif isinstance(obj, list):
            for v in obj:
                walk(v, parent)

    walk(doc, "")
    return out if any(out) else []


#: A JSON object counting tokens (`prompt_len`, `output_len`, `input_tokens`): its `rate` is tokens/s.
_TOKEN_PARENT = re.compile(r"(?:^|_)(?:len|length|tokens?)$")


def _read_assignments(r: _Reader, text: str, i: int, source: str) -> None:
    """`key=value` anywhere in a line (`TP=4`, `-e sbnb_genai_perf_concurrency=24`, a heading's
    `(batch_size=1)`, vLLM's MoE config file `E=256,N=384,device_name=NVIDIA_H100,dtype=fp8_w8a8.json`); a
    bracket that holds one setting alone may space it (`*) base (concurrency = 1):`, a block's label)."""
    for m in [*_ENV.finditer(text), *_BRACKET_SETTING.finditer(text)]:
        name = _key(m.group(1))
        if name:
            r.keyed(name, _value(m.group(2)), i, source, text)


def _read_machines(r: _Reader, text: str, i: int, source: str, line: str) -> str:
    """Machines a line counts (`5x servers, each equipped with 8x AMD MI300X GPUs`, `on 5x AMD MI300X servers
    (40 GPUs in total)`): their count is the run's nodes, and the devices of all of them (a total the line
    states, else its machines times each one's devices) a device count of scope "all GPUs", which a count of
    one machine's devices elsewhere in the file does not override. Returns the line without the machine counts,
    so a count of machines is never read as a count of devices."""
    if _NUMA.search(text):  # NUMA nodes (numactl's `available: 2 nodes (0-1)`) are one machine's memory domains
        return text
    machines = [
        m
        for m in _MACHINES.finditer(text)
        if not _FACTOR.match(text[m.end() :].lstrip()) and (m.group(0)[-1] in "sS") == (int(m.group(1)) > 1)
    ]  # `an 8x B200 node` is one machine of eight: a count of machines agrees with its noun
    total = _TOTAL_DEVICES.search(text)
    each = _PER_MACHINE.search(text)
    if total:
        r.add("device_count", int(total.group(1) or total.group(2)), i, source, line, scope="all GPUs")
    elif len(machines) == 1 and each:
        count = int(machines[0].group(1)) * int(each.group(1) or each.group(2))
        r.add("device_count", count, i, source, line, scope="all GPUs")
    for m in machines:
        r.add("nodes", int(m.group(1)), i, source, line)
    for m in reversed(machines):  # the machines' count dropped, their words kept (`AMD MI300X servers`)
        text = text[: m.start()] + text[m.start(2) :]
    return text


#: N copies of the benchmark run side by side (`(4 instances concurrently)` on a harness's flags line, one per die):
#: each output is one instance's, measured while the others loaded the same machine, so its rate is one of N
#: running together, not the machine's and not one run alone.
_AT_ONCE = re.compile(
    r"\b(\d+)\s+(?:instances|copies|processes)\s+(?:run\s+)?(?:concurrently|at\s+once|simultaneously)\b", re.I
)


def _read_prose(r: _Reader, text: str, i: int, source: str, line: str, devices: bool = True) -> None:
    """Facts written as words: `TP4`, `DP=2`, `8x H100`, `4 GPUs`, `Power consumption 241 W`."""
    for m in [*_MODEL_FILE.finditer(text), *_LINKED_FILE.finditer(text)]:
        r.add("model", m.group(1), i, source, line)
    for m in _PAR_WORDS.finditer(text):
        r.add(_PAR_NAME[m.group(1).lower()], int(m.group(2)), i, source, line)
    for m in _SHARD_COUNT.finditer(text):
        r.add("tp", int(m.group(1)), i, source, line)
    for m in _SOCKET_WORDS.finditer(text):
        r.add("sockets", _SOCKET_NUMBERS.get(m.group(1).lower(), m.group(1)), i, source, line)
    for m in _AT_ONCE.finditer(text):  # `(4 instances concurrently)`: this output is one of them
        r.add("instances_at_once", int(m.group(1)), i, source, line)
    for m in _XPYD.finditer(text):  # `1P1D`: a run spans its prefill and its decode instances
        if int(m.group(1)) and int(m.group(2)):
            r.add("instances", int(m.group(1)) + int(m.group(2)), i, source, line)
    if not _XPYD.search(text) and (m := _PD_SERVERS.search(text)):  # `one prefill server ..., one decode server`
        x, y = (_PD_COUNT.get(g.lower(), g) for g in m.groups())
        if int(x) and int(y):
            r.add("instances", int(x) + int(y), i, source, line)
    for m in [*_REPLICAS.finditer(text), *_PODS.finditer(text)]:
        if int(m.group(1)) > 1:
            r.add("replicas", int(m.group(1)), i, source, line)
    pods, each = _PODS.search(text), _PER_MACHINE.search(text)
    if devices and pods and each and not _TOTAL_DEVICES.search(text):  # `4 vLLM pods ..., each with 4 H100 GPUs`
        count = int(pods.group(1)) * int(each.group(1) or each.group(2))
        r.add("device_count", count, i, source, line, scope="all GPUs")
    if _ONE_INSTANCE.search(text):
        r.add("layout", "one instance", i, source, line)
    unprefixed = _LOG_PREFIX.sub("", text)
    glued = [
        (p.group(1), p.group(2)) for g in _GLUED_PAR.finditer(unprefixed) for p in _GLUED_PART.finditer(g.group(0))
    ]
    short = [(m.group(1) or m.group(2), m.group(3)) for m in _SHORT_PAR.finditer(unprefixed)]
    for name, size in dict.fromkeys([*short, *glued]):
        if int(size) > 0:  # a size of 0 is no size: a rank or an index
            r.add(name.lower(), int(size), i, source, line)
    if devices and source == "heading" and not any(f.name == "device" and f.line == i for f in r.facts):
        for m in _PRODUCT.finditer(text):
            r.add("device", m.group(0), i, source, line)
        if _HEADING_PART.match(text.strip()) and not any(f.name == "device" and f.line == i for f in r.facts):
            r.add("device", text.strip(), i, source, line)
    if source == "heading":
        for m in _CPU_PRODUCT.finditer(text):
            r.add("cpu", m.group(0), i, source, line)
        for m in _BOARD.finditer(text):
            r.add("machine", m.group(0), i, source, line)
    if devices and source in ("heading", "prose"):
        text = _read_machines(r, text, i, source, line)
    each = _EACH_HAS.search(_MD_LINK.sub(r"\1", text)) if devices and source in ("heading", "prose") else None
    if each:  # `each <machine> comes with N <device> GPUs`: read after the rest of the line (below)
        text = f"{each.string[: each.start()]} {each.string[each.end() :]}"
    joined = [p for field in text.split(",") for p in joined_parts(field)] if devices else []
    if len(joined) > 1:  # several parts counted in one field (CodeCarbon's `gpu_model`): each is a device
        for _, name in joined:
            r.add("device", name, i, source, line)
        r.add("device_count", sum(n for n, _ in joined), i, source, line)
        devices = False
    parts = list(_PART_COUNTED.finditer(text)) if devices and source in ("heading", "prose") else []
    worded = source == "heading" or (source == "prose" and _SIGNS["device"].search(text))
    parts = parts if len(parts) > 1 or not worded else []  # a worded line's one part keeps its full name below
    for m in parts:  # every part the line counts: `4×H800 and 4×H200` names two
        r.device(m.group(0), i, source, line)
    if not parts and devices and worded:
        counted = list(_COUNTED.finditer(text))
        coded = next((c for c in counted if _PART_CODE.search(c.group(2))), None)
        m = counted[0] if counted else _COUNT_AFTER.search(text)
        if coded is not None and coded is not counted[0]:
            # a part's code beside an instance type (`2x p5.48xlarge (16x H100 GPUs)`) wins, named by its code
            part = _PART_VARIANT.match(coded.group(2).strip())
            r.add("device_count", int(coded.group(1)), i, source, line)
            r.add("device", part.group(0) if part else _clean(coded.group(2)), i, source, line)
        elif (
            m
            and re.search(r"\d", m.group(2) if m.re is _COUNTED else m.group(1))
            and not (m.re is _COUNTED and (_FACTOR.search(m.group(2)) or _OFFERED.match(m.group(2).strip())))
        ):  # `5x faster`, `8x to 16x faster`, `8x and 16x gpus` name no part
            # the count counts a CPU where its name starts with one (`2x Xeon E5-2697A v4`) or one ends with it (`xeon
            # 2697A v4 x2`); `8xMI300X with 2x AMD EPYC 9374F` counts the GPU
            name_at = (
                (m.start(2) + len(m.group(2)) - len(m.group(2).lstrip()), m.end(2)) if m.re is _COUNTED else m.span(1)
            )
            ends = (lambda c: c.start() == name_at[0]) if m.re is _COUNTED else (lambda c: c.end() == name_at[1])
            cpu = next((c for c in _CPU_PRODUCT.finditer(text) if ends(c)), None)
            if cpu:  # a counted CPU is the machine's sockets, no device
                r.add("cpu", cpu.group(0), i, source, line)
                r.add("sockets", int(m.group(1) if m.re is _COUNTED else m.group(2)), i, source, line)
                return
            if _COMPARED.search(text[m.start() : m.end()]):  # `2x xeon Vs 2x P100`: two parts compared, no run's
                r.signs.append(Sign("device", i, line.strip()[:200]))
                return
            # a count of counts before it (`2 * 8 * h800`: two servers of eight) multiplies it
            outer = _OUTER_COUNT.search(text[: m.start()]) if m.re is _COUNTED else None
            raw = f"{int(outer.group(1)) * int(m.group(1))} x {m.group(2)}" if outer else m.group(0)
            if m.re is _COUNTED:  # the name ends with its part's code and variant (`MI300X AssertionError: ...`)
                code = _PART_VARIANT.search(m.group(2))
                raw = raw[: len(raw) - len(m.group(2)) + code.end()] if code else raw
            r.device(raw, i, source, line)
        elif n := _gpus_counted(text):
            r.add("device_count", n, i, source, line)
    if each:  # N of the device it names, where the rest of the line ties the run to no count of its own
        part = _PART_VARIANT.search(each.group(2))
        if part:
            r.add("device", part.group(0), i, source, line)
        if not any(f.name == "device_count" and f.line == i for f in r.facts):
            r.add("device_count", int(each.group(1)), i, source, line)
    # a row of quoted values (CSV `"...","NVIDIA GeForce RTX 4080",...`, an SQL INSERT) is a tool's data,
    # read by its parser, not prose
    if (
        devices
        and source == "prose"
        and worded
        and not _QUOTED_ROW.search(text)
        and not any(f.name == "device" and f.line == i for f in r.facts)
    ):
        for m in _PRODUCT.finditer(text):  # `单卡 RTX4090D 24G`: the card the line speaks of, by its product name
            r.device(m.group(0), i, source, line)
    # where a run ran, by a part's code (`Run ... on H100:`) or a product's name (`on an Arc B70`): the
    # first of the two that names something on the line
    # (a line asking someone for a run, `_ASKED`, says where a run is wanted, not where one ran)
    if devices and source in ("prose", "heading") and not any(f.name == "device" and f.line == i for f in r.facts):
        for m in _LINKED_PART.finditer(_MD_STRONG.sub("", text)):  # `a 4 NVLink connected H100-sxm-80GB`
            r.add("device_count", int(m.group(1)), i, source, line)
            r.add("device", m.group(2), i, source, line)
    ons = (_ON_PART, _ON_PRODUCT, _ON_PART_LOWER, *((_FOR_PART,) if source == "heading" else ()))
    for on in ons if not _ASKED.search(text) else ():
        if devices and source in ("prose", "heading") and not any(f.name == "device" and f.line == i for f in r.facts):
            for m in on.finditer(_MD_STRONG.sub("", text)):
                r.add("device", m.group(1), i, source, line)
    if source in ("prose", "heading"):
        _read_model_named(r, text, i, source, line)
        for m in _MODEL_QUANT.finditer(text):
            if _compared_model(text, m):  # `Qwen3-32B vs Qwen2-32B-FP8`: the tag is the other model's
                r.signs.append(Sign("precision", i, line.strip()[:200], words=m.group(0)))
            else:
                r.add("precision", m.group(1), i, source, line)
        if not _COMPARED.search(text) and (m := _QUANT_PHRASE.search(text)):
            r.add("precision", m.group(1) or m.group(2), i, source, line)
        elif not _COMPARED.search(text) and (native := _native_precision(text)):
            r.add("precision", native, i, source, line)
        _read_dtype_item(r, text, i, source, line)
        for name, pat in (("params", _TOTAL_PARAMS), ("active_params", _ACTIVE_PARAMS)):
            m = pat.search(text)
            if m:
                r.add(name, float(next(g for g in m.groups() if g)), i, source, line)
    low = text.lower()
    if source in ("prose", "heading") and (re.search(r"\b(power|watts?|draw|consum)", low) or _AT_WATTS.search(text)):
        if _offers_wattages(text):
            r.signs.append(Sign("power", i, line.strip()[:200]))
        elif _POWER.search(text):
            r.reading("power", text, i, source, line)
    if source in ("prose", "heading") and re.search(r"\benergy\b", low) and _ENERGY.search(text):
        r.reading("energy", text, i, source, line)


def _read_captions(r: _Reader, lines: list[str], first: int) -> tuple[tuple[int, int], ...]:
    """The model a caption names (source "caption"): a write-up labels the block it pastes with the
    line right above it (`amd/Llama-3.3-70B-Instruct-FP8-KV TP1 8k/1k conc=64 performance on MI355`
    over a fenced block) or a bold line alone over its section (`**qwen3-32B**`). The caption
    is read where it names one model only (a line naming two compares them) and, over a fenced block,
    where the block is output (a line over a block of commands speaks of the commands, and the
    command's own model is read from it); a command is no caption. Returns (caption line, last line it
    labels) of each caption."""
    inside, last, over, run = False, None, None, False
    captions: dict[int, int] = {}  # caption line -> the last line it labels
    bold: int | None = None  # the open section of a bold line alone
    for k, raw in enumerate(lines):
        if _FENCE.match(raw):
            if not inside:
                over, run = (last if last is not None and not _FENCE.match(lines[last]) else None), False
            elif over is not None and not run:
                captions.setdefault(over, k)  # a fence's caption labels that block alone
            inside, last = not inside, k
        elif raw.strip():
            if not inside and (_BOLD_LINE.match(raw) or _HEADING.match(raw)):
                if bold is not None:
                    captions[bold] = k - 1  # a bold line's section ends at the next heading or bold line
                bold = k if _BOLD_LINE.match(raw) else None
            run = run or (inside and bool(_COMMAND.search(raw)))
            last = k
    if bold is not None:
        captions[bold] = len(lines) - 1
    if inside and over is not None and not run:  # a fence left open runs to the file's end (CommonMark)
        captions.setdefault(over, len(lines) - 1)
    labels = []
    for k, end in sorted(captions.items()):
        line = lines[k]
        if _COMMAND.search(line):
            continue
        labels.append((k + first, end + first))
        # a caption names the block or section under it, not a run above it: what else it states is that block's,
        # on every line of a caption sentence wrapped over several (`Representative output — Hy3-FP8, TP4 on
        # 4×GB300 (one NVL4 tray), trtllm all-reduce,` then `MTP=2:` over the block)
        wrapped = _wrapped_above(lines, k) if not _BOLD_LINE.match(line) else ()
        own = {k + first, *(j + first for j in wrapped)}
        r.facts = [
            replace(f, until=end + first) if f.line in own and f.until is None and f.source in _CAPTIONED else f
            for f in r.facts
        ]
        _caption_device(r, lines, first, sorted(own), end + first)
        names = [
            m.group(1)
            for m in _CAPTION_MODEL.finditer(line)
            if _NAME_SIZE.search(_last_part(m.group(1))) and not _FILE_NAME.search(m.group(1))
        ]
        names = [n for n in dict.fromkeys(names) if not any(n != o and _same_model(n, o) for o in names)]
        # a table name without a size beside an id (`MiniMax-M2 against Qwen3-4B`) makes a comparison: none is the block's
        rows = written(table_rows(line, heading=bool(_HEADING.match(line))), line) if names else []
        names += [w for w in rows if not any(_same_model(w, n) for n in names)]
        n = len(r.facts)
        if len(names) == 1 and r.add("model", names[0], k + first, "caption", line) and len(r.facts) > n:
            r.facts[-1] = replace(r.facts[-1], until=end + first)
    return tuple(labels)


def _caption_device(r: _Reader, lines: list[str], first: int, own: list[int], until: int) -> None:
    """The one device a block's caption names by its name alone (`**14B** full `vllm bench serve` output (TP=1,
    MI300X):`), where its lines gave no device fact: a sentence that names a device with no word such as GPU
    is read only where no other line names one (`_read_devices_in_words`), but a caption names the device of
    the block under it whatever the rest of the file names. Several devices, or a comparison, name none; a
    heading or a bold line over a block is read as such, and where no other line names a device the words
    reader has read the caption already (or found several devices, signs)."""
    if any(f.name == "device" and f.line in own for f in r.facts):
        return
    if any(_HEADING.match(lines[n - first]) or _BOLD_LINE.match(lines[n - first]) for n in own):
        return
    if not any(f.name == "device" for f in r.facts):
        return
    pattern = _device_pattern(str(config.DATA_DIR / "hardware.csv"))
    hits: dict[str, tuple[int, str]] = {}
    for n in own:
        text = lines[n - first].strip()
        words = _FILE_PATH.sub(" ", _URL.sub(" ", text))
        if _COMPARED.search(words) or _ASKED.search(words):
            return
        for m in pattern.finditer(words):
            hits.setdefault(m.group(1) + (m.group(2) or ""), (n, text))
    names = _most_specific(list(hits))
    if len(names) == 1:
        n, text = hits[names[0]]
        if r.add("device", names[0], n, "caption", text):
            r.facts = [
                replace(f, until=until) if f.name == "device" and f.line == n and f.source == "caption" else f
                for f in r.facts
            ]


def _wrapped_above(lines: list[str], k: int) -> tuple[int, ...]:
    """The lines above caption line `k` that its sentence began on: a caption wrapped over lines, each line
    above it ending mid-sentence (no `.`, `:`, `!` or `?` at its end) and none a heading, a bold line, a list
    item, a fence, a table row or a command; () where the caption is one line."""
    out: list[int] = []
    j = k - 1
    while j >= 0:
        text = lines[j].strip()
        if (
            not text
            or text.endswith((".", ":", "!", "?"))
            or _FENCE.match(lines[j])
            or _HEADING.match(lines[j])
            or _BOLD_LINE.match(lines[j])
            or _LIST_ITEM.match(lines[j])
            or _MD_ROW.match(lines[j])
            or _COMMAND.search(lines[j])
        ):
            break
        out.append(j)
        j -= 1
    return tuple(out)


#: A list item: `1. ...`, `2) ...`, `- ...`, `* ...` (a caption's sentence starts no list).
_LIST_ITEM = re.compile(r"^\s*(?:\d+[.)]|[-*+])\s+\S")


#: A thread's byline as a copy of an issue or pull request keeps it (`ggerganov · comment · 2024-11-24`,
#: GitHub's `ggerganov commented Nov 24, 2024`, an archived thread's `👤 **ikawrakow** commented the
#: **2025-06-11** at **21:47:02**:<br>` and a discussion's `> 👤 **mcm007** replied the ...`, a reply under a
#: comment): who wrote the text below it, up to the next byline.
BYLINE = re.compile(
    r"^\S+ · (?:comment|description|review(?: thread)?) · \d{4}-\d{2}-\d{2}$|^\S+ commented (?:on )?\w{3} \d{1,2}, \d{4}$"
    r"|^(?:>\s*)*👤\s*\*\*(?P<who>[^*\s]+)\*\* (?:commented|replied) (?:the|on) \*\*\d{4}-\d{2}-\d{2}\*\*"
)
#: The archived thread's table above its description (`| **Author** | `Panchovix` |`): who wrote the description.
_AUTHOR_ROW = re.compile(r"^\|\s*\*\*Author\*\*\s*\|\s*`?(?P<who>[^`|\s]+)`?\s*\|")


def _writer(byline: str) -> str:
    """Who a `BYLINE` names: its first word, or the bold name of an archived thread's."""
    m = BYLINE.match(byline)
    return m.group("who") if m and m.group("who") else byline.split()[0]


def _read_posts(r: _Reader, lines: list[str], first: int) -> tuple[tuple[int, int, str], ...]:
    """The posts of a copied thread, each fact given its post's writer (`Fact.writer`): a byline starts a
    post, and the text above the first is a description whose writer the copy does not name (an issue
    form's `### GPU` field is its writer's machine, not that of a maintainer who answers with a run of
    their own). The thread's title (a heading on the first line) names the thread, no one post."""
    starts = [(k + first, _writer(raw.strip())) for k, raw in enumerate(lines) if BYLINE.match(raw.strip())]
    if not starts:
        return ()
    top = first + 1 if _HEADING.match(lines[0]) else first
    # the description's writer where the archive's table above it names them (`| **Author** | `Panchovix` |`):
    # their own later posts about the same runs are theirs too
    author = next((m["who"] for raw in lines[: starts[0][0] - first] if (m := _AUTHOR_ROW.match(raw.strip()))), "")
    bounds = [(top, author), *starts, (len(lines) + first, "")]
    posts = tuple((a, b - 1, w) for (a, w), (b, _) in zip(bounds, bounds[1:], strict=False) if b > a)
    r.facts = [replace(f, writer=next((w for a, b, w in posts if a <= f.line <= b), None)) for f in r.facts]
    return posts


def of_posts(ctx: Context, facts: Iterable[Fact], lines: Iterable[int]) -> list[Fact]:
    """`facts` less those a writer of a thread states who wrote none of the posts holding `lines` (the lines
    the tool's rows come from): a device one writer names is that writer's machine, not another's runs'
    (a writer's own later post about the same runs still counts); and less the title's machine where the
    rows' own labels name machines (`_titles_the_thread`). No lines, or no thread: all kept."""
    lines = [int(n) for n in lines]
    writers = {w for a, b, w in ctx.posts if any(a <= n <= b for n in lines)}
    kept = [f for f in facts if f.writer is None or not writers or f.writer in writers]
    return [f for f in kept if not _titles_the_thread(ctx, f, lines)]


#: The facts that name the machine a run ran on.
_MACHINE_FACTS = {"device", "machine", "cpu"}


def _titles_the_thread(ctx: Context, fact: Fact, lines: list[int]) -> bool:
    """Whether `fact` is a machine the title (a heading on line 1) names where every line of the rows sits in
    a block a label of its own heads (`HP:` over a fence) and a label names a machine (`Jetson Orin Nano
    8GB:` over another block): the labels tell the blocks apart by machine, so the nearest label, not the
    title, says whose the rows are; the title names what the thread is about (`llama2 and GPU execution on
    Nvidia Jetson`). A title over blocks no label names a machine of still names theirs."""
    if fact.line != 1 or fact.source != "heading" or fact.name not in _MACHINE_FACTS or not lines:
        return False
    labels = [(a, b) for a, b in ctx.labels if a != fact.line]  # a title right above the block is its label
    labelled = all(any(a < n <= b for a, b in labels) for n in lines)
    return labelled and any(f.until is not None and f.line != fact.line and f.name in _MACHINE_FACTS for f in ctx.facts)


#: The sources a caption line's facts are read under (a command over a block is no caption).
_CAPTIONED = {"prose", "heading", "key-value"}


@lru_cache(maxsize=2)
def _model_table(path: str) -> tuple[tuple[tuple[str, str], ...], frozenset[str]]:
    """((words, row name) of every name and alias of the model table, longest first), and the families
    its names start with (`llama`, `qwen`, `deepseek`): read with the csv module, as `hardware` matches them."""
    names, families = [], set()
    with open(path, newline="", encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            for name in [row["model_pattern"], *(row.get("aliases") or "").split(";")]:
                words = _model_words(name).strip()
                if words:
                    names.append((words, row["model_pattern"]))
                    family = re.match(r"[a-z]{3,}", words)
                    families |= {family.group(0)} if family else set()
    names.sort(key=lambda n: -len(n[0]))
    return tuple(names), frozenset(families)


def _model_words(text: str) -> str:
    """A name as words, as the model table is matched (`benchbook.hardware`): lower case, a point between
    digits kept, every other run of other characters one space, padded so that words match whole."""
    s = re.sub(r"(?<=\d)\.(?=\d)", "_", str(text).lower().replace("_", " "))
    return " " + " ".join(re.sub(r"[^a-z0-9_]+", " ", s).replace("_", ".").split()) + " "


#: A model's size as a word of its name in words (`70b`, `8b`, `0.6b`) and a family word before it (`llama`,
#: `llama3`, `qwen2.5`), at most three words apart: a phrase that names a model, which one or not.
_SIZE_WORD = re.compile(r"^(?:\d+x)?\d+(?:\.\d+)?b$")
_URL = re.compile(r"\bhttps?://\S+")
#: A line of delimited data (a CSV row: three commas and none followed by a space): a tool's data, not prose.
_DELIMITED = re.compile(r"^(?:[^,]*,(?! )){3}")


#: A list's separators, and a parameter count in one of its items (`9B`, `GPT-OSS-20B`, MoE's active `A4B`):
#: a line listing several sized names (an issue form's `### Models` field) names several models, one of
#: which the id pattern alone may catch.
_LIST_SEP = re.compile(r"\s*[,;]\s*")
_LISTED_SIZE = re.compile(r"(?<![\w.])A?\d+(?:\.\d+)?[BbMm](?![\w])")


def _read_model_named(r: _Reader, text: str, i: int, source: str, line: str) -> None:
    """The model a heading or a line of prose names (an issue's title `# Add llama 3.3 70b GH200 model`,
    `the sgl_jax Qwen/Qwen2.5-7B-Instruct model running on v6e-1`): by its id (a name of `-`/`.` parts, one
    of them a parameter count, under an organisation or not, as a caption writes it) or by the words of a
    name in the model table (data/models.csv, matched as `hardware.model_size` matches: `llama 3.3 70b` is
    the table's Llama-3.3-70B), kept as written. A line naming one model states it; a line naming several
    (a comparison, or a list of sized names one of which is an id: `Qwen 3.5 9B, GPT-OSS-20B`), or a family and a size that no one table name fits (`Llama 70B`: Llama 2, 3, 3.1 or
    3.3), leaves a sign whose `words` are the phrase: the page names the line, never a model."""
    if _MD_ROW.match(line) or _QUOTED_ROW.search(text) or _DELIMITED.match(text) or "\t" in text.strip():
        return
    if _COMMAND.search(line) or any(k == i for k, _ in r.prose):
        return  # a command's model is its flag's; a help text's example (`eg. org/name`) is no model
    text = _ENV.sub(" ", text)  # `draft_model=org/X`: a key's value is the key's (`_read_assignments`)
    names, families = _model_table(str(config.DATA_DIR / "models.csv"))
    # an id with a parameter count in its parts; one with BLOOM's spelling of it (`bloom-7b1`: the tenth
    # after the unit) only where its last part is a name of the model table as a whole
    table = {w for w, _ in names}
    named = [
        m.group(1)
        for m in _CAPTION_MODEL.finditer(text)
        if (
            _NAME_SIZE.search(_last_part(m.group(1)))
            or _ACTIVE_SIZE.search(_last_part(m.group(1)))
            or _TENTH_SIZE.search(_last_part(m.group(1)))
            and _model_words(_last_part(m.group(1))).strip() in table
        )
        and not _FILE_NAME.search(m.group(1))
        and m.group(1).split("/")[0].lower() not in _OUTPUT_DIRS | _MODELS_DIRS  # a folder's entry: a path
    ]
    bare = _PATH.sub(" ", _URL.sub(" ", text))  # a folder, a link or a file named after a model names it in no sentence
    bare = " ".join(t for t in bare.split() if not _FILE_NAME.search(t.rstrip(".,;:)`'\"")))
    words = _table_words(bare).split("~")[0]  # as written: a glued family read apart is for `table_rows`
    rows = table_rows(bare, heading=source == "heading")
    named += [_as_written(w, bare) for w in rows]
    if source == "heading":  # a title's `MiniMax-M2.7`: a release the table does not size, alone or beside
        named += [  # a table row (`MiniMax-M2.7 against DeepSeek-V3.2`: two models); a name the table holds
            # was `table_rows`' to take (`DeepSeek-R1 Distill`: none), and one writing a row's name with more
            # words (`DeepSeek-V3.2-NVFP4`) is that row's model, said once below
            m.group(1)
            for m in _CAPTION_MODEL.finditer(text)
            if _versioned(m.group(1), names, families) and _model_words(_last_part(m.group(1))).strip() not in table
        ]
    named = [
        n
        for k, n in enumerate(dict.fromkeys(named))
        if not any(_same_model(n, o) for o in list(dict.fromkeys(named))[:k])
    ]
    listed = [p.strip() for p in _LIST_SEP.split(re.sub(r"\([^()]*\)", " ", bare)) if _LISTED_SIZE.search(p)]
    if len(named) == 1 and len(listed) > 1:  # `Qwen 3.5 9B, GPT-OSS-20B, Gemma 4 A4B`: models tried, a list
        named = listed
    targets = [n for n in named if not _drafts(n, text)]
    if len(named) > 1 and len(targets) == 1:  # `Qwen3-235B-A22B drafted by Qwen3-0.6B`: the run's model drafted for
        named = targets
    if len(named) == 1:
        r.named(named[0], i, source, line)
        m = re.search(re.escape(named[0]) + _SCHEME_AFTER, text, re.I)  # `Llama 3.1 8B FP8` / `405B fp4`
        m = m or re.search(re.escape(named[0]) + _GGUF_AFTER, text, re.I)  # `Llama-3.1-8B Q4_K_M`
        if m:
            r.add("precision", m.group(1), i, source, line)
        return
    ws = words.split()
    phrases = [
        " ".join(ws[k : j + 1])
        for k, w in enumerate(ws)
        if any(w.startswith(f) for f in families)
        for j in range(k + 1, min(k + 4, len(ws)))
        if _SIZE_WORD.match(ws[j])
    ]
    versions = [] if named or phrases else _family_versions(ws, families)
    if named or phrases or versions:
        words = ", ".join(named) if named else _as_written((phrases or versions)[0], bare)
        r.signs.append(Sign("model", i, line.strip()[:200], words=words))
        types = {t.upper() for t in _GGUF_TYPE.findall(text)}
        if len(named) > 1 and len(types) == 1 and any(re.search(re.escape(n) + _GGUF_AFTER, text, re.I) for n in named):
            # `qwen38-27b-q8_0-opt D: Qwen3.5-35B-A3B Q8_0`: which name is the run's is open, but a type written
            # after one of them, and the only type the line writes, is the weights' whichever it is
            r.add("precision", types.pop(), i, source, line)
        if not named and len(phrases) == 1:  # `It's Qwen 7B 2.5，bf16.`: the dtype the sentence gives the model
            m = re.search(re.escape(words) + _DTYPE_AFTER, text, re.I) or re.search(
                re.escape(words) + _GGUF_AFTER, text, re.I
            )  # `I ran the batched bench with llama 8b q4_0`: the type llama.cpp names its weights by
            if m:
                r.add("precision", m.group(1), i, source, line)


#: Words that make a name the draft model of speculative decoding, written before it (`drafted by X`,
#: `draft model X`, `drafter: X`, llama.cpp's `-md X`, vLLM's `--speculative-model X`) or after it (`X as
#: draft`, `X drafter`): that model proposes tokens, the other one named is the model the run serves.
_DRAFT_BEFORE = re.compile(
    r"(?:\bdraft(?:ed|ing)?\s+(?:by|with|model)|\bdrafter|\bdraft|(?<![\w-])-md|--(?:model-draft|draft-model|speculative-model))"
    r"[\W_]{0,4}$",
    re.I,
)
_DRAFT_AFTER = re.compile(
    r"^[\W_]{0,4}(?:(?:as|for)\s+(?:the\s+|a\s+|its\s+)?)?(?:draft(?:er)?\b|draft[-_ ]model)", re.I
)


def _drafts(name: str, text: str) -> bool:
    """Whether `text` writes the model `name` as a draft model (`_DRAFT_BEFORE`, `_DRAFT_AFTER`)."""
    return any(
        _DRAFT_BEFORE.search(text[: m.start()]) or _DRAFT_AFTER.match(text[m.end() :])
        for m in re.finditer(re.escape(name), text, re.I)
    )


def _versioned(name: str, names, families) -> bool:
    """Whether an id (`_CAPTION_MODEL`'s, under an organisation or not) is a family of the model table and a
    version as that family's table names write theirs (`MiniMax-M2.7` beside the table's `MiniMax-M2`,
    `DeepSeek-V3.2`, `GLM-4.6`): one release of the family, named, whose size the table may not give."""
    parts = [p for p in re.split(r"[-_]", _last_part(name).lower()) if p]
    if len(parts) < 2 or parts[0] not in families:
        return False
    letters = {w.split()[1][0] for w, _ in names if w.split()[0] == parts[0] and len(w.split()) > 1}
    m = re.fullmatch(r"([a-z]?)\d+(?:\.\d+)*", parts[1])
    return bool(m) and (not m.group(1) or m.group(1) in letters | {"v", "r"})


#: A model's version glued to its family (`llama3.1`, `qwen3`), or as a word of its own only where it
#: cannot be a count (`v4`, `r1`, `3.1`; `Llama 3` or `metas[0]` are no version).
_VERSION_WORD = re.compile(r"^[vr]?\d+(?:\.\d+)*$")
_VERSION_ALONE = re.compile(r"^(?:[vr]\d+(?:\.\d+)*|\d+\.\d+)$")


def _family_versions(ws: list[str], families) -> list[str]:
    """The phrases of `ws` (`_model_words`' words) that name a model by its family and version without a
    size (`deepseek v4` of `DeepSeek-V4-Flash`, `deepseek r1`, `llama3.1`): a release of that family whose
    size the line does not give, so a sign of the model (its `words`), never a model the table sizes."""
    out = []
    for k, w in enumerate(ws):
        fam = next((f for f in families if w.startswith(f)), None)
        if fam is None:
            continue
        if _VERSION_WORD.match(w[len(fam) :]):
            out.append(w)
        elif w == fam and k + 1 < len(ws) and _VERSION_ALONE.match(ws[k + 1]):
            out.append(f"{w} {ws[k + 1]}")
    return list(dict.fromkeys(out))


def _table_words(text: str) -> str:
    """`text` as the model table's words (`_model_words`), a family in the plural before its version
    (`Llamas 3.1 405B`) read as the family, and one glued to its version (`llama3.1 8B`, `qwen2.5 7B`) as
    the family and the version apart, as the table's names write them (`Llama-3.1-8B`): the glued words are
    kept too, for a table alias written glued (`llama3.1 405b`)."""
    families = "|".join(map(re.escape, sorted(_model_table(str(config.DATA_DIR / "models.csv"))[1])))
    words = re.sub(rf" ({families})s (?=\d)", r" \1 ", _model_words(text))
    apart = re.sub(rf" ({families})(\d+(?:\.\d+)?) ", r" \1 \2 ", words)
    return words if apart == words else f"{words}~{apart}"


def table_rows(text: str, heading: bool = False) -> dict[str, str]:
    """{words: model table row} of each table name `text` writes, longest first and none inside another: a
    name with its size (`deepseek r1` alone is a family, its 671B or a distill), or, in a heading, a name
    without one that begins no other row's name (`qwen3next`, `DeepSeek-v3`: that one model)."""
    names, _ = _model_table(str(config.DATA_DIR / "models.csv"))
    words = _table_words(text)
    rows: dict[str, str] = {}
    for w, row in names:
        sized = any(_SIZE_WORD.match(x) for x in w.split())
        sized = sized or (heading and _whole_name(w, row, names, words, text))
        if sized and f" {w} " in words and not any(f" {w} " in f" {o} " or _glued(w) == _glued(o) for o in rows):
            rows[w] = row  # a name found glued and apart (`llama3.1 405b`) is one name
    return rows


def _glued(words: str) -> str:
    """A name's words with a family glued to its version (`llama 3.1 8b` as `llama3.1 8b`)."""
    return re.sub(r"(?<=[a-z]) (?=\d)", "", words)


def _whole_name(w: str, row: str, names, words: str, text: str) -> bool:
    """Whether a heading's table name without a size (`w`) names that one model: it begins no other row's
    name (`qwen3next`), or the heading goes on with none of those rows' next word (`DeepSeek-R1 w4afp8`,
    `DeepSeek-R1-W4AFP8`: the R1, not a `DeepSeek-R1-Distill-...`) and writes it as a name, not as an
    identifier of code (SGLang's model file `deepseek_v2` serves V2, V3 and R1 alike)."""
    longer = [o[len(w) + 1 :].split()[0] for o, r in names if o.startswith(f"{w} ") and r != row]
    if not longer:
        return True
    at = words.find(f" {w} ")
    after = words[at + len(w) + 2 :].split()[:1] if at >= 0 else []
    written = _as_written(w, text)
    return not (after and after[0] in longer) and "_" not in written and written.lower() in text.lower()


def written(rows: Mapping[str, str], text: str) -> list[str]:
    """The names of `rows` (`table_rows`) as `text` writes them (`DeepSeek-v3`)."""
    return [_as_written(w, text) for w in rows]


def _as_written(words: str, text: str) -> str:
    """The span of `text` that `words` (`_model_words`) were read from, as the line writes it (a family
    glued to its version, `llama3.1 8B`, as glued)."""
    first, *rest = map(re.escape, words.split())  # `Llamas 3.1 405B`: the family in the plural, as written
    joined = "".join(
        ("[\\W_]*" if k == 1 and re.match(r"\d", words.split()[1]) else "[\\W_]+") + part
        for k, part in enumerate(rest, 1)
    )
    m = re.search(r"(?<![A-Za-z0-9.])" + first + "s?" + joined + r"(?![A-Za-z0-9])", text, re.I)
    return m.group(0) if m else words


def _read_form_fields(r: _Reader, lines: list[str], first: int) -> None:
    """A GitHub issue form's field as it renders: `### Label`, a blank line, the value on a line of its own
    and the next field's heading (`### CPU` / `Intel(R) Xeon(R) Platinum 8460Y+` / `### GPU` / `AMD
    Instinct MI300X`). A label that is a fact's key (`KEYS`) states that fact with the value; a section
    holding more than that one line is a write-up's section, not a field."""
    heads = [k for k, raw in enumerate(lines) if _HEADING.match(raw)]
    for k, end in zip(heads, [*heads[1:], len(lines)], strict=False):  # no heading: no field
        h = _HEADING.match(lines[k])
        name = KEYS.get(_norm(h.group(2))) if len(h.group(1)) == 3 else None
        body = [(j, lines[j]) for j in range(k + 1, end) if lines[j].strip()]
        if name and len(body) == 1 and not _FENCE.match(body[0][1]) and not _COMMAND.search(body[0][1]):
            j, value = body[0]
            r.keyed(name, value.strip(), j + first, "key-value", f"{h.group(2)}: {value.strip()}")


#: Devices as a write-up names them where the hardware table may lack them: a Cloud TPU by its generation
#: or its accelerator type (`TPU v6e`, `v6e-1`, `v5litepod-8`, `v5p-8`), an Apple chip (`Apple M5`, `on M5`,
#: `M3 Max`), an AMD Radeon RX card (`AMD RX 6800 XT`), a phone's system-on-chip (Snapdragon, Dimensity,
#: Exynos, Google Tensor: a write-up names the phone and its chip, whose GPU ran the model) and an Intel
#: laptop processor by its code name (`Lunar Lake`, whose built-in GPU ran the model). The table's own
#: names and aliases are the rest.
_DEVICE_WORDS = (
    r"(?:Google\s+)?(?:Cloud\s+)?TPU\s?v\d{1,2}[a-z]{0,4}(?:-\d{1,4})?",
    r"v[4-7](?:e|p|litepod)-\d{1,4}",
    r"(?:Apple\s+M[1-9]|(?<=\bon\s)M[1-9])(?:\s+(?:Pro|Max|Ultra))?",
    r"(?:AMD\s+)?(?:Radeon\s+)?RX\s?\d{3,4}(?:\s?(?:XTX|XT|GRE))?",
    # a phone's or board's system-on-chip, whose GPU runs the model (`Xiaomi 14 (snapdragon 8 gen 3)`)
    r"(?:Qualcomm\s+)?Snapdragon\s?(?:X\s(?:Elite|Plus)|\d\s?(?:Elite(?:\s?Gen\s?\d)?|Gen\s?\d)|\d{3})",
    # a Snapdragon named without the word where the sentence runs on it (`On X Elite,`, `On 8 Elite Gen 5,`)
    r"(?<=\bon\s)(?:X\s(?:Elite|Plus)|\d\s?Elite(?:\s?Gen\s?\d)?)",
    # its GPU, which llama.cpp's OpenCL backend runs on (`With Adreno 830,`, `QCS8550(Adreno 740)`)
    r"(?:Qualcomm\s+)?Adreno(?:\(TM\))?\s?\d{3}",
    r"(?:MediaTek\s+)?Dimensity\s?\d{3,4}",
    r"(?:Samsung\s+)?Exynos\s?\d{3,4}",
    r"Google\s+Tensor\s?G\d",
    # a phone named by its model, whose system-on-chip runs the model (`on Pixel 10`, `Pixel 9 Pro`)
    r"(?:Google\s+)?Pixel\s?\d{1,2}(?:\s?(?:Pro(?:\s?XL|\s?Fold)?|XL|a))?",
    # an Intel Core Ultra processor by its code name, whose built-in Arc GPU runs the model (llama.cpp's
    # SYCL backend lists "built-in Arc GPU in Meteor Lake, Arrow Lake, Lunar Lake": `### Lunar lake`)
    r"(?:Meteor|Arrow|Lunar|Panther)\s+Lake",
    # a RISC-V board whose SiFive cores run the model (`HiFive Premier P550`, `HiFive Unmatched`)
    r"(?:SiFive\s+)?HiFive\s+(?:Premier\s+P\d{3}|Unmatched|Unleashed)",
    # accelerators the hardware table has no peaks for, named so that a page says which device it lacks
    # rather than that none is named: NVIDIA's Jetson modules (`jetson Orin`, `AGX Xavier`), Sophon's
    # BM168x chips, Qualcomm's Cloud AI 100, Huawei's Ascend NPUs, NVIDIA's T4, FuriosaAI's RNGD
    r"(?:NVIDIA\s+)?(?:Jetson\s+)?(?:AGX\s+)?(?:Orin|Xavier|Thor)(?:\s+(?:NX|Nano))?",
    r"Jetson\s+(?:Nano|TX2)",
    r"(?:Sophon\s+)?BM168[0-9]X?",
    r"Qualcomm\s+Cloud\s+AI(?:\s?100(?:\s+(?:Standard|Pro|Ultra))?)?|Cloud\s+AI\s?100(?:\s+(?:Standard|Pro|Ultra))?",
    r"(?:Huawei\s+)?Ascend\s?(?:910[ABC]?|310P?)",
    r"(?:NVIDIA\s+|Tesla\s+)T4",
    r"(?:FuriosaAI\s+|Furiosa\s+)?RNGD",
    # a bare `T4` only where the sentence runs on it (`I use a T4 to test`, `ran on T4`, `with one T4`) or
    # before `GPU`/`card`; alone it is too short a word to be one (a tier, a grid cell, `a T4 slot`)
    r"(?:(?<=\buse a )|(?<=\busing a )|(?<=\bwith a )|(?<=\bon a )|(?<=\bon )|(?<=\bon the )|(?<=\bone ))T4"
    r"|T4(?=\s+(?:GPUs?|cards?)\b)",
)
#: A Cloud TPU type whose number counts chips (v5e, v6e: `v6e-1` is one chip; v4's and v5p's count cores).
_TPU_CHIPS = re.compile(r"\bv(?:[56]e|5litepod)-(\d{1,4})\b", re.I)
#: Words that set devices beside each other or beside the run (`Unlike the RTX 4090 in last week's post`, `The
#: RTX 4090 is faster than the RTX 3090`, `comparable to the Nvidia L20`): a line with one names no device as the
#: run's; its devices are signs.
_COMPARED = re.compile(
    r"\b(?:unlike|compared\s+(?:to|with)|comparable\s+to|vs\.?|versus|than|instead\s+of|similar\s+to)\b", re.I
)
#: A line asking someone to run something (`can you check ... at least on b200`, `could you try H100`): a
#: device it names is where a run is asked for, not where one ran.
_ASKED = re.compile(r"\b(?:can|could|would)\s+you\b", re.I)


def compares(line: str) -> bool:
    """Whether a line sets devices beside each other or beside the run (`_COMPARED`): a device it names is
    a sign, never the run's device."""
    return bool(_COMPARED.search(line))


def asks(line: str) -> bool:
    """Whether a line asks someone for a run (`_ASKED`): a device it names is a sign, never the run's device."""
    return bool(_ASKED.search(line))


#: A count written before a device (`two DGX Sparks`, `dual DGX Sparks`, `8× RTX PRO 6000`): so many of them.
#: A path as a file system writes one (`/data/a100/x`, `~/h100/run`, `./b200/log`, `a/b/c`); `RTX4090/L4` is two cards.
_FILE_PATH = re.compile(r"(?<![\w:/.-])(?:(?:~|\.{1,2})?/(?:[\w.+-]+/)*[\w.+-]+|[\w.+-]+(?:/[\w.+-]+){2,})/?")
_COUNT_WORD = re.compile(r"(?:\b(\d{1,3})\s*[x×*]?|\b(dual|twin|two|three|four|eight))\s*$", re.I)
_NUMBER_WORDS = {"dual": 2, "twin": 2, "two": 2, "three": 3, "four": 4, "eight": 8}


def preload() -> None:
    """Read the device and model names and compile their pattern now, once for this process and every
    copy it forks after (`benchbook report`, before its chapters fork: a chapter that reads a text's
    context would otherwise compile the pattern again, 0.1 s of CPU in each process)."""
    _device_pattern(str(config.DATA_DIR / "hardware.csv"))
    _model_table(str(config.DATA_DIR / "models.csv"))


@lru_cache(maxsize=4)
def _device_pattern(path: str) -> re.Pattern:
    """Every non-CPU name, alias and part code (the name's first word) of the hardware table (read with the csv module, as `hardware` reads
    it) and `_DEVICE_WORDS`, longest first, as whole words: not inside another word, a model's id
    (`Qwen3-235B-A22B`) or a path (`_FILE_PATH`, taken out first). Group 1 is the name; group 2 a variant written after a hyphen
    (`-3e` of `H20-3e`, another part than the H20); a plural `s` after them is no part of the name."""
    names = set()
    with open(path, newline="", encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            if row["kind"] != "cpu":
                names |= {a.strip() for a in [row["gpu"], *(row.get("aliases") or "").split(";")] if a.strip()}
                family = row["gpu"].split("-")[0]  # `H100` of H100-SXM5-80GB: the part several rows are
                names |= {family} if re.fullmatch(r"[A-Za-z]+\d+[A-Za-z]*", family) else set()
    words = [r"[^A-Za-z0-9\n]{0,2}".join(map(re.escape, re.split(r"[^A-Za-z0-9]+", n))) for n in names]
    words = sorted(words, key=len, reverse=True) + list(_DEVICE_WORDS)
    # boundaries are ASCII: a name glued to CJK text is still a name (`算子BM1684不支持`, Chinese sets no spaces)
    return re.compile(
        r"(?<![A-Za-z0-9_.-])(" + "|".join(words) + r")(-\d+[a-z]+)?s?(?![A-Za-z0-9_-]|\.[A-Za-z0-9_])", re.I
    )


#: A GeForce card by its bare model number with its memory beside it (`on 5090 (32GB memory)`).
_BARE_CARD = re.compile(r"(?<![\w.-])(\d{4})\s*\(\s*(\d+)\s*GB\b", re.I)
#: A GeForce card by its bare model number after a count glued to it (`8x3090`, `2x 5090`, `4 x 3090`):
#: that many of the card (a multiplier before a word, `2x faster`, names none).
_COUNTED_CARD = re.compile(r"(?<![\w.])([1-9]\d?)\s*[x×]\s*(\d{4})(?![\w.])", re.I)


def _gpus_counted(text: str) -> int | None:
    """The count `_N_GPUS` reads in a sentence (`on 8 GPUs`), passing over a number that is a GeForce card's model
    number in the hardware table (`Running on 2x9115, 768gb ram, 3090 gpu`: the RTX 3090, one card, not 3090
    of them): such a number before `GPU` is the card written by its number."""
    numbers = _card_numbers(str(config.DATA_DIR / "hardware.csv"))
    return next((int(m.group(1)) for m in _N_GPUS.finditer(text) if m.group(1) not in numbers), None)


@lru_cache(maxsize=2)
def _bare_cards(path: str) -> dict[tuple[str, int], str]:
    """(model number, memory in GB) -> name, for the table's GeForce rows named by line and number alone
    (`RTX-5090`, 32 GB): a bare number is that card only where the memory written beside it is the row's."""
    out = {}
    with open(path, newline="", encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            m = re.fullmatch(r"(RTX|GTX)-(\d{4})", row["gpu"])
            if m and row.get("memory_gb"):
                out[(m.group(2), round(float(row["memory_gb"])))] = f"{m.group(1)} {m.group(2)}"
    return out


@lru_cache(maxsize=2)
def _card_numbers(path: str) -> dict[str, str]:
    """Model number -> name, for the table's GeForce rows named by line and number alone (`RTX-3090`), where
    one row has that number."""
    rows = list(dict.fromkeys(re.fullmatch(r"(RTX|GTX) (\d{4})", n).groups() for n in _bare_cards(path).values()))
    return {num: f"{line} {num}" for line, num in rows if [n for _, n in rows].count(num) == 1}


def _read_devices_in_words(r: _Reader, lines: list[str], first: int) -> None:
    """A device a heading, a short label (`On H100:`, `<summary>AMD RX 6800 XT</summary>`) or a sentence
    names (`ran on b200 again`, `## v6e-1 (single chip)`), outside code blocks, tables, delimited or
    quoted rows (a tool's data) and commands, read only where no other line names a device; a sentence before a
    command on its line is read (`test on runpod 2x 3090 using `text-generation-benchmark ...``), and so are
    the cells of a table's row that speaks of a device (`| llama.cpp | ..., GPU `Apple M3 Ultra` |`), a sign
    otherwise left unread. Headings
    come first (a title names the run's device above any sentence), then sentences: one device so named
    (a shorter name inside a longer one is the same, `H100` of `H100 SXM`; a variant is not, `H20` of
    `H20-3e`) is the run's; several are signs naming their lines, never a device, as is one set beside the
    run's (`_COMPARED`). `TP16` and `EP8` are
    parallel sizes and match no device name."""
    if any(f.name == "device" for f in r.facts):
        return
    table = str(config.DATA_DIR / "hardware.csv")
    pattern, cards, numbers = _device_pattern(table), _bare_cards(table), _card_numbers(table)
    signed = {g.line for g in r.signs if g.name == "device"}  # lines that speak of a device, read or not
    hits: dict[str, list[tuple[int, str, str]]] = {"heading": [], "prose": []}  # (line, name, line text)
    counted: dict[tuple[int, str], int] = {}  # a bare card number's glued count, by (line, name)
    inside = False
    for k, raw in enumerate(lines):
        if _FENCE.match(raw):
            inside = not inside
            continue
        row, cmd = _MD_ROW.match(raw), None
        if row and k + first in signed:  # a table's row that speaks of a device: its cells' words, as prose
            raw, row = " ".join(c.strip() for c in row.group(1).split("|")), None
        elif not row and (cmd := _COMMAND.search(raw)) and not _CLI_LEAD.fullmatch(raw[: cmd.start(1)]):
            # a sentence before a command on its line is prose (`test on runpod 2x 3090 using `tool ...``)
            raw, cmd = raw[: cmd.start(1)].rstrip(" `\"'("), None
        text = raw.strip()
        skip = row or cmd or _DELIMITED.match(text) or _QUOTED_ROW.search(text)
        if inside or not text or skip or text.startswith(("{", "[", '"')):
            continue
        words = _FILE_PATH.sub(" ", _URL.sub(" ", text))
        source = "heading" if _HEADING.match(raw) else "prose"
        named = [(m.group(1) + (m.group(2) or "")) for m in pattern.finditer(words)]
        named = named or [c for m in _BARE_CARD.finditer(words) if (c := cards.get((m.group(1), int(m.group(2)))))]
        if not named:  # `8x3090`: the card its number alone names in the table, that many of it
            glued = [(c, int(m.group(1))) for m in _COUNTED_CARD.finditer(words) if (c := numbers.get(m.group(2)))]
            named = [c for c, _ in glued]
            counted.update({(k + first, c): n for c, n in glued})
        for name in named:
            if _COMPARED.search(words) or _ASKED.search(words):  # a comparison or a request names no run's device
                r.signs.append(Sign("device", k + first, text[:200]))
            else:
                hits[source].append((k + first, name, raw))
    for source in ("heading", "prose"):
        glued = {re.sub(r"-(?=\d+[a-z]+$)", "", h[1], flags=re.I): h[1] for h in hits[source]}  # H20-3e: H203e
        names = [glued[n] for n in _most_specific(list(glued))]
        if len(names) > 1:
            for name in names:
                line, _, raw = next(h for h in hits[source] if h[1] == name)
                r.signs.append(Sign("device", line, raw.strip()[:200], words=name))  # one per device it names
            return
        if names:
            line, name, raw = next(h for h in hits[source] if h[1] == names[0])
            r.add("device", name, line, source, raw)
            text = _URL.sub(" ", raw.strip())
            chips = _TPU_CHIPS.search(name)
            before = _COUNT_WORD.search(text[: text.find(name)])
            if chips:
                r.add("device_count", int(chips.group(1)), line, source, raw)
            elif (line, name) in counted:
                r.add("device_count", counted[(line, name)], line, source, raw)
            elif before:
                r.add("device_count", int(before.group(1) or _NUMBER_WORDS[before.group(2).lower()]), line, source, raw)
            return


def _read_paths(r: _Reader, line: str, i: int) -> None:
    """A model named only in a path (`path_model`): the folder under a models folder (`/models/X`), or an
    organisation/name pair whose name carries a parameter count (`.../nvidia/Llama-3.1-8B-Instruct-FP8/...`,
    as a Hugging Face id is written). A path the line gives as its model or tokenizer is that fact already:
    a tokenizer's path never names the weights, and one inside a model value that is prose is its example."""
    taken = [str(f.value) for f in r.facts if f.line == i and f.name in ("model", "tokenizer")]
    taken += [v for k, v in r.prose if k == i]  # a help text's example id (`eg. org/name`) is no model either
    for m in _PATH.finditer(line):
        path = m.group(1)
        if any(path in t or t in path for t in taken) or re.search(r"tokenizer\S*[\s=:]+\S*$", line[: m.start(1)]):
            continue
        parts = [p for p in path.split("/") if p not in ("", "~", ".", "..")]
        names = parts[:-1] if _FILE_NAME.search(parts[-1]) else parts
        for k, part in enumerate(names):
            if (system := _SYSTEM_ID.fullmatch(part)) and _device_pattern(str(config.DATA_DIR / "hardware.csv")).match(
                system["device"].replace("-", " ")
            ):  # the accelerator starts with a device's name
                r.add("device", system["device"], i, "prose", line)
                r.add("device_count", int(system["count"]), i, "prose", line)
            if k > 0 and names[k - 1].lower() in _MODELS_DIRS and re.search(r"[-\d]", part):
                r.add("path_model", part, i, "prose", line)  # a model's name has a `-` or a digit (not `gguf/`)
            elif k > 0 and _NAME_SIZE.search(part) and _SYSTEM_ID.fullmatch(names[k - 1]):
                r.add("path_model", part, i, "prose", line)  # a system's folder is no organisation
            elif (
                k > 0
                and _NAME_SIZE.search(part)
                and re.fullmatch(r"[A-Za-z][\w.-]*", names[k - 1])
                and names[k - 1].lower() not in _OUTPUT_DIRS
            ):
                r.add("path_model", f"{names[k - 1]}/{part}", i, "prose", line)


#: A power key and its total-over-GPUs twin (InferenceX's `avg_power_w` beside `avg_total_gpu_power_w`): the first is
#: that total divided by the GPUs observed (utils/aggregate_power.py, `avg_power_w = avg_total_gpu_power_w /
#: len(observed_gpu_ids)`), one GPU's mean.
_TOTAL_GPU_TWIN = re.compile(r"[\"']?([a-z0-9]+)_total_gpu_power_w[\"']?\s*[:=]")
_POWER_KEY = re.compile(r"^[\"']?([a-z0-9]+)_power_w[\"']?\s*[:=]")


def _per_replica(r: _Reader) -> None:
    """On a line whose counted pods give every GPU (`4 vLLM pods ..., each with 4 H100 GPUs`: 16, all GPUs), the
    pod's own count read from the same line (4) is one replica's devices: scoped "per replica", not a second
    count of the run's devices."""
    for k, f in enumerate(r.facts):
        if f.name != "device_count" or f.scope not in (None, "scope not stated"):
            continue
        pods, each = _PODS.search(f.text), _PER_MACHINE.search(f.text)
        whole = any(g.name == "device_count" and g.line == f.line and g.scope == "all GPUs" for g in r.facts)
        if pods and each and whole and str(f.value) == (each.group(1) or each.group(2)):
            r.facts[k] = replace(f, scope="per replica")


def _per_gpu_twins(r: _Reader, lines: list[str]) -> None:
    """A power whose key has a total-over-GPUs twin in the file (`_TOTAL_GPU_TWIN`) and names no scope is per GPU."""
    twins = {m.group(1) for x in lines for m in _TOTAL_GPU_TWIN.finditer(x)}
    if not twins:
        return
    for k, f in enumerate(r.facts):
        m = _POWER_KEY.match(f.text)
        if f.name == "power" and f.scope == "scope not stated" and m and m.group(1) in twins:
            r.facts[k] = replace(f, scope="per GPU")


def _read_json_document(r: _Reader, lines: list[str]) -> None:
    """A file that is one JSON document spread over lines: keys nested under objects whose pairs
    sat on lines of their own were read line by line already; this adds nothing twice."""
    if not lines or not lines[0].lstrip().startswith(("{", "[")):
        return
    try:
        doc = json.loads("\n".join(lines))
    except ValueError:
        return
    token_rates = set(_token_rates(json.dumps(doc))) - {None}
    for k, v in _walk_json(doc):
        name = KEYS.get(_norm(k))
        if name == "rate" and json.dumps(v) in token_rates:
            continue
        if name and not any(f.name == name for f in r.facts):
            r.keyed(name, v if not isinstance(v, bool) else None, 1, "json", f"{k}: {v}")


#: The parallel sizes a server's launch states (`--tp-size`, `--pipeline-parallel-size`, `--dp`).
PARALLEL_SIZES = ("tp", "pp", "dp")

#: A server's launch command, as a write-up runs it before its benchmark: its settings are the server's.
_LAUNCH = re.compile(
    r"\b(?:vllm\s+serve|sglang\s+serve|mindie\s+serve|sglang\.launch_server|text-generation-launcher|trtllm-serve"
    r"|llama-server"
    r"|ilab\s+model\s+serve)\b"
)


def serves(fact: Fact) -> bool:
    """Whether `fact` was read off a server's launch command (`_LAUNCH`: `vllm serve MODEL`, `llama-server -m
    FILE.gguf`): the weights that server loads, where a benchmark client's `--model` names only the model it
    requests and the tokenizer it counts with (vLLM's `bench serve --model` sends that name; the server decides
    what answers)."""
    return fact.source == "command" and bool(_LAUNCH.search(fact.text))


def ran(context: Context, lines: Sequence[str], results: Iterable[int]) -> Context:
    """`context` with the facts of each server launch written after every result (`results`: the lines
    the tool's numbers are on) kept as signs only, where a launch above them ran them: a variant the
    write-up goes on to describe (an EP/DP section's `vllm serve ... -dp 8` below the TP 8 results)
    launched none of them and says nothing of them. A launch above the results stays: which of several
    ran a block is the chapter's to say (`launched`). One launch, or none above a result: `context`
    as it is."""
    starts, results = _launches(context, lines), sorted(int(x) for x in results if x == x)
    if len(starts) < 2 or not results or starts[0] > results[-1]:
        return context
    idle = {c for c in starts if c > results[-1]}
    dropped = [f for f in context.facts if f.source == "command" and f.command in idle]
    if not dropped:
        return context
    kept = tuple(f for f in context.facts if f not in dropped)
    return replace(context, facts=kept, signs=context.signs + tuple(Sign(f.name, f.line, f.text) for f in dropped))


def examples_after(context: Context, lines: Sequence[str], results: Iterable[int]) -> Context:
    """`context` with every fact from the first command written after the last result (`results`: the lines
    the tool's numbers are on) on, or from the first heading between them, left out with their signs (they are
    no sign of the run's settings either), where two or more such commands set one setting to different
    values (`--request-rate 32` in one, `--concurrency 10` in the next, or two concurrencies): a tutorial's
    usage examples under its sample output, none of which made it (one output cannot have two settings). A
    single command below the results (`I ran: ...`, a `### Benchmark Command` under them) stays theirs."""
    results = [int(x) for x in results if x == x]
    if not results:
        return context
    last = max(results)
    after = [f for f in context.facts if f.source == "command" and f.command and f.command > last]
    commands: dict[int, dict[str, object]] = {}
    for f in after:
        commands.setdefault(f.command, {})[f.name] = f.value
    if len(commands) < 2:
        return context
    names = {n for c in commands.values() for n in c} & _SETTINGS
    if not any(len({str(c.get(n)) for c in commands.values()}) > 1 for n in names):
        return context  # one command repeated (a wrapped copy, a second terminal): not alternatives
    # from the first example on, the text is the examples' (a server they start, a request they post), and
    # so is the section it opens under, where a heading below the results opens it (`## 4. Examples`)
    first = min(commands)
    cut = min((at for at in sections(lines) if last < at <= first), default=first)
    return replace(
        context,
        facts=tuple(f for f in context.facts if f.line < cut),
        signs=tuple(g for g in context.signs if g.line < cut),
    )


def without(context: Context, spans: Iterable[tuple[int, int]]) -> Context:
    """`context` with the facts and signs of the lines in `spans` ((first, last), 1-based) left out: text
    the tool's parser found to be another run's (`Parsed.others`) states nothing of this output's runs."""
    spans = list(spans)
    if not spans:
        return context

    def kept(line: int) -> bool:
        return not any(a <= line <= b for a, b in spans)

    return replace(
        context,
        facts=tuple(f for f in context.facts if kept(f.line)),
        signs=tuple(g for g in context.signs if kept(g.line)),
    )


def launched(context: Context, lines: Sequence[str], results: Iterable[int]) -> int | None:
    """The first line of the one server launch that ran every result (the nearest launch above each),
    where the file gives several launches; None otherwise. Its parallel sizes are the run's: a size it
    leaves out is the server's default (1), whatever an alternative script or a note beside it says."""
    nearest = set(_nearest_launch(context, lines, results).values())
    return nearest.pop() if len(nearest) == 1 and None not in nearest else None


def launched_each(context: Context, lines: Sequence[str], results: Iterable[int]) -> dict[int, int] | None:
    """{result line: the first line of the nearest server launch above it}, where every result has one and
    they are not all one launch (a write-up that pastes each engine's or each setting's results under its own
    serving script); None otherwise (`launched` gives the one). Each result's parallel sizes are its launch's."""
    nearest = _nearest_launch(context, lines, results)
    if not nearest or None in nearest.values() or len(set(nearest.values())) < 2:
        return None
    return nearest


def _nearest_launch(context: Context, lines: Sequence[str], results: Iterable[int]) -> dict[int, int | None]:
    """{result line: the first line of the nearest launch above it, None where none is or where it is one of
    `alternatives`}, where the file gives several launches (`_launches`); empty otherwise, or where no result
    has a line."""
    starts, results = _launches(context, lines), [int(x) for x in results if x == x]
    if len(starts) < 2:
        return {}
    unsaid = alternatives(context, lines, results)
    nearest = {x: max((c for c in starts if c <= x), default=None) for x in results}
    return {x: None if c in unsaid else c for x, c in nearest.items()}


def alternatives(context: Context, lines: Sequence[str], results: Iterable[int]) -> set[int]:
    """The first lines of server launches written together above a result (no result between them, one section)
    that span different numbers of devices (`--tp-size 4`, then `--tp-size 8`, then the benchmark and its block): the file
    lists the servers it compared and does not say which one printed the block, so none of them states the
    run's parallel sizes, the nearer no more than the other. Launches that agree on the count (a TP 4 script and
    a DP 4 one on one 4-GPU host) leave the nearest the results' (`launched`)."""
    starts, results = _launches(context, lines), sorted(int(x) for x in results if x == x)
    heads = sections(lines)

    def section(line: int) -> int:
        return max((h for h in heads if h <= line), default=0)

    out: set[int] = set()
    for x in results:
        before = max((r for r in results if r < x), default=0)
        group = [c for c in starts if before < c <= x]
        # a launch in an earlier section (a conclusion's recommended command) is superseded by the one in the
        # result's own: only launches written together in one section are alternatives
        group = [c for c in group if section(c) == section(group[-1])] if group else []
        if len({launch_devices(context, c) for c in group}) > 1:
            out.update(group)
    return out


def launch_devices(context: Context, launch: int) -> int:
    """How many devices the launch starting at line `launch` spans by its own flags: TP x PP x DP, a size it
    leaves out being 1, and DP inside TP where it enables SGLang's DP attention."""
    facts = [f for f in context.facts if f.command == launch]
    size = {k: next((f.value for f in facts if f.name == k and isinstance(f.value, int)), 1) for k in PARALLEL_SIZES}
    inside = any("enable-dp-attention" in f.text for f in facts)
    return size["tp"] * size["pp"] * (1 if inside else size["dp"])


def _launches(context: Context, lines: Sequence[str]) -> list[int]:
    """The first lines of the file's server launch commands (`_LAUNCH`), in order."""
    return sorted(
        {
            f.command
            for f in context.facts
            if f.source == "command"
            and f.command
            and 0 < f.command <= len(lines)
            and _LAUNCH.search(lines[f.command - 1])
        }
    )


def sections(lines: Sequence[str]) -> dict[int, int]:
    """{line: level} of each Markdown heading outside a fenced code block: where a write-up's
    sections start and how deep (`## ...` is 2). A `# node 0` comment in a pasted script is none."""
    out, inside = {}, False
    for i, raw in enumerate(lines, start=1):
        if _FENCE.match(raw):
            inside = not inside
        elif not inside and (h := _HEADING.match(raw)):
            out[i] = len(h.group(1))
    return out


def merge(structured: Mapping[str, object], context: Context, line: int = 0) -> Context:
    """The parser's own facts (`structured`: fact name to one value the tool recorded for the
    whole file, e.g. {"tp": 2}) ahead of the context's, by the module's precedence; each context
    fact of that name with another value is a `Conflict` the page states."""
    parsed = [Fact(n, v, line, "parser", f"{n}: {v}") for n, v in structured.items() if v is not None]
    conflicts = list(context.conflicts)
    for p in parsed:
        for f in context.get(p.name):
            if not _same(p.value, f.value):
                conflicts.append(Conflict(p.name, p, f))
    return replace(context, facts=tuple(parsed) + context.facts, conflicts=tuple(conflicts))


def _same(a, b) -> bool:
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return float(a) == float(b)
    return _norm(str(a)) == _norm(str(b))


#: Table columns that hold a fact this reader also reads: a parser's column left empty for the whole
#: file takes the one value the rest of the file states (llama-bench's and the HF batch sweep's `gpu`,
#: llama-bench's `cpu`: a markdown table has no cpu_info column, the `CPU:` line above it names it; the
#: model, concurrency cap and batch a console table or a log leaves to the command or heading above it;
#: the energy contract's `device`, the same fact as llama-bench's `gpu`, where a power line's parser
#: found no device of its own: the machine a heading above the table names; llama-bench's `gpus_listed`, the
#: devices its build sees, where no `gpu_info` lists them: the devices the file says the run spans, `dual DGX
#: Sparks` behind an RPC backend, over which a layer split spreads the model).
COLUMNS = {"cpu": "cpu", "gpu": "device", "model": "model", "max_concurrency": "concurrency", "batch_size": "batch"}
COLUMNS |= {"request_rate": "rate"}  # one rate stated above results that print none (ROCm/vllm#375's prose) is theirs
COLUMNS |= {"tensor_parallel": "tp", "device": "device", "gpus_listed": "device_count"}
#: the prompts sent, where the output counts none: a sentence above the results (`in 1000 requests`) states
#: them as a command's `--num-prompts` does, and the failed requests are the rest (`analysis.serving`)
COLUMNS |= {"num_prompts": "prompts"}
#: Columns a parser reads from its own structured output when the tool records them: a JSON field the
#: parser left aside (GuideLLM's per-strategy worker `max_concurrency`) is not the run's setting, so
#: these take only what the text around the output states (a command, a labelled line, a heading).
AROUND_ONLY = {"model", "max_concurrency", "batch_size", "tensor_parallel", "request_rate", "num_prompts"}
#: Columns a file states only above its results: a request rate under a block is the next run's (SGLang's
#: `benchmark_args=Namespace(... request_rate=10.0 ...)` opens the run after it), never one run's tied by place.
ABOVE_ONLY = {"request_rate", "num_prompts"}
#: Columns filled only from a sentence: a `Request count: 7` line is a tool's count of the requests it measured
#: (perf_analyzer's client block), not the prompts a run was given, and a command's `--num-prompts` is its
#: parser's to read (SGLang's leaves it empty where the block prints another rate than the command asks).
SAID_ONLY = {"num_prompts": ("prose",)}
#: Columns filled on their own: most outputs print no prompt count, so an empty `num_prompts` column alone does
#: not open the whole fill (which would tie other columns, a model by its nearest command, that nothing left empty).
ALONE = ("num_prompts",)


#: Sources of a model named in a title or a sentence (`_read_model_named`): read only where no command,
#: labelled line or caption names one (`_worded_last`).
WORDED = ("heading", "prose")


def labels_another_block(fact: Fact, read: Iterable[int]) -> bool:
    """Whether `fact` is a caption's (it labels the block or section under it, up to `until`) with every line
    the tool read (`read`) above it: it names no run read, only a block below them (a heading over a cut block)."""
    read = [int(n) for n in read if n == n]
    return bool(read) and fact.until is not None and all(n < fact.line for n in read)


def placeholder(value) -> bool:
    """A value the file leaves for its reader to fill (`$MODEL_PATH/...`, `<model>`, a template's one capital
    letter: `--model M`, `-tp X`), or a variable's name the shell replaces before the program runs (cmd.exe's
    `%MODEL_PATH%`, as sh's `$MODEL_PATH`): names nothing."""
    v = str(value).strip().strip("\"'")
    return v.startswith(("$", "<", "{", "%")) or bool(re.fullmatch(r"[A-Z]", v))


def fill(table, context: Context, columns: Sequence[str] | None = None) -> list[str]:
    """Fill, in place, each of `COLUMNS` that `table` has and leaves empty in every row with the one
    value `context` states for it (the parser's own fields rank first: a column with any value is
    left alone); a message per column filled, naming the line. Several values: left empty, said,
    except for `NEAREST_COMMAND` facts, which each empty row takes from the command above it. `columns`:
    only these (by default, all of `COLUMNS`)."""
    messages = []
    if "line" in table.columns:  # a thread's writer of none of the rows' posts names none of their facts
        context = replace(context, facts=tuple(of_posts(context, context.facts, table["line"].dropna())))
    for col, name in COLUMNS.items():
        if col not in table.columns or (columns is not None and col not in columns):
            continue
        empty = table[col].astype("string").fillna("").str.strip().eq("")
        if not empty.all():
            if name in NEAREST_COMMAND and empty.any():
                facts = [f for f in context.get(name) if not placeholder(f.value)]
                above = _nearest_command(table[empty], context.get(name), table["line"], context.headings_at)
                if above is not None:  # a path the parser wrote by its last part is that part
                    above, how = above
                    named = set(table.loc[~empty, col].astype(str))
                    above = [_last_part(v) if _last_part(v) in named else _full_id(v, named) for v in above]
                    table.loc[empty, col] = above
                    messages.append(f"{col}: {how}")
            continue
        facts = [f for f in context.get(name) if not placeholder(f.value)]
        facts = [f for f in facts if f.source != "json"] if col in AROUND_ONLY else facts
        if name in SECTION_DEVICES and (scoped := by_section(table, facts, context)) is not None:
            table[col] = scoped
            said = ", ".join(f"{f.value!r} (line {f.line})" for f in facts)
            messages.append(f"{col}: each heading names the device of its own section only: {said}; none elsewhere")
            continue
        if col in SAID_ONLY:
            facts = [f for f in facts if f.source in SAID_ONLY[col]]
        if col in ABOVE_ONLY and "line" in table:  # a log prints a run's settings before its results
            facts = [f for f in facts if f.line < table["line"].min()]
        if col == "gpu":  # the machine the table prints as its CPU, named again in the text, is that CPU
            facts = [f for f in facts if frozenset(_words(f.value)) not in _printed_cpus(table)]
        values = list(dict.fromkeys(f.value for f in facts))
        others = _run_by_another(table, facts, context) if len(values) == 1 else None
        if others is not None:  # a script's default: its runs take it, another script's runs have none stated
            table.loc[[o is None for o in others], col] = values[0]
            runs = "; ".join(f"line {k} runs {s}" for k, s in dict.fromkeys(o for o in others if o))
            messages.append(
                f"{col} {values[0]!r}: read from line {facts[0].line}, a default of {facts[0].script}, for its runs "
                f"only; not stated for the others ({runs}), whose defaults the file does not give"
            )
            continue
        if name == "model" and all(f.source in WORDED for f in facts):  # `Llama 3.3 70B` and `Llama-3.3-70B-Instruct`
            values = [v for v in values if not any(_tagged(v, o) for o in values)]
            values = [v for v in values if not any(_same_model(v, o) and _fuller(v, o) for o in values)]
            facts = [f for f in facts if f.value in values]
        if name == "model":  # a caption naming a model the file names in full elsewhere adds none
            captions = {f.value for f in facts if f.source == "caption"}
            values = [v for v in values if v not in captions or not any(_same_model(v, o) for o in values if o != v)]
            values = [v for v in values if v not in served_names(context, values)]
            facts = [f for f in facts if f.value in values]
        if name == "device":
            values = _most_specific(values)
            facts = [f for f in facts if f.value in values]
        if name == "model" and len(values) == 1 and (formats := run_formats(table)):
            # runs the file names by weights of different formats are of different checkpoints
            said = "; ".join(f"{run!r}: {', '.join(sorted(f)) or 'none'}" for run, f in formats.items())
            messages.append(
                f"model: the runs' own names give their weights different formats ({said}), so the one model "
                f"line {facts[0].line} names is tied to none"
            )
        elif len(values) == 1:
            table[col] = values[0]
            messages.append(f"{col} {values[0]!r}: read from line {facts[0].line} ({facts[0].source}), not the table")
        elif (
            values
            and name in NEAREST_COMMAND
            and (above := _nearest_command(table, context.get(name), table["line"], context.headings_at)) is not None
        ):
            table[col] = above[0]
            messages.append(f"{col}: {above[1]}")
        elif values:
            lines = ", ".join(str(f.line) for f in facts[:4])
            messages.append(f"{col}: the file names {len(values)} values (lines {lines}) and ties none to the table")
    return messages


#: Facts a heading states for its own section only, where the file's headings name several devices
#: (`### RTX-4080` over one table, `### Ryzen-7950X (Zen4)` over the next): each table is its heading's device.
SECTION_DEVICES = ("device", "cpu")


def _heading_level(text: str) -> int:
    """A Markdown heading's level (`### x` is 3); 7 for a heading that is not one (an HTML summary)."""
    m = re.match(r"\s*(#{1,6})\s", text)
    return len(m.group(1)) if m else 7


def by_section(table, facts: Sequence[Fact], context: Context) -> list | None:
    """Per row of `table` (by its `line`), the value of the fact of `facts` whose heading opens the
    row's section (its nearest heading above, or one enclosing that: a heading of a lower level), None
    where no such heading names one; None (no scoping) unless every fact is a heading's and the file's
    headings name two devices or more (`SECTION_DEVICES`: a GPU's or a CPU's, on different lines). One
    heading naming a device over a write-up (`## Benchmarks on an RTX 4090`) stays the file's device:
    `fill` ties it to every row as before."""
    if not facts or "line" not in table.columns or any(f.source != "heading" for f in facts):
        return None
    named = {f.line for n in SECTION_DEVICES for f in context.get(n) if f.source == "heading"}
    if len(named) < 2:
        return None
    at = {f.line: f.value for f in facts}
    heads = sorted(context.headings, key=lambda h: h.line)
    out = []
    for line in table["line"]:
        value, limit = None, 8
        for h in reversed([h for h in heads if line == line and h.line <= line]):
            level = _heading_level(h.text)
            if level >= limit:
                continue  # a heading of a section the row's own has closed
            if h.line in at:
                value = at[h.line]
                break
            limit = level
        out.append(value)
    return out


def _run_by_another(table, facts: Sequence[Fact], context: Context) -> list | None:
    """Per row of `table` (by its `line`), where `facts` are the defaults of one script: `other_script`'s
    (line, script) for the row, else None; None where no row is another script's."""
    scripts = {f.script for f in facts}
    if len(scripts) != 1 or None in scripts or "line" not in table.columns:
        return None
    out = [other_script(context, facts[0].name, line) for line in table["line"]]
    return [o[:2] if o else None for o in out] if any(out) else None


def other_script(context: Context, name: str, line: int) -> tuple[int, str, Fact] | None:
    """(line, script, a default) of the nearest script run above `line` (`Context.scripts`) where the file
    gives the fact `name` only as the defaults of other scripts (`Fact.script`): the results at `line` are
    that script's, and its `name` is not stated (the default is another script's, said beside it); else
    None. A script's defaults are the settings of that script's runs only."""
    facts = [f for f in context.get(name) if not placeholder(f.value)]
    scripts = {f.script for f in facts}
    above = [run for run in context.scripts if run[0] < line]
    if not facts or None in scripts or not above or above[-1][1] in scripts:
        return None
    return (*above[-1], facts[0])


def run_formats(table) -> dict[str, frozenset[str]]:
    """{run: the weights formats its own name writes (`_SCHEME_WORD`: `vLLM+Awq+4bit`)} where a table's
    runs are named by formats that differ (one names none, or another); {} otherwise. A model or
    precision named once elsewhere in the file is then no one run's: each run's name says its own."""
    if "run" not in table.columns:
        return {}
    names = list(dict.fromkeys(str(v) for v in table["run"].dropna()))
    formats = {n: frozenset(w for w in _words(n) if _SCHEME_WORD.match(w)) for n in names}
    return formats if len(set(formats.values())) > 1 else {}


def served_names(context: Context, models) -> set:
    """The `--served-model-name`s of commands that serve one of `models` (`vllm serve M
    --served-model-name X`): X is the name clients use for M, the same model, never another."""
    return {
        f.value for f in context.get("served_name") if any(m.value in models for m in context.same_command(f, "model"))
    }


#: Facts a block takes from the nearest command above it when the file names several: a `--model` /
#: `--model-path` argument names the model the results printed after it ran on (a write-up runs its
#: commands and pastes each one's output below it), and so does a caption over the block (a command
#: between the caption and the result is the nearer).
NEAREST_COMMAND = ("model",)


def _nearest_command(table, facts: Sequence[Fact], results=(), headings_at: Sequence[int] = ()):
    """Per row of `table` (by its `line`), the value of the last caption above it where every row has
    one and no command stands between the two, else of the last command fact at or above it; with
    the message saying which (and its lines). None unless every row has one (a result printed above
    every command is tied to none) and it names a model (a `--model ${model}` between a server's
    command and the result runs a model the command line leaves to a variable: the server's is not
    assumed). Each command that changes the model must have results (`results`: every row's line)
    after it before the next one: commands listed together in a setup section and results printed
    later tie to none."""
    commands = sorted((f for f in facts if f.source == "command"), key=lambda f: f.line)
    commands = _in_results_sections(commands, results, headings_at)
    captions = sorted((f for f in facts if f.source == "caption"), key=lambda f: f.line)
    for marks, between, how in (
        (captions, commands, "each result takes the model the caption above it names"),
        (commands, (), "each result takes the model of the nearest command above it"),
    ):
        values = _nearest(table, marks, results, between)
        if values is not None:
            return values, f"{how} (lines {', '.join(str(f.line) for f in marks)})"
    return None


def _in_results_sections(commands: list[Fact], results, headings_at: Sequence[int]) -> list[Fact]:
    """`commands` (by line) without those a nearer command supersedes: a command in a section that holds no
    result (`headings_at`: where sections start), followed before the next result by a command in a section
    that holds one, ran none of them (a write-up's recommended command in its conclusion, the benchmark's
    client command in its setup: the results are under their own serving script). Commands listed together
    in a section with no result, all before the results' own sections, stay: which ran what is then unsaid."""
    results = sorted(int(x) for x in results if x == x)
    if not headings_at or not results:
        return commands

    def section(line: int) -> int:
        return max((h for h in headings_at if h <= line), default=0)

    held = {section(r) for r in results}
    out = []
    for f in commands:
        after = next((r for r in results if r >= f.line), None)
        if (
            section(f.line) not in held
            and after is not None
            and any(f.line < c.line < after and section(c.line) in held for c in commands)
        ):
            continue
        out.append(f)
    return out


def _nearest(table, marks: list[Fact], results, between: Sequence[Fact]) -> list | None:
    """`_nearest_command`'s rule over one kind of mark (commands or captions, by line)."""
    if not marks or "line" not in table.columns:
        return None
    changes = [f for k, f in enumerate(marks) if k == 0 or f.value != marks[k - 1].value]
    for a, b in zip(changes, changes[1:], strict=False):
        if not any(a.line <= line < b.line for line in results):
            return None
    values = []
    for line in table["line"]:
        above = [f for f in marks if f.line <= line]
        if not above or placeholder(above[-1].value) or any(above[-1].line < c.line <= line for c in between):
            return None
        if above[-1].until is not None and line > above[-1].until:
            return None  # past the block or section its caption labels
        values.append(above[-1].value)
    return values


def _same_model(a, b) -> bool:
    """Whether two names of a model name the same one: the words of one's last path part all in the
    other's (`Llama-3.1-8B` and `meta-llama/Llama-3.1-8B-Instruct`; `Qwen3-8B` and `Qwen3-32B` differ)."""
    wa, wb = _words(_last_part(a)), _words(_last_part(b))
    return bool(wa and wb) and (wa <= wb or wb <= wa)


#: A word of a model's name that names its weights' format (`Qwen-32B-FP8`): a name that adds one to another
#: names another checkpoint of the model, not the same one written in full.
_SCHEME_WORD = re.compile(
    r"^(?:w\d+a(?:\d+|fp8)(?:kv\d+)?|nvfp4|mxfp4|fp[48]|awq|gptq|int[48]|[48]bit|bf16|fp16)$", re.I
)


def _fuller(short, full) -> bool:
    """Whether `full` writes the model `short` names with more words (`Llama 3.3 70B` and
    `Llama-3.3-70B-Instruct`, or its `-FP8-KV` checkpoint: a name in words names the model, not one of its
    checkpoints). Two identifiers, one adding a weights format, are two checkpoints (`Qwen-32B` and
    `Qwen-32B-FP8`, two runs' labels)."""
    extra = _words(full) - _words(short)
    identifier = not re.search(r"\s", str(short).strip())
    return _words(short) < _words(full) and not (identifier and any(_SCHEME_WORD.match(w) for w in extra))


def _tagged(value, bare) -> bool:
    """Whether `value` is the name `bare` the file also writes alone, behind a leading label of words no
    name of the model table has (`hjh2-Qwen3-VL-8B-Instruct` in a crowd-test task's title, `Qwen3-VL-8B-Instruct`
    in its text): the label is the writer's, the bare name the model's. `Meta-Llama-3-70B` keeps its `Meta`,
    a word of the table's names."""
    v, b = _last_part(value), _last_part(bare)
    if len(v) <= len(b) or not v.lower().endswith("-" + b.lower()):
        return False
    vocabulary = {w for words, _ in _model_table(str(config.DATA_DIR / "models.csv"))[0] for w in words.split()}
    return not (set(_model_words(v[: -len(b) - 1]).split()) & vocabulary)


def model_id(text: str | None) -> str | None:
    """The model a short text is, as a writer names a block after it (`Qwen3-0.6B-Q4_1`,
    `unsloth/Qwen3-8B-GGUF`): one id whose last part has a parameter count and no file's extension, and
    nothing else but punctuation; else None."""
    t = str(text or "").strip().strip("`*_:,.").strip()
    m = _CAPTION_MODEL.fullmatch(t)
    if not m or _FILE_NAME.search(t) or not (_NAME_SIZE.search(_last_part(t)) or _TENTH_SIZE.search(_last_part(t))):
        return None
    return t


def _full_id(value, named) -> object:
    """`value`, a bare name (`Qwen3-30B-A3B`), as the one hub id among `named` whose last part it is
    (`Qwen/Qwen3-30B-A3B`): one model, written in full where another command names it so."""
    full = {n for n in named if "/" in n and _last_part(n) == str(value)} if "/" not in str(value) else set()
    return full.pop() if len(full) == 1 else value


def _last_part(value) -> str:
    return str(value).rstrip("/").rsplit("/", 1)[-1]


def _words(value) -> set[str]:
    return set(filter(None, _norm(str(value)).split("_")))


def _printed_cpus(table) -> set[frozenset]:
    """The words of each CPU the table prints (llama-bench's cpu_info, compare-llama-bench.py's CPU column):
    a device the text names in the same words is that CPU, never the accelerator `gpu` holds (a compare
    table shows the CPU when its runs did not put every layer on the GPU)."""
    if "cpu" not in table.columns:
        return set()
    return {frozenset(_words(c)) for c in table["cpu"].dropna().astype(str) if c.strip()}


def _most_specific(names: list) -> list:
    """Device names with each one dropped whose words all appear in another, longer name: a file
    that calls its GPU `Radeon 8060S Graphics (gfx1151)` in gpu_info and `Radeon 8060S` in prose
    names one device, the longer name the more specific. Names that are not contained in one
    another (`H800`, `H200`) stay several."""
    return [v for v in names if not any(w != v and _words(v) < _words(w) for w in names) and _words(v)]


def needs_fill(table, columns: Sequence[str] | None = None) -> bool:
    """Whether `table` has a `COLUMNS` column left empty in every row (reading the context is then
    worth its pass over the file); `columns`: only these (by default, all but `ALONE`)."""
    columns = [c for c in COLUMNS if c not in ALONE] if columns is None else columns
    return any(c in table.columns and table[c].astype("string").fillna("").str.strip().eq("").all() for c in columns)
