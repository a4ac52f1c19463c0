"""Shared code of the MindSpore training-loop course.

Only what two or more notebooks use lives here, plus the self-checking exercises.
Importing this package does not import MindSpore: ``course_utils.runtime.setup()``
must be able to set environment variables before MindSpore loads.
"""

from pathlib import Path

__version__ = "0.1.0"

#: Repository root (the folder holding ``notebooks/`` and ``data/``).
ROOT = Path(__file__).resolve().parent.parent
