"""Every topic chapter on every real public output of its tool kept in tests/fixtures: it runs,
publishes a ledger that re-judges clean, and prints no missing value in a sentence. These are the
readers' runs; the seeds are only one input among them."""

from __future__ import annotations

import json
import re

import pytest
from conftest import TOPICS, glued_text

from benchbook import config, ingest, rerun
from benchbook.claims.rules import MISSING_WORDS, check
from benchbook.ingest import vllm_serve

pytestmark = pytest.mark.notebooks


def _cases():
    cases = []
    for chapter in TOPICS:
        tools = set(rerun.setup_call(chapter).get("tools", ()))
        sweeps = set()
        for path in sorted(config.FIXTURES_DIR.rglob("*")):
            if not path.is_file() or path.name == "README.md" or "compare" in path.parts:
                continue
            if vllm_serve.sweep_params(path.parent.name) is not None:  # a vllm bench sweep: the folder is the input
                root = path.parent.parent  # the sweep's TIMESTAMP folder
                if "vllm-bench-serve" in tools and root not in sweeps:
                    sweeps.add(root)
                    cases.append(pytest.param(chapter, root, id=f"{chapter}-{root.parent.name}"))
                continue
            try:
                found = ingest.detect(ingest._load_text(path))
            except ingest.ParseError:
                continue
            if set(found) & tools:
                cases.append(pytest.param(chapter, path, id=f"{chapter}-{path.name}"))
    return cases


def _page_text(nb: dict) -> str:
    """The prose a reader sees: markdown with every glued value put in its place."""
    glued = {}
    for c in nb["cells"]:
        for o in c.get("outputs", []) if c["cell_type"] == "code" else []:
            name = o.get("metadata", {}).get("scrapbook", {}).get("name")
            if name:
                glued[name] = glued_text(o["data"]).strip("'\"")
    md = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    return re.sub(r"\{glue:(?:text|md)\}`([A-Za-z0-9_]+)(?::[^`]*)?`", lambda m: glued.get(m.group(1), ""), md)


@pytest.mark.parametrize("chapter,path", _cases())
def test_chapter_on_a_real_output(tmp_path, chapter, path):
    nb_path, _ = rerun.run(chapter, {}, [str(path)], tmp_path, progress=False, log=lambda *_: None)
    nb = json.loads(nb_path.read_text(encoding="utf-8"))
    ledger = json.loads((tmp_path / f"{chapter}.claims.json").read_text(encoding="utf-8"))
    assert check(ledger) == []
    text = re.sub(r"`[^`\n]*`", "", _page_text(nb))  # code spans may name values such as `--request-rate inf`
    hits = [m.group(0) for m in MISSING_WORDS.finditer(text)]
    assert not hits, f"{chapter} on {path.name} prints {hits[:5]}"
