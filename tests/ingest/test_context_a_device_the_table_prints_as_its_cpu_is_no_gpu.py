"""A machine the text names in the very words the table prints as its CPU (compare-llama-bench.py's CPU
column, llama-bench's cpu_info) is that CPU: it does not fill the accelerator column `gpu`, so a CPU run
is never set against the GPU of the same name. A device the text names that the table's CPU is not
still fills it."""

import pandas as pd

from benchbook.ingest import context


def _read(text: str) -> context.Context:
    return context.read(text.splitlines())


def test_the_tables_own_cpu_named_again_in_prose_is_not_its_gpu():
    table = pd.DataFrame({"cpu": ["M2 Ultra", "M2 Ultra"], "gpu": [None, None], "line": [5, 6]})
    context.fill(table, _read("On M2 Ultra there is a similar effect with the Q4_0 models:\n"))
    assert table["gpu"].isna().all()


def test_a_device_other_than_the_tables_cpu_still_fills_the_gpu():
    table = pd.DataFrame(
        {"cpu": ["Intel Xeon Gold 6226R", "Intel Xeon Gold 6226R"], "gpu": [None, None], "line": [5, 6]}
    )
    (msg,) = context.fill(table, _read("Ran on an RTX 4090 with the CPU below:\n"))
    assert set(table["gpu"]) == {"RTX 4090"} and "read from line 1" in msg
