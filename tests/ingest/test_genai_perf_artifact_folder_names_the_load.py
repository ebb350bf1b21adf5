"""GenAI-Perf names its artifact folder after the load, `<model>-<service-kind>-<backend>-concurrency<N>`
(genai-perf `parser.py`, `_set_artifact_paths`), and perf_analyzer's command line shows it
(`--input-data artifacts/opt350m-triton-vllm-concurrency8/llm_inputs.json`). Where a terminal cut the
command that sets the load (`--output-tokens-mean 1` / `28 --concurrency 8`, no backslash), that folder
gives the run's concurrency instead of GenAI-Perf's default of 1; with no such folder and no option the
default stands."""

from __future__ import annotations

from benchbook import ingest

TABLE = """                                  LLM Metrics
┏━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━┳━━━━━━━━┳━━━━━━━━┳━━━━━━━┳━━━━━━━━┳━━━━━━━┓
┃                Statistic ┃    avg ┃    min ┃    max ┃   p99 ┃    p90 ┃   p75 ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━╇━━━━━━━━╇━━━━━━━━╇━━━━━━━╇━━━━━━━━╇━━━━━━━┩
│ Time to first token (ms) │  32.75 │  20.77 │  52.90 │ 46.98 │  39.78 │ 36.84 │
│ Inter token latency (ms) │  14.66 │  10.47 │ 113.04 │ 15.88 │  15.18 │ 14.85 │
└──────────────────────────┴────────┴────────┴────────┴───────┴────────┴───────┘
Output token throughput (per sec): 545.56
Request throughput (per sec): 4.03
"""

CUT = (
    "genai-perf --model opt350m --backend vllm --service-kind triton --streaming --output-tokens-mean 1\n"
    "28 --concurrency 8 --measurement-interval 30000\n"
    "[INFO] genai_perf.wrapper:138 - Running Perf Analyzer : 'perf_analyzer -m opt350m --async --input-data "
    "artifacts/opt350m-triton-vllm-concurrency8/llm_inputs.json --service-kind triton --me\n"
    "asurement-interval 30000 --concurrency-range 8'\n"
)


def _runs(tmp_path, text):
    f = tmp_path / "job.log"
    f.write_text(text)
    df = ingest.read(f)
    return df.drop_duplicates("run")["max_concurrency"].tolist()


def test_the_artifact_folder_gives_the_load_a_cut_command_lost(tmp_path):
    assert _runs(tmp_path, CUT + TABLE) == [8.0]


def test_without_the_folder_the_default_of_one_stands(tmp_path):
    text = CUT.replace("artifacts/opt350m-triton-vllm-concurrency8/llm_inputs.json", "inputs.json")
    assert _runs(tmp_path, text + TABLE) == [1.0]
