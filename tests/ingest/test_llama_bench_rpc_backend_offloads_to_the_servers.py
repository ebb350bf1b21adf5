"""llama-bench's `RPC` backend (ggml registers each RPC server as a GPU-type device) holds the
-ngl layers on the servers, so a row whose backend is RPC alone is not a CPU run; -ngl 0 keeps
every layer local whatever the backend."""

from benchbook import hardware


def test_rpc_backend_with_layers_offloaded_is_not_a_cpu_run():
    _, mode = hardware.llama_bench_device({"backend": "RPC", "ngl": 99})
    assert mode == "gpu"


def test_rpc_backend_with_no_layers_offloaded_is_a_cpu_run():
    _, mode = hardware.llama_bench_device({"backend": "RPC", "ngl": 0})
    assert mode == "cpu"


def test_a_cpu_backend_alone_is_still_a_cpu_run():
    _, mode = hardware.llama_bench_device({"backend": "CPU", "ngl": 99})
    assert mode == "cpu"
