"""Small, independent matplotlib helpers shared by the notebooks.

Each function draws on an ``ax`` you pass (or a new figure) and returns the axes, so notebooks can
combine them in subplots. None of them imports MindSpore: give them NumPy arrays or lists (use
``tensor.asnumpy()`` first). Their labels are English at the call site, ``figure_text(N_("..."))``: in the
Chinese edition they are drawn in Chinese (``course_utils.i18n.figures``, which ``runtime.setup(lang="zh")``
turns on).
"""

from __future__ import annotations

from typing import Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from course_utils.i18n import N_
from course_utils.i18n.figures import cjk_font, figure_text, use_language
from course_utils.notebook import in_kernel

__all__ = ["LiveTrainingPlot", "cjk_font", "figure_text", "plot_confusion_matrix", "plot_curves",
           "plot_data_parallel", "plot_image_grid", "plot_line_fits", "use_language"]

ArrayLike = Union[Sequence[float], np.ndarray]


def _axes(ax=None, figsize: Tuple[float, float] = (5.0, 3.5)):
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    _, ax = plt.subplots(figsize=figsize)
    return ax


def plot_curves(curves: Mapping[str, Union[ArrayLike, Tuple[ArrayLike, ArrayLike]]], x: Optional[ArrayLike] = None,
                ax=None, title: Optional[str] = None, xlabel: Optional[str] = None, ylabel: Optional[str] = None,
                vlines: Sequence[float] = (), styles: Optional[Mapping[str, dict]] = None, logy: bool = False,
                legend: bool = True):
    """Draw named curves on one axes and return it.

    ``curves`` maps a label to either ``y`` values (plotted against ``x``, or against 0, 1, 2, ...
    when ``x`` is None, e.g. a loss per step) or an ``(x, y)`` pair. ``vlines`` draws dotted
    vertical markers (thresholds, epoch boundaries); ``styles`` passes extra matplotlib keyword
    arguments per label, e.g. ``{"MSE": {"linestyle": "--"}}``.
    """
    if not curves:
        raise ValueError("plot_curves needs at least one curve, e.g. {'loss': values}.")
    ax = _axes(ax)
    styles = styles or {}
    for label, values in curves.items():
        if isinstance(values, tuple) and len(values) == 2:
            xs, ys = np.asarray(values[0]), np.asarray(values[1])
        else:
            ys = np.asarray(values)
            xs = np.arange(len(ys)) if x is None else np.asarray(x)
        if xs.shape != ys.shape:
            raise ValueError(f"curve {label!r}: x has shape {xs.shape} but y has shape {ys.shape}.")
        ax.plot(xs, ys, label=label, **styles.get(label, {}))
    for v in vlines:
        ax.axvline(v, color="0.5", linestyle=":", linewidth=1)
    if logy:
        ax.set_yscale("log")
    if title:
        ax.set_title(title)
    if xlabel:
        ax.set_xlabel(xlabel)
    if ylabel:
        ax.set_ylabel(ylabel)
    ax.grid(True, alpha=0.3)
    if legend:
        ax.legend(fontsize="small")
    return ax


def plot_line_fits(x: ArrayLike, y: ArrayLike, fits: Mapping[str, Tuple[float, float]], ax=None,
                   highlight: Optional[ArrayLike] = None, highlight_label: str = N_("outliers"),
                   title: Optional[str] = None, true_line: Optional[Tuple[float, float]] = None):
    """Scatter ``(x, y)`` and draw each fitted line ``{label: (slope, intercept)}``.

    ``highlight`` is a boolean mask of points to mark (e.g. outliers); ``true_line`` draws the line
    the data came from, dashed, for comparison.
    """
    ax = _axes(ax)
    x, y = np.asarray(x).ravel(), np.asarray(y).ravel()
    if x.shape != y.shape:
        raise ValueError(f"x has {x.size} values but y has {y.size}.")
    mask = np.zeros(x.shape, bool) if highlight is None else np.asarray(highlight, bool).ravel()
    ax.scatter(x[~mask], y[~mask], s=12, color="0.45", label=figure_text(N_("data")))
    if mask.any():
        ax.scatter(x[mask], y[mask], s=30, marker="x", color="crimson", label=figure_text(highlight_label))
    grid = np.linspace(x.min(), x.max(), 2)
    if true_line is not None:
        ax.plot(grid, true_line[0] * grid + true_line[1], "k--", linewidth=1, label=figure_text(N_("true line")))
    for label, (slope, intercept) in fits.items():
        ax.plot(grid, slope * grid + intercept, linewidth=2, label=f"{label}: y = {slope:.2f} x + {intercept:.2f}")
    if title:
        ax.set_title(title)
    ax.set_xlabel("x")
    ax.set_ylabel("y")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="small")
    return ax




# ---- images, confusion matrix, live training plot (notebook 05) ----

def _as_images(images) -> np.ndarray:
    """(N, H, W) from (N, H, W), (N, 1, H, W) or (N, H, W, 1) arrays."""
    arr = np.asarray(images)
    if arr.ndim == 4 and 1 in (arr.shape[1], arr.shape[-1]):
        arr = arr.reshape(arr.shape[0], *(arr.shape[2:] if arr.shape[1] == 1 else arr.shape[1:3]))
    if arr.ndim != 3:
        raise ValueError(f"Expected single-channel images (N, H, W) or (N, 1, H, W), got shape {arr.shape}.")
    return arr


def plot_image_grid(images, titles: Optional[Sequence[str]] = None, ncols: int = 8,
                    title_colors: Optional[Sequence[str]] = None, suptitle: Optional[str] = None,
                    cell_size: float = 1.15, cmap: str = "gray_r"):
    """Show single-channel images in a grid, each with an optional title; returns the figure.

    Works on raw uint8 pixels and on normalised floats alike (each image is scaled to its own range).
    ``title_colors`` colours each title, e.g. green for right and red for wrong predictions.
    """
    import matplotlib.pyplot as plt

    imgs = _as_images(images)
    n = len(imgs)
    if n == 0:
        raise ValueError("plot_image_grid needs at least one image.")
    if titles is not None and len(titles) != n:
        raise ValueError(f"{n} images but {len(titles)} titles.")
    ncols = max(1, min(int(ncols), n))
    nrows = -(-n // ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(cell_size * ncols, cell_size * nrows + (0.4 if suptitle else 0)),
                             squeeze=False)
    for i, ax in enumerate(axes.flat):
        ax.axis("off")
        if i >= n:
            continue
        ax.imshow(imgs[i], cmap=cmap, interpolation="nearest")
        if titles is not None:
            ax.set_title(titles[i], fontsize=8, color=title_colors[i] if title_colors is not None else "black")
    if suptitle:
        fig.suptitle(suptitle, fontsize=10)
    fig.tight_layout()
    return fig


def plot_confusion_matrix(cm, class_names: Optional[Sequence[str]] = None, ax=None, title: Optional[str] = None):
    """Draw a confusion matrix (rows: true class, columns: predicted) with every count written in.

    Colour shows the *mistakes* only: the diagonal (correct predictions) is left white, because on
    a good classifier its counts are a hundred times larger and would wash out every error.
    """
    cm = np.asarray(cm)
    if cm.ndim != 2 or cm.shape[0] != cm.shape[1]:
        raise ValueError(f"Expected a square confusion matrix, got shape {cm.shape}.")
    k = cm.shape[0]
    names = [str(c) for c in (class_names if class_names is not None else range(k))]
    if len(names) != k:
        raise ValueError(f"{k} classes but {len(names)} class names.")
    ax = _axes(ax, figsize=(0.5 * k + 1.5, 0.5 * k + 1.0))
    errors = np.ma.masked_array(cm, mask=np.eye(k, dtype=bool))
    vmax = max(int(errors.max()) if errors.count() else 0, 1)
    image = ax.imshow(errors, cmap="Reds", vmin=0, vmax=vmax)
    for i in range(k):
        for j in range(k):
            if cm[i, j] or i == j:
                strong = i != j and cm[i, j] > 0.6 * vmax
                ax.text(j, i, str(cm[i, j]), ha="center", va="center", fontsize=7 if k > 10 else 8,
                        color="white" if strong else ("black" if i != j else "#1b5e20"),
                        fontweight="bold" if i == j else "normal")
    ax.set_xticks(range(k), names)
    ax.set_yticks(range(k), names)
    ax.set_xlabel(figure_text(N_("predicted")))
    ax.set_ylabel(figure_text(N_("true")))
    if title:
        ax.set_title(title)
    ax.figure.colorbar(image, ax=ax, fraction=0.046, pad=0.04, label=figure_text(N_("mistakes")))
    return ax


#: The usual names of what ``LiveTrainingPlot`` shows as accuracy, marked for translation (``accuracy_label``).
ACCURACY_LABELS = (N_("test accuracy"), N_("validation accuracy"))


class LiveTrainingPlot:
    """A loss / accuracy figure that redraws in place while training runs.

    Pass it as ``on_update`` to ``course_utils.training.fit``; it reads ``result.step_loss`` (a list
    of ``(step, loss)``) and ``result.evals`` (dicts with "step" and "accuracy"). In a notebook the
    figure is shown once and then replaced in place (``display_id``), so the cell ends with one
    up-to-date figure; elsewhere it just keeps the figure current (``.figure``).
    """

    def __init__(self, total_steps: Optional[int] = None, smooth: int = 50, target: Optional[float] = None,
                 title: str = N_("training"), accuracy_label: str = N_("test accuracy")):
        """``accuracy_label`` names what ``fit`` evaluates ("validation accuracy" when it monitors a held-out
        split, as notebook 05 does); like ``title``, an English text the figure shows in the course's language."""
        self.total_steps, self.smooth, self.target, self.title = total_steps, max(int(smooth), 1), target, title
        self.accuracy_label = accuracy_label
        self.figure = None
        self._handle = None

    def _create(self):
        import matplotlib.pyplot as plt

        self.figure, (self.ax_loss, self.ax_acc) = plt.subplots(1, 2, figsize=(9.5, 3.2))
        (self.raw,) = self.ax_loss.plot([], [], color="0.75", linewidth=0.6, label=figure_text(N_("loss per step")))
        (self.smoothed,) = self.ax_loss.plot([], [], color="C0",
                                          label=figure_text(N_("mean of {n} steps"), n=self.smooth))
        self.ax_loss.set_yscale("log")
        self.ax_loss.set_xlabel(figure_text(N_("step")))
        self.ax_loss.set_title(figure_text(N_("training loss")))
        self.ax_loss.legend(fontsize="small", loc="upper right")
        (self.acc,) = self.ax_acc.plot([], [], "o-", color="C2", markersize=4,
                                       label=figure_text(self.accuracy_label))
        if self.target is not None:
            self.ax_acc.axhline(self.target, color="0.4", linestyle=":", linewidth=1,
                                label=figure_text(N_("target {target:.3f}"), target=self.target))
        self.ax_acc.set_xlabel(figure_text(N_("step")))
        self.ax_acc.set_title(figure_text(self.accuracy_label))
        self.ax_acc.legend(fontsize="small", loc="lower right")
        for ax in (self.ax_loss, self.ax_acc):
            ax.grid(True, alpha=0.3)
        self.figure.suptitle(figure_text(self.title), fontsize=10)
        self.figure.tight_layout()
        plt.close(self.figure)  # shown through display() below, not again at the end of the cell
        if in_kernel():
            from IPython.display import display

            self._handle = display(self.figure, display_id=True)

    def __call__(self, result) -> None:
        if self.figure is None:
            self._create()
        if result.step_loss:
            steps, losses = (np.asarray(v, dtype=float) for v in zip(*result.step_loss))
            self.raw.set_data(steps, losses)
            w = min(self.smooth, len(losses))
            mean = np.convolve(losses, np.ones(w) / w, mode="valid")
            self.smoothed.set_data(steps[w - 1:], mean)
            right = max(self.total_steps or 0, steps[-1])
            self.ax_loss.set_xlim(0, right)
            self.ax_acc.set_xlim(0, right)
            self.ax_loss.set_ylim(max(losses.min(), 1e-4) * 0.8, losses.max() * 1.2)
        if result.evals:
            self.acc.set_data([e["step"] for e in result.evals], [e["accuracy"] for e in result.evals])
            accs = [e["accuracy"] for e in result.evals] + ([self.target] if self.target is not None else [])
            low = min(accs)
            self.ax_acc.set_ylim(max(0.0, low - 0.02), min(1.0, max(accs) + 0.005))
            self.ax_acc.set_title(figure_text(N_("{label}: {accuracy:.4f}"), label=figure_text(self.accuracy_label),
                                              accuracy=result.evals[-1]['accuracy']))
        if self._handle is not None:
            self._handle.update(self.figure)


def plot_data_parallel(batch_size: int, workers: int = 2):
    """The data-parallel picture of notebook 09: shards -> replicas -> all-reduce -> same update.

    Two workers are drawn (with ``workers`` > 2 the title says how many there are); the global batch
    is ``batch_size * workers``. Returns the axes.
    """
    import matplotlib.pyplot as plt
    from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

    def box(x, y, w, h, text, color, style="round,pad=0.02", ls="-", fs=9):
        ax.add_patch(FancyBboxPatch((x, y), w, h, boxstyle=style, fc=color, ec="black", lw=1, ls=ls))
        ax.text(x + w / 2, y + h / 2, text, ha="center", va="center", fontsize=fs)

    def arrow(a, b, color="black"):
        ax.add_patch(FancyArrowPatch(a, b, arrowstyle="-|>", mutation_scale=12, color=color, lw=1.3))

    _, ax = plt.subplots(figsize=(11, 5))
    ax.set_xlim(0, 11)
    ax.set_ylim(0.3, 5.1)
    ax.axis("off")
    shard_colors = ["#9ecae1", "#fdae6b"]
    ax.text(1.0, 3.95, figure_text(N_("global batch\n({n} images)"), n=batch_size * workers), ha="center", fontsize=9,
            weight="bold")
    # the job: one process per worker, started by msrun; the scheduler introduces and watches them, no gradients
    ax.add_patch(FancyBboxPatch((2.45, 0.5), 3.35, 3.5, boxstyle="round,pad=0.02", fc="none", ec="gray", ls="--"))
    box(2.75, 4.3, 2.75, 0.65, figure_text(N_("msrun scheduler on 127.0.0.1:port\nintroduces and watches the "
                                              "workers;\nno gradient passes through it")), "white", ls="--", fs=7)
    arrow((4.1, 4.28), (4.1, 4.05), color="gray")
    for r in range(2):
        y = 2.45 - 1.8 * r
        box(0.2, y + 0.1, 1.6, 1.2, figure_text(N_("shard {r}\n{n} images"), r=r, n=batch_size), shard_colors[r],
            style="square,pad=0")
        box(2.6, y, 3.05, 1.4, figure_text(N_("worker {r} (rank {r})\nfull replica of the model\nforward + backward on "
                                             "shard {r}\n-> gradient g{r}"), r=r), shard_colors[r])
        arrow((1.85, y + 0.7), (2.55, y + 0.7))
        arrow((5.7, y + 0.95), (6.75, 2.55 - 0.6 * r))                          # g_r into the all-reduce
        arrow((6.75, 2.3 - 0.6 * r), (5.7, y + 0.45), color="tab:green")         # the mean comes back
    box(6.8, 1.35, 2.0, 1.75, figure_text(N_("all-reduce\n(mean)\n\ng = (g0 + g1) / 2")), "#c7e9c0")
    box(9.1, 1.35, 1.75, 1.75, figure_text(N_("same update\non every worker\n(SGD, momentum 0.9):\n"
                                             "v <- 0.9 v + g\nw <- w - lr * v\n\nreplicas stay\nidentical")),
        "#f0f0f0", fs=7)
    arrow((8.85, 2.22), (9.05, 2.22), color="tab:green")
    title = figure_text(N_("Data parallelism: one replica per worker, one shard per worker, one all-reduce per step"))
    if workers > 2:
        title += figure_text(N_(" (2 of {workers} workers drawn)"), workers=workers)
    ax.set_title(title, fontsize=11)
    return ax
