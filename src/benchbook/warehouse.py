"""The results warehouse: many runs as two hive-partitioned parquet datasets, queried with DuckDB.

    DIR/runs/tool=<tool>/<run_id>.parquet          one row per run
    DIR/measurements/tool=<tool>/<run_id>.parquet  the run's tidy rows

A run is one tool's reading of one file; its id comes from the file's bytes and the tool, so the
same file ingested twice is one run, and adding a file writes two small files and rewrites none.
Every file has the same columns whatever the tool (the tool's own settings travel as a JSON text
column), so DuckDB, Dask or Spark read the datasets unchanged.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from benchbook import config, ingest

RUN_COLUMNS = ["run_id", "source", "sha256", "run_date", "date_origin", "model", "device", "settings", "rows"]
MEASUREMENT_COLUMNS = ["run_id", "line", "metric", "statistic", "value", "unit", "note", "settings"]
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


def _atomic_parquet(df: pd.DataFrame, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(suffix=".parquet.partial", dir=path.parent, prefix=".")
    os.close(fd)
    try:
        df.to_parquet(tmp, index=False)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def _run_tables(path: Path, data: bytes, parsed: ingest.Parsed, text: str) -> tuple[str, pd.DataFrame, pd.DataFrame]:
    run_id = _run_id(data, parsed.tool)
    t = parsed.table
    cols = _settings(t)
    constant = {c: t[c].dropna().iloc[0] for c in cols if t[c].notna().any() and t[c].nunique(dropna=True) == 1}
    model = next(
        (str(t[c].dropna().iloc[0]) for c in ("model", "model_type", "model_id") if c in t and t[c].notna().any()), None
    )
    device = None
    try:
        from benchbook import hardware

        dev = hardware.detect(text)
        device = dev.name if dev is not None else None
    except (ImportError, AttributeError):
        device = None
    date = run_date(text)
    run = pd.DataFrame(
        [
            {
                "run_id": run_id,
                "source": config.relative(path),
                "sha256": hashlib.sha256(data).hexdigest(),
                "run_date": date,
                "date_origin": "printed in the output" if date else None,
                "model": model,
                "device": device,
                "settings": json.dumps(
                    {k: (v.item() if hasattr(v, "item") else v) for k, v in constant.items()},
                    default=str,
                    sort_keys=True,
                ),
                "rows": len(t),
            }
        ],
        columns=RUN_COLUMNS,
    )
    m = pd.DataFrame(
        {
            "run_id": run_id,
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
    return run_id, run, m


def _ingest_one(path: Path, explicit: bool, into: Path) -> list[tuple[str, str]]:
    """One file into the warehouse: events ("added", run_id, line) / ("present", run_id) /
    ("failed", reason) / ("skipped", file). A file whose runs are all there is not parsed again."""
    try:
        data = path.read_bytes()
        text = data.decode("utf-8", errors="replace")
        tools = ingest.detect(text)
        if tools and all(_target(into, t, _run_id(data, t)).is_file() for t in tools):
            return [("present", _run_id(data, t)) for t in tools]
        parsed_all = ingest.read_parsed(path)
    except (ingest.ParseError, OSError) as exc:
        return [("failed", str(exc))] if explicit else [("skipped", config.relative(path))]
    events = []
    for parsed in parsed_all:
        run_id, run, m = _run_tables(path, data, parsed, text)
        target = _target(into, parsed.tool, run_id)
        if target.is_file():
            events.append(("present", run_id))
            continue
        # measurements first: a run row exists only once its measurements do
        _atomic_parquet(m, into / "measurements" / f"tool={parsed.tool}" / f"{run_id}.parquet")
        _atomic_parquet(run, target)
        events.append(("added", run_id, f"  {parsed.tool}: {config.relative(path)} -> run {run_id} ({len(m)} rows)"))
    return events


def _run_id(data: bytes, tool: str) -> str:
    return hashlib.sha256(data + b"\0" + tool.encode()).hexdigest()[:16]


def _target(into: Path, tool: str, run_id: str) -> Path:
    return into / "runs" / f"tool={tool}" / f"{run_id}.parquet"


#: Files from which ingest parses in several processes (below, starting them costs more than it saves).
PARALLEL_FROM = 200


def _ingest_star(args):
    return _ingest_one(*args)


def ingest_into(items, into: Path, log=print, workers: int | None = None) -> IngestReport:
    """Add every file (folders are walked) to the warehouse at `into`; files already there are
    skipped by content, without being parsed again. A file no tool reads is reported and skipped,
    never half-written. Many files are parsed in `workers` processes (default: one per CPU)."""
    into = Path(into)
    rep = IngestReport()
    files = _files(items)
    workers = workers or len(os.sched_getaffinity(0))
    jobs = [(path, explicit, into) for path, explicit in files]
    if workers > 1 and len(jobs) >= PARALLEL_FROM:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=workers) as pool:
            results = pool.map(_ingest_star, jobs, chunksize=32)
            _collect(results, rep, log)
    else:
        _collect((_ingest_one(*job) for job in jobs), rep, log)
    return rep


def _collect(results, rep: IngestReport, log) -> None:
    for events in results:
        for kind, value, *line in events:
            getattr(rep, kind).append(value)
            if line:
                log(line[0])


def connect(into: Path):
    """A DuckDB connection with views `runs` and `measurements` over the warehouse."""
    import duckdb

    into = Path(into)
    if not (into / "runs").is_dir():
        raise WarehouseError(f"{into}: not a warehouse (no runs/ folder; fill it with `benchbook ingest ... --into`)")
    con = duckdb.connect()
    for name in ("runs", "measurements"):
        glob = (into / name / "*" / "*.parquet").as_posix()
        con.execute(
            f"CREATE VIEW {name} AS SELECT * FROM read_parquet('{glob}', hive_partitioning = true, union_by_name = true)"
        )
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
