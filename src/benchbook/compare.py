"""Compare any number of runs of one tool: each number against the baseline run's, with the noise
the tool itself reports (`benchbook compare`).

Generic over tools through the tidy contract (`benchbook.ingest.read`); the matching of numbers
across runs and the noise are in `benchbook.analysis.compare`. Each ratio becomes a `comparison`
claim: beyond the noise it is stated (and, where the unit says which way is better, the better run
named), within it or without any noise estimate it is withheld and says why.
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
from benchbook.nouns import counted

#: Statistic a figure shows, by preference.
_CURVE_STATS = ["mean", "value", "median", "p50", "p90", "p99", "max", "min"]
_LOWER_BETTER_UNITS = {"ms", "s", "us", "µs", "ns", "min", "W", "J", "GiB", "GB", "MiB"}


class CompareError(ValueError):
    """Two inputs that cannot be compared (no common tool, nothing matches), said in one sentence."""


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
    from benchbook.presentation import wording

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
    return wording.word("compare", c)


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
    sources = [config.relative(p) for p in paths]
    return [compare_tables(tables, t, labels, baseline, sources) for t in common]


def compare_tables(tables: list[pd.DataFrame], tool: str, labels: list[str], baseline: int = 0, sources=None):
    """The numbers of `tool` in tidy tables (one per run) against the baseline run's, with verdicts,
    claims and one figure per metric."""
    from benchbook.analysis import compare as ac

    al = ac.align([x[x["tool"] == tool] for x in tables], labels)
    rows = ac.against(al, baseline)
    if rows.empty:
        raise CompareError(
            f"no {tool} number of another run has the same settings, metric and statistic as one of "
            f"{labels[baseline]} (settings compared: {', '.join(al.keys) or 'none'})"
        )
    claims = [_claim(r, al.keys, labels[baseline], tool, i) for i, r in rows.iterrows()]
    rows["verdict"] = [_verdict(c) for c in claims]
    rows["better"] = [
        {"A": labels[baseline], "B": r.label}.get(better(r.unit, r.ratio), "") if v == "beyond noise" else ""
        for r, v in zip(rows.itertuples(), rows["verdict"], strict=True)
    ]
    mc = MultiComparison(tool, list(labels), list(sources or labels), baseline, al, rows, claims)
    mc.figures = ratio_figures(mc)
    return mc


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


def _natural(key) -> tuple:
    """A group key sorted as numbers where it is numbers (batch 2 before 16)."""
    parts = key if isinstance(key, tuple) else (key,)
    out = []
    for v in parts:
        try:
            out.append((0, float(v), ""))
        except ValueError:
            out.append((1, 0.0, str(v)))
    return tuple(out)


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
        groups = sorted(g.groupby(varying), key=lambda kv: _natural(kv[0])) if varying else [((), g)]
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


# --------------------------------------------------------------------------------------------
# In CI: is a run worse than the baseline beyond the noise?
# --------------------------------------------------------------------------------------------


def watched(results: list[MultiComparison], specs: list[str], tolerance: float | None = None) -> pd.DataFrame:
    """The numbers of the watched metrics (`metric` for its main statistic, or `metric:statistic`),
    with `worse` True where a run is beyond the noise on the side its unit calls worse. Raises
    CompareError for a metric the runs do not hold, or whose unit does not say which way is better.

    A spread taken from repeats that hold both the run and the baseline includes the very difference
    under test, so it judges nothing here: such a number, like one with no spread at all, has "no
    noise estimate", unless `tolerance` (a fraction the reader gives) stands in for the noise."""
    from benchbook.analysis.compare import repeat_groups

    frames = []
    for spec in specs:
        metric, _, stat = spec.partition(":")
        found = []
        for mc in results:
            g = mc.rows[mc.rows["metric"] == metric]
            if g.empty:
                continue
            g = g[g["statistic"] == (stat or _main_stat(g["statistic"]))]
            keys = [k for k in mc.aligned.keys if k in g]
            settings = [
                ", ".join(f"{k}={r[k]}" for k in keys if r[k] != "" and pd.notna(r[k])) for _, r in g.iterrows()
            ]
            group = repeat_groups(mc.aligned.run_settings, mc.labels)
            circular = [
                f == "repeats" and group[r] == group[mc.baseline] for f, r in zip(g["s_from"], g["run"], strict=True)
            ]
            found.append(
                g.assign(tool=mc.tool, settings=settings, baseline_run=mc.labels[mc.baseline], circular=circular)
            )
        if not found or all(f.empty for f in found):
            known = sorted({m for mc in results for m in mc.rows["metric"]})
            what = f"{metric} ({stat})" if stat else metric
            raise CompareError(
                f"--fail-on-regression {spec}: the runs hold no {what} to compare; they hold: {', '.join(known)}"
            )
        g = pd.concat(found, ignore_index=True)
        unit = g["unit"].iloc[0]
        if not better(unit, 2.0):
            raise CompareError(
                f"--fail-on-regression {spec}: its unit ({unit or 'none'}) does not say whether higher or lower is better"
            )
        frames.append(g)
    rows = pd.concat(frames, ignore_index=True)
    outcomes, worse = [], []
    for r in rows.itertuples():
        side = better(r.unit, r.ratio)
        blind = r.verdict == "no noise estimate" or r.circular
        if r.verdict == "not comparable":
            outcome = r.verdict
        elif blind and tolerance is not None:
            beyond = abs(r.ratio - 1) > tolerance
            outcome = f"{'worse' if side == 'A' else 'better'}, beyond tolerance" if beyond else "within tolerance"
        elif blind:
            outcome = "no noise estimate"
        elif r.verdict == "beyond noise":
            outcome = f"{'worse' if side == 'A' else 'better'}, beyond noise"
        else:
            outcome = r.verdict
        outcomes.append(outcome)
        worse.append(outcome.startswith("worse"))
    rows["outcome"], rows["worse"] = outcomes, worse
    rows.loc[rows["circular"] & (rows["outcome"] == "no noise estimate"), "noise"] = np.nan
    return rows


def summary_markdown(
    results: list[MultiComparison], rows: pd.DataFrame | None = None, tolerance: float | None = None
) -> str:
    """A short Markdown summary a CI job can post: the verdict on the watched metrics (every number
    of theirs in a table, the regressions first), or, with none watched, the summary per run."""
    first = results[0]
    lines = [f"### benchbook compare: {len(first.labels)} runs against {first.labels[first.baseline]}", ""]
    if rows is None:
        for mc in results:
            s = runs_summary(mc)
            lines += [f"**{mc.tool}**", "", _markdown_table(s), ""]
        return "\n".join(lines)
    worse = rows[rows["worse"]]
    if len(worse):
        lines.append(f"**Regression**: {counted(len(worse), 'number')} worse than the baseline beyond the noise.")
    else:
        counts = rows["outcome"].value_counts()
        said = ", ".join(f"{n} {v}" for v, n in counts.items())
        lines.append(f"**No regression** beyond the noise ({said}).")
    lines.append("")
    show = rows.sort_values("worse", ascending=False, kind="stable")
    table = pd.DataFrame(
        {
            "run": show["label"],
            "metric": show["metric"] + " (" + show["statistic"] + ", " + show["unit"] + ")",
            "settings": show["settings"],
            "baseline": show["baseline"].map("{:.4g}".format),
            "value": show["value"].map("{:.4g}".format),
            "ratio": show["ratio"].map("{:.3f}".format),
            "noise": show["noise"].map(lambda v: f"±{v:.1%}" if pd.notna(v) else "none"),
            "verdict": [f"**{o}**" if w else o for w, o in zip(show["worse"], show["outcome"], strict=True)],
        }
    )
    lines += [_markdown_table(table), ""]
    blind = int((rows["outcome"] == "no noise estimate").sum())
    if blind:
        lines += [
            f"{counted(blind, 'number')} {'has' if blind == 1 else 'have'} no noise estimate (the tool prints no spread, and the only repeats are the run "
            "and the baseline themselves): they cannot fail this check; give repeated runs of the baseline, the "
            "tool's own repetitions, or --tolerance.",
            "",
        ]
    lines.append(
        "A ratio is beyond the noise when it differs from 1 by more than two combined relative standard deviations "
        "of the tool's own spread (`benchbook compare`)"
        + (
            f"; a number with no noise estimate is judged against the tolerance given, {tolerance:.1%}."
            if tolerance is not None
            else "."
        )
    )
    return "\n".join(lines) + "\n"


def _markdown_table(df: pd.DataFrame) -> str:
    def cell(v) -> str:
        if isinstance(v, float):
            v = f"{v:.4g}" if np.isfinite(v) else ""
        return str(v).replace("|", "\\|").replace("\n", " ")

    head = "| " + " | ".join(map(cell, df.columns)) + " |"
    rule = "|" + "---|" * len(df.columns)
    body = ["| " + " | ".join(cell(v) for v in r) + " |" for r in df.itertuples(index=False)]
    return "\n".join([head, rule, *body])
