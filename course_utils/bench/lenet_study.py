"""The stored LeNet-5 recipe study that notebook 05 reads: its table and its strip plot.

``scripts/bench_lenet.py`` trains LeNet-5 for each candidate number of epochs with the same several seeds, scores
every run on the validation split (and, after training, on the test set) and writes ``scripts/results/
lenet_recipe.json``; its rule chooses the number of epochs on the validation accuracies alone. Training all those
runs takes minutes, so the lesson shows the stored file: :func:`print_study` as a table with the study's machine
next to this run's, :func:`plot_study` as every run's validation accuracy by number of epochs, where the overlap
of the seed-to-seed ranges is visible at a glance.

The trap it avoids: a stored study read as if this machine had produced it. The two machine lines are printed
together, and the caller gets back whether they agree (notebook 05 holds a run to the study's results only then).
Importing this module does not import MindSpore or matplotlib.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

from course_utils import ROOT
from course_utils.fmt import pad
from course_utils.i18n import N_, language, tr

__all__ = ["STUDY_FILE", "load_study", "plot_study", "print_study"]

#: Where ``scripts/bench_lenet.py --json`` stores the study notebook 05 shows.
STUDY_FILE = ROOT / "scripts" / "results" / "lenet_recipe.json"


def load_study(path: Optional[Path] = None) -> dict:
    """The stored study (``STUDY_FILE`` unless ``path`` names another file)."""
    return json.loads(Path(path or STUDY_FILE).read_text(encoding="utf-8"))


def print_study(study: dict, epochs: int, lr: float, studied: bool = True) -> bool:
    """The study's machine next to this run's, then one row per candidate: the validation accuracy's median and
    seed-to-seed range; last, what the rule chose next to the notebook's ``epochs`` and ``lr``. ``studied``: this
    run's recipe is the one the study measured (otherwise section 4 checks nothing, and the lines say so). Returns
    whether the study ran under this run's conditions (the two machine lines agree)."""
    from course_utils import runtime

    study_header, this_header = runtime.localize_header(study["header"]), runtime.machine_header()
    print(tr("stored study: {header}", header=study_header))
    print(tr("this run:     {header}", header=this_header))
    same = study_header == this_header
    if not studied:
        print(tr("this run's recipe (TRAIN_SUBSET, EPOCHS, BATCH_SIZE, LR, VALIDATION) is not the one the study "
                 "measured: section 4 checks nothing against it"))
    elif same:
        print(tr("the study ran under this run's conditions (the two lines agree): section 4 holds this run to the "
                 "study's results"))
    else:
        print(tr("the study ran on another machine or with other settings than this run (compare the two lines): its "
                 "choice carries over, but its accuracies may differ slightly here, so section 4 checks only a floor"))
    columns = [(tr("epochs"), 6), (tr("peak lr"), 10), (tr("seeds"), 6),
               (tr("validation accuracy: median, min-max"), 38)]
    print(" ".join(pad(title, width, ">") for title, width in columns))
    dash = "～" if language() == "zh" else "-"      # a range in Chinese: 98.62%～98.72%
    for r in study["choice"]["recipes"]:
        spread = f"{r['validation_median']:.2%}  {r['validation_min']:.2%}{dash}{r['validation_max']:.2%}"
        print(f"{r['epochs']:>6} {r['lr']:>10g} {len(r['seeds']):>6} {pad(spread, 38, '>')}")
    chosen = study["choice"]["chosen"]
    print(tr("{n_val:,} training images held out; chosen on validation: {chosen} epochs (at peak lr {chosen_lr:g}); "
             "this notebook's parameters: {epochs} epochs at {lr:g}", n_val=study["args"]["validation"],
             chosen=chosen["epochs"], chosen_lr=chosen["lr"], epochs=epochs, lr=lr))
    return same


def plot_study(study: dict, ax=None):
    """Every run's validation accuracy, one column of dots per number of epochs (seeds spread sideways so equal
    accuracies stay visible), each candidate's median as a short bar; returns the axes."""
    import matplotlib.pyplot as plt
    import numpy as np

    from course_utils.i18n.figures import figure_text

    if ax is None:
        _, ax = plt.subplots(figsize=(6, 2.8))
    recipes = study["choice"]["recipes"]
    chosen = study["choice"]["chosen"]["epochs"]
    for r in recipes:
        runs = sorted((row for row in study["rows"] if row["epochs"] == r["epochs"] and row["lr"] == r["lr"]),
                      key=lambda row: row["seed"])
        offsets = np.linspace(-0.15, 0.15, len(runs)) if len(runs) > 1 else np.zeros(1)
        colour = "#c62828" if r["epochs"] == chosen else "#1565c0"
        ax.scatter(r["epochs"] + offsets, [100 * row["validation_accuracy"] for row in runs], s=28, color=colour,
                   alpha=0.8, zorder=3)
        ax.hlines(100 * r["validation_median"], r["epochs"] - 0.25, r["epochs"] + 0.25, color=colour, linewidth=2)
    ax.set_xticks([r["epochs"] for r in recipes])
    n_runs = len(study["rows"])
    ax.set(xlabel=figure_text(N_("epochs")), ylabel=figure_text(N_("validation accuracy (%)")),
           title=figure_text(N_("the study's {n} runs: one dot per seed, a bar at each median (red: chosen)"),
                             n=n_runs))
    ax.grid(axis="y", alpha=0.3)
    return ax
