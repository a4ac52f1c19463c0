"""The stored LeNet-5 recipe study as notebook 05 shows it: the table says when section 4 checks nothing, and the
strip plot has one dot per stored run."""

import matplotlib

matplotlib.use("Agg")

from course_utils.bench import lenet_study  # noqa: E402


def test_print_study_says_when_section_4_checks_nothing(capsys):
    lenet_study.print_study(lenet_study.load_study(), 1, 2e-3, studied=False)
    out = capsys.readouterr().out
    assert "section 4 checks nothing" in out and "holds this run" not in out and "only a floor" not in out
    assert "5,000 training images held out" in out


def test_plot_study_draws_one_dot_per_run_and_one_bar_per_candidate():
    import matplotlib.pyplot as plt

    study = lenet_study.load_study()
    ax = lenet_study.plot_study(study)
    try:
        dots = sum(len(c.get_offsets()) for c in ax.collections if c.__class__.__name__ == "PathCollection")
        bars = sum(1 for c in ax.collections if c.__class__.__name__ == "LineCollection")
        assert dots == len(study["rows"]) and bars == len(study["choice"]["recipes"])
    finally:
        plt.close(ax.figure)
