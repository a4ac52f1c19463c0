"""The lab's experiments: a registry, the device-based selection, and the runner.

Every experiment is a typed parameter class, ``measure(params) -> rows`` (runs MindSpore, in a
fresh worker process when ``isolated``) and a pure ``summarise(rows, params) -> Result``.
``run_experiment`` wraps the two with the conditions (load before/after, other processes' CPU use).
"""

from __future__ import annotations

import dataclasses

from typing import Callable, Dict, List, Mapping, Optional, Tuple

from course_utils import runtime
from course_utils.i18n import N_, tr

from .. import params as P
from ..isolation import run_worker, temp_cwd
from ..report import Measuring, Result, header, skipped
from . import accuracy, amp, findings, modes, pipeline, shapes, sink, traps
# What lessons 07 and 08 show and call themselves (each experiment's code is in sight there), named here: the face.
from .accuracy import StopWhen, measure_time_to_accuracy, measure_train_to_accuracy
from .amp import amp_step, measure_amp
from .common import (SIDE_WORDS, forcing_conclusion, forcing_words, not_ruled_out_pct, paired_reading, short_reading,
                     two_readings, verdict_table, warmup_reading)
from .findings import (naive_rates, part2_standing, part6_setting, plot_time_to_accuracy, pynative_vs_graph,
                       resolution, this_run_found)
from .modes import (CLAIMED_RATIO, COPY, PIPELINE_COPY, best_measured, compiled_pair, copies_band,
                    measure_batch_sizes, measure_forcing, measure_modes, measure_step_rates, measure_styles,
                    style_intervals, sweep_against_parts)
from .modes import (SLOW_ROUND, loop_advice, pair_reading, round_samples, round_shares,   # lesson 07's summary
                    sweep_finding, sweep_reference, sweep_relative)                         # and part 4
from .pipeline import measure_data_pipeline, paired_words
from .shapes import compile_calls, measure_dynamic_shapes
from .sink import measure_sink_mode
from .traps import (CONV_OPS, FIND_CASES, JIT_PIPELINE_CASE, POOL_OPS, TRAP_CASES, alternating, cap_price_rows, eager,
                    explain_pool_rewrites, explain_three_tools, fastest_run, format_cap_price, format_layer_costs,
                    layer_cost_rows, layer_functions, layer_grad, layer_macs, measure_cpu_traps, measure_find_trap,
                    measure_layer_times, measure_pool_cap, merge_rounds, parse_onednn_verbose, round_repeats,
                    summarise_cpu_traps)

ALL_DEVICES = runtime.DEVICES


@dataclasses.dataclass(frozen=True)
class Experiment:
    name: str
    english_title: str           # one line for `list` and the notebook (``title``: in the course's language)
    params: type                 # the parameter dataclass
    measure: Callable            # params -> rows
    summarise: Callable          # (rows, params) -> Result, pure
    isolated: bool = True        # measure in a fresh worker process with the CPU fixes (False: it spawns its own)
    cwd_temp: bool = False       # measure in a temporary working directory (files it writes are thrown away)
    internal: bool = False       # a building block of another experiment, not listed
    devices: Tuple[str, ...] = ALL_DEVICES   # where it is selected
    defaults: Mapping = dataclasses.field(default_factory=dict)   # parameter values that make this experiment
    env: Optional[Callable] = None   # params -> the isolated worker's environment (None: the CPU fixes of the device)

    @property
    def title(self) -> str:
        return tr(self.english_title)

    def make_params(self, **kwargs):
        return self.params(**{**self.defaults, **kwargs})


def _exp(name, title, params, module, suffix=None, **kw) -> Experiment:
    suffix = suffix or name
    return Experiment(name, title, params, getattr(module, f"measure_{suffix}"), getattr(module, f"summarise_{suffix}"),
                      **kw)


def _forcing_env(p) -> dict:
    """The forcing worker's environment: the device's CPU fixes, without host blocking unless asked for."""
    return {k: v for k, v in runtime.cpu_fix_env(p.device).items()
            if p.host_blocking or k != "MS_DEV_HOST_BLOCKING_RUN"}


_LIST = [
    _exp("modes", N_("PyNative vs GRAPH_MODE vs @jit (functional and on a Cell), jit_level O0 vs O1"),
         P.ModesParams, modes),
    _exp("styles", N_("Functional step vs TrainOneStepCell vs Model.train (the source's \"15% faster\" claim)"),
         P.StylesParams, modes),
    _exp("batch_sizes", N_("Samples/s and time per epoch against the batch size"), P.BatchSizesParams, modes),
    _exp("cpu_traps", N_("The two CPU traps: every combination of the two fixes, each in its own process"),
         P.TrapsParams, traps, isolated=False, devices=("CPU",)),
    _exp("find_trap", N_("Finding the oneDNN trap: per-layer timing and ONEDNN_VERBOSE, with and without the cap"),
         P.FindTrapParams, traps, isolated=False, devices=("CPU",)),
    _exp("pool_cap", N_("The ISA cap's price: the pooling layers' forward and backward, with and without the cap"),
         P.PoolCapParams, traps, isolated=False, devices=("CPU",)),
    _exp("data_pipeline", N_("The input pipeline: the step fed by it vs on in-memory batches; dataset sink mode"),
         P.PipelineParams, pipeline),
    _exp("amp", N_("auto_mixed_precision O0-O3: steps/s and accuracy after the same number of steps"),
         P.AmpParams, amp, cwd_temp=True),
    _exp("dynamic_shapes", N_("Recompilation on every new batch shape, measured, and two fixes"), P.ShapesParams,
         shapes),
    _exp("time_to_accuracy",
         N_("Training time to 98.5% / 99.0% test accuracy: course's CPU settings vs naive defaults"),
         P.TimeToAccuracyParams, accuracy, isolated=False),
    # Ascend only: where sink mode, float16 and the jit level change the answer.
    _exp("sink_mode", N_("Model.train with dataset sink mode off and on, several sink sizes"),
         P.SinkParams, sink, devices=("Ascend",)),
    _exp("amp_loss_scale", N_("AMP O2/O3 with a fixed loss scale (TrainOneStepWithLossScaleCell) vs O0"),
         P.AmpParams, amp, suffix="amp", cwd_temp=True, devices=("Ascend",),
         defaults={"levels": ("O0", "O2", "O3"), "loss_scale": 1024.0}),
    _exp("jit_levels", N_("jit_level O0 vs O1 for the functional step and the Cell, vs GRAPH_MODE"),
         P.ModesParams, modes, suffix="modes", devices=("Ascend",),
         defaults={"specs": ("graph/cell", "pynative/jit:O0", "pynative/jit:O1", "pynative/jit_cell:O0",
                             "pynative/jit_cell:O1")}),
    # building blocks (never listed: their titles stay English)
    _exp("forcing", "(worker) forced and not forced, host blocking on or off (lesson 07, rule 2)",
         P.ForcingParams, modes, internal=True, env=_forcing_env),
    _exp("step_rates", "(worker) steps/s of some configurations in this process",
         P.StepRatesParams, modes, internal=True),
    _exp("layer_times", "(worker) forward+backward time of each LeNet-5 layer",
         P.LayerTimesParams, traps, internal=True),
    _exp("train_to_accuracy", "(worker) train until the targets or the time limit",
         P.TrainParams, accuracy, cwd_temp=True, internal=True),
]
EXPERIMENTS: Dict[str, Experiment] = {e.name: e for e in _LIST}
PUBLIC = [e.name for e in _LIST if not e.internal]
HEADLINE = ("cpu_traps", "modes", "styles")


def select_experiments(device: str) -> List[str]:
    """The public experiments that apply to ``device`` ("CPU", "GPU", "Ascend"; any case), in lab order."""
    try:
        device = runtime.device_name(device)
    except ValueError:
        pass   # reported below, with the lab's devices
    if device not in ALL_DEVICES:
        raise ValueError(f"unknown device {device!r}: use one of {', '.join(ALL_DEVICES)}")
    return [name for name in PUBLIC if device in EXPERIMENTS[name].devices]


def get(name: str) -> Experiment:
    if name not in EXPERIMENTS:
        raise ValueError(f"unknown experiment {name!r}; choose from: {', '.join(PUBLIC)}")
    return EXPERIMENTS[name]


def run_experiment(name: str, params=None, isolate: bool = True, env: Optional[Mapping[str, str]] = None,
                   **kwargs) -> Result:
    """Measure and summarise experiment ``name`` (``params`` or ``kwargs`` for its parameter class).

    Isolated experiments measure in a fresh process with the CPU fixes (``env``: with these settings instead, on top
    of an environment without the fixes; ``isolate=False``: in this process, which must be set up already); the
    others spawn their own processes. The result carries the header and the conditions; an experiment not meant for
    the device is skipped, saying why.
    """
    exp = get(name)
    params = params if params is not None else exp.make_params(**kwargs)
    if params.device not in exp.devices:
        return skipped(name, tr("{name} is measured on {devices} only, not {device}", name=name,
                                devices=tr(" and ").join(exp.devices), device=params.device))
    if env is not None and not exp.isolated:
        raise ValueError(f"{name} launches its own processes: env applies to an isolated experiment only")
    with Measuring() as m:
        if exp.isolated and isolate:
            if env is None:
                env = exp.env(params) if exp.env else runtime.cpu_fix_env(params.device)
            out, _ = run_worker(name, params, env=env, cwd_temp=exp.cwd_temp)
            rows, hdr = out["rows"], out["header"]
        else:
            if exp.cwd_temp:
                with temp_cwd():
                    rows = exp.measure(params)
            else:
                rows = exp.measure(params)
            hdr = header(env=exp.isolated)   # an experiment that spawns its own processes: each row has its own env
    result = exp.summarise(rows, params)
    result.header, result.conditions, result.seconds = result.header or hdr, m.conditions, m.conditions.seconds
    return result


def worker_main(name: str, params_json: str, out: str) -> int:
    """The worker process's side of ``run_worker``: measure, write ``{"rows", "header"}`` atomically."""
    import json

    from course_utils.fileio import atomic_write

    from ..report import jsonable

    exp = get(name)
    rows = exp.measure(exp.params.from_json(params_json))
    atomic_write(out, json.dumps({"rows": jsonable(rows), "header": header()}, default=float))
    return 0


__all__ = [
    # the verdicts as a table a person reads
    "short_reading", "verdict_table",
    # the registry and the runner
    "EXPERIMENTS", "Experiment", "HEADLINE", "PUBLIC", "get", "run_experiment", "select_experiments", "worker_main",
    # each experiment's measurement, as lessons 07 and 08 show and call it
    "measure_modes", "measure_styles", "measure_batch_sizes", "measure_step_rates", "measure_cpu_traps",
    "measure_find_trap", "layer_grad", "layer_macs", "layer_cost_rows", "format_layer_costs", "cap_price_rows",
    "format_cap_price", "measure_layer_times", "measure_pool_cap", "measure_data_pipeline",
    "amp_step", "measure_amp", "measure_dynamic_shapes", "measure_forcing", "measure_time_to_accuracy",
    "measure_train_to_accuracy", "measure_sink_mode",
    "summarise_cpu_traps",
    # the cases and helpers those cells use
    "TRAP_CASES", "JIT_PIPELINE_CASE", "FIND_CASES", "StopWhen", "best_measured", "compile_calls", "compiled_pair",
    "CLAIMED_RATIO", "COPY", "PIPELINE_COPY", "copies_band", "style_intervals", "sweep_against_parts",
    "parse_onednn_verbose", "alternating", "round_repeats", "merge_rounds", "eager", "fastest_run",
    "explain_three_tools", "explain_pool_rewrites", "layer_functions", "CONV_OPS", "POOL_OPS", "forcing_conclusion",
    "paired_words", "SIDE_WORDS", "forcing_words", "paired_reading", "not_ruled_out_pct",
    "two_readings", "warmup_reading",
    # lesson 07's summary advice and part 4's figure (modes.py)
    "loop_advice", "pair_reading", "SLOW_ROUND", "round_samples", "round_shares", "sweep_reference",
    "sweep_relative", "sweep_finding",
    # lesson 08's results read together (findings.py)
    "naive_rates", "pynative_vs_graph", "part2_standing", "plot_time_to_accuracy",
    "this_run_found", "resolution", "part6_setting",
]
