"""`genai-perf analyze`'s summary CSV (`analyze_export_genai_perf.csv`): each row of its perf table a run
config, its model from the config name (`gpt2_run_config_2`), its concurrency a setting, the swept settings
its workload, p99 latencies under GenAI-Perf's names and the average throughputs as values; the GPU-telemetry
table after it set aside. A profile export's CSV (`Metric,avg,...`) is not read this way."""

from __future__ import annotations

from benchbook import config, ingest
from benchbook.ingest import genai_perf

ANALYZE = (
    config.FIXTURES_DIR
    / "genai-perf"
    / "perf_analyzer_docs_analyze_export_genai_perf_gpt2_num_dataset_entries_sweep.csv"
)


def test_each_run_config_is_a_run_with_its_p99s_and_throughputs():
    p = ingest.read_parsed(ANALYZE)[0]
    t = p.table
    assert set(t["run"]) == {"gpt2_run_config_0", "gpt2_run_config_1", "gpt2_run_config_2"}
    assert set(t["model"]) == {"gpt2"} and set(t["max_concurrency"]) == {1.0}
    c0 = t[t["run"] == "gpt2_run_config_0"]
    got = {(m, s): v for m, s, v in c0[["metric", "statistic", "value"]].itertuples(index=False)}
    assert got[("ttft", "p99")] == 82.02 and got[("tpot", "p99")] == 7.53
    assert got[("output_throughput", "value")] == 145.93 and got[("request_throughput", "value")] == 1.30
    assert "Num Dataset Entries 100" in c0["dataset"].iloc[0]


def test_the_telemetry_table_is_set_aside():
    p = ingest.read_parsed(ANALYZE)[0]
    assert len(p.rejected) == 18 and p.rejected["reason"].str.startswith("GPU telemetry").all()
    assert p.cells_read == len(p.table) + len(p.rejected)


def test_a_profile_export_csv_is_no_analyze_export():
    assert not genai_perf.is_analyze_export("Metric,avg,min,max,p99,p95\nTime To First Token (ms),1,1,1,1,1\n")
    assert genai_perf.is_analyze_export(ANALYZE.read_text(encoding="utf-8"))
