"""Typed parameters of the experiments: one dataclass each, all sharing ``Common``.

``None`` fields take the QUICK or the full default in ``__post_init__``. Parameters travel to a
worker process as JSON (``as_json``/``from_json``), so every field is a plain value.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Dict, Optional, Tuple

from course_utils import runtime

from .harness import WARMUP
from .steps import NAIVE_SPEC, Spec


def _tuple(value, kind=str) -> tuple:
    return tuple(kind(v) for v in value)


@dataclasses.dataclass
class Common:
    """What every experiment takes: QUICK or full, device, the timing counts, batch size, seed."""

    quick: bool = True
    device: str = "CPU"
    repeats: Optional[int] = None     # timed repeats per configuration (3 QUICK, 5 full)
    steps: Optional[int] = None       # steps per timed repeat (10 QUICK, 30 full)
    batch_size: int = 64
    seed: int = 42

    def __post_init__(self):
        if self.repeats is None:
            self.repeats = 3 if self.quick else 5
        if self.steps is None:
            self.steps = 10 if self.quick else 30
        if self.repeats < 1 or self.steps < 1:
            raise ValueError(f"repeats and steps must be >= 1, got {self.repeats} and {self.steps}")
        if self.batch_size < 1:
            raise ValueError(f"batch_size must be >= 1, got {self.batch_size}")
        self.device = runtime.device_name(self.device)

    def as_json(self) -> str:
        return json.dumps(dataclasses.asdict(self))

    @classmethod
    def from_json(cls, text: str):
        return cls(**json.loads(text))

    def common(self) -> dict:
        """The ``Common`` fields, to build another experiment's parameters from these."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(Common)}


def _specs(value, default) -> tuple:
    specs = _tuple(value) if value else tuple(default)
    for s in specs:
        Spec.parse(s)
    return specs


MODES_SPECS = ("pynative/functional", "pynative/cell", "graph/functional", "graph/cell",
               "pynative/jit:O0", "pynative/jit:O1", "pynative/jit_cell:O0", "pynative/jit_cell:O1")
QUICK_MODES_SPECS = ("pynative/functional", "pynative/cell", "graph/cell",
                     "pynative/jit:O0", "pynative/jit:O1", "pynative/jit_cell:O1")


@dataclasses.dataclass
class ModesParams(Common):
    specs: Tuple[str, ...] = ()       # empty: QUICK_MODES_SPECS / MODES_SPECS
    noise_pct: float = 0.0            # the noise floor without a copy (0: the fastest row's own spread)
    copy: Optional[str] = None        # timed twice (A, A'), the grid's floor (None: graph/cell or the first; "": none)

    def __post_init__(self):
        super().__post_init__()
        self.specs = _specs(self.specs, QUICK_MODES_SPECS if self.quick else MODES_SPECS)
        if self.copy is None:
            self.copy = "graph/cell" if "graph/cell" in self.specs else self.specs[0]
        if self.copy and self.copy not in self.specs:
            raise ValueError(f"copy must be one of the specs {self.specs}, got {self.copy!r}")


@dataclasses.dataclass
class StepRatesParams(Common):
    specs: Tuple[str, ...] = (NAIVE_SPEC,)
    fed_batches: int = 0              # 0: in-memory batches; N: fed by the MNIST pipeline, N batches, timed as fit does

    def __post_init__(self):
        super().__post_init__()
        self.specs = _specs(self.specs, (NAIVE_SPEC,))


@dataclasses.dataclass
class StylesParams(Common):
    noise_pct: float = 0.0            # the noise floor of the pipeline passes: a gain within it is a tie
    claim_repeats: Optional[int] = None   # rounds of the in-memory pair that tests the 15% claim (20 QUICK, 30 full)

    def __post_init__(self):
        super().__post_init__()
        if self.claim_repeats is None:
            self.claim_repeats = 20 if self.quick else 30
        if self.claim_repeats < 2:
            raise ValueError(f"claim_repeats must be >= 2 (a paired interval needs rounds), got {self.claim_repeats}")


@dataclasses.dataclass
class BatchSizesParams(Common):
    spec: str = NAIVE_SPEC
    batch_sizes: Tuple[int, ...] = (32, 64, 128, 256, 512)
    noise_pct: float = 0.0            # the noise floor without a copy (0: the top size's own spread)
    copy_size: Optional[int] = None   # timed twice (A, A'): the sweep's own floor (None: the middle size; 0: none)
    round_s: float = 0.3              # each size's share of a round lasts about this long (at least ``steps`` steps)

    def __post_init__(self):
        super().__post_init__()
        if self.round_s < 0:
            raise ValueError(f"round_s must be >= 0 (0: every size runs `steps` steps a round), got {self.round_s}")
        self.spec = str(Spec.parse(self.spec))
        self.batch_sizes = _tuple(self.batch_sizes, int)
        if not self.batch_sizes or any(b < 1 for b in self.batch_sizes):
            raise ValueError(f"batch sizes must be >= 1, got {self.batch_sizes}")
        if self.copy_size is None:
            self.copy_size = sorted(self.batch_sizes)[len(self.batch_sizes) // 2]
        if self.copy_size and self.copy_size not in self.batch_sizes:
            raise ValueError(f"copy_size must be one of the batch sizes {self.batch_sizes}, got {self.copy_size}")


TRAP_SPECS = ("graph/cell", "graph/functional", "pynative/cell", "pynative/jit:O0", "graph/jit:O0", "pynative/jit:O1",
              "pynative/jit_cell:O1")
# PyNative TrainOneStepCell is where the host busy-wait shows most; a @jit function shows what a compiled step
# launched from PyNative does with it, and the same function called with the context in GRAPH_MODE that MindSpore
# 2.10 still calls through PyNative's executor (``_JitExecutor.__call__`` -> ``_pynative_executor.grad_jit``).
QUICK_TRAP_SPECS = ("graph/cell", "pynative/cell", "pynative/jit:O0", "graph/jit:O0")


@dataclasses.dataclass
class TrapsParams(Common):
    specs: Tuple[str, ...] = ()       # empty: QUICK_TRAP_SPECS / TRAP_SPECS
    jit_pipeline_case: Optional[bool] = None   # also time MS_DEV_JIT_PIPELINE=0 (None: in full runs)
    rounds: int = 2                   # processes per case, the cases in alternating order (A B C, C B A, ...)
    noise_pct: float = 0.0            # the noise floor for ties among the fixed configurations (0: no tie rule)

    def __post_init__(self):
        super().__post_init__()
        self.specs = _specs(self.specs, QUICK_TRAP_SPECS if self.quick else TRAP_SPECS)
        if self.jit_pipeline_case is None:
            self.jit_pipeline_case = not self.quick


@dataclasses.dataclass
class LayerTimesParams(Common):
    marker: str = ""                  # printed before each layer (to split ONEDNN_VERBOSE output by layer)
    layers: Tuple[str, ...] = ()      # the layers timed, by name (traps.layer_functions); empty: every layer
    compiled: bool = False            # each layer's forward+backward under mindspore.jit (False: eager PyNative)


@dataclasses.dataclass
class FindTrapParams(Common):
    pass


@dataclasses.dataclass
class PoolCapParams(Common):
    rounds: int = 2                   # processes per case, the cases in alternating order (A B, B A)
    noise_pct: float = 0.0            # the noise floor for the capped vs uncapped verdicts (0: the second rule only)


@dataclasses.dataclass
class PipelineParams(Common):
    spec: str = NAIVE_SPEC
    noise_pct: float = 0.0            # the noise floor: a cost within it is a tie (0: the two rows' own spread)

    def __post_init__(self):
        super().__post_init__()
        self.spec = str(Spec.parse(self.spec))


@dataclasses.dataclass
class AmpParams(Common):
    spec: str = NAIVE_SPEC
    levels: Tuple[str, ...] = ("O0", "O1", "O2", "O3")
    train_steps: Optional[int] = None   # steps each level trains before its accuracy check, the warm-up and timed
    #                                     steps included: at least 100 (QUICK) / 600 (full), never fewer than those
    loss_scale: Optional[float] = None  # a fixed loss scale for the float16 levels (None: no scaling)
    noise_pct: float = 0.0              # the noise floor: a level within it of O0 ties (0: only the repeats' spread)

    def __post_init__(self):
        super().__post_init__()
        self.spec = str(Spec.parse(self.spec))
        self.levels = _tuple(self.levels)
        bad = [lv for lv in self.levels if lv not in ("O0", "O1", "O2", "O3")]
        if bad or not self.levels:
            raise ValueError(f"amp levels are O0-O3, got {self.levels}")
        if self.train_steps is None:
            self.train_steps = 100 if self.quick else 600
        # the timing trains every level too: the steps actually trained, so that the field says what ran
        self.train_steps = max(self.train_steps, WARMUP + self.steps * self.repeats)


@dataclasses.dataclass
class ShapesParams(Common):
    spec: str = NAIVE_SPEC
    n_shapes: Optional[int] = None      # distinct batch sizes (4 QUICK, 8 full)

    def __post_init__(self):
        super().__post_init__()
        self.spec = str(Spec.parse(self.spec))
        if self.n_shapes is None:
            self.n_shapes = 4 if self.quick else 8
        if not 1 <= self.n_shapes <= self.batch_size // 7:
            raise ValueError(f"n_shapes must be between 1 and batch_size // 7 = {self.batch_size // 7}, "
                             f"got {self.n_shapes}")


#: The training recipe of time-to-accuracy: the source article's (Momentum 0.01, batch 64).
RECIPE = {"optimizer": "momentum", "lr": 0.01, "batch_size": 64}


@dataclasses.dataclass
class TrainParams(Common):
    spec: str = NAIVE_SPEC
    targets: Tuple[float, ...] = (0.985, 0.99)
    time_limit: float = 120.0           # seconds of training before giving up
    eval_every: int = 200               # steps between test-set evaluations
    optimizer: str = RECIPE["optimizer"]
    lr: float = RECIPE["lr"]

    def __post_init__(self):
        super().__post_init__()
        self.spec = str(Spec.parse(self.spec))
        self.targets = tuple(sorted(float(t) for t in self.targets))
        if not self.targets or not all(0 < t <= 1 for t in self.targets):
            raise ValueError(f"targets are accuracies in (0, 1], got {self.targets}")
        if self.time_limit <= 0 or self.eval_every < 1:
            raise ValueError("time_limit and eval_every must be positive")


@dataclasses.dataclass
class TimeToAccuracyParams(Common):
    best_spec: str = NAIVE_SPEC
    targets: Tuple[float, ...] = ()     # empty: (0.985,) QUICK, (0.985, 0.99) full
    time_limit: Optional[float] = None  # 60 s QUICK, 180 s full
    best_env: Optional[Dict[str, str]] = None   # the best run's environment (None: the course's CPU fixes)
    noise_pct: float = 0.0              # an estimate's unpaired step rates: its range widened by this (0: not widened)

    def __post_init__(self):
        super().__post_init__()
        self.best_spec = str(Spec.parse(self.best_spec))
        self.targets = tuple(float(t) for t in self.targets) or ((0.985,) if self.quick else (0.985, 0.99))
        if self.time_limit is None:
            self.time_limit = 60.0 if self.quick else 180.0


@dataclasses.dataclass
class SinkParams(Common):
    """Dataset sink mode (Ascend): ``Model.train`` over ``passes`` x ``sink_size`` batches."""

    sink_sizes: Tuple[int, ...] = (1, 10, 100)   # batches sent to the device per sink (-1: a whole epoch)
    batches: Optional[int] = None                # batches per pass (200 QUICK, 1000 full)

    def __post_init__(self):
        super().__post_init__()
        self.sink_sizes = _tuple(self.sink_sizes, int)
        if self.batches is None:
            self.batches = 200 if self.quick else 1000
        bad = [s for s in self.sink_sizes if s != -1 and not 1 <= s <= self.batches]
        if bad or not self.sink_sizes:
            raise ValueError(f"sink sizes are -1 or 1..batches={self.batches}, got {self.sink_sizes}")


@dataclasses.dataclass
class ForcingParams(Common):
    """Forced and not forced, in a fresh process whose host blocking (MS_DEV_HOST_BLOCKING_RUN) is on or off."""
    spec: str = "graph/jit:O0"
    host_blocking: bool = False       # False: the worker runs without MS_DEV_HOST_BLOCKING_RUN (the ISA cap stays)

    def __post_init__(self):
        super().__post_init__()
        self.spec = str(Spec.parse(self.spec))
