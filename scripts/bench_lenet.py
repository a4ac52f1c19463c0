"""Time to 99% test accuracy, and steps/s, of notebook 04's training recipe (LeNet-5 on MNIST).

    python scripts/bench_lenet.py                     # the notebook's defaults, seed 42
    python scripts/bench_lenet.py --seeds 1 2 3       # several seeds, one after the other
    python scripts/bench_lenet.py --mode pynative --json runs/bench_lenet.json

The recipe is the notebook's default parameters: LeNet-5, ``nn.TrainOneStepCell`` (notebook 03's
Cell-based step), Adam with a 5% linear warm-up and cosine decay to 0, batch 64, 4 epochs, the data
order fixed by the seed (``mnist_dataset(seed=SEED + epoch)``). The full 10,000-image test set is
evaluated every quarter epoch; the clock runs only inside training steps (each forced with
``.asnumpy()``), so evaluation does not count. Reported per seed:

* time to target: training seconds until the first evaluation at or above ``--target``
  (including the first call, which in GRAPH_MODE is mostly compilation), and that step;
* steps/s: the steady-state rate over the whole run, first call excluded;
* the final test accuracy.

Every table starts with ``runtime.machine_header()`` and the load average: on a shared machine the
times are inflated, so quote the conditions with the numbers.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

from course_utils import runtime  # setup() must run before MindSpore is imported
from course_utils.fileio import atomic_write


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--lr", type=float, default=2e-3, help="peak learning rate of Adam")
    parser.add_argument("--seeds", type=int, nargs="+", default=[42])
    parser.add_argument("--mode", choices=["graph", "pynative"], default="graph")
    parser.add_argument("--device", default="auto")
    parser.add_argument("--target", type=float, default=0.99, help="test accuracy to reach (default 0.99)")
    parser.add_argument("--evals-per-epoch", type=int, default=4)
    parser.add_argument("--data-dir", default=None, help="folder of the MNIST files (default data/mnist)")
    parser.add_argument("--json", type=Path, help="also write the results to this JSON file")
    args = parser.parse_args(argv)
    if args.epochs < 1 or args.batch_size < 1 or args.evals_per_epoch < 1:
        parser.error("--epochs, --batch-size and --evals-per-epoch must be positive")
    if not 0 < args.target <= 1:
        parser.error("--target is a fraction, e.g. 0.99")
    return args


def run_seed(args, seed: int) -> dict:
    import mindspore as ms
    from mindspore import nn

    from course_utils import data
    from course_utils.models import LeNet5
    from course_utils.training import fit, warmup_cosine_lr

    ms.set_seed(seed)
    net = LeNet5()

    def train_data(epoch):
        return data.mnist_dataset("train", batch_size=args.batch_size, seed=seed + epoch, data_dir=args.data_dir)

    per_epoch = train_data(0).get_dataset_size()
    total = args.epochs * per_epoch
    optimizer = nn.Adam(net.trainable_params(),
                        learning_rate=warmup_cosine_lr(args.lr, total, warmup_steps=max(1, total // 20)))
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.CrossEntropyLoss()), optimizer)
    test_set = data.mnist_dataset("test", batch_size=1000, data_dir=args.data_dir)
    result = fit(step, train_data, args.epochs, network=net, eval_data=test_set,
                 eval_every=max(per_epoch // args.evals_per_epoch, 1), progress=False)
    reached = next((e for e in result.evals if e["accuracy"] >= args.target), None)
    return {
        "seed": seed,
        "target_step": reached["step"] if reached else None,
        "time_to_target_s": reached["train_seconds"] if reached else None,
        "final_accuracy": result.final_accuracy,
        "steps": result.steps,
        "train_seconds": result.train_seconds,
        "first_call_s": result.first_step_seconds,
        "steps_per_s": result.steps_per_s,
        "curve": [{k: e[k] for k in ("step", "accuracy", "train_seconds")} for e in result.evals],
    }


def _fmt(value, spec):
    return "-" if value is None else format(value, spec)


def main(argv=None) -> int:
    args = parse_args(argv)
    runtime.setup(device=args.device, mode=args.mode, seed=args.seeds[0], verbose=False)
    load_before = os.getloadavg()
    header = runtime.machine_header()
    print(header)
    print(f"load average (1/5/15 min) at start: {load_before[0]:.2f} / {load_before[1]:.2f} / {load_before[2]:.2f} "
          f"on {runtime.cpu_count()} CPUs")
    print(f"recipe: LeNet-5, TrainOneStepCell, {args.mode} mode, Adam peak lr {args.lr:g} (5% warm-up, cosine), "
          f"batch {args.batch_size}, {args.epochs} epochs; test set evaluated {args.evals_per_epoch}x per epoch")
    print()
    columns = f"{'seed':>6} {'step at ' + format(args.target, '.1%'):>14} {'train s to it':>14} " \
              f"{'final acc':>10} {'steps/s':>8} {'first call s':>13} {'total train s':>14}"
    print(columns)
    rows = []
    started = time.perf_counter()
    for seed in args.seeds:
        row = run_seed(args, seed)
        rows.append(row)
        print(f"{seed:>6} {_fmt(row['target_step'], 'd'):>14} {_fmt(row['time_to_target_s'], '.1f'):>14} "
              f"{row['final_accuracy']:>10.4f} {row['steps_per_s']:>8.1f} {row['first_call_s']:>13.2f} "
              f"{row['train_seconds']:>14.1f}", flush=True)
    load_after = os.getloadavg()
    times = [r["time_to_target_s"] for r in rows if r["time_to_target_s"] is not None]
    rates = [r["steps_per_s"] for r in rows]
    print()
    print(f"median steps/s {statistics.median(rates):.1f}; "
          + (f"median time to {args.target:.1%}: {statistics.median(times):.1f} s of training "
             f"({len(times)}/{len(rows)} seeds reached it)" if times else f"no seed reached {args.target:.1%}")
          + f"; wall time {time.perf_counter() - started:.0f} s; load average at the end {load_after[0]:.2f}")
    if args.json:
        atomic_write(args.json, json.dumps({"header": header, "load_before": load_before, "load_after": load_after,
                                            "args": {k: v for k, v in vars(args).items() if k != "json"},
                                            "rows": rows}, indent=1, default=str))
    return 0 if len(times) == len(rows) else 1


if __name__ == "__main__":
    sys.exit(main())
