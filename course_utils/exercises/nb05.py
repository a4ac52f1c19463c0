"""Exercises of notebook 05 (MNIST + LeNet-5).

q1 ``flatten_size``: the number of features entering LeNet-5's first Dense layer for a given input size.
q2 ``LeNet5BN``: LeNet-5 with batch normalisation after each convolution and dropout before the last layer.
q3 ``confusion_counts``: an evaluation loop that returns the confusion matrix, on two fixed tiny batches.
q4 ``split_train_validation``: a validation split with samplers and the same number of rows of every class,
disjoint from the training part.

q1 is plain arithmetic (no MindSpore; the course's ``lenet_flatten_size``, under any name or through ``LeNet5``,
is refused while the check runs). q2 checks the Cell's structure and behaviour (layer types and sizes, output
shape, dropout active only in training mode, and its output is what the last Dense layer receives).
q3 runs the learner's loop (the course's ``evaluate``, ``predict_logits``, ``confusion_matrix`` and
``mnist_test_accuracy`` refused) on a fixed network and ten fixed images whose predictions are known, with batch
sizes that leave a partial last batch, and on a second such case; the answer is a (10, 10) array of counts, so the
lesson's ``accuracy`` loop pasted as it is (one number) does not pass. q4 reads the two parts the learner's
samplers select from a numbered source of 200 rows in four classes of unequal size, the validation part twice
(the same order both times). MindSpore is imported on first use, not with this module.
"""

from __future__ import annotations

import functools
import inspect

import numpy as np

from course_utils.exercises import Exercise, Incorrect, describe, refusing, register, to_numpy
from course_utils.i18n import tr
from course_utils.models import lenet_flatten_size

# ----------------------------------------------------------------------------------------------
# q1: flatten size
# ----------------------------------------------------------------------------------------------


class FlattenSize(Exercise):
    names = ("flatten_size",)
    title = "flatten size for any input size"
    hint_text = (
        "Follow the side length s through the four shrinking layers. A 5x5 'valid' convolution keeps only "
        "the positions where the whole kernel fits: s -> s - 5 + 1. A 2x2 max-pool with stride 2 halves it, "
        "rounding down: s -> s // 2. Do conv, pool, conv, pool, then multiply by the 16 channels of the "
        "second convolution: 16 * s * s.")
    solution_text = '''
        def flatten_size(image_size):
            side = image_size
            for _ in range(2):                 # (valid 5x5 conv, 2x2 pool) twice
                side = (side - 5 + 1) // 2
            return 16 * side * side
    '''

    def reference(self):
        return (_flatten_size_solution,)

    def _check(self, flatten_size):
        if not callable(flatten_size):
            raise Incorrect(tr("`flatten_size` should be a function of the image size, got {got}.",
                               got=describe(flatten_size)))
        code = getattr(flatten_size, "__code__", None)
        if "lenet_flatten_size" in getattr(code, "co_names", ()) + getattr(code, "co_freevars", ()):
            raise Incorrect(tr("`flatten_size` calls lenet_flatten_size, the course's own answer; work the size out "
                               "from the layers instead."))
        for size in (28, 32, 36, 29, 20, 64):
            expected = lenet_flatten_size(size)
            with refusing((lenet_flatten_size,),      # also reached through LeNet5(image_size=...)
                           tr("`flatten_size` uses the course's lenet_flatten_size (directly, under another name or "
                              "through course_utils.models.LeNet5); work the size out from the layers instead.")):
                got = self.call(flatten_size, size)
            if isinstance(got, (bool, np.bool_)) or not isinstance(got, (int, np.integer, float, np.floating)):
                raise Incorrect(tr("flatten_size({size}) returned {got}; return a whole number (int).",
                                   size=size, got=describe(got)))
            if got == expected and isinstance(got, (float, np.floating)):
                raise Incorrect(tr("flatten_size({size}) returned {got!r}, a float; expected the int {expected}.",
                                   size=size, got=got, expected=expected))
            if got == expected:
                continue
            side = int(round(np.sqrt(expected // 16)))
            hint = ""
            if got == 400 and size != 32:
                hint = tr(" (400 is the size for 32x32 inputs.)")
            elif got == side * side:
                hint = tr(" ({got} is the size of one channel.)", got=got)
            elif got == 16 * (((size - 5) // 2 - 5) // 2) ** 2:
                hint = tr(" (That is the size if each convolution removed 5 pixels per side length instead of 4.)")
            elif got == 16 * (size // 4) ** 2:
                hint = tr(" (That is the size with padded convolutions, which keep the side length.)")
            elif isinstance(got, (float, np.floating)):
                hint = tr(" (A float: the pooled side lengths were not rounded down.)")
            raise Incorrect(tr("flatten_size({size}): expected {expected} (16 channels x {side} x {side}), "
                               "got {got!r}.{hint}", size=size, expected=expected, side=side, got=got, hint=hint))


def _flatten_size_solution(image_size):
    side = image_size
    for _ in range(2):                 # (valid 5x5 conv, 2x2 pool) twice
        side = (side - 5 + 1) // 2
    return 16 * side * side


# ----------------------------------------------------------------------------------------------
# q2: batch norm and dropout
# ----------------------------------------------------------------------------------------------

def _drop_rate(cell) -> float:
    """The fraction a MindSpore ``nn.Dropout`` zeroes (``p``, or 1 - the deprecated ``keep_prob``)."""
    p = getattr(cell, "p", None)
    return float(p) if p is not None else 1.0 - float(cell.keep_prob)


class LeNetBatchNorm(Exercise):
    names = ("LeNet5BN",)
    title = "add batch normalisation and dropout"
    hint_text = (
        "Start from the LeNet5 of this notebook. In __init__ add self.bn1 = nn.BatchNorm2d(6) and "
        "self.bn2 = nn.BatchNorm2d(16) (num_features = the convolution's output channels) and "
        "self.dropout = nn.Dropout(p=dropout) (p is the fraction dropped). In construct: "
        "x = self.pool(self.relu(self.bn1(self.conv1(x)))), the same with conv2/bn2, flatten, fc1, relu, "
        "fc2, relu, then x = self.dropout(x) right before self.fc3(x).")
    @property
    def solution_text(self) -> str:
        return inspect.getsource(_lenet5bn_solution())  # the reference itself, so the two cannot differ

    def reference(self):
        return (_lenet5bn_solution(),)

    def _check(self, LeNet5BN):
        import mindspore as ms
        from mindspore import nn

        if not isinstance(LeNet5BN, type) or not issubclass(LeNet5BN, nn.Cell):
            raise Incorrect(tr("`LeNet5BN` should be a class derived from nn.Cell, got {got}.",
                               got=describe(LeNet5BN)))
        try:
            net = self.call(LeNet5BN, num_classes=10, dropout=0.3)
        except TypeError as exc:
            raise Incorrect(tr("LeNet5BN(num_classes=10, dropout=0.3) failed: {error}.", error=exc)) from None
        cells = [c for _, c in net.cells_and_names()]
        bns = [c for c in cells if isinstance(c, (nn.BatchNorm2d, nn.BatchNorm1d))]
        bn2d = [c for c in bns if isinstance(c, nn.BatchNorm2d)]
        if not bns:
            raise Incorrect(tr("LeNet5BN() has no batch normalisation layer among its cells; expected two "
                               "nn.BatchNorm2d layers."))
        if len(bn2d) != 2 or len(bns) != 2:
            raise Incorrect(tr("expected exactly two nn.BatchNorm2d layers (one per convolution), found "
                               "{n2d} BatchNorm2d and {n1d} BatchNorm1d.", n2d=len(bn2d), n1d=len(bns) - len(bn2d)))
        sizes = sorted(int(c.num_features) for c in bn2d)
        if sizes != [6, 16]:
            raise Incorrect(tr("the batch-norm layers normalise {sizes} channels; expected [6, 16], the "
                               "convolutions' output channels.", sizes=sizes))
        drops = [c for c in cells if isinstance(c, nn.Dropout)]
        if len(drops) != 1:
            raise Incorrect(tr("expected one nn.Dropout layer (before the last Dense layer), found {n}.",
                               n=len(drops)))
        rate = _drop_rate(drops[0])
        if not np.isclose(rate, 0.3):
            hint = tr(" (0.70 is the fraction kept.)") if np.isclose(rate, 0.7) else ""
            raise Incorrect(tr("LeNet5BN(dropout=0.3) drops a fraction {rate:.2f} of the activations; "
                               "expected 0.30.{hint}", rate=rate, hint=hint))
        convs = [c for c in cells if isinstance(c, nn.Conv2d)]
        denses = [c for c in cells if isinstance(c, nn.Dense)]
        if len(convs) != 2 or len(denses) != 3:
            raise Incorrect(tr("keep LeNet-5's layers: 2 convolutions and 3 Dense layers (found {convs} and "
                               "{denses}).", convs=len(convs), denses=len(denses)))
        if sorted(d.in_channels for d in denses)[-1] != 256:
            raise Incorrect(tr("the first Dense layer should take 16 * 4 * 4 = 256 features for 28x28 inputs, "
                               "got {got}.", got=[d.in_channels for d in denses]))

        x = ms.Tensor(np.random.default_rng(0).normal(size=(4, 1, 28, 28)).astype(np.float32))
        net.set_train(False)
        out = to_numpy(net(x))
        if out.shape != (4, 10):
            raise Incorrect(tr("LeNet5BN()(x) for x of shape (4, 1, 28, 28) returned shape {shape}; "
                               "expected (4, 10).", shape=out.shape))
        again = to_numpy(net(x))
        if not np.allclose(out, again):
            raise Incorrect(tr("in evaluation mode (net.set_train(False)) two calls of LeNet5BN(dropout=0.3) on the "
                               "same input differ by up to {difference:.3g}; expected identical outputs.",
                               difference=np.abs(out - again).max()))
        net.set_train(True)
        first, second = to_numpy(net(x)), to_numpy(net(x))
        if np.allclose(first, second):
            raise Incorrect(tr("in training mode (net.set_train(True)) two calls of LeNet5BN(dropout=0.3) on the "
                               "same input gave the same output; expected dropout to make them differ."))
        self._check_dropout_position(LeNet5BN, x)
        n10 = self.call(LeNet5BN, num_classes=3)
        n10.set_train(False)
        if to_numpy(n10(x)).shape != (4, 3):
            raise Incorrect(tr("LeNet5BN(num_classes=3)(x) for x of shape (4, 1, 28, 28) returned shape "
                               "{shape}; expected (4, 3).", shape=to_numpy(n10(x)).shape))


    def _check_dropout_position(self, LeNet5BN, x):
        """The dropout's output is what the last Dense layer receives. With num_classes=84 that layer is
        Dense(84, 84); made the identity, the network returns its input. Two training-mode calls on one batch
        then differ only where dropout zeroed an entry in one of them; a dropout anywhere earlier changes the
        entries it keeps as well."""
        import mindspore as ms
        from mindspore import nn

        net = self.call(LeNet5BN, num_classes=84, dropout=0.3)
        last = [c for _, c in net.cells_and_names() if isinstance(c, nn.Dense) and c.in_channels == 84
                and c.out_channels == 84]
        if len(last) != 1:
            raise Incorrect(tr("LeNet5BN(num_classes=84) has no Dense(84, 84) layer; expected the last Dense layer "
                               "to map LeNet-5's 84 features to num_classes."))
        last[0].weight.set_data(ms.Tensor(np.eye(84, dtype=np.float32)))
        shift = 1.0 if last[0].has_bias else 0.0    # a bias of 1: a dropout after that layer zeroes it too
        if last[0].has_bias:
            last[0].bias.set_data(ms.Tensor(np.full(84, shift, np.float32)))
        net.set_train(True)
        first, second = to_numpy(net(x)) - shift, to_numpy(net(x)) - shift
        changed = ~np.isclose(first, second, rtol=1e-5, atol=1e-6)
        dropped = np.isclose(first, 0, atol=1e-6) | np.isclose(second, 0, atol=1e-6)
        if not np.all(dropped[changed]):
            raise Incorrect(tr("in training mode the input of the last Dense layer changes from call to call in "
                               "entries that dropout kept; expected the nn.Dropout right before the last Dense "
                               "layer, so that what that layer receives is the dropout's output."))


@functools.lru_cache(maxsize=None)
def _lenet5bn_solution():
    from mindspore import nn

    class LeNet5BN(nn.Cell):
        def __init__(self, num_classes=10, dropout=0.5):
            super().__init__()
            self.conv1 = nn.Conv2d(1, 6, 5, pad_mode="valid")
            self.bn1 = nn.BatchNorm2d(6)
            self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
            self.bn2 = nn.BatchNorm2d(16)
            self.relu = nn.ReLU()
            self.pool = nn.MaxPool2d(kernel_size=2, stride=2)
            self.flatten = nn.Flatten()
            self.fc1 = nn.Dense(16 * 4 * 4, 120)    # 256 features for 28x28 inputs
            self.fc2 = nn.Dense(120, 84)
            self.dropout = nn.Dropout(p=dropout)
            self.fc3 = nn.Dense(84, num_classes)

        def construct(self, x):
            x = self.pool(self.relu(self.bn1(self.conv1(x))))
            x = self.pool(self.relu(self.bn2(self.conv2(x))))
            x = self.flatten(x)
            x = self.relu(self.fc1(x))
            x = self.relu(self.fc2(x))
            return self.fc3(self.dropout(x))

    return LeNet5BN


# ----------------------------------------------------------------------------------------------
# q3: the evaluation loop
# ----------------------------------------------------------------------------------------------

#: The fixed cases of q3: (seed of the network and images, which of the ten images get their network's prediction
#: as label, the others a wrong one). With batch_size=4 the batches are [0:4], [4:8], [8:10], with 3 the last
#: batch has one image: a loop that drops or repeats the last batch counts another number of images. The two cases
#: have different confusion matrices, so no constant array passes both. nb06 reuses the first case's network.
_CASES = ((0, (0, 1, 2, 3, 4, 5)), (1, (2, 5, 9)))


def fixed_eval_case(seed: int = 0, correct: tuple = _CASES[0][1]):
    """(network, images, labels, expected accuracy): a LeNet5BN with fixed weights and batch-norm
    statistics, ten fixed images, and labels chosen so that exactly the predictions at ``correct`` are right.

    The network behaves differently in training mode (batch statistics, dropout), so a loop that
    forgets ``set_train(False)`` gets other predictions. Fresh objects on every call: a training-mode
    forward pass changes the batch-norm running statistics.
    """
    import mindspore as ms

    rng = np.random.default_rng(seed)
    net = _recording_lenet5bn()(num_classes=10, dropout=0.5)
    for param in net.get_parameters():
        shape = tuple(param.shape)
        if param.name.endswith("variance"):
            value = rng.uniform(0.5, 2.0, size=shape)
        elif param.name.endswith("gamma"):
            value = rng.uniform(0.8, 1.2, size=shape)
        elif param.name.endswith(("mean", "beta", "bias")):
            value = rng.normal(0.0, 0.1, size=shape)
        else:
            fan_in = int(np.prod(shape[1:])) or 1
            value = rng.normal(0.0, np.sqrt(2.0 / fan_in), size=shape)
        param.set_data(ms.Tensor(value.astype(np.float32)))
    images = rng.normal(size=(10, 1, 28, 28)).astype(np.float32)
    net.set_train(False)
    # Random weights favour one class for every input; centring the last layer's output over these
    # ten images spreads the predictions over several classes.
    logits = net(ms.Tensor(images)).asnumpy()
    net.fc3.bias.copy_(ms.Tensor((net.fc3.bias.asnumpy() - logits.mean(axis=0)).astype(np.float32)))
    predictions = net(ms.Tensor(images)).asnumpy().argmax(axis=1)
    labels = np.array([p if i in correct else (p + 1 + i % 9) % 10 for i, p in enumerate(predictions)],
                      dtype=np.int32)
    net.set_train(True)  # as it is after training: the loop must switch it to evaluation mode
    net.calls_in_training_mode = 0
    return net, images, labels, len(correct) / len(labels)


@functools.lru_cache(maxsize=None)
def _recording_lenet5bn():
    class RecordingLeNet5BN(_lenet5bn_solution()):
        """Counts the forward passes made in training mode (a loop that forgot ``set_train(False)``)."""

        calls_in_training_mode = 0

        def __call__(self, *args, **kwargs):
            if self.training:
                self.calls_in_training_mode += 1
            return super().__call__(*args, **kwargs)

    return RecordingLeNet5BN


class EvaluationLoop(Exercise):
    names = ("confusion_counts",)
    title = "a confusion matrix from an evaluation loop"
    hint_text = (
        "network.set_train(False) first (dropout off, batch norm uses its running statistics). Start from "
        "counts = np.zeros((10, 10), dtype=int). Then loop over start = 0, batch_size, 2 * batch_size, ...: "
        "logits = network(ms.Tensor(images[start:start + batch_size])); predictions = "
        "logits.asnumpy().argmax(axis=1); for every pair (true, predicted) of labels[start:start + batch_size] "
        "and predictions add 1 to counts[true, predicted]. Row = the true digit, column = the prediction; the last "
        "batch may be smaller, and every image counts once.")

    @property
    def solution_text(self) -> str:
        source = inspect.getsource(_confusion_counts_solution)
        return source.replace("_confusion_counts_solution", "confusion_counts")

    def reference(self):
        return (_confusion_counts_solution,)

    def _check(self, confusion_counts):
        if not callable(confusion_counts):
            raise Incorrect(tr("`confusion_counts` should be a function, got {got}.", got=describe(confusion_counts)))
        from course_utils import evaluate as course_evaluate

        for case, batch_size in ((1, 4), (1, 3), (2, 4)):
            seed, correct = _CASES[case - 1]
            expected = expected_counts(seed, correct)
            net, images, labels, _ = fixed_eval_case(seed, correct)
            what = tr("confusion_counts(network, images, labels, batch_size={batch_size}) on fixed case {case} "
                      "(ten images)", batch_size=batch_size, case=case)
            # the course's evaluation switches the mode, batches and counts by itself: not this loop
            with refusing((course_evaluate.predict_logits, course_evaluate.evaluate,
                           course_evaluate.mnist_test_accuracy, course_evaluate.confusion_matrix),
                          tr("`confusion_counts` uses the course's evaluation (course_utils.evaluate: evaluate, "
                             "predict_logits, confusion_matrix or mnist_test_accuracy); write the loop itself: the "
                             "mode, the batches and the counts.")):
                got = self.call(confusion_counts, net, images, labels, batch_size=batch_size)
            try:
                counts = np.asarray(to_numpy(got), dtype=float)
            except (TypeError, ValueError):
                raise Incorrect(tr("{what} returned {got}; return a (10, 10) array of counts.",
                                   what=what, got=describe(got))) from None
            if counts.ndim == 0:
                raise Incorrect(tr("{what} returned one number, {got}: an accuracy, as section 3's `accuracy` "
                                   "returns? Return the confusion matrix instead: a (10, 10) array whose entry [t, p] "
                                   "counts the images of true digit t predicted as p.", what=what, got=describe(got)))
            if counts.shape != expected.shape:
                raise Incorrect(tr("{what} returned shape {shape}; expected (10, 10): one row per true digit, one "
                                   "column per predicted digit.", what=what, shape=tuple(counts.shape)))
            if not np.array_equal(counts, np.round(counts)):
                raise Incorrect(tr("{what} returned fractions (row sums {sums}); return counts of images, whole "
                                   "numbers, not rates.", what=what,
                                   sums=[float(f"{s:.3g}") for s in counts.sum(axis=1)]))
            if np.array_equal(counts, expected):
                continue
            if net.calls_in_training_mode:
                raise Incorrect(tr("{what} differs from the expected counts: the network was in training mode while "
                                   "it predicted (it was handed over in training mode).", what=what))
            if np.array_equal(counts, expected.T):
                raise Incorrect(tr("{what} has rows and columns swapped: expected row = the true digit (labels), "
                                   "column = the prediction.", what=what))
            total = int(counts.sum())
            if total != len(labels):
                raise Incorrect(tr("{what} counts {total} images; there are {n}: every image once, the smaller last "
                                   "batch included.", what=what, total=total, n=len(labels)))
            wrong = [(int(t), int(p)) for t, p in zip(*np.nonzero(counts != expected))]
            raise Incorrect(tr("{what}: the counts differ at [true, predicted] {cells}: expected {expected}, got "
                               "{got}.", what=what, cells=wrong[:4],
                               expected=[int(expected[c]) for c in wrong[:4]], got=[int(counts[c]) for c in wrong[:4]]))


def expected_counts(seed: int = 0, correct: tuple = _CASES[0][1]) -> np.ndarray:
    """The confusion matrix of :func:`fixed_eval_case` (a fresh one, predicting in evaluation mode)."""
    import mindspore as ms

    net, images, labels, _ = fixed_eval_case(seed, correct)
    net.set_train(False)
    predictions = net(ms.Tensor(images)).asnumpy().argmax(axis=1)
    return np.bincount(10 * labels + predictions, minlength=100).reshape(10, 10)


def _confusion_counts_solution(network, images, labels, batch_size=4):
    import mindspore as ms

    network.set_train(False)
    counts = np.zeros((10, 10), dtype=int)
    for start in range(0, len(images), batch_size):
        logits = network(ms.Tensor(images[start:start + batch_size]))
        predictions = logits.asnumpy().argmax(axis=1)
        for true, predicted in zip(labels[start:start + batch_size], predictions):
            counts[true, predicted] += 1
    return counts


# ----------------------------------------------------------------------------------------------
# q4: a validation split with samplers
# ----------------------------------------------------------------------------------------------

#: The numbered source of q4: rows 0 .. 199 with labels of four classes in unequal numbers (80, 60, 40, 20 rows),
#: mixed in a fixed order; _PER_CLASS rows of every class go to validation. A cut of 40 rows at random (section
#: 1's) gives about 16, 12, 8 and 4, not 10 of each.
_CLASS_SIZES, _PER_CLASS = (80, 60, 40, 20), 10
_LABELS = np.random.default_rng(5).permutation(np.repeat(np.arange(len(_CLASS_SIZES)), _CLASS_SIZES))
_ROWS = len(_LABELS)


def _numbered_source(sampler):
    """A dataset whose one column "row" is the row number, read through ``sampler``."""
    import mindspore.dataset as ds

    return ds.NumpySlicesDataset({"row": np.arange(_ROWS)}, sampler=sampler)


def _rows(dataset, epochs=1):
    """The row numbers a dataset yields, one list per epoch."""
    iterator = dataset.create_tuple_iterator(num_epochs=epochs, output_numpy=True)
    return [[int(row[0]) for row in iterator] for _ in range(epochs)]


class ValidationSplit(Exercise):
    names = ("split_train_validation",)
    title = "a validation split with the same number of rows per class"
    hint_text = (
        "rng = np.random.default_rng(seed) once. For every class c in np.unique(labels): the rows of that class "
        "are np.flatnonzero(labels == c), and rng.choice(those_rows, per_class, replace=False) picks per_class of "
        "them. The validation rows are all the picks together (np.sort them), the training rows every other row "
        "(np.setdiff1d(np.arange(len(labels)), val_rows)). Return (make_source(ds.SubsetRandomSampler(...)), "
        "make_source(ds.SubsetSampler(...))): the first sampler reshuffles its rows every epoch, the second reads "
        "them in order.")

    def reference(self):
        return (_split_solution,)

    @property
    def solution_text(self) -> str:   # the reference itself, under the learner's name for it
        return inspect.getsource(_split_solution).replace("_split_solution", "split_train_validation")

    def _split(self, split_train_validation, seed):
        import mindspore.dataset as ds

        call = f"split_train_validation(make_source, labels, {_PER_CLASS}, seed={seed})"
        parts = self.call(split_train_validation, _numbered_source, _LABELS.copy(), _PER_CLASS, seed)
        if (not isinstance(parts, (tuple, list)) or len(parts) != 2
                or not all(isinstance(part, ds.Dataset) for part in parts)):
            raise Incorrect(tr("{call} returned {got}; expected two datasets, (train, validation).",
                               call=call, got=describe(parts)))
        return call, parts

    def _check(self, split_train_validation):
        if not callable(split_train_validation):
            raise Incorrect(tr("`split_train_validation` should be a function, got {got}.",
                               got=describe(split_train_validation)))
        call, (train, validation) = self._split(split_train_validation, seed=7)
        train_epochs, val_rows = _rows(train, epochs=2), _rows(validation)[0]
        train_rows = train_epochs[0]
        n_val = _PER_CLASS * len(_CLASS_SIZES)
        if len(val_rows) != n_val or len(train_rows) != _ROWS - n_val:
            raise Incorrect(tr("{call}: the training part has {n_train} rows and the validation part {n_val}; "
                               "expected {e_train} and {e_val}.", call=call, n_train=len(train_rows),
                               n_val=len(val_rows), e_train=_ROWS - n_val, e_val=n_val))
        both = sorted(set(train_rows) & set(val_rows))
        if both:
            raise Incorrect(tr("{call}: {n} rows are in both parts (e.g. row {row}); expected none.",
                               call=call, n=len(both), row=both[0]))
        if len(set(train_rows) | set(val_rows)) != _ROWS:
            raise Incorrect(tr("{call}: a row appears twice within one part; expected every row of the source "
                               "exactly once.", call=call))
        per_class = np.bincount(_LABELS[val_rows], minlength=len(_CLASS_SIZES)).tolist()
        if per_class != [_PER_CLASS] * len(_CLASS_SIZES):
            raise Incorrect(tr("{call}: the validation part has {counts} rows of the classes 0 to {last}; "
                               "expected {per_class} of each.", call=call, counts=per_class,
                               last=len(_CLASS_SIZES) - 1, per_class=_PER_CLASS))
        ends = [np.flatnonzero(_LABELS == c) for c in range(len(_CLASS_SIZES))]
        if set(val_rows) in ({int(r) for e in ends for r in e[:_PER_CLASS]},
                             {int(r) for e in ends for r in e[-_PER_CLASS:]}):
            raise Incorrect(tr("{call}: the validation rows are the first (or the last) {per_class} rows of every "
                               "class; expected rows chosen at random.", call=call, per_class=_PER_CLASS))
        _, (_, again) = self._split(split_train_validation, seed=7)
        if set(_rows(again)[0]) != set(val_rows):
            raise Incorrect(tr("two calls with seed=7 chose different validation rows; expected the same rows "
                               "for the same seed."))
        _, (_, other) = self._split(split_train_validation, seed=8)
        if set(_rows(other)[0]) == set(val_rows):
            raise Incorrect(tr("seed=7 and seed=8 chose the same validation rows; expected the seed to choose "
                               "them."))
        val_epochs = _rows(validation, epochs=2)
        if val_epochs[1] != val_epochs[0]:
            raise Incorrect(tr("{call}: the validation part yields its rows in a new order every epoch; expected the "
                               "same order every epoch.", call=call))
        if train_epochs[1] == train_rows:
            raise Incorrect(tr("{call}: the training part yields its rows in the same order in two epochs; "
                               "expected a new order every epoch.", call=call))


def _split_solution(make_source, labels, per_class, seed):
    import mindspore.dataset as ds

    rng = np.random.default_rng(seed)                                      # the choice, fixed by the seed
    labels = np.asarray(labels)
    val_rows = np.sort(np.concatenate([rng.choice(np.flatnonzero(labels == c), per_class, replace=False)
                                       for c in np.unique(labels)]))      # per_class rows of every class
    train_rows = np.setdiff1d(np.arange(len(labels)), val_rows)           # every other row
    train = make_source(ds.SubsetRandomSampler(train_rows.tolist()))      # reshuffled every epoch
    validation = make_source(ds.SubsetSampler(val_rows.tolist()))         # always in the same order
    return train, validation


q1 = FlattenSize()
q2 = LeNetBatchNorm()
q3 = EvaluationLoop()
q4 = ValidationSplit()
__all__ = ["q1", "q2", "q3", "q4", "expected_counts", "fixed_eval_case"]
register(globals(), "05")
