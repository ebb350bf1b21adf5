"""`benchbook report FILE... -o DIR`: which chapters run on which files, with which parameters, and
the one sentence (and non-zero exit) where nothing can be read; one report written whole, offline and
without machine paths. The report on an installed wheel is tested in tests/cli/test_wheel_report.py,
and its pages against the executed notebook's in tests/book/test_plain_pages_say_what_the_notebook_says.py."""

from __future__ import annotations

import os

import nbformat
import pytest
from typer.testing import CliRunner

from benchbook import config, report
from benchbook.cli import app

FIX = config.FIXTURES_DIR
SERVE = FIX / "vllm-bench-serve" / "dgx_spark_08_sharegpt.md"
TGI = FIX / "tgi-benchmark" / "bloomz_1b1_tp_2_4_8.md"
AIPERF = FIX / "aiperf" / "example_run1_profile_export_aiperf.json"
runner = CliRunner()


def _refused(res, said: str, out):
    assert res.exit_code == 2, res.output
    assert "Traceback" not in res.output
    assert said in res.output, res.output
    assert not out.exists() or not any(out.iterdir())


def test_every_tool_of_the_help_has_a_chapter_that_reads_it():
    by_tool = report.chapters_by_tool()
    assert by_tool["vllm-bench-serve"] == ["serving_saturation"]
    assert by_tool["llama-bench"] == ["bandwidth_roofline", "perf_per_watt"]
    assert by_tool["trtllm-bench"] == ["batch_saturation", "serving_saturation"]
    res = runner.invoke(app, ["report", "--help"])
    assert res.exit_code == 0
    for tool in by_tool:
        assert tool in res.output


def test_files_of_two_tools_run_each_tools_chapters_in_book_order():
    inputs = report.read_inputs([SERVE, TGI, AIPERF])
    assert [i.tools for i in inputs] == [["vllm-bench-serve"], ["tgi-benchmark"], ["aiperf"]]
    preps, sections = report.plan(inputs, {})
    assert [p.chapter for p in preps] == ["serving_saturation", "tp_scaling"]  # the book's order
    serving = next(s for s in sections if s.chapter == "serving_saturation")
    assert serving.inputs == [config.relative(SERVE), config.relative(AIPERF)]


def test_one_file_of_several_tools_runs_the_chapters_of_each():
    """Seed 004 holds llama-bench, attention-gym and vllm bench serve output."""
    (item,) = report.read_inputs([config.seed("004")])
    assert set(item.tools) == {"llama-bench", "attention-gym", "vllm-bench-serve"}
    preps, _ = report.plan([item], {})
    assert [p.chapter for p in preps] == [
        "bandwidth_roofline",
        "serving_saturation",
        "perf_per_watt",
        "attention_kernels",
    ]


def test_a_parameter_goes_only_to_the_chapters_that_declare_it():
    preps, _ = report.plan(report.read_inputs([SERVE, TGI]), {"slo_ttft_ms": 500.0, "gpu": "H100-SXM"})
    by = {p.chapter: p.parameters for p in preps}
    assert by["serving_saturation"]["slo_ttft_ms"] == 500.0 and "slo_ttft_ms" not in by["tp_scaling"]
    assert by["serving_saturation"]["gpu"] == by["tp_scaling"]["gpu"] == "H100-SXM"


def test_a_chapter_that_refuses_the_file_gives_its_reason_instead_of_a_page():
    _, sections = report.plan(report.read_inputs([SERVE]), {"slo_ttft_ms": -5.0})
    (s,) = sections
    assert "slo_ttft_ms" in s.reason and s.executed is None
    page = report.index_page(report.read_inputs([SERVE]), sections)
    assert "Chapters with nothing to say" in page and "slo_ttft_ms" in page
    assert 'href="serving_saturation.html"' not in page


def test_a_parameter_no_chapter_takes_is_refused_before_anything_runs(tmp_path):
    out = tmp_path / "out"
    res = runner.invoke(app, ["report", str(SERVE), "-p", "knee_fraction", "0.5", "-o", str(out)])
    _refused(res, "parameter 'knee_fraction' is declared by none of the chapters that read these files", out)


def test_an_unreadable_file_beside_good_ones_is_listed_not_fatal(tmp_path):
    odd = tmp_path / "notes.txt"
    odd.write_text("nothing a benchmark printed\n", encoding="utf-8")
    inputs = report.read_inputs([SERVE, odd])
    assert inputs[1].problem.startswith("no known tool output found")
    preps, sections = report.plan(inputs, {})
    assert [p.chapter for p in preps] == ["serving_saturation"]
    assert "not read: no known tool output found" in report.index_page(inputs, sections)


def _fifo(tmp_path):
    p = tmp_path / "pipe.json"
    os.mkfifo(p)
    return p


@pytest.mark.parametrize(
    "make, said",
    [
        (lambda t: (t / "notes.txt", (t / "notes.txt").write_text("hello\n")), "notes.txt: no known tool output found"),
        (lambda t: (t / "runs", (t / "runs").mkdir()), "a folder, not a file of tool output"),
        (lambda t: (t / "bin.json", (t / "bin.json").write_bytes(b"\xff\xfe\x00")), "not UTF-8 text"),
        (lambda t: (_fifo(t), None), "is not a regular file"),
        (lambda t: (t / "missing.json", None), "missing.json: no such file"),
    ],
    ids=["unknown", "folder", "binary", "fifo", "missing"],
)
def test_nothing_readable_is_one_sentence_and_exit_2(tmp_path, make, said):
    src = tmp_path / "in"
    src.mkdir()
    path, _ = make(src)
    out = tmp_path / "out"
    res = runner.invoke(app, ["report", str(path), "-o", str(out)])
    _refused(res, "error: nothing could be read: ", out)
    assert said in res.output


def test_an_output_that_is_a_file_is_refused(tmp_path):
    out = tmp_path / "out"
    out.write_text("x")
    res = runner.invoke(app, ["report", str(SERVE), "-o", str(out)])
    assert res.exit_code == 2 and "exists and is not a folder" in res.output


def test_a_warning_naming_the_python_environment_loses_that_path(monkeypatch):
    """Installed, the book itself lives under the environment: a library warning must not name it."""
    import sys

    import nbformat

    from benchbook.rerun import Prepared, sanitize

    monkeypatch.setattr(sys, "prefix", "/opt/envs/reader")  # an environment outside the checkout
    warning = "/opt/envs/reader/lib/python3.11/site-packages/seaborn/_base.py:949: FutureWarning: x\n"
    nb = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_code_cell("1", outputs=[nbformat.v4.new_output("stream", name="stderr", text=warning)])]
    )
    sanitize(nb, Prepared("serving_saturation", {}, {}, []), "x.ipynb")
    assert nb.cells[0].outputs[0]["text"] == "lib/python3.11/site-packages/seaborn/_base.py:949: FutureWarning: x\n"


def _cell_fails(prep, **_):
    from benchbook.rerun import RunError

    raise RunError(f"{prep.chapter}: ValueError: the sweep has no load column")


def test_a_chapter_whose_cell_fails_is_listed_with_its_reason(monkeypatch, tmp_path):
    monkeypatch.setattr(report, "run_plain", _cell_fails)
    inputs = report.read_inputs([SERVE])
    preps, sections = report.plan(inputs, {})
    report.execute_all(preps, sections, log=lambda m: None)
    (s,) = sections
    assert s.executed is None and s.reason == "ValueError: the sweep has no load column"
    assert "<strong>serving_saturation</strong>: ValueError: the sweep has no load column" in report.index_page(
        inputs, sections
    )


def test_when_no_chapter_can_say_anything_nothing_is_written(monkeypatch, tmp_path):
    monkeypatch.setattr(report, "run_plain", _cell_fails)
    out = tmp_path / "out"
    res = runner.invoke(app, ["report", str(SERVE), "-o", str(out)])
    assert res.exit_code == 2, res.output
    assert "error: no chapter could say anything about these files: serving_saturation: ValueError" in res.output
    assert not any(out.iterdir())


def test_a_folder_holding_other_files_is_refused(tmp_path):
    """The report replaces its pages: never in a folder it did not write."""
    out = tmp_path / "docs"
    (out / "_static").mkdir(parents=True)
    (out / "_static" / "mine.css").write_text("x")
    res = runner.invoke(app, ["report", str(SERVE), "-o", str(out)])
    assert res.exit_code == 2 and "docs: the folder holds other files" in res.output, res.output
    assert (out / "_static" / "mine.css").read_text() == "x"
    (out / "index.html").write_text('<div class="benchbook-report"></div>')
    assert report._ours(out)


def test_a_page_shows_the_readers_parameters_once_and_nothing_of_the_books_inputs():
    from benchbook.rerun import prepare, sanitize

    params = nbformat.v4.new_code_cell('source = "data/raw/rtx_pro_6000/004_6d4f73623fb8afcd.txt"  # help')
    params.metadata["tags"] = ["parameters"]
    injected = nbformat.v4.new_code_cell('source = "/somewhere/mine.md"')
    injected.metadata["tags"] = ["injected-parameters"]
    nb = nbformat.v4.new_notebook(cells=[params, injected, nbformat.v4.new_code_cell("1")])
    prep = prepare("serving_saturation", {"slo_ttft_ms": 500.0}, [str(SERVE)])
    sanitize(nb, prep, "x.ipynb")
    assert [c.source for c in nb.cells].count("1") == 1 and len(nb.cells) == 2
    shown = nb.cells[0].source
    assert "data/raw" not in shown and SERVE.name in shown and "slo_ttft_ms = 500.0" in shown
    assert "sweep = 'auto'  # the swept setting" in shown


def test_a_page_on_the_readers_file_leaves_out_the_runs_on_the_books_fixtures():
    from benchbook.rerun import Prepared, prepare, sanitize

    def notebook():
        md = "## Exercises\n\n{glue:md}`envelope_exercises`\n\n### Run it again\n\n1. Run it on tests/fixtures/x.md.\n"
        return nbformat.v4.new_notebook(
            cells=[nbformat.v4.new_markdown_cell(md), nbformat.v4.new_markdown_cell("**Next:** y")]
        )

    nb = notebook()
    sanitize(nb, prepare("serving_saturation", {}, [str(SERVE)]), "x.ipynb")
    assert "Run it again" not in nb.cells[0].source and "tests/fixtures/x.md" not in nb.cells[0].source
    assert "envelope_exercises" in nb.cells[0].source and nb.cells[1].source == "**Next:** y"
    nb = notebook()
    sanitize(nb, Prepared("serving_saturation", {}, {}), "x.ipynb")  # the book's own run keeps them
    assert "Run it again" in nb.cells[0].source


def test_the_index_and_every_page_state_what_the_file_says_of_its_run(tmp_path):
    write_up = tmp_path / "run.md"
    write_up.write_text(
        "## 4 x H100 SXM\n\nvllm serve meta-llama/Llama-3.1-70B --tensor-parallel-size 4\n\n"
        + SERVE.read_text(encoding="utf-8"),
        encoding="utf-8",
    )
    (item,) = report.read_inputs([write_up])
    facts = {s.name: s for s in item.facts}
    assert facts["tp"].values == (("4", (3,)),)
    assert facts["model"].values[0] == ("meta-llama/Llama-3.1-70B", (3,))
    preps, sections = report.plan([item], {})
    index = report.index_page([item], sections)
    assert "meta-llama/Llama-3.1-70B</code> (line 3)" in index
    banner = report._banner(sections[0], preps[0], [item])
    assert "tensor parallel (TP): <code>4</code> (line 3)" in banner


@pytest.mark.notebooks
def test_a_report_is_written_whole_offline_and_without_machine_paths(tmp_path):
    import json
    import re
    import sys

    out = tmp_path / "out"
    res = runner.invoke(app, ["report", str(SERVE), str(TGI), "-o", str(out)])
    assert res.exit_code == 0, res.output
    assert "(2 chapter pages, 0 with nothing to say)" in res.output and "(s)" not in res.output
    names = {p.name for p in out.iterdir()}
    assert names == {"index.html"} | {
        f"{c}{x}" for c in ("serving_saturation", "tp_scaling") for x in (".html", ".claims.json", ".ipynb")
    }
    index = (out / "index.html").read_text(encoding="utf-8")
    assert 'class="benchbook-report"' in index and 'href="tp_scaling.claims.json"' in index
    page = (out / "serving_saturation.html").read_text(encoding="utf-8")
    assert '<div class="admonition note benchbook-run">' in page and SERVE.name in page
    assert 'src="data:image/svg+xml;base64,' in page and '<a class="reference internal" href="tp_scaling.html">' in page
    ledger = json.loads((out / "serving_saturation.claims.json").read_text(encoding="utf-8"))
    assert ledger["chapter"] == "serving_saturation" and ledger["claims"]
    nb = json.loads((out / "tp_scaling.ipynb").read_text(encoding="utf-8"))
    assert nb["nbformat"] == 4 and nb["metadata"]["papermill"]["parameters"]["source"] == config.relative(TGI)
    remote = re.compile(r"""(?:src|href)\s*=\s*["'](?:https?:)?//|url\(\s*["']?(?:https?:)?//""")
    for f in out.iterdir():
        text = f.read_text(encoding="utf-8")
        assert not remote.search(text), f.name
        assert str(config.PROJ_ROOT) not in text and sys.prefix not in text and str(tmp_path) not in text, f.name
    assert not [p.name for p in out.iterdir() if p.name.startswith(".")]


@pytest.mark.notebooks
def test_chapters_run_on_two_cores_say_what_they_say_run_on_one(monkeypatch):
    """With two cores a forked copy runs chapters too (each process the next one not taken): the same
    notebooks and ledgers."""
    import json
    import re

    from benchbook import ingest

    def run(workers: int) -> list:
        monkeypatch.setattr(report, "WORKERS", workers)
        with ingest.once():
            inputs = report.read_inputs([SERVE, TGI])
            preps, sections = report.plan(inputs, {})
            report.execute_all(preps, sections, log=lambda m: None)
        text = json.dumps([(s.chapter, s.executed, s.ledger, s.reason) for s in sections], sort_keys=True)
        return json.loads(re.sub(r"T_[0-9a-f]{5}| at 0x[0-9a-f]+", "", text))

    one, two = run(1), run(2)
    assert [s[0] for s in two] == ["serving_saturation", "tp_scaling"] and all(s[1] for s in two)
    assert one == two


@pytest.mark.notebooks
def test_a_report_imports_no_kernel_notebook_or_sphinx_machinery(tmp_path):
    """What the report does not need is not imported (a fresh interpreter, as a reader runs it): no
    kernel, notebook or Sphinx machinery, no seaborn (its theme is written out) and no Hypothesis
    (pandera's data synthesis, installed with the test extra)."""
    import subprocess
    import sys

    code = (  # the command as the console script runs it, but returning (`cli._leave` would end it at once)
        "import sys\nimport typer\nfrom benchbook.cli import app\n"
        f"args = ['report', {str(SERVE)!r}, {str(TGI)!r}, '-o', {str(tmp_path / 'out')!r}]\n"
        "typer.main.get_command(app).main(args, prog_name='benchbook', standalone_mode=False)\n"
        "print(sorted({m.split('.')[0] for m in sys.modules}))"
    )
    res = subprocess.run([sys.executable, "-c", code], cwd=config.PROJ_ROOT, capture_output=True, text=True)
    assert res.returncode == 0, res.stderr[-2000:]
    imported = set(eval(res.stdout.strip().splitlines()[-1]))  # noqa: S307 - our own printed list
    assert not imported & {"IPython", "nbformat", "myst_nb", "sphinx", "jupyter_book", "papermill", "nbclient"}
    assert not imported & {"seaborn", "hypothesis"}
    assert (tmp_path / "out" / "tp_scaling.html").is_file()


def test_a_module_kept_out_of_a_report_is_importable_after_it():
    import importlib
    import sys

    name = "benchbook_no_such_module_yet"
    with report._without(name):
        with pytest.raises(ImportError):
            importlib.import_module(name)
    assert name not in sys.modules
    with report._without("json"):  # one imported already stays
        assert importlib.import_module("json") is sys.modules["json"]


def test_a_report_written_over_another_leaves_none_of_its_pages(tmp_path):
    """A folder holds one report: the earlier report's chapter pages, ledgers and theme folders that
    this one does not write again are removed, a file of the reader's own is kept."""
    out = tmp_path / "out"
    out.mkdir()
    (out / "index.html").write_text('<div class="benchbook-report"></div>')
    for old in ("tp_scaling.html", "tp_scaling.claims.json", "tp_scaling.ipynb", "searchindex.js"):
        (out / old).write_text("old")
    (out / "_static").mkdir()
    (out / "_static" / "theme.css").write_text("old")
    (out / "notes.txt").write_text("mine")
    res = runner.invoke(app, ["report", str(SERVE), "-o", str(out)])
    assert res.exit_code == 0, res.output
    left = sorted(p.name for p in out.iterdir())
    assert left == [
        "index.html",
        "notes.txt",
        "serving_saturation.claims.json",
        "serving_saturation.html",
        "serving_saturation.ipynb",
    ], left


def test_a_file_whose_every_number_was_set_aside_is_refused_with_its_lines_and_reasons():
    rejected = [
        {"line": 14, "text": "ram 0.000787 kWh", "reason": "a running total"},
        {"line": 15, "text": "gpu 0.0 W", "reason": "a running total"},
        {"line": 19, "text": "gpu 0.000000 kWh", "reason": "the GPU gave no reading"},
    ]
    said = report.nothing_kept(rejected)
    assert said.startswith("every number it holds was set aside, none kept (3 numbers)")
    assert "line 14 (ram 0.000787 kWh): a running total; line 19 (gpu 0.000000 kWh): the GPU gave no reading" in said
    assert report.nothing_kept([]) == "no number could be read from it"


def test_the_index_prints_a_claims_code_spans_as_code_not_backticks():
    """A claim is written in Markdown (`c=32` names a run); the index is HTML, so a code span is set
    as code there, as on the chapter page, and a sentence without one is left as it is."""
    s = report.Section(
        "serving_saturation",
        "The serving saturation curve",
        ["a.json"],
        claims=[
            {"status": "shown", "text": "The best run (`c=32`) does 5 TFLOP/s."},
            {"status": "shown", "text": "Throughput rises at every step, 1 < 2."},
        ],
        executed={},
    )
    page = report.index_page(report.read_inputs([SERVE]), [s])
    assert "The best run (<code>c=32</code>) does 5 TFLOP/s." in page and "`" not in page
    assert "Throughput rises at every step, 1 &lt; 2." in page


def test_the_index_counts_each_chapters_withheld_claims_against_its_own_total():
    """Two chapters with nothing shown gave the index page the same sentence twice ("No claim's rule is met on
    this input."); each now counts its own claims, from the package's wording, not from Python."""
    withheld = {"status": "withheld", "text": "x: not stated for this input, because y."}
    shown = {"status": "shown", "text": "A verdict."}
    none_met = report.Section("tp_scaling", "TP", ["a.md"], claims=[withheld] * 3, executed={})
    one = report.Section("perf_per_watt", "Power", ["a.md"], claims=[withheld], executed={})
    some = report.Section("bandwidth_roofline", "BW", ["a.md"], claims=[shown, withheld, withheld], executed={})
    page = report.index_page(report.read_inputs([SERVE]), [none_met, one, some])
    assert "None of its 3 claims has its rule met on this input: the chapter page says why." in page
    assert "Its one claim&#x27;s rule is not met on this input: the chapter page says why." in page
    assert "2 of its 3 claims withheld, each with its reason on the chapter page and in the ledger." in page
    assert "of its 3 claims withheld" not in page.split("BW")[0]  # a chapter with none shown says so once
