"""analysis.prefill on synthetic llama-bench tables with known answers: a pp rate as FLOP/s and its
share of the device's dense peak (withheld without a device, a size, or with weights on the host of a
GPU build), and rows that differ in one setting read as a sweep of it, never rows of two models."""

from __future__ import annotations

import pandas as pd
import pytest

from benchbook import ingest
from benchbook.analysis import bandwidth, prefill
from benchbook.claims import bandwidth as claims
from benchbook.presentation import wording

HEAD = "| model | size | params | backend | ngl | threads | test | t/s |\n| --- | ---: | ---: | --- | --: | --: | ---: | ---: |\n"


def _read(tmp_path, rows: str, name="t.md") -> pd.DataFrame:
    path = tmp_path / name
    path.write_text(HEAD + rows, encoding="utf-8")
    return ingest.read(path, tool="llama-bench")


def _row(
    model="llama 7B Q4_0",
    size="3.56 GiB",
    params="7.00 B",
    backend="CUDA",
    ngl=99,
    threads=8,
    test="pp512",
    ts="1000.00 ± 10.00",
):
    return f"| {model} | {size} | {params} | {backend} | {ngl} | {threads} | {test} | {ts} |\n"


def test_a_pp_rate_on_a_known_device_is_two_flops_per_parameter_per_token_against_its_dense_peak(tmp_path):
    pts = prefill.points(prefill.prompt_rows(_read(tmp_path, _row())), gpu="RTX-4090")
    p = pts.iloc[0]
    assert p["tflops"] == pytest.approx(2 * 7.0e9 * 1000 / 1e12)
    assert p["share"] == pytest.approx(14.0 / 165.2)
    c = claims.prefill(p, "pp_1")
    assert c.status == "shown" and c.evidence["fraction"] == pytest.approx(14.0 / 165.2)
    # the peak is named with the precision it is listed at
    assert (p["peak_precision"], c.evidence["peak_precision"]) == ("16-bit", "16-bit")
    assert "TFLOP/s dense 16-bit peak" in wording.word("bandwidth_roofline", c).text


def test_a_pp_rate_without_a_device_or_a_size_keeps_its_rate_and_withholds_its_share(tmp_path):
    no_device = prefill.points(prefill.prompt_rows(_read(tmp_path, _row())))
    assert no_device.iloc[0]["tflops"] == pytest.approx(14.0) and pd.isna(no_device.iloc[0]["share"])
    assert claims.prefill(no_device.iloc[0], "pp_1").status == "withheld"
    no_size = prefill.points(
        prefill.prompt_rows(_read(tmp_path, _row(model="zzz", params="-"), "s.md")), gpu="RTX-4090"
    )
    assert pd.isna(no_size.iloc[0]["tflops"]) and pd.isna(no_size.iloc[0]["share"])
    c = claims.prefill(no_size.iloc[0], "pp_1")
    assert c.status == "withheld" and "size" in c.reason


def test_a_gpu_build_at_ngl_0_has_no_share_but_a_cpu_build_does(tmp_path):
    gpu_build = prefill.points(prefill.prompt_rows(_read(tmp_path, _row(ngl=0))), gpu="RTX-4090")
    assert gpu_build.iloc[0]["no_share"] == "offloaded" and pd.isna(gpu_build.iloc[0]["share"])
    assert claims.prefill(gpu_build.iloc[0], "pp_1").status == "withheld"
    cpu_build = prefill.points(prefill.prompt_rows(_read(tmp_path, _row(backend="CPU", ngl=0), "c.md")))
    assert cpu_build.iloc[0]["no_share"] is None


def _sweeps(df):
    return prefill.sweeps(pd.concat([prefill.prompt_rows(df), bandwidth.generation_rows(df)], ignore_index=True))


def test_rows_that_differ_only_in_threads_are_a_threads_sweep_with_each_rate(tmp_path):
    rows = _row(threads=4, ts="500.00 ± 5.00") + _row(threads=8, ts="900.00 ± 9.00")
    rows += _row(threads=4, test="tg128", ts="20.00 ± 0.10") + _row(threads=8, test="tg128", ts="25.00 ± 0.20")
    found = _sweeps(_read(tmp_path, rows))
    assert [(s["setting"], s["test"]) for s in found] == [("threads", "pp512"), ("threads", "tg128")]
    assert [v[:3] for v in found[0]["values"]] == [(4, 500.0, 5.0), (8, 900.0, 9.0)]


def test_a_cpu_runs_sweep_names_the_cpu_it_ran_on(tmp_path):
    rows = _row(backend="CPU", ngl=0, threads=4, ts="50.00 ± 5.00") + _row(
        backend="CPU", ngl=0, threads=8, ts="90.00 ± 9.00"
    )
    found = _sweeps(_read(tmp_path, rows).assign(cpu="AMD EPYC 7763 64-Core Processor", gpu="NVIDIA RTX 4090"))
    assert [(s["setting"], s["device"]) for s in found] == [("threads", "AMD EPYC 7763 64-Core Processor")]


def test_two_models_at_two_thread_counts_are_no_sweep(tmp_path):
    rows = _row(threads=4, ts="500.00 ± 5.00") + _row(
        model="llama 13B Q4_0", params="13.00 B", size="6.8 GiB", threads=8
    )
    assert _sweeps(_read(tmp_path, rows)) == []


def test_a_prompt_length_and_a_depth_are_sweeps_of_the_test(tmp_path):
    rows = _row(test="pp512") + _row(test="pp2048", ts="800.00 ± 8.00") + _row(test="pp512 @ d4096", ts="700.00 ± 7.00")
    found = {(s["setting"], s["test"]): [v[0] for v in s["values"]] for s in _sweeps(_read(tmp_path, rows))}
    assert found == {("n_depth", "pp512"): [0, 4096], ("n_prompt", "prompt processing"): [512, 2048]}


def test_a_column_the_schema_does_not_name_is_swept_by_its_printed_name(tmp_path):
    head = "| model | size | params | backend | ngl | sm | test | t/s |\n| --- | ---: | ---: | --- | --: | --: | ---: | ---: |\n"
    body = "| llama 7B Q4_0 | 3.56 GiB | 7.00 B | CUDA | 99 | none | tg128 | 35.36 ± 0.07 |\n"
    body += "| llama 7B Q4_0 | 3.56 GiB | 7.00 B | CUDA | 99 | layer | tg128 | 11.65 ± 10.84 |\n"
    path = tmp_path / "sm.md"
    path.write_text(head + body, encoding="utf-8")
    (s,) = _sweeps(ingest.read(path, tool="llama-bench"))
    assert s["setting"] == "sm" and [v[:3] for v in s["values"]] == [("none", 35.36, 0.07), ("layer", 11.65, 10.84)]


def test_a_setting_every_row_prints_with_one_value_is_a_constant_and_a_swept_one_is_not(tmp_path):
    head = "| model | size | params | backend | ngl | type_k | threads | test | t/s |\n"
    head += "| --- | ---: | ---: | --- | --: | --: | --: | ---: | ---: |\n"
    body = "| llama 7B Q4_0 | 3.56 GiB | 7.00 B | CUDA | 99 | q8_0 | 4 | pp512 | 500.00 ± 5.00 |\n"
    body += "| llama 7B Q4_0 | 3.56 GiB | 7.00 B | CUDA | 99 | q8_0 | 8 | pp512 | 900.00 ± 9.00 |\n"
    path = tmp_path / "k.md"
    path.write_text(head + body, encoding="utf-8")
    rows = prefill.prompt_rows(ingest.read(path, tool="llama-bench"))
    assert prefill.constants(rows) == [("backend", "CUDA"), ("ngl", 99), ("type_k", "q8_0")]


def test_the_decode_sweep_note_names_a_printed_column_the_schema_does_not_name_and_one_value_is_no_sweep(tmp_path):
    head = "| model | size | params | backend | ngl | sm | test | t/s |\n| --- | ---: | ---: | --- | --: | --: | ---: | ---: |\n"
    row = "| llama 7B Q4_0 | 3.56 GiB | 7.00 B | CUDA | 99 | {} | tg128 | {} |\n"
    path = tmp_path / "sm.md"
    path.write_text(head + row.format("none", "35.36 ± 0.07") + row.format("layer", "11.65 ± 10.84"), encoding="utf-8")
    assert bandwidth.swept(bandwidth.generation_rows(ingest.read(path, tool="llama-bench"))) == {
        "sm": ["layer", "none"]
    }
    path.write_text(head + row.format("none", "35.36 ± 0.07"), encoding="utf-8")
    assert bandwidth.swept(bandwidth.generation_rows(ingest.read(path, tool="llama-bench"))) == {}


def test_one_model_on_two_backends_is_two_claims_by_backend_and_a_sweep_of_backend_only_when_nothing_else_differs(
    tmp_path,
):
    rows = _row(backend="ROCm", ts="2875.28 ± 23.18") + _row(backend="Vulkan", ts="1813.49 ± 7.09")
    df = _read(tmp_path, rows)
    pts = prefill.points(prefill.prompt_rows(df))
    assert prefill.fastest(pts)["label"].tolist() == ["llama 7B Q4_0 (ROCm)", "llama 7B Q4_0 (Vulkan)"]
    (s,) = _sweeps(df)
    assert s["setting"] == "backend" and s["model"] == "llama 7B Q4_0"
    other = _row(backend="ROCm", threads=4) + _row(backend="Vulkan", threads=8)
    assert _sweeps(_read(tmp_path, other, "o.md")) == []  # two settings differ: no sweep of either


def test_a_pp_record_that_does_not_parse_is_named_by_its_test_and_rate_line_and_no_other_is():
    why = "inside a JSON object that does not parse ({})"
    rej = pd.DataFrame(
        dict(
            tool="llama-bench",
            source="f.md",
            line=[48, 50, 52, 90, 7],
            text=['"avg_ns": 1', '"avg_ts": 1334.1', "samples_ts[1]: 1342.8", '"avg_ts": 101.2', "x"],
            reason=[why.format("pp512")] * 3 + [why.format("tg128"), "a line this parser has no tidy name for"],
        )
    )
    assert prefill.unparsed(rej) == [{"test": "pp512", "line": 50}]
    assert prefill.unparsed(rej[rej["line"] > 52]) == []  # a broken tg record is no pp result
    assert prefill.unparsed(rej.iloc[0:0]) == []


def test_an_ngl_sweep_is_a_sweep_only_among_rows_of_one_device_mode(tmp_path):
    """A sweep is rows of one model, device and test: on a CUDA build, -ngl 0 runs on the CPU and
    -ngl 99 holds all 32 layers of a 7B llama on the GPU, so only the partly offloaded rows (10, 20)
    are one sweep; the same rows all on the GPU (-ngl 40, 99) are one too."""
    rows = _row(ngl=0, ts="100.00 ± 1.00") + _row(ngl=10, ts="200.00 ± 2.00") + _row(ngl=20, ts="300.00 ± 3.00")
    rows += _row(ngl=99, ts="1000.00 ± 10.00")
    (s,) = _sweeps(_read(tmp_path, rows))
    assert s["setting"] == "ngl" and [v[:2] for v in s["values"]] == [(10, 200.0), (20, 300.0)]
    on_gpu = _sweeps(_read(tmp_path, _row(ngl=40, ts="990.00 ± 9.00") + _row(ngl=99), "g.md"))
    assert [[v[0] for v in s["values"]] for s in on_gpu] == [[40, 99]]


def test_sweeps_of_one_setting_come_in_the_order_the_file_prints_their_models(tmp_path):
    rows = _row(model="zeta 7B Q4_0", threads=4) + _row(model="zeta 7B Q4_0", threads=8)
    rows += _row(model="alpha 7B Q4_0", threads=4) + _row(model="alpha 7B Q4_0", threads=8)
    found = _sweeps(_read(tmp_path, rows))
    assert [(s["setting"], s["model"]) for s in found] == [("threads", "zeta 7B Q4_0"), ("threads", "alpha 7B Q4_0")]


def test_a_model_sized_only_by_its_section_heading_has_its_flops_from_that_size(tmp_path):
    """llama-bench printed no params and a model label no table row knows; the heading above the table
    names Llama-2-7B (6.74 B): 2 x 6.74e9 x 1000 tok/s = 13.48 TFLOP/s. Without the heading: no size."""
    path = tmp_path / "s.md"
    path.write_text("## Llama-2-7B\n\n" + HEAD + _row(model="zzz", params="-"), encoding="utf-8")
    p = prefill.points(prefill.prompt_rows(ingest.read(path, tool="llama-bench")), gpu="RTX-4090").iloc[0]
    assert (p["params_b"], p["active_params_b"]) == (6.74, 6.74) and p["tflops"] == pytest.approx(13.48)
    assert p["size_source"].startswith("https://huggingface.co/meta-llama/Llama-2-7b-hf")
    path.write_text(HEAD + _row(model="zzz", params="-"), encoding="utf-8")
    p = prefill.points(prefill.prompt_rows(ingest.read(path, tool="llama-bench")), gpu="RTX-4090").iloc[0]
    assert pd.isna(p["params_b"]) and pd.isna(p["tflops"])


ADDED = ["device", "peak_tflops", "peak_precision", "peak_source", "architecture"]
ADDED += ["active_params_b", "size_source", "tflops", "share", "no_share", "label", "beyond_every"]
ADDED += ["max_intensity", "tokens_per_pass", "ridge"]


def test_points_keep_the_rows_columns_and_add_the_device_size_and_share_once(tmp_path):
    rows = prefill.prompt_rows(_read(tmp_path, _row()))
    assert "params_b" in rows.columns
    assert list(prefill.points(rows, gpu="RTX-4090").columns) == list(rows.columns) + ADDED
    # a table without a params column gains one, the size its model label says ("llama 7B": 7 B)
    pts = prefill.points(rows.drop(columns=["params_b"]), gpu="RTX-4090")
    assert list(pts.columns) == [c for c in rows.columns if c != "params_b"] + ADDED[:5] + ["params_b"] + ADDED[5:]
    assert pts["params_b"].tolist() == [7.0]


def test_one_model_on_two_builds_and_two_backends_is_labelled_by_build_and_backend(tmp_path):
    """Two tables, each with its own `build:` line, of one model on ROCm and Vulkan: each row's label
    says both, comma-separated; without the backend (a sweep's label), the build alone."""
    one = HEAD + _row(backend="ROCm") + _row(backend="Vulkan", ts="800.00 ± 8.00") + "\nbuild: 1111111 (1000)\n\n"
    two = HEAD + _row(backend="ROCm", ts="1100.00 ± 1.00") + _row(backend="Vulkan", ts="900.00 ± 9.00")
    path = tmp_path / "b.md"
    path.write_text(one + two + "\nbuild: 2222222 (2000)\n", encoding="utf-8")
    rows = prefill.prompt_rows(ingest.read(path, tool="llama-bench"))
    assert prefill.labels(rows).tolist() == [
        "llama 7B Q4_0 (build 1111111 (1000), ROCm)",
        "llama 7B Q4_0 (build 1111111 (1000), Vulkan)",
        "llama 7B Q4_0 (build 2222222 (2000), ROCm)",
        "llama 7B Q4_0 (build 2222222 (2000), Vulkan)",
    ]
    assert (
        prefill.labels(rows, backend=False).tolist()
        == ["llama 7B Q4_0 (build 1111111 (1000))"] * 2 + ["llama 7B Q4_0 (build 2222222 (2000))"] * 2
    )


def test_a_sweep_of_rates_printed_without_a_spread_has_none(tmp_path):
    rows = _row(threads=4, ts="500.00") + _row(threads=8, ts="900.00")
    (found,) = _sweeps(_read(tmp_path, rows))
    assert [v[:3] for v in found["values"]] == [(4, 500.0, None), (8, 900.0, None)]
