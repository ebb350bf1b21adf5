"""llama.cpp's prints that hold no llama-bench result are refused naming their line (`llama_bench.refuses`,
`llama_timings`): one request's timings (`llama_print_timings:`, `llama_perf_context_print:`, llama-server's
`print_timings`) and a device list a copy ends after. A table after the list is read, and Ollama's own
`eval rate:` lines are not llama.cpp's timings."""

from __future__ import annotations

import pytest

from benchbook.ingest import llama_bench

CLI = [
    "llama_print_timings:        load time =   907.71 ms",
    "llama_print_timings: prompt eval time =  6294.68 ms /   271 tokens (   23.23 ms per token,    43.05 tokens per second)",
    "llama_print_timings:        eval time = 115222.19 ms /   510 runs   (  225.93 ms per token,     4.43 tokens per second)",
]
SERVER_2024 = (
    "INFO [           print_timings] generation eval time =    3194.22 ms /   783 runs   (    4.08 ms per token,   "
    '245.13 tokens per second) | tid="1" id_slot=0'
)
DEVICES = [
    "ggml_cuda_init: found 8 ROCm devices (Total VRAM: 524160 MiB):",
    "  Device 0: AMD Instinct MI250X / MI250, gfx90a:sramecc+:xnack- (0x90a), VMM: no, Wave Size: 64",
]
TABLE = [
    "| model                          |       size |     params | backend    | ngl |            test |                  t/s |",
    "| ------------------------------ | ---------: | ---------: | ---------- | --: | --------------: | -------------------: |",
    "| llama 7B Q4_0                  |   3.56 GiB |     6.74 B | ROCm       |  99 |           tg128 |        100.00 ± 0.10 |",
]


@pytest.mark.parametrize(
    ("lines", "line", "words"),
    [
        (CLI, 3, "generation 510 tokens at 4.43 tokens per second"),
        (CLI[:2], 2, "prompt 271 tokens at 43.05 tokens per second"),
        (["..."] + [SERVER_2024], 2, "generation 783 tokens at 245.13 tokens per second"),
        (DEVICES, 1, "8 ROCm devices: AMD Instinct MI250X / MI250"),
    ],
)
def test_a_print_with_no_result_is_refused_naming_its_line(lines, line, words):
    refused = llama_bench.refuses("\n".join(lines))
    assert refused is not None and refused[0] == line and words in refused[1]


def test_a_table_after_the_device_list_is_read_and_ollama_eval_rate_is_not_llama_cpps():
    assert llama_bench.sniff("\n".join(DEVICES + TABLE))
    assert llama_bench.refuses("eval count:    74 token(s)\neval rate:     13.08 tokens/s") is None
