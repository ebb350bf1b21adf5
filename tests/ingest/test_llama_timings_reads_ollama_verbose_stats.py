"""Ollama's `ollama run --verbose` stats (api/types.go `Metrics.Summary`) read as ONE request each by the
llama-timings reader: the prompt and eval rates kept where each is its count / duration (Go durations,
`%.2f`), a contradicting rate rejected with the formula, `load duration` set aside, `total duration` kept,
the model from an `ollama run MODEL` command above; obench.sh's runs (an average and a power reading)
stay that reader's."""

from __future__ import annotations

import pytest

from benchbook import ingest
from benchbook.ingest import llama_timings, ollama_verbose

STATS = [
    "total duration:       3.952784066s",
    "load duration:        12.383499ms",
    "prompt eval count:    16 token(s)",
    "prompt eval duration: 68.703ms",
    "prompt eval rate:     232.89 tokens/s",
    "eval count:           66 token(s)",
    "eval duration:        3.829555s",
    "eval rate:            17.23 tokens/s",
]


def _read(tmp_path, lines):
    f = tmp_path / "stats.md"
    f.write_text("\n".join(lines) + "\n")
    return ingest.read(f)


def _value(df, metric):
    return df[df["metric"] == metric]["value"].tolist()


def test_a_verbose_block_is_one_request_with_both_phases(tmp_path):
    df = _read(tmp_path, ["$ ollama run llama3:8b --verbose", *STATS])
    assert set(df["tool"]) == {"llama-timings"} and set(df["format"]) == {ollama_verbose.FORMAT}
    assert _value(df, "tg_rate") == [17.23] and _value(df, "pp_rate") == [232.89]
    assert _value(df, "tg_duration") == [pytest.approx(3829.555)] and set(df["request"]) == {1}
    assert set(df["n_gen"]) == {66} and set(df["n_prompt"]) == {16} and set(df["model"]) == {"llama3:8b"}
    assert _value(df, "total_duration") == [pytest.approx(3952.784066)]
    assert any("load duration" in r["reason"] for r in df.attrs["rejected"])


def test_a_rate_its_count_and_duration_contradict_is_rejected(tmp_path):
    bad = [*STATS[:-1], "eval rate:            27.23 tokens/s"]
    df = _read(tmp_path, bad)
    assert _value(df, "tg_rate") == [] and _value(df, "pp_rate") == [232.89]
    assert any("66 / 3.82956 s = 17.23" in r["reason"] for r in df.attrs["rejected"])


def test_go_durations_and_two_blocks_are_two_requests(tmp_path):
    assert ollama_verbose.seconds("1m2.5s") == pytest.approx(62.5) and ollama_verbose.seconds("850µs") == 8.5e-4
    assert ollama_verbose.seconds("3 s") is None
    second = [
        "eval count:           63 token(s)",
        "eval duration:        1.748827692s",
        "eval rate: **36.02 tokens/s**",
    ]
    df = _read(tmp_path, [*STATS, "", *second])
    assert sorted(set(df["request"])) == [1, 2] and _value(df, "tg_rate") == [17.23, 36.02]


def test_obench_runs_with_their_power_stay_obenchs():
    obench = ["Running benchmark 3 times using model: llama3:8b", *STATS, "Average Eval Rate: 17.23 tokens/second"]
    assert llama_timings.sniff("\n".join(STATS))
    assert not llama_timings.sniff("\n".join(obench))


def test_a_count_that_is_not_a_number_is_rejected_by_its_line_and_the_rest_is_read(tmp_path):
    garbled = [*STATS[:2], "prompt eval count:    \x0016 token(s)", *STATS[3:]]
    df = _read(tmp_path, garbled)
    assert _value(df, "pp_rate") == [232.89] and _value(df, "tg_rate") == [17.23]
    assert any(r["line"] == 3 and "is not a number" in r["reason"] for r in df.attrs["rejected"])
    assert not any("is not a number" in r["reason"] for r in _read(tmp_path, STATS).attrs["rejected"])


def test_a_block_cut_after_the_prompt_phase_is_that_phase_alone(tmp_path):
    # Ollama prints each phase's count, duration and rate in turn: a copy cut inside the generation's still
    # holds the prompt's whole (16 / 68.703 ms = 232.89 tok/s)
    df = _read(tmp_path, ["$ ollama run llama3:8b --verbose", *STATS[:6], "eval"])
    assert _value(df, "pp_rate") == [232.89] and _value(df, "tg_rate") == []


def test_a_prompt_rate_without_its_count_and_duration_is_no_block():
    assert not ollama_verbose.sniff([STATS[0], STATS[4]])
    assert ollama_verbose.sniff(STATS[2:5])
