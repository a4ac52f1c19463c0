"""course_utils.plots: the curve and line-fit helpers the lessons draw with."""

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402

from course_utils.plots import plot_curves, plot_line_fits  # noqa: E402


def test_plot_helpers():
    import matplotlib.pyplot as plt

    ax = plot_curves({"a": [3, 2, 1], "b": ([0, 2], [1, 1])}, title="t", xlabel="step", vlines=(1,), logy=True)
    assert [line.get_label() for line in ax.get_lines()][:2] == ["a", "b"]
    assert ax.get_yscale() == "log" and ax.get_title() == "t"
    with pytest.raises(ValueError, match="at least one curve"):
        plot_curves({})
    with pytest.raises(ValueError, match="shape"):
        plot_curves({"a": [1, 2]}, x=[0, 1, 2])
    ax = plot_line_fits([0, 1, 2, 3], [1, 3, 5, -9], {"MSE": (1.0, 0.5)}, highlight=[False, False, False, True],
                        true_line=(2.0, 1.0))
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "outliers" in labels and "MSE: y = 1.00 x + 0.50" in labels
    plt.close("all")
