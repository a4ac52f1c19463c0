"""course_utils.models: the twin of a SimpleNet starts from the given weights, with an optimizer of its own."""

import numpy as np
from mindspore import nn

from course_utils.callbacks import snapshot_weights
from course_utils.models import SimpleNet, twin


def test_twin_holds_the_weights_and_its_own_optimizer():
    weights = snapshot_weights(SimpleNet())
    model, optimizer = twin(weights, nn.SGD, lr=0.1)
    other, adam = twin(weights)
    assert isinstance(optimizer, nn.SGD) and isinstance(adam, nn.Adam)
    assert np.isclose(float(optimizer.get_lr()), 0.1) and np.isclose(float(adam.get_lr()), 0.01)
    for got in (snapshot_weights(model), snapshot_weights(other)):
        assert all(np.array_equal(got[name], weights[name]) for name in weights)
    assert [p.name for p in optimizer.parameters] == [p.name for p in model.trainable_params()]
    assert all(a is not b for a, b in zip(model.trainable_params(), other.trainable_params()))
