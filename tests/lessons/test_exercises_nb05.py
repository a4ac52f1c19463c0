"""Notebook 05's exercise checks accept the reference and reject typical wrong answers."""

import numpy as np
import pytest

import mindspore as ms
import mindspore.dataset as ds
from mindspore import nn

from support import PYNATIVE_FAST_GRAPH_SLOW
from course_utils.exercises import Outcome, ____, nb05


# ---- q1: flatten size ------------------------------------------------------------------------------

def test_q1_accepts_the_reference_and_a_plain_solution():
    assert nb05.q1.check(*nb05.q1.reference()) == Outcome.CORRECT

    def flatten_size(image_size):
        side = image_size
        for _ in range(2):
            side = (side - 5 + 1) // 2
        return 16 * side * side

    assert nb05.q1.check(flatten_size) == Outcome.CORRECT


def test_q1_refuses_the_course_answer():
    from course_utils.models import lenet_flatten_size

    def flatten_size(image_size):
        return lenet_flatten_size(image_size)

    result = nb05.q1.check(flatten_size)
    assert result == Outcome.INCORRECT and "calls lenet_flatten_size" in result.message


def test_q1_refuses_the_course_answer_under_another_name_or_through_lenet5():
    from course_utils import models
    from course_utils.models import lenet_flatten_size as size_of

    for answer in (lambda image_size: size_of(image_size),
                   lambda image_size: models.LeNet5(image_size=image_size).fc1.in_channels):
        result = nb05.q1.check(answer)
        assert result == Outcome.INCORRECT and "uses the course's lenet_flatten_size" in result.message
    assert models.lenet_flatten_size(28) == 256 and models.LeNet5().fc1.in_channels == 256   # put back afterwards
    assert nb05.q1.check(*nb05.q1.reference()) == Outcome.CORRECT


def test_q1_not_attempted():
    assert nb05.q1.check(____) == Outcome.NOT_ATTEMPTED

    def flatten_size(image_size):
        return ____

    assert nb05.q1.check(flatten_size) == Outcome.NOT_ATTEMPTED


# Messages state symptoms (which input, expected vs got), never the fix.
@PYNATIVE_FAST_GRAPH_SLOW
@pytest.mark.parametrize("answer, message", [
    (lambda s: 400, "for 32x32 inputs"),
    (lambda s: ((s - 4) // 2 - 4) // 2 * (((s - 4) // 2 - 4) // 2), "is the size of one channel"),
    (lambda s: 16 * (((s - 5) // 2 - 5) // 2) ** 2, "removed 5 pixels"),
    (lambda s: 16 * (s // 4) ** 2, "padded convolutions"),
    (lambda s: 16 * ((s - 4) / 2 - 4) / 2 * (((s - 4) / 2 - 4) / 2), "a float; expected the int 256"),
    (lambda s: "256", "whole number"),
])
def test_q1_rejects_typical_mistakes(ms_mode, answer, message):
    result = nb05.q1.check(answer)
    assert result == Outcome.INCORRECT
    assert message in result.message


# ---- q2: batch norm and dropout -----------------------------------------------------------------------

def test_q2_accepts_the_reference():
    assert nb05.q2.check(*nb05.q2.reference()) == Outcome.CORRECT


def test_q2_not_attempted():
    assert nb05.q2.check(____) == Outcome.NOT_ATTEMPTED

    class LeNet5BN(nn.Cell):
        def __init__(self, num_classes=10, dropout=0.5):
            super().__init__()
            ____

        def construct(self, x):
            return ____

    assert nb05.q2.check(LeNet5BN) == Outcome.NOT_ATTEMPTED


def _variant(bn_sizes=(6, 16), drop=lambda d: nn.Dropout(p=d), use_dropout=True, fc1_in=256, drop_at="fc3"):
    class Variant(nn.Cell):
        def __init__(self, num_classes=10, dropout=0.5):
            super().__init__()
            self.conv1 = nn.Conv2d(1, 6, 5, pad_mode="valid")
            self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
            self.bns = nn.CellList([nn.BatchNorm2d(n) for n in bn_sizes])
            self.relu = nn.ReLU()
            self.pool = nn.MaxPool2d(kernel_size=2, stride=2)
            self.flatten = nn.Flatten()
            self.fc1 = nn.Dense(fc1_in, 120)
            self.fc2 = nn.Dense(120, 84)
            self.dropout = drop(dropout)
            self.fc3 = nn.Dense(84, num_classes)

        def construct(self, x):
            x = self.conv1(x)
            if len(self.bns) == 2:
                x = self.bns[0](x)
            x = self.pool(self.relu(x))
            if use_dropout and drop_at == "conv1":
                x = self.dropout(x)
            x = self.conv2(x)
            if len(self.bns) == 2:
                x = self.bns[1](x)
            x = self.pool(self.relu(x))
            x = self.relu(self.fc1(self.flatten(x)))
            if use_dropout and drop_at == "fc2":
                x = self.dropout(x)
            x = self.relu(self.fc2(x))
            if use_dropout and drop_at == "fc3":
                x = self.dropout(x)
            x = self.fc3(x)
            if use_dropout and drop_at == "output":
                x = self.dropout(x)
            return x

    return Variant


@PYNATIVE_FAST_GRAPH_SLOW
@pytest.mark.parametrize("answer, message", [
    (_variant(bn_sizes=()), "no batch normalisation layer"),
    (_variant(bn_sizes=(6,)), "exactly two nn.BatchNorm2d"),
    (_variant(drop=lambda d: nn.Dropout(keep_prob=d)), "0.70 is the fraction kept"),
    (_variant(drop=lambda d: nn.Dropout(p=0.5)), "drops a fraction 0.50 of the activations; expected 0.30"),
    (_variant(use_dropout=False), "expected dropout to make them differ"),
    (_variant(fc1_in=400), "256 features"),
    (_variant(drop_at="conv1"), "expected the nn.Dropout right before the last Dense layer"),
    (_variant(drop_at="fc2"), "expected the nn.Dropout right before the last Dense layer"),
    (_variant(drop_at="output"), "expected the nn.Dropout right before the last Dense layer"),
])
def test_q2_structure_checks(ms_mode, answer, message):
    result = nb05.q2.check(answer)
    assert result == Outcome.INCORRECT
    assert message in result.message


@PYNATIVE_FAST_GRAPH_SLOW
def test_q2_rejects_wrong_batchnorm_sizes(ms_mode):
    class BothSixteen(_variant()):
        def __init__(self, num_classes=10, dropout=0.5):
            super().__init__(num_classes, dropout)
            self.bns = nn.CellList([nn.BatchNorm2d(16), nn.BatchNorm2d(16)])

    result = nb05.q2.check(BothSixteen)
    assert result == Outcome.INCORRECT and "output channels" in result.message


# ---- q3: a confusion matrix from an evaluation loop ----------------------------------------------------

@pytest.mark.parametrize("seed, correct, accuracy", [(0, (0, 1, 2, 3, 4, 5), 0.6), (1, (2, 5, 9), 0.3)])
def test_q3_fixed_cases_are_what_they_claim(seed, correct, accuracy):
    net, images, labels, expected = nb05.fixed_eval_case(seed, correct)
    assert expected == accuracy and net.training
    net.set_train(False)
    predictions = net(ms.Tensor(images)).asnumpy().argmax(axis=1)
    assert np.mean(predictions == labels) == accuracy
    assert np.flatnonzero(predictions == labels).tolist() == list(correct)
    assert len(set(predictions.tolist())) >= 4, "predictions should be spread over several classes"
    counts = nb05.expected_counts(seed, correct)
    assert counts.sum() == 10 and np.trace(counts) == len(correct)
    assert not np.array_equal(counts, counts.T), "a swapped matrix must be told apart"


def test_q3_a_constant_does_not_pass():
    first_case = nb05.expected_counts(*nb05._CASES[0])
    result = nb05.q3.check(lambda network, images, labels, batch_size=4: first_case)
    assert result == Outcome.INCORRECT and "fixed case 2" in result.message


def test_q3_accepts_the_reference():
    assert nb05.q3.check(*nb05.q3.reference()) == Outcome.CORRECT


def test_q3_refuses_the_course_evaluation():
    from course_utils import evaluate

    shortcuts = [
        lambda network, images, labels, batch_size=4: evaluate.evaluate(network, (images, labels),
                                                                         batch_size).confusion_matrix(),
        lambda network, images, labels, batch_size=4: evaluate.confusion_matrix(
            labels, evaluate.predict_logits(network, images, batch_size)[0], 10),
    ]
    for answer in shortcuts:
        result = nb05.q3.check(answer)
        assert result == Outcome.INCORRECT and "uses the course's evaluation" in result.message
    net, images, labels, expected = nb05.fixed_eval_case()       # the course's functions work again afterwards
    assert evaluate.evaluate(net, (images, labels)).accuracy == expected
    assert nb05.q3.check(*nb05.q3.reference()) == Outcome.CORRECT


def test_q3_not_attempted():
    def confusion_counts(network, images, labels, batch_size=4):
        return ____

    assert nb05.q3.check(confusion_counts) == Outcome.NOT_ATTEMPTED


def _lesson_accuracy(network, images, labels, batch_size=4):
    """Section 3's `accuracy` loop, pasted and fed the arrays: it returns one number."""
    network.set_train(False)
    correct = total = 0
    for start in range(0, len(images), batch_size):
        predicted = network(ms.Tensor(images[start:start + batch_size])).asnumpy().argmax(axis=1)
        correct += int((predicted == labels[start:start + batch_size]).sum())
        total += len(predicted)
    return correct / total


def _lesson_accuracy_on_a_dataset(network, images, labels, batch_size=4):
    """The same loop, unchanged, over a dataset made from the arrays."""
    dataset = ds.NumpySlicesDataset({"image": images, "label": labels}, shuffle=False).batch(batch_size)
    network.set_train(False)
    correct = total = 0
    for batch_images, batch_labels in dataset.create_tuple_iterator(num_epochs=1):
        predicted = network(batch_images).asnumpy().argmax(axis=1)
        correct += int((predicted == batch_labels.asnumpy()).sum())
        total += len(predicted)
    return correct / total


def _loop(transposed=False, rates=False, first_batch_only=False, eval_mode=True, wrong_shape=False):
    def confusion_counts(network, images, labels, batch_size=4):
        if eval_mode:
            network.set_train(False)
        counts = np.zeros((10, 10))
        for start in range(0, len(images), batch_size):
            predictions = network(ms.Tensor(images[start:start + batch_size])).asnumpy().argmax(axis=1)
            for true, predicted in zip(labels[start:start + batch_size], predictions):
                counts[(predicted, true) if transposed else (true, predicted)] += 1
            if first_batch_only:
                break
        if rates:
            return counts / counts.sum(axis=1, keepdims=True).clip(min=1)
        return counts[:, :9] if wrong_shape else counts

    return confusion_counts


@PYNATIVE_FAST_GRAPH_SLOW
@pytest.mark.parametrize("answer, message", [
    (_lesson_accuracy, "returned one number, 0.6: an accuracy, as section 3's `accuracy` returns?"),
    (_lesson_accuracy_on_a_dataset, "returned one number, 0.6"),
    (_loop(transposed=True), "rows and columns swapped"),
    (_loop(rates=True), "returned fractions"),
    (_loop(first_batch_only=True), "counts 4 images; there are 10"),
    (_loop(eval_mode=False), "in training mode while it predicted"),
    (_loop(wrong_shape=True), "returned shape (10, 9)"),
])
def test_q3_rejects_typical_mistakes(ms_mode, answer, message):
    result = nb05.q3.check(answer)
    assert result == Outcome.INCORRECT
    assert message in result.message, result.message


# ---- q4: a validation split with the same number of rows per class ------------------------------------

def test_q4_accepts_the_reference():
    assert nb05.q4.check(*nb05.q4.reference()) == Outcome.CORRECT


def test_q4_not_attempted():
    def split_train_validation(make_source, labels, per_class, seed):
        return ____

    assert nb05.q4.check(split_train_validation) == Outcome.NOT_ATTEMPTED


def test_q4_refuses_section_1s_cut():
    """Cell 16's code, a random cut of the right size, does not give the same number of rows per class."""
    def split_train_validation(make_source, labels, per_class, seed):
        n_validation = per_class * len(np.unique(labels))
        order = np.random.default_rng(seed).permutation(len(labels))
        val_rows, train_rows = np.sort(order[:n_validation]), np.sort(order[n_validation:])
        return (make_source(ds.SubsetRandomSampler(train_rows.tolist())),
                make_source(ds.SubsetSampler(val_rows.tolist())))

    result = nb05.q4.check(split_train_validation)
    assert result == Outcome.INCORRECT and "expected 10 of each" in result.message


def _split(first_rows=False, train_on_all=False, overlap=0, unseeded=False, one_seed=False, fixed_order=False,
           one_part=False, shuffled_validation=False, shift_one=False):
    def split_train_validation(make_source, labels, per_class, seed):
        rng = np.random.default_rng(None if unseeded else 0 if one_seed else seed)
        picks = []
        for c in np.unique(labels):
            rows = np.flatnonzero(labels == c)
            n = per_class + (1 if c == 0 else -1 if c == 1 else 0) if shift_one else per_class
            picks.append(rows[:n] if first_rows else rng.choice(rows, n, replace=False))
        val_rows = np.sort(np.concatenate(picks))
        train_rows = np.setdiff1d(np.arange(len(labels)), val_rows)
        if overlap:
            train_rows = np.concatenate([train_rows[overlap:], val_rows[:overlap]])
        if train_on_all:
            train_rows = np.arange(len(labels))
        train_sampler = ds.SubsetSampler if fixed_order else ds.SubsetRandomSampler
        val_sampler = ds.SubsetRandomSampler if shuffled_validation else ds.SubsetSampler
        validation = make_source(val_sampler(val_rows.tolist()))
        if one_part:
            return validation
        return make_source(train_sampler(train_rows.tolist())), validation

    return split_train_validation


@pytest.mark.parametrize("answer, message", [
    (_split(first_rows=True), "the first (or the last) 10 rows of every class"),
    (_split(train_on_all=True), "the training part has 200 rows and the validation part 40; expected 160 and 40"),
    (_split(overlap=5), "5 rows are in both parts"),
    (_split(unseeded=True), "two calls with seed=7 chose different validation rows"),
    (_split(one_seed=True), "seed=7 and seed=8 chose the same validation rows"),
    (_split(fixed_order=True), "the same order in two epochs"),
    (_split(shuffled_validation=True), "the validation part yields its rows in a new order every epoch"),
    (_split(one_part=True), "expected two datasets, (train, validation)"),
])
def test_q4_rejects_typical_mistakes(answer, message):
    result = nb05.q4.check(answer)
    assert result == Outcome.INCORRECT
    assert message in result.message

