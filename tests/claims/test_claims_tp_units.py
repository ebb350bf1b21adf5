"""The TP chapter's fractions of a peak carry the peak's unit, shown or withheld."""

import pandas as pd

from benchbook.claims import tp as ctp

DEVICE = {"device": "A100-SXM4-80GB", "source": "table", "tflops": 312.0, "bandwidth_gb_s": 2039.0}


def _fraction(compute: bool):
    return ctp.fraction_of_peak(
        "f", None, DEVICE, compute=compute, active_params_b=None, tp_unknown=0, why_missing="no row"
    )


def test_a_prefill_fraction_is_in_flops_and_a_decode_fraction_in_bytes():
    assert _fraction(True).evidence["unit"] == "TFLOP/s"
    assert _fraction(False).evidence["unit"] == "GB/s"
    assert _fraction(True).reason == "no row"


def test_a_quantized_bandwidth_without_a_run_is_withheld_in_gb_s():
    c = ctp.quantization_bandwidth(pd.DataFrame(), 7.0, None, DEVICE)
    assert c.status == "withheld" and c.evidence["unit"] == "GB/s"
    assert c.reason == "the input has no quantized run with an fp16 twin"
