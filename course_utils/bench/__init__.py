"""Honest timing of training steps, and the performance lab's experiments (notebook 05).

One concern per module:

* ``harness``     timing any zero-argument step: warm-up apart, forced, repeated, alternated (no MindSpore);
* ``steps``       the LeNet-5 training steps being timed (``Spec``: "<mode>/<style>[:<jit_level>]");
* ``params``      the experiments' typed parameters;
* ``isolation``   fresh worker processes for settings read when MindSpore loads;
* ``report``      results, tables, the machine header and the conditions (load, other processes);
* ``experiments`` each experiment as ``measure(params) -> rows`` + pure ``summarise(rows, params) -> Result``;
* ``profile``     reading MindSpore's profiler output back;
* ``cli``         ``python -m course_utils.bench list | run NAMES | headline``.

Importing the package does not import MindSpore.
"""

from .harness import Config, Timing, compare, cycle, force, naive_time, noise_floor_pct, time_steps
from .isolation import LOAD_TIME_VARS, TRAP_VARS, WorkerError, env_without_cpu_fixes, run_worker
from .params import (AmpParams, BatchSizesParams, Common, FindTrapParams, LayerTimesParams, ModesParams,
                     PipelineParams, ShapesParams, SinkParams, StepRatesParams, StylesParams, TimeToAccuracyParams,
                     TrainParams, TrapsParams)
from .report import Conditions, Measuring, Result, format_rows, format_table, header, load_average, pick, save_json
from .steps import (JIT_LEVELS, NAIVE_SPEC, Spec, TIMING_COLUMNS, accuracy, build_step, lenet_setup, mnist_batches,
                    set_mode, step_configs, timing_rows)
from .experiments import EXPERIMENTS, HEADLINE, PUBLIC, run_experiment, select_experiments
from .experiments.accuracy import StopWhen
from .experiments.shapes import compile_calls
from .experiments.traps import parse_onednn_verbose, target_line

__all__ = [name for name in dir() if not name.startswith("_")]
