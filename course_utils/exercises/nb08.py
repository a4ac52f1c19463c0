"""Exercises of notebook 08 (finding and fixing bottlenecks).

q1 ``same_function``: prove a rewrite equal before timing it: the same outputs *and* the same input gradients,
   within float32 rounding; the notebook then applies it to part 3's pooling layers.
q2 ``pipeline_verdict``: what the input pipeline does to the step it feeds, from per-round ratios: first the paired
   verdict read with the A/A' control ("not separated": 1.00 inside, or the near end within the copies' gap, as part
   4 prints it; "recheck": faster fed than in memory, the machine changed), then, for a cost,
   "costs" (it keeps up) or "bottleneck"; the notebook then applies it to part 4's measurements.
q3 ``slower_ops``: read two profiles (``bench.profile.op_type_times`` rows): which operator types take more time per
   step in the second, judged by time per step (not by share, not by totals over different numbers of steps), above
   a size worth judging; the notebook then applies it to part 3's two profiles (without and with the ISA cap).
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

NO_COST, COSTS, BOTTLENECK, RECHECK = "not separated", "costs", "bottleneck", "recheck"   # the words part 4 prints


class PipelineVerdict(Exercise):
    names = ("pipeline_verdict",)
    title = "what the pipeline does to the step"
    hint_text = ("First the paired verdict: the per-round ratios (fed rate over in-memory rate) span an interval from "
                 "the lowest to the highest. If 1.0 lies inside it (min(ratios) <= 1 <= max(ratios)), answer "
                 "'not separated'. Then the control: the copies' gap is max(max(copies), 1 / min(copies)), how far "
                 "two passes of one configuration came apart; if the interval's near end (max(ratios) below 1.0, "
                 "min(ratios) above) is no farther from 1.0 than that gap (1 / max(ratios) <= gap, or min(ratios) "
                 "<= gap), answer 'not separated' too. If every ratio is above 1.0 beyond the gap, answer 'recheck' "
                 "(feeding cannot speed a step up: the machine changed, so time again). Only when every ratio is "
                 "below 1.0 beyond the gap does the pipeline cost the step something; then look at the pipeline "
                 "alone: fewer batches per second than the step runs on in-memory batches means 'bottleneck', "
                 "otherwise 'costs'.")
    solution_text = '''
        def pipeline_verdict(ratios, in_memory, alone, copies):
            lo, hi = min(ratios), max(ratios)
            gap = max(max(copies), 1 / min(copies))   # how far apart two copies of one pass came
            if lo <= 1 <= hi:
                return "not separated"  # 1.00 inside the paired interval: no cost detected
            if (1 / hi if hi < 1 else lo) <= gap:
                return "not separated"  # the near end within the copies' gap: the control shows as much
            if lo > 1:
                return "recheck"        # faster in every round: the machine changed; time again
            if alone < in_memory:
                return "bottleneck"     # it cannot deliver what the step consumes
            return "costs"              # it keeps up, yet the fed step is slower in every round
    '''

    #: (per-round ratios fed / in-memory, in-memory steps/s, pipeline alone batches/s, per-round ratios A' / A,
    #: verdict)
    CASES = [([0.97, 1.02, 0.95, 1.01, 0.99], 100.0, 600.0, [1.00, 0.99, 1.01, 1.00, 1.00], NO_COST),
             ([0.80, 0.78, 0.83, 0.79, 0.85], 100.0, 600.0, [1.00, 0.99, 1.01, 1.00, 1.00], COSTS),
             ([0.45, 0.47, 0.44, 0.46, 0.45], 100.0, 50.0, [1.00, 0.99, 1.01, 1.00, 1.00], BOTTLENECK),
             ([0.90, 0.95, 1.01, 0.93, 0.92], 100.0, 600.0, [1.00, 0.99, 1.01, 1.00, 1.00], NO_COST),
             ([1.05, 1.08, 1.03, 1.10, 1.04], 100.0, 600.0, [1.00, 0.99, 1.01, 1.00, 1.00], RECHECK),
             ([0.97, 0.98, 0.99, 0.96, 0.97], 100.0, 600.0, [1.02, 0.97, 1.05, 0.99, 1.03], NO_COST),
             ([0.93, 0.95, 0.96, 0.94, 0.95], 100.0, 600.0, [1.00, 0.99, 1.01, 1.00, 1.00], COSTS),
             ([0.80, 0.78, 0.83, 0.79, 0.85], 100.0, 600.0, [0.85, 1.10, 0.92, 1.21, 1.02], NO_COST)]

    def reference(self):
        def pipeline_verdict(ratios, in_memory, alone, copies):
            lo, hi = min(ratios), max(ratios)     # five rounds: the interval is the lowest to the highest ratio
            gap = max(max(copies), 1 / min(copies))   # the A/A' control's distance from 1.00, on the ratio scale
            if lo <= 1 <= hi:   # the lab's paired rule (bench.interval_side)
                return NO_COST
            if (1 / hi if hi < 1 else lo) <= gap:   # the near end within the copies' gap (common.within_copies)
                return NO_COST
            if lo > 1:
                return RECHECK
            return BOTTLENECK if alone < in_memory else COSTS

        return (pipeline_verdict,)

    def _check(self, pipeline_verdict):
        if not callable(pipeline_verdict):
            raise Incorrect(tr("pipeline_verdict should be a function, got {type}.",
                               type=type(pipeline_verdict).__name__))
        answers = (NO_COST, COSTS, BOTTLENECK, RECHECK)
        for ratios, mem, alone, copies, expected in self.CASES:
            got = self.call(pipeline_verdict, list(ratios), mem, alone, list(copies))
            if got not in answers:
                raise Incorrect(tr("pipeline_verdict(...) returned {got!r}; return one of {answers}.", got=got,
                                   answers=runtime.listing(repr(a) for a in answers)))
            if got != expected:
                what = tr("per-round ratios {ratios}, the step {mem:g} steps/s on in-memory batches, the pipeline "
                          "alone {alone:g} batches/s, the copies' ratios {copies}",
                          ratios=", ".join(f"{r:.2f}" for r in ratios), mem=mem, alone=alone,
                          copies=", ".join(f"{r:.2f}" for r in copies))
                why = ""
                if expected == NO_COST and min(ratios) <= 1 <= max(ratios):
                    why = tr(" 1.00 lies between the lowest and the highest ratio: not separated, no cost detected, "
                             "whatever the median and the pipeline's own rate.")
                elif expected == NO_COST:
                    why = tr(" The interval's near end is no farther from 1.00 than the copies came apart "
                             "(max(max(copies), 1 / min(copies))): two passes of one configuration differ that much "
                             "too, so the difference is not separated.")
                elif expected == RECHECK:
                    why = tr(" Every round ran faster fed than in memory: feeding cannot make a step faster, so "
                             "the machine changed; answer 'recheck' (time again), not a cost.")
                elif expected == COSTS:
                    why = tr(" Every ratio is below 1.00, and the pipeline alone delivers more batches than the step "
                             "consumes: it keeps up, so it is not the bottleneck, yet feeding the step costs it part "
                             "of its rate.")
                elif expected == BOTTLENECK:
                    why = tr(" Every ratio is below 1.00, and the pipeline alone delivers fewer batches per second "
                             "than the step consumes.")
                raise Incorrect(tr("{what}: expected {expected!r}, got {got!r}.{why}", what=what,
                                   expected=expected, got=got, why=why))


# ----------------------------------------------------------------------------------------------
# q3: reading two profiles
# ----------------------------------------------------------------------------------------------

def _op(op_type, calls_per_step, mean_ms, steps):
    """One ``op_type_times`` row of a profile that recorded ``steps`` steps (``_profile`` adds ``share_pct``)."""
    calls = calls_per_step * steps
    return {"op_type": op_type, "calls": calls, "calls_per_step": calls_per_step, "total_ms": calls * mean_ms,
            "mean_ms": mean_ms}


def _profile(*rows):
    total = sum(r["total_ms"] for r in rows)
    return sorted(({**r, "share_pct": 100 * r["total_ms"] / total} for r in rows), key=lambda r: -r["total_ms"])


class SlowerOps(Exercise):
    names = ("slower_ops",)
    title = "which operators got slower"
    hint_text = ("An operator type's time per step is mean_ms x calls_per_step. Build {op_type: time per step} for "
                 "each profile; keep the types present in both whose time in `after` is at least min_ms and more "
                 "than factor times their time in `before`; sort them by their time in `after`, largest first. "
                 "Neither share_pct (a share of a total that changed too) nor total_ms (it grows with the number of "
                 "steps recorded) answers the question.")
    solution_text = '''
        def slower_ops(before, after, factor=1.5, min_ms=0.1):
            def per_step(rows):         # op type -> ms per step
                return {r["op_type"]: r["mean_ms"] * r["calls_per_step"] for r in rows}
            old, new = per_step(before), per_step(after)
            slower = [op for op in new if op in old and new[op] >= min_ms and new[op] > factor * old[op]]
            return sorted(slower, key=lambda op: -new[op])
    '''

    #: (before, after, the answer, what the case is about): two profiles of a made-up network
    @staticmethod
    def cases():
        conv_before = [_op("Conv2D", 2, 30.0, 3), _op("MaxPoolGrad", 2, 0.4, 3), _op("MatMul", 9, 0.07, 3)]
        conv_after = [_op("Conv2D", 2, 0.6, 3), _op("MaxPoolGrad", 2, 1.5, 3), _op("MatMul", 9, 0.07, 3)]
        return [
            (_profile(*conv_before), _profile(*conv_after), ["MaxPoolGrad"],
             N_("MaxPoolGrad slowed down; MatMul's share rose only because Conv2D got faster")),
            (_profile(_op("Conv2D", 2, 3.0, 10), _op("MaxPool", 2, 0.5, 10)),
             _profile(_op("Conv2D", 2, 3.0, 3), _op("MaxPool", 2, 0.9, 3)), ["MaxPool"],
             N_("the first profile recorded 10 steps, the second 3")),
            (_profile(_op("Conv2D", 2, 3.0, 3), _op("MatMul", 9, 0.01, 3), _op("Cast", 1, 0.01, 3)),
             _profile(_op("Conv2D", 2, 3.0, 3), _op("MatMul", 9, 0.03, 3), _op("Cast", 1, 0.05, 3)), ["MatMul"],
             N_("MatMul runs 9 times a step; Cast's time is too small to judge")),
            (_profile(_op("Conv2D", 2, 1.0, 3), _op("MaxPool", 2, 0.3, 3), _op("MaxPoolGrad", 2, 0.4, 3)),
             _profile(_op("Conv2D", 2, 2.5, 3), _op("MaxPoolGrad", 2, 0.9, 3), _op("ReLU", 2, 0.5, 3)),
             ["Conv2D", "MaxPoolGrad"],
             N_("two slower operators, largest first; ReLU is in the second profile only")),
        ]

    def reference(self):
        def slower_ops(before, after, factor=1.5, min_ms=0.1):
            old = {r["op_type"]: r["mean_ms"] * r["calls_per_step"] for r in before}
            new = {r["op_type"]: r["mean_ms"] * r["calls_per_step"] for r in after}
            slower = [op for op in new if op in old and new[op] >= min_ms and new[op] > factor * old[op]]
            return sorted(slower, key=lambda op: -new[op])

        return (slower_ops,)

    def _check(self, slower_ops):
        if not callable(slower_ops):
            raise Incorrect(tr("slower_ops should be a function of two profiles, got {type}.",
                               type=type(slower_ops).__name__))
        for before, after, expected, about in self.cases():
            got = self.call(slower_ops, [dict(r) for r in before], [dict(r) for r in after])
            if not isinstance(got, (list, tuple)) or not all(isinstance(op, str) for op in got):
                raise Incorrect(tr("slower_ops(...) returned {got!r}; return a list of operator type names.",
                                   got=got))
            got = list(got)
            if got == expected:
                continue
            why = ""
            if sorted(got) == sorted(expected):
                why = tr(" The right operators in the wrong order: sort by time per step in `after`, largest first.")
            elif "MatMul" in got and "MaxPoolGrad" in expected:
                why = tr(" MatMul's time per step did not change; its share rose because Conv2D got faster. "
                         "Compare time per step, not share_pct.")
            elif expected == ["MaxPool"]:
                why = tr(" The two profiles recorded different numbers of steps, so their total_ms cannot be "
                         "compared: use time per step (mean_ms x calls_per_step).")
            elif "Cast" in got:
                why = tr(" Cast takes less than min_ms per step: too little to judge from a few profiled steps.")
            elif "MatMul" in expected and "MatMul" not in got:
                why = tr(" MatMul runs 9 times a step: its time per step is mean_ms x calls_per_step, and that "
                         "is what min_ms applies to.")
            elif "ReLU" in got:
                why = tr(" ReLU is in the second profile only: there is nothing to compare it with.")
            raise Incorrect(tr("slower_ops(before, after) ({about}): expected {expected}, got {got}.{why}",
                               about=tr(about), expected=expected, got=got, why=why))


q1 = SameFunction()
q2 = PipelineVerdict()
q3 = SlowerOps()
register(globals(), "08")
