"""A run another script ran, where the file gives only some other script's defaults for the load, has its cap
and rate not stated (`serving.unstated_loads`): not recorded, no tool default assumed, and the script that ran
it named with its line; a run of the script whose defaults they are keeps them (Habana's Gaudi3 guide:
`perftest.sh`'s `CONCURRENT_REQUESTS=64` at line 149, the vision block run by `perftest_vision.sh` at line 153)."""

from __future__ import annotations

from benchbook import config
from benchbook.analysis import serving

GUIDE = (
    config.FIXTURES_DIR
    / "vllm-bench-serve/gaudi_tutorials_deploying_vllm_gaudi3_llama31_8b_405b_vision_perftest_blocks.md"
)
VISION = "meta-llama/Llama-3.2-11B-Vision-Instruct"


def test_another_scripts_run_has_its_load_not_stated_naming_the_line_that_runs_it():
    r, _ = serving.load([GUIDE])
    r = r.set_index("run")
    assert r.loc[VISION, "load_script"] == [153, "perftest_vision.sh", 149, "perftest.sh"]
    assert not r.loc[VISION, "max_concurrency_recorded"] and not r.loc[VISION, "request_rate_recorded"]
    assert r.loc[VISION, "request_rate"] != r.loc[VISION, "request_rate"]  # NaN: no default of the tool assumed
    others = r.drop(index=VISION)
    assert others["load_script"].isna().all() and set(others["max_concurrency"]) == {64}


def test_the_scripts_own_runs_keep_its_defaults(tmp_path):
    path = tmp_path / GUIDE.name
    path.write_text(GUIDE.read_text(encoding="utf-8").replace("perftest_vision.sh", "perftest.sh"), encoding="utf-8")
    r, _ = serving.load([path])
    assert r["load_script"].isna().all() and set(r["max_concurrency"]) == {64}
