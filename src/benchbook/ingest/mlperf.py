"""MLPerf Inference LoadGen `mlperf_log_summary.txt` of the LLM benchmarks (Server and Offline).

The file has three sections under `====` banners (a paste may start at the banner under the title:
`TITLELESS_RE`): "MLPerf Results Summary" (SUT name, Scenario,
Mode, the headline rates, `Result is : VALID|INVALID` with the constraint checks and, for LLMs,
the TTFT/TPOT early-stopping results), "Additional Stats" (latencies, first-token latencies and
time-per-output-token in ns: min, max, mean and percentiles; LoadGen 5.x+ names the min/max/mean
rows "Time per Output Token" and keeps "time to output token" on the percentile rows) and "Test Parameters Used"
(`target_qps`, the scenario's latency limits, seeds, counts).

Tidy names follow the serving contract: samples are requests, so `Completed samples per second`
(Server) and `Samples per second` (Offline) are `request_throughput`; `Completed tokens per
second` / `Tokens per second` (generated tokens) are `output_throughput` (SingleStream prints them as
`QPS w/ loadgen overhead` and `TPS w/ loadgen overhead`; its `w/o` rows are 1 / mean latency, set
aside); `Scheduled samples per
second` (the offered load) is `scheduled_request_rate`; the latencies are `e2el`, `ttft` and
`tpot`. LoadGen prints them in ns: they are converted to ms (unit `ms`, note "LoadGen printed ns").

Settings: scenario, mode, SUT name (and the model when the SUT name carries it, as in
`llama2-70b-Offline-SUT`), the result, `target_qps`, the latency limits (ms) and the line of the
Test Parameters banner (`parameters_line`, NaN where the input holds no such section); the
constraint checks and early-stopping lines go to `checks`. LoadGen prints the limits as
`TestSettingsInternal::LogSummary` (mlcommons/inference, loadgen/test_settings_internal.cc) does:
`target_latency (ns)` for a benchmark judged on its sample latency (SDXL, GPT-J), else
`ttft_latency (ns)` and `tpot_latency (ns)` (`use_token_latencies`, the LLMs), in every scenario;
`PerformanceSummary::PerfConstraintsMet` (loadgen/results.cc) checks them in the Server scenario
only, at `target_latency_percentile`, which the summary does not print; a limit printed as 0 is unset
(a SingleStream or MultiStream run has none). `samples_per_query` is kept: a MultiStream query's samples,
sent together, the next query only when they have all completed (loadgen/test_settings.h). Test
parameters other than these are configuration, not measurements, and are not cells. A SingleStream or
MultiStream summary opens with its result, `90th percentile latency (ns)` or `99.0th percentile latency
(ns)`: its percentile is kept (`result_percentile`) and the cell set aside, Additional Stats printing
the same latency at that percentile. Counting (cells_read == kept + rejected): every
number of the first two sections is a cell (P97 and P99.9 keep their ranks: `core.percentile`); the Server summary repeats `Completed tokens per second` in Additional Stats, and the
repeat is reported as a duplicate by the common screen.
"""

from __future__ import annotations

import math
import re
from decimal import Decimal, InvalidOperation

from benchbook.ingest import mlperf_detail, mlperf_endpoints
from benchbook.ingest.core import NUMBER, Parsed, ParseError, Tool, finish, percentile, register
from benchbook.ingest.text import Lines, head, search, split_n

NAME = "mlperf-loadgen"

SETTINGS = {
    "run": "str",
    "scenario": "str",
    "mode": "str",
    "sut": "str",
    "sut_line": "float64",
    "model": "str",
    "result": "str",
    "target_qps": "float64",
    "samples_per_query": "float64",
    "result_percentile": "float64",
    "loadgen_file": "str",
    "latency_limit_ms": "float64",
    "ttft_limit_ms": "float64",
    "tpot_limit_ms": "float64",
    "parameters_line": "float64",
    "errors_logged": "float64",
    "errors_line": "float64",
    "checks": "str",
}

METRICS = {
    "request_throughput": "req/s: completed samples (requests) per second",
    "output_throughput": "tok/s: generated tokens per second",
    "scheduled_request_rate": "req/s: samples per second LoadGen scheduled (the offered load, Server)",
    "e2el": "ms: sample latency (printed in ns)",
    "ttft": "ms: first-token latency (printed in ns)",
    "tpot": "ms: time per output token (printed in ns)",
    "completed": "req: queries completed, one sample each (Server, SingleStream; the detail log's result_query_count), or the samples of the one Offline query",
    "failed": "req: samples that failed (the endpoints report's Total samples failed)",
    "duration": "s: the run's duration (the endpoints report)",
}

BANNER_RE = re.compile(r"^={20,}\s*$")
#: A value an author wrote over a number before pasting (`xxxxxxxxxx`, `yyyyyyyyyy`): one letter repeated.
PLACEHOLDER_RE = re.compile(r"([A-Za-z])\1{3,}")
ROW_RE = re.compile(rf"^\s*(?P<label>[^:*]+?)\s*:\s*(?P<value>{NUMBER})\s*$")
TEXT_ROW_RE = re.compile(r"^\s*(?P<label>[^:*]+?)\s*:\s*(?P<value>.*?)\s*$")
STAT_RE = re.compile(
    r"^(?:(?P<word>Min|Max|Mean) (?P<a>latency|First Token latency|Time (?:to|per) Output Token)"
    r"|(?P<p>\d+(?:\.\d+)?) percentile (?P<b>latency|first token latency|time to output token)) \(ns\)$",
    re.IGNORECASE,
)
KINDS = {
    "latency": "e2el",
    "first token latency": "ttft",
    "time to output token": "tpot",
    "time per output token": "tpot",
}
RATES = {
    "Completed samples per second": ("request_throughput", "req/s"),
    "Samples per second": ("request_throughput", "req/s"),
    "Completed tokens per second": ("output_throughput", "tok/s"),
    "Tokens per second": ("output_throughput", "tok/s"),
    "Scheduled samples per second": ("scheduled_request_rate", "req/s"),
    # SingleStream: (samples - 1) / the last query's issue time, the rate it completed them at
    "QPS w/ loadgen overhead": ("request_throughput", "req/s"),
    "TPS w/ loadgen overhead": ("output_throughput", "tok/s"),
}
#: The token rates LoadGen infers where the SUT reports no tokens (`infer_token_latencies`, GPT-J): samples per
#: second x `token_latency_scaling_factor`, the tokens per sample its settings assume (loadgen/results.cc).
INFERRED = {
    "Tokens per second (inferred)": "Tokens per second",
    "Completed tokens per second (inferred)": "Completed tokens per second",
}
INFERRED_NOTE = (
    "LoadGen inferred it: samples per second x the tokens per sample its settings assume, not tokens counted"
)
#: SingleStream's rates without LoadGen's overhead: 1 / mean latency (loadgen/results.cc), a latency restated.
WITHOUT_OVERHEAD = ("QPS w/o loadgen overhead", "TPS w/o loadgen overhead")
#: LoadGen's count of the errors it logged, the summary's last line (loadgen/logging.cc).
ERRORS_RE = re.compile(r"^(?P<n>No|\d+) errors? encountered", re.IGNORECASE)
NS_NOTE = "LoadGen printed ns; converted to ms"
#: LoadGen's early-stopping note names the queries of the run (`* Processed 100 queries.`): the count its
#: detail log writes as `result_query_count` beside the same note, so in the Server and SingleStream
#: scenarios (one sample a query) the requests completed; a MultiStream query holds several samples.
#: Where the run met its early-stopping minimum, the note names the minimum and then the queries it issued in
#: parentheses (`* Processed at least 64 queries (129272).`: results.cc writes `" * Processed at least " +
#: std::to_string(h_min + 1) + " queries (" + std::to_string(queries_issued) + ")."`): the count is the latter.
PROCESSED_RE = re.compile(
    r"^\*\s*Processed (?:(?P<n>\d+) queries|at least (?P<least>\d+) queries \((?P<issued>\d+)\))\.?$"
)
PROCESSED_NOTE = "queries the early-stopping note counts (one sample each; the detail log's result_query_count)"
#: The latency limits LoadGen prints under Test Parameters Used, and the setting each fills.
LIMITS = {
    "target_latency (ns)": "latency_limit_ms",
    "ttft_latency (ns)": "ttft_limit_ms",
    "tpot_latency (ns)": "tpot_limit_ms",
}
#: The result line of a scenario judged on a latency percentile (SingleStream, MultiStream): `90th percentile
#: latency (ns)` (LoadGen 0.5-1.x) or `99.0th percentile latency (ns)`, the same latency Additional Stats
#: prints again at that percentile (loadgen/results.cc).
RESULT_RE = re.compile(r"^(?P<p>\d+(?:\.\d+)?)th percentile latency \(ns\)$", re.IGNORECASE)
#: An LLM's SingleStream result for its first tokens (`90th first token percentile latency (ns)`), the
#: first-token latency Additional Stats prints again at that percentile.
FIRST_TOKEN_RESULT_RE = re.compile(r"^(?P<p>\d+(?:\.\d+)?)th first token percentile latency \(ns\)$", re.IGNORECASE)
#: A SUT name that carries the benchmark's model, as NVIDIA's harness names its SUTs
#: (`llama2-70b-Offline-SUT`, `mixtral-8x7b-Server-SUT`); the reference harness's `PySUT` names none.
SUT_MODEL_RE = re.compile(
    r"^(?P<model>[\w.]+(?:-[\w.]+)*?)-(?:Offline|Server|Interactive|SingleStream|MultiStream)-SUT$"
    # or a hyphenated model name and the word SUT, as FuriosaAI's furiosa-mlperf names its SUTs (`GPT-J SUT`)
    r"|^(?P<named>[A-Za-z][\w.]*-[\w.-]+) SUT$"
)


#: The summary's opening as `loadgen/results.cc` writes it (the title between two banners, then the
#: SUT name), found anywhere: a summary pasted into an issue or a log below other text.
PASTED_RE = re.compile(r"^[ \t]*MLPerf Results Summary[ \t]*\n[ \t]*={20,}[ \t]*\n[ \t]*SUT name\s*:", re.MULTILINE)
#: The same summary pasted from below its title: the banner under it, then `SUT name :` and the
#: `Scenario :` line results.cc writes next (the pair no other tool prints).
TITLELESS_RE = re.compile(r"^[ \t]*={20,}[ \t]*\n[ \t]*SUT name\s*:[^\n]*\n[ \t]*Scenario\s*:", re.MULTILINE)
#: The same summary pasted from its SUT name line, without the banner above it: `SUT name :`, `Scenario :` and
#: `Mode :`, the three lines results.cc writes first, one after another.
SUT_HEAD_RE = re.compile(r"^[ \t]*SUT name\s*:[^\n]*\n[ \t]*Scenario\s*:[^\n]*\n[ \t]*Mode\s*:", re.MULTILINE)


def sniff(text: str | Lines) -> bool:
    start = head(text, 4000)
    return (
        mlperf_detail.sniff(text)
        or mlperf_endpoints.sniff(text)
        or ("MLPerf Results Summary" in start[:2000] and "Scenario" in start)
        or search(PASTED_RE, text)
        or search(TITLELESS_RE, text)
        or search(SUT_HEAD_RE, text)
    )


def _titleless(lines) -> int | None:
    """Index of the banner above `SUT name :` and `Scenario :` (TITLELESS_RE), where no title is; else of the
    `SUT name :` line itself, where the paste starts there (SUT_HEAD_RE)."""
    for i in range(len(lines) - 2):
        if BANNER_RE.match(lines[i].strip()) and TITLELESS_RE.match("\n".join(lines[i : i + 3])):
            return i
    for i in range(len(lines) - 2):
        if SUT_HEAD_RE.match("\n".join(lines[i : i + 3])):
            return i
    return None


#: HTML markup a summary pasted into a page keeps (`<pre>`, `<b>Result is : VALID</b>`): LoadGen writes no
#: `<` in its summary (loadgen/results.cc), so a tag is the page's, not the summary's.
HTML_TAG_RE = re.compile(r"</?(?:pre|code|b|strong|em|i|span|samp|kbd)\b[^>]*>", re.IGNORECASE)


def _heads(lines) -> list[tuple[int, bool]]:
    """Where each summary starts: its "MLPerf Results Summary" title, else the banner above its SUT
    name (`TITLELESS_RE`, a summary pasted from below its title), with whether it was titleless.
    LoadGen writes one summary per run (loadgen/results.cc), so a file holding several holds several runs."""
    heads = [(i, False) for i, s in enumerate(lines) if HTML_TAG_RE.sub("", s).strip() == "MLPerf Results Summary"]
    if not heads and (i := _titleless(lines)) is not None:
        heads = [(i, True)]
    return heads


def parse(text: str | Lines, source: str) -> Parsed:
    if mlperf_detail.sniff(text):
        records, rejects, messages = mlperf_detail.read(text, source)
        return finish(TOOL, source, records, rejects, messages, version="detail log")
    if mlperf_endpoints.sniff(text):
        records, rejects, messages, version = mlperf_endpoints.read(text, source)
        return finish(TOOL, source, records, rejects, messages, version=f"endpoints {version}" if version else None)
    lines = split_n(text)
    heads = _heads(lines)
    if not heads:
        raise ParseError(source, 1, "no 'MLPerf Results Summary' banner: not a LoadGen mlperf_log_summary.txt")
    records, rejects, messages, cells = [], [], [], 0
    for k, (start, titleless) in enumerate(heads):
        stop = heads[k + 1][0] if k + 1 < len(heads) else len(lines)
        run = "summary" if len(heads) == 1 else f"summary {k + 1}"
        got = _summary(lines, start, stop, source, run, titleless)
        records += got[0]
        rejects += got[1]
        messages += got[2]
        cells += got[3]
    return finish(TOOL, source, records, rejects, messages, cells)


def _summary(lines, head: int, stop: int, source: str, run: str, titleless: bool):
    """One summary's records, rejects, messages and cells, from its head up to `stop` (the next
    summary's head, or the file's end), the end of its code fence, or its errors line."""
    messages = []
    section = None
    if titleless:
        section = "MLPerf Results Summary"
        sut = head if lines[head].strip().startswith("SUT name") else head + 1
        messages.append(
            f"{source}:{sut + 1}: the summary has no 'MLPerf Results Summary' title (pasted from below it); "
            f"read from its SUT name line (line {sut + 1})"
        )
    settings = {k: None for k in ("run", "scenario", "mode", "sut", "model", "result", "checks")}
    settings.update(run=run, target_qps=math.nan, parameters_line=math.nan, errors_logged=math.nan)
    settings.update(loadgen_file="summary", sut_line=math.nan)
    settings.update(errors_line=math.nan)
    settings.update(dict.fromkeys(LIMITS.values(), math.nan))
    checks: list[str] = []
    records, rejects, results = [], [], []
    cells = 0
    note = False  # the last line was one of LoadGen's `*` notes or its continuation
    per_query_line = None  # the line of `samples_per_query`, under Test Parameters Used
    loaded = None  # `performance_sample_count`: the samples loaded, which a concatenated query repeats whole
    margin = _indent(lines[head])
    for j in range(head, stop):
        raw = HTML_TAG_RE.sub("", lines[j])
        s, ln = raw.strip(), j + 1
        if s and _indent(raw) < margin:
            break  # LoadGen starts its rows at the line's start: a paste indents them all, and its block ends
            # at the first line set less deep (a page's text after the indented summary)
        # LoadGen wraps a note over lines it starts with a space (loadgen/results.cc: " * Not enough
        # queries processed for 99th percentile\n early stopping estimate (would need to process at\n
        # least 662 total queries)."): such a line goes on with the note above it
        wrapped, note = note and raw[:1] in (" ", "\t") and not ROW_RE.match(s), False
        if s.startswith(("```", "~~~")):
            break  # LoadGen writes no code fence: a summary pasted in a fenced block ends at its fence
        if not s or BANNER_RE.match(s):
            continue
        if s in ("MLPerf Results Summary", "Additional Stats", "Test Parameters Used"):
            section = s
            if s == "Test Parameters Used":
                settings["parameters_line"] = float(ln)
            continue
        if section == "Test Parameters Used":
            m = ROW_RE.match(s)
            if m and m["label"] == "performance_sample_count":
                loaded = float(m["value"])
            if m and m["label"] in ("target_qps", "samples_per_query"):
                settings[m["label"]] = float(m["value"])
                if m["label"] == "samples_per_query":
                    per_query_line = ln
            elif m and m["label"] in LIMITS and float(m["value"]) > 0:  # 0: the scenario has no such limit
                settings[LIMITS[m["label"]]] = float(m["value"]) / 1e6
            elif e := ERRORS_RE.match(s):
                settings.update(errors_logged=0.0 if e["n"].lower() == "no" else float(e["n"]), errors_line=float(ln))
                if e["n"].lower() != "no":
                    messages.append(f"{source}:{ln}: {s}")
                break  # LoadGen's last line: what follows was written around the summary
            elif re.search(r"\d+ warnings? encountered", s):
                messages.append(f"{source}:{ln}: {s}")
            continue
        m = ROW_RE.match(s)
        if m is None:
            t = TEXT_ROW_RE.match(s)
            if t and t["label"] in ("SUT name", "Scenario", "Mode"):
                settings[{"SUT name": "sut", "Scenario": "scenario", "Mode": "mode"}[t["label"]]] = t["value"]
                if t["label"] == "SUT name":
                    settings["sut_line"] = float(ln)
            elif t and t["label"] == "Result is":
                settings["result"] = t["value"]
            elif t and t["value"].lower() in ("yes", "no"):  # LoadGen prints an unmet check as `NO` (results.cc)
                checks.append(f"{t['label']}={t['value']}")
            elif s.startswith("*") or s.endswith("Result:") or wrapped:
                note = True
                if wrapped:
                    checks[-1] = f"{checks[-1]} {s}"
                else:
                    checks.append(s)
                q = PROCESSED_RE.match(s)
                if q and settings["scenario"] in ("Server", "SingleStream"):
                    cells += 1
                    if q["least"]:  # the early-stopping minimum, a threshold, not a count of the run
                        cells += 1
                        rejects.append((ln, s, f"early-stopping minimum ({q['least']}), not a tidy measurement"))
                    if any(r["metric"] == "completed" for r in records):
                        rejects.append((ln, s, "the query count another early-stopping note states"))
                    else:
                        n = q["n"] or q["issued"]
                        records.append(
                            dict(line=ln, metric="completed", statistic="value", value=float(n), unit="req")
                            | {"note": PROCESSED_NOTE}
                        )
                    continue
                for x in re.findall(rf"(?<![\w.]){NUMBER}(?![\w.])", s):
                    cells += 1
                    rejects.append((ln, s, f"early-stopping note ({x}), not a tidy measurement"))
            elif t and PLACEHOLDER_RE.fullmatch(t["value"]):
                raise ParseError(
                    source,
                    ln,
                    f"{t['label']!r} holds {t['value']!r}, a placeholder where LoadGen prints a number: the copy "
                    "keeps no measured value of its run",
                )
            elif re.search(r"\d", s):
                raise ParseError(source, ln, f"expected 'Label : value' in the LoadGen summary, found {s[:60]!r}")
            continue
        label, value = m["label"], float(m["value"])
        cells += 1
        st = STAT_RE.match(label)
        if label in RATES:
            metric, unit = RATES[label]
            records.append(dict(line=ln, metric=metric, statistic="value", value=value, unit=unit, note=None))
        elif label in INFERRED:
            metric, unit = RATES[INFERRED[label]]
            records.append(dict(line=ln, metric=metric, statistic="value", value=value, unit=unit, note=INFERRED_NOTE))
            messages.append(f"{source}:{ln}: {label}: {INFERRED_NOTE}")
        elif st:
            kind = KINDS[(st["a"] or st["b"]).lower()]
            if st["word"]:
                stat = {"min": "min", "max": "max", "mean": "mean"}[st["word"].lower()]
            else:
                stat = percentile(st["p"])
                if stat is None:
                    rejects.append((ln, s, f"percentile P{st['p']} is no rank between 0 and 100"))
                    continue
            records.append(dict(line=ln, metric=kind, statistic=stat, value=value / 1e6, unit="ms", note=NS_NOTE))
        elif res := RESULT_RE.match(label) or FIRST_TOKEN_RESULT_RE.match(label):
            settings["result_percentile"] = float(res["p"])
            kind = "ttft" if FIRST_TOKEN_RESULT_RE.match(label) else "e2el"
            stat = percentile(res["p"])
            results.append(dict(line=ln, metric=kind, statistic=stat, value=value / 1e6, unit="ms", note=NS_NOTE))
        elif label in WITHOUT_OVERHEAD:
            rejects.append((ln, s, "1 / the mean latency (LoadGen's SingleStream), a latency restated, not a rate"))
        else:
            rejects.append((ln, s, "a LoadGen line this parser has no tidy name for"))
    if (
        settings["scenario"] == "Offline"
        and per_query_line
        and (got := _offline_query(settings, records, lines, loaded))
    ):
        cells += 1  # the samples_per_query line, read as the requests completed
        one, note = got
        records.append(
            dict(line=per_query_line, metric="completed", statistic="value", value=one, unit="req") | {"note": note}
        )
    printed = {(r["metric"], r["statistic"]) for r in records}
    for r in results:  # the result line, kept only where no Additional Stats row of this copy prints it again
        if (r["metric"], r["statistic"]) in printed:
            rejects.append(
                (
                    r["line"],
                    lines[r["line"] - 1].strip(),
                    "the scenario's result, the latency Additional Stats prints again at this percentile",
                )
            )
        else:
            records.append(r)
    if settings["scenario"] is None or cells == 0:
        raise ParseError(source, head + 1, "a LoadGen summary without a Scenario line or any result")
    settings["checks"] = "; ".join(checks) or None
    if settings["sut"] and (named := SUT_MODEL_RE.match(settings["sut"])):
        settings["model"] = named["model"] or named["named"]
    if settings["result"] and settings["result"] != "VALID":
        messages.append(f"{source}: LoadGen marked the run {settings['result']} ({settings['checks']})")
    records = [{**settings, **r} for r in records]
    return records, rejects, messages, cells


#: LoadGen's Offline scenario sends one query holding every sample at t=0 and writes the summary once all have
#: completed; its `Samples per second` is `sample_count / pr.max_latency` (loadgen/results.cc), the samples
#: over the last one's completion, printed to 6 significant digits. Where `samples_per_query` over the max
#: latency (printed in ns) gives that rate to the digits printed, it is the samples completed.
OFFLINE_NOTE = "the samples of LoadGen's one Offline query (samples_per_query), all completed before the summary"
#: With `sample_concatenate_permutation` set (LoadGen 4+; equal-issue mode, which the submission checker requires
#: of the LLM benchmarks) the query holds whole copies of the `performance_sample_count` samples loaded
#: (loadgen.cc asserts no remainder), so it can hold more than `samples_per_query`: the summary warns "Check the
#: generated_samples_per_query line in the detailed log". A Whisper query of 146 x 1,633 = 238,418 samples
#: printed `samples_per_query : 237600` (its rate 289.407 = 238,418 / the 823.816 s max latency). Where the
#: setting does not give the rate and its next whole number of copies does, that is the samples completed;
#: where neither does, none is stated.
CONCATENATED_NOTE = (
    "the samples of LoadGen's one Offline query: whole copies of the performance_sample_count loaded, the next "
    "number of them at or above samples_per_query, as its rate over the max latency gives (sample_concatenate_permutation)"
)


def _printed_half_unit(line: str) -> float | None:
    """Half a unit of the last digit of the value a `Label : value` line prints (`17.0963`: 0.00005), the
    most that rounding moved it; None where the line holds no number."""
    m = ROW_RE.match(HTML_TAG_RE.sub("", line).strip())
    try:
        exponent = Decimal(m["value"]).as_tuple().exponent if m else None
    except (InvalidOperation, TypeError):
        return None
    return 0.5 * 10.0**exponent if isinstance(exponent, int) else None


def _offline_query(settings: dict, records: list[dict], lines, loaded: float | None) -> tuple[float, str] | None:
    """The requests an Offline summary completed, and how they were found: `samples_per_query`, where its
    `Samples per second` is that count over its max latency, as LoadGen computes it (`OFFLINE_NOTE`), to the
    digits the rate is printed with; else the next whole number of copies of the `loaded` samples, where that
    gives the rate (`CONCATENATED_NOTE`); None where neither does (a copy edited, or cut short)."""
    n = settings.get("samples_per_query")
    rate = [r for r in records if r["metric"] == "request_throughput" and r.get("note") is None]
    last = [r["value"] for r in records if r["metric"] == "e2el" and r["statistic"] == "max"]
    if not n or len(rate) != 1 or len(last) != 1 or not rate[0]["value"] or not last[0]:
        return None
    half = _printed_half_unit(lines[rate[0]["line"] - 1])
    if half is None:
        return None
    seconds = last[0] / 1e3

    def gives(count: float) -> bool:  # the rate's rounding, and a thousandth of a sample for the float arithmetic
        return abs(count / seconds - rate[0]["value"]) <= half + 1e-3 / seconds

    if gives(n):
        return n, OFFLINE_NOTE
    if loaded and loaded > 0 and gives(whole := math.ceil(n / loaded) * loaded):
        return whole, CONCATENATED_NOTE
    return None


def _indent(line: str) -> int:
    """The width of a line's leading blanks, a tab as one."""
    return len(line) - len(line.lstrip(" \t"))


#: The SUT name of LoadGen's network harness (mlcommons/inference `loadgen/demos/lon`, `sut_over_network`):
#: a run sent over several SUT servers is named `Multi-node SUT: ` and each server's own name, comma-joined.
MULTI_NODE_RE = re.compile(r"(?i)^multi-node sut:\s*(?P<names>\S.*)$")


def facts(table) -> list[tuple]:
    """The nodes a run spans as LoadGen's network harness names them (`MULTI_NODE_RE`): one SUT server
    a name, at the SUT name's line (`Tool.facts`)."""
    if "sut" not in table or "sut_line" not in table:
        return []
    out = []
    for sut, line in table[["sut", "sut_line"]].dropna().drop_duplicates().itertuples(index=False):
        if m := MULTI_NODE_RE.match(str(sut)):
            names = [n for n in m["names"].split(",") if n.strip()]
            out.append(("nodes", len(names), int(line), f"SUT name : {sut}"))
    return out


TOOL = register(
    Tool(
        name=NAME,
        settings=SETTINGS,
        sniff=sniff,
        parse=parse,
        description="MLPerf Inference LoadGen mlperf_log_summary.txt or mlperf_log_detail.txt, or the endpoints harness's report.txt",
        command="an MLPerf Inference LLM benchmark run through LoadGen (writes mlperf_log_summary.txt)",
        metrics=METRICS,
        facts=facts,
    )
)
