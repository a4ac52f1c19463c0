"""The MindSpore behaviour behind notebook 02's section 5: with a shuffle seeded by ds.config.set_seed,
each new iterator replays the same order, and one iterator over several epochs gives each epoch a new one.
If MindSpore changes this, the lesson (and the hygiene check for per-epoch iterators) must change too."""

import numpy as np
import pytest

ds = pytest.importorskip("mindspore.dataset")


def _orders(iterator_per_epoch: bool, epochs: int = 3):
    ds.config.set_seed(42)
    dataset = ds.NumpySlicesDataset({"x": np.arange(40, dtype=np.float32)}, shuffle=True).batch(8)
    first = lambda it: tuple(float(batch[0].asnumpy()[0]) for batch in it)
    if iterator_per_epoch:
        return [first(dataset.create_tuple_iterator(num_epochs=1)) for _ in range(epochs)]
    iterator = dataset.create_tuple_iterator(num_epochs=epochs)
    return [first(iterator) for _ in range(epochs)]


def test_a_new_iterator_per_epoch_replays_the_seeded_order():
    orders = _orders(iterator_per_epoch=True)
    assert orders[0] == orders[1] == orders[2]


def test_one_iterator_gives_consecutive_epochs_different_orders():
    orders = _orders(iterator_per_epoch=False)
    assert all(a != b for a, b in zip(orders, orders[1:])), orders
    assert sorted(orders[0]) != list(orders[0]) or orders[0] != orders[1]  # shuffled, not merely different
