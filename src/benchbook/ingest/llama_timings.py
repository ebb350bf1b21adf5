"""llama.cpp's own prints that hold no llama-bench result, named by their line where a file is refused.

`llama-cli` (`main` before 2024) and `llama-server` print the timings of each request they served:
`llama_print_timings:` (2023-2024) and `llama_perf_context_print:` (llama.cpp's `llama_perf_context_print`)
write `eval time = %10.2f ms / %5d runs (%8.2f ms per token, %8.2f tokens per second)`; llama-server's
`print_timings` writes `prompt eval time = ... tokens (...)` and `eval time = ...` (`generation eval time`
in its 2024 INFO lines). Each is one request's rate, not a benchmark a chapter
reads. A copy that ends after the backend's device list (`ggml_cuda_init: found 8 ROCm devices`) and
before any table holds no result at all.
"""

from __future__ import annotations

import re

#: One request's generation timing: `eval time = T ms / N runs|tokens (M ms per token, R tokens per
#: second)`, with the prompt's own line (`prompt eval time`) kept apart.
_EVAL = re.compile(
    r"(?P<prompt>\bprompt\s+)?\beval time\s*=\s*[\d.]+\s*ms\s*/\s*(?P<n>\d+)\s*(?:runs|tokens)\s*"
    r"\(\s*[\d.]+\s*ms per token,\s*(?P<rate>[\d.]+)\s*tokens per second\)",
    re.I,
)
#: The backend's device count as ggml prints it at start-up (CUDA/ROCm/MUSA, Vulkan, SYCL, CANN).
_FOUND = re.compile(r"\b(?:ggml_\w+_init|ggml_vulkan)?:?\s*[Ff]ound (?P<n>\d+) (?P<backend>\w+) devices\b")
#: A device line under it, for its name: `Device 0: NAME, ...` or `ggml_vulkan: 0 = NAME (...)`.
_DEVICE = re.compile(r"^\s*(?:Device \d+:|ggml_vulkan: \d+ =)\s*(?P<name>[^,(|]+)")


def timings(lines) -> tuple[int, str] | None:
    """(line, why) of the first request's generation timing (its prompt's where none is printed), else None."""
    prompt = None
    for i, s in enumerate(lines):
        m = _EVAL.search(s)
        if m and not m["prompt"]:
            return i + 1, _why("generation", m)
        if m and prompt is None:
            prompt = i + 1, _why("prompt", m)
    return prompt


def _why(phase: str, m: re.Match) -> str:
    return (
        f"llama.cpp's timings of one request ({phase} {m['n']} tokens at {m['rate']} tokens per second): "
        "a single request's rate, which no chapter of the book reads; not read"
    )


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
