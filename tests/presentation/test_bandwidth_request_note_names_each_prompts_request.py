"""A prompt line is "that request's prompt" only when its request is the one request the note describes;
another request's prompt is named by the line of its described generation, else by its writer's label,
else as another request's."""

from __future__ import annotations

import pandas as pd

from benchbook.presentation import bandwidth as show

GEN = {"line": 12, "rate": 57.18, "test": "tg38", "n_prompt": 9, "ngl": None, "n_layers": None, "offload": "full"}


def _prompts(*rows):
    return pd.DataFrame([{"one_request": True, **r} for r in rows])


def test_the_described_requests_prompt_is_that_requests():
    pts = pd.DataFrame([{**GEN, "one_request": True, "request": 1}])
    text = show.request_note(pts, _prompts({"line": 11, "rate": 63.86, "request": 1, "caption": "rx 6800 only"}))
    assert "Line 11 is that request's prompt, 63.86 tok/s" in text


def test_another_requests_prompt_is_named_by_its_label_or_as_another():
    pts = pd.DataFrame([{**GEN, "one_request": True, "request": 1}])
    text = show.request_note(
        pts,
        _prompts(
            {"line": 15, "rate": 52.84, "request": 2, "caption": "rx 6700xt only"},
            {"line": 19, "rate": 75.97, "request": 3, "caption": None},
        ),
    )
    assert "Line 15 is the prompt of the request labelled 'rx 6700xt only', 52.84 tok/s" in text
    assert "Line 19 is the prompt of another request, 75.97 tok/s" in text
    assert "that request's prompt" not in text


def test_with_two_requests_described_each_prompt_names_its_generation_line():
    pts = pd.DataFrame(
        [{**GEN, "one_request": True, "request": 1}, {**GEN, "line": 16, "one_request": True, "request": 2}]
    )
    text = show.request_note(pts, _prompts({"line": 15, "rate": 52.84, "request": 2, "caption": None}))
    assert "Line 15 is the prompt of the request on line 16" in text
