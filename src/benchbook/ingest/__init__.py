"""Parse the source tools' real outputs into validated, traceable tidy tables.

`read(path)` detects which tools' output a file holds (a write-up may hold several), runs each
parser and returns one long table, one measured number per row. `read_parsed` returns the
per-tool results with their rejected-cell reports and messages.
"""

from __future__ import annotations

import importlib
import os
from pathlib import Path

import pandas as pd

from benchbook import config
from benchbook.ingest.core import REGISTRY, Parsed, ParseError, Tool, register, rejected, tidy

#: Parser modules, imported on first use; each registers one tool.
_MODULES = ["tgi", "sglang_quant", "hf_batch", "llama_bench", "attention_gym", "vllm_serve"]

__all__ = [
    "ParseError",
    "Parsed",
    "Tool",
    "read",
    "read_all",
    "read_parsed",
    "tools",
    "detect",
    "register",
    "tidy",
    "rejected",
]


def tools() -> dict[str, Tool]:
    """All registered tools, by name."""
    for mod in _MODULES:
        try:
            importlib.import_module(f"benchbook.ingest.{mod}")
        except ModuleNotFoundError as exc:  # a parser module not written yet
            if exc.name != f"benchbook.ingest.{mod}":
                raise
    return dict(REGISTRY)


def _load_text(path: Path) -> str:
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise ParseError(path.name, line, f"not UTF-8 text (byte {data[exc.start]:#04x})") from None


def detect(text: str) -> list[str]:
    """Names of the tools whose output the text holds (in registry order)."""
    return [name for name, tool in tools().items() if tool.sniff(text)]


def read_parsed(path: str | os.PathLike, tool: str | None = None) -> list[Parsed]:
    """Parse a file with the named tool, or with every tool detected in it."""
    p = config.resolve(path)
    config.log_read(p)
    text = _load_text(p)
    registry = tools()
    if tool is not None:
        if tool not in registry:
            raise ParseError(p.name, None, f"unknown tool {tool!r} (known: {', '.join(registry)})")
        names = [tool]
    else:
        names = detect(text)
        if not names:
            raise ParseError(p.name, 1, f"no known tool output found (looked for: {', '.join(registry)})")
    return [registry[n].parse(text, p.name) for n in names]


def read(path: str | os.PathLike, tool: str | None = None) -> pd.DataFrame:
    """The tidy table of a file (all tools it holds, stacked). The rejected-cell report (a list of
    records with REJECTED_COLUMNS) and the parser messages ride along in `df.attrs["rejected"]` and
    `df.attrs["messages"]`; plain lists, so that frames from several files still concatenate."""
    parsed = read_parsed(path, tool)
    frames = [p.table for p in parsed]
    df = pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0].copy()
    df.attrs["rejected"] = [r for p in parsed for r in p.rejected.to_dict("records")]
    df.attrs["messages"] = [m for p in parsed for m in p.messages]
    return df


def read_all(paths, tool: str | None = None) -> tuple[pd.DataFrame, list[str]]:
    """Several files stacked into one table, with their parser messages. The attrs are dropped:
    a chapter reports rejected cells through its audit, and concat would try to compare them."""
    frames, messages = [], []
    for path in paths:
        df = read(path, tool)
        messages += df.attrs.get("messages", [])
        df.attrs = {}
        frames.append(df)
    return pd.concat(frames, ignore_index=True), messages
