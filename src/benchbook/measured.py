"""Measurements this project made itself, on a machine lent to a session (data/measured/, each with
its script and machine in that folder's README): kept apart from the tools' outputs, which are other
people's, and read only by the book's own pages. Each table is validated on load, like every input."""

from __future__ import annotations

from typing import TYPE_CHECKING

from benchbook import config

if TYPE_CHECKING:
    import pandas as pd

#: One decode-shaped GEMM (a batch x k activation times a k x n weight) per (dtype, repeat, batch):
#: benchmarks/device/gemm_batch_sweep.py (16-bit) and gemm_batch_sweep_fp8.py (FP8) on one NVIDIA H200.
DECODE_GEMM = config.DATA_DIR / "measured" / "h200_decode_gemm_batch_sweep.csv"


def _validated(schema, path) -> pd.DataFrame:
    """`path` read and checked by `schema`; a row that breaks it stops the load naming the file."""
    import pandas as pd
    import pandera.pandas as pa

    try:
        return schema.validate(pd.read_csv(path))
    except pa.errors.SchemaErrors as err:  # a value that cannot be coerced: pandera collects them all
        raise ValueError(f"{path.name}: {str(err.schema_errors[0]).splitlines()[0]}") from None
    except (pa.errors.SchemaError, ValueError) as err:
        raise ValueError(f"{path.name}: {str(err).splitlines()[0]}") from None


#: Bytes per weight of each dtype the sweeps time.
BYTES = {"bfloat16": 2, "float16": 2, "float8_e4m3fn": 1}


def decode_gemm(path=DECODE_GEMM) -> pd.DataFrame:
    """The sweep's rows; a row that breaks the schema stops the load with the file and the reason."""
    import pandera.pandas as pa

    schema = pa.DataFrameSchema(
        {
            "device": pa.Column(str),
            "dtype": pa.Column(str, pa.Check.isin(list(BYTES))),
            "repeat": pa.Column(int, pa.Check.ge(1)),
            "batch": pa.Column(int, pa.Check.ge(1)),
            "k": pa.Column(int, pa.Check.gt(0)),
            "n": pa.Column(int, pa.Check.gt(0)),
            "weight_bytes": pa.Column(int, pa.Check.gt(0)),
            "seconds": pa.Column(float, pa.Check.gt(0)),
        },
        checks=pa.Check(
            lambda d: d["weight_bytes"] == d["dtype"].map(BYTES) * d["k"] * d["n"],
            error="weight_bytes is not k x n x bytes per weight",
        ),
        unique=["dtype", "repeat", "batch"],
        strict=True,
    )
    return _validated(schema, path)


#: nvidia-smi's samples of board power and SM clock while one batch's GEMM ran back to back
#: (benchmarks/device/gemm_power.py); `step_s` is that batch's mean step over the run.
DECODE_GEMM_POWER = config.DATA_DIR / "measured" / "h200_decode_gemm_power.csv"
#: nvidia-smi's power limit and maximum SM clock of the GPU the sweeps ran on.
NVIDIA_SMI = config.DATA_DIR / "measured" / "h200_nvidia_smi.csv"


def decode_gemm_power(path=DECODE_GEMM_POWER) -> pd.DataFrame:
    """The power run's samples, validated like the sweep."""
    import pandera.pandas as pa

    schema = pa.DataFrameSchema(
        {
            "dtype": pa.Column(str, pa.Check.isin(list(BYTES))),
            "batch": pa.Column(int, pa.Check.ge(1)),
            "sample": pa.Column(int, pa.Check.ge(0)),
            "seconds_in": pa.Column(float, pa.Check.ge(0)),
            "power_w": pa.Column(float, pa.Check.gt(0)),
            "sm_mhz": pa.Column(float, pa.Check.gt(0)),
            "step_s": pa.Column(float, pa.Check.gt(0)),
        },
        unique=["dtype", "batch", "sample"],
        strict=True,
        coerce=True,
    )
    return _validated(schema, path)


def gpu_limits(path=NVIDIA_SMI) -> tuple[float, float]:
    """(power limit in W, maximum SM clock in MHz) as `nvidia-smi --query-gpu=name,power.limit,
    clocks.max.sm,... --format=csv` printed them ("700.00 W", "1980 MHz")."""
    import pandas as pd

    row = pd.read_csv(path, skipinitialspace=True).iloc[0]
    try:
        return float(row["power.limit [W]"].split()[0]), float(row["clocks.max.sm [MHz]"].split()[0])
    except (KeyError, ValueError, AttributeError):
        raise ValueError(f"{path.name}: no 'power.limit [W]' and 'clocks.max.sm [MHz]' values") from None
