"""The batch and serving chapters say why no device's peaks are used in the words of the claims' reason
(`claims.rules.no_device_reason`, worded in claims/reasons.yml), so one idea has one wording on every
page: a family of table rows, a device the table lacks, or no device at all. Before, each chapter
worded the same cases in its own structure ("(pass `gpu` to choose one)" beside the reason's "(pass -p
gpu NAME to choose one, or the peaks)"). A device the table knows is said as the roofline's, with no
reason."""

from __future__ import annotations

import pytest

from benchbook.analysis import precision, roofline
from benchbook.claims import rules
from benchbook.presentation import batch, serving

UNKNOWN = precision.Weights(None, float("nan"), "not stated")
CASES = {
    "family": "Ran on 8x H100 GPUs.\n",
    "unlisted": "Hardware: NVIDIA L20 48GB\n",
    "none": "no device here\n",
}


def _batch(text: str, peaks=None) -> str:
    return batch.device_sentence(peaks, {"m": 7.0}, {"m": "parameter"}, named=roofline.named([text]))


def _serving(text: str, peaks=None) -> str:
    said = roofline.said(roofline.named([text])) if peaks is None else {}
    return serving.device_sentence(peaks, "m", 7.0, 7.0, "parameter", UNKNOWN, said=said)


@pytest.mark.parametrize("case", sorted(CASES))
def test_no_device_is_said_in_the_reasons_words_on_both_chapters(case):
    reason = rules.no_device_reason(roofline.said(roofline.named([CASES[case]])))
    opening = reason[:1].upper() + reason[1:]
    assert _batch(CASES[case]).startswith(opening + ":")
    # the serving sentence is glued as plain text: the same words without code marks
    assert _serving(CASES[case]).startswith(opening.replace("`", "") + ":")
    for said in (_batch(CASES[case]), _serving(CASES[case])):
        assert "(pass `gpu`" not in said and "No device is named" not in said
        assert "No device the hardware table knows is named" not in said


def test_several_runs_devices_then_the_reason_in_its_own_case():
    said = roofline.said(roofline.named([CASES["family"]]))
    text = serving.device_sentence(None, "m", 7.0, 7.0, "parameter", UNKNOWN, spans=8, said=said)
    assert text.startswith("Each run spans 8 devices, as the input says (TP x PP x DP), but the input names H100")


def test_a_device_the_table_knows_is_the_roofline_s_and_no_reason_is_given():
    text = "GPU: NVIDIA A100-SXM4-80GB\n"
    peaks = roofline.choose("", [text], 0.0, 0.0)
    assert peaks is not None and peaks.device == "A100-SXM4-80GB"
    for said in (_batch(text, peaks), _serving(text, peaks)):
        assert said.startswith("The roofline uses the A100-SXM4-80GB")
        assert "which the hardware table" not in said and "(pass -p gpu NAME" not in said
