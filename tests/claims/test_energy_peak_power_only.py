"""A configuration whose file gives only the highest power reading (a README's Power (Peak)) gets no energy
per token, and its withheld claim says why; a reading beside the same rate forms one."""

from __future__ import annotations

from benchbook import config, ingest
from benchbook.analysis import energy
from benchbook.claims import energy as claims

FIX = config.FIXTURES_DIR / "ollama-bench-power"
PEAK = FIX / "sbc_reviews_issue21_pi5_16gb_d0_ollama_power_peak_excerpt.md"


def _claim(df):
    r = energy.runs(df).iloc[0]
    return claims.per_run(r, 0)


def test_a_peak_alone_is_withheld_naming_the_peak():
    c = _claim(ingest.read(PEAK))
    assert not c.shown and "only the highest power reading (11.9 W) beside 4.88 output tok/s" in c.reason


def test_the_same_row_with_a_reading_forms_its_energy_per_token():
    df = ingest.read(PEAK)
    df.loc[df["metric"] == "peak_power", ["metric", "statistic"]] = ["power_reading", "value"]
    c = _claim(df)
    assert c.shown and "highest power reading" not in (c.reason or "")
