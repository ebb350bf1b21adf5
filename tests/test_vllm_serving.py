"""serving.py statistics on synthetic data with known answers, and on seed 004; checks module."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from benchbook import config, ingest
from benchbook.analysis import serving
from benchbook.checks import AUDIT_COLUMNS, REPRODUCTION_COLUMNS
from benchbook.checks import vllm_serve as checks
from benchbook.ingest import vllm_serve as v

FIX = config.FIXTURES_DIR / "vllm-bench-serve"


@pytest.fixture(scope="module")
def seed_runs():
    return serving.runs(ingest.read(config.seed("004"), tool="vllm-bench-serve"))


def test_knee_known_answer():
    # elasticities: 1.0, 0.5, 0.1 -> first below 0.25 is the step from 4 to 8
    assert serving.knee([1, 2, 4, 8], [10, 20, 30, 33], 0.25) == 4
    assert serving.knee([1, 2, 4, 8], [10, 20, 30, 33], 0.05) is None  # never saturates
    assert serving.knee([8, 1, 4, 2], [33, 10, 30, 20], 0.6) == 2  # order does not matter
    assert serving.elasticities([1, 2, 4], [10, 20, 30]) == [1.0, 0.5]


def test_knee_seed(seed_runs):
    x = serving.sweep_x(seed_runs, "max_concurrency")
    assert serving.knee(x, seed_runs["output_throughput"], 0.25) == 128
    assert serving.knee(x, seed_runs["output_throughput"], 0.5) == 64


def test_uncapped_run_is_labelled_no_cap(seed_runs):
    x = serving.sweep_x(seed_runs, "max_concurrency")
    labels = sorted(serving.fmt_x(v, "max_concurrency", seed_runs) for v in x)
    # the seed's uncapped run is plotted at num_prompts (1000) but must not read as c=1000
    assert labels == sorted(["32", "64", "128", "256", "512", "no cap"])


def test_littles_law_known_answer():
    r = pd.DataFrame(
        {
            "request_throughput": [10.0],
            "e2el_mean": [2000.0],
            "ttft_mean": [1.0],
            "tpot_mean": [1.0],
            "completed": [100],
            "total_generated_tokens": [1000],
            "max_concurrency": [40.0],
            "num_prompts": [100.0],
        }
    )
    out = serving.littles_law(r)
    assert out["in_flight"].iloc[0] == pytest.approx(20.0)
    assert out["utilisation"].iloc[0] == pytest.approx(0.5)
    assert not out["estimated"].iloc[0]
    r2 = r.drop(columns="e2el_mean").assign(ttft_mean=100.0, tpot_mean=20.0)  # W = 0.1 + 0.02 * 9 = 0.28 s
    out2 = serving.littles_law(r2)
    assert out2["in_flight"].iloc[0] == pytest.approx(2.8) and out2["estimated"].iloc[0]


def test_littles_law_seed_c512_far_below_nominal(seed_runs):
    out = serving.littles_law(seed_runs).set_index("run")
    assert out.loc["c=512", "in_flight"] < 0.6 * 512
    assert out.loc["c=32", "in_flight"] == pytest.approx(11.86 * (62.26 + 26.26 * (91.928 - 1)) / 1000)


def test_goodput_bounds_known_answer():
    r = pd.DataFrame(
        {
            "request_throughput": [10.0, 10.0, 10.0],
            "ttft_median": [100.0, 100.0, 600.0],
            "ttft_p99": [400.0, 400.0, 900.0],
            "tpot_median": [20.0, 20.0, 20.0],
            "tpot_p99": [30.0, 50.0, 30.0],
        }
    )
    g = serving.goodput_bounds(r, 450, 40)
    # both p99 within SLO: >= 98 % (union bound), <= 100 %
    assert g.loc[0, "goodput_lo"] == pytest.approx(9.8) and g.loc[0, "goodput_hi"] == pytest.approx(10.0)
    # TPOT p99 over SLO, median under: TPOT share in [0.5, 0.99]; joint [0.49, 0.99]
    assert g.loc[1, "share_lo"] == pytest.approx(0.49) and g.loc[1, "share_hi"] == pytest.approx(0.99)
    # TTFT median over SLO: at most half the requests can be good
    assert g.loc[2, "share_lo"] == 0 and g.loc[2, "share_hi"] == pytest.approx(0.5)


def test_goodput_bound_seed_best_is_c128(seed_runs):
    g = serving.goodput_bounds(seed_runs, 450, 40)
    best = g.loc[g["goodput_lo"].idxmax()]
    assert best["run"] == "c=128"
    assert best["goodput_lo"] == pytest.approx(0.98 * 28.09)


def test_exact_goodput_matches_hand_count():
    req = v.requests(FIX / "synthetic_save_detailed.json")
    g = serving.exact_goodput(req, 450, 40)
    # good: request 0 (100 ms, 30 ms) and request 3 (200 ms, one token -> TPOT 0); 2 s run
    assert g["good"].iloc[0] == 2 and g["completed"].iloc[0] == 5
    assert g["goodput"].iloc[0] == pytest.approx(1.0)


def test_exact_goodput_within_percentile_bounds():
    rng = np.random.default_rng(0)
    n = 2000
    ttft = rng.lognormal(np.log(200), 0.5, n)
    tpot = rng.lognormal(np.log(30), 0.3, n)
    req = pd.DataFrame(
        {"source": "s", "run": "r", "success": True, "ttft_ms": ttft, "tpot_ms": tpot, "duration_s": 100.0}
    )
    exact = serving.exact_goodput(req, 450, 40)["goodput"].iloc[0]
    summ = {"request_throughput": n / 100.0}
    for m, a in (("ttft", ttft), ("tpot", tpot)):
        summ[f"{m}_median"] = np.median(a)
        for q in (90, 95, 99):
            summ[f"{m}_p{q}"] = np.percentile(a, q)
    b = serving.goodput_bounds(pd.DataFrame([summ]), 450, 40).iloc[0]
    assert b["goodput_lo"] <= exact <= b["goodput_hi"]


def test_pareto_front():
    mask = serving.pareto_front([10, 20, 15, 5], [100, 50, 40, 200])
    assert mask.tolist() == [True, True, False, True]


def test_runs_dedupes_text_and_json_copy():
    r = serving.runs(ingest.read(FIX / "llmd_readme_inf_run.md"))
    assert len(r) == 1 and r["format"].iloc[0] == "json"


def test_sweep_x_request_rate():
    r = serving.runs(ingest.read(FIX / "llmd_results.jsonl"))
    x = serving.sweep_x(r, "request_rate")
    assert sorted(set(x)) == [10.0, 30.0, 60.0]  # inf drawn at twice the largest finite rate
    with pytest.raises(ValueError):
        serving.sweep_x(r, "batch")


def test_reproduce_seed_agrees():
    rep = checks.reproduce(config.seed("004"))
    assert list(rep.columns) == REPRODUCTION_COLUMNS
    assert len(rep) == 18 and rep["agrees"].all()  # 3 throughputs x 6 runs; Little's law is analysis
    row = rep[rep["quantity"] == "c=256: output_throughput"].iloc[0]
    assert row["published"] == 3004.18 and row["recomputed"] == pytest.approx(91334 / 30.40)


def test_reproduce_catches_a_wrong_number(tmp_path):
    text = config.seed("004").read_text().replace("3004.18", "3104.18")
    f = tmp_path / "wrong.txt"
    f.write_text(text)
    rep = checks.reproduce(f)
    assert not rep[rep["quantity"] == "c=256: output_throughput"]["agrees"].iloc[0]


def test_audit_seed():
    a = checks.audit(config.seed("004"))
    assert list(a.columns) == AUDIT_COLUMNS
    defects = set(zip(a["defect"], a["evidence"].str.split(":").str[0], strict=True))
    assert ("TTFT includes server queueing", "c=max") in defects
    assert ("TPOT much greater than ITL", "c=max") in defects
    assert ("nominal concurrency not reached", "c=512") in defects
    assert not math.isnan(a["line"].iloc[0])


def test_audit_failed_requests():
    a = checks.audit(FIX / "synthetic_save_detailed.json")
    assert "requests_failed" in set(a["defect"])


def test_seed_sentences(seed_runs):
    r = seed_runs.assign(x=serving.sweep_x(seed_runs, "max_concurrency")).sort_values("x").reset_index(drop=True)
    kn = serving.knees(r, "max_concurrency", 0.25)
    assert serving.first_knee(kn) == 128
    assert serving.knee_sentence(kn, "max_concurrency", r) == (
        "shisa-v2-unphi4-14b: the elasticity is 0.65 on the first step and -0.41 on the last; it first falls "
        "below the threshold after 128, where the server gives 2553 output tok/s, 74 % of its best run "
        "(3451 tok/s at 512)."
    )
    assert serving.knee_text(kn, "max_concurrency", r) == "knee at 128 for shisa-v2-unphi4-14b"
    assert serving.growth_sentence(kn) == (
        "Throughput falls on 1 of 5 steps: there, more load costs throughput as well as latency."
    )
    lit = serving.littles_law(r)
    assert serving.littles_note(lit).startswith("The output has no E2EL line")
    assert serving.littles_sentence(serving.least_utilised(lit)) == (
        "The lowest ratio is run c=512: 275 requests in flight on average for a cap of 512 (54 %)."
    )
    msg, sentence, take = serving.uncapped_prose(r)
    assert msg.startswith("With `--request-rate inf` and no `--max-concurrency`, the tool sends all 1000 requests")
    assert sentence.startswith("Here the uncapped run's mean TTFT is 9.7 s and its output throughput 2097 tok/s")
    assert "A likely cause" in sentence and "mean ITL 99 ms" in sentence
    assert take == "An uncapped run's TTFT (9.7 s here) is queueing, not prefill speed."
    assert serving.goodput_sentence(serving.goodput_bounds(r, 450.0, 40.0)) == (
        "The best load under these SLOs is run c=128: at least 27.5 req/s (98 % of its 28.1 req/s) meet both."
    )
    assert list(serving.runs_table(r).columns)[:3] == ["run", "max_concurrency", "request_rate"]


def test_knee_sentences_without_a_knee():
    none = pd.DataFrame(columns=["series", "knee", "n_falls", "n_steps", "diminishing"])
    assert serving.first_knee(none) is None and serving.growth_sentence(none) == ""
    assert serving.knee_sentence(none, "request_rate", None).startswith("This input holds a single load level")
    assert serving.knee_text(none, "request_rate", None) == "no knee: one load level only"
    r = pd.DataFrame({"request_rate": [1.0, 2.0, 4.0], "max_concurrency": [np.nan] * 3})
    kn = pd.DataFrame([dict(series="m", knee=None, el_first=0.9, el_last=0.8, n_steps=2, n_falls=0, diminishing=True)])
    assert serving.knee_sentence(kn, "request_rate", r) == (
        "m: the elasticity is 0.90 on the first step and 0.80 on the last; it never falls below the threshold, "
        "so the sweep did not reach saturation."
    )
    assert serving.knee_text(kn, "request_rate", r) == "no knee within this sweep"
    assert serving.growth_sentence(kn) == "Throughput grows at every step, by less each time."
    kn["diminishing"] = False
    assert serving.growth_sentence(kn) == "Throughput grows at every step, though not by less each time."


def test_littles_and_uncapped_sentences_without_caps():
    lit = pd.DataFrame({"estimated": [False], "max_concurrency": [np.nan], "utilisation": [0.5]})
    assert serving.littles_note(lit) == "Mean E2EL is the value the tool printed."
    assert serving.least_utilised(lit) is None
    assert serving.littles_sentence(None).startswith("No run in this input has a concurrency cap")
    rate_only = pd.DataFrame({"max_concurrency": [np.nan], "request_rate": [math.inf]})
    msg, sentence, take = serving.uncapped_prose(rate_only)
    assert msg.startswith("This input has no uncapped run") and sentence.startswith("So the queueing effect")
    assert take.endswith("(no such run in this input).")


def test_uncapped_run_faster_than_every_capped_run():
    r = pd.DataFrame(
        {
            "run": ["c=8", "no cap"],
            "max_concurrency": [8.0, np.nan],
            "request_rate": [math.inf, math.inf],
            "num_prompts": [100, 100],
            "output_throughput": [500.0, 600.0],
            "ttft_mean": [100.0, 2500.0],
            "tpot_mean": [20.0, 30.0],
            "itl_mean": [19.0, 25.0],
        }
    )
    msg, sentence, take = serving.uncapped_prose(r)
    assert "sends all 100 requests at t=0" in msg
    assert sentence.startswith(
        "Here the uncapped run's mean TTFT is 2.5 s and its output throughput 600 tok/s, against 500 tok/s "
        "for run c=8. Its mean TPOT is 30 ms but its mean ITL 25 ms"
    )
    assert take == "An uncapped run's TTFT (2.5 s here) is queueing, not prefill speed."


def test_goodput_sentence_when_nothing_is_proven():
    gb = pd.DataFrame({"run": ["a"], "goodput_lo": [0.0], "share_lo": [0.0], "request_throughput": [3.0]})
    assert serving.goodput_sentence(gb) == "No run's percentiles prove that any share of its requests meets both SLOs."
