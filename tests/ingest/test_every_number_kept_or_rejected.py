"""Nothing lost, nothing absurd: edited copies of the seeds (a renamed header, a conflicting or a
repeated row, 1e308, -1, inf, a 400-digit number) are read with every number either kept or
rejected with its reason, and the user is told.

Each test counts the numbers from the raw text here, independently of the parser, and checks that
count == kept + rejected."""

from __future__ import annotations

import re

import pandas as pd
import pytest
from typer.testing import CliRunner

from benchbook import config, ingest
from benchbook.cli import app

BATCH = config.SEEDS["003"]  # bigcode-inference-benchmark (hf-batch-sweep) tables
RTX = config.SEEDS["004"]  # llama-bench, attention-gym and vllm in one write-up

#: A number standing alone on a row (not the 512 of pp512, not the 0 of Q4_0).
NUM = re.compile(r"(?<![\w.])[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?(?![\w.])")
CELL = re.compile(r"(?<!\\)\|")


def _edit(tmp_path, seed, name, *pairs) -> str:
    """A copy of a seed with each (old, new) replaced once; returns the path."""
    text = seed.read_text(encoding="utf-8")
    for old, new in pairs:
        assert text.count(old) >= 1, old
        text = text.replace(old, new, 1)
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _cells(line: str) -> list[str]:
    return [c.strip() for c in CELL.split(line.strip().strip("|"))]


def _bigcode_raw(path) -> int:
    """Numbers in the bigcode tables, read off the raw text: a dtype cell of a '| batch_size |'
    table stands for 2 numbers under 'tokens/sec | msec/token' and 1 under 'sec' (an oom or blank
    cell for as many missing ones); a table under a title with any other header: every number on
    its rows."""
    lines = path.read_text(encoding="utf-8").splitlines()
    n, per_cell, i = 0, None, 0
    while i < len(lines):
        s = lines[i].strip()
        if s == "tokens/sec | msec/token":
            per_cell = 2
        elif s == "sec":
            per_cell = 1
        elif s.startswith("|") and per_cell:
            known = _cells(lines[i])[0] == "batch_size"
            i += 2  # header, separator
            while i < len(lines) and lines[i].startswith("|"):
                row = _cells(lines[i])
                n += per_cell * (len(row) - 1) if known else len(NUM.findall(lines[i]))
                i += 1
            per_cell = None
            continue
        i += 1
    return n


def _llama_raw(path) -> int:
    """Numbers in the llama-bench tables: the 'mean ± std' of each t/s cell; in a table that names
    the model, size and params but has no t/s column, every number on its rows."""
    lines = path.read_text(encoding="utf-8").splitlines()
    n, i = 0, 0
    while i < len(lines):
        head = [c.lower() for c in _cells(lines[i])] if lines[i].startswith("|") else []
        if not {"model", "size", "params"} <= set(head):
            i += 1
            continue
        i += 2
        while i < len(lines) and lines[i].startswith("|"):
            row = _cells(lines[i])
            n += len(NUM.findall(row[head.index("t/s")])) if "t/s" in head else len(NUM.findall(lines[i]))
            i += 1
    return n


def _one(path, tool) -> ingest.Parsed:
    (p,) = [p for p in ingest.read_parsed(path) if p.tool == tool]
    assert p.cells_read == len(p.table) + len(p.rejected)
    return p


def _ingest_cli(path, tmp_path) -> tuple[str, pd.DataFrame]:
    """What `benchbook ingest FILE --rejected` tells the user (stderr) and writes."""
    rej = tmp_path / "rejected.csv"
    res = CliRunner().invoke(app, ["ingest", str(path), "--rejected", str(rej), "-o", str(tmp_path / "t.csv")])
    assert res.exit_code == 0, res.output
    return res.output, pd.read_csv(rej)


def test_seeds_balance_by_the_raw_count():
    """The unedited seeds: the raw-side counts agree with the parsers', and nothing is set aside."""
    assert _bigcode_raw(BATCH) == len(_one(BATCH, "hf-batch-sweep").table) == 198
    p = _one(RTX, "llama-bench")
    assert _llama_raw(RTX) == len(p.table) == 52 and p.rejected.empty
    assert ingest.set_aside_note([BATCH, RTX]) is None


def test_renamed_batch_size_header_is_reported_not_skipped(tmp_path):
    path = _edit(
        tmp_path, BATCH, "renamed.txt", ("| batch_size |       fp32      |", "| bs         |       fp32      |")
    )
    p = _one(path, "hf-batch-sweep")
    raw = _bigcode_raw(path)
    assert raw == len(p.table) + len(p.rejected) == 66 + 92  # 22 batch sizes + 35 'tok/s | ms' pairs set aside
    assert set(p.table["table"]) == {"latency"}
    assert set(p.rejected["reason"]) == {
        "table not read (line 8): columns bs, fp32, bf16, int8<br>LLM.int8() not recognised by hf-batch-sweep"
    }
    assert any(m.startswith("throughput lines 8-31: a table with columns bs, fp32") for m in p.messages)
    said, rej = _ingest_cli(path, tmp_path)
    assert said.strip().splitlines()[-1] == "66 rows kept; 92 cells rejected (table not read 92); 1 table not read"
    assert len(rej) == 92 and set(rej["line"]) == set(range(10, 32))


def test_renamed_rate_header_is_reported_not_skipped(tmp_path):
    """The first llama-bench table (600W, lines 14-17) with `t/s` renamed; a file whose only
    llama-bench table is renamed is still read (and reported)."""
    old = "|            test |                  t/s |"
    path = _edit(tmp_path, RTX, "renamed.txt", (old, "|            test |           tokens/s |"))
    p = _one(path, "llama-bench")
    assert _llama_raw(path) == len(p.table) + len(p.rejected) == 48 + 12
    assert set(p.rejected["line"]) == {16, 17}
    assert sorted(p.rejected["text"].astype(float))[:2] == [0.23, 1.0]
    assert "lines 14-17: a table with columns model, size, params, backend, ngl, fa, test, tokens/s" in "\n".join(
        p.messages
    )
    alone = tmp_path / "alone.md"
    alone.write_text("\n".join(path.read_text(encoding="utf-8").splitlines()[13:17]) + "\n", encoding="utf-8")
    q = _one(alone, "llama-bench")
    assert q.table.empty and len(q.rejected) == 12 == _llama_raw(alone)


def test_a_wider_row_with_a_bare_rate_keeps_or_rejects_every_number(tmp_path):
    """A llama-bench row given a cell past its header, its rate without `±`: the rate is rejected with
    its reason, not dropped (the raw count reads the number under the header's t/s)."""
    row = "| llama 7B Q4_0                  |   3.56 GiB |     6.74 B | CUDA       |  99 |  1 |           pp512 |"
    path = _edit(tmp_path, RTX, "wide.txt", (row + "     16634.04 ± 97.98 |", row + " 16634.04 | 7 |"))
    p = _one(path, "llama-bench")
    assert _llama_raw(path) == len(p.table) + len(p.rejected) == 50 + 1
    assert list(p.rejected["reason"]) == ["row has more cells than the header"]


@pytest.mark.parametrize(
    ("value", "said"),
    [
        ("1e308", "out of physical range: above 1e+09 tok/s"),
        ("-1", "out of physical range: negative tok/s"),
        ("9" * 400, "out of physical range: not a finite number (tok/s; inf, or too many digits for a float)"),
        ("inf", "not a number (throughput)"),
    ],
)
def test_absurd_values_are_rejected_with_their_reason(tmp_path, value, said):
    path = _edit(
        tmp_path, BATCH, "absurd.txt", ("| 8          | 325.98 \\| 3.07 ", f"| 8          | {value} \\| 3.07 ")
    )
    p = _one(path, "hf-batch-sweep")
    assert _bigcode_raw(path) == len(p.table) + len(p.rejected) == 198
    assert list(p.rejected["reason"]) == [said] and list(p.rejected["line"]) == [13]
    thr = p.table[(p.table["metric"] == "throughput") & (p.table["dtype"] == "fp32")]
    assert thr["value"].max() == 3506.41  # the best fp32 rate is the real one, not the absurd one
    note = ingest.set_aside_note(path)
    assert note.startswith(f"Data set aside: 1 number of absurd.txt (1 {ingest.reason_kind(said)})")
    said_cli, rej = _ingest_cli(path, tmp_path)
    assert said_cli.strip().splitlines()[-1] == (
        f"197 rows kept; 1 cell rejected ({ingest.reason_kind(said)} 1); 0 tables not read"
    )
    assert list(rej["reason"]) == [said]


def test_absurd_llama_bench_rates(tmp_path):
    """-1 t/s and a 400-digit rate are rejected, not kept as 'not measured' or as inf."""
    path = _edit(
        tmp_path,
        RTX,
        "absurd.txt",
        ("16634.04 ± 97.98", "-1.00 ± 97.98"),
        ("278.95 ± 0.23", f"{'9' * 400} ± 0.23"),
    )
    p = _one(path, "llama-bench")
    assert _llama_raw(path) == len(p.table) + len(p.rejected) == 52
    assert sorted(p.rejected["reason"]) == [
        "out of physical range: negative tok/s",
        "out of physical range: not a finite number (tok/s; inf, or too many digits for a float)",
    ]
    assert p.table["value"].dropna().between(0, 1e9).all()


def test_repeated_row_is_kept_once_and_conflicting_rows_are_set_aside(tmp_path):
    row = "| llama 7B Q4_0                  |   3.56 GiB |     6.74 B | CUDA       |  99 |  1 |           pp512 |"
    first = row + "     16634.04 ± 97.98 |\n"
    same = _edit(tmp_path, RTX, "same.txt", (first, first + first))
    p = _one(same, "llama-bench")
    assert _llama_raw(same) == len(p.table) + len(p.rejected) == 54
    assert list(p.rejected["reason"]) == ["duplicate row: repeats line 16"] * 2
    assert len(p.table) == 52
    assert "2 repeated rows with the same configuration and value kept once" in p.messages

    other = _edit(tmp_path, RTX, "conflict.txt", (first, first + row + "     99999.00 ± 1.00 |\n"))
    p = _one(other, "llama-bench")
    assert _llama_raw(other) == len(p.table) + len(p.rejected) == 54
    assert len(p.table) == 50  # neither pp512 row at 600 W is kept
    assert set(p.rejected["line"]) == {16, 17}
    assert "line 16: pp_rate mean given 2 times with different values (16634 (line 16), 99999 (line 17))" in (
        " ".join(p.messages)
    )
    assert not p.table[(p.table["power_limit_w"] == 600) & (p.table["test"] == "pp512")].shape[0]
    said, rej = _ingest_cli(other, tmp_path)
    assert "; 4 cells rejected (conflicting rows 4);" in said
    assert rej["reason"].str.startswith("conflicting rows: same configuration").all()


def test_conflicts_across_files(tmp_path):
    """Two files that give different values for one configuration: what a chapter's pivot with
    aggfunc='first' would silently choose between."""
    keys = ["model", "framework", "gpu", "batch_size", "dtype", "table"]
    twin = _edit(tmp_path, BATCH, "twin.txt", ("| 8          | 2.45  |", "| 8          | 2.55  |"))
    both = pd.concat([ingest.read(BATCH), ingest.read(twin)], ignore_index=True)
    c = ingest.conflicts(both, keys)
    assert list(zip(c["source"], c["value"], strict=True)) == [(BATCH.name, 2.45), ("twin.txt", 2.55)]
    same = pd.concat([ingest.read(BATCH), ingest.read(BATCH)], ignore_index=True)
    assert ingest.conflicts(same, keys).empty


def test_attention_gym_blockmask_without_a_number(tmp_path):
    path = _edit(tmp_path, RTX, "mask.txt", ("sparsity=49.22%", "sparsity=.%"))
    p = _one(path, "attention-gym")
    assert "line 222: BlockMask sparsity '.'% is not a percentage; unknown" in p.messages
    assert len(p.table) == 84 and p.table["sparsity_pct"].isna().sum() == 12


def _tgi_raw(path) -> int:
    """Numbers in the TGI benchmark tables: one per statistic cell (from the third column on) of a
    '| Step | Batch Size | ...' table, a blank cell standing for the one above it and NaN for a
    missing one; in a table with those names but a renamed one, every number on its rows."""
    lines = path.read_text(encoding="utf-8").splitlines()
    n, i = 0, 0
    while i < len(lines):
        head = [c.lower() for c in _cells(lines[i])] if lines[i].startswith("|") else []
        if len(set(head) & {"step", "batch size", "average", "lowest", "highest", "p50", "p90", "p99"}) < 3:
            i += 1
            continue
        known = head[:2] == ["step", "batch size"]
        i += 2
        while i < len(lines) and lines[i].startswith("|"):
            row = _cells(lines[i])
            n += len(row) - 2 if known else len(NUM.findall(lines[i]))
            i += 1
    return n


def test_renamed_tgi_step_header_is_reported_not_skipped(tmp_path):
    seed = config.SEEDS["000"]
    assert _tgi_raw(seed) == len(_one(seed, "tgi-benchmark").table) == 864
    path = _edit(tmp_path, seed, "renamed.txt", ("| Step           | Batch Size |", "| Phase          | Batch Size |"))
    p = _one(path, "tgi-benchmark")
    assert _tgi_raw(path) == len(p.table) + len(p.rejected)
    assert set(p.rejected["line"]) == set(range(59, 77))  # the rows of the table at line 57
    assert any(m.startswith("lines 57-76: a table with columns Phase, Batch Size, Average") for m in p.messages)
