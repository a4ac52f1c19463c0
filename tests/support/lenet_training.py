"""A small LeNet-5 training step and random MNIST-shaped batches, shared by the checkpoint and fit tests."""

import numpy as np

import mindspore as ms
from mindspore import nn

from course_utils.models import LeNet5


def lenet_batches(n=6, batch=8, seed=0):
    rng = np.random.default_rng(seed)
    return [(ms.Tensor(rng.normal(size=(batch, 1, 28, 28)).astype(np.float32)),
             ms.Tensor(rng.integers(0, 10, size=batch).astype(np.int32))) for _ in range(n)]


def lenet_training(seed=0, lr=1e-3):
    ms.set_seed(seed)
    net = LeNet5()
    opt = nn.Adam(net.trainable_params(), learning_rate=lr)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.CrossEntropyLoss()), opt)
    step.set_train()
    return net, opt, step
