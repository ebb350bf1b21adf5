"""A GenAI-Perf cell rich cut with `…` (`1,971…`, `136.…`) is a statistic the run printed and the
parser could not read: its empty cell on the page says "not read", never "not printed", and the
latency it belongs to is named (`serving.screened_latencies`). A cell set aside for another reason
names no cut latency."""

from __future__ import annotations

from benchbook import config
from benchbook.analysis import serving
from benchbook.ingest import genai_perf
from benchbook.presentation import serving as show

EKS = (
    config.FIXTURES_DIR
    / "genai-perf/eks_llm_triton_vllm_opt350m_g4dn_hpa_replicas_c8_to_c128_truncated_cells_excerpt.md"
)


def test_a_cut_cell_is_not_read_not_unprinted():
    r = serving.load([EKS])[0]
    _, missing = show.latency_table(r, "ttft")
    cells = set(missing.to_numpy().ravel()) - {None}
    assert show.NOT_READ in cells and show.NOT_PRINTED not in cells


def test_the_cut_metric_is_the_rows_tidy_metric_and_only_for_a_cut():
    cut = {"text": "Time to first token (ms) p99: 136.…", "reason": genai_perf.CUT_REASON}
    assert genai_perf.cut_metric(cut) == "ttft"
    assert genai_perf.cut_metric({**cut, "reason": "expected a number"}) is None


def test_a_cut_mean_latency_is_set_aside_not_unprinted():
    lit = serving.littles_law(serving.load([EKS])[0])
    assert show.littles_note(lit).startswith("The output's request latencies were set aside where printed")
    assert "but no latency" not in show.littles_note(lit)
    # the other way: nothing set aside, and the same runs print no request latency (their TTFT is no E2EL)
    assert "but no request's end-to-end latency" in show.littles_note(lit.assign(latency_set_aside=""))
