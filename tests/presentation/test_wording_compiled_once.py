"""A wording template is compiled once and its compiled code kept between runs (`wording._Compiled`):
the same sentence from the kept code as from a fresh compile, a template compiled again where its
text or the filters differ, and a cache folder that cannot be written leaves every sentence as it was."""

from __future__ import annotations

import jinja2
import pytest

from benchbook.presentation import wording

TEXT = "{{ n | plural('run') }} at {{ rate | sig }} tok/s{% if slo %}, within the SLO{% endif %}"
VALUES = {"n": 3, "rate": 1234.5678, "slo": True}


def _env(cache) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FunctionLoader(lambda text: (text, None, lambda: True)),
        bytecode_cache=cache,
        undefined=wording._Missing,
        finalize=wording._finalize,
    )
    env.filters.update(wording._FILTERS)
    return env


@pytest.fixture
def cache(tmp_path):
    return wording._Compiled(str(tmp_path))


def test_a_template_is_compiled_once_and_read_back(cache, tmp_path, monkeypatch):
    first = _env(cache).get_template(TEXT).render(VALUES)
    assert first == "3 runs at 1,235 tok/s, within the SLO"
    assert len(list(tmp_path.iterdir())) == 1

    def no_compile(*args, **kwargs):
        raise AssertionError("compiled again")

    env = _env(cache)  # a later run: a fresh environment, the same folder
    monkeypatch.setattr(env, "compile", no_compile)
    assert env.get_template(TEXT).render(VALUES) == first


def test_other_text_or_other_filters_are_compiled_again(cache, tmp_path, monkeypatch):
    _env(cache).get_template(TEXT)
    _env(cache).get_template(TEXT + ".")
    assert len(list(tmp_path.iterdir())) == 2
    monkeypatch.setitem(wording._FILTERS, "new", str)
    _env(cache).get_template(TEXT)
    assert len(list(tmp_path.iterdir())) == 3


def test_a_cache_that_cannot_be_written_changes_nothing(tmp_path):
    folder = tmp_path / "gone"
    folder.mkdir()
    cache = wording._Compiled(str(folder))
    folder.rmdir()  # every write fails
    assert _env(cache).get_template(TEXT).render(VALUES) == "3 runs at 1,235 tok/s, within the SLO"


def test_a_bad_template_is_refused_with_or_without_its_compiled_code(cache):
    with pytest.raises(jinja2.TemplateSyntaxError):
        _env(cache).get_template("{% if x %}never closed")
    with pytest.raises(jinja2.TemplateSyntaxError):
        _env(cache).get_template("{% if x %}never closed")


def test_the_wordings_renderer_uses_the_kept_code():
    assert isinstance(wording._ENV.bytecode_cache, wording._Compiled) or wording._ENV.bytecode_cache is None
    assert wording.render(TEXT, VALUES) == "3 runs at 1,235 tok/s, within the SLO"
