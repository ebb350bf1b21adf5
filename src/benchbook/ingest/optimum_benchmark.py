"""optimum-benchmark energy reports: `benchmark_report.json` (the report alone) or `benchmark.json`
(`{"config": ..., "report": ...}`), as its energy_star scenario writes them; and the same report as
its console log prints it, or as it saves it in text and markdown beside the JSON
(`benchmark_report.txt`, `benchmark_report.md`; `optimum_benchmark_log`).

The report has one object per phase (`load_dataset`, `preprocess_dataset`, `load_model`, `prefill`,
`decode`, ...), each with `energy` (kWh, from CodeCarbon: `gpu`, `cpu`, `ram` and their `total`)
and `efficiency` (`samples/kWh` or `tokens/kWh`, the phase's volume divided by the total energy).
Scopes: `gpu` is the GPU, `cpu` and `ram` are CodeCarbon's CPU and RAM figures (estimates where
it cannot read RAPL), `total` is GPU + CPU + RAM. In energy_star, `decode` energy is the
generation pass minus the prefill pass, and its volume is num_samples x num_beams x
(max_new_tokens - 1): a nominal count from the configuration, not tokens counted, so a run whose
generations stopped early used more energy per token than the efficiency says.

Energies are converted to J; efficiencies to tok/J or req/J (samples are requests). With
`benchmark.json` the configuration names the model, the GPUs, the backend and the batch size.
Latency, throughput and memory sections, where present, are not part of the energy contract and
their numbers are reported as set aside.
"""

from __future__ import annotations

import json
import re

from benchbook.ingest import energy, optimum_benchmark_log
from benchbook.ingest.core import Parsed, ParseError, Tool, register
from benchbook.ingest.text import Lines, first_char, head, split_n, whole
from benchbook.nouns import counted

NAME = "optimum-benchmark"

_PHASE_KEYS = {"memory", "latency", "throughput", "energy", "efficiency"}


def _is_phase(v) -> bool:
    return isinstance(v, dict) and set(v) <= _PHASE_KEYS and "energy" in v


def sniff(text: str | Lines) -> bool:
    if optimum_benchmark_log.is_log(text):
        return True
    if optimum_benchmark_log.saved_form(text):  # a markdown one with no energy table is refused (`refuses`)
        return _markdown_report(split_n(text)) is None
    start = head(text, 20000)
    if '"optimum_benchmark_version"' in start:  # the config's environment names the tool, whatever the scenario
        return True
    return '"energy"' in start and '"kWh"' in start and ('"efficiency"' in start or '"report"' in start)


def parse(text: str | Lines, source: str) -> Parsed:
    if not first_char(text) == "{" and optimum_benchmark_log.is_log(text):
        records, rejects, cells, messages = optimum_benchmark_log.parse(text, source)
        return energy.finish(TOOL, source, records, rejects, messages, cells, "optimum-benchmark console log")
    if not first_char(text) == "{" and (form := optimum_benchmark_log.saved_form(text)):
        records, rejects, cells, messages = optimum_benchmark_log.parse(text, source)
        saved = "benchmark_report.txt" if form == "text" else "benchmark_report.md"
        return energy.finish(TOOL, source, records, rejects, messages, cells, f"optimum-benchmark report ({saved})")
    body = whole(text)
    try:
        obj = json.loads(body)
    except json.JSONDecodeError as exc:
        raise ParseError(source, exc.lineno, f"not valid JSON ({exc.msg})") from None
    if not isinstance(obj, dict):
        raise ParseError(source, 1, "expected a JSON object of benchmark phases")
    config = obj.get("config") if isinstance(obj.get("config"), dict) else {}
    report = obj.get("report", obj) if config else obj
    phases = {k: v for k, v in report.items() if _is_phase(v)} if isinstance(report, dict) else {}
    if not any(isinstance(v.get("energy"), dict) for v in phases.values()):
        scenario = config.get("scenario") if isinstance(config.get("scenario"), dict) else {}
        if scenario.get("energy") is False:  # the tool ran without its energy tracker: nothing to misread
            at = next((n for n, s in enumerate(body.split("\n"), 1) if s.strip().startswith('"energy": false')), 1)
            raise ParseError(
                source,
                at,
                f"an optimum-benchmark {scenario.get('name') or ''} run with energy tracking off "
                "(scenario energy: false): it measured no energy",
            )
        raise ParseError(source, 1, "no benchmark phase with an 'energy' report (optimum-benchmark report expected)")
    base = _settings(config)
    lines = _LineFinder(body)
    origin = lines.after('"report"') if config else 1
    records, rejects, cells, messages = [], [], 0, []
    for phase, rep in phases.items():
        where = lines.after(f'"{phase}"', origin)
        interval = phase if phase in energy.INTERVALS else None
        if interval is None:
            messages.append(f"{source}:{where}: phase {phase!r} is not an interval the energy contract knows")
        en = rep.get("energy")
        if isinstance(en, dict):
            if en.get("unit") != "kWh":
                raise ParseError(source, where, f"energy unit {en.get('unit')!r}, expected kWh")
            for key, v in en.items():
                if key == "unit" or not _num(v):
                    continue
                cells += 1
                ln = lines.after(f'"{key}"', where)
                if interval is None or key not in optimum_benchmark_log.SCOPES:
                    rejects.append((ln, f"{phase} energy {key} {v}", "not an interval or scope of the energy contract"))
                    continue
                records.append(
                    dict(
                        base,
                        scope=optimum_benchmark_log.SCOPES[key],
                        interval=interval,
                        line=ln,
                        metric="energy",
                        statistic="value",
                        value=float(v) * energy.J_PER_KWH,
                        unit="J",
                        note=energy.KWH_NOTE,
                    )
                )
        eff = rep.get("efficiency")
        if isinstance(eff, dict) and _num(eff.get("value")):
            cells += 1
            ln = lines.after('"efficiency"', where)
            kind = optimum_benchmark_log.EFFICIENCY.get(eff.get("unit"))
            if interval is None or kind is None:
                rejects.append((ln, f"{phase} efficiency {eff.get('value')}", f"efficiency unit {eff.get('unit')!r}"))
            else:
                note = optimum_benchmark_log.efficiency_note(eff["unit"], phase, kind)
                records.append(
                    dict(
                        base,
                        scope="gpu+cpu+ram",
                        interval=interval,
                        line=lines.after('"value"', ln),
                        metric=kind[0],
                        statistic="value",
                        value=float(eff["value"]) / energy.J_PER_KWH,
                        unit=kind[1],
                        note=note,
                    )
                )
        for section in ("memory", "latency", "throughput"):
            found = list(_numbers(rep.get(section)))
            cells += len(found)
            rejects += [(where, f"{phase} {section} {v}", f"{section}: not part of the energy contract") for v in found]
    version = (config.get("environment") or {}).get("optimum_benchmark_version")
    return energy.finish(
        TOOL, source, records, rejects, messages, cells, f"optimum-benchmark {version}" if version else None
    )


def _settings(config: dict) -> dict:
    """The setting columns the configuration gives (all None for a report alone)."""
    backend = config.get("backend") or {}
    scenario = config.get("scenario") or {}
    env = config.get("environment") or {}
    gpus = env.get("gpu") or []
    bs = (scenario.get("input_shapes") or {}).get("batch_size")
    return dict(
        run=f"{backend['model']} ({scenario.get('name') or 'report'})" if backend.get("model") else "report",
        model=backend.get("model"),
        device=", ".join(sorted(set(gpus))) if gpus else None,
        device_count=float(env["gpu_count"]) if _num(env.get("gpu_count")) else None,
        backend=backend.get("name"),
        batch_size=float(bs) if _num(bs) else None,
        request_rate=None,
    )


def _num(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _numbers(v):
    if _num(v):
        yield v
    elif isinstance(v, dict):
        for x in v.values():
            yield from _numbers(x)
    elif isinstance(v, list):
        for x in v:
            yield from _numbers(x)


class _LineFinder:
    """The 1-based line of the first `needle` at or after a line (JSON keys repeat per phase)."""

    def __init__(self, body: str):
        self.lines = body.split("\n")

    def after(self, needle: str, start: int = 1) -> int:
        for i in range(start - 1, len(self.lines)):
            if needle in self.lines[i]:
                return i + 1
        return start


#: A `jq` filter over an optimum-benchmark report: its phases (`.prefill`, `.decode`, `.per_token`, `.load`)
#: or its keys with the unit in brackets (`"mean[tokens/s]"`, `"total[kWh]"`).
_JQ = re.compile(r"\bjq\b.*(\.(?:prefill|decode|per_token|load|forward|generate)\.|\w\[[\w/]+\]\")")
#: A pass's measurement as optimum-benchmark's 2023 inference benchmark logged it
#: (`[2023-12-06 09:45:35,501][inference][INFO] -    + Forward pass latency: 1.22e-02 (s)`).
_PASS = re.compile(r"\]\[inference\]\[INFO\] - +\+ (?P<what>Forward|Generate) pass (?:latency|throughput): \S+ \(")
_BARE = re.compile(r"^\s*-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?\s*$")


#: The report's markdown (`BenchmarkReport` targets as `# load_model:` / `# prefill:` / `# decode:` headings, each
#: tracker's `to_markdown_text()` table under `## memory:` / `## latency:` / `## throughput:` / `## energy:`).
_MD_TARGET = re.compile(r"^#\s+(?:load_model|prefill|decode|per_token|forward|call|train)\s*:\s*$")
_MD_SECTION = re.compile(r"^##\s+(?P<what>memory|latency|throughput|energy|efficiency)\s*:\s*$")


def _markdown_report(lines) -> tuple[int, str] | None:
    """(line, why) of optimum-benchmark's markdown report with no energy table (the trackers'
    `to_markdown_text`): it measured no energy, which this tool is read for."""
    targets = [i for i, s in enumerate(lines) if _MD_TARGET.match(s)]
    sections = {m["what"] for s in lines if (m := _MD_SECTION.match(s))}
    if not targets or not sections or "energy" in sections:
        return None
    return targets[0] + 1, (
        "optimum-benchmark's markdown report (memory, latency and throughput tables per target, its trackers' "
        "to_markdown_text) with no energy table: it measured no energy, the one thing this reader takes from a "
        "report; not read"
    )


def refuses(text: str | Lines) -> tuple[int, str] | None:
    """(line, why) of a `jq` filter printing fields of optimum-benchmark reports as bare values, else None
    (`Tool.refuses`): the values come without the report that ties each to its configuration, and this
    tool reads the report's energy. A console log that stopped in a traceback before its report is
    named at the line that received it."""
    stopped = optimum_benchmark_log.failed(text)
    if stopped is not None:
        return stopped, (
            "optimum-benchmark's console log of a run whose isolated process sent its traceback to the main "
            "process before any report was logged: nothing was measured; not read"
        )
    lines = split_n(text)
    if (md := _markdown_report(lines)) is not None:
        return md
    for i, raw in enumerate(lines):
        if m := _PASS.search(raw):
            return i + 1, (
                f"optimum-benchmark's console log of an inference benchmark (its 2023 format, `+ {m['what']} pass "
                "latency/throughput`): latencies and throughputs of forward or generate passes, no energy, which "
                "no chapter reads; not read"
            )
    for i, raw in enumerate(lines):
        if not _JQ.search(raw):
            continue
        values = sum(1 for s in lines[i + 1 :] if _BARE.match(s))
        if values:
            return i + 1, (
                f"a jq filter printing {counted(values, 'bare value')} of optimum-benchmark report fields "
                f"({raw.split('jq', 1)[1].strip()[:80]}) without the reports they come from; not read"
            )
    return None


TOOL = register(
    Tool(
        name=NAME,
        settings=energy.SETTINGS,
        sniff=sniff,
        parse=parse,
        description="optimum-benchmark energy report (benchmark_report.json / benchmark.json: kWh per phase, "
        "GPU, CPU, RAM and total; or the same report in its console log, benchmark.log, or as it saves it in "
        "text and markdown, benchmark_report.txt / .md)",
        command="optimum-benchmark with energy tracking (energy_star scenario), e.g. optimum-benchmark --config-name ...",
        metrics={m: energy.METRICS[m] for m in ("energy", "tokens_per_joule", "requests_per_joule")},
        refuses=refuses,
    )
)
