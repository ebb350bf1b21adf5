"""A report runs its chapters in its own process, in plain Python (`executor.run_plain`), not in a
kernel: what a cell glues, displays, prints and warns is recorded as a kernel records it, a failing
cell fails as in a kernel, each chapter meets the process as a fresh kernel would and leaves it as it
found it, and the report reads each file once (`ingest.once`). That a chapter's page says what its
executed notebook says is held by tests/book/test_plain_pages_say_what_the_notebook_says.py."""

from __future__ import annotations

import json
import re

import matplotlib
import nbformat
import pytest

from benchbook import config, executor, ingest, report

FIX = config.FIXTURES_DIR
TGI = FIX / "tgi-benchmark" / "bloomz_1b1_tp_2_4_8.md"
GYM = FIX / "attention-gym" / "rtx4090_flex_attn_noop.md"

#: What differs between any two executions, kernel or not: an object's address.
_RANDOM = [(re.compile(r" at 0x[0-9a-f]+"), " at 0x?")]


def _outputs(nb) -> list:
    """Each code cell's count and outputs (consecutive writes to one stream joined: a kernel sends
    them in one message or in several, as its flushes fall)."""
    cells = []
    for c in nb["cells"]:
        if c["cell_type"] != "code":
            continue
        outs = []
        for o in c["outputs"]:
            o = dict(o)
            if o["output_type"] == "stream" and outs and outs[-1]["output_type"] == "stream":
                if outs[-1]["name"] == o["name"]:
                    outs[-1] = {**outs[-1], "text": outs[-1]["text"] + o["text"]}
                    continue
            outs.append(o)
        cells.append((c.get("execution_count"), outs))
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
def test_a_cell_run_in_plain_python_records_what_a_kernel_records(tmp_path):
    path = _notebook(
        tmp_path,
        'print("a")\nprint("b")',
        "from benchbook.presentation import outputs\noutputs.display('**m**', markdown=True)\n"
        "outputs.display_raw({'application/json': {'x': x}})",
        "outputs.glue('n', 2.5)\noutputs.glue('s', f'{x} runs', markdown=True)",
        "import numpy as np\nmean = np.mean([])",
        "import warnings\nwarnings.warn('old', PendingDeprecationWarning)",
        "",
    )
    plain = executor.execute(path, {"x": 2}, plain=True)
    kernel = executor.execute(path, {"x": 2})
    assert _outputs(plain) == _outputs(kernel)
    assert plain["cells"][2]["outputs"][0] == {"output_type": "stream", "name": "stdout", "text": "a\nb\n"}
    assert "RuntimeWarning: Mean of empty slice" in plain["cells"][5]["outputs"][0]["text"]
    assert plain["cells"][6]["outputs"] == []  # hidden by Python's default filters, as in a kernel


@pytest.mark.notebooks
def test_a_failing_cell_in_plain_python_fails_as_in_a_kernel(tmp_path):
    path = _notebook(tmp_path, "y = x * 2", "raise ValueError('the sweep has no load column')", "z = 3")
    failures = []
    for plain in (True, False):
        with pytest.raises(executor.Failed) as info:
            executor.execute(path, {}, plain=plain)
        failures.append(info.value)
    mine, kernel = failures
    assert (mine.cell, mine.ename, mine.evalue) == (kernel.cell, kernel.ename, kernel.evalue)
    assert (mine.ename, mine.evalue) == ("ValueError", "the sweep has no load column")


def test_each_chapter_starts_afresh(tmp_path):
    """No name, matplotlib setting or working folder of one chapter reaches the next."""
    dpi, cwd = matplotlib.rcParams["figure.dpi"], config.PROJ_ROOT
    first = _notebook(tmp_path, "import matplotlib, os\nmatplotlib.rcParams['figure.dpi'] = 33\nleak = os.getcwd()")
    executor.execute(first, {}, plain=True)
    assert matplotlib.rcParams["figure.dpi"] == dpi
    second = _notebook(
        tmp_path,
        "import matplotlib, os\nfrom benchbook.presentation import outputs\n"
        "outputs.display((os.getcwd(), matplotlib.rcParams['figure.dpi']))",
        "leak",
    )
    with pytest.raises(executor.Failed) as info:
        executor.execute(second, {}, plain=True)
    assert info.value.ename == "NameError"
    assert info.value.partial["cells"][1]["outputs"][0]["data"]["text/plain"] == repr((str(cwd), dpi))


def test_a_chapter_meets_matplotlib_as_a_fresh_kernel_whatever_the_host_left(tmp_path):
    """A host (another test of the worker) that left a figure open, changed a setting and turned
    interactive mode off: the chapter sees none of it (a figure left open is shown at the end of the
    cell that drew it, as the inline backend shows it), and the host gets all of it back."""
    import matplotlib.pyplot as plt

    path = _notebook(
        tmp_path,
        "import matplotlib, matplotlib.pyplot as plt\nfig = plt.figure(figsize=(1, 1))\nplt.plot([1, 2])",
        "from benchbook.presentation import outputs\n"
        "outputs.display((plt.get_fignums(), matplotlib.rcParams['lines.linewidth'], matplotlib.is_interactive()))",
    )
    left = plt.figure()
    open_before = plt.get_fignums()  # the left figure, and any another test of the worker left open
    was_interactive = matplotlib.is_interactive()
    try:
        plt.ioff()
        with matplotlib.rc_context({"lines.linewidth": 7.5}):
            nb = executor.execute(path, {}, plain=True)
            host_after = (plt.get_fignums(), matplotlib.rcParams["lines.linewidth"], matplotlib.is_interactive())
    finally:
        plt.close(left)
        matplotlib.interactive(was_interactive)
    (figure,) = nb["cells"][1]["outputs"]  # the chapter's figure only
    assert "image/svg+xml" in figure["data"]
    assert nb["cells"][2]["outputs"][0]["data"]["text/plain"] == repr(([], 1.5, True))
    assert host_after == (open_before, 7.5, False) and left.number in open_before


def test_a_chapters_figures_are_not_redrawn_at_each_change_and_the_host_keeps_its_display_hook(tmp_path):
    """As in a kernel, a chapter's figures carry no callback that each change of an artist calls
    (plain Python's display hook gives every new figure one in interactive mode); the host's hook
    is back after the chapter."""
    import matplotlib.pyplot as plt

    path = _notebook(
        tmp_path,
        "import matplotlib.pyplot as plt\nfrom benchbook.presentation import outputs\n"
        "fig = plt.figure()\noutputs.display(fig.stale_callback is None)\nplt.close(fig)",
    )
    plt.install_repl_displayhook()
    if plt._REPL_DISPLAYHOOK is not plt._ReplDisplayHook.PLAIN:
        pytest.skip("the host is IPython")
    nb = executor.execute(path, {}, plain=True)
    assert nb["cells"][1]["outputs"][0]["data"]["text/plain"] == "True"
    assert plt._REPL_DISPLAYHOOK is plt._ReplDisplayHook.PLAIN


def _counting_reads(monkeypatch) -> dict:
    reads: dict = {}
    real = ingest.read_lines

    def counted(path, *args, **kwargs):
        reads[path.name] = reads.get(path.name, 0) + 1
        return real(path, *args, **kwargs)

    monkeypatch.setattr(ingest, "read_lines", counted)
    return reads


@pytest.mark.notebooks
def test_a_report_reads_each_file_once(monkeypatch):
    """Detection, the run facts, the parameter checks and the chapters' own reading: one read. And what
    was read, with every module, is out of the garbage collector's sight while the chapters run, and
    back in it after."""
    import gc

    reads = _counting_reads(monkeypatch)
    monkeypatch.setattr(report, "WORKERS", 1)  # every chapter in this process, where the reads are counted
    frozen, outcome = [], report._outcome
    monkeypatch.setattr(report, "_outcome", lambda *a: frozen.append(gc.get_freeze_count()) or outcome(*a))
    assert gc.get_freeze_count() == 0
    with ingest.once():
        inputs = report.read_inputs([TGI, GYM])
        preps, sections = report.plan(inputs, {})
        report.execute_all(preps, sections, log=lambda m: None)
    assert [s.chapter for s in sections if s.executed] == ["tp_scaling", "attention_kernels"]
    assert reads == {TGI.name: 1, GYM.name: 1}
    assert len(frozen) == 2 and min(frozen) > 10_000  # pandas' and matplotlib's objects among them
    assert gc.get_freeze_count() == 0


def test_a_report_collects_young_objects_less_often_and_gives_back_the_threshold_it_found():
    import gc

    found = gc.get_threshold()
    try:
        gc.set_threshold(700, 10, 10)
        with report._collected_less():
            assert gc.get_threshold() == (report.YOUNG, 10, 10)
        assert gc.get_threshold() == (700, 10, 10)
        gc.set_threshold(10 * report.YOUNG, 5, 5)  # a host that collects even less often keeps its own
        with report._collected_less():
            assert gc.get_threshold() == (10 * report.YOUNG, 5, 5)
    finally:
        gc.set_threshold(*found)


def _said(inputs) -> list:
    return [(i.shown, i.tools, i.detected, i.problem, i.facts) for i in inputs]


def test_a_report_reads_its_files_in_a_copy_while_it_imports_and_holds_what_the_copy_read(monkeypatch):
    monkeypatch.setattr(report, "WORKERS", 2)
    with ingest.once():
        here = _said(report.read_inputs([TGI, GYM]))
    reads = _counting_reads(monkeypatch)  # in this process: the copy's reads are its own
    with ingest.once():
        inputs = report._read_meanwhile([TGI, GYM])
        ingest.read(TGI), ingest.context_of(GYM), ingest.read_parsed(GYM)
        assert reads == {}  # read by the copy, held here as if read here
    assert _said(inputs) == here


def test_a_report_reads_the_device_tables_before_its_chapters_fork(monkeypatch):
    """While the copy reads the files, the report reads the device table and compiles the device
    names' pattern, so that no process its chapters run in reads them again."""
    from benchbook import hardware
    from benchbook.ingest import context

    monkeypatch.setattr(report, "WORKERS", 2)
    hardware._index.cache_clear()
    context._device_pattern.cache_clear()
    with ingest.once():
        report._read_meanwhile([GYM])
    assert hardware._index.cache_info().currsize == 1
    assert context._device_pattern.cache_info().currsize == 1


def test_the_copy_that_reads_the_files_forks_with_the_tables_both_need_read(monkeypatch):
    """The parsers' modules, the device table and the device names' pattern are read before the copy
    that reads the files forks: once, not again in the copy."""
    from benchbook import forked, hardware
    from benchbook.ingest import context

    monkeypatch.setattr(report, "WORKERS", 2)
    hardware._index.cache_clear()
    context._device_pattern.cache_clear()
    at_fork = []
    fork = forked.Forked

    def seen(*args, **kwargs):
        at_fork.append((hardware._index.cache_info().currsize, context._device_pattern.cache_info().currsize))
        return fork(*args, **kwargs)

    monkeypatch.setattr(forked, "Forked", seen)
    with ingest.once():
        report._read_meanwhile([GYM])
    assert at_fork == [(1, 1)]


def test_where_the_copy_cannot_send_what_it_read_the_report_reads_the_files_itself(monkeypatch):
    monkeypatch.setattr(report, "WORKERS", 2)
    reads = _counting_reads(monkeypatch)
    monkeypatch.setattr(ingest, "kept", lambda: lambda: None)  # a function: no pickle sends it
    with ingest.once():
        inputs = report._read_meanwhile([TGI, GYM])
    assert reads == {TGI.name: 1, GYM.name: 1}
    assert [i.tools for i in inputs] == [["tgi-benchmark"], ["attention-gym"]]


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


def test_a_readers_interrupt_stops_the_report_not_only_its_chapter(tmp_path):
    path = _notebook(tmp_path, "raise KeyboardInterrupt")
    with pytest.raises(KeyboardInterrupt):
        executor.execute(path, {}, plain=True)
    with pytest.raises(executor.Failed):  # any other error is the chapter's, said in one sentence
        executor.execute(_notebook(tmp_path, "raise SystemExit(3)"), {}, plain=True)
