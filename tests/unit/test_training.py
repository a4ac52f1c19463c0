"""course_utils.training: the functional step builder (test_functional_*) and the Cell-based steps."""

import numpy as np
import pytest

import mindspore as ms
from mindspore import nn, ops

from course_utils.callbacks import restore_weights, snapshot_weights
from course_utils.data import synthetic_regression
from course_utils.losses import HuberLoss
from course_utils.models import SimpleNet
from course_utils.training import ACCUM_PREFIX, global_norm, make_train_step, tensor_norms

# ---------------------------------------------------------------------------------------------
# The functional step (notebook 02)
# ---------------------------------------------------------------------------------------------

X_NP, Y_NP = synthetic_regression(n_samples=64, outlier_fraction=0.1, seed=1)
X, Y = ms.Tensor(X_NP), ms.Tensor(Y_NP)


def _start_weights(seed=0):
    """Fixed starting weights, uniform in +-1/sqrt(fan_in) like MindSpore's default, from NumPy: this runs at
    collection, before conftest's session setup seeds MindSpore."""
    rng = np.random.default_rng(seed)
    shapes = {name: p.shape for name, p in SimpleNet().parameters_and_names()}
    bound = {name: 1 / np.sqrt(shapes[name.split(".")[0] + ".weight"][1]) for name in shapes}
    return {name: rng.uniform(-bound[name], bound[name], shape).astype(np.float32) for name, shape in shapes.items()}


START = _start_weights()


def twin(optimizer=nn.SGD, lr=0.1):
    net = SimpleNet()
    restore_weights(net, START)
    return net, optimizer(net.trainable_params(), learning_rate=lr)


def weights(net):
    return list(snapshot_weights(net).values())


def max_gap(a, b):
    return max(float(np.abs(u - v).max()) for u, v in zip(a, b))


def numpy_grads(net, x, y):
    def forward_fn(data, label):
        return HuberLoss()(net(data), label)

    _, grads = ms.value_and_grad(forward_fn, None, net.trainable_params())(x, y)
    return [g.asnumpy() for g in grads]


@pytest.mark.parametrize("jit", [True, False], ids=["jit", "eager"])
def test_functional_loss_decreases(jit):
    net, opt = twin(nn.Adam, lr=0.01)
    step = make_train_step(net, HuberLoss(), opt, jit=jit)
    losses = [float(step(X, Y)) for _ in range(40)]
    assert losses[-1] < 0.7 * losses[0], losses
    assert step.calls == step.updates == 40 and step.pending == 0


def test_functional_matches_hand_written_step():
    net_a, opt_a = twin(nn.Adam, lr=0.01)
    net_b, opt_b = twin(nn.Adam, lr=0.01)

    def forward_fn(data, label):
        logits = net_a(data)
        return HuberLoss()(logits, label), logits

    grad_fn = ms.value_and_grad(forward_fn, None, opt_a.parameters, has_aux=True)

    @ms.jit
    def train_step(data, label):
        (loss, _), grads = grad_fn(data, label)
        return ops.depend(loss, opt_a(grads))

    reference = make_train_step(net_b, HuberLoss(), opt_b)
    for i in range(5):
        batch = slice(16 * (i % 4), 16 * (i % 4 + 1))
        assert float(train_step(X[batch], Y[batch])) == pytest.approx(float(reference(X[batch], Y[batch])), abs=1e-6)
    assert max_gap(weights(net_a), weights(net_b)) < 1e-6


def test_functional_sgd_update_is_minus_lr_times_gradient():
    net, opt = twin()
    expected = [w - 0.1 * g for w, g in zip(weights(net), numpy_grads(net, X, Y))]
    make_train_step(net, HuberLoss(), opt)(X, Y)
    assert max_gap(weights(net), expected) < 1e-6


@pytest.mark.parametrize("clip_norm", [0.05, 1e3], ids=["clipped", "below-bound"])
def test_functional_clipping_bounds_the_global_norm(clip_norm):
    net, opt = twin()
    raw = numpy_grads(net, X, Y)
    raw_norm = float(np.sqrt(sum((g.astype(np.float64) ** 2).sum() for g in raw)))
    start = weights(net)
    make_train_step(net, HuberLoss(), opt, clip_norm=clip_norm)(X, Y)
    applied = [(a - b) / 0.1 for a, b in zip(start, weights(net))]
    applied_norm = float(np.sqrt(sum((g.astype(np.float64) ** 2).sum() for g in applied)))
    assert applied_norm == pytest.approx(min(raw_norm, clip_norm), rel=1e-4)
    # one factor for all tensors: the direction is the raw gradient's
    factor = min(1.0, clip_norm / raw_norm)
    assert max_gap(applied, [g * factor for g in raw]) < 1e-5


@pytest.mark.parametrize("k, jit", [(2, True), (4, True), (4, False)], ids=["k2", "k4", "k4-eager"])
def test_functional_accumulation_equals_one_big_batch(k, jit):
    net_acc, opt_acc = twin()
    net_big, opt_big = twin()
    acc = make_train_step(net_acc, HuberLoss(), opt_acc, accumulate=k, jit=jit)
    big = make_train_step(net_big, HuberLoss(), opt_big, jit=jit)
    size = 32 // k
    for cycle in range(2):  # the second cycle shows the buffers were reset
        start = weights(net_acc)
        for i in range(k):
            acc(X[i * size:(i + 1) * size], Y[i * size:(i + 1) * size])
            if i < k - 1:
                assert max_gap(weights(net_acc), start) == 0.0, "updated before k micro-batches"
        big(X[:32], Y[:32])
        assert max_gap(weights(net_acc), weights(net_big)) < 1e-6, f"cycle {cycle}"
    assert acc.updates == 2 and acc.calls == 2 * k and acc.pending == 0


def test_functional_accumulation_clips_the_big_batch_gradient():
    net_acc, opt_acc = twin()
    net_big, opt_big = twin()
    acc = make_train_step(net_acc, HuberLoss(), opt_acc, accumulate=4, clip_norm=0.05)
    big = make_train_step(net_big, HuberLoss(), opt_big, clip_norm=0.05)
    for i in range(4):
        acc(X[8 * i:8 * (i + 1)], Y[8 * i:8 * (i + 1)])
    big(X[:32], Y[:32])
    assert max_gap(weights(net_acc), weights(net_big)) < 1e-6


def test_functional_accumulation_buffers_and_reset():
    net, opt = twin(nn.SGD)  # SGD names its own buffers "accum.*": ours must not clash
    step = make_train_step(net, HuberLoss(), opt, accumulate=3)
    assert [p.name for p in step.buffers] == [f"{ACCUM_PREFIX}.{p.name}" for p in opt.parameters]
    assert not {p.name for p in step.buffers} & {p.name for p in net.get_parameters()}
    step(X[:8], Y[:8])
    assert step.pending == 1 and float(global_norm(tuple(step.buffers))) > 0
    step.reset()
    assert step.pending == 0 and float(global_norm(tuple(step.buffers))) == 0.0


def test_functional_return_logits_and_repr():
    net, opt = twin()
    step = make_train_step(net, HuberLoss(), opt, return_logits=True)
    loss, logits = step(X[:8], Y[:8])
    assert loss.shape == () and logits.shape == (8, 1)
    assert "accumulate=1" in repr(step) and "updates=1" in repr(step)


def _graphs_compiled():
    """How many graphs MindSpore's jit has compiled in this process: the size of its own compile cache (a private
    name of 2.10 and 2.7.1, used here only to check ``TrainStep.compiles`` against the truth)."""
    try:
        from mindspore.graph import api
    except ImportError:   # MindSpore 2.7.1 (make test-compat) keeps it in mindspore.common.api
        from mindspore.common import api
    return len(api.ms_compile_cache)


def test_functional_counts_one_compile_per_shape():
    net, opt = twin()
    step = make_train_step(net, HuberLoss(), opt)
    for _ in range(2):
        for size in (16, 16, 16, 8):  # a short last batch
            step(X[:size], Y[:size])
    assert step.compiles == 2
    eager_net, eager_opt = twin()
    assert make_train_step(eager_net, HuberLoss(), eager_opt, jit=False).compiles is None


def test_functional_compiles_counts_graphs_not_a_stale_counter():
    """Shapes 16, 8, 4, 2, then 16 again: four graphs, whatever order the shapes come in. (A dict counter inside
    the jitted function read 1 at the end: each graph writes back the value it computed when it compiled.)"""
    net, opt = twin()
    step = make_train_step(net, HuberLoss(), opt)
    before = _graphs_compiled()
    for size in (16, 8, 4, 2, 16):
        step(X[:size], Y[:size])
    assert step.compiles == 4 == _graphs_compiled() - before
    # accumulation: two graphs (micro, last) per shape
    net, opt = twin()
    step = make_train_step(net, HuberLoss(), opt, accumulate=2)
    before = _graphs_compiled()
    for size in (8, 8, 8, 8, 4, 4):
        step(X[:size], Y[:size])
    assert step.compiles == 4 == _graphs_compiled() - before
    # a rebuild (the reload trap) compiles the step again
    ms.load_param_into_net(net, {name: ms.Parameter(ms.Tensor(value), name=name) for name, value in START.items()})
    before = _graphs_compiled()
    step(X[:8], Y[:8])
    assert step.rebuilds == 1 and step.compiles == 5 == 4 + _graphs_compiled() - before


def test_functional_compiles_is_none_with_dynamic_shapes():
    net, opt = twin()
    step = make_train_step(net, HuberLoss(), opt, jit_options={"dynamic": 1})
    step(X[:8], Y[:8])
    assert step.compiles is None


def test_functional_reload_trap_is_handled():
    net, opt = twin()
    step = make_train_step(net, HuberLoss(), opt)
    for _ in range(3):
        step(X, Y)
    # load_param_into_net swaps the storage: the step notices, recompiles and trains the loaded values
    ms.load_param_into_net(net, {name: ms.Parameter(ms.Tensor(value), name=name) for name, value in START.items()})
    expected = [w - 0.1 * g for w, g in zip(weights(net), numpy_grads(net, X, Y))]
    step(X, Y)
    assert step.rebuilds == 1
    assert max_gap(weights(net), expected) < 1e-6
    # copying in place keeps the storage: no rebuild needed, and training goes on
    restore_weights(net, START)
    expected = [w - 0.1 * g for w, g in zip(weights(net), numpy_grads(net, X, Y))]
    step(X, Y)
    assert step.rebuilds == 1
    assert max_gap(weights(net), expected) < 1e-6


@pytest.mark.parametrize("ms_mode", ["pynative"], indirect=True)
def test_functional_reload_without_jit_in_pynative_raises(ms_mode):
    net, opt = twin()
    step = make_train_step(net, HuberLoss(), opt, jit=False)
    step(X, Y)
    ms.load_param_into_net(net, {name: ms.Parameter(ms.Tensor(v), name=name) for name, v in START.items()})
    with pytest.raises(RuntimeError, match="restore_weights"):
        step(X, Y)


def test_functional_global_norm():
    grads = (ms.Tensor(np.array([3.0, 0.0], np.float32)), ms.Tensor(np.array([[4.0]], np.float32)))
    assert float(global_norm(grads)) == pytest.approx(5.0)
    assert float(global_norm(grads[0])) == pytest.approx(3.0)
    assert tensor_norms(grads) == pytest.approx([3.0, 4.0])
    assert float(ms.jit(global_norm)(grads)) == pytest.approx(5.0)
    clipped = ops.clip_by_global_norm(grads, 1.0)
    assert float(global_norm(clipped)) == pytest.approx(1.0, rel=1e-5)
    with pytest.raises(ValueError, match="at least one"):
        global_norm(())


def test_functional_rejects_bad_arguments():
    net, opt = twin()
    with pytest.raises(ValueError, match="not in this network"):
        make_train_step(SimpleNet(), HuberLoss(), opt)
    with pytest.raises(TypeError, match="nn.Optimizer"):
        make_train_step(net, HuberLoss(), "sgd")
    with pytest.raises(TypeError, match="nn.Cell"):
        make_train_step(lambda x: x, HuberLoss(), opt)
    for bad in (0, 1.5, True):
        with pytest.raises(ValueError, match="accumulate"):
            make_train_step(net, HuberLoss(), opt, accumulate=bad)
    for bad in (0, -1.0, float("nan")):
        with pytest.raises(ValueError, match="clip_norm"):
            make_train_step(net, HuberLoss(), opt, clip_norm=bad)
    with pytest.raises(ValueError, match="jit_options"):
        make_train_step(net, HuberLoss(), opt, jit=False, jit_options={"jit_level": "O1"})
