"""CodeCarbon's `emissions.csv`: one row per tracked run (the file is appended to), in the energy
contract; and its JSON record of one run (the same fields as keys, as optimum-benchmark saves one
per phase).

What the columns are (mlco2/codecarbon, codecarbon/output_methods/emissions_data.py and
emissions_tracker.py): `duration` (s), `cpu_energy`, `gpu_energy`, `ram_energy` and their sum
`energy_consumed` (kWh, read as J), `cpu_power`, `gpu_power`, `ram_power` (W: the power of the last
measurement interval, neither a mean nor a peak: `power_reading`), `emissions` (kg CO2eq) and
`water_consumed` (estimates from the grid's intensity, not in the contract), `gpu_count` and
`gpu_model` ("8 x Tesla V100-SXM2-32GB"), `tracking_mode`. The columns are found by name: their
order and set changed between releases (3.x added experiment_id, water and utilisation columns).
A task log (`EmissionsTracker.start_task(name)` / `stop_task()`, written by `task_out` beside
`emissions.csv` as `emissions_<experiment>_<run_id>.csv`) has the same columns after a first `task_name`:
one row per task of one run, every row with that run's `run_id`, each row its task. `flush()` appends the
tracker's totals so far under its run's `run_id` while it keeps running: rows of one `run_id` whose duration
grows and whose energies never fall are one run's running totals, the run read at its last row (`_flushed`).

The first CSV schema (CodeCarbon 1.x, 2021: `timestamp, experiment_id, project_name, duration,
emissions, energy_consumed, country_name, ...`) has no per-component column: `energy_consumed` is
the sum over the hardware it tracked, which 1.x's `EmissionsTracker.__init__` lists as NVIDIA GPUs
where pynvml answered and the CPU (Intel Power Gadget, else RAPL, else its TDP constant), and no
RAM (the RAM model came with 2.0). It is kept in its own scope (`codecarbon-v1`), since the file
says neither whether a GPU was found nor how the CPU was read.

What the numbers cover:

* GPU energy is read from the GPU (NVML on NVIDIA boards, powermetrics on Apple silicon): scope GPU only.
* The CPU figure is RAPL's where the machine exposes it, else CodeCarbon's model of the CPU's TDP,
  and the file does not say which: its scope names it so (`cpu-codecarbon`). CodeCarbon reads RAPL
  on Linux only (`ResourceTracker._try_platform_cpu_backend`: `is_linux_os() and
  is_rapl_available()`, the powercap files under /sys/class/powercap); on macOS it tries
  powermetrics or Intel Power Gadget, on Windows the system's energy meter or Intel Power Gadget,
  else the TDP model. So a row whose `os` column names Windows or macOS is never RAPL's, and its
  scope says so (`cpu-codecarbon-off-linux`); a row with no `os` column keeps `cpu-codecarbon`. `tracking_mode`
  (docs/edit/parameters.rst): `machine` "measure the power consumptions of the entire machine" (the
  default), `process` "try and isolate the tracked processes": from 3.0 the CPU figure is then the
  process's estimated share (`cpu-codecarbon-process`); before 3.0 the CPU had no tracking mode (the
  process's RAM alone was isolated), so a 2.x process row's CPU figure keeps the machine's scope.
* RAM power is CodeCarbon's model of the memory size (3 W per 8 GB in 2.x, `RAM.power_per_GB`),
  never a meter: RAM energy is set aside as an estimate, and so is `energy_consumed`, the sum that
  includes it.
* A GPU present (`gpu_count` >= 1) that reads 0 W drew no 0 W: no sample was taken in the run (a
  run shorter than CodeCarbon's interval); its power and energy are set aside, not kept as zero. A
  row with no GPU tracked has no GPU figures. A GPU energy of 0 beside a power above 0 is the NVML
  energy counter's difference over a task too short for it to advance: set aside, not kept as 0 J.

Its console logger (`[codecarbon INFO @ 13:26:34] Energy consumed for all GPUs : 0.020817 kWh. All GPUs
Power : 219.117 W`, `Total GPU Power` since 2.x; `... kWh of electricity used since the begining.`,
`beginning` since 2.2) prints, at every measurement (`_measure_power_and_energy`, every 15 s by default,
and at `stop()`), each component's energy since the tracker started and its power over the last
interval, then their sum. So the last block holds the run's energy so far; an earlier block's figures
are running totals and earlier intervals' powers, set aside with the line of the last block. The
console names no tracking mode, so its CPU figure is set aside as the CSV's is without one; the RAM and
the total are estimates as above. The metadata lines (`GPU count: 1`, `GPU model: 1 x NVIDIA GeForce
RTX 3090`) give the device where printed. A GPU that reads 0 W in two or more blocks was measured at
each interval and gave nothing: CodeCarbon read no power or energy from it (2.x takes the GPU's energy
from NVML's total-energy counter, which pre-Volta and many virtualised GPUs lack, and then reports 0 kWh
and 0 W for the whole run: mlco2/codecarbon issue 1316), so its 0 is no reading, not a short run's.

CodeCarbon 1.x's console (2020-2021) logs, per component at every measurement, `GPU Power Consumption :
Power(kW=0.390005)` (its power over the last interval, in kW) and then `Energy consumed GPU :
Energy(kwh=0.110069...)`, where the energy is the tracker's one running total over every component
(`self._total_energy += ...` inside the loop over the hardware, then logged: emissions_tracker.py
`_measure_power` at b22ca0e): the GPU line's figure already holds the CPU's earlier intervals, so no
component's own energy is printed. The last GPU power line is kept; the running totals are set aside.

Refused by name (`refuses`): a log of CodeCarbon's setup and metadata lines (`[setup] GPU Tracking...`,
`>>> Tracker's metadata:`, `CPU model: ...`) with no `Energy consumed` line: the tracker had not measured
when the copy ends, so the file holds no run's energy.
"""

from __future__ import annotations

import csv
import io
import json
import re
from functools import lru_cache

from benchbook import config
from benchbook.ingest import context, energy
from benchbook.ingest.core import NUMBER, Parsed, ParseError, Tool, register
from benchbook.ingest.text import Lines, csv_rows, fenced_blocks, head, search, split_n, whole
from benchbook.nouns import counted

NAME = "codecarbon"

#: The first CSV schema (CodeCarbon 1.x, `EmissionsData` before per-component columns, 2021):
#: `energy_consumed` alone, no tracking mode, no version column.
_V1 = ("timestamp", "project_name", "duration", "emissions", "energy_consumed")
FIRST_SCHEMA = "CodeCarbon 1.x (its first CSV schema: one energy per run)"
_JSON_KEY = re.compile(r'^\s*"([A-Za-z_]+)"\s*:', re.M)
_REQUIRED = ("duration", "cpu_energy", "gpu_energy", "ram_energy", "energy_consumed", "tracking_mode")
#: The keys that name a JSON record CodeCarbon's (a record cut before `tracking_mode` is still its, and refused).
_ENERGIES = ("duration", "cpu_energy", "gpu_energy", "ram_energy", "energy_consumed")
_MEASURED = ("gpu_energy", "cpu_energy", "ram_energy", "gpu_power", "cpu_power", "ram_power")
#: Numbers that are not measurements of the run (where it ran, what it had), not counted as cells.
_NOT_CELLS = {"cpu_count", "gpu_count", "longitude", "latitude", "ram_total_size", "pue", "wue"}
_ESTIMATES = {
    "emissions": "CO2 emissions (kg), an estimate from the grid's carbon intensity: not in the energy contract",
    "emissions_rate": "CO2 emissions per second, an estimate: not in the energy contract",
    "water_consumed": "water use (L), an estimate from the energy: not in the energy contract",
}
#: The scope of the CPU figure in each tracking mode.
_CPU_SCOPE = {"machine": "cpu-codecarbon", "process": "cpu-codecarbon-process"}
#: Before 3.0 CodeCarbon's CPU has no tracking mode (codecarbon/external/hardware.py, `class CPU` at v2.8.0:
#: RAPL's or Power Gadget's package power, else the TDP x 0.5): `process` isolates the process's RAM only, so
#: the CPU figure is the whole CPU's. 3.0 estimates a process's share from its CPU time (`_get_power_from_cpu_load`).
#: A row with no `codecarbon_version` column comes from before 2.2, which added it.
_PROCESS_CPU_SINCE = 3
#: The `os` column's platform string (Python's `platform.platform()`) of a system CodeCarbon reads no RAPL on.
_OFF_LINUX = re.compile(r"^\s*(Windows|macOS|Darwin)\b", re.I)
RAM_ESTIMATE = "RAM energy is CodeCarbon's model of the memory size (3 W per 8 GB), not a measurement"
TOTAL_ESTIMATE = "CPU + GPU + RAM, and the RAM part is CodeCarbon's model of the memory size, not a measurement"
NO_SAMPLE = "a GPU present read 0 W: no GPU sample was taken in the run (shorter than CodeCarbon's interval), not 0 J"
#: A row's GPU energy of 0 beside a power above 0: CodeCarbon takes the energy as the difference of NVML's
#: total-energy counter over the row's interval (`GPU._get_energy`, since 2.x), and a counter that did not
#: advance in so short a task gives 0 while the power reading says the GPU drew.
NO_COUNT = "0 kWh beside a GPU power of {w} W: the GPU's energy counter did not advance over the row's {s} s, not 0 J"
NO_READING = (
    "the GPU read 0 W in every one of {n} blocks: CodeCarbon read no power or energy from it (an NVML energy "
    "counter the GPU lacks reports 0 for the whole run), not 0 J"
)
_GPUS = re.compile(r"^\s*(\d+)\s*x\s*(.+?)\s*$")
#: The most GPUs one host holds (an HGX or OAM board: 8; a few chassis: 16), for a host whose count is not stated.
HOST_GPUS = 16
IMPOSSIBLE = (
    "a GPU power of {w:,.0f} W, more than {n} of the most power-hungry kind draw ({cap:,.0f} W): CodeCarbon derives the power "
    "and the energy from the same energy-counter readings, so neither is a measurement"
)


def _num(raw) -> float | None:
    return float(raw) if raw is not None else None


def _hosted(count) -> str:
    """The GPUs `impossible_watts` bounds, in words: the stated count, else the most one host holds."""
    return counted(int(count), "GPU") if count and count > 0 else f"{HOST_GPUS} GPUs (the most one host holds)"


@lru_cache(maxsize=1)
def _largest_gpu_power_w() -> float:
    """The highest board power (W) of any accelerator in data/hardware.csv: no one device draws more."""
    with open(config.HARDWARE_TABLE, newline="") as f:
        return max(float(r["power_w"]) for r in csv.DictReader(f) if r["power_w"] and r["kind"] != "cpu")


def impossible_watts(watts: float | None, count: float | None) -> float | None:
    """The most the tracked GPUs could draw, where `watts` (CodeCarbon's GPU power, summed over the host's
    GPUs) is above it, else None: `count` GPUs (HOST_GPUS where not stated) at the highest board power of
    data/hardware.csv. CodeCarbon's GPU power is energy delta / interval (`Power.from_energies_and_delay`),
    so a power no host draws means the counter readings are wrong, and the energy from them with it."""
    n = int(count) if count and count > 0 else HOST_GPUS
    cap = n * _largest_gpu_power_w()
    return cap if watts is not None and watts > cap else None


def _header(text: str | Lines) -> list[str]:
    first = next((s for s in split_n(head(text, 4000)) if s.strip()), "")
    return [c.strip().lower() for c in first.lstrip("\ufeff").split(",")]


def _first_schema(cols: list[str]) -> bool:
    """CodeCarbon 1.x's header: its columns, and none of the per-component or mode columns 2.0 added."""
    return all(c in cols for c in _V1) and not any(c in cols for c in (*_MEASURED, "tracking_mode"))


def _record_keys(text: str | Lines) -> set[str]:
    """The keys of a JSON record's head (`"key": value` lines), lower-cased."""
    start = head(text, 4000).lstrip("\ufeff").lstrip()
    return {m.lower() for m in _JSON_KEY.findall(start)} if start.startswith("{") else set()


#: A code fence followed by CodeCarbon's first columns (`timestamp,project_name,run_id,...`): a quoted emissions.csv.
_FENCE_HEADER = re.compile(r"(?m)^ {0,3}(`{3,}|~{3,})[^\n]*\n\s*timestamp,\w")
#: The console logger's lines (emissions_tracker.py `_do_measurements`; core/measure.py): a component's energy
#: since the start and its power over the last interval, then the sum.
_CONSOLE = re.compile(
    rf"Energy consumed for (?P<what>RAM|all GPUs|all CPUs|All CPU|AppleSilicon CPU|all AppleSilicon GPUs|AppleSilicon GPU)"
    rf"\s*:\s*(?P<kwh>{NUMBER})\s*kWh(?:\s*\.\s*[A-Za-z ]*?Power\s*:\s*(?P<w>{NUMBER})\s*W)?"
)
_CONSOLE_TOTAL = re.compile(
    rf"(?P<kwh>{NUMBER})\s*kWh of electricity (?:and {NUMBER} L of water were )?used since the beg"
)
_CONSOLE_DELTA = re.compile(
    rf"Delta energy consumed for CPU .*?:\s*(?P<kwh>{NUMBER})\s*kWh, power\s*:\s*(?P<w>{NUMBER})\s*W"
)
_CONSOLE_META = re.compile(r"^\s*GPU (?P<key>count|model):\s*(?P<value>.+?)\s*$")
_CONSOLE_SNIFF = re.compile(
    r"(?m)codecarbon\b[^\n]*\bEnergy consumed for (?:RAM|all GPUs|all CPUs|All CPU)\s*:\s*[0-9.]+\s*kWh"
)
#: CodeCarbon 1.x's console lines (module docstring): a component's power in kW, the running total in kWh.
_V1_POWER = re.compile(rf"\b(?P<what>GPU|CPU|RAM)\s+Power Consumption\s*:\s*Power\(kW=(?P<kw>{NUMBER})\)")
_V1_ENERGY = re.compile(rf"\bEnergy consumed\s+(?P<what>\w+)\s*:\s*Energy\(kwh=(?P<kwh>{NUMBER})\)")
_V1_SNIFF = re.compile(
    rf"(?m)\bPower Consumption\s*:\s*Power\(kW={NUMBER}\)|\bEnergy consumed\s+\w+\s*:\s*Energy\(kwh="
)
V1_TOTAL = (
    "CodeCarbon 1.x's running total over every component (GPU and CPU), not this component's energy: "
    "the tracker logs its one accumulated total after each component's interval"
)
V1_CPU = "the CPU's power, from RAPL or Power Gadget where readable, else from its TDP: the log does not say which"
_STAMP = re.compile(r"@\s*(\d{1,2}:\d{2}:\d{2})\]")
_PARTS = {"RAM": "ram", "all GPUs": "gpu", "all AppleSilicon GPUs": "gpu", "AppleSilicon GPU": "gpu"}
RUNNING = "a running total and an earlier interval's power: CodeCarbon prints the energy since the start at every measurement; the last block (line {last}) is read"
NO_MODE = "the console names no tracking mode: what the CPU figure covers is unknown"
DELTA = "the CPU's delta over one interval; the running total is on the next line"
CUT = "a block the file cuts before its sum (`... kWh of electricity used since the beginning`): not read"
FLUSHED = (
    "a running total of run {run}: CodeCarbon's flush() appends the tracker's totals since start() under the"
    " run's run_id while it keeps running; the run's last row (line {last}) is read"
)


def _flushed(cells_of: list) -> dict:
    """The rows of `emissions.csv` that are a run's running totals, each with the line of the row that holds
    its run (`{row line: last line}`). `EmissionsTracker.flush()` ("write the emissions to disk ... but keep
    running the experiment") persists the totals since `start()` under the run's `run_id`, appended to the file
    (`on_csv_write` "append", the default), and `stop()` writes the last. So rows sharing a `run_id` whose
    duration grows and whose energies never fall from one row to the next (a later flush is later) are one run, read at its last row; rows of a
    shared `run_id` that do fall (a task log's tasks, each its own duration) are left as they are."""
    groups: dict = {}
    for where, cell in cells_of:
        run_id = cell.get("run_id")
        if isinstance(where, dict) or not run_id or cell.get("task_name"):
            continue
        groups.setdefault(run_id, []).append((where, cell))
    out = {}
    for rows in groups.values():
        if len(rows) < 2:
            continue
        series = [[_number(cell.get(col)) for _, cell in rows] for col in _ENERGIES]
        if any(v is None for col in series for v in col):
            continue
        durations, energies = series[0], series[1:]
        if any(b <= a for a, b in zip(durations, durations[1:], strict=False)) or any(
            b < a for col in energies for a, b in zip(col, col[1:], strict=False)
        ):
            continue
        last = rows[-1][0]
        out.update({where: last for where, _ in rows[:-1]})
    return out


def _is_header(cols: list[str]) -> bool:
    return all(c in cols for c in _REQUIRED) or _first_schema(cols)


def _fenced_csvs(lines) -> list[tuple[int, list[str]]]:
    """The emissions.csv extracts a write-up quotes in code fences: (the 1-based line of each block's
    header, the block from its header on), for each fenced block whose first line is CodeCarbon's header."""
    out = []
    for opened, _closed, body in fenced_blocks(lines):
        h = next((k for k, s in enumerate(body) if s.strip()), None)
        if h is not None and _is_header([c.strip().lower() for c in body[h].lstrip("\ufeff").split(",")]):
            out.append((opened + 2 + h, body[h:]))
    return out


#: The tracker's own setup and metadata lines (emissions_tracker.py's `[setup] ... Tracking...` and
#: `>>> Tracker's metadata:`), printed before its first measurement.
_SETUP = re.compile(r"(?m)^\[codecarbon \w+ @ [^\]]*\]\s*(?:\[setup\]|>>> Tracker's metadata)")


def refuses(text: str | Lines) -> tuple[int, str] | None:
    """(line, why) of the first setup line of a CodeCarbon log that holds no measurement, else None
    (`Tool.refuses`: asked only where no sniffer, this one's console sniffer included, sees the file)."""
    lines = split_n(whole(text))
    first = next((i for i, s in enumerate(lines, start=1) if _SETUP.match(s.strip())), None)
    if first is None:
        return None
    return first, (
        "CodeCarbon's setup and metadata lines with no `Energy consumed` line: the copy ends before the "
        "tracker's first measurement, so it holds no run's energy"
    )


def sniff(text: str | Lines) -> bool:
    if search(_CONSOLE_SNIFF, text) or search(_V1_SNIFF, text):
        return True
    if _is_header(_header(text)):
        return True
    if all(k in _record_keys(text) for k in _ENERGIES):
        return True
    return search(_FENCE_HEADER, text) and bool(_fenced_csvs(split_n(whole(text))))


def parse(text: str | Lines, source: str) -> Parsed:
    body = whole(text)
    if body.lstrip("\ufeff").lstrip().startswith("{"):
        return _parse_record(body, source)
    if search(_CONSOLE_SNIFF, body):
        return _parse_console(split_n(body), source)
    if search(_V1_SNIFF, body):
        return _parse_console_v1(split_n(body), source)
    lines = split_n(body)
    h = next((i for i, s in enumerate(lines) if s.strip()), 0)
    if not _is_header([c.strip().lower() for c in lines[h].lstrip("\ufeff").split(",")]) and _fenced_csvs(lines):
        return _parse_fenced(_fenced_csvs(lines), source)
    reader = csv.reader(io.StringIO("\n".join(lines[h:])))
    try:
        rows = list(reader)
    except csv.Error as exc:
        raise ParseError(source, h + reader.line_num, f"not CSV ({exc})") from None
    header = [c.strip().lower() for c in rows[0]] if rows else []
    first_schema = _first_schema(header)
    if not first_schema and not all(c in header for c in _REQUIRED):
        raise ParseError(source, h + 1, f"expected a CodeCarbon emissions.csv header with {', '.join(_REQUIRED)}")
    cells_of = []
    for k, row in enumerate(rows[1:], start=h + 2):
        if not any(c.strip() for c in row):
            continue
        if len(row) != len(header):
            raise ParseError(source, k, f"expected {len(header)} cells, found {len(row)}")
        cells_of.append((k, dict(zip(header, (c.strip() for c in row), strict=True))))
    version = FIRST_SCHEMA if first_schema else _version(rows, header)
    return _finish(source, cells_of, h + 1, version)


def _parse_fenced(blocks: list[tuple[int, list[str]]], source: str) -> Parsed:
    """Each quoted emissions.csv's rows, every row at its line in the write-up: one file's rows together."""
    cells_of, versions = [], []
    for first, block in blocks:
        rows = csv_rows(block, source, first)
        header = [c.strip().lower() for c in rows[0]]
        for k, row in enumerate(rows[1:], start=first + 1):
            if not any(c.strip() for c in row):
                continue
            if len(row) != len(header):
                raise ParseError(source, k, f"expected {len(header)} cells, found {len(row)}")
            cells_of.append((k, dict(zip(header, (c.strip() for c in row), strict=True))))
        versions.append(FIRST_SCHEMA if _first_schema(header) else _version(rows, header))
    kept = list(dict.fromkeys(v for v in versions if v))
    return _finish(source, cells_of, blocks[0][0], "; ".join(kept) or None)


def _parse_record(body: str, source: str) -> Parsed:
    """CodeCarbon's JSON record (`JsonOutput`, or a caller's dump of `EmissionsData`): one run, the
    CSV's fields as keys; each number is tied to the line of its key."""
    try:
        record = json.loads(body.lstrip("\ufeff"))
    except json.JSONDecodeError as exc:
        raise ParseError(source, exc.lineno, f"not JSON ({exc.msg})") from None
    if not isinstance(record, dict) or not all(k in record for k in _REQUIRED):
        raise ParseError(source, 1, f"expected a CodeCarbon JSON record with {', '.join(_REQUIRED)}")
    line_of = {}
    for i, s in enumerate(split_n(body), start=1):
        for key in _JSON_KEY.findall(s):
            line_of.setdefault(key, i)
    cell = {str(k).lower(): "" if v is None else str(v) for k, v in record.items() if not isinstance(v, dict | list)}
    v = cell.get("codecarbon_version")
    return _finish(source, [(line_of, cell)], 1, f"CodeCarbon {v}" if v else None)


def _parse_console(lines, source: str) -> Parsed:
    """The console logger's blocks (module docstring): the last block's GPU energy and power kept, the
    rest set aside with the reason."""
    found, meta = [], {}  # found: (line, part, kWh text, W text or None); part "total" for the sum
    for i, line in enumerate(lines, start=1):
        m = _CONSOLE_META.match(line.split("]", 1)[-1]) if "codecarbon" in line else None
        if m:
            meta[m["key"]] = m["value"]
        if d := _CONSOLE_DELTA.search(line):
            found.append((i, "delta", d["kwh"], d["w"]))
        elif c := _CONSOLE.search(line):
            found.append((i, _PARTS.get(c["what"], "cpu"), c["kwh"], c["w"]))
        elif t := _CONSOLE_TOTAL.search(line):
            found.append((i, "total", t["kwh"], None))
    if not found:
        raise ParseError(source, 1, "no CodeCarbon console line (`Energy consumed for ... : ... kWh`) found")
    totals = [i for i, part, *_ in found if part == "total"]
    end = totals[-1] if totals else found[-1][0]  # a block ends at its sum; lines past the last sum are a cut block
    start = max((k for k in totals if k < end), default=0)
    last = [f for f in found if start < f[0] <= end]
    count, device = _gpus({"gpu_count": meta.get("count", ""), "gpu_model": meta.get("model", "")})
    stamp = _STAMP.search(
        lines[last[0][0] - 1]
    )  # the logger's time of the block read, as the CSV's timestamp names a run
    base = _run(stamp[1] if stamp else "console log", None, device, count)
    records, rejects, cells = [], [], 0
    # as in the CSV: a GPU that read 0 W took no sample in the interval, so neither its power nor its energy is 0;
    # one that read 0 W at every one of several measurements gave no reading at all (module docstring)
    unsampled = any(part == "gpu" and w is not None and float(w) == 0 for _, part, _, w in last)
    gpu_watts = [float(w) for _, part, _, w in found if part == "gpu" and w is not None]
    unread = len(gpu_watts) > 1 and not any(gpu_watts)
    over = {i: cap for i, part, _, w in last if part == "gpu" and (cap := impossible_watts(_num(w), count))}
    for i, part, kwh, w in found:
        for raw, unit in ((kwh, "kWh"), (w, "W")):
            if raw is None:
                continue
            cells += 1
            text = f"{part} {raw} {unit}"
            if i > end:
                rejects.append((i, text, CUT))
            elif (i, part, kwh, w) not in last:
                rejects.append((i, text, RUNNING.format(last=last[0][0])))
            elif part == "delta":
                rejects.append((i, text, DELTA))
            elif part == "cpu":
                rejects.append((i, text, NO_MODE))
            elif part == "ram":
                rejects.append((i, text, RAM_ESTIMATE))
            elif part == "total":
                rejects.append((i, text, TOTAL_ESTIMATE))
            elif count == 0 or unsampled:
                why = NO_READING.format(n=len(gpu_watts)) if unread else NO_SAMPLE
                rejects.append((i, text, why if count != 0 else "no GPU tracked (GPU count 0)"))
            elif i in over:
                rejects.append((i, text, IMPOSSIBLE.format(w=float(w), n=_hosted(count), cap=over[i])))
            elif unit == "kWh":
                records.append(_record(base, "gpu", i, "energy", float(raw) * energy.J_PER_KWH, "J", energy.KWH_NOTE))
            else:
                records.append(
                    _record(base, "gpu", i, "power_reading", float(raw), "W", "power of the last measurement interval")
                )
    return energy.finish(TOOL, source, records, rejects, [], cells, "CodeCarbon console log")


def _parse_console_v1(lines, source: str) -> Parsed:
    """CodeCarbon 1.x's console (module docstring): the last GPU power line kept, in W; the running totals
    and the CPU's power set aside with the reason."""
    powers = [(i, m["what"], float(m["kw"])) for i, s in enumerate(lines, start=1) if (m := _V1_POWER.search(s))]
    totals = [(i, m["kwh"]) for i, s in enumerate(lines, start=1) if (m := _V1_ENERGY.search(s))]
    last_gpu = max((i for i, what, _ in powers if what == "GPU"), default=None)
    stamp = _STAMP.search(lines[(last_gpu or (totals or powers)[-1][0]) - 1])
    base = _run(stamp[1] if stamp else "console log", None, None, None)
    records, rejects = [], [(i, f"{kwh} kWh", V1_TOTAL) for i, kwh in totals]
    for i, what, kw in powers:
        if what == "GPU" and i == last_gpu and kw > 0:
            note = "power of the last measurement interval (printed in kW)"
            records.append(_record(base, "gpu", i, "power_reading", kw * 1000, "W", note))
        elif what == "GPU":
            reason = RUNNING.format(last=last_gpu) if i != last_gpu else NO_SAMPLE
            rejects.append((i, f"GPU {kw} kW", reason))
        else:
            rejects.append((i, f"{what} {kw} kW", V1_CPU if what == "CPU" else RAM_ESTIMATE))
    return energy.finish(TOOL, source, records, rejects, [], len(records) + len(rejects), "CodeCarbon 1.x console log")


def _run(run: str, model: str | None, device: str | None, count: int | None) -> dict:
    """The run columns every record of one CodeCarbon run carries (a CSV row, a JSON record or the
    console log's last block): CodeCarbon tracks a process, so no backend, batch or request rate."""
    return dict(
        run=run,
        model=model,
        device=device,
        device_count=count,
        backend=None,
        batch_size=None,
        request_rate=None,
        interval="run",
    )


def _record(base: dict, scope, line: int, metric: str, value: float, unit: str, note: str) -> dict:
    """One reading of a run (`base`, from `_run`) in the energy contract."""
    return dict(base, scope=scope, line=line, metric=metric, statistic="value", value=value, unit=unit, note=note)


def _run_label(cell: dict, k: int, stamps: list, tasks: list) -> str:
    """A row's run: CodeCarbon writes one row per `stop()`, each with its own `run_id`; the timestamp
    has one-second resolution, so rows stopped in the same second are still separate runs, told
    apart by their run_id (or their line, in the first schema, which has none). A task log
    (`EmissionsTracker.start_task` / `stop_task`, written by `task_out` as `emissions_<experiment>_<run_id>.csv`)
    holds one row per task of a single run, all with that run's `run_id`: each row is its task, named
    by its `task_name` (with its line where a name repeats)."""
    task = cell.get("task_name")
    if task:
        return task if tasks.count(task) == 1 else f"{task} (row {k})"
    stamp = cell.get("timestamp")
    if not stamp:
        return f"row {k}"
    if stamps.count(stamp) == 1:
        return stamp
    run_id = cell.get("run_id")
    return f"{stamp} (run {run_id[:8]})" if run_id else f"{stamp} (row {k})"


def _finish(source: str, cells_of: list, head_line: int, version: str | None) -> Parsed:
    """The rows of one file (`(line, cells)`; a JSON record gives a line per key instead), read
    into the energy contract."""
    records, rejects, cells, modes = [], [], 0, set()
    stamps = [cell.get("timestamp") for _, cell in cells_of]
    tasks = [cell.get("task_name") for _, cell in cells_of]
    flushed = _flushed(cells_of)
    for where, cell in cells_of:
        k = min(where.values()) if isinstance(where, dict) else where
        if not isinstance(where, dict) and where in flushed:
            why = FLUSHED.format(run=(cell.get("run_id") or "")[:8], last=flushed[where])
            for col, raw in cell.items():
                if _number(raw) is not None and col not in _NOT_CELLS:
                    cells += 1
                    rejects.append((where, f"{col} {raw}", why))
            continue

        def at(col, where=where, k=k):
            return where.get(col, k) if isinstance(where, dict) else k

        first_schema = _first_schema(list(cell))
        mode = cell.get("tracking_mode")
        if not first_schema:
            modes.add(mode)
        count, device = _gpus(cell)
        if device is None and not count:  # no GPU tracked: the energy is the CPU's, and the row names it
            device = cell.get("cpu_model") or None
        base = _run(_run_label(cell, k, stamps, tasks), _model_in(cell.get("project_name")), device, count)
        values = {}
        for col, raw in cell.items():
            v = _number(raw)
            if v is None or col in _NOT_CELLS:
                continue
            cells += 1
            values[col] = v
            if col not in (*_MEASURED, "duration", "energy_consumed"):
                why = _ESTIMATES.get(col, f"column {col!r} is not in the energy contract")
                rejects.append((at(col), f"{col} {raw}", why))

        def keep(metric, unit, value, scope, note, col, base=base, at=at):
            records.append(_record(base, scope, at(col), metric, value, unit, note))

        if first_schema:
            if "energy_consumed" in values:
                keep(
                    "energy",
                    "J",
                    values["energy_consumed"] * energy.J_PER_KWH,
                    "codecarbon-v1",
                    energy.KWH_NOTE,
                    "energy_consumed",
                )
            if "duration" in values:
                keep("duration", "s", values["duration"], None, "tracked duration", "duration")
            continue
        no_gpu = count is None or count == 0
        unsampled = not no_gpu and values.get("gpu_power") == 0
        over = impossible_watts(values.get("gpu_power"), count)
        cpu_scope = _CPU_SCOPE.get(mode)
        if mode == "process" and _major(cell.get("codecarbon_version")) < _PROCESS_CPU_SINCE:
            cpu_scope = _CPU_SCOPE["machine"]  # its process mode left the CPU whole
        if cpu_scope == "cpu-codecarbon" and _OFF_LINUX.match(cell.get("os") or ""):
            cpu_scope = "cpu-codecarbon-off-linux"
        for col, kind in (("gpu_power", "gpu"), ("gpu_energy", "gpu"), ("cpu_power", "cpu"), ("cpu_energy", "cpu")):
            if col not in values:
                continue
            if kind == "gpu" and (no_gpu or unsampled):
                why = NO_SAMPLE if unsampled else "no GPU tracked (gpu_count empty)"
                rejects.append((at(col), f"{col} {cell[col]}", why))
            elif kind == "gpu" and over:
                why = IMPOSSIBLE.format(w=values["gpu_power"], n=_hosted(count), cap=over)
                rejects.append((at(col), f"{col} {cell[col]}", why))
            elif col == "gpu_energy" and values[col] == 0 and values.get("gpu_power", 0) > 0:
                why = NO_COUNT.format(w=f"{values['gpu_power']:.3g}", s=f"{values.get('duration', float('nan')):.3g}")
                rejects.append((at(col), f"{col} {cell[col]}", why))
            elif kind == "cpu" and cpu_scope is None:
                rejects.append(
                    (at(col), f"{col} {cell[col]}", f"tracking_mode {mode!r}: what the CPU figure covers is unknown")
                )
            elif col.endswith("_power"):
                keep(
                    "power_reading",
                    "W",
                    values[col],
                    kind if kind == "gpu" else cpu_scope,
                    "power of the last measurement interval",
                    col,
                )
            else:
                keep(
                    "energy",
                    "J",
                    values[col] * energy.J_PER_KWH,
                    kind if kind == "gpu" else cpu_scope,
                    energy.KWH_NOTE,
                    col,
                )
        for col, why in (
            ("ram_power", RAM_ESTIMATE),
            ("ram_energy", RAM_ESTIMATE),
            ("energy_consumed", TOTAL_ESTIMATE),
        ):
            if col in values:
                rejects.append((at(col), f"{col} {cell[col]}", why))
        if "duration" in values:
            keep("duration", "s", values["duration"], None, "tracked duration", "duration")
    messages = []
    if not records and not rejects:
        raise ParseError(source, head_line, "no CodeCarbon row found")
    if len(modes) > 1:
        messages.append(
            f"{source}: rows tracked in different modes ({', '.join(sorted(modes))}): their CPU figures cover different things"
        )
    return energy.finish(TOOL, source, records, rejects, messages, cells, version)


#: A model's name inside CodeCarbon's `project_name` (the tracker's free label, `EmissionsTracker(project_name=...)`;
#: default "codecarbon"): a `_`-separated part that carries a parameter count (`Qwen-Qwen3-30B-A3B-Instruct-2507`).
_NAMED_MODEL = re.compile(r"^[A-Za-z][\w.]*(?:-[\w.]+)*?-\d+(?:\.\d+)?[BbMm](?:-[\w.]+)*$")


def _model_in(project: str | None) -> str | None:
    """The model a project name names: its one part that reads as a model with a size, else None."""
    parts = [p for p in str(project or "").split("_") if _NAMED_MODEL.match(p)]
    return parts[0] if len(parts) == 1 else None


def _gpus(cell: dict) -> tuple[float | None, str | None]:
    """(GPU count, GPU name) as `gpu_count` and `gpu_model` give them ("2 x NVIDIA RTX A6000"). Two
    models in one machine are joined with nothing between them (`1 x NVIDIA GeForce RTX 40601 x NVIDIA
    GeForce RTX 3080 Ti`, `context.joined_parts`): the run spans both, named together, no one of them
    the run's device."""
    count = _number(cell.get("gpu_count", ""))
    model = cell.get("gpu_model") or None
    joined = context.joined_parts(model) if model else []
    if joined:
        return (count if count is not None else float(sum(n for n, _ in joined))), " + ".join(n for _, n in joined)
    m = _GPUS.match(model) if model else None
    if m:
        return (count if count is not None else float(m[1])), m[2]
    return count, model


def table_facts(table) -> list[tuple]:
    """How many GPUs each row's energy is of, as a run fact on the row's line: `gpu_count`, the GPUs
    CodeCarbon tracked (`len(gpu_ids)` where they were given or `CUDA_VISIBLE_DEVICES` names them,
    `resource_tracker.set_GPU_tracking`), not the count `gpu_model` writes, which is every GPU of the
    machine (`8 x NVIDIA H20` beside `gpu_count` 2): the file's list of what it states then says the
    tracked count where the context reader would read the machine's."""
    if "device_count" not in table or "line" not in table:
        return []
    counts: dict[int, float] = {}
    for line, count in zip(table["line"], table["device_count"], strict=True):
        if count == count and line == line:  # neither missing
            counts.setdefault(int(line), float(count))
    out = [("device_count", c, line, f"gpu_count: {c:g}") for line, c in counts.items()]
    # the GPU's power over the last interval, as CodeCarbon logs it (1.x's console prints no GPU energy)
    gpu = table[(table["metric"] == "power_reading") & (table["scope"] == "gpu")]
    scope = energy.SCOPES["gpu"]
    out += [
        ("power", float(v), int(n), f"GPU power: {v:g} W", "W", scope)
        for v, n in zip(gpu["value"], gpu["line"], strict=True)
    ]
    return out


def _number(raw: str) -> float | None:
    try:
        v = float(raw)
    except (TypeError, ValueError):
        return None
    return v


def _major(version: str | None) -> int:
    """The major number of a row's `codecarbon_version` (`2.3.1` -> 2); 0 for a row without one, which
    comes from before 2.2 (`_PROCESS_CPU_SINCE`)."""
    m = re.match(r"\s*v?(\d+)\.", version or "")
    return int(m[1]) if m else 0


def _version(rows: list[list[str]], header: list[str]) -> str | None:
    if "codecarbon_version" not in header or len(rows) < 2:
        return None
    i = header.index("codecarbon_version")
    versions = sorted({r[i].strip() for r in rows[1:] if len(r) > i and r[i].strip()})
    return f"CodeCarbon {', '.join(versions)}" if versions else None


TOOL = register(
    Tool(
        name=NAME,
        settings=energy.SETTINGS,
        sniff=sniff,
        parse=parse,
        description="CodeCarbon emissions.csv (and its JSON record of one run): energy of the GPU, CPU and RAM "
        "(kWh, read as J) with its tracking mode, and their last power readings; 1.x's first schema: one energy per run; "
        "its console log (the last block's GPU energy and power)",
        command="codecarbon's EmissionsTracker (or `codecarbon monitor`) around a run: emissions.csv",
        metrics={m: energy.METRICS[m] for m in ("energy", "power_reading", "duration")},
        refuses=refuses,
        facts=table_facts,
    )
)
