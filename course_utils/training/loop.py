"""The loop around a training step: ``fit`` (notebook 05) and what one call of it did, ``FitResult``.

Notebook 05 writes the epoch loop and the test loop by hand (a ``for`` over the batches calling
the training step; evaluation mode, arg-max, count), checks that one epoch of it leaves the same
weights as ``fit``, and then trains with ``fit``; scripts/bench_lenet.py, the performance lab and the
checkpoint tests use it too. ``fit`` adds what a real run needs around the loop: a progress bar (and a
plain summary line for stored notebooks), evaluation every few steps, a live plot hook, a stop
condition, checkpoints, resuming, and honest timing.

How it reads: ``fit`` checks its arguments and works out where training starts; ``_EpochData`` says
which batches each epoch reads; ``_Loop`` runs the epochs, one method per thing that happens around a
step (``train_one``, ``after_step``, ``evaluate``, ``save``). Every early stop (``stop_at_step``,
``stop_when``, Ctrl-C) ends in the same place, ``_Loop.run``'s ``except KeyboardInterrupt``.

The trap ``_stop_on_signals`` avoids: a Ctrl-C (Kernel > Interrupt) that arrives while a MindSpore 2.10
step runs never becomes a ``KeyboardInterrupt``. MindSpore's own SIGINT handler, active during a step,
sends the process a SIGTERM, whose default action kills it (in Jupyter: the kernel dies, and only the
last scheduled checkpoint remains). So while ``fit`` runs, SIGINT and SIGTERM only ask it to stop; the
loop checks after each step, saves the position and returns.

A second trap, ``signals_held``: a SIGINT or SIGTERM that reaches the thread running a MindSpore 2.10 step in
mid-step can corrupt the process's heap (with or without host blocking). So the step runs with both signals held
back from that thread; one that arrives meanwhile is handled by another thread, or right after the step.
"""

from __future__ import annotations

import contextlib
import dataclasses
import signal
import threading
import time
from typing import Callable, Optional

from mindspore import nn

from course_utils.checkpoint import describe_position
from course_utils.checkpoint import save as save_checkpoint
from course_utils.evaluate import evaluate
from course_utils.i18n import N_, language, tr
from course_utils.notebook import headless
from course_utils.validate import positive_int

__all__ = ["FitResult", "fit"]

#: The usual names of what ``fit`` evaluates (``eval_name``), marked for translation; any other name is shown as is.
EVAL_NAMES = (N_("test"), N_("validation"))


@dataclasses.dataclass
class FitResult:
    """What one call of ``fit`` did. Steps are counted from the start of training (a resumed run
    continues the count), so curves of an interrupted and a resumed call join up."""

    step_loss: list = dataclasses.field(default_factory=list)   # (global step, loss) per step
    evals: list = dataclasses.field(default_factory=list)       # {"step", "epoch", "accuracy", "train_seconds"}
    checkpoints: list = dataclasses.field(default_factory=list)  # paths written, in order
    steps: int = 0                 # steps trained by this call
    global_step: int = 0           # steps trained since the start, after this call
    epoch: int = 0                 # resume point: epochs completed ...
    step_in_epoch: int = 0         # ... and how many batches of the next one are done
    train_seconds: float = 0.0     # time inside the training step (evaluation and saving excluded)
    first_step_seconds: float = 0.0  # the first call alone: in GRAPH_MODE mostly compilation
    interrupted: bool = False      # stopped early (stop_at_step, stop_when or Ctrl-C / kernel interrupt)
    eval_name: str = N_("test")    # what eval_data is ("test", "validation"): named in the summary line

    @property
    def steps_per_s(self) -> float:
        """Steady-state rate: the first (compiling) call is left out."""
        rest = self.train_seconds - self.first_step_seconds
        return (self.steps - 1) / rest if self.steps > 1 and rest > 0 else float("nan")

    @property
    def final_accuracy(self) -> float:
        return self.evals[-1]["accuracy"] if self.evals else float("nan")

    def __repr__(self) -> str:
        acc = tr(", last accuracy {accuracy:.4f}", accuracy=self.final_accuracy) if self.evals else ""
        stop = tr(", interrupted") if self.interrupted else ""
        return tr("FitResult({steps} steps in {seconds:.1f} s, {rate:.1f} steps/s{acc}; stopped at {position}{stop})",
                  steps=self.steps, seconds=self.train_seconds, rate=self.steps_per_s, acc=acc, stop=stop,
                  position=describe_position(self.epoch, self.step_in_epoch))

    def summary(self, description: str = N_("training")) -> str:
        """One plain line for logs and stored notebooks (a progress bar widget shows no text there)."""
        acc = tr(", {name} accuracy {accuracy:.2%}", name=tr(self.eval_name),
                 accuracy=self.final_accuracy) if self.evals else ""
        stop = tr(" (interrupted)") if self.interrupted else ""
        if self.step_in_epoch == 0 and self.epoch > 0:   # its own message: Chinese words "epochs done" differently
            return tr("{description}: {steps:,} steps trained in {seconds:.1f} s "
                      "({rate:.0f} steps/s after the first), now at the end of epoch {epoch}{stop}{acc}",
                      description=tr(description), steps=self.steps, seconds=self.train_seconds,
                      rate=self.steps_per_s, epoch=self.epoch, stop=stop, acc=acc)
        return tr("{description}: {steps:,} steps trained in {seconds:.1f} s "
                  "({rate:.0f} steps/s after the first), now at {position}{stop}{acc}",
                  description=tr(description), steps=self.steps, seconds=self.train_seconds,
                  rate=self.steps_per_s, position=describe_position(self.epoch, self.step_in_epoch),
                  stop=stop, acc=acc)



def _steps_per_epoch(data) -> Optional[int]:
    if hasattr(data, "get_dataset_size"):
        return int(data.get_dataset_size())
    try:
        return len(data)
    except TypeError:
        return None


class _EpochData:
    """The batches of each epoch, from ``fit``'s ``train_data`` (``epoch -> dataset``, or a dataset/iterable).

    A new iterator on the same dataset replays the same shuffled order, so a given dataset is read
    through one iterator for all epochs (MindSpore reshuffles at each epoch boundary).
    """

    def __init__(self, train_data, start_epoch: int, epochs: int):
        self.train_data, self.start_epoch = train_data, start_epoch
        self.factory = callable(train_data) and not hasattr(train_data, "create_tuple_iterator")
        self.first = train_data(start_epoch) if self.factory else train_data
        self.shared = (train_data.create_tuple_iterator(num_epochs=epochs - start_epoch)
                       if not self.factory and hasattr(train_data, "create_tuple_iterator") else None)
        self.per_epoch = _steps_per_epoch(self.first)

    def batches(self, epoch: int):
        if self.shared is not None:
            return self.shared
        if self.factory:
            data = self.first if epoch == self.start_epoch else self.train_data(epoch)
        else:
            data = self.train_data
        return data.create_tuple_iterator(num_epochs=1) if hasattr(data, "create_tuple_iterator") else iter(data)


def fit(train_step, train_data, epochs: int, *, network=None, eval_data=None, eval_every: int = 0,
        checkpoint_path=None, checkpoint_every: int = 0, resume=None, stop_at_step: Optional[int] = None,
        progress: bool = True, on_update: Optional[Callable] = None, update_every: int = 100,
        stop_when: Optional[Callable] = None, description: str = N_("training"),
        eval_name: str = N_("test")) -> FitResult:
    """Train ``train_step`` (a ``TrainOneStepCell`` or any ``step(images, labels) -> loss``) for ``epochs``.

    train_data: ``epoch -> dataset`` (e.g. ``lambda e: mnist_dataset("train", seed=SEED + e)``), or a
        dataset/iterable. With the callable every epoch's order is a function of its number, which
        is what makes a resumed run see exactly the batches the uninterrupted one would have seen.
        (A *new iterator* on the same dataset replays the same order each time; a given dataset is
        therefore read through one iterator across epochs, which reshuffles.)
    network, eval_data, eval_every: accuracy of ``network`` on ``eval_data`` every ``eval_every`` steps and
        at the end (the clock is stopped meanwhile). ``eval_name`` says what ``eval_data`` is ("test",
        "validation") in the summary line and the progress bar: monitor a validation split while you still
        choose anything (notebook 05), so that the test set stays an honest final estimate.
    checkpoint_path, checkpoint_every: ``course_utils.checkpoint.save`` of the training step (weights
        and optimizer state) every ``checkpoint_every`` steps, at the end of every epoch, and when
        training is interrupted. "{step}" in the path gives one file per save, e.g.
        "checkpoints/lenet_{step:05d}.ckpt"; without it each save atomically replaces the last.
    resume: a ``CheckpointInfo`` from ``checkpoint.load(path, train_step)``: continue from its epoch
        and step (the batches of that epoch already trained are read and skipped).
    stop_at_step: stop once this many steps (counted from the start of training) are done, as if
        the run had been interrupted there. Ctrl-C (Kernel > Interrupt) or a SIGTERM during the loop
        does the same after the step that is running: the loop saves a checkpoint, if configured, and
        returns instead of raising (tests/unit/test_training_interrupt.py interrupts a real kernel).
    on_update: called as ``on_update(result)`` every ``update_every`` steps, after each evaluation
        and at the end (e.g. ``course_utils.plots.LiveTrainingPlot``).
    stop_when: called as ``stop_when(result)`` at the same moments (not at the end); when it returns
        True training stops there, as with ``stop_at_step`` (e.g. "once the test accuracy reaches
        99%": ``stop_when=lambda r: r.evals and r.evals[-1]["accuracy"] >= 0.99``).
    progress: show a ``tqdm`` progress bar and, at the end, print ``result.summary()`` as plain text
        (what a stored notebook shows, where the bar widget cannot render). A kernel run headless
        (``notebook.headless()``: ``make notebooks``, ``make run``) shows only the plain line.
    """
    epochs = positive_int("epochs", epochs)
    if eval_every and (network is None or eval_data is None):
        raise ValueError(tr("eval_every needs both network= (the model to evaluate) and eval_data=."))
    if checkpoint_every and checkpoint_path is None:
        raise ValueError(tr("checkpoint_every needs checkpoint_path= (where to save)."))
    if checkpoint_path is not None and not isinstance(train_step, nn.Cell):
        raise TypeError(tr("Checkpoints need a Cell training step (its parameters include the optimizer "
                           "state); got {type}.", type=type(train_step).__name__))
    start_epoch, skip = (resume.epoch, resume.step_in_epoch) if resume is not None else (0, 0)
    if start_epoch >= epochs and resume is not None:
        raise ValueError(tr("The checkpoint was saved at {position}: nothing left of {epochs} epoch(s). "
                            "Pass a larger epochs= to train further.",
                            position=describe_position(start_epoch, skip), epochs=epochs))

    data = _EpochData(train_data, start_epoch, epochs)
    result = FitResult(eval_name=eval_name)
    if resume is not None and "global_step" in resume.extra:
        global_step = int(resume.extra["global_step"])
    else:
        global_step = start_epoch * (data.per_epoch or 0) + skip
    result.global_step, result.epoch, result.step_in_epoch = global_step, start_epoch, skip

    bar = None
    if progress and not headless():   # run headless, a stored bar would show "0%": the plain line below is enough
        from tqdm.auto import tqdm   # (tqdm.auto imports ipywidgets when in a kernel: only when a bar is wanted)

        # smoothing=0: the rate shown is the average of the whole run, evaluation pauses included
        total = epochs * data.per_epoch if data.per_epoch else None
        bar = _progress_bar(tqdm, total=total, initial=global_step, desc=tr(description), dynamic_ncols=True,
                            smoothing=0)
    loop = _Loop(result, train_step, network=network, eval_data=eval_data, eval_every=eval_every,
                 checkpoint_path=checkpoint_path, checkpoint_every=checkpoint_every, stop_at_step=stop_at_step,
                 on_update=on_update, update_every=update_every, stop_when=stop_when, per_epoch=data.per_epoch,
                 bar=bar)
    try:
        loop.run(data, range(start_epoch, epochs), skip)
    finally:
        if bar is not None:
            bar.close()
    if network is not None and eval_data is not None and not result.interrupted \
            and (not result.evals or result.evals[-1]["step"] != result.global_step):
        loop.evaluate(result.epoch, final=True)
    elif on_update is not None:
        on_update(result)
    if progress:
        # The bar is a widget in a notebook: a stored notebook (GitHub, nbviewer) shows only this line.
        print(result.summary(description))
    return result


def _progress_bar(tqdm_class, **kwargs):
    """A ``tqdm_class`` bar counting steps. In Chinese its text is Chinese too: tqdm writes "description: ",
    "161.00step/s" and its postfix as "key=value, ..." in English, so the Chinese bar gets its own format, with
    the rate and the postfix items (``stats``, set by ``_Loop.show_postfix``) written through ``tr``."""
    if language() != "zh":
        return tqdm_class(unit="step", **kwargs)

    class ChineseBar(tqdm_class):
        stats: tuple = ()

        @property
        def format_dict(self):
            values = super().format_dict
            rate, elapsed = values.get("rate"), values.get("elapsed")
            if rate is None and elapsed:   # what tqdm itself shows then: the average since the start
                rate = (values["n"] - values.get("initial", 0)) / elapsed
            items = ([tr("{rate:.0f} steps/s", rate=rate)] if rate else []) + list(self.stats)
            values["tail"] = "".join("，" + item for item in items)
            return values

    # after Chinese text the colon is the full-width one, with no space
    bar_format = ("{desc}：{percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} [{elapsed}<{remaining}{tail}]"
                  if kwargs.get("total") else "{desc}：{n_fmt} [{elapsed}{tail}]")
    return ChineseBar(unit=tr("step"), bar_format=bar_format, **kwargs)


#: The signals that ask a training loop to stop: Kernel > Interrupt / Ctrl-C, and a plain ``kill``
STOP_SIGNALS = frozenset({signal.SIGINT, signal.SIGTERM})


@contextlib.contextmanager
def signals_held(signals=STOP_SIGNALS):
    """While the block runs, ``signals`` are held back from the calling thread (``signal.pthread_sigmask``): the
    kernel hands one that arrives meanwhile to another thread of the process, or keeps it pending until the block
    ends, when it is handled as usual. The mask the thread had comes back afterwards. Where Python has no
    ``pthread_sigmask`` (Windows), nothing is held.

    Why around a MindSpore step: a signal that reaches the thread running a MindSpore 2.10 step in mid-step can
    corrupt the heap. ``scripts/signal_crash_rate.py`` sent processes a signal 2 s into back-to-back steps, in three
    settings, 40 runs unheld and 40 held each, alternated (2-vCPU Intel Xeon, 2026-12-06). Unheld, SIGINT crashed 7
    of 40 with host blocking on and 6 of 40 with it off, SIGTERM 4 of 40 (SIGABRT, "corrupted size vs. prev_size
    while consolidating", or SIGSEGV); with the step inside this block, none of the 120."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, signals)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


@contextlib.contextmanager
def _stop_on_signals():
    """While the block runs, SIGINT and SIGTERM append their number to the list yielded instead of
    interrupting; the previous handlers come back afterwards. (Signal handlers can only be set in the
    main thread: elsewhere the list stays empty and signals keep their usual effect.)"""
    requested: list = []
    if threading.current_thread() is not threading.main_thread():
        yield requested
        return
    previous = {sig: signal.getsignal(sig) for sig in sorted(STOP_SIGNALS)}
    for sig in previous:
        signal.signal(sig, lambda signum, frame: requested.append(signum))
    try:
        yield requested
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, signal.SIG_DFL if handler is None else handler)


class _Loop:
    """One call of ``fit``: its settings, the ``FitResult`` it fills in, and what happens around each step."""

    def __init__(self, result: FitResult, train_step, *, network, eval_data, eval_every: int, checkpoint_path,
                 checkpoint_every: int, stop_at_step: Optional[int], on_update: Optional[Callable],
                 update_every: int, stop_when: Optional[Callable], per_epoch: Optional[int], bar):
        self.result, self.train_step = result, train_step
        self.network, self.eval_data, self.eval_every = network, eval_data, eval_every
        self.checkpoint_path, self.checkpoint_every = checkpoint_path, checkpoint_every
        self.stop_at_step, self.on_update, self.update_every = stop_at_step, on_update, update_every
        self.stop_when, self.per_epoch, self.bar = stop_when, per_epoch, bar
        self.signals: list = []    # SIGINT/SIGTERM received during the run (filled by _stop_on_signals)

    def run(self, data: _EpochData, epochs: range, skip: int) -> None:
        """Train ``epochs``, skipping the first ``skip`` batches of the first (trained before a resume)."""
        result = self.result
        if self.network is not None:
            self.network.set_train(True)
        if hasattr(self.train_step, "set_train"):
            self.train_step.set_train(True)
        try:
            with _stop_on_signals() as self.signals:
                self.train_epochs(data, epochs, skip)
        except KeyboardInterrupt:   # Ctrl-C, SIGTERM, stop_at_step or stop_when
            result.interrupted = True
            if self.per_epoch and result.step_in_epoch == self.per_epoch:   # stopped on an epoch's last batch
                result.epoch, result.step_in_epoch = result.epoch + 1, 0
            if self.checkpoint_path is not None and result.steps:
                self.save(result.epoch, result.step_in_epoch)

    def train_epochs(self, data: _EpochData, epochs: range, skip: int) -> None:
        """The loop itself: every batch of every epoch, then the end-of-epoch checkpoint."""
        result = self.result
        for epoch in epochs:
            done_in_epoch = skip if epoch == epochs.start else 0
            for index, (images, labels) in enumerate(data.batches(epoch)):
                if index < done_in_epoch:
                    continue  # trained before the interruption: same batches, skipped
                self.train_one(images, labels, epoch, index)
                self.after_step(epoch, index)
            result.epoch, result.step_in_epoch = epoch + 1, 0
            if self.checkpoint_path is not None:
                self.save(epoch + 1, 0)

    def train_one(self, images, labels, epoch: int, index: int) -> None:
        """One call of the training step, timed alone; its loss and position go into the result."""
        result = self.result
        start = time.perf_counter()
        with signals_held():   # a Ctrl-C in mid-step waits for the step's end, or goes to another thread
            loss = self.train_step(images, labels)
            value = float((loss[0] if isinstance(loss, tuple) else loss).asnumpy())
        elapsed = time.perf_counter() - start
        if result.steps == 0:
            result.first_step_seconds = elapsed
        result.train_seconds += elapsed
        result.steps += 1
        result.global_step += 1
        result.epoch, result.step_in_epoch = epoch, index + 1
        result.step_loss.append((result.global_step, value))
        if self.bar is not None:
            self.bar.update(1)
            if result.steps % 20 == 0:
                self.show_postfix(value, result.final_accuracy if result.evals else None)

    def show_postfix(self, loss: float, accuracy: Optional[float]) -> None:
        """The loss and the last accuracy after the bar: "loss=0.1234, validation_acc=0.9870" (tqdm's postfix), in
        Chinese "损失 0.1234，验证准确率 0.9870"."""
        if hasattr(self.bar, "stats"):   # _progress_bar's Chinese bar
            self.bar.stats = (tr("loss {loss:.4f}", loss=loss),) + (
                (tr("{name} accuracy {accuracy:.4f}", name=tr(self.result.eval_name), accuracy=accuracy),)
                if accuracy is not None else ())
            return
        self.bar.set_postfix(loss=f"{loss:.4f}", **({f"{self.result.eval_name}_acc": f"{accuracy:.4f}"}
                                                    if accuracy is not None else {}), refresh=False)

    def after_step(self, epoch: int, index: int) -> None:
        """Evaluate or report, checkpoint, stop: what the settings ask for after this step."""
        result = self.result
        if self.eval_every and result.global_step % self.eval_every == 0:
            self.evaluate(epoch)
        elif result.steps % self.update_every == 0:
            self.report()
        if self.checkpoint_every and result.global_step % self.checkpoint_every == 0 and index + 1 != self.per_epoch:
            self.save(epoch, index + 1)  # (the end of an epoch is saved by run, as the next one's start)
        if self.signals or (self.stop_at_step is not None and result.global_step >= self.stop_at_step):
            raise KeyboardInterrupt  # handled by run: a signal received during the step, or stop_at_step

    def evaluate(self, epoch: int, final: bool = False) -> None:
        """Accuracy on eval_data now (outside the training clock), then report; the final one asks no stop condition."""
        result = self.result
        acc = evaluate(self.network, self.eval_data).accuracy
        result.evals.append({"step": result.global_step, "epoch": epoch, "accuracy": acc,
                             "train_seconds": result.train_seconds})
        if self.bar is not None:
            self.show_postfix(result.step_loss[-1][1], acc)
        if final:
            if self.on_update is not None:
                self.on_update(result)
        else:
            self.report()

    def report(self) -> None:
        """``on_update(result)``, then ``stop_when(result)``: True stops training like an interrupt."""
        if self.on_update is not None:
            self.on_update(self.result)
        if self.stop_when is not None and self.stop_when(self.result):
            raise KeyboardInterrupt  # handled by run, exactly like a real interrupt

    def save(self, epoch: int, step_in_epoch: int) -> None:
        result = self.result
        path = str(self.checkpoint_path).format(step=result.global_step, epoch=epoch)
        result.checkpoints.append(save_checkpoint(path, self.train_step, epoch=epoch, step_in_epoch=step_in_epoch,
                                                  extra={"global_step": result.global_step}))
