"""SGLang's --enable-dp-attention runs the DP ranks inside the TP group (`analysis.serving.devices`), so a run
at TP 16 and DP 2 spans 16 devices: the page's count says so, never "(TP x PP x DP)" beside a DP that the
product would double; replicas (DP without DP attention) are still counted as TP x PP x DP."""

from __future__ import annotations

import pandas as pd

from benchbook.analysis import precision, serving
from benchbook.presentation import serving as show

UNKNOWN = precision.Weights(None, float("nan"), "not stated")


def _runs(meta: str) -> pd.DataFrame:
    return pd.DataFrame(dict(run=["before"], metadata=[meta]))


def _sentence(r: pd.DataFrame) -> str:
    return show.device_sentence(
        None, "m", 7.0, 7.0, "parameter", UNKNOWN, spans=serving.devices(r), dp_inside=serving.dp_inside(r)
    )


def test_dp_attention_ranks_inside_the_tp_group_are_said_so():
    r = _runs("tp=16; dp=2; dp_attention=yes")
    assert serving.devices(r) == 16 and serving.dp_inside(r)
    text = _sentence(r)
    assert "Each run spans 16 devices, as the input says (TP x PP, the DP ranks inside the TP group" in text
    assert "TP x PP x DP" not in text


def test_replicas_are_counted_tp_times_pp_times_dp():
    r = _runs("tp=8; dp=2")
    assert serving.devices(r) == 16 and not serving.dp_inside(r)
    assert "Each run spans 16 devices, as the input says (TP x PP x DP)" in _sentence(r)


def test_dp_attention_at_dp_1_needs_no_words():
    assert not serving.dp_inside(_runs("tp=8; dp=1; dp_attention=yes"))
