"""Shared code of the MindSpore training-loop course.

Only what two or more notebooks use lives here, plus the self-checking exercises.
Importing this package does not import MindSpore: ``course_utils.runtime.setup()``
must be able to set environment variables before MindSpore loads.

The lessons import its modules (``from course_utils import runtime, data, plots``) and the faces of its packages
(``course_utils.training``, ``.data``, ``.bench``, ``.exercises``, ``.i18n``): each package's ``__init__`` names its
API in ``__all__``, and tests/repo/test_faces.py keeps the lessons from reaching past it.
"""

from pathlib import Path

__all__ = ["ROOT"]

#: Repository root (the folder holding ``notebooks/`` and ``data/``).
ROOT = Path(__file__).resolve().parent.parent
