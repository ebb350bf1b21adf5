"""The reasons a rule gives for assuming no device are worded in `benchbook/claims/reasons.yml`, not
in Python: the rule decides the case, the file words it, and no chapter's wording copies it (the
house rule: sentence wording lives in text files; issue 34)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from benchbook import config
from benchbook.claims import reasons, rules

#: One evidence per case of `rules.no_device_reason`, and the template that words it.
CASES = [
    ({"mode": "unknown", "host_cpu": "Apple M3 Max", "line": 5}, "host_cpu"),
    ({"role": "prefill", "role_line": 12}, "role"),
    ({"layout": 2, "layout_line": 67, "layout_device": "Gaudi2"}, "layout"),
    ({"layout": 2, "layout_line": 67, "layout_device": "Gaudi2"}, "layout_unsaid"),
    ({"layout": 2, "layout_line": 67, "layout_device": "Gaudi2", "layout_sign": 9}, "layout_unread"),
    ({"device_split": ["4xA100 80GB", "8xA100 80GB"]}, "device_split"),
    ({"device_several": "A100 and L40S", "device_several_where": "in lines 1 and 3"}, "several_which"),
    (
        {"device_several": "A", "device_several_where": "in lines 1 and 3", "device_several_apart": True},
        "several_apart",
    ),
    ({"device_family": "H100", "device_family_line": 1, "device_family_rows": ["A", "B"]}, "device_family"),
    ({"device_unlisted": "P100", "device_unlisted_line": 3}, "device_unlisted"),
    (
        {
            "device_arch": "L40S",
            "device_arch_line": 2,
            "device_arch_sm": "sm_89",
            "device_arch_cap": "8.0",
            "device_arch_cap_line": 9,
        },
        "device_arch",
    ),
    ({"device_asked_line": 4}, "device_asked"),
    ({"device_sign_line": 6}, "device_sign"),
]


@pytest.mark.parametrize(("ev", "name"), CASES, ids=[n for _, n in CASES])
def test_each_case_is_worded_by_the_file(monkeypatch, ev, name):
    before = rules.no_device_reason(ev)
    assert "{" not in before and "None" not in before
    edited = {**reasons._templates(), name: "EDITED " + reasons._templates()[name]}
    monkeypatch.setattr(reasons, "_templates", lambda: edited)
    assert "EDITED" in rules.no_device_reason(ev)  # the other way: change the file, the reason changes


def test_no_sign_of_a_device_is_worded_by_the_file():
    assert rules.no_device_reason({}) == rules.NO_DEVICE == reasons.say("no_device")
    assert rules.NO_DEVICE.endswith(reasons.say("ask"))


def test_a_printed_device_is_worded_by_the_file():
    ev = dict(achieved_gb_s=185.2, fraction=None, peak=None, device=None, peak_source="unknown", streaming=True)
    ev.update(active_params_b=3.0, bytes_per_token=1.83e9, printed_device="Intel(R) Arc(TM) Pro B70 Graphics")
    assert rules.fraction_of_peak(ev)[1] == reasons.say("printed_device", device=ev["printed_device"])


def copies(template: str, text: str, shortest: int = 30) -> list[str]:
    """The stretches of `template`'s literal words (between its {fields}) at least `shortest`
    characters long that `text` repeats."""
    chunks = (c.strip(" ,.:;()") for c in re.split(r"\{[^}]*\}", template))
    flat = " ".join(text.split())
    return [c for c in chunks if len(c) >= shortest and c in flat]


def test_no_chapter_or_module_words_a_reason_the_file_words():
    files = [*config.NOTEBOOKS_DIR.glob("*.yml"), *Path(reasons.__file__).parents[1].rglob("*.py")]
    files += [p for p in Path(reasons.__file__).parents[1].rglob("*.yml") if p.name != "reasons.yml"]
    found = {
        (name, p.name, c)
        for p in files
        for name, t in reasons._templates().items()
        for c in copies(t, p.read_text(encoding="utf-8"))
        if name != "ask"
    }
    assert not found
    # the other way: the batch chapter's old copy of the compute_cap case is found
    old = "another architecture, so the device that ran it is not known and none is assumed,"
    assert copies(reasons._templates()["device_arch"], old)
