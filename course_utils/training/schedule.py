"""Learning-rate schedules: ``warmup_cosine_lr`` (notebook 05's LeNet run, scripts/bench_lenet.py)."""

from __future__ import annotations

from mindspore import nn

from course_utils.i18n import tr
from course_utils.validate import positive_int, positive_number

__all__ = ["warmup_cosine_lr"]


def warmup_cosine_lr(peak_lr: float, total_steps: int, warmup_steps: int = 0, min_lr: float = 0.0) -> list:
    """A per-step learning rate: linear warm-up from 0 to ``peak_lr``, then a cosine down to ``min_lr``.

    Built from MindSpore's own ``nn.warmup_lr`` and ``nn.cosine_decay_lr`` (one "epoch" per step,
    so the cosine is smooth rather than a staircase). Pass the list as an optimizer's
    ``learning_rate``: the optimizer indexes it with its ``global_step``, which a checkpoint of the
    training step stores, so a resumed run continues the schedule where it stopped.
    """
    peak_lr = positive_number("peak_lr", peak_lr)
    total_steps = positive_int("total_steps", total_steps)
    if not 0 <= warmup_steps < total_steps:
        raise ValueError(tr("warmup_steps must be in 0..{last}, got {value}.", last=total_steps - 1,
                            value=repr(warmup_steps)))
    if not 0 <= min_lr <= peak_lr:
        raise ValueError(tr("min_lr must be in [0, peak_lr], got {value}.", value=repr(min_lr)))
    warm = nn.warmup_lr(peak_lr, warmup_steps, 1, warmup_steps) if warmup_steps else []
    decay = total_steps - warmup_steps
    return list(warm) + list(nn.cosine_decay_lr(min_lr, peak_lr, decay, 1, decay))
