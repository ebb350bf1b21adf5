"""The one executor: a fresh kernel that dies before it answers is replaced, any other failure is
said once with what ran before it, and nothing is left on disk."""

import json
import os
import tempfile

import nbformat
import pytest

from benchbook import executor


def _runs(monkeypatch, behaviour):
    import papermill

    calls = []

    def fake(source, out, **kwargs):
        calls.append(kwargs)
        behaviour(len(calls), out)

    monkeypatch.setattr(papermill, "execute_notebook", fake)
    return calls


def _wrote_one_cell(out):
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1")]), out)


def test_a_kernel_that_dies_at_start_is_replaced(monkeypatch):
    def flaky(n, out):
        if n == 1:
            raise RuntimeError("Kernel died before replying to kernel_info")
        _wrote_one_cell(out)

    calls = _runs(monkeypatch, flaky)
    nb = executor.execute("in.ipynb", {})
    assert len(calls) == 2 and nb.cells[0].source == "1"


def test_other_errors_are_not_retried_and_keep_what_ran(monkeypatch):
    def broken(n, out):
        _wrote_one_cell(out)
        raise RuntimeError("something else\nmore detail")

    calls = _runs(monkeypatch, broken)
    with pytest.raises(executor.Failed) as info:
        executor.execute("in.ipynb", {})
    assert len(calls) == 1
    assert (info.value.cell, info.value.ename, info.value.evalue) == (None, "RuntimeError", "something else")
    assert info.value.partial.cells[0].source == "1"


def test_a_kernel_that_never_starts_gives_up_after_the_attempts(monkeypatch):
    def dead(n, out):
        raise RuntimeError("Kernel died before replying to kernel_info")

    calls = _runs(monkeypatch, dead)
    with pytest.raises(executor.Failed, match="Kernel died"):
        executor.execute("in.ipynb", {})
    assert len(calls) == executor.KERNEL_START_ATTEMPTS


def test_a_warm_kernel_is_used_as_given_and_never_retried(monkeypatch):
    def dead(n, out):
        raise RuntimeError("Kernel died before replying to kernel_info")

    calls = _runs(monkeypatch, dead)
    km = object()
    with pytest.raises(executor.Failed):
        executor.execute("in.ipynb", {}, km=km)
    assert len(calls) == 1 and calls[0]["km"] is km and "kernel_manager_class" not in calls[0]
    assert calls[0]["request_save_on_cell_execute"] is False  # only a reader's run keeps what ran before a failure


def test_nothing_is_left_in_the_temporary_folder(monkeypatch):
    before = set(os.listdir(tempfile.gettempdir()))
    _runs(monkeypatch, lambda n, out: _wrote_one_cell(out))
    executor.execute("in.ipynb", {})
    assert {f for f in set(os.listdir(tempfile.gettempdir())) - before if f.startswith("benchbook-exec-")} == set()


def test_scrub_replaces_machine_paths_in_every_kind_of_output():
    nb = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_code_cell(
                "x",
                outputs=[
                    nbformat.v4.new_output("stream", name="stdout", text="/m/p/data/x.txt"),
                    nbformat.v4.new_output("error", ename="E", evalue="/m/p/y", traceback=["at /m/p/z"]),
                    nbformat.v4.new_output("display_data", data={"text/html": "<b>/m/p/q</b>", "image/png": "/m/p/"}),
                ],
            )
        ]
    )
    executor.scrub(nb, {"/m/p/": ""})
    outs = nb.cells[0].outputs
    assert outs[0]["text"] == "data/x.txt" and outs[1]["evalue"] == "y" and outs[1]["traceback"] == ["at z"]
    assert outs[2]["data"]["text/html"] == "<b>q</b>" and outs[2]["data"]["image/png"] == "/m/p/"


def test_a_figure_with_no_data_is_not_drawn_its_sentence_stands_in_its_place():
    import nbformat

    from benchbook.executor import unfigure

    def glued(name, data):
        return nbformat.v4.new_output("display_data", data=data, metadata={"scrapbook": {"name": name}})

    code = nbformat.v4.new_code_cell("pg.glue()")
    code.outputs = [
        glued("fig_a", {"application/papermill.record/image/svg+xml": "<svg/>", "text/plain": "<Figure>"}),
        glued("fig_b", {"text/markdown": "No run has a latency to plot.", "text/plain": "<Markdown>"}),
    ]
    md = "Intro.\n\n```{glue:figure} fig_a\n:name: a\n\nCaption a.\n```\n\n```{glue:figure} fig_b\n:name: b\n\nCaption b.\n```\n"
    nb = unfigure(nbformat.v4.new_notebook(cells=[code, nbformat.v4.new_markdown_cell(md)]))
    shown = nb.cells[1].source
    assert "```{glue:figure} fig_a" in shown and "Caption a." in shown  # a drawn figure keeps its caption
    assert "{glue:md}`fig_b`" in shown and "Caption b." not in shown and "{glue:figure} fig_b" not in shown


def _plain_notebook(tmp_path, *sources: str):
    cells = [nbformat.v4.new_code_cell("x = 1\n"), *(nbformat.v4.new_code_cell(s) for s in sources)]
    cells[0].metadata["tags"] = ["parameters"]
    path = tmp_path / "nb.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=cells), path)
    return path


def test_a_plain_run_records_what_a_cell_glues_displays_prints_and_warns(tmp_path):

    path = _plain_notebook(
        tmp_path,
        "from benchbook.presentation import outputs\noutputs.glue('n', f'{x} requests')\n"
        "outputs.display('**m**', markdown=True)",
        "import warnings\nprint('a')\nwarnings.warn('odd', UserWarning)",
        "import matplotlib.pyplot as plt\nplt.plot([1, 2])",
    )
    nb = executor.execute(path, {"x": 2}, plain=True)
    glued, shown = nb["cells"][2]["outputs"]
    assert glued["data"] == {"application/papermill.record/text/plain": "'2 requests'"}
    assert glued["metadata"]["scrapbook"]["name"] == "n"
    assert shown["data"]["text/markdown"] == "**m**"
    out, err = nb["cells"][3]["outputs"]
    assert out == {"output_type": "stream", "name": "stdout", "text": "a\n"}
    assert err["name"] == "stderr" and "UserWarning: odd" in err["text"]
    (figure,) = nb["cells"][4]["outputs"]  # left open: shown at the end of its cell, as the inline backend does
    assert figure["data"]["image/svg+xml"].startswith("<?xml")  # drawn at the end of the run


def test_a_plain_run_that_fails_says_which_cell_and_why(tmp_path):
    path = _plain_notebook(tmp_path, "y = 2", "raise ValueError('no runs in the file')")
    with pytest.raises(executor.Failed) as failed:
        executor.execute(path, {}, plain=True)
    assert (failed.value.cell, failed.value.ename, failed.value.evalue) == (3, "ValueError", "no runs in the file")


def test_a_numpy_number_glued_in_plain_python_reads_as_a_plain_number(tmp_path):
    """As `chapter.setup` makes a kernel show it: 2.5, not np.float64(2.5)."""
    path = _plain_notebook(
        tmp_path,
        "import numpy as np\nfrom benchbook.presentation import outputs\n"
        "outputs.glue('n', np.float64(2.5))\noutputs.glue('k', np.int64(3))",
    )
    nb = executor.execute(path, {}, plain=True)
    assert [o["data"]["application/papermill.record/text/plain"] for o in nb["cells"][1]["outputs"]] == ["2.5", "3"]


def test_a_label_no_installed_font_can_draw_leaves_no_warning_on_the_page(tmp_path):
    """stop 47 (a vllm-ascend report's runs under the heading `原始日志`): matplotlib's missing-glyph notice
    is not printed; any other warning of a cell still is."""
    path = _plain_notebook(
        tmp_path,
        "import matplotlib.pyplot as plt\nfig, ax = plt.subplots()\nax.set_title('\u539f\u59cb\u65e5\u5fd7')\n"
        "fig.canvas.draw()",
        "import warnings\nwarnings.warn('Glyph 1 of another kind', RuntimeWarning)",
    )
    nb = executor.execute(path, {"x": 2}, plain=True)
    text = json.dumps(nb["cells"][2]["outputs"])
    assert "missing from font" not in text
    assert "RuntimeWarning: Glyph 1 of another kind" in json.dumps(nb["cells"][3]["outputs"])
