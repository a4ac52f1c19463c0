"""The Huber delta explorer: its logic (a plain function) and the thin ipywidgets front end."""

import matplotlib
import numpy as np
import pytest

from course_utils.widgets import (
    PROBE_ERRORS, draw_huber_explorer, format_huber_table, huber_explorer, huber_explorer_data)

matplotlib.use("Agg")   # (course_utils imports pyplot only when it draws)


@pytest.mark.parametrize("delta", [0.3, 1.0, 2.5])
def test_curves_follow_the_formulas(delta):
    data = huber_explorer_data(delta, max_error=4.0, num=81)
    e = data["error"].astype(np.float64)
    assert e.shape == (81,) and e[0] == -4.0 and e[-1] == 4.0
    expected = np.where(np.abs(e) <= delta, 0.5 * e**2, delta * (np.abs(e) - 0.5 * delta))
    np.testing.assert_allclose(data["loss"]["Huber"], expected, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(data["loss"]["MSE/2"], 0.5 * e**2, rtol=1e-6)
    np.testing.assert_allclose(data["loss"]["L1"], np.abs(e), rtol=1e-6)
    np.testing.assert_allclose(data["grad"]["Huber"], np.clip(e, -delta, delta), atol=1e-6)
    np.testing.assert_allclose(data["grad"]["MSE/2"], e, atol=1e-6)
    np.testing.assert_allclose(data["grad"]["L1"], np.sign(e), atol=1e-6)
    assert np.max(np.abs(data["grad"]["Huber"])) <= delta + 1e-6  # bounded by delta


def test_probes_and_table_change_with_delta():
    a, b = huber_explorer_data(0.5), huber_explorer_data(2.0)
    assert list(a["probes"]["error"]) == list(PROBE_ERRORS)
    # at error 10 Huber's loss is delta * (10 - delta / 2) and its gradient is delta
    assert a["probes"]["loss"]["Huber"][-1] == pytest.approx(0.5 * 9.75)
    assert b["probes"]["grad"]["Huber"][-1] == pytest.approx(2.0)
    ta, tb = format_huber_table(a), format_huber_table(b)
    assert ta != tb
    assert ta.startswith("delta = 0.50:") and tb.startswith("delta = 2.00:")
    assert "10.00    4.8750" in ta and "10.00   18.0000" in tb


@pytest.mark.parametrize("kwargs, match", [
    ({"delta": 0}, "positive"), ({"delta": -1.0}, "positive"), ({"delta": "1"}, "positive number"),
    ({"delta": 1.0, "max_error": 0}, "max_error"), ({"delta": 1.0, "num": 2}, "num"),
])
def test_bad_arguments(kwargs, match):
    with pytest.raises((ValueError, TypeError), match=match):
        huber_explorer_data(**kwargs)


def test_drawing():
    fig = draw_huber_explorer(huber_explorer_data(1.5))
    left, right = fig.axes
    assert left.get_title() == "loss (delta = 1.50)"
    assert [line.get_label() for line in left.get_lines()][:3] == ["Huber", "MSE/2", "L1"]
    # dotted markers at -delta and +delta on both panels
    assert sorted(line.get_xdata()[0] for line in right.get_lines()[3:]) == [-1.5, 1.5]
    import matplotlib.pyplot as plt

    plt.close(fig)


def test_widget_redraws_when_the_slider_moves():
    box = huber_explorer(delta=1.0, max_error=3.0)
    assert box.children == (box.slider, box.output)
    assert box.state["redraws"] == 1 and box.state["data"]["delta"] == 1.0
    figure, table = box.output.outputs
    assert figure["output_type"] == "display_data" and figure["data"]["image/png"]
    assert table["name"] == "stdout" and table["text"].startswith("delta = 1.00")
    box.slider.value = 2.0  # what dragging the slider does
    assert box.state["redraws"] == 2 and box.state["data"]["delta"] == 2.0
    new_figure, new_table = box.output.outputs
    assert new_table["text"].startswith("delta = 2.00") and new_table["text"] != table["text"]
    assert new_figure["data"]["image/png"] != figure["data"]["image/png"]
    assert box.slider.continuous_update is False
    import matplotlib.pyplot as plt

    assert plt.get_fignums() == []  # every figure is closed after it is rendered


def test_widget_shows_a_failure_in_its_output(monkeypatch):
    import course_utils.widgets as w

    box = huber_explorer(delta=1.0)

    def broken(delta, max_error):
        raise RuntimeError("simulated failure")

    monkeypatch.setattr(w, "huber_explorer_data", broken)
    box.slider.value = 1.5
    (only,) = box.output.outputs
    assert only["name"] == "stderr" and "RuntimeError: simulated failure" in only["text"]


def test_widget_rejects_a_delta_outside_the_slider():
    with pytest.raises(ValueError, match="min_delta <= delta <= max_delta"):
        huber_explorer(delta=5.0, max_delta=3.0)


def test_widget_reads_well_without_a_kernel():
    """GitHub/nbviewer show a widget's text/plain: the explorer's table, not `VBox(children=(FloatSlider...`."""
    box = huber_explorer(delta=1.5)
    text = box._repr_mimebundle_()["text/plain"]
    assert text.startswith("Huber explorer:") and "delta = 1.50" in text and "VBox(" not in text
    box.slider.value = 0.5
    assert "delta = 0.50" in box._repr_mimebundle_()["text/plain"]
