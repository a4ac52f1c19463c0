"""course_utils.evaluate: the NumPy metrics on hand-checked cases, and running a network over arrays and datasets."""

import numpy as np
import pytest

import mindspore as ms
import mindspore.dataset as ds

from course_utils import evaluate
from course_utils.models import LeNet5


def test_softmax_is_stable_and_normalised():
    p = evaluate.softmax(np.array([[1000.0, 1000.0, -1000.0], [0.0, np.log(3.0), 0.0]]))
    np.testing.assert_allclose(p, [[0.5, 0.5, 0.0], [0.2, 0.6, 0.2]], atol=1e-12)


def test_accuracy_takes_indices_or_scores():
    labels = np.array([0, 1, 2, 2])
    assert evaluate.accuracy(np.array([0, 1, 1, 2]), labels) == 0.75
    scores = np.array([[0.9, 0.1, 0], [0, 1, 0], [0, 0.6, 0.4], [0, 0, 1]])
    assert evaluate.accuracy(scores, labels) == 0.75
    assert evaluate.accuracy(np.array([0.0, 1.0, 2.0, 2.0]), labels) == 1.0


def test_accuracy_errors():
    with pytest.raises(ValueError, match="must match one to one"):
        evaluate.accuracy(np.array([0, 1]), np.array([0, 1, 2]))
    with pytest.raises(ValueError, match="whole numbers"):
        evaluate.accuracy(np.array([0.2, 0.9]), np.array([0, 1]))
    with pytest.raises(ValueError, match="empty"):
        evaluate.accuracy(np.zeros(0, int), np.zeros(0, int))


def test_confusion_matrix_rows_are_true_classes():
    labels = np.array([0, 0, 1, 2, 2, 2])
    preds = np.array([0, 1, 1, 2, 0, 2])
    cm = evaluate.confusion_matrix(labels, preds, num_classes=4)
    expected = np.zeros((4, 4), int)
    expected[0, 0], expected[0, 1], expected[1, 1], expected[2, 2], expected[2, 0] = 1, 1, 1, 2, 1
    np.testing.assert_array_equal(cm, expected)
    assert cm.sum() == len(labels)
    np.testing.assert_array_equal(evaluate.confusion_matrix(labels, preds), expected[:3, :3])
    with pytest.raises(ValueError, match=r"predictions must lie in 0..1"):
        evaluate.confusion_matrix(np.array([0, 1]), np.array([0, 2]), num_classes=2)


def test_per_class_accuracy_with_an_absent_class():
    cm = np.array([[3, 1, 0], [0, 0, 0], [1, 1, 2]])
    acc = evaluate.per_class_accuracy(cm)
    assert acc[0] == 0.75 and np.isnan(acc[1]) and acc[2] == 0.5
    with pytest.raises(ValueError, match="square"):
        evaluate.per_class_accuracy(np.zeros((2, 3)))


def test_most_confident_wrong_orders_by_confidence():
    probs = np.array([[0.9, 0.1], [0.2, 0.8], [0.6, 0.4], [0.05, 0.95], [0.7, 0.3]])
    labels = np.array([0, 0, 1, 0, 1])        # wrong: 1 (0.8), 2 (0.6), 3 (0.95), 4 (0.7)
    np.testing.assert_array_equal(evaluate.most_confident_wrong(probs, labels, k=3), [3, 1, 4])
    np.testing.assert_array_equal(evaluate.most_confident_wrong(probs, labels, k=10), [3, 1, 4, 2])
    assert evaluate.most_confident_wrong(probs, probs.argmax(1)).size == 0


@pytest.fixture(scope="module")
def net_and_data():
    rng = np.random.default_rng(0)
    net = LeNet5()
    images = rng.normal(size=(10, 1, 28, 28)).astype(np.float32)
    labels = rng.integers(0, 10, size=10).astype(np.int32)
    return net, images, labels


def test_predict_logits_on_arrays_pairs_and_datasets_agree(net_and_data):
    net, images, labels = net_and_data
    net.set_train(True)
    direct = net(ms.Tensor(images)).asnumpy()
    logits, none = evaluate.predict_logits(net, images, batch_size=4)     # batches of 4, 4, 2
    assert none is None and logits.shape == (10, 10)
    np.testing.assert_allclose(logits, direct, rtol=1e-5, atol=1e-6)
    assert net.training, "the network's mode must be put back"
    _, got_labels = evaluate.predict_logits(net, (images, labels), batch_size=3)
    np.testing.assert_array_equal(got_labels, labels)
    dataset = ds.NumpySlicesDataset({"image": images, "label": labels}, shuffle=False).batch(5)
    result = evaluate.evaluate(net, dataset)
    np.testing.assert_allclose(result.logits, direct, rtol=1e-5, atol=1e-6)
    assert result.accuracy == evaluate.accuracy(direct, labels)
    assert result.confusion_matrix().shape == (10, 10) and result.confusion_matrix().sum() == 10
    assert result.num_wrong == int(np.sum(direct.argmax(1) != labels))
    assert "10 samples" in repr(result)


def test_evaluate_needs_labels(net_and_data):
    net, images, _ = net_and_data
    with pytest.raises(ValueError, match="evaluate needs labels"):
        evaluate.evaluate(net, images)
    with pytest.raises(ValueError, match="empty"):
        evaluate.predict_logits(net, images[:0])


# ---- the plots notebook 05 draws from these results (course_utils.plots) ---------------------------

def test_image_grid_and_confusion_matrix_plots():
    import matplotlib.pyplot as plt

    from course_utils import plots

    images = np.random.default_rng(0).integers(0, 255, size=(5, 1, 28, 28)).astype(np.uint8)
    fig = plots.plot_image_grid(images, titles=list("abcde"), ncols=4, title_colors=["red"] * 5, suptitle="s")
    shown = [ax for ax in fig.axes if ax.images]
    assert len(fig.axes) == 8 and len(shown) == 5 and shown[0].get_title() == "a"
    plt.close(fig)
    with pytest.raises(ValueError, match="5 images but 2 titles"):
        plots.plot_image_grid(images, titles=["a", "b"])
    with pytest.raises(ValueError, match="single-channel"):
        plots.plot_image_grid(np.zeros((2, 3, 28, 28)))
    cm = np.array([[50, 2, 0], [1, 40, 3], [0, 0, 60]])
    ax = plots.plot_confusion_matrix(cm, class_names=["x", "y", "z"], title="t")
    texts = sorted(t.get_text() for t in ax.texts)
    assert texts == sorted(["50", "2", "1", "40", "3", "60"]) and ax.get_title() == "t"
    plt.close(ax.figure)
    with pytest.raises(ValueError, match="square"):
        plots.plot_confusion_matrix(np.zeros((2, 3)))


def test_live_training_plot_follows_a_fit_result():
    import types

    import matplotlib.pyplot as plt

    from course_utils import plots

    live = plots.LiveTrainingPlot(total_steps=100, smooth=5, target=0.99)
    result = types.SimpleNamespace(step_loss=[(i + 1, 2.0 / (i + 1)) for i in range(20)], evals=[])
    live(result)
    assert live.figure is not None and len(live.raw.get_xdata()) == 20 and len(live.smoothed.get_xdata()) == 16
    result.evals = [{"step": 10, "accuracy": 0.95}, {"step": 20, "accuracy": 0.97}]
    live(result)
    assert list(live.acc.get_ydata()) == [0.95, 0.97] and "0.9700" in live.ax_acc.get_title()
    plt.close(live.figure)


def test_data_parallel_diagram_names_the_global_batch():
    import matplotlib.pyplot as plt

    from course_utils import plots

    ax = plots.plot_data_parallel(batch_size=32, workers=2)
    texts = [t.get_text() for t in ax.texts]
    assert any("(64 images)" in t for t in texts) and any("shard 1\n32 images" in t for t in texts)
    assert "drawn" not in ax.get_title()
    assert "(2 of 4 workers drawn)" in plots.plot_data_parallel(batch_size=8, workers=4).get_title()
    plt.close("all")
