"""`benchbook run` and `benchbook list`: parameters checked before execution, the page it writes."""

import re

import nbformat
import pytest
from typer.testing import CliRunner

from benchbook import config, rerun
from benchbook.chapter import ParameterError
from benchbook.cli import app

FIXTURE = config.FIXTURES_DIR / "hf-batch-sweep" / "readme_0253839c_gpt2_mha.md"
LLAMA = config.FIXTURES_DIR / "compare" / "llama2_7b_600w.md"
runner = CliRunner()


@pytest.mark.parametrize(
    "text, value",
    [
        ("True", True),
        ("False", False),
        ("None", None),
        ("8", 8),
        ("-3", -3),
        ("0.95", 0.95),
        ("1e3", 1000.0),
        ("true", "true"),
        ("data/raw", "data/raw"),
        ("", ""),
    ],
)
def test_parse_value_like_papermill(text, value):
    from papermill.cli import _resolve_type

    assert rerun.parse_value(text) == value
    assert rerun.parse_value(text) == _resolve_type(text)
    assert type(rerun.parse_value(text)) is type(_resolve_type(text))


def test_prepare_resolves_sources_and_shows_them_relative():
    prep = rerun.prepare("batch_saturation", {"knee_fraction": 0.9}, [str(FIXTURE)])
    assert prep.parameters["source"] == str(FIXTURE.resolve())
    assert prep.shown["source"] == "tests/fixtures/hf-batch-sweep/readme_0253839c_gpt2_mha.md"
    assert prep.parameters["knee_fraction"] == 0.9
    assert prep.inputs == [FIXTURE.resolve()]


@pytest.mark.parametrize(
    "given, sources, message",
    [
        ({"knee": 0.9}, None, "unknown parameter 'knee'"),
        ({"knee_fraction": "high"}, None, "should be float"),
        ({}, ["no/such/file.txt"], "does not exist"),
        ({}, [str(LLAMA)], "holds output of llama-bench"),
    ],
)
def test_prepare_rejects_bad_parameters(given, sources, message):
    with pytest.raises(ParameterError, match=message):
        rerun.prepare("batch_saturation", given, sources)


def test_unknown_chapter():
    with pytest.raises(ParameterError, match="no chapter called 'nope'"):
        rerun.prepare("nope", {}, None)


@pytest.mark.parametrize(
    "args, message",
    [
        (["run", "batch_saturation", "-p", "knee", "0.9"], "unknown parameter 'knee'"),
        (["run", "batch_saturation", "-p", "knee_fraction", "high"], "should be float"),
        (["run", "batch_saturation", "--source", "missing.txt"], "does not exist"),
        (["run", "batch_saturation", "--source", str(LLAMA)], "llama-bench"),
        (["run", "batch_saturation", "-p", "knee_fraction"], "needs a NAME and a VALUE"),
        (["run", "batch_saturation", "-y", "[1, 2]"], "YAML mapping"),
        (["run", "no_such_chapter"], "no chapter called"),
    ],
)
def test_cli_run_stops_with_one_line_before_executing(args, message, tmp_path):
    res = runner.invoke(app, args + ["-o", str(tmp_path)])
    assert res.exit_code == 2
    lines = [line for line in res.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0]
    assert not list(tmp_path.iterdir()), "nothing may be written when a parameter is wrong"


def test_cli_list_shows_parameters_from_the_notebooks():
    res = runner.invoke(app, ["list"])
    assert res.exit_code == 0
    assert "batch_saturation" in res.output and "knee_fraction" in res.output and "0.95" in res.output


# ---- the exact command of book/run_on_your_data.md ------------------------------------------


def test_run_on_your_data_example(tmp_path, machine_path):
    """The walk-through's command, on the real public output kept as a fixture."""
    page_md = (config.BOOK_DIR / "run_on_your_data.md").read_text(encoding="utf-8")
    cmd = "benchbook run batch_saturation --source tests/fixtures/hf-batch-sweep/readme_0253839c_gpt2_mha.md"
    assert cmd in page_md, "the page must show the command this test runs"
    args = cmd.split()[1:] + ["-o", str(tmp_path), "--quiet"]
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    html = (tmp_path / "batch_saturation.html").read_text(encoding="utf-8")
    nb = (tmp_path / "batch_saturation.ipynb").read_text(encoding="utf-8")
    assert len(re.findall(r'<img [^>]*src="data:image/(?:png|svg\+xml);base64,[A-Za-z0-9+/=\s]{1000,}', html)) >= 1
    assert "readme_0253839c_gpt2_mha.md" in html
    assert "{glue" not in html and "Traceback" not in html
    assert machine_path(html, str(tmp_path)) is None and machine_path(nb, str(tmp_path)) is None
    assert "https://cdn" not in html and "unpkg.com" not in html
    # rendered by the book's engine: no raw MyST, the theme, the dropdown solution, the glossary links
    for raw in (":::{", "```{", "{term}", "{glue:", ":class: dropdown"):
        assert raw not in html, raw
    assert "sphinx-book-theme" in html and 'class="dropdown admonition"' in html
    assert 'href="batch_saturation_files/glossary.html#term-' in html
    assert (tmp_path / "batch_saturation_files" / "_static").is_dir()
    assert 'class="admonition note benchbook-run"' in html
    # the glossary beside the page links back up to it, not to a page inside its own folder
    glossary = (tmp_path / "batch_saturation_files" / "glossary.html").read_text(encoding="utf-8")
    assert 'href="../batch_saturation.html' in glossary and 'href="batch_saturation.html' not in glossary
    # the exercises are worked in this file's numbers or left out, never the book's: this file names no device,
    # so the two that set their steps against a device's peaks are left out and the one read off its own times
    # is worked (DS-inference fp16: flat to batch 128, the line through 256 and 384 meets it at 146)
    assert "No exercise is worked here" not in html and html.count("Exercise 1.") == 1
    assert "Exercise 2." not in html and "= 146 sequences" in html
    assert "These exercises are about the book" not in html and "003_7819709fab0fbd59" not in html


def _timeout():
    from nbclient.exceptions import CellTimeoutError

    return CellTimeoutError("A cell timed out while it was being executed, after 600 seconds.\nmore detail")


def _dead():
    from nbclient.exceptions import DeadKernelError

    return DeadKernelError("Kernel died")


@pytest.mark.parametrize(
    "error, said, wrote",
    [
        (_timeout, "batch_saturation: CellTimeoutError: A cell timed out while it was being executed", True),
        (_dead, "batch_saturation: DeadKernelError: Kernel died", True),
        (lambda: RuntimeError("Kernel died before replying to kernel_info"), "RuntimeError: Kernel died before", False),
    ],
)
def test_cli_run_reports_kernel_failures_in_one_line(monkeypatch, tmp_path, error, said, wrote):
    """A timeout, a dead kernel or a kernel that never started is one error line, not a traceback;
    what had executed is kept as .failed.ipynb."""
    import papermill

    def failing(source, out, **kwargs):
        if wrote:  # papermill saves the notebook after every cell, so a partial one is on disk
            nb = nbformat.read(source, as_version=4)
            nbformat.write(nb, out)
        raise error()

    monkeypatch.setattr(papermill, "execute_notebook", failing)
    res = runner.invoke(app, ["run", "batch_saturation", "-o", str(tmp_path), "--quiet"])
    assert isinstance(res.exception, SystemExit) and res.exit_code == 1, res.output
    last = res.output.strip().splitlines()[-1]
    assert last.startswith("error: ") and said in last and "Traceback" not in res.output
    assert "more detail" not in res.output  # the first line of the message only
    assert (tmp_path / "batch_saturation.failed.ipynb").is_file() is wrote
    assert ("notebook with the traceback" in last) is wrote
    assert not (tmp_path / "batch_saturation.ipynb").exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")], "the temporary file must be removed"


def test_the_parameters_cell_shows_the_values_the_run_used_and_keeps_the_others():
    from benchbook.rerun import parameters_of_this_run, prepare

    prep = prepare("quantization_regimes", {"alpha": 0.01, "gpu": "A100-SXM4-80GB"})
    got = parameters_of_this_run(prep).splitlines()
    assert got[0].startswith("source = 'data/raw/quant_regimes/") and "  # " in got[0]
    assert "alpha = 0.01  # significance level" in got[2] and any(
        line.startswith("gpu = 'A100-SXM4-80GB'") for line in got
    )
    assert any(line.startswith("outlier_rule = 'cv>0.10'") for line in got)  # an untouched parameter keeps its default
