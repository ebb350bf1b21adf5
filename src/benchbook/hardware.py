"""Device and model knowledge: the peaks a measurement is compared with, and the model's size.

Every roofline and fraction-of-peak in the book needs two facts the benchmark output does not
carry: the device's peak memory bandwidth and compute (data/hardware.csv, one sourced row per
device, dense not sparse peaks) and the model's total and active parameter count
(data/models.csv). This module reads both tables, recognises a device from the strings the
tools print, and says where a peak came from (detected in the output or given by the reader) so
that a claim can name it.

Beyond the peaks, each row may give the device's last-level cache (`llc_mb`, with `llc_source`:
weights smaller than it need not stream from memory once per token) and, for a CPU, its hardware
threads per socket and the most sockets a board takes (`threads`, `max_sockets`, from the row's
`source`): a run with more threads than one socket has spans two, and the bandwidth roof doubles.

It reads tables only: no plotting, and nothing from the analysis, claims or presentation layers.
"""

from __future__ import annotations

import csv
import dataclasses
import difflib
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from benchbook import config
from benchbook.nouns import counted

if TYPE_CHECKING:
    import pandas as pd

MODELS_TABLE = config.DATA_DIR / "models.csv"

#: Precision -> column of data/hardware.csv (TFLOP/s; TOPS for int8).
PEAK_COLUMNS = {
    "fp32": "dense_fp32_tflops",
    "fp16": "dense_fp16_tflops",
    "bf16": "dense_bf16_tflops",
    "fp8": "dense_fp8_tflops",
    "int8": "dense_int8_tops",
    "fp4": "dense_fp4_tflops",
}
KINDS = ("gpu", "cpu", "apu", "accelerator")
PEAK_SOURCES = ("detected", "parameter")


@lru_cache(maxsize=1)
def _schemas():
    """(hardware, models) pandera schemas, built on first use: importing this module stays free of
    pandas, so that `device_name` can check a parameter before any heavy import."""
    import pandera.pandas as pa

    _positive = pa.Check.gt(0)
    hardware = pa.DataFrameSchema(
        {
            # `gpu` is the device's table name (CPUs too): analysis/roofline.py still reads that column.
            "gpu": pa.Column(str, unique=True),
            "kind": pa.Column(str, pa.Check.isin(KINDS)),
            "vendor": pa.Column(str),
            "memory_gb": pa.Column(float, _positive, nullable=True),
            "memory_bandwidth_gb_s": pa.Column(float, _positive),
            **{col: pa.Column(float, _positive, nullable=True) for col in PEAK_COLUMNS.values()},
            "power_w": pa.Column(float, _positive, nullable=True),
            "llc_mb": pa.Column(float, _positive, nullable=True),
            "llc_source": pa.Column(str, nullable=True),
            "threads": pa.Column(float, _positive, nullable=True),
            "max_sockets": pa.Column(float, pa.Check.isin([1, 2, 4, 8]), nullable=True),
            "aliases": pa.Column(str, nullable=True),
            "source": pa.Column(str, pa.Check.str_length(min_value=1)),
            "note": pa.Column(str, nullable=True),
        },
        checks=pa.Check(lambda d: d["llc_mb"].isna() | d["llc_source"].notna(), error="llc_mb without llc_source"),
        strict=True,
        coerce=True,
    )

    models = pa.DataFrameSchema(
        {
            "model_pattern": pa.Column(str, unique=True),
            "params_b": pa.Column(float, _positive),
            "active_params_b": pa.Column(float, _positive),
            "architecture": pa.Column(str, pa.Check.isin(["dense", "moe", "ple", "encoder-decoder"])),
            "aliases": pa.Column(str, nullable=True),
            "source": pa.Column(str, pa.Check.str_length(min_value=1)),
            "checkpoint_precision": pa.Column(str, nullable=True),
            "checkpoint_bytes_per_weight": pa.Column(float, _positive, nullable=True),
            "precision_source": pa.Column(str, nullable=True),
        },
        checks=[
            pa.Check(lambda d: d["active_params_b"] <= d["params_b"], error="active_params_b above params_b"),
            pa.Check(
                lambda d: d["checkpoint_precision"].isna() | d["precision_source"].notna(),
                error="checkpoint_precision without precision_source",
            ),
        ],
        strict=True,
        coerce=True,
    )
    return hardware, models


class UnknownDevice(ValueError):
    """A device name that is neither a row nor an alias of data/hardware.csv."""


# ---------------------------------------------------------------------------------------------
# Devices


@dataclass(frozen=True)
class Device:
    """One device's peaks, with where they come from. `peaks` maps precision -> dense TFLOP/s
    (TOPS for int8) and holds only the precisions the device has."""

    name: str
    kind: str
    vendor: str
    memory_gb: float | None
    bandwidth_gb_s: float
    peaks: dict[str, float] = field(default_factory=dict, hash=False)
    power_w: float | None = None
    source: str = ""
    note: str = ""
    #: The last-level cache (MB) and where that figure comes from; None where unknown.
    llc_mb: float | None = None
    llc_source: str = ""
    #: A CPU's hardware threads per socket and the most sockets a board takes (from the row's
    #: source); None for other devices.
    threads: int | None = None
    max_sockets: int | None = None

    def sockets(self, n_threads, machine: int | None = None) -> int:
        """The sockets a run with `n_threads` threads spans: more threads than one socket has
        spill onto the next, up to the sockets the machine holds where its file states them
        (`machine`), else up to the sockets a board takes (the per-socket peaks add)."""
        most = machine or self.max_sockets
        if not self.threads or not most or n_threads is None:
            return 1
        try:
            n = int(n_threads)
        except (TypeError, ValueError):
            return 1
        return max(1, min(most, -(-n // self.threads)))

    def peak(self, precision: str = "bf16") -> float | None:
        """Dense peak at `precision`; fp16 and bf16 stand in for each other (same tensor-core rate
        on every device here that lists only one)."""
        p = precision.lower()
        if p in self.peaks:
            return self.peaks[p]
        twin = {"fp16": "bf16", "bf16": "fp16"}.get(p)
        return self.peaks.get(twin) if twin else None

    # The names `presentation.roofline.plot_roofline` reads from the device it draws.
    @property
    def fp16_tflops(self) -> float | None:
        return self.peak("fp16")

    @property
    def int8_tops(self) -> float | None:
        return self.peaks.get("int8")


def _float(v) -> float | None:
    import pandas as pd

    return None if pd.isna(v) else float(v)


@lru_cache(maxsize=4)
def _load_hardware(path: str, mtime_ns: int) -> pd.DataFrame:
    import pandas as pd
    import pandera.pandas as pa

    df = pd.read_csv(path, dtype={"aliases": str, "note": str, "llc_source": str})
    try:
        return _schemas()[0].validate(df, lazy=True)
    except pa.errors.SchemaErrors as exc:
        cases = exc.failure_cases
        first = cases.iloc[0]
        raise ValueError(
            f"{path}: {counted(len(cases), 'value')} {'breaks' if len(cases) == 1 else 'break'} the hardware schema, first in column "
            f"{first['column']!r} (check {first['check']}, value {first['failure_case']!r})"
        ) from None


def hardware_table(path: str | Path | None = None) -> pd.DataFrame:
    """The validated hardware table (data/hardware.csv unless `path`), one device per row."""
    p = Path(path or config.HARDWARE_TABLE)
    config.log_read(p)
    return _load_hardware(str(p), p.stat().st_mtime_ns).copy()


def _device_of(r: pd.Series) -> Device:
    import pandas as pd

    peaks = {prec: float(r[col]) for prec, col in PEAK_COLUMNS.items() if not pd.isna(r[col])}
    return Device(
        name=r["gpu"],
        kind=r["kind"],
        vendor=r["vendor"],
        memory_gb=_float(r["memory_gb"]),
        bandwidth_gb_s=float(r["memory_bandwidth_gb_s"]),
        peaks=peaks,
        power_w=_float(r["power_w"]),
        source=r["source"],
        note="" if pd.isna(r["note"]) else r["note"],
        llc_mb=_float(r["llc_mb"]),
        llc_source="" if pd.isna(r["llc_source"]) else r["llc_source"],
        threads=None if pd.isna(r["threads"]) else int(r["threads"]),
        max_sockets=None if pd.isna(r["max_sockets"]) else int(r["max_sockets"]),
    )


def devices() -> list[Device]:
    """Every device of the hardware table, in table order."""
    return list(_catalogue()[0].values())


def largest_llc_mb() -> float:
    """The largest last-level cache (MB, per device or socket) of any device in the table: weights
    larger than it stream from memory on every device, whatever its cache, so a device whose own
    cache is unknown (`llc_mb` blank) raises no doubt about them."""
    return max(d.llc_mb for d in devices() if d.llc_mb)


def _key(text: str) -> str:
    """Lookup key: lower case, letters and digits only ("RTX PRO 6000" == "rtx-pro-6000")."""
    return re.sub(r"[^a-z0-9]", "", str(text).lower())


def _words(text: str, decimals: bool = False) -> str:
    """Match text: lower case, trademark marks dropped, every other non-alphanumeric run a space,
    padded so that aliases match whole words (" a10 " is not inside " a100 "). With `decimals`,
    a point between digits stays ("qwen2.5 1.5b", not "qwen2 5 1 5b")."""
    s = re.sub(r"\((?:r|tm|c)\)", " ", str(text).lower()).replace("_", " ")
    if decimals:
        s = re.sub(r"(?<=\d)\.(?=\d)", "_", s)
    s = re.sub(r"[^a-z0-9_]+", " ", s).replace("_", ".")
    return " " + " ".join(s.split()) + " "


def _aliases(r) -> list[str]:
    """The aliases and the name of one row (a pandas row or a csv dict; no aliases is NaN or "")."""
    raw = r["aliases"] if isinstance(r["aliases"], str) else ""
    return [a.strip() for a in raw.split(";") if a.strip()] + [r["gpu"]]


@lru_cache(maxsize=4)
def _names(path: str, mtime_ns: int) -> dict[str, str]:
    """Lookup key -> table name, for every name and alias of the hardware table, read with the csv
    module (no pandas: a parameter check looks names up before any heavy import)."""
    keys: dict[str, list] = {}
    with open(path, newline="", encoding="utf-8") as fh:
        for i, r in enumerate(csv.DictReader(fh)):
            for a in _aliases(r):
                keys.setdefault(_key(a), []).append((-float(r["memory_bandwidth_gb_s"] or 0), i, r["gpu"]))
    # an alias several rows share (`variants`) names the one of highest bandwidth when given as a parameter
    return {k: min(v)[2] for k, v in keys.items()}


@lru_cache(maxsize=4)
def _index(path: str, mtime_ns: int):
    table = _load_hardware(path, mtime_ns)
    by_name = {r["gpu"]: _device_of(r) for _, r in table.iterrows()}
    words = [(_words(a), r["gpu"]) for _, r in table.iterrows() for a in _aliases(r)]
    return by_name, words


def _catalogue():
    """(devices by name, [(alias words, name)]) of data/hardware.csv."""
    p = Path(config.HARDWARE_TABLE)
    config.log_read(p)
    return _index(str(p), p.stat().st_mtime_ns)


def preload() -> None:
    """Read the device table now, once for this process and every copy it forks after: `benchbook
    report` reads it while a copy reads the files, so that each process its chapters run in does not
    read and validate it again (0.1 to 0.2 s of CPU each)."""
    _index(*_names_args())


def device_name(name: str) -> str:
    """The table name of a device given by its name or an alias, ignoring case, spaces and
    punctuation, read without pandas. Raises UnknownDevice with the close names on a typo."""
    keys = _keys()
    hit = keys.get(_key(name))
    if hit is None:
        close = difflib.get_close_matches(_key(name), list(keys), n=8, cutoff=0.6)
        names = list(dict.fromkeys(keys[k] for k in close))[:4]
        hint = (
            f"close names: {', '.join(names)}"
            if names
            else f"none is close; the {len(set(keys.values()))} names are in data/hardware.csv"
        )
        raise UnknownDevice(
            f"unknown device {name!r} ({hint}); for a device the table lacks give its "
            "peak bandwidth (GB/s) and peak TFLOP/s instead."
        )
    return hit


def _keys() -> dict[str, str]:
    p = Path(config.HARDWARE_TABLE)
    config.log_read(p)
    return _names(str(p), p.stat().st_mtime_ns)


def device(name: str) -> Device:
    """A device by its table name or an alias (see `device_name`), with its validated peaks."""
    return _catalogue()[0][device_name(name)]


def known(name: str) -> Device | None:
    """The device `name` is (its table name or an alias, as `device_name` matches them), else None:
    for asking whether a text names a device, which needs no close names (a miss costs `device_name`
    a fuzzy match against every alias, a millisecond for each line of a file that is not a name)."""
    hit = _keys().get(_key(name))
    return None if hit is None else _catalogue()[0].get(hit)


#: Parts the table lacks whose names contain an alias of a part it has (as match text): named, they
#: are not that part, and `detect` gives None rather than the shorter alias's device. The H20-3e has
#: 141 GB of HBM3e, not the H20-96GB's HBM3 (sgl-project/sglang issue 23896 runs on it); its bandwidth
#: has no citable source, so it has no row. A laptop RTX 4080 or 4090 is another chip at a third of the
#: desktop card's power, and the RTX 4080 SUPER has more cores and bandwidth than the RTX 4080.
UNLISTED = (
    "h20 3e",
    "h20e",
    *(f"{brand}rtx {n} {kind}" for brand in ("", "geforce ") for n in (4080, 4090) for kind in ("laptop", "mobile")),
    *(f"{brand}rtx 4080 super" for brand in ("", "geforce ")),
)


def detect(*texts) -> Device | None:
    """The device a tool's printed strings name (llama-bench's gpu_info / cpu_info and device
    lines, vLLM metadata, a section heading, a command line), or None.

    Each alias is matched as whole words; the longest matching alias wins; two different devices
    matched by equally long aliases (e.g. two GPUs in one line) give None, as does no match or a
    part the table lacks (`UNLISTED`) named by a longer name than any alias."""
    text = " ".join(_words(t) for t in texts if isinstance(t, str) and t.strip())
    if not text.strip():
        return None
    by_name, words = _catalogue()
    best: dict[str, int] = {}
    for w, name in [*words, *((f" {u} ", None) for u in UNLISTED)]:
        if w.strip() and w in text:
            best[name] = max(best.get(name, 0), len(w))
    if not best:
        return None
    top = max(best.values())
    winners = [n for n, length in best.items() if length == top]
    if len(winners) > 1 and None not in winners and len(_matched(texts)) > 1:
        return (variants(*texts) or [by_name[sorted(winners)[0]]])[0]  # one name several rows share
    return by_name[winners[0]] if len(winners) == 1 and winners[0] is not None else None


def named_apart(text: str) -> list[str]:
    """The table devices a text names in separate places (`H200, H100, GH200, L40S and A100`), each as
    the text writes it, first named first: an alias inside a longer one that matched (`H100` of `H100
    80GB HBM3`) names no device of its own; rows sharing one name (`A100 80GB`) count once. A CPU named
    beside a GPU or accelerator is its host (`MI325X ... EPYC 9654`), not another candidate: CPUs
    count only where nothing else is named."""
    hits = []
    for w, name in _catalogue()[1]:
        if not w.strip():
            continue
        pattern = r"(?<![a-z0-9])" + r"[^a-z0-9]+".join(map(re.escape, w.split())) + r"(?![a-z0-9])"
        hits += [(m.start(), m.end(), m.group(0), name) for m in re.finditer(pattern, text, re.IGNORECASE)]
    kept = [h for h in hits if not any(o[0] <= h[0] and h[1] <= o[1] and o[1] - o[0] > h[1] - h[0] for o in hits)]
    first: dict[str, str] = {}  # a device written twice (`H100 80GB`, `H100-80GB`) is one
    for _start, _end, written, name in sorted(kept):
        first.setdefault(name, written)
    by_name = _catalogue()[0]
    hosts = {n for n in first if by_name[n].kind == "cpu"}
    if hosts != set(first):
        first = {n: w for n, w in first.items() if n not in hosts}
    return list(dict.fromkeys(first.values()))


def variants(*texts) -> list[Device]:
    """The table devices the name in the texts could be: where the longest alias it matches is an
    alias of several rows (data/hardware.csv gives "A100 80GB" to the A100-SXM4-80GB, 2,039 GB/s,
    and the A100-PCIe-80GB, 1,935 GB/s) whose peaks differ, each of them, highest bandwidth first,
    then highest dense bf16 peak; [] where the name is one row's (or rows of equal peaks)."""
    rows = _matched(texts)
    devs = [_catalogue()[0][n] for n in rows]
    if len({(d.bandwidth_gb_s, tuple(sorted(d.peaks.items()))) for d in devs}) < 2:
        return []
    return sorted(devs, key=lambda d: (-d.bandwidth_gb_s, -(d.peaks.get("bf16") or 0.0), d.name))


def family(name: str) -> list[Device]:
    """The table rows a bare part code names as a family (`H100`: H100-PCIe-80GB, H100-SXM5-80GB and
    H100-NVL-94GB): rows whose table name is the code, then a `-` and a form factor or memory, when
    there are several whose peaks differ and the name is no row's name or alias; highest bandwidth
    first, as `variants`. [] otherwise: a name of one row, or a part the table lacks."""
    code = _key(name)
    if not re.fullmatch(r"[a-z]{1,3}\d{2,4}[a-z]{0,2}", code) or code in _names(*_names_args()):
        return []
    devs = [d for n, d in _catalogue()[0].items() if _key(n.split("-")[0]) == code and "-" in n]
    if len({(d.bandwidth_gb_s, tuple(sorted(d.peaks.items()))) for d in devs}) < 2:
        return []
    return sorted(devs, key=lambda d: (-d.bandwidth_gb_s, -(d.peaks.get("bf16") or 0.0), d.name))


def _names_args() -> tuple[str, int]:
    p = Path(config.HARDWARE_TABLE)
    return str(p), p.stat().st_mtime_ns


def _matched(texts) -> list[str]:
    """The rows of the longest alias the texts match, when one alias text is all of them (a name
    several rows share); [] otherwise (no match, or two different names of equal length)."""
    text = " ".join(_words(t) for t in texts if isinstance(t, str) and t.strip())
    hits = [(w, name) for w, name in _catalogue()[1] if w.strip() and w in text]
    if not hits:
        return []
    top = max(len(w) for w, _ in hits)
    longest = {(w, name) for w, name in hits if len(w) == top}
    return sorted({n for _, n in longest}) if len({w for w, _ in longest}) == 1 else []


def custom(name: str, bandwidth_gb_s: float, peak_tflops: float | None = None) -> Device:
    """A device the table lacks, from the reader's own figures (peak as dense BF16/FP16 TFLOP/s)."""
    if not bandwidth_gb_s or float(bandwidth_gb_s) <= 0:
        raise ValueError(f"peak bandwidth for {name!r} must be a positive number of GB/s, got {bandwidth_gb_s!r}")
    if peak_tflops is not None and float(peak_tflops) <= 0:
        raise ValueError(f"peak compute for {name!r} must be a positive number of TFLOP/s, got {peak_tflops!r}")
    peaks = {} if peak_tflops is None else {"bf16": float(peak_tflops)}
    return Device(
        name=name,
        kind="custom",
        vendor="",
        memory_gb=None,
        bandwidth_gb_s=float(bandwidth_gb_s),
        peaks=peaks,
        power_w=None,
        source="the reader's parameters",
        note="",
    )


@dataclass
class PeakChoice:
    """The device a chapter compares with, and how it was chosen: "detected" in the output or
    given as a "parameter" by the reader."""

    device: Device
    source: str

    def __post_init__(self) -> None:
        if self.source not in PEAK_SOURCES:
            raise ValueError(f"peak source must be one of {', '.join(PEAK_SOURCES)}, got {self.source!r}")

    @property
    def sentence(self) -> str:
        """E.g. "MI300X (detected in the output)", for a claim's evidence."""
        how = {
            "detected": "detected in the output",
            "parameter": "given as a parameter",
        }
        return f"{self.device.name} ({how[self.source]})"


def choose(
    gpu: str | None = None,
    detected=None,
    bandwidth_gb_s: float | None = None,
    peak_tflops: float | None = None,
) -> PeakChoice | None:
    """The device to compare with: the reader's parameters win (`gpu` by name or alias, and/or
    their own `bandwidth_gb_s` / `peak_tflops`), then what was `detected` (a Device or printed
    strings). None when nothing is known: no device is assumed.

    Own figures override the matching fields of the named or detected device; with
    no device to start from, or with a `gpu` name the table lacks, they describe a custom one
    (bandwidth needed). 0 counts as not given (the chapters' parameter default)."""
    bandwidth_gb_s = bandwidth_gb_s or None
    peak_tflops = peak_tflops or None
    if gpu and bandwidth_gb_s is not None:
        try:
            base, source = device(gpu), "parameter"
        except UnknownDevice:
            return PeakChoice(custom(gpu, bandwidth_gb_s, peak_tflops), "parameter")
    elif gpu:
        base, source = device(gpu), "parameter"
    else:
        if isinstance(detected, Device) or detected is None:
            found = detected
        else:
            found = detect(*([detected] if isinstance(detected, str) else detected))
        base, source = (found, "detected") if found is not None else (None, None)
    if bandwidth_gb_s is None and peak_tflops is None:
        return None if base is None else PeakChoice(base, source)
    if base is None:
        if bandwidth_gb_s is None:
            raise ValueError("a peak TFLOP/s alone is not a device: give its peak bandwidth (GB/s) or a gpu name too")
        return PeakChoice(custom("your device", bandwidth_gb_s, peak_tflops), "parameter")
    check = custom(base.name, bandwidth_gb_s or base.bandwidth_gb_s, peak_tflops)
    peaks = dict(base.peaks)
    if peak_tflops is not None:
        peaks.update({"bf16": check.peaks["bf16"], "fp16": check.peaks["bf16"]})
    tweaked = dataclasses.replace(
        base,
        bandwidth_gb_s=check.bandwidth_gb_s,
        peaks=peaks,
        source=f"{base.source}; overridden by the reader's parameters",
    )
    return PeakChoice(tweaked, "parameter")


# ---------------------------------------------------------------------------------------------
# llama-bench

#: llama-bench backend names that run on the host: the CPU itself and the host-side libraries ggml
#: registers beside it (BLAS, ZenDNN), which take no -ngl layers. llama-bench's `backend` column
#: (`test::get_backend()`) lists the name of every registry the build holds except the CPU's, and
#: prints "CPU" only when there is none; -ngl layers go to the devices of those registries. So any
#: other name, known here or not (CUDA, ROCm, Vulkan, Metal, SYCL, OpenCL, RPC, whose servers ggml
#: registers as GPU-type devices, or a fork's QNN or ROCKET), is an accelerator whose device the
#: row does not name.
_HOST_BACKENDS = {"cpu", "blas", "zendnn"}
#: Boolean keys of old llama-bench JSON/CSV that named the backend before `backends` existed.
_OLD_BACKEND_KEYS = ("cuda", "vulkan", "kompute", "metal", "sycl", "opencl")


def _first(settings: dict, *keys):
    import pandas as pd

    for k in keys:
        v = settings.get(k)
        if v is not None and not (isinstance(v, float) and pd.isna(v)) and v is not pd.NA and str(v).strip() != "":
            return v
    return None


def _truthy(v) -> bool:
    return str(v).strip().lower() in ("1", "true")


def llama_bench_device(settings: dict) -> tuple[Device | None, str]:
    """The device one llama-bench result ran on, and the mode: "cpu", "gpu" or "partial".

    `settings` holds llama-bench's own fields (gpu_info, cpu_info, backends, n_gpu_layers, devices)
    or the tidy table's (gpu, backend, ngl, n_cpu_moe, dev), optionally `n_layers` (the model's layer
    count, which llama-bench does not print). A CPU backend (CPU or BLAS only, whatever -ngl says: a
    CPU-only build ignores it), 0 GPU layers or the device list `none` (`-dev none`: llama.cpp's
    "none = don't offload", so the listed GPUs hold no layer) is a CPU run, compared with the CPU's
    DRAM bandwidth; fewer GPU layers than the model has, or experts kept on the CPU (n_cpu_moe), is a
    partial offload; otherwise the GPU. Without n_layers, an ngl below 99 (llama-bench's
    all-layers default) counts as partial. The mode is "unknown" when neither backend, layers
    nor a device string is given. A listing of no GPU (`gpus_listed` 0: the GPU backend printed that it
    initialized none, ggml-cuda's `failed to initialize CUDA`) is a CPU run whatever the backend column,
    which names what the binary was built with. The device is None when the string names no table row."""
    backend = _first(settings, "backends", "backend")
    if backend is None and any(k in settings for k in _OLD_BACKEND_KEYS):
        backend = ",".join(k for k in _OLD_BACKEND_KEYS if _truthy(settings.get(k))) or "CPU"
    ngl = _first(settings, "n_gpu_layers", "ngl")
    ngl = None if ngl is None else int(ngl)
    gpu_info = _first(settings, "gpu_info", "gpu")
    cpu_info = _first(settings, "cpu_info", "cpu")
    backends = {b.strip().lower() for b in str(backend).split(",")} if backend is not None else set()

    no_device = str(_first(settings, "devices", "dev") or "").strip().lower() == "none"
    listed = _first(settings, "gpus_listed")
    no_gpu = listed is not None and int(listed) == 0
    cpu_only = (backend is not None and backends <= _HOST_BACKENDS) or ngl == 0 or no_device or no_gpu
    if cpu_only:
        return detect(cpu_info), "cpu"
    if backend is None and ngl is None and gpu_info is None:
        return (detect(cpu_info), "cpu") if cpu_info is not None else (None, "unknown")
    n_layers = _first(settings, "n_layers")
    n_cpu_moe = _first(settings, "n_cpu_moe")
    partial = bool(n_cpu_moe and int(n_cpu_moe) > 0)
    if ngl is not None and ngl > 0:
        partial = partial or (ngl < int(n_layers) if n_layers is not None else ngl < 99)
    return detect(gpu_info), "partial" if partial else "gpu"


# ---------------------------------------------------------------------------------------------
# Models

#: Architecture names (GGUF general.architecture, llama.cpp's model string, HF model_type) of
#: mixture-of-experts models.
MOE_ARCHITECTURES = {
    "deepseek2",
    "deepseek_v2",
    "deepseek_v3",
    "qwen2moe",
    "qwen3moe",
    "qwen35moe",
    "gpt-oss",
    "gpt_oss",
    "gptoss",
    "mixtral",
    "llama4",
    "dbrx",
    "glm4moe",
    "grok",
    "arctic",
    "olmoe",
    "granitemoe",
    "hunyuan-moe",
    "bailingmoe",
}

_SIZE_RE = re.compile(r"^(\d+(?:\.\d+)?)([bm])(\d*)$")
#: A size written onto the family's name with no separator (`opt350m`, `qwen7b`): the family's letters, then
#: the count and its unit, the name's last characters; a family name with a number and no unit (`llama2`) has none.
_GLUED_SIZE_RE = re.compile(r"^[a-z]{2,}(\d+(?:\.\d+)?)([bm])()$")
_ACTIVE_RE = re.compile(r"^a(\d+(?:\.\d+)?)b$")
_EXPERTS_RE = re.compile(r"^\d+x\d+(?:\.\d+)?b$")
#: The active count right after the total with its `B` dropped ("Nemotron-Nano-31B-A3": 3 B active).
_SHORT_ACTIVE_RE = re.compile(r"^a(\d+(?:\.\d+)?)$")


#: How far a file's printed total parameters may be from its model-table row's and still be that model
#: (llama-bench prints billions to 2 decimals; the table's figures are the model card's, rounded): past
#: it the file is another model of the label (pruned experts), and the row's active count is not its.
PARAMS_TOLERANCE = 0.02

#: Ollama's model reference `name:tag` whose tag starts with a parameter count (`deepseek-r1:1.5b`,
#: `llama3.1:70b`, `qwen3:30b-a3b`): Ollama's library gives each size tag its own weights, so the tag names the
#: model of that many parameters (deepseek-r1's 1.5b to 70b tags are the dense Qwen and Llama distills, only
#: 671b the MoE; https://ollama.com/library/deepseek-r1/tags).
_OLLAMA_SIZE_TAG = re.compile(r"[a-z][\w.+-]*:(\d+(?:\.\d+)?)([bm])(?![a-z0-9.])", re.I)
#: How far the count a name rounds to may be from the count it names (Llama-3.2-1B's `1B` is 1.24 B,
#: deepseek-r1:1.5b is 1.78 B): past it the name's size is another model's.
NAME_SIZE_ROUNDING = 0.25


def ollama_tag_size(model: str) -> float | None:
    """The parameter count (billions) an Ollama size tag states (`deepseek-r1:1.5b` -> 1.5), None without one."""
    m = _OLLAMA_SIZE_TAG.search(model) if isinstance(model, str) else None
    if m is None:
        return None
    value = float(m[1])
    return value / 1000 if m[2].lower() == "m" else value


def _tag_names_row(tag_b: float | None, row) -> bool:
    """Whether a row of the model table can be the model an Ollama size tag names: no tag, or a total the tag
    rounds (NAME_SIZE_ROUNDING). `deepseek-r1:70b` is not DeepSeek-R1's 671 B row."""
    return tag_b is None or abs(tag_b / float(row["params_b"]) - 1) <= NAME_SIZE_ROUNDING


#: The model table's architecture of a model with per-layer embeddings (Gemma 4's E2B and E4B, named for their
#: effective size): its `active_params_b` is that effective count, its `params_b` the count with those tables.
PLE = "ple"


@dataclass
class ModelSize:
    """Total and active parameters (billions) of a model; `active_b` is None for an MoE model
    whose active count is unknown. A model of the table may also say how its released checkpoint
    stores its weights (`checkpoint_precision`, the bytes per active weight of a mix where the table
    gives them, and `precision_source`); None where it does not."""

    total_b: float | None
    active_b: float | None
    moe: bool
    architecture: str | None
    source: str
    checkpoint_precision: str | None = None
    checkpoint_bytes_per_weight: float | None = None
    precision_source: str | None = None


@lru_cache(maxsize=4)
def _load_models(path: str, mtime_ns: int) -> pd.DataFrame:
    import pandas as pd
    import pandera.pandas as pa

    df = pd.read_csv(path, dtype={"aliases": str, "checkpoint_precision": str, "precision_source": str})
    try:
        return _schemas()[1].validate(df, lazy=True)
    except pa.errors.SchemaErrors as exc:
        first = exc.failure_cases.iloc[0]
        raise ValueError(
            f"{path}: a value breaks the models schema in column {first['column']!r} "
            f"(check {first['check']}, value {first['failure_case']!r})"
        ) from None


def model_table(path: str | Path | None = None) -> pd.DataFrame:
    """The validated model table (data/models.csv unless `path`)."""
    p = Path(path or MODELS_TABLE)
    config.log_read(p)
    return _load_models(str(p), p.stat().st_mtime_ns).copy()


@lru_cache(maxsize=4)
def _patterns(path: str, mtime_ns: int) -> list[tuple[list[str], pd.Series]]:
    out = []
    for _, r in _load_models(path, mtime_ns).iterrows():
        raw = r["aliases"] if isinstance(r["aliases"], str) else ""
        pats = [r["model_pattern"], *[a for a in raw.split(";") if a.strip()]]
        out.append(([_words(p, decimals=True) for p in pats], r))
    return out


def _model_patterns() -> list[tuple[list[str], pd.Series]]:
    """[(pattern words, row)] of data/models.csv."""
    p = Path(MODELS_TABLE)
    config.log_read(p)
    return _patterns(str(p), p.stat().st_mtime_ns)


def is_moe(model: str, architecture: str | None = None) -> bool:
    """Whether the architecture or the name says mixture-of-experts ("qwen3moe", "gpt-oss",
    "MoE", "8x7B", "A3B", ...)."""
    joined = _words(model, decimals=True)
    words = joined.split()
    arch = (architecture or "").lower()
    if arch in MOE_ARCHITECTURES or arch.endswith("moe"):
        return True
    if any(_words(a) in joined for a in MOE_ARCHITECTURES):
        return True
    return any(w == "moe" or w.endswith("moe") or _ACTIVE_RE.match(w) or _EXPERTS_RE.match(w) for w in words) or any(
        _SIZE_RE.match(a) and _SHORT_ACTIVE_RE.match(b) for a, b in zip(words, words[1:], strict=False)
    )


def printed_dense(model: str) -> bool:
    """Whether llama.cpp's model string says a dense model: `<arch> <type> <ftype>`, whose type
    (`llama_model_type_name`) carries the experts of an MoE (`8x7B`, `30B.A3B`, `16x12B`) and is a
    plain size only for a dense one (`qwen2 1.5B Q4_K - Medium`), unless the architecture itself is an
    MoE one (`deepseek2 16B`). An unknown type (`laguna ?B`) says neither."""
    words = model.split() if isinstance(model, str) else []
    if len(words) < 2 or not re.fullmatch(r"\d+(?:\.\d+)?[BM]", words[1]):
        return False
    return not is_moe(" ".join(words[:2]), words[0])


def _active_then_total(model: str) -> tuple[float, float] | None:
    """(active, total) of an MoE named by two sizes in a row, the smaller first (AllenAI's `OLMoE-1B-7B`: "1B
    active and 7B total parameters", its model card); None where a name has no such pair."""
    words = _words(model, decimals=True).split()
    for a, b in zip(words, words[1:], strict=False):
        ma, mb = _SIZE_RE.match(a), _SIZE_RE.match(b)
        if ma and mb and ma[2] == mb[2] == "b" and not ma[3] and not mb[3] and float(ma[1]) < float(mb[1]):
            return float(ma[1]), float(mb[1])
    return None


def _name_sizes(model: str) -> tuple[float | None, float | None]:
    """(total, active) billions read from a name such as "Qwen3-Next-80B-A3B" or "bloom-7b1"."""
    total = active = None
    prev = ""
    for w in _words(model, decimals=True).split():
        m = _SIZE_RE.match(w) or _GLUED_SIZE_RE.match(w)
        if m and total is None:
            value = float(f"{m[1]}.{m[3]}") if m[3] and "." not in m[1] else float(m[1])
            total = value / 1000 if m[2] == "m" else value
        a = _ACTIVE_RE.match(w) or (_SHORT_ACTIVE_RE.match(w) if _SIZE_RE.match(prev) else None)
        if a and active is None:
            active = float(a[1])
        prev = w
    return total, active


def model_size(model: str, *, architecture: str | None = None, printed_params: float | None = None) -> ModelSize | None:
    """Total and active parameters of `model` (a name, a file name or llama.cpp's model string).

    The sourced table (data/models.csv, patterns and aliases matched as whole words, longest
    first; a distilled model matches only distill rows, and an Ollama size tag only rows of that size)
    comes first, then the size in the name
    (dense, or "80B-A3B" for an MoE). `printed_params` (billions, as llama-bench prints) wins for
    the total. None when nothing is known."""
    if not isinstance(model, str) or not model.strip():
        return None
    text = _words(model, decimals=True)
    moe = is_moe(model, architecture)
    best = None
    tag_b = ollama_tag_size(model)
    for pats, r in _model_patterns():
        if "distill" in text and not any("distill" in p for p in pats):
            continue
        if not _tag_names_row(tag_b, r):  # another size of the family (`deepseek-r1:1.5b`, a distill)
            continue
        for w in pats:
            if w in text and (best is None or len(w) > best[0]):
                best = (len(w), r)
    import pandas as pd

    printed = None if printed_params is None or pd.isna(printed_params) else float(printed_params)
    if best is not None:
        r = best[1]
        row_moe = r["architecture"] == "moe"
        # per-layer embeddings (Gemma 4's E2B, E4B: "effective" sizes): a token looks up its rows of those tables
        # and reads every other weight, so the effective count is what one step reads, as an MoE's active count is
        row_ple = r["architecture"] == PLE
        total = printed if printed is not None else float(r["params_b"])
        active = float(r["active_params_b"]) if row_moe or row_ple else total
        source = r["source"] + ("; total as printed by the tool" if printed is not None else "")
        if row_moe and printed is not None and abs(printed / float(r["params_b"]) - 1) > PARAMS_TOLERANCE:
            # another file of the label (a pruned one): the row's active count is the original's, not its
            active = None
            source += f", not the table's {float(r['params_b']):g}B: active parameters not known for this file"
        ck = r["checkpoint_precision"] if isinstance(r["checkpoint_precision"], str) else None
        nbytes = r["checkpoint_bytes_per_weight"]
        return ModelSize(
            total,
            active,
            row_moe,
            PLE if row_ple else architecture or r["architecture"],
            source,
            checkpoint_precision=ck,
            checkpoint_bytes_per_weight=float(nbytes) if ck and pd.notna(nbytes) else None,
            precision_source=r["precision_source"] if ck else None,
        )
    total, active = _name_sizes(model)
    if moe and active is None and (pair := _active_then_total(model)):
        active, total = pair  # `OLMoE-1B-7B`: 1B active of 7B
    if printed is not None:
        total = printed
    if total is None:
        return None
    how = "total as printed by the tool" if printed is not None else "size in the name"
    if moe:
        return ModelSize(total, active, True, architecture, how + ("" if active else "; active parameters unknown"))
    return ModelSize(total, total, False, architecture, how)


#: The CUDA compute capability (`smXY`, as TensorRT-LLM's benchmark.py prints `compute_cap`) of the
#: table's NVIDIA rows, by the start of their table name. Source: https://developer.nvidia.com/cuda-gpus
COMPUTE_CAPABILITY = (
    (r"V100", "sm70"),
    (r"A100|A800|A30(?!\d)", "sm80"),
    (r"A10G?(?!\d)|A40(?!\d)|RTX-30\d0", "sm86"),
    (r"L4(?!\d)|L40|RTX-40[89]0|RTX-6000-Ada", "sm89"),
    (r"H100|H200|H800|H20(?!\d)|GH200", "sm90"),
    (r"B200|GB200", "sm100"),
    (r"B300", "sm103"),
    (r"RTX-5090|RTX-PRO-6000-Blackwell", "sm120"),
)


def compute_capability(name: str) -> str | None:
    """The `smXY` of a table device (`COMPUTE_CAPABILITY`), None where the table's name is not listed there."""
    return next((sm for pat, sm in COMPUTE_CAPABILITY if re.match(pat, name)), None)
