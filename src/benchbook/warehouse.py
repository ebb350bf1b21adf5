"""The results warehouse: many runs as hive-partitioned parquet datasets, queried with DuckDB.

    DIR/runs/tool=<tool>/<part>.parquet            one row per run
    DIR/measurements/tool=<tool>/<part>.parquet    those runs' tidy rows (the same <part> name)
    DIR/requests/tool=<tool>/run_id=<run_id>/requests.parquet
                                                   per-request rows, where the output has them

A run is one tool's reading of one file; its id comes from the file's bytes and the tool, so the
same file ingested twice is one run. An ingest writes new parts (one pair per batch of files and
tool) and rewrites none. Every part of a dataset has the same columns and types whatever the tool
(the tool's own settings travel as a JSON text column), so DuckDB, Dask or Spark read them unchanged.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from benchbook import config, hardware, ingest

RUN_COLUMNS = ["run_id", "source", "sha256", "run_date", "date_origin", "model", "device", "settings", "rows"]
MEASUREMENT_COLUMNS = ["run_id", "line", "metric", "statistic", "value", "unit", "note", "settings"]
#: Every part of a dataset has the same column types, whatever its rows (an all-empty column stays a
#: string), so engines read the parts without reconciling their schemas.
RUNS_SCHEMA = pa.schema([*((c, pa.string()) for c in RUN_COLUMNS[:-1]), ("rows", pa.int64())])
MEASUREMENTS_SCHEMA = pa.schema(
    [
        ("run_id", pa.string()),
        ("line", pa.int64()),
        ("metric", pa.string()),
        ("statistic", pa.string()),
        ("value", pa.float64()),
        ("unit", pa.string()),
        ("note", pa.string()),
        ("settings", pa.string()),
    ]
)
#: Per-request rows (vLLM --save-detailed), numeric, one file per run: what cross-run latency
#: percentiles and SLO shares are computed from. Latencies in ms are float32: about 7 significant
#: digits (0.1 us at 1 s), far more than any tool prints (2 decimals), and half the bytes every
#: scan of 100 M rows reads; each value is the float32 nearest the tool's seconds times 1000.
#: Token counts are int32. Times in seconds since an epoch stay float64 (float32 would round them
#: to minutes). The run id is in the path, a hive partition like the tool (`requests_path`): grouping
#: by it then hashes one value per file, not a string per row (half a per-run query's CPU).
REQUESTS_SCHEMA = pa.schema(
    [("block", pa.string()), ("request", pa.int64()), ("success", pa.bool_())]
    + [(c, pa.int32()) for c in ("input_len", "output_len")]
    + [(c, pa.float32()) for c in ("ttft_ms", "e2el_ms", "tpot_ms")]
    + [("n_chunks", pa.int32()), ("itl_mean_ms", pa.float32()), ("start_time_s", pa.float64())]
    + [("queue_time_ms", pa.float32()), ("duration_s", pa.float64())]
)
#: Tidy columns that are not settings.
_NOT_SETTINGS = {"tool", "source", "line", "metric", "statistic", "value", "unit", "note"}

#: Dates as the tools print them: ISO 8601 and vLLM's --save-result `YYYYMMDD-HHMMSS`.
_DATE_RES = [
    re.compile(r"\b(20\d\d-[01]\d-[0-3]\d[T ][0-2]\d:[0-5]\d(?::[0-5]\d)?)"),
    re.compile(r'"date"\s*:\s*"(20\d{6}-\d{6})"'),
    re.compile(r"\b(20\d\d-[01]\d-[0-3]\d)\b"),
]


class WarehouseError(ValueError):
    """A warehouse that cannot be read or written, said in one sentence."""


@dataclass
class IngestReport:
    """What one `ingest --into` did."""

    added: list[str] = field(default_factory=list)  # run ids written
    present: list[str] = field(default_factory=list)  # run ids already there
    failed: list[str] = field(default_factory=list)  # "file: reason", for files named explicitly
    skipped: list[str] = field(default_factory=list)  # files in a folder that hold no known output


def run_date(text: str) -> str | None:
    """The first date the output itself prints (ISO 8601), or None."""
    for rx in _DATE_RES:
        m = rx.search(text)
        if m:
            s = m.group(1)
            if re.fullmatch(r"20\d{6}-\d{6}", s):
                s = f"{s[:4]}-{s[4:6]}-{s[6:8]}T{s[9:11]}:{s[11:13]}:{s[13:15]}"
            try:
                return pd.Timestamp(s).isoformat()
            except ValueError:
                continue
    return None


def _files(items) -> list[tuple[Path, bool]]:
    """(file, named explicitly): folders are walked, hidden files skipped."""
    out = []
    for item in items:
        p = Path(item)
        if p.is_dir():
            out += [(q, False) for q in sorted(p.rglob("*")) if q.is_file() and not q.name.startswith(".")]
        else:
            out.append((p, True))
    return out


def _settings(df: pd.DataFrame) -> list[str]:
    return [c for c in df.columns if c not in _NOT_SETTINGS]


def _json_rows(t: pd.DataFrame, cols: list[str]) -> list[str]:
    """Each row's settings as a JSON object (missing values left out)."""

    def plain(v):
        return v.item() if hasattr(v, "item") else v

    return [
        json.dumps({k: plain(v) for k, v in rec.items() if not pd.isna(v)}, sort_keys=True, default=str)
        for rec in t[cols].to_dict("records")
    ]


def _table(df: pd.DataFrame, schema: pa.Schema) -> pa.Table:
    return pa.Table.from_pandas(df, schema=schema, preserve_index=False)


def _atomic_parquet(table: pa.Table, path: Path) -> None:
    """Write a part whole or not at all. Dictionary encoding for the text columns only: on measured
    numbers (distinct values) it only slows every scan (a third of a per-request query's time)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(suffix=".parquet.partial", dir=path.parent, prefix=".")
    os.close(fd)
    try:
        text = [f.name for f in table.schema if pa.types.is_string(f.type)]
        pq.write_table(table, tmp, compression="snappy", use_dictionary=text)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def _plain(v):
    return v.item() if hasattr(v, "item") else v


@dataclass
class _Run:
    """One parsed result waiting to be written."""

    file: int  # its file's position in the chunk
    path: Path
    data: bytes
    text: str
    parsed: ingest.Parsed
    run_id: str


def _part_tables(runs: list[_Run]) -> tuple[pa.Table, pa.Table]:
    """The runs rows and the measurement rows of one tool's runs, built for all of them at once."""
    tables = [r.parsed.table for r in runs]
    sizes = np.array([len(t) for t in tables])
    t = pd.concat(tables, ignore_index=True)
    cols = _settings(t)
    by_run = t[cols].groupby(np.repeat(np.arange(len(runs)), sizes))
    first = by_run.first().reindex(range(len(runs)))
    constant = (by_run.nunique(dropna=True).reindex(range(len(runs))) == 1).to_numpy()
    values = first.to_numpy(dtype=object)
    model_cols = [c for c in ("model", "model_type", "model_id") if c in first]
    models = first[model_cols].to_numpy(dtype=object) if model_cols else np.empty((len(runs), 0), dtype=object)
    rows = []
    for j, r in enumerate(runs):
        device = hardware.detect(r.text)
        date = run_date(r.text)
        model = next((str(v) for v in models[j] if not pd.isna(v)), None)
        settings = {c: _plain(values[j, k]) for k, c in enumerate(cols) if constant[j, k]}
        rows.append(
            (
                r.run_id,
                config.relative(r.path),
                hashlib.sha256(r.data).hexdigest(),
                date,
                "printed in the output" if date else None,
                model,
                device.name if device is not None else None,
                json.dumps(settings, default=str, sort_keys=True),
                len(tables[j]),
            )
        )
    run = pd.DataFrame(rows, columns=RUN_COLUMNS)
    m = pd.DataFrame(
        {
            "run_id": np.repeat([r.run_id for r in runs], sizes),
            "line": t["line"].astype("int64").to_numpy(),
            "metric": t["metric"].astype(str).to_numpy(),
            "statistic": t["statistic"].astype(str).to_numpy(),
            "value": t["value"].astype(float).to_numpy(),
            "unit": t["unit"].astype(str).to_numpy(),
            "note": t["note"].astype(object).where(t["note"].notna(), None).to_numpy(),
            "settings": _json_rows(t, cols) if cols else "{}",
        },
        columns=MEASUREMENT_COLUMNS,
    )
    return _table(run, RUNS_SCHEMA), _table(m, MEASUREMENTS_SCHEMA)


def _requests(r: _Run) -> pa.Table | None:
    """The per-request rows of a vLLM --save-detailed result, if the file holds them."""
    if r.parsed.tool != "vllm-bench-serve" or b'"ttfts"' not in r.data:
        return None
    from benchbook.ingest import vllm_serve

    df = vllm_serve.requests(r.path)
    if df.empty:
        return None
    return _table(df.drop(columns="source").rename(columns={"run": "block"}), REQUESTS_SCHEMA)


def requests_path(into: Path, tool: str, run_id: str) -> Path:
    """Where a run's per-request rows are: its tool and run id are hive partitions."""
    return Path(into) / "requests" / f"tool={tool}" / f"run_id={run_id}" / "requests.parquet"


def _flush(pending: list[tuple[int, Path, bool, bytes, str, list]], events: list[list], into: Path, known) -> None:
    """Validate and screen the pending files at once (`settle`), then write one runs part and one
    measurements part per tool (measurements first: a run exists once its runs row does)."""
    settled = iter(ingest.core.settle([p for *_, parsed in pending for p in parsed]))
    todo: dict[str, list[_Run]] = {}
    for k, path, explicit, data, text, parsed in pending:
        mine = [next(settled) for _ in parsed]
        bad = next((x for x in mine if isinstance(x, ingest.ParseError)), None)
        if bad is not None:
            events[k] = [("failed", str(bad))] if explicit else [("skipped", config.relative(path))]
            continue
        for p in mine:
            run_id = _run_id(data, p.tool)
            if (p.tool, run_id) in known:
                events[k].append(("present", run_id))
            else:
                todo.setdefault(p.tool, []).append(_Run(k, path, data, text, p, run_id))
    for tool, runs in todo.items():
        name = hashlib.sha256("\n".join(sorted(r.run_id for r in runs)).encode()).hexdigest()[:16] + ".parquet"
        for r in runs:
            req = _requests(r)
            if req is not None:
                _atomic_parquet(req, requests_path(into, tool, r.run_id))
        run, m = _part_tables(runs)
        _atomic_parquet(m, into / "measurements" / f"tool={tool}" / name)
        _atomic_parquet(run, into / "runs" / f"tool={tool}" / name)
        for r in runs:
            line = f"  {tool}: {config.relative(r.path)} -> run {r.run_id} ({len(r.parsed.table)} rows)"
            events[r.file].append(("added", r.run_id, line))


#: Parsed rows a worker holds before it writes them (what bounds its memory, whatever the file sizes).
FLUSH_ROWS = 500_000


def _ingest_chunk(files: list[tuple[Path, bool]], into: Path, known: frozenset) -> list[list[tuple]]:
    """Files into the warehouse, per file its events: ("added", run_id, line) / ("present", run_id) /
    ("failed", reason) / ("skipped", file). A file whose runs are all there is not parsed again."""
    events: list[list[tuple]] = [[] for _ in files]
    pending, rows = [], 0
    for k, (path, explicit) in enumerate(files):
        try:
            data = path.read_bytes()
            text = data.decode("utf-8", errors="replace")
            tools = ingest.detect(text)
            if tools and all((t, _run_id(data, t)) in known for t in tools):
                events[k] = [("present", _run_id(data, t)) for t in tools]
                continue
            with ingest.core.deferred_checks():
                parsed = ingest.read_parsed(path)
        except (ingest.ParseError, OSError) as exc:
            events[k] = [("failed", str(exc))] if explicit else [("skipped", config.relative(path))]
            continue
        pending.append((k, path, explicit, data, text, parsed))
        rows += sum(len(p.table) for p in parsed)
        if rows >= FLUSH_ROWS:
            _flush(pending, events, into, known)
            pending, rows = [], 0
    if pending:
        _flush(pending, events, into, known)
    return events


def _run_id(data: bytes, tool: str) -> str:
    return hashlib.sha256(data + b"\0" + tool.encode()).hexdigest()[:16]


def _known(into: Path) -> frozenset:
    """(tool, run_id) of every run in the warehouse; removes what an interrupted ingest left (a
    measurements part without its runs part, per-request rows of no run)."""
    known = set()
    for part in sorted((into / "runs").glob("tool=*/*.parquet")):
        tool = part.parent.name.removeprefix("tool=")
        known.update((tool, r) for r in pq.read_table(part, columns=["run_id"]).column(0).to_pylist())
    for part in (into / "measurements").glob("tool=*/*.parquet"):
        if not (into / "runs" / part.parent.name / part.name).is_file():
            part.unlink()
    for part in (into / "requests").glob("tool=*/run_id=*/*.parquet"):
        if (part.parent.parent.name.removeprefix("tool="), part.parent.name.removeprefix("run_id=")) not in known:
            part.unlink()
    return frozenset(known)


#: Files from which ingest parses in several processes (below, starting them costs more than it saves).
PARALLEL_FROM = 200
#: Files per task sent to a worker process (each task writes its own parts).
CHUNK = 500


def ingest_into(items, into: Path, log=print, workers: int | None = None) -> IngestReport:
    """Add every file (folders are walked) to the warehouse at `into`; files already there are
    skipped by content, without being parsed again, and a file's copy under another name is the same
    run. A file no tool reads is reported and skipped, never half-written. Many files are parsed in
    `workers` processes (default: one per CPU), each validating and writing its files in batches.
    One ingest into a folder at a time (a lock file), so that one's clean-up never takes a part another
    is writing."""
    into = Path(into)
    into.mkdir(parents=True, exist_ok=True)
    with open(into / ".ingest.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _ingest_locked(items, into, log, workers)


def _ingest_locked(items, into: Path, log, workers: int | None) -> IngestReport:
    rep = IngestReport()
    known = _known(into)
    files, first, copies = [], {}, []  # content seen twice in one call is one run
    for path, explicit in _files(items):
        try:
            digest = hashlib.sha256(path.read_bytes()).digest()
        except OSError:
            digest = str(path).encode()  # unreadable: its own entry, which reports why
        if digest in first:
            copies.append(first[digest])
        else:
            first[digest] = len(files)
            files.append((path, explicit))
    workers = workers or len(os.sched_getaffinity(0))
    if workers > 1 and len(files) >= PARALLEL_FROM:
        from concurrent.futures import ProcessPoolExecutor

        size = min(CHUNK, -(-len(files) // (2 * workers)))
        chunks = [files[i : i + size] for i in range(0, len(files), size)]
        with ProcessPoolExecutor(max_workers=workers) as pool:
            events = [
                e for part in pool.map(_ingest_chunk, chunks, [into] * len(chunks), [known] * len(chunks)) for e in part
            ]
    else:
        events = _ingest_chunk(files, into, known)
    for of in copies:  # the same content again: what its first copy gave, as runs already there
        events.append([("present", e[1]) if e[0] in ("added", "present") else e for e in events[of]])
    for file_events in events:
        for kind, value, *line in file_events:
            getattr(rep, kind).append(value)
            if line:
                log(line[0])
    return rep


_DUCKDB_TYPES = {
    pa.string(): "VARCHAR",
    pa.int64(): "BIGINT",
    pa.int32(): "INTEGER",
    pa.bool_(): "BOOLEAN",
    pa.float64(): "DOUBLE",
    pa.float32(): "FLOAT",
}
#: The requests view of a warehouse without per-request rows: no rows, the same columns.
_EMPTY_REQUESTS = (
    "SELECT "
    + ", ".join(
        f"NULL::{_DUCKDB_TYPES[t]} AS {n}" for n, t in zip(REQUESTS_SCHEMA.names, REQUESTS_SCHEMA.types, strict=True)
    )
    + ", NULL::VARCHAR AS tool, NULL::VARCHAR AS run_id WHERE false"
)


def connect(into: Path):
    """A DuckDB connection with views `runs`, `measurements` and `requests` over the warehouse, using
    the CPUs this process may run on."""
    import duckdb

    into = Path(into)
    if not (into / "runs").is_dir():
        raise WarehouseError(f"{into}: not a warehouse (no runs/ folder; fill it with `benchbook ingest ... --into`)")
    con = duckdb.connect(config={"threads": len(os.sched_getaffinity(0))})
    try:  # it would print into the query's output; in a Jupyter kernel DuckDB refuses the setting without ipywidgets
        con.execute("SET enable_progress_bar = false")
    except duckdb.InvalidInputException:
        pass
    for name, parts in (("runs", "*/*.parquet"), ("measurements", "*/*.parquet"), ("requests", "*/*/*.parquet")):
        glob = (into / name / parts).as_posix()
        if name == "requests" and not any((into / name).glob(parts)):
            con.execute(f"CREATE VIEW requests AS SELECT * FROM ({_EMPTY_REQUESTS})")
            continue
        # every requests part has REQUESTS_SCHEMA: no per-file schema reconciliation (a third of a
        # second over 1,000 parts); a run id of hex digits stays text (DuckDB reads
        # '1234567890123456' as a number otherwise)
        opts = "union_by_name = false, hive_types = {'tool': VARCHAR, 'run_id': VARCHAR}"
        opts = opts if name == "requests" else "union_by_name = true"
        con.execute(f"CREATE VIEW {name} AS SELECT * FROM read_parquet('{glob}', hive_partitioning = true, {opts})")
    return con


def query(sql: str, into: Path) -> pd.DataFrame:
    """The result of `sql` over the warehouse's `runs` and `measurements` views."""
    import duckdb

    con = connect(into)
    try:
        return con.execute(sql).df()
    except duckdb.Error as exc:
        raise WarehouseError(f"query failed: {str(exc).splitlines()[0]}") from None
    finally:
        con.close()


#: Statistics a run's single figure is taken from, by preference.
_SERIES_STATS = ("mean", "value", "median", "p50")


def series(into: Path, metric: str, where: dict[str, str] | None = None, statistic: str | None = None) -> pd.DataFrame:
    """One value of `metric` per run (run_id, source, run_date, value, unit), for the runs whose
    settings match `where`. A run that still holds several values (a sweep) is an error naming the
    settings that vary, so the reader picks one with `where` instead of getting a silent average."""
    con = connect(into)
    try:
        df = con.execute(
            "select m.run_id, r.source, r.run_date, m.statistic, m.value, m.unit, m.settings from measurements m "
            "join runs r on m.run_id = r.run_id and m.tool = r.tool where m.metric = ? and m.value is not null",
            [metric],
        ).df()
        known = con.execute("select distinct metric from measurements order by 1").df()["metric"].tolist()
    finally:
        con.close()
    if df.empty:
        raise WarehouseError(f"no run reports metric {metric!r} (known: {', '.join(known[:30])})")
    settings = pd.DataFrame([json.loads(s) for s in df["settings"]], index=df.index)
    for key, want in (where or {}).items():
        if key not in settings:
            raise WarehouseError(
                f"no setting {key!r} in the runs of {metric!r} (they have: {', '.join(settings.columns)})"
            )
        settings_str = settings[key].map(lambda v: "" if v is None or (isinstance(v, float) and pd.isna(v)) else str(v))
        keep = settings_str == str(want)
        try:
            keep |= pd.to_numeric(settings[key], errors="coerce") == float(want)
        except ValueError:
            pass
        df, settings = df[keep], settings[keep]
    if df.empty:
        raise WarehouseError(f"no run of metric {metric!r} matches {where}")
    stat = statistic or next((s for s in _SERIES_STATS if (df["statistic"] == s).any()), None)
    if stat is None:
        raise WarehouseError(f"metric {metric!r} has no {'/'.join(_SERIES_STATS)} statistic; pass one")
    df, settings = df[df["statistic"] == stat], settings[df["statistic"] == stat]
    if df.empty:
        raise WarehouseError(f"no run reports metric {metric!r} with statistic {stat!r}")
    per_run = df.groupby("run_id").size()
    if (per_run > 1).any():
        multi = df["run_id"].isin(per_run[per_run > 1].index)
        inside = settings[multi].astype(str).groupby(df.loc[multi, "run_id"]).nunique()
        varying = [c for c in inside.columns if (inside[c] > 1).any()]
        raise WarehouseError(
            f"metric {metric!r} has several values per run; pick one with --where KEY=VALUE on: {', '.join(varying)}"
        )
    return df[["run_id", "source", "run_date", "value", "unit"]].assign(statistic=stat).reset_index(drop=True)
