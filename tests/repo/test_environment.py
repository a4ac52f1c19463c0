"""The pip requirements and the conda environment pin the same packages, and what is installed matches."""

from importlib.metadata import version

import pytest

from course_utils.pins import REQUIREMENTS, pins, requirement_lines

ROOT = REQUIREMENTS.parent


def test_every_requirement_is_pinned():
    unpinned = [line for line in requirement_lines() if "==" not in line]
    assert not unpinned and len(pins()) == len(requirement_lines()), f"requirements.txt: not pinned with ==: {unpinned}"


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
