"""hf-batch-sweep: real seed and fixture values, oom/blank handling, bad input, properties."""

from __future__ import annotations

import math

import pytest
from conftest import one_row

from benchbook import config, ingest
from benchbook.analysis import batch
from benchbook.checks import hf_batch as checks
from benchbook.ingest import ParseError
from benchbook.ingest.hf_batch import EMPTY_NOTE, OOM_NOTE, parse, sniff

SEED = config.seed("003")
FIX = config.FIXTURES_DIR / "hf-batch-sweep"


@pytest.fixture(scope="module")
def seed_parsed():
    return ingest.read_parsed(SEED, tool="hf-batch-sweep")[0]


def test_seed_values(seed_parsed):
    t = seed_parsed.table
    r = one_row(t, dtype="bf16", batch_size=1280, metric="throughput")
    assert r["value"] == 7799.99 and r["unit"] == "tok/s" and r["line"] == 26
    assert one_row(t, dtype="bf16", batch_size=1280, metric="ms_per_token")["value"] == 0.13
    assert one_row(t, dtype="fp32", batch_size=1, metric="throughput")["value"] == 45.31
    lat = one_row(t, dtype="bf16", batch_size=128, metric="latency")
    assert lat["value"] == 2.68 and lat["unit"] == "s" and lat["line"] == 43
    assert set(t["model"]) == {"BLOOM"} and set(t["gpu"]) == {"A100 80GB"}
    assert set(t["framework"]) == {"HF-accelerate"}


def test_seed_oom_and_blank(seed_parsed):
    t = seed_parsed.table
    oom = one_row(t, dtype="fp32", batch_size=1024, metric="throughput")
    assert math.isnan(oom["value"]) and oom["note"] == OOM_NOTE
    int8 = t[t["dtype"] == "int8"]
    assert len(int8) == 22 * 3 and int8["value"].isna().all() and (int8["note"] == EMPTY_NOTE).all()
    assert any("int8" in m and "empty" in m for m in seed_parsed.messages)


def test_cells_accounted(seed_parsed):
    p = seed_parsed
    # 22 rows x 3 dtypes x (2 numbers per throughput cell + 1 per latency cell)
    assert p.cells_read == 22 * 3 * 3 == len(p.table) + len(p.rejected)
    assert len(p.rejected) == 0


@pytest.mark.parametrize(
    "name,model,fw,bs,dtype,val",
    [
        ("readme_0253839c_bloom.md", "BLOOM", "DS-inference", 1024, "fp16", 11534.95),
        ("readme_0253839c_bloom.md", "BLOOM", "HF-accelerate", 1792, "int8", 8344.36),
        ("readme_0253839c_gpt2_mha.md", "GPT2 Multi-Head Attention", "HF-accelerate", 1664, "bf16", 11571.52),
    ],
)
def test_fixtures(name, model, fw, bs, dtype, val):
    p = ingest.read_parsed(FIX / name, tool="hf-batch-sweep")[0]
    r = one_row(p.table, model=model, framework=fw, batch_size=bs, dtype=dtype, metric="throughput")
    assert r["value"] == val
    assert p.cells_read == len(p.table) + len(p.rejected) == 22 * 4 * 3


def test_garbage_cell_is_rejected_not_lost():
    text = SEED.read_text(encoding="utf-8").replace("86.60 \\| 11.55", "86.6x \\| 11.55")
    p = parse(text, "x.txt")
    assert len(p.rejected) == 1 and p.rejected.iloc[0]["text"] == "86.6x"
    assert p.cells_read == len(p.table) + len(p.rejected)


def test_sniff_and_mixed():
    assert sniff(SEED.read_text(encoding="utf-8"))
    assert not sniff(config.seed("004").read_text(encoding="utf-8"))
    assert not sniff(config.seed("000").read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    "text",
    [
        "",
        "hello\n",
        "| batch_size | fp32 |\n|---|---|\n| 1 | 2 \\| 3 |\n",
        "tokens/sec | msec/token\n| batch_size | fp32 |\n| one | 2 \\| 3 |\n",
    ],
)
def test_bad_input(text):
    with pytest.raises(ParseError):
        parse(text, "bad.txt")


_TEXT = SEED.read_text(encoding="utf-8")


def test_reproduce_and_audit():
    r = checks.reproduce(SEED)
    assert len(r) == 70 and r["agrees"].all()
    row = r[r["quantity"].str.contains("bf16 bs=128 tokens/sec")].iloc[0]
    assert row["published"] == 4780.32 and row["recomputed"] == pytest.approx(12800 / 2.68)
    a = checks.audit(SEED)
    assert (a["defect"] == "oom padding").sum() == 4 and (a["defect"] == "empty column").sum() == 2


def test_rounding_interval_known_answer():
    lo, hi = checks.rounding_interval(128, 2.68)
    assert lo == pytest.approx(12800 / 2.685) and hi == pytest.approx(12800 / 2.675)


def test_batch_analysis_seed():
    sw = batch.sweep(ingest.read(SEED, tool="hf-batch-sweep"))
    k = batch.knee(sw, 0.95).set_index("dtype")
    assert k.loc["bf16", "peak_tok_s"] == 7802.61 and k.loc["bf16", "knee_batch_size"] == 512
    m = batch.memory_limit(sw).set_index("dtype")
    assert m.loc["fp32", "last_ok"] == 896 and m.loc["fp32", "first_missing"] == 1024
    assert m.loc["int8", "status"] == "blank" and m.loc["bf16", "status"] == "limit"
    r = sw[(sw["dtype"] == "bf16") & (sw["batch_size"] == 128)].iloc[0]
    assert r["per_sequence_ms_per_token"] == pytest.approx(26.8) and r["tool_ms_per_token"] == 0.21


def test_knee_synthetic():
    import pandas as pd

    sw = pd.DataFrame(
        {
            "model": "m",
            "framework": "f",
            "gpu": "g",
            "dtype": "x",
            "batch_size": [1, 2, 4, 8, 16],
            "throughput_tok_s": [10, 20, 40, 76, 80.0],
            "has_result": True,
        }
    )
    k = batch.knee(sw, 0.9).iloc[0]
    assert k["knee_batch_size"] == 8 and k["peak_tok_s"] == 80
    g = batch.marginal_gain(sw)
    assert g["gain_tok_s_per_seq"].tolist()[1:] == pytest.approx([10, 10, 9, 0.5])


def test_audit_keeps_every_model_of_a_file(tmp_path):
    both = tmp_path / "both.md"
    both.write_text(
        (FIX / "readme_0253839c_bloom.md").read_text() + "\n" + (FIX / "readme_0253839c_gpt2_mha.md").read_text()
    )
    a = checks.audit(both)
    assert (a["defect"] == "oom padding").sum() == 16
    gpt2 = a[a["evidence"].str.startswith("GPT2 Multi-Head Attention, throughput table, DS-inference fp16")]
    assert len(gpt2) == 1
    assert "11 'oom' cells from batch size 640 (last result at 512)" in gpt2["evidence"].iat[0]
    assert gpt2["line"].iat[0] == 86


def test_column_of_rejected_cells_is_not_called_empty():
    text = (
        "tokens/sec | msec/token\n"
        "| batch_size | fp32 | bf16 | int8 |\n"
        "|:-:|:-:|:-:|:-:|\n"
        "| 1 | 43.11 \\| 23.20 | x \\| y |  |\n"
        "| 2 | 80.76 \\| 12.38 | x \\| y |  |\n"
    )
    p = parse(text, "bad.md")
    assert list(p.rejected["text"]) == ["x", "y", "x", "y"]
    assert p.messages == ["throughput table at line 2: column 'int8' is empty (never run); its rows are left blank"]
    assert p.cells_read == len(p.table) + len(p.rejected) == 12


def test_a_column_is_empty_only_when_every_cell_is_blank():
    """All blank: empty (said); all 'oom' or blank and a number: not empty (nothing said); per table."""
    text = (
        "tokens/sec | msec/token\n"
        "| batch_size | fp32 | bf16 | int8 |\n"
        "|:-:|:-:|:-:|:-:|\n"
        "| 1 | oom |  | 5 \\| 200 |\n"
        "| 2 | oom |  |  |\n"
        "\n"
        "tokens/sec | msec/token\n"
        "| batch_size | fp32 | bf16 | int8 |\n"
        "|:-:|:-:|:-:|:-:|\n"
        "| 4 | 9 \\| 111 | 8 \\| 125 |  |\n"
    )
    p = parse(text, "blank.md")
    assert p.messages == [
        "throughput table at line 2: column 'bf16' is empty (never run); its rows are left blank",
        "throughput table at line 8: column 'int8' is empty (never run); its rows are left blank",
    ]
