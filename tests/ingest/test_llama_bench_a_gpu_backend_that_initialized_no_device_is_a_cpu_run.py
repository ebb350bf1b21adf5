"""ggml-cuda's `ggml_cuda_init` prints `failed to initialize CUDA: <error>` (ROCm and MUSA builds print their
own name) when `cudaGetDeviceCount` fails, and returns a device count of 0: the CUDA backend registers no
device, so llama-bench offloads nothing, whatever its `-ngl` and whatever the backend column prints (the
backends the binary was built with, `CUDA,BLAS`). A table under that line is a CPU run: the parser counts no
GPU listed (`gpus_listed` 0) and the mode is "cpu". A table under a device listing (`found 1 CUDA devices:`,
`Device 0: ...`) of the same build is a GPU run, and a table with no init line at all keeps the GPU mode
llama-bench's default of all layers gives it."""

from benchbook.analysis import bandwidth
from benchbook.ingest import llama_bench

HEADER = (
    "| model                          |       size |     params | backend    | threads |            test |                  t/s |\n"
    "| ------------------------------ | ---------: | ---------: | ---------- | ------: | --------------: | -------------------: |\n"
)
ROWS = (
    "| qwen3 8B Q5_K - Medium         |   5.44 GiB |     8.19 B | CUDA,BLAS  |      64 |           pp512 |          7.07 ± 0.08 |\n"
    "| qwen3 8B Q5_K - Medium         |   5.44 GiB |     8.19 B | CUDA,BLAS  |      64 |           tg128 |         15.67 ± 0.32 |\n"
)
NO_GPU = "ggml_cuda_init: failed to initialize CUDA: no CUDA-capable device is detected\n"
ONE_GPU = (
    "ggml_cuda_init: GGML_CUDA_FORCE_MMQ:    no\n"
    "ggml_cuda_init: GGML_CUDA_FORCE_CUBLAS: no\n"
    "ggml_cuda_init: found 1 CUDA devices:\n"
    "  Device 0: NVIDIA L40S, compute capability 8.9, VMM: yes\n"
)


def _modes(text: str) -> set[tuple[str, object]]:
    t = llama_bench.parse(text, "run.md").table
    return {(bandwidth.run_mode(r), r["gpus_listed"]) for _, r in t.iterrows()}


def test_a_table_under_a_failed_cuda_init_ran_on_the_cpu():
    assert _modes("## Test 1: CPU-Only\n\n```\n" + NO_GPU + HEADER + ROWS + "\nbuild: 8c32d9d96 (7199)\n```\n") == {
        ("cpu", 0)
    }


def test_a_rocm_build_that_found_no_device_ran_on_the_cpu():
    text = "ggml_cuda_init: failed to initialize ROCm: no ROCm-capable device is detected\n" + HEADER + ROWS
    assert _modes(text.replace("CUDA,BLAS", "ROCm     ")) == {("cpu", 0)}


def test_the_same_build_with_a_device_listed_ran_on_the_gpu():
    assert _modes(ONE_GPU + HEADER + ROWS) == {("gpu", 1)}


def test_a_later_listing_under_a_new_heading_is_a_gpu_run_again():
    text = "## CPU\n\n" + NO_GPU + HEADER + ROWS + "\n## GPU\n\n" + ONE_GPU + HEADER + ROWS.replace("7.07", "7788.02")
    t = llama_bench.parse(text, "run.md").table
    modes = {int(r["line"]): bandwidth.run_mode(r) for _, r in t.iterrows()}
    assert sorted(set(modes.values())) == ["cpu", "gpu"]
    assert all(m == "cpu" for line, m in modes.items() if line < 10)


def test_a_table_with_no_init_line_keeps_the_default_gpu_mode():
    assert {m for m, _ in _modes(HEADER + ROWS)} == {"gpu"}
