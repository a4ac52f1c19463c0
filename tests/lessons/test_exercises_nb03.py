"""Notebook 03's exercise checks accept the reference and the shown solutions, and reject the typical mistakes
(a clipping bound from the maximum, a mean or the whole log, summed accumulation, a clashing buffer prefix, clipping
before unscaling, per-tensor clipping, ...) with the right message."""

import functools

import numpy as np
import pytest

from support import PYNATIVE_FAST_GRAPH_SLOW
from course_utils.exercises import Outcome, ____, nb03
from test_exercises_nb02 import assert_incorrect, from_source


# ---- q1: a clipping bound from a log of gradient norms ----

def bound_rule(expression: str, name: str):
    """``choose_clip_norm`` returning ``expression`` (of ``norms``), defined in a file of its own like a notebook
    cell, with NumPy as ``np``."""
    rule = from_source(f"def choose_clip_norm(norms):\n    return {expression}\n", "choose_clip_norm", name)
    rule.__globals__["np"] = np
    return rule


def test_q1_accepts_reference_and_solution():
    assert nb03.q1.check(*nb03.q1.reference()) == Outcome.CORRECT
    solution = from_source(nb03.q1.solution_text, "choose_clip_norm", "<nb03-q1-solution>")
    solution.__globals__["np"] = np
    assert nb03.q1.check(solution) == Outcome.CORRECT
    # other sound rules pass too: another recent window, another margin, an upper quartile
    for expression in ("1.3 * float(np.median(norms[-50:]))", "1.8 * float(np.median(norms[-10:]))",
                       "1.3 * float(np.percentile(norms[-30:], 75))"):
        assert nb03.q1.check(bound_rule(expression, "<nb03-q1-other-rule>")) == Outcome.CORRECT, expression


LOG_1 = "log 1 (300 steps; ordinary norms fall from about 0.02 to 0.002; 12 spikes in bursts"

#: q1's typical wrong rules: (expression, fragments of the message)
WRONG_Q1 = {
    "max": ("max(norms)", (LOG_1, "step 81 (your rule given steps 0 to 80)", "lets a spike of 0.06251 through")),
    # the hint's own warnings: a mean jumps with a burst, the whole log lags behind the drift, too wide a margin
    "mean-recent": ("1.5 * float(np.mean(norms[-20:]))", ("step 82", "lets a spike of 0.02662 through")),
    "median-whole-log": ("1.5 * float(np.median(norms))", ("step 153", "the ordinary norm there is about 0.00616")),
    "mean-whole-log": ("1.5 * float(np.mean(norms))", ("step 153", "lets a spike")),
    "wide-margin": ("2.9 * float(np.median(norms[-20:]))", ("step 82", "lets a spike of 0.02662 through")),
    "no-margin": ("float(np.median(norms[-20:]))", ("clip 45 of the 268 ordinary steps (16.8%)", "at most 2%",
                                                    "smaller learning rate")),
    "mean-3-std": ("float(np.mean(norms[-20:]) + 3 * np.std(norms[-20:]))", ("lets a spike",)),
    "constant": ("1.0", (LOG_1, "the bound 1 lets a spike")),
    "negative": ("-float(np.median(norms))", ("step 20 (your rule given steps 0 to 19)", "returned -0.01874",
                                              "positive, finite bound")),
    "text": ("'1.5 x median'", ("returned '1.5 x median'", "one positive number")),
}


@pytest.mark.parametrize("name", sorted(WRONG_Q1))
def test_q1_rejects_typical_mistakes(name):
    expression, fragments = WRONG_Q1[name]
    assert_incorrect(nb03.q1.check(bound_rule(expression, f"<nb03-q1-{name}>")), *fragments)


def test_q1_not_attempted():
    assert nb03.q1.check(____) == Outcome.NOT_ATTEMPTED
    assert nb03.q1.check(lambda norms: ____) == Outcome.NOT_ATTEMPTED


# ---- q2: accumulation ----

def test_q2_accepts_reference_and_solution():
    assert nb03.q2.check(*nb03.q2.reference()) == Outcome.CORRECT
    solution = from_source(nb03.q2.solution_text, "build_accumulating_step", "<nb03-q2-solution>")
    assert nb03.q2.check(solution) == Outcome.CORRECT


@pytest.mark.slow
@pytest.mark.parametrize("name, fragments", [
    ("q2-summed", ("4 times too large",)),
    ("q2-accum-prefix", ("RuntimeError", "already exists")),
    ("q2-updates-every-call", ("got changed weights after call 1",)),
    ("q2-never-zeroed", ("also contains the first window",)),
    ("q2-overwrites", ("only the last micro-batch",)),
], ids=["summed", "accum-prefix", "updates-every-call", "never-zeroed", "overwrites"])
def test_q2_rejects_typical_mistakes(name, fragments):
    assert_incorrect(checked(name), *fragments)


def test_q2_not_attempted():
    assert nb03.q2.check(____) == Outcome.NOT_ATTEMPTED


def test_q2_and_q3_refuse_the_course_step_borrowed():
    """make_train_step(accumulate=k) makes q2's updates, so the check refuses it however it is called: a TrainStep
    returned, or a builder whose source uses make_train_step (wrapped in a function of its own). In q3 it cannot
    even make the updates (it has no loss scale: the NaN batch moves the weights)."""
    from course_utils.training import make_train_step

    def build_accumulating_step(net, loss_fn, optimizer, k):
        return make_train_step(net, loss_fn, optimizer, accumulate=k)

    def wrapped(net, loss_fn, optimizer, k):
        inner = make_train_step(net, loss_fn, optimizer, accumulate=k)
        return lambda data, label: inner(data, label)

    for builder in (build_accumulating_step, wrapped):
        assert_incorrect(nb03.q2.check(builder), "the weights are right", "make_train_step", "written out",
                         "section 2")

    def build_scaled_step(net, loss_fn, optimizer, scaler, clip_norm):
        return make_train_step(net, loss_fn, optimizer, clip_norm=clip_norm)

    assert_incorrect(nb03.q3.check(build_scaled_step), "NaN feature")
    assert nb03.q2.check(*nb03.q2.reference()) == Outcome.CORRECT   # the written-out reference still passes


def solution_with(exercise, function: str, replacements, name: str):
    """``function`` from ``exercise``'s shown solution with ``replacements`` (old, new) applied: a typical wrong
    answer (each old must be in the solution, so the test stays honest)."""
    source = exercise.solution_text
    for old, new in replacements:
        assert old in source, old
        source = source.replace(old, new)
    return from_source(source, function, name)


def accumulating(*replacements, name):
    return solution_with(nb03.q2, "build_accumulating_step", replacements, name)


#: Typical wrong answers, by name: (exercise, a function building the answer), each checked once (``checked``).
WRONG = {
    "q2-summed": (nb03.q2, lambda: accumulating(("grad / k", "grad"), name="<nb03-q2-summed>")),
    "q2-accum-prefix": (nb03.q2, lambda: accumulating(('prefix="grad_accum"', 'prefix="accum"'),
                                                      name="<nb03-q2-prefix>")),
    "q2-updates-every-call": (nb03.q2, lambda: accumulating(('if calls["n"] % k == 0:', "if True:"),
                                                            name="<nb03-q2-every-call>")),
    "q2-never-zeroed": (nb03.q2, lambda: accumulating(
        ("done = ops.depend(done, ops.assign(buf, ops.depend(ops.zeros_like(buf), done)))", "pass"),
        name="<nb03-q2-never-zeroed>")),
    "q2-overwrites": (nb03.q2, lambda: accumulating(("ops.assign_add(buf, grad / k)", "ops.assign(buf, grad)"),
                                                    name="<nb03-q2-overwrites>")),
}


@functools.lru_cache(maxsize=None)
def checked(name: str):
    """The (English) result of checking the wrong answer ``name`` of WRONG, computed once per session."""
    exercise, build = WRONG[name]
    return exercise.check(build())


FIX_WORDS = ("Write ", "Apply ", "Divide", "Use another", "set the buffers", "Call optimizer", "return the step",
             "clip_by_global_norm", "should ")


@PYNATIVE_FAST_GRAPH_SLOW
@pytest.mark.parametrize("name", ["q2-summed", "q2-accum-prefix"])
def test_messages_report_symptoms_not_fixes(ms_mode, name):
    """Each wrong answer gets expected vs got; the fix is in .hint() and .solution(), not in the message."""
    message = checked(name).message
    assert checked(name) == Outcome.INCORRECT, message
    named = [w for w in FIX_WORDS if w in message]
    assert not named, f"the message names a fix ({named}): {message}"


def test_q1_messages_report_symptoms_not_fixes():
    for name, (expression, _) in WRONG_Q1.items():
        message = nb03.q1.check(bound_rule(expression, f"<nb03-q1-fx-{name}>")).message
        named = [w for w in FIX_WORDS if w in message]
        assert not named, f"the message names a fix ({named}): {message}"


# ---- q3: loss scaling ----

def scaled(*replacements, name):
    """q3's shown solution with ``replacements`` (old, new) applied: a typical wrong answer."""
    return solution_with(nb03.q3, "build_scaled_step", replacements, name)


def test_q3_accepts_reference_and_solution():
    assert nb03.q3.check(*nb03.q3.reference()) == Outcome.CORRECT
    assert nb03.q3.check(scaled(name="<nb03-q3-solution>")) == Outcome.CORRECT


def test_q3_not_attempted():
    assert nb03.q3.check(____) == Outcome.NOT_ATTEMPTED


#: q3's typical wrong answers: (replacements, fragments of the message).
CLIP_LINE = "            grads = tuple(g * factor for g in grads)         # the bound is meant for the true gradients\n"
WRONG_Q3 = {
    "not-unscaled": ([("grads = scaler.unscale(grads)", "grads = grads")], ("1024 times too large",)),
    "clipped-before-unscaling": (
        [(CLIP_LINE, ""), ("grads = scaler.unscale(grads)",
                           "grads = scaler.unscale(ops.clip_by_global_norm(grads, clip_norm))")],
        ("with clip_norm=0.05 and the scale 1024", "1024 times too short", "still carried the scale")),
    "not-clipped": ([(CLIP_LINE, "")], ("with clip_norm=0.05", "not clipped", "> clip_norm 0.05")),
    "per-tensor": ([(CLIP_LINE, "            grads = tuple([ops.clip_by_norm(g, clip_norm) for g in grads])\n")],
                   ("each gradient tensor clipped on its own",)),
    "always-updates": ([("if finite:", "if True:")], ("NaN feature", "weights that changed")),
    "no-adjust": ([("ops.depend(loss, scaler.adjust(finite))", "loss")], ("the scale is 1024; expected 512",)),
    "scaled-loss": ([("(_, loss), grads", "(loss, _), grads")], ("expected the true (unscaled) loss",)),
}



# ---- q4: parameter groups ----

def test_q4_accepts_reference_and_solution_and_sees_the_placeholder():
    solution = from_source(nb03.q4.solution_text, "build_param_groups", "<nb03-q4-solution>")
    assert [nb03.q4.check(answer) for answer in (*nb03.q4.reference(), solution)] == [Outcome.CORRECT] * 2
    assert [nb03.q4.check(answer) for answer in (____, lambda net, backbone, weight_decay, backbone_lr: ____)] == \
        [Outcome.NOT_ATTEMPTED] * 2


def grouped(*replacements, name):
    """q4's shown solution with ``replacements`` (old, new) applied: a typical wrong answer."""
    return solution_with(nb03.q4, "build_param_groups", replacements, name)


#: q4's typical wrong answers: (replacements, fragments of the message).
LR_MESSAGE = "nn.Adam (lr=0.1) built from your groups, one call with gradients of ones"
WRONG_Q4 = {
    # a rule by name: "bias" not in the name decays BatchNorm's and LayerNorm's gamma and beta
    "by-name": ([("p.ndim > 1]", '"bias" not in p.name]'), ("p.ndim <= 1]", '"bias" in p.name]')],
                ("weight decay reached backbone.1.gamma, backbone.1.beta, backbone.4.gamma, backbone.4.beta",)),
    "all-decayed": ([('"weight_decay": 0.0', '"weight_decay": weight_decay')],
                    ("weight decay reached backbone.1.gamma, backbone.1.beta, backbone.3.bias",)),
    "get-parameters": ([("params = net.trainable_params()", "params = list(net.get_parameters())")],
                       ("backbone.0.weight, backbone.0.bias, backbone.1.moving_mean, backbone.1.moving_variance, "
                        "which are not trainable",)),
    "no-order": ([(' + [{"order_params": params}]', "")],
                 ("holds the parameters in the order backbone.3.weight, backbone.1.gamma", "another parameter")),
    "fixed-decay": ([('"weight_decay": weight_decay,', '"weight_decay": 0.1,')],
                    ("shrink by its lr * weight_decay (backbone.3.weight 0.0005, head.weight 0.005); got "
                     "backbone.3.weight 0.001, head.weight 0.01",)),
    "biases-left-out": ([('        groups.append({"params": [p for p in part if p.ndim <= 1], "weight_decay": 0.0, '
                          '**own_lr})\n', ""),
                         ('{"order_params": params}', '{"order_params": [p for p in params if p.ndim > 1]}')],
                        ("in no group", "backbone.1.gamma, backbone.1.beta, backbone.3.bias")),
    "twice": ([("p.ndim <= 1]", "True]")], ("in more than one group: backbone.3.weight, head.weight",)),
    # the learning rates: none for the backbone, the backbone's for everything, only on the decayed group
    "no-backbone-lr": ([('{"lr": backbone_lr}', "{}")], (LR_MESSAGE, "Expected 0.01 for the backbone's",
                                                         "got backbone.1.gamma 0.1")),
    "backbone-lr-everywhere": ([("not in in_backbone], {})", 'not in in_backbone], {"lr": backbone_lr})')],
                               (LR_MESSAGE, "got head.weight 0.01, head.bias 0.01")),
    "lr-on-matrices-only": ([('"weight_decay": 0.0, **own_lr}', '"weight_decay": 0.0}')],
                            (LR_MESSAGE, "got backbone.1.gamma 0.1, backbone.1.beta 0.1, backbone.3.bias 0.1")),
}


#: q3's and q4's wrong answers are their shown solution with replacements: (exercise, its function, WRONG_Qn).
EDITED_SOLUTIONS = {"q3": (nb03.q3, "build_scaled_step", WRONG_Q3), "q4": (nb03.q4, "build_param_groups", WRONG_Q4)}


@PYNATIVE_FAST_GRAPH_SLOW
@pytest.mark.parametrize("q, name", [(q, name) for q, (_, _, wrong) in EDITED_SOLUTIONS.items()
                                     for name in sorted(wrong)])
def test_q3_and_q4_reject_typical_mistakes(ms_mode, q, name):
    exercise, function, wrong = EDITED_SOLUTIONS[q]
    replacements, fragments = wrong[name]
    answer = solution_with(exercise, function, replacements, f"<nb03-{q}-{name}>")
    assert_incorrect(exercise.check(answer), *fragments)


def test_q4_checks_the_network_it_describes():
    """The check's network is what its docstring and messages say: a backbone with a frozen first layer, BatchNorm
    and LayerNorm, and a head."""
    net = nb03.q4.network()
    assert [p.name for p in net.trainable_params()] == ["backbone.1.gamma", "backbone.1.beta", "backbone.3.weight",
                                                          "backbone.3.bias", "backbone.4.gamma", "backbone.4.beta",
                                                          "head.weight", "head.bias"]
    assert [p.name for p in net.backbone.trainable_params()] == [p.name for p in net.trainable_params()][:6]
