"""The course's languages: English (the source) and Simplified Chinese (``zh``).

Two things are translated, each with its own mechanism:

* **Notebooks**: ``notebooks/zh/NN_*.ipynb`` is *built* from the English lesson plus a catalogue
  ``i18n/zh/NN_*.md`` keyed by cell id (``course_utils.i18n.notebooks``; ``python -m course_utils.i18n build``
  and ``check``). Code is carried over; only Markdown, comments and learner-facing strings are replaced.
* **Messages** that ``course_utils`` prints into a notebook (check results, hints, ``setup()``'s summary,
  the performance lab's conclusions): call sites wrap the English text in ``tr()``; ``course_utils.i18n.zh``
  maps English templates to Chinese ones. A plain dict rather than gettext: no compile step (``.mo``), no
  extra tooling on an Ascend image, reviewable in a diff, and a test lists every ``tr()`` literal (and every
  exercise text) that has no translation. An untranslated message falls back to English.

The language is process state: ``runtime.setup(lang="zh")`` (or ``set_language``) sets it and exports
``COURSE_LANG`` so that the scripts a lesson launches speak the same language.
"""

from __future__ import annotations

import contextlib
import os
from typing import Dict, Iterator, Optional

__all__ = ["LANGUAGES", "language", "set_language", "speaking", "tr", "N_", "catalogue"]

#: Supported languages: code -> name. English is the source and needs no catalogue.
LANGUAGES = {"en": "English", "zh": "简体中文"}
ENV_VAR = "COURSE_LANG"
_ALIASES = {"zh_cn": "zh", "zh-cn": "zh", "zh-hans": "zh", "cn": "zh", "chinese": "zh", "english": "en"}
_current: Optional[str] = None


def _normalise(lang: str) -> str:
    key = str(lang).strip().lower()
    key = _ALIASES.get(key, key)
    if key not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}: the course speaks {', '.join(sorted(LANGUAGES))} "
                         f"(e.g. runtime.setup(lang=\"zh\"))")
    return key


def language() -> str:
    """The current language: the one set in this process, else ``COURSE_LANG``, else English."""
    if _current is not None:
        return _current
    env = os.environ.get(ENV_VAR, "")
    try:
        return _normalise(env) if env else "en"
    except ValueError:
        return "en"


def set_language(lang: str) -> str:
    """Make ``lang`` ("en" or "zh") the language of everything ``course_utils`` prints from now on, in this
    process and in the processes it starts. Returns the normalised code."""
    global _current
    _current = _normalise(lang)
    os.environ[ENV_VAR] = _current
    return _current


@contextlib.contextmanager
def speaking(lang: str) -> Iterator[str]:
    """Temporarily make ``lang`` the language (this process and its children); the previous one comes back."""
    global _current
    saved, saved_env = _current, os.environ.get(ENV_VAR)
    try:
        yield set_language(lang)
    finally:
        _current = saved
        if saved_env is None:
            os.environ.pop(ENV_VAR, None)
        else:
            os.environ[ENV_VAR] = saved_env


def catalogue(lang: Optional[str] = None) -> Dict[str, str]:
    """English template -> translated template for ``lang`` (empty for English)."""
    lang = _normalise(lang) if lang else language()
    if lang == "en":
        return {}
    from course_utils.i18n.zh import MESSAGES

    return MESSAGES


def N_(text: str) -> str:
    """Mark a text defined at import time (a constant, a default) for translation; ``tr()`` it when shown.
    Returns ``text`` unchanged (gettext's convention: the test of the catalogue finds it)."""
    return text


def tr(text: str, /, **values) -> str:
    """``text`` in the current language, formatted with ``values`` (``str.format``; only when values are given,
    so a text without placeholders may contain braces).

    Write the English template at the call site, so the code reads as before::

        raise Incorrect(tr("{what}: expected {expected}, got {got}.", what=what, expected=e, got=g))
    """
    template = catalogue().get(text, text) if language() != "en" else text
    if not values:
        return template
    try:
        return template.format(**values)
    except (KeyError, IndexError, ValueError):  # a broken translation must never hide the message
        return text.format(**values)
