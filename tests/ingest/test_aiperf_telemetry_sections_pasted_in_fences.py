"""AIPerf's `profile_export_aiperf.csv` sections as a page pastes them, each in its own code fence (AIPerf's
docs do): the GPU-telemetry section ends at its closing fence (AIPerf writes no backticks, so a fence is no
GPU's row), and the counts and throughputs of the serving sections fenced above it are read as AIPerf's,
at their lines in the page. Without a fenced `Metric,` section the page gives no served figure."""

from __future__ import annotations

from benchbook.ingest import aiperf_telemetry

HEAD = "Endpoint,GPU_Index,GPU_Name,GPU_UUID,Metric,avg,min,max,p50,p99,std"
GPU = "localhost:9401,0,NVIDIA H100 80GB HBM3,GPU-1,GPU Power Usage (W),300.00,100.00,400.00,310.00,390.00,50.00"
SERVED = [
    "```csv",
    "Metric,avg,min,max,p50,p99,std",
    "Request Latency (ms),100.00,90.00,120.00,99.00,119.00,5.00",
    "```",
    "",
    "```csv",
    "Metric,Value",
    "Request Count,200.00",
    "Output Token Throughput (tokens/sec),1274.63",
    "```",
]


def _read(lines):
    return aiperf_telemetry.parse("\n".join(lines) + "\n", "page.md").table


def _value(t, metric):
    d = t[t["metric"] == metric]
    return (float(d["value"].iloc[0]), int(d["line"].iloc[0])) if len(d) else None


def test_a_fenced_telemetry_section_ends_at_its_fence_and_reads_its_gpu():
    t = _read(["Some prose.", "```csv", HEAD, GPU, "```", "More prose."])
    assert _value(t, "mean_power") == (300.0, 4)
    assert set(t["device_count"]) == {1.0}


def test_the_serving_sections_fenced_above_give_the_runs_counts_at_their_page_lines():
    t = _read([*SERVED, "", "```csv", HEAD, GPU, "```"])
    assert _value(t, "output_throughput") == (1274.63, 9)
    assert _value(t, "requests") == (200.0, 8)


def test_no_fenced_serving_section_gives_no_served_figure():
    t = _read(["```csv", HEAD, GPU, "```"])
    assert _value(t, "output_throughput") is None and _value(t, "requests") is None
