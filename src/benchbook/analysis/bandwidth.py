"""The decode bandwidth roofline: how close single-stream generation comes to streaming the weights
at the GPU's peak memory bandwidth.

Generating one token at batch 1 reads every weight the token touches once; attention over a short
KV cache (llama-bench's tg128 starts from an empty cache) adds little. So

    bytes per token   = model file size                              (dense)
                      = file size x active params / total params     (MoE: only the routed experts)
    achieved GB/s     = bytes per token x tg rate (tok/s) / 1e9
    fraction of peak  = achieved / the GPU's memory bandwidth (data/hardware.csv)
    ceiling (tok/s)   = peak bandwidth / bytes per token

The MoE share assumes every parameter is stored at the same bits per weight (attention and shared
weights are often kept at higher precision, so the true bytes are a little higher). A partly
offloaded model (ngl below its layer count, or a file larger than the GPU's memory) streams part of
its weights from system RAM, so its "achieved bandwidth" is a mixture and is marked.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from benchbook.analysis import roofline
from benchbook.chapter import fmt
from benchbook.presentation.plotting import message_figure

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
}

#: What the figures show when the input has no generation result to place.
NO_RESULTS = "no generation results"

#: What llama-bench prints as the device name -> the row of data/hardware.csv.
GPU_ALIASES = {
    "rtx pro 6000 blackwell workstation": "RTX-PRO-6000-Blackwell-WS",
    "a100-sxm4-80gb": "A100-SXM4-80GB",
    "a100 80gb": "A100-SXM4-80GB",
    "a100-sxm4-40gb": "A100-SXM4-40GB",
    "h100 80gb hbm3": "H100-SXM5-80GB",
    "h100-sxm5-80gb": "H100-SXM5-80GB",
}

GIB = 1024**3


def hardware_name(gpu_info: str | None) -> str | None:
    """The hardware-table name of a device string such as 'NVIDIA RTX PRO 6000 Blackwell Workstation Edition'."""
    if not gpu_info or not isinstance(gpu_info, str):
        return None
    s = gpu_info.lower()
    for key, name in GPU_ALIASES.items():
        if key in s:
            return name
    table = roofline.hardware_table()
    for name in table["gpu"]:
        if name.lower() in s:
            return name
    return None


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


def moe_table(override: dict | None = None) -> pd.DataFrame:
    """Mixture-of-experts models: pattern, params_b, active_params_b, source. From data/models.csv
    (architecture == moe), then `override` {pattern: active_params_b or (active, total)} on top."""
    t = roofline.model_table()
    t = t[t["architecture"] == "moe"][["model_pattern", "params_b", "active_params_b", "source"]].copy()
    for pattern, v in (override or {}).items():
        active, total = v if isinstance(v, (list, tuple)) else (v, None)
        row = {
            "model_pattern": pattern,
            "params_b": total if total is not None else np.nan,
            "active_params_b": float(active),
            "source": "chapter parameter moe_active_params",
        }
        t = pd.concat([t[t["model_pattern"].str.lower() != pattern.lower()], pd.DataFrame([row])], ignore_index=True)
    return t.reset_index(drop=True)


def _norm(s: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", s.lower())


def _moe_match(moe: pd.DataFrame, *names) -> pd.Series | None:
    for _, r in moe.assign(n=moe["model_pattern"].str.len()).sort_values("n", ascending=False).iterrows():
        pat = _norm(r["model_pattern"])
        if any(isinstance(n, str) and pat in _norm(n) for n in names):
            return r
    return None


def decode_points(df: pd.DataFrame, gpu: str, moe_override: dict | None = None) -> pd.DataFrame:
    """One row per generation (tg) measurement: bytes per token, achieved bandwidth and its fraction
    of `gpu`'s peak, the ceiling rate, the roofline coordinates, and whether the model was partly
    offloaded.

    Columns: model, model_file, section, test, power_limit_w, ngl, rate, rate_std, params_b,
    active_params_b, architecture, file_gib, bytes_per_token, bytes_source, bandwidth_gb_s,
    fraction_of_peak, ceiling_tok_s, intensity_flop_per_byte, achieved_tflops, offload, offload_why, line.
    """
    g = roofline.gpu(gpu)
    moe = moe_table(moe_override)
    d = df[(df["metric"] == "tg_rate") & df["statistic"].isin(["mean", "std"]) & (df["n_depth"].fillna(0) == 0)]
    keys = ["model", "model_file", "section", "test", "power_limit_w", "ngl", "n_cpu_moe", "model_size_gib", "params_b"]
    rows = []
    for _, grp in d.groupby(keys, dropna=False, sort=False):
        mean = grp[grp["statistic"] == "mean"]
        if mean.empty or not np.isfinite(mean["value"].iloc[0]):
            continue
        r = mean.iloc[0]
        std = grp[grp["statistic"] == "std"]["value"]
        size_gib = r["model_size_gib"]
        if pd.isna(size_gib):
            continue
        total = float(r["params_b"]) if pd.notna(r["params_b"]) else np.nan
        hit = _moe_match(moe, r["model"], r["model_file"], r["section"])
        if hit is not None:
            tot = hit["params_b"] if pd.notna(hit["params_b"]) else total
            share = float(hit["active_params_b"]) / float(tot)
            active = float(hit["active_params_b"])
            arch = "moe"
            src = f"file size x {active:g}B active / {float(tot):g}B total ({hit['source']})"
        else:
            share, active, arch = 1.0, total, "dense"
            src = "file size (dense: every weight read once per token)"
        bytes_tok = float(size_gib) * GIB * share
        rate = float(r["value"])
        bw = roofline.achieved_bandwidth_gb_s(bytes_tok, 1 / rate) if rate > 0 else np.nan
        n_layers, _ = layers(r["model_file"], r["section"], r["model"])
        why = []
        ngl = r["ngl"]
        if pd.notna(ngl) and int(ngl) >= 0:
            if n_layers is not None and int(ngl) < n_layers + 1:
                why.append(f"ngl {int(ngl)} < {n_layers} layers + output")
            elif n_layers is None and int(ngl) < 99:
                why.append(f"ngl {int(ngl)} (layer count unknown)")
        if pd.notna(r["n_cpu_moe"]) and int(r["n_cpu_moe"]) > 0:
            why.append(f"n_cpu_moe {int(r['n_cpu_moe'])} expert layers on the CPU")
        if float(size_gib) * GIB > g.memory_gb * 1e9:
            why.append(f"file {float(size_gib) * GIB / 1e9:.1f} GB > {g.memory_gb:g} GB of GPU memory")
        flops_tok = 2 * active * 1e9 if np.isfinite(active) else np.nan
        rows.append(
            {
                "model": r["model"],
                "model_file": r["model_file"],
                "section": r["section"],
                "test": r["test"],
                "power_limit_w": r["power_limit_w"],
                "ngl": ngl,
                "rate": rate,
                "rate_std": float(std.iloc[0]) if len(std) else np.nan,
                "params_b": total,
                "active_params_b": active,
                "architecture": arch,
                "file_gib": float(size_gib),
                "bytes_per_token": bytes_tok,
                "bytes_source": src,
                "bandwidth_gb_s": bw,
                "fraction_of_peak": bw / g.bandwidth_gb_s,
                "ceiling_tok_s": g.bandwidth_gb_s * 1e9 / bytes_tok,
                "intensity_flop_per_byte": flops_tok / bytes_tok,
                "achieved_tflops": flops_tok * rate / 1e12,
                "offload": "partial" if why else "full",
                "offload_why": "; ".join(why),
                "line": int(r["line"]),
            }
        )
    return pd.DataFrame(rows)


def one_per_model(points: pd.DataFrame) -> pd.DataFrame:
    """Keep, per model file (or model), the run at the highest power limit (rows with no limit count
    as the card's default)."""
    if points.empty:
        return points
    p = points.copy()
    p["_key"] = p["model_file"].fillna(p["model"]).fillna("?")
    p["_pw"] = p["power_limit_w"].fillna(np.inf)
    p = p.sort_values(["_key", "_pw"], ascending=[True, False]).groupby("_key", sort=False).head(1)
    return p.drop(columns=["_key", "_pw"]).sort_values("bytes_per_token").reset_index(drop=True)


def label(row) -> str:
    """A short label for a point: the model file's stem, else the model string."""
    f = row.get("model_file")
    if isinstance(f, str) and f:
        s = re.sub(r"\.gguf$", "", f)
        return re.sub(r"-0000\d-of-0000\d$", "", s)
    return str(row.get("model"))


def plot_ceiling(ax, points: pd.DataFrame, g: roofline.GPU) -> None:
    """Generation rate vs GB read per token (log-log) under the line rate = peak bandwidth / bytes."""
    from benchbook.presentation.plotting import color

    x = np.logspace(
        np.log10(max(points["bytes_per_token"].min() / 1e9 / 2, 0.05)),
        np.log10(points["bytes_per_token"].max() / 1e9 * 2),
        100,
    )
    ax.plot(x, g.bandwidth_gb_s / x, color="black", lw=2, label=f"{g.bandwidth_gb_s:,.0f} GB/s ceiling ({g.name})")
    ax.plot(x, 0.5 * g.bandwidth_gb_s / x, color="grey", ls="--", lw=1, label="50% of peak")
    styles = {
        ("dense", "full"): ("o", 0),
        ("moe", "full"): ("s", 1),
        ("dense", "partial"): ("X", 3),
        ("moe", "partial"): ("X", 4),
    }
    seen = set()
    for _, r in points.iterrows():
        marker, c = styles[(r["architecture"], r["offload"])]
        key = (r["architecture"], r["offload"])
        lab = f"{r['architecture']}, {'partly offloaded' if r['offload'] == 'partial' else 'all on GPU'}"
        ax.scatter(
            r["bytes_per_token"] / 1e9,
            r["rate"],
            marker=marker,
            s=70,
            color=color(c),
            zorder=3,
            label=lab if key not in seen else None,
        )
        seen.add(key)
        ax.annotate(
            label(r), (r["bytes_per_token"] / 1e9, r["rate"]), textcoords="offset points", xytext=(5, 4), fontsize=7
        )
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("bytes read per generated token (GB)")
    ax.set_ylabel("generation rate (tok/s)")
    ax.legend(fontsize=8)


def plot_fraction(ax, points: pd.DataFrame) -> None:
    """Achieved bandwidth as a fraction of peak, one bar per model."""
    from benchbook.presentation.plotting import color

    p = points.sort_values("fraction_of_peak")
    colors = [
        color(3) if o == "partial" else color(1) if a == "moe" else color(0)
        for a, o in zip(p["architecture"], p["offload"], strict=True)
    ]
    ax.barh([label(r) for _, r in p.iterrows()], 100 * p["fraction_of_peak"], color=colors)
    ax.axvline(100, color="black", lw=1)
    ax.set_xlabel("achieved bandwidth (% of peak)")
    ax.set_xlim(0, 105)


def input_prose(pts: pd.DataFrame, g: roofline.GPU) -> dict[str, str]:
    """n_models, params_range (empty unless two or more sizes are known) and the GPU's name,
    bandwidth and memory, for the chapter's input line."""
    sizes = pts["params_b"].dropna() if len(pts) else pts
    return {
        "n_models": str(len(pts)),
        "params_range": f", from {sizes.min():g} to {sizes.max():g} billion parameters" if len(sizes) > 1 else "",
        "gpu_name": g.name,
        "gpu_bw": f"{g.bandwidth_gb_s:,.0f} GB/s",
        "gpu_mem": f"{g.memory_gb:g} GB",
    }


def coverage_note(n_models: int) -> str | None:
    """What the chapter says up front when the input cannot support a comparison of models; None
    when it can."""
    if n_models == 0:
        return (
            "**The input holds no generation (tg) result with a model size**, so there is nothing to "
            "place under the roofline; run llama-bench with `-n 128` (the default)."
        )
    if n_models == 1:
        return (
            "**The input holds one model only**: the chapter shows where it sits, but cannot compare "
            "models of different sizes or architectures."
        )
    return None


def device_note(df: pd.DataFrame, gpu_name: str) -> str | None:
    """A warning when the input names a device other than the GPU compared with (the fractions of
    peak would be meaningless); None when they match or the input names none."""
    device = df["gpu"].dropna().iloc[0] if df["gpu"].notna().any() else None
    if device and hardware_name(device) != gpu_name:
        return (
            f"Note: the input names the device `{device}`, but the chapter compares with `{gpu_name}` "
            "(parameter `gpu`); the fractions of peak are only meaningful for the GPU the runs used."
        )
    return None


def bytes_table(pts: pd.DataFrame) -> pd.DataFrame:
    """Bytes read per token per model, with the parameter counts and how the bytes were counted."""
    show = pts.assign(label=[label(r) for _, r in pts.iterrows()], gb_per_token=pts["bytes_per_token"] / 1e9)
    cols = ["label", "architecture", "file_gib", "params_b", "active_params_b", "gb_per_token", "bytes_source"]
    return (
        show[cols]
        .rename(
            columns={
                "file_gib": "file (GiB)",
                "params_b": "params (B)",
                "active_params_b": "active (B)",
                "gb_per_token": "GB read / token",
                "bytes_source": "how",
            }
        )
        .round(3)
    )


def ceiling_prose(pts: pd.DataFrame) -> dict[str, str]:
    """best_* (dense, fully on the GPU, highest fraction of peak), dense_range, small_* (the smallest
    such model), moe_list and partial_list; "n/a" or "none in this input" where the input has none."""
    if len(pts):
        dense_full = pts[(pts["architecture"] == "dense") & (pts["offload"] == "full")]
        moe = pts[pts["architecture"] == "moe"]
        partial = pts[pts["offload"] == "partial"]
    else:
        dense_full = moe = partial = pts
    best = dense_full.loc[dense_full["fraction_of_peak"].idxmax()] if len(dense_full) else None
    small = dense_full.loc[dense_full["bytes_per_token"].idxmin()] if len(dense_full) else None
    frac = dense_full["fraction_of_peak"] if len(dense_full) else None
    return {
        "best_model": label(best) if best is not None else "n/a",
        "best_frac": fmt(best["fraction_of_peak"] if best is not None else None, ".0%"),
        "best_gbs": fmt(best["bandwidth_gb_s"] if best is not None else None, ",.0f", " GB/s"),
        "dense_range": f"{frac.min():.0%} to {frac.max():.0%}" if frac is not None else "n/a",
        "small_model": label(small) if small is not None else "n/a",
        "small_frac": fmt(small["fraction_of_peak"] if small is not None else None, ".0%"),
        "small_rate": fmt(small["rate"] if small is not None else None, ".1f", " tok/s"),
        "small_ceiling": fmt(small["ceiling_tok_s"] if small is not None else None, ".0f", " tok/s"),
        "moe_list": ", ".join(f"{label(r)} {r['fraction_of_peak']:.0%}" for _, r in moe.iterrows())
        or "none in this input",
        "partial_list": "; ".join(
            f"{label(r)} ({r['offload_why']}): {r['rate']:.2f} tok/s, {r['fraction_of_peak']:.0%} of peak"
            for _, r in partial.iterrows()
        )
        or "none in this input",
    }


def roofline_prose(pts: pd.DataFrame, g: roofline.GPU) -> dict[str, str]:
    """intensity (the range of the points, "n/a" without any) and the ridge of `g`."""
    i = pts["intensity_flop_per_byte"] if len(pts) else None
    return {
        "intensity": f"{i.min():.1f} to {i.max():.1f} FLOP/byte" if i is not None else "n/a",
        "ridge": f"{g.ridge_flop_per_byte:.0f} FLOP/byte",
    }


def ceiling_figure(points: pd.DataFrame, g: roofline.GPU):
    """`plot_ceiling` as a Figure (a message when there are no points)."""
    import matplotlib.pyplot as plt

    if points.empty:
        return message_figure(NO_RESULTS)
    fig, ax = plt.subplots(figsize=(8, 5))
    plot_ceiling(ax, points, g)
    ax.set_title(f"Generation rate vs bytes per token on the {g.name}")
    fig.tight_layout()
    return fig


def fraction_figure(points: pd.DataFrame):
    """`plot_fraction` as a Figure, tall enough for one bar per model (a message when there are none)."""
    import matplotlib.pyplot as plt

    if points.empty:
        return message_figure(NO_RESULTS)
    fig, ax = plt.subplots(figsize=(7.5, max(2.5, 0.8 + 0.45 * len(points))))
    plot_fraction(ax, points)
    ax.set_title("Achieved bandwidth as a share of peak")
    fig.tight_layout()
    return fig


def roofline_figure(points: pd.DataFrame, g: roofline.GPU):
    """The generation points on `g`'s roofline, labelled per model (a message when there are none)."""
    import matplotlib.pyplot as plt

    if points.empty:
        return message_figure(NO_RESULTS)
    fig, ax = plt.subplots(figsize=(8, 5))
    show = points.assign(label=[label(r) for _, r in points.iterrows()])
    roofline.plot_roofline(ax, g, show, hue_col="label", xlim=(0.5, 1000))
    ax.set_title(f"Generation on the {g.name} roofline (2 FLOP per active parameter per token)")
    fig.tight_layout()
    return fig
