"""The screen's rejected report (issue 21): one report in the table's order, whatever mix of
reasons; its repeated columns categorical; reports stacked without losing that; configurations
numbered as a group-by would number them."""

import numpy as np
import pandas as pd
import pytest

from benchbook.ingest import core


def _table(rows):
    """A tidy table by hand: (line, model, metric, value, unit) per row."""
    df = pd.DataFrame(rows, columns=["line", "model", "metric", "value", "unit"])
    return df.assign(tool="t", source="f.txt", statistic="mean", note=None)[
        ["tool", "source", "line", "model", "metric", "statistic", "value", "unit", "note"]
    ]


MIXED = [
    (1, "a", "ttft", 5.0, "ms"),  # kept
    (2, "a", "tpot", -1.0, "ms"),  # negative
    (3, "a", "ttft", 5.0, "ms"),  # repeats line 1
    (4, "b", "ttft", 7.0, "ms"),  # conflict with line 6
    (5, "a", "itl", float("inf"), "ms"),  # not finite
    (6, "b", "ttft", 8.0, "ms"),  # conflict with line 4
    (7, "b", "tpot", 2e12, "tok/s"),  # above the ceiling
    (8, "a", "ttft", 5.0, "ms"),  # repeats line 1 again
]


def test_one_report_in_the_tables_order_with_each_rows_reason():
    kept, rej, notes = core.screen(_table(MIXED))
    assert kept["line"].tolist() == [1]
    assert rej["line"].tolist() == [2, 3, 4, 5, 6, 7, 8]
    assert rej["reason"].tolist() == [
        f"{core.OUT_OF_RANGE}: negative ms",
        f"{core.DUPLICATE}: repeats line 1",
        f"{core.CONFLICT}: same configuration as line 4, different values",
        f"{core.OUT_OF_RANGE}: not a finite number (ms; inf, or too many digits for a float)",
        f"{core.CONFLICT}: same configuration as line 4, different values",
        f"{core.OUT_OF_RANGE}: above {core.CEILINGS['tok/s']:g} tok/s",
        f"{core.DUPLICATE}: repeats line 1",
    ]
    assert rej["text"].tolist() == [
        "tpot mean -1",
        "ttft mean 5",
        "ttft mean 7",
        "itl mean inf",
        "ttft mean 8",
        "tpot mean 2e+12",
        "ttft mean 5",
    ]
    assert notes[0] == "3 values outside their unit's physical range set aside (first at line 2)"
    assert notes[1] == "2 repeated rows with the same configuration and value kept once"
    assert notes[2] == "line 4: ttft mean given 2 times with different values (7 (line 4), 8 (line 6)); all set aside"


def test_a_value_out_of_range_repeats_nothing():
    """Two identical negative rows are each out of range, neither a duplicate of the other; a good
    row with the same configuration as a bad one is kept."""
    rows = [(1, "a", "tpot", -1.0, "ms"), (2, "a", "tpot", -1.0, "ms"), (3, "a", "ttft", 5.0, "ms")]
    kept, rej, _ = core.screen(_table(rows))
    assert kept["line"].tolist() == [3]
    assert rej["reason"].tolist() == [f"{core.OUT_OF_RANGE}: negative ms"] * 2


def test_repeats_left_alone_when_the_tool_says_so():
    kept, rej, notes = core.screen(_table(MIXED), repeats=False)
    assert kept["line"].tolist() == [1, 3, 4, 6, 8]
    assert rej["line"].tolist() == [2, 5, 7] and len(notes) == 1


def test_conflicts_beyond_the_first_five_are_counted_not_spelled_out():
    rows = [(i, f"m{i // 2}", "ttft", float(i), "ms") for i in range(1, 15)]  # 7 pairs, 6 of them in conflict
    _, rej, notes = core.screen(_table(rows))
    assert len(rej) == 12
    spelled = [n for n in notes if "given 2 times" in n]
    assert len(spelled) == 5 and spelled[0].startswith("line 2:")
    assert notes[-1] == "... 1 more conflicting configurations in the rejected report"


def test_a_clean_table_comes_back_whole():
    rows = [(1, "a", "ttft", 5.0, "ms"), (2, "a", "tpot", 6.0, "ms")]
    table = _table(rows)
    kept, rej, notes = core.screen(table)
    assert kept is table and rej.empty and notes == []


def test_repeated_columns_of_a_parsers_report_are_categorical():
    p = core.Parsed(
        tool="llama-bench", table=pd.DataFrame(), rejected=core.rejected("llama-bench", "f.txt", [(3, "x", "why")])
    )
    assert p.rejected["reason"].dtype == "category" and p.rejected["text"].dtype != "category"
    assert core.rejected("t", "f", []).empty


def test_stacked_reports_keep_their_values_order_and_categories():
    a = core.rejected("tool-a", "a.txt", [(1, "x 1", "r1"), (2, "x 2", "r2")])
    b = core.rejected("tool-b", "b.txt", [(9, "y 9", "r2")])
    s = core.stack_reports([a, core.rejected("t", "f", []), b])
    assert s.to_dict("records") == [
        {"tool": "tool-a", "source": "a.txt", "line": 1, "text": "x 1", "reason": "r1"},
        {"tool": "tool-a", "source": "a.txt", "line": 2, "text": "x 2", "reason": "r2"},
        {"tool": "tool-b", "source": "b.txt", "line": 9, "text": "y 9", "reason": "r2"},
    ]
    assert all(s[c].dtype == "category" for c in ["tool", "source", "reason"])
    assert list(s["reason"].cat.categories) == ["r1", "r2"]
    plain = pd.DataFrame([("t", "f", 4, "z", "r3")], columns=core.REJECTED_COLUMNS)
    assert core.stack_reports([a, plain])["reason"].tolist() == ["r1", "r2", "r3"]
    assert list(core.stack_reports([]).columns) == core.REJECTED_COLUMNS


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_configurations_number_as_a_group_by_does(seed):
    rng = np.random.default_rng(seed)
    n = 400
    t = pd.DataFrame(
        {
            "a": pd.Series(rng.choice(["x", "y", None], n), dtype="str"),
            "b": pd.array(rng.choice([1, 2, None], n), dtype="Int64"),
            "c": rng.choice([0.5, np.nan, 2.0], n),
        }
    )
    expected = t.groupby(["a", "b", "c"], dropna=False, sort=False).ngroup().to_numpy()
    assert (core._configurations(t, ["a", "b", "c"]) == expected).all()


def test_configurations_tell_apart_what_a_sum_of_codes_would_merge():
    """(x, q) and (y, p) must differ even though each column's codes sum alike."""
    t = pd.DataFrame({"a": ["x", "y", "x", "y"], "b": ["p", "q", "q", "p"]})
    assert core._configurations(t, ["a", "b"]).tolist() == [0, 1, 2, 3]


def test_five_conflicts_are_all_spelled_out_with_no_more_to_count():
    rows = [(i, f"m{i // 2}", "ttft", float(i), "ms") for i in range(2, 12)]  # exactly 5 pairs in conflict
    _, rej, notes = core.screen(_table(rows))
    assert len(rej) == 10 and len(notes) == 5
    assert not any(n.startswith("...") for n in notes)


def test_report_columns_are_text_and_categories_of_text():
    _, rej, _ = core.screen(_table(MIXED))
    assert rej["text"].dtype == "str"
    assert rej["reason"].dtype == "category" and rej["reason"].cat.categories.dtype == "str"
    assert rej.index.equals(pd.RangeIndex(len(rej)))


def test_the_text_of_rejected_rows_keeps_the_tables_index():
    t = pd.DataFrame(
        {"metric": ["tg_rate", "pp_rate"], "statistic": ["mean", "std"], "value": [1.5, 2.0]}, index=[5, 9]
    )
    s = core._texts(t)
    assert s.index.tolist() == [5, 9] and s.tolist() == ["tg_rate mean 1.5", "pp_rate std 2"]


def test_a_schema_error_quotes_the_first_line_of_what_the_validator_said():
    from benchbook import ingest

    tool = ingest.tools()["llama-bench"]
    e = core._schema_error(tool, "f.txt", ValueError("column 'value' not numeric\ndetails"))
    assert "llama-bench schema: column 'value' not numeric" in str(e) and "details" not in str(e)
    assert str(core._schema_error(tool, "f.txt", ValueError())).endswith("schema: ValueError")


def test_an_unread_table_on_the_last_lines_sets_aside_every_number_of_its_rows():
    lines = ["intro", "| a | b |", "|---|---|", "| 1 | 2 |", "| 3 | 4 |"]
    end, items, message = core.unread_table(lines, 1, "tool", "'| x |'")
    assert end == 5 and [(line, m) for line, m, _ in items] == [(4, "1"), (4, "2"), (5, "3"), (5, "4")]
    assert message.startswith("lines 2-5: a table with columns a, b that tool does not recognise")
