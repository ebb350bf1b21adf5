"""The dependency pins: exact, and the same for pip (requirements.txt) and conda (environment.yml)."""

import tomllib

import yaml
from packaging.requirements import Requirement

from benchbook import config


def _pins() -> dict[str, str]:
    lines = (config.PROJ_ROOT / "requirements.txt").read_text().splitlines()
    pins = {}
    for line in lines:
        if line and not line.startswith("#"):
            name, _, version = line.partition("==")
            assert version, f"requirements.txt: {line!r} is not an exact pin"
            pins[name.lower().replace("_", "-")] = version
    return pins


def test_requirements_are_exact_pins():
    pins = _pins()
    assert len(pins) > 50
    assert pins["jupyter-book"].startswith("1."), "jupyter-book must stay on 1.x"


def test_environment_yml_names_the_same_versions():
    env = yaml.safe_load((config.PROJ_ROOT / "environment.yml").read_text())
    deps = env["dependencies"]
    assert "python=3.11" in deps
    pip = next(d["pip"] for d in deps if isinstance(d, dict))
    conda_pins = {}
    for item in pip:
        if item.startswith("-e"):
            continue
        name, _, version = item.partition("==")
        conda_pins[name.lower().replace("_", "-")] = version
    assert conda_pins == _pins()


def test_direct_dependencies_are_locked():
    meta = tomllib.loads((config.PROJ_ROOT / "pyproject.toml").read_text())
    pins = _pins()
    deps = meta["project"]["dependencies"] + meta["project"]["optional-dependencies"]["test"]
    for dep in deps:
        req = Requirement(dep)
        name = req.name.lower().replace("_", "-")
        assert name in pins, f"{name} is a dependency but not pinned in requirements.txt"
        assert req.specifier.contains(pins[name]), f"{name}=={pins[name]} violates {dep!r}"
