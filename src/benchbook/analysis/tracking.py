"""A metric over runs: the runs in time order, each run's own spread, the steps between
neighbours, and where the level changes (`benchbook.analysis.changes`)."""

from __future__ import annotations

import math
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from benchbook import config, warehouse
from benchbook.analysis.compare import half_digit, ratio_noise


@dataclass
class Series:
    """One value of a metric per run, in the order the chapter reads them."""

    runs: pd.DataFrame  # position, run_id, label, source, run_date, value, std, unit
    order: str  # "date", "given" or "source": what the order rests on
    statistic: str
    undated: int  # runs whose output prints no date


def parse_where(text: str) -> dict[str, str]:
    """'backend=ROCm, ngl=99' -> {'backend': 'ROCm', 'ngl': '99'}; ValueError names a bad item."""
    out = {}
    for item in (x.strip() for x in str(text).split(",")):
        if not item:
            continue
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"{item!r} is not KEY=VALUE")
        out[key.strip()] = value.strip()
    return out


def _given_order(sources: list[Path]) -> dict[str, int]:
    """Each file's place in the order given: folders walked by name, as `ingest --into` walks them."""
    files = []
    for p in sources:
        files += sorted(q for q in p.rglob("*") if q.is_file() and not q.name.startswith(".")) if p.is_dir() else [p]
    return {config.relative(f): i for i, f in enumerate(files)}


def load(sources, metric: str, where: dict | None = None, statistic: str | None = None) -> Series:
    """The runs of `metric` among `sources` (result files or folders, or one warehouse folder),
    matching `where`, in time order: by the date each output prints when every run has one, else in
    the order given (a warehouse: by source name). Raises WarehouseError with one sentence."""
    sources = [Path(s) for s in sources]
    with tempfile.TemporaryDirectory(prefix="benchbook-tracking-") as tmp:
        if len(sources) == 1 and (sources[0] / "runs").is_dir():
            into, given = sources[0], None
        else:
            into, given = Path(tmp), _given_order(sources)
            rep = warehouse.ingest_into(sources, into, log=lambda *_: None)
            if rep.failed:
                raise warehouse.WarehouseError(rep.failed[0])
            if not rep.added and not rep.present:
                raise warehouse.WarehouseError("no file among the sources holds output of a known tool")
        s = warehouse.series(into, metric, where, statistic)
        try:
            spread = warehouse.series(into, metric, where, "std")[["run_id", "value"]]
            s = s.merge(spread.rename(columns={"value": "std"}), on="run_id", how="left")
        except warehouse.WarehouseError:  # the tool prints no spread for this metric
            s["std"] = np.nan
    undated = int(s["run_date"].isna().sum())
    if undated == 0:
        s, order = s.sort_values(["run_date", "source"], kind="stable"), "date"
    elif given is not None:
        s, order = s.assign(_o=s["source"].map(given)).sort_values(["_o", "source"], kind="stable"), "given"
    else:
        s, order = s.sort_values("source", kind="stable"), "source"
    s = s.reset_index(drop=True)
    s.insert(0, "position", range(len(s)))
    s["label"] = [Path(x).name for x in s["source"]]
    if s["label"].duplicated().any():  # the same name in two folders: keep the folder
        s["label"] = [config.relative(x) if isinstance(x, str) else x for x in s["source"]]
    cols = ["position", "run_id", "label", "source", "run_date", "value", "std", "unit"]
    return Series(s[cols], order, str(s["statistic"].iat[0]), undated)


def steps(runs: pd.DataFrame) -> pd.DataFrame:
    """Each run against the one before it: ratio, and the noise of the ratio from both runs' own
    spread (None when a run prints none)."""
    rows = []
    for prev, cur in zip(runs.iloc[:-1].itertuples(), runs.iloc[1:].itertuples(), strict=True):

        def sd(r):
            return None if pd.isna(r.std) else max(float(r.std), half_digit(r.value, r.std))

        ratio = cur.value / prev.value if prev.value else math.nan
        rows.append(
            {
                "position": cur.position,
                "run": cur.label,
                "previous": prev.label,
                "value": cur.value,
                "previous_value": prev.value,
                "ratio": ratio,
                "noise": ratio_noise(cur.value, sd(cur), prev.value, sd(prev)),
            }
        )
    return pd.DataFrame(rows, columns=["position", "run", "previous", "value", "previous_value", "ratio", "noise"])


def smallest_p(n: int, min_size: int = 2) -> float:
    """The smallest p-value the permutation test of `change_points` can give on n runs, whatever the
    values: the observed order ties with every order that keeps the same runs before the split (k! x
    (n - k)! of them) and with their mirror image (the later segment first), so p >= 2 k! (n - k)! / n!
    = 2 / C(n, k), smallest for the most even split a clean step allows. A short series cannot show a
    change at a level below it, however large the change."""
    if n < 2 * min_size:
        return 1.0
    return 2 / math.comb(n, n // 2)


def fewest_runs(alpha: float, min_size: int = 2) -> int:
    """The fewest runs on which the permutation test can reach p below `alpha` (`smallest_p`)."""
    n = 2 * min_size
    while smallest_p(n, min_size) >= alpha:
        n += 1
    return n
