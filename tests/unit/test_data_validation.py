"""The validation split of ``course_utils.data``: a fixed held-out part of MNIST's training images (notebook 05)."""

import numpy as np
import pytest

from course_utils import data


def test_holdout_indices_are_a_fixed_disjoint_cover():
    train, val = data.holdout_indices(5000)
    assert len(train) == 55_000 and len(val) == 5000
    assert len(np.intersect1d(train, val)) == 0
    assert np.array_equal(np.sort(np.concatenate([train, val])), np.arange(60_000))
    again_train, again_val = data.holdout_indices(5000)
    assert np.array_equal(again_val, val) and np.array_equal(again_train, train)   # the same cut every time
    assert np.all(np.diff(val) > 0) and np.all(np.diff(train) > 0)                  # sorted


@pytest.mark.parametrize("bad", [0, -1, 60_000, 1.5])
def test_holdout_indices_refuse_impossible_sizes(bad):
    with pytest.raises((ValueError, TypeError), match="validation"):
        data.holdout_indices(bad)


def test_validation_split_reads_the_held_out_images():
    _, val = data.holdout_indices(5000)
    images, labels = data.load_mnist_arrays("train")
    held_out = data.mnist_dataset("validation", batch_size=1000, validation=5000)
    assert held_out.get_dataset_size() == 5
    x, y = next(held_out.create_tuple_iterator(num_epochs=1, output_numpy=True))
    assert np.array_equal(y, labels[val[:1000]])
    assert np.allclose(x, data.normalize_images(images[val[:1000]]))
    assert data.mnist_dataset("train", batch_size=1000, validation=5000).get_dataset_size() == 55


def test_training_split_with_a_subset_stays_outside_the_validation_set():
    _, val = data.holdout_indices(5000)
    labels_of = dict(enumerate(data.load_mnist_arrays("train")[1]))
    part = data.mnist_dataset("train", batch_size=100, validation=5000, subset=300, shuffle=False)
    seen = np.concatenate([y for _, y in part.create_tuple_iterator(num_epochs=1, output_numpy=True)])
    train, _ = data.holdout_indices(5000)
    assert np.array_equal(seen, [labels_of[i] for i in train[:300]])
    assert not set(train[:300]) & set(val)


@pytest.mark.parametrize("kwargs, match", [
    ({"split": "validation"}, "needs validation=N"),
    ({"split": "test", "validation": 10}, "test split has none"),
    ({"split": "val", "validation": 10}, "'train', 'validation' or 'test'"),
    ({"split": "train", "validation": 10, "num_shards": 2, "shard_id": 0}, "not supported"),
])
def test_mnist_dataset_names_the_parameter_it_refuses(kwargs, match):
    with pytest.raises(ValueError, match=match):
        data.mnist_dataset(**kwargs)
