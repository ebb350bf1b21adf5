"""The wording layer: claims' sentences come from notebooks/<chapter>.claims.yml through one renderer
that never prints a missing value, and the chapters' sentences live in those files, not in Python."""

from __future__ import annotations

import ast
import fnmatch
import math
import re

import pytest
import yaml

from benchbook import config
from benchbook.claims import make
from benchbook.presentation import wording

#: The chapters whose claims' sentences live in notebooks/<chapter>.claims.yml, and the modules of
#: benchbook.claims that make their claims: every chapter of the book.
CHAPTERS = {
    "tp_scaling": ("tp",),
    "quantization_regimes": ("quant",),
    "bandwidth_roofline": ("bandwidth",),
    "serving_saturation": ("serving",),
    "batch_saturation": ("batch",),
    "attention_kernels": ("attention",),
    "tracking": ("tracking",),
    "perf_per_watt": ("power", "energy"),
}

WORDS = """
words:
  source: {detected: named in the input}
sentences:
  input: "Input: {{ files | and_list }}{% if device %} on the {{ device }}{% endif %}, peak {{ peak | num }}."
kinds:
  anomaly:
    withheld: "{{ topic }}: nothing of the kind in {{ n }} rows."
claims:
  rows:
    topic: Odd rows
    shown: >-
      {{ count }} of {{ n }} rows are odd
      ({{ share | pct(1) }}, {{ bytes | num }} bytes{% if note %}; {{ note }}{% endif %}),
      peak {{ words.source[peak_source] }}.
  plain:
    topic: Plain
    shown: "{{ count }} of {{ n }}."
    withheld: "{% if n %}None of the {{ n }} rows.{% endif %}"
    fragile: "A close call: {{ margin | fmt('+.0%') }}."
  'step_*':
    topic: "the step to {{ run }}"
    shown: "{{ ratios | fixed(2) }} at {{ runs | and_list }}; {{ low | span(high, '.0%') }}."
"""


@pytest.fixture
def chapter(tmp_path, monkeypatch):
    """A chapter named `demo` whose wording file is WORDS."""
    monkeypatch.setattr(config, "NOTEBOOKS_DIR", tmp_path)
    (tmp_path / "demo.claims.yml").write_text(WORDS)
    return "demo"


def rows(**ev):
    base = {"count": 3, "n": 12, "share": 0.25, "bytes": 12345.6, "note": None, "peak_source": "detected"}
    return make("rows", "anomaly", "odd rows", {**base, **ev})


def test_shown_sentence_is_rendered_from_the_chapter_file(chapter):
    c = wording.word(chapter, rows(note="see line 4"))
    assert c.status == "shown"
    assert c.text == "3 of 12 rows are odd (25.0%, 12,346 bytes; see line 4), peak named in the input."


@pytest.mark.parametrize("missing", [{"bytes": None}, {"bytes": math.nan}, {"bytes": float("inf")}])
def test_a_missing_value_withholds_the_claim_instead_of_printing_it(chapter, missing):
    c = wording.word(chapter, rows(**missing))
    assert c.status == "withheld" and c.reason == "the input does not give bytes"
    assert "None" not in c.text and "nan" not in c.text and "inf" not in c.text
    # the kind's withheld wording, not the shown sentence with a hole in it
    assert c.text == "Odd rows: nothing of the kind in 12 rows."


def test_a_value_absent_from_the_evidence_withholds_too(chapter):
    c = make("rows", "anomaly", "odd rows", {"count": 3, "n": 12, "share": 0.25, "note": None})
    c = wording.word(chapter, c)
    assert c.status == "withheld" and c.reason == "the input does not give bytes"


def test_a_missing_value_is_false_in_a_test(chapter):
    assert "; " not in wording.word(chapter, rows(note=None)).text
    assert "; x)" in wording.word(chapter, rows(note="x")).text


def test_withheld_wording_falls_back_from_claim_to_kind_to_default(chapter):
    none_found = make("plain", "anomaly", "r", {"count": 0, "n": 7})
    assert wording.word(chapter, none_found).text == "None of the 7 rows."
    nothing = make("plain", "anomaly", "r", {"count": 0, "n": 0})  # claim's template renders empty
    assert wording.word(chapter, nothing).text == "Plain: nothing of the kind in 0 rows."
    other = make("step_3", "comparison", "r", {"a": 1.0, "b": None, "ratio": None, "noise": 0.1, "run": "r3"})
    assert wording.word(chapter, other).text.startswith("The step to r3: not stated for this input, because ")


def test_a_verdict_inside_its_noise_says_it_is_fragile(chapter):
    c = wording.word(chapter, rows(fragile=True, margin=0.02))
    assert c.text.endswith(
        "in the input. This verdict is fragile: it is 2% over the threshold it turns on, inside the noise."
    )
    slo = {"slo_percentile": "p99 TPOT", "slo_value": 39.59, "slo": 40.0}
    c = wording.word(chapter, rows(fragile=True, margin=-0.0103, **slo))
    assert c.text.endswith(
        "This verdict is fragile: its p99 TPOT (39.59 ms) is 1% under its SLO (40 ms), inside the noise."
    )
    # the run the verdict chose is named, so "its" cannot be read as the sweep's
    c = wording.word(chapter, rows(fragile=True, margin=-0.0103, choice="c=128", **slo))
    assert "This verdict is fragile: run `c=128`'s p99 TPOT (39.59 ms) is 1% under" in c.text
    # a value the sentence prints is missing: still marked fragile, never shown as firm
    c = wording.word(chapter, rows(fragile=True, margin=-0.0103, **{**slo, "slo_value": None}))
    assert c.status == "shown" and c.text.endswith(wording.load("report")["sentences"]["fragile_plain"])
    # outside the noise, or not shown, or no margin: nothing added
    assert "fragile" not in wording.word(chapter, rows(fragile=False, margin=0.02)).text
    assert "fragile" not in wording.word(chapter, rows(fragile=True, margin=None)).text
    withheld = wording.word(chapter, rows(fragile=True, margin=0.02, bytes=None))
    assert withheld.status == "withheld" and "fragile" not in withheld.text
    # a chapter may word it per claim
    close = make("plain", "anomaly", "r", {"count": 1, "n": 7, "fragile": True, "margin": 0.03})
    assert wording.word(chapter, close).text == "1 of 7. A close call: +3%."


def test_lists_spans_and_globbed_ids(chapter):
    ev = {"a": 2.0, "b": 1.0, "ratio": 2.0, "noise": 0.01, "run": "r2", "ratios": [1.0, 2.5, 3.25]}
    c = wording.word(
        chapter, make("step_2", "comparison", "r", {**ev, "runs": ["a", "b", "c"], "low": 0.1, "high": 0.1})
    )
    assert c.text == "1.00, 2.50 and 3.25 at a, b and c; 10%."
    c = wording.word(chapter, make("step_2", "comparison", "r", {**ev, "runs": ["a"], "low": 0.1, "high": 0.2}))
    assert c.text.endswith("at a; 10% to 20%.")


def test_an_unknown_claim_or_a_broken_file_names_the_file(chapter, tmp_path):
    with pytest.raises(wording.WordingError, match=r"notebooks/demo\.claims\.yml has no sentence for claim 'other'"):
        wording.word(chapter, make("other", "anomaly", "r", {"count": 1, "n": 2}))
    (tmp_path / "demo.claims.yml").write_text("claims:\n  rows: [unclosed\n")
    with pytest.raises(wording.WordingError, match=r"notebooks/demo\.claims\.yml \(line \d+\): not valid YAML"):
        wording.load(chapter)
    (tmp_path / "demo.claims.yml").write_text("claims:\n  rows:\n    topic: no sentence\n")
    with pytest.raises(wording.WordingError, match="claim 'rows' needs `shown`"):
        wording.load(chapter)


def test_loading_the_wording_logs_the_chapter_file_as_read(chapter, tmp_path, monkeypatch):
    """The build's cache keys a chapter on the files it read: its own wording file, no other."""
    log = tmp_path / "reads.log"
    monkeypatch.setenv(config.READS_LOG_ENV, str(log))
    wording.word(chapter, rows())
    assert log.read_text().split() == [str((tmp_path / "demo.claims.yml").resolve())]


def test_a_descriptive_sentence_comes_from_the_file_and_a_missing_value_leaves_it_out(chapter):
    assert (
        wording.sentence(chapter, "input", files=["a", "b"], device=None, peak=1234.5) == "Input: a and b, peak 1,234."
    )
    assert wording.sentence(chapter, "input", files=["a"], device="X", peak=2.0) == "Input: a on the X, peak 2."
    assert wording.sentence(chapter, "input", files=["a"], device="X", peak=math.nan) == ""
    with pytest.raises(wording.WordingError, match=r"notebooks/demo\.claims\.yml has no sentence 'other'"):
        wording.sentence(chapter, "other")


def test_every_sentence_a_presentation_module_says_is_in_its_chapter_file():
    """`_say("name", ...)` in presentation/<topic>.py names a sentence of the chapter the module serves."""
    said = {
        "perf_per_watt": ["power", "energy"],
        "tp_scaling": ["tp"],
        "bandwidth_roofline": ["bandwidth"],
        **{chapter: [module] for chapter, module in PROSE_IN_FILES.items()},
    }
    for chapter_name, modules in said.items():
        have = set(wording.load(chapter_name).get("sentences") or {})
        for module in modules:
            text = (config.PROJ_ROOT / "src" / "benchbook" / "presentation" / f"{module}.py").read_text()
            names = re.findall(r'_say\(\s*"(\w+)"', text)
            assert names, module
            assert set(names) <= have, (module, set(names) - have)


# --- the book's chapters ------------------------------------------------------------------------


def _made_ids(module: str) -> list[str]:
    """Globs of the claim ids `benchbook.claims.<module>` makes: literals as they are, f-strings with
    their fields as `*`, `_ids(kind, "name")` as `name_*` (ids passed in as variables are left out)."""
    tree = ast.parse((config.PROJ_ROOT / "src" / "benchbook" / "claims" / f"{module}.py").read_text())
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "make" and node.args:
            arg = node.args[0]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                out.append(arg.value)
            elif isinstance(arg, ast.JoinedStr):
                out.append("".join(v.value if isinstance(v, ast.Constant) else "*" for v in arg.values))
            elif isinstance(arg, ast.Call) and getattr(arg.func, "id", None) == "_ids":
                name = arg.args[-1]
                if isinstance(name, ast.Constant):
                    out.append(f"{name.value}_*")
    return out


@pytest.mark.parametrize("chapter_name", sorted(CHAPTERS))
def test_every_claim_a_chapter_makes_has_its_sentence_in_the_chapter_file(chapter_name):
    data = wording.load(chapter_name)
    keys = list(data["claims"])
    ids = [cid for module in CHAPTERS[chapter_name] for cid in _made_ids(module)]
    assert ids, chapter_name
    for cid in ids:
        probe = cid.replace("*", "1")
        assert any(probe == k or fnmatch.fnmatchcase(probe, k) for k in keys), f"{chapter_name}: no sentence for {cid}"


def _python_sentences() -> dict[str, int]:
    """Claims' sentences still written in Python: the calls of the retired str.format `say`, per module."""
    out = {}
    for p in sorted((config.PROJ_ROOT / "src" / "benchbook").rglob("*.py")):
        n = len(re.findall(r"\bsay\(\s*(?:claim|c)\b", p.read_text()))
        if n:
            out[p.relative_to(config.PROJ_ROOT / "src").as_posix()] = n
    return out


#: The chapters whose every descriptive sentence lives in their wording file's `sentences:`, and the
#: presentation module that says them: none of its string literals may be prose.
PROSE_IN_FILES = {
    "tracking": "tracking",
    "attention_kernels": "attention",
    "quantization_regimes": "quant",
    "batch_saturation": "batch",
}
#: Calls whose string arguments are labels, keys or patterns, not prose: axis labels and titles,
#: string methods, the wording API itself, table renames.
_LABEL_CALLS = {
    "set_xlabel", "set_ylabel", "set_title", "suptitle", "annotate", "text", "set_label", "legend",
    "set_xticks", "set_yticks", "set_xticklabels", "startswith", "removeprefix", "contains", "split", "join",
    "replace", "format", "sentence", "words", "_say", "get", "rename", "assign",
}  # fmt: skip
#: Keyword arguments that take a label (a legend entry, a table's column names) or a style.
_LABEL_KEYWORDS = {"label", "title", "columns", "ls", "fmt", "color", "marker", "ha", "va", "loc", "textcoords"}


def _python_prose(source: str) -> list[str]:
    """The string literals and f-strings of a module that read as prose (three words or more, with a
    space), leaving out docstrings, labels (the arguments of `_LABEL_CALLS` and `_LABEL_KEYWORDS`),
    dictionary literals (table columns and cell words), subscripts and comparisons."""
    tree = ast.parse(source)
    skip: set[int] = set()

    def leave_out(node):
        skip.update(id(n) for n in ast.walk(node))

    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (
            isinstance(body, list)
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
        ):
            skip.add(id(body[0].value))
        if isinstance(node, ast.Call):
            if (getattr(node.func, "attr", None) or getattr(node.func, "id", None)) in _LABEL_CALLS:
                for arg in node.args:
                    leave_out(arg)
            for kw in node.keywords:
                if kw.arg in _LABEL_KEYWORDS:
                    leave_out(kw.value)
        if isinstance(node, ast.Subscript):
            leave_out(node.slice)
        if isinstance(node, (ast.Compare, ast.Dict)):
            leave_out(node)
    found = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.JoinedStr):
            text = "".join(v.value if isinstance(v, ast.Constant) else " x " for v in node.values)
            skip.update(id(v) for v in node.values)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
        else:
            continue
        if " " in text.strip() and len(re.findall(r"[A-Za-z]{2,}", text)) >= 3:
            found.append(" ".join(text.split()))
    return found


def test_a_sentence_written_in_python_is_found_and_a_label_is_not():
    module = '''
"""Docstring: a sentence about the module."""
def f(ax, n, d):
    """What it does, in words."""
    ax.set_xlabel("batch size (sequences per call, log scale)")
    ax.plot([1], [2], label=f"{n} per sequence, measured")
    t = d.rename(columns={"a": "time per token (ms)"})
    if d["status"] == "ran out of memory":
        return f"{n} of the runs have no result at all."
    return "No series in this input." if n else wording.sentence("x", "the name of a sentence")
'''
    assert _python_prose(module) == ["x of the runs have no result at all.", "No series in this input."]


@pytest.mark.parametrize("chapter_name", sorted(PROSE_IN_FILES))
def test_a_migrated_presentation_module_writes_no_sentence_in_python(chapter_name):
    """Its descriptions (`_say`) and figures' placeholders come from the chapter's `sentences:` and
    `words:`; a new f-string sentence in the module fails here."""
    module = PROSE_IN_FILES[chapter_name]
    text = (config.PROJ_ROOT / "src" / "benchbook" / "presentation" / f"{module}.py").read_text()
    assert _python_prose(text) == [], module
    assert wording.load(chapter_name).get("sentences"), chapter_name


def test_at_least_nine_in_ten_shown_sentences_live_in_the_chapter_files():
    """Every chapter counts, perf_per_watt included; today none is left in Python, and the old API is
    gone. The descriptive sentences count too: those of the chapters in PROSE_IN_FILES, in their
    files' `sentences:` against the prose left in their presentation modules."""
    in_files = sum(len(yaml.safe_load(wording.path(ch).read_text())["claims"]) for ch in CHAPTERS)
    in_python = _python_sentences()
    for chapter_name, module in PROSE_IN_FILES.items():
        in_files += len(wording.load(chapter_name).get("sentences") or {})
        prose = _python_prose((config.PROJ_ROOT / "src" / "benchbook" / "presentation" / f"{module}.py").read_text())
        if prose:
            in_python[f"benchbook/presentation/{module}.py"] = len(prose)
    assert in_files / (in_files + sum(in_python.values())) >= 0.9, (in_files, in_python)
    assert not any(mod.startswith("benchbook/presentation/") for mod in in_python), in_python
    assert not hasattr(wording, "say")


def test_compare_words_its_claims_from_the_file_the_package_ships():
    """`benchbook compare` is no chapter: its wording ships inside the package, found without the book."""
    from importlib import resources

    shipped = resources.files("benchbook").joinpath("compare.claims.yml")
    assert shipped.is_file() and wording.path("compare").read_text() == shipped.read_text()
    ev = {"a": 1.2, "b": 1.0, "ratio": 1.2, "noise": 0.05, "run": "r2", "baseline_run": "r1"}
    c = wording.word("compare", make("t_ttft_mean_0", "comparison", "r", {**ev, "metric": "ttft", "statistic": "mean"}))
    assert c.text == "The ttft (mean) of r2 is 1.200 x that of r1, beyond the noise (5.0%)"
    ev.update(metric="ttft", statistic="mean")
    c = wording.word("compare", make("t_ttft_mean_0", "comparison", "r", {**ev, "noise": 0.5}))
    assert c.status == "withheld" and c.text.startswith("The ttft (mean) of r2 against r1: not stated for this input")
    with pytest.raises(wording.WordingError, match=r"^benchbook/compare\.claims\.yml, claim "):
        wording.word("compare", make("x", "comparison", "r", {**ev, "noise": "5%"}))


def test_a_template_error_names_the_file_and_the_claim(chapter, tmp_path):
    (tmp_path / "demo.claims.yml").write_text("claims:\n  rows:\n    shown: '{% if count %}unclosed'\n")
    with pytest.raises(wording.WordingError, match=r"notebooks/demo\.claims\.yml: rows \(shown\): "):
        wording.load(chapter)
    (tmp_path / "demo.claims.yml").write_text("claims:\n  rows:\n    shown: '{{ note | fixed(2) }}'\n")
    with pytest.raises(wording.WordingError, match=r"notebooks/demo\.claims\.yml, claim 'rows': a template cannot"):
        wording.word(chapter, rows(note="text"))


#: presentation/serving.py's descriptive sentences, moved from f-strings into the chapter's `sentences:`.
SERVING_SENTENCES = (
    "inputs_sentence",
    "repeats_sentence",
    "curve_note",
    "device_sentence",
    "in_flight_sentence",
    "apart_message",
    "runs_intro",
    "pareto_sentence",
)


def test_serving_inputs_say_a_single_run_kept_apart_once():
    """A file of one run, kept apart from the curve, reads as one run ("one run of X, ..., with no
    concurrency cap kept apart"), not as two ("one run of X ...; one run with ..."); beside a run on the
    curve, the run kept apart is counted on its own."""
    from benchbook.analysis import serving
    from benchbook.presentation import serving as show

    r, _ = serving.load([config.seed("004")])
    apart = serving.apart(r, "max_concurrency")
    one = r[apart]
    assert len(one) == 1
    said = show.inputs_sentence("F", one, "max_concurrency", 1)
    assert said == (
        "This page reads F: one run of shisa-ai/shisa-v2-unphi4-14b, at a single load level, with no concurrency "
        "cap kept apart."
    )
    assert said.count("one run") == 1
    unrecorded = r[~apart].iloc[:1].assign(max_concurrency=math.nan, max_concurrency_recorded=False)
    said = show.inputs_sentence("F", unrecorded, "max_concurrency", 1)
    assert said.endswith(", kept apart because the output does not record its concurrency cap.")
    assert said.count("one run") == 1
    two = r[apart | (r.index == r[~apart].index[0])]
    assert show.inputs_sentence("F", two, "max_concurrency", 1) == (
        "This page reads F: 2 runs of shisa-ai/shisa-v2-unphi4-14b, at a single load level; one run with no "
        "concurrency cap kept apart."
    )


def test_serving_descriptions_live_in_the_chapter_file_and_read_as_before():
    """The serving page's descriptions come from notebooks/serving_saturation.claims.yml, word for word
    what the f-strings they replace printed on the seed (two slips fixed: "Model: None" where no single
    model is named, and "req/s ," before a measured concurrency)."""
    import inspect

    from benchbook.analysis import precision, roofline, serving
    from benchbook.presentation import serving as show

    tree = ast.parse(inspect.getsource(show))
    funcs = {f.name: f for f in tree.body if isinstance(f, ast.FunctionDef)}
    for name in SERVING_SENTENCES:  # an f-string of words (a column name such as f"{v}_recorded" is none)
        prose = [
            n
            for n in ast.walk(funcs[name])
            if isinstance(n, ast.JoinedStr)
            and any(isinstance(v, ast.Constant) and " " in str(v.value) for v in n.values)
        ]
        assert not prose, f"{name} writes a sentence in an f-string"
    r, req = serving.load([config.seed("004")])
    r = r.assign(x=serving.sweep_x(r, "max_concurrency"))
    apart = r[serving.apart(r, "max_concurrency")]
    assert show.inputs_sentence("F", r, "max_concurrency", len(apart)) == (
        "This page reads F: 6 runs of shisa-ai/shisa-v2-unphi4-14b, swept over max concurrency; one run with no "
        "concurrency cap kept apart."
    )
    assert show.in_flight_sentence(serving.littles_law(r, req)) == (
        " Run `c=max`: 1,000 requests completed, 22.8 req/s x 37.5 s estimated mean latency = 855 requests in "
        "flight on average; run `c=32`: 1,000 requests completed, 11.9 req/s x 2.45 s estimated mean latency = "
        "29.1 requests in flight on average; run `c=64`: 1,000 requests completed, 19.5 req/s x 2.63 s estimated "
        "mean latency = 51.3 requests in flight on average; run `c=128`: 1,000 requests completed, 28.1 req/s x "
        "3.06 s estimated mean latency = 85.9 requests in flight on average; 2 more in the table."
    )
    assert show.pareto_sentence(r) == "Across the runs, per-user speed ranges from 38 tok/s down to 3 tok/s."
    assert show.apart_message(apart, "request_rate") == (
        "At `--request-rate inf` the tool sends every request at once (up to any concurrency cap). These runs have "
        "no place on the rate axis, so they are listed here and drawn as horizontal lines."
    )
    # with no curve the throughput figure is not drawn, so the runs kept apart are not said to be drawn on it
    assert show.apart_message(apart, "request_rate", drawn=False).endswith("so they are listed here.")
    assert show.runs_intro(r).startswith("The tables list the runs of the curve") and show.runs_intro(r.iloc[0:0]) == ""
    assert show.apart_message(apart.iloc[0:0], "max_concurrency") == (
        "This input has no run with no concurrency cap: every run is a point of the curve."
    )
    assert show.curve_note(r[r["max_concurrency"].notna()].iloc[0:1], "max_concurrency") == (
        "**This input has a single load level on the curve, so there is no saturation curve and no knee to find.**"
    )
    pk = roofline.choose("", [config.seed("004").read_text(encoding="utf-8")])
    model = "shisa-ai/shisa-v2-unphi4-14b"
    total_b, active_b, size_source = serving.model_size(model)
    assumed = precision.Weights("bf16", 2.0, "assumed")
    assert show.device_sentence(pk, model, total_b, active_b, size_source, assumed) == (
        "The roofline uses the RTX-PRO-6000-Blackwell-WS (named in the input): 1,792 GB/s. Model: "
        "shisa-ai/shisa-v2-unphi4-14b, 14.7 B parameters (model table: https://huggingface.co/shisa-ai/"
        "shisa-v2-unphi4-14b (Phi-4 base: 14.7B parameters)); 2 bytes per weight (assumed bf16: neither the "
        "output, the model's name nor the model table says)."
    )
    # bf16 assumed while a line of the file speaks of a precision (vllm-project/vllm#25540's `**BF16**` above
    # its command, a title naming BF16 and FP8): the page names that line instead of saying nothing says
    said = {"precision_status": "unread", "precision_line": 1, "precision_text": "# Qwen3-235B FP8 vs (bf16)"}
    assert show.device_sentence(pk, model, total_b, active_b, size_source, assumed, precision_said=said).endswith(
        "2 bytes per weight (assumed bf16: line 1 speaks of a precision that this page does not tie to the run)."
    )
    fp8 = precision.Weights("fp8", 1.0, "output", "quantization fp8")
    assert show.device_sentence(pk, None, 70.0, 12.5, "parameter", fp8).endswith(
        "Model: 70.0 B parameters (12.5 B active of 70.0 B) (given as a parameter); 1 byte per weight "
        "(quantization fp8, as the output states)."
    )
    assert show.device_sentence(pk, None, None, None, "unknown", assumed).endswith(
        "The size of the model is unknown, so the roofline claims are withheld."
    )


def test_sig_prints_prose_numbers_without_scientific_notation():
    """`.3g` prints 5.23e+03 for a count; `sig` keeps its significant figures in plain digits."""
    got = [wording.render("{{ x | sig }}", {"x": x}) for x in (5234.7, 62093.2, 8.4162, 0.25, 2.0, 0.0123, 0.0)]
    assert got == ["5,235", "62,093", "8.42", "0.25", "2", "0.0123", "0"]
    assert wording.render("{{ x | sig(6) }}", {"x": 1e6}) == "1,000,000"
    assert wording.render("{{ x | sig }}", {"x": [1013.4, 256.0]}) == "1,013 and 256"
    with pytest.raises(wording.MissingValue):
        wording.render("{{ x | sig }}", {"x": math.nan})


def test_the_plural_filter_agrees_with_its_count_and_never_prints_a_parenthesised_s():
    text = wording.render(
        '{{ a | plural("byte") }}; {{ b | plural("byte") }}; {{ c | plural("degree of freedom", "degrees of freedom") }}',
        {"a": 1, "b": 1.028, "c": 1.0},
    )
    assert text == "1 byte; 1.028 bytes; 1 degree of freedom"
    assert "(s)" not in text


def test_a_withheld_reason_given_by_its_key_is_worded_by_the_chapter_and_any_other_as_given():
    """#34 house: a claim's reason may be a key of its wording's `reasons:` (bandwidth's bound_*), so
    its words live beside the chapter; a reason that is no key is said as the claim gives it."""
    from benchbook.claims import Claim

    keyed = Claim("bound_1", "bound", "withheld", "rule", {"label": "m"}, "offloaded", "")
    said = wording.word("bandwidth_roofline", keyed)
    assert said.reason == "the model is partly offloaded, so its weights stream over two memory buses"
    assert said.text == f"What limits `m`: not stated, because {said.reason}."
    plain = Claim("bound_1", "bound", "withheld", "rule", {"label": "m"}, "offloaded twice", "")
    assert wording.word("bandwidth_roofline", plain).reason == "offloaded twice"


def test_serving_inputs_say_no_single_load_level_of_several_runs_none_of_them_on_the_curve():
    """Several runs all kept apart from the curve at rates the output does not print (GuideLLM's console
    constants, no cap) may be at several loads: the page says none is on the curve's axis, not "a single
    load level"; the same runs at one printed rate (seed 004's burst, three times) are one load, and one
    run kept apart is at its one load."""
    import pandas as pd

    from benchbook.analysis import serving
    from benchbook.presentation import serving as show

    r, _ = serving.load([config.seed("004")])
    apart = serving.apart(r, "max_concurrency")
    three = pd.concat([r[apart]] * 3, ignore_index=True)
    unprinted = three.assign(request_rate=float("nan"), request_rate_recorded=False)
    said = show.inputs_sentence("F", unprinted, "max_concurrency", 3)
    assert "single load level" not in said
    assert "none of them on the curve's axis, so no load level is said of them together" in said
    assert "at a single load level" in show.inputs_sentence("F", three, "max_concurrency", 3)
    assert "at a single load level" in show.inputs_sentence("F", r[apart], "max_concurrency", 1)
