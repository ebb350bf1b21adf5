"""attention-gym: seed values in the mixed document, fixtures (traceback, notebook variant),
recomputed TF/s, analysis known answers, bad input and damaged-input properties."""

from __future__ import annotations

import pytest
from conftest import one_row

from benchbook import config, ingest
from benchbook.analysis import attention
from benchbook.checks import attention_gym as checks
from benchbook.ingest import ParseError
from benchbook.ingest.attention_gym import infer_seq_len, parse, snake, sniff

SEED = config.seed("004")
FIX = config.FIXTURES_DIR / "attention-gym"


@pytest.fixture(scope="module")
def seed_parsed():
    return ingest.read_parsed(SEED, tool="attention-gym")[0]


def test_seed_values(seed_parsed):
    t = seed_parsed.table
    r = one_row(t, mask="causal_mask", operation="causal_fa2", **{"pass": "fw"}, metric="tflops")
    assert r["value"] == 331.3 and r["line"] == 214 and r["unit"] == "TFLOP/s"
    assert r["seq_len"] == 8192 and r["sparsity_pct"] == 49.22 and r["density"] == pytest.approx(0.5078)
    d = one_row(t, mask="doc_mask_mod", operation="sdpa_mask", **{"pass": "bw"}, metric="time")
    assert d["value"] == 1636.11 and d["seq_len"] == 32768 and d["sparsity_pct"] == 95.28
    a = one_row(t, mask="alibi_mod", operation="flexattention", **{"pass": "fw"}, metric="tflops")
    assert a["value"] == 181.04 and a["density"] == 1.0
    assert list(dict.fromkeys(t["mask"])) == [
        "causal_mask",
        "alibi_mod",
        "sliding_window_1024",
        "prefix_lm_causal_mask_1024",
        "doc_mask_mod",
        "tanh_softcap_30",
        "tanh_softcap_approx_30",
    ]


def test_seed_counts(seed_parsed):
    p = seed_parsed
    assert p.cells_read == 7 * 3 * 4 == len(p.table) + len(p.rejected)


def test_mixed_document_detection():
    text = SEED.read_text(encoding="utf-8")
    assert sniff(text)
    assert "attention-gym" in ingest.detect(text)
    for other in ("000", "001", "003"):
        assert not sniff(config.seed(other).read_text(encoding="utf-8"))


def test_traceback_fixture_keeps_completed_sections():
    p = ingest.read_parsed(FIX / "w7900_rocm_traceback.md", tool="attention-gym")[0]
    assert list(dict.fromkeys(p.table["mask"])) == ["causal_mask", "alibi_mod"]
    assert any(m.startswith("warning: the run stopped at line 57") and "Sliding Window 1024" in m for m in p.messages)
    r = one_row(p.table, mask="causal_mask", operation="causal_fa2", **{"pass": "bw"}, metric="time")
    assert r["value"] == 764.289
    a = checks.audit(FIX / "w7900_rocm_traceback.md")
    assert (a["defect"] == "run ended in a traceback").sum() == 1


def test_notebook_variant_fixture():
    p = ingest.read_parsed(FIX / "rtx4090_flex_attn_noop.md", tool="attention-gym")[0]
    r = one_row(p.table, mask="noop", operation="sdpa_mask", **{"pass": "fw"}, metric="tflops")
    assert r["value"] == 74.79 and r["seq_len"] == 8192 and r["density"] == 1.0
    assert any("inferred" in m for m in p.messages)


@pytest.mark.parametrize("path", [SEED, FIX / "w7900_rocm_traceback.md", FIX / "rtx4090_flex_attn_noop.md"])
def test_reproduce_all_agree(path):
    r = checks.reproduce(path)
    assert len(r) > 0 and r["agrees"].all()


def test_tflops_formula_known_answer():
    # causal FA2 forward at the default shape: 4 x 0.5 x 16 x 16 x 64 x 8192^2 / 6.6376 ms
    assert checks.tflops("causal_fa2", "fw", 6.6376, 8192, 0.5078) == pytest.approx(331.30, abs=0.005)
    assert checks.tflops("flexattention", "fw", 30.5244, 32768, 1 - 0.9528) == pytest.approx(108.84, abs=0.05)
    assert infer_seq_len(6.6376, 331.3) == 8192
    assert infer_seq_len(1.0, 1.0) is None


def test_analysis_known_answers(seed_parsed):
    k = attention.with_work(attention.kernels(seed_parsed.table))
    sd = k[(k["mask"] == "doc_mask_mod") & (k["operation"] == "sdpa_mask") & (k["pass"] == "fw")].iloc[0]
    # dense work = printed / density
    assert sd["work_tflops"] == pytest.approx(5.68 / (1 - 0.9528), rel=2e-3)
    assert sd["credit_ratio"] == pytest.approx(1 - 0.9528, rel=2e-3)
    fl = k[(k["operation"] == "flexattention")]
    assert fl["credit_ratio"].between(0.999, 1.001).all()
    sp = attention.speedups(k)
    c = sp[(sp["mask"] == "causal_mask") & (sp["pass"] == "fw")].iloc[0]
    assert c["flex_vs_sdpa"] == pytest.approx(34.8769 / 10.0974)
    assert attention.intensity("causal_fa2", 8192, 1.0) == pytest.approx(0.5 * 4 * 8192 / (4 * 2))


def test_snake():
    assert snake("Prefix Lm Causal Mask 1024") == "prefix_lm_causal_mask_1024"
    assert snake("1024 x") == "m_1024_x"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "nothing here\n",
        "| Operation | FW Time (ms) | FW FLOPS (TF/s) |\n| a | b |\n",
        "| Operation | FW Time (ms) | FW FLOPS (TF/s) | Speed |\n",
    ],
)
def test_bad_input(text):
    with pytest.raises(ParseError):
        parse(text, "bad.txt")


_TEXT = SEED.read_text(encoding="utf-8")
_AG = "\n".join(_TEXT.splitlines()[200:395])
