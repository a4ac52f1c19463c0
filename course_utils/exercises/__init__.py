"""Self-checking exercises: ``from course_utils.exercises import nb01`` then ``nb01.q1.check()``.

Every exercise has three outcomes (see ``Outcome``):

* NOT_ATTEMPTED - the placeholder ``____`` is still in place (or the learner's function returned it,
  or returned ``None``). Stored notebooks ship like this, so nbval runs them without an error.
* INCORRECT - a specific message: which input, what was expected, what came back.
* CORRECT.

``check()`` never raises for the learner's mistakes: it prints the outcome and returns it, so a
notebook can ``assert nb01.q1.check() is Outcome.CORRECT`` once solved. Checks test behaviour on
fixed inputs (values, shapes, dtypes, gradients, Cell structure), never trained accuracy.
``hint()`` and ``solution()`` only show text.

The framework, one concern per module:

* ``placeholder``: ``____``, ``Outcome``, ``NotAttempted``/``Incorrect`` (what a check raises);
* ``inspection``: reading the learner's code without running it (``code_references``, placeholder search);
* ``values``: ``to_numpy`` and ``describe`` for messages;
* ``display``: ``CheckResult`` and how results, hints and solutions appear (rich in a kernel, plain elsewhere);
* ``base``: ``Exercise`` (checking), ``register``, and ``refusing`` (the course's own answers refused while a
  check runs, under any name).

An exercise subclasses ``Exercise`` (in ``course_utils/exercises/nbNN.py``)::

    class WeightedHuber(Exercise):
        names = ("WeightedHuberLoss",)          # what check() looks up in the notebook
        title = N_("a weighted Huber loss")
        hint_text = N_("...")                   # where to look, not the answer
        solution_text = '''class WeightedHuberLoss(nn.LossBase): ...'''

        def reference(self):                    # the objects a correct answer would provide
            return (WeightedHuberLossSolution,)

        def _check(self, WeightedHuberLoss):     # raise Incorrect("...") on a wrong answer
            loss = self.call(WeightedHuberLoss, delta=1.0)   # self.call: placeholder-aware
            ...

    q1 = WeightedHuber()
    register(globals(), "01")                   # labels q1, q2, ... "Exercise 01.1", ...

``tests/lessons/test_exercises_*.py`` prove every checker accepts ``reference()`` and rejects typical wrong
answers with the right message.

What ``check()`` does for every exercise, so ``_check`` need not:

* an answer whose code still mentions ``____`` (``return ____``, ``x * ____`` in a method) is "not
  attempted", found without running it (a half-filled ``construct`` would fail to compile otherwise);
* an exception from the learner's code becomes "incorrect" with its type, first line and the
  learner's line; ``check()`` itself never raises (except ``KeyboardInterrupt``);
* what MindSpore's C++ side writes to the process's stderr while checking (GRAPH_MODE compile
  errors are logged there before they are raised) is kept out of the notebook: the exception
  carries the same message.
"""

from course_utils.exercises.base import Exercise, refusing, register
from course_utils.exercises.display import CheckResult
from course_utils.exercises.inspection import code_references, contains_placeholder
from course_utils.exercises.placeholder import PLACEHOLDER_NAME, Incorrect, NotAttempted, Outcome, ____, is_placeholder
from course_utils.exercises.values import describe, to_numpy
# Lessons 01 and 04 import it from here; its home is course_utils.notebook.
from course_utils.notebook import capture_native_stderr

__all__ = ["____", "PLACEHOLDER_NAME", "CheckResult", "Exercise", "Incorrect", "NotAttempted", "Outcome",
           "capture_native_stderr", "code_references", "contains_placeholder", "describe",
           "is_placeholder", "refusing", "register", "to_numpy"]
