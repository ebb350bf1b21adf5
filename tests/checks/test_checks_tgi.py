"""TGI audit rules that depend on the data: p90 == p99 only when some row has it, and
"p90 below Highest" only when n_runs makes p90 the last element."""

from __future__ import annotations

from benchbook import config
from benchbook.checks import tgi

FIX = config.FIXTURES_DIR / "tgi-benchmark" / "mt0_xxl_tp4_bs16.md"
PREFILL = next(x for x in FIX.read_text().splitlines() if x.startswith("| Prefill        | 16 "))


def _audit(tmp_path, text):
    f = tmp_path / "tgi.md"
    f.write_text(text)
    return tgi.audit(f)


def test_p90_equal_p99_is_reported_with_its_count(tmp_path):
    a = _audit(tmp_path, FIX.read_text())
    eq = a[a["defect"] == "p90 == p99"]
    assert len(eq) == 1 and eq["value"].iat[0] == 3
    assert eq["evidence"].iat[0] == "3 of 3 latency rows have p90 == p99"
    assert "int(0.9 x 10) = int(0.99 x 10) = 9" in eq["consequence"].iat[0]


def test_no_p90_equal_p99_defect_when_none_is_equal(tmp_path):
    text = FIX.read_text()
    assert PREFILL in text
    text = text.replace(PREFILL, PREFILL[: PREFILL.rindex("970.90 ms")] + "971.00 ms    |")
    text = text.replace("| 121.88 ms    |\n", "| 121.89 ms    |\n")
    text = text.replace("| 121758.35 ms |\n", "| 121758.36 ms |\n")
    a = _audit(tmp_path, text)
    assert "p90 == p99" not in set(a["defect"])


def _p90_below_highest(tmp_path, n_runs):
    """The Prefill row with p90 = p99 = 965.00 ms, below its Highest of 970.90 ms (and its p50)."""
    text = FIX.read_text().replace("| N Runs             | 10 ", f"| N Runs             | {n_runs:<2} ")
    row = PREFILL.removesuffix("970.90 ms    | 970.90 ms    |") + "965.00 ms    | 965.00 ms    |"
    assert row.count("970.90") == 2
    return _audit(tmp_path, text.replace(PREFILL, row))


def test_p90_below_highest_with_10_runs(tmp_path):
    a = _p90_below_highest(tmp_path, 10)
    hit = a[a["defect"] == "p90 below Highest"]
    assert list(hit["value"]) == [965.0]
    assert hit["consequence"].iat[0].startswith("with 10 runs p90 is element [9], the last")


def test_p90_below_highest_is_normal_with_20_runs(tmp_path):
    a = _p90_below_highest(tmp_path, 20)
    assert "p90 below Highest" not in set(a["defect"])
    assert (a["defect"] == "p90 < p50").sum() == 1  # the same row, still audited for what holds for any n


def test_a_merged_blank_cell_is_described_without_a_raw_plural():
    # the seed's TP 8 / Sequence Length 100 table has one blank numeric cell that tabled merged upwards
    a = tgi.audit(config.RAW_DIR / "tgi_bloomz_tp" / "000_5f50b6ac26707e67.txt")
    blank = a[a["defect"] == "blank numeric cell"]
    assert len(blank) == 1 and "(s)" not in blank["evidence"].iloc[0]
    assert (
        blank["evidence"].iloc[0].endswith("blank where the cell above holds the same value (tabled's Merge::vertical)")
    )


def test_a_p90_under_the_mean_is_impossible_only_where_p90_is_the_last_of_the_runs():
    from benchbook.checks.tgi import _p90_under_mean

    assert _p90_under_mean(10).startswith("with N Runs = 10, a sorted vector's p90 is its largest run")
    # 20 runs: p90 is element 18 of 20, below the largest, so a far outlier can lift the mean above it
    assert _p90_under_mean(20).startswith("a true p90 under the mean needs one run far above all others")
    a = tgi.audit(config.RAW_DIR / "tgi_bloomz_tp" / "000_5f50b6ac26707e67.txt")
    assert (a.loc[a["defect"] == "p90 < mean", "consequence"].str.startswith("with N Runs = 10")).all()
