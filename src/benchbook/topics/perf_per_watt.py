"""The perf_per_watt chapter's logic: measured energy per token where a file logs it, and what a
llama-bench sweep over power limits says (rates, upper bounds on energy per token, sweet spots),
each verdict a claim; the page shows a claim once, its withheld verdicts in one folded list."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from benchbook import config, ingest
from benchbook.analysis import energy, power
from benchbook.claims import Ledger
from benchbook.claims import energy as energy_claims
from benchbook.claims import power as power_claims
from benchbook.topics import Page

CHAPTER = "perf_per_watt"
#: The data figures, drawn (their directive and caption glued into the results) only where the input
#: has the data: a figure without data is left out, its section saying why in one sentence.
FIGURE_BLOCKS = ("fig_measured", "fig_throughput", "fig_energy", "fig_cv")


@dataclass
class Result:
    """What the chapter found: the input's rows, the power-cap table and the measured energy, and
    the ledger of every verdict."""

    params: dict
    inputs: list[str]
    rows: pd.DataFrame
    measured_rows: pd.DataFrame
    measured: pd.DataFrame
    model: str | None
    configs: pd.DataFrame
    swept: dict
    table: pd.DataFrame
    limits: list[float]
    tests: dict
    quote_limit: float | None
    weights_gb: float | None
    ledger: Ledger

    @property
    def has_power(self) -> bool:
        return power.has_power(self.table)

    @property
    def floor_j(self) -> float | None:
        """The DRAM floor of one generated token (its weights read once), where the file sizes them."""
        return power.dram_floor_j(self.weights_gb) if self.weights_gb else None


def weights_gb(rows: pd.DataFrame, model: str | None, bytes_per_param: float) -> float | None:
    """The gigabytes one generated token of `model` reads: its model file as llama-bench prints it
    (the active share for a mixture of experts), else its size and precision from the model table."""
    if model is None or rows.empty:
        return None
    for source in dict.fromkeys(rows["source"]) if "source" in rows else []:
        file = energy.model_file(rows, source, model)
        if file is not None:
            return energy.weights_bytes(model, bytes_per_param, file)["weights_gb"]
    return energy.weights_bytes(model, bytes_per_param)["weights_gb"]


def run_device(rows: pd.DataFrame, gpu: str):
    """The device of the power-cap runs: the `gpu` parameter, else the one the output's device line
    names (None when neither names a device of the hardware table)."""
    from benchbook import hardware

    if gpu:
        return hardware.device(gpu)
    printed = rows["gpu"].dropna() if "gpu" in rows else pd.Series(dtype=str)
    return hardware.detect(str(printed.iloc[0])) if len(printed) else None


def analyse(p: dict) -> Result:
    """Read the input, build the power-cap table and the measured-energy table, and judge every claim.
    A verdict this input's format cannot support at all (power-cap verdicts without two limits,
    measured-energy verdicts without a measured energy) is marked not applicable, not withheld."""
    from benchbook.presentation import wording

    rows, measured_rows = energy.read(p["source"])
    measured = energy.runs(measured_rows)
    model = p["model"] or power.pick_model(rows)
    kept, configs = power.hold_fixed(rows, model)
    swept = power.swept_settings(rows, model)
    draw = power.load_measured(p["measured_power"]) if p["measured_power"] else None
    table = power.energy(power.rate_table(kept, model), draw)
    limits = sorted(table["power_limit_w"].unique())
    tests = power.quoted_tests(table)
    quote = min(limits, key=lambda w: abs(w - p["quote_limit_w"])) if limits else None
    gb = weights_gb(rows, model, p["bytes_per_param"])
    caps = power_claims.build(table, tests, p["peak_fraction"], quote, gb, run_device(kept, p["gpu"]))
    if not power.has_power(table):
        caps = [c.not_applicable("the input has no test at two or more power limits") for c in caps]
    said = energy.facts_said(p["source"]) if len(measured) else {}  # a precision and a batch beyond the rows
    measured_verdicts = energy_claims.build(measured, p["bytes_per_param"], p["gpu"] or None, rows, said)
    if measured.empty:
        measured_verdicts = [c.not_applicable("the input holds no measured energy") for c in measured_verdicts]
    inputs = [config.relative(f) for f in p["source"]]
    ledger = wording.ledger(CHAPTER, inputs, [*caps, *measured_verdicts])
    return Result(
        p, inputs, rows, measured_rows, measured, model, configs, swept, table, limits, tests, quote, gb, ledger
    )


def page(r: Result) -> Page:
    """Every text, figure and table of the chapter, drawn from the result."""
    from benchbook.presentation import bottom_line, placement, tables
    from benchbook.presentation import energy as show_energy
    from benchbook.presentation import power as show

    led = r.ledger
    boxed = {c["id"] for c in bottom_line.pick(led)}
    device, rated = show.device_words(
        r.table if r.model is None else r.rows[r.rows["model"] == r.model], r.params["gpu"]
    )
    machines = [f.value for path in r.params["source"] for f in ingest.context_of(path).get("machine")]
    # where the rows name no device, what the files say of one (the absence rule), never a bare "not named"
    said = energy.stated_device(r.params["source"])
    named = not r.measured.empty and r.measured["device"].notna().any()
    about = show.input_line(
        ", ".join(r.inputs),
        r.model,
        r.limits,
        device,
        rated,
        show_energy.describe(r.measured_rows, r.measured, machines, None if named or machines else said),
        None if device else said,
    )
    notes = [show.sweep_note(r.swept)] if r.swept else []
    # what the input cannot show, said once: beside the input when it holds measured energy, else as
    # the results themselves (the page has nothing else to show)
    said = energy.stated_power(r.params["source"]) if not r.has_power and r.measured.empty else []
    limit = energy.limit_said(r.params["source"]) if not r.has_power and not r.limits else None
    nothing = "" if r.has_power else show.no_power_message(len(r.limits), not r.measured.empty, said, limit)
    if nothing and not r.measured.empty:
        notes.append(nothing)
        nothing = ""
    figures = {"fig_caps": show.lesson_figure()}
    drawn = dict.fromkeys(FIGURE_BLOCKS)
    if not r.measured.empty:
        drawn["fig_measured"] = show_energy.energy_bars(r.measured)
    if r.has_power:
        drawn["fig_throughput"] = show.throughput_figure(r.table, r.model)
        drawn["fig_energy"] = show.energy_figure(r.table, r.floor_j)
        drawn["fig_cv"] = show.cv_figure(r.table)
    figures.update({k: v for k, v in drawn.items() if v is not None})
    marks = {"fig_energy": show.energy_marks(r.table, r.floor_j)} if r.has_power else {}
    blocks = {k: show.figure_block(k, **marks.get(k, {})) if k in figures else "" for k in drawn}
    markdown = {
        "input_line": " ".join([about, *notes]),
        "results_measured": _join(nothing, show_energy.section(led, r.measured, boxed), blocks["fig_measured"]),
        "results_speed": _join(show.section(led, "speed", boxed), blocks["fig_throughput"]),
        "results_energy": _join(show.section(led, "energy", boxed), blocks["fig_energy"]),
        "results_sweet": show.section(led, "sweet", boxed),
        "results_spread": _join(show.section(led, "spread", boxed, show.stability_paragraph(led)), blocks["fig_cv"]),
        # a configuration's own sentence stays in the results even when withheld (it still says its energy),
        # and the floors withheld for one reason are said once (`withheld_floors`), not once each
        "withheld": placement.folded_box(led, show_energy.said_elsewhere(led), show_energy.withheld_floors(led)),
    }

    def table(name: str):
        want = {
            "sweep": lambda: show.sweep_table(r.configs) if r.swept else None,
            "measured": lambda: (
                show_energy.energy_display(r.measured, show_energy.floors(led)) if not r.measured.empty else None
            ),
            "energy": lambda: show.energy_table(r.table) if r.has_power else None,
        }
        if name == "sweet":
            return lambda: _display(
                tables.show(
                    show.sweet_display(r.table, r.params["peak_fraction"], _knees_shown(led)),
                    index=True,
                    missing="– (none)",
                )
                if r.has_power
                else None
            )
        missing = {"energy": dict.fromkeys(("J/token ± (%)", "Pareto (means)", "clearly dominated"), "a bound")}
        return lambda: _display(
            tables.show(t, missing=missing.get(name, tables.MISSING)) if (t := want[name]()) is not None else None
        )

    shown_tables = {name: table(name) for name in ("sweep", "measured", "energy", "sweet")}
    return Page(led, markdown=markdown, figures=figures, tables=shown_tables)


def _knees_shown(led: Ledger) -> set[str]:
    """The tests whose knee the rules state."""
    return {c.evidence["test"] for c in led.claims if c.id.startswith("knee_") and c.shown}


def _join(*parts: str) -> str:
    return "\n\n".join(p for p in parts if p)


def _display(obj) -> None:
    """Show a table where a cell asks for it; nothing where the input has none."""
    if obj is not None:
        from benchbook.presentation import outputs

        outputs.display(obj)
