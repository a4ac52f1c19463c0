"""ipywidgets front ends. The logic of each widget is a plain function (tested by pytest); the widget
only turns control values into a call of it and shows the result.

Huber explorer (notebook 01)::

    from course_utils.widgets import huber_explorer
    huber_explorer()          # a delta slider; the plot and the table below it follow the slider

Its logic: ``huber_explorer_data(delta)`` computes the curves with MindSpore (the reference
``course_utils.losses.huber`` and ``mindspore.grad``), ``format_huber_table`` turns them into text and
``draw_huber_explorer`` into a figure.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from course_utils.fmt import pad
from course_utils.i18n import N_, tr
from course_utils.losses import check_delta

#: Errors at which the explorer prints values: small, moderate, and an outlier.
PROBE_ERRORS = (0.5, 2.0, 10.0)

_grad_fns: dict = {}


def _curve_functions():
    """Loss functions of an error tensor and their elementwise gradients, built once.

    ``delta`` is a tensor argument, not a Python constant, so a compiled graph (GRAPH_MODE) is reused
    for every slider position instead of being recompiled for each new value.
    """
    if not _grad_fns:
        import mindspore as ms
        from mindspore import ops

        from course_utils.losses import huber

        def huber_sum(error, delta):
            return huber(error, delta).sum()

        def half_square_sum(error):
            return (0.5 * ops.square(error)).sum()

        def abs_sum(error):
            return ops.abs(error).sum()

        _grad_fns.update(
            huber=huber, huber_grad=ms.grad(huber_sum, grad_position=0),
            half_square_grad=ms.grad(half_square_sum), abs_grad=ms.grad(abs_sum))
    return _grad_fns


def huber_explorer_data(delta: float, max_error: float = 4.0, num: int = 161,
                        probes: Sequence[float] = PROBE_ERRORS) -> dict:
    """Loss and gradient of Huber(delta), of 0.5 * e**2 (MSE/2) and of |e| (L1), as NumPy arrays.

    Returns ``{"delta", "error", "loss": {name: values}, "grad": {name: values},
    "probes": {"error": [...], "loss": {name: [...]}, "grad": {name: [...]}}}`` with the curves over
    ``num`` errors in ``[-max_error, max_error]`` and the values at the ``probes`` errors.
    """
    delta = check_delta(delta)
    if not (isinstance(max_error, (int, float)) and max_error > 0):
        raise ValueError(tr("max_error must be a positive number, got {value}.", value=repr(max_error)))
    if int(num) < 3:
        raise ValueError(tr("num must be at least 3 points, got {value}.", value=repr(num)))
    import mindspore as ms
    from mindspore import ops

    fns = _curve_functions()
    grid = np.linspace(-max_error, max_error, int(num), dtype=np.float32)
    probes = np.asarray(probes, dtype=np.float32)
    # one tensor for the grid and the probes: one shape, so one compiled graph
    errors = ms.Tensor(np.concatenate([grid, probes]))
    delta_t = ms.Tensor(delta, ms.float32)
    loss = {"Huber": fns["huber"](errors, delta_t), "MSE/2": 0.5 * ops.square(errors), "L1": ops.abs(errors)}
    grad = {"Huber": fns["huber_grad"](errors, delta_t), "MSE/2": fns["half_square_grad"](errors),
            "L1": fns["abs_grad"](errors)}
    loss = {k: v.asnumpy() for k, v in loss.items()}
    grad = {k: v.asnumpy() for k, v in grad.items()}
    n = grid.size
    return {
        "delta": delta,
        "error": grid,
        "loss": {k: v[:n] for k, v in loss.items()},
        "grad": {k: v[:n] for k, v in grad.items()},
        "probes": {"error": probes, "loss": {k: v[n:] for k, v in loss.items()},
                   "grad": {k: v[n:] for k, v in grad.items()}},
    }


def format_huber_table(data: dict) -> str:
    """The values the explorer prints under its plot, for the delta in ``data``."""
    delta = data["delta"]
    p = data["probes"]
    lines = [tr("delta = {delta:.2f}: quadratic for |error| <= {delta:.2f}, linear beyond; "
                "no error gets a gradient larger than {delta:.2f}", delta=delta),
             f"{pad(tr('error'), 7, '>')} {'Huber':>9} {'MSE/2':>9} {'L1':>7} | {'dHuber':>7} {'dMSE/2':>7} {'dL1':>5}"]
    for i, e in enumerate(p["error"]):
        lines.append(f"{e:7.2f} {p['loss']['Huber'][i]:9.4f} {p['loss']['MSE/2'][i]:9.4f} {p['loss']['L1'][i]:7.3f}"
                     f" | {p['grad']['Huber'][i]:7.3f} {p['grad']['MSE/2'][i]:7.3f} {p['grad']['L1'][i]:5.2f}")
    return "\n".join(lines)


def draw_huber_explorer(data: dict, axes=None):
    """Two panels, loss and gradient against the error, with dotted lines at +-delta. Returns the figure."""
    from course_utils.plots import figure_text, plot_curves

    if axes is None:
        import matplotlib.pyplot as plt

        fig, axes = plt.subplots(1, 2, figsize=(10, 3.6))
    else:
        fig = axes[0].figure
    d = data["delta"]
    styles = {"MSE/2": {"linestyle": "--"}, "L1": {"linestyle": "-."}, "Huber": {"linewidth": 2.5}}
    error = figure_text(N_("error"))
    plot_curves(data["loss"], x=data["error"], ax=axes[0], title=figure_text(N_("loss (delta = {delta:.2f})"), delta=d),
                xlabel=error, ylabel=figure_text(N_("loss")), vlines=(-d, d), styles=styles)
    plot_curves(data["grad"], x=data["error"], ax=axes[1], title=figure_text(N_("gradient d loss / d error")),
                xlabel=error, ylabel=figure_text(N_("gradient")), vlines=(-d, d), styles=styles)
    top = float(np.max(data["loss"]["Huber"])) * 1.6 + 0.5
    axes[0].set_ylim(-0.2, top)  # keep the Huber curve readable next to the fast-growing MSE/2
    fig.tight_layout()
    return fig


def _figure_output(fig, label: str) -> dict:
    """A matplotlib figure as a ``display_data`` output (PNG), and the figure closed."""
    import base64
    import io

    import matplotlib.pyplot as plt

    buffer = io.BytesIO()
    try:
        fig.savefig(buffer, format="png", dpi=90)
    finally:
        plt.close(fig)
    png = base64.b64encode(buffer.getvalue()).decode("ascii")
    return {"output_type": "display_data", "data": {"image/png": png, "text/plain": label}, "metadata": {}}


def huber_explorer(delta: float = 1.0, min_delta: float = 0.1, max_delta: float = 3.0, step: float = 0.05,
                   max_error: float = 4.0, output=None):
    """A ``delta`` slider above a plot and a table that follow it. Returns the widget (an ``ipywidgets.VBox``).

    The returned box also carries ``.slider``, ``.output`` (an ``ipywidgets.Output``) and ``.state``
    (``{"data": ..., "text": ..., "redraws": n}`` of the last redraw) for tests and curious learners.
    The slider updates when released (``continuous_update=False``): each redraw runs MindSpore and
    draws a figure, too slow to follow every pixel of a drag on a small CPU.
    """
    import ipywidgets as widgets

    delta = check_delta(delta)
    if not 0 < min_delta <= delta <= max_delta:
        raise ValueError(tr("need 0 < min_delta <= delta <= max_delta, got {low}, {delta}, {high}.",
                            low=min_delta, delta=delta, high=max_delta))
    slider = widgets.FloatSlider(value=delta, min=min_delta, max=max_delta, step=step, description="delta",
                                 continuous_update=False, readout_format=".2f",
                                 layout=widgets.Layout(width="420px"))
    out = output if output is not None else widgets.Output()
    state = {"data": None, "text": "", "redraws": 0}

    def redraw(change=None):
        try:
            data = huber_explorer_data(slider.value, max_error=max_error)
            text = format_huber_table(data)
            outputs = (_figure_output(draw_huber_explorer(data), f"<Huber explorer, delta={data['delta']:.2f}>"),
                       {"output_type": "stream", "name": "stdout", "text": text + "\n"})
        except Exception as exc:  # show it where the learner looks, not in the server log
            data, text = None, tr("The explorer failed for delta={delta}: {error}: {message}",
                                  delta=slider.value, error=type(exc).__name__, message=exc)
            outputs = ({"output_type": "stream", "name": "stderr", "text": text + "\n"},)
        state.update(data=data, text=text, redraws=state["redraws"] + 1)
        # Replace the Output widget's content in one step (no `with out:` capture): one state update
        # per redraw, no flicker, and no dependence on which cell is executing.
        out.outputs = outputs

    slider.observe(redraw, names="value")
    redraw()
    box = _explorer_box_class()([slider, out])
    box.slider, box.output, box.state, box.redraw = slider, out, state, redraw
    return box


def _explorer_box_class():
    import ipywidgets as widgets

    class ExplorerBox(widgets.VBox):
        """A VBox whose plain-text form is the explorer's current table, not ``VBox(children=(...``.

        A stored notebook viewed without a kernel (GitHub, nbviewer, a text diff) cannot render the
        widget and shows the ``text/plain`` fallback instead: this keeps it readable.
        """

        def _repr_mimebundle_(self, **kwargs):
            data = super()._repr_mimebundle_(**kwargs)
            if data is not None:
                data["text/plain"] = self.static_text()
            return data

        def static_text(self) -> str:
            state = getattr(self, "state", {}) or {}
            return tr("Huber explorer: an interactive delta slider (run the notebook to move it). "
                      "At the stored position:\n{text}", text=state.get("text", ""))

    return ExplorerBox



__all__ = ["PROBE_ERRORS", "draw_huber_explorer", "format_huber_table", "huber_explorer", "huber_explorer_data"]
