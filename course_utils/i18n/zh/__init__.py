"""Simplified Chinese messages: English template -> Chinese template, one module per area.

Each module defines ``MESSAGES``. Keep placeholders (``{what}``) identical to the English template; a test
checks that, and lists every English text that has no entry here. Terminology follows the glossary in
``README.zh.md`` (静态图模式, 动态图模式, 算子, 检查点, ...).
"""

from __future__ import annotations

import importlib
from typing import Dict

from course_utils import lessons

__all__ = ["MESSAGES"]

#: Modules with messages, merged in this order: the shared ones, then each lesson's (``nbNN``, where it has one).
_PARTS = ("core",) + tuple(lesson.messages.rsplit(".", 1)[1] for lesson in lessons.LESSONS)


def _merge() -> Dict[str, str]:
    merged: Dict[str, str] = {}
    for part in _PARTS:
        try:
            module = importlib.import_module(f"{__name__}.{part}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{part}":
                raise
            continue
        merged.update(module.MESSAGES)
    return merged


MESSAGES: Dict[str, str] = _merge()
