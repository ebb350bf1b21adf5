"""The measured-energy parsers on their real fixtures: values read from the files by hand, units
converted, every numeric cell kept or set aside with its reason, the energy contract enforced."""

from __future__ import annotations

import pytest

from benchbook import config, ingest
from benchbook.ingest import energy, ml_energy

FIX = config.FIXTURES_DIR


def _one(path, tool):
    parsed = ingest.read_parsed(path)
    assert [p.tool for p in parsed] == [tool]
    p = parsed[0]
    assert p.cells_read == len(p.table) + len(p.rejected)
    return p


def _value(t, metric, **where):
    d = t[t["metric"] == metric]
    for k, v in where.items():
        d = d[d[k] == v]
    assert len(d) == 1, (metric, where, len(d))
    return float(d["value"].iloc[0])


def test_ml_energy_v1_csv_reads_energy_per_response_and_the_gpu_from_the_file_name():
    p = _one(FIX / "ml-energy" / "A100_chat_benchmark.csv", "ml-energy")
    t = p.table
    assert t.drop_duplicates(["run"]).shape[0] == 41
    vic = {"run": "lmsys/vicuna-7B bs1"}
    assert _value(t, "energy_per_request", **vic) == pytest.approx(1482.9090013431837)
    assert _value(t, "output_tokens_per_request", **vic) == pytest.approx(282.696440564137)
    assert _value(t, "e2el", **vic) == pytest.approx(9423.613122153345)  # printed in s
    assert set(t.loc[t["metric"] == "energy_per_request", "scope"]) == {"gpu"}
    assert set(t["device"]) == {"A100"} and any("file name" in m for m in p.messages)


def test_ml_energy_v2_json_has_energy_per_request_only():
    p = _one(FIX / "ml-energy" / "tgi_llama2_13b_rate1.00.json", "ml-energy")
    t = p.table
    assert _value(t, "energy_per_request") == pytest.approx(369.329182)
    assert set(t["device"]) == {"NVIDIA A100-SXM4-40GB"} and set(t["backend"]) == {"tgi"}
    assert not t["metric"].isin(["output_tokens", "output_tokens_per_request"]).any()


@pytest.mark.parametrize("name", ["benchmark_report.json", "benchmark.json"])
def test_optimum_benchmark_converts_kwh_and_keeps_each_scope(name):
    p = _one(FIX / "optimum-benchmark" / name, "optimum-benchmark")
    t = p.table
    decode = {"interval": "decode"}
    assert _value(t, "energy", scope="gpu", **decode) == pytest.approx(0.11994518651169983 * 3.6e6)
    assert _value(t, "energy", scope="gpu+cpu+ram", **decode) == pytest.approx(0.14152102857830748 * 3.6e6)
    tpj = _value(t, "tokens_per_joule", **decode)
    # the efficiency is the nominal volume over the total energy: 1000 samples x 999 tokens
    assert tpj * 0.14152102857830748 * 3.6e6 == pytest.approx(999_000, rel=1e-9)
    assert set(t["interval"]) == {"load_dataset", "preprocess_dataset", "load_model", "prefill", "decode"}


def test_optimum_benchmark_json_names_model_device_and_batch():
    t = _one(FIX / "optimum-benchmark" / "benchmark.json", "optimum-benchmark").table
    assert set(t["model"]) == {"meta-llama/Llama-3.1-8B-Instruct"}
    assert set(t["device"]) == {"NVIDIA H100 80GB HBM3"}
    assert set(t["batch_size"]) == {1.0}


def test_inference_energy_console_report_reads_eleven_runs_and_sets_estimates_aside():
    p = _one(FIX / "inference-energy" / "results_paste.md", "inference-energy")
    t = p.table
    assert t["run"].nunique() == 11
    run = {"run": "Qwen2.5-7B-Instruct on NVIDIA GeForce RTX 3090 - 24GB"}  # its heading follows the banner
    assert _value(t, "energy", **run) == pytest.approx(212502.43)
    assert _value(t, "output_tokens", **run) == 117483  # thousands separator
    assert _value(t, "energy_active", **run) == pytest.approx(199216.78)
    assert _value(t, "idle_power", **run) == pytest.approx(21.09)
    reasons = " ".join(p.rejected["reason"].astype(str))
    assert "estimate" in reasons and "command line" in reasons
    assert not t["metric"].str.contains("bandwidth").any()


def test_inference_energy_summary_json_matches_its_console_fields():
    p = _one(FIX / "inference-energy" / "summary.json", "inference-energy")
    t = p.table
    assert _value(t, "energy") == pytest.approx(212340.9954298465)
    assert _value(t, "output_tokens") == 118615
    assert _value(t, "e2el") == pytest.approx(4088.679966269707)
    assert t["model"].isna().all() and t["device"].isna().all()


def test_the_contract_refuses_an_energy_row_without_scope():
    import pandas as pd

    bad = pd.DataFrame(
        {
            "metric": ["energy"],
            "unit": ["J"],
            "scope": [None],
            "interval": ["run"],
        }
    )
    with pytest.raises(ingest.ParseError, match="energy contract"):
        energy.check(bad, "x.json")


def test_every_energy_tool_is_listed_by_ingest():
    listed = "\n".join(ingest.formats())
    for tool in energy.TOOLS:
        assert tool in listed


def test_the_power_chapter_reads_every_energy_tool():
    from benchbook import declarations

    assert set(energy.TOOLS) <= set(declarations.chapter("perf_per_watt").tools)


def test_a_broken_ml_energy_csv_is_refused_with_its_line():
    """A lone carriage return inside a field (csv's own error) is one ParseError naming the line."""
    text = (config.FIXTURES_DIR / "ml-energy" / "A100_chat_benchmark.csv").read_bytes().decode("utf-8")
    with pytest.raises(ingest.ParseError, match=r"x\.csv:4: not CSV"):
        ml_energy.parse(text[:300] + "\r" + text[301:], "x.csv")


def test_inference_energy_console_session_is_read_past_its_echoed_summary_json():
    """A console session (commands, progress, the summary.json `analyze` echoes, then the report) is the console
    format: the echo and the progress are set aside with their reasons, three reports read, none merged."""
    p = _one(FIX / "inference-energy" / "scratch_console_qwen25_3b_7b.txt", "inference-energy")
    t = p.table
    assert t["run"].nunique() == 3
    assert _value(t, "energy", run="logs") == pytest.approx(106465.76)
    assert _value(t, "output_tokens", run="logs") == 121826  # the first version's "Completion tokens"
    assert _value(t, "energy", run="logs (logs) #2") == pytest.approx(212341.00)
    reasons = p.rejected["reason"].astype(str)
    assert reasons.str.contains("echoes").sum() == 42 and reasons.str.contains("progress output").any()
    # version 1's J/token is active energy / tokens: set aside, not read as D1's total energy / tokens
    assert "energy_per_output_token" not in set(t.loc[t["run"] == "logs", "metric"])


def test_inference_energy_first_version_summary_keys_are_read_and_its_active_per_token_set_aside():
    p = _one(FIX / "inference-energy" / "summary_v1_keys.json", "inference-energy")
    t = p.table
    assert _value(t, "energy") == pytest.approx(106465.76072604148)
    assert _value(t, "energy_active") == pytest.approx(99967.076284035)
    assert _value(t, "output_tokens") == 121826 and _value(t, "duration") == pytest.approx(329.99701380729675)
    assert list(p.rejected["reason"]) == [
        "the first version's active energy / completion tokens, from the figures kept"
    ]


def test_inference_energy_json_only_when_the_file_is_a_json_document():
    from benchbook.ingest import inference_energy as ie

    report = "Results saved to: logs/\n\nKey metrics:\n  Total energy:   10.0 J\n  Completion tokens:  5\n"
    echoed = '{\n  "M1_total_energy_J": 10.0\n}\n' + report
    assert ie.parse(echoed, "s.txt").table["metric"].tolist() == ["energy", "output_tokens"]
    assert ie.parse('{\n  "M1_total_energy_J": 10.0\n}', "s.json").table["metric"].tolist() == ["energy"]
    progress_only = "Idle power: 19.69 W\n"
    with pytest.raises(ingest.ParseError, match="no measurement"):
        ie.parse(progress_only + "Key metrics:\n", "p.txt")


def _optimum(energy_flag: str) -> str:
    return (
        '{\n  "config": {\n    "scenario": {\n      "name": "inference",\n      "energy": '
        + energy_flag
        + '\n    },\n    "environment": {\n      "optimum_benchmark_version": "0.6.0.dev0"\n    }\n  },\n'
        '  "report": {\n    "decode": {\n      "memory": null,\n      "latency": null,\n      "throughput": null,\n'
        '      "energy": null,\n      "efficiency": null\n    }\n  }\n}'
    )


def test_optimum_benchmark_run_without_energy_tracking_is_refused_saying_so_at_its_line():
    """An inference-scenario report (energy: false) is optimum-benchmark output that measured no energy: one
    sentence naming the setting's line, not 'no known tool output'; a run that tracked energy but holds
    none keeps the general sentence."""
    from benchbook.ingest import optimum_benchmark as ob

    assert ob.sniff(_optimum("false"))
    with pytest.raises(
        ingest.ParseError, match=r"x\.json:5: an optimum-benchmark inference run with energy tracking off"
    ):
        ob.parse(_optimum("false"), "x.json")
    with pytest.raises(ingest.ParseError, match="no benchmark phase with an 'energy' report"):
        ob.parse(_optimum("true"), "x.json")


def test_inference_energy_s_energy_is_listed_as_the_gpu_s_not_unscoped():
    """inference-energy's `M1 Total energy` is NVML's energy of the one GPU it logs: the list of what the
    file states gives it that scope (the tool's reading of its line stands for the context reader's,
    which finds no scope word on it); its energy per token is no energy reading at all."""
    from benchbook.ingest import context_of

    path = config.FIXTURES_DIR / "inference-energy" / "results_paste_9b23fd7_dgx4_gpt_oss_20b_power_on_idle_gpu.md"
    energy = {f.line: f for f in context_of(path).get("energy")}
    assert (energy[14].value, energy[14].unit, energy[14].scope, energy[14].source) == (
        38877.71,
        "J",
        "GPU only",
        "parser",
    )
    assert [f.line for f in context_of(path).get("energy")].count(14) == 1
    assert 28 not in energy  # `D1 Energy per token: 0.0764 J/token` is a ratio, not an energy the run used
