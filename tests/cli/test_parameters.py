"""The parameter table: every parameter a chapter declares has a constraint, and each constraint
lets through what it should and stops what it should (both sides of every boundary)."""

from __future__ import annotations

import math

import papermill
import pytest
from hypothesis import given
from hypothesis import strategies as st

from benchbook import build, config, parameters
from benchbook.chapter import declared, setup
from benchbook.parameters import CONSTRAINTS, Context, ParameterError, check

QUANT = config.seed("002")


def _ctx(**defaults) -> Context:
    return Context({}, defaults=defaults)


@pytest.mark.parametrize("chapter", build.chapters())
def test_every_declared_parameter_has_a_constraint_its_default_meets(chapter):
    spec = declared(chapter)
    assert set(spec) <= set(CONSTRAINTS), sorted(set(spec) - set(CONSTRAINTS))
    defaults = {n: i["default"] for n, i in spec.items()}
    for name, info in spec.items():
        constraint = CONSTRAINTS[name]
        if constraint.stage == 0 and info["default"] is not None:
            constraint(name, info["default"], _ctx(**defaults))


@pytest.mark.parametrize("chapter", build.chapters())
def test_the_parameters_cell_repeats_the_declaration_as_papermill_reads_it(chapter):
    pm = papermill.inspect_notebook(str(config.NOTEBOOKS_DIR / f"{chapter}.ipynb"))
    theirs = {
        n: {"default": eval(i["default"], {"__builtins__": {}}) if i["default"] else None, "help": i["help"]}  # noqa: S307
        for n, i in pm.items()
    }
    assert {n: {"default": i["default"], "help": i["help"]} for n, i in declared(chapter).items()} == theirs


def test_a_parameter_without_a_constraint_is_refused():
    with pytest.raises(ParameterError, match="no constraint"):
        check("some_chapter", {"brand_new_knob": 3})


@pytest.mark.parametrize(
    "constraint, inside, outside",
    [
        (parameters.PROBABILITY, [1e-9, 0.05, 0.5, 1 - 1e-9], [0, 1, -0.1, 1.5]),
        (parameters.FRACTION, [1e-9, 0.5, 1], [0, 1.000001, -1, 2]),
        (parameters.POSITIVE, [1e-12, 1, 1e9], [0, -1e-12, -5]),
        (parameters.NON_NEGATIVE, [0, 1e-12, 7], [-1e-12, -7]),
        (CONSTRAINTS["tp_unknown"], [1, 2, 8], [0, -1, 1.5]),
        (CONSTRAINTS["slowdown_tolerance"], [0, 0.02, 0.999], [1, -0.01]),
    ],
)
def test_number_ranges_on_both_sides_of_each_boundary(constraint, inside, outside):
    for v in inside:
        constraint("x", v, _ctx())
    for v in outside:
        with pytest.raises(ParameterError, match=r"^parameter 'x' must be"):
            constraint("x", v, _ctx())


@pytest.mark.parametrize("value", [None, "0.5", True, math.nan, math.inf, -math.inf, [0.5]])
def test_a_number_parameter_refuses_what_is_not_a_finite_number(value):
    with pytest.raises(ParameterError):
        parameters.PROBABILITY("alpha", value, _ctx())


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_probability_is_exactly_the_open_unit_interval(x):
    try:
        parameters.PROBABILITY("alpha", x, _ctx())
        accepted = True
    except ParameterError:
        accepted = False
    assert accepted == (0 < x < 1)


@given(st.sampled_from(["cv", "mad"]), st.floats(min_value=1e-6, max_value=1e6), st.sampled_from(["", " "]))
def test_outlier_rules_that_parse(kind, x, space):
    assert parameters.parse_outlier_rule(f"{kind}{space}>{space}{x!r}") == (kind, x)


@pytest.mark.parametrize("rule", ["cv<0.1", "cv>0", "cv>-1", "cv>", "sd>1", "cv>0.1 and mad>3", "", "cv>1e"])
def test_outlier_rules_that_do_not(rule):
    with pytest.raises(ValueError):
        parameters.parse_outlier_rule(rule)
    with pytest.raises(ParameterError):
        CONSTRAINTS["outlier_rule"]("outlier_rule", rule, _ctx())


def test_empty_device_and_model_only_where_the_chapter_defaults_to_empty():
    CONSTRAINTS["gpu"]("gpu", "", _ctx(gpu=""))
    CONSTRAINTS["model_id"]("model_id", "", _ctx(model_id=""))
    with pytest.raises(ParameterError):
        CONSTRAINTS["gpu"]("gpu", "", _ctx(gpu="A100-SXM4-80GB"))
    with pytest.raises(ParameterError):
        CONSTRAINTS["model_id"]("model_id", "", _ctx(model_id="Qwen3-4B"))


def test_known_device_and_model_pass():
    CONSTRAINTS["gpu"]("gpu", "A100-SXM4-80GB", _ctx())
    CONSTRAINTS["model_id"]("model_id", "Qwen3-4B", _ctx())
    with pytest.raises(ParameterError, match="'A1000-SXM'"):
        CONSTRAINTS["gpu"]("gpu", "A1000-SXM", _ctx())


def test_measured_power_file_with_the_right_columns_passes(tmp_path):
    f = tmp_path / "power.csv"
    f.write_text("test,power_limit_w,power_w\npp512,300,287.5\ntg128,300,250\n", encoding="utf-8")
    CONSTRAINTS["measured_power"]("measured_power", str(f), _ctx())
    f.write_text("test,power_limit_w,power_w\npp512,300,\n", encoding="utf-8")
    with pytest.raises(ParameterError, match="line 2: power_w is ''"):
        CONSTRAINTS["measured_power"]("measured_power", str(f), _ctx())


def test_names_that_must_exist_in_the_input():
    """The quantization report has an 'original' scheme and a 'latency' metric, and no 'fp64'."""
    values = setup("quantization_regimes", {"baseline": "original"})
    assert values["baseline"] == "original" and values["source"] == [QUANT]
    with pytest.raises(ParameterError, match=r"no scheme 'fp64' in the input; it has: original, w8a16_awq"):
        setup("quantization_regimes", {"baseline": "fp64"})
    with pytest.raises(ParameterError, match="metric 'tokens'"):
        setup("quantization_regimes", {"metric_by_regime": {"base": "tokens"}})


def test_cheap_checks_come_before_reading_the_input(monkeypatch):
    """A wrong alpha is refused without the input being read (it is what makes the refusal quick)."""
    from benchbook import ingest

    def no_reading(*args, **kwargs):
        raise AssertionError("the input was read before a range check")

    monkeypatch.setattr(ingest, "read_all", no_reading)
    monkeypatch.setattr(ingest, "detect", no_reading)
    with pytest.raises(ParameterError, match="alpha"):
        setup("quantization_regimes", {"alpha": 1.5, "baseline": "fp64"})


def test_output_problems(tmp_path):
    (tmp_path / "a_file").write_text("x", encoding="utf-8")
    assert parameters.output_problem(tmp_path / "new" / "deeper" / "out.csv") is None
    assert parameters.output_problem(tmp_path / "a_file") is None
    assert parameters.output_problem(tmp_path, folder=True) is None
    assert parameters.output_problem(tmp_path) == "is a folder; give a file name"
    assert parameters.output_problem(tmp_path / "a_file", folder=True) == "exists and is not a folder"
    assert "a_file is not a folder" in parameters.output_problem(tmp_path / "a_file" / "out.csv")


# The refusals of issue 19, as `benchbook run` meets them: (chapter, -p pairs, start of the sentence).
REFUSALS = [
    ("quantization_regimes", ["alpha", "1.5"], "parameter 'alpha' must be a number in (0, 1), got 1.5."),
    ("tracking", ["alpha", "0"], "parameter 'alpha' must be a number in (0, 1), got 0."),
    ("serving_saturation", ["slo_ttft_ms", "-5"], "parameter 'slo_ttft_ms' must be a number above 0, got -5."),
    ("batch_saturation", ["knee_fraction", "2"], "parameter 'knee_fraction' must be a number in (0, 1], got 2."),
    ("bandwidth_roofline", ["gpu", "NoSuchGPU"], "parameter 'gpu': unknown device 'NoSuchGPU' (none is close"),
    ("quantization_regimes", ["baseline", "fp64"], "parameter 'baseline': no scheme 'fp64' in the input; it has: "),
    ("quantization_regimes", ["outlier_rule", "cv<<0.1"], "parameter 'outlier_rule' must be 'cv>X' or 'mad>X'"),
    ("perf_per_watt", ["measured_power", "{power}"], "parameter 'measured_power': power.csv needs columns"),
]
HEAVY = ("pandas", "pandera", "matplotlib", "scipy", "papermill")


@pytest.mark.parametrize(("chapter", "pair", "said"), REFUSALS, ids=[f"{c}-{p[0]}" for c, p, _ in REFUSALS])
def test_wrong_parameters_are_refused_before_any_heavy_import(tmp_path, chapter, pair, said):
    """What makes a refusal quick, asserted without a clock: the process that refuses never imports
    pandas, pandera, matplotlib, scipy or papermill (read from `python -X importtime`), exits 2 with
    one sentence, and leaves no output folder."""
    import subprocess
    import sys

    power = tmp_path / "power.csv"
    power.write_text("power_limit_w,watts\n300,200\n", encoding="utf-8")
    out = tmp_path / "out"
    argv = ["run", chapter, "-p", pair[0], pair[1].format(power=power), "-o", str(out), "-q"]
    code = "import sys; from benchbook.cli import app; sys.argv = ['benchbook', *sys.argv[1:]]; app()"
    done = subprocess.run([sys.executable, "-X", "importtime", "-c", code, *argv], capture_output=True, text=True)
    imported = {line.rsplit("|", 1)[1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}
    said_lines = [line for line in done.stderr.splitlines() if not line.startswith("import time:")]
    assert done.returncode == 2 and said_lines == [said_lines[0]] and said_lines[0].startswith("error: " + said)
    assert not out.exists()
    assert "benchbook.parameters" in imported and not imported & set(HEAVY)


def test_a_wrong_gpu_is_looked_up_without_pandas():
    """The name check reads data/hardware.csv with the csv module, in a fresh interpreter."""
    import subprocess
    import sys

    code = (
        "import sys\nfrom benchbook import hardware\n"
        "assert hardware.device_name('h100 sxm') == 'H100-SXM5-80GB'\n"
        "try:\n    hardware.device_name('A1000-SXM')\nexcept hardware.UnknownDevice as exc:\n    print(exc)\n"
        f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    said, loaded = done.stdout.splitlines()
    assert said.startswith("unknown device 'A1000-SXM' (close names: ") and "A100-SXM4-80GB" in said
    assert loaded == "[]"


def test_the_light_name_lookup_agrees_with_the_device_table():
    from benchbook import hardware

    for d in hardware.devices():
        assert hardware.device_name(d.name) == d.name and hardware.device(d.name.lower()) == d
    with pytest.raises(hardware.UnknownDevice, match=f"none is close; the {len(hardware.devices())} names"):
        hardware.device("NoSuchGPU")


QUANT_FIXTURES = sorted(
    p
    for p in (config.PROJ_ROOT / "tests/fixtures/sglang-quant-report").iterdir()
    if p.suffix != ".md" and not p.name.endswith(".truth.yml")
)


@pytest.mark.parametrize("path", [QUANT, *QUANT_FIXTURES], ids=lambda p: p.name)
def test_quick_scheme_names_are_the_parsers(path):
    """The regex reading of the schemes gives exactly the set the full parser gives."""
    from benchbook import ingest

    full = set(ingest.read(path, tool="sglang-quant-report")["scheme"].dropna().unique())
    assert parameters.quant_schemes(path.read_text(encoding="utf-8")) == full


def test_quick_scheme_names_split_like_the_parser():
    from benchbook.ingest import sglang_quant

    assert parameters._quant_regimes() == tuple(sglang_quant.REGIMES)
    text = '| `w8a16_awq_long_context` | 3 |\n{"run_name": "original_run2"}\n{"run_name": "interactive"}\n'
    assert parameters.quant_schemes(text) == {"w8a16_awq", "original", "interactive"}
    assert parameters.quant_schemes("| model | runs |\n| `` | 3 |\n") is None


def test_the_quick_baseline_check_refuses_early_and_defers_what_it_cannot_read(tmp_path, monkeypatch):
    """A missing scheme is refused before the input is detected or parsed; a present one, or a file
    the quick reading cannot tell, goes on to the full check."""
    from benchbook import ingest

    def no_reading(*args, **kwargs):
        raise AssertionError("the input was read before the quick check")

    early = CONSTRAINTS["baseline"].early
    with monkeypatch.context() as m:
        m.setattr(ingest, "read_all", no_reading)
        m.setattr(ingest, "detect", no_reading)
        with pytest.raises(ParameterError, match=r"no scheme 'fp64' in the input; it has: original, w8a16_awq, "):
            setup("quantization_regimes", {"baseline": "fp64"})
    early("baseline", "original", Context({"source": str(QUANT)}))
    other = tmp_path / "other.txt"
    other.write_text("no scheme here\n", encoding="utf-8")
    early("baseline", "fp64", Context({"source": f"{QUANT},{other}"}))  # cannot tell: deferred
    with pytest.raises(ParameterError, match="no scheme 'fp64'"):
        early("baseline", "fp64", Context({"source": [str(QUANT), str(QUANT)]}))
