"""The pinned environment as data: the one reader of ``requirements.txt`` (and ``environment.yml``'s pip pins).

``make doctor`` compares what is installed with the pins, ``make bundle`` downloads exactly them, and the tests
keep ``requirements.txt`` and ``environment.yml`` equal; all of them read the files here. Standard library only:
``doctor`` runs before ``make setup``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Dict, List, Union

from course_utils import ROOT

__all__ = ["REQUIREMENTS", "canonical", "pins", "requirement_lines"]

REQUIREMENTS = ROOT / "requirements.txt"
#: ``name==version``, also as an item of environment.yml's pip list (``- name==version``).
_PIN = re.compile(r"^\s*(?:-\s+)?([A-Za-z0-9][A-Za-z0-9_.\-]*)\s*==\s*([^\s#;]+)")


def canonical(name: str) -> str:
    """A package name as pip compares them: ``Jupyterlab_Language.Pack`` -> ``jupyterlab-language-pack``."""
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_lines(path: Union[str, Path] = REQUIREMENTS) -> List[str]:
    """The requirement strings of ``path``, comments and blank lines left out (``["numpy==1.26.4", ...]``)."""
    lines = []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            lines.append(line)
    return lines


def pins(path: Union[str, Path] = REQUIREMENTS) -> Dict[str, str]:
    """``{canonical name: version}`` of every ``name==version`` line of ``path`` (a missing file: ``{}``)."""
    path = Path(path)
    if not path.exists():
        return {}
    found = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        m = _PIN.match(line)
        if m:
            found[canonical(m.group(1))] = m.group(2)
    return found
