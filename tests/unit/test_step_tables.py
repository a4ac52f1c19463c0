"""course_utils.step_tables: the tables and figures lesson 03 prints, and the comparisons behind them."""

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402

from course_utils import step_tables  # noqa: E402


def test_comparisons_take_arrays_snapshots_and_sequences_alike():
    a = [np.array([[1.0, 2.0]]), np.array([3.0])]
    b = {"w": np.array([[1.0, 2.5]]), "b": np.array([3.0])}
    assert step_tables.max_gap(a, b) == 0.5
    assert step_tables.flat(a).tolist() == [1.0, 2.0, 3.0]
    assert step_tables.cosine(a, [2 * x for x in a]) == 1.0
    assert step_tables.relative_error([2 * x for x in a], a) == 1.0


def test_skips_halve_reads_the_rows_of_the_scaled_run():
    # rows: (step, scale, finite, moved, loss, largest gradient)
    good = [(0, 8.0, False, False, 1.0, 1.0), (1, 4.0, True, True, 1.0, 1.0), (2, 4.0, True, True, 0.9, 1.0)]
    bad = [(0, 8.0, False, False, 1.0, 1.0), (1, 8.0, True, True, 1.0, 1.0)]
    assert step_tables.skips_halve(good) and not step_tables.skips_halve(bad)


def test_tables_print_what_the_cell_measured(capsys):
    step_tables.spike_table({"MSE": (5.0, 13.0)})
    step_tables.scaled_steps_table([(0, 1024.0, False, False, 2.0, 1.0), (1, 512.0, True, True, 1.5, 1.0)])
    out = capsys.readouterr().out
    assert "one target +100" in out and "13.0000" in out
    assert "1024" in out and "no" in out and "yes" in out and "1.5000" in out


def test_figures_draw_the_norms_and_the_scale_run():
    import matplotlib.pyplot as plt

    step_tables.plot_norms_against_bound([5.0, 6.0, 7.0], 8.0, 13.0)
    rows = [(0, 8.0, False, False, 1.0, 1.0), (1, 4.0, True, True, 1.0, 1.0)]
    step_tables.plot_scale_run(rows)
    step_tables.plot_scale_run(rows, ceilings=[6.0, 6.0])
    assert len(plt.get_fignums()) == 3
    plt.close("all")
