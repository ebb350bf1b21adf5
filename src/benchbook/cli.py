"""The `benchbook` command: ingest raw outputs, build the book, list and run chapters."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from benchbook import config
from benchbook.nouns import counted


class _App(typer.Typer):
    """The command, with a last resort for what no check can foresee (a disk that fills up, an I/O
    error): one sentence naming the file, exit code 2, never a traceback. A command that has
    written and closed all it writes may end the process at once (`_done`)."""

    def __call__(self, *args, **kwargs):
        _DONE.clear()  # set by this call's command alone (a test may have run one before)
        try:
            return super().__call__(*args, **kwargs)
        except OSError as exc:
            where = f"{exc.filename}: " if exc.filename else ""
            print(f"error: {where}{exc.strerror or exc}", file=sys.stderr)
            sys.exit(2)
        except SystemExit as exc:
            if _DONE and exc.code in (0, None):
                _leave()
            raise


#: Set by a command whose files are written and closed, and whose processes are reaped: the
#: command's process then ends without tearing the interpreter down (`_leave`).
_DONE: list[bool] = []


def _done() -> None:
    _DONE.append(True)


def _leave() -> None:
    """End the process with exit code 0 without the interpreter's teardown: freeing every module
    and object of a report (pandas, matplotlib, the chapters' tables and figures) is a tenth of its
    CPU, for nothing a reader waits on. Only the standard streams are left to flush."""
    import os

    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(0)


app = _App(add_completion=False, no_args_is_help=True, help=__doc__)


def _version(value: bool) -> None:
    if value:
        from benchbook import __version__

        typer.echo(f"benchbook {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="print the version and exit")
    ] = False,
) -> None:
    """The `benchbook` command: ingest raw outputs, build the book, list and run chapters, report on
    any tool's output."""


def _fail(message: str, code: int = 2) -> None:
    """Stop with one line on stderr (an error text with line breaks is joined)."""
    typer.echo("error: " + " ".join(str(message).split("\n")), err=True)
    raise typer.Exit(code)


def _input(path: Path) -> Path:
    """An input file the user named, resolved as `config.resolve` does; anything but a readable
    regular file is refused before it is opened (a FIFO would block the command)."""
    from benchbook.parameters import input_problem

    try:
        p = config.resolve(path)
    except FileNotFoundError:
        _fail(f"{path}: no such file")
    except OSError as exc:
        _fail(f"{path}: cannot be used ({exc.strerror})")
    problem = input_problem(p)
    if problem:
        _fail(f"{path}: {problem}")
    return p


def _output(path: Path, folder: bool = False) -> None:
    """Refuse, before any work and without creating anything, an output that cannot be written."""
    from benchbook.parameters import output_problem

    problem = output_problem(path, folder=folder)
    if problem:
        _fail(f"{path}: {problem}")


def _write_atomically(path: Path, write) -> None:
    """Call write(temporary path) and move the result onto `path`: a failure (a full disk) leaves
    no half-written file, only the one sentence."""
    import os

    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write(tmp)
        os.replace(tmp, path)
    except OSError as exc:
        _fail(f"{path}: cannot be written ({exc.strerror or exc})")
    finally:
        tmp.unlink(missing_ok=True)


def ingest_all(log=print) -> dict[str, int]:
    """Rebuild data/processed/ from data/raw/: one parquet per tool, plus the rejected-cell report.
    The parquet of a tool no longer in data/raw is removed, so no chapter reads a stale table."""
    import pandas as pd

    from benchbook import ingest

    by_tool: dict[str, list] = {}
    rejected, messages = [], []
    for raw in sorted(config.RAW_DIR.rglob("*.txt")):
        for parsed in ingest.read_parsed(raw):
            by_tool.setdefault(parsed.tool, []).append(parsed.table)
            rejected.append(parsed.rejected)
            messages += [f"{raw.name}: {m}" for m in parsed.messages]
    config.PROCESSED_DIR.mkdir(parents=True, exist_ok=True)
    counts = {}
    for tool, frames in by_tool.items():
        df = pd.concat(frames, ignore_index=True)
        df.to_parquet(config.PROCESSED_DIR / f"{tool}.parquet", index=False)
        counts[tool] = len(df)
        log(f"  {tool}: {len(df)} rows")
    for stale in config.PROCESSED_DIR.glob("*.parquet"):
        if stale.stem not in by_tool:
            stale.unlink()
            log(f"  removed {stale.name} (no such output left in data/raw)")
    rej = ingest.stack_reports(rejected)
    rej.to_csv(config.PROCESSED_DIR / "rejected.csv", index=False)
    (config.PROCESSED_DIR / "messages.txt").write_text("\n".join(messages) + "\n", encoding="utf-8")
    log(f"  rejected cells: {len(rej)} (see {config.relative(config.PROCESSED_DIR / 'rejected.csv')})")
    log(f"  {ingest.summary(sum(counts.values()), rej)}")
    return counts


@app.command()
def ingest(
    paths: Annotated[
        list[Path] | None,
        typer.Argument(help="a raw output file; with --into (or several), files or folders for the warehouse"),
    ] = None,
    tool: Annotated[str | None, typer.Option(help="tool name (default: detect)")] = None,
    output: Annotated[Path | None, typer.Option("-o", "--output", help="write .csv or .parquet here")] = None,
    all_: Annotated[bool, typer.Option("--all", help="rebuild data/processed/ from data/raw/")] = False,
    rejected_out: Annotated[
        Path | None, typer.Option("--rejected", help="write the rejected cells (line, text, reason) here as CSV")
    ] = None,
    into: Annotated[
        Path | None, typer.Option("--into", help="add the runs to this warehouse folder (default: data/warehouse)")
    ] = None,
) -> None:
    """Parse a raw benchmark output into the tidy table (CSV on stdout without -o); the last line on
    stderr counts rows kept, cells rejected by reason and tables not read. With --into (or several
    paths: into data/warehouse), files and folders add each run to the results warehouse instead."""
    from benchbook import ingest as ing

    paths = paths or []
    if into is not None or len(paths) > 1:
        _ingest_into(paths, into or config.DATA_DIR / "warehouse")
        return
    path = paths[0] if paths else None
    if output is not None:
        if output.suffix not in (".csv", ".parquet"):
            _fail(f"{output}: use a .csv or .parquet file name")
        _output(output)
    if rejected_out is not None:
        _output(rejected_out)
    try:
        if all_:
            ingest_all()
            return
        if path is None:
            _fail("give a PATH, or --all")
        df = ing.read(path if path.is_dir() else _input(path), tool)  # a folder: a vllm bench sweep
    except ing.UnknownFormat as exc:
        _unknown_format(exc)
    except ing.ParseError as exc:
        _fail(str(exc))
    except FileNotFoundError as exc:
        _fail(str(exc))
    except OSError as exc:  # a regular file that still cannot be read (an I/O error)
        _fail(f"{exc.filename or path}: cannot be read ({exc.strerror or exc})")
    for line in df.attrs.get("detected", []):
        typer.echo(f"detected: {line}", err=True)
    for line in df.attrs.get("messages", []):
        typer.echo(f"note: {line}", err=True)
    if rejected_out is not None:
        rej = ing.set_aside_frame(df)
        _write_atomically(rejected_out, lambda tmp: rej.to_csv(tmp, index=False))
    typer.echo(ing.summary(len(df), df.attrs.get("rejected", [])), err=True)
    if output is None:
        try:
            sys.stdout.write(df.to_csv(index=False))
            sys.stdout.flush()
        except OSError as exc:  # a full disk or a closed pipe behind the redirection
            import os

            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # nothing left to flush at exit
            _fail(f"standard output cannot be written ({exc.strerror or exc})")
    elif output.suffix == ".parquet":
        _write_atomically(output, lambda tmp: df.to_parquet(tmp, index=False))
    else:
        _write_atomically(output, lambda tmp: df.to_csv(tmp, index=False))


def _unknown_format(exc) -> None:
    """A file of no known tool: one sentence, then the formats `ingest` reads, one line per tool (exit 2)."""
    from benchbook import ingest

    where = f"{exc.source}:{exc.line}" if exc.line is not None else exc.source
    said = ingest.NO_TOOL + (f": {exc.sign}" if exc.sign else "")
    typer.echo(f"error: {where}: {said}; benchbook ingest reads these formats:", err=True)
    for line in ingest.formats():
        typer.echo(f"  {line}", err=True)
    raise typer.Exit(2)


def _ingest_into(paths: list[Path], into: Path) -> None:
    """`ingest FILES_OR_DIRS... --into DIR`: every run into the warehouse, incrementally."""
    from benchbook import warehouse

    if not paths:
        _fail("give the files or folders to add to the warehouse")
    for p in [*paths, into]:
        try:
            if p is not into and not p.exists():
                _fail(f"{p}: no such file or folder")
            if p is into and p.exists() and not p.is_dir():
                _fail(f"{into}: not a folder")
        except OSError as exc:  # a name too long, a loop of links
            _fail(f"{p}: cannot be used ({exc.strerror})")
    rep = warehouse.ingest_into(paths, into, log=lambda m: typer.echo(m, err=True))
    if rep.failed:  # the runs that could be read are in; the sentence names the first file that could not
        more = f" (and {counted(len(rep.failed) - 1, 'more file')} not read)" if len(rep.failed) > 1 else ""
        _fail(f"{rep.failed[0]}{more}")
    typer.echo(
        f"{counted(len(rep.added), 'run')} added, {len(rep.present)} already there, {counted(len(rep.skipped), 'file')} of no known "
        f"tool skipped -> {_shown(into)}",
        err=True,
    )


@app.command()
def build(
    only: Annotated[list[str] | None, typer.Option(help="execute only this chapter (repeatable)")] = None,
    jobs: Annotated[int | None, typer.Option(help="chapters executed at once")] = None,
    force: Annotated[bool, typer.Option(help="ignore the execution cache")] = False,
) -> None:
    """Ingest the raw data, execute the chapters (cached by content) and render the HTML book."""
    import time

    from benchbook import build as b

    t0 = time.perf_counter()
    typer.echo("ingesting data/raw -> data/processed")
    try:
        with b.build_lock(log=typer.echo):  # the ingest too: chapters read data/processed
            # skipped when data/raw, the package and data/processed are as the last ingest left them
            b.ingest_if_changed(lambda: ingest_all(log=typer.echo), log=typer.echo, force=force)
            index = b.build(only, jobs, force, log=typer.echo)
    except b.BuildError as exc:
        _fail(str(exc), 1)
    typer.echo(f"book built in {time.perf_counter() - t0:.1f} s: {config.relative(index)}")


@app.command("list")
def list_chapters() -> None:
    """List the chapters with their parameters, types, defaults and help (from their declarations)."""
    from rich.console import Console
    from rich.table import Table

    from benchbook import build as b
    from benchbook.chapter import ParameterError, declared

    table = Table(title="Chapters and their parameters (benchbook run CHAPTER -p NAME VALUE)", show_lines=True)
    for col in ("chapter", "parameter", "type", "default", "help"):
        table.add_column(col, overflow="fold")
    for name in b.chapters():
        try:
            spec = declared(name)
        except ParameterError:
            table.add_row(name, "", "", "", "(not written yet)")
            continue
        first = True
        for pname, info in spec.items():
            kind = info["type"] or (type(info["default"]).__name__ if info["default"] is not None else "any")
            table.add_row(name if first else "", pname, kind, repr(info["default"]), info["help"] or "")
            first = False
        if first:
            table.add_row(name, "", "", "", "(no parameters)")
    Console(width=max(100, Console().width)).print(table)


def _shown(path: Path) -> str:
    """A result path for the terminal: relative to the working directory when below it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def _pairs(args: list[str]) -> dict:
    """The `-p NAME VALUE` pairs left on the command line (typer has no two-value options)."""
    from benchbook.rerun import parse_value

    out, i = {}, 0
    while i < len(args):
        if args[i] not in ("-p", "--param", "--parameters"):
            raise ValueError(f"unexpected argument {args[i]!r} (parameters are given as -p NAME VALUE)")
        if len(args) - i < 3:
            raise ValueError(f"{args[i]} needs a NAME and a VALUE")
        out[args[i + 1]] = parse_value(args[i + 2])
        i += 3
    return out


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def run(
    ctx: typer.Context,
    chapter: Annotated[str, typer.Argument(help="chapter name (see benchbook list)")],
    yaml_params: Annotated[
        str | None, typer.Option("-y", "--yaml", help="parameters as a YAML mapping, e.g. '{slo_ttft_ms: 500}'")
    ] = None,
    source: Annotated[
        list[str] | None, typer.Option("--source", "-s", help="input file for the chapter (repeatable)")
    ] = None,
    out_dir: Annotated[
        Path | None, typer.Option("-o", "--out-dir", help="where to write (default: _build/runs/CHAPTER)")
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="no progress bar")] = False,
) -> None:
    """Re-run one chapter on your parameters or files: executed .ipynb + standalone HTML page.

    Parameters: -p NAME VALUE (repeatable; True/False/None, ints and floats are typed as papermill
    types them). Every parameter is checked before anything executes.
    """
    import yaml

    from benchbook import rerun
    from benchbook.chapter import ParameterError

    given: dict = {}
    if yaml_params:
        try:
            loaded = yaml.safe_load(yaml_params)
        except yaml.YAMLError as exc:
            _fail(f"-y: not valid YAML ({str(exc).splitlines()[0]})")
        if not isinstance(loaded, dict):
            _fail("-y: give a YAML mapping, e.g. '{name: value}'")
        given.update(loaded)
    try:
        given.update(_pairs(ctx.args))
    except ValueError as exc:
        _fail(str(exc))
    out = (out_dir or config.BUILD_DIR / "runs" / chapter).resolve()
    _output(out_dir or out, folder=True)
    try:
        nb, page = rerun.run(chapter, given, source, out, progress=not quiet, log=lambda m: typer.echo(m, err=True))
    except ParameterError as exc:
        _fail(str(exc))
    except rerun.RunError as exc:
        where = f" (notebook with the traceback: {_shown(exc.notebook)})" if exc.notebook else ""
        _fail(f"{exc}{where}", 1)
    typer.echo(f"executed notebook: {_shown(nb)}")
    typer.echo(f"page:              {_shown(page)}")


def compare(
    paths: Annotated[list[Path] | None, typer.Argument(help="runs of one tool (files), in order")] = None,
    source: Annotated[
        list[Path] | None, typer.Option("--source", "-s", help="a run of the tool (repeatable; added after PATHS)")
    ] = None,
    baseline: Annotated[int, typer.Option(help="the run the others are divided by (1 is the first)")] = 1,
    out: Annotated[
        Path | None, typer.Option("-o", "--out", help="a .html file or a folder (default: _build/reports/FIRST_vs_N)")
    ] = None,
    tool: Annotated[str | None, typer.Option(help="compare only this tool's output (a file may hold several)")] = None,
    label: Annotated[list[str] | None, typer.Option(help="a name per run, in order (default: file names)")] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="print the result as JSON (and write HTML only with -o)")
    ] = False,
    fail_on_regression: Annotated[
        list[str] | None,
        typer.Option(
            "--fail-on-regression",
            help="METRIC or METRIC:STATISTIC (repeatable): exit 1 when a run is worse than the baseline beyond the noise",
        ),
    ] = None,
    summary: Annotated[
        Path | None, typer.Option("--summary", help="write a short Markdown summary here (- for standard output)")
    ] = None,
    tolerance: Annotated[
        float | None,
        typer.Option(
            help="with --fail-on-regression: a fraction (e.g. 0.05) that judges numbers with no noise estimate"
            " (two single runs with no spread): worse by more than it fails"
        ),
    ] = None,
) -> None:
    """Compare any number of runs of one tool: each number's ratio to a baseline run, beyond or
    within the noise the tool itself reports, as one HTML page with a figure per metric.

    In CI: --fail-on-regression METRIC exits 1 when a run is worse than the baseline beyond the
    noise on METRIC (0 within the noise or better), and --summary FILE.md writes what to post.

    Two single runs with no spread (vLLM's throughput, one run each) cannot show a regression by
    the noise rule: their own difference would be the noise, so such a number has no noise
    estimate and never fails alone. Give repeated runs, or --tolerance 0.05 to fail it when it
    is worse than the baseline by more than 5 %."""
    import json

    from benchbook import compare as cmp
    from benchbook.ingest import ParseError

    runs = list(paths or []) + list(source or [])
    if summary is not None and str(summary) != "-":
        _output(summary)
    if tolerance is not None and not 0 < tolerance < 1:
        _fail(f"--tolerance must lie in (0, 1), got {tolerance}")
    if len(runs) < 2:
        _fail(f"give at least two runs to compare, got {len(runs)}")
    if not 1 <= baseline <= len(runs):
        _fail(f"--baseline must be between 1 and {len(runs)}, got {baseline}")
    if label and len(label) != len(runs):
        _fail(f"give --label once per run ({len(runs)}), or not at all")
    files = [_input(r) for r in runs]
    page = None
    if out is not None or not as_json:
        out = out or config.BUILD_DIR / "reports" / f"{runs[0].stem}_vs_{len(runs) - 1}"
        page = out if out.suffix == ".html" else out / "report.html"
        _output(page)
    try:
        result = cmp.compare_runs(files, baseline - 1, tool=tool, labels=label)
    except (ParseError, cmp.CompareError) as exc:
        _fail(str(exc))
    except FileNotFoundError as exc:
        _fail(str(exc))
    except OSError as exc:  # a regular file that still cannot be read (an I/O error)
        _fail(f"{exc.filename or runs[0]}: cannot be read ({exc.strerror or exc})")
    watched = None
    if fail_on_regression:
        try:
            watched = cmp.watched(result, fail_on_regression, tolerance)
        except cmp.CompareError as exc:
            _fail(str(exc))
    if page is not None:
        _write_report(result, page)
    if summary is not None:
        text = cmp.summary_markdown(result, watched, tolerance)
        if str(summary) == "-":
            typer.echo(text)
        else:
            _write_atomically(summary, lambda tmp: tmp.write_text(text, encoding="utf-8"))
    if as_json:
        typer.echo(json.dumps(cmp.runs_json(result), indent=1))
    else:
        for line in cmp.runs_lines(result):
            typer.echo(line)
        typer.echo(f"report: {_shown(page)}")
    if watched is not None:
        worse = watched[watched["worse"]]
        for r in worse.itertuples():
            typer.echo(
                f"regression: {r.metric} ({r.statistic}) of {r.label} is {r.ratio:.3f} x {r.baseline_run}"
                + (f" at {r.settings}" if r.settings else "")
                + (
                    f", beyond the noise ({r.noise:.1%})"
                    if r.outcome.endswith("noise")
                    else f", beyond --tolerance {tolerance:.1%}"
                ),
                err=True,
            )
        if len(worse):
            raise typer.Exit(1)


app.command()(compare)


class _ReportCommand(typer.core.TyperCommand):
    """`report --help` ends with the tools it recognises (read from the parsers, so a new one shows)."""

    def format_help(self, ctx, formatter) -> None:
        from benchbook.report import recognised

        self.epilog = "Tools it recognises (tool: the chapters that read it):\n\n" + "\n\n".join(recognised())
        super().format_help(ctx, formatter)


@app.command(cls=_ReportCommand, context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def report(
    ctx: typer.Context,
    paths: Annotated[
        list[str], typer.Argument(help="result files of any tool benchbook reads (or vllm sweep folders)")
    ],
    out_dir: Annotated[
        Path, typer.Option("-o", "--out-dir", help="the report folder (index.html and one page per chapter)")
    ] = Path("benchbook-report"),
) -> None:
    """Detect each file's tool, run every chapter that reads it, and write one offline report.

    Parameters: -p NAME VALUE (repeatable), given to the chapters that declare NAME. DIR/index.html
    lists what was read and each chapter's bottom-line claims, with a link to DIR/CHAPTER.html and
    DIR/CHAPTER.claims.json; a chapter with nothing to say about the files gives its reason there.
    """
    from benchbook import report as rep
    from benchbook.rerun import RunError

    files, rest, tokens = [], [], [*paths, *ctx.args]  # -p NAME VALUE may come between the files
    while tokens:
        if tokens[0] in ("-p", "--param", "--parameters"):
            rest += tokens[:3]
            tokens = tokens[3:]
        else:
            files.append(Path(tokens.pop(0)))
    try:
        given = _pairs(rest)
    except ValueError as exc:
        _fail(str(exc))
    if not files:
        _fail("give at least one result file")
    _output(out_dir, folder=True)
    try:
        index, sections = rep.report(files, given, out_dir.resolve(), log=lambda m: typer.echo(m, err=True))
    except rep.ReportError as exc:
        _fail(str(exc))
    except RunError as exc:
        _fail(str(exc), 1)
    pages = sum(s.executed is not None for s in sections)
    typer.echo(
        f"report: {_shown(index)} ({counted(pages, 'chapter page')}, {len(sections) - pages} with nothing to say)"
    )
    _done()  # every file written and closed, every forked copy reaped (`report.report`)


def _write_report(result, page: Path) -> None:
    """compare.write_runs into a fresh folder beside `page`, then each file moved into place, so
    that a failure leaves neither a half-written page nor a page without its ratio table."""
    import os
    import shutil
    import tempfile

    from benchbook import compare as cmp

    try:
        page.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{page.stem}-", dir=page.parent))
    except OSError as exc:
        _fail(f"{page}: cannot be written ({exc.strerror or exc})")
    try:
        cmp.write_runs(result, tmp / page.name)
        for f in sorted(tmp.iterdir()):  # the page and its ratio table, under the names write_runs gave
            os.replace(f, page.with_name(f.name))
    except OSError as exc:
        _fail(f"{page}: cannot be written ({exc.strerror or exc})")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


claims_app = typer.Typer(no_args_is_help=True, help="Read and re-judge claims ledgers.")
app.add_typer(claims_app, name="claims")


@claims_app.command("check")
def claims_check(
    paths: Annotated[list[Path], typer.Argument(help="ledger files (CHAPTER.claims.json) or folders of them")],
) -> None:
    """Re-judge every claim of the ledgers from its evidence alone; exit 1 on any disagreement."""
    import json

    from benchbook.claims.rules import check

    files: list[Path] = []
    for p in paths:
        if p.is_dir():
            files += sorted(p.glob("*.json"))
        elif p.is_file():
            files.append(p)
        else:
            _fail(f"{p}: no such ledger file or folder")
    if not files:
        _fail("no ledger files found (*.json)")
    problems, n = [], 0
    for f in files:
        _input(f)  # a FIFO named *.json in the folder would block the read
        try:
            ledger = json.loads(f.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            _fail(f"{f}: not a readable JSON ledger ({type(exc).__name__})")
        if not isinstance(ledger, dict) or not isinstance(ledger.get("claims"), list):
            _fail(f"{f}: not a claims ledger (no 'claims' list)")
        n += len(ledger["claims"])
        problems += [f"{f.name}: {p}" for p in check(ledger)]
    for p in problems:
        typer.echo(p)
    typer.echo(f"{counted(n, 'claim')} in {counted(len(files), 'ledger')}: {counted(len(problems), 'problem')}")
    if problems:
        raise typer.Exit(1)


@app.command()
def query(
    sql: Annotated[str, typer.Argument(help="SQL over the views `runs` and `measurements`")],
    into: Annotated[Path, typer.Option("--into", help="the warehouse folder")] = Path("data/warehouse"),
    as_json: Annotated[bool, typer.Option("--json", help="print JSON records instead of CSV")] = False,
) -> None:
    """Query the results warehouse with DuckDB (embedded: no server)."""
    from benchbook import warehouse

    try:
        df = warehouse.query(sql, config.resolve(into) if Path(into).exists() else Path(into))
    except warehouse.WarehouseError as exc:
        _fail(str(exc))
    except FileNotFoundError as exc:
        _fail(str(exc))
    sys.stdout.write(df.to_json(orient="records", indent=1) + "\n" if as_json else df.to_csv(index=False))


@app.command()
def history(
    paths: Annotated[list[Path], typer.Argument(help="result files or folders, or one warehouse folder")],
    metric: Annotated[str, typer.Option("--metric", help="the metric to follow, e.g. output_throughput")],
    where: Annotated[list[str], typer.Option("--where", help="KEY=VALUE: keep runs with this setting")] = [],  # noqa: B006
    statistic: Annotated[str | None, typer.Option(help="statistic (default: mean, value, median or p50)")] = None,
    alpha: Annotated[float, typer.Option(help="significance level of each change, in (0, 1)")] = 0.01,
    as_json: Annotated[bool, typer.Option("--json", help="print the result as JSON")] = False,
) -> None:
    """Order runs by the date their output prints and find the changes in a metric's level."""
    import json
    import tempfile

    from benchbook import warehouse
    from benchbook.analysis.changes import change_points

    if not 0 < alpha < 1:
        _fail(f"--alpha must lie in (0, 1), got {alpha}")
    filters = {}
    for item in where:
        key, sep, value = item.partition("=")
        if not sep or not key:
            _fail(f"--where {item!r}: expected KEY=VALUE")
        filters[key.strip()] = value.strip()
    for p in paths:
        if not p.exists():
            _fail(f"{p}: no such file or folder")
    with tempfile.TemporaryDirectory(prefix="benchbook-history-") as tmp:
        if len(paths) == 1 and (paths[0] / "runs").is_dir():
            into = paths[0]
        else:
            into = Path(tmp)
            rep = warehouse.ingest_into(paths, into, log=lambda *_: None)
            if rep.failed:
                _fail(rep.failed[0])
        try:
            s = warehouse.series(into, metric, filters, statistic)
        except warehouse.WarehouseError as exc:
            _fail(str(exc))
    dated = s["run_date"].notna().all()
    s = s.sort_values(["run_date", "source"] if dated else ["source"], kind="stable").reset_index(drop=True)
    order = "the date each output prints" if dated else "source name (not every output prints a date)"
    changes = change_points(s["value"].to_numpy(), alpha=alpha) if len(s) >= 4 else []
    out = {
        "metric": metric,
        "statistic": s["statistic"].iat[0],
        "order": order,
        "runs": s["run_id"].tolist(),
        "values": s["value"].tolist(),
        "changes": [
            {
                "index": c.index,
                "run": s["run_id"].iat[c.index],
                "before": c.before,
                "after": c.after,
                "size": c.size,
                "low": None if c.low != c.low else c.low,
                "high": None if c.high != c.high else c.high,
                "p_value": c.p_value,
            }
            for c in changes
        ],
    }
    if as_json:
        typer.echo(json.dumps(out, indent=1))
        return
    typer.echo(f"{metric} ({out['statistic']}) over {len(s)} runs, ordered by {order}")
    for i, r in s.iterrows():
        typer.echo(f"  {i:>3}  {r['run_date'] or '':<19}  {r['value']:>12.4g}  {r['source']}")
    if not changes:
        typer.echo(
            f"no change in level (alpha {alpha:g})" if len(s) >= 4 else "fewer than 4 runs: no change can be tested"
        )
    for c in changes:
        typer.echo(f"change before run {c.index}: {c.before:.4g} -> {c.after:.4g} ({c.size:+.4g}), p = {c.p_value:.3g}")
