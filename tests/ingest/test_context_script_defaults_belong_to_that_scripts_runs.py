"""A script's defaults (`The perftest.sh script runs with the following defaults: CONCURRENT_REQUESTS=64`) are the
settings of that script's runs only: a block another script ran (`docker exec srv ~/scripts/perftest_vision.sh`
above it) takes none of them, and its load is not stated; where the script that ran every block is the one whose
defaults the file gives, or the defaults name no script, every block takes them."""

from __future__ import annotations

from benchbook import ingest
from benchbook.ingest import context

BLOCK = """<pre>
# {model}
============ Serving Benchmark Result ============
Successful requests:                     500
Benchmark duration (s):                  121.53
Total input tokens:                      31710
Total generated tokens:                  64000
Request throughput (req/s):              4.11
Output token throughput (tok/s):         526.63
Total Token throughput (tok/s):          787.56
---------------Time to First Token----------------
Mean TTFT (ms):                          5642.06
Median TTFT (ms):                        5589.81
P90 TTFT (ms):                           8825.33
==================================================
</pre>
"""


def _guide(second_script: str, defaults: str) -> str:
    return "\n".join(
        [
            "Run perftest.sh in a separate terminal:",
            "```bash",
            "docker exec vllm-server ~/scripts/perftest.sh",
            "```",
            BLOCK.format(model="meta-llama/Llama-3.1-8B-Instruct"),
            "> Note:",
            f"> {defaults}",
            ">   CONCURRENT_REQUESTS=64",
            "",
            f"Run {second_script} in a separate terminal:",
            "```bash",
            f"docker exec vllm-server ~/scripts/{second_script}",
            "```",
            BLOCK.format(model="meta-llama/Llama-3.2-11B-Vision-Instruct"),
        ]
    )


def _caps(tmp_path, text):
    path = tmp_path / "guide.md"
    path.write_text(text, encoding="utf-8")
    df = ingest.read(path)
    return df.groupby("run", sort=False)["max_concurrency"].first().to_dict(), path


def test_another_scripts_block_takes_none_of_a_scripts_defaults(tmp_path):
    caps, path = _caps(
        tmp_path, _guide("perftest_vision.sh", "The perftest.sh script runs with the following defaults:")
    )
    assert caps["meta-llama/Llama-3.1-8B-Instruct"] == 64
    assert caps["meta-llama/Llama-3.2-11B-Vision-Instruct"] != caps["meta-llama/Llama-3.2-11B-Vision-Instruct"]  # NaN
    lines = path.read_text(encoding="utf-8").splitlines()
    _, script, default = context.other_script(context.read(lines), "concurrency", len(lines))
    assert (script, default.script, default.value) == ("perftest_vision.sh", "perftest.sh", 64)
    assert context.other_script(context.read(lines), "concurrency", 6) is None  # perftest.sh's own block


def test_the_same_scripts_blocks_or_defaults_of_no_script_are_every_blocks(tmp_path):
    for second, defaults in (
        ("perftest.sh", "The perftest.sh script runs with the following defaults:"),
        ("perftest_vision.sh", "The runs use these settings:"),
    ):
        caps, _ = _caps(tmp_path, _guide(second, defaults))
        assert set(caps.values()) == {64}, (second, defaults)
