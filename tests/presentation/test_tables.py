"""Tables for reading: no NaN, no index, no truncation, units in the headers, and a reason where a
cell is empty for one. Each chapter's display tables, on synthetic data with a known answer, and
every table of every executed chapter."""

from __future__ import annotations

import json
import re

import numpy as np
import pandas as pd
import pytest
from test_browser import table_problems

from benchbook.presentation import audit, batch, serving, tracking
from benchbook.presentation.tables import show


def _cells(html: str) -> list[str]:
    """The text of each cell, without the span that keeps a name whole."""
    cells = re.findall(r"<td[^>]*>(.*?)</td>", html, re.S)
    return [" ".join(re.sub(r"</?span[^>]*>", "", c).split()) for c in cells]


def test_missing_values_index_and_every_row():
    df = pd.DataFrame({"tp": np.arange(300), "ms": [np.nan] + [1.23456] * 299, "gpu": [None] + ["A100"] * 299})
    html = show(df).to_html()
    assert "nan" not in html.lower() and "None" not in html
    assert "–" in html
    assert html.count("<tr>") == 301  # header + every row, nothing cut
    assert "rows ×" not in html
    assert 'class="row_heading' not in html and "blank level0" not in html
    assert table_problems(html) == []


def test_number_formats():
    df = pd.DataFrame({"tok_s": [7803.37, 0.0123456, 45.31], "n": [1536, 2, 3]})
    html = show(df).to_html()
    assert "7,803" in html and "0.0123" in html and "45.3" in html and "1,536" in html
    assert "7803.37" not in html


def test_a_number_in_a_text_column_reads_as_a_number():
    """An audit's value column holds texts and numbers: a computed CV printed its full float repr
    (0.08385861137437957), a count its ".0"; they read as in a number column, texts as they are."""
    df = pd.DataFrame({"value": ["oom", 0.08385861137437957, 274.66023722491616, 116.0, "run3", None, 1526.74]})
    assert _cells(show(df).to_html()) == ["oom", "0.0839", "275", "116", "run3", "–", "1,527"]
    assert _cells(show(df, digits=6).to_html())[1:3] == ["0.0838586", "274.660"]


def test_a_column_of_mixed_quantities_prints_each_cell_to_its_own_kind():
    """A transposed table (one quantity per row) holds a count beside a share: the count reads 8,
    not 8.00, and the column stays right-aligned as numbers."""
    df = pd.DataFrame({"pp512": [16634.04, 3.3, 8.0, np.nan]}, dtype=object, index=["peak", "CV", "limits", "knee"])
    html = show(df, index=True, missing="– (none)").to_html()
    assert _cells(html) == ["16,634", "3.30", "8", "– (none)"]
    assert "text-align: left" not in html


def test_whole_numbers_infinity_and_trailing_zeros():
    df = pd.DataFrame({"cap": [32.0, 1024.0, np.nan], "rate": [np.inf, 2.5, 0.0], "frac": [0.22, 0.5, 0.125]})
    assert _cells(show(df).to_html()) == ["32", "∞", "0.220", "1,024", "2.50", "0.500", "–", "0", "0.125"]
    # one non-whole value keeps the decimals of the whole column
    assert _cells(show(pd.DataFrame({"x": [1.0, 1.5]})).to_html()) == ["1.00", "1.50"]


def test_yes_no_for_flags_even_with_gaps():
    df = pd.DataFrame({"ran": [True, None, False], "flag": [True, False, True]})
    assert _cells(show(df).to_html()) == ["yes", "yes", "–", "no", "no", "yes"]


def test_missing_reason_per_column_and_per_cell():
    df = pd.DataFrame({"a": [1.5, np.nan, np.nan], "b": ["x", None, "y"]}, index=[7, 7, 3])  # repeated labels
    by_column = _cells(show(df, missing={"a": "did not run"}).to_html())
    assert by_column == ["1.50", "x", "did not run", "–", "did not run", "y"]
    why = pd.DataFrame({"a": [None, "did not run", None], "b": [None, "not printed", None]})
    per_cell = _cells(show(df, missing=why).to_html())
    assert per_cell == ["1.50", "x", "did not run", "not printed", "–", "y"]
    with pytest.raises(ValueError, match="shape"):
        show(df, missing=why.iloc[:2])


def test_serving_runs_name_units_and_uncapped_runs():
    r = pd.DataFrame(
        {
            "run": ["c=max", "c=32"],
            "max_concurrency": [np.nan, 32.0],
            "request_rate": [np.inf, np.inf],
            "num_prompts": [1000.0, 1000.0],
            "duration": [43.85, 84.29],
            "ttft_mean": [9718.01, 62.26],
        }
    )
    t = serving.runs_table(r)
    assert list(t.columns) == ["run", "max concurrency (requests)", "request rate (req/s)", "prompts", "duration (s)"]
    cells = _cells(show(t, missing=serving.RUN_MISSING).to_html())
    assert cells[:5] == ["c=max", "no cap", "∞", "1,000", "43.9"]
    assert cells[5:7] == ["c=32", "32"]
    results = serving.runs_table(r, serving.RUN_RESULTS)
    assert list(results.columns) == ["run", "mean TTFT (ms)"]
    assert _cells(show(results).to_html())[:2] == ["c=max", "9,718"]


def test_serving_runs_split_into_tables_narrow_enough_to_wrap_between_words():
    """Eleven columns in one table left each header too narrow for its words (#28): settings and
    results are two tables, each of at most seven columns with the run and its repeat."""
    full = pd.DataFrame({c: [1.0] for c in serving.RUN_COLUMNS}).assign(run="c=1")
    settings, results = serving.runs_table(full), serving.runs_table(full, serving.RUN_RESULTS)
    assert len(settings.columns) + len(results.columns) == len(serving.RUN_COLUMNS) + 1  # the run in both
    assert max(len(settings.columns), len(results.columns)) + 1 <= 7
    assert set(settings.columns) | set(results.columns) == set(serving.RUN_COLUMNS.values())
    assert len(serving.runs_tables(full)) == 2


def test_serving_tables_number_the_repeats_of_a_load_and_only_where_a_load_repeats():
    """A load run twice (one label, the same settings) gets a `repeat` column, 1 then 2, in every table
    of the runs; the page's tables share the numbers counted once (`repeat_numbers`)."""
    twice = pd.DataFrame(
        {"run": ["c=1", "c=1", "c=2"], "model": "m", "max_concurrency": [1.0, 1.0, 2.0], "request_rate": np.inf}
    ).assign(mean_ttft_ms=[10.0, 11.0, 20.0])
    numbers = serving.repeat_numbers(twice)
    assert list(numbers) == [1, 2, 1]
    for t in (serving.runs_table(twice), serving.runs_table(twice, serving.RUN_RESULTS, numbers)):
        assert list(t.columns[:2]) == ["run", "repeat"] and list(t["repeat"]) == [1, 2, 1]
    settings, results = (s.data for s in serving.runs_tables(twice))
    assert list(settings["repeat"]) == list(results["repeat"]) == [1, 2, 1]
    once = twice.assign(max_concurrency=[1.0, 4.0, 2.0])  # the same label at another cap: another load
    assert serving.repeat_numbers(once) is None and serving.repeat_numbers(twice.head(1)) is None
    assert "repeat" not in serving.runs_table(once) and "repeat" not in serving.runs_tables(once)[0].data


def test_serving_goodput_shares_in_percent():
    gb = pd.DataFrame(
        {"run": ["a"], "request_throughput": [20.0], "share_lo": [0.5], "share_hi": [1.0], "goodput_lo": [10.0]}
    ).assign(goodput_hi=20.0)
    t = serving.goodput_bounds_table(gb)
    assert t["within both SLOs, at least (%)"].iat[0] == 50 and t["goodput, at most (req/s)"].iat[0] == 20


def test_batch_tables_say_why_a_cell_is_empty():
    limits = pd.DataFrame(
        {
            "model": ["BLOOM"] * 3,
            "framework": ["HF"] * 3,
            "gpu": ["A100"] * 3,
            "dtype": ["bf16", "fp32", "int8"],
            "last_ok": [1792, 640, None],
            "first_missing": [1920, None, None],
            "status": ["limit", "no limit", "blank"],
            "named_gpu": [""] * 3,  # one GPU: the table does not name it
        }
    )
    cells = _cells(show(batch.limits_table(limits), missing=batch.LIMITS_MISSING).to_html())
    assert cells[3:6] == ["1,792", "1,920", "ran out between the two"]
    assert cells[9:12] == ["640", "none", "no limit reached in the sweep"]
    assert cells[15:18] == ["none", "none", "no results"]
    mg = pd.DataFrame(
        {
            "dtype": ["bf16"] * 2,
            "framework": ["HF"] * 2,
            "batch_size": [1, 2],
            "throughput_tok_s": [42.23, 83.79],
            "gain_tok_s_per_seq": [np.nan, 41.56],
        }
    )
    cells = _cells(show(batch.gain_table(mg), missing=batch.GAIN_MISSING).to_html())
    assert cells[4] == "first batch size" and cells[9] == "41.6"


def test_tracking_runs_in_the_metric_unit_counted_from_one():
    runs = pd.DataFrame(
        {
            "position": [0, 1],
            "label": ["a.log", "b.log"],
            "run_date": [None, "2025-01-02"],
            "value": [124.18, 118.52],
            "std": [0.48, np.nan],
            "unit": ["tok/s", "tok/s"],
        }
    )
    t = tracking.runs_table(runs, "tg_rate", "mean")
    assert list(t.columns) == ["order", "run", "date", "tg rate (mean, tok/s)", "spread (std, tok/s)"]
    cells = _cells(show(t, missing=tracking.RUNS_MISSING, digits={"tg rate (mean, tok/s)": 4}).to_html())
    assert cells == ["1", "a.log", "not printed", "124.2", "0.480", "2", "b.log", "2025-01-02", "118.5", "–"]


def test_audit_tables_in_reader_words():
    a = pd.DataFrame(
        {
            "source": ["x.txt", "x.txt", "y.md"],
            "tool": ["tgi-benchmark", "tgi-benchmark", "llama-bench"],
            "defect": ["NaN row", "NaN row", "no build line"],
            "line": [12, 5, 1],
            "value": [None, None, None],
            "evidence": ["e1", "e2", "e3"],
            "consequence": ["c1", "c1", "c2"],
        }
    )
    t = audit.audit_table(a, ["source", "defect", "line", "value"])
    assert list(t.columns) == ["file", "defect", "line", "value"]
    counts = audit.defect_counts(a)
    assert counts.iloc[0].tolist() == ["NaN row", "tgi-benchmark", 2]
    cons = audit.consequence_table(a)
    row = cons[cons["defect"] == "NaN row"].iloc[0]
    assert row["defects"] == 2 and row["first line"] == 5 and row["what it does to the analysis"] == "c1"


@pytest.fixture(scope="module")
def executed():
    from benchbook import build, config

    build.build(log=lambda *_: None, render_html=False)
    return {n: json.loads((config.EXECUTED_DIR / f"{n}.ipynb").read_text(encoding="utf-8")) for n in build.chapters()}


@pytest.mark.notebooks
def test_every_table_of_every_chapter_is_printed_for_reading(executed):
    """Each table a chapter displays went through tables.show: no raw pandas table, no NaN cell."""
    bad = []
    for name, nb in executed.items():
        for i, cell in enumerate(nb["cells"]):
            for out in cell.get("outputs", []):
                html = "".join(out.get("data", {}).get("text/html", ""))
                if "<table" in html:
                    bad += [f"{name}, cell {i}: {p}" for p in table_problems(html)]
    assert not bad, "\n".join(bad)


def test_a_table_whose_header_words_fit_keeps_them_whole():
    from benchbook.presentation import tables

    assert tables.header_fits(serving.RUN_SETTINGS.values()) and tables.header_fits(serving.RUN_RESULTS.values())
    assert not tables.header_fits(serving.RUN_COLUMNS.values())  # all eleven: only breaking inside words fits
    narrow = show(pd.DataFrame({"prompts": [1], "completed": [2]})).to_html()
    wide = show(pd.DataFrame({f"column number {i}": [i] for i in range(12)})).to_html()
    assert "overflow-wrap: normal" in narrow and "overflow-wrap: normal" not in wide


@pytest.mark.browser
def test_runs_table_headers_break_between_words_in_chromium():
    """The serving runs tables under the book's stylesheet, in a 704 px text column (the book's at a
    1300 px window): no header word is split across lines. All eleven columns in one table split
    "prompt-s" and "through-put" (#28); the check finds that too."""
    from concurrent.futures import ThreadPoolExecutor
    from pathlib import Path

    from playwright.sync_api import sync_playwright
    from test_book_pages import MEASURE
    from test_browser import ARGS, CHROMIUM

    from benchbook.presentation.sphinx_book import CSS

    if not Path(CHROMIUM).is_file():
        pytest.fail(f"{CHROMIUM} is missing: run `make browser` (Debian's chromium package)")
    r = pd.DataFrame({c: [1000.0, 12.5] for c in serving.RUN_COLUMNS}).assign(run=["c=32", "c=64"])
    one = show(r[list(serving.RUN_COLUMNS)].rename(columns=serving.RUN_COLUMNS)).to_html()
    body = "".join(t.to_html() for t in serving.runs_tables(r))
    page = "<style>{}</style><main style='width: 704px'>{}</main>"

    def measure() -> list[list[str]]:
        with sync_playwright() as p:
            b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            pg = b.new_page(viewport={"width": 1300, "height": 900})
            broken = []
            for html in (body, one):
                pg.set_content(page.format(CSS, html))
                broken.append([w for t in pg.evaluate(MEASURE)["tables"] for w in t["broken"]])
            b.close()
        return broken

    # a thread of its own: tests/book/test_browser.py's session-long Playwright may be open in this worker,
    # and a second sync session in the same thread is refused
    with ThreadPoolExecutor(1) as pool:
        broken = pool.submit(measure).result()
    assert broken[0] == [] and broken[1], broken


def test_a_name_in_a_cell_is_kept_whole_and_the_prose_beside_it_wraps_between_words():
    """Cells wrapped "bench_one_ / batch_server" and "w8a8_sparse_ / smooth_gptq" at 800 px (#34 item 9: no
    name breaks mid-word): a name (letters or digits joined by marks) is kept on one line, a file hash
    too, and the table scrolls sideways where its names do not fit; a prose word is left as it is."""
    df = pd.DataFrame(
        {"evidence": ["w8a8_sparse_smooth_gptq_interactive: runs labelled run1", "000_5f50b6ac26707e67.txt"]}
    )
    html = show(df).to_html()
    whole = '<span class="benchbook-name" style="white-space: nowrap">{}</span>'
    assert whole.format("w8a8_sparse_smooth_gptq_interactive:") + " runs labelled run1" in html
    # a file hash too, shortened with its whole name as its title
    assert whole.format('<abbr title="000_5f50b6ac26707e67.txt">000_5f50b6ac….txt</abbr>') in html
    assert "<wbr>" not in html and "overflow-wrap: anywhere" not in html
    assert show(df)._repr_html_().startswith('<div class="benchbook-scroll" style="overflow-x: auto')


def test_a_short_label_and_a_prose_cell_are_shown_as_they_are():
    html = show(pd.DataFrame({"tool": ["vllm", "runs kept"], "n": [1, 2]})).to_html()
    assert ">vllm</td>" in html and ">runs kept</td>" in html and "benchbook-name" not in html


def test_an_audit_consequence_is_said_once_per_run_of_rows_that_share_it():
    defects = pd.DataFrame(
        {
            "defect": ["duplicated run label", "mojibake", "duplicated run label", "duplicated run label"],
            "line": [35, 17, 62, 143],
            "consequence": ["runs kept", "repaired", "runs kept", "labels differ"],
        }
    )
    t = audit.audit_table(defects, ["defect", "line", "consequence"])
    assert list(t["line"]) == [35, 62, 143, 17]  # a defect's rows together
    assert list(t["what it does to the analysis"]) == ["runs kept", audit.AS_ABOVE, "labels differ", "repaired"]


def test_a_book_tables_row_name_is_never_cut_in_chromium():
    """run_on_your_data's table of tools cut its first column's names ("inferenc / ex", "inferenc /
    e-perf") beside two columns of long prose: under the book's stylesheet a code span in a book
    table's first column stays on one line, while the prose columns beside it still wrap."""
    from concurrent.futures import ThreadPoolExecutor
    from pathlib import Path

    from playwright.sync_api import sync_playwright
    from test_browser import ARGS, CHROMIUM

    from benchbook.presentation.sphinx_book import CSS

    if not Path(CHROMIUM).is_file():
        pytest.fail(f"{CHROMIUM} is missing: run `make browser` (Debian's chromium package)")
    prose = "a point, an aggregate or agentic results: latencies, throughput per GPU as the file gives it " * 4
    code = '<code class="docutils literal notranslate"><span class="pre">{}</span></code>'  # as Sphinx writes it
    row = f"<tr><td>{code.format('inference-perf')}</td><td>{prose}</td><td>{code.format('utils/agentic/x.py')} {prose}</td></tr>"
    page = f"<style>{CSS}</style><article style='width: 400px'><table class='table'>{row}</table></article>"

    def lines() -> int:
        with sync_playwright() as p:
            b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            pg = b.new_page(viewport={"width": 800, "height": 900})
            pg.set_content(page)
            n = pg.evaluate(
                "() => { const r = document.createRange(); r.selectNodeContents(document.querySelector('td code'));"
                " return new Set([...r.getClientRects()].map(b => Math.round(b.top))).size; }"
            )
            b.close()
        return n

    with ThreadPoolExecutor(1) as pool:
        assert pool.submit(lines).result() == 1


def test_a_table_with_no_rows_is_not_shown_and_one_with_a_row_is():
    """A report on a file the batch chapter read no row of showed five tables of headers alone; a
    table with no rows is left out as a figure with no data is (the sentence before it says why)."""
    import pandas as pd

    from benchbook.presentation import outputs, tables

    empty = pd.DataFrame({"dtype": [], "peak batch": []})
    with outputs.recording() as cell:  # what a chapter's cell records, whether or not a shell exists here
        outputs.display(tables.show(empty))
        outputs.display(empty)
        assert cell.cell == []
        outputs.display(tables.show(pd.DataFrame({"dtype": ["bf16"], "peak batch": [512]})))
        assert len(cell.cell) == 1 and "bf16" in cell.cell[0]["data"]["text/html"]


def test_a_model_name_breaks_only_after_its_hyphens_and_its_quant_type_never():
    """llama-bench model names wrapped as "shisa-v2-llama3.3-70b.i1-Q4_K_" / "M" (#34 item 9), and kept whole
    they made bandwidth's two tables scroll at 1300 px (a 270 px label column): a name may break after a
    hyphen between its parts, as a hyphenated word does, each part kept whole; never at `_` or `.`."""
    df = pd.DataFrame({"model": ["shisa-v2-llama3.3-70b.i1-Q4_K_M", "llama-2-7b.Q4_0 and IQ2_XXS_gguf"]})
    html = show(df).to_html()
    whole = '<span class="benchbook-name" style="white-space: nowrap">{}</span>'
    parts = ["shisa-", "v2-", "llama3.3-", "70b.i1-", "Q4_K_M"]
    assert "<wbr>".join(whole.format(p) for p in parts) in html
    assert whole.format("llama-2-7b.Q4_0") + " and " + whole.format("IQ2_XXS_gguf") in html  # `2` holds no letter
    # the other way: no hyphen between lettered parts, no break (a flag, a date and a range read as one value)
    for name in ["bench_one_batch_server", "examples/benchmark.py", "--max-seconds", "2025-01-02", "1-32"]:
        cell = show(pd.DataFrame({"tool": [name]})).to_html()
        assert "<wbr>" not in cell and whole.format(name) in cell, name


def test_a_code_span_in_a_book_table_is_never_broken():
    """The front page's sources table cut `bench_one_batch_server` as "bench_one_ / batch_server" (#34
    item 9): a code span in a book table stays on one line (the theme's box scrolls a wide table), and
    the prose cells beside it still wrap."""
    from benchbook.presentation.sphinx_book import CSS

    rule = CSS.split("article table.table span.pre")[1].split("\n")[0]  # each word of a code span (Sphinx)
    assert "white-space: nowrap" in rule and "overflow-wrap" not in rule
    assert "article table.table td, article table.table th { overflow-wrap: break-word; }" in CSS


@pytest.mark.browser
def test_no_name_in_a_table_breaks_across_lines_at_800_px_in_chromium():
    """Rendered under the book's stylesheet in the text column of an 800 px window (about 560 px): each
    name (each part of a hyphenated one) in a table's cells is on one line, a model name that wraps breaks
    after a hyphen, a prose cell still wraps, and the table scrolls sideways."""
    from concurrent.futures import ThreadPoolExecutor
    from pathlib import Path

    from playwright.sync_api import sync_playwright
    from test_browser import ARGS, CHROMIUM

    from benchbook.presentation.sphinx_book import CSS

    if not Path(CHROMIUM).is_file():
        pytest.fail(f"{CHROMIUM} is missing: run `make browser` (Debian's chromium package)")
    prose = "the scheme's runs at every batch the file prints, one row per configuration and phase " * 2
    df = pd.DataFrame(
        {
            "scheme": ["w8a8_sparse_smooth_gptq_interactive", "bench_one_batch_server"],
            "model": ["shisa-v2-llama3.3-70b.i1-Q4_K_M", "llama-2-7b.Q4_0"],
            "file": ["examples/benchmark_serving_results.json", "000_5f50b6ac26707e67.txt"],
            "what it says": [prose, prose],
        }
    )
    page = f"<style>{CSS}</style><main style='width: 560px'>{show(df)._repr_html_()}</main>"
    js = (
        "() => { const lines = e => { const r = document.createRange(); r.selectNodeContents(e);"
        " return new Set([...r.getClientRects()].map(b => Math.round(b.top))).size; };"
        " const box = document.querySelector('div.benchbook-scroll');"
        " const model = document.querySelector('td.col1'); const r = document.createRange(); r.selectNodeContents(model);"
        " const tops = [...new Set([...r.getClientRects()].map(b => Math.round(b.top)))];"
        " const ends = [...model.querySelectorAll('span.benchbook-name')].map(e => [Math.round(e.getBoundingClientRect().top), e.innerText]);"
        " return {names: [...document.querySelectorAll('span.benchbook-name')].map(lines), tops: tops.length, ends,"
        " prose: lines(document.querySelector('td.col3')), scrolls: box.scrollWidth > box.clientWidth}; }"
    )

    def measure() -> dict:
        with sync_playwright() as p:
            b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            pg = b.new_page(viewport={"width": 800, "height": 900})
            pg.set_content(page)
            out = pg.evaluate(js)
            b.close()
        return out

    with ThreadPoolExecutor(1) as pool:
        out = pool.submit(measure).result()
    assert out["names"] and set(out["names"]) == {1}, out
    assert out["prose"] > 1 and out["scrolls"], out
    # a model name that wraps does so after a hyphen: each line but the last ends with one
    last = {}
    for top, text in out["ends"]:
        last[top] = text
    lines = [last[t] for t in sorted(last)]
    assert all(line.endswith("-") for line in lines[:-1]), lines


def test_an_address_in_a_cell_is_a_link_named_by_its_host_and_a_name_without_a_scheme_stays_a_name():
    """Bandwidth's "how counted" cells printed their source's whole address as one unbreakable name
    ("(https://openai.com/index/introducing-gpt-oss/"), which widened the table past the column at
    1300 px: an address is a link named by its host, the marks around it kept outside the link."""
    cell = "file size x 5.13B active / 116.83B total (https://openai.com/index/introducing-gpt-oss/ (117B total); as printed"
    html = show(pd.DataFrame({"how counted": [cell, "see www.example.org/x_y"]})).to_html()
    assert '(<a href="https://openai.com/index/introducing-gpt-oss/">openai.com</a> (117B total);' in html
    assert "https://openai.com/index/introducing-gpt-oss/</span>" not in html
    # an address with a query and a closing mark; "www." is not part of the host's name
    link = show(pd.DataFrame({"c": ["(https://www.hf.co/a?b=1&c=2)."]})).to_html()
    assert '(<a href="https://www.hf.co/a?b=1&amp;c=2">hf.co</a>).' in link
    # no scheme, no link: the name is kept whole as before
    assert '<span class="benchbook-name" style="white-space: nowrap">www.example.org/x_y</span>' in html
    assert html.count("<a ") == 1


def test_a_hash_in_a_name_shows_its_first_digits_and_keeps_the_whole_name_as_its_title():
    """The catalogue's and the reproduction's tables named each raw file by its content hash
    (`003_7819709fab0fbd59.txt`), a column 200 px wide that made both scroll at 1300 px: a run of 16 or
    more hex digits (letters and digits both) shows its first 8 and an ellipsis, the whole name its title."""
    html = show(pd.DataFrame({"file": ["003_7819709fab0fbd59.txt"], "n": [1]})).to_html()
    assert '<abbr title="003_7819709fab0fbd59.txt">003_7819709f….txt</abbr>' in html
    assert ">003_7819709fab0fbd59.txt<" not in html  # the whole name is not shown, only kept
    # the other way: not a hash, shown as it is
    for word in [
        "7819709fab0f.txt",  # 12 digits: an id, not a content hash
        "12345678901234567890",  # digits alone: a number
        "deadbeefcafebabedeadbeef",  # letters alone: a word (of hex letters)
        "x7819709fab0fbd59y",  # a run other letters touch: part of a longer word
    ]:
        cell = show(pd.DataFrame({"c": [word]})).to_html()
        assert "<abbr" not in cell and word in cell, word


def test_a_code_word_in_a_book_table_breaks_only_after_a_hyphen_between_lettered_parts():
    """The sources page's tool column was as wide as `text-generation-benchmark` (217 px) and its table
    scrolled at 1300 px: a book table's code word may break where a chapter table's name may (after a
    hyphen between lettered parts), each part still one span.pre; code outside a table is untouched."""
    from benchbook.presentation.sphinx_book import break_code_words

    pre = '<span class="pre">{}</span>'
    code = '<code class="docutils literal notranslate">{}</code>'
    cell = code.format(pre.format("text-generation-benchmark") + " " + pre.format("bench_one_batch_server"))
    body = f"<p>{code.format(pre.format('text-generation-benchmark'))}</p><table class='table'><tr><td>{cell}</td></tr></table>"
    out = break_code_words(body)
    parts = "<wbr>".join(pre.format(p) for p in ["text-", "generation-", "benchmark"])
    assert f"<td>{code.format(parts + ' ' + pre.format('bench_one_batch_server'))}</td>" in out
    assert out.startswith(f"<p>{code.format(pre.format('text-generation-benchmark'))}</p>")  # outside a table
    for word in ["examples/benchmark.py", "--request-rate", "1-32", "Q4_K_M"]:  # the other way: no break
        table = f"<table><tr><td>{code.format(pre.format(word))}</td></tr></table>"
        assert break_code_words(table) == table, word
