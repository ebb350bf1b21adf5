"""A ggml device list a copy ends after, with no llama-bench result, is refused naming its line
(`llama_bench.refuses`, `llama_timings.devices_only`); a table after the list is read; llama.cpp's timings
of one request are no longer refused there (`llama_timings` reads them), and Ollama's own `eval rate:`
lines are neither."""

from __future__ import annotations

from benchbook.ingest import llama_bench

CLI = [
    "llama_print_timings:        load time =   907.71 ms",
    "llama_print_timings:        eval time = 115222.19 ms /   510 runs   (  225.93 ms per token,     4.43 tokens per second)",
]
DEVICES = [
    "ggml_cuda_init: found 8 ROCm devices (Total VRAM: 524160 MiB):",
    "  Device 0: AMD Instinct MI250X / MI250, gfx90a:sramecc+:xnack- (0x90a), VMM: no, Wave Size: 64",
]
TABLE = [
    "| model                          |       size |     params | backend    | ngl |            test |                  t/s |",
    "| ------------------------------ | ---------: | ---------: | ---------- | --: | --------------: | -------------------: |",
    "| llama 7B Q4_0                  |   3.56 GiB |     6.74 B | ROCm       |  99 |           tg128 |        100.00 ± 0.10 |",
]


def test_a_device_list_with_no_result_is_refused_naming_its_line():
    refused = llama_bench.refuses("\n".join(DEVICES))
    assert refused is not None and refused[0] == 1 and "8 ROCm devices: AMD Instinct MI250X / MI250" in refused[1]


def test_a_table_after_the_device_list_is_read_and_request_timings_are_not_refused_here():
    assert llama_bench.sniff("\n".join(DEVICES + TABLE))
    assert llama_bench.refuses("\n".join(CLI)) is None
    assert llama_bench.refuses("eval count:    74 token(s)\neval rate:     13.08 tokens/s") is None
