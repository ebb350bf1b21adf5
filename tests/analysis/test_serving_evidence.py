"""Issue #27's evidence classes on the serving page: facts the file states reach the claims, and a
sentence about what the output lacks rests on what the parser looked for. Each on synthetic runs
where the verdict comes out both ways."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from benchbook.analysis import serving
from benchbook.claims import serving as cs
from benchbook.presentation import serving as show
from benchbook.presentation import wording


def say(claim):
    """A serving_saturation claim with its sentence from notebooks/serving_saturation.claims.yml
    (the merge with `wording`: the Python `show.say` is gone)."""
    return wording.word("serving_saturation", claim)


def run(completed, failed=np.nan, **cols):
    """One run's row as `serving.runs` gives it: every percentile well inside the default SLOs."""
    d = dict(run="r", completed=completed, failed=failed, request_throughput=completed / 100.0)
    d.update(ttft_median=100.0, ttft_p99=200.0, tpot_median=10.0, tpot_p99=20.0)
    d.update(cols)
    return pd.DataFrame([d])


# --- failed requests (class 2) --------------------------------------------------------------------


def test_a_run_where_every_request_failed_proves_no_share_within_the_slos():
    ok = serving.goodput_bounds(run(100, 0), 450.0, 40.0).iloc[0]
    assert ok["share_lo"] == 0.98  # p99 of both within the SLOs: at least 98 %
    dead = serving.goodput_bounds(run(0, 20, request_throughput=0.0), 450.0, 40.0).iloc[0]
    assert dead["share_lo"] == 0 and dead["share_hi"] == 0 and dead["goodput_lo"] == 0


def test_half_the_requests_failing_halves_the_share_not_the_goodput():
    half = serving.goodput_bounds(run(10, 10), 450.0, 40.0).iloc[0]
    assert half["share_lo"] == 0.49 and half["share_hi"] == 0.5
    assert half["goodput_lo"] == 0.98 * 0.1  # completed per second x the share among the completed


def test_failed_requests_are_said_and_none_failed_only_where_the_output_counts_them():
    c = say(cs.failed(run(10, 10)))
    assert c.status == "shown" and "10 requests failed beside the 10 that completed" in c.text
    c = say(cs.failed(run(250, 0)))
    assert c.status == "withheld" and "250 requests completed and none failed" in c.text
    c = say(cs.failed(run(900)))  # a 2024 block: no `Failed requests` line
    assert c.status == "withheld" and "none failed" not in c.text and "prints no count of failed" in c.text
    assert c.text.startswith("900 requests completed; ")


# --- the devices and precision the output states (class 2) -----------------------------------------


def test_tp_size_spans_the_peaks_and_tp_1_does_not():
    from benchbook.analysis import roofline

    one = roofline.choose("H100-SXM5-80GB", [])
    tp4 = serving.spanning(one, run(10, metadata="backend=pytorch; tp=4; pp=1"))
    assert tp4.count == 4 and tp4.total_bandwidth_gb_s == 4 * one.total_bandwidth_gb_s
    assert serving.spanning(one, run(10, metadata="backend=pytorch; tp=1; pp=1")).count == 1
    assert serving.spanning(one, run(10, metadata="tp=2; pp=2")).count == 4
    assert serving.spanning(one, run(10)).count == 1  # nothing stated: one device


def test_stated_quantization_sets_the_bytes_per_weight_before_the_dtype():
    fp8 = run(10, metadata="dtype=bfloat16; kv_cache_dtype=FP8; quantization=FP8; tp=1")
    assert serving.weight_bytes("meta-llama/Llama-3.1-8B", fp8) == (1.0, False)
    bf16 = run(10, metadata="dtype=bfloat16; kv_cache_dtype=None; quantization=None; tp=1")
    assert serving.weight_bytes("meta-llama/Llama-3.1-8B", bf16) == (2.0, False)  # stated, not assumed
    assert serving.weight_bytes("meta-llama/Llama-3.2-3B", run(10)) == (2.0, True)  # nothing says: assumed
    assert serving.weight_bytes("meta-llama/Llama-3.1-8B", run(10)) == (2.0, False)  # the table's bf16 checkpoint


# --- MLPerf Server summaries on the serving page (class 7) -----------------------------------------


def test_an_mlperf_server_run_is_judged_against_its_own_limits():
    r = run(0, target_qps=73.5, ttft_limit_ms=2000.0, tpot_limit_ms=200.0, scenario="Server", result="VALID")
    r = r.assign(request_throughput=71.74, ttft_p99=1604.2, tpot_p99=197.9, ttft_median=990.0, tpot_median=143.9)
    c = say(cs.own_slos(serving.own_slo_bounds(r)))
    assert c.status == "shown" and "at least 98% of its requests meet both" in c.text and "VALID" in c.text
    slow = r.assign(tpot_p99=230.0)  # over the 200 ms limit at p99: only the median proves a share
    c = say(cs.own_slos(serving.own_slo_bounds(slow)))
    assert "at least 49% of its requests meet both" in c.text
    c = say(cs.own_slos(serving.own_slo_bounds(run(10))))  # a vLLM run states no limits of its own
    assert c.status == "withheld" and "states latency limits" in c.text


def test_own_limits_are_not_applicable_where_no_format_can_state_them():
    """Only an MLPerf LoadGen summary states latency limits of its own (#28): on a vLLM page the claim
    is not applicable, so the page prints nothing for it and its bottom line does not list it as
    withheld; an MLPerf page that lacks the limits still says so."""
    from benchbook import config
    from benchbook.claims import Ledger
    from benchbook.presentation import bottom_line, ledger

    vllm = run(10).assign(tool="vllm-bench-serve")
    c = say(cs.own_slos(serving.own_slo_bounds(vllm), serving.own_limits_possible(vllm)))
    assert not serving.own_limits_possible(vllm) and not c.applicable and c.status == "withheld"
    assert c.text.startswith("Not applicable to this input")
    led = Ledger("serving_saturation", ["x"], [c]).to_dict()
    assert bottom_line.pick(led, ["own_slos"]) == [] and ledger.claims_table([led])["status"].tolist() == [
        "not applicable"
    ]
    mlperf, _ = serving.load([config.FIXTURES_DIR / "mlperf-loadgen" / "amd_mi300x_llama2_70b_offline_summary.txt"])
    m = say(cs.own_slos(serving.own_slo_bounds(mlperf), serving.own_limits_possible(mlperf)))
    assert serving.own_limits_possible(mlperf) and m.applicable and "ttft_latency 2,000 ms" in m.text
    assert bottom_line.pick(Ledger("serving_saturation", ["x"], [m]).to_dict(), ["own_slos"]) != []
    none = say(cs.own_slos(serving.own_slo_bounds(run(10).assign(tool="mlperf-loadgen")), True))
    assert none.status == "withheld" and "No run in this input states latency limits" in none.text


def test_an_offline_run_prints_its_limits_but_is_not_held_to_them():
    """LoadGen prints the limits in every scenario and checks them in the Server scenario only
    (`PerformanceSummary::PerfConstraintsMet`): an Offline page states them and judges nothing."""
    r = run(0, target_qps=80.0, ttft_limit_ms=2000.0, tpot_limit_ms=200.0, scenario="Offline", result="VALID")
    r = r.assign(request_throughput=80.15, ttft_p99=np.nan, tpot_p99=np.nan, parameters_line=30.0)
    c = say(cs.own_slos(serving.own_slo_bounds(r)))
    assert c.status == "shown" and "ttft_latency 2,000 ms, tpot_latency 200 ms" in c.text
    assert "this Offline run is not held to them" in c.text and "meet both" not in c.text
    assert "TTFT at most" not in c.text  # worded as the parameters it prints, not as limits it is judged by
    server = say(cs.own_slos(serving.own_slo_bounds(r.assign(scenario="Server", ttft_p99=900.0, tpot_p99=150.0))))
    assert "not held" not in server.text and "at least 98% of its requests meet both limits" in server.text


def test_a_sample_latency_limit_is_judged_on_the_sample_latency():
    """`target_latency (ns)` (SDXL's Server limit) bounds E2EL at LoadGen's Server percentile."""
    r = run(0, target_qps=4.6, latency_limit_ms=20000.0, scenario="Server", result="VALID", parameters_line=32.0)
    r = r.assign(request_throughput=4.49, e2el_median=11687.1, e2el_p90=15620.8, e2el_p99=19555.2)
    c = say(cs.own_slos(serving.own_slo_bounds(r)))
    assert c.status == "shown" and "latency at most 20 s per sample" in c.text
    assert "p99 latency is 19.56 s, so at least 99% of its requests meet the limit" in c.text
    late = say(cs.own_slos(serving.own_slo_bounds(r.assign(e2el_p99=21403.5))))  # over the limit at p99
    assert "at least 90% of its requests meet the limit" in late.text


def test_limits_not_read_are_said_by_where_the_page_looked():
    """No limit read: the Test Parameters section's line where the input has one, else that it has none."""
    r = run(0, scenario="Server", result="VALID").assign(request_throughput=4.49)
    gone = say(cs.own_slos(serving.own_slo_bounds(r)))
    assert "the input holds no Test Parameters section" in gone.text
    there = say(cs.own_slos(serving.own_slo_bounds(r.assign(parameters_line=32.0))))
    assert "its Test Parameters section (line 32) prints no latency limit" in there.text
    assert "holds no Test Parameters" not in there.text


def test_the_mlperf_server_fixture_reaches_the_serving_runs():
    from benchbook import config

    path = config.FIXTURES_DIR / "mlperf-loadgen" / "amd_mi300x_llama2_70b_server_summary.txt"
    r, _ = serving.load([path])
    row = r.iloc[0]
    assert row["request_rate"] == 73.5 and not row["rate_assumed"]  # the target, not an assumed inf
    assert row["ttft_limit_ms"] == 2000.0 and row["tpot_limit_ms"] == 200.0 and row["completed"] != row["completed"]
    assert row["ttft_p99"] == pytest.approx(1604.171041)


# --- speculative decoding (class 2) ------------------------------------------------------------------


def test_speculative_decoding_without_acceptance_length_withholds_the_weight_traffic():
    from benchbook.analysis import roofline

    pk = roofline.choose("H100-SXM5-80GB", [])
    base = run(
        10, output_throughput=100.0, total_token_throughput=200.0, e2el_mean=10_000.0, total_generated_tokens=1000.0
    )
    base = base.assign(max_concurrency=np.nan, num_prompts=10, ttft_mean=100.0, tpot_mean=10.0)
    plain = serving.decode_roofline(serving.littles_law(base), 8.0, 2.0, pk).iloc[0]
    c = cs.bandwidth(plain, pk, 8.0, 2.0)
    assert plain["tokens_per_step"] == 1.0 and c.status == "shown"
    mtp = serving.decode_roofline(
        serving.littles_law(base.assign(metadata="tp=8; speculative=MTP")), 8.0, 2.0, pk
    ).iloc[0]
    c = cs.bandwidth(mtp, pk, 8.0, 2.0)
    assert c.status == "withheld" and "speculative decoding (MTP)" in c.reason
    # vLLM prints the acceptance length: a step yields 2.6 tokens, so 2.6 times fewer weight reads
    acc = base.assign(spec_decode_acceptance_length=2.6)
    known = serving.decode_roofline(serving.littles_law(acc), 8.0, 2.0, pk).iloc[0]
    assert known["achieved_gb_s"] == pytest.approx(plain["achieved_gb_s"] / 2.6)
    assert cs.bandwidth(known, pk, 8.0, 2.0).status == "shown"


def test_trtllm_command_wrapped_over_lines_gives_model_tp_and_speculative_method():
    from benchbook import config, ingest

    df = ingest.read(config.FIXTURES_DIR / "trtllm-bench" / "dsr1_blog_h200_min_latency_tp8_mtp.md")
    row = df.iloc[0]
    assert row["model"] == "deepseek-ai/DeepSeek-R1" and row["max_concurrency"] == 1 and row["num_prompts"] == 10
    assert "tp=8" in row["metadata"] and "ep=4" in row["metadata"] and "speculative=MTP" in row["metadata"]
    assert serving.devices(df) == 8


# --- the server settings a sweep varies (class 2) ----------------------------------------------------


def sweep_runs(seqs, caps, tput):
    """Runs as a `vllm bench sweep serve` folder gives them: the SERVE side in `metadata`."""
    n = len(caps)
    return pd.DataFrame(
        dict(
            run=[f"max_num_seqs={s}, max_concurrency={c}" for s, c in zip(seqs, caps, strict=True)],
            model=["m/Llama"] * n,
            max_concurrency=caps,
            request_rate=[np.inf] * n,
            num_prompts=[200] * n,
            metadata=[f"max_num_seqs={s}" for s in seqs],
            output_throughput=tput,
            order=list(range(n)),
        )
    )


def test_three_servers_at_one_concurrency_are_three_series_not_a_rising_curve():
    r = sweep_runs([64, 128, 256], [16, 16, 16], [1064.0, 1128.0, 1256.0])
    assert serving.series_key(r).nunique() == 3
    assert say(cs.growth(r, "max_concurrency")).status == "withheld"
    # one server setting swept over concurrency: one series, and the curve does rise
    r = sweep_runs([128, 128, 128], [4, 16, 64], [520.0, 1700.0, 2300.0])
    assert serving.series_key(r).nunique() == 1
    assert say(cs.growth(r, "max_concurrency")).status == "shown"


# --- absence claimed where the file has it (class 1) -------------------------------------------------


def test_per_request_latencies_give_mean_e2el_where_the_summary_prints_none():
    from benchbook import config

    path = config.FIXTURES_DIR / "vllm-bench-serve" / "synthetic_save_detailed.json"
    r, req = serving.load([path])
    assert r["e2el_mean"].isna().all() and len(req)  # no mean_e2el_ms key, but a `latencies` array
    lit = serving.littles_law(r, req)
    assert lit["e2el_from"].tolist() == ["requests"] and not lit["estimated"].any()
    assert lit["mean_e2el_s"].iat[0] == pytest.approx(req.loc[req["success"], "e2el_ms"].mean() / 1000)
    note = show.littles_note(lit)
    assert "no E2EL" not in note and "mean of the successful requests' latencies" in note
    # the same summary without its per-request arrays: now the output really has no E2EL
    lit = serving.littles_law(r)
    assert lit["e2el_from"].tolist() == ["estimated"] and "prints no E2EL statistic" in show.littles_note(lit)


def test_the_e2el_note_names_only_the_runs_that_lack_it():
    lit = pd.DataFrame(dict(e2el_from=["printed", "estimated"], estimated=[False, True]))
    note = show.littles_note(lit)
    assert "1 of the 2 runs print no E2EL" in note and "where it printed one" in note
    assert show.littles_note(lit.iloc[:1]) == "Mean E2EL is the value the tool printed."


def test_loadgen_verdict_is_said_when_its_limits_are_not_in_the_input():
    from benchbook import config

    path = config.FIXTURES_DIR / "mlperf-loadgen" / "a30_llama31_8b_server_invalid_summary.txt"
    r, _ = serving.load([path])
    c = say(cs.own_slos(serving.own_slo_bounds(r)))
    assert (
        c.status == "shown" and "LoadGen calls this Server run INVALID" in c.text and "limits are not known" in c.text
    )
    note = show.assumed_rate_note(r)
    assert "target_qps" in note and "taken as unlimited" not in note


def test_sglang_acceptance_length_reaches_the_page_and_the_traffic():
    from benchbook import config

    path = config.FIXTURES_DIR / "sglang-bench-serving" / "ascend_kimi_k26_w4a8_eagle3_tp16.md"
    r, _ = serving.load([path])
    assert serving.devices(r) == 16 and serving.stated(r, "speculative") == "EAGLE3"
    lit = serving.littles_law(r)
    text = show.figures_sentence(lit, serving.goodput_bounds(lit, 450.0, 40.0), 450.0, 40.0)
    assert "speculative decoding (EAGLE3): 4.60 tokens per step per request" in text
    plain = show.figures_sentence(
        lit.drop(columns=["metadata", "spec_decode_acceptance_length"]),
        serving.goodput_bounds(lit, 450.0, 40.0),
        450.0,
        40.0,
    )
    assert "speculative" not in plain


def test_prompts_sent_but_not_completed_count_as_failed_where_no_failure_count_is_printed():
    base = pd.DataFrame(
        dict(source=["x"], run=["r"], format=["text"], model=["m"], metric=["completed"], statistic=["count"])
    )
    rows = [("completed", "count", 10.0), ("request_throughput", "value", 0.1), ("duration", "value", 100.0)]
    df = pd.concat([base.assign(metric=m, statistic=s, value=v) for m, s, v in rows], ignore_index=True)
    r = serving.runs(df.assign(num_prompts=20.0))
    assert r["failed"].iat[0] == 10 and r["failed_implied"].iat[0]
    c = say(cs.failed(r))
    assert c.status == "shown" and "10 requests failed beside the 10 that completed" in c.text and "sent more" in c.text
    r = serving.runs(df.assign(num_prompts=10.0))  # every prompt completed: none failed (completed <= sent)
    assert r["failed"].eq(0).all() and r["failed_implied"].all()
    c = say(cs.failed(r))
    assert c.status == "withheld" and "10 requests completed and none failed" in c.text and "every prompt" in c.text
    r = serving.runs(df)  # no prompt count: nothing to imply
    assert r["failed"].isna().all() and "cannot tell whether any failed" in say(cs.failed(r)).text


# --- supported tools' files that failed (class 7) ---------------------------------------------------


def test_trtllm_016_latency_report_in_tab_layout_is_read():
    from benchbook import config, ingest

    path = config.FIXTURES_DIR / "trtllm-bench" / "trtllm_bench_0.16_latency_tp4_tabbed.md"
    assert ingest.detect(ingest._load_text(path)) == ["trtllm-bench"]
    df = ingest.read(path)
    got = {(m, s): v for m, s, v in zip(df["metric"], df["statistic"], df["value"], strict=True)}
    assert got[("output_throughput", "value")] == 32.2742  # 100 x 2048 / 6345.6 s: output, not input + output
    assert ("total_token_throughput", "value") not in got
    assert got[("ttft", "mean")] == 147.7502 and got[("tpot", "mean")] == 30.9274
    assert df["model"].iat[0] == "Llama-3.3-70B-Instruct" and "tp=4" in df["metadata"].iat[0]
    assert any("generation latency" in r["reason"] for r in df.attrs["rejected"])  # set aside, with why
    r, _ = serving.load([path])
    method, per_step = serving.tokens_per_step(serving.littles_law(r))
    assert method.isna().all() and per_step.iat[0] == 1.0  # acceptance 1.00: no speculative decoding


def test_a_vllm_block_with_thousands_separators_is_read():
    from benchbook import config, ingest

    path = config.FIXTURES_DIR / "vllm-bench-serve" / "dual_spark_qwen3_30b_nvfp4_eager_12_failed.md"
    df = ingest.read(path)
    got = {(m, s): v for m, s, v in zip(df["metric"], df["statistic"], df["value"], strict=True)}
    assert got[("ttft", "mean")] == 2352.0 and got[("failed", "count")] == 12 and got[("completed", "count")] == 38


# --- issue #27: false or withheld sentences on real outputs ---------------------------------------

SCIENTIFIC = re.compile(r"\d(?:\.\d+)?e[+-]?\d", re.I)


def test_no_serving_sentence_prints_a_count_in_scientific_notation():
    lit = pd.DataFrame(
        dict(
            run=["Offline"], completed=[np.nan], request_throughput=[41.1075], mean_e2el_s=[1510.51], estimated=[False]
        )
    ).assign(in_flight=lambda d: d["request_throughput"] * d["mean_e2el_s"])
    text = show.in_flight_sentence(lit)
    assert "41.1 req/s x 1,511 s mean latency = 62,093 requests in flight" in text
    assert not SCIENTIFIC.search(text)
    # and no template of the chapter formats a number with a `g` or `e` spec, which can print 1e+06
    source = wording.path("serving_saturation").read_text(encoding="utf-8")
    assert not re.search(r"""fmt\(\s*["'][^"']*[gGeE]["']\s*\)""", source)


def test_an_mlperf_offline_run_is_said_to_be_one_and_its_in_flight_count_is_the_queue():
    r = pd.DataFrame(dict(run=["Offline"], scenario=["Offline"], request_rate=[38.0], request_throughput=[41.1]))
    r = r.assign(tool="mlperf-loadgen", format="summary")
    assert "This is an MLPerf LoadGen Offline run" in show.assumed_rate_note(r)
    lit = pd.DataFrame(dict(run=["Offline"], scenario=["Offline"], e2el_from=["printed"], estimated=[False]))
    assert "the queue of samples not yet finished" in show.littles_note(lit)
    server = r.assign(scenario="Server", run="Server")
    assert "Offline" not in show.assumed_rate_note(server)


def test_a_precision_the_output_does_not_state_is_not_assumed_for_mlperf_and_trtllm():
    mlperf = pd.DataFrame(dict(tool=["mlperf-loadgen"], sut=["llama2-70b-Offline-SUT"], source=["summary.txt"]))
    bpw, assumed = serving.weight_bytes("llama2-70b", mlperf)
    assert np.isnan(bpw) and not assumed
    assert serving.weight_bytes("llama2-70b", mlperf.assign(sut="llama2-70b-fp8-Offline-SUT")) == (1.0, False)
    vllm = pd.DataFrame(dict(tool=["vllm-bench-serve"]))
    assert serving.weight_bytes("meta-llama/Llama-3.2-3B", vllm) == (2.0, True)  # --dtype auto: the checkpoint's
    from benchbook.analysis import roofline

    pk = roofline.choose("H100-SXM5-80GB", [], 0.0, 0.0)
    text = show.device_sentence(pk, "llama2-70b", 69.0, 69.0, "table", serving.weights("llama2-70b", mlperf))
    assert "precision is not stated" in text and "none is assumed" in text and "bf16" not in text
    lit = pd.DataFrame(
        dict(run=["a"], in_flight=[64.0], output_throughput=[2000.0], total_token_throughput=[4000.0], x=[64.0])
    )
    rl = serving.decode_roofline(lit, 69.0, bpw, pk)
    assert rl["achieved_tflops"].iat[0] > 0 and rl[["achieved_gb_s", "compute_fraction"]].isna().all(axis=None)
    c = say(cs.compute(rl.iloc[0], pk))
    assert c.status == "withheld" and "TFLOP/s" in c.text and "none is assumed" in c.text


def test_an_in_flight_count_above_the_cap_is_flagged_not_called_a_full_cap():
    row = dict(
        run="c=256",
        tool="trtllm-bench",
        format="text",
        max_concurrency=256.0,
        request_throughput=8.4162,
        num_prompts=768.0,
    )
    row.update(mean_e2el_s=120.3257, duration=365.0092, estimated=False)
    lit = pd.DataFrame([row]).assign(in_flight=lambda d: d["request_throughput"] * d["mean_e2el_s"])
    lit["utilisation"] = lit["in_flight"] / lit["max_concurrency"]
    c = say(cs.underfilled(lit))
    assert "1,013 requests in flight" in c.text and "above its concurrency cap of 256" in c.text
    assert "counts 3,072 requests, where the command line sends 768" in c.text and "at least 80%" not in c.text
    full = lit.assign(mean_e2el_s=1.0, in_flight=250.0, utilisation=250 / 256)
    assert "Every capped run averaged at least 80%" in say(cs.underfilled(full)).text


def test_an_estimated_latency_above_the_cap_is_said_to_overstate_not_to_contradict_the_run():
    # speculators#613's shape: cap 32, 0.872 req/s, E2EL estimated from TTFT + TPOT x 3,330 tokens
    row = dict(run="r", tool="vllm-bench-serve", format="text", max_concurrency=32.0, request_throughput=0.872)
    row.update(mean_e2el_s=38.55, duration=733.86, num_prompts=640.0, estimated=True)
    lit = pd.DataFrame([row]).assign(in_flight=lambda d: d["request_throughput"] * d["mean_e2el_s"])
    lit["utilisation"] = lit["in_flight"] / lit["max_concurrency"]
    c = say(cs.underfilled(lit))
    assert c.status == "withheld" and "estimate overstates this run's mean latency" in c.text
    assert "33.6 requests in flight" in c.text and "cannot all describe" not in c.text
    printed = say(cs.underfilled(lit.assign(estimated=False)))  # the same figures, printed: a contradiction
    assert "cannot all describe one run" in printed.text and "estimate" not in printed.text


def test_output_not_streamed_is_said_instead_of_the_tpot_against_itl_explanation():
    flat = pd.DataFrame(
        dict(run=["rate=2"], tpot_mean=[1.76], itl_mean=[0.0], ttft_mean=[2074.09], e2el_mean=[2098.07])
    )
    c = say(cs.tpot_itl(flat))
    assert c.status == "shown" and "not per-token latencies" in c.text and "stalled behind prefills" not in c.text
    streamed = flat.assign(tpot_mean=300.0, itl_mean=100.0, ttft_mean=500.0, e2el_mean=60000.0)
    c = say(cs.tpot_itl(streamed))
    assert "stalled behind prefills" in c.text and "not per-token" not in c.text


def test_a_median_itl_of_zero_under_a_real_mean_is_said_to_be_chunks_in_bursts():
    # the Ascend PD fixture's round 1: median ITL 0.00 ms, mean 76.76 ms, TPOT 57.28 ms
    burst = pd.DataFrame(
        dict(run=["round 1"], tpot_mean=[57.28], itl_mean=[76.76], itl_median=[0.0], ttft_mean=[37612.83])
    )
    c = say(cs.tpot_itl(burst))
    assert c.status == "shown" and "median ITL of 0.00 ms beside a mean of 76.8 ms" in c.text and "bursts" in c.text
    steady = burst.assign(itl_median=70.1)  # chunks spaced like their mean: nothing to say
    c = say(cs.tpot_itl(steady))
    assert c.status == "withheld" and "bursts" not in c.text
    flat = burst.assign(itl_mean=0.0, e2el_mean=37700.0)  # not streamed at all: said as that, not as bursts
    assert "bursts" not in say(cs.tpot_itl(flat)).text


def test_a_mean_itl_far_above_tpot_is_said_to_be_chunks_of_several_tokens():
    # speculators#613: ITL 50.97 ms, TPOT 11.46 ms, acceptance length 4.77
    spec = pd.DataFrame(
        dict(run=["r"], tpot_mean=[11.46], itl_mean=[50.97], itl_median=[47.4], spec_decode_acceptance_length=[4.77])
    )
    c = say(cs.tpot_itl(spec))
    assert "each streamed chunk carried roughly 4.4 tokens (its speculative decoding gives 4.77" in c.text
    plain = say(cs.tpot_itl(spec.drop(columns=["spec_decode_acceptance_length"])))
    assert "most likely each streamed chunk carried several tokens (roughly 4.4)" in plain.text
    level = say(cs.tpot_itl(spec.assign(itl_mean=12.0, itl_median=11.9)))  # one token per chunk
    assert level.status == "withheld" and "chunk carried" not in level.text


def test_models_each_at_a_cap_of_their_own_are_no_sweep_and_an_unnamed_one_is_not_compared_with_them():
    # the 4 x MI100 write-up: three named models at caps 25, 6 and 18, one unnamed at cap 20 and one
    # unnamed with no cap (kept apart)
    r = pd.DataFrame(
        dict(
            run=["granite", "cogito-70b", "cogito-32b", "phi", "gemma"],
            model=["ibm/granite", "bt/cogito-70b", "bt/cogito-32b", None, None],
            max_concurrency=[25.0, 6.0, 18.0, 20.0, np.nan],
            request_rate=[np.inf] * 5,
            output_throughput=[239.8, 28.0, 85.1, 107.7, 82.7],
            ttft_mean=[1040.4, 6078.7, 11258.3, 12357.2, 238989.8],
            order=range(5),
        )
    )
    text = show.inputs_sentence("f", r, "max_concurrency", 1)
    assert "each series at a single max concurrency of its own, so no sweep" in text and "swept" not in text
    assert "(2 of them of a model the output does not name)" in text
    apart = serving.apart(r, "max_concurrency")
    c = say(cs.uncapped(r[apart], r[~apart], 0))
    assert c.status == "withheld" and "names no model for it" in c.text and "0.77x" not in c.text
    one = r.assign(model=None)  # every run unnamed: one model, as in a plain sweep log
    c = say(cs.uncapped(one[apart], one[~apart], 0))
    assert "names no model for it" not in c.text
    sweep = r.assign(model="m")  # one model at four caps: a sweep
    assert "swept over max concurrency" in show.inputs_sentence("f", sweep, "max_concurrency", 1)


def test_a_completed_rate_above_the_request_rate_says_the_rate_did_not_govern_arrivals():
    r = pd.DataFrame(dict(run=["2", "4", "64"], request_rate=[2.0, 4.0, 64.0], request_throughput=[3.77, 3.83, 3.80]))
    r = r.assign(tool="sglang-bench-serving", format="text")
    assert serving.rate_exceeded(r).tolist() == [True, False, False]
    note = show.assumed_rate_note(r)
    assert "3.77 req/s, above its request rate of 2 req/s" in note and "did not govern" in note
    assert not serving.rate_exceeded(r.assign(scenario="Offline")).any()  # target_qps is no arrival rate
    # 100 Poisson arrivals at 10 req/s may well finish at 10.8 req/s: chance, not a broken rate
    short = pd.DataFrame(dict(request_rate=[10.0, 10.0], request_throughput=[10.8, 10.8], completed=[100, 10000]))
    assert serving.rate_exceeded(short).tolist() == [False, True]


def test_guidellm_incomplete_requests_are_cut_off_not_failed():
    c = say(cs.failed(run(281, 18, errored=0.0, incomplete=18.0)))
    assert "18 requests were incomplete (still running when the benchmark's window closed" in c.text
    assert "none errored" in c.text and "failed beside" not in c.text
    c = say(cs.failed(run(281, 20, errored=2.0, incomplete=18.0)))
    assert "2 requests errored and 18 were incomplete" in c.text
    assert "10 requests failed beside" in say(cs.failed(run(10, 10))).text  # a tool that counts only failures


@pytest.mark.parametrize(
    ("metadata", "expected"),
    [
        (
            'cli_command=aiperf profile --goodput "time_to_first_token:370 request_latency:648"',
            [("ttft", 370.0), ("e2el", 648.0)],
        ),
        ("Namespace(model='m', goodput=['ttft:500', 'tpot:50'], seed=0)", [("ttft", 500.0), ("tpot", 50.0)]),
        ("Namespace(model='m', goodput=None)", []),
        (float("nan"), []),
        # a metric the house does not name keeps its own name
        (
            "Namespace(model='m', goodput=['ttft:500', 'queue_wait:20'], seed=0)",
            [("ttft", 500.0), ("queue_wait", 20.0)],
        ),
    ],
)
def test_goodput_slos_come_from_the_recorded_goodput_option(metadata, expected):
    assert serving.goodput_slos(metadata) == expected


def test_a_goodput_the_tool_printed_is_stated_with_the_slos_it_was_counted_under():
    lit = pd.DataFrame(
        {
            "run": ["c=8"],
            "request_throughput": [26.67],
            "request_goodput": [7.43],
            "metadata": ['cli_command=aiperf profile --goodput "time_to_first_token:370 request_latency:648"'],
        }
    )
    gb = pd.DataFrame({"share_lo": [np.nan], "share_hi": [np.nan]})
    text = show.figures_sentence(lit, gb, 500, 50)
    assert "7.43 req/s of goodput as the tool itself counted it (28% of its 26.67 req/s)" in text
    assert "TTFT is at most 370 ms and its E2EL at most 648 ms" in text
    unstated = show.figures_sentence(lit.assign(metadata=""), gb, 500, 50)
    assert "under SLOs the output does not state" in unstated and "370" not in unstated
    none = show.figures_sentence(lit.assign(request_goodput=np.nan), gb, 500, 50)
    assert "goodput" not in none


def _little(**cols):
    base = dict(
        e2el_mean=6_430_860.0,
        ttft_mean=np.nan,
        tpot_mean=np.nan,
        total_generated_tokens=np.nan,
        max_concurrency=80.0,
        num_prompts=320.0,
    )
    return serving.littles_law(run(320, 0, **{**base, **cols})).iloc[0]


def test_littles_law_uses_completed_over_duration_where_the_printed_rate_is_its_rounding():
    # SGLang prints 0.01 req/s for 320 requests in 28,986.73 s: 0.01104 unrounded, 71.0 in flight
    row = _little(request_throughput=0.01, duration=28_986.73)
    assert row["in_flight"] == pytest.approx(320 / 28_986.73 * 6_430.86)
    assert round(row["in_flight"], 1) == 71.0


def test_littles_law_keeps_a_printed_rate_that_is_not_the_rounding_of_completed_over_duration():
    # trtllm-bench's rate is over the span from the first start to the last end, not the benchmark's
    row = _little(request_throughput=0.02, duration=28_986.73)
    assert row["in_flight"] == pytest.approx(0.02 * 6_430.86)
    assert _little(request_throughput=0.01)["in_flight"] == pytest.approx(0.01 * 6_430.86)  # no duration


def test_a_run_that_completed_under_half_its_request_rate_did_not_serve_the_offered_rate():
    over = run(300, 0, request_rate=10.0, request_throughput=1.61)
    assert serving.rate_unmet(over).tolist() == [True]
    said = show.assumed_rate_note(over.assign(tool="sglang-bench-serving", format="text"))
    assert serving.rate_unmet(run(300, 0, request_rate=10.0, request_throughput=9.2)).tolist() == [False]
    assert serving.rate_unmet(run(300, 0, request_rate=float("inf"), request_throughput=1.61)).tolist() == [False]
    assert serving.rate_unmet(run(300, 0, request_rate=10.0, request_throughput=1.61, rate_assumed=True)).tolist() == [
        False
    ]
    assert "completed 1.61 req/s, under half its request rate of 10 req/s" in said


def test_failed_requests_ended_so_a_run_whose_requests_all_failed_is_no_unmet_rate():
    """vLLM's request throughput is completed / duration: 200 requests that all failed `Not Found`
    in 200 s at 1 req/s ended as fast as they were sent (none queued); the same run with 50 completed
    and none failed did not serve its rate, and 50 completed beside 20 failed still did not."""
    failed = run(0, 200, request_rate=1.0, request_throughput=0.0, duration=200.01)
    assert serving.rate_unmet(failed).tolist() == [False]
    assert serving.rate_unmet(run(50, 0, request_rate=1.0, request_throughput=0.25, duration=200.0)).tolist() == [True]
    assert serving.rate_unmet(run(50, 20, request_rate=1.0, request_throughput=0.25, duration=200.0)).tolist() == [True]


def test_the_rate_checks_turn_exactly_at_their_margins():
    """With no completed count, 100 arrivals are assumed: margin 3 / sqrt(100) = 0.3, so at 10 req/s up
    to 13.0 req/s completed is chance and 13.01 is not. One completed request: margin 3, so 20 req/s at a
    10 req/s rate is chance; a count of 0 is no count (100 again). Under half the rate is unmet; exactly
    half is not. A rate of 0.5 req/s is checked like any positive rate; a rate of 0 is none."""

    def runs(rate, done, **cols):
        return pd.DataFrame(dict(request_rate=[rate], request_throughput=[done], **{k: [v] for k, v in cols.items()}))

    assert serving.rate_exceeded(runs(10.0, 12.99)).tolist() == [False]
    assert serving.rate_exceeded(runs(10.0, 13.0)).tolist() == [False]
    assert serving.rate_exceeded(runs(10.0, 13.01)).tolist() == [True]
    assert serving.rate_exceeded(runs(10.0, 20.0, completed=1.0)).tolist() == [False]
    assert serving.rate_exceeded(runs(10.0, 20.0, completed=0.0)).tolist() == [True]
    assert serving.rate_exceeded(runs(0.5, 2.0)).tolist() == [True]
    assert serving.rate_exceeded(runs(0.0, 2.0)).tolist() == [False]
    assert serving.rate_exceeded(runs(0.0, 2.0, rate_assumed=False)).tolist() == [False]
    assert serving.rate_unmet(runs(10.0, 5.0)).tolist() == [False]
    assert serving.rate_unmet(runs(10.0, 4.99)).tolist() == [True]


def test_runs_sending_all_their_prompts_at_once_in_different_numbers_are_a_sweep_of_bursts_not_one_level():
    """rate inf and no cap: every prompt is sent at t=0, so runs of 1 to 500 prompts sweep the burst's
    size; the same runs with one prompt count, or capped, are no such sweep."""
    r = pd.DataFrame(
        dict(
            run=["1", "10", "500"],
            model=["m"] * 3,
            max_concurrency=[np.nan] * 3,
            request_rate=[np.inf] * 3,
            num_prompts=[1.0, 10.0, 500.0],
            output_throughput=[50.0, 400.0, 2400.0],
            order=range(3),
        )
    )
    text = show.inputs_sentence("f", r, "max_concurrency", 3)
    assert "1 to 500 prompts: a sweep of the burst's size, not of max concurrency" in text
    assert "single load level" not in text
    same = show.inputs_sentence("f", r.assign(num_prompts=100.0), "max_concurrency", 3)
    assert "burst" not in same and "at a single load level" in same
    capped = show.inputs_sentence("f", r.assign(max_concurrency=[4.0, 4.0, 4.0]), "max_concurrency", 0)
    assert "burst" not in capped and "at a single load level" in capped


def test_a_tokenizer_is_said_beside_a_served_name_that_sizes_nothing_and_never_sizes_the_model(tmp_path):
    """GenAI-Perf's `-m ensemble` is the name Triton serves the model under: the input's --tokenizer is
    said beside it, and the size stays unknown; a model the table sizes gets no tokenizer beside it."""
    doc = tmp_path / "g.md"
    doc.write_text("genai-perf profile \\\n  -m ensemble \\\n  --tokenizer /m/Meta-Llama-3-8B-Instruct/\n")
    assert serving.tokenizers([doc], ["ensemble"]) == [["/m/Meta-Llama-3-8B-Instruct/", 3]]
    assert serving.model_size("ensemble") == (None, None, "unknown")
    r = pd.DataFrame(dict(run=["1"], model=["ensemble"], max_concurrency=[1.0], request_rate=[np.inf], order=[0]))
    text = show.inputs_sentence("f", r, "max_concurrency", 0, serving.tokenizers([doc], ["ensemble"]))
    assert "one run of ensemble (the name it is served under; the input names the tokenizer" in text
    assert "`/m/Meta-Llama-3-8B-Instruct/` (line 3), which does not size the weights)" in text
    assert serving.tokenizers([doc], ["meta-llama/Llama-3.1-8B-Instruct"]) == []  # the table sizes it


def test_models_the_input_names_but_ties_to_no_run_are_named_and_never_called_unnamed(tmp_path):
    """Two client commands of two model names fill no run's model (`context.fill`): the page names
    both with their lines, never "a model the output does not name"; a run with a model, or a file
    that names none, keeps the sentence it had."""
    doc = tmp_path / "tpu.md"
    doc.write_text("python bench.py --model_path org/A-8B\n\npython bench.py --model_path a-8.03b\n")
    untied = serving.untied_models([doc], [])
    assert untied == [["org/A-8B", 1, "named"], ["a-8.03b", 3, "named"]]
    r = pd.DataFrame(dict(run=["1", "2"], model=[None, None], max_concurrency=[np.nan] * 2, order=[0, 1]))
    r = r.assign(request_rate=np.inf)
    text = show.inputs_sentence("f", r, "max_concurrency", 2, (), untied)
    assert "2 runs of a model the input names but ties to no run (`org/A-8B` (line 1) and `a-8.03b` (line 3))" in text
    assert "does not name" not in text
    assert serving.untied_models([doc], ["org/A-8B"]) == []
    bare = tmp_path / "bare.md"
    bare.write_text("nothing here\n")
    assert serving.untied_models([bare], []) == []
    assert "a model the output does not name" in show.inputs_sentence("f", r, "max_concurrency", 2, (), [])


def test_a_line_that_mentions_a_model_without_a_name_is_given_never_the_absence(tmp_path):
    """The absence rule (`context.states`): "a model the output does not name" only where no line
    mentions one; a line that does, and names none this reader takes, is quoted with its line."""
    doc = tmp_path / "m.md"
    doc.write_text("Results for the served model below\n\nSuccessful requests: 10\n")
    untied = serving.untied_models([doc], [])
    assert untied == [["Results for the served model below", 1, "sign"]]
    r = pd.DataFrame(dict(run=["1"], model=[None], max_concurrency=[np.nan], request_rate=[np.inf], order=[0]))
    text = show.inputs_sentence("f", r, "max_concurrency", 1, (), untied)
    assert "a model the input mentions without a name this reader can take" in text and "(line 1)" in text
    assert "does not name" not in text


def test_an_inference_perf_summary_over_every_stage_is_no_single_load_level():
    """inference-perf's summary_lifecycle_metrics.json aggregates every stage of its run: the page says
    so, never "at a single load level"; one stage's report (its own rate) is a load level."""
    from benchbook.ingest import inference_perf

    r = pd.DataFrame(
        dict(
            run=["ip"],
            model=[None],
            max_concurrency=[np.nan],
            request_rate=[np.nan],
            order=[0],
            tool=["inference-perf"],
        )
    )
    summary = show.inputs_sentence("f", r.assign(format=inference_perf.SUMMARY), "request_rate", 1)
    assert "a summary over every stage of its run" in summary and "single load level" in summary
    assert "at a single load level" not in summary and "so no single load level" in summary
    stage = show.inputs_sentence("f", r.assign(format=inference_perf.STAGE, request_rate=8.0), "request_rate", 0)
    assert "at a single load level" in stage and "summary" not in stage
    assert not serving.aggregates(r.assign(format=inference_perf.SUMMARY, tool="vllm-bench-serve")).any()


def test_a_model_named_only_in_a_path_is_said_so_and_a_path_beside_a_named_model_is_not():
    """trtllm-bench's report names its model only in its Dataset Path (`.../nvidia/Llama-3.1-8B-Instruct-FP8/
    128_128_30000.jsonl`): the page says "a model named only in a path"; a file that names its model
    elsewhere keeps that model, and the path adds nothing."""
    import tempfile
    from pathlib import Path

    tmp = Path(tempfile.mkdtemp())
    doc = tmp / "t.txt"
    doc.write_text(
        "Request Throughput (req/sec):  248.4751\nDataset Path:  /ws/datasets/nvidia/Llama-3.1-8B-FP8/1_1.jsonl\n"
    )
    untied = serving.untied_models([doc], [])
    assert untied == [["nvidia/Llama-3.1-8B-FP8", 2, "path"]]
    r = pd.DataFrame(dict(run=["1"], model=[None], max_concurrency=[np.nan], request_rate=[np.inf], order=[0]))
    text = show.inputs_sentence("f", r, "max_concurrency", 1, (), untied)
    assert "one run of a model named only in a path (`nvidia/Llama-3.1-8B-FP8` (line 2))" in text
    named = tmp / "n.txt"
    named.write_text("Model: org/B-7B\nDataset Path:  /ws/datasets/nvidia/Llama-3.1-8B-FP8/1_1.jsonl\n")
    assert serving.untied_models([named], []) == [["org/B-7B", 1, "named"]]


def test_a_disaggregated_run_spans_its_prefill_and_decode_instances():
    from benchbook.analysis import roofline

    one = roofline.choose("H100-SXM5-80GB", [])
    tp8 = run(10, metadata="tp=8")
    assert serving.spanning(one, tp8, (2, 2)).count == 16  # 1P1D at TP 8 each
    assert serving.spanning(one, tp8, (1, 1)).count == 8  # one instance
    assert serving.spanning(one, tp8, (1, 2)) is None  # both layouts named, neither tied to a run


@pytest.mark.parametrize(
    ("text", "meta", "said"),
    [
        # stop 51 (half ay): a Gaudi2 guide's 1P1D layout and no TP anywhere: '2 x Gaudi2' was the 2 servers
        ("Run DeepSeek-R1 on Gaudi2.\n## 1P1D PD分离环境准备\n", None, {"layout": 2, "layout_line": 2}),
        ("A 1P1D pair, TP 8 each.\n", None, {}),  # a line states each server's TP: spanning counts it
        ("A 1P1D pair.\n", "tp=8", {}),  # a run states its TP
        ("Two servers, one node.\n", None, {}),  # no xPyD layout named
    ],
)
def test_a_prefill_decode_layout_whose_servers_state_no_parallelism_counts_no_devices(tmp_path, text, meta, said):
    f = tmp_path / "out.md"
    f.write_text(text, encoding="utf-8")
    assert serving.layout_said([f], run(10, metadata=meta)) == said


def test_a_hosts_device_count_gives_way_to_the_runs_own_tp():
    import dataclasses

    from benchbook.analysis import roofline

    node = dataclasses.replace(roofline.choose("H100-SXM5-80GB", []), count=8)  # `8x H100` on the host's line
    assert serving.spanning(node, run(10, metadata="tp=1")).count == 1  # a launch at TP 1 on an 8-GPU host
    assert serving.spanning(node, run(10, metadata="tp=8")).count == 8
    assert serving.spanning(node, run(10)).count == 8  # the run states no parallelism: the host's count stands


@pytest.mark.parametrize(
    ("text", "most", "fewest"),
    [
        ("A 1P1D pair, TP 8 each.\n", 2, 2),
        ("We run 3P1D here.\n", 4, 4),
        ("1. Collocated baseline (TP=4)\n2. PD + NIXL (1P1D, TP=4 each)\n", 2, 1),
        ("A disaggregated run at TP 4.\n", 1, 1),  # no xPyD layout named: one instance
        ("model llama3p1d8b\n", 1, 1),  # inside a word: no layout
    ],
)
def test_the_instances_a_run_spans_are_the_layout_the_input_names(tmp_path, text, most, fewest):
    f = tmp_path / "out.md"
    f.write_text(text)
    assert serving.instances([f]) == (fewest, most)


def test_a_singlestream_run_has_one_request_in_flight_and_no_request_rate_from_its_target_qps():
    """LoadGen's SingleStream issues the next query only when the last completed (max_async_queries 1):
    concurrency 1, as fast as that allows; its target_qps (0.677) only sizes the run. A Server run is paced
    at its target_qps and has no cap."""
    from benchbook import config

    fix = config.FIXTURES_DIR / "mlperf-loadgen"
    single, _ = serving.load([fix / "hpe_4x_rtx_pro_4500_llama31_8b_edge_singlestream_summary.txt"])
    assert single["max_concurrency"].tolist() == [1.0] and np.isinf(single["request_rate"]).all()
    assert not single["rate_assumed"].any() and single["request_throughput"].tolist() == [0.85]
    c = say(cs.own_slos(serving.own_slo_bounds(single)))
    assert "this SingleStream run is not held to them" in c.text and "does not give rate" not in c.text
    server, _ = serving.load([fix / "amd_mi300x_llama2_70b_server_summary.txt"])
    assert server["max_concurrency"].isna().all() and server["request_rate"].tolist() == [73.5]


def test_a_multistream_run_has_one_query_of_samples_in_flight_and_is_judged_on_its_latency_percentile(tmp_path):
    """LoadGen's MultiStream issues a query of `samples_per_query` samples and the next only when they have
    all completed (loadgen/test_settings.h): 8 requests in flight at most, no request rate from its
    target_qps (25000), no latency limit from its unset `target_latency (ns): 0`; the verdict names its
    result, the 99th-percentile query latency. A MultiStream summary cut before its Test Parameters keeps
    no cap it does not print."""
    from benchbook import config

    fix = config.FIXTURES_DIR / "mlperf-loadgen" / "amitashnanda_v51_m1pro_onnxruntime_resnet50_multistream_summary.txt"
    multi, _ = serving.load([fix])
    assert multi["max_concurrency"].tolist() == [8.0] and np.isinf(multi["request_rate"]).all()
    c = say(cs.own_slos(serving.own_slo_bounds(multi)))
    assert c.status == "shown" and "LoadGen calls this MultiStream run VALID" in c.text
    assert "its result is the 99th-percentile latency, 364.1 ms, each query 8 samples" in c.text
    assert "at most 0 s" not in c.text and "does not give rate" not in c.text
    text = fix.read_text()
    cut = tmp_path / "multistream_summary_cut.txt"
    cut.write_text(text[: text.index("Test Parameters Used")])
    short, _ = serving.load([cut])
    assert short["max_concurrency"].isna().all() and np.isinf(short["request_rate"]).all()


def test_two_paths_to_one_checkpoint_folder_are_one_model():
    """stop 47 (vllm-ascend PR #12553): a client's `--model models/Qwen2.5-Omni-7B` and
    `/workspace/.../models/Qwen2.5-Omni-7B` name one folder's weights: one model, in its longest spelling;
    two folders of different names stay two models."""
    r = pd.DataFrame(dict(model=["models/Qwen2.5-Omni-7B", "/w/Infer/models/Qwen2.5-Omni-7B", None]))
    assert serving.models(r) == ["/w/Infer/models/Qwen2.5-Omni-7B"]
    assert serving.models(pd.DataFrame(dict(model=["a/Qwen3-8B", "a/Qwen3-8B-AWQ"]))) == [
        "a/Qwen3-8B",
        "a/Qwen3-8B-AWQ",
    ]


def test_replicas_behind_a_balancer_each_read_their_own_weights_at_every_step():
    """stop 47 (KubeAI: 8 vLLM replicas, one L4 each): 776 requests in flight over 8 replicas are 97 each,
    stepping at the same steps/s as one server of 776 would; each reads its own 8 GB, so 8 x the weight
    traffic one copy gives, set against 8 devices' bandwidth. One server (TP 8 over the same devices) reads
    its sharded weights once a step."""
    from benchbook.analysis.roofline import Peaks

    pk = Peaks("L4", 300.0, {"bf16": 121.0, "fp8": 242.0}, "parameter", count=8)
    lit = pd.DataFrame(dict(run=["a"], in_flight=[776.0], output_throughput=[3803.0], total_token_throughput=[45409.0]))
    one = serving.decode_roofline(lit, 8.0, 1.0, pk, "fp8").iloc[0]
    eight = serving.decode_roofline(lit, 8.0, 1.0, pk, "fp8", copies=8).iloc[0]
    assert eight["achieved_gb_s"] == pytest.approx(8 * one["achieved_gb_s"])
    assert eight["bandwidth_fraction"] == pytest.approx(8 * 8e9 * 3803 / 776 / 1e9 / 2400)
    assert eight["achieved_tflops"] == one["achieved_tflops"]  # the FLOPs per token do not depend on the copies
    assert serving.replicas([]) == 1
