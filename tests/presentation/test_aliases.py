"""Short aliases for the names of a table too wide for the column, with a legend (#34 item 9)."""

from __future__ import annotations

import random
import re

import pandas as pd

from benchbook.presentation import aliases, tables

#: The seed's scheme names (data/raw/quant_regimes): `sparse` and `smooth` share an initial.
SEED = [
    "original",
    "w8a16_awq",
    "w8a16_smooth_awq",
    "w8a16_sparse_awq",
    "w8a8_smooth_gptq",
    "w8a8_smooth_ptq",
    "w8a8_sparse_smooth_gptq",
]


def _legend(html: str) -> dict[str, str]:
    """alias -> name, as the legend under a table prints them."""
    line = html.split('class="benchbook-legend"')[1].split("</td>")[0]
    return dict(re.findall(r"([\w.+-]+)&nbsp;=&nbsp;([\w.+-]+)", line))


def test_the_seeds_schemes_keep_their_precision_and_never_share_an_alias():
    """Initials would give `w8a16_sparse_awq` and `w8a16_smooth_awq` one alias (`w8a16_s_a`); the
    shortest prefix no other part starts with tells them apart, and w8a8 / w8a16 stay whole."""
    a = aliases.aliases(SEED)
    assert a["w8a16_sparse_awq"] == "w8a16_sp_a" and a["w8a16_smooth_awq"] == "w8a16_sm_a"
    assert a["w8a8_sparse_smooth_gptq"] == "w8a8_sp_sm_g" and a["w8a8_smooth_ptq"] == "w8a8_sm_p"
    assert a["original"] == "original"  # one part: a word, kept whole
    assert len(set(a.values())) == len(SEED)


def test_names_whose_parts_share_prefixes_get_distinct_aliases():
    """A part that is the start of another (`dyn`, `dynamic`) keeps enough letters to differ, and a
    cut part never equals a precision part kept whole."""
    names = ["fp8_dyn_tok", "fp8_dynamic_tok", "fp8_dyn", "int4_group_128", "int4_grouped_128", "w4a16_g", "fp8_fp8x"]
    a = aliases.aliases(names)
    assert a["fp8_dyn_tok"] == "fp8_dyn_t" and a["fp8_dynamic_tok"] == "fp8_dyna_t"
    assert a["int4_group_128"] == "int4_group_1" and a["int4_grouped_128"] == "int4_groupe_1"
    assert a["fp8_fp8x"] == "fp8_fp8x"  # `fp8` is a whole part: no shorter prefix of `fp8x` is unique
    assert len(set(a.values())) == len(names)


def test_random_names_with_shared_prefixes_never_collide():
    rng = random.Random(51)
    parts = ["s", "sp", "spa", "sparse", "smooth", "sm", "gptq", "g", "ptq", "awq", "a", "aw", "w8a8", "fp8", "x-y"]
    for _ in range(300):
        names = {
            rng.choice(["w8a8", "w8a16", "fp8", "int4"])
            + "".join(rng.choice("_-") + rng.choice(parts) for _ in range(rng.randint(1, 3)))
            for _ in range(rng.randint(2, 12))
        }
        a = aliases.aliases(names)
        assert len(set(a.values())) == len(names), a


def _wide() -> pd.DataFrame:
    """Quantization's metric table as the seed fills it: five columns of scheme names."""
    row = ["w8a8_sparse_smooth_gptq", "w8a16_sparse_awq", "w8a16_smooth_awq", "w8a8_smooth_ptq"]
    return pd.DataFrame(
        {
            "regime": ["high_concurrency", "base"],
            "best by latency": row[:2],
            "best by output throughput": row[1:3],
            "best by overall throughput": row[2:],
            "statistically tied": ["w8a16_smooth_awq, w8a8_smooth_ptq", "no other scheme"],
        }
    )


def test_a_table_too_wide_shows_aliases_and_its_legend_gives_every_one_its_whole_name():
    t = _wide()
    html = tables.show(t, names=SEED)._repr_html_()
    legend = _legend(html)
    cells = " | ".join(
        re.sub("<[^>]+>", "", c) for c in re.findall(r"<td[^>]*>(.*?)</td>", html.split("benchbook-legend")[0])
    )
    shown = set(re.findall(r"w8a\d+[\w-]*", cells))
    assert shown and shown == set(legend)  # every alias in the table is in the legend, and no other
    assert set(legend.values()) == {
        "w8a8_sparse_smooth_gptq",
        "w8a16_sparse_awq",
        "w8a16_smooth_awq",
        "w8a8_smooth_ptq",
    }
    assert "w8a8_sparse_smooth_gptq" not in cells and "w8a8_sp_sm_g" in cells
    assert "w8a16_sm_a, w8a8_sm_p" in cells  # a name inside a list of names too
    assert "high_concurrency" in cells  # a name not among `names` stays as it is


def test_a_table_that_fits_keeps_its_names_whole_and_has_no_legend():
    t = pd.DataFrame({"regime": ["base"], "recommended": ["w8a8_sparse_smooth_gptq"], "runs": [3]})
    assert aliases.narrowest(t) <= aliases.COLUMN_CHARS
    html = tables.show(t, names=SEED)._repr_html_()
    assert "w8a8_sparse_smooth_gptq" in html and "benchbook-legend" not in html
    assert aliases.shorten(t, SEED) == (t, {})


def test_the_fit_counts_a_names_whole_length_and_a_prose_cells_longest_word():
    t = pd.DataFrame({"a name": ["w8a8_sparse_smooth_gptq"], "prose": ["a long sentence of short words " * 9]})
    assert aliases.narrowest(t) == (23 + 2) + (len("sentence") + 2)


def test_an_alias_never_reads_as_a_name_shown_whole_beside_it():
    """A regime `w8a8_sm` in the table keeps `w8a8_smooth` from being shortened to it."""
    t = pd.DataFrame({"regime": ["w8a8_sm"], "best": ["w8a8_smooth"], "wide": ["x" * 90]})
    shown, used = aliases.shorten(t, ["w8a8_smooth"])
    assert used == {"w8a8_smo": "w8a8_smooth"} and shown.loc[0, "regime"] == "w8a8_sm"
    assert aliases.aliases(["w8a8_smooth"]) == {"w8a8_smooth": "w8a8_s"}


def test_the_legend_is_the_tables_last_row_so_two_tables_keys_are_not_the_pages_prose():
    """The repeat check reads a page's prose, not its tables: two tables with the same aliases would
    otherwise say one legend twice. The legend spans every column, the hidden index not counted."""
    from conftest import repeats

    html = tables.show(_wide(), names=SEED)._repr_html_()
    assert re.search(r"</tbody><tfoot><tr><td class=\"benchbook-legend\" colspan=\"5\"", html)
    assert repeats(f"<article>{html}{html}</article>") == []


def test_the_legends_words_come_from_the_report_wording_file(monkeypatch):
    """A teacher edits the legend's sentence in benchbook/report.claims.yml (`table_legend`), not in Python:
    the legend prints whatever that file says, with the pairs where it puts `items`."""
    from benchbook.presentation import wording

    said = wording.sentence(aliases.WORDING, "table_legend", items="A")
    assert said.startswith("Short names in this table") and "A" in said
    assert "Short names" not in aliases.LEGEND  # the markup holds no words of its own
    real = wording.sentence

    def edited(chapter, name, **values):
        if (chapter, name) == (aliases.WORDING, "table_legend"):
            return f"Key: {values['items']} (edited)"
        return real(chapter, name, **values)

    monkeypatch.setattr(wording, "sentence", edited)
    html = tables.show(_wide(), names=SEED)._repr_html_()
    row = html.split('class="benchbook-legend"')[1].split("</td>")[0]
    assert "Key: " in row and row.endswith("(edited)") and "Short names" not in row
    assert _legend(html)["w8a8_sp_sm_g"] == "w8a8_sparse_smooth_gptq"
