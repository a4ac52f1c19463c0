"""course_utils.training.loop: what fit's stop condition does at the final evaluation (fit's other tests: see
test_checkpoint.py)."""

import numpy as np

import mindspore as ms
from mindspore import nn

from course_utils.training import fit, make_train_step


def test_stop_when_is_not_asked_at_the_final_evaluation():
    # The evaluation after the last step is the end anyway: a stop condition that holds there must not escape
    # fit as a KeyboardInterrupt (it did: the final evaluation asked stop_when outside the loop's handler).
    rng = np.random.default_rng(0)
    batches = [(ms.Tensor(rng.normal(size=(4, 6)).astype(np.float32)),
                ms.Tensor(rng.integers(0, 3, size=4).astype(np.int32))) for _ in range(3)]
    net = nn.Dense(6, 3)
    step = make_train_step(net, nn.CrossEntropyLoss(), nn.SGD(net.trainable_params(), 0.01), jit=False)
    asked, updates = [], []
    x, y = batches[0]
    result = fit(step, batches, 1, network=net, eval_data=(x.asnumpy(), y.asnumpy()), progress=False,
                 on_update=lambda r: updates.append(r.global_step),
                 stop_when=lambda r: asked.append(r.global_step) or True)
    assert result.steps == 3 and not result.interrupted and len(result.evals) == 1
    assert updates == [3] and asked == []
