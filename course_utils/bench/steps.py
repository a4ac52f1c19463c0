"""The training steps the lab times: one LeNet-5 step in every mode and style, on in-memory MNIST.

A configuration is written ``"<mode>/<style>[:<jit_level>]"``, e.g. ``"graph/cell"`` or
``"pynative/jit:O1"``. MindSpore is imported inside the functions, so importing this module is cheap.
"""

from __future__ import annotations

import dataclasses
from typing import Callable, Dict, List, Mapping, Optional, Sequence, Union

from course_utils import runtime
from course_utils.i18n import N_, tr

from .harness import Config, Timing, cycle
from .report import no_space_between_cjk

__all__ = ["JIT_LEVELS", "LABELS", "NAIVE_SPEC", "STYLES", "Spec", "TIMING_COLUMNS", "build_step",
           "lenet_setup", "mnist_batches", "set_mode", "step_configs", "timing_rows"]

STYLES = ("functional", "jit", "cell", "jit_cell")
#: How a table names each style (``N_``: shown in the course's language by ``Spec.label``).
LABELS = {"functional": N_("functional step"), "jit": N_("@jit functional step"), "cell": "TrainOneStepCell",
          "jit_cell": "jit(TrainOneStepCell)"}
#: What ``mindspore.jit(jit_level=...)`` accepts in 2.10 (it raises ValueError for "O2", the removed GE backend).
JIT_LEVELS = ("O0", "O1")
#: MindSpore's default way to train: GRAPH_MODE TrainOneStepCell.
NAIVE_SPEC = "graph/cell"


@dataclasses.dataclass(frozen=True)
class Spec:
    """One way of running a LeNet-5 training step: execution mode, step style, jit level."""

    mode: str
    style: str
    level: str = "O0"

    @classmethod
    def parse(cls, text: Union[str, "Spec"]) -> "Spec":
        if isinstance(text, Spec):
            return text
        try:
            mode, rest = str(text).split("/")
        except ValueError:
            raise ValueError(f"bad configuration {text!r}: write '<mode>/<style>[:<jit_level>]', "
                             f"e.g. 'graph/cell' or 'pynative/jit:O1'") from None
        style, _, level = rest.partition(":")
        if mode not in runtime.MODES:
            raise ValueError(f"bad mode {mode!r} in {text!r}: use {' or '.join(map(repr, runtime.MODES))}")
        if style not in STYLES:
            raise ValueError(f"bad step style {style!r} in {text!r}: use one of {', '.join(STYLES)}")
        if level and style not in ("jit", "jit_cell"):
            raise ValueError(f"{text!r}: a jit level only applies to the 'jit' and 'jit_cell' styles")
        if level and level not in JIT_LEVELS:
            raise ValueError(f"bad jit level {level!r} in {text!r}: MindSpore 2.10 accepts only "
                             f"{' and '.join(JIT_LEVELS)} (O2, the GE backend, was removed)")
        return cls(mode, style, level or "O0")

    def __str__(self) -> str:
        return f"{self.mode}/{self.style}" + (f":{self.level}" if self.style in ("jit", "jit_cell") else "")

    @property
    def label(self) -> str:
        """What a table or a sentence calls this configuration, in the course's language."""
        mode = tr("GRAPH_MODE") if self.mode == "graph" else tr("PyNative")
        style = tr(LABELS[self.style])
        if self.style in ("jit", "jit_cell"):
            return no_space_between_cjk(tr("{mode}, {style} {level}", mode=mode, style=style, level=self.level))
        return no_space_between_cjk(tr("{mode}, {style}", mode=mode, style=style))


def set_mode(mode: str) -> None:
    """``mindspore.set_context(mode=...)`` from "graph" or "pynative"."""
    import mindspore as ms

    ms.set_context(mode=getattr(ms, runtime.MODES[mode]))


def lenet_setup(optimizer: str = "momentum", lr=0.01, amp_level: str = "O0"):
    """A fresh LeNet-5, its loss and optimizer: ``(net, loss_fn, opt)``. Momentum(lr, 0.9) is the
    source article's recipe; "adam" is Adam(lr) (``lr`` may be a per-step list)."""
    from mindspore import amp, nn

    from course_utils.models import LeNet5

    net = LeNet5()
    if amp_level != "O0":
        net = amp.auto_mixed_precision(net, amp_level)
    loss_fn = nn.CrossEntropyLoss()
    if optimizer == "momentum":
        opt = nn.Momentum(net.trainable_params(), learning_rate=lr, momentum=0.9)
    elif optimizer == "adam":
        opt = nn.Adam(net.trainable_params(), learning_rate=lr)
    else:
        raise ValueError(f"unknown optimizer {optimizer!r}: use 'momentum' or 'adam'")
    return net, loss_fn, opt


def build_step(spec: Union[str, Spec], net, loss_fn, opt, **jit_options) -> Callable:
    """The training step of ``spec`` for ``net``: a callable ``step(images, labels) -> loss``.

    * functional: notebook 02's step, ``course_utils.training.make_train_step(..., jit=False)``;
    * jit:        the same step compiled with ``mindspore.jit(..., jit_level=...)``;
    * cell:       notebook 04's ``nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn), opt)``;
    * jit_cell:   that Cell wrapped in ``mindspore.jit``.
    The execution mode (GRAPH_MODE/PyNative) is whatever is set when the step runs. Extra keyword
    arguments go to ``mindspore.jit`` (e.g. ``dynamic=1``).
    """
    import mindspore as ms
    from mindspore import nn

    from course_utils.training import make_train_step

    spec = Spec.parse(spec)
    if spec.style in ("cell", "jit_cell"):
        cell = nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn), opt)
        cell.set_train()
        return cell if spec.style == "cell" else ms.jit(cell, jit_level=spec.level, **jit_options)
    net.set_train()
    if spec.style == "jit":
        return make_train_step(net, loss_fn, opt, jit=True, jit_options={"jit_level": spec.level, **jit_options})
    return make_train_step(net, loss_fn, opt, jit=False)


def mnist_batches(batch_size: int = 64, count: int = 8, split: str = "train", start: int = 0) -> list:
    """``count`` in-memory (images, labels) Tensor batches of real MNIST, normalised like
    ``course_utils.data.mnist_dataset`` (so timing measures the step, not the input pipeline)."""
    import mindspore as ms
    import numpy as np

    from course_utils.data import load_mnist_arrays, normalize_images

    images, labels = load_mnist_arrays(split)
    need = start + batch_size * count
    if need > len(images):
        raise ValueError(f"{count} batches of {batch_size} from {start} need {need} {split} images; "
                         f"there are {len(images)}")
    x = normalize_images(images[start:need])
    y = labels[start:need].astype(np.int32)
    return [(ms.Tensor(x[i:i + batch_size]), ms.Tensor(y[i:i + batch_size]))
            for i in range(0, len(x), batch_size)]


#: The in-memory batches a configuration of ``step_configs`` cycles over (parts 2 and 3 of lesson 07).
IN_MEMORY_BATCHES = 8


def step_configs(specs: Sequence[str], batch_size: int = 64, batches: int = IN_MEMORY_BATCHES) -> Dict[str, Config]:
    """``{spec: Config}`` for ``harness.compare``: a fresh LeNet-5 step per configuration, cycling
    over the same in-memory batches, its mode switched back on before each of its repeats."""
    data = mnist_batches(batch_size, count=batches)
    configs = {}
    for text in specs:
        spec = Spec.parse(text)
        set_mode(spec.mode)
        step = build_step(spec, *lenet_setup())
        configs[str(spec)] = Config(step=cycle(step, data), before=lambda m=spec.mode: set_mode(m),
                                    batch_size=batch_size)
    return configs


#: The columns of a step-rate table.
TIMING_COLUMNS = ["label", "first_call_s", "steps_per_s", "min_steps_per_s", "max_steps_per_s"]


def timing_rows(timings: Mapping[str, Timing], labels: Optional[Mapping[str, str]] = None, **fields) -> List[dict]:
    """One row per configuration (``Timing.as_dict`` plus ``config``, its ``label`` and ``fields``). The label
    of a spec is ``Spec.label``; of another configuration, ``labels[key]`` (shown text), else the key itself."""
    rows = []
    for key, t in timings.items():
        d = t.as_dict()
        try:
            label = Spec.parse(key).label
        except ValueError:
            label = (labels or {}).get(key, key)
        d.update(config=key, label=label, **fields)
        rows.append(d)
    return rows
