"""llama-bench's `backend` column lists every registry the build holds except the CPU's (it prints
"CPU" only when there is none), and -ngl layers go to those registries' devices: a row whose backend
names anything but the host (CPU, BLAS, ZenDNN) ran its offloaded layers on an accelerator, whether or
not this book knows the name (a fork's QNN, ROCKET); -ngl 0 keeps them on the CPU."""

import pytest

from benchbook import hardware


@pytest.mark.parametrize("backend", ["QNN", "ROCKET", "QNN,BLAS", "GPU BLAS"])
def test_a_backend_the_book_does_not_know_with_layers_offloaded_is_not_a_cpu_run(backend):
    device, mode = hardware.llama_bench_device({"backend": backend, "ngl": 99})
    assert (device, mode) == (None, "gpu")


@pytest.mark.parametrize("backend", ["CPU", "BLAS", "ZenDNN", "BLAS,ZenDNN"])
def test_host_backends_alone_are_a_cpu_run_whatever_ngl_says(backend):
    _, mode = hardware.llama_bench_device({"backend": backend, "ngl": 99})
    assert mode == "cpu"


def test_an_unknown_backend_with_no_layers_offloaded_is_a_cpu_run():
    _, mode = hardware.llama_bench_device({"backend": "QNN", "ngl": 0})
    assert mode == "cpu"
