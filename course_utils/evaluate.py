"""Evaluating a classifier: predictions, accuracy, confusion matrix, per-class accuracy, worst mistakes.

Notebook 05 introduces these on MNIST; later notebooks reuse them.

    from course_utils import evaluate
    result = evaluate.evaluate(net, data.mnist_dataset("test", batch_size=1000))
    result.accuracy, result.confusion_matrix(), result.per_class_accuracy()
    result.most_confident_wrong(12)        # indices of the most confidently wrong test images

Only ``predict_logits``/``evaluate`` run MindSpore (the network's forward pass, in evaluation mode);
everything else is plain NumPy on arrays, so it works on saved predictions too.
"""

from __future__ import annotations

import dataclasses
from typing import Iterable, Optional, Tuple

import numpy as np

from course_utils.i18n import tr


# --------------------------------------------------------------------------------------------
# NumPy-only metrics
# --------------------------------------------------------------------------------------------

def softmax(logits, axis: int = -1) -> np.ndarray:
    """Probabilities from logits, computed stably (the largest logit is subtracted first)."""
    z = np.asarray(logits, dtype=np.float64)
    z = z - z.max(axis=axis, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=axis, keepdims=True)


def _as_predictions(predictions_or_logits) -> np.ndarray:
    """Class indices from either class indices (N,) or scores (N, C)."""
    arr = np.asarray(predictions_or_logits)
    if arr.ndim == 2:
        return arr.argmax(axis=1)
    if arr.ndim == 1:
        if arr.size and not np.issubdtype(arr.dtype, np.integer):
            if not np.all(np.equal(np.mod(arr, 1), 0)):
                raise ValueError(tr("1-D predictions must be class indices (whole numbers); pass (N, C) "
                                    "scores to have the arg-max taken."))
            arr = arr.astype(np.int64)
        return arr
    raise ValueError(tr("Expected class indices (N,) or scores (N, C), got shape {shape}.", shape=arr.shape))


def _labels(labels, n: int) -> np.ndarray:
    labels = np.asarray(labels).reshape(-1)
    if labels.shape[0] != n:
        raise ValueError(tr("{n} predictions but {m} labels: they must match one to one.", n=n, m=labels.shape[0]))
    return labels.astype(np.int64)


def accuracy(predictions_or_logits, labels) -> float:
    """Fraction of correct predictions (class indices (N,) or scores (N, C)) against ``labels``."""
    preds = _as_predictions(predictions_or_logits)
    labels = _labels(labels, preds.shape[0])
    if preds.shape[0] == 0:
        raise ValueError(tr("accuracy of an empty set is undefined: no predictions were given."))
    return float(np.mean(preds == labels))


def confusion_matrix(labels, predictions_or_logits, num_classes: Optional[int] = None) -> np.ndarray:
    """``cm[i, j]`` = how many samples of true class ``i`` were predicted as class ``j``.

    Rows are the true classes, columns the predictions: the diagonal holds the correct ones.
    """
    preds = _as_predictions(predictions_or_logits)
    labels = _labels(labels, preds.shape[0])
    if num_classes is None:
        num_classes = int(max(labels.max(initial=-1), preds.max(initial=-1))) + 1
    for name, values in (("labels", labels), ("predictions", preds)):
        if values.size and (values.min() < 0 or values.max() >= num_classes):
            raise ValueError(tr("{name} must lie in 0..{last}, found {low}..{high}.", name=name,
                                last=num_classes - 1, low=values.min(), high=values.max()))
    cm = np.zeros((num_classes, num_classes), dtype=np.int64)
    np.add.at(cm, (labels, preds), 1)
    return cm


def per_class_accuracy(cm) -> np.ndarray:
    """Accuracy within each true class (the diagonal over the row sums; NaN for an absent class)."""
    cm = np.asarray(cm)
    if cm.ndim != 2 or cm.shape[0] != cm.shape[1]:
        raise ValueError(tr("Expected a square confusion matrix, got shape {shape}.", shape=cm.shape))
    totals = cm.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(totals > 0, np.diag(cm) / np.maximum(totals, 1), np.nan)


def most_confident_wrong(probabilities, labels, k: int = 12) -> np.ndarray:
    """Indices of the ``k`` wrong predictions made with the highest probability, most confident first."""
    probs = np.asarray(probabilities)
    if probs.ndim != 2:
        raise ValueError(tr("Expected probabilities of shape (N, C), got {shape}.", shape=probs.shape))
    labels = _labels(labels, probs.shape[0])
    preds = probs.argmax(axis=1)
    wrong = np.flatnonzero(preds != labels)
    confidence = probs[wrong, preds[wrong]]
    order = np.argsort(-confidence, kind="stable")
    return wrong[order[:max(int(k), 0)]]


# --------------------------------------------------------------------------------------------
# Running the network
# --------------------------------------------------------------------------------------------

def _batches(data, batch_size: int) -> Iterable[Tuple[np.ndarray, Optional[np.ndarray]]]:
    """(images, labels or None) batches from a dataset, an (images, labels) pair or an image array."""
    if hasattr(data, "create_tuple_iterator"):          # a mindspore.dataset
        for row in data.create_tuple_iterator(num_epochs=1, output_numpy=True):
            if len(row) < 2:
                raise ValueError(tr("The dataset must yield (image, label) columns."))
            yield row[0], row[1]
        return
    if isinstance(data, tuple) and len(data) == 2:
        images, labels = np.asarray(data[0]), np.asarray(data[1])
        if len(images) != len(labels):
            raise ValueError(tr("{n} images but {m} labels.", n=len(images), m=len(labels)))
    else:
        images, labels = np.asarray(data), None
    if images.ndim < 2:
        raise ValueError(tr("Expected a batch of images (N, ...), got shape {shape}.", shape=images.shape))
    for i in range(0, len(images), batch_size):
        yield images[i:i + batch_size], None if labels is None else labels[i:i + batch_size]


def predict_logits(network, data, batch_size: int = 1000) -> Tuple[np.ndarray, Optional[np.ndarray]]:
    """Run ``network`` in evaluation mode over ``data``: ``(logits (N, C), labels (N,) or None)``.

    ``data`` is a ``mindspore.dataset`` yielding (image, label), an ``(images, labels)`` pair of
    arrays, or an image array ``(N, 1, 28, 28)`` float32, already normalised like the training data.
    The network's training/evaluation mode is put back afterwards.
    """
    import mindspore as ms

    if batch_size < 1:
        raise ValueError(tr("batch_size must be >= 1, got {value}.", value=batch_size))
    was_training = bool(getattr(network, "training", False))
    network.set_train(False)
    logits, labels, has_labels = [], [], True
    try:
        for images, batch_labels in _batches(data, batch_size):
            out = network(ms.Tensor(np.ascontiguousarray(images, dtype=np.float32)))
            logits.append(out.asnumpy())
            if batch_labels is None:
                has_labels = False
            else:
                labels.append(np.asarray(batch_labels).reshape(-1))
    finally:
        network.set_train(was_training)
    if not logits:
        raise ValueError(tr("No data to evaluate: the dataset or array is empty."))
    return np.concatenate(logits), (np.concatenate(labels).astype(np.int64) if has_labels else None)


@dataclasses.dataclass
class EvalResult:
    """Predictions of one evaluation run, with the usual summaries."""

    logits: np.ndarray
    labels: np.ndarray

    @property
    def probabilities(self) -> np.ndarray:
        return softmax(self.logits)

    @property
    def predictions(self) -> np.ndarray:
        return self.logits.argmax(axis=1)

    @property
    def accuracy(self) -> float:
        return accuracy(self.logits, self.labels)

    @property
    def num_wrong(self) -> int:
        return int(np.sum(self.predictions != self.labels))

    def confusion_matrix(self) -> np.ndarray:
        return confusion_matrix(self.labels, self.logits, num_classes=self.logits.shape[1])

    def per_class_accuracy(self) -> np.ndarray:
        return per_class_accuracy(self.confusion_matrix())

    def most_confident_wrong(self, k: int = 12) -> np.ndarray:
        return most_confident_wrong(self.probabilities, self.labels, k)

    def __repr__(self) -> str:
        return tr("EvalResult({n} samples, accuracy {accuracy:.4f}, {wrong} wrong)", n=len(self.labels),
                  accuracy=self.accuracy, wrong=self.num_wrong)


def evaluate(network, data, batch_size: int = 1000) -> EvalResult:
    """Predictions of ``network`` on labelled ``data`` (see ``predict_logits``) as an ``EvalResult``."""
    logits, labels = predict_logits(network, data, batch_size)
    if labels is None:
        raise ValueError(tr("evaluate needs labels: pass a dataset with a label column or an "
                            "(images, labels) pair; use predict_logits for unlabelled images."))
    return EvalResult(logits=logits, labels=labels)


def mnist_test_accuracy(network, images=None, labels=None, batch_size: int = 1000, limit: int = 0) -> float:
    """Accuracy of ``network`` on the MNIST test split (or on the uint8 ``images``/``labels`` given; ``limit`` > 0:
    the first ``limit`` of them), in evaluation mode; the network is back in training mode afterwards."""
    from course_utils.data import load_mnist_arrays, normalize_images

    if images is None:
        images, labels = load_mnist_arrays("test")
    if limit:
        images, labels = images[:limit], labels[:limit]
    logits, _ = predict_logits(network, normalize_images(images), batch_size=batch_size)
    network.set_train(True)
    return accuracy(logits, labels)


__all__ = ["EvalResult", "accuracy", "confusion_matrix", "evaluate", "mnist_test_accuracy", "most_confident_wrong",
           "per_class_accuracy", "predict_logits", "softmax"]
