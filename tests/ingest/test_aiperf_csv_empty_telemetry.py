"""An AIPerf CSV whose GPU telemetry section is its header alone (AIPerf writes the header once
telemetry is set up and a row per GPU only for the DCGM endpoints that answered): the serving
sections are read, the empty section is named with its line, and no telemetry tool claims the file.
Built from the real `example_run1` CSV with the exporter's two blank rows and header appended."""

from __future__ import annotations

import pytest

from benchbook import config, ingest
from benchbook.ingest import ParseError, aiperf

RUN1 = config.FIXTURES_DIR / "aiperf" / "example_run1_profile_export_aiperf.csv"
HEADER = "Endpoint,GPU_Index,GPU_Name,GPU_UUID,Metric,avg,min,max,p1,p5,p10,p25,p50,p75,p90,p95,p99,std"
ROW = "localhost:9401,0,NVIDIA H100 80GB HBM3,GPU-afc3c15a,GPU Power Usage (W),348.69,120.57,386.02,,,,,,,,,,85.97"


def _with_section(tmp_path, rows: list[str]):
    text = RUN1.read_bytes().decode()
    p = tmp_path / "profile_export_aiperf.csv"
    p.write_text(text + "\r\n\r\n" + "\r\n".join([HEADER, *rows]) + "\r\n", newline="")
    return p, text.count("\n") + 3  # the header's line: after the file's lines and two blank rows


def test_an_empty_telemetry_section_leaves_the_serving_sections_read_and_is_named(tmp_path):
    path, line = _with_section(tmp_path, [])
    assert ingest.detect(ingest._load_lines(path)) == ["aiperf"]
    df = ingest.read(path)
    plain = ingest.read(RUN1)
    assert len(df) == len(plain)  # every serving number of the file, as without the section
    assert f"{path.name}:{line}: {aiperf.EMPTY_TELEMETRY}" in df.attrs["messages"]


def test_a_telemetry_section_with_a_row_is_read_as_telemetry(tmp_path):
    path, _ = _with_section(tmp_path, [ROW])
    assert ingest.detect(ingest._load_lines(path)) == ["aiperf", "aiperf-telemetry"]
    df = ingest.read(path)
    assert not any(aiperf.EMPTY_TELEMETRY in m for m in df.attrs["messages"])
    power = df[(df["tool"] == "aiperf-telemetry") & (df["metric"] == "mean_power")]
    assert power["value"].tolist() == [pytest.approx(348.69)]


def test_the_telemetry_parser_named_on_an_empty_section_refuses_it_naming_the_line(tmp_path):
    path, line = _with_section(tmp_path, [])
    with pytest.raises(ParseError) as err:
        ingest.read(path, tool="aiperf-telemetry")
    assert (err.value.line, err.value.message) == (line, aiperf.EMPTY_TELEMETRY)
