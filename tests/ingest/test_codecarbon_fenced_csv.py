"""CodeCarbon's emissions.csv quoted in a write-up's code fences: each fenced block whose first line is
CodeCarbon's header is the file's rows, each row at its line in the write-up; another CSV is not."""

from __future__ import annotations

import pytest

from benchbook import config
from benchbook.ingest import ParseError, codecarbon

HEADER = (
    "timestamp,project_name,run_id,duration,emissions,emissions_rate,cpu_power,gpu_power,ram_power,"
    "cpu_energy,gpu_energy,ram_energy,energy_consumed,os,codecarbon_version,gpu_count,gpu_model,tracking_mode"
)
ROW = "2025-10-11T10:20:20,exp_a,r1,100.0,0.01,0.0001,112.5,235.8,188.8,0.002,0.004,0.003,0.009,Linux-6.8,2.7.1,1,1 x NVIDIA RTX A5000,machine"
WRITEUP = f"# Results\n\nSome prose.\n\n```csv\n{HEADER}\n{ROW}\n```\n\nMore prose.\n\n```\n{HEADER}\n{ROW.replace('r1', 'r2')}\n```\n"


def test_each_fenced_emissions_csv_is_read_at_its_lines():
    assert codecarbon.sniff(WRITEUP)
    p = codecarbon.parse(WRITEUP, "w.md")
    gpu = p.table[(p.table["metric"] == "energy") & (p.table["scope"] == "gpu")]
    assert gpu["line"].tolist() == [7, 14] and gpu["value"].tolist() == pytest.approx([14400.0, 14400.0])


def test_a_fenced_csv_of_another_header_is_not_codecarbons():
    other = WRITEUP.replace(HEADER, "timestamp,model,latency_s,tokens")
    assert not codecarbon.sniff(other)
    with pytest.raises(ParseError):
        codecarbon.parse(other, "w.md")


def test_the_real_write_up_holds_eight_extracts_on_two_devices():
    path = config.FIXTURES_DIR / "codecarbon" / "agent_green_rq1_emissions_data_doc_eight_fenced_csv_blocks.md"
    p = codecarbon.parse(path.read_text(encoding="utf-8"), path.name)
    assert p.table["line"].nunique() == 19
    assert set(p.table["device"].dropna()) == {"NVIDIA RTX A5000", "NVIDIA H100 80GB HBM3"}
