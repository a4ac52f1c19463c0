"""The MindSpore behaviour behind notebook 06: which storage a call uses after a parameter got new storage
(``set_data``, what ``load_param_into_net`` calls) and section 4's verdicts with LeNet-5 and Adam, how
``Dataset.skip`` continues a seeded shuffle, and what a SIGINT during a step does. Section 4's table of mechanisms
and section 3's advice rest on these; if MindSpore changes them, the lesson must change too."""

import os
import signal
import subprocess
import sys
import tempfile
import time

import numpy as np
import pytest

import mindspore as ms
import mindspore.dataset as ds
from mindspore import nn

from course_utils.exercises.nb06 import _step_of
from course_utils.storage_probes import Scale, reads_new_storage, sgd_updates_new_storage
from support import PROGRAMS, PYNATIVE_FAST_GRAPH_SLOW, set_ms_mode
from support.lenet_training import lenet_batches, lenet_training


@PYNATIVE_FAST_GRAPH_SLOW
def test_a_cell_call_reads_the_new_storage_and_an_ms_jit_graph_keeps_the_old(ms_mode):
    cell = Scale()
    assert reads_new_storage(cell, cell)
    cell = Scale()

    def forward(x):
        return cell(x)

    assert not reads_new_storage(ms.jit(forward), cell)


@PYNATIVE_FAST_GRAPH_SLOW
def test_value_and_grad_without_jit_keeps_the_old_storage_only_in_graph_mode(ms_mode):
    cell = Scale()

    def total(x):
        return cell(x).sum()

    value_and_grad = ms.value_and_grad(total, None, cell.trainable_params())
    reads_new = reads_new_storage(lambda x: value_and_grad(x)[0] / 3, cell)
    assert reads_new == (ms_mode == ms.PYNATIVE_MODE)


@PYNATIVE_FAST_GRAPH_SLOW
def test_an_optimizer_updates_the_new_storage_only_in_graph_mode(ms_mode):
    assert sgd_updates_new_storage() == (ms_mode == ms.GRAPH_MODE)


# Section 4's table with LeNet-5 and Adam instead of SimpleNet and SGD. For each step and mode, and each reload:
# did the step after the reload compute the reloaded weights' loss, and did it leave the weights unchanged (frozen)?
# Only these two parts of a verdict are compared: Adam's moments survive a reload of the weights, so no step after
# one can leave the weights a fresh network's first step leaves.
_LENET_ADAM = {("functional, @jit", "pynative"): (False, True), ("functional, @jit", "graph"): (False, True),
               ("functional, no jit", "pynative"): (True, True), ("functional, no jit", "graph"): (False, False),
               ("TrainOneStepCell", "pynative"): (True, True), ("TrainOneStepCell", "graph"): (True, False)}


def _reload_trial(style, reload, batches, initial, expected_loss):
    net, adam, _ = lenet_training(seed=1)
    step = _step_of(style, net, nn.CrossEntropyLoss(), adam)
    for data, label in batches[:-1]:
        step(data, label)
    reload(net, initial)
    loss = float(step(*batches[-1]).asnumpy())
    frozen = all(np.array_equal(p.asnumpy(), initial[name]) for name, p in net.parameters_and_names())
    return bool(np.isclose(loss, expected_loss, rtol=1e-5)), frozen


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_section_4s_verdicts_hold_for_lenet5_with_adam():
    batches = lenet_batches(n=4, batch=16, seed=0)
    net, _, fresh_step = lenet_training(seed=1)
    initial = {name: p.asnumpy().copy() for name, p in net.parameters_and_names()}
    expected_loss = float(fresh_step(*batches[-1]).asnumpy())

    def with_load_param_into_net(model, weights):
        ms.load_param_into_net(model, {name: ms.Parameter(ms.Tensor(v), name=name) for name, v in weights.items()})

    def with_copy_(model, weights):
        for name, param in model.parameters_and_names():
            param.copy_(ms.Tensor(weights[name]))

    for (style, mode), verdict in _LENET_ADAM.items():
        set_ms_mode(mode)
        assert _reload_trial(style, with_load_param_into_net, batches, initial, expected_loss) == verdict, (style, mode)
        assert _reload_trial(style, with_copy_, batches, initial, expected_loss) == (True, False), (style, mode)


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
    with tempfile.TemporaryFile("w+") as err:   # a file, not a pipe: kept for the message, never blocks the child
        child = subprocess.Popen([sys.executable, str(PROGRAMS / "signal_during_step.py"), *handled],
                                 stdout=subprocess.PIPE, stderr=err, text=True, env=dict(os.environ, GLOG_v="3"))
        try:
            assert child.stdout.readline().strip() == "READY"
            time.sleep(2)                        # steps run back to back: the signal arrives during one
            child.send_signal(signal.SIGINT)
            out, _ = child.communicate(timeout=60)
        finally:
            child.kill()
        err.seek(0)
        said = f"exit {child.returncode}, stdout {out!r}, stderr ends: {err.read()[-2000:]!r}"
    if survives:   # MindSpore's handler turned the SIGINT into the SIGTERM the loop's handler recorded
        assert out.split() == ["STOPPED", "SIGTERM"] and child.returncode == 0, said
    else:
        assert child.returncode == -signal.SIGTERM, said
