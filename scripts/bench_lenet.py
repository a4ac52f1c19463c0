"""Notebook 05's recipe study: which LeNet-5 recipe to train, chosen on a validation split, never on the test set.

    python scripts/bench_lenet.py                                  # the notebook's recipe, seed 42
    python scripts/bench_lenet.py --seeds 1 2 --epochs 4 5         # a grid: every recipe x every seed
    python scripts/bench_lenet.py --seeds 1 2 3 4 42 --epochs 3 4 5 \\
        --json scripts/results/lenet_recipe.json                   # what notebook 05 shows (~7 min on a quiet
                                                                   # 2-core CPU; --resume continues a cut-off study)

The recipe is notebook 05's: LeNet-5, ``nn.TrainOneStepCell`` (notebook 04's Cell-based step), Adam with a 5%
linear warm-up and cosine decay to 0, batch 64, the data order fixed by the seed
(``mnist_dataset(seed=SEED + epoch)``), trained on the 55,000 training images that remain after holding out a
validation split of ``--validation`` images (``course_utils.data.holdout_indices``: the same images as the
notebook). A grid is every ``--epochs`` value with the first ``--lr``, plus every other ``--lr`` with the
middle ``--epochs`` value (not the full product: that is where the time would go), each run once per seed.

What is measured, per run: the validation accuracy ``--evals-per-epoch`` times per epoch and at the end (the
clock runs only inside training steps, each forced with ``.asnumpy()``), the step at which it first reached
``--target``, and steps/s (first call excluded). The recipe is then **chosen on the final validation
accuracy**: the highest median over the seeds wins, and every recipe whose median lies within the winner's
seed-to-seed range is a tie, settled in favour of the cheapest (fewest steps). Only after that does each run
evaluate the 10,000 test images, once, so the test accuracy reported beside the choice played no part in it.

Every table starts with ``runtime.machine_header()`` and the load average: on a shared machine times are
inflated, so quote the conditions with the numbers. ``--json`` writes the whole study (after every run, so an
interrupted study keeps what it measured).
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
    parser.add_argument("--epochs", type=int, nargs="+", default=[4], help="one or more epoch counts")
    parser.add_argument("--lr", type=float, nargs="+", default=[2e-3], help="peak learning rate(s) of Adam")
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--seeds", type=int, nargs="+", default=[42])
    parser.add_argument("--validation", type=int, default=5000,
                        help="training images held out to choose the recipe on (default 5000, as notebook 05)")
    parser.add_argument("--mode", choices=["graph", "pynative"], default="graph")
    parser.add_argument("--device", default="auto")
    parser.add_argument("--target", type=float, default=0.99, help="validation accuracy to reach (default 0.99)")
    parser.add_argument("--evals-per-epoch", type=int, default=2)
    parser.add_argument("--data-dir", default=None, help="folder of the MNIST files (default data/mnist)")
    parser.add_argument("--json", type=Path, help="also write the study to this JSON file")
    parser.add_argument("--resume", action="store_true",
                        help="keep the runs already in --json (same settings) and do only the missing ones")
    args = parser.parse_args(argv)
    if min(args.epochs) < 1 or args.batch_size < 1 or args.evals_per_epoch < 1 or args.validation < 1:
        parser.error("--epochs, --batch-size, --evals-per-epoch and --validation must be positive")
    if min(args.lr) <= 0:
        parser.error("--lr must be positive")
    if not 0 < args.target <= 1:
        parser.error("--target is a fraction, e.g. 0.99")
    return args


def recipes(args) -> list:
    """(epochs, lr) pairs: every epoch count at the first lr, every other lr at the middle epoch count."""
    first_lr, middle = args.lr[0], sorted(args.epochs)[len(args.epochs) // 2]
    grid = [(e, first_lr) for e in args.epochs] + [(middle, lr) for lr in args.lr[1:]]
    return list(dict.fromkeys(grid))


def run(args, epochs: int, lr: float, seed: int) -> dict:
    import mindspore as ms
    from mindspore import nn

    from course_utils import data, evaluate
    from course_utils.models import LeNet5
    from course_utils.training import fit, warmup_cosine_lr

    ms.set_seed(seed)
    net = LeNet5()

    def train_data(epoch):
        return data.mnist_dataset("train", batch_size=args.batch_size, seed=seed + epoch, data_dir=args.data_dir,
                                  validation=args.validation)

    per_epoch = train_data(0).get_dataset_size()
    total = epochs * per_epoch
    optimizer = nn.Adam(net.trainable_params(), learning_rate=warmup_cosine_lr(lr, total,
                                                                              warmup_steps=max(1, total // 20)))
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.CrossEntropyLoss()), optimizer)
    validation_set = data.mnist_dataset("validation", batch_size=1000, data_dir=args.data_dir,
                                        validation=args.validation)
    result = fit(step, train_data, epochs, network=net, eval_data=validation_set,
                 eval_every=max(per_epoch // args.evals_per_epoch, 1), progress=False, eval_name="validation")
    reached = next((e for e in result.evals if e["accuracy"] >= args.target), None)
    test_accuracy = evaluate.evaluate(net, data.mnist_dataset("test", batch_size=1000, data_dir=args.data_dir)).accuracy
    return {
        "epochs": epochs, "lr": lr, "seed": seed,
        "validation_accuracy": result.final_accuracy,
        "test_accuracy": test_accuracy,            # evaluated once, after training; not used for the choice
        "target_step": reached["step"] if reached else None,
        "time_to_target_s": reached["train_seconds"] if reached else None,
        "steps": result.steps,
        "train_seconds": result.train_seconds,
        "first_call_s": result.first_step_seconds,
        "steps_per_s": result.steps_per_s,
        "curve": [{k: e[k] for k in ("step", "accuracy", "train_seconds")} for e in result.evals],
    }


def choose(rows: list) -> dict:
    """The recipe with the highest median final validation accuracy; recipes whose median lies within the
    winner's seed-to-seed range are ties, settled by the fewest steps. Returns a summary per recipe too."""
    by_recipe = {}
    for row in rows:
        by_recipe.setdefault((row["epochs"], row["lr"]), []).append(row)
    summary = []
    for (epochs, lr), runs in by_recipe.items():
        val = [r["validation_accuracy"] for r in runs]
        summary.append({"epochs": epochs, "lr": lr, "seeds": [r["seed"] for r in runs],
                        "validation_median": statistics.median(val), "validation_min": min(val),
                        "validation_max": max(val),
                        "test_median": statistics.median(r["test_accuracy"] for r in runs),
                        "steps": runs[0]["steps"]})
    best = max(summary, key=lambda s: s["validation_median"])
    ties = [s for s in summary if s["validation_median"] >= best["validation_min"]]
    chosen = min(ties, key=lambda s: (s["steps"], -s["validation_median"]))
    return {"recipes": summary, "best_median": best, "ties": ties, "chosen": chosen}


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
    grid = recipes(args)
    print(f"LeNet-5, TrainOneStepCell, {args.mode} mode, Adam (5% warm-up, cosine), batch {args.batch_size}; "
          f"{args.validation} training images held out for validation, evaluated {args.evals_per_epoch}x per "
          f"epoch; recipes (epochs, peak lr): {grid}; seeds {args.seeds}")
    print()
    print(f"{'epochs':>6} {'lr':>7} {'seed':>5} {'val acc':>8} {'step at ' + format(args.target, '.1%'):>13} "
          f"{'steps/s':>8} {'train s':>8} {'test acc (once, after)':>23}")
    rows = []
    if args.resume and args.json and args.json.exists():
        rows = [r for r in json.loads(args.json.read_text(encoding="utf-8"))["rows"]
                if (r["epochs"], r["lr"]) in grid and r["seed"] in args.seeds]
        print(f"resuming: {len(rows)} run(s) kept from {args.json}")
    started = time.perf_counter()
    study = {"header": header, "load_before": load_before,
             "args": {k: v for k, v in vars(args).items() if k not in ("json", "resume")}, "rows": rows}
    done = {(r["epochs"], r["lr"], r["seed"]) for r in rows}
    for epochs, lr in grid:
        for seed in args.seeds:
            if (epochs, lr, seed) in done:
                continue
            row = run(args, epochs, lr, seed)
            rows.append(row)
            print(f"{epochs:>6} {lr:>7g} {seed:>5} {row['validation_accuracy']:>8.4f} "
                  f"{_fmt(row['target_step'], 'd'):>13} {row['steps_per_s']:>8.1f} {row['train_seconds']:>8.1f} "
                  f"{row['test_accuracy']:>23.4f}", flush=True)
            if args.json:
                study["load_after"] = os.getloadavg()
                study["choice"] = choose(rows)
                atomic_write(args.json, json.dumps(study, indent=1, default=str))
    choice = choose(rows)
    print()
    print(f"{'epochs':>6} {'lr':>7} {'validation accuracy: median (min-max) over seeds':>50} {'test median':>12}")
    for s in choice["recipes"]:
        print(f"{s['epochs']:>6} {s['lr']:>7g} {s['validation_median']:>29.2%} ({s['validation_min']:.2%}-"
              f"{s['validation_max']:.2%}) {s['test_median']:>12.2%}")
    c, b = choice["chosen"], choice["best_median"]
    tie = "" if c is b else (f" (tied with the best median, {b['epochs']} epochs at lr {b['lr']:g}, within its "
                             f"seed-to-seed range: the cheaper one)")
    print(f"\nchosen on validation accuracy: {c['epochs']} epochs at peak lr {c['lr']:g}{tie}; "
          f"wall time {time.perf_counter() - started:.0f} s; load average at the end {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
