"""The MindSpore behaviour behind notebook 10's "Common mistakes" and its section 4. A training step called before
``set_train()`` trains BatchNorm in eval mode; in GRAPH_MODE its compiled graph keeps that mode whatever
``set_train`` says afterwards (as section 5's second ``ms.export`` of one Cell keeps the first's), in PyNative the
next call follows the flag. And from the first training step on, a SIGINT reaches Python as a SIGTERM, so the
capstone's script usually exits with 143. If MindSpore changes either, the lesson must change too."""

import os
import subprocess
import sys

import numpy as np
import pytest

import mindspore as ms
from mindspore import nn

from support import PROGRAMS


def _moving_mean_moves(set_train_first: bool, then: str) -> bool:
    """Two steps of a Dense + BatchNorm1d training step (after ``set_train()`` if ``set_train_first``), then
    ``then``: "set_train" (the step's set_train()), "toggle" (what the capstone's evaluate does to the network) or
    "nothing"; three more steps. Did BatchNorm's moving_mean leave its initial zeros?"""
    ms.set_seed(0)
    net = nn.SequentialCell(nn.Dense(4, 2), nn.BatchNorm1d(2))
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.01))
    if set_train_first:
        step.set_train()
    x = ms.Tensor(np.random.default_rng(0).normal(3, 1, size=(8, 4)).astype(np.float32))
    y = ms.Tensor(np.zeros((8, 2), np.float32))
    for _ in range(2):
        step(x, y)
    assert net[1].moving_mean.asnumpy().any() == set_train_first     # eval mode: the statistics stay untouched
    if then == "set_train":
        step.set_train()
    elif then == "toggle":
        net.set_train(False)
        net(x)
        net.set_train(True)
    for _ in range(3):
        step(x, y)
    return bool(net[1].moving_mean.asnumpy().any())


@pytest.mark.parametrize("ms_mode", ["graph", "pynative"], indirect=True)
def test_set_train_before_the_first_step_trains_batchnorm(ms_mode):
    assert _moving_mean_moves(set_train_first=True, then="nothing")


@pytest.mark.parametrize("ms_mode", ["graph", "pynative"], indirect=True)
@pytest.mark.parametrize("then", ["set_train", "toggle"])
def test_a_set_train_after_the_first_step_reaches_it_only_in_pynative(ms_mode, then):
    assert _moving_mean_moves(set_train_first=False, then=then) == (ms_mode == ms.PYNATIVE_MODE)


@pytest.mark.slow
def test_a_sigint_arrives_as_a_sigterm_from_the_first_training_step_on():
    child = subprocess.run([sys.executable, str(PROGRAMS / "signal_after_first_step.py")], capture_output=True,
                           text=True, env=dict(os.environ, GLOG_v="3"), timeout=120)
    assert child.returncode == 0, child.stderr[-2000:]
    seen = dict(line.split() for line in child.stdout.splitlines())
    assert seen == {"before_the_first_step": "SIGINT", "between_steps": "SIGTERM", "one_second_later": "SIGTERM",
                    "after_a_data_pipeline": "SIGTERM"}, seen
