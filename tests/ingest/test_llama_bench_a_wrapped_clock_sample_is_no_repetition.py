"""llama-bench times each repetition as `get_time_ns() - t_start` into a `uint64_t` (llama-bench.cpp,
`test::samples_ns`), and its `avg_ts` / `stddev_ts` are the mean and sample std of `1e9 x tokens / t` over
every repetition. A clock that steps back during a repetition leaves 2^64 - d there: 2^63 ns or more, a
duration no run reaches. That repetition measured nothing (its rate prints as about 0 tok/s), so its sample
is set aside and the test's mean and std are llama-bench's own statistics over the other repetitions; a
long but real repetition is kept, and the printed statistics stand."""

import json
import math

from benchbook.ingest import llama_bench

WRAPPED = 18446744071171093742  # 2^64 - 2,538,457,874: -2.538 s stored unsigned (a real LocalMode-Bench sample)


def _record(samples_ns, samples_ts, avg_ts, stddev_ts):
    return {
        "build_commit": "b29c606e2",
        "build_number": 10964,
        "cpu_info": "Intel(R) Core(TM) Ultra 7 165H",
        "gpu_info": "",
        "backends": "CPU",
        "model_filename": "Qwen3-0.6B-Q4_K_M.gguf",
        "model_type": "qwen3 0.6B Q4_K - Medium",
        "model_size": 390753280,
        "model_n_params": 596049920,
        "n_threads": 22,
        "n_gpu_layers": 0,
        "n_prompt": 0,
        "n_gen": 128,
        "n_depth": 0,
        "avg_ns": 5139615713,
        "stddev_ns": 1255484400,
        "avg_ts": avg_ts,
        "stddev_ts": stddev_ts,
        "samples_ns": samples_ns,
        "samples_ts": samples_ts,
    }


def _tg(rec):
    parsed = llama_bench.parse(json.dumps([rec], indent=2), "wrapped.json")
    t = parsed.table
    return parsed, t[t.metric == "tg_rate"]


def test_a_wrapped_sample_is_set_aside_and_the_mean_is_the_other_repetitions():
    rec = _record(
        [WRAPPED, 4982951316, 7151024422, 7813335058, 8289225645],
        [6.93889e-09, 25.6876, 17.8995, 16.3822, 15.4417],
        15.08222,
        9.350184,
    )
    parsed, tg = _tg(rec)
    mean = tg[tg.statistic == "mean"].value.iloc[0]
    std = tg[tg.statistic == "std"].value.iloc[0]
    valid = [25.6876, 17.8995, 16.3822, 15.4417]
    m = sum(valid) / 4
    assert math.isclose(mean, m) and math.isclose(mean, 18.85275)
    assert math.isclose(std, math.sqrt(sum((v - m) ** 2 for v in valid) / 3))
    assert "llama-bench's avg_ts 15.08222" in tg[tg.statistic == "mean"].note.iloc[0]
    assert sorted(tg[tg.statistic == "value"].rep.tolist()) == [2, 3, 4, 5]
    set_aside = parsed.rejected[parsed.rejected.reason.str.contains("negative duration stored unsigned")]
    assert sorted(set_aside.text.tolist()) == [f"samples_ns[1]: {WRAPPED}", "samples_ts[1]: 6.93889e-09"]
    assert any("1 repetition (1) of tg128" in m for m in parsed.messages)
    durations = parsed.table[(parsed.table.metric == "tg_duration") & (parsed.table.statistic == "value")]
    assert sorted(durations.rep.tolist()) == [2, 3, 4, 5]


def test_a_long_real_repetition_is_kept_and_the_printed_statistics_stand():
    ten_minutes = 600 * 10**9  # far longer than any repetition above, far below 2^63 ns
    rec = _record(
        [ten_minutes, 4982951316, 7151024422, 7813335058, 8289225645],
        [0.213333, 25.6876, 17.8995, 16.3822, 15.4417],
        15.08497,
        9.34,
    )
    parsed, tg = _tg(rec)
    assert tg[tg.statistic == "mean"].value.iloc[0] == 15.08497
    assert tg[tg.statistic == "std"].value.iloc[0] == 9.34
    assert sorted(tg[tg.statistic == "value"].rep.tolist()) == [1, 2, 3, 4, 5]
    assert not any("negative duration" in m for m in parsed.messages)
    assert not parsed.rejected.reason.str.contains("negative duration").any()
