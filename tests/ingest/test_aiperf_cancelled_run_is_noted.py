"""AIPerf writes `was_cancelled: true` in its JSON export when the run stopped before its end (the user, or
`--failed-request-threshold` exceeded): the parser notes it, with the seconds it ran beside the
`--benchmark-duration` it was asked for, so a page does not read the part that ran as the whole run. A run
not cancelled carries no such note."""

from __future__ import annotations

from benchbook import config, ingest

FIX = config.FIXTURES_DIR / "aiperf"
CANCELLED = (
    FIX / "inferencex_agentic_kimik25_fp4_b200_tp8_conc16_lmcache_cancelled_16_errors_profile_export_aiperf.json"
)


def test_a_cancelled_run_is_noted_with_the_time_it_ran():
    notes = [m for m in ingest.read_parsed(CANCELLED)[0].messages if "was_cancelled" in m]
    assert notes == [
        f"{CANCELLED.name}:266: AIPerf cancelled this run (was_cancelled: true) after 60 s of the 1800 s it was "
        "asked to run (--benchmark-duration): its numbers are of the part it ran"
    ]
    assert '"was_cancelled": true' in CANCELLED.read_text().splitlines()[265]


def test_a_run_not_cancelled_has_no_such_note(tmp_path):
    f = tmp_path / "profile_export_aiperf.json"
    f.write_text(CANCELLED.read_text().replace('"was_cancelled": true', '"was_cancelled": false'))
    assert not [m for m in ingest.read_parsed(f)[0].messages if "was_cancelled" in m]
