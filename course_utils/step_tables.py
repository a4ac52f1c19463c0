"""The tables and figures notebook 03 (step techniques) prints, and the small measurements behind them.

Why a module of its own: these helpers are not exercises (``course_utils.exercises.nb03`` holds the four checkers)
and not what the lesson teaches. The lesson's loops, its clipping lines and its asserts stay in the notebook's cells;
these functions only turn what a cell measured into a table or a figure (``spike_table``, ``clipping_table``,
``mean_and_sum_table``, ``underflow_table``, ``scaled_steps_table``, ``plot_norms_against_bound``,
``plot_scale_run``) or compare weights and gradients (``max_gap``, ``update_norm``, ``relative_error``, ...).
Every printed word goes through ``tr`` (catalogue: ``course_utils/i18n/zh/nb03.py``).
"""

from __future__ import annotations

import numpy as np

from course_utils.fmt import pad
from course_utils.i18n import N_, tr
from course_utils.i18n.figures import figure_text

__all__ = ["clipping_table", "cosine", "flat", "max_gap", "mean_and_sum_table", "plot_norms_against_bound",
           "plot_scale_run", "relative_error", "scaled_steps_table", "skips_halve", "spike_table", "underflow_table",
           "update_norm"]


def _arrays(x) -> list:
    """NumPy copies of a Cell's parameters (in ``parameters_and_names`` order, as ``snapshot_weights``), of a
    snapshot's values, or of a sequence of tensors or arrays."""
    if hasattr(x, "parameters_and_names"):
        return [p.asnumpy().copy() for _, p in x.parameters_and_names()]
    if isinstance(x, dict):
        return [np.array(v) for v in x.values()]
    return [np.array(g.asnumpy() if hasattr(g, "asnumpy") else g) for g in x]


def flat(x) -> np.ndarray:
    """Everything in ``x`` (a Cell, a weight snapshot or a sequence of tensors) as one float64 vector."""
    return np.concatenate([a.ravel() for a in _arrays(x)]).astype(np.float64)


def cosine(a, b) -> float:
    """The cosine similarity of two gradient tuples taken as one long vector each."""
    a, b = flat(a), flat(b)
    return float(a @ b / np.linalg.norm(a) / np.linalg.norm(b))


def max_gap(a, b) -> float:
    """The largest absolute difference between two networks' weights (or two weight snapshots, or two gradient
    tuples), element by element."""
    return float(max(np.abs(x - y).max() for x, y in zip(_arrays(a), _arrays(b))))


def update_norm(before, net, lr: float) -> float:
    """The norm of the gradient a plain-SGD step applied to ``net``: its weight change since ``before`` (a snapshot),
    divided by the learning rate ``lr``."""
    return float(np.linalg.norm(flat(net) - flat(before)) / lr)


def spike_table(norms: dict) -> None:
    """Section 1: the global gradient norm of this batch and of the batch with one spiked target, per loss
    (``{loss name: (this batch, spiked)}``)."""
    print(f"{pad(tr('global gradient norm'), 22)} {pad(tr('this batch'), 12, '>')} "
          f"{pad(tr('one target +100'), 17, '>')}")
    for name, (clean, spiked) in norms.items():
        print(f"{pad(name, 22)} {clean:12.4f} {spiked:17.4f}")


def clipping_table(results: dict, bound: float) -> None:
    """Section 1: for each batch (``{batch: {method: gradients}}``, the raw gradients first) the global norm, the
    per-tensor norms and the cosine with the raw gradients."""
    from course_utils.training import global_norm, tensor_norms

    print(f"{pad('', 26)} {pad(tr('global norm'), 11, '>')}   {pad(tr('per-tensor norms'), 28)} "
          f"{tr('cosine with the raw gradients')}")
    for batch, by_method in results.items():
        print(tr("{batch} (bound {bound:.4f}):", batch=batch, bound=bound))
        raw = next(iter(by_method.values()))
        for method, grads in by_method.items():
            print(f"  {pad(method, 24)} {float(global_norm(grads)):11.4f}   "
                  f"{pad(np.round(tensor_norms(grads), 3), 28)} {cosine(grads, raw):.4f}")


def mean_and_sum_table(found: dict, k: int, size: int) -> None:
    """Section 2: prints what the cell measured (``found``: ``"again"``, ``"mean"``, ``"sum"``, the gaps to the
    big-batch gradient, and ``"SGD"``, ``"Adam"``, how many times as far the sum moves the weights as the mean)."""
    print(tr("a second value_and_grad call on the big batch: max |diff| to the first = {gap:.1e} (fresh, not "
             "added up)", gap=found["again"]))
    print(tr("{k} micro-batches of {micro} vs one batch of {size}:", k=k, micro=size // k, size=size))
    print(tr("  mean of micro gradients - big-batch gradient: max |diff| = {gap:.1e}", gap=found["mean"]))
    print(tr("  sum  of micro gradients - big-batch gradient: max |diff| = {gap:.3f}   (the scaling mistake)",
             gap=found["sum"]))
    for name in ("SGD", "Adam"):
        print(tr("  one {name:4} step with the sum instead of the mean: the weights move {ratio:.2f}x as far",
                 name=name, ratio=found[name]))


def underflow_table(results: dict, exact) -> None:
    """Section 5: for each loss scale (``{scale: unscaled float16 gradients}``), how many gradient values are 0 and
    the relative error against the float32 gradients ``exact``."""
    reference = flat(exact)
    print(tr("largest float32 gradient {largest:.1e}, smallest nonzero {smallest:.1e}; {zeros} of {n} are 0",
             largest=float(np.abs(reference).max()), smallest=float(np.abs(reference[reference != 0]).min()),
             zeros=int((reference == 0).sum()), n=reference.size))
    print(f"{pad(tr('loss scale'), 12)}{pad(tr('gradient values that are 0'), 30)}{tr('relative error vs float32')}")
    for scale, grads in results.items():
        values = flat(grads)
        error = float(np.linalg.norm(values - reference) / np.linalg.norm(reference))
        print(f"{pad(f'{scale:.0f}', 12)}{pad(tr('{zeros} of {n}', zeros=int((values == 0).sum()), n=values.size), 30)}"
              f"{error:.2%}")


def relative_error(grads, exact) -> float:
    """``|grads - exact| / |exact|``, all tensors taken as one vector."""
    return float(np.linalg.norm(flat(grads) - flat(exact)) / np.linalg.norm(flat(exact)))


def scaled_steps_table(rows) -> None:
    """Section 5: prints the rows ``(step, scale, finite, moved, loss, largest true gradient)`` of the loss-scaled
    run: the scale each step used, whether its gradients were finite, whether the weights moved, and the loss."""
    yes, no = tr("yes"), tr("no")
    print(pad(tr("step"), 6) + pad(tr("loss scale"), 12) + pad(tr("finite grads"), 14) + pad(tr("updated"), 9)
          + tr("loss"))
    for index, scale, finite, moved, loss, _ in rows:
        print(pad(str(index), 6) + pad(f"{scale:.0f}", 12) + pad(yes if finite else no, 14)
              + pad(yes if moved else no, 9) + f"{loss:.4f}")


def skips_halve(rows) -> bool:
    """Whether every skipped step (``rows`` of ``scaled_steps_table``) halved the scale of the next step."""
    return all(rows[i + 1][1] == rows[i][1] / 2 for i in range(len(rows) - 1) if not rows[i][2])


def plot_norms_against_bound(norms, bound: float, spike: float) -> None:
    """Section 1: the global gradient norm of every batch of one epoch (a strip of dots), the spiked batch's norm
    and the clipping bound between them."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 1.6))
    ax.scatter(norms, np.zeros(len(norms)), color="tab:blue", alpha=0.7,
               label=figure_text(N_("ordinary batches (one epoch)")))
    ax.scatter([spike], [0], color="tab:red", marker="x", s=70, label=figure_text(N_("one target +100")))
    ax.axvline(bound, color="0.3", linestyle="--", linewidth=1, label=figure_text(N_("clip_norm")))
    ax.set_yticks([])
    ax.set_xlim(0, spike * 1.1)
    ax.set_xlabel(figure_text(N_("global gradient norm (MSE)")))
    ax.legend(fontsize="small", loc="center left", bbox_to_anchor=(1.01, 0.5))
    plt.show()


def plot_scale_run(rows, ceilings=None) -> None:
    """The scale each step of section 5 used (log scale) and the skipped steps; with ``ceilings`` (Going further B)
    also the highest scale that does not overflow, before each step."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 3.2))
    ax.step([r[0] for r in rows], [r[1] for r in rows], where="mid", color="0.7", linewidth=1)
    ax.scatter([r[0] for r in rows if r[2]], [r[1] for r in rows if r[2]], color="tab:green", zorder=3,
               label=figure_text(N_("finite gradients: updated")))
    ax.scatter([r[0] for r in rows if not r[2]], [r[1] for r in rows if not r[2]], color="tab:red", marker="x", s=60,
               zorder=3, label=figure_text(N_("overflow: update skipped")))
    if ceilings is not None:
        ax.plot([r[0] for r in rows], ceilings, color="0.3", linestyle=":", linewidth=1,
                label=figure_text(N_("ceiling: FP16_MAX / largest |gradient|")))
    ax.set_yscale("log", base=2)
    ax.set_xlabel(figure_text(N_("training step")))
    ax.set_ylabel(figure_text(N_("loss scale")))
    ax.set_title(figure_text(N_("DynamicLossScaler: the scale each step used")))
    ax.legend(fontsize="small")
    plt.show()
