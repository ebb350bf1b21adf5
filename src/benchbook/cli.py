"""The `benchbook` command: ingest raw outputs, build the book, list and run chapters."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from benchbook import config

app = typer.Typer(add_completion=False, no_args_is_help=True, help=__doc__)


def _fail(message: str, code: int = 2) -> None:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


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
    rej = pd.concat(rejected, ignore_index=True) if rejected else pd.DataFrame()
    rej.to_csv(config.PROCESSED_DIR / "rejected.csv", index=False)
    (config.PROCESSED_DIR / "messages.txt").write_text("\n".join(messages) + "\n", encoding="utf-8")
    log(f"  rejected cells: {len(rej)} (see {config.relative(config.PROCESSED_DIR / 'rejected.csv')})")
    return counts


@app.command()
def ingest(
    path: Annotated[Path | None, typer.Argument(help="a raw output file of a known tool")] = None,
    tool: Annotated[str | None, typer.Option(help="tool name (default: detect)")] = None,
    output: Annotated[Path | None, typer.Option("-o", "--output", help="write .csv or .parquet here")] = None,
    all_: Annotated[bool, typer.Option("--all", help="rebuild data/processed/ from data/raw/")] = False,
) -> None:
    """Parse a raw benchmark output into the tidy table (CSV on stdout without -o)."""
    from benchbook import ingest as ing

    try:
        if all_:
            ingest_all()
            return
        if path is None:
            _fail("give a PATH, or --all")
        df = ing.read(path, tool)
    except ing.ParseError as exc:
        _fail(str(exc))
    except FileNotFoundError as exc:
        _fail(str(exc))
    for line in df.attrs.get("messages", []):
        typer.echo(f"note: {line}", err=True)
    if output is None:
        df.to_csv(sys.stdout, index=False)
    elif output.suffix == ".parquet":
        df.to_parquet(output, index=False)
    elif output.suffix == ".csv":
        df.to_csv(output, index=False)
    else:
        _fail(f"{output}: use a .csv or .parquet file name")


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
    """List the chapters with their parameters, types, defaults and help (read from the notebooks)."""
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
    try:
        nb, page = rerun.run(chapter, given, source, out, progress=not quiet, log=lambda m: typer.echo(m, err=True))
    except ParameterError as exc:
        _fail(str(exc))
    except rerun.RunError as exc:
        where = f" (notebook with the traceback: {_shown(exc.notebook)})" if exc.notebook else ""
        _fail(f"{exc}{where}", 1)
    typer.echo(f"executed notebook: {_shown(nb)}")
    typer.echo(f"page:              {_shown(page)}")


@app.command()
def report(
    source: Annotated[list[Path], typer.Option("--source", "-s", help="a run of the tool; give exactly two (A, B)")],
    out: Annotated[
        Path | None, typer.Option("-o", "--out", help="a .html file or a folder (default: _build/reports/A_vs_B)")
    ] = None,
    tool: Annotated[str | None, typer.Option(help="compare only this tool's output (a file may hold several)")] = None,
    label: Annotated[list[str] | None, typer.Option(help="names for A and B (default: file names)")] = None,
) -> None:
    """Compare two runs of the same tool: B/A ratio tables and overlaid curves, as one HTML page."""
    from benchbook import compare
    from benchbook.ingest import ParseError

    if len(source) != 2:
        _fail(f"give exactly two --source files (A and B), got {len(source)}")
    if label and len(label) != 2:
        _fail("give --label twice (A then B), or not at all")
    try:
        result = compare.compare_files(source[0], source[1], tool=tool, labels=tuple(label) if label else None)
    except (ParseError, compare.CompareError) as exc:
        _fail(str(exc))
    except FileNotFoundError as exc:
        _fail(str(exc))
    if out is None:
        out = config.BUILD_DIR / "reports" / f"{source[0].stem}_vs_{source[1].stem}"
    page = compare.write_report(result, out)
    for line in compare.summary_lines(result):
        typer.echo(line)
    typer.echo(f"report: {_shown(page)}")


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
    typer.echo(f"{n} claims in {len(files)} ledger(s): {len(problems)} problem(s)")
    if problems:
        raise typer.Exit(1)
