"""club-3090's power-cap-sweep.sh prints a `[result] cap=...W actual_W=... narr=... code=...` line per cap: a
neighbour of the --record-power summary that the energy chapter has no place for (it takes caps from
llama-bench headings only), refused in one sentence naming the first result line, not "no known tool output";
a sweep whose every rate is 0.00 counted no token and is refused as a failed run; a --record-power summary is
still read."""

from __future__ import annotations

import pytest

from benchbook import config, ingest
from benchbook.ingest import serving_power

HEAD = "=== Cap: 330W (GPUs 0,1) @ 2026-07-13T15:16:12Z ===\n[verify] limit set to: 330.00W\n\n"
RESULT = (
    "[result] cap={cap}W actual_W={w} temp=75 sm_clk=1920 mem_clk=9501 pstate=P2 throttle_pwr=97 "
    "throttle_thermal=0 narr={narr} code={code} tps_per_w={eff}\n"
)


def _sweep(*caps) -> str:
    return HEAD + "".join(RESULT.format(cap=c, w=w, narr=n, code=k, eff=e) for c, w, n, k, e in caps)


def test_a_sweep_with_rates_is_refused_naming_its_first_result_line(tmp_path):
    f = tmp_path / "sweep.md"
    f.write_text(_sweep((330, 617.78, 29.07, 29.07, 0.047), (340, 615.98, 0.00, 0.00, 0.000)))
    with pytest.raises(ingest.ParseError) as err:
        ingest.read(f)
    assert not isinstance(err.value, ingest.UnknownFormat) and err.value.line == 4
    assert "power-cap-sweep.sh" in err.value.message and "failed run" not in err.value.message


def test_a_sweep_whose_every_rate_is_zero_is_refused_as_a_failed_run():
    line, why = serving_power.refuses(
        _sweep((270, 269.45, "0.00", "0.00", "0.000"), (280, 279.23, "0.00", "0.00", "0.000"))
    )
    assert line == 4 and "counted no token at any cap, a failed run with no measurement" in why


def test_a_record_power_summary_refuses_nothing_and_is_read():
    f = config.FIXTURES_DIR / "serving-power" / "sglang_pr21034_record_power_8gpu.txt"
    assert serving_power.refuses(f.read_text()) is None
    assert "mean_power" in set(ingest.read(f)["metric"])
