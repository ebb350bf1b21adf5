"""An engine's version written as a bound (`After SGLang v0.5.2, ... may return incorrect responses`, `since vLLM
0.6.0`, `>= sglang 0.4.6`) speaks of the releases after or before it, not the one a run used: the engine is still
read, the version is a sign, never the run's version. A version the line ties to the run (`on SGLang v0.5.2`, a pin
`vllm==0.8.5`, a label `Before PR: vLLM 0.9.1`) is still read."""

from __future__ import annotations

import pytest

from benchbook.ingest import context


@pytest.mark.parametrize(
    "line",
    [
        "After SGLang v0.5.2, when deploying a PD-disaggregated MHA model (e.g., GLM4.5 Air FP8), the service may",
        "since vLLM 0.6.0 the scheduler overlaps the CPU work",
        "this needs >= sglang 0.4.6",
        "the regression is in every release newer than vLLM 0.8.4",
        "Prior to TGI 2.0.1 the router dropped the request",
    ],
)
def test_a_bound_names_the_engine_but_no_version_of_the_run(line):
    read = context.read([line])
    assert [f.value for f in read.get("version")] == []
    assert len(read.get("engine")) == 1
    assert [s.name for s in read.signs if s.name == "version"] == ["version"]


@pytest.mark.parametrize(
    ("line", "version"),
    [
        ("Tested on SGLang v0.5.2 with 8 GPUs", "v0.5.2"),
        ("vllm==0.8.5 before the fix", "0.8.5"),
        ("Before PR: vLLM 0.9.1", "0.9.1"),
        ("Image: SGLang 0.4.6.post1 (after warmup)", "0.4.6.post1"),
    ],
)
def test_a_version_the_line_ties_to_the_run_is_still_read(line, version):
    assert [f.value for f in context.read([line]).get("version")] == [version]
