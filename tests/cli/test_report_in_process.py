"""A report runs its chapters in its own process (`executor.run_here`), not in a kernel: its pages must
say what the kernel-executed chapter says (the same glued texts, Markdown, claims, bottom line,
exercises, tables and figures; the same one sentence where a cell fails), and it reads each file
once (`ingest.once`)."""

from __future__ import annotations

import json
import os
import re

import matplotlib
import nbformat
import pytest

from benchbook import config, executor, ingest, report
from benchbook.rerun import prepare, sanitize

#: These tests run the report's own process as a reader runs it: a fresh interpreter, where no other
#: test has shaped the process first (test_report_in_process_fresh.py starts one). In one shared worker
#: of the whole suite two of them failed (stop 38's fresh-clone run) although every order tried alone
#: passed: the state another test leaves is not all found yet.
pytestmark = pytest.mark.skipif(
    os.environ.get("BENCHBOOK_FRESH_PROCESS") != "1", reason="run in a fresh interpreter by its _fresh test"
)

FIX = config.FIXTURES_DIR
SERVE = FIX / "vllm-bench-serve" / "dgx_spark_08_sharegpt.md"
TGI = FIX / "tgi-benchmark" / "bloomz_1b1_tp_2_4_8.md"
HF = FIX / "hf-batch-sweep" / "readme_0253839c_gpt2_mha.md"
GYM = FIX / "attention-gym" / "rtx4090_flex_attn_noop.md"

#: What differs between any two executions, kernel or not: a Styler's random id, an object's address.
_RANDOM = [(re.compile(r"T_[0-9a-f]{5}"), "T_?"), (re.compile(r" at 0x[0-9a-f]+"), " at 0x?")]


def _joined(outputs: list) -> list:
    """Consecutive writes to one stream as one output: a kernel sends them in one message or in
    several, as its flushes fall."""
    out = []
    for o in outputs:
        if o["output_type"] == "stream" and out and out[-1]["output_type"] == "stream" and out[-1]["name"] == o["name"]:
            out[-1] = {**out[-1], "text": out[-1]["text"] + o["text"]}
        else:
            out.append(dict(o))
    return out


def _outputs(nb) -> list:
    """Each code cell's count and outputs, the random parts of an execution blanked."""
    cells = [(c.get("execution_count"), _joined(c["outputs"])) for c in nb.cells if c.cell_type == "code"]
    text = json.dumps(cells, sort_keys=True)
    for pattern, blank in _RANDOM:
        text = pattern.sub(blank, text)
    return json.loads(text)


def _notebook(tmp_path, *sources: str, params: str = "x = 1\n"):
    cell = nbformat.v4.new_code_cell(params)
    cell.metadata["tags"] = ["parameters"]
    nb = nbformat.v4.new_notebook(cells=[cell, *(nbformat.v4.new_code_cell(s) for s in sources)])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    path = tmp_path / "nb.ipynb"
    nbformat.write(nb, path)
    return path


@pytest.mark.notebooks
def test_a_cell_run_here_records_what_a_kernel_records(tmp_path):
    path = _notebook(
        tmp_path,
        'print("a")\nprint("b")',
        "from IPython.display import Markdown, display\ndisplay(Markdown('**m**'))\nx + 1",
        "import numpy as np\nfrom myst_nb import glue\nglue('n', np.float64(2.5), display=False)",
        "",
    )
    here = executor.execute(path, {"x": 2}, here=True)
    kernel = executor.execute(path, {"x": 2})
    assert _outputs(here) == _outputs(kernel)
    assert here.cells[2]["outputs"][0] == {"output_type": "stream", "name": "stdout", "text": "a\nb\n"}
    assert here.cells[3]["outputs"][-1]["data"]["text/plain"] == "3"  # x = 2 injected after x = 1
    assert [c.source.startswith("# Parameters") for c in here.cells] == [
        c.source.startswith("# Parameters") for c in kernel.cells
    ]


@pytest.mark.notebooks
def test_a_failing_cell_run_here_fails_as_in_a_kernel(tmp_path):
    path = _notebook(tmp_path, "y = x * 2", "raise ValueError('the sweep has no load column')", "z = 3")
    failures = []
    for here in (True, False):
        with pytest.raises(executor.Failed) as info:
            executor.execute(path, {}, here=here)
        failures.append(info.value)
    mine, kernel = failures
    assert (mine.cell, mine.ename, mine.evalue) == (kernel.cell, kernel.ename, kernel.evalue)
    assert (mine.ename, mine.evalue) == ("ValueError", "the sweep has no load column")
    assert mine.partial.cells[-1].source == "z = 3" and mine.partial.cells[-1].outputs == []
    assert mine.partial.cells[-2].outputs[0]["output_type"] == "error"


def test_each_chapter_run_here_starts_afresh(tmp_path):
    """No name, matplotlib setting, display printer or working folder of one chapter reaches the next."""
    dpi, cwd = matplotlib.rcParams["figure.dpi"], config.PROJ_ROOT
    first = _notebook(
        tmp_path,
        "import matplotlib, os\nmatplotlib.rcParams['figure.dpi'] = 33\nleak = os.getcwd()",
        "get_ipython().display_formatter.formatters['text/plain'].for_type(tuple, lambda o, p, c: p.text('T'))\n(1,)",
    )
    nb = executor.execute(first, {}, here=True)
    assert nb.cells[1].outputs == [] and nb.cells[2].outputs[0]["data"]["text/plain"] == "T"
    assert matplotlib.rcParams["figure.dpi"] == dpi
    second = _notebook(tmp_path, "import matplotlib, os\n(os.getcwd(), matplotlib.rcParams['figure.dpi'])", "leak")
    with pytest.raises(executor.Failed) as info:
        executor.execute(second, {}, here=True)
    assert info.value.ename == "NameError"
    assert info.value.partial.cells[1].outputs[0]["data"]["text/plain"] == repr((str(cwd), dpi))


@pytest.mark.notebooks
def test_a_chapter_run_here_meets_matplotlib_as_a_fresh_kernel_whatever_the_host_left(tmp_path):
    """A host (another test of the worker) that left a figure open, changed a setting and turned
    interactive mode off: the chapter sees none of it (the inline backend showed every open figure at
    the end of a cell that drew one), and the host gets all of it back."""
    import matplotlib.pyplot as plt

    path = _notebook(
        tmp_path,
        "import matplotlib, matplotlib.pyplot as plt\nfig = plt.figure(figsize=(1, 1))\nplt.plot([1, 2])\nNone",
        "(plt.get_fignums(), matplotlib.rcParams['lines.linewidth'], matplotlib.is_interactive())",
    )
    kernel = executor.execute(path, {})
    left = plt.figure()
    was_interactive = matplotlib.is_interactive()
    try:
        plt.ioff()
        with matplotlib.rc_context({"lines.linewidth": 7.5}):
            here = executor.execute(path, {}, here=True)
            host_after = (plt.get_fignums(), matplotlib.rcParams["lines.linewidth"], matplotlib.is_interactive())
    finally:
        plt.close(left)
        matplotlib.interactive(was_interactive)
    assert [o["output_type"] for o in here.cells[1].outputs] == ["display_data"]  # the chapter's figure only
    assert _outputs(here) == _outputs(kernel)
    assert host_after == ([left.number], 7.5, False)


def test_after_a_chapter_run_here_the_host_displays_as_without_ipython(tmp_path, capsys):
    """The shell is IPython's instance only while a chapter runs: a later `display` of the same
    process (another test of the worker) prints, and no IPython flag stays in the builtins."""
    import builtins

    from IPython import get_ipython
    from IPython.display import display

    flagged = "__IPYTHON__" in vars(builtins)
    nb = executor.execute(
        _notebook(tmp_path, "from IPython import get_ipython\nget_ipython() is not None"), {}, here=True
    )
    assert nb.cells[1].outputs[0]["data"]["text/plain"] == "True"
    display("shown to the host")
    assert "shown to the host" in capsys.readouterr().out
    assert get_ipython() is None and ("__IPYTHON__" in vars(builtins)) == flagged


@pytest.mark.notebooks
@pytest.mark.parametrize(
    "chapter,source",
    [("serving_saturation", SERVE), ("tp_scaling", TGI), ("batch_saturation", HF), ("attention_kernels", GYM)],
)
def test_a_chapter_run_here_glues_what_its_kernel_run_glues(chapter, source):
    """Texts, Markdown, claims ledger, bottom line, exercises, tables, figures (SVG bytes) and the
    sentences that stand for figures with no data (`unfigure`): all equal."""
    prep = prepare(chapter, {}, [str(source)])
    notebook = config.NOTEBOOKS_DIR / f"{chapter}.ipynb"
    runs = [executor.execute(notebook, prep.parameters, here=True), executor.execute(notebook, prep.parameters)]
    for nb in runs:
        sanitize(nb, prep, f"{chapter}.ipynb")
    here, kernel = runs
    assert _outputs(here) == _outputs(kernel)
    assert [c.source for c in here.cells] == [c.source for c in kernel.cells]  # unfigure's sentences included
    assert here.metadata["papermill"]["parameters"] == kernel.metadata["papermill"]["parameters"]


def _counting_reads(monkeypatch) -> dict:
    reads: dict = {}
    real = ingest.read_lines

    def counted(path, *args, **kwargs):
        reads[path.name] = reads.get(path.name, 0) + 1
        return real(path, *args, **kwargs)

    monkeypatch.setattr(ingest, "read_lines", counted)
    return reads


@pytest.mark.notebooks
def test_a_report_reads_each_file_once(monkeypatch, tmp_path):
    """Detection, the run facts, the parameter checks and the chapters' own reading: one read."""
    reads = _counting_reads(monkeypatch)
    monkeypatch.setattr(report, "WORKERS", 1)  # every chapter in this process, where the reads are counted
    with ingest.once():
        inputs = report.read_inputs([TGI, GYM])
        preps, sections = report.plan(inputs, {})
        report.execute_all(preps, sections, log=lambda m: None)
    assert [s.chapter for s in sections if s.executed] == ["tp_scaling", "attention_kernels"]
    assert reads == {TGI.name: 1, GYM.name: 1}


def test_a_file_is_read_again_outside_once_or_once_it_changed(monkeypatch, tmp_path):
    reads = _counting_reads(monkeypatch)
    copy = tmp_path / TGI.name
    copy.write_bytes(TGI.read_bytes())
    ingest.read(copy), ingest.context_of(copy)
    assert reads[copy.name] == 2  # no `once`: each call reads the file
    with ingest.once():
        first = ingest.read(copy)
        first.loc[:, "value"] = -1.0  # a caller's change to its table is its own
        again, tool = ingest.read(copy), ingest.read(copy, tool="tgi-benchmark")
        assert (again["value"] > 0).all() and again.equals(tool)
        ingest.context_of(copy)
        assert reads[copy.name] == 3
        copy.write_bytes(TGI.read_bytes() + b"\n")  # changed on disk: its size and time differ
        ingest.read(copy)
        assert reads[copy.name] == 4
    ingest.read(copy)
    assert reads[copy.name] == 5


@pytest.mark.notebooks
def test_a_warning_run_here_is_printed_as_in_a_kernel(tmp_path):
    """Under any host (pytest records warnings itself), a library's warning is on the cell's stderr,
    as a kernel prints it; one that Python's default filters hide stays hidden."""
    path = _notebook(
        tmp_path,
        "import numpy as np\nnp.mean([])",
        "import warnings\nwarnings.warn('old', PendingDeprecationWarning)",
    )
    here, kernel = executor.execute(path, {}, here=True), executor.execute(path, {})
    assert _outputs(here) == _outputs(kernel)
    assert "RuntimeWarning: Mean of empty slice" in here.cells[1].outputs[0]["text"]
    assert here.cells[2].outputs == []


def test_a_readers_interrupt_stops_the_report_not_only_its_chapter(tmp_path):
    path = _notebook(tmp_path, "raise KeyboardInterrupt")
    with pytest.raises(KeyboardInterrupt):
        executor.execute(path, {}, here=True)
    with pytest.raises(executor.Failed):  # any other error is the chapter's, said in one sentence
        executor.execute(_notebook(tmp_path, "raise SystemExit(3)"), {}, here=True)
