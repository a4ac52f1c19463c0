"""Training: the steps the lessons build and the loop that runs them.

* ``step``: notebook 02's functional step (``make_train_step`` -> ``TrainStep``; lesson 03's gradient accumulation
  and clipping, ``global_norm``) and notebook 04's Cell-based one (``ClippedTrainOneStepCell``);
* ``schedule``: ``warmup_cosine_lr``;
* ``loop``: the epoch loop of notebook 05 (``fit`` -> ``FitResult``: progress, evaluation, checkpoints, resuming), and
  ``signals_held``, which keeps a Ctrl-C out of a step that is running.

Import from here: ``from course_utils.training import make_train_step, fit``.
"""

from course_utils.training.loop import STOP_SIGNALS, FitResult, fit, signals_held
from course_utils.training.schedule import warmup_cosine_lr
from course_utils.training.step import (ACCUM_PREFIX, ClippedTrainOneStepCell, TrainStep, global_norm,
                                        make_train_step, tensor_norms)

__all__ = ["ACCUM_PREFIX", "ClippedTrainOneStepCell", "FitResult", "STOP_SIGNALS", "TrainStep", "fit", "global_norm",
           "make_train_step", "signals_held", "tensor_norms", "warmup_cosine_lr"]
