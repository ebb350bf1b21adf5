"""AIPerf's GPU telemetry in the energy contract: values read from the real fixtures by hand (the
energy counter's rise, not its mean reading), every number kept or set aside with its reason,
schema 1.5's vendor-scoped names, several GPUs summed, and the figure per token it allows."""

from __future__ import annotations

import json

import pytest

from benchbook import config, ingest
from benchbook.analysis import energy as energy_analysis
from benchbook.claims import energy as energy_claims
from benchbook.ingest import aiperf_telemetry

FIX = config.FIXTURES_DIR / "aiperf-telemetry"
H100 = FIX / "nvda_ci_gpu_telemetry_h100_telemetry_data.json"
EXCERPT = FIX / "nvda_ci_reference_qwen3_0.6b_excerpt_profile_export_aiperf.json"


def _telemetry(path):
    parsed = {p.tool: p for p in ingest.read_parsed(path)}
    p = parsed["aiperf-telemetry"]
    assert p.cells_read == len(p.table) + len(p.rejected)
    return p, parsed


def _value(t, metric):
    d = t[t["metric"] == metric]
    assert len(d) == 1, (metric, len(d))
    return float(d["value"].iloc[0])


def test_h100_energy_is_the_counters_rise_not_its_mean_reading():
    p, parsed = _telemetry(H100)
    assert list(parsed) == ["aiperf-telemetry"]  # no serving records: not an aiperf serving export
    t = p.table
    # (0.246497393 - 0.229901671) MJ; the counter's avg 0.2378 MJ is a reading of a running total
    assert _value(t, "energy") == pytest.approx(16595.722)
    assert _value(t, "mean_power") == pytest.approx(348.6908823529412)
    assert _value(t, "peak_power") == pytest.approx(386.022)
    assert _value(t, "duration") == pytest.approx(52.281659)  # 01:48:03.689885 to 01:48:55.971544
    assert set(t.loc[t["scope"].notna(), "scope"]) == {"gpu"}
    assert not {"idle_power", "output_tokens", "requests"} & set(t["metric"])
    reasons = p.rejected.set_index("text")["reason"]
    assert "cumulative energy counter" in reasons["localhost:9401/gpu_0.energy_consumption.avg: 0.23782271866013072"]
    assert set(t["device"]) == {"NVIDIA H100 80GB HBM3"} and t["model"].isna().all()


def test_h100_page_figures_say_energy_without_a_figure_per_token():
    p, _ = _telemetry(H100)
    row = energy_analysis.runs(p.table.assign(source=H100.name)).iloc[0]
    assert row["energy_j"] == pytest.approx(16595.722) and row["j_per_output_token"] != row["j_per_output_token"]
    c = energy_claims.per_run(row, 0)
    assert c.status == "withheld" and "neither the tokens nor the requests" in c.reason


def test_excerpt_is_read_by_both_aiperf_tools_and_gives_power_over_throughput():
    p, parsed = _telemetry(EXCERPT)
    assert set(parsed) == {"aiperf", "aiperf-telemetry"}
    t = p.table
    assert _value(t, "mean_power") == pytest.approx(129.8854497206704)
    assert _value(t, "output_throughput") == pytest.approx(50.08213863971112)
    assert "energy" not in set(t["metric"])  # the excerpt's telemetry has no energy counter
    row = energy_analysis.runs(t.assign(source=EXCERPT.name)).iloc[0]
    assert row["tokens_basis"] == "power / throughput"
    assert row["j_per_output_token"] == pytest.approx(129.8854497206704 / 50.08213863971112)
    assert row["j_per_request"] == pytest.approx(129.8854497206704 / 0.2504302580624667)
    assert any("no energy counter" in m for m in p.messages)


def _synthetic_two_gpus(**energy_unit):
    """Schema 1.5 names (nvidia_*), two GPUs, tokens and requests in the serving records."""

    def gpu(i, w, lo, hi):
        return {
            "gpu_index": i,
            "gpu_name": "NVIDIA H100 80GB HBM3",
            "platform": "nvidia",
            "metrics": {
                "nvidia_power_usage": {"unit": "W", "avg": w, "max": w + 50},
                "nvidia_energy_consumption": {"unit": energy_unit.get("unit", "MJ"), "avg": 9.0, "min": lo, "max": hi},
            },
        }

    return json.dumps(
        {
            "schema_version": "1.5",
            "request_count": {"unit": "requests", "avg": 100.0},
            "total_osl": {"unit": "tokens", "avg": 20000.0},
            "telemetry_data": {
                "summary": {"start_time": "2026-01-01T00:00:00", "end_time": "2026-01-01T00:01:40"},
                "endpoints": {
                    "h:9400": {"gpus": {"gpu_0": gpu(0, 300.0, 1.0, 1.02), "gpu_1": gpu(1, 200.0, 2.0, 2.01)}}
                },
            },
        },
        indent=1,
    )


def test_two_gpus_are_summed_and_divided_by_the_tokens_served():
    text = _synthetic_two_gpus()
    assert aiperf_telemetry.sniff(text)
    p = aiperf_telemetry.parse(text, "synthetic.json")
    t = p.table
    assert _value(t, "energy") == pytest.approx(30000.0)  # 20 kJ + 10 kJ
    assert _value(t, "mean_power") == pytest.approx(500.0)
    assert "peak_power" not in set(t["metric"])  # the peak of the sum is not known
    assert set(t["device_count"]) == {2.0}
    row = energy_analysis.runs(t.assign(source="synthetic.json")).iloc[0]
    assert row["tokens_basis"] == "counted"
    assert row["j_per_output_token"] == pytest.approx(1.5) and row["j_per_request"] == pytest.approx(300.0)
    assert p.cells_read == len(t) + len(p.rejected)


def test_a_counter_in_an_unknown_unit_is_set_aside_not_guessed():
    p = aiperf_telemetry.parse(_synthetic_two_gpus(unit="Wh"), "synthetic.json")
    assert "energy" not in set(p.table["metric"])
    assert p.rejected["reason"].str.contains("unit 'Wh' unknown").sum() == 4
    row = energy_analysis.runs(p.table.assign(source="s")).iloc[0]
    assert row["j_per_output_token"] != row["j_per_output_token"]  # no energy, no throughput: no figure


def test_bad_inputs_are_one_sentence_naming_the_file():
    with pytest.raises(ingest.ParseError, match="x.json"):
        aiperf_telemetry.parse('{"telemetry_data": {"endpoints": {}}}', "x.json")
    with pytest.raises(ingest.ParseError, match="not valid JSON"):
        aiperf_telemetry.parse('{"telemetry_data": ', "x.json")


def test_aiperfs_own_benchmark_phase_energy_is_kept_over_the_counters_rise():
    """Synthetic, schema 1.5 shape: `nvidia_total_gpu_energy` (J, the benchmark phase) replaces the
    counter's rise over the telemetry window; `nvidia_output_tokens_per_joule` is kept beside it."""
    doc = json.loads(_synthetic_two_gpus())
    doc["nvidia_total_gpu_energy"] = {"unit": "J", "avg": 25000.0}
    doc["nvidia_output_tokens_per_joule"] = {"unit": "tokens/J", "avg": 0.8}
    p = aiperf_telemetry.parse(json.dumps(doc, indent=1), "synthetic.json")
    t = p.table
    assert _value(t, "energy") == pytest.approx(25000.0)
    assert _value(t, "tokens_per_joule") == pytest.approx(0.8)
    assert p.rejected["reason"].str.contains("own nvidia_total_gpu_energy is kept instead").sum() == 1
    assert p.cells_read == len(t) + len(p.rejected)
    row = energy_analysis.runs(t.assign(source="s")).iloc[0]
    assert row["j_per_output_token"] == pytest.approx(25000.0 / 20000.0)


CSV = FIX / "nvda_ci_gpu_telemetry_h100_telemetry_section.csv"


def test_the_csv_section_gives_power_but_no_energy_from_a_counter_rounded_to_10_kj():
    p, parsed = _telemetry(CSV)
    assert list(parsed) == ["aiperf-telemetry"]
    t = p.table
    assert _value(t, "mean_power") == 348.69 and _value(t, "peak_power") == 386.02
    assert "energy" not in set(t["metric"])  # 0.25 - 0.23 MJ: not known to better than 0.01 MJ
    reasons = p.rejected.set_index("text")["reason"]
    assert "not known to better than 0.01 MJ" in reasons["localhost:9401/0 energy max: 0.25"]
    c = energy_claims.per_run(energy_analysis.runs(t.assign(source=CSV.name)).iloc[0], 0)
    assert c.status == "withheld" and "output rate" in c.reason


def test_a_csv_counter_printed_finely_enough_is_read():
    text = CSV.read_text(encoding="utf-8").replace(
        "Energy Consumption (MJ),0.24,0.23,0.25", "Energy Consumption (MJ),1.24,1.00,1.50"
    )
    t = aiperf_telemetry.parse(text, "x.csv").table
    assert _value(t, "energy") == pytest.approx(500000.0)  # 0.5 MJ, printed to 0.01 MJ (2%)


def test_a_stray_carriage_return_in_the_csv_section_is_refused_naming_its_line():
    """Found by the byte-flip fuzzer: a lone CR inside a row made `csv` raise its own error."""
    text = CSV.read_text(encoding="utf-8")
    lines = text.split("\n")
    h = next(i for i, ln in enumerate(lines) if ln.startswith("Endpoint,GPU_Index"))
    lines[h + 2] = lines[h + 2].replace(",", ",\r", 1)
    with pytest.raises(ingest.ParseError, match=rf"x\.csv:{h + 3}: not CSV"):
        aiperf_telemetry.parse("\n".join(lines), "x.csv")


HEADER_ONLY = (
    config.FIXTURES_DIR / "aiperf" / "inferencemax_rocm_kimik25_mxfp4_tp4_conc56_agentic_profile_export_aiperf.csv"
)


def test_a_csv_whose_telemetry_section_is_its_header_alone_is_read_as_serving_metrics_only():
    """A real export of a run that scraped no GPU: AIPerf still writes the telemetry header (CRLF
    lines, nothing after it). It was claimed here and refused, taking the serving sections with it."""
    text = ingest._load_lines(HEADER_ONLY)
    assert ingest.detect(text) == ["aiperf"]
    df = ingest.read(HEADER_ONLY)
    requests = df[(df["metric"] == "completed")]
    assert float(requests["value"].iloc[0]) == 72.0
    with_row = HEADER_ONLY.read_text(encoding="utf-8") + "localhost:9401,0,GPU,u,GPU Power Usage (W),300,290,310\r\n"
    assert ingest.detect(with_row) == ["aiperf", "aiperf-telemetry"]
