"""Exercises of notebook 02 (the functional training step).

``q1`` asks for a *builder*: a function that takes a network, a loss, an optimizer and ``return_logits`` and returns
``step(data, label) -> loss`` (``(loss, logits)`` when ``return_logits`` is true); how the check judges the update
(fixed weights, plain SGD, the update compared with what a correct step and typical wrong steps would make) is
``course_utils.exercises.step_builders``, which lesson 03's exercises share. On top of that, ``q1`` wants the step
written out (not the course's ``make_train_step``) and compiled: the returned function must carry MindSpore's
``@jit`` mark. ``q2`` ranks the input features by the gradient of the loss with respect to the input
(``grad_position=0``); ``q3`` is section 5's epoch loop on a data set that keeps its last, smaller batch (so an
epoch's mean loss must weight each batch by its samples), checked with a stand-in step that records the batches it
sees, so a replayed shuffle order shows.
"""

from __future__ import annotations

import inspect

from course_utils.exercises import Exercise, Incorrect, describe, refusing, register, to_numpy
from course_utils.exercises.step_builders import (StepBuilder, check_depend, diagnose_update, fixed_batch,
                                                  fixed_setup, grads_of, loss_value, make_step, run_step,
                                                  sgd_update, weights_of)
from course_utils.i18n import N_, tr


def build_train_step(net, loss_fn, optimizer, return_logits=False):
    import mindspore as ms
    from mindspore import ops

    def forward_fn(data, label):
        logits = net(data)
        return loss_fn(logits, label), logits

    grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters, has_aux=True)

    @ms.jit
    def train_step(data, label):
        (loss, logits), grads = grad_fn(data, label)
        loss = ops.depend(loss, optimizer(grads))
        if return_logits:              # a Python bool: fixed when the step compiles
            return loss, logits        # the predictions the loss was computed from, before the update
        return loss

    return train_step


#: The reference builder itself: refused while q1 checks an answer (``reference`` hands the tests a copy).
_REFERENCE_BUILDER = build_train_step
_COURSE_STEP_REFUSED = N_("the step comes from the course (make_train_step, or this exercise's own solution, called "
                          "while the check ran); this exercise asks for the step written out: forward_fn, "
                          "value_and_grad and the update (section 3).")


def _copy(fn):
    """A twin of ``fn`` with the same code object: what ``refusing`` swaps on ``fn`` leaves the twin alone."""
    import types

    twin = types.FunctionType(fn.__code__, fn.__globals__, fn.__name__, fn.__defaults__, fn.__closure__)
    twin.__qualname__, twin.__doc__ = fn.__qualname__, fn.__doc__   # no __wrapped__: inspect must read the twin
    return twin


class HasAuxStep(StepBuilder):
    names = ("build_train_step",)
    title = "a training step with has_aux"
    hint_text = ("Inside build_train_step: define forward_fn(data, label) returning (loss, logits); "
                 "grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters, has_aux=True); then a "
                 "@ms.jit train_step(data, label) that unpacks (loss, logits), grads = grad_fn(data, label), "
                 "applies the optimizer with ops.depend and returns (loss, logits) if return_logits, else the loss. "
                 "Return train_step.")
    solution_text = inspect.getsource(build_train_step)

    def reference(self):
        return (_copy(build_train_step),)

    def _check(self, build_train_step):
        from course_utils.training import TrainStep, make_train_step

        # the course's step builders, under any name, also when called from inside the learner's builder
        with refusing((make_train_step, _REFERENCE_BUILDER), tr(_COURSE_STEP_REFUSED)):
            step = self._check_updates(build_train_step)
            if isinstance(step, TrainStep):
                raise Incorrect(tr("the weights are right, but the step is the course's make_train_step (a "
                                   "TrainStep); this exercise asks for the step written out: forward_fn, "
                                   "value_and_grad and the update (section 3)."))
            if not getattr(step, "__wrapped_by_jit__", False):
                raise Incorrect(tr("the weights are right, but the step is not compiled: build_train_step returned "
                                   "{kind} {name!r} without @ms.jit; expected a function compiled with @ms.jit "
                                   "(section 3).", kind=type(step).__name__, name=getattr(step, "__name__", "")))
            check_depend(build_train_step)
            self._check_logits(build_train_step)

    def _check_logits(self, build_train_step):
        """The variation: with return_logits=True the step returns (loss, logits), the logits of the batch before
        the update, and still updates the weights as the loss's gradients say."""
        import numpy as np

        net, loss_fn, opt = fixed_setup()
        x, y = fixed_batch()
        start = weights_of(net)
        logits_before = net(x).asnumpy()
        expected_loss = float(loss_fn(net(x), y).asnumpy())
        grads = grads_of(net, loss_fn, x, y)
        try:
            step = make_step(build_train_step, net, loss_fn, opt, True)
        except TypeError as exc:
            raise Incorrect(tr("with return_logits=True: build_train_step(net, loss_fn, optimizer, return_logits=True) "
                               "raised TypeError: {message}", message=str(exc).strip().splitlines()[0])) from None
        result = run_step(step, x, y)
        if not isinstance(result, (tuple, list)) or len(result) != 2:
            raise Incorrect(tr("with return_logits=True: step(data, label) returned {got}; expected a pair "
                               "(loss, logits).", got=describe(result)))
        loss = loss_value(result[0], tr("with return_logits=True, step(data, label)[0]"))
        if abs(loss - expected_loss) > 1e-4:
            raise Incorrect(tr("with return_logits=True: the first call returned loss {loss:.6f}, expected "
                               "{expected:.6f} (the Huber loss of the batch before the update).", loss=loss,
                               expected=expected_loss))
        logits = to_numpy(result[1])
        if getattr(logits, "shape", None) != logits_before.shape:
            raise Incorrect(tr("with return_logits=True: the second item has shape {shape}; expected the logits, "
                               "shape {want}.", shape=getattr(logits, "shape", None), want=logits_before.shape))
        if not np.allclose(logits, logits_before, atol=1e-5):
            after = net(x).asnumpy()
            which = (tr("the predictions after the update (a second forward pass), not those the loss was "
                        "computed from.") if np.allclose(logits, after, atol=1e-5) else
                     tr("values that are not the network's predictions for the batch."))
            raise Incorrect(tr("with return_logits=True: the logits differ from the batch's predictions before the "
                               "update by up to {diff:.3g}: {which}",
                               diff=float(np.abs(logits - logits_before).max()), which=which))
        diagnose_update(weights_of(net), start, sgd_update(start, grads), {}, tr("with return_logits=True, after "
                                                                                  "one step"))

    def _check_updates(self, build_train_step):
        net, loss_fn, opt = fixed_setup()
        x, y = fixed_batch()
        start = weights_of(net)
        expected_loss = float(loss_fn(net(x), y).asnumpy())
        grads = grads_of(net, loss_fn, x, y)
        no_aux = grads_of(net, loss_fn, x, y, has_aux=False)

        step = make_step(build_train_step, net, loss_fn, opt)
        loss = loss_value(run_step(step, x, y), "step(data, label)")
        if abs(loss - expected_loss) > 1e-4:
            raise Incorrect(tr("the first call returned loss {loss:.6f}, expected {expected:.6f} (the Huber loss of "
                               "the batch before the update).", loss=loss, expected=expected_loss))
        diagnose_update(weights_of(net), start, sgd_update(start, grads), {
            tr("the update with the gradients of loss + logits.sum() instead of the loss's."):
                sgd_update(start, no_aux),
        }, tr("after one step"))
        second_expected = float(loss_fn(net(x), y).asnumpy())
        second = loss_value(run_step(step, x, y), tr("the second step(data, label)"))
        if abs(second - second_expected) > 1e-4:
            raise Incorrect(tr("the second call returned loss {loss:.6f}, expected {expected:.6f} (the loss with the "
                               "weights after the first update).", loss=second, expected=second_expected))
        return step


def most_sensitive_features(net, loss_fn, data, label, k=3):
    import mindspore as ms
    import numpy as np

    def loss_of(data, label):
        return loss_fn(net(data), label)

    _, grad = ms.value_and_grad(loss_of, 0, None)(data, label)   # d loss / d data, data's shape
    sensitivity = np.abs(grad.asnumpy()).mean(axis=0)             # one number per feature
    return [int(i) for i in np.argsort(sensitivity)[::-1][:k]]


class SensitiveFeatures(Exercise):
    """The fixed network and batch (with outliers) are chosen so that every typical wrong ranking differs from the
    right one: the signed mean (gradients of opposite sign cancel), the magnitude of the mean, the largest
    magnitude, the first sample only, the gradient of loss + logits.sum(), and the least sensitive first."""

    names = ("most_sensitive_features",)
    title = N_("the features the loss is most sensitive to")
    hint_text = N_("Section 2 shows the input gradient: a function of (data, label) that returns only the loss, "
                   "differentiated with grad_position=0 and weights=None. Its gradient has data's shape (one row "
                   "per sample): take the magnitude, average each column over the batch, and sort the columns "
                   "(np.argsort sorts in increasing order).")
    solution_text = inspect.getsource(most_sensitive_features)

    KS = (3, 5)   # two values of k, so an answer that ignores k shows

    def reference(self):
        return (most_sensitive_features,)

    @staticmethod
    def _rankings(net, loss_fn, x, y, k):
        """{what a ranking is: the ranking}, the right one under None."""
        import mindspore as ms
        import numpy as np

        def loss_of(data, label):
            return loss_fn(net(data), label)

        def loss_and_logits(data, label):
            logits = net(data)
            return loss_fn(logits, label), logits

        g = ms.value_and_grad(loss_of, 0, None)(x, y)[1].asnumpy()
        both = ms.value_and_grad(loss_and_logits, 0, None)(x, y)[1].asnumpy()
        def top(scores):
            return [int(i) for i in np.argsort(scores)[::-1][:k]]

        return {
            None: top(np.abs(g).mean(axis=0)),
            tr("the features with the largest signed mean gradient: gradients of opposite sign cancel in a "
               "signed mean."): top(g.mean(axis=0)),
            tr("the ranking by the magnitude of the mean gradient, |mean|: gradients of opposite sign cancel "
               "before the magnitude is taken."): top(np.abs(g.mean(axis=0))),
            tr("the ranking by the largest magnitude in each column, not by the mean over the batch."):
                top(np.abs(g).max(axis=0)),
            tr("the ranking of the first sample's gradient only, not of the batch."): top(np.abs(g[0])),
            tr("the ranking by the gradients of loss + logits.sum(): the function you differentiated returns two "
               "outputs, and MindSpore differentiates their sum (section 2)."): top(np.abs(both).mean(axis=0)),
            tr("the least sensitive features first."): [int(i) for i in np.argsort(np.abs(g).mean(axis=0))[:k]],
        }

    def _check(self, most_sensitive_features):
        import numpy as np

        net, loss_fn, _ = fixed_setup()
        x, y = fixed_batch(outliers=0.2)
        for k in self.KS:
            answer = self.call(most_sensitive_features, net, loss_fn, x, y, k=k)
            got = answer.asnumpy() if hasattr(answer, "asnumpy") else answer
            try:
                array = np.asarray(got) if isinstance(got, (list, tuple, np.ndarray)) else None
            except ValueError:   # a ragged list
                array = None
            if array is None or array.ndim != 1 or array.dtype.kind not in "iu":
                shown = (tr("a value of type {kind} with shape {shape}", kind=type(answer).__name__, shape=array.shape)
                         if array is not None and array.ndim > 1 else describe(answer))
                raise Incorrect(tr("most_sensitive_features(..., k={k}) returned {got}; expected a list of {k} "
                                   "feature indices (ints), most sensitive first.", k=k, got=shown))
            got = [int(i) for i in array]
            rankings = self._rankings(net, loss_fn, x, y, k)
            want = rankings.pop(None)
            if got == want:
                continue
            if len(got) != k:
                raise Incorrect(tr("most_sensitive_features(..., k={k}) returned {n} indices {got}; expected {k}.",
                                   k=k, n=len(got), got=got))
            for message, ranking in rankings.items():
                if got == ranking:
                    raise Incorrect(tr("with k={k}: expected {want}, got {got}, {message}", k=k, want=want, got=got,
                                       message=message))
            raise Incorrect(tr("with k={k}: expected the features {want} (mean |d loss / d data| over the batch, "
                               "largest first), got {got}.", k=k, want=want, got=got))


def run_epochs(train_step, dataset, epochs):
    iterator = dataset.create_tuple_iterator(num_epochs=epochs)   # one iterator for the whole run
    epoch_means = []
    for _ in range(epochs):
        total, samples = 0.0, 0
        for data, label in iterator:                               # one pass = one epoch
            n = label.shape[0]                                     # the last batch may be smaller
            total += float(train_step(data, label)) * n            # a step's loss is its batch's mean
            samples += n
        epoch_means.append(total / samples)
    return epoch_means


class EpochLoop(Exercise):
    """A stand-in step records the first label of every batch it gets and returns 1, 2, 3, ... as the mean loss of
    the batch. Ten samples in batches of four, the last batch kept (two samples): the per-sample epoch means are
    1.8, 4.8, 7.8 for three epochs, the plain means of the batch losses 2, 5, 8. The data set is shuffled with a seed
    of the check's own (the notebook's seed is put back afterwards); three epochs that see one order have replayed
    it."""

    names = ("run_epochs",)
    title = N_("the epoch loop")
    hint_text = N_("Section 5 shows the trap and its fix: how many iterators does the whole run need, for how many "
                   "epochs, and where is it made? Each `for data, label in ...` over it is one epoch; float(loss) "
                   "turns a step's loss into a number. A step's loss is the mean over its batch, and the last batch "
                   "is smaller: weight each loss by label.shape[0] and divide by the epoch's samples.")
    solution_text = inspect.getsource(run_epochs)

    EPOCHS, SAMPLES, BATCH, SEED = 3, 10, 4, 5

    def reference(self):
        return (run_epochs,)

    def _check(self, run_epochs):
        import mindspore as ms
        import mindspore.dataset as ds
        import numpy as np

        sizes = [min(self.BATCH, self.SAMPLES - start) for start in range(0, self.SAMPLES, self.BATCH)]
        batches = len(sizes)
        features = np.arange(2 * self.SAMPLES, dtype=np.float32).reshape(self.SAMPLES, 2)
        labels = np.arange(self.SAMPLES, dtype=np.float32).reshape(self.SAMPLES, 1)
        seen = []

        def train_step(data, label):
            seen.append(int(to_numpy(label)[0, 0]))
            return ms.Tensor(float(len(seen)), ms.float32)

        notebook_seed = ds.config.get_seed()
        ds.config.set_seed(self.SEED)
        try:
            dataset = ds.NumpySlicesDataset({"data": features, "label": labels}, shuffle=True)
            dataset = dataset.batch(self.BATCH, drop_remainder=False)   # the last batch is smaller
            try:
                got = self.call(run_epochs, train_step, dataset, self.EPOCHS)
            except RuntimeError as exc:
                if "beyond the specified number of epochs" not in str(exc):
                    raise
                raise Incorrect(tr("after {n} steps the data set raised RuntimeError: 'User tries to fetch data "
                                   "beyond the specified number of epochs': the iterator was made for fewer epochs "
                                   "than the loop runs ({epochs}).", n=len(seen), epochs=self.EPOCHS)) from None
        finally:
            ds.config.set_seed(notebook_seed)

        expected_steps = self.EPOCHS * batches
        if len(seen) != expected_steps:
            raise Incorrect(tr("the step ran {n} times; expected {want} ({epochs} epochs of {batches} batches).",
                               n=len(seen), want=expected_steps, epochs=self.EPOCHS, batches=batches))
        orders = [tuple(seen[i:i + batches]) for i in range(0, expected_steps, batches)]
        if len(set(orders)) == 1:
            raise Incorrect(tr("every epoch saw the batches in the same order (first labels {order}): the seeded "
                               "shuffle started again each epoch, as with a new iterator per epoch (section 5).",
                               order=list(orders[0])))
        try:
            values = [float(v) for v in got]
        except (TypeError, ValueError):
            raise Incorrect(tr("run_epochs returned {got}; expected a list of {epochs} numbers, the mean loss of "
                               "each epoch.", got=describe(got), epochs=self.EPOCHS)) from None
        losses = np.arange(1, expected_steps + 1, dtype=float).reshape(self.EPOCHS, batches)
        want = [round(v, 6) for v in ((losses * sizes).sum(axis=1) / self.SAMPLES).tolist()]
        if len(values) == len(want) and np.allclose(values, want):
            return
        known = {
            tr("the plain mean of the epoch's batch losses: the last batch has {last} samples, not {batch}, and a "
               "step's loss is the mean over its batch, so each batch counts as many times as it has samples.",
               last=sizes[-1], batch=self.BATCH): losses.mean(axis=1).tolist(),
            tr("the sum of each epoch's losses, not their mean."): losses.sum(axis=1).tolist(),
            tr("the loss of each epoch's last step, not the mean."): losses[:, -1].tolist(),
            tr("the mean of all losses so far, not of the epoch's."):
                [losses[:i + 1].mean() for i in range(self.EPOCHS)],
        }
        for message, wrong in known.items():
            if len(values) == len(wrong) and np.allclose(values, wrong):
                raise Incorrect(tr("the stand-in step returned the losses {losses}; expected the epoch means {want}, "
                                   "got {got}, {message}", losses=losses.ravel().astype(int).tolist(), want=want,
                                   got=values, message=message))
        raise Incorrect(tr("the stand-in step returned the losses {losses}; expected the epoch means {want}, got "
                           "{got}.", losses=losses.ravel().astype(int).tolist(), want=want, got=values))


q1 = HasAuxStep()
q2 = SensitiveFeatures()
q3 = EpochLoop()
register(globals(), "02")
