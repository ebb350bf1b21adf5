"""Every entry point learns about a chapter from its declaration, and the declaration covers the book."""

import re

import pytest

from benchbook import build, config, declarations, ingest, parameters


def test_every_chapter_of_the_book_is_declared_once():
    names = [c.name for c in declarations.CHAPTERS]
    assert len(names) == len(set(names))
    assert set(build.chapters()) == set(names)


@pytest.mark.parametrize("chapter", [c.name for c in declarations.CHAPTERS])
def test_a_chapter_reads_only_tools_the_package_can_parse(chapter):
    known = set(ingest.tools())
    assert set(declarations.chapter(chapter).tools) <= known


@pytest.mark.parametrize("chapter", [c.name for c in declarations.CHAPTERS])
def test_every_declared_figure_is_drawn_by_the_notebook_and_every_drawn_figure_is_declared(chapter):
    source = (config.NOTEBOOKS_DIR / f"{chapter}.md").read_text(encoding="utf-8")
    drawn = set(re.findall(r"\{glue:figure\}\s+(\w+)", source))
    # a data figure drawn only where the input has its data: its directive is glued as Markdown
    # (`{glue:md} results_*`) by the chapter's topic module, which names it in `FIGURE_BLOCKS`
    drawn |= set(getattr(_topic(chapter), "FIGURE_BLOCKS", ()))
    assert drawn == set(declarations.chapter(chapter).figures)


@pytest.mark.parametrize("chapter", [c.name for c in declarations.CHAPTERS])
def test_every_parameter_path_is_a_declared_parameter(chapter):
    c = declarations.chapter(chapter)
    assert set(c.paths) <= {p.name for p in c.parameters}
    assert all(p.name in parameters.CONSTRAINTS for p in c.parameters)


def _topic(chapter: str):
    import importlib

    try:
        return importlib.import_module(f"benchbook.topics.{chapter}")
    except ModuleNotFoundError:
        return None


def test_an_unknown_chapter_is_refused_in_one_sentence():
    from benchbook.chapter import ParameterError, declared

    with pytest.raises(ParameterError, match="there is no chapter called 'nope'; the book's chapters are: "):
        declared("nope")


def test_the_run_on_your_data_table_lists_each_chapter_with_its_tools():
    page = build.accepts_page(["tp_scaling", "tracking"])
    assert "`tgi-benchmark`" in page and "Tensor-parallel scaling" in page
    assert page.count("\n") == 4


def test_a_project_may_declare_a_chapter_of_its_own(monkeypatch):
    from benchbook.chapter import declared

    monkeypatch.setattr(declarations, "BY_NAME", dict(declarations.BY_NAME))
    declarations.register(
        declarations.Chapter(
            "mine", "Mine", "What of mine?", parameters=(declarations.Param("source", "x.txt", "my file"),)
        )
    )
    assert declared("mine") == {"source": {"type": "str", "default": "x.txt", "help": "my file"}}
