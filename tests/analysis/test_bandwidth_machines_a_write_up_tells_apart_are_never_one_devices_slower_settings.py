"""`reduce` ranks settings within one device (REDUCE_RULE: the printed GPU, or the CPU for a CPU-only run), and a
sweep is one device's. Two machines a write-up tells apart are two devices, never one's slower settings:

* CPU-only runs of two CPUs the file names (`### Ryzen-7950X (Zen4)` and `### Ryzen-5975WX` over their tables,
  ik_llama.cpp pull request 566) each keep their fastest: the device key held the GPU alone, so the Ryzen-7950X's
  16.81 tok/s was "slower settings" of the Ryzen-5975WX's 18.46;
* two cards of one name, each run alone under a heading naming its index (`### GPU 0 ONLY`, `### GPU 1 ONLY`: a
  script that sets `GGML_VK_VISIBLE_DEVICES`, so each prints itself as Vulkan device 0), are two cards: their
  flash-attention sweeps are two sweeps, not one with `-fa 0` twice, and neither card is the other's slower
  setting. Runs under headings that name no device index (`### f16 cache`, `### q8_0 cache`) keep the rule."""

from __future__ import annotations

from benchbook import ingest
from benchbook.analysis import bandwidth, prefill

SWEEP_HEADER = "|    PP |     TG |   N_KV |   T_PP s | S_PP t/s |   T_TG s | S_TG t/s |\n" + "|" + "---|" * 7 + "\n"


def _sweep(pp_rate: float, tg_rate: float) -> str:
    t_pp, t_tg = round(512 / pp_rate, 3), round(128 / tg_rate, 3)
    return (
        SWEEP_HEADER
        + f"|   512 |    128 |      0 | {t_pp:8.3f} | {512 / t_pp:8.2f} | {t_tg:8.3f} | {128 / t_tg:8.2f} |\n"
    )


def _why(tmp_path, text: str):
    p = tmp_path / "runs.md"
    p.write_text(text)
    rows = bandwidth.generation_rows(ingest.read(p))
    _, every = bandwidth.reduce(rows)
    return every, rows


def test_cpu_only_runs_of_two_named_cpus_each_keep_their_fastest(tmp_path):
    text = (
        "Sweep-benches for LlaMA-3.1-8B-Instruct\n\n"
        f"### Ryzen-7950X (Zen4)\n\n{_sweep(360, 16.8)}\n### Ryzen-5975WX\n\n{_sweep(300, 18.5)}\n"
    )
    every, _ = _why(tmp_path, text)
    assert set(every["mode"]) == {"cpu"}
    assert every["why_dropped"].tolist() == ["", ""]


def test_cpu_only_runs_of_one_cpu_still_rank_their_settings(tmp_path):
    text = "Sweep-benches for LlaMA-3.1-8B-Instruct on a Ryzen-7950X\n\n" + _sweep(360, 16.8) + "\n" + _sweep(300, 15.0)
    every, _ = _why(tmp_path, text)
    assert sorted(every["why_dropped"].str.split(":").str[0]) == ["", "slower settings"]


BENCH_HEADER = (
    "| model                          |       size |     params | backend    | ngl | fa |            test |                  t/s |\n"
    "| ------------------------------ | ---------: | ---------: | ---------- | --: | -: | --------------: | -------------------: |\n"
)
DEVICE = "ggml_vulkan: 0 = AMD Radeon RX 7900 XTX (RADV NAVI31) (radv) | uma: 0 | fp16: 1 | warp size: 64\n"


def _bench(tg0: float, tg1: float) -> str:
    rows = "".join(
        f"| llama 7B Q4_0                  |   3.56 GiB |     6.74 B | Vulkan     | 100 |  {fa} |           tg128 |  {tg:12.2f} ± 0.05 |\n"
        for fa, tg in ((0, tg0), (1, tg1))
    )
    return "ggml_vulkan: Found 1 Vulkan devices:\n" + DEVICE + BENCH_HEADER + rows + "\nbuild: 34ce48d97 (7356)\n"


def test_headings_naming_gpu_0_and_gpu_1_are_two_cards(tmp_path):
    every, rows = _why(tmp_path, f"### GPU 0 ONLY ###\n{_bench(86.0, 129.0)}\n### GPU 1 ONLY ###\n{_bench(31.9, 57.7)}")
    assert not every["why_dropped"].str.startswith("slower settings: the same printed settings").any()
    fastest_of_gpu1 = every[every["engine"].astype(str).str.contains("GPU 1") & (every["fa"].astype(str) == "1")]
    assert fastest_of_gpu1["why_dropped"].eq("").all()  # each card's own point (stop 60, cj: device_keys)
    fa = [s for s in prefill.sweeps(rows) if s["setting"] == "fa"]
    assert len(fa) == 2 and all(len(s["values"]) == 2 for s in fa)  # one sweep per card, -fa 0 and 1 each


def test_headings_naming_no_device_index_keep_one_cards_sweep(tmp_path):
    every, rows = _why(tmp_path, f"### run A ###\n{_bench(86.0, 129.0)}\n### run B ###\n{_bench(85.0, 128.0)}")
    fa = [s for s in prefill.sweeps(rows) if s["setting"] == "fa"]
    assert len(fa) == 1 and len(fa[0]["values"]) == 4
