"""Looking at a learner's code without running it, and at where their code failed.

``code_references(obj, names)`` reads the names the compiled code of a function, class or instance uses
(``np`` inside ``construct``, ``____`` left in a method); ``learner_line(exc)`` finds the learner's line
in a traceback, so an error message can point at it.
"""

from __future__ import annotations

import functools
import traceback
import types
from typing import Any, Iterable

from course_utils.exercises.placeholder import PLACEHOLDER_NAME, is_placeholder
from course_utils.i18n import tr

__all__ = ["code_references", "contains_placeholder", "is_placeholder_error", "learner_line"]


def _code_objects(obj: Any, _seen=None) -> Iterable[types.CodeType]:
    """Every code object of a function, method, class (its methods, properties, nested classes)."""
    seen = set() if _seen is None else _seen
    if id(obj) in seen:
        return
    seen.add(id(obj))
    if isinstance(obj, (staticmethod, classmethod)):
        obj = obj.__func__
    if isinstance(obj, property):
        for part in (obj.fget, obj.fset, obj.fdel):
            if part is not None:
                yield from _code_objects(part, seen)
        return
    if isinstance(obj, types.MethodType):
        obj = obj.__func__
    if isinstance(obj, functools.partial):
        yield from _code_objects(obj.func, seen)
        return
    code = getattr(obj, "__code__", None)
    if isinstance(code, types.CodeType):
        stack = [code]
        while stack:
            c = stack.pop()
            yield c
            stack.extend(k for k in c.co_consts if isinstance(k, types.CodeType))
        return
    if isinstance(obj, type):
        module = getattr(obj, "__module__", "")
        for klass in obj.__mro__:
            # the learner's own classes only, not nn.Cell & co. from libraries
            if klass is object or getattr(klass, "__module__", "") != module:
                continue
            for member in vars(klass).values():
                yield from _code_objects(member, seen)
        return
    if not isinstance(obj, (int, float, str, bytes, bool, type(None))) and hasattr(obj, "__class__"):
        cls = type(obj)  # an instance: look at its class's code
        if cls.__module__ not in ("builtins",) and not cls.__module__.startswith(("mindspore", "numpy")):
            yield from _code_objects(cls, seen)


def code_references(obj: Any, names: Iterable[str]) -> set:
    """Which of ``names`` the code of ``obj`` (function, class, instance) refers to.

    Looks at global names, attribute names and method names the compiled code uses, so
    ``code_references(MyLoss, {"np", "numpy", "asnumpy"})`` tells whether ``MyLoss``'s methods use
    NumPy, without running anything. Only the learner's own classes are inspected, not their library
    base classes.
    """
    wanted = set(names)
    found = set()
    for code in _code_objects(obj):
        found |= wanted & (set(code.co_names) | set(code.co_varnames) | set(code.co_freevars))
    return found


def contains_placeholder(obj: Any) -> bool:
    """True if ``obj`` is the placeholder or its code still uses the name ``____``."""
    if is_placeholder(obj):
        return True
    try:
        return bool(code_references(obj, {PLACEHOLDER_NAME}))
    except Exception:  # an exotic object: treat it as an answer and let the check run
        return False


def is_placeholder_error(exc: BaseException) -> bool:
    """True for the error of using the placeholder as a value, e.g. ``____ + 1`` in the learner's code."""
    return "_Placeholder" in str(exc) or "'____'" in str(exc)


def learner_line(exc: BaseException) -> str:
    """`` (line: '...')`` naming the innermost line of the learner's code in the traceback, or ""."""
    frames = traceback.extract_tb(exc.__traceback__)
    for fr in reversed(frames):
        if "course_utils" not in fr.filename and "mindspore" not in fr.filename:
            return tr(" (line: {line})", line=repr(fr.line)) if fr.line else ""
    return ""
