"""One `ollama run --verbose` request's stats with no power reading anywhere in the file (as
context.states decides) are refused in one sentence naming the eval rate's line; with a power reading
beside them, or a sign of one, they are not this refusal."""

from benchbook.ingest import ollama_bench_power

STATS = [
    "total duration:       3.952784066s",
    "load duration:        12.383499ms",
    "prompt eval count:    16 token(s)",
    "prompt eval rate:     232.89 tokens/s",
    "eval count:           66 token(s)",
    "eval duration:        3.829555s",
    "eval rate:            17.23 tokens/s",
]


def test_stats_without_power_are_refused_at_the_eval_rate_line():
    line, why = ollama_bench_power.refuses("\n".join(["llama3:8b loaded fully in vram, stats:", "```", *STATS, "```"]))
    assert line == 9 and "eval rate 17.23 tokens/s" in why and "no power reading" in why


def test_a_power_reading_or_its_sign_leaves_them_to_the_parser():
    assert ollama_bench_power.refuses("\n".join([*STATS, "Power draw: 51.1W"])) is None
    assert ollama_bench_power.refuses("\n".join([*STATS, "power: measured at the wall, see photo"])) is None
