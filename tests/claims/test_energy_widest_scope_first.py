"""The headline energy of a configuration is the widest scope its file measures (the whole system,
then GPU + CPU + RAM, then the GPU), the narrower ones after it: a CPU-only or RAM-only figure is a
part of the run's cost, never its answer (issue #34). A file that measures the GPU alone keeps it first."""

from __future__ import annotations

from test_energy_analysis import _rows, _table

from benchbook.claims import energy as claims


def _scopes(*scopes) -> list[str]:
    t = _table(*[_rows("a", energy_j=100.0 * (k + 1), tokens=100.0, scope=s) for k, s in enumerate(scopes)])
    return [
        c.evidence["scope"] for c in claims.build(t, 2.0) if c.id.startswith("measured_") and c.kind == "energy_bound"
    ]


def test_the_total_leads_the_cpu_ram_and_gpu_figures():
    said = _scopes("cpu", "ram", "gpu", "gpu+cpu+ram")
    assert said[0] == "gpu+cpu+ram" and said[1] == "gpu"
    assert set(said[2:]) == {"cpu", "ram"}


def test_the_gpu_leads_the_cpu_and_ram_without_a_total():
    assert _scopes("cpu", "ram", "gpu")[0] == "gpu"


def test_a_file_of_the_gpu_alone_keeps_it_first():
    assert _scopes("gpu") == ["gpu"]


def test_configurations_keep_the_files_order():
    t = _table(
        _rows("b", energy_j=100.0, tokens=100.0, scope="cpu"),
        _rows("b", energy_j=300.0, tokens=100.0, scope="gpu+cpu+ram"),
        _rows("a", energy_j=200.0, tokens=100.0, scope="gpu"),
    )
    said = [
        (c.evidence["run"], c.evidence["scope"])
        for c in claims.build(t, 2.0)
        if c.kind == "energy_bound" and c.id.startswith("measured_")
    ]
    assert said == [("b", "gpu+cpu+ram"), ("b", "cpu"), ("a", "gpu")]
