"""Train a small CNN with batch normalisation on augmented MNIST, from the data to an exported MindIR model.

The reference solution of the capstone (notebook 10). It is one standalone file: it imports MindSpore and
NumPy, nothing of the course, so it runs anywhere MindSpore 2.10 does. From a terminal:

    cd notebooks
    python scripts/capstone_reference.py --data-dir ../data/mnist --out runs/capstone --epochs 3
    python scripts/capstone_reference.py ... --stop-after 100     # stop after 100 training steps, as if interrupted
    python scripts/capstone_reference.py ... --resume              # continue from <out>/checkpoint.ckpt

What it writes into ``--out`` (the contract notebook 10's checks rely on):

* ``checkpoint.ckpt`` - the training step (weights, BatchNorm statistics, optimizer state) plus the position
  ``epoch`` (the epoch in progress, 0-based), ``step_in_epoch`` (its batches already trained) and ``loss_sum``
  (the sum of their training losses, float64), and the settings that decide which batches those are
  (``batch_size``, ``train_subset``, ``seed``), written atomically after every epoch and when the run stops early;
* ``log.jsonl`` - one JSON object per finished epoch: ``epoch`` (1-based), ``global_step``, ``train_loss``,
  ``test_accuracy``, ``seconds``; the same line is printed;
* ``model.mindir`` - the trained network in eval mode, input float32 ``(N, 1, 28, 28)`` of any batch size N,
  normalised as in the course (pixels / 255, then mean 0.1307, std 0.3081); written when the last epoch ends.

Ctrl-C (SIGINT), ``kill`` (SIGTERM) and ``--stop-after`` all save the exact position and exit (with 128 + the
signal's number, or 0 for ``--stop-after``); ``--resume`` continues from it, on
the same batches the uninterrupted run would have seen (each epoch's shuffle and augmentation are seeded with
``seed + epoch``), and refuses a checkpoint written with another ``--batch-size``, ``--train-subset`` or ``--seed``
(the position would name other batches).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import signal
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
    p.add_argument("--lr", type=float, default=2e-3, help="Adam learning rate")
    p.add_argument("--seed", type=int, default=42, help="seeds the weights, the shuffle and the augmentation")
    p.add_argument("--train-subset", type=int, default=0, help="use only the first N training images (0: all)")
    p.add_argument("--test-subset", type=int, default=0, help="evaluate on the first N test images (0: all)")
    p.add_argument("--resume", action="store_true", help="continue from <out>/checkpoint.ckpt")
    p.add_argument("--stop-after", type=int, default=0,
                   help="stop after this many training steps in total, as if interrupted (0: never)")
    p.add_argument("--device", default="CPU", choices=["CPU", "GPU", "Ascend"], help="the device to run on")
    p.add_argument("--mode", default="graph", choices=["graph", "pynative"],
                   help="execution mode: graph (static graph) or pynative (eager)")
    args = p.parse_args(argv)
    for name in ("epochs", "batch_size"):
        if getattr(args, name) < 1:
            p.error(f"--{name.replace('_', '-')} must be >= 1")
    for name in ("train_subset", "test_subset", "stop_after"):
        if getattr(args, name) < 0:
            p.error(f"--{name.replace('_', '-')} must be >= 0")
    if not (args.data_dir / "train-images-idx3-ubyte").is_file():
        p.error(f"no MNIST files in {args.data_dir} (expected train-images-idx3-ubyte and the other three); "
                "pass --data-dir")
    if args.resume and not (args.out / CHECKPOINT).is_file():
        p.error(f"--resume: there is no {args.out / CHECKPOINT} to continue from; run without --resume to start")
    return args


def cpu_speed_fixes(device: str) -> None:
    """Notebook 08's CPU fixes. MindSpore reads these once, when it loads: call before importing it."""
    if device != "CPU":
        return
    if platform.machine().lower() in ("x86_64", "amd64"):
        os.environ.setdefault("ONEDNN_MAX_CPU_ISA", "AVX2")   # a cap: harmless without AVX-512
        os.environ.setdefault("DNNL_MAX_CPU_ISA", "AVX2")     # older name, the only one MindSpore 2.7.1's oneDNN reads
    if (os.cpu_count() or 1) <= 8:
        os.environ.setdefault("MS_DEV_HOST_BLOCKING_RUN", "1")
    os.environ.setdefault("GLOG_v", "3")                       # MindSpore's C++ log: errors only


# ---- data ------------------------------------------------------------------------------------------------

def build_dataset(data_dir, split, batch_size, subset=0, augment=False, seed=0):
    """MNIST as batches of float32 (B, 1, 28, 28) images and int32 (B,) labels."""
    import mindspore as ms
    import mindspore.dataset as ds
    from mindspore.dataset import transforms, vision

    workers = max(1, min(2, os.cpu_count() or 1))
    ds.config.set_seed(seed)             # this epoch's shuffle and augmentation
    if split == "train":
        # shuffle within the first `subset` images (num_samples + shuffle would draw new images every epoch)
        sampler = ds.SubsetRandomSampler(list(range(subset))) if subset else ds.RandomSampler()
        dataset = ds.MnistDataset(str(data_dir), usage="train", sampler=sampler)
    else:
        dataset = ds.MnistDataset(str(data_dir), usage="test", shuffle=False, num_samples=subset or None)
    image_ops = []
    if augment:
        # small random rotations, shifts and zooms, on the uint8 (28, 28, 1) image
        image_ops.append(vision.RandomAffine(degrees=10, translate=(-0.1, 0.1, -0.1, 0.1), scale=(0.9, 1.1)))
    image_ops += [vision.Rescale(1.0 / 255.0, 0.0), vision.Normalize(mean=[MNIST_MEAN], std=[MNIST_STD]),
                  vision.HWC2CHW()]
    dataset = dataset.map(operations=image_ops, input_columns="image", num_parallel_workers=workers)
    dataset = dataset.map(operations=transforms.TypeCast(ms.int32), input_columns="label")
    # equal training batches compile the step once; the test set keeps every image
    return dataset.batch(batch_size, drop_remainder=split == "train")


# ---- model -----------------------------------------------------------------------------------------------

def build_model():
    """Two convolution blocks with batch normalisation, then one Dense layer."""
    from mindspore import nn

    class SmallCNN(nn.Cell):
        def __init__(self, num_classes=10):
            super().__init__()
            self.features = nn.SequentialCell(
                nn.Conv2d(1, 16, 3, pad_mode="same", has_bias=False), nn.BatchNorm2d(16), nn.ReLU(),
                nn.MaxPool2d(kernel_size=2, stride=2),                        # 16 x 14 x 14
                nn.Conv2d(16, 32, 3, pad_mode="same", has_bias=False), nn.BatchNorm2d(32), nn.ReLU(),
                nn.MaxPool2d(kernel_size=2, stride=2),                        # 32 x 7 x 7
            )
            # no Dropout: two runs of one command with MindSpore 2.10's CPU Dropout can train differently (and so
            # can a resumed run): its masks can differ between processes with the same seed (scripts/capstone_margin.py)
            self.flatten = nn.Flatten()
            self.classifier = nn.Dense(32 * 7 * 7, num_classes)

        def construct(self, x):
            return self.classifier(self.flatten(self.features(x)))

    return SmallCNN()


# ---- checkpoint, log, export -----------------------------------------------------------------------------

def save_checkpoint(state, path: Path, epoch: int, step_in_epoch: int, loss_sum: float, settings: dict) -> None:
    """Weights + optimizer state + position + settings, atomically: temporary file, fsync, os.replace, fsync folder."""
    import mindspore as ms

    tmp = path.with_name(f".{path.stem}.{os.getpid()}.tmp.ckpt")  # same folder: the rename stays atomic
    try:
        # loss_sum as a float64 Tensor: append_dict stores a Python float as float32, and the resumed epoch's
        # mean must be the uninterrupted run's to the last bit
        ms.save_checkpoint(state, str(tmp), append_dict={"epoch": epoch, "step_in_epoch": step_in_epoch,
                                                         "loss_sum": ms.Tensor(np.float64(loss_sum)), **settings})
        with open(tmp, "rb") as fh:
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o644)         # MindSpore makes it read-only; a normal mode lets you delete it
        os.replace(tmp, path)        # the old checkpoint stays complete until this instant
        if os.name == "posix":       # then flush the folder too, so that the rename itself survives a power cut
            folder = os.open(path.parent, os.O_RDONLY)
            os.fsync(folder)
            os.close(folder)
    finally:
        if tmp.exists():
            tmp.unlink()


def restore_checkpoint(state, path: Path) -> tuple:
    """Copy the stored values into the parameters of `state`; return (epoch, step_in_epoch, loss_sum)."""
    import mindspore as ms

    stored = ms.load_checkpoint(str(path))
    missing = [p.name for p in state.get_parameters() if p.name not in stored]
    if missing:
        sys.exit(f"{path} does not fit this model/optimizer: it lacks {missing[:3]}")
    for param in state.get_parameters():
        # copy in place: a step compiled before the restore keeps training these very buffers
        param.copy_(stored[param.name])
    return (int(stored["epoch"].asnumpy()), int(stored["step_in_epoch"].asnumpy()),
            float(stored["loss_sum"].asnumpy()))


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
    line = json.dumps(record)
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(line + "\n")
        fh.flush()
        os.fsync(fh.fileno())


def export_mindir(net, path: Path) -> None:
    """The network in eval mode, any batch size, as MindIR; atomically like the checkpoint."""
    import mindspore as ms

    net.set_train(False)     # BatchNorm: stored statistics, not the batch's (dropout, if any: off)
    stem = path.with_name(f".{path.stem}.{os.getpid()}.tmp")
    ms.export(net, ms.Tensor(shape=[None, 1, 28, 28], dtype=ms.float32), file_name=str(stem), file_format="MINDIR")
    os.chmod(f"{stem}.mindir", 0o644)
    os.replace(f"{stem}.mindir", path)


# ---- training and evaluation -----------------------------------------------------------------------------

def evaluate(net, dataset) -> float:
    """Fraction of correctly classified images, with the network in eval mode."""
    net.set_train(False)
    correct = total = 0
    for images, labels in dataset.create_tuple_iterator(num_epochs=1):
        predicted = net(images).asnumpy().argmax(axis=1)
        correct += int((predicted == labels.asnumpy()).sum())
        total += len(predicted)
    net.set_train(True)
    return correct / total


def install_stop_handler() -> list:
    """Ctrl-C (SIGINT) or ``kill`` (SIGTERM) only asks to stop: the loop finishes its step, saves, exits.

    Returns a list that receives the signal's number; an empty list means "keep going". Both signals are
    needed: with MindSpore 2.10, a Ctrl-C after the first training step arrives as SIGTERM (why: notebook 10,
    section 4).
    """
    requested: list = []

    def ask_to_stop(signum, frame):
        requested.append(signum)

    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, ask_to_stop)
    return requested


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
    optimizer = nn.Adam(net.trainable_params(), learning_rate=args.lr)
    train_step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.CrossEntropyLoss()), optimizer)
    train_step.set_train()
    state = train_step                       # holds the network and the optimizer: what checkpoints keep
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

    stop = install_stop_handler()
    for epoch in range(start_epoch, args.epochs):
        train_set = build_dataset(args.data_dir, "train", args.batch_size, subset=args.train_subset,
                                  augment=True, seed=args.seed + epoch)
        # the epoch's running loss sum: an interrupted epoch continues the sum its first process stored
        started, loss_sum = time.perf_counter(), carried
        for step_in_epoch, (images, labels) in enumerate(train_set.create_tuple_iterator(num_epochs=1)):
            if step_in_epoch < skip:
                continue                     # trained before the interruption
            loss_sum += float(train_step(images, labels).asnumpy())
            global_step += 1
            if stop or global_step == args.stop_after:
                # between two steps: the position is exact (this epoch, step_in_epoch + 1 batches done)
                save_checkpoint(state, ckpt_path, epoch, step_in_epoch + 1, loss_sum, settings)
                why = signal.Signals(stop[0]).name if stop else "--stop-after"
                print(f"stopped after {global_step} steps ({why}); saved {ckpt_path}; continue with --resume",
                      flush=True)
                return 128 + stop[0] if stop else 0     # the shell's code for a signal: 130 SIGINT, 143 SIGTERM
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
