"""The words of the reasons a rule gives, kept in `reasons.yml` beside this module: the rules decide
which case holds (`benchbook.claims.rules`), the file words it, so a writer edits a reason without
opening Python and a chapter that says the same thing takes the same words."""

from __future__ import annotations

import functools
from importlib import resources

import yaml


@functools.cache
def _templates() -> dict[str, str]:
    text = resources.files("benchbook.claims").joinpath("reasons.yml").read_text(encoding="utf-8")
    return {k: " ".join(str(v).split()) for k, v in yaml.safe_load(text).items()}


def has(name: str) -> bool:
    """Whether `reasons.yml` words `name`."""
    return name in _templates()


def say(name: str, /, **values) -> str:
    """The reason `name` with its {fields} filled from `values` ({ask}: what a reason that assumes no
    device asks the reader for)."""
    templates = _templates()
    return templates[name].format_map({"ask": templates["ask"], **values})
