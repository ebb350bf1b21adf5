"""What data the book holds: every raw file with its manifest, and each tool's tidy columns."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pandas as pd
import yaml

from benchbook import config
from benchbook.ingest import tools


def manifests(raw_dir: Path | None = None) -> pd.DataFrame:
    """One row per raw file under `raw_dir` (default data/raw): its manifest fields, plus whether
    the bytes still match the recorded sha256."""
    rows = []
    root = raw_dir or config.RAW_DIR
    config.log_read(root)  # a manifest added to the folder must invalidate the cached chapter
    for path in sorted(root.rglob("*.manifest.yml")):
        config.log_read(path)
        m = yaml.safe_load(path.read_text(encoding="utf-8"))
        raw = path.with_name(m["file"])
        config.log_read(raw)
        data = raw.read_bytes()
        rows.append(
            {
                "folder": path.parent.name,
                "file": m["file"],
                "tools": ", ".join(m["tools"]),
                "tool_version": m.get("tool_version", ""),
                "model": m.get("model", ""),
                "hardware": m.get("hardware", ""),
                "bytes": len(data),
                "lines": len(data.splitlines()),
                "sha256": m["sha256"],
                "sha256_ok": hashlib.sha256(data).hexdigest() == m["sha256"],
                "chapters": ", ".join(m.get("chapters", [])),
                "facts": m.get("facts", []),
                "settings": m.get("settings", {}),
            }
        )
    return pd.DataFrame(rows)


def data_dictionary() -> pd.DataFrame:
    """One row per (tool, column) of the tidy tables, generated from the parsers' schemas."""
    rows = []
    for name, tool in tools().items():
        for col, check in tool.schema().columns.items():
            kind = "setting" if col in tool.settings else "common"
            rows.append({"tool": name, "column": col, "dtype": str(check.dtype), "kind": kind})
    return pd.DataFrame(rows)


def dictionary_table() -> pd.DataFrame:
    """The data dictionary for reading: one row per column of the tidy tables, its type(s), whether it
    is common to every tool or a tool's setting, and the tools that have it (a tool-by-column grid
    would be mostly empty)."""
    d = data_dictionary()
    rows = []
    for col, g in d.groupby("column", sort=False):
        common = (g["kind"] == "common").all() and g["tool"].nunique() == d["tool"].nunique()
        rows.append(
            {
                "column": col,
                "type": ", ".join(dict.fromkeys(g["dtype"].str.replace("[pyarrow]", "", regex=False))),
                "kind": "common" if (g["kind"] == "common").all() else "setting",
                "tools": "every tool" if common else ", ".join(sorted(g["tool"].unique())),
            }
        )
    return pd.DataFrame(rows).sort_values(["kind", "column"], ignore_index=True)  # "common" before "setting"


def files_table(files: pd.DataFrame) -> pd.DataFrame:
    """`manifests` for reading: the short columns a reader scans (model and hardware, long texts, are in
    each file's description below the table)."""
    return files[["folder", "file", "tools", "lines", "sha256_ok", "chapters"]].rename(
        columns={"sha256_ok": "bytes match sha256", "chapters": "read by chapters"}
    )


def metric_dictionary() -> pd.DataFrame:
    """One row per (tool, metric): what it measures and its unit, as the parser declares."""
    rows = [
        {"tool": name, "metric": metric, "meaning": meaning}
        for name, tool in tools().items()
        for metric, meaning in tool.metrics.items()
    ]
    return pd.DataFrame(rows, columns=["tool", "metric", "meaning"])


def metric_table() -> pd.DataFrame:
    """`metric_dictionary` for reading: the unit (a meaning's "unit: ..." prefix) in a column of its own."""
    m = metric_dictionary()
    parts = m["meaning"].str.split(": ", n=1, expand=True).reindex(columns=[0, 1])
    has_unit = parts[1].notna() & parts[0].str.len().le(12)
    return m.assign(unit=parts[0].where(has_unit), meaning=parts[1].where(has_unit, m["meaning"]))[
        ["tool", "metric", "unit", "meaning"]
    ]


#: A command-line option (`--max-concurrency`): shown as code, so the page's typography does not
#: turn its `--` into a dash.
_OPTION = re.compile(r"(?<![\w-])--[A-Za-z][\w-]*")
#: Characters Markdown would read as markup inside a manifest's plain text.
_MARKUP = re.compile(r"([\\`*_\[\]<>#|~])")


def md_text(text) -> str:
    """A manifest value as Markdown that shows exactly its characters: markup escaped, options as code."""
    text = str(text)
    out, last = [], 0
    for m in _OPTION.finditer(text):
        out.append(_MARKUP.sub(r"\\\1", text[last : m.start()]))
        out.append(f"`{m.group(0)}`")
        last = m.end()
    out.append(_MARKUP.sub(r"\\\1", text[last:]))
    return "".join(out)


def describe(files: pd.DataFrame) -> str:
    """Markdown: per raw file its tool, model, hardware and checksum, then each fact with its source."""
    parts = []
    for _, r in files.iterrows():
        version = f" ({md_text(r.tool_version)})" if r.tool_version else ""
        parts.append(
            f"### `{r.file}`\n\n**Tool:** {md_text(r.tools)}{version}  \n**Model:** {md_text(r.model)}  \n"
            f"**Hardware:** {md_text(r.hardware)}  \n**sha256:** `{r.sha256}`\n"
        )
        for f in r.facts:
            parts.append(f"- {md_text(f['fact'])} *Source: {md_text(f['source'])}.*")
        parts.append("")
    return "\n".join(parts)
