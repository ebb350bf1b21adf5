"""Ollama's stats of one request, `ollama run --verbose` (api/types.go `Metrics.Summary`), read as the
llama-timings reader's rows: Ollama runs its models on llama.cpp (or its own runner) and prints the same
two phases of ONE request.

    total duration:       3.952784066s
    load duration:        12.383499ms
    prompt eval count:    16 token(s)
    prompt eval duration: 68.703ms
    prompt eval rate:     232.89 tokens/s
    eval count:           66 token(s)
    eval duration:        3.829555s
    eval rate:            17.23 tokens/s

Each line is printed only where its value is above zero. Durations are Go's `time.Duration` strings
(`1m2.5s`, `3.829555s`, `68.703ms`, `850µs`); each rate is count / duration in seconds, `%.2f`: a rate that
contradicts its own count and duration beyond that rounding is rejected with the formula, as one of
llama.cpp's. `total duration` (load, prompt and generation, the server's whole handling of the request) is
kept; `load duration` (loading the model) is no forward pass. The model is the `ollama run MODEL` command's
where the file holds one above the block (`ollama run --verbose MODEL`: a flag before the model is no model).

llm_benchmark (`pip install llm-benchmark`, llm_benchmark/run_benchmark.py) runs `ollama run MODEL PROMPT --verbose`
once per prompt and prints, per model, `model_name =    MODEL`, then per prompt `prompt = PROMPT` and the one
`eval rate:` line it copied from that run's stats, then `Average of eval rate:  X  tokens/s`: the mean of the
lines above, no run of its own. So a `model_name =` line names the model of the blocks under it, and an `eval
rate:` line under a `prompt =` line under it is one request's; a re-typed line whose caption is a statistic
(`Average of`, `Mean`, `Median`) is a writer's summary of other runs, not a run.

A writer who re-types the stats of several runs puts one run on a line, its label first and the rate fields
after it in `Metrics.Summary`'s own words and unit (`qwen3  0.15.4-rocm  prompt eval rate: 179.80 tokens/s
eval rate: 31.69 tokens/s`): each such line is one request, its label the writer's caption, and the label's
first word its model where that word is a model name as Ollama writes one (types/model/name.go:
`[namespace/]model[:tag]`, the name led by a letter) and more words follow it (Ollama's own lists, `ollama
list` and `ollama ps`, put the model first). A line with any other word after or between the fields (prose,
another unit) is not one.

A writer who pastes the block into a Markdown list (`- total duration: ...`, `* eval rate: ...`, `1. ...`)
puts a list marker before each of its lines, as a quote puts `> `: the marker is the list's, no label and no
run, so the lines are still one block of one request, read whole (its counts, durations and rates together).
"""

from __future__ import annotations

import re

from benchbook.ingest.text import Lines, split_n

FORMAT = "ollama run --verbose"

#: the fields of one request `Metrics.Summary` prints after its two durations
_FIELDS = r"prompt eval count|prompt eval duration|prompt eval rate|eval count|eval duration|eval rate"
#: a quote's marker (`> `) and a Markdown list's (`- `, `* `, `+ `, `1. `) before a line: the writer's layout
_MARKER = r"[\s>]*(?:[-*+]\s+|\d{1,3}[.)]\s+)?"
_LINE = re.compile(
    rf"^{_MARKER}(?P<key>total duration|load duration|{_FIELDS}):\s+\**(?P<value>[^\s*]+)\s*(?P<unit>token\(s\)|tokens/s)?\**\s*$"
)
#: one of Ollama's fields as `Metrics.Summary` prints it, inside a re-typed line
_FIELD = re.compile(
    rf"(?P<key>{_FIELDS}):\s*"
    r"(?P<value>\d+(?:\.\d+)?(?:h|ms|m|s|µs|us|ns)*)\s*(?:token\(s\)|tokens/s)?"
)
#: a model as Ollama names one (`qwen3`, `lfm2.5-thinking:1.2b`, `library/llama3:8b`), led by a letter
_OLLAMA_NAME = re.compile(r"^(?:[\w.-]+/)?[A-Za-z][\w.-]*(?::[\w.-]+)?$")
#: a quoted or listed line's marker (`> `, `- `) and the separators a writer puts between re-typed fields
_QUOTE = re.compile(rf"^{_MARKER}")
_BETWEEN = re.compile(r"^[\s,;|]*$")
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_DURATION = re.compile(r"(?P<n>\d+(?:\.\d+)?)(?P<u>h|ms|m|s|µs|us|ns)")
_SECONDS = {"h": 3600.0, "m": 60.0, "s": 1.0, "ms": 1e-3, "µs": 1e-6, "us": 1e-6, "ns": 1e-9}
#: `ollama run [flags] MODEL [PROMPT]` (cmd/cmd.go): the first word after `run` that is no flag is the model. A
#: terminal line's `^C` is the echo of Ctrl-C, which discards what was typed before it: only a command after the
#: last `^C` of a line ran (a line that ends at its `^C` ran nothing and names no model)
_COMMAND = re.compile(r"\bollama\s+run\s+(?:--?[\w-]+(?:=\S*)?\s+)*(?P<model>[^\s`'\"-][^\s`'\"]*)")
#: llm_benchmark's `model_name =    MODEL` (run_benchmark.py), printed before the runs of MODEL
_LLM_BENCHMARK_MODEL = re.compile(r"^\s*model_name =\s+(?P<model>\S+)\s*$")
#: llm_benchmark's `prompt = PROMPT`, printed before the `eval rate:` line of that prompt's run
_LLM_BENCHMARK_PROMPT = re.compile(r"^\s*prompt = \S")
#: a caption that names a statistic of other runs (`Average of eval rate:`), not one run
_STATISTIC = re.compile(r"^(?:average|avg|mean|median)\b", re.I)


def seconds(v: str) -> float | None:
    """A Go `time.Duration` string in seconds (`1m2.5s` is 62.5), None where it is none."""
    parts = _DURATION.findall(v)
    if not parts or "".join(n + u for n, u in parts) != v:
        return None
    return sum(float(n) * _SECONDS[u] for n, u in parts)


def sniff(text: str | Lines | list[str]) -> bool:
    """A phase's rate line with its count and duration above it (`eval rate:` under `eval count:` and `eval
        duration:`, the block's last three; or `prompt eval rate:` under its two, a copy cut before the generation's), or a re-typed
    run's line (`row`)."""
    lines = text if isinstance(text, list) else list(split_n(text))
    for i, s in enumerate(lines):
        if row(s):
            return True
        m = _LINE.match(s)
        if m and m["key"] in ("eval rate", "prompt eval rate"):
            phase = m["key"].removesuffix("rate")
            keys = {(_LINE.match(x) or {"key": None})["key"] for x in lines[max(0, i - 3) : i]}
            if {phase + "count", phase + "duration"} <= keys:
                return True
            if m["key"] == "eval rate" and _llm_benchmark_run(lines, i):
                return True
    return False


def _llm_benchmark_run(lines: list[str], i: int) -> bool:
    """Whether line `i`, an `eval rate:` line, is llm_benchmark's copy of one run's: under its `prompt =` line,
    with a `model_name =` line above that."""
    return (
        i > 0
        and bool(_LLM_BENCHMARK_PROMPT.match(lines[i - 1]))
        and any(_LLM_BENCHMARK_MODEL.match(x) for x in lines[:i])
    )


def row(line: str) -> tuple[str, dict[str, str]] | None:
    """(label, {key: value}) of a re-typed run on one line (a label, then Ollama's fields and nothing else,
    a rate among them), else None."""
    body = _QUOTE.sub("", line).rstrip()
    found = list(_FIELD.finditer(body))
    if not found or not any(f["key"].endswith("rate") for f in found):
        return None
    label = body[: found[0].start()].strip().strip("|").strip()
    gaps = [body[a.end() : b.start()] for a, b in zip(found, found[1:], strict=False)] + [body[found[-1].end() :]]
    rates_unit = all(body[f.start() : f.end()].endswith("tokens/s") for f in found if f["key"].endswith("rate"))
    if not label or _LINE.match(body) or not rates_unit or not all(_BETWEEN.match(g) for g in gaps):
        return None
    if _STATISTIC.match(label):
        return None  # `Average of eval rate:` (llm_benchmark's): the mean of the runs above, not a run
    return label, {f["key"]: f["value"] for f in found}


def blocks(text: str | Lines | list[str], bad: list | None = None) -> list[dict]:
    """Each block's values and lines: {key: (value text, line)}, a new block at `total duration` or at
    a key the block already holds; with `model`, the last `ollama run MODEL` above it. A count or rate
    that is not a number is no value: it goes to `bad` as (line, text, why)."""
    out: list[dict] = []
    model = None
    for i, s in enumerate(text if isinstance(text, list) else split_n(text)):
        if c := _COMMAND.search(s.rsplit("^C", 1)[-1]) or _LLM_BENCHMARK_MODEL.match(s):
            model = c["model"]
        if r := row(s):
            first, *rest = r[0].split()
            named = first if rest and _OLLAMA_NAME.match(first) else model
            out.append({"values": {k: (v, i + 1) for k, v in r[1].items()}, "model": named, "caption": r[0]})
            out.append({"values": {}, "model": model})  # the next line's fields are another run's
            continue
        m = _LINE.match(s)
        if m is None:
            continue
        if not m["key"].endswith("duration") and not _NUMBER.fullmatch(m["value"]):
            if bad is not None:
                bad.append((i + 1, s.strip()[:80], f"{m['key']} '{m['value']}' is not a number"))
            continue
        if not out or m["key"] == "total duration" or m["key"] in out[-1]["values"]:
            out.append({"values": {}, "model": model})
        out[-1]["values"][m["key"]] = (m["value"], i + 1)
    return [b for b in out if "eval rate" in b["values"] or "prompt eval rate" in b["values"]]


def check(count: str | None, duration: str | None, rate: str) -> str | None:
    """Why a printed rate is not its count / duration within `%.2f`'s rounding, else None."""
    secs = seconds(duration) if duration else None
    if count is None or not secs:
        return None  # nothing to check it against: the rate stands as printed
    expected = float(count) / secs
    if abs(expected - float(rate)) > 0.005 + 1e-9 * expected:
        return f"printed rate {rate} tokens/s is not count / duration = {count} / {secs:g} s = {expected:.2f}"
    return None
