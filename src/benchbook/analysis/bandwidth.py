"""The decode bandwidth roofline: how close single-stream generation comes to streaming the weights
at the device's peak memory bandwidth. Numbers only (claims: `benchbook.claims.bandwidth`;
figures and sentences: `benchbook.presentation.bandwidth`).

Generating one token at batch 1 reads every weight the token touches once; attention over a short
KV cache (llama-bench's tg128 starts from an empty cache) adds little. So

    bytes per token   = model file size                              (dense)
                      = file size x active params / total params     (MoE: only the routed experts)
    achieved GB/s     = bytes per token x tg rate (tok/s) / 1e9
    fraction of peak  = achieved / the device's memory bandwidth
    ceiling (tok/s)   = peak bandwidth / bytes per token

The device: a CPU-only run (backend CPU, or -ngl 0) is measured against the CPU's DRAM bandwidth
(times the sockets its threads span: 48 threads on a 24-thread CPU run on two, whose memory
channels add), anything else against the GPU's; the GPU comes from the `gpu` parameter, else from the device line
the output prints, and a custom peak (`peak_bandwidth_gb_s`) overrides both. A device that is
neither given nor printed is unknown: its fractions are withheld, never compared with a default.

The MoE share assumes every parameter is stored at the same bits per weight (attention and shared
weights are often kept at higher precision, so the true bytes are a little higher). An MoE model
whose active size is unknown gets no bytes per token. A partly offloaded model (ngl below its
layer count, experts kept on the CPU, or a file larger than the GPU's memory) streams part of its
weights from system RAM, so its "achieved bandwidth" is a blend and is marked.

Sweeps this chapter does not model (threads, n_ubatch, n_batch, fa, type_k/v, depth...) are
reduced by `reduce`'s stated rule. A setting the sweep names twice (`-d 0,0,512`) gives repeats,
averaged (`generation_rows`), never conflicts.
"""

from __future__ import annotations

import dataclasses
import math
import re

import numpy as np
import pandas as pd

from benchbook import hardware
from benchbook.analysis import precision, roofline

#: Repeating layers of the models in the seeds, matched in the model file name / section /
#: model string (lower case); llama-bench's -ngl counts these plus the output layer.
KNOWN_LAYERS = {
    "llama-2-7b": (32, "https://huggingface.co/meta-llama/Llama-2-7b-hf/blob/main/config.json (num_hidden_layers 32)"),
    "llama 7b": (
        32,
        "LLaMA / Llama-2 7B: https://huggingface.co/meta-llama/Llama-2-7b-hf/blob/main/config.json (num_hidden_layers 32)",
    ),
    "mistral-nemo": (
        40,
        "https://huggingface.co/mistralai/Mistral-Nemo-Base-2407/blob/main/config.json (num_hidden_layers 40)",
    ),
    "llama3.3-70b": (
        80,
        "https://huggingface.co/meta-llama/Llama-3.3-70B-Instruct/blob/main/config.json (num_hidden_layers 80)",
    ),
    "llama3.1-405b": (
        126,
        "https://huggingface.co/meta-llama/Llama-3.1-405B/blob/main/config.json (num_hidden_layers 126)",
    ),
    "gpt-oss-120b": (36, "https://huggingface.co/openai/gpt-oss-120b/blob/main/config.json (num_hidden_layers 36)"),
    "qwen3-30b-a3b": (48, "https://huggingface.co/Qwen/Qwen3-30B-A3B/blob/main/config.json (num_hidden_layers 48)"),
    # llama.cpp's label of DeepSeek-V3 / R1 (`deepseek2 671B`, LLM_TYPE_671B: n_layer 61 of the deepseek2 arch)
    "deepseek2 671b": (
        61,
        "DeepSeek-V3 / R1 671B: https://huggingface.co/deepseek-ai/DeepSeek-V3/blob/main/config.json (num_hidden_layers 61)",
    ),
}

#: The rule `reduce` applies, for the page.
REDUCE_RULE = (
    "generation from an empty cache only (depth 0; deeper tests also read the KV cache); per model and device (the "
    "printed GPU, or the CPU for a CPU-only run), the highest power limit (none counts as the card's default, the "
    "highest); then the fastest generation among the other settings (threads, offloaded layers, batch sizes, flash "
    "attention, cache types), where a rate less than 2 standard errors below the fastest is a tie within the noise, "
    "not a slower setting, and another generation test of the same settings (tg64 beside tg32) is a test of the "
    "same run, not a setting; requests timed one each whose model the output names for neither are ranked "
    "together for want of a name, so the slower is set aside as such, not as a slower setting of one model"
)

GIB = 1024**3


#: No device: the output names none the hardware table knows, and the reader gave none.
UNKNOWN = roofline.Peaks(None, None, {}, "unknown")


def _text(v) -> str | None:
    return v if isinstance(v, str) and v.strip() else None


def run_mode(row) -> str:
    """The mode, "cpu", "gpu" or "partial", of one llama-bench result (`hardware.llama_bench_device`, with
    the model's layer count where KNOWN_LAYERS has it); "gpu" when the output says nothing. A rate
    compare-llama-bench.py averaged (`averaged_by`) takes its mode from a printed backend, GPU or GPU
    layers only: the script shows the host CPU whatever ran the layers, so without them it is "unknown"."""
    n_layers, _ = layers(row.get("model_file"), row.get("section"), row.get("model"))
    averaged = _text(row.get("averaged_by")) is not None
    keys = ("gpu", "backend", "ngl", "n_cpu_moe", "gpus_listed") + (() if averaged else ("cpu",))
    settings = {k: row.get(k) for k in keys}
    settings = {k: v for k, v in settings.items() if v is not None and not pd.isna(v)}
    dev = re.search(r"(?:^|,\s*)dev=([^,]*)", str(row.get("extra_settings") or ""))
    if dev:
        settings["dev"] = dev[1]  # the markdown's `dev` column (`-dev`), kept among the extra settings
    if n_layers is not None:
        settings["n_layers"] = n_layers + 1  # llama-bench's -ngl counts the output layer too
    _, mode = hardware.llama_bench_device(settings)
    return "gpu" if mode == "unknown" and not averaged else mode


def mode_said(row) -> bool:
    """Whether the output itself tells a result's mode (a device, a backend, GPU layers or a CPU it
    printed), not `run_mode`'s "gpu" taken for a row that says nothing: a defaulted mode is no fact of
    the run for a page to state."""
    keys = ("gpu", "backend", "ngl", "n_cpu_moe", "cpu", "gpus_listed")
    settings = {k: row.get(k) for k in keys}
    settings = {k: v for k, v in settings.items() if v is not None and not pd.isna(v)}
    dev = re.search(r"(?:^|,\s*)dev=([^,]*)", str(row.get("extra_settings") or ""))
    if dev:
        settings["dev"] = dev[1]
    return hardware.llama_bench_device(settings)[1] != "unknown"


def _applies(dev: hardware.Device, mode: str) -> bool:
    """Whether a device the reader named can be the one this result ran on (a CPU for a CPU-only
    run, an accelerator otherwise; an APU serves both)."""
    return dev.kind == "apu" or (dev.kind == "cpu") == (mode == "cpu")


def choose_peak(
    gpu: str, row, bandwidth_gb_s: float = 0.0, tflops: float = 0.0, machine_sockets: int | None = None
) -> roofline.Peaks:
    """The device one result is compared with. The reader's `gpu` (with their own peaks, if
    given) wins where it fits the run (a CPU-only run is never compared with a GPU); else the
    device the output printed (`hardware.detect`), with the reader's peaks over it; else, with
    only the reader's `bandwidth_gb_s`, their own device; else unknown. A CPU's sockets are those
    its threads span, up to `machine_sockets` where the file states them (`sockets_said`)."""
    mode = row.get("mode") or "gpu"
    bw, tf = (float(bandwidth_gb_s) or None), (float(tflops) or None)
    name = gpu if gpu and _applies(hardware.device(gpu), mode) else None
    if gpu and name is None:
        bw = tf = None  # the reader's figures describe their named device, not this run's
    printed = _text(row.get("cpu")) if mode == "cpu" else _text(row.get("gpu"))
    detected = hardware.detect(printed) if printed else None
    try:
        choice = hardware.choose(name, detected, bw, tf)
    except ValueError:
        return UNKNOWN
    if choice is None:
        return roofline.Peaks(printed, None, {}, "unknown")
    d = choice.device
    label = d.name if d.kind != "custom" or not printed else printed
    n = d.sockets(row.get("threads"), machine_sockets) if mode == "cpu" and d.kind == "cpu" and not bw else 1
    # the run's threads span n sockets: their memory channels, caches and cores add
    return roofline.of_device(d, choice.source, n, f"{label} ({n} sockets)" if n > 1 else label)


#: The evidence fields of what a file says of its machine's CPU sockets (`sockets_said`).
SOCKETS_SAID = ("sockets_status", "sockets_value", "sockets_line", "sockets_text")


def sockets_said(paths) -> dict[str, dict]:
    """Per file (by its name in the tidy table), what it says of its machine's CPU sockets, by the one
    absence rule (`context.states`, through `serving.fact_said`): "stated" (lscpu's `Socket(s): 2`, a
    write-up's `dual-socket`: the run's threads span at most these), "unread" (a line that speaks of
    sockets or NUMA nodes, which give no count: the page names it) or "absent", the only status on which
    a page may say the output does not say how many sockets the machine has."""
    from pathlib import Path

    from benchbook.analysis import serving

    return {Path(p).name: serving.fact_said([p], "sockets", "sockets") for p in paths}


def layers(*names) -> tuple[int | None, str | None]:
    """Known repeating-layer count for a model, from its file name, section or model string."""
    for n in names:
        if not isinstance(n, str):
            continue
        s = n.lower()
        for key, (count, src) in KNOWN_LAYERS.items():
            if key in s:
                return count, src
    return None, None


def override_table(override: dict | None) -> pd.DataFrame:
    """The reader's MoE sizes, {pattern: active_params_b or (active, total)}, as rows."""
    rows = []
    for pattern, v in (override or {}).items():
        active, total = v if isinstance(v, (list, tuple)) else (v, None)
        rows.append({"model_pattern": pattern, "params_b": total, "active_params_b": float(active)})
    return pd.DataFrame(rows, columns=["model_pattern", "params_b", "active_params_b"])


def _norm(s: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", s.lower())


def row_model_size(override: pd.DataFrame, r: pd.Series) -> dict:
    """`model_size` of one llama-bench row: its printed count, then its file, model string, section and the
    document's title that sizes it (`title`, `titled`) as names; the model string is the one llama.cpp printed (a
    dense string rules out an MoE row of the table)."""
    names = (r.get("model_file"), r.get("model"), r.get("section"), r.get("title"))
    return model_size(override, r.get("params_b"), *names, printed_model=r.get("model"))


#: A parameter count as a title says it: `70B`, `7.5b`, an MoE's `8x7B` or `80B-A3B` (never `96GB`, a memory).
_PARAMS_SAID = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?:x\d+(?:\.\d+)?)?\s?[Bb](?:-A\d+(?:\.\d+)?[Bb])?(?!\w)")


def title_size(path) -> tuple[str, int] | None:
    """(the title, its line) where a file's document title (its `# ` heading: a copied issue's or pull request's)
    says one parameter count (`70B model on M2 Max 96GB`), alone or beside a family (`Llama 2 70B`), that
    `hardware.model_size` reads, and no model the file names has another size: the title sizes the runs whose
    rows name no model. None where the title says two counts (`7B vs 70B`: which is the run's is not said)."""
    from benchbook import ingest

    ctx = ingest.context_of_lines(path)
    title = next((h for h in ctx.headings if re.match(r"#\s", h.text)), None)
    if title is None or len({c.lower().replace(" ", "") for c in _PARAMS_SAID.findall(str(title.value))}) != 1:
        return None
    size = hardware.model_size(str(title.value))
    if size is None:
        return None
    named = [hardware.model_size(str(f.value)) for f in ctx.get("model")]
    if any(n is not None and n.total_b != size.total_b for n in named):
        return None
    return str(title.value), title.line


def titled(rows: pd.DataFrame, paths) -> pd.DataFrame:
    """`rows` with `title` and `title_line` (`title_size`) on the rows that name no model, no model file and no
    parameter count, of the files (`paths`, each the rows' `source` by its name) whose title sizes their model."""
    from pathlib import Path

    out = rows.assign(title=None, title_line=np.nan)
    if out.empty or "source" not in out:
        return out
    unnamed = pd.Series(True, index=out.index)
    for c in ("model", "model_file", "params_b"):
        if c in out:
            unnamed &= out[c].isna()
    for path in paths:
        at = unnamed & out["source"].eq(Path(path).name)
        said = title_size(path) if at.any() else None
        if said:
            out.loc[at, "title"], out.loc[at, "title_line"] = said[0], float(said[1])
    return out


def model_size(override: pd.DataFrame, printed_params_b, *names, printed_model: str | None = None) -> dict:
    """Total and active parameters (billions), the architecture and the source of the sizes: the
    reader's override first, then `hardware.model_size` on each name (a sourced table row beats
    a size read from a name). An MoE model whose active count is unknown has active_params_b None.

    `printed_model` is the tool's own model string (llama-bench's `<arch> <type> <ftype>`): where it
    says a dense model (`hardware.printed_dense`), an MoE row of the table whose total the printed
    count contradicts is another model that shares the file's name (`deepseek-r1_1.5b.gguf`, a
    distill whose architecture is qwen2), not this one, and is not used."""
    total = float(printed_params_b) if printed_params_b is not None and pd.notna(printed_params_b) else None
    for _, r in override.assign(n=override["model_pattern"].str.len()).sort_values("n", ascending=False).iterrows():
        if any(isinstance(n, str) and _norm(r["model_pattern"]) in _norm(n) for n in names):
            tot = float(r["params_b"]) if pd.notna(r["params_b"]) else total
            return {
                "params_b": tot,
                "active_params_b": float(r["active_params_b"]),
                "architecture": "moe",
                "size_source": "chapter parameter moe_active_params",
            }
    found = [hardware.model_size(n, printed_params=total) for n in names if isinstance(n, str) and n.strip()]
    found = [f for f in found if f is not None]
    if printed_model and hardware.printed_dense(printed_model):
        found = [f for f in found if not (f.moe and f.active_b is None)]
    sourced = [f for f in found if f.source.startswith("http")]
    moe = [f for f in found if f.moe]  # one name that says MoE (e.g. "deepseek2") outweighs a bare file name
    best = (sourced or moe or found or [None])[0]
    if best is None:  # a printed count alone says nothing of experts; nothing at all says no architecture
        arch = "dense" if total is not None else "unknown"
        return {"params_b": total, "active_params_b": total, "architecture": arch, "size_source": "printed"}
    return {
        "params_b": best.total_b,
        "active_params_b": best.active_b,
        "architecture": "moe" if best.moe else hardware.PLE if best.architecture == hardware.PLE else "dense",
        "size_source": best.source,
    }


def generation_rows(df: pd.DataFrame, metric: str = "tg_rate") -> pd.DataFrame:
    """One row per generation (tg) measurement (or of another llama-bench `metric`: "pp_rate"): its
    settings, mean rate and printed std."""
    cols = [
        "model",
        "model_file",
        "section",
        "test",
        "n_prompt",
        "n_depth",
        "power_limit_w",
        "backend",
        "gpu",
        "gpus_listed",
        "cpu",
        "caption",
        "ngl",
        "n_cpu_moe",
        "threads",
        "n_batch",
        "n_ubatch",
        "fa",
        "type_k",
        "type_v",
        "extra_settings",
        "build",
        "model_size_gib",
        "params_b",
        "n_reps",
        "averaged_by",
        "table_line",
    ]
    cols = [c for c in cols if c in df.columns]
    d = df[(df["metric"] == metric) & df["statistic"].isin(["mean", "std"])]
    if d.empty:
        return pd.DataFrame(columns=cols + ["rate", "rate_std", "repeats", "line", "source", "mode", "model_key"])
    key = d[cols].astype("string").fillna("-").agg(" | ".join, axis=1)
    rows = []
    for _, g in d.groupby(key, sort=False):
        mean = g[g["statistic"] == "mean"].sort_values("line")
        mean = mean[np.isfinite(mean["value"])]
        if mean.empty:
            continue
        std = g[g["statistic"] == "std"].set_index("line")["value"].reindex(mean["line"])
        r = mean.iloc[0]
        rows.append(
            {
                **{c: r[c] for c in cols},
                "rate": float(mean["value"].mean()),
                "rate_std": pooled_std(mean["value"].to_numpy(), std.to_numpy(dtype=float)),
                "repeats": len(mean),
                "line": int(r["line"]),
                # the file the row's first mean came from, whose context (`sockets_said`) it carries
                "source": str(r["source"]) if "source" in r.index else None,
            }
        )
    out = pd.DataFrame(rows, columns=cols + ["rate", "rate_std", "repeats", "line", "source"])
    out["n_depth"] = pd.to_numeric(out["n_depth"], errors="coerce").fillna(0)
    out["mode"] = [run_mode(r) for _, r in out.iterrows()]
    out["mode_said"] = [mode_said(r) for _, r in out.iterrows()]
    out["model_key"] = model_keys(out)
    return out


def drafted(df: pd.DataFrame) -> list[dict]:
    """Each request of llama.cpp's timings whose decode a drafter made (drafts accepted: a pass of the model
    kept several tokens, so its rate is no pass per token): its line, tokens, rate and drafts accepted, in
    the file's order. Results the input holds that `request_rows` leaves out, never absent ones."""
    if df is None or df.empty or "drafts_accepted" not in df:
        return []
    d = df[(df["metric"] == "tg_rate") & (df["statistic"] == "value")]
    d = d[_drafted(d)]
    return [
        {
            "line": int(r["line"]),
            "n_gen": int(r["n_gen"]) if pd.notna(r.get("n_gen")) else None,
            "rate": float(r["value"]),
            "accepted": int(r["drafts_accepted"]) if pd.notna(r["drafts_accepted"]) else None,
            "drafter": int(r["drafter"]) if pd.notna(r.get("drafter")) else None,
        }
        for _, r in d.sort_values("line").iterrows()
    ]


def _drafted(d: pd.DataFrame) -> pd.Series:
    """Which requests' decodes a drafter made: drafts accepted (its tally), or a drafter the file sets above
    them (`drafter`, the line: a server's `speculative.n_max`, a command's draft model) with no tally of none
    accepted."""
    accepted = pd.to_numeric(d["drafts_accepted"], errors="coerce")
    drafter = pd.to_numeric(d["drafter"], errors="coerce") if "drafter" in d else pd.Series(float("nan"), index=d.index)
    return (accepted.fillna(0) > 0) | (drafter.notna() & accepted.isna())


def request_rows(df: pd.DataFrame, metric: str = "tg_rate") -> pd.DataFrame:
    """One row per request of llama.cpp's timings (`llama-timings`): its generation rate (or `metric`:
    "pp_rate", its prompt's) as printed, ONE request (repeats 1, no spread), in `generation_rows`' columns;
    a request whose drafts were accepted (speculative decoding: several tokens from one pass) is not a
    decode rate and its generation is left out. Its mode:
    "partial" where the log offloaded fewer layers than the model has, "cpu" where it offloaded none, else
    as a llama-bench row's."""
    d = df[(df["metric"] == metric) & (df["statistic"] == "value")] if len(df) else df
    if len(d) and metric == "tg_rate" and "drafts_accepted" in d:
        d = d[~_drafted(d)]
    if d is None or d.empty:
        return generation_rows(pd.DataFrame(columns=["metric", "statistic"]))
    count = "n_gen" if metric == "tg_rate" else "n_prompt"
    # a server request's prompt followed the tokens its slot's cache held (`n_cached`): that is its depth, as
    # llama-bench's `pp512 @ d4096` (a request's generation is left at depth 0, as before)
    cached = pd.to_numeric(d["n_cached"], errors="coerce") if "n_cached" in d and metric == "pp_rate" else None
    depth = cached.fillna(0).astype(int) if cached is not None else pd.Series(0, index=d.index)
    out = pd.DataFrame(
        {
            "model": d["model"],
            "model_file": d["model_file"],
            "test": [
                (f"{metric[:2]}{int(n)}" if pd.notna(n) else metric[:2]) + (f" @ d{k}" if k else "")
                for n, k in zip(d[count], depth, strict=True)
            ],
            "n_prompt": d["n_prompt"],
            "n_depth": depth.to_numpy(),
            "backend": d["backend"],
            "gpu": d["gpu"],
            "gpus_listed": d["gpus_listed"],
            "ngl": d["ngl"],
            "n_layers": d["n_layers"],
            "threads": d["threads"],
            "model_size_gib": d["model_size_gib"],
            "params_b": d["params_b"],
            "n_reps": 1,
            "rate": d["value"].astype(float),
            "rate_std": np.nan,
            "repeats": 1,
            "line": d["line"].astype(int),
            "source": d["source"],
            "one_request": True,
            "request": d["request"] if "request" in d else None,
            "caption": d["caption"] if "caption" in d else None,  # the writer's label of the request
            "context_load_ms": d["context_load_ms"] if "context_load_ms" in d else None,
            "timings": d["format"] if "format" in d else None,  # whose print: llama.cpp's, or Ollama's --verbose
        }
    ).reset_index(drop=True)
    for c in ("power_limit_w", "section", "cpu", "n_cpu_moe", "extra_settings", "build", "averaged_by"):
        out[c] = None
    out["mode"] = [_request_mode(r) for _, r in out.iterrows()]
    out["model_key"] = model_keys(out)
    return out


#: The `timings` of Ollama's `--verbose` stats (`ingest.ollama_verbose.FORMAT`).
OLLAMA = "ollama run --verbose"


#: An offload reason that is no fact: -ngl below llama.cpp's all-layers 99, the model's layer count unknown.
_UNKNOWN_COUNT = " (layer count unknown)"

#: A request's names that may give its model's layer count (`layers`).
_NAMES = ("model_file", "section", "model")


def _request_mode(row) -> str:
    """A request's mode from its log's own layer counts; Ollama's stats say nothing of where its layers
    ran (its scheduler splits a model over CPU and GPU where it does not fit, as `ollama ps` shows):
    "unknown" there, as for a llama.cpp log that names no device and no layer count, or whose `-ngl N`
    (below llama.cpp's all-layers 99) no layer count of the model's, printed or known, says is all or part.
    A device named only around the log (a heading's `M2 Max`, with no backend the log found) says which machine
    ran, not where its layers ran: only the log's backend, layer count, `-ngl` or CPU-only build says that."""
    ngl, total = row.get("ngl"), row.get("n_layers")
    if row.get("timings") == OLLAMA and (ngl is None or pd.isna(ngl)):
        return "unknown"
    if ngl is not None and pd.notna(ngl) and int(ngl) == 0:
        return "cpu"
    if ngl is not None and pd.notna(ngl) and total is not None and pd.notna(total):
        return "partial" if int(ngl) < int(total) else "gpu"  # the log's own count, output layer included
    if ngl is not None and pd.notna(ngl) and 0 < int(ngl) < 99 and layers(*(row.get(k) for k in _NAMES))[0] is None:
        return "unknown"  # -ngl N offloads every layer where N passes the model's count, which nothing here gives
    said = [row.get(k) for k in ("backend", "ngl", "cpu")]
    if all(v is None or (not isinstance(v, str) and pd.isna(v)) for v in said):
        return "unknown"  # llama-cli/main's -ngl default changed over the years: a log naming no device says neither
    return run_mode(row)


def model_keys(rows: pd.DataFrame) -> pd.Series:
    """Per row, the model it ran: its file where printed, else llama-bench's model label. That label is
    `llama_model_desc`, the architecture, size class and file type ("qwen3moe 30B.A3B Q2_K - Medium"), so
    two files of one label (an original and a pruned one) print the same; where rows of one label print
    a different `size` or `params` they are different models, and the key adds both."""
    key = rows["model_file"].astype(object).fillna(rows["model"].astype(object))
    if "table_line" in rows:  # one table of llama-sweep-bench is one run of one model, named or not
        key = key.fillna(rows["table_line"].map(lambda t: _table_model(t) if pd.notna(t) else None))
    key = key.fillna("?")
    sized = [c for c in ("model_size_gib", "params_b") if c in rows.columns]
    if not sized or rows.empty:
        return key
    shape = (
        rows[sized].apply(pd.to_numeric, errors="coerce").round(4).astype("string").fillna("-").agg("|".join, axis=1)
    )
    several = shape.groupby(key).transform("nunique") > 1
    size = pd.to_numeric(rows.get("model_size_gib"), errors="coerce") if "model_size_gib" in rows else None
    params = pd.to_numeric(rows.get("params_b"), errors="coerce") if "params_b" in rows else None
    for i in key.index[several & rows["model_file"].isna()]:
        said = [f"{size[i]:.2f} GiB" if size is not None and pd.notna(size[i]) else ""]
        said.append(f"{params[i]:.2f} B" if params is not None and pd.notna(params[i]) else "")
        key[i] = f"{key[i]} ({', '.join(x for x in said if x)})"
    return key


def models_named(*frames: pd.DataFrame) -> int | None:
    """The distinct models the runs of `frames` name (their `model` column, else their model file), placed
    under the roofline or not: what an input holds, which one placed result does not tell. None where some
    run names no model at all (a request's log cut above its loader) and the others name at most one: whether
    it holds one model is not known (two named are two, whatever the unnamed ran)."""
    names: set[str] = set()
    unnamed = False
    for f in frames:
        if f.empty or not ({"model", "model_file"} & set(f.columns)):
            continue
        said = [f[c].astype(object).where(f[c].notna(), None) for c in ("model", "model_file") if c in f.columns]
        for row in zip(*said, strict=True):
            named = [str(v) for v in row if v is not None and str(v).strip()]
            unnamed |= not named
            names.update(named[:1])
    return None if unnamed and len(names) < 2 else len(names)


#: llama-bench's default repetitions (`-r 5`) behind each printed mean and standard deviation.
DEFAULT_REPS = 5


def pooled_std(means: np.ndarray, stds: np.ndarray, reps: int = DEFAULT_REPS) -> float:
    """The standard deviation of all the repetitions behind several printed means of one setting (a
    sweep that names it twice): each mean of `reps` repetitions with its printed standard deviation,
    within-repeat and between-repeat variance together. One mean: its own standard deviation."""
    if len(means) == 1:
        return float(stds[0]) if len(stds) and np.isfinite(stds[0]) else np.nan
    if not np.isfinite(stds).all():
        return np.nan
    k, grand = len(means), means.mean()
    return float(np.sqrt(((reps - 1) * (stds**2).sum() + reps * ((means - grand) ** 2).sum()) / (k * reps - 1)))


#: Why a result is not placed when it is slower than the placed one by less than the noise.
TIED = "tied with the placed result within the noise"


def beyond_noise(fast, slow) -> bool:
    """Whether `fast` out-runs `slow` by more than 2 standard errors of the difference, each rate's
    printed standard deviation over its repetitions (the command's -r, else llama-bench's default 5).
    A rate printed without a spread counts as exact."""
    var = 0.0
    for row in (fast, slow):
        sd, n = row.get("rate_std"), row.get("n_reps")
        n = DEFAULT_REPS if n is None or pd.isna(n) else int(n)
        var += 0.0 if sd is None or pd.isna(sd) else float(sd) ** 2 / n
    return float(fast["rate"]) - float(slow["rate"]) > 2 * var**0.5


def device_keys(rows: pd.DataFrame) -> pd.Series:
    """Per row, the device `reduce` ranks settings within (REDUCE_RULE: the printed GPU, or the CPU for a
    CPU-only run): an accelerator run's GPU; a CPU-only run's CPU as its row or the text around it names it
    (a write-up's `### Ryzen-7950X` table and its `### Ryzen-5975WX` table are two machines, never one's
    slower setting), "-" where none is named; with the device index its section's heading names where one
    printed device's rows sit under headings naming different indices (two cards of one name)."""
    gpu = rows["gpu"].astype("string").fillna("-")
    cpu = (
        rows["cpu"].astype("string").fillna("-") if "cpu" in rows else pd.Series("-", index=rows.index, dtype="string")
    )
    on_cpu = rows["mode"] == "cpu"
    key = gpu + "|" + ("cpu " + cpu).where(on_cpu, "acc")
    # rows of one printed device under headings naming different device indices (`GPU 0 ONLY`, `GPU 1 ONLY`: each
    # card run alone, each printing itself as device 0) are two cards: each heading's index is part of its key, so
    # each card keeps its own fastest, never the other's slower setting (`several_indexed`)
    if "section" in rows:
        sections = rows["section"].astype(object)
        for _, g in rows.groupby(key, sort=False):
            if several_indexed(sections[g.index]):
                index = sections[g.index].map(lambda t: ",".join(DEVICE_INDEX.findall(t)) if isinstance(t, str) else "")
                key[g.index] = key[g.index] + "|#" + index
    return key


def reduce(rows: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(kept rows, every row with `kept` and `why_dropped`) by REDUCE_RULE."""
    if rows.empty:
        return rows, rows.assign(kept=pd.Series(dtype=bool), why_dropped=pd.Series(dtype=str))
    r = rows.copy()
    r["why_dropped"] = ""
    r.loc[r["n_depth"] > 0, "why_dropped"] = "depth > 0"
    r["_pw"] = r["power_limit_w"].fillna(np.inf)
    r["_dev"] = device_keys(r)
    live = r["why_dropped"] == ""
    top = r[live].groupby(["model_key", "_dev"])["_pw"].transform("max")
    r.loc[top.index[r.loc[top.index, "_pw"] < top], "why_dropped"] = "lower power limit"
    r["_eng"] = engines(r)
    live = r["why_dropped"] == ""
    best = r[live].groupby(["model_key", "_dev", "_eng"])["rate"].transform("max")
    slower = best.index[r.loc[best.index, "rate"] < best]
    r.loc[slower, "why_dropped"] = "slower settings"
    live = r["why_dropped"] == ""
    # equal rates: the first by settings text (deterministic, not row order of the file)
    dup = r[live].sort_values("line").duplicated(["model_key", "_dev", "_eng"])
    r.loc[dup[dup].index, "why_dropped"] = "same rate, other settings"
    # each engine's fastest: the device's fastest is placed, the others' engine named (never "slower settings")
    live = r["why_dropped"] == ""
    first = r[live].sort_values(["rate", "line"], ascending=[False, True]).duplicated(["model_key", "_dev"])
    other = first[first].index
    named = r.loc[other, "_eng"].astype(str)
    r.loc[other, "why_dropped"] = ("another engine, build or configuration: " + named).where(
        named != "", "slower settings"
    )
    r["kept"] = r["why_dropped"] == ""
    for i in r.index[r["why_dropped"] == "slower settings"]:  # name what differs from the placed row
        placed = r[r["kept"] & (r["model_key"] == r.at[i, "model_key"]) & (r["_dev"] == r.at[i, "_dev"])]
        if len(placed):
            why = "slower settings" if beyond_noise(placed.iloc[0], r.loc[i]) else TIED
            why = OTHER_TEST if other_test(r.loc[i], placed.iloc[0]) else why
            why = REPEAT if repeat(r.loc[i], placed.iloc[0]) else why
            why = UNNAMED_APART if unnamed_apart(r.loc[i], placed.iloc[0]) else why
            r.at[i, "why_dropped"] = why + ": " + differences(r.loc[i], placed.iloc[0])
    r["engine"] = r["_eng"].replace("", None)
    r = r.drop(columns=["_pw", "_dev", "_eng"])
    return r[r["kept"]].drop(columns=["kept", "why_dropped"]).reset_index(drop=True), r


#: Why a request is not placed when it differs from the placed one in its answer's length alone.
REPEAT = "a repeat of the kept request's settings, not a slower setting"


#: Why a llama-bench result is not placed when it differs from the placed one in its test alone.
OTHER_TEST = "another test of the placed result's settings, not a slower setting"


def other_test(row, placed) -> bool:
    """Whether llama-bench's `row` is another test of the `placed` result's settings: its tests (`-p`, `-n`) are
    what one configuration is measured on, and it prints every setting it varies, so rows that differ in their
    test alone (ik_llama.cpp's tg64 beside its tg32) are the tests of one run, not settings to rank. Requests
    timed one each are not: two of them may differ in what no column holds (`repeat` decides those)."""
    if any(x.get("one_request") in (True, np.True_) for x in (row, placed)):
        return False
    a, b = settings_of(row), settings_of(placed)
    return {k for k in {*a, *b} if a.get(k) != b.get(k)} == {"test"}


def repeat(row, placed) -> bool:
    """Whether `row` is a repeat of the `placed` request: both timings of one request each (a tgN that
    counts the tokens its answer had, which the user does not set) of one model the file names for both
    (the command they ran, `ollama run --verbose MODEL`), or of one loaded context (`same_context`),
    differing in that count alone, as one command run twice is (ollama issue 12913). Requests of no named
    model and no shared context may differ in what no column holds (two versions under labels the reader
    does not take), so they are not taken for repeats."""
    a, b = settings_of(row), settings_of(placed)
    diff = {k for k in {*a, *b} if a.get(k) != b.get(k)}
    named = isinstance(row.get("model"), str) and bool(row["model"].strip()) and row.get("model") == placed.get("model")
    one = all(x.get("one_request") in (True, np.True_) for x in (row, placed))
    return bool(one and (named or same_context(row, placed)) and diff <= {"test"})


#: Why a request is not placed when neither it nor the placed one names its model (`unnamed_apart`).
UNNAMED_APART = "another request, the model of neither named: not known to be a slower setting of one model"


def _named(row) -> bool:
    return any(isinstance(row.get(k), str) and bool(row[k].strip()) for k in ("model", "model_file"))


def unnamed_apart(row, placed) -> bool:
    """Whether `row` and the `placed` result are requests timed one each whose model nothing in the output names
    (no command, no model file, no label: two `ollama run --verbose` blocks under the writer's `## Gemma` and
    `## Qwen` headings) and that share no loaded context (`same_context`): they may be two models as well as one
    (the reader ranks them together only because it knows no model for either), so the slower is not said to be
    a slower setting of the faster one's model, nor a repeat of it."""
    one = all(x.get("one_request") in (True, np.True_) for x in (row, placed))
    return bool(one and not _named(row) and not _named(placed) and not same_context(row, placed))


def same_context(row, placed) -> bool:
    """Whether two requests ran in one llama.cpp context: each block printed the same load time, which
    llama.cpp measures once when the context loads its model and prints with every request after
    (`llama_print_timings: load time`), so one model with one set of settings served both."""
    a, b = row.get("context_load_ms"), placed.get("context_load_ms")
    return a is not None and b is not None and pd.notna(a) and pd.notna(b) and float(a) == float(b)


#: The llama-bench columns that make a run's settings (what `reduce` picks the fastest of).
SETTINGS = ("backend", "threads", "n_batch", "n_ubatch", "fa", "type_k", "type_v", "ngl", "n_cpu_moe", "extra_settings")


#: Where extra_settings parts one `name=value` from the next: the `, ` before a name and its `=` (or the
#: `env VAR=...` part, a word and a space). A value may hold a comma of its own (ik_llama.cpp's `ser` column
#: prints `4,1`), which no name follows.
SETTING_SEP = re.compile(r",\s*(?=[^,=\s]+[=\s])")


def setting_pairs(extra: str) -> dict[str, str]:
    """Each `name=value` of an extra_settings text, a value's own commas kept (`SETTING_SEP`)."""
    return dict(kv.split("=", 1) for kv in SETTING_SEP.split(extra) if "=" in kv)


def experts_reduced(row) -> tuple[int, float] | None:
    """(Kmin, t) of a row run with ik_llama.cpp's smart expert reduction (`-ser Kmin,t`, its `ser` column):
    each token takes its top Kmin experts and those of the model's routed ones whose router probability
    exceeds t x the top one's (ikawrakow/ik_llama.cpp#239), so with t > 0 it may read fewer experts than the
    model routes and fewer bytes than its active parameters. None where the row ran without it (t = 0)."""
    extra = row.get("extra_settings")
    m = (
        re.fullmatch(r"\s*(\d+)\s*,\s*([\d.]+)\s*", setting_pairs(extra).get("ser", ""))
        if isinstance(extra, str)
        else None
    )
    return (int(m.group(1)), float(m.group(2))) if m and float(m.group(2)) > 0 else None


def settings_of(row) -> dict[str, str]:
    """One result's settings as printed: the `SETTINGS` columns, each name=value of extra_settings
    (a column the schema does not name: sm, nkvo...) and its test."""
    out = {c: str(row.get(c)) for c in ("test", *SETTINGS[:-1]) if row.get(c) is not None and pd.notna(row.get(c))}
    extra = row.get("extra_settings")
    if isinstance(extra, str):
        out |= setting_pairs(extra)
    return out


def differences(row, placed) -> str:
    """The settings in which `row` differs from the `placed` one: "sm layer (placed: none)"."""
    a, b = settings_of(row), settings_of(placed)
    keys = [k for k in dict.fromkeys([*a, *b]) if a.get(k) != b.get(k)]
    said = [f"{k} {a.get(k, 'not printed')} (placed: {b.get(k, 'not printed')})" for k in keys]
    return "; ".join(said) or "the same printed settings"


#: A heading naming one device by its index (`### GPU 0 ONLY`, `## die 2`, `CUDA1`): a card the build lists as
#: device 0 in each run (`GGML_VK_VISIBLE_DEVICES=1` shows the second card as Vulkan device 0) is told apart
#: from another of the same name only by it.
DEVICE_INDEX = re.compile(r"\b(?:GPU|device|dev|card|die|ROCm|CUDA|Vulkan|SYCL)\s*#?\s*(\d+)\b", re.I)


def several_indexed(sections: pd.Series) -> bool:
    """Whether rows of one printed device and settings sit under headings naming different device
    indices (`GPU 0 ONLY`, `GPU 1 ONLY`): two cards of one name, each run alone, not one card's repeats."""
    named = {tuple(DEVICE_INDEX.findall(str(t))) for t in sections.dropna().unique() if DEVICE_INDEX.search(str(t))}
    return len(named) > 1


def engines(rows: pd.DataFrame) -> pd.Series:
    """Per row, the engine, build or configuration it ran on where one model and device ran on
    several ("" where not): its build (llama-bench's build_commit and build_number) where the builds
    differ, and the label above its table (section or caption, whichever differs: "Regular
    llama.cpp:", "ik_llama.cpp:") where rows of the same settings carry different labels and do not
    all print one build, or where their section headings name different device indices (`GPU 0 ONLY`,
    `GPU 1 ONLY`: `several_indexed`). Rows of different engines are never one engine's slower settings
    (`reduce`), nor one sweep's values."""
    out = pd.Series("", index=rows.index, dtype=object)
    cols = [c for c in SETTINGS if c in rows.columns]

    def text(c):
        return (
            rows[c].astype(object).fillna("").astype(str).str.strip() if c in rows else pd.Series("", index=rows.index)
        )

    build = rows["build"].astype(object) if "build" in rows else pd.Series(None, index=rows.index, dtype=object)
    dev = rows["gpu"].astype("string").fillna("-") + "|" + rows["mode"].astype(str)
    same = rows[cols].astype("string").fillna("-").agg("|".join, axis=1) if cols else pd.Series("", index=rows.index)
    for _, g in rows.groupby([rows["model_key"], dev], sort=False):
        if build[g.index].dropna().nunique() > 1:
            out[g.index] = "build " + build[g.index].fillna("not printed").astype(str)
        for _, h in g.groupby(same[g.index], sort=False):
            if (
                build[h.index].notna().all()
                and build[h.index].nunique() == 1
                and not several_indexed(text("section")[h.index])
            ):
                continue  # one build printed by every row: one engine, whatever the labels (JSON, CSV)
            for c in ("section", "caption"):
                if text(c)[h.index].nunique() > 1:
                    out[h.index] = (out[h.index] + " " + text(c)[h.index].str.rstrip(":")).str.strip()
    return out


def swept(rows: pd.DataFrame) -> dict[str, list]:
    """{setting: values} for the settings that take several values for one model and device."""
    out: dict[str, set] = {}
    printed = pd.DataFrame([settings_of(r) for _, r in rows.iterrows()], index=rows.index)
    extra = [c for c in printed.columns if c not in rows.columns and c != "test"]  # sm, nkvo...: as printed
    for _, g in rows.groupby(["model_key", "mode"], sort=False):
        for c in ("threads", "n_depth", "n_batch", "n_ubatch", "fa", "type_k", "type_v", "ngl", "n_cpu_moe", *extra):
            if c not in g.columns and c not in printed.columns:
                continue  # a setting these rows' tool does not print (a request's timings have no n_batch)
            col = g[c] if c in g.columns else printed.loc[g.index, c]
            vals = col.dropna().unique().tolist()
            if len(vals) > 1:
                out.setdefault(c, set()).update(vals)
    return {k: sorted(v, key=lambda x: (str(type(x)), x)) for k, v in out.items()}


#: The split modes that cut every layer's matrices across the GPUs, which then read and compute at once
#: (their peaks add): llama.cpp's `-sm row` and `-sm tensor` (docs/multi-gpu.md: tensor parallelism,
#: weights and KV cache split over the GPUs; row its older, deprecated path) and ik_llama.cpp's
#: `-sm graph` (its tensor parallelism, pull request 1018: tensors split by rows or columns, the KV cache too).
CONCURRENT_MODES = {"row", "tensor", "graph"}
#: llama-bench's split modes that spread one model over every GPU the build sees (`-sm layer`, the
#: default, which the table prints no `sm` column for, and `CONCURRENT_MODES`); `-sm none` keeps it on one GPU.
SPREADING_MODES = {"layer", *CONCURRENT_MODES}
#: Backends whose run is on one device whatever the split mode: the CPU, and Apple's one GPU (Metal).
ONE_DEVICE_BACKENDS = {"cpu", "metal", "mtl", "blas"}


def split_mode(row: pd.Series) -> str:
    """A llama-bench row's split mode: its `sm=` among the other settings, else the default, layer."""
    m = re.search(r"(?:^|,\s*)sm=(\w+)", str(row.get("extra_settings") or ""))
    return m.group(1) if m else "layer"


def devices_named(row: pd.Series) -> int | None:
    """How many devices a llama-bench row names in its `dev` column (printed when `--device` is given:
    the row's devices, `/`-separated, as `ROCm0/ROCm1`), or None where it has none."""
    m = re.search(r"(?:^|,\s*)dev=([^,]+)", str(row.get("extra_settings") or ""))
    if not m or m.group(1).strip().lower() in ("", "auto", "none"):
        return None
    return len([d for d in m.group(1).split("/") if d.strip()])


def several_named(rows: pd.DataFrame) -> bool:
    """Whether some row's own `dev` column names more than one device."""
    return any((devices_named(r) or 0) > 1 for _, r in rows.iterrows())


def one_device(rows: pd.DataFrame) -> bool:
    """Whether every generation row ran on one device: a `dev` column naming one device (more than one
    names a multi-device row), a backend of one device (`ONE_DEVICE_BACKENDS`),
    a build whose own device listing names one GPU (`gpus_listed`: llama-bench's `gpu_info` joins every
    GPU the build sees, so a split has nothing to spread over), one device the file names for a row that
    lists none, with no count of devices stated, `-sm none`, a CPU-only row, or one request's
    timings whose log lists one GPU (none listed: not stated); a row split by layer or
    row (`SPREADING_MODES`) may span every GPU the build sees."""
    if rows.empty:
        return True
    for _, r in rows.iterrows():
        if r.get("mode") == "cpu":
            continue  # a CPU-only row spans no GPU
        if r.get("one_request") is True:  # llama.cpp's timings: its log's device list, where it printed one
            listed = r.get("gpus_listed")
            if listed is None or pd.isna(listed) or int(listed) > 1:
                return False  # several GPUs, or none listed: the request's devices are not stated
            continue
        named = devices_named(r)
        if named is not None:  # the row's own device list decides, whatever the split mode
            if named > 1:
                return False
            continue
        backends = backends_of(r)
        if backends and backends <= ONE_DEVICE_BACKENDS:
            continue
        listed = r.get("gpus_listed")
        if listed is not None and pd.notna(listed) and int(listed) == 1:
            continue
        if (listed is None or pd.isna(listed)) and _one_named(r.get("gpu")):
            continue  # the file names the row's one device and counts none (`my setup (RTX-4080 in a ... box)`)
        if split_mode(r) in SPREADING_MODES:
            return False
    return True


def backends_of(row: pd.Series) -> set[str]:
    """The backends a llama-bench row's `backend` column lists (`CUDA,BLAS`, `ROCm/RPC`), lower-cased."""
    return {b.strip().lower() for b in re.split(r"[,/]", str(row.get("backend") or "")) if b.strip()}


def _one_named(gpu) -> bool:
    """Whether a row's device, as the file around a table names it (a table with no `gpu_info`, whose
    `gpus_listed` the file's count of devices fills where it states one), is one device: a name, not a
    list of several (`RTX 3090, RTX 3090`, `ROCm0/ROCm1`)."""
    return isinstance(gpu, str) and bool(gpu.strip()) and not re.search(r"[,/;+&]|\band\b", gpu)


def gpus_spanned(row: pd.Series) -> int:
    """How many GPUs hold a row's offloaded layers: a layer or row split (`SPREADING_MODES`, layer
    being llama-bench's default) spreads them over every GPU the build lists (`gpus_listed`); any
    other split, or a build listing one GPU or none, keeps them on one."""
    named = devices_named(row)
    if named is not None:
        return named
    listed = row.get("gpus_listed")
    if listed is None or pd.isna(listed) or split_mode(row) not in SPREADING_MODES:
        return 1
    return max(int(listed), 1)


def concurrent(row: pd.Series) -> int:
    """How many GPUs read a row's weights at once: a row, tensor or graph split (`CONCURRENT_MODES`) cuts
    every matrix across the GPUs the row spans (`gpus_spanned`), which stream and compute together, so their peaks add; a layer split reads
    them in turn (`in_turn`) and any other split keeps the model on one: 1."""
    n = gpus_spanned(row)
    return n if n > 1 and row.get("mode") != "cpu" and split_mode(row) in CONCURRENT_MODES else 1


def rpc_spanned(row: pd.Series, pk) -> bool:
    """Whether a GPU row offloads every layer (`-ngl` 99, llama-bench's default, or more) of a file larger than the
    memory of the GPUs it spans (`gpus_spanned` of `pk`'s, a detected device), with llama.cpp's RPC backend among
    its backends: llama.cpp puts the layers beyond those GPUs on the devices of the `rpc-server`s it is given
    (llama-bench's `-rpc`, ggml-rpc), which the input does not count, so no one GPU's peak bounds the row. A file
    that fits, an RPC backend merely built in, or a partial offload is none."""
    if row.get("mode") == "cpu" or pk is None or pk.source != "detected" or not pk.memory_gb:
        return False
    backends = backends_of(row)
    gib, ngl = row.get("model_size_gib"), row.get("ngl")
    if "rpc" not in backends or gib is None or pd.isna(gib):
        return False
    if ngl is not None and pd.notna(ngl) and 0 <= int(ngl) < 99:
        return False
    return float(gib) * GIB > gpus_spanned(row) * pk.memory_gb * 1e9


def gpus_unstated(row: pd.Series) -> bool:
    """Whether a GPU row is split by row (`-sm row`, `tensor`, `graph`: its GPUs stream and compute at once) over GPUs the input
    does not count (no `dev` list, no `gpu_info` listing, no count the text ties to the run): no one GPU's
    peak bounds it, and the sum of an unknown number bounds nothing."""
    if row.get("mode") == "cpu" or split_mode(row) not in CONCURRENT_MODES or devices_named(row) is not None:
        return False
    backends = backends_of(row)
    listed = row.get("gpus_listed")
    return not (backends and backends <= ONE_DEVICE_BACKENDS) and (listed is None or pd.isna(listed))


#: The micro-batches llama.cpp keeps in flight when it pipelines a layer split: the scheduler holds this
#: many copies of each split's inputs (`GGML_SCHED_MAX_COPIES`, 4 in ggml-backend since pull request 6017).
PIPELINE_COPIES = 4
#: llama-bench's micro-batch (`-ub`) where a row does not print its own (its README: default 512).
DEFAULT_UBATCH = 512


def pipelined(row: pd.Series) -> int:
    """How many GPUs compute one prompt at once under a layer split. llama.cpp pipelines a prompt's
    micro-batches through the GPUs that hold the layers (llama-context's `pipeline_parallel`: more than
    one device, every layer offloaded, `-sm layer`, the KV cache offloaded, no tensor override), each GPU
    on its own micro-batch, so up to min(GPUs spanned, micro-batches, `PIPELINE_COPIES`) compute together
    and their compute peaks add; 1 for a decode, one micro-batch or any other split."""
    n = gpus_spanned(row)
    n_prompt = row.get("n_prompt")
    if n < 2 or split_mode(row) != "layer" or row.get("mode") != "gpu" or n_prompt is None or pd.isna(n_prompt):
        return 1
    extra = str(row.get("extra_settings") or "")
    if re.search(r"(?:^|,\s*)nkvo=1\b", extra) or re.search(r"(?:^|,\s*)ot=(?!none\b)\S", extra):
        return 1
    ubatch = row.get("n_ubatch")
    ubatch = DEFAULT_UBATCH if ubatch is None or pd.isna(ubatch) or int(ubatch) < 1 else int(ubatch)
    return max(1, min(n, PIPELINE_COPIES, math.ceil(int(n_prompt) / ubatch)))


def spanned_peak(pk: roofline.Peaks, row: pd.Series, own: bool = False, prompt: bool = False) -> roofline.Peaks:
    """`pk`, one device's peaks, as those of the GPUs that read a row's weights at once (`concurrent`),
    named with their count (`RTX-3090 (8 GPUs)`), or for a prompt (`prompt`) those that compute its
    pipelined micro-batches at once (`pipelined`: `A100 (4 of 8 GPUs at once)`); unchanged for one, an
    unknown device, or the reader's own figures (`own`: they are the run's, however many GPUs it used)."""
    n = concurrent(row)
    if own or pk.source == "unknown" or not pk.device:
        return pk
    piped = pipelined(row) if prompt else 1
    if piped > n:
        spanned = gpus_spanned(row)
        return dataclasses.replace(pk, count=piped, device=f"{pk.device} ({piped} of {spanned} GPUs at once)")
    if n == 1:
        return pk
    return dataclasses.replace(pk, count=n, device=f"{pk.device} ({n} GPUs)")


def in_turn(row: pd.Series) -> int | None:
    """How many GPUs a row's layers are read on one after another: a layer split (`-sm layer`, the
    default) gives each GPU a run of consecutive layers, and a generated token passes through them in
    turn, so one token reads at one GPU's bandwidth at a time and their bandwidths do not add (a row
    split cuts every matrix across the GPUs, which then read at once). None for one GPU or another split."""
    n = gpus_spanned(row)
    return n if n > 1 and split_mode(row) == "layer" else None


def memory_words(row: pd.Series, per_gpu_gb: float) -> str:
    """The GPU memory a row's layers may use, as a page says it: one GPU's, or n x one GPU's."""
    n = gpus_spanned(row)
    return f"{per_gpu_gb:g} GB" if n == 1 else f"{n} x {per_gpu_gb:g} GB"


def points(
    kept: pd.DataFrame,
    gpu: str = "",
    moe_override: dict | None = None,
    peak_bandwidth_gb_s: float = 0.0,
    peak_tflops: float = 0.0,
    sockets: dict | None = None,
) -> pd.DataFrame:
    """Each kept generation row with its device, model size, bytes per token, achieved bandwidth,
    fraction of peak, ceiling, roofline coordinates and offload state; `sockets`, per file, what it says
    of its machine's CPU sockets (`sockets_said`), which bound those a CPU run's threads span.

    Added columns: device, peak_gb_s, peak_tflops, peak_source, ridge, architecture, params_b,
    active_params_b, size_source, file_gib, bytes_per_token, bytes_source, bandwidth_gb_s,
    fraction_of_peak, ceiling_tok_s, intensity_flop_per_byte, achieved_tflops, compute_fraction,
    offload (full / partial / cpu), offload_why, gpu_bytes_per_token (partial offload: at most the
    bytes per token that stream from GPU memory, from the layers -ngl puts there and the GPU's memory;
    experts kept on the CPU only lower it; None where neither bounds it).
    """
    override = override_table(moe_override)
    kept = same_file(kept)
    out = []
    for _, r in kept.iterrows():
        said = (sockets or {}).get(r.get("source"), {}) if r["mode"] == "cpu" else {}
        stated = int(said["sockets_value"]) if said.get("sockets_status") == "stated" else None
        pk = choose_peak(gpu, r, peak_bandwidth_gb_s, peak_tflops, stated)
        pk = spanned_peak(pk, r, own=bool(peak_bandwidth_gb_s or peak_tflops))
        size = row_model_size(override, r)
        gib = r.get("model_size_gib")
        file_bytes = float(gib) * GIB if gib is not None and pd.notna(gib) else None
        total, active = size["params_b"], size["active_params_b"]
        if file_bytes is None or active is None:
            bytes_tok, src = (
                None,
                "unknown (no file size)" if file_bytes is None else "unknown (MoE, active size unknown)",
            )
        elif size["architecture"] in ("moe", hardware.PLE) and total:  # the routed experts, or the per-layer
            bytes_tok = file_bytes * active / total  # embedding rows looked up, not read whole
            share = "effective" if size["architecture"] == hardware.PLE else "active"
            whole = "with per-layer embeddings" if share == "effective" else "total"
            src = f"file size x {active:g}B {share} / {total:g}B {whole} ({size['size_source']})"
        else:
            bytes_tok, src = file_bytes, "file size (dense: every weight read once per token)"
        rate = r["rate"]
        bw = bytes_tok * rate / 1e9 if bytes_tok and rate > 0 else None
        flops_tok = 2 * active * 1e9 if active else None
        why = []
        rpc = rpc_spanned(r, pk)  # layers on RPC servers' devices beside the GPU: not host memory, no one peak
        gpu_bytes = None  # at most this many of the token's bytes stream from GPU memory (partial offload)
        if r["mode"] != "cpu":
            n_layers, _ = layers(r.get("model_file"), r.get("section"), r.get("model"))
            stated = r.get("n_layers")  # llama.cpp's `offloaded N/M layers to GPU`: M counts the output layer
            n_layers = int(stated) - 1 if stated is not None and pd.notna(stated) else n_layers
            ngl = r.get("ngl")
            if ngl is not None and pd.notna(ngl) and int(ngl) >= 0:
                if n_layers is not None and int(ngl) < n_layers + 1:
                    why.append(f"ngl {int(ngl)} < {n_layers} layers + output")
                    gpu_bytes = bytes_tok * int(ngl) / (n_layers + 1) if bytes_tok else None
                elif n_layers is None and int(ngl) < 99:
                    why.append(f"ngl {int(ngl)}{_UNKNOWN_COUNT}")
            ncm = r.get("n_cpu_moe")
            if ncm is not None and pd.notna(ncm) and int(ncm) > 0:
                why.append(f"n_cpu_moe {int(ncm)} expert layers on the CPU")
            held = gpus_spanned(r) * pk.memory_gb if pk.memory_gb else None  # one GPU's memory, times those spanned
            if file_bytes and held and file_bytes > held * 1e9 and not rpc:
                why.append(f"file {file_bytes / 1e9:.1f} GB > {memory_words(r, pk.memory_gb)} of GPU memory")
                if bytes_tok:  # the GPUs hold at most their memory's worth of the file
                    gpu_bytes = min(gpu_bytes or bytes_tok, bytes_tok * held * 1e9 / file_bytes)
        roof = against_roof(pk, bw, bytes_tok, flops_tok, rate)
        if pk.source == "detected" and gpus_unstated(r) or rpc:  # GPUs the input does not count: no share of one's
            roof.update(fraction_of_peak=None, ceiling_tok_s=None, compute_fraction=None)
        out.append(
            {
                **r.to_dict(),
                **device_fields(pk),
                "architecture": size["architecture"],
                "params_b": total,
                "active_params_b": active,
                "size_source": size["size_source"],
                "file_gib": float(gib) if file_bytes else None,
                "bytes_per_token": bytes_tok,
                "bytes_source": src,
                "bandwidth_gb_s": bw,
                **roof,
                "offload": "cpu" if r["mode"] == "cpu" else ("partial" if why or r["mode"] == "partial" else "full"),
                "offload_why": "; ".join(why),
                # partial only as far as nobody knows: an -ngl below 99 and no layer count of the model's
                "offload_unsure": r["mode"] != "partial" and len(why) == 1 and why[0].endswith(_UNKNOWN_COUNT),
                "gpu_bytes_per_token": gpu_bytes,  # set only beside a reason in `why`
                "rpc_spanned": rpc,
                "in_turn": in_turn(r) if r["mode"] != "cpu" else None,
                **{k: said.get(k) for k in SOCKETS_SAID},
            }
        )
    cols = list(kept.columns) + [
        "device",
        "peak_gb_s",
        "peak_tflops",
        "peak_source",
        "ridge",
        "sockets",
        "cpu_threads",
        "architecture",
        "size_source",
        "file_gib",
        "bytes_per_token",
        "bytes_source",
        "bandwidth_gb_s",
        "fraction_of_peak",
        "ceiling_tok_s",
        "intensity_flop_per_byte",
        "achieved_tflops",
        "compute_fraction",
        "offload",
        "offload_why",
        "offload_unsure",
        "gpu_bytes_per_token",
        "rpc_spanned",
        "may_fit_in_cache",
        "llc_unknown",
        "llc_mb",
        "active_params_b",
        "params_b",
        "in_turn",
        *SOCKETS_SAID,
    ]
    res = pd.DataFrame(out, columns=list(dict.fromkeys(cols)))
    num = ["peak_gb_s", "peak_tflops", "ridge", "bytes_per_token", "bandwidth_gb_s", "fraction_of_peak"]
    num += ["ceiling_tok_s", "intensity_flop_per_byte", "achieved_tflops", "compute_fraction", "active_params_b"]
    num += ["params_b", "file_gib"]
    for c in num:
        res[c] = pd.to_numeric(res[c], errors="coerce")
    res["point_label"] = _distinct_labels(res)
    return res.sort_values(["bytes_per_token", "model_key"], na_position="last").reset_index(drop=True)


#: The bits per weight a llama.cpp file type names, for the types well above 4 bits (a file much
#: smaller than its type says keeps its MoE experts in fewer bits, gpt-oss's MXFP4 in an "F16" file).
TYPE_BITS = {"f32": 32.0, "f16": 16.0, "bf16": 16.0, "q8_0": 8.5, "q6_k": 6.5625}


def file_bits_per_param(row) -> float | None:
    """The file's bits per parameter: its size over its parameter count (None where either is unknown)."""
    gib, params = row.get("file_gib"), row.get("params_b")
    if gib is None or params is None or pd.isna(gib) or pd.isna(params) or not params:
        return None
    return float(gib) * GIB * 8 / (float(params) * 1e9)


def experts_smaller(row) -> bool:
    """Whether an MoE file holds far fewer bits per parameter (under 2/3) than its type names: its
    experts are stored smaller than the rest, so scaling the file by the active share undercounts
    the bytes each token reads."""
    bits = file_bits_per_param(row)
    words = re.split(r"[\s_-]+", str(row.get("model") or "").lower())
    named = [TYPE_BITS[w] for w in words if w in TYPE_BITS]
    named += [v for k, v in TYPE_BITS.items() if "_" in k and k in str(row.get("model") or "").lower()]
    return bool(bits and named and bits < max(named) * 2 / 3)


def _distinct_labels(res: pd.DataFrame) -> list[str]:
    """Each point's label, told apart where two points of one model share it: by the engine or build
    (`engines`), by the backend (ROCm and Vulkan on one card), else by the line of the output."""
    base = [label(r) for _, r in res.iterrows()]
    out = list(base)
    for i, (_, r) in enumerate(res.iterrows()):
        twins = [j for j, b in enumerate(base) if b == base[i] and j != i]
        if not twins:
            continue
        backend, engine = _text(r.get("backend")), _text(r.get("engine"))
        if engine and all(_text(res.iloc[j].get("engine")) != engine for j in twins):
            out[i] = f"{base[i]} ({engine.rstrip(':')})"
        elif backend and all(_text(res.iloc[j].get("backend")) != backend for j in twins):
            out[i] = f"{base[i]} ({backend})"
        elif pd.notna(r.get("line")):
            out[i] = f"{base[i]} (line {int(r['line'])})"
    return out


def decode_points(
    df: pd.DataFrame,
    gpu: str = "",
    moe_override: dict | None = None,
    peak_bandwidth_gb_s: float = 0.0,
    peak_tflops: float = 0.0,
) -> pd.DataFrame:
    """`points` for every generation row at depth 0 (no other reduction): what the checks use."""
    rows = generation_rows(df)
    return points(rows[rows["n_depth"] == 0], gpu, moe_override, peak_bandwidth_gb_s, peak_tflops)


def same_file(rows: pd.DataFrame) -> pd.DataFrame:
    """`rows` with the model file of rows that name none taken from the rows of the same model string, file
    size and parameter count that name one: llama-bench prints the `model` type string, `size` and `params`
    of the file it loaded, so rows equal in all three ran one file (a table pasted under a loop's command
    that names its file beside one whose command is not read). Several files of one such key fill none."""
    key = ["model", "model_size_gib", "params_b"]
    if rows.empty or "model_file" not in rows or not set(key) <= set(rows.columns):
        return rows
    out = rows.copy()
    has = out["model_file"].astype("string").fillna("").str.strip().ne("")
    ident = out[key].astype("string").fillna("")
    for k, files in out[has].groupby([ident.loc[has, c] for c in key])["model_file"]:
        if files.nunique() == 1:
            same = (ident == pd.Series(k, index=key)).all(axis=1) & ~has
            out.loc[same, "model_file"] = files.iloc[0]
    return out


def label(row) -> str:
    """A short label for a point: the model file's stem, else the model string (marked when it is a
    vLLM latency run), else the line of the output it came from; a point's own distinct label
    (`point_label`, set by `points`) where it has one."""
    own = row.get("point_label")
    if isinstance(own, str) and own:
        return own
    f = row.get("model_file")
    if isinstance(f, str) and f:
        s = re.sub(r"\.gguf$", "", f)
        return re.sub(r"-0000\d-of-0000\d$", "", s)
    m = row.get("model")
    if isinstance(m, str) and m.strip():
        return f"{m} (vLLM latency)" if row.get("tool") == "vllm-bench-offline" else m
    table = row.get("table_line")
    if table is not None and not pd.isna(table):
        return _table_model(table)
    line = row.get("line")
    return f"the model on line {int(line)}" if line is not None and not pd.isna(line) else "an unnamed model"


def _table_model(line) -> str:
    """The label of the unnamed model of a table whose rows are one run (llama-sweep-bench's), by its header line."""
    return f"the model of the table on line {int(line)}"


# --- vLLM `bench latency` at batch 1 ------------------------------------------------------------------

#: How a vLLM latency point's rate is read, for the page.
LOWER_BOUND = (
    "output_len / mean latency; the latency includes the prefill of the prompt, so this is a lower bound of the "
    "decode rate"
)


def latency_runs(df: pd.DataFrame, names: dict | None = None) -> pd.DataFrame:
    """One row per vLLM `bench latency` run: model, batch size, input/output lengths (`output_len` the
    tokens per sequence its input says it generated, else `asked_len`, the --output-len), tensor parallel
    size, dtype and quantization as printed on its command line, mean latency (s), its line, and
    `why_left_out` (empty for a single-stream run on one device whose weights' bytes are known:
    `precision.weights`, with the names the rest of its file gives the weights, `names`: per source,
    `precision.stated_names`)."""
    names = names or {}
    cols = [
        "source",
        "run",
        "model",
        "batch_size",
        "input_len",
        "output_len",
        "tensor_parallel",
        "dtype",
        "quantization",
        "latency_s",
        "line",
    ]
    if df.empty or "tool" not in df:
        return pd.DataFrame(columns=cols + ["asked_len", "why_left_out"])
    d = df[(df["tool"] == "vllm-bench-offline") & (df["metric"] == "latency") & (df["statistic"] == "mean")]
    if "benchmark" in d:
        d = d[d["benchmark"] == "latency"]
    out = pd.DataFrame({c: d[c] if c in d else np.nan for c in cols[:-2]}, columns=cols)
    out["latency_s"], out["line"] = d["value"], d["line"]
    # the tokens a run generated where its input states them (`generated_len`), else those asked
    made = df[(df["tool"] == "vllm-bench-offline") & (df["metric"] == "generated_len")]
    said = dict(zip(zip(made["source"], made["run"], strict=True), made["value"], strict=True)) if len(made) else {}
    out["asked_len"] = out["output_len"]
    out["output_len"] = [
        said.get((s, r), n) for s, r, n in zip(out["source"], out["run"], out["output_len"], strict=True)
    ]
    why = []
    for _, r in out.iterrows():
        b, tp = r["batch_size"], r["tensor_parallel"]
        if pd.isna(b):
            why.append("its batch size is not printed (vLLM's default is 8)")
        elif b != 1:
            why.append(f"batch {b:g}: each step serves {b:g} sequences, not one stream")
        elif pd.notna(tp) and tp > 1:
            why.append(f"tensor parallel {tp:g}: the weights are split over {tp:g} GPUs")
        elif pd.isna(r["output_len"]) or not r["latency_s"] > 0:
            why.append("its output length or latency is missing")
        elif not isinstance(r["model"], str) or not r["model"].strip():
            why.append("it names no model")
        elif not precision.weights(
            r["model"], r.get("quantization"), r.get("dtype"), stated=names.get(r["source"], ())
        ).known:
            said = (
                f"--quantization {r['quantization']}" if isinstance(r["quantization"], str) else f"--dtype {r['dtype']}"
            )
            why.append(f"{said}: no known bytes per weight")
        else:
            why.append("")
    out["why_left_out"] = why
    return out.reset_index(drop=True)


def latency_points(
    runs: pd.DataFrame,
    gpu: str = "",
    peak_bandwidth_gb_s: float = 0.0,
    peak_tflops: float = 0.0,
    named: dict | None = None,
    names: dict | None = None,
) -> pd.DataFrame:
    """The single-stream runs of `latency_runs` as rows of `points`' table: rate = output_len / mean
    latency (a lower bound of the decode rate: the latency includes the prefill), bytes per token =
    active parameters x bytes per weight of the dtype, against the device given by `gpu` or the peaks,
    else the one the run's file names (`named`: per source, `roofline.named_in_files`; a file that
    names none: unknown, never assumed). `names`: as `latency_runs`."""
    named, names = named or {}, names or {}
    d = runs[runs["why_left_out"] == ""] if len(runs) else runs
    rows = []
    for _, r in d.iterrows():
        printed = {"mode": "gpu", "gpu": roofline.label(named.get(r.get("source")))}
        pk = choose_peak(gpu, printed, peak_bandwidth_gb_s, peak_tflops)
        size = model_size(override_table(None), None, r["model"])
        w = precision.weights(r["model"], r.get("quantization"), r.get("dtype"), stated=names.get(r.get("source"), ()))
        prec, bpw = w.precision, w.bytes_per_weight
        active = size["active_params_b"]
        bytes_tok = active * 1e9 * bpw if active else None
        rate = float(r["output_len"]) / float(r["latency_s"])
        said = ", assumed: vLLM's default --dtype auto loads the checkpoint's dtype" if w.assumed else f": {w.source}"
        bw = bytes_tok * rate / 1e9 if bytes_tok else None
        flops_tok = 2 * active * 1e9 if active else None
        rows.append(
            {
                "tool": "vllm-bench-offline",
                "model": r["model"],
                "test": f"vLLM bench latency, batch 1, {r['input_len']:g} prompt + {r['output_len']:g} new tokens",
                "line": int(r["line"]),
                "rate": rate,
                "rate_std": np.nan,
                "rate_kind": "lower bound",
                "latency_s": float(r["latency_s"]),
                "output_len": float(r["output_len"]),
                "input_len": float(r["input_len"]),
                "mode": "gpu",
                "model_key": r["model"],
                **device_fields(pk),
                "architecture": size["architecture"],
                "params_b": size["params_b"],
                "active_params_b": active,
                "size_source": size["size_source"],
                "file_gib": np.nan,
                "bytes_per_token": bytes_tok,
                "bytes_source": f"{active:g}B active params x {bpw:g} bytes ({prec}{said})" if active else "unknown",
                "precision_source": w.source,
                "bandwidth_gb_s": bw,
                **against_roof(pk, bw, bytes_tok, flops_tok, rate),
                "offload": "full",
                "offload_why": "",
            }
        )
    res = pd.DataFrame(rows)
    for c in ("peak_gb_s", "peak_tflops", "ridge", "bytes_per_token", "bandwidth_gb_s", "fraction_of_peak"):
        if c in res:
            res[c] = pd.to_numeric(res[c], errors="coerce")
    return res


def throughput_runs(
    df: pd.DataFrame,
    gpu: str = "",
    peak_bandwidth_gb_s: float = 0.0,
    peak_tflops: float = 0.0,
    named: dict | None = None,
    names: dict | None = None,
) -> pd.DataFrame:
    """One row per vLLM `bench throughput` run: a batched run (the engine schedules all its prompts at
    once), never a single-stream point. Its output tok/s over one read of the weights per step: one
    stream at that rate would need `single_stream_gb_s` (weights x tok/s); the engine reads each
    weight once per step for every sequence of the step, so a token costs the weights / the batch.
    `generated_len`: the output tokens per prompt the tool's own `Total num output tokens` gives (NaN where
    it prints none), which the engine may end short of `--output-len` (an EOS, a model's length limit).
    Against a known device: `bytes_per_token_at_peak` (the most weight bytes a token can cost at the
    peak bandwidth) and `min_batch` (weights x tok/s / peak: the fewest sequences per step that
    rate needs). NaN where the model's size or the device is unknown. The device: `gpu` or the peaks,
    else the one the run's file names; `named` and `names` as `latency_points`."""
    named, names = named or {}, names or {}
    cols = ["run", "model", "num_prompts", "input_len", "output_len", "tensor_parallel", "dtype", "line"]
    out_cols = cols + ["output_tok_s", "total_tok_s", "request_rate", "precision", "dtype_assumed", "precision_source"]
    out_cols += ["bytes_per_weight", "generated_len"]
    out_cols += ["weight_gb", "single_stream_gb_s", "device", "peak_gb_s", "bytes_per_token_at_peak", "min_batch"]
    if df.empty or "tool" not in df or "benchmark" not in df:
        return pd.DataFrame(columns=out_cols)
    d = df[(df["tool"] == "vllm-bench-offline") & (df["benchmark"] == "throughput")]
    rows = []
    for _, g in d.groupby(["source", "run"], sort=False):
        val = {
            (m, st): (x, ln) for m, st, x, ln in zip(g["metric"], g["statistic"], g["value"], g["line"], strict=True)
        }
        out = val.get(("throughput", "value"), (np.nan, None))
        if not np.isfinite(out[0]):
            continue  # the old two-value line prints no output tok/s: nothing to place
        r = {c: g[c].iat[0] if c in g else np.nan for c in cols[:-1]}
        source = g["source"].iat[0]
        quant = g["quantization"].iat[0] if "quantization" in g else None
        w = precision.weights(r["model"], quant, r["dtype"], stated=names.get(source, ()))
        prec, bpw = w.precision, w.bytes_per_weight
        active = model_size(override_table(None), None, r["model"])["active_params_b"] if r["model"] else None
        weight_gb = active * bpw if active else np.nan
        tp = r["tensor_parallel"] if pd.notna(r["tensor_parallel"]) and r["tensor_parallel"] > 1 else 1
        pk = choose_peak(
            gpu, {"mode": "gpu", "gpu": roofline.label(named.get(source))}, peak_bandwidth_gb_s, peak_tflops
        )
        peak = pk.total_bandwidth_gb_s * tp if pk.total_bandwidth_gb_s else np.nan  # TP n: n devices' bandwidth
        rows.append(
            {
                **r,
                "line": int(out[1]),
                "output_tok_s": float(out[0]),
                "total_tok_s": val.get(("total_token_throughput", "value"), (np.nan,))[0],
                "generated_len": val.get(("total_generated_tokens", "count"), (np.nan,))[0] / r["num_prompts"],
                "request_rate": val.get(("request_throughput", "value"), (np.nan,))[0],
                "precision": prec,
                "dtype_assumed": w.assumed,
                "precision_source": w.source,
                "bytes_per_weight": bpw,
                "weight_gb": weight_gb,
                "single_stream_gb_s": weight_gb * float(out[0]),
                "device": pk.device if pk.total_bandwidth_gb_s else None,
                "peak_gb_s": peak,
                "bytes_per_token_at_peak": peak / float(out[0]),
                "min_batch": weight_gb * float(out[0]) / peak,
            }
        )
    return pd.DataFrame(rows, columns=out_cols)


def against_roof(pk: roofline.Peaks, bw, bytes_tok, flops_tok, rate) -> dict:
    """One point's place under the device's roofs and its cache: the share of the bandwidth peak, the
    rate that peak allows, intensity, compute and its share of the fp16 peak (None where unknown)."""
    bw_peak, tf_peak = pk.total_bandwidth_gb_s, pk.peak_tflops("fp16")
    return {
        "fraction_of_peak": bw / bw_peak if bw and bw_peak else None,
        "ceiling_tok_s": bw_peak * 1e9 / bytes_tok if bytes_tok and bw_peak else None,
        "intensity_flop_per_byte": flops_tok / bytes_tok if flops_tok and bytes_tok else None,
        "achieved_tflops": flops_tok * rate / 1e12 if flops_tok else None,
        "compute_fraction": flops_tok * rate / 1e12 / tf_peak if flops_tok and tf_peak else None,
        "may_fit_in_cache": fits_in_cache(bytes_tok, pk),
        "llc_unknown": llc_unknown(bytes_tok, pk),
        "llc_mb": pk.total_llc_mb,
    }


def fits_in_cache(bytes_per_token: float | None, pk: roofline.Peaks) -> bool:
    """Whether the weights one token reads fit in the device's last-level cache (`llc_mb` of
    data/hardware.csv), so that its generation need not stream them from memory once per token.
    A device whose cache is unknown is not assumed to hold them."""
    return bool(bytes_per_token is not None and pk.total_llc_mb and bytes_per_token < pk.total_llc_mb * 1e6)


def llc_unknown(bytes_per_token: float | None, pk: roofline.Peaks) -> bool:
    """Whether cache residence cannot be judged: the device is known but the hardware table has no
    last-level cache for it (`llc_mb` blank), and the weights one token reads are small enough to fit
    in the largest cache of any device in the table. Neither fitting nor streaming is assumed."""
    return bool(
        bytes_per_token is not None
        and pk.source != "unknown"
        and pk.device
        and not pk.total_llc_mb
        and bytes_per_token < hardware.largest_llc_mb() * pk.count * 1e6
    )


def device_fields(pk) -> dict:
    """The device columns of a placed point: name, peaks, where they came from, and the ridge."""
    return {
        "device": pk.device,
        "peak_gb_s": pk.total_bandwidth_gb_s,
        "peak_tflops": pk.peak_tflops("fp16"),
        "peak_source": pk.source,
        "ridge": pk.ridge("fp16"),
        "sockets": pk.count,
        "cpu_threads": pk.total_threads,
    }
