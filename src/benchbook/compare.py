"""Compare two runs of the same tool side by side: B/A ratios and overlaid curves.

Generic over tools through the tidy contract (`benchbook.ingest.read`): a number in run A is
matched with the number in run B that has the same settings, metric, statistic and unit. Which
settings identify a measurement is decided from the data, not per tool:

* a setting that is constant inside each run (the model, the GPU, a power limit, a section
  title) describes the run, not the measurement; when A and B differ on it, it is what the
  comparison is about, and it is reported in the header;
* a setting that varies inside a run (batch size, TP, sequence length) is part of the key;
* a text setting that varies but is fully determined by the other keys (a section title
  "TP 2" beside tp = 2) is dropped from the key, so files that label sections differently still
  match.

Repeated measurements with the same key in one run are averaged (and counted).
"""

from __future__ import annotations

import base64
import html
import io
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from benchbook import config
from benchbook.analysis.compare import as_key as _as_key
from benchbook.analysis.compare import choose_keys

#: Statistic shown in the curves, by preference.
_CURVE_STATS = ["mean", "value", "median", "p50", "p90", "p99", "max", "min"]
#: Statistics of spread or count: no run is "better" for being larger.
_SPREAD_STATS = {"std", "count"}
_LOWER_BETTER_UNITS = {"ms", "s", "us", "µs", "ns", "min", "W", "J", "GiB", "GB", "MiB"}


class CompareError(ValueError):
    """Two inputs that cannot be compared (no common tool, nothing matches), said in one sentence."""


@dataclass
class Comparison:
    """The result of comparing run A with run B for one tool."""

    tool: str
    labels: tuple[str, str]
    keys: list[str]
    run_settings: pd.DataFrame  # setting, A, B (the constant-per-run settings, with the ones that differ)
    ratios: pd.DataFrame  # keys..., metric, statistic, unit, A, B, ratio, n_A, n_B, better
    only_a: pd.DataFrame
    only_b: pd.DataFrame
    figures: dict[str, object] = field(default_factory=dict)


def _keyed(df: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    t = pd.DataFrame({k: _as_key(df[k]) if k in df else "" for k in keys})
    for c in ("metric", "statistic", "unit"):
        t[c] = df[c].astype(str).values
    t["value"] = df["value"].astype(float).values
    group = keys + ["metric", "statistic", "unit"]
    return t.groupby(group, dropna=False, sort=False)["value"].agg(value="mean", n="count").reset_index()


def better(unit: str, ratio: float) -> str:
    """Which run is better for this number, judged by its unit: times, energy and memory are
    better lower, rates better higher. '' when the unit does not say or the ratio is 1 or NaN."""
    if not np.isfinite(ratio) or ratio == 1:
        return ""
    lower = unit in _LOWER_BETTER_UNITS
    higher = "/s" in unit or unit in {"TFLOP/s", "GB/s", "tok/s/W"} or unit.endswith("/W")
    if not (lower or higher):
        return ""
    return "B" if (ratio < 1) == lower else "A"


def compare_tables(a: pd.DataFrame, b: pd.DataFrame, tool: str, labels: tuple[str, str]) -> Comparison:
    """Compare the tidy tables of one tool from two runs."""
    a = a[a["tool"] == tool]
    b = b[b["tool"] == tool]
    keys, per_run = choose_keys(a, b)
    ka, kb = _keyed(a, keys), _keyed(b, keys)
    base = ["metric", "statistic", "unit"]
    # a key that one run never fills (a section title only A has) cannot match: it labels rows;
    # a label that makes rows ambiguous on the remaining keys leaves those rows unmatched
    match = [k for k in keys if (ka[k] != "").any() and (kb[k] != "").any()]
    labels_only = [k for k in keys if k not in match]
    on = match + base
    amb_a = ka.duplicated(on, keep=False)
    amb_b = kb.duplicated(on, keep=False)
    m = ka[~amb_a].merge(kb[~amb_b], on=on, how="outer", suffixes=("_A", "_B"), indicator=True)
    for k in labels_only:
        m[k] = m[f"{k}_A"].where(m[f"{k}_A"].fillna("") != "", m[f"{k}_B"]).fillna("")
    on = keys + base
    both = m[m["_merge"] == "both"].copy()
    if both.empty:
        raise CompareError(
            f"no {tool} measurement of {labels[0]} has the same settings, metric and statistic as one of "
            f"{labels[1]} (settings compared: {', '.join(match) or 'none'})"
        )
    both = both.rename(columns={"value_A": "A", "value_B": "B"})
    with np.errstate(divide="ignore", invalid="ignore"):
        both["ratio"] = np.where(both["A"] != 0, both["B"] / both["A"], np.nan)
    both["better"] = [
        better(u, r) if st not in _SPREAD_STATS else ""
        for u, r, st in zip(both["unit"], both["ratio"], both["statistic"], strict=True)
    ]
    ratios = both[on + ["A", "B", "ratio", "n_A", "n_B", "better"]].reset_index(drop=True)
    ratios["n_A"] = ratios["n_A"].astype(int)
    ratios["n_B"] = ratios["n_B"].astype(int)
    only_a = pd.concat([m[m["_merge"] == "left_only"][on], ka[amb_a][on]], ignore_index=True)
    only_b = pd.concat([m[m["_merge"] == "right_only"][on], kb[amb_b][on]], ignore_index=True)
    rows = []
    for c in per_run:
        va = sorted(set(_as_key(a[c]))) if c in a else [""]
        vb = sorted(set(_as_key(b[c]))) if c in b else [""]
        rows.append({"setting": c, "A": ", ".join(va), "B": ", ".join(vb), "differs": va != vb})
    run_settings = pd.DataFrame(rows, columns=["setting", "A", "B", "differs"])
    return Comparison(tool, labels, keys, run_settings, ratios, only_a, only_b)


def compare_files(
    path_a: str | Path, path_b: str | Path, tool: str | None = None, labels: tuple[str, str] | None = None
) -> list[Comparison]:
    """Compare two raw files (any tool the parsers know), one Comparison per tool they share."""
    from benchbook import ingest

    pa, pb = config.resolve(path_a), config.resolve(path_b)
    a, b = ingest.read(pa, tool), ingest.read(pb, tool)
    labels = labels or (pa.name, pb.name)
    if labels[0] == labels[1]:
        labels = (f"A: {labels[0]}", f"B: {labels[1]}")
    common = [t for t in dict.fromkeys(a["tool"]) if t in set(b["tool"])]
    if not common:
        raise CompareError(
            f"{pa.name} holds {', '.join(sorted(set(a['tool'])))} output and {pb.name} holds "
            f"{', '.join(sorted(set(b['tool'])))}: compare two runs of the same tool"
        )
    out = []
    for t in common:
        c = compare_tables(a, b, t, labels)
        c.figures = curves(c)
        out.append(c)
    return out


# --------------------------------------------------------------------------------------------
# Figures
# --------------------------------------------------------------------------------------------


def _numeric(s: pd.Series) -> pd.Series:
    return pd.to_numeric(s.replace("", np.nan), errors="coerce")


def curves(c: Comparison, max_lines: int = 8) -> dict[str, object]:
    """One figure per metric: A solid, B dashed, over the numeric key setting with the most values
    (log scale when it spans more than 8x); one colour per combination of the other keys. A metric
    with no numeric key is drawn as paired dots per setting."""
    import matplotlib.pyplot as plt

    from benchbook.presentation.plotting import PALETTE, use_theme

    use_theme()
    figs = {}
    r = c.ratios
    for metric, g in r.groupby("metric", sort=False):
        stat = next((s for s in _CURVE_STATS if s in set(g["statistic"])), g["statistic"].iloc[0])
        g = g[g["statistic"] == stat]
        unit = g["unit"].iloc[0]
        g = g[g["unit"] == unit]
        varying = [k for k in c.keys if g[k].nunique() > 1]
        numeric = [k for k in varying if _numeric(g[k]).notna().all()]
        fig, ax = plt.subplots(figsize=(7.5, 4.5))
        if numeric:
            x = max(numeric, key=lambda k: g[k].nunique())
            others = [k for k in varying if k != x]
            groups = list(g.groupby(others, sort=True)) if others else [((), g)]
            for i, (name, sub) in enumerate(groups[:max_lines]):
                sub = sub.assign(_x=_numeric(sub[x])).sort_values("_x")
                name = name if isinstance(name, tuple) else (name,)
                tag = ", ".join(f"{k}={v}" for k, v in zip(others, name, strict=True))
                col = PALETTE[i % len(PALETTE)]
                ax.plot(sub["_x"], sub["A"], "-o", color=col, label=f"{c.labels[0]}" + (f" ({tag})" if tag else ""))
                ax.plot(sub["_x"], sub["B"], "--s", color=col, label=f"{c.labels[1]}" + (f" ({tag})" if tag else ""))
            xs = _numeric(g[x])
            if xs.min() > 0 and xs.max() / xs.min() > 8:
                ax.set_xscale("log", base=2)
            ax.set_xlabel(x.replace("_", " "))
            if len(groups) > max_lines:
                ax.set_title(f"{metric} ({stat}); first {max_lines} of {len(groups)} setting groups", fontsize=11)
            else:
                ax.set_title(f"{metric} ({stat})")
        else:
            lab = (g[varying].astype(str).agg(", ".join, axis=1) if varying else pd.Series(["all"] * len(g))).values
            lab = lab[:30]
            pos = np.arange(len(lab))
            ax.barh(pos - 0.2, g["A"].values[:30], height=0.4, color=PALETTE[0], label=c.labels[0])
            ax.barh(pos + 0.2, g["B"].values[:30], height=0.4, color=PALETTE[1], label=c.labels[1], hatch="//")
            ax.set_yticks(pos, lab)
            ax.invert_yaxis()
            ax.set_title(f"{metric} ({stat})")
            ax.set_xlabel(f"{metric.replace('_', ' ')} ({unit})")
            fig.set_size_inches(7.5, max(2.2, 0.5 * len(lab) + 1.5))
        if numeric:
            ax.set_ylabel(f"{metric.replace('_', ' ')} ({unit})")
            vals = pd.concat([g["A"], g["B"]]).dropna()
            if len(vals) and vals.min() > 0 and vals.max() / vals.min() > 100:
                ax.set_yscale("log")
        ax.legend(fontsize=8, loc="best")
        fig.tight_layout()
        figs[metric] = fig
        plt.close(fig)
    return figs


# --------------------------------------------------------------------------------------------
# Report
# --------------------------------------------------------------------------------------------


_SUMMARY_COLUMNS = ["metric", "statistic", "unit", "matched", "geomean B/A", "min B/A", "max B/A", "better"]


def metric_summary(c: Comparison) -> pd.DataFrame:
    """Per metric and statistic: how many matched, and the geometric mean, min and max of B/A.
    Ratios that are not finite and positive (A or B zero) are left out, so it can be empty."""
    r = c.ratios[np.isfinite(c.ratios["ratio"]) & (c.ratios["ratio"] > 0)]
    rows = []
    for (metric, stat, unit), g in r.groupby(["metric", "statistic", "unit"], sort=False):
        rows.append(
            {
                "metric": metric,
                "statistic": stat,
                "unit": unit,
                "matched": len(g),
                "geomean B/A": float(np.exp(np.log(g["ratio"]).mean())),
                "min B/A": float(g["ratio"].min()),
                "max B/A": float(g["ratio"].max()),
                "better": "" if stat in _SPREAD_STATS else better(unit, float(np.exp(np.log(g["ratio"]).mean()))),
            }
        )
    return pd.DataFrame(rows, columns=_SUMMARY_COLUMNS)


def summary_lines(results: list[Comparison]) -> list[str]:
    """A few lines for the terminal."""
    lines = []
    for c in results:
        diff = c.run_settings[c.run_settings["differs"]]
        what = "; ".join(f"{r.setting}: {r.A} -> {r.B}" for r in diff.itertuples()) or "no run setting differs"
        lines.append(
            f"{c.tool}: {len(c.ratios)} numbers matched, {len(c.only_a)} only in A, {len(c.only_b)} only in B ({what})"
        )
        s = metric_summary(c)
        stat_pref = {s: i for i, s in enumerate(_CURVE_STATS)}
        s = s.assign(_o=s["statistic"].map(stat_pref).fillna(99)).sort_values("_o").drop_duplicates("metric")
        for r in s.itertuples():
            lines.append(f"  {r.metric} ({r.statistic}): B/A geomean {r._5:.3f} [{r._6:.3f} .. {r._7:.3f}]")
    return lines


def _png(fig) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100, bbox_inches="tight")
    return base64.b64encode(buf.getvalue()).decode()


def _table(df: pd.DataFrame) -> str:
    fmt = {c: "{:.4g}".format for c in df.columns if pd.api.types.is_float_dtype(df[c])}
    return df.to_html(index=False, border=0, classes="data", formatters=fmt, na_rep="", escape=True)


_CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; max-width: 70rem; margin: 2rem auto;
       padding: 0 1rem; color: #222; line-height: 1.45; }
table.data { border-collapse: collapse; font-size: .85rem; margin: .5rem 0 1.5rem; }
table.data th, table.data td { padding: .2rem .6rem; border-bottom: 1px solid #ddd; text-align: right; }
table.data th { background: #f3f3f3; }
figure { margin: 1rem 0 2rem; } figure img { max-width: 100%; }
figcaption { font-size: .9rem; color: #444; }
details { margin: .5rem 0 1.5rem; } summary { cursor: pointer; font-weight: 600; }
.differs { color: #D55E00; font-weight: 600; }
"""


def report_html(results: list[Comparison]) -> str:
    """The whole report as one self-contained HTML page (figures embedded as PNG)."""
    first = results[0]
    a, b = (html.escape(x) for x in first.labels)
    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>benchbook report: {a} vs {b}</title><style>{_CSS}</style></head><body>",
        f"<h1>{b} compared with {a}</h1>",
        "<p>Every number of run B divided by the number of run A with the same settings, metric, statistic "
        "and unit (B/A &gt; 1: B is larger). For times a ratio below 1 means B is faster; for rates, above 1. "
        "Made by <code>benchbook report</code> from the tidy tables of both files.</p>",
    ]
    for c in results:
        parts.append(f"<h2>{html.escape(c.tool)}</h2>")
        diff = c.run_settings[c.run_settings["differs"]]
        if len(diff):
            items = "".join(
                f"<li><span class='differs'>{html.escape(r.setting)}</span>: {html.escape(r.A)} (A) vs "
                f"{html.escape(r.B)} (B)</li>"
                for r in diff.itertuples()
            )
            parts.append(f"<p>What differs between the runs:</p><ul>{items}</ul>")
        else:
            parts.append("<p>The runs declare the same settings; only the measurements differ.</p>")
        parts.append(
            f"<p>Measurements matched on: {html.escape(', '.join(c.keys) or 'metric and statistic only')}. "
            f"{len(c.ratios)} numbers matched; {len(c.only_a)} appear only in A and {len(c.only_b)} only in B.</p>"
        )
        parts.append("<h3>Summary per metric</h3>" + _table(metric_summary(c)))
        parts.append("<h3>Curves</h3>")
        for metric, fig in c.figures.items():
            parts.append(
                f"<figure><img alt='{html.escape(metric)}: {a} vs {b}' src='data:image/png;base64,{_png(fig)}'>"
                f"<figcaption>{html.escape(metric)}: {a} (solid, circles) against {b} (dashed, squares), "
                "matched settings only.</figcaption></figure>"
            )
        parts.append("<h3>All ratios</h3>")
        for metric, g in c.ratios.groupby("metric", sort=False):
            parts.append(f"<details><summary>{html.escape(metric)} ({len(g)} rows)</summary>{_table(g)}</details>")
        for name, df in (("only in A", c.only_a), ("only in B", c.only_b)):
            if len(df):
                parts.append(f"<details><summary>Measurements {name} ({len(df)})</summary>{_table(df)}</details>")
    parts.append("</body></html>")
    return "\n".join(parts)


def write_report(results: list[Comparison], out: str | Path) -> Path:
    """Write the HTML report (and the ratio table as CSV beside it); `out` is a .html file or a folder."""
    out = Path(out)
    page = out if out.suffix == ".html" else out / "report.html"
    page.parent.mkdir(parents=True, exist_ok=True)
    page.write_text(report_html(results), encoding="utf-8")
    frames = [c.ratios.assign(tool=c.tool) for c in results]
    pd.concat(frames, ignore_index=True).to_csv(page.with_name(page.stem + "_ratios.csv"), index=False)
    return page


# --------------------------------------------------------------------------------------------
# N runs against a baseline, with the tools' own noise (`benchbook compare`)
# --------------------------------------------------------------------------------------------

#: What a number of a run is, against the baseline's.
VERDICTS = ("beyond noise", "within noise", "no noise estimate", "not comparable")
_RULE = "run / baseline differs from 1 by more than two combined relative standard deviations (the tool's own spread)"


@dataclass
class MultiComparison:
    """N runs of one tool, each number against the baseline run's, with a verdict and its claim."""

    tool: str
    labels: list[str]
    sources: list[str]
    baseline: int
    aligned: object  # benchbook.analysis.compare.Aligned
    rows: pd.DataFrame  # keys..., metric, statistic, unit, label, value, baseline, ratio, noise, verdict, better
    claims: list = field(default_factory=list)
    figures: dict[str, object] = field(default_factory=dict)


def _claim(row: pd.Series, keys: list[str], base_label: str, tool: str, i: int):
    from benchbook.claims import make
    from benchbook.presentation.wording import say

    ev = {
        "a": row["value"],
        "b": row["baseline"],
        "ratio": row["ratio"],
        "noise": row["noise"],
        "run": row["label"],
        "baseline_run": base_label,
        "metric": row["metric"],
        "statistic": row["statistic"],
        "unit": row["unit"],
        "settings": {k: row[k] for k in keys if k in row and row[k] != ""},
        "noise_from": row["s_from"],
    }
    c = make(f"{tool}_{row['metric']}_{row['statistic']}_{i}", "comparison", _RULE, ev)
    if c.status == "shown" and ev["noise"] is None:
        c = c.withhold("there is no noise estimate: a single measurement with no spread printed and no repeated run")
    topic = f"the {ev['metric']} ({ev['statistic']}) of {ev['run']} against {base_label}"
    return say(
        c,
        "the {metric} ({statistic}) of {run} is {ratio:.3f} x that of {baseline_run}, beyond the noise ({noise:.1%})",
        topic=topic,
    )


def _verdict(claim) -> str:
    ev = claim.evidence
    if ev.get("ratio") is None:
        return "not comparable"
    if claim.shown:
        return "beyond noise"
    return "no noise estimate" if ev.get("noise") is None else "within noise"


def compare_runs(
    paths, baseline: int = 0, tool: str | None = None, labels: list[str] | None = None
) -> list[MultiComparison]:
    """Compare any number of raw files of one tool against `baseline` (an index into `paths`),
    one MultiComparison per tool they all hold."""
    from benchbook import ingest
    from benchbook.analysis import compare as ac

    paths = [config.resolve(p) for p in paths]
    if len(paths) < 2:
        raise CompareError(f"give at least two runs to compare, got {len(paths)}")
    if not 0 <= baseline < len(paths):
        raise CompareError(f"--baseline must be between 1 and {len(paths)}, got {baseline + 1}")
    labels = list(labels) if labels else [p.name for p in paths]
    if len(labels) != len(paths):
        raise CompareError(f"give one --label per run ({len(paths)}), got {len(labels)}")
    if len(set(labels)) < len(labels):
        labels = [f"{i + 1}: {lab}" for i, lab in enumerate(labels)]
    tables = [ingest.read(p, tool) for p in paths]
    common = [t for t in dict.fromkeys(tables[0]["tool"]) if all(t in set(x["tool"]) for x in tables[1:])]
    if not common:
        held = "; ".join(f"{p.name}: {', '.join(sorted(set(t['tool'])))}" for p, t in zip(paths, tables, strict=True))
        raise CompareError(f"the runs hold no tool in common ({held}): compare runs of the same tool")
    out = []
    for t in common:
        al = ac.align([x[x["tool"] == t] for x in tables], labels)
        rows = ac.against(al, baseline)
        if rows.empty:
            raise CompareError(
                f"no {t} number of another run has the same settings, metric and statistic as one of "
                f"{labels[baseline]} (settings compared: {', '.join(al.keys) or 'none'})"
            )
        claims = [_claim(r, al.keys, labels[baseline], t, i) for i, r in rows.iterrows()]
        rows["verdict"] = [_verdict(c) for c in claims]
        rows["better"] = [
            {"A": labels[baseline], "B": r.label}.get(better(r.unit, r.ratio), "") if v == "beyond noise" else ""
            for r, v in zip(rows.itertuples(), rows["verdict"], strict=True)
        ]
        mc = MultiComparison(t, labels, [config.relative(p) for p in paths], baseline, al, rows, claims)
        mc.figures = ratio_figures(mc)
        out.append(mc)
    return out


def _main_stat(stats) -> str:
    present = set(stats)
    return next((s for s in _CURVE_STATS if s in present), sorted(present)[0])


def runs_summary(mc: MultiComparison) -> pd.DataFrame:
    """Per run and metric (its main statistic): numbers matched, geometric mean and range of the
    ratios, and how many are beyond, within or without a noise estimate."""
    rows = []
    for metric, g in mc.rows.groupby("metric", sort=False):
        g = g[g["statistic"] == _main_stat(g["statistic"])]
        for label, h in g.groupby("label", sort=False):
            r = h["ratio"][np.isfinite(h["ratio"]) & (h["ratio"] > 0)]
            rows.append(
                {
                    "run": label,
                    "metric": metric,
                    "statistic": h["statistic"].iloc[0],
                    "unit": h["unit"].iloc[0],
                    "matched": len(h),
                    "geomean ratio": float(np.exp(np.log(r).mean())) if len(r) else np.nan,
                    "min ratio": float(r.min()) if len(r) else np.nan,
                    "max ratio": float(r.max()) if len(r) else np.nan,
                    **{v: int((h["verdict"] == v).sum()) for v in VERDICTS},
                }
            )
    return pd.DataFrame(
        rows,
        columns=["run", "metric", "statistic", "unit", "matched", "geomean ratio"]
        + ["min ratio", "max ratio", *VERDICTS],
    )


def runs_lines(results: list[MultiComparison]) -> list[str]:
    """A few lines for the terminal."""
    lines = []
    for mc in results:
        rs = mc.aligned.run_settings
        diff = rs[rs["differs"]]
        what = "; ".join(f"{r['setting']}: {' -> '.join(str(r[lab]) for lab in mc.labels)}" for _, r in diff.iterrows())
        lines.append(
            f"{mc.tool}: {len(mc.labels)} runs against {mc.labels[mc.baseline]}, {len(mc.rows)} numbers matched "
            f"({what or 'no run setting differs'})"
        )
        for r in runs_summary(mc).to_dict("records"):
            counts = ", ".join(f"{r[v]} {v}" for v in VERDICTS if r[v])
            ratio = f"{r['geomean ratio']:.3f}" if np.isfinite(r["geomean ratio"]) else "n/a"
            lines.append(f"  {r['run']}: {r['metric']} ({r['statistic']}) ratio geomean {ratio}; {counts}")
    return lines


def runs_json(results: list[MultiComparison]) -> dict:
    """The machine-readable result: per tool, the runs, what differs, every number's verdict."""

    def plain(v):
        if isinstance(v, (float, np.floating)):
            return float(v) if np.isfinite(v) else None
        return v.item() if hasattr(v, "item") else v

    out = []
    for mc in results:
        rs = mc.aligned.run_settings
        rows = mc.rows.drop(columns=["run", "s", "s_baseline"]).rename(columns={"label": "run", "s_from": "noise_from"})
        out.append(
            {
                "tool": mc.tool,
                "baseline": mc.labels[mc.baseline],
                "runs": [{"label": lab, "source": src} for lab, src in zip(mc.labels, mc.sources, strict=True)],
                "keys": mc.aligned.keys,
                "settings_that_differ": {
                    r["setting"]: {lab: r[lab] for lab in mc.labels} for _, r in rs[rs["differs"]].iterrows()
                },
                "numbers": [{k: plain(v) for k, v in rec.items()} for rec in rows.to_dict("records")],
                "summary": [{k: plain(v) for k, v in rec.items()} for rec in runs_summary(mc).to_dict("records")],
            }
        )
    return {"comparisons": out}


def ratio_figures(mc: MultiComparison, max_lines: int = 8) -> dict[str, object]:
    """One figure per metric: each run's ratio to the baseline (its main statistic), with the noise
    as an error bar; a hollow marker has no noise estimate."""
    import matplotlib.pyplot as plt

    from benchbook.presentation.plotting import PALETTE, use_theme

    use_theme()
    figs = {}
    order = [lab for i, lab in enumerate(mc.labels) if i != mc.baseline]
    pos = {lab: i for i, lab in enumerate(order)}
    keys = [k for k in mc.aligned.keys if k in mc.rows]
    for metric, g in mc.rows.groupby("metric", sort=False):
        stat = _main_stat(g["statistic"])
        g = g[g["statistic"] == stat]
        varying = [k for k in keys if g[k].nunique() > 1]
        groups = list(g.groupby(varying, sort=True)) if varying else [((), g)]
        fig, ax = plt.subplots(figsize=(7.5, 4.2))
        ax.axhline(1.0, color="#555", lw=1)
        for i, (name, sub) in enumerate(groups):
            name = name if isinstance(name, tuple) else (name,)
            tag = ", ".join(f"{k}={v}" for k, v in zip(varying, name, strict=True)) or metric
            col = PALETTE[i % len(PALETTE)] if i < max_lines else "#999999"
            x = sub["label"].map(pos).to_numpy() + (i - (len(groups) - 1) / 2) * min(0.6 / max(len(groups), 1), 0.1)
            err = (sub["noise"].astype(float) * sub["ratio"]).to_numpy()
            known = np.isfinite(err)
            ax.errorbar(
                x[known],
                sub["ratio"].to_numpy()[known],
                yerr=err[known],
                fmt="o",
                color=col,
                capsize=3,
                label=tag if i < max_lines else None,
            )
            ax.plot(
                x[~known],
                sub["ratio"].to_numpy()[~known],
                "o",
                mfc="none",
                color=col,
                label=(f"{tag} (no noise estimate)" if known.sum() == 0 else None) if i < max_lines else None,
            )
        ax.set_xticks(
            range(len(order)), order, rotation=20 if len(order) > 3 else 0, ha="right" if len(order) > 3 else "center"
        )
        ax.set_ylabel(f"ratio to {mc.labels[mc.baseline]}")
        ax.set_title(
            f"{metric} ({stat}, {g['unit'].iloc[0]})"
            + (f"; first {max_lines} of {len(groups)} settings coloured" if len(groups) > max_lines else "")
        )
        ax.legend(fontsize=8, loc="best")
        fig.tight_layout()
        figs[metric] = fig
        plt.close(fig)
    return figs


def runs_html(results: list[MultiComparison]) -> str:
    """The whole comparison as one self-contained HTML page (figures embedded as PNG)."""
    first = results[0]
    base = html.escape(first.labels[first.baseline])
    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>benchbook compare: {len(first.labels)} runs against {base}</title><style>{_CSS}</style></head><body>",
        f"<h1>{len(first.labels)} runs against {base}</h1>",
        "<p>Every number of each run divided by the number of the baseline run with the same settings, metric, "
        "statistic and unit. A ratio is <em>beyond noise</em> when it differs from 1 by more than two combined "
        "relative standard deviations taken from the tool's own spread (printed &plusmn; or sigma, min/max, "
        "repetitions, or repeated runs with identical settings); <em>within noise</em> otherwise; a number with no "
        "spread at all has <em>no noise estimate</em>, and no run is called better on it. "
        "Made by <code>benchbook compare</code>.</p>",
    ]
    for mc in results:
        parts.append(f"<h2>{html.escape(mc.tool)}</h2>")
        runs = pd.DataFrame(
            {
                "run": mc.labels,
                "file": mc.sources,
                "role": ["baseline" if i == mc.baseline else "" for i in range(len(mc.labels))],
            }
        )
        parts.append(_table(runs))
        rs = mc.aligned.run_settings
        diff = rs[rs["differs"]]
        parts.append(
            "<h3>What differs between the runs</h3>"
            + (_table(diff.drop(columns="differs")) if len(diff) else "<p>The runs declare the same settings.</p>")
        )
        parts.append(
            f"<p>Numbers matched on: {html.escape(', '.join(mc.aligned.keys) or 'metric and statistic only')}; "
            f"{len(mc.aligned.unmatched)} numbers appear in one run only.</p>"
        )
        parts.append("<h3>Summary per run and metric</h3>" + _table(runs_summary(mc)))
        parts.append("<h3>Figures</h3>")
        for metric, fig in mc.figures.items():
            parts.append(
                f"<figure><img alt='{html.escape(metric)}: ratio of each run to {base}' src='data:image/png;base64,{_png(fig)}'>"
                f"<figcaption>{html.escape(metric)}: each run's ratio to {base}; bars are the noise, hollow markers "
                "have no noise estimate.</figcaption></figure>"
            )
        parts.append("<h3>Every number</h3>")
        show = mc.rows.drop(columns=["run", "s", "s_baseline"]).rename(columns={"label": "run", "s_from": "noise from"})
        for metric, g in show.groupby("metric", sort=False):
            parts.append(f"<details><summary>{html.escape(metric)} ({len(g)} rows)</summary>{_table(g)}</details>")
    parts.append("</body></html>")
    return "\n".join(parts)


def write_runs(results: list[MultiComparison], page: str | Path) -> Path:
    """Write the HTML page, and every number with its verdict as CSV beside it (PAGE_ratios.csv)."""
    page = Path(page)
    page.parent.mkdir(parents=True, exist_ok=True)
    page.write_text(runs_html(results), encoding="utf-8")
    frames = [mc.rows.drop(columns=["run"]).rename(columns={"label": "run"}).assign(tool=mc.tool) for mc in results]
    pd.concat(frames, ignore_index=True).to_csv(page.with_name(page.stem + "_ratios.csv"), index=False)
    return page
