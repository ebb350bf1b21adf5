"""LoadGen's Offline scenario sends one query holding every sample and writes the summary once all have
completed; it prints `Samples per second` as `sample_count / pr.max_latency` (mlcommons/inference,
loadgen/results.cc). Where the Test Parameters' `samples_per_query` over the max latency gives that rate,
that count is the requests completed; where it does not (LoadGen 4+ may print a count other than the query
held: "Check the generated_samples_per_query line in the detailed log"), no count is stated."""

from __future__ import annotations

from conftest import cell

from benchbook import config, ingest

FIX = config.FIXTURES_DIR / "mlperf-loadgen"
M4000 = FIX / "jamesjellow_quadro_m4000_bert99_onnxruntime_cu117_offline_summary.txt"
B200 = FIX / "nvidia_b200x1_llama2_70b_offline_summary.txt"


def test_an_offline_querys_samples_are_its_completed_requests():
    c = cell(ingest.read_parsed(M4000)[0].table, "completed", "value")
    assert (c["value"], c["line"]) == (10833, 29)
    assert M4000.read_text().splitlines()[28] == "samples_per_query : 10833"
    # 10833 samples / 1755.66 s (the max latency) = 6.17034 samples per second, the printed rate


def test_a_count_the_rate_does_not_meet_is_not_stated_as_the_setting():
    # 100320 / 2989.24 s = 33.6, not the printed 41.1075: LoadGen ran another count than it printed, the
    # next whole number of copies of the 24,576 samples loaded (5 x 24,576 = 122,880; 122,880 / 2989.24 s =
    # 41.1075), which is stated instead (sample_concatenate_permutation)
    t = ingest.read_parsed(B200)[0].table
    assert t.loc[t["metric"] == "completed", "value"].tolist() == [122880.0]


def test_an_edited_count_states_none(tmp_path):
    f = tmp_path / "mlperf_log_summary.txt"
    f.write_text(M4000.read_text().replace("samples_per_query : 10833", "samples_per_query : 12000"))
    assert not (ingest.read_parsed(f)[0].table["metric"] == "completed").any()


def test_a_server_summary_is_not_read_so(tmp_path):
    f = tmp_path / "mlperf_log_summary.txt"
    f.write_text(M4000.read_text().replace("Scenario : Offline", "Scenario : Server"))
    assert not (ingest.read_parsed(f)[0].table["metric"] == "completed").any()
