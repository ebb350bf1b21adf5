"""Each model and device gets its fastest prompt rate against the compute roof, and a rate beyond the dense peak is
a warning that lists its likely causes. Where several are beyond it (two weight types of one model on one
RTX-4080, each its own configuration: ik_llama.cpp pull request 494), the causes are listed with the first warning
only; each later warning names its rate and points back (the page said the same sentence twice, #34). A page with
one warning keeps the whole sentence."""

from __future__ import annotations

from benchbook import config, ingest
from benchbook.analysis import prefill
from benchbook.claims import bandwidth as bandwidth_claims

PR494 = (
    config.FIXTURES_DIR
    / "llama-sweep-bench/ik_llama_pr494_iq1_m_vs_iq1_m_r4_llama3_8b_rtx4080_device_in_prose_description.md"
)


def _claims(path, keep: int | None = None):
    rows = prefill.prompt_rows(ingest.read(path))
    pts = prefill.fastest(prefill.points(rows))
    if keep is not None:
        pts = pts.head(keep)
    return [c for c in bandwidth_claims.prefill_claims(pts) if c.status == "implausible"]


def test_a_second_warning_points_back_to_the_first():
    warned = _claims(PR494)
    assert len(warned) == 2
    assert "warned_before" not in warned[0].evidence
    assert warned[1].evidence["warned_before"] == warned[0].evidence["label"]


def test_one_warning_keeps_its_causes():
    warned = _claims(PR494, keep=1)
    assert len(warned) == 1 and "warned_before" not in warned[0].evidence
