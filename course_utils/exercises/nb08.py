"""Exercises of notebook 08 (finding and fixing bottlenecks).

q1 ``same_function``: prove a rewrite equal before timing it: the same outputs *and* the same input gradients,
   within float32 rounding; the notebook then applies it to part 3's pooling layers.
q2 ``pipeline_verdict``: what the input pipeline does to the step it feeds ("tie": no measurable cost, "costs": a
   cost although it keeps up, or "bottleneck"), by the lab's tie rule; the notebook then applies it to part 4's
   measurements.
"""

from __future__ import annotations

from course_utils import runtime
from course_utils.exercises import Exercise, Incorrect, register
from course_utils.i18n import N_, tr


# ----------------------------------------------------------------------------------------------
# q1: the same function, outputs and gradients
# ----------------------------------------------------------------------------------------------

def _cells():
    """``{name: Cell}``: the layers the check compares (built when checked: importing this module never imports
    MindSpore)."""
    import mindspore as ms

    class MaxPoolReshape(ms.nn.Cell):          # each 2x2 window on two axes of its own, then their maximum
        def construct(self, t):
            n, c, h, w = t.shape
            return t.reshape(n, c, h // 2, 2, w // 2, 2).max(axis=(3, 5))

    class FrozenReLU(ms.nn.Cell):              # ReLU's values, but no gradient flows back through it
        def construct(self, t):
            return ms.ops.stop_gradient(ms.ops.relu(t))

    class Rescaled(ms.nn.Cell):                # t * 0.1 * 10: t again, up to float32 rounding
        def construct(self, t):
            return t * 0.1 * 10.0

    class Identity(ms.nn.Cell):
        def construct(self, t):
            return t

    class Shifted(ms.nn.Cell):                 # other outputs, the same gradient as t
        def construct(self, t):
            return t + 1.0

    return {"nn.MaxPool2d(2, 2)": ms.nn.MaxPool2d(2, 2), "reshape + max": MaxPoolReshape(),
            "nn.AvgPool2d(2, 2)": ms.nn.AvgPool2d(2, 2), "nn.ReLU()": ms.nn.ReLU(),
            "stop_gradient(relu(t))": FrozenReLU(), "t * 0.1 * 10": Rescaled(), "t": Identity(),
            "t + 1": Shifted()}


#: (cell a, cell b, the same function?, what the pair is about)
_PAIRS = [
    ("nn.MaxPool2d(2, 2)", "reshape + max", True, N_("two formulations of the same pooling")),
    ("nn.MaxPool2d(2, 2)", "nn.AvgPool2d(2, 2)", False, N_("another pooling: other outputs")),
    ("nn.ReLU()", "stop_gradient(relu(t))", False, N_("the same outputs, but no gradient flows back")),
    ("t", "t * 0.1 * 10", True, N_("the same up to float32 rounding")),
    ("t", "t + 1", False, N_("the same gradient, but other outputs")),
]


def _input():
    import mindspore as ms
    import numpy as np

    return ms.Tensor(np.random.default_rng(0).standard_normal((2, 3, 8, 8)).astype(np.float32))


class SameFunction(Exercise):
    names = ("same_function",)
    title = "the same outputs and the same gradients"
    hint_text = ("Compute both outputs with cell(x) and compare them with np.allclose(..., atol=atol). Then the "
                 "gradient with respect to x: ms.grad(cell)(x) (for an output with many elements the backward pass "
                 "starts from ones, i.e. the gradient of the output's sum). Return True only if the outputs AND the "
                 "gradients agree.")
    solution_text = '''
        def same_function(cell_a, cell_b, x, atol=1e-6):
            if not np.allclose(cell_a(x).asnumpy(), cell_b(x).asnumpy(), atol=atol):
                return False                # other outputs
            grad_a = ms.grad(cell_a)(x)     # d sum(output) / d input: backward from ones
            grad_b = ms.grad(cell_b)(x)
            return bool(np.allclose(grad_a.asnumpy(), grad_b.asnumpy(), atol=atol))
    '''

    def reference(self):
        import mindspore as ms
        import numpy as np

        def same_function(cell_a, cell_b, x, atol=1e-6):
            if not np.allclose(cell_a(x).asnumpy(), cell_b(x).asnumpy(), atol=atol):
                return False
            grad_a = ms.grad(cell_a)(x)
            grad_b = ms.grad(cell_b)(x)
            return bool(np.allclose(grad_a.asnumpy(), grad_b.asnumpy(), atol=atol))

        return (same_function,)

    def _check(self, same_function):
        if not callable(same_function):
            raise Incorrect(tr("same_function should be a function of two Cells and an input, got {type}.",
                               type=type(same_function).__name__))
        cells, x = _cells(), _input()
        for a, b, expected, about in _PAIRS:
            got = self.call(same_function, cells[a], cells[b], x)
            if not isinstance(got, bool) and type(got).__name__ != "bool_":
                raise Incorrect(tr("same_function({a}, {b}, x) returned {got!r}; return True or False.",
                                   a=a, b=b, got=got))
            if bool(got) != expected:
                why = ""
                if expected is False and b == "stop_gradient(relu(t))":
                    why = tr(" Their outputs are equal; compare the gradients with respect to x too "
                             "(ms.grad): a rewrite that trains differently is not the same layer.")
                elif expected is False and b == "t + 1":
                    why = tr(" Their gradients are equal; compare the outputs too.")
                elif expected is True and b == "t * 0.1 * 10":
                    why = tr(" The two differ by float32 rounding only: compare within atol (np.allclose), not "
                             "bit for bit.")
                raise Incorrect(tr("same_function({a}, {b}, x) ({about}): expected {expected}, got {got}.{why}",
                                   a=a, b=b, about=tr(about), expected=expected, got=bool(got), why=why))


# ----------------------------------------------------------------------------------------------
# q2: what the pipeline does to the step
# ----------------------------------------------------------------------------------------------

NO_COST, COSTS, BOTTLENECK = "tie", "costs", "bottleneck"


class PipelineVerdict(Exercise):
    names = ("pipeline_verdict",)
    title = "what the pipeline does to the step"
    hint_text = ("First the tie rule: the pipeline costs the step something only if the step on in-memory batches "
                 "is faster than the fed step by more than noise_pct percent (bench.faster_beyond). If it does not, "
                 "answer 'tie'. If it does, look at the pipeline alone: fewer batches per second "
                 "than the step runs on in-memory batches means 'bottleneck', otherwise 'costs'.")
    solution_text = '''
        def pipeline_verdict(in_memory, fed, alone, noise_pct):
            if not bench.faster_beyond(in_memory, fed, noise_pct):
                return "tie"            # within the noise floor: no measurable cost
            if alone < in_memory:
                return "bottleneck"     # it cannot deliver what the step consumes
            return "costs"              # it keeps up, but its threads share the cores with the step
    '''

    #: (in-memory steps/s, fed steps/s, pipeline alone batches/s, noise %, verdict)
    CASES = [(100.0, 96.0, 600.0, 5.0, NO_COST), (100.0, 80.0, 600.0, 5.0, COSTS), (100.0, 45.0, 50.0, 5.0, BOTTLENECK),
             (100.0, 80.0, 600.0, 30.0, NO_COST), (100.0, 97.0, 98.0, 5.0, NO_COST)]

    def reference(self):
        from course_utils.bench import faster_beyond   # the lab's one tie rule

        def pipeline_verdict(in_memory, fed, alone, noise_pct):
            if not faster_beyond(in_memory, fed, noise_pct):
                return NO_COST
            return BOTTLENECK if alone < in_memory else COSTS

        return (pipeline_verdict,)

    def _check(self, pipeline_verdict):
        if not callable(pipeline_verdict):
            raise Incorrect(tr("pipeline_verdict should be a function, got {type}.",
                               type=type(pipeline_verdict).__name__))
        answers = (NO_COST, COSTS, BOTTLENECK)
        for mem, fed, alone, noise, expected in self.CASES:
            got = self.call(pipeline_verdict, mem, fed, alone, noise)
            if got not in answers:
                raise Incorrect(tr("pipeline_verdict(...) returned {got!r}; return one of {answers}.", got=got,
                                   answers=runtime.listing(repr(a) for a in answers)))
            if got != expected:
                what = tr("step {mem:g} steps/s on in-memory batches, {fed:g} fed by the pipeline, the pipeline alone "
                          "{alone:g} batches/s, noise floor {noise:g}%", mem=mem, fed=fed, alone=alone, noise=noise)
                why = ""
                if expected == NO_COST:
                    why = tr(" The fed step is within the noise floor of the in-memory one: a tie, whatever the "
                             "pipeline's own rate.")
                elif expected == COSTS:
                    why = tr(" The pipeline alone delivers more batches than the step consumes: it keeps up, so it "
                             "is not the bottleneck, yet feeding the step costs it part of its rate.")
                elif expected == BOTTLENECK:
                    why = tr(" The pipeline alone delivers fewer batches per second than the step consumes.")
                raise Incorrect(tr("{what}: expected {expected!r}, got {got!r}.{why}", what=what,
                                   expected=expected, got=got, why=why))


q1 = SameFunction()
q2 = PipelineVerdict()
register(globals(), "08")
