"""CodeCarbon's console logger: each block is a measurement of the energy since the tracker started, so
the last complete block is the run's; earlier blocks are running totals, a block cut before its sum is
not read, the CPU figure has no tracking mode to say what it covers, and RAM and the sum are estimates."""

from __future__ import annotations

import pytest

from benchbook import config, ingest
from benchbook.ingest import ParseError, codecarbon, energy

FIX = config.FIXTURES_DIR / "codecarbon"
LM_EVAL = FIX / "lm_eval_harness_pr36_gpt2_mlsum_es_codecarbon_console.md"
K8S = FIX / "codecarbon_issue523_kubernetes_console_three_blocks_excerpt.md"


def _block(t: str, ram: str, gpu: str, gpu_w: str, cpu: str, total: str, word: str = "beginning") -> str:
    return (
        f"[codecarbon INFO @ {t}] Energy consumed for RAM : {ram} kWh. RAM Power : 3.0 W\n"
        f"[codecarbon INFO @ {t}] Energy consumed for all GPUs : {gpu} kWh. Total GPU Power : {gpu_w} W\n"
        f"[codecarbon INFO @ {t}] Energy consumed for all CPUs : {cpu} kWh. Total CPU Power : 42.5 W\n"
        f"[codecarbon INFO @ {t}] {total} kWh of electricity used since the {word}.\n"
    )


def _parse(text):
    p = codecarbon.parse(text, "c.log")
    assert p.cells_read == len(p.table) + len(p.rejected)
    return p


def _gpu(p, metric):
    return p.table[(p.table["metric"] == metric) & (p.table["scope"] == "gpu")]["value"].tolist()


def test_the_last_block_is_the_runs_energy_and_earlier_blocks_are_running_totals():
    p = _parse(
        _block("10:00:00", "0.001", "0.010", "200.0", "0.002", "0.013")
        + _block("10:00:15", "0.002", "0.020", "210.0", "0.004", "0.026")
    )
    assert _gpu(p, "energy") == [pytest.approx(0.020 * energy.J_PER_KWH)] and _gpu(p, "power_reading") == [210.0]
    assert set(p.table["run"]) == {"10:00:15"} and set(p.table["line"]) == {6}
    earlier = p.rejected[p.rejected["line"] <= 4]
    assert len(earlier) == 7 and earlier["reason"].str.startswith("a running total").all()


def test_a_block_cut_before_its_sum_is_not_read():
    one = _block("10:00:00", "0.001", "0.010", "200.0", "0.002", "0.013")
    p = _parse(
        one + "[codecarbon INFO @ 10:00:15] Energy consumed for all GPUs : 0.020 kWh. Total GPU Power : 230.0 W\n"
    )
    assert _gpu(p, "energy") == [pytest.approx(0.010 * energy.J_PER_KWH)]
    assert (p.rejected["reason"] == codecarbon.CUT).sum() == 2


def test_the_cpu_ram_and_sum_are_set_aside_with_their_reasons_and_the_old_spelling_is_read():
    p = _parse(_block("10:00:00", "0.001", "0.010", "200.0", "0.002", "0.013", word="begining"))
    reasons = dict(zip(p.rejected["text"], p.rejected["reason"], strict=True))
    assert reasons["cpu 0.002 kWh"] == codecarbon.NO_MODE and reasons["ram 0.001 kWh"] == codecarbon.RAM_ESTIMATE
    assert reasons["total 0.013 kWh"] == codecarbon.TOTAL_ESTIMATE


def test_a_gpu_that_read_0_w_in_the_block_drew_no_0_w():
    p = _parse(_block("10:00:00", "0.001", "0.000", "0.0", "0.002", "0.003"))
    assert _gpu(p, "power_reading") == [] and _gpu(p, "energy") == []
    assert (p.rejected["reason"] == codecarbon.NO_SAMPLE).sum() == 2  # as the CSV's rule: not 0 J either
    sampled = _parse(_block("10:00:00", "0.001", "0.000", "5.0", "0.002", "0.003"))
    assert _gpu(sampled, "energy") == [0.0] and _gpu(sampled, "power_reading") == [5.0]


def test_the_metadata_names_the_device():
    meta = "[codecarbon INFO @ 09:59:59]   GPU count: 1\n[codecarbon INFO @ 09:59:59]   GPU model: 1 x NVIDIA GeForce RTX 3090\n"
    p = _parse(meta + _block("10:00:00", "0.001", "0.010", "200.0", "0.002", "0.013"))
    assert set(p.table["device"]) == {"NVIDIA GeForce RTX 3090"} and set(p.table["device_count"]) == {1}


@pytest.mark.parametrize("path", [LM_EVAL, K8S], ids=lambda p: p.name)
def test_the_real_consoles_keep_the_gpu_of_their_last_block(path):
    (p,) = ingest.read_parsed(path)
    assert p.tool == "codecarbon" and p.version == "CodeCarbon console log"
    assert p.cells_read == len(p.table) + len(p.rejected) and len(p.table) == 2
    expected = {LM_EVAL: (0.020817, 219.117), K8S: (0.003595, 217.86490979107558)}[path]
    assert _gpu(p, "energy") == [pytest.approx(expected[0] * energy.J_PER_KWH)]
    assert _gpu(p, "power_reading") == [pytest.approx(expected[1])]


def test_text_with_codecarbon_but_no_energy_line_is_not_a_console():
    assert not codecarbon.sniff("[codecarbon INFO @ 10:00:00] [setup] RAM Tracking...\n")
    with pytest.raises(ParseError):
        codecarbon.parse("[codecarbon INFO @ 10:00:00] [setup] RAM Tracking...\n", "c.log")


def test_no_other_tools_fixture_is_taken_for_a_codecarbon_console():
    others = [
        f
        for d in config.FIXTURES_DIR.iterdir()
        if d.is_dir() and d.name != "codecarbon"
        for f in d.rglob("*")
        if f.is_file() and f.name != "README.md" and not f.name.endswith(".truth.yml")
    ]
    assert [f.name for f in others if codecarbon.sniff(f.read_text(encoding="utf-8", errors="replace"))] == []
    assert ingest.detect(LM_EVAL.read_text(encoding="utf-8")) == ["codecarbon"]


def test_a_gpu_at_0_w_in_every_one_of_several_blocks_gave_no_reading_not_a_short_run():
    zero = _block("10:00:00", "0.001", "0.000000", "0.0", "0.002", "0.003") + _block(
        "10:00:15", "0.002", "0.000000", "0.0", "0.004", "0.006"
    )
    p = _parse(zero)
    assert _gpu(p, "energy") == [] and _gpu(p, "power_reading") == []
    last_gpu = p.rejected[p.rejected["line"] == 6]["reason"].tolist()
    assert last_gpu == [codecarbon.NO_READING.format(n=2)] * 2
    # a GPU that read 0 W in the only block took no sample in a run shorter than the interval
    one = _parse(_block("10:00:00", "0.001", "0.000000", "0.0", "0.002", "0.003"))
    assert set(one.rejected[one.rejected["line"] == 2]["reason"]) == {codecarbon.NO_SAMPLE}


def test_a_log_of_setup_lines_alone_is_refused_with_its_first_line():
    (line, why) = codecarbon.refuses(
        "What it tells me:\n```\n[codecarbon INFO @ 23:13:23] [setup] RAM Tracking...\n"
        "[codecarbon INFO @ 23:13:24] >>> Tracker's metadata:\n[codecarbon INFO @ 23:13:24]   CPU count: 4\n```\n"
    )
    assert line == 3 and "no `Energy consumed` line" in why
    assert codecarbon.refuses("[codecarbon INFO @ 1:00:00] 0.1 kWh of electricity used since the beginning.\n") is None
    # the real log (mlco2/codecarbon#286), kept beside the first read's other refused files
    unread = config.PROJ_ROOT / "benchmarks" / "first_read" / "unread" / "codecarbon"
    refused = unread / "codecarbon_issue286_cpu_only_rapl_i7_7600u_setup_metadata_console_excerpt.md"
    with pytest.raises(ParseError, match="no `Energy consumed` line"):
        ingest.read(refused)
