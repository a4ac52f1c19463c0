"""My capstone: train a small CNN with batch normalisation on augmented MNIST, checkpoint it, export it.

This is the skeleton of notebook 10. Notebook 10 copies it to a file of your own (my_capstone.py); edit that
copy, not this file. Fill in every blank ``____`` (TODO(1) to TODO(10)); the rest is written for you. The file must
stand alone: MindSpore and NumPy only, no ``course_utils``. Try it from a terminal in the notebooks folder:

    python my_capstone.py --data-dir ../data/mnist --out runs/mine --epochs 2 --train-subset 6400 --test-subset 0

The notebook's checks run it exactly like that and expect in ``--out`` (the contract):

* ``checkpoint.ckpt`` - the training step (weights, BatchNorm statistics, optimizer state) plus the position
  ``epoch`` (the epoch in progress, 0-based), ``step_in_epoch`` (its batches already trained) and ``loss_sum``
  (the sum of their training losses, float64), and the settings that decide which batches those are
  (``batch_size``, ``train_subset``, ``seed``), written atomically after every epoch and when the run stops early;
* ``log.jsonl`` - one JSON object per finished epoch: ``epoch`` (1-based), ``global_step``, ``train_loss``,
  ``test_accuracy`` (a fraction), ``seconds``; print a line per epoch too;
* ``model.mindir`` - the trained network in eval mode, input float32 ``(N, 1, 28, 28)`` of any batch size N,
  normalised as in the course (pixels / 255, then mean 0.1307, std 0.3081); written when the last epoch ends.

``--stop-after N`` stops after N training steps in total (as if interrupted), after saving the checkpoint;
``--resume`` continues from it, and refuses a checkpoint written with another ``--batch-size``, ``--train-subset``
or ``--seed`` (written for you).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

MNIST_MEAN, MNIST_STD = 0.1307, 0.3081
CHECKPOINT, LOG, MODEL = "checkpoint.ckpt", "log.jsonl", "model.mindir"
# The settings that decide which batches a position (epoch, step_in_epoch) names: stored in every checkpoint,
# and a resume with other values would skip the wrong samples, so it is refused.
POSITION_SETTINGS = ("batch_size", "train_subset", "seed")


class HelpFormatter(argparse.HelpFormatter):
    """argparse's help, with its two headings written here, so that the Chinese script can say them in Chinese."""

    def add_usage(self, usage, actions, groups, prefix=None):
        super().add_usage(usage, actions, groups, "usage: " if prefix is None else prefix)

    def start_section(self, heading):
        super().start_section("options")   # the one section shown: this script has no positional arguments

    def format_help(self):
        # argparse ends a heading with an ASCII colon; the Chinese heading takes a full-width one
        return super().format_help().replace("options" + ":\n", "options:\n", 1)


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], add_help=False, formatter_class=HelpFormatter)
    p.add_argument("-h", "--help", action="help", help="show this help message and exit")
    p.add_argument("--data-dir", type=Path, default=Path(os.environ.get("COURSE_MNIST_DIR", "data/mnist")),
                   help="folder with the four MNIST IDX files")
    p.add_argument("--out", type=Path, default=Path("runs/capstone"), help="checkpoint, log and model go here")
    p.add_argument("--epochs", type=int, default=3, help="passes over the training set")
    p.add_argument("--batch-size", type=int, default=64, help="images per training step")
    p.add_argument("--lr", type=float, default=2e-3, help="learning rate")
    p.add_argument("--seed", type=int, default=42, help="seeds the weights, the shuffle and the augmentation")
    p.add_argument("--train-subset", type=int, default=0, help="use only the first N training images (0: all)")
    p.add_argument("--test-subset", type=int, default=0, help="evaluate on the first N test images (0: all)")
    # TODO(1): two more options: --resume (a flag: continue from <out>/checkpoint.ckpt) and
    #          --stop-after (an int, default 0: stop after this many training steps in total; 0 means never)
    ____
    ____
    p.add_argument("--device", default="CPU", choices=["CPU", "GPU", "Ascend"], help="the device to run on")
    p.add_argument("--mode", default="graph", choices=["graph", "pynative"],
                   help="execution mode: graph (static graph) or pynative (eager)")
    args = p.parse_args(argv)
    if args.resume and not (args.out / CHECKPOINT).is_file():
        p.error(f"--resume: there is no {args.out / CHECKPOINT} to continue from; run without --resume to start")
    return args


def cpu_speed_fixes(device: str) -> None:
    """Notebook 08's CPU fixes. MindSpore reads these once, when it loads: call before importing it."""
    if device != "CPU":
        return
    if platform.machine().lower() in ("x86_64", "amd64"):
        os.environ.setdefault("ONEDNN_MAX_CPU_ISA", "AVX2")
        os.environ.setdefault("DNNL_MAX_CPU_ISA", "AVX2")     # older name, the only one MindSpore 2.7.1's oneDNN reads
    if (os.cpu_count() or 1) <= 8:
        os.environ.setdefault("MS_DEV_HOST_BLOCKING_RUN", "1")
    os.environ.setdefault("GLOG_v", "3")


# ---- data ------------------------------------------------------------------------------------------------

def build_dataset(data_dir, split, batch_size, subset=0, augment=False, seed=0):
    """MNIST as batches of float32 (B, 1, 28, 28) images and int32 (B,) labels."""
    import mindspore as ms
    import mindspore.dataset as ds
    from mindspore.dataset import transforms, vision

    workers = max(1, min(2, os.cpu_count() or 1))
    ds.config.set_seed(seed)             # this epoch's shuffle and augmentation
    if split == "train":
        sampler = ds.SubsetRandomSampler(list(range(subset))) if subset else ds.RandomSampler()
        dataset = ds.MnistDataset(str(data_dir), usage="train", sampler=sampler)
    else:
        dataset = ds.MnistDataset(str(data_dir), usage="test", shuffle=False, num_samples=subset or None)
    image_ops = []
    if augment:
        # TODO(2): one augmentation op on the uint8 (28, 28, 1) image: small random rotations (up to 10 degrees),
        #          shifts (up to 10% in each direction) and zooms (0.9-1.1). Read the docs of the op you pick.
        image_ops.append(____)
    # TODO(3): the ops every image gets: scale to [0, 1], normalise with MNIST_MEAN / MNIST_STD, channels first
    image_ops += ____
    dataset = dataset.map(operations=image_ops, input_columns="image", num_parallel_workers=workers)
    dataset = dataset.map(operations=transforms.TypeCast(ms.int32), input_columns="label")
    return dataset.batch(batch_size, drop_remainder=split == "train")


# ---- model -----------------------------------------------------------------------------------------------

def build_model():
    """A small CNN of your design, with batch normalisation (10 logits out)."""
    from mindspore import nn

    class SmallCNN(nn.Cell):
        def __init__(self, num_classes=10):
            super().__init__()
            # TODO(4): layers: e.g. two blocks of Conv2d -> BatchNorm2d -> ReLU -> MaxPool2d, then a classifier;
            #          no Dropout: exercise 10.2 compares the logs bit for bit
            ____

        def construct(self, x):
            return ____

    return SmallCNN()


# ---- checkpoint, log, export -----------------------------------------------------------------------------

def save_checkpoint(state, path: Path, epoch: int, step_in_epoch: int, loss_sum: float, settings: dict) -> None:
    """Weights + optimizer state + position + settings, atomically."""
    import mindspore as ms

    # TODO(5): save `state` with the position (epoch, step_in_epoch, loss_sum) and `settings` (append_dict) to
    #          a temporary file in the same folder, flush it to disk (os.fsync), rename it over `path`
    #          (os.replace), then (on POSIX) fsync the folder, so the rename survives a power cut, as in notebook 06.
    #          Mind the suffix: MindSpore appends ".ckpt" to a file name that does not end with it.
    #          And loss_sum: append_dict stores a Python float as float32; store it as a float64 Tensor.
    ____


def restore_checkpoint(state, path: Path) -> tuple:
    """Copy the stored values into the parameters of `state`; return (epoch, step_in_epoch, loss_sum)."""
    import mindspore as ms

    # TODO(6): load the file, copy each stored value into the parameter of the same name *in place*
    #          (Parameter.copy_), and return the stored position: epoch and step_in_epoch as ints, loss_sum as a
    #          float
    ____


def position_settings(args) -> dict:
    """The settings a checkpoint's position depends on, as save_checkpoint stores them."""
    return {name: getattr(args, name) for name in POSITION_SETTINGS}


def refuse_other_settings(path: Path, args) -> None:
    """Exit with a message if the checkpoint was written with other POSITION_SETTINGS than this run's."""
    import mindspore as ms

    stored = ms.load_checkpoint(str(path), choice_func=lambda name: name in POSITION_SETTINGS)
    for name, given in position_settings(args).items():
        option = "--" + name.replace("_", "-")
        if name not in stored:
            sys.exit(f"--resume: {path} does not record {option}, so its position cannot be trusted; "
                     "run without --resume to start again")
        saved = int(stored[name].asnumpy().reshape(-1)[0])
        if saved != given:
            sys.exit(f"--resume: {path} was written with {option} {saved}, this run has {option} {given}: "
                     f"its position would skip other samples; resume with {option} {saved} or run without --resume")


def append_log(path: Path, record: dict) -> None:
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(json.dumps(record) + "\n")
        fh.flush()
        os.fsync(fh.fileno())


def export_mindir(net, path: Path) -> None:
    """The network in eval mode, any batch size, as MindIR."""
    import mindspore as ms

    # TODO(7): eval mode, then mindspore.export with an input whose batch dimension is None, to `path`
    ____


# ---- training and evaluation -----------------------------------------------------------------------------

def evaluate(net, dataset) -> float:
    """Fraction of correctly classified images, with the network in eval mode."""
    # TODO(8): eval mode (BatchNorm's stored statistics, no dropout), count the correct predictions over all
    #          batches, back to training mode, return the fraction
    ____


def main(argv=None) -> int:
    args = parse_args(argv)
    cpu_speed_fixes(args.device)

    import mindspore as ms
    from mindspore import nn

    ms.set_device(args.device)
    ms.set_context(mode=ms.GRAPH_MODE if args.mode == "graph" else ms.PYNATIVE_MODE)
    ms.set_seed(args.seed)
    np.random.seed(args.seed)
    args.out.mkdir(parents=True, exist_ok=True)
    ckpt_path, log_path = args.out / CHECKPOINT, args.out / LOG

    net = build_model()
    # TODO(9): the loss, an optimizer with learning rate args.lr (nn.Adam: --lr's default, 2e-3, is a rate for
    #          Adam; exercise 10.3 passes no --lr, so another optimizer needs its own default) and the training
    #          step train_step(images, labels) -> loss, in the style you prefer: Cell (WithLossCell +
    #          TrainOneStepCell) or functional (value_and_grad + the optimizer). `state` is what checkpoints save
    #          and restore: a Cell that holds the network and the optimizer (a Cell-style training step is one;
    #          for a functional step, a Cell of your own built with super().__init__(auto_prefix=False) that keeps
    #          both as attributes, section 3 of the notebook: nn.CellList would rename their parameters).
    #          Then training mode: every Cell starts in eval mode, where BatchNorm uses its stored statistics, so
    #          call train_step.set_train() (net.set_train() for a functional step).
    optimizer = ____
    train_step = ____
    ____
    state = ____
    test_set = build_dataset(args.data_dir, "test", 256, subset=args.test_subset)

    start_epoch, skip, carried = 0, 0, 0.0
    settings = position_settings(args)
    if args.resume:
        refuse_other_settings(ckpt_path, args)
        start_epoch, skip, carried = restore_checkpoint(state, ckpt_path)
        print(f"resumed from {ckpt_path}: epoch {start_epoch + 1}, {skip} of its steps already done", flush=True)
    else:
        for stale in (log_path, args.out / MODEL):   # a fresh run starts a fresh log and model
            stale.unlink(missing_ok=True)
    global_step = int(optimizer.global_step.asnumpy().reshape(-1)[0])

    for epoch in range(start_epoch, args.epochs):
        train_set = build_dataset(args.data_dir, "train", args.batch_size, subset=args.train_subset,
                                  augment=True, seed=args.seed + epoch)
        # the epoch's running loss sum: an interrupted epoch continues the sum its first process stored
        started, loss_sum = time.perf_counter(), carried
        for step_in_epoch, (images, labels) in enumerate(train_set.create_tuple_iterator(num_epochs=1)):
            # TODO(10): skip the batches trained before the interruption; train one step, add its loss to
            #          loss_sum and count the step; after --stop-after steps in total, save the checkpoint with
            #          the exact position (and `settings`) and return 0
            ____
        skip, carried = 0, 0.0
        accuracy = evaluate(net, test_set)
        seconds = time.perf_counter() - started
        save_checkpoint(state, ckpt_path, epoch + 1, 0, 0.0, settings)
        record = {"epoch": epoch + 1, "global_step": global_step, "train_loss": loss_sum / train_set.get_dataset_size(),
                  "test_accuracy": accuracy, "seconds": seconds}
        append_log(log_path, record)
        print(f"epoch {epoch + 1}/{args.epochs}  loss {record['train_loss']:.4f}  "
              f"test accuracy {accuracy:.2%}  {seconds:.1f} s", flush=True)

    export_mindir(net, args.out / MODEL)
    print(f"exported {args.out / MODEL}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
