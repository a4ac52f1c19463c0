"""The command line: ``python -m course_utils.bench list | run NAMES | headline``.

    python -m course_utils.bench list
    python -m course_utils.bench headline --json runs/bench.json          # the headline table
    python -m course_utils.bench run modes styles --quick --json out.json  # some experiments
    python -m course_utils.bench run all --json runs/bench_full.json       # every experiment for the device

``python -m course_utils.bench worker NAME --params JSON --out FILE`` is the subprocess side.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from typing import Optional, Sequence

from .experiments import EXPERIMENTS, HEADLINE, PUBLIC, get, run_experiment, select_experiments, worker_main
from .report import header, save_json
from .steps import Spec


def _kwargs(args) -> dict:
    kw = {"quick": args.quick, "device": args.device}
    for name in ("repeats", "steps", "batch_size"):
        if getattr(args, name):
            kw[name] = getattr(args, name)
    if args.batch_sizes:
        kw["batch_sizes"] = tuple(int(b) for b in args.batch_sizes.split(","))
    if args.specs:
        kw["specs"] = tuple(args.specs.split(","))
        for s in kw["specs"]:
            Spec.parse(s)
    return kw


def params_for(name: str, kwargs: dict):
    """Experiment ``name``'s parameters from the command-line values that apply to it."""
    exp = get(name)
    fields = {f.name for f in dataclasses.fields(exp.params)}
    kw = {k: v for k, v in kwargs.items() if k in fields}
    if "spec" in fields and "specs" in kwargs:   # one-configuration experiments take the first
        kw["spec"] = kwargs["specs"][0]
    return exp.make_params(**kw)


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m course_utils.bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("list", help="list the experiments")
    for cmd, helptext in (("run", "run experiments (names, or 'all')"),
                          ("headline", "the headline table (CPU traps, modes, styles)")):
        p = sub.add_parser(cmd, help=helptext)
        if cmd == "run":
            p.add_argument("experiments", nargs="+", help=f"any of: {', '.join(PUBLIC)}, or 'all'")
        p.add_argument("--json", help="write the results to this JSON file")
        p.add_argument("--quick", action="store_true", help="short runs (what the notebook's QUICK does)")
        p.add_argument("--device", default="CPU", help="CPU (default), GPU or Ascend")
        p.add_argument("--repeats", type=int, help="timed repeats per configuration")
        p.add_argument("--steps", type=int, help="steps per timed repeat")
        p.add_argument("--batch-size", type=int, help="batch size (default 64)")
        p.add_argument("--batch-sizes", help="comma-separated, for batch_sizes (default 32,64,128,256,512)")
        p.add_argument("--specs", help="comma-separated configurations, e.g. graph/cell,pynative/jit:O1")
    w = sub.add_parser("worker", help="(internal) measure one experiment in this process")
    w.add_argument("name")
    w.add_argument("--params", required=True)
    w.add_argument("--out", required=True)
    args = parser.parse_args(argv)

    if args.command == "worker":
        return worker_main(args.name, args.params, args.out)
    if args.command in (None, "list"):
        for name in PUBLIC:
            exp = EXPERIMENTS[name]
            where = "own process" if exp.isolated else "spawns processes"
            only = "" if len(exp.devices) == 3 else f", {'/'.join(exp.devices)} only"
            print(f"  {name:17s} {exp.title}  [{where}{only}]")
        print(f"  headline          = {' + '.join(HEADLINE)}")
        return 0
    try:
        kwargs = _kwargs(args)
        names = list(HEADLINE) if args.command == "headline" else (
            select_experiments(args.device) if args.experiments == ["all"] else args.experiments)
    except ValueError as exc:
        parser.error(str(exc))
    unknown = [n for n in names if n not in PUBLIC]
    if unknown:
        parser.error(f"unknown experiment(s) {', '.join(unknown)}; choose from {', '.join(PUBLIC)} or 'all'")
    print(header(), flush=True)
    results = []
    for name in names:
        try:
            params = params_for(name, kwargs)
        except ValueError as exc:
            parser.error(f"{name}: {exc}")
        result = run_experiment(name, params)
        results.append(result)
        if name == "modes" and "best_config" in result.metrics:
            kwargs["best_spec"] = result.metrics["best_config"]    # for time_to_accuracy
        print(f"\n{result}\n({result.seconds:.0f} s)", flush=True)
        if args.json:
            save_json(results, args.json)
    if args.json:
        print(f"\nwrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
