"""A table of two builds' llama-bench rates joined by hand (`t/s (before)`, `t/s (after)`) may end in a
`diff` column: 100 x (after / before - 1), printed with its sign and a `%`. It compares the two rates, as
`Speedup` does, so it is no setting of either row (it used to land in extra_settings, and a page listed
`diff=-0.6%` among each row's settings); a printed diff its own rates contradict is named."""

from __future__ import annotations

from benchbook import ingest
from benchbook.ingest import llama_bench

HEAD = (
    "| model | size | params | ngl | fa | test | t/s (before) | t/s (after) | diff |\n"
    "|---|---|---|---|---|---|---|---|---|\n"
)


def _text(diff: str) -> str:
    row = f"| llama 8B Q4_0 | 4.33 GiB | 8.03 B | 99 | 1 | tg128 | 146.73 ± 0.54 | 145.78 ± 0.50 | {diff} |\n"
    return "## RTX 3090\n\n" + HEAD + row


def _read(tmp_path, diff: str):
    f = tmp_path / "t.md"
    f.write_text(_text(diff))
    return ingest.read(f, tool="llama-bench"), llama_bench.parse(_text(diff), "t.md").messages


def test_the_diff_column_is_no_setting_of_either_build(tmp_path):
    t, _ = _read(tmp_path, "-0.6%")
    assert set(t["build"]) == {"before", "after"}
    assert not t["extra_settings"].astype(str).str.contains("diff").any()
    assert t["note"].astype(str).str.contains(r"diff over before as printed: -0\.6%").any()


def test_a_diff_the_rates_contradict_is_not_kept_as_said(tmp_path):
    t, messages = _read(tmp_path, "+5.0%")
    assert set(t.loc[t["statistic"] == "mean", "value"]) == {146.73, 145.78}  # the rates are kept
    assert any("diff +5.0% is not 100 x (after / before - 1) (-0.6%)" in m for m in messages)
    _, messages = _read(tmp_path, "-0.6%")
    assert not any("is not 100 x" in m for m in messages)
