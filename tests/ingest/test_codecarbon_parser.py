"""CodeCarbon emissions.csv in the energy contract: real files of three releases (2.2.3 on 8 V100s,
2.5.0 on a laptop, 3.2.3 with its reordered and added columns), energies read from kWh with their
scope and tracking mode, RAM said to be a model, and a GPU that read 0 W not kept as 0 J."""

from __future__ import annotations

import pytest

from benchbook import config, ingest
from benchbook.ingest import ParseError, codecarbon, energy

FIX = config.FIXTURES_DIR / "codecarbon"
V100 = FIX / "tensoic_mistral7b_8xv100_emissions.csv"
LAPTOP = FIX / "green_llm_rtx4080_laptop_emissions.csv"
M1 = FIX / "green_ml_bench_apple_m1_emissions.csv"


def _parsed(path):
    (p,) = ingest.read_parsed(path)
    assert p.tool == "codecarbon"
    assert p.cells_read == len(p.table) + len(p.rejected)
    return p


def _value(t, metric, scope):
    d = t[(t["metric"] == metric) & (t["scope"] == scope)] if scope else t[t["metric"] == metric]
    assert len(d) == 1, (metric, scope, len(d))
    return float(d["value"].iat[0]), d["note"].iat[0]


def test_eight_gpus_energy_in_joules_the_cpu_scope_named_the_ram_model_set_aside():
    p = _parsed(V100)
    t = p.table
    assert set(t["device"]) == {"Tesla V100-SXM2-32GB"} and set(t["device_count"]) == {8.0}
    gpu, _ = _value(t, "energy", "gpu")
    assert gpu == pytest.approx(1.346777811488636 * 3.6e6)
    cpu, _ = _value(t, "energy", "cpu-codecarbon")
    assert cpu == pytest.approx(0.33487497946560274 * 3.6e6)
    assert _value(t, "power_reading", "gpu")[0] == 494.632
    assert _value(t, "duration", None)[0] == pytest.approx(9308.583595275879)
    # RAM is a model of the memory size, and the total includes it: neither is a measurement
    assert not t["scope"].isin(["ram", "gpu+cpu+ram"]).any()
    reasons = set(p.rejected["reason"])
    assert {codecarbon.RAM_ESTIMATE, codecarbon.TOTAL_ESTIMATE} <= reasons
    assert energy.check(t, V100.name) is not None


def test_a_gpu_that_read_zero_watts_is_set_aside_not_kept_as_zero_joules():
    p = _parsed(LAPTOP)
    t = p.table
    assert not ((t["scope"] == "gpu") & t["metric"].isin(["energy", "power_reading"])).any()
    assert (p.rejected["reason"] == codecarbon.NO_SAMPLE).sum() == 2
    cpu, _ = _value(t, "energy", "cpu-codecarbon")
    assert cpu == pytest.approx(2.3831758234235977e-08 * 3.6e6)


def test_the_3x_columns_are_read_by_name_one_run_per_row():
    t = _parsed(M1).table
    assert t["run"].nunique() == 7
    gpu = t[(t["metric"] == "energy") & (t["scope"] == "gpu")].sort_values("line")
    assert gpu["value"].iat[-1] == pytest.approx(1.5234918733441896e-08 * 3.6e6)  # a GPU at 1.9 mW is kept
    assert set(t["device"]) == {"Apple M1"}


def _edited(tmp_path, **cells):
    lines = V100.read_text().splitlines()
    header = lines[0].split(",")
    row = lines[1].split(",")
    for k, v in cells.items():
        row[header.index(k)] = v
    p = tmp_path / "emissions.csv"
    p.write_text(lines[0] + "\n" + ",".join(row) + "\n")
    return p


def test_process_mode_names_the_cpu_figure_as_the_process_share(tmp_path):
    # from 3.0: 2.x's CPU has no tracking mode (test_codecarbon_process_mode_before_3_leaves_the_cpu_whole)
    t = _parsed(_edited(tmp_path, tracking_mode="process", codecarbon_version="3.0.0")).table
    assert _value(t, "energy", "cpu-codecarbon-process")[0] == pytest.approx(0.33487497946560274 * 3.6e6)
    assert _value(t, "energy", "gpu")[0] == pytest.approx(1.346777811488636 * 3.6e6)
    assert "cpu-codecarbon" not in set(t["scope"])
    t = _parsed(_edited(tmp_path, tracking_mode="process")).table  # the file's own 2.2.3
    assert _value(t, "energy", "cpu-codecarbon")[0] == pytest.approx(0.33487497946560274 * 3.6e6)


def test_an_unknown_tracking_mode_leaves_the_cpu_figure_unread(tmp_path):
    p = _parsed(_edited(tmp_path, tracking_mode="cluster"))
    assert not p.table["scope"].fillna("").str.startswith("cpu").any()
    assert any("what the CPU figure covers is unknown" in r for r in p.rejected["reason"])


def test_a_row_with_a_cell_too_many_is_refused_naming_its_line(tmp_path):
    p = tmp_path / "emissions.csv"
    lines = V100.read_text().splitlines()
    p.write_text(lines[0] + "\n" + lines[1] + ",1\n")
    with pytest.raises(ParseError) as err:
        ingest.read(p)
    assert err.value.line == 2


WINDOWS = FIX / "safe_sql_gtx1650ti_laptop_windows_v323_emissions.csv"


def test_a_cpu_figure_off_linux_is_never_called_rapl():
    """CodeCarbon reads RAPL on Linux only (`_try_platform_cpu_backend`): a row whose `os` names
    Windows or macOS gets the off-Linux scope; a Linux row (and a row with no `os`) keeps RAPL's."""
    win = _parsed(WINDOWS).table
    cpu = win[(win["metric"] == "energy") & win["scope"].str.startswith("cpu")]
    assert set(cpu["scope"]) == {"cpu-codecarbon-off-linux"} and len(cpu) == 6
    assert cpu.sort_values("line")["value"].iat[0] == pytest.approx(1.953802256474878e-06 * 3.6e6)
    assert "not RAPL" in energy.SCOPES["cpu-codecarbon-off-linux"]
    mac = _parsed(M1).table
    assert "cpu-codecarbon" not in set(mac["scope"]) and "cpu-codecarbon-off-linux" in set(mac["scope"])
    # the other way: Linux rows stay RAPL-or-TDP, and so does a synthetic row without an os column
    assert "cpu-codecarbon-off-linux" not in set(_parsed(V100).table["scope"])
    header = "duration,cpu_energy,gpu_energy,ram_energy,energy_consumed,cpu_power,gpu_power,ram_power,gpu_count,gpu_model,tracking_mode"
    row = "10.0,1e-06,2e-06,1e-07,3.1e-06,5.0,30.0,3.0,1,1 x NVIDIA A100,machine"
    synthetic = codecarbon.parse(f"{header}\n{row}\n", "synthetic_no_os.csv").table
    assert set(synthetic.loc[synthetic["metric"] == "energy", "scope"]) == {"gpu", "cpu-codecarbon"}


FIRST = FIX / "wanda_llama_pruning_denmark_old_schema_emissions.csv"
RECORD = FIX / "benchlab_llama31_8b_energy_star_generate_codecarbon.json"


def test_the_first_csv_schema_keeps_one_energy_per_run_in_its_own_scope():
    """CodeCarbon 1.x wrote `energy_consumed` alone (GPU found by pynvml + CPU, no RAM): kept in the
    `codecarbon-v1` scope, never as GPU only nor with RAM; its emissions set aside as an estimate."""
    p = _parsed(FIRST)
    t = p.table
    assert p.version.startswith("CodeCarbon 1.x")
    e = t[t["metric"] == "energy"].sort_values("line")
    assert len(e) == 103 and set(e["scope"]) == {"codecarbon-v1"}
    assert e["value"].iat[0] == pytest.approx(0.007354996397541191 * 3.6e6)
    assert _value(t[t["line"] == 2], "duration", None)[0] == pytest.approx(210.07687282562256)
    assert "no RAM" in energy.SCOPES["codecarbon-v1"]
    assert (p.rejected["text"].str.startswith("emissions ")).sum() == 103


def test_a_header_with_per_component_columns_is_not_read_as_the_first_schema():
    header = "timestamp,project_name,duration,emissions,energy_consumed,cpu_energy,gpu_energy,ram_energy"
    text = f"{header}\n2024-01-01T00:00:00,x,10.0,0.001,3e-06,1e-06,2e-06,0.0\n"
    assert not codecarbon.sniff(text)  # no tracking_mode: neither the 1.x nor the 2.x+ layout
    with pytest.raises(ParseError) as err:
        codecarbon.parse(text, "mixed.csv")
    assert err.value.line == 1 and "tracking_mode" in err.value.message


def test_the_json_record_reads_as_a_row_each_number_at_its_keys_line():
    p = _parsed(RECORD)
    t = p.table
    assert p.version == "CodeCarbon 3.0.1"
    assert set(t["device"]) == {"NVIDIA H100 80GB HBM3"} and set(t["device_count"]) == {1.0}
    gpu = t[(t["metric"] == "energy") & (t["scope"] == "gpu")]
    assert float(gpu["value"].iat[0]) == pytest.approx(0.1946275990352433 * 3.6e6) and int(gpu["line"].iat[0]) == 13
    assert _value(t, "power_reading", "gpu")[0] == pytest.approx(445.07476112602313)
    assert {codecarbon.RAM_ESTIMATE, codecarbon.TOTAL_ESTIMATE} <= set(p.rejected["reason"])
    assert not t["scope"].isin(["ram", "gpu+cpu+ram"]).any()


def test_a_json_record_cut_short_is_refused_naming_its_line(tmp_path):
    cut = tmp_path / "run_codecarbon.json"
    cut.write_text("\n".join(RECORD.read_text().splitlines()[:20]) + "\n")
    with pytest.raises(ParseError) as err:
        ingest.read(cut)
    assert err.value.line is not None and "not JSON" in err.value.message


def test_the_model_is_the_one_part_of_project_name_that_carries_a_size():
    """`project_name` is the tracker's free label: a `_` part like `Qwen-Qwen3-30B-A3B-Instruct-2507`
    names the model; the default `codecarbon`, a uuid, or two sized parts name none."""
    t = _parsed(FIX / "agent_green_runpod_h100_qwen3_30b_a3b_v307_emissions.csv").table
    assert set(t["model"]) == {"Qwen-Qwen3-30B-A3B-Instruct-2507"}
    assert _parsed(V100).table["model"].isna().all()  # project_name "codecarbon"
    assert codecarbon._model_in("llama-7b_vs_mistral-7b") is None


def test_a_row_without_a_gpu_power_still_keeps_its_energies_each_said_to_be_from_kwh(tmp_path):
    t = _parsed(_edited(tmp_path, gpu_power="")).table
    gpu, gpu_note = _value(t, "energy", "gpu")
    cpu, cpu_note = _value(t, "energy", "cpu-codecarbon")
    assert (gpu, cpu) == (pytest.approx(1.346777811488636 * 3.6e6), pytest.approx(0.33487497946560274 * 3.6e6))
    assert gpu_note == cpu_note == "printed in kWh; converted to J"
    assert "gpu" not in set(t.loc[t["metric"] == "power_reading", "scope"])
