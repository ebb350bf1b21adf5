"""The data catalogue: manifests read whole (no value cut by a YAML comment) and their text shown
exactly (markup escaped, command-line options as code)."""

from __future__ import annotations

import re

import yaml
from markdown_it import MarkdownIt

from benchbook import catalogue, config

MANIFESTS = sorted(config.RAW_DIR.rglob("*.manifest.yml"))


def _strings(node) -> list[str]:
    if isinstance(node, dict):
        return [s for v in node.values() for s in _strings(v)]
    if isinstance(node, list):
        return [s for v in node for s in _strings(v)]
    return [str(node)]


def test_no_manifest_value_is_cut_by_a_yaml_comment():
    """' #' inside an unquoted value starts a comment: 'issues #566, #849' would silently vanish."""
    for path in MANIFESTS:
        text = path.read_text(encoding="utf-8")
        values = " ".join(_strings(yaml.safe_load(text)))
        for n, line in enumerate(text.splitlines(), 1):
            m = re.search(r"\s#(.*)$", line)
            if m and not line.lstrip().startswith("#"):
                rest = "#" + m.group(1).strip().rstrip("\"'")
                assert rest in values, f"{path.name}:{n}: '{rest}' is read as a YAML comment; quote the value"


def test_the_tgi_issue_numbers_survive():
    files = catalogue.manifests()
    facts = files[files["file"] == config.seed("000").name]["facts"].iat[0]
    assert any("issues #566, #849" in f["source"] for f in facts)


def test_md_text_escapes_markup_and_codes_options():
    assert catalogue.md_text("With no --max-concurrency, a_b * c") == r"With no `--max-concurrency`, a\_b \* c"
    assert catalogue.md_text("plain text 1-8 GPUs") == "plain text 1-8 GPUs"
    assert catalogue.md_text("tests/test_tgi_*.py") == r"tests/test\_tgi\_\*.py"


def test_the_rendered_catalogue_shows_each_value_exactly():
    html = MarkdownIt("commonmark").render(catalogue.describe(catalogue.manifests()))
    assert "<code>--max-concurrency</code>" in html
    assert "<em>Source: comparison of the two raw files (tests/test_tgi_*.py).</em>" in html
    assert "issues #566, #849" in html
    # one closed emphasis per fact, holding its whole source
    n_facts = sum(len(f) for f in catalogue.manifests()["facts"])
    assert html.count("<em>Source: ") == html.count(".</em>") == n_facts
