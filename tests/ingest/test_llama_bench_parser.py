"""llama-bench parser: seed values, real public fixtures, variants, and bad input."""

from __future__ import annotations

import json
import math

import pytest

from benchbook import config, ingest
from benchbook.ingest import ParseError
from benchbook.ingest import llama_bench as lb

SEED = config.seed("004")
FIX = config.FIXTURES_DIR / "llama-bench"


def _parsed(path):
    return ingest.read_parsed(path, tool="llama-bench")[0]


def _cell(df, **kw):
    d = df
    for k, v in kw.items():
        d = d[d[k] == v]
    assert len(d) == 1, (kw, len(d))
    return d.iloc[0]


@pytest.fixture(scope="module")
def seed():
    return _parsed(SEED)


def test_seed_350w_tg128(seed):
    t = seed.table
    mean = _cell(t, power_limit_w=350.0, test="tg128", statistic="mean")
    std = _cell(t, power_limit_w=350.0, test="tg128", statistic="std")
    assert mean["value"] == pytest.approx(274.81) and std["value"] == pytest.approx(0.63)
    assert mean["metric"] == "tg_rate" and mean["unit"] == "tok/s"
    assert mean["line"] == 77  # the row's line in the raw file
    assert SEED.read_text(encoding="utf-8").splitlines()[76].count("274.81 ± 0.63") == 1


def test_seed_settings(seed):
    t = seed.table
    r = _cell(t, power_limit_w=600.0, test="pp512", statistic="std")
    assert r["value"] == pytest.approx(97.98)
    assert r["model"] == "llama 7B Q4_0" and r["model_file"] == "llama-2-7b.Q4_0.gguf"
    assert r["model_size_gib"] == pytest.approx(3.56) and r["params_b"] == pytest.approx(6.74)
    assert r["gpu"] == "NVIDIA RTX PRO 6000 Blackwell Workstation Edition"
    assert r["build"] == "233d773d0 (6413)" and r["backend"] == "CUDA"
    assert r["ngl"] == 99 and r["fa"] == "1" and r["n_prompt"] == 512 and r["n_gen"] == 0
    assert sorted(t["power_limit_w"].dropna().unique()) == [200, 250, 300, 350, 400, 450, 500, 600]
    big = t[t["model_file"].str.contains("405b", na=False)]
    assert set(big["ngl"]) == {116} and big["build"].isna().all() and big["power_limit_w"].isna().all()
    assert _cell(t, model="llama 70B Q4_K - Medium", test="tg128", statistic="mean")["value"] == 34.05


def test_seed_counts_and_only_own_blocks(seed):
    assert seed.cells_read == len(seed.table) + len(seed.rejected) == 52
    assert seed.rejected.empty and seed.messages == []
    assert set(seed.table["metric"]) == {"pp_rate", "tg_rate"}
    # every row points at a markdown row of a llama-bench table, never at attention-gym or vLLM
    lines = SEED.read_text(encoding="utf-8").splitlines()
    assert all(" t/s" not in lines[ln - 1] and "±" in lines[ln - 1] for ln in seed.table["line"])
    assert max(seed.table["line"]) < 200


def test_detect_mixed_document():
    found = ingest.detect(SEED.read_text(encoding="utf-8"))
    assert "llama-bench" in found
    for other in config.SEEDS.values():
        if other != SEED:
            assert not lb.sniff(other.read_text(encoding="utf-8")), other.name


@pytest.mark.parametrize(
    "name, expected",
    [
        ("pp512", (512, 0, 0)),
        ("pp 512", (512, 0, 0)),
        ("tg 16", (0, 16, 0)),
        ("tg128 @ d8192", (0, 128, 8192)),
        ("pp4096+tg128", (4096, 128, 0)),
        ("pp512+tg128 @ d1024", (512, 128, 1024)),
        ("tg64@pp128", (0, 64, 128)),
        ("512", None),
        ("pg", None),
    ],
)
def test_test_names(name, expected):
    assert lb.parse_test(name) == expected


def test_fixture_old_readme_markdown_csv_json():
    p = _parsed(FIX / "llamacpp_readme_b1275.md")
    t = p.table
    assert p.cells_read == len(t) + len(p.rejected)
    # `tg 16` row wider than its header ("||")
    r = _cell(t, threads=32, test="tg16", statistic="mean")
    assert r["value"] == 16.41 and r["line"] == 20 and r["backend"] == "CPU"
    # partial offload sweep
    assert _cell(t, ngl=10, test="tg128", statistic="mean")["value"] == 13.45
    # CSV whose header lost `opencl`: realigned, with a message
    c = _cell(t, line=55, metric="pp_rate", statistic="mean")
    assert c["value"] == pytest.approx(2413.341687) and c["gpu"] == "NVIDIA GeForce RTX 3090 Ti"
    assert c["model_size_gib"] == pytest.approx(3825065984 / 1024**3) and c["ngl"] == 99 and c["threads"] == 16
    assert any("aligned" in m for m in p.messages)
    # JSON with samples and old keys
    s = t[(t["metric"] == "tg_rate") & (t["statistic"] == "value") & (t["line"] == 125)]
    assert list(s["value"]) == [130.019, 131.295, 129.362, 131.86, 132.293] and list(s["rep"]) == [1, 2, 3, 4, 5]
    j = _cell(t, line=122, metric="tg_rate", statistic="mean")
    assert j["value"] == pytest.approx(130.965708) and j["backend"] == "CUDA" and j["build"] == "3469684 (1275)"
    assert _cell(t, line=120, metric="tg_duration", statistic="mean")["value"] == pytest.approx(977.425219)


def test_fixture_pure_json_and_jsonl_agree():
    a = _parsed(FIX / "llamacpp_readme_b1275.json").table
    b = _parsed(FIX / "llamacpp_readme_b1275.jsonl").table
    assert len(a) == len(b) == 28
    key = ["metric", "statistic", "rep", "test"]
    a2 = a.sort_values(key)[key + ["value"]].reset_index(drop=True)
    b2 = b.sort_values(key)[key + ["value"]].reset_index(drop=True)
    assert a2.equals(b2)
    assert set(b["line"]) == {1, 2}


def test_fixture_new_keys_and_depth():
    p = _parsed(FIX / "llamacpp_readme_b5163.md")
    t = p.table
    d = _cell(t, test="tg128 @ d512", statistic="mean")
    assert d["value"] == 116.71 and d["n_depth"] == 512 and d["ngl"] == -1
    j = _cell(t, line=75, statistic="mean")
    assert j["value"] == pytest.approx(7100.002165) and j["fa"] == "auto" and j["n_cpu_moe"] == 0
    assert j["type_k"] == "f16" and j["n_ubatch"] == 512 and j["backend"] == "CUDA"
    c = _parsed(FIX / "llamacpp_readme_b5163.csv").table
    assert _cell(c, metric="tg_rate", statistic="mean")["value"] == pytest.approx(119.915244)


def test_fixture_ik_llama_bare_json_and_wide_rows():
    p = _parsed(FIX / "ik_llama_pr273.md")
    t = p.table
    assert p.cells_read == len(t) + len(p.rejected) and p.rejected.empty
    j = _cell(t, line=47, statistic="mean")
    assert j["value"] == pytest.approx(8.204253) and j["backend"] == "CPU" and j["fa"] == "0"
    w = _cell(t, threads=24, test="tg128", statistic="mean")
    assert w["value"] == 2.53 and w["model_size_gib"] == pytest.approx(353.53)
    g = _cell(t, test="tg64 @ d256", statistic="mean")
    assert g["value"] == 33.58 and g["n_gen"] == 64 and g["type_k"] == "q8_0" and g["threads"] == 32


def test_variants_synthetic():
    text = (
        "main: log line before\n"
        "| model | size | params | backend | threads | n_cpu_moe | test | t/s |   \n"
        "| gpt-oss 20B MXFP4 MoE | 11.27 GiB | 20.91 B | CUDA | 8 | 4 | pp4096+tg128 | 1234.50 Â± 5.25 |  \n"
        "| gpt-oss 20B MXFP4 MoE | 512.00 MiB | 124.44 M | CUDA | 8 | 4 | tg128 | nan ± nan |\n"
        "llama_perf_context_print: after\n"
    )
    p = lb.parse(text, "x.log")
    t = p.table
    pg = _cell(t, statistic="mean", test="pp4096+tg128")
    assert pg["metric"] == "pg_rate" and pg["value"] == 1234.5 and pg["n_cpu_moe"] == 4
    assert any("Â±" in m for m in p.messages)
    na = _cell(t, test="tg128", statistic="mean")
    assert math.isnan(na["value"]) and "not measured" in na["note"]
    assert na["model_size_gib"] == pytest.approx(0.5) and na["params_b"] == pytest.approx(0.12444)
    assert p.cells_read == len(t) + len(p.rejected) == 4


def test_single_rep_zero_std_is_missing():
    text = "$ ./llama-bench -m m.gguf -r 1\n| model | test | t/s |\n|---|--:|--:|\n| llama 7B Q4_0 | tg128 | 100.00 ± 0.00 |\n"
    t = lb.parse(text, "r1.md").table
    s = _cell(t, statistic="std")
    assert math.isnan(s["value"]) and "single repetition" in s["note"]


def test_csv_inside_log_and_garbage_cell_rejected():
    text = (
        "loading model...\n"
        "build_commit,build_number,model_type,model_size,model_n_params,n_prompt,n_gen,avg_ns,stddev_ns,avg_ts,stddev_ts\n"
        '"abc","1","llama 7B","3825065984","6738415616","512","0","1","2","3.5","oops"\n'
        "done.\n"
    )
    p = lb.parse(text, "run.log")
    assert p.cells_read == len(p.table) + len(p.rejected) == 4
    assert list(p.rejected["reason"]) == ["not a number"]
    assert _cell(p.table, metric="pp_rate", statistic="mean")["line"] == 3


@pytest.mark.parametrize("text", ["", "hello\n", "| a | b |\n|---|---|\n| 1 | 2 |\n", '{"x": 1}', "[1, 2, 3]"])
def test_not_llama_bench_raises(text):
    with pytest.raises(ParseError) as e:
        lb.parse(text, "bad.txt")
    assert e.value.source == "bad.txt" and e.value.line == 1


def test_truncated_json_keeps_complete_objects():
    text = (FIX / "llamacpp_readme_b1275.json").read_text(encoding="utf-8")
    cut = text[: text.index('"avg_ts": 130.965708')]
    p = lb.parse(cut, "cut.json")
    assert any("does not parse" in m for m in p.messages)
    assert p.cells_read == len(p.table) + len(p.rejected)
    assert set(p.table["test"]) == {"pp512"}
    assert list(p.rejected["text"]) == ['"avg_ns": 977425219', '"stddev_ns": 9268593']


_SEED_TEXT = SEED.read_text(encoding="utf-8")
_LB_PART = _SEED_TEXT[: _SEED_TEXT.index("# Attention Gym")]
_JSON_TEXT = (FIX / "llamacpp_readme_b1275.md").read_text(encoding="utf-8")


def _check(text: str) -> None:
    try:
        p = lb.parse(text, "fuzz.txt")
    except ParseError:
        return
    assert p.cells_read == len(p.table) + len(p.rejected)


def test_unaligned_csv_row_numbers_are_rejected(tmp_path):
    lines = (FIX / "llamacpp_readme_b5163.csv").read_text(encoding="utf-8").split("\n")
    lines[2] = lines[2].replace('"2025-04-24T11:57:10Z",', "")
    path = tmp_path / "cut.csv"
    path.write_text("\n".join(lines), encoding="utf-8")
    p = _parsed(path)
    assert set(p.table["test"]) == {"pp512"}
    assert list(p.rejected["line"]) == [3, 3, 3, 3]
    assert list(p.rejected["text"]) == [
        "avg_ns=1067431600",
        "stddev_ns=3834831",
        "avg_ts=119.915244",
        "stddev_ts=0.430617",
    ]
    assert set(p.rejected["reason"]) == {"CSV row cannot be aligned with its header"}


def test_cut_json_object_rejects_its_samples():
    text = "\n".join((FIX / "llamacpp_readme_b1275.json").read_text(encoding="utf-8").split("\n")[:60])
    p = lb.parse(text, "cut.json")
    assert set(p.table["test"]) == {"pp512"}
    samples = p.rejected[p.rejected["text"].str.startswith("samples_")]
    assert list(samples["text"]) == [
        "samples_ns[1]: 984472709",
        "samples_ns[2]: 974901233",
        "samples_ns[3]: 989474741",
        "samples_ns[4]: 970729355",
        "samples_ns[5]: 967548060",
        "samples_ts[1]: 130.019",
        "samples_ts[2]: 131.295",
        "samples_ts[3]: 129.362",
        "samples_ts[4]: 131.86",
        "samples_ts[5]: 132.293",
    ]
    assert list(samples["line"]) == [59] * 5 + [60] * 5
    assert len(p.table) + len(p.rejected) == 14 + 4 + 10


def test_columns_outside_the_schema_are_kept_as_extra_settings():
    """ik_llama.cpp adds `mla` and `fmoe` columns; two of its tables differ only in mla (3 vs 1), so
    dropping them would merge runs that are not the same configuration."""
    df = ingest.read(FIX / "ik_llama_pr273.md", tool="llama-bench")
    by_line = df.drop_duplicates("line").set_index("line")["extra_settings"]
    assert by_line[109] == "mla=3, fmoe=1" and by_line[132] == "mla=1, fmoe=1"
    assert by_line.isna()[45]  # the JSON records of the same file carry no such column
    assert any("mla, fmoe are not in the schema" in m for m in df.attrs["messages"])


#: A sweep that names depth 0 twice (`-d 0,0,512`, synthetic): two rows with the same settings.
REPEATED_DEPTH = (
    "$ ./llama-bench -m llama-2-7b.Q4_0.gguf -d 0,0,512\n"
    "| model | size | params | backend | ngl | test | t/s |\n"
    "| --- | ---: | ---: | --- | --: | ---: | ---: |\n"
    "| llama 7B Q4_0 | 3.56 GiB | 6.74 B | CUDA | 99 | tg128 | 100.00 ± 1.00 |\n"
    "| llama 7B Q4_0 | 3.56 GiB | 6.74 B | CUDA | 99 | tg128 | 110.00 ± 3.00 |\n"
    "| llama 7B Q4_0 | 3.56 GiB | 6.74 B | CUDA | 99 | tg128 @ d512 | 90.00 ± 1.00 |\n"
)


def test_a_setting_repeated_in_a_sweep_gives_repeats_to_average_not_conflicts(tmp_path):
    f = tmp_path / "repeated_depth.md"
    f.write_text(REPEATED_DEPTH)
    df = ingest.read(f, tool="llama-bench")
    assert not [r for r in df.attrs.get("rejected", []) if "conflict" in str(r)]
    tg = df[(df["test"] == "tg128") & (df["statistic"] == "mean")].sort_values("line")
    assert list(tg["value"]) == [100.0, 110.0] and list(tg["sweep_repeat"]) == [1, 2]
    assert df.loc[df["test"] == "tg128 @ d512", "sweep_repeat"].isna().all()  # named once: no repeat


def test_the_same_settings_without_a_repeating_command_stay_a_conflict(tmp_path):
    f = tmp_path / "no_repeat.md"
    f.write_text(REPEATED_DEPTH.replace("-d 0,0,512", "-d 0,512").replace("110.00", "120.00"))
    df = ingest.read(f, tool="llama-bench")
    # both means set aside: two runs printed the same test differently (their equal std is kept once)
    assert df[(df["test"] == "tg128") & (df["statistic"] == "mean")].empty
    assert df["sweep_repeat"].isna().all()


def test_a_heading_keeps_its_words_not_its_html():
    text = (
        '## <a name="rtx"></a>RTX 4090 <b>(450 W)</b>\n'
        "| model | test | t/s |\n|---|--:|--:|\n| llama 7B Q4_0 | tg128 | 100.00 ± 1.00 |\n"
    )
    t = lb.parse(text, "html.md").table
    assert set(t["section"]) == {"RTX 4090 (450 W)"} and set(t["power_limit_w"]) == {450.0}


def _object(avg_ts: float, std_ts: float, samples: list[float], when: str) -> dict:
    """A synthetic `-o json` record of tg128 at depth 0 (the fields llama-bench writes)."""
    return {
        "build_commit": "8cf427ff",
        "build_number": 5163,
        "gpu_info": "NVIDIA GeForce RTX 4080",
        "backends": "CUDA",
        "model_filename": "models/llama-2-7b.Q4_0.gguf",
        "model_type": "llama 7B Q4_0",
        "model_size": 3825065984,
        "model_n_params": 6738415616,
        "n_gpu_layers": 99,
        "n_prompt": 0,
        "n_gen": 128,
        "n_depth": 0,
        "test_time": when,
        "avg_ts": avg_ts,
        "stddev_ts": std_ts,
        "samples_ts": samples,
    }


#: `-d 0,0 -o json` (synthetic): one run prints depth 0 twice, once per value of its sweep.
REPEATED_JSON = [
    _object(100.0, 1.0, [99.0, 100.0, 101.0], "2025-04-24T11:57:09Z"),
    _object(110.0, 3.0, [107.0, 110.0, 113.0], "2025-04-24T11:57:10Z"),
]


def _tg_means(df):
    tg = df[(df["test"] == "tg128") & (df["statistic"] == "mean")].sort_values("line")
    return list(tg["value"]), list(tg["sweep_repeat"])


@pytest.mark.parametrize("indent", [None, 2])
def test_a_json_run_that_prints_a_setting_twice_gives_repeats(tmp_path, indent):
    f = tmp_path / "repeated.json"
    f.write_text(json.dumps(REPEATED_JSON, indent=indent))  # one line or pretty-printed: two objects either way
    df = ingest.read(f, tool="llama-bench")
    assert not [r for r in df.attrs.get("rejected", []) if "conflict" in str(r)]
    assert _tg_means(df) == ([100.0, 110.0], [1, 2])
    samples = df[(df["test"] == "tg128") & (df["statistic"] == "value")]
    assert sorted(samples["sweep_repeat"]) == [1, 1, 1, 2, 2, 2] and len(samples) == 6


def test_jsonl_csv_and_sql_runs_give_repeats_too(tmp_path):
    f = tmp_path / "repeated.jsonl"
    f.write_text("\n".join(json.dumps(o) for o in REPEATED_JSON) + "\n")
    assert _tg_means(ingest.read(f, tool="llama-bench")) == ([100.0, 110.0], [1, 2])
    keys = [k for k in REPEATED_JSON[0] if k != "samples_ts"]
    csv = ",".join(keys) + "\n" + "\n".join(",".join(f'"{o[k]}"' for k in keys) for o in REPEATED_JSON) + "\n"
    f = tmp_path / "repeated.csv"
    f.write_text(csv)
    assert _tg_means(ingest.read(f, tool="llama-bench")) == ([100.0, 110.0], [1, 2])
    sql = "\n".join(
        f"INSERT INTO test ({', '.join(keys)}) VALUES ('" + "', '".join(str(o[k]) for k in keys) + "');"
        for o in REPEATED_JSON
    )
    f = tmp_path / "repeated.sql"
    f.write_text(sql + "\n")
    assert _tg_means(ingest.read(f, tool="llama-bench")) == ([100.0, 110.0], [1, 2])


def test_two_json_outputs_apart_that_disagree_stay_a_conflict(tmp_path):
    f = tmp_path / "two_runs.md"
    f.write_text(
        "## before\n\n```json\n" + json.dumps([REPEATED_JSON[0]]) + "\n```\n\nText between the runs.\n\n"
        "```json\n" + json.dumps([REPEATED_JSON[1]]) + "\n```\n"
    )
    df = ingest.read(f, tool="llama-bench")
    assert _tg_means(df) == ([], [])  # two outputs print the same configuration differently: both set aside
    assert df["sweep_repeat"].isna().all()


def test_a_record_that_does_not_parse_has_its_numbers_set_aside_under_its_own_test():
    """A broken record (a value split across lines) is named by the test its own n_prompt/n_gen give, so a
    page can say the input holds that result; the record after it, whole, is read."""
    text = (FIX / "localmind_docs_arc_pro_b70_sycl_qwen35moe_json_split_false.md").read_text(encoding="utf-8")
    p = lb.parse(text, "split.md")
    assert set(p.rejected["reason"]) == {"inside a JSON object that does not parse (pp512)"}
    assert set(p.table["test"]) == {"tg128"}
    fixed = lb.parse(text.replace('"cpu_strict": f\n\talse,', '"cpu_strict": false,', 1), "fixed.md")
    assert fixed.rejected.empty and set(fixed.table["test"]) == {"pp512", "tg128"}
    assert lb._test_of('"n_prompt": 0, "n_gen": 128, "n_depth": 4096') == "tg128 @ d4096"
    assert lb._test_of('"n_prompt": 512, "n_gen": 0') == "pp512" and lb._test_of('"avg_ts": 1.0') == "unknown test"


BARE = """model | size | params | backend | ngl | test | t/s
-- | -- | -- | -- | -- | -- | --
llama 7B Q4_0 | 3.83 GiB | 7.24 B | Metal | 99 | pp 128 | 144.47 ± 0.22
llama 7B Q4_0 | 3.83 GiB | 7.24 B | Metal | 99 | tg 128 | 20.06 ± 0.66
"""


def test_a_table_without_outer_pipes_is_read_as_the_tool_prints_it():
    from benchbook.ingest import llama_bench

    assert llama_bench.sniff(BARE)
    t = llama_bench.parse(BARE, "bare.md").table
    means = t[t["statistic"] == "mean"].set_index("test")["value"]
    assert means.to_dict() == {"pp128": 144.47, "tg128": 20.06}
    assert set(t["line"]) == {3, 4}  # one line for one: the file's own line numbers


def test_pipes_in_prose_without_a_delimiter_row_are_no_table():
    from benchbook.ingest import llama_bench

    prose = "model | size | params | backend | ngl | test | t/s\nnot a delimiter row\n"
    assert llama_bench.outer_pipes(prose.splitlines()) == prose.splitlines()


HEADER_ONLY = (
    "| model | size | params | backend | ngl | test | t/s |\n| --- | ---: | ---: | --- | --: | ---: | ---: |\n"
)


def test_a_run_that_stopped_at_its_error_line_is_refused_naming_that_line():
    # geerlingguy's B580 notes: the header printed, then the model failed to load
    text = HEADER_ONLY + "ggml_vulkan: ErrorOutOfDeviceMemory\nmain: error: failed to load model 'm.gguf'\n"
    with pytest.raises(ParseError, match="stopped before its first result: main: error: failed") as e:
        lb.parse(text, "oom.md")
    assert e.value.line == 4
    with pytest.raises(ParseError, match="truncated before the first result") as e:  # no error line: a cut
        lb.parse(HEADER_ONLY, "cut.md")
    assert e.value.line == 1


_HEAD = "| model | size | params | backend | ngl | test | t/s |\n| --- | ---: | ---: | --- | --: | ---: | ---: |\n"
_ROW = "| llama 7B Q4_0 | 3.56 GiB | 6.74 B | CUDA | 99 | pp512 | 1000.00 ± 1.00 |\n"


def test_the_environment_of_the_command_tells_runs_apart_each_variable_by_itself():
    t = "$ CUDA_VISIBLE_DEVICES=0 GGML_CUDA_NO_PINNED=1 ./llama-bench -m llama-7b.gguf\n" + _HEAD + _ROW
    p = lb.parse(t, "x.md")
    assert set(p.table["extra_settings"]) == {"env CUDA_VISIBLE_DEVICES=0 GGML_CUDA_NO_PINNED=1"}


def test_a_row_wider_than_its_header_sets_aside_its_rate_and_spread_only():
    """The t/s cell `1000.00 ± 1.00` of a row with a cell past the header is two numbers set aside; the
    row's other numbers (99, 12) are no rate, and a cell with ± that is no rate is read as none (no traceback)."""
    wide = "| llama 7B Q4_0 | 3.56 GiB | 6.74 B | CUDA | 99 | pp512 | 1000.00 ± 1.00 | 12 |\n"
    p = lb.parse(_HEAD + wide + _ROW, "x.md")
    assert p.rejected["line"].tolist() == [3, 3]
    assert set(p.rejected["reason"]) == {"row has more cells than the header"}
    odd = "| llama 7B Q4_0 | 3.56 GiB | 6.74 B | CUDA | 99 | pp512 | 1000.00 | a±b |\n"
    q = lb.parse(_HEAD + odd + _ROW, "x.md")
    assert q.table["line"].eq(4).all()
    assert q.rejected["line"].tolist() == [3]  # the bare 1000.00 under t/s is set aside, not dropped


def test_a_bare_rate_of_a_row_wider_than_its_header_is_set_aside_by_its_column():
    """A wider row's t/s cell with no `±` is found by the header's t/s column and set aside with its
    reason; a wider row with no number under t/s sets nothing aside and says it skipped the row."""
    bare = "| llama 7B Q4_0 | 3.56 GiB | 6.74 B | CUDA | 99 | pp512 | 1000.00 | 12 |\n"
    p = lb.parse(_HEAD + bare + _ROW, "x.md")
    assert p.cells_read == len(p.table) + len(p.rejected) == 2 + 1
    assert p.rejected["reason"].tolist() == ["row has more cells than the header"]
    none = "| llama 7B Q4_0 | 3.56 GiB | 6.74 B | CUDA | 99 | pp512 | - | 12 |\n"
    q = lb.parse(_HEAD + none + _ROW, "x.md")
    assert q.rejected.empty and any("line 3: row wider than the header" in m for m in q.messages)


def test_the_samples_of_a_record_that_names_no_test_are_set_aside_at_their_own_line():
    good = {"model_type": "llama 7B Q4_0", "n_prompt": 512, "n_gen": 0, "avg_ts": 1000.0, "stddev_ts": 1.0}
    bad = dict(good, n_prompt="x", n_gen=None, samples_ts=[999.0, 1001.0])
    p = lb.parse(json.dumps([good, bad], indent=2), "x.json")
    lines = dict(zip(p.rejected["text"], p.rejected["line"], strict=True))
    # the second record opens at line 9: avg_ts on 13, stddev_ts on 14, samples_ts on 15
    assert lines == {"avg_ts=1000.0": 13, "stddev_ts=1.0": 14, "samples_ts: 999.0": 15, "samples_ts: 1001.0": 15}


def test_a_json_record_with_a_rate_and_either_token_count_is_a_record():
    assert lb._is_record({"avg_ts": 100.0, "n_prompt": 512})  # a prompt-only test
    assert lb._is_record({"samples_ts": [100.0], "n_gen": 128})
    assert not lb._is_record({"avg_ts": 100.0})  # the other way: no test named


def test_a_rate_whose_key_is_written_escaped_takes_its_object_s_first_line():
    """JSON may spell `avg_ts` as `avg\\u005fts`: the key is found nowhere as written, so the rate's line is
    the line its object starts on."""
    text = (
        'notes\n[\n  {"build_commit": "abc", "model_type": "llama 7B Q4_0", "n_prompt": 0, "n_gen": 128,\n'
        '   "avg\\u005fts": 100.0}\n]\n'
    )
    t = lb.parse(text, "r.json").table
    assert t[["metric", "value", "line"]].values.tolist() == [["tg_rate", 100.0, 3]]
