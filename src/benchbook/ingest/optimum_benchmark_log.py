"""optimum-benchmark's console log (`benchmark.log`): the report it logs line by line at the end of
a run, read as its `benchmark_report.json` is.

How the tool prints it (huggingface/optimum-benchmark, `benchmark/report.py` and `trackers/*.py`,
`to_plain_text`, each line logged by the `report` logger in the format `[%(asctime)s][%(name)s]
[%(levelname)s] - %(message)s`, colour codes around the fields when colorlog is on, the process
name before them when the run is isolated):

    [report][INFO] - + prefill:                 a target (phase)
    [report][INFO] - \t+ energy:                a measurement: memory, latency, throughput, energy, efficiency
    [report][INFO] - \t\t+ gpu: 0.074682 (kWh)  energy: cpu, gpu, ram, total, `{:f}` (six decimals)
    [report][INFO] - \t\t+ efficiency: 12235.492042 (samples/kWh)

The same report saved beside the log (`cli.py`: `benchmark_report.save_text("benchmark_report.txt")`,
`save_markdown("benchmark_report.md")`) is read the same way: the text file is `to_plain_text()` with
no logger prefix (the lines above without `[report][INFO] - `), the markdown one is
`to_markdown_text()`, a `# target:` heading, a `## measurement:` heading and each tracker's
`| metric | value | unit |` table (`| gpu | 0.074682 | kWh |`), which is the plain line
`\t\t+ gpu: 0.074682 (kWh)` in a table's cells.

A report without an energy section (a run with energy tracking off: memory, latency and throughput
only) is refused in one sentence naming its first line, and an invocation before it that stopped in a
traceback (`Received traceback from isolated process`; the log is appended to by each invocation) is
named with it.

Energies are printed with six decimals: a phase of a few joules (0.000013 kWh) keeps two
significant digits, and the note says so. Only lines of the `report` logger are read: the same
names in other loggers' lines (the energy tracker's progress) are not the report. The log names no
model and no batch size; what it says of its run around the report is the context reader's.
"""

from __future__ import annotations

import re

from benchbook.ingest import energy
from benchbook.ingest.core import ParseError
from benchbook.ingest.text import Lines, search, split_n, whole

#: A colour code colorlog puts around a field (ESC [ ... m).
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_A = r"(?:\x1b\[[0-9;]*m)*"
#: A report line (colour codes allowed around the fields), for the sniffer: a phase heading of the
#: report logger (`+ prefill:`), whatever the run measured.
REPORT_LINE = re.compile(rf"\[{_A}report{_A}\]\[{_A}INFO{_A}\] - {_A}\+ \w+:\s*(?:{_A})*$", re.M)
#: The main process receiving a traceback: an invocation that stopped before its report.
_FAILED = re.compile(r"\[process\]\[ERROR\] - \t\+ Received traceback from isolated process")
_MESSAGE = re.compile(r"\[report\]\[INFO\] - (.*)$")
_TARGET = re.compile(r"^\+ (\w+):\s*$")
_SECTION = re.compile(r"^\t\+ (\w+):\s*$")
#: The measurements a target holds (`TargetMeasurements.to_plain_text`, in this order).
_MEASUREMENTS = ("memory", "latency", "throughput", "energy", "efficiency")
#: The saved report's markdown: a target heading, a measurement heading, a tracker table's row.
_MD_TARGET = re.compile(r"^# (\w+):\s*$")
_MD_SECTION = re.compile(r"^## (\w+):\s*$")
_MD_ROW = re.compile(r"^\|\s*(\w+)\s*\|\s*(-?[\d.]+(?:e[+-]?\d+)?)\s*\|\s*([^|]*?)\s*\|\s*$")
_VALUE = re.compile(r"^\t\t\+ (\w+): (-?[\d.]+(?:e[+-]?\d+)?)(?: \(([^)]*)\))?\s*$")

SCOPES = {"gpu": "gpu", "cpu": "cpu", "ram": "ram", "total": "gpu+cpu+ram"}
EFFICIENCY = {"tokens/kWh": ("tokens_per_joule", "tok/J"), "samples/kWh": ("requests_per_joule", "req/J")}


def efficiency_note(unit: str, phase: str, kind: tuple[str, str]) -> str:
    """How optimum-benchmark derives an efficiency (volume over the phase's total energy), for its note:
    decode's token volume leaves out each sequence's first token."""
    note = f"printed in {unit}: volume / total energy"
    if phase == "decode" and kind[0] == "tokens_per_joule":
        note += "; volume = num_samples x num_beams x (max_new_tokens - 1), not counted"
    return note


PRINTED = "printed in kWh with six decimals; converted to J"


def is_log(text: str | Lines) -> bool:
    return search(REPORT_LINE, text)


def saved_form(text: str | Lines) -> str | None:
    """ "text" or "markdown" where the file is the report as the tool saves it beside its log
    (`benchmark_report.txt` / `.md`), else None: a target heading whose next heading is one of a
    target's measurements (`+ prefill:` then `\t+ energy:`; `# prefill:` then `## energy:`)."""
    lines = [s.rstrip("\r") for s in split_n(text)]
    heads = [s for s in lines if s.strip()]
    for a, b in zip(heads, heads[1:], strict=False):
        if _TARGET.match(a) and (m := _SECTION.match(b)) and m[1] in _MEASUREMENTS:
            return "text"
        if _MD_TARGET.match(a) and (m := _MD_SECTION.match(b)) and m[1] in _MEASUREMENTS:
            return "markdown"
    return None


def _messages(text: str | Lines) -> list[tuple[int, str, str]]:
    """(line, the line without colour codes, the report's message or "") of each line: the logged
    message of the `report` logger; in a saved report, the line itself (text) or its plain-text
    form (markdown: `# t:` is `+ t:`, `## m:` is `\t+ m:`, a table row `| k | v | u |` is
    `\t\t+ k: v (u)`, a unit of `-` none)."""
    form = None if is_log(text) else saved_form(text)
    out = []
    for n, raw in enumerate(split_n(whole(text)), start=1):
        plain = _ANSI.sub("", raw).rstrip("\r")
        msg = ""
        if form is None:
            m = _MESSAGE.search(plain)
            msg = m[1] if m else ""
        elif form == "text":
            msg = plain
        elif t := _MD_TARGET.match(plain):
            msg = f"+ {t[1]}:"
        elif t := _MD_SECTION.match(plain):
            msg = f"\t+ {t[1]}:"
        elif (r := _MD_ROW.match(plain)) and r[1] != "metric":
            msg = f"\t\t+ {r[1]}: {r[2]}" + (f" ({r[3]})" if r[3] and r[3] != "-" else "")
        out.append((n, plain, msg))
    return out


def failed(text: str | Lines) -> int | None:
    """The line where a log with no report receives its isolated process's traceback, else None: an
    invocation that stopped before measuring anything."""
    if is_log(text):
        return None
    for n, raw in enumerate(split_n(text), start=1):
        if _FAILED.search(_ANSI.sub("", raw)):
            return n
    return None


def parse(text: str | Lines, source: str) -> tuple[list[dict], list[tuple], int, list[str]]:
    """(records, rejects, cells, messages) of the report lines; a number outside a target or a
    measurement heading is not the report's and raises ParseError naming its line."""
    base = dict(
        run="report", model=None, device=None, device_count=None, backend=None, batch_size=None, request_rate=None
    )
    records, rejects, cells, messages = [], [], 0, []
    target = section = None
    first = None  # the report's first line
    failed = []  # lines where an invocation before the report stopped in a traceback
    for n, plain, msg in _messages(text):
        if first is None and _FAILED.search(plain):
            failed.append(n)
        if not msg:
            continue
        if t := _TARGET.match(msg):
            target, section = t[1], None
            first = first or n
            if target not in energy.INTERVALS:
                messages.append(f"{source}:{n}: phase {target!r} is not an interval the energy contract knows")
            continue
        if s := _SECTION.match(msg):
            if target is None:
                raise ParseError(source, n, f"a measurement heading '{s[1]}' before any phase heading ('+ phase:')")
            section = s[1]
            continue
        v = _VALUE.match(msg)
        if not v:
            continue
        if section is None and target is None:
            raise ParseError(
                source,
                n,
                f"a report value '{v[1]}' before any phase or measurement heading: the copy starts inside a "
                "section of the report whose heading it does not hold, so what the value measures is not stated",
            )
        if section is None:
            raise ParseError(source, n, f"a report value '{v[1]}' outside a measurement heading ('\\t+ energy:')")
        cells += 1
        name, value, unit = v[1], float(v[2]), v[3]
        interval = target if target in energy.INTERVALS else None
        text_ = f"{target} {section} {name} {v[2]}"
        if section == "energy":
            if unit != "kWh":
                raise ParseError(source, n, f"energy unit {unit!r}, expected kWh")
            if interval is None or name not in SCOPES:
                rejects.append((n, text_, "not an interval or scope of the energy contract"))
                continue
            records.append(
                dict(
                    base,
                    scope=SCOPES[name],
                    interval=interval,
                    line=n,
                    metric="energy",
                    statistic="value",
                    value=value * energy.J_PER_KWH,
                    unit="J",
                    note=PRINTED,
                )
            )
        elif section == "efficiency":
            kind = EFFICIENCY.get(unit or "")
            if interval is None or kind is None:
                rejects.append((n, text_, f"efficiency unit {unit!r}"))
                continue
            note = efficiency_note(unit, target, kind)
            records.append(
                dict(
                    base,
                    scope="gpu+cpu+ram",
                    interval=interval,
                    line=n,
                    metric=kind[0],
                    statistic="value",
                    value=value / energy.J_PER_KWH,
                    unit=kind[1],
                    note=note,
                )
            )
        else:
            rejects.append((n, text_, f"{section}: not part of the energy contract"))
    if not records and first is not None:
        before = (
            f" (of the last of its invocations; {'one' if len(failed) == 1 else len(failed)} before it stopped in a "
            f"traceback at line {', '.join(map(str, failed))})"
            if failed
            else ""
        )
        raise ParseError(
            source,
            first,
            f"an optimum-benchmark {'console log whose report' if is_log(text) else 'saved report'}{before} has no "
            "energy section (energy tracking off): "
            "it measured no energy",
        )
    return records, rejects, cells, messages
