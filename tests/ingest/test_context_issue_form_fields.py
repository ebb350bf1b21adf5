"""A GitHub issue form's field (`### Label`, a blank line, the value alone) states the fact its label names."""

from __future__ import annotations

from benchbook.ingest import context


def test_an_issue_forms_field_states_its_fact_and_a_write_ups_section_does_not():
    """GitHub renders an issue form's field as `### Label`, a blank line, the value, the next field."""
    form = [
        "### CPU",
        "",
        "Intel(R) Xeon(R) Platinum 8460Y+",
        "",
        "### GPU",
        "",
        "AMD Instinct MI300X",
        "",
        "### ROCm Version",
    ]
    c = context.read(form)
    assert [(f.value, f.line) for f in c.get("cpu")] == [("Intel(R) Xeon(R) Platinum 8460Y+", 3)]
    assert [(f.value, f.line) for f in c.get("device")] == [("AMD Instinct MI300X", 7)]
    section = ["## CPU", "", "Compiled with gcc 8.5.0 and the latest release", "", "```", "make -j4", "```"]
    assert not context.read(section).get("cpu")  # a section of several lines (and a `##` heading) is no field
