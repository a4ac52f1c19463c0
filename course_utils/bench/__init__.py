"""Honest timing of training steps, and the performance lab's experiments (notebooks 07 and 08).

One concern per module:

* ``harness``     timing any zero-argument step: warm-up apart, forced, repeated, alternated (no MindSpore);
* ``steps``       the LeNet-5 training steps being timed (``Spec``: "<mode>/<style>[:<jit_level>]");
* ``params``      the experiments' typed parameters;
* ``isolation``   fresh worker processes for settings read when MindSpore loads;
* ``report``      results, tables, the machine header and the conditions (load, other processes);
* ``experiments`` each experiment as ``measure(params) -> rows`` + pure ``summarise(rows, params) -> Result``;
* ``profile``     reading MindSpore's profiler output back;
* ``notebook``    what the two lab lessons' set-up cells share (``show``, ``Lab.run``/``launch``, ``rate_bars``);
* ``turns``       timing one process alongside a distributed job, in turns (notebook 09, ``scripts/train_dp.py``);
* ``data_parallel`` what that timing shows: notebook 09's table and a paired verdict for each comparison;
* ``lenet_study`` the stored LeNet-5 recipe study notebook 05 reads (``scripts/bench_lenet.py``): table and plot;
* ``cli``         ``python -m course_utils.bench list | run NAMES | headline``.

Importing the package does not import MindSpore.
"""

from .harness import (Config, Timing, compare, control_gap, cycle, faster_beyond, force, interval_side, leaders,
                      naive_time, noise_floor_pct, paired_ratio, ranges_overlap, rate_range, spans_rounds, time_steps,
                      verdict, widened)
from .isolation import LOAD_TIME_VARS, TRAP_VARS, WorkerError, env_without_cpu_fixes, run_worker
from .params import (AmpParams, BatchSizesParams, Common, FindTrapParams, ForcingParams, LayerTimesParams,
                     ModesParams,
                     PipelineParams, PoolCapParams, ShapesParams, SinkParams, StepRatesParams, StylesParams,
                     TimeToAccuracyParams, TrainParams, TrapsParams)
from .report import (Conditions, Measuring, Result, format_rows, format_table, format_verdicts, header, load_average,
                     metric_title, pick, save_json)
from .steps import (JIT_LEVELS, NAIVE_SPEC, Spec, TIMING_COLUMNS, build_step, lenet_setup, mnist_batches,
                    set_mode, step_configs, timing_rows)
from . import experiments, lenet_study, profile
from .notebook import Lab, rate_bars, show
from .turns import Alongside, cpu_pinned, kernel_threads, pin_choice, pin_threads, time_alongside, worker_pause
from .data_parallel import DataParallelTiming, summarise_data_parallel
from .experiments import (EXPERIMENTS, HEADLINE, PUBLIC, StopWhen, compile_calls, parse_onednn_verbose,
                          run_experiment, select_experiments)

#: The face, named one by one: what lessons 07, 08 and 09, their scripts and ``make bench`` use. Three sub-APIs are
#: named as namespaces: ``experiments`` (the lab's experiments, each ``measure_<name>`` + ``summarise_<name>``),
#: ``profile`` (reading MindSpore's profiler output back) and ``lenet_study`` (notebook 05's stored recipe study).
__all__ = [
    # timing (harness)
    "Config", "Timing", "compare", "control_gap", "cycle", "faster_beyond", "force", "interval_side", "leaders",
    "naive_time", "noise_floor_pct", "paired_ratio", "ranges_overlap", "rate_range", "spans_rounds", "time_steps",
    "verdict", "widened",
    # fresh processes (isolation)
    "LOAD_TIME_VARS", "TRAP_VARS", "WorkerError", "env_without_cpu_fixes", "run_worker",
    # parameters
    "AmpParams", "BatchSizesParams", "Common", "FindTrapParams", "ForcingParams", "LayerTimesParams", "ModesParams",
    "PipelineParams",
    "PoolCapParams", "ShapesParams", "SinkParams", "StepRatesParams", "StylesParams", "TimeToAccuracyParams",
    "TrainParams", "TrapsParams",
    # reports
    "Conditions", "Measuring", "Result", "format_rows", "format_table", "format_verdicts", "header", "load_average",
    "metric_title", "pick", "save_json",
    # the steps being timed
    "JIT_LEVELS", "NAIVE_SPEC", "Spec", "TIMING_COLUMNS", "build_step", "lenet_setup", "mnist_batches", "set_mode",
    "step_configs", "timing_rows",
    # the experiments
    "EXPERIMENTS", "HEADLINE", "PUBLIC", "StopWhen", "compile_calls", "parse_onednn_verbose", "run_experiment",
    "select_experiments",
    # the lab lessons' set-up cell (notebook)
    "Lab", "rate_bars", "show",
    # one process timed alongside a distributed job (turns; notebook 09); pinning the lab lessons to one CPU
    "Alongside", "cpu_pinned", "kernel_threads", "pin_choice", "pin_threads", "time_alongside", "worker_pause",
    "DataParallelTiming", "summarise_data_parallel",
    # namespaces
    "experiments", "lenet_study", "profile",
]
