"""llama.cpp's timings of one request: `llama-cli` (`main` before 2024) and `llama-server` logs.

What llama.cpp prints (src/llama-context.cpp `llama_perf_context_print`, before it llama.cpp's
`llama_print_timings`; tools/server `print_timings`):

* `prompt eval time = T ms / N tokens (T/N ms per token, 1e3 / T * N tokens per second)`: the prompt's
  forward passes, in batches; the server counts only the tokens it evaluated (`n_prompt_tokens_processed`:
  a prompt's cached prefix is not among them);
* `eval time = T ms / N runs|tokens (..., 1e3 / T * N tokens per second)`: the single-token decodes
  after the prompt (`n_eval` in the context: the first token, sampled from the prompt's logits, is not
  one of them); llama-server 2024 prints it as `generation eval time`;
* `total time = T ms [/ N tokens]`; `load time`, `sample time` (sampling, no forward pass).

Before mid-2023 the prints give `(T/N ms per token)` only: the rate is 1e3 x N / T, kept where the printed
ms per token fits T / N within the print's rounding.

Each block is ONE request: one rate per phase, no repetitions, no spread. Each rate is checked against
1e3 / T * N over the rounded time it is printed with (`%10.2f` ms): a rate that contradicts its own
time and count, or a phase of no tokens, is rejected with the formula. A 2026 server prints
`draft acceptance = ... (A accepted / G generated)` (2025: `draft acceptance rate = ...`) or an n-gram `statistics ... #acc tokens = A` line
after a request that speculated: `drafts_accepted` A (where A > 0 several tokens came from one pass).

A server slot's log (tools/server, `update_slots`) prints, before it adds a task's prompt tokens to a batch, the
cache it keeps: `kv cache rm [N, end)` (2025: `n_tokens = T, memory_seq_rm [N, end)`), N the slot's `n_past`,
the tokens of the prompt already in the cache from the previous request; it prints it again before each later
batch of the same prompt. The first after the task's `new prompt` (or `launch_slot_`) line is the request's
`n_cached`: its prompt's evaluated tokens followed N cached ones, as llama-bench's `pp N @ dD` follows D.

The run, from llama.cpp's load log and the command where the file holds them: the model file
(`-m`/`--model`, the loader's `... from PATH`), `model type`, `model ftype`/`file type`, size and params
(`llm_load_print_meta:` / `print_info:`), `offloaded N/M layers to GPU` (ngl N of n_layers M, output
layer included), the backend and GPU (`ggml_cuda_init: found 1 CUDA devices:` then `Device 0: NAME, ...`),
threads (`system_info: n_threads = 56 / 112`), the logical batch (`n_batch = 2048`, `-b`). A log's facts apply to the timing blocks after it.

Ollama's `ollama run --verbose` stats (`ollama_verbose`) are read as the same rows, format
`ollama run --verbose`, where obench.sh's reader does not take the file (an average and a power reading
beside the runs): each block its own request beside llama.cpp's timings of other programs, except a block
whose counts are those of a llama.cpp request of the file (the server's log of the same request).

`devices_only` names a copy that ends after ggml's device list with no llama-bench result after it
(asked by `llama_bench.refuses`).
"""

from __future__ import annotations

import re
import shlex

from benchbook.ingest import context, ollama_verbose
from benchbook.ingest.core import NUMBER, Parsed, Tool, finish, register
from benchbook.ingest.text import Lines, search, split_n

NAME = "llama-timings"

SETTINGS = {
    "format": "str",
    "request": "Int64",
    "model": "str",
    "model_file": "str",
    "model_size_gib": "float64",
    "params_b": "float64",
    "backend": "str",
    "gpu": "str",
    "gpus_listed": "Int64",
    "ngl": "Int64",
    "n_layers": "Int64",
    "threads": "Int64",
    "n_batch": "Int64",
    "n_prompt": "Int64",
    "n_gen": "Int64",
    "drafts_accepted": "Int64",
    "drafter": "Int64",
    "caption": "str",
    # the tokens of the prompt a server slot's cache already held (the task's first `kv cache rm [N, end)`):
    # the evaluated ones followed them
    "n_cached": "Int64",
    # the context's load time the request's block printed (`llama_print_timings: load time = T ms`): llama.cpp
    # measures it once per context and prints it with every request of that context, so two requests that
    # print one load time ran on one loaded model with one set of settings
    "context_load_ms": "float64",
}

METRICS = {
    "pp_rate": "tok/s: one request's prompt tokens evaluated / prompt eval time",
    "tg_rate": "tok/s: one request's single-token decodes / eval time (no repetitions)",
    "pp_duration": "ms: the request's prompt eval time",
    "tg_duration": "ms: the request's eval time",
    "total_duration": "ms: the request's total time",
}

#: `<prefix> [prompt |generation ]eval time = T ms / N runs|tokens (M ms per token, R tokens per second)`.
_EVAL = re.compile(
    r"(?P<phase>\bprompt\s+|\bgeneration\s+)?\beval time\s*=\s*(?P<t>[\d.]+)\s*ms\s*/\s*(?P<n>\d+)\s*(?P<unit>runs|tokens)\s*"
    r"\(\s*(?P<per>[-\d.a-z]+)\s*ms per token(?:,\s*(?P<rate>[-\w.]+)\s*tokens per second)?\)",
    re.I,
)
_FENCE = re.compile(r"^(?:```|~~~)")
_TOTAL = re.compile(r"\btotal time\s*=\s*(?P<t>[\d.]+)\s*ms\b")
_OTHER = re.compile(r"\b(?P<what>load|sample|sampling|samplers) time\s*=\s*(?P<t>[\d.]+)\s*ms\b")
_FORMATS = (
    ("llama_perf_context_print", "llama_perf_context_print"),
    ("llama_print_timings", "llama_print_timings"),
    ("print_timings]", "server print_timings"),
    ("print_timing", "server slot print_timing"),
)
#: llama.cpp's own prints of the timing lines (the formats above and its speculative example's).
FORMATS = frozenset({f for _, f in _FORMATS} | {"llama.cpp speculative"})
#: Another program's print of llama.cpp's timing lines, by its own prefix (ipex-llm's BigDL-LLM: `bigdl-llm timings:
#: prompt eval time = ...`): its engine is that program, not llama.cpp.
_PRINTER = re.compile(r"^\s*(?P<who>(?!llama)[A-Za-z][\w.-]*\s+timings):\s*(?:prompt\s+)?eval time\b")
#: The server's running print mid-generation (`print_timings_tg`): `n_decoded = N, tg = R t/s`.
_PROGRESS = re.compile(r"\btg\s*=\s*(?P<r>[\d.]+)\s*t/s")
#: A drafter's tally after a request: 2026 `draft acceptance = R (A accepted / G generated)`, 2025 `draft
#: acceptance rate = R (...)` (server.cpp before the rename), or an n-gram `statistics ... #acc tokens = A`.
_DRAFT = re.compile(
    r"draft acceptance(?: rate)?\s*=\s*[\d.]+\s*\(\s*(?P<a>\d+)\s*accepted|#acc tokens\s*=\s*(?P<b>\d+)"
)
#: llama.cpp's speculative example (examples/speculative, 2023 on): after the text it streamed, the request's
#: totals, `encoded N tokens in T seconds, speed: R t/s` (the prompt) and `decoded N tokens in T seconds,
#: speed: R t/s` (the PoC's `generated N tokens ...`: the answer, drafting and verifying included), then its
#: tally (`n_draft`, `n_predict`, `n_drafted`, `n_accept`, `accept = P%`) and each model's llama_print_timings
#: under `draft:` (the draft model's context: its eval counts draft passes) and `target:` (the target's: its
#: eval counts the passes that verified drafted batches).
_SPEC = re.compile(
    r"^\s*(?P<what>encoded|decoded|generated)\s+(?P<n>\d+)\s+tokens in\s+(?P<t>[\d.]+)\s+seconds,\s*speed:\s*"
    r"(?P<r>[\d.]+)\s*t/s"
)
#: A drafter set for the requests below: llama-server's request field `speculative.n_max`/`n_min` (tools/server
#: README: "maximum number of tokens to draft"), or the draft model and draft sizes of a server or CLI command
#: (`-md`/`--model-draft`, `--draft-max`/`--draft-min`/`--draft`, `--spec-type`). The line, not its count of
#: accepted drafts, which such a log prints only where a tally follows (`_DRAFT`).
_DRAFTER = re.compile(
    r"\bspeculative\.n_(?:max|min)\b\s*[:=]\s*[1-9]|(?:^|\s)(?:-md|--model-draft|--draft-max|--draft-min|--draft"
    r"|--spec-type)(?:\s|=)\S"
)
_ACCEPT = re.compile(r"^\s*n_accept\s*=\s*(?P<a>\d+)\s*$")
_ROLE = re.compile(r"^\s*(?P<role>draft|target):\s*$")
_ROLE_WHY = {
    "draft": "the draft model's timings (the speculative example prints its context under `draft:`): its "
    "evals are draft passes, not the request's tokens",
    "target": "the target model's timings (under `target:`): its evals verify drafted batches; the request's "
    "own totals are the `decoded` line",
}
#: The backend's device count as ggml prints it at start-up (CUDA/ROCm/MUSA, Vulkan, SYCL, CANN).
_FOUND = re.compile(r"\b(?:ggml_\w+_init|ggml_vulkan)?:?\s*[Ff]ound (?P<n>\d+) (?P<backend>\w+) devices\b")
#: A device line under it, for its name: `Device 0: NAME, ...` or `ggml_vulkan: 0 = NAME (...)`.
_DEVICE = re.compile(r"^\s*(?:Device \d+:|ggml_vulkan: \d+ =)\s*(?P<name>[^,(|]+)")
_META = re.compile(
    r"(?:llm_load_print_meta|print_info):\s*(?P<key>model type|model ftype|file type|model size|file size|model params|arch)"
    r"\s*=\s*(?P<v>.+?)\s*$"
)
_LOADED = re.compile(r"llama_model_loader: loaded meta data .* from (?P<path>\S+)")
_OFFLOAD = re.compile(r"offloaded (?P<n>\d+)/(?P<m>\d+) layers to GPU")
_THREADS = re.compile(r"system_info: n_threads = (?P<n>\d+)")
#: `system_info:` of a build without GPU BLAS (`BLAS = 0`: cuBLAS, hipBLAS, CLBlast and Metal builds print
#: 1) that names no GPU backend either (newer builds list theirs: `CUDA : ARCHS = ...`).
_NO_GPU = re.compile(r"\bBLAS = 0\b")
_GPU_KEYS = re.compile(r"\b(?:CUDA|ROCm|HIP|Metal|METAL|Vulkan|VULKAN|SYCL|CANN|MUSA|Kompute|OpenCL)\b")
#: The programs that print these timings: the CLI, the server, and llama-perplexity (common's same print
#: after its chunks: `prompt eval time` over every chunk's tokens, in batches of its `-b`).
#: The model is a file (`-m`) or a Hugging Face repository (`-hf`/`-hfr`/`--hf-repo <user>/<model>[:quant]`,
#: common/arg.cpp), which llama.cpp downloads and loads.
_COMMAND = re.compile(
    r"(?:^|[\s/])(?:main|llama-cli|llama-server|server|llama-perplexity|perplexity)\s+.*"
    r"(?:-m|--model|-hf|-hfr|--hf-repo)\s+\S+"
)
_FLAGS = {"-m": "model_file", "--model": "model_file", "-ngl": "ngl", "--n-gpu-layers": "ngl", "-t": "threads"}
_FLAGS |= {"-hf": "model_file", "-hfr": "model_file", "--hf-repo": "model_file"}
_FLAGS |= {"--threads": "threads", "-b": "n_batch", "--batch-size": "n_batch"}
#: The context's logical batch as llama.cpp prints it at load (`llama_new_context_with_model: n_batch = 2048`,
#: 2025 `llama_context: n_batch = 2048`): the most prompt tokens one forward pass takes.
_BATCH = re.compile(r"(?:llama_new_context_with_model|llama_context):\s*n_batch\s*=\s*(?P<n>\d+)")


def _rows(text: str | Lines) -> list[str]:
    return list(split_n(text))


def sniff(text: str | Lines) -> bool:
    """A generation or prompt timing line of llama.cpp's, in a file llama-bench does not read (its
    tables and logs keep theirs; llama-bench prints no such line)."""
    from benchbook.ingest import llama_bench, ollama_bench_power

    if search(_EVAL, text):
        return not llama_bench.sniff(text)
    # Ollama's `--verbose` stats: obench.sh's runs (an average and a power reading) are that reader's
    return ollama_verbose.sniff(text) and not llama_bench.sniff(text) and not ollama_bench_power.sniff(text)


def _size(v: str) -> float | None:
    m = re.match(rf"({NUMBER})\s*(GiB|MiB)", v)
    return None if not m else float(m[1]) / (1024 if m[2] == "MiB" else 1)


def _command(s: str, run: dict) -> None:
    # a line of a command the next line continues ends in `\`, which the shell joins away: no word of it (an
    # unpaired backslash that shlex refuses, and whose line would then keep its quotes: `'/models/x.gguf'`)
    line = s.strip().strip("`").rstrip("\\").rstrip()
    try:
        words = shlex.split(line)
    except ValueError:
        words = [w.strip("'\"") for w in line.split()]
    for flag, value in zip(words, words[1:], strict=False):
        key = _FLAGS.get(flag)
        if "<" in value or ">" in value:
            continue  # a writer's `<placeholder>` (a shell reads `<`/`>` as a redirection): no value of the flag
        if key == "model_file":
            run[key] = value.rsplit("/", 1)[-1]
        elif key and value.isdigit():
            run[key] = int(value)


def _load(s: str, lines: list[str], i: int, run: dict) -> bool:
    """The run facts one log line states, into `run`; whether the line stated any."""
    if m := _META.search(s):
        key, v = m["key"], m["v"]
        if key == "arch":
            run["arch"] = v
        elif key == "model type":
            run["type"] = v
        elif key in ("model ftype", "file type"):
            run["ftype"] = re.sub(r"^(?:mostly|all)\s+", "", v.split("(")[0].strip())
        elif key in ("model size", "file size"):
            run["model_size_gib"] = _size(v)
        elif (p := re.match(rf"({NUMBER})\s*([BM])", v)) is not None:
            run["params_b"] = float(p[1]) / (1000 if p[2] == "M" else 1)
    elif m := _LOADED.search(s):
        run["model_file"] = m["path"].rsplit("/", 1)[-1]
    elif m := _BATCH.search(s):
        run["n_batch"] = int(m["n"])
    elif m := _OFFLOAD.search(s):
        run["ngl"], run["n_layers"] = int(m["n"]), int(m["m"])
    elif m := _THREADS.search(s):
        run["threads"] = int(m["n"])
        if _NO_GPU.search(s) and not _GPU_KEYS.search(s) and "gpu" not in run:
            run["backend"] = "CPU"  # a build with no GPU BLAS and no GPU backend: the CPU ran every layer
    elif m := _FOUND.search(s):
        run["backend"], run["gpus_listed"] = m["backend"], int(m["n"])
        names = [d["name"].strip() for d in map(_DEVICE.match, lines[i + 1 : i + 1 + int(m["n"])]) if d]
        run["gpu"] = "/".join(dict.fromkeys(names)) or None
    elif _COMMAND.search(s):
        _command(s, run)
    else:
        return False
    return True


#: A log line's marks (`key: value`, `k = v`, `a | b`, `[pid]`, `{json}`, `...`): no label of the author's.
_LOG_MARKS = re.compile(r"^[\[{]|[|=]|\.\.\.|^[\w.\-\[\]]+:\s|warning|error", re.I)
#: A `Key: value` pair (`Chip:\tApple M2 Max`, `OS Loader Version: 8422.121.1`, a system report's or the
#: writer's): a value follows its colon, so it states a fact the context reader reads, and names no block;
#: a label ends at its colon ("rx 6800 only:"), and a title's spaced colon ("llama : MTP clean-up") is no pair.
_PAIR = re.compile(r"^[A-Za-z][\w .()/+-]{0,40}(?<! ):\s+\S")
#: Prints of the shell and of llama.cpp that hold words and no mark: `time`'s report (`sys  0m0.711s`) and
#: the 2024 log's `Log start` / `Log end` (common/log.h). None is a label.
_PRINTS = re.compile(r"^(?:(?:real|user|sys)\s+\d+m[\d.]+s|Log (?:start|end))$")
#: A shell command as a transcript shows it: after a prompt (`$ `, `% `, `❯ `, `user@host:~$ `) or as
#: `set -x` traces it (`+ ./bin/llama-cli ...`).
_SHELL = re.compile(r"^\s*(?:[$%❯]|\+ \S|\S+@\S+.*[$#❯]\s)")


#: A slot's line that starts a task (`launch_slot_: ... processing task`, `new prompt, n_ctx_slot = ...`), and the
#: cache it keeps before a batch of its prompt (`kv cache rm [536, end)`, `memory_seq_rm [536, end)`).
_NEW_TASK = re.compile(r"\bslot\b.*\|\s*task\s+\d+\s*\|\s*(?:new prompt\b|processing task\b)")
_CACHE_RM = re.compile(r"\bslot\b.*\|\s*task\s+\d+\s*\|.*\b(?:kv cache rm|memory_seq_rm)\s*\[(?P<n>\d+),\s*end\)")
#: A writer's lead-in, a sentence that says a block follows (`Speeds are:`, `Results look like:`, `The output
#: was as follows:`, `Loaded with`): it ends in a verb (a copula, `look like`), `as follows` / `below`, or the
#: preposition its block completes (`with`, `using`), so it names no run, unlike a label's noun phrase ("rx 6800
#: only:", "`b2474`", "server").
_LEAD_IN = re.compile(
    r"\b(?:is|are|was|were|looks?(?:\s+like)?|looked(?:\s+like)?|as\s+follows|below|like\s+this|with|using)$",
    re.I,
)


def _label(s: str) -> str | None:
    """The author's label of the timing block below `s` ("rx 6800 only:", "`b2474`", "> `server`"): a
    short line of words that is none of llama.cpp's prints and no log line, else None. llama.cpp prints
    nothing of the kind between its timing lines, so such a line is the writer's name for the next request.
    A shell command is no label, nor `time`'s report; and `parse` reads none after a command until the next
    timing line: what a command prints (the model's answer, its load log) is its program's, not the writer's."""
    if _FENCE.match(s.strip().lstrip(">").strip()):
        return None  # a fence's opening line (```shell, ~~~text): its word is the block's language, no name
    t = s.strip().lstrip(">").strip().strip("`*#").strip().rstrip(":").strip("`*").strip()
    if not t or len(t) > 80 or len(re.findall(r"[A-Za-z0-9]", t)) < 2 or _LOG_MARKS.search(t) or t.startswith("```"):
        return None
    if _PAIR.match(t) or _LEAD_IN.search(t):
        return None
    return None if _PRINTS.match(t) or _SHELL.match(s) else t


def _prose(s: str) -> bool:
    """A line of the writer's that is no label (`_label`): a sentence or a title too long to name a block, no
    fence, log line, program print or command. It stands between any label above it and the timings below,
    so that label names something else (a line further up, the document's title)."""
    t = s.strip()
    if not t or _FENCE.match(t) or _LOG_MARKS.search(t) or _PRINTS.match(t) or _COMMAND.search(t):
        return False
    return _label(s) is None and len(re.findall(r"[A-Za-z]{2,}", t)) >= 3


def _number(text: str) -> float:
    """A printed figure as Python reads it, NaN where it is none: unlike `core.number`, the `inf` and `-nan`
    llama.cpp prints for a zero time stay the floats they name."""
    try:
        return float(text)
    except ValueError:
        return float("nan")


def _spec_check(m: re.Match) -> str | None:
    """Why a speculative example's total is not N / T (T printed to 0.001 s, the rate to 0.001), else None."""
    n, t, r = int(m["n"]), float(m["t"]), float(m["r"])
    if n == 0 or t <= 0:
        return f"{m['what']} {n} tokens in {t:g} s: no rate"
    lo, hi = n / (t + 0.0005), (n / (t - 0.0005) if t > 0.0005 else float("inf"))
    if not lo - 0.001 <= r <= hi + 0.001:
        return f"speed {r:g} t/s contradicts {n} tokens / {t:g} s = {n / t:.3f}"
    return None


def _speculative(m: re.Match, run: dict, request: int, ln: int, records: list, rejects: list, s: str) -> None:
    """One total of the speculative example (`_SPEC`) as the request's rows: its answer (`decoded`/`generated`,
    drafting and verifying included). Its prompt (`encoded`) ran through the target and then the draft model,
    timed together: no one model's prompt rate; its count is kept on the request's rows."""
    why = _spec_check(m)
    if m["what"] == "encoded":
        why = why or "the prompt through both models (the target's, then the draft's evaluation, timed together)"
        run["spec_prompt"] = int(m["n"])
    if why:
        rejects.append((ln, s.strip()[:80], why))
        return
    spec = {**run, "format": "llama.cpp speculative", "caption": None}
    n, t = int(m["n"]), float(m["t"])
    counts = {"n_gen": n, "n_prompt": run.pop("spec_prompt", None)}
    records.append(_record(spec, request, ln, "tg_rate", float(m["r"]), "tok/s", counts))
    records.append(_record(spec, request, ln, "tg_duration", t * 1e3, "ms", counts))


def _check(phase: str, m: re.Match) -> str | None:
    """Why a printed phase is not a measurement, else None: no tokens, or a rate its own printed time
    and count contradict (1e3 / T * N, T rounded to 0.01 ms and the rate to 0.01)."""
    t, n = float(m["t"]), int(m["n"])
    if m["rate"] is None:  # llama.cpp before mid-2023 prints ms per token only: T / N, to 0.01 ms
        per = _number(m["per"])
        if n == 0 or t <= 0 or per != per:
            return f"{phase} of {n} tokens in {t:g} ms: no rate"
        if abs(per - t / n) > 0.005 + 0.005 / n + 1e-9:
            return f"{phase} {per:g} ms per token contradicts {t:g} ms / {n} tokens = {t / n:.2f}"
        return None
    rate = _number(m["rate"])
    if n == 0 or t <= 0 or rate != rate:
        return f"{phase} of {n} tokens in {t:g} ms: no rate"
    slack = 1e3 * n / (t - 0.005) - 1e3 * n / (t + 0.005) if t > 0.005 else float("inf")
    if abs(rate - 1e3 * n / t) > slack + 0.01:
        return f"{phase} rate {rate:g} tok/s contradicts 1e3 x {n} tokens / {t:g} ms = {1e3 * n / t:.2f}"
    return None


def _model(run: dict) -> str | None:
    parts = [run.get(k) for k in ("arch", "type", "ftype")]
    return " ".join(p for p in parts if p) if run.get("type") else run.get("model")  # Ollama's tag


def parse(text: str | Lines, source: str) -> Parsed:
    lines = _rows(text)
    run: dict = {}
    records, rejects, request, open_gen = [], [], 0, True
    label = None  # the writer's label since the last request began
    ran = False  # a shell command ran since the last timing line: what follows is its program's output
    loaded = False  # a load time was printed since the last request began: that request's context
    spec, role = 0, None  # the speculative example's request, and the model whose timings follow (`_ROLE`)
    quoted = False  # a command's quoted argument is still open: this line continues that command
    cached = None  # the first `kv cache rm [N, end)` of the server task being read (`n_cached`)
    for i, s in enumerate(lines):
        if _EVAL.search(s) or _SPEC.search(s):
            quoted = False  # a timing line is llama.cpp's print: no quote a command left open runs past it
        elif quoted or _COMMAND.search(s) or _SHELL.match(s):
            # a command whose quote spans lines (`-p "what is the meaning of` / `life?" -n 128`): the lines
            # up to the closing quote are its argument, never a label of the writer's
            was, quoted = quoted, (quoted + s.count('"')) % 2 == 1
            if was:
                continue
        ran = ran or bool(_SHELL.match(s))
        role = None if _SHELL.match(s) else role
        ln = i + 1
        if sp := _SPEC.search(s):
            if sp["what"] == "encoded" or not (spec and spec == request and open_gen is False):
                request += 1
            spec, role, open_gen, label = request, None, sp["what"] != "encoded", None
            _speculative(sp, run, request, ln, records, rejects, s)
            continue
        if spec and (a := _ACCEPT.match(s)):
            for r in records:
                if r["request"] == spec and r["metric"].startswith("tg_"):
                    r["drafts_accepted"] = int(a["a"])
            continue
        if spec and (r := _ROLE.match(s)):
            role = r["role"]
            continue
        if _NEW_TASK.search(s):
            cached = None
        elif (c := _CACHE_RM.search(s)) and cached is None:
            cached = int(c["n"])
        if _DRAFTER.search(s):
            run["drafter"] = ln
        named = next((f for key, f in _FORMATS if key in s), None) or (p["who"] if (p := _PRINTER.match(s)) else None)
        run["format"] = named or run.get("format")  # the last print named
        m = _EVAL.search(s)
        if m is None:
            if context.BYLINE.match(s.strip()):
                continue  # an issue thread's byline: no label of the writer's
            if (t := _TOTAL.search(s)) and request:
                if "print_timing" in s or not any(key in s for key, _ in _FORMATS):  # the server's T_prompt + T_gen
                    records.append(_record(run, request, ln, "total_duration", float(t["t"]), "ms"))
                else:
                    rejects.append((ln, s.strip()[:80], "total time since the context started (load included)"))
            elif p := _PROGRESS.search(s):
                rejects.append(
                    (ln, s.strip()[:80], f"a running rate mid-generation (tg = {p['r']} t/s), not the request's")
                )
            elif o := _OTHER.search(s):
                rejects.append((ln, s.strip()[:80], f"{o['what']} time: no forward pass of the request"))
                if o["what"] == "load":
                    run["context_load_ms"], loaded = _number(o["t"]), True
            elif d := _DRAFT.search(s):
                if request:
                    accepted = int(d["a"] or d["b"])
                    for r in records:
                        if r["request"] == request:
                            r["drafts_accepted"] = accepted
            elif not _load(s, lines, i, run) and not ran and not (i and lines[i - 1].rstrip().endswith("\\")):
                # (a line after one ending in `\` continues that command: `-fa -mg 0 -ub 2048` is no label)
                label = _label(s) or (None if _prose(s) else label)
            continue
        ran = False
        if role:
            rejects.append((ln, s.strip()[:80], _ROLE_WHY[role]))
            continue
        prompt = bool(m["phase"]) and m["phase"].strip().lower() == "prompt"
        if prompt or open_gen:
            request += 1  # a prompt line, or a generation line after one already read, starts a request
            run["caption"], label = label, None
            run["n_cached"], cached = cached, None
            if not loaded:
                run.pop("context_load_ms", None)  # no load time in this request's block: its context is not known
            loaded = False
            if not run.get("type"):  # no model from the log: the writer's label, where it is one model's id
                named = context.model_id(run["caption"])
                if named or run.get("model_from_label"):
                    run["model"], run["model_from_label"] = named, bool(named)
        open_gen = not prompt
        phase = "prompt" if prompt else "generation"
        why = _check(phase, m)
        if why:
            rejects.append((ln, s.strip()[:80], why))
            continue
        kind = "pp" if prompt else "tg"
        count = {"n_prompt" if prompt else "n_gen": int(m["n"])}
        rate = float(m["rate"]) if m["rate"] is not None else round(1e3 * int(m["n"]) / float(m["t"]), 2)
        said = None if m["rate"] is not None else "one request; rate 1e3 x N / T (the print gives ms per token only)"
        records.append(_record(run, request, ln, f"{kind}_rate", rate, "tok/s", count, said))
        records.append(_record(run, request, ln, f"{kind}_duration", float(m["t"]), "ms", count))
    request = _ollama(lines, records, rejects, request)
    for r in records:  # a request's prompt and generation counts on each of its rows
        same = [x for x in records if x["request"] == r["request"]]
        for k in ("n_prompt", "n_gen"):
            r[k] = next((x[k] for x in same if x.get(k) is not None), None)
    messages = []
    if records:  # a process that failed after its last timing: what it had still to do never ran
        from benchbook.ingest.llama_bench import failed_after, stopped_message

        last = max(r["line"] for r in records) - 1
        stop = failed_after(lines, last)
        if stop is not None:
            messages.append(stopped_message(stop, last, "the timings above it ran, nothing after"))
    return finish(
        TOOL, source, records, rejects, messages, empty="no llama.cpp timing line ('eval time = T ms / N ...') read"
    )


#: An Ollama block's phases: (rate key, count key, duration key, metric prefix, count column).
_OLLAMA_PHASES = (
    ("prompt eval rate", "prompt eval count", "prompt eval duration", "pp", "n_prompt"),
    ("eval rate", "eval count", "eval duration", "tg", "n_gen"),
)


def _ollama(lines: list[str], records: list, rejects: list, request: int = 0) -> int:
    """Ollama's `--verbose` blocks (`ollama_verbose`), one request each, numbered after the `request`
    llama.cpp's own timings began, as this reader's rows; the requests read. A block whose prompt and
    eval counts are those of a llama.cpp request in the file is that request's (Ollama's server log
    prints its runner's llama.cpp timings of the request the client's stats summarise): not read twice."""
    timed = {(r.get("n_prompt"), r.get("n_gen")) for r in _per_request(records)}
    for block in ollama_verbose.blocks(lines, rejects):
        v = block["values"]
        counts = {col: int(float(v[c][0])) for _, c, _, _, col in _OLLAMA_PHASES if c in v}
        if (counts.get("n_prompt"), counts.get("n_gen")) in timed:
            ln = v.get("eval rate", v.get("prompt eval rate"))[1]
            rejects.append((ln, lines[ln - 1].strip()[:80], "the same request as llama.cpp's timings in this file"))
            continue
        request += 1
        run = {"format": ollama_verbose.FORMAT, "model": block["model"], "caption": block.get("caption")}
        for rate, count, dur, kind, _ in _OLLAMA_PHASES:
            if rate not in v:
                continue
            text, ln = v[rate]
            why = ollama_verbose.check(v.get(count, (None,))[0], v.get(dur, (None,))[0], text)
            if why:
                rejects.append((ln, lines[ln - 1].strip()[:80], why))
                continue
            records.append(_record(run, request, ln, f"{kind}_rate", float(text), "tok/s", counts))
            secs = ollama_verbose.seconds(v[dur][0]) if dur in v else None
            if secs is not None:
                records.append(_record(run, request, v[dur][1], f"{kind}_duration", secs * 1e3, "ms", counts))
        if "total duration" in v and (secs := ollama_verbose.seconds(v["total duration"][0])) is not None:
            records.append(_record(run, request, v["total duration"][1], "total_duration", secs * 1e3, "ms", counts))
        if "load duration" in v:
            ln = v["load duration"][1]
            rejects.append((ln, lines[ln - 1].strip()[:80], "load duration: loading the model, no forward pass"))
    return request


def _per_request(records: list) -> list[dict]:
    """One dict per request of `records`: its prompt and generation counts."""
    out: dict[int, dict] = {}
    for r in records:
        d = out.setdefault(r["request"], {"n_prompt": None, "n_gen": None})
        for k in ("n_prompt", "n_gen"):
            d[k] = r.get(k) if r.get(k) is not None else d[k]
    return list(out.values())


def _record(run: dict, request: int, ln: int, metric: str, value: float, unit: str, count=None, note=None) -> dict:
    keys = [k for k in SETTINGS if k in run]
    return {
        **{k: run[k] for k in keys},
        "request": request,
        "model": _model(run),
        **(count or {}),
        "line": ln,
        "metric": metric,
        "statistic": "value",
        "value": value,
        "unit": unit,
        "note": note or "one request",
    }


def devices_only(lines) -> tuple[int, str] | None:
    """(line, why) of ggml's device list, else None: the caller asks only where no tool found an output
    it reads, so the list has no result of llama-bench's after it."""
    for i, s in enumerate(lines):
        m = _FOUND.search(s)
        if not m:
            continue
        name = next((d["name"].strip() for d in map(_DEVICE.match, lines[i + 1 : i + 3]) if d), None)
        named = f": {name}" if name else ""
        return i + 1, (
            f"llama.cpp's device list ({m['n']} {m['backend']} devices{named}) and no llama-bench table or "
            "record after it; nothing to read"
        )
    return None


def refuses(text: str | Lines) -> tuple[int, str] | None:
    """(line, why) of llama-server's running print (`slot print_timing: ... n_gen = N, tg = R t/s`) where the
    file holds no finished request's timings: the server prints it every few seconds while a request
    generates, the rate of the tokens so far (`tg_3s` over the last 3 s), so it is no request's rate."""
    for i, s in enumerate(split_n(text)):
        if (m := _PROGRESS.search(s)) and "print_timing" in s:
            return i + 1, (
                f"llama-server's running print of a request still generating (tg = {m['r']} t/s: the rate of "
                "the tokens so far) and no finished request's timings (prompt eval time, eval time) after it: "
                "no request's rate to read; not read"
            )
    return None


TOOL = register(
    Tool(
        name=NAME,
        settings=SETTINGS,
        sniff=sniff,
        parse=parse,
        refuses=refuses,
        description="llama.cpp's timings of one request: llama-cli/main 'llama_perf_context_print:' or "
        "'llama_print_timings:' lines, llama-server's print_timings, with the load log above them",
        command="llama-cli -m MODEL.gguf -p PROMPT -n N (or llama-server's log of a request)",
        metrics=METRICS,
    )
)
