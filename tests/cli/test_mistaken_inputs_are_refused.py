"""Inputs a new user gives by mistake, and places the command cannot write: each is refused with
exit code 2 and one line that names the file (or the parameter), never a traceback, never a
half-written output, and never after a kernel has started (papermill is replaced by a tripwire)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benchbook import config, executor
from benchbook.cli import app

runner = CliRunner()
QUANT = config.seed("002")  # sglang quantization report
TGI = config.seed("001")  # TGI benchmark (small)
A300, A600 = (config.FIXTURES_DIR / "compare" / f"llama2_7b_{w}w.md" for w in (300, 600))  # a small pair
ROOT = os.geteuid() == 0


@pytest.fixture(autouse=True)
def no_kernel(monkeypatch):
    """A refused case must never reach papermill."""

    def tripwire(*args, **kwargs):
        raise AssertionError("a kernel was started for a case that should have been refused")

    monkeypatch.setattr(executor, "execute", tripwire)


@pytest.fixture(scope="module")
def bad(tmp_path_factory) -> dict[str, Path]:
    """Hostile files and folders, made once: a folder, a FIFO, a socket, links, binary and empty files."""
    d = tmp_path_factory.mktemp("hostile")
    (d / "folder").mkdir()
    (d / "folder.csv").mkdir()
    (d / "folder.html").mkdir()
    os.mkfifo(d / "pipe.txt")
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(d / "sock.txt"))
    sock.close()
    (d / "empty.txt").write_bytes(b"")
    (d / "binary.txt").write_bytes(bytes(range(256)) * 4)
    (d / "prose.txt").write_text("Just some notes about a benchmark, no tables.\n", encoding="utf-8")
    (d / "plain_file").write_text("I am a file, not a folder\n", encoding="utf-8")
    (d / "to_folder.txt").symlink_to(d / "folder")
    (d / "dangling.txt").symlink_to(d / "nowhere.txt")
    (d / "loop_a.txt").symlink_to(d / "loop_b.txt")
    (d / "loop_b.txt").symlink_to(d / "loop_a.txt")
    (d / "power_wrong_columns.csv").write_text("limit,watts\n300,250\n", encoding="utf-8")
    (d / "power_text.csv").write_text("power_limit_w,power_w\n300,lots\n", encoding="utf-8")
    (d / "power_header_only.csv").write_text("power_limit_w,power_w\n", encoding="utf-8")
    (d / "power_binary.csv").write_bytes(b"power_limit_w,power_w\n\x00\x01\x02\xff\xfe\n")
    (d / "power_latin1.csv").write_bytes("power_limit_w,power_w,note\n300,250,\xe9t\xe9\n".encode("latin-1"))
    (d / "power_inf.csv").write_text("power_limit_w,power_w\n300,inf\n", encoding="utf-8")
    return d


def refused(res_or_stderr, needle: str, code: int = 2) -> str:
    """Assert a one-line refusal naming `needle`; return that line."""
    if isinstance(res_or_stderr, str):
        stderr = res_or_stderr
    else:
        assert res_or_stderr.exit_code == code, (res_or_stderr.exit_code, res_or_stderr.output)
        assert res_or_stderr.exception is None or isinstance(res_or_stderr.exception, SystemExit), repr(
            res_or_stderr.exception
        )
        stderr = res_or_stderr.stderr
    assert "Traceback" not in stderr
    lines = [line for line in stderr.splitlines() if line.strip() and not line.startswith("note: ")]
    assert len(lines) == 1, stderr
    assert lines[0].startswith("error: ") and needle in lines[0], lines[0]
    return lines[0]


def nothing_in(folder: Path, before: set[str] = frozenset()) -> None:
    """No new entry in `folder` (none at all if it did not exist)."""
    if folder.exists():
        assert {p.name for p in folder.iterdir()} <= set(before), sorted(p.name for p in folder.iterdir())


@pytest.fixture
def immutable(tmp_path):
    """Make a file or folder unwritable even for root (chattr +i); skips where that cannot be done."""
    made = []

    def make(path: Path) -> Path:
        if shutil.which("chattr") and subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode == 0:
            made.append(path)
            return path
        if not ROOT:
            path.chmod(0o555 if path.is_dir() else 0o444)
            return path
        pytest.skip("running as root on a file system without chattr +i: nothing can be made unwritable")

    yield make
    for path in made:
        subprocess.run(["chattr", "-i", str(path)], check=True)


# --------------------------------------------------------------------------------------------
# benchbook ingest: sources
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, said",
    [
        ("folder", "is a folder"),
        ("pipe.txt", "not a regular file"),
        ("sock.txt", "not a regular file"),
        ("to_folder.txt", "is a folder"),
        ("dangling.txt", "no such file"),
        ("loop_a.txt", "loop_a.txt"),
        ("missing.txt", "no such file"),
        ("empty.txt", "no known tool"),
        ("binary.txt", "not UTF-8"),
        ("prose.txt", "no known tool"),
    ],
)
def test_ingest_refuses_a_source_it_cannot_read(bad, name, said, tmp_path):
    out = tmp_path / "out.csv"
    res = runner.invoke(app, ["ingest", str(bad / name), "-o", str(out)])
    if said == "no known tool":  # one sentence, then the formats it does read, one line per tool
        from benchbook import ingest

        first, *listed = [line for line in res.stderr.splitlines() if line.strip()]
        refused(first, name)
        assert res.exit_code == 2 and [line.split(" — ")[0].strip() for line in listed] == list(ingest.tools())
    else:
        refused(res, name)
    assert said in res.stderr
    assert not out.exists()


def test_ingest_refuses_a_character_device():
    refused(runner.invoke(app, ["ingest", "/dev/null"]), "/dev/null")


@pytest.mark.skipif(not Path("/proc/self/mem").exists(), reason="needs Linux /proc")
def test_ingest_refuses_a_file_whose_reading_fails():
    """/proc/self/mem is a regular file whose first read is an I/O error, even for root."""
    res = runner.invoke(app, ["ingest", "/proc/self/mem"])
    assert "Input/output error" in refused(res, "/proc/self/mem")


def test_ingest_refuses_a_name_too_long(tmp_path):
    name = "x" * 300 + ".txt"
    refused(runner.invoke(app, ["ingest", str(tmp_path / name)]), "xxxx")


@pytest.mark.skipif(ROOT, reason="root reads a file whatever its mode; the I/O-error case above stands in")
def test_ingest_refuses_a_file_without_read_permission(tmp_path):
    f = tmp_path / "secret.txt"
    shutil.copy(TGI, f)
    f.chmod(0)
    assert "permission denied" in refused(runner.invoke(app, ["ingest", str(f)]), "secret.txt")


def test_ingest_refuses_an_unknown_tool():
    refused(runner.invoke(app, ["ingest", str(TGI), "--tool", "nosuch"]), "nosuch")


def test_ingest_without_a_path():
    refused(runner.invoke(app, ["ingest"]), "PATH")


# --------------------------------------------------------------------------------------------
# benchbook ingest: outputs
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "out, said",
    [
        ("folder.csv", "is a folder"),
        ("plain_file/out.csv", "not a folder"),
        ("plain_file/deeper/out.csv", "not a folder"),
        ("table.txt", "use a .csv or .parquet"),
        ("folder", "use a .csv or .parquet"),
        ("pipe.txt", "use a .csv or .parquet"),
    ],
)
def test_ingest_refuses_an_output_it_cannot_write(bad, out, said):
    before = {p.name for p in bad.iterdir()}
    res = runner.invoke(app, ["ingest", str(TGI), "-o", str(bad / out)])
    assert said in refused(res, out.split("/")[0])
    nothing_in(bad, before)


def test_ingest_refuses_an_output_over_a_fifo(bad):
    fifo = bad / "pipe_out.csv"
    if not fifo.exists():
        os.mkfifo(fifo)
    res = runner.invoke(app, ["ingest", str(TGI), "-o", str(fifo)])
    assert "not a regular file" in refused(res, "pipe_out.csv")


def test_ingest_refuses_an_output_in_a_folder_it_cannot_write(tmp_path, immutable):
    locked = tmp_path / "locked"
    locked.mkdir()
    immutable(locked)
    res = runner.invoke(app, ["ingest", str(TGI), "-o", str(locked / "out.csv")])
    assert "not writable" in refused(res, "out.csv")
    assert not list(locked.iterdir())


def test_ingest_refuses_to_overwrite_a_file_it_cannot_write(tmp_path, immutable):
    target = tmp_path / "kept.csv"
    target.write_text("old\n", encoding="utf-8")
    immutable(target)
    res = runner.invoke(app, ["ingest", str(TGI), "-o", str(target)])
    assert "cannot be written" in refused(res, "kept.csv")
    assert target.read_text(encoding="utf-8") == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept.csv"]


def test_ingest_creates_missing_folders_of_its_output(tmp_path):
    """The counterpart: a writable place that does not exist yet is made, and the table lands whole."""
    out = tmp_path / "a" / "b" / "out.csv"
    res = runner.invoke(app, ["ingest", str(TGI), "-o", str(out)])
    assert res.exit_code == 0, res.output
    assert out.read_text(encoding="utf-8").startswith("tool,source,line")
    assert [p.name for p in out.parent.iterdir()] == ["out.csv"]


def _run_cli(*args: str, **kwargs) -> subprocess.CompletedProcess:
    exe = Path(sys.executable).with_name("benchbook")
    return subprocess.run([str(exe), *args], capture_output=True, text=True, timeout=60, **kwargs)


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_ingest_to_a_full_standard_output():
    with open("/dev/full", "w") as full:
        proc = subprocess.run(
            [str(Path(sys.executable).with_name("benchbook")), "ingest", str(TGI)],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
        )
    assert proc.returncode == 2
    summary, error = proc.stderr.strip().splitlines()[-2:]
    assert "rows kept" in summary  # the table was read whole; only its writing failed
    assert "No space left" in refused(error, "standard output")


@pytest.fixture
def full_disk(tmp_path):
    """A 16 KiB file system (tmpfs), too small for any table; skips where mounting is not allowed."""
    mnt = tmp_path / "small"
    mnt.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16k", "tmpfs", str(mnt)], capture_output=True).returncode:
        pytest.skip("cannot mount a small tmpfs here (not root, or no mount permission)")
    try:
        yield mnt
    finally:
        subprocess.run(["umount", str(mnt)], check=True)


def test_ingest_onto_a_full_disk_leaves_nothing(full_disk):
    res = runner.invoke(app, ["ingest", str(TGI), "-o", str(full_disk / "out.csv")])
    assert res.exit_code == 2 and "rows kept" in res.stderr  # the table was read whole; only its writing failed
    assert "No space left" in refused(res.stderr.split("rows kept", 1)[1].split("\n", 1)[1], "out.csv")
    assert not list(full_disk.iterdir())


def test_report_onto_a_full_disk_leaves_nothing(full_disk):
    res = runner.invoke(app, ["compare", "-s", str(A300), "-s", str(A600), "-o", str(full_disk / "r.html")])
    assert "No space left" in refused(res, "r.html")
    assert not list(full_disk.iterdir())


# --------------------------------------------------------------------------------------------
# benchbook run: parameters, refused before any kernel starts
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "chapter, name, value, said",
    [
        ("quantization_regimes", "alpha", "1.5", "in (0, 1)"),
        ("quantization_regimes", "alpha", "0", "in (0, 1)"),
        ("quantization_regimes", "alpha", "1", "in (0, 1)"),
        ("quantization_regimes", "alpha", "-0.05", "in (0, 1)"),
        ("quantization_regimes", "alpha", "nan", "in (0, 1)"),
        ("quantization_regimes", "alpha", "True", "should be float"),
        ("quantization_regimes", "baseline", "fp64", "no scheme 'fp64'"),
        ("quantization_regimes", "outlier_rule", "cv<2", "'cv>X' or 'mad>X'"),
        ("quantization_regimes", "outlier_rule", "cv>0", "'cv>X' or 'mad>X'"),
        ("quantization_regimes", "outlier_rule", "sometimes", "'cv>X' or 'mad>X'"),
        ("quantization_regimes", "gpu", "H900", "'H900'"),
        ("quantization_regimes", "peak_tflops", "-1", "at least 0"),
        ("quantization_regimes", "bound_threshold", "1.5", "in (0, 1]"),
        ("quantization_regimes", "model_id", "mystery-model", "mystery-model"),
        ("batch_saturation", "knee_fraction", "2", "in (0, 1]"),
        ("batch_saturation", "knee_fraction", "0", "in (0, 1]"),
        ("perf_per_watt", "peak_fraction", "1.01", "in (0, 1]"),
        ("perf_per_watt", "quote_limit_w", "-400", "above 0"),
        ("perf_per_watt", "gpu", "RTX-9090", "'RTX-9090'"),
        ("perf_per_watt", "model", "llama 900B", "no model 'llama 900B'"),
        ("serving_saturation", "slo_ttft_ms", "-5", "above 0"),
        ("serving_saturation", "slo_tpot_ms", "0", "above 0"),
        ("serving_saturation", "knee_threshold", "0", "above 0"),
        ("serving_saturation", "sweep", "batch_size", "'max_concurrency' or 'request_rate'"),
        ("tp_scaling", "tp_unknown", "0", "at least 1"),
        ("tp_scaling", "params_b", "-7", "at least 0"),
        ("tp_scaling", "bytes_per_param", "0", "above 0"),
        ("tp_scaling", "kv_bytes_per_token", "-1", "at least 0"),
        ("tp_scaling", "jump_threshold", "0", "above 0"),
        ("tp_scaling", "slowdown_tolerance", "1.5", "in [0, 1)"),
        ("tp_scaling", "gpu", "V100", "'V100'"),
        ("tp_scaling", "gpu", "  ", "device name"),
        ("attention_kernels", "peak_bandwidth_gb_s", "-8000", "at least 0"),
        ("bandwidth_roofline", "moe_active_params", "3", "should be dict"),
    ],
)
def test_run_refuses_a_wrong_value_before_any_kernel(tmp_path, chapter, name, value, said):
    out = tmp_path / "out"
    res = runner.invoke(app, ["run", chapter, "-p", name, value, "-o", str(out), "-q"])
    assert said in refused(res, name)
    assert not out.exists()


@pytest.mark.parametrize(
    "chapter, yaml_text, name, said",
    [
        ("quantization_regimes", "{metric_by_regime: {interactive: speed}}", "metric_by_regime", "'speed'"),
        ("quantization_regimes", "{metric_by_regime: [latency]}", "metric_by_regime", "should be dict"),
        ("bandwidth_roofline", "{moe_active_params: {qwen3moe: -3}}", "moe_active_params", "above 0"),
        ("bandwidth_roofline", "{moe_active_params: {qwen3moe: fast}}", "moe_active_params", "above 0"),
        ("serving_saturation", "{slo_ttft_ms: .inf}", "slo_ttft_ms", "above 0"),
    ],
)
def test_run_refuses_a_wrong_yaml_value(tmp_path, chapter, yaml_text, name, said):
    out = tmp_path / "out"
    res = runner.invoke(app, ["run", chapter, "-y", yaml_text, "-o", str(out), "-q"])
    assert said in refused(res, name)
    assert not out.exists()


@pytest.mark.parametrize(
    "file, said",
    [
        ("power_wrong_columns.csv", "missing power_limit_w, power_w"),
        ("power_text.csv", "line 2: power_w is 'lots'"),
        ("power_inf.csv", "not a finite number"),
        ("power_header_only.csv", "no rows"),
        ("power_binary.csv", "power_binary.csv"),
        ("power_latin1.csv", "not UTF-8"),
        ("folder", "is a folder"),
        ("pipe.txt", "not a regular file"),
        ("missing.csv", "does not exist"),
    ],
)
def test_run_refuses_a_measured_power_file_it_cannot_use(bad, tmp_path, file, said):
    out = tmp_path / "out"
    res = runner.invoke(app, ["run", "perf_per_watt", "-p", "measured_power", str(bad / file), "-o", str(out), "-q"])
    line = refused(res, "measured_power")
    assert said in line and file in line
    assert not out.exists()


@pytest.mark.parametrize(
    "source, said",
    [
        ("folder", "is a folder"),
        ("pipe.txt", "not a regular file"),
        ("sock.txt", "not a regular file"),
        ("to_folder.txt", "is a folder"),
        ("missing.txt", "does not exist"),
        ("binary.txt", "not UTF-8"),
        ("empty.txt", "no known tool"),
    ],
)
def test_run_refuses_a_source_it_cannot_read(bad, tmp_path, source, said):
    out = tmp_path / "out"
    res = runner.invoke(app, ["run", "quantization_regimes", "-s", str(bad / source), "-o", str(out), "-q"])
    line = refused(res, "source")
    assert said in line and source in line
    assert not out.exists()


def test_run_refuses_a_source_of_another_tool(tmp_path):
    out = tmp_path / "out"
    res = runner.invoke(app, ["run", "quantization_regimes", "-s", str(TGI), "-o", str(out), "-q"])
    assert "sglang-quant-report" in refused(res, TGI.name)
    assert not out.exists()


@pytest.mark.parametrize("csv_out, said", [("folder", "is a folder"), ("plain_file/audit.csv", "is not a folder")])
def test_run_refuses_a_csv_out_it_cannot_write(bad, tmp_path, csv_out, said):
    out = tmp_path / "out"
    res = runner.invoke(app, ["run", "data_audit", "-p", "csv_out", str(bad / csv_out), "-o", str(out), "-q"])
    assert said in refused(res, "csv_out")
    assert not out.exists()


@pytest.mark.parametrize(
    "out, said", [("plain_file", "not a folder"), ("plain_file/run", "not a folder"), ("pipe.txt", "not a folder")]
)
def test_run_refuses_an_output_folder_it_cannot_use(bad, out, said):
    before = {p.name for p in bad.iterdir()}
    res = runner.invoke(app, ["run", "batch_saturation", "-o", str(bad / out), "-q"])
    assert said in refused(res, out)
    nothing_in(bad, before)


def test_run_refuses_an_output_folder_it_cannot_write(tmp_path, immutable):
    locked = tmp_path / "locked"
    locked.mkdir()
    immutable(locked)
    res = runner.invoke(app, ["run", "batch_saturation", "-o", str(locked / "run"), "-q"])
    assert "not writable" in refused(res, "locked")
    assert not list(locked.iterdir())


@pytest.mark.parametrize("chapter", ["../notebooks/tp_scaling", "tp_scaling.md", "nosuch"])
def test_run_refuses_a_chapter_that_is_not_one(tmp_path, chapter):
    res = runner.invoke(app, ["run", chapter, "-o", str(tmp_path / "out"), "-q"])
    assert "no chapter called" in refused(res, chapter)


# --------------------------------------------------------------------------------------------
# benchbook compare (once aliased as report)
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, said",
    [
        ("folder", "is a folder"),
        ("pipe.txt", "not a regular file"),
        ("missing.txt", "no such file"),
        ("binary.txt", "not UTF-8"),
        ("empty.txt", "no known tool"),
    ],
)
def test_report_refuses_a_source_it_cannot_read(bad, tmp_path, name, said):
    out = tmp_path / "rep.html"
    res = runner.invoke(app, ["compare", "-s", str(bad / name), "-s", str(QUANT), "-o", str(out)])
    assert said in refused(res, name)
    assert not list(tmp_path.iterdir())


def test_report_refuses_a_character_device(tmp_path):
    res = runner.invoke(app, ["compare", "-s", str(QUANT), "-s", "/dev/null", "-o", str(tmp_path / "r.html")])
    refused(res, "/dev/null")
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize(
    "out, said",
    [("folder.html", "is a folder"), ("plain_file", "not a folder"), ("plain_file/r.html", "not a folder")],
)
def test_report_refuses_an_output_it_cannot_write(bad, out, said):
    before = {p.name for p in bad.iterdir()}
    res = runner.invoke(app, ["compare", "-s", str(QUANT), "-s", str(QUANT), "-o", str(bad / out)])
    assert said in refused(res, out.split("/")[0])
    nothing_in(bad, before)


def test_report_refuses_a_folder_it_cannot_write(tmp_path, immutable):
    locked = tmp_path / "locked"
    locked.mkdir()
    immutable(locked)
    res = runner.invoke(app, ["compare", "-s", str(QUANT), "-s", str(QUANT), "-o", str(locked)])
    assert "not writable" in refused(res, "locked")
    assert not list(locked.iterdir())


def test_report_refuses_runs_of_different_tools(tmp_path):
    res = runner.invoke(app, ["compare", "-s", str(QUANT), "-s", str(TGI), "-o", str(tmp_path / "r.html")])
    refused(res, "")
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize(
    "args, said",
    [
        (["-s", str(QUANT)], "at least two"),
        (["-s", str(QUANT), "-s", str(QUANT), "-s", str(QUANT), "--baseline", "4"], "between 1 and 3"),
        (["-s", str(QUANT), "-s", str(QUANT), "--label", "A"], "--label once per run"),
    ],
)
def test_report_refuses_the_wrong_number_of_things(tmp_path, args, said):
    res = runner.invoke(app, ["compare", *args, "-o", str(tmp_path / "r.html")])
    refused(res, said)
    assert not list(tmp_path.iterdir())


def test_report_writes_page_and_table_whole(tmp_path):
    """The counterpart: a good pair gives the page and its ratio table and no temporary leftovers."""
    res = runner.invoke(app, ["compare", "-s", str(A300), "-s", str(A600), "-o", str(tmp_path / "r.html")])
    assert res.exit_code == 0, res.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.html", "r_ratios.csv"]


# --------------------------------------------------------------------------------------------
# In a real process: what a FIFO would do to a reader, and the last resort for OSError
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("command", [["ingest"], ["compare", "-s", str(QUANT), "-s"], ["run", "tp_scaling", "-s"]])
def test_a_fifo_never_blocks_a_real_process(bad, tmp_path, command):
    """Nothing writes into the FIFO, so a command that opened it would hang until the timeout."""
    proc = _run_cli(*command, str(bad / "pipe.txt"), "-o", str(tmp_path / "out.csv"), cwd=tmp_path)
    assert proc.returncode == 2
    refused(proc.stderr, "pipe.txt")
    assert not (tmp_path / "out.csv").exists()


# --------------------------------------------------------------------------------------------
# benchbook claims check
# --------------------------------------------------------------------------------------------


def test_claims_check_refuses_a_fifo_among_the_ledgers(tmp_path):
    os.mkfifo(tmp_path / "chapter.claims.json")
    assert "not a regular file" in refused(runner.invoke(app, ["claims", "check", str(tmp_path)]), "chapter.claims")


@pytest.mark.parametrize(
    "content, said",
    [(b"\xff\xfe\x00binary", "not a readable JSON ledger"), (b'{"no": "claims"}', "not a claims ledger")],
)
def test_claims_check_refuses_a_file_that_is_not_a_ledger(tmp_path, content, said):
    f = tmp_path / "x.claims.json"
    f.write_bytes(content)
    assert said in refused(runner.invoke(app, ["claims", "check", str(f)]), "x.claims.json")


def test_claims_check_refuses_a_missing_ledger(tmp_path):
    refused(runner.invoke(app, ["claims", "check", str(tmp_path / "gone.json")]), "gone.json")
