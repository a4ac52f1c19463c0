"""fit(eval_name=...): the summary line names what eval_data is, so a run monitored on a validation split does
not call its accuracy "test accuracy" (notebook 05 monitors validation and touches the test set once)."""

import pytest

from course_utils.i18n import speaking
from course_utils.plots import LiveTrainingPlot
from course_utils.training import fit
from support.lenet_training import lenet_batches, lenet_training

pytestmark = pytest.mark.usefixtures("pynative")


def _run(**kwargs):
    net, _, step = lenet_training(seed=3)
    x, y = lenet_batches(n=1, batch=16, seed=7)[0]
    return fit(step, lambda epoch: lenet_batches(n=2, seed=100 + epoch), 1, network=net,
               eval_data=(x.asnumpy(), y.asnumpy()), progress=False, **kwargs)


def test_the_summary_names_the_evaluated_split():
    assert ", test accuracy " in _run().summary()                      # the default, as before
    validation = _run(eval_name="validation")
    assert ", validation accuracy " in validation.summary() and "test" not in validation.summary()
    with speaking("zh"):
        assert "，验证准确率 " in validation.summary()


def test_the_live_plot_labels_its_accuracy_axis():
    plot = LiveTrainingPlot(total_steps=2, accuracy_label="validation accuracy")
    plot(_run(eval_name="validation"))
    assert plot.ax_acc.get_title().startswith("validation accuracy: ")
    assert [t.get_text() for t in plot.ax_acc.get_legend().get_texts()] == ["validation accuracy"]
