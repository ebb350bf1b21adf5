"""The precision a run's weights are stored in, and their bytes per weight: one answer for every chapter.

Where it comes from, first found first:

1. the output: a quantization method that names a width (vLLM's `--quantization fp8`, trtllm-bench's
   `Quantization: FP8`, a precision in an MLPerf SUT or file name);
2. the model's name: a quantization tag (`-FP8`, `-FP8-dynamic`, `-AWQ`, `-GPTQ`, `-Int4`, `-w4a16`,
   `-w8a8`, `-NVFP4`, `-MXFP4`, `-bnb-4bit`, a GGUF tag such as `Q4_K_M`): a quantized checkpoint
   keeps its quantized weights whatever `--dtype` says (the dtype is then the activations');
3. the model table (data/models.csv `checkpoint_precision`, with its `precision_source`) where the
   released checkpoint is quantized (DeepSeek-V3's fp8, gpt-oss's MXFP4 experts): likewise kept under
   any `--dtype`;
4. the output's dtype (`--dtype float16`, trtllm-bench's `Dtype: bfloat16`): an unquantized
   checkpoint is loaded in it, whatever the table says it was saved in;
5. the model table's unquantized checkpoint precision (`--dtype auto` loads it);
6. else not stated: bf16 assumed (the caller says so) where the tool's default loads the checkpoint's
   own dtype. A tool that usually runs weights quantized its own way (an MLPerf submission, a
   TensorRT-LLM engine: `assume=False`) gets neither the table's checkpoint nor bf16: only what its
   output or the model's name states.

The KV cache's dtype is not the weights' and is never read here.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from benchbook.analysis import roofline

#: The precision an output's dtype names.
DTYPES = {"bfloat16": "bf16", "bf16": "bf16", "float16": "fp16", "fp16": "fp16", "half": "fp16"}
DTYPES |= {"float32": "fp32", "float": "fp32", "fp32": "fp32"}

_WO = r"(?:[-_]?(?:wo|weight[-_]?only))?"
_GGUF = r"i?q{n}(?:_[a-z0-9]+)*"
#: A quantization tag in a model's name or a quantization method, and the precision it stores
#: weights in (matched as whole words, `-` and `_` alike); an unquantized tag (`-bf16`) last. A `WxAy`
#: scheme (llm-compressor's W4A16, W8A8, W4A8; Ascend msit's W4A4, W8A8, W8A16) stores weights of x bits
#: whatever y, the activations' width; SGLang's W4AFp8 ("MIXED_PRECISION", `w4afp8.py`) is a mix: its MoE experts
#: in int4, its linear layers in fp8 (`Fp8LinearMethod`), whose share per token it does not give (no bytes). A width
#: written in the name (`GPTQ-Int8`, `gptq-8bit`, `w8a16`, `4bit`) comes before a method that names none:
#: GPTQ quantizes to 2, 3, 4 or 8 bits (AutoGPTQ's `BaseQuantizeConfig(bits=...)`, the bits a checkpoint's
#: name then gives), so a bare `GPTQ` or `AWQ` (AutoAWQ's `w_bit` is 4) is int4 only where no width is named.
#: AMD Quark's names put a `W` before the weights' format, an `A` before the activations' and `KV` before the KV
#: cache's (`...-WMXFP4-AMXFP4-KVFP8-...-GPTQ`: MXFP4 weights, quantized with GPTQ's algorithm): only the `W` one
#: is the weights'.
TAGS = (
    (r"w4afp8", "int4 experts, fp8 rest"),
    (r"w?(?:nv|mx)?fp4", "fp4"),
    (rf"int4{_WO}|w4a(?:16|8|4)(?:kv\d+)?|bnb[-_]?4[-_ ]?bit|4[-_ ]?bits?|{_GGUF.format(n=4)}", "int4"),
    (r"w?fp8(?:[-_](?:dynamic|static|block|e4m3))?|fp8_block_scales", "fp8"),
    (rf"int8{_WO}|w8a(?:8|16)|bnb[-_]?8[-_ ]?bit|8[-_ ]?bits?|{_GGUF.format(n=8)}", "int8"),
    *((_GGUF.format(n=n), f"int{n}") for n in (2, 3, 5, 6)),
    (r"int3|3[-_ ]?bits?", "int3"),
    (r"int2|2[-_ ]?bits?", "int2"),
    (r"awq|gptq", "int4"),
    (r"bf16|bfloat16", "bf16"),
    (r"fp16|f16|float16", "fp16"),
)
_METHOD = re.compile(r"(?<![a-z0-9])(?:awq|gptq|bnb)(?![a-z0-9])", re.I)
_TAG = [(re.compile(rf"(?<![a-z0-9])(?:{pat})(?![a-z0-9])", re.I), prec) for pat, prec in TAGS]
#: torchao's weight-only methods (`int8wo`, `int4_weight_only`) and w8a16/w4a16: narrow weights,
#: matmuls in the activations' dtype.
_WEIGHT_ONLY = re.compile(r"(?<![a-z0-9])(?:(?:int[48]|fp4)[-_ ]?(?:wo|weight[-_ ]?only)|w[48]a16)(?![a-z0-9])", re.I)


#: The unquantized precisions: a tag of one may name the activations of a quantized checkpoint.
UNQUANTIZED = ("bf16", "fp16", "fp32")


@dataclass(frozen=True)
class Weights:
    """A run's weight precision: `precision` (e.g. "fp8", "bf16", "int8 weight-only", "mxfp4 experts,
    bf16 rest"; None when not stated and nothing assumed), `bytes_per_weight` (per active weight; NaN
    when unknown), `source` ("output", "name", "checkpoint", "assumed", "not stated", or "per run" where runs name
    different ones) and `detail`
    (the setting, the tag, or the model table's source for the checkpoint)."""

    precision: str | None
    bytes_per_weight: float
    source: str
    detail: str = ""

    @property
    def assumed(self) -> bool:
        return self.source == "assumed"

    @property
    def known(self) -> bool:
        return not math.isnan(self.bytes_per_weight)


def peak_precision(label: str | None) -> str | None:
    """The precision whose dense peak bounds the matmuls of weights stored in `label`: the same for a
    plain precision; None for weight-only quantization and a mix (MXFP4 experts, bf16 rest), whose
    matmuls run in the activations' dtype, which the output does not state."""
    return label if label in roofline.BYTES_PER_WEIGHT else None


def tagged(*names) -> tuple[str, str] | None:
    """(precision, the tag as written) of the first name that carries a quantization tag, else None. A
    value that is a dtype alone, as vLLM's `--dtype` choices spell it (`half`, `float`), is that precision:
    the word names one only as a whole value, never inside a model's name."""
    for name in names:
        text = str(name or "")
        if text.strip().lower() in DTYPES:
            return DTYPES[text.strip().lower()], text.strip()
        for pattern, prec in _TAG:
            m = pattern.search(text.replace(".", "-"))
            if m:
                weight_only = bool(_WEIGHT_ONLY.search(text)) and prec in ("int8", "int4", "fp4")
                method = _METHOD.search(text.replace(".", "-"))  # the method beside its width names the tag
                method = method if prec.startswith("int") else None  # GPTQ beside a float format only made it
                return (f"{prec} weight-only" if weight_only else prec), (method or m).group(0)
    return None


def stated_names(paths) -> dict[str, tuple[str, ...]]:
    """Per file (by its name in the tidy table), the names the rest of it gives the run's weights
    (`ingest.context`: a `--model_path .../DeepSeek-R1-FP4`, vLLM's MoE config `dtype=int4_w4a16`,
    a `quantization: fp8` line) that carry a precision tag (`tagged`): read as the
    output's own precision where the table states none. An unquantized tag (a serve command's
    `--dtype bfloat16`) comes after every quantized one: it may be the activations' dtype of a
    quantized checkpoint, so `weights` reads it only where bf16 would otherwise be assumed. Where the
    file names several models whose names give different precisions (or one gives none: a bf16 and an
    AWQ checkpoint downloaded side by side), no model's tag is the file's answer; where a server's launch
    command names its weights (`context.serves`), those are the models, not a benchmark client's `--model`.
    A precision a command states beside the model it names (`vllm serve Qwen/Qwen2.5-VL-7B-Instruct --dtype
    bfloat16`) is that model's (`Tied`): `weights` never gives it to a run of another model. Where no
    server launch names the weights and no model's name carries a tag, a benchmark client's `--tokenizer`
    does name a checkpoint: vLLM's client loads its tokenizer from there because its `--model` is the
    server's alias (`meta-llama-3.2-11b-vision-instruct` beside `--tokenizer ...-FP8-dynamic`)."""
    from pathlib import Path

    from benchbook import config, ingest
    from benchbook.ingest import context
    from benchbook.ingest.vllm_serve import source_name

    out = {}
    for path in paths:
        if config.resolve(path).is_dir():
            continue  # a sweep folder: its run files' own settings say it
        ctx = ingest.context_of_lines(path)
        facts = [f for f in ctx.get("model") if not str(f.value).endswith(("...", "…"))]
        served = [f for f in facts if context.serves(f)]  # a server's weights, beside a client's `--model`
        models = list(dict.fromkeys(str(f.value) for f in (served or facts)))
        if len({t[0] if (t := tagged(m)) else None for m in models}) > 1:
            models = []  # models of different precisions (a bf16 and an AWQ download): no one tag is the runs'
        if not served and models and not any(tagged(m) for m in models):
            models += [str(f.value) for f in ctx.get("tokenizer")]  # the checkpoint an alias stands for
        # the name the server serves its weights under (`--served-model-name muse-glimmer-30b-bf16-spec`): where no
        # model's name carries a tag, its operator's tag is the weights' (one tag: two served names of two
        # precisions leave none)
        aliases = list(dict.fromkeys(str(f.value) for f in ctx.get("served_name")))
        if models and not any(tagged(m) for m in models) and len({t[0] for a in aliases if (t := tagged(a))}) == 1:
            models += [a for a in aliases if tagged(a)]
        # one value tied to a launch and stated of no model elsewhere are two statements: both kept
        ties = {}
        for t in (_tied(ctx, f) for f in ctx.get("precision")):
            ties.setdefault((str(t), getattr(t, "of", None)), t)
        names = list(ties.values()) + models
        quantized = [n for n in names if (t := tagged(n)) and t[0] not in UNQUANTIZED]
        plain = [n for n in names if (t := tagged(n)) and t[0] in UNQUANTIZED]
        out[source_name(Path(path))] = (*quantized, *plain)
    return out


def checkpoint(name) -> str:
    """The checkpoint a model name or path stands for: its last path component, in lower case (a relative
    `models/Qwen2.5-Omni-7B` and an absolute `/workspace/.../models/Qwen2.5-Omni-7B` name one folder's
    weights)."""
    return str(name).rstrip("/\\").replace("\\", "/").rsplit("/", 1)[-1].lower()


class Tied(str):
    """A precision a command states beside the model(s) it names (`of`: their `checkpoint` keys):
    `weights` reads it for a run of one of those models, or of a model not known, never for another."""

    of: frozenset = frozenset()


def _tied(ctx, fact):
    """`fact`'s value, tied (`Tied`) to the models the commands stating it name, where they name one. A
    shell comment written right over a command (`# 424B model 80G*8 GPU with FP8 quantization` over `vllm
    serve ...-424B... --quantization fp8`) says what that launch is: a precision it names is that launch's."""
    named = [*ctx.get("model"), *ctx.get("served_name")]
    stating = {f.command for f in ctx.get("precision") if f.command is not None and str(f.value) == str(fact.value)}
    if fact.command is None and _COMMENT.match(str(fact.text)):
        starts = {f.command for f in ctx.facts if f.command is not None}
        stating |= {fact.line + 1} & starts
    of = frozenset(checkpoint(f.value) for f in named if f.command in stating and not _placeholder(f.value))
    if not of:
        return str(fact.value)
    tied = Tied(str(fact.value))
    tied.of = of
    return tied


#: A shell comment line (`# 424B model ... with FP8 quantization`), as a code block writes one over a command.
_COMMENT = re.compile(r"^\s*#\s")


def _placeholder(value) -> bool:
    """A model written as a shell variable or a template slot: no name."""
    return bool(re.match(r"\s*(?:\$|<|\{\{)", str(value)))


def _bytes(precision: str) -> float:
    return roofline.bytes_per_weight(precision)


def _clean(v) -> str:
    v = str(v).strip("'\" ").lower() if isinstance(v, str) else ""
    return "" if v in ("auto", "none", "null") else v


def weights(model: str | None, quantization=None, dtype=None, names=(), assume: bool = True, stated=()) -> Weights:
    """The weights' precision of a run of `model` whose output states `quantization` and `dtype`
    (None/"auto": not stated) and whose other names (an MLPerf SUT, a file name) may carry a tag;
    in the order of this module's docstring (`assume` False: neither the model table nor bf16).
    `stated`: the tagged names the rest of the file gives the weights (`stated_names`), read after the
    model's own name (source "file")."""
    from benchbook import hardware

    quant, dt = _clean(quantization), _clean(dtype)
    if quant:
        hit = tagged(quant)
        if hit:
            return Weights(hit[0], _bytes(hit[0]), "output", f"quantization {quantization}")
    hit = tagged(*names)
    if hit:
        return Weights(hit[0], _bytes(hit[0]), "output", hit[1])
    hit = tagged(model)
    if hit:
        # a name's width that the rest of the file says is stored only (`W4A16_NVFP4`, vLLM's Marlin FP4
        # fallback): the same bytes, matmuls in the activations' dtype
        only = f"{hit[0]} weight-only"
        if any((t := tagged(n)) and t[0] == only for n in stated):
            return Weights(only, _bytes(only), "name", hit[1])
        return Weights(hit[0], _bytes(hit[0]), "name", hit[1])
    if isinstance(model, str):  # a setting of another model's command is not this run's
        stated = [n for n in stated if not isinstance(n, Tied) or checkpoint(model) in n.of]
    quantized = [n for n in stated if (t := tagged(n)) and t[0] not in UNQUANTIZED]
    hit = tagged(*quantized)
    if hit:
        return Weights(hit[0], _bytes(hit[0]), "file", hit[1])
    size = hardware.model_size(model) if assume and isinstance(model, str) else None
    ck = size.checkpoint_precision if size is not None else None
    if ck and ck not in ("bf16", "fp16", "fp32"):
        nbytes = size.checkpoint_bytes_per_weight or _bytes(ck)
        return Weights(ck, nbytes, "checkpoint", size.precision_source or "")
    if quant:  # a method that names no width, on a checkpoint the table does not know: not stated
        return Weights(None, math.nan, "not stated", f"quantization {quantization}")
    if dt in DTYPES:
        return Weights(DTYPES[dt], _bytes(DTYPES[dt]), "output", f"dtype {dtype}")
    if dt:  # a dtype of no known width
        return Weights(None, math.nan, "not stated", f"dtype {dtype}")
    if ck:
        return Weights(ck, size.checkpoint_bytes_per_weight or _bytes(ck), "checkpoint", size.precision_source or "")
    # an unquantized dtype the rest of the file states (`--dtype bfloat16` on the serve command, a write-up's
    # `Precision: float16` beside a tool that assumes none): the weights' own where nothing quantized is
    # named, in place of an assumption; never for a checkpoint the model table knows as quantized
    if not assume and isinstance(model, str):
        size = hardware.model_size(model)
        ck = size.checkpoint_precision if size is not None else None
    hit = tagged(*[n for n in stated if (t := tagged(n)) and t[0] in UNQUANTIZED])
    if hit and ck in (None, "bf16", "fp16", "fp32"):
        return Weights(hit[0], _bytes(hit[0]), "file", hit[1])
    if assume:
        return Weights("bf16", 2.0, "assumed")
    return Weights(None, math.nan, "not stated")
