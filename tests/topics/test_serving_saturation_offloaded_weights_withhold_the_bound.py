"""Weights a server keeps in CPU memory (`--cpu-offload-gb`) cross the host link at every step, so no roof
of the GPU bounds the run: the bound claims are withheld with that reason; with no offload they stand."""

from __future__ import annotations

from benchbook.claims import Claim
from benchbook.topics import serving_saturation


def test_a_bound_is_withheld_where_weights_are_offloaded_and_kept_where_not():
    shown = Claim("bound_low", "bound", "shown", "rule", {})
    assert serving_saturation._offloaded(shown, None) is shown
    held = serving_saturation._offloaded(shown, (8.0, 40))
    assert held.status == "withheld" and "--cpu-offload-gb 8`, line 40" in held.reason
