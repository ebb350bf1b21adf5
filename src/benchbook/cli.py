"""The `benchbook` command: ingest raw outputs, build the book, list and run chapters."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from benchbook import config

app = typer.Typer(add_completion=False, no_args_is_help=True, help=__doc__)


def _fail(message: str, code: int = 2) -> None:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def ingest_all(log=print) -> dict[str, int]:
    """Rebuild data/processed/ from data/raw/: one parquet per tool, plus the rejected-cell report."""
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
    rej = pd.concat(rejected, ignore_index=True) if rejected else pd.DataFrame()
    rej.to_csv(config.PROCESSED_DIR / "rejected.csv", index=False)
    (config.PROCESSED_DIR / "messages.txt").write_text("\n".join(messages) + "\n", encoding="utf-8")
    log(f"  rejected cells: {len(rej)} (see {config.relative(config.PROCESSED_DIR / 'rejected.csv')})")
    return counts


@app.command()
def ingest(
    path: Annotated[Optional[Path], typer.Argument(help="a raw output file of a known tool")] = None,
    tool: Annotated[Optional[str], typer.Option(help="tool name (default: detect)")] = None,
    output: Annotated[Optional[Path], typer.Option("-o", "--output", help="write .csv or .parquet here")] = None,
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
    only: Annotated[Optional[list[str]], typer.Option(help="execute only this chapter (repeatable)")] = None,
    jobs: Annotated[Optional[int], typer.Option(help="chapters executed at once")] = None,
    force: Annotated[bool, typer.Option(help="ignore the execution cache")] = False,
) -> None:
    """Ingest the raw data, execute the chapters (cached by content) and render the HTML book."""
    import time

    from benchbook import build as b

    t0 = time.perf_counter()
    from benchbook.ingest import ParseError

    typer.echo("ingesting data/raw -> data/processed")
    try:
        ingest_all(log=typer.echo)
        index = b.build(only, jobs, force, log=typer.echo)
    except (b.BuildError, ParseError) as exc:
        _fail(str(exc), 1)
    typer.echo(f"book built in {time.perf_counter() - t0:.1f} s: {config.relative(index)}")


@app.command("list")
def list_chapters() -> None:
    """List the chapters with their parameters, types, defaults and help."""
    from benchbook import build as b
    from benchbook.chapter import declared

    for name in b.chapters():
        typer.echo(name)
        for pname, info in declared(name).items():
            typer.echo(f"  {pname} ({info['type']}, default {info['default']!r}): {info['help'] or ''}")


def main() -> None:  # pragma: no cover - console entry point
    app()
