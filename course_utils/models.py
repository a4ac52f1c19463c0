"""Reference models. Notebook 02 teaches ``SimpleNet``, notebook 05 teaches ``LeNet5``; later
notebooks import these versions. ``twin`` gives lessons 02 and 03 a ``SimpleNet`` that starts from given weights
with an optimizer of its own, so that two ways of training can be compared from the same point."""

from __future__ import annotations

from mindspore import nn

from course_utils.callbacks import restore_weights


class SimpleNet(nn.Cell):
    """The small regression network of the functional-training lesson: 10 -> 32 -> 1."""

    def __init__(self, in_features: int = 10, hidden: int = 32, out_features: int = 1):
        super().__init__()
        self.fc1 = nn.Dense(in_features, hidden)
        self.relu = nn.ReLU()
        self.fc2 = nn.Dense(hidden, out_features)

    def construct(self, x):
        return self.fc2(self.relu(self.fc1(x)))


def twin(weights, optimizer_class=nn.Adam, lr: float = 0.01):
    """(a ``SimpleNet`` holding ``weights``, a fresh ``optimizer_class`` over its parameters with learning rate ``lr``).

    ``weights`` is a snapshot (``course_utils.callbacks.snapshot_weights``); it is copied in place, so a step
    compiled for the twin later sees every restore (the weight-reload trap, lesson 06)."""
    model = SimpleNet()
    restore_weights(model, weights)
    return model, optimizer_class(model.trainable_params(), learning_rate=lr)


def lenet_flatten_size(image_size: int = 28, kernel: int = 5, channels: int = 16) -> int:
    """Features entering ``fc1``: two (valid 5x5 conv -> 2x2 max-pool) stages shrink the side
    from ``s`` to ``((s - 4) // 2 - 4) // 2``: 28 -> 24 -> 12 -> 8 -> 4, so 16 * 4 * 4 = 256.
    (The classic 32x32 input gives 16 * 5 * 5 = 400.)"""
    side = image_size
    for _ in range(2):
        side = (side - kernel + 1) // 2
    if side < 1:
        raise ValueError(f"image_size={image_size} is too small for LeNet-5 (needs at least 16).")
    return channels * side * side


class LeNet5(nn.Cell):
    """LeNet-5 for 28x28 single-channel images (MNIST), returning logits.

    conv(1->6, 5x5, valid) - ReLU - maxpool 2 - conv(6->16, 5x5, valid) - ReLU - maxpool 2 -
    flatten (256) - dense 120 - ReLU - dense 84 - ReLU - dense ``num_classes``.
    """

    def __init__(self, num_classes: int = 10, in_channels: int = 1, image_size: int = 28):
        super().__init__()
        self.conv1 = nn.Conv2d(in_channels, 6, 5, pad_mode="valid")
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
        self.relu = nn.ReLU()
        self.pool = nn.MaxPool2d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()
        self.fc1 = nn.Dense(lenet_flatten_size(image_size), 120)
        self.fc2 = nn.Dense(120, 84)
        self.fc3 = nn.Dense(84, num_classes)

    def construct(self, x):
        x = self.pool(self.relu(self.conv1(x)))
        x = self.pool(self.relu(self.conv2(x)))
        x = self.flatten(x)
        x = self.relu(self.fc1(x))
        x = self.relu(self.fc2(x))
        return self.fc3(x)
