"""The MindSpore behaviour behind notebook 06: which storage a call uses after a parameter got new storage
(``set_data``, what ``load_param_into_net`` calls), how ``Dataset.skip`` continues a seeded shuffle, and what a
SIGINT during a step does. Section 4's table of mechanisms and section 3's advice rest on these; if MindSpore
changes them, the lesson must change too."""

import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

import mindspore as ms
import mindspore.dataset as ds
from mindspore import nn

from support import PROGRAMS, PYNATIVE_FAST_GRAPH_SLOW


class _Scale(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor(np.ones(3, np.float32)), name="w")

    def construct(self, x):
        return self.w * x


def _reads_new_storage(call, cell) -> bool:
    """Call once, give ``cell.w`` new storage holding 2s, call again: did the second call read the 2s?"""
    x = ms.Tensor(np.ones(3, np.float32))
    call(x)
    cell.w.set_data(ms.Tensor(np.full(3, 2, np.float32)))
    return float(call(x).asnumpy().ravel()[0]) == 2.0


@PYNATIVE_FAST_GRAPH_SLOW
def test_a_cell_call_reads_the_new_storage_and_an_ms_jit_graph_keeps_the_old(ms_mode):
    cell = _Scale()
    assert _reads_new_storage(cell, cell)
    cell = _Scale()

    def forward(x):
        return cell(x)

    assert not _reads_new_storage(ms.jit(forward), cell)


@PYNATIVE_FAST_GRAPH_SLOW
def test_value_and_grad_without_jit_keeps_the_old_storage_only_in_graph_mode(ms_mode):
    cell = _Scale()

    def total(x):
        return cell(x).sum()

    value_and_grad = ms.value_and_grad(total, None, cell.trainable_params())
    reads_new = _reads_new_storage(lambda x: value_and_grad(x)[0] / 3, cell)
    assert reads_new == (ms_mode == ms.PYNATIVE_MODE)


@PYNATIVE_FAST_GRAPH_SLOW
def test_an_optimizer_updates_the_new_storage_only_in_graph_mode(ms_mode):
    cell = _Scale()
    sgd = nn.SGD(cell.trainable_params(), learning_rate=1.0)    # construct carries @jit
    grads = (ms.Tensor(np.ones(3, np.float32)),)
    sgd(grads)
    cell.w.set_data(ms.Tensor(np.full(3, 5, np.float32)))
    sgd(grads)
    updated_new_storage = float(cell.w.asnumpy()[0]) == 4.0
    assert updated_new_storage == (ms_mode == ms.GRAPH_MODE)


def _labels(dataset):
    return [batch[0].asnumpy().tolist() for batch in dataset.create_tuple_iterator(num_epochs=1)]


def _shuffled(seed):
    ds.config.set_seed(seed)
    return ds.NumpySlicesDataset({"x": np.arange(64, dtype=np.int32)}, shuffle=True).batch(8)


def test_skip_continues_a_seeded_shuffle_while_the_seed_stays_the_same():
    full = _labels(_shuffled(7))
    assert _labels(_shuffled(7).skip(3)) == full[3:]
    dataset = _shuffled(7)
    ds.config.set_seed(8)                    # read when the iterator is created, not when the dataset is built
    assert _labels(dataset.skip(3)) != full[3:]


@pytest.mark.slow
@pytest.mark.parametrize("handled, survives", [(("SIGINT",), False), (("SIGINT", "SIGTERM"), True)])
def test_a_sigint_during_a_step_becomes_a_sigterm(handled, survives):
    child = subprocess.Popen([sys.executable, str(PROGRAMS / "signal_during_step.py"), *handled],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                             env=dict(os.environ, GLOG_v="3"))
    try:
        assert child.stdout.readline().strip() == "READY"
        time.sleep(2)                        # steps run back to back: the signal arrives during one
        child.send_signal(signal.SIGINT)
        out, _ = child.communicate(timeout=60)
    finally:
        child.kill()
    if survives:
        assert child.returncode == 0 and "STOPPED" in out
    else:
        assert child.returncode == -signal.SIGTERM
