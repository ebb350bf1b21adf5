"""A `Total Power` line names a sum, but over what? Under the banner SGLang's and vLLM's `--record-power`
print (`---GPU Power (all devices)---`, `---CPU Power (all sockets)---`), over the GPUs or the CPU sockets,
not the whole node; with no banner (or a bare rule closing the section) the total stays the node's."""

from benchbook import ingest


def _scopes(text: str) -> dict[float, str]:
    return {f.value: f.scope for f in ingest.context_of_text(text).facts if f.name == "power"}


def test_a_total_under_a_gpu_or_cpu_banner_is_summed_over_those_devices():
    text = (
        "-------------GPU Power (all devices)--------------\n"
        "Mean Total Power (total W):              2236.50\n"
        "Median Power (per-GPU W):                279.56\n"
        "-------------CPU Power (all sockets)--------------\n"
        "CPU Mean Total Power (W):                254.40\n"
        "CPU Median Power (per-socket W):         127.20\n"
    )
    scopes = _scopes(text)
    assert scopes[2236.5] == "all GPUs" and scopes[254.4] == "all CPUs"
    # one device's or socket's share is never the banner's sum
    assert scopes[279.56] == "per GPU" and scopes[127.2] == "scope not stated"


def test_a_total_with_no_banner_or_after_a_bare_rule_stays_the_nodes():
    assert _scopes("Mean Total Power (total W): 2236.50\n")[2236.5] == "whole node"
    closed = "-----GPU Power (all devices)-----\nGPU: 3 W\n--------------------\nMean Total Power (W): 900\n"
    assert _scopes(closed)[900.0] == "whole node"
    # a line naming its own scope keeps it under any banner
    assert _scopes("-----GPU Power (all devices)-----\nWhole system power: 900 W\n")[900.0] == "whole node"
