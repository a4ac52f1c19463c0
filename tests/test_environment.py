"""The pip requirements and the conda environment pin the same packages, and what is installed matches."""

import re
from importlib.metadata import version

import pytest

from conftest import ROOT

PIN = re.compile(r"^\s*-?\s*([A-Za-z0-9_.\-]+)==([^\s#]+)")


def pins(path):
    found = {}
    for line in path.read_text().splitlines():
        m = PIN.match(line)
        if m:
            found[m.group(1).lower().replace("_", "-")] = m.group(2)
    return found


def test_every_requirement_is_pinned():
    for line in (ROOT / "requirements.txt").read_text().splitlines():
        line = line.split("#")[0].strip()
        if line:
            assert PIN.match(line), f"requirements.txt: {line!r} is not pinned with =="


def test_environment_yml_matches_requirements():
    pip_pins = pins(ROOT / "requirements.txt")
    conda_pins = pins(ROOT / "environment.yml")
    assert pip_pins, "no pins found in requirements.txt"
    assert pip_pins == conda_pins, (
        "requirements.txt and environment.yml disagree: "
        f"only in pip {set(pip_pins.items()) - set(conda_pins.items())}, "
        f"only in conda {set(conda_pins.items()) - set(pip_pins.items())}")


def test_numpy_is_below_2():
    assert pins(ROOT / "requirements.txt")["numpy"].startswith("1."), "MindSpore 2.10 needs NumPy 1.x"


@pytest.mark.parametrize("name,pinned", sorted(pins(ROOT / "requirements.txt").items()))
def test_installed_versions_match_pins(name, pinned):
    assert version(name) == pinned, f"{name} {version(name)} installed, {pinned} pinned: run `make setup`"
