"""A report's page is made without a kernel, IPython or Sphinx (`executor.run_plain`, then
`presentation.page_html`); it must say what the chapter's notebook executed in a kernel (as the book
executes it) says. On one real fixture of each topic chapter, run both ways: the page text (the
prose with every glued value in place, `conftest.page_text`), the shown tables and Markdown, the
claims ledger and the figures' SVG are the same. These are also the fixture-pages test's sample run
through the notebook itself."""

from __future__ import annotations

import json
import re

import pytest
from conftest import TOPICS, page_text

from benchbook import config, executor
from benchbook.claims import from_notebook
from benchbook.presentation import outputs, page_html
from benchbook.rerun import prepare, sanitize

FIX = config.FIXTURES_DIR
#: One real fixture per topic chapter, each of a different tool where the chapters allow.
SAMPLE = {
    "tp_scaling": FIX / "tgi-benchmark" / "bloomz_1b1_tp_2_4_8.md",
    "quantization_regimes": FIX / "sglang-quant-report" / "qwen_quantization_result_cut.jsonl",
    "perf_per_watt": FIX / "llama-bench" / "arc_a310_pi500_vulkan.md",
    "bandwidth_roofline": FIX / "llama-bench" / "arc_a310_pi500_vulkan.md",
    "serving_saturation": FIX / "vllm-bench-serve" / "dgx_spark_08_sharegpt.md",
    "batch_saturation": FIX / "hf-batch-sweep" / "readme_0253839c_gpt2_mha.md",
    "attention_kernels": FIX / "attention-gym" / "rtx4090_flex_attn_noop.md",
}

#: What differs between any two executions: a Styler's random id, an object's address.
_RANDOM = [(re.compile(r"T_[0-9a-f]{5}"), "T_?"), (re.compile(r" at 0x[0-9a-f]+"), " at 0x?")]


def _blank(text: str) -> str:
    for pattern, blank in _RANDOM:
        text = pattern.sub(blank, text)
    return text


def _shown(nb) -> list[str]:
    """What each cell shows that is not glued: tables' HTML, Markdown, streams (whitespace folded)."""
    out = []
    for cell in nb["cells"]:
        for o in cell.get("outputs", []) if cell["cell_type"] == "code" else []:
            if o["output_type"] == "stream":
                out.append(o["text"])
            elif not (o.get("metadata") or {}).get("scrapbook"):
                data = o.get("data", {})
                shown = data.get("text/html") or data.get("text/markdown") or ""
                out.append("".join(shown) if isinstance(shown, list) else shown)
    return [_blank(re.sub(r"\s+", " ", s).strip()) for s in out if s]


def _figures(nb) -> dict[str, str]:
    """Each glued figure's SVG, by name."""
    svg = outputs.GLUE_PREFIX + "image/svg+xml"
    return {
        o["metadata"]["scrapbook"]["name"]: "".join(o["data"][svg])
        for c in nb["cells"]
        for o in c.get("outputs", [])
        if svg in o.get("data", {})
    }


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def test_every_topic_chapter_has_a_sample():
    assert set(SAMPLE) == set(TOPICS)


@pytest.mark.notebooks
@pytest.mark.parametrize("chapter", sorted(SAMPLE))
def test_the_plain_page_says_what_the_executed_notebook_says(chapter):
    prep = prepare(chapter, {}, [str(SAMPLE[chapter])])
    notebook = config.NOTEBOOKS_DIR / f"{chapter}.ipynb"
    here = executor.execute(notebook, prep.parameters)  # in a kernel
    plain = executor.execute(notebook, prep.parameters, plain=True)
    for nb in (here, plain):
        sanitize(nb, prep, f"{chapter}.ipynb")
    assert _flat(page_text(plain)) == _flat(page_text(here))
    assert _shown(plain) == _shown(here)
    assert from_notebook(plain) == json.loads(json.dumps(from_notebook(here)))
    assert _figures(plain) == _figures(here)  # drawn the same, byte for byte
    # the page renders every role and directive the chapter uses, and leaves none raw
    html = page_html.page(plain, chapter, {}, page_html.read_glossary((config.BOOK_DIR / "glossary.md").read_text()))
    assert not re.search(r"\{(?:glue|term|doc)[:}]|```|:::", html)
