"""Time to accuracy: training seconds to a test accuracy, course's CPU settings vs MindSpore's defaults.

The training loop is the course's own, ``course_utils.training.fit``; a stop condition (all targets
reached, or the time limit) ends it through its ``stop_when`` hook, which ``fit`` calls after every
evaluation.
"""

from __future__ import annotations

from typing import Optional

from course_utils import runtime
from course_utils.fmt import display_width, plain_figures, text_table
from course_utils.i18n import N_, tr

from ..isolation import run_worker
from ..params import StepRatesParams, TimeToAccuracyParams, TrainParams
from ..report import Result
from ..steps import NAIVE_SPEC, Spec, build_step, lenet_setup
from .common import setup_worker

#: Batches of the MNIST pipeline each step rate of the estimate is measured over (QUICK; full runs: 3x): as many as a
#: pass of part 4 of lesson 08, so that what happens while the pipeline starts does not pass for its steady rate.
FED_BATCHES = 200


class StopWhen:
    """``fit(..., stop_when=StopWhen(targets, time_limit))``: True (stop) once the evaluations have
    reached every target, or training took ``time_limit`` seconds; records when each target fell."""

    def __init__(self, targets, time_limit: float):
        self.pending = sorted(targets)
        self.time_limit = time_limit
        self.reached = {}

    def __call__(self, result) -> bool:
        if result.evals and result.evals[-1]["step"] == result.global_step:   # called right after an evaluation
            last = result.evals[-1]
            while self.pending and last["accuracy"] >= self.pending[0]:
                self.reached[self.pending.pop(0)] = last
        return not self.pending or result.train_seconds >= self.time_limit


def measure_train_to_accuracy(p: TrainParams) -> list:
    """Train LeNet-5 (``p.optimizer``, ``p.lr``, batch ``p.batch_size``) with ``p.spec`` on the MNIST
    pipeline until every target is reached or ``p.time_limit``; one row per target, plus the curve."""
    from course_utils.data import mnist_dataset
    from course_utils.training import fit

    setup_worker(p, Spec.parse(p.spec).mode)
    net, loss_fn, opt = lenet_setup(p.optimizer, p.lr)
    step = build_step(p.spec, net, loss_fn, opt)
    stop = StopWhen(p.targets, p.time_limit)
    test = mnist_dataset("test", batch_size=1000)
    result = fit(step, lambda epoch: mnist_dataset("train", batch_size=p.batch_size, seed=p.seed + epoch),
                 epochs=100, network=net, eval_data=test, eval_every=p.eval_every, stop_when=stop,
                 progress=False)
    curve = [{"step": e["step"], "train_s": e["train_seconds"], "accuracy": e["accuracy"]} for e in result.evals]
    return [{"target": t, "step": (stop.reached.get(t) or {}).get("step"),
             "train_s": (stop.reached.get(t) or {}).get("train_seconds"), "spec": p.spec, "curve": curve,
             "first_call_s": result.first_step_seconds, "steps_per_s": result.steps_per_s} for t in p.targets]


def summarise_train_to_accuracy(rows: list, p: TrainParams) -> Result:
    done = [r for r in rows if r["train_s"] is not None]
    reached = tr(", ").join(tr("{pct:.1f}% after {s:.0f} s", pct=100 * r["target"], s=r["train_s"]) for r in done)
    text = (tr("Reached {reached}.", reached=reached) if done
            else tr("No target reached within {limit:.0f} s.", limit=p.time_limit))

    return Result("train_to_accuracy", rows, ["target", "step", "train_s"], text)


def measure_time_to_accuracy(p: TimeToAccuracyParams) -> list:
    """The course settings train to the targets in a process with the CPU fixes. The naive defaults run
    the same arithmetic, so need the same steps: trained too in full runs when that fits in the time
    limit, otherwise estimated (marked so) from the course-settings run's time and the ratio of the two step rates,
    both measured the way that time was: fed by the MNIST pipeline and timed by ``fit``, each in a fresh
    process with its own environment, so that the input pipeline's share is in both."""
    fixes = runtime.cpu_fix_env(p.device) if p.best_env is None else dict(p.best_env)
    train = dict(p.common(), targets=p.targets, time_limit=p.time_limit)
    best, _ = run_worker("train_to_accuracy", TrainParams(**train, spec=p.best_spec), env=fixes, cwd_temp=True)
    rows = [dict(r, run="best") for r in best["rows"]]
    needed = max((r["step"] or 0) for r in rows)
    if p.device == "CPU" and runtime.cpu_fix_env(p.device):
        rates = {}
        for run, spec, env in (("naive step rate", NAIVE_SPEC, {}), ("best step rate", p.best_spec, fixes)):
            # fed by the pipeline and timed as fit times the training run whose time the ratio scales
            sub = StepRatesParams(**p.common(), specs=(spec,), fed_batches=FED_BATCHES if p.quick else 3 * FED_BATCHES)
            out, _ = run_worker("step_rates", sub, env=env)
            rates[run] = out["rows"][0]["steps_per_s"]
            rows.append({"run": run, "steps_per_s": rates[run], "batches": sub.fed_batches})
        limit = naive_time_limit(needed, rates["naive step rate"], p)
        if limit is None:   # QUICK runs, or a naive run longer than the cap: estimated
            return rows
        train = dict(train, time_limit=limit)
    naive, _ = run_worker("train_to_accuracy", TrainParams(**train, spec=NAIVE_SPEC), env={}, cwd_temp=True)
    return rows + [dict(r, run="naive", time_limit=train["time_limit"]) for r in naive["rows"]]


#: The longest a full run trains the naive defaults (s); a naive run estimated to need longer is estimated only.
NAIVE_LIMIT_CAP = 900.0


def naive_time_limit(needed: int, naive_rate: float, p: TimeToAccuracyParams) -> Optional[float]:
    """The naive run's time limit in a full run, from its own estimate: ``needed`` steps (the course-settings run's)
    at ``naive_rate`` steps/s, widened by the noise floor, times 1.5; at least ``p.time_limit``, at most
    ``NAIVE_LIMIT_CAP``. None (estimate it, do not train it) in QUICK runs, without an estimate, or when even the
    estimate exceeds the cap."""
    if p.quick or not needed or not naive_rate:
        return None
    upper = needed / naive_rate * (1 + p.noise_pct / 100)   # the estimate's upper end, as part 1's floor allows
    if upper > NAIVE_LIMIT_CAP:
        return None
    return min(max(p.time_limit, 1.5 * upper), NAIVE_LIMIT_CAP)


#: How the naive time was obtained: the short word the conclusion says, and what the table's ``naive_how`` says
#: (both shown in the course's language).
HOW = {"measured": (N_("measured"), N_("measured")),
       "estimated": (N_("estimated"), N_("estimated: a range (see below)")),
       "not reached": (N_("not reached"), N_("not reached"))}


def best_env_text(p: TimeToAccuracyParams) -> str:
    """The course-settings run's environment as a sentence shows it."""
    env = runtime.cpu_fix_env(p.device) if p.best_env is None else p.best_env
    return runtime.listing(f"{k}={v}" for k, v in env.items()) or tr("no CPU settings")


def printed(x: float, spec: str = ".1f") -> float:
    """``x`` as the reader sees it printed with ``spec`` (a format spec, or ``"2 figures"``: ``plain_figures``).
    Part 6's one rule for ratios: every ratio it prints (a speed-up, a step-rate ratio) is computed from the figures
    printed beside it, so that the reader who divides two printed figures gets the printed ratio."""
    return float(plain_figures(x) if spec == "2 figures" else format(x, spec))


def widened(rows: list, last: dict) -> Optional[dict]:
    """The naive estimate widened by one evaluation interval either way (the course-settings run crossed the target
    somewhere between its previous evaluation and ``last["best_steps"]``): ``low``, ``high`` (s), ``x_lo``, ``x_hi``
    (from the seconds as printed, ``printed``) and the figures behind them; None without a previous evaluation."""
    curve = next((r["curve"] for r in rows if r["run"] == "best" and r.get("curve")), None)
    steps = last["best_steps"]
    before = [c for c in (curve or []) if c["step"] < steps and c.get("accuracy") is not None]
    if not before or not steps:
        return None
    prev = before[-1]
    every = steps - prev["step"]
    low = last["naive_s"] * (steps - every) / steps
    high = last["naive_s_high"] * (steps + every) / steps
    best = printed(last["best_s"])
    return {"prev": prev, "every": every, "low": low, "high": high, "x_lo": printed(low, ".0f") / best,
            "x_hi": printed(high, ".0f") / best}


def noise_widened(rows: list, last: dict, noise_pct: float) -> Optional[dict]:
    """The estimate's widest range (``widened``'s, else its two ends) widened by ``noise_pct`` either way on the ratio
    scale: the naive step rate is one reading in a fresh process, paired with nothing. ``low``, ``high`` (s), ``x_lo``,
    ``x_hi`` (from the seconds to two figures, as printed); None without a floor."""
    if not noise_pct or last["how"] != "estimated" or not last["best_s"]:
        return None
    w = widened(rows, last) or {"low": last["naive_s"], "high": last["naive_s_high"]}
    f = 1 + noise_pct / 100
    low, high = w["low"] / f, w["high"] * f
    best = printed(last["best_s"])
    return {"low": low, "high": high, "x_lo": printed(low, "2 figures") / best,
            "x_hi": printed(high, "2 figures") / best}


#: The estimate table's column titles (``estimate_table``).
ESTIMATE_COLUMNS = (N_("estimate"), N_("naive s"), N_("speed-up (x)"))


def estimate_lines(rows: list, last: dict, rate: float, best_rate: float, noise_pct: float) -> list:
    """The naive estimate as the rows of one small table, ``[estimate, naive s, speed-up]`` as printed: its two ends,
    each with the arithmetic behind it (*direct*, the steps at the naive step rate; *scaled*, the course-settings run's
    time times the ratio of the two step rates), then the range widened by one evaluation either way (``widened``)
    and, last, by the noise floor either way (``noise_widened``, two significant figures: the widest range, the one
    the lesson leads with); each speed-up the ratio of the printed seconds (``printed``). The widened rows are left
    out where they cannot be computed."""
    best = printed(last["best_s"])
    lines = [[tr("direct: {steps} steps / {naive_rate:.1f} steps/s", steps=last["best_steps"], naive_rate=rate),
              f"{last['naive_s_direct']:.1f}", f"{last['naive_s_direct'] / best:.1f}"],
             [tr("scaled: {best_s:.1f} s x {best_rate:.1f} / {naive_rate:.1f} steps/s", best_s=best,
                 best_rate=best_rate, naive_rate=rate),
              f"{last['naive_s_scaled']:.1f}", f"{last['naive_s_scaled'] / best:.1f}"]]
    w = widened(rows, last)
    if w is not None:   # the step count: the run crossed the target somewhere between two evaluations
        lines.append([tr("{lo_steps}-{hi_steps} steps (one evaluation either way)",
                         lo_steps=last["best_steps"] - w["every"], hi_steps=last["best_steps"] + w["every"]),
                      tr("{lo:.0f}-{hi:.0f}", lo=w["low"], hi=w["high"]),
                      tr("{lo:.1f}-{hi:.1f}", lo=w["x_lo"], hi=w["x_hi"])])
    n = noise_widened(rows, last, noise_pct)
    if n is not None:   # the unpaired naive rate: widened by the noise floor; two significant figures
        lines.append([tr("and part 1's noise floor ({noise:.0f}%) either way", noise=noise_pct),
                      tr("{lo}-{hi}", lo=plain_figures(n["low"]), hi=plain_figures(n["high"])),
                      tr("{lo}-{hi}", lo=plain_figures(n["x_lo"]), hi=plain_figures(n["x_hi"]))])
    return lines


def estimate_table(lines: list) -> str:
    """``estimate_lines`` as a table under its column titles (``ESTIMATE_COLUMNS``)."""
    lines = [[tr(c) for c in ESTIMATE_COLUMNS], *lines]
    widths = [max(display_width(line[i]) for line in lines) for i in range(3)]
    lines.insert(1, ["-" * width for width in widths])
    return text_table(lines, right=(1, 2))


def summarise_time_to_accuracy(rows: list, p: TimeToAccuracyParams) -> Result:
    def of(run, target):
        return next((r for r in rows if r["run"] == run and r["target"] == target), None)

    rate = next((r["steps_per_s"] for r in rows if r["run"] == "naive step rate"), None)
    best_rate = next((r["steps_per_s"] for r in rows if r["run"] == "best step rate"), None)
    table = []
    for t in p.targets:
        b, n = of("best", t), of("naive", t)
        if n is not None:
            n_steps, n_s, how = n["step"], printed(n["train_s"]), "measured"   # as the sentence prints it
        elif rate and best_rate and b["step"]:
            # Two estimates bracket the naive run (from the figures as the conclusion prints them, one decimal, so
            # the reader can redo them): its steps at the naive step rate alone (fit's own overhead left out), and
            # the course-settings run's time scaled by the ratio of the step rates (that overhead taken as
            # proportional).
            n_steps = b["step"]
            direct, scaled = n_steps / round(rate, 1), round(b["train_s"], 1) * round(best_rate, 1) / round(rate, 1)
            direct, scaled = round(direct, 1), round(scaled, 1)   # as the formula line prints them
            n_s, n_s_high, how = min(direct, scaled), max(direct, scaled), "estimated"
        else:
            n_steps, n_s, how = None, None, "not reached"
        if how != "estimated":
            n_s_high = direct = scaled = n_s
        table.append({"config": f"{t:.3f}", "target_pct": 100 * t, "best_steps": b["step"], "best_s": b["train_s"],
                      # an estimate assumes the course-settings run's step count: the table says so
                      "naive_steps": tr("{n} (assumed)", n=n_steps) if how == "estimated" else n_steps,
                      "naive_steps_n": n_steps, "naive_s": n_s, "naive_s_high": n_s_high, "how": how,
                      "naive_s_direct": direct, "naive_s_scaled": scaled,
                      "naive_how": tr(HOW[how][1]),
                      # the ratios of the seconds as printed (``printed``), so that the reader can redo them
                      "speedup": n_s / printed(b["train_s"]) if n_s and b["train_s"] else None,
                      "speedup_high": n_s_high / printed(b["train_s"]) if n_s_high and b["train_s"] else None})
    last = max(table, key=lambda r: r["target_pct"])
    naive_label = (tr("naive defaults") if p.device == "CPU"
                   else tr("{spec} (no CPU fixes exist on {device})", spec=Spec.parse(NAIVE_SPEC).label,
                           device=p.device))
    if last["best_s"] is None:
        text = tr("The {pct:.1f}% target was not reached within the {limit:.0f} s limit; raise time_limit.",
                  pct=last["target_pct"], limit=p.time_limit)
    elif last["naive_s"] is None:
        text = tr("The course settings reached {pct:.1f}% after {s:.0f} s of training; the naive defaults did not "
                  "within the limit.", pct=last["target_pct"], s=last["best_s"])
    elif last["how"] == "estimated":
        lines = estimate_lines(rows, last, rate, best_rate, p.noise_pct)
        # two ends less than 1% apart are one figure: printed once
        one = last["naive_s_high"] <= 1.01 * last["naive_s"]
        two = (tr("about {s:.1f} s", s=(last["naive_s"] + last["naive_s_high"]) / 2) if one else
               tr("{low:.1f}-{high:.1f} s", low=last["naive_s"], high=last["naive_s_high"]))
        # the widest range leads (the steps' uncertainty and the noise floor included); the two methods' follows
        estimate = tr("{s} s", s=lines[-1][1]) if len(lines) > 2 else two
        text = tr("To {pct:.1f}% test accuracy the course settings ({spec}, {env}) needed {best_s:.1f} s of training "
                  "({steps} steps, {fit_rate:.1f} steps/s on fit's clock); assuming the {naive} need as many steps, "
                  "this run estimates them at {estimate} from the two step rates.",
                  pct=last["target_pct"], spec=Spec.parse(p.best_spec).label, env=best_env_text(p),
                  best_s=last["best_s"], steps=last["best_steps"], fit_rate=last["best_steps"] / last["best_s"],
                  naive=naive_label, estimate=estimate)
        x_lo, x_hi = last["speedup"], last["speedup_high"]
        noisy = noise_widened(rows, last, p.noise_pct) is not None
        if x_lo >= 1 and len(lines) > 2:
            text += tr(" The course settings were {x}x faster (the last row of the table below, with the step count's "
                       "uncertainty{noise}); by the two methods alone, {two} and {two_x}x.",
                       x=lines[-1][2], two=two, noise=tr(" and part 1's noise floor") if noisy else "",
                       two_x=f"{(x_lo + x_hi) / 2:.1f}" if one else tr("{lo:.1f}-{hi:.1f}", lo=x_lo, hi=x_hi))
        elif x_lo >= 1:
            text += (tr(" The course settings were {x:.1f}x faster.", x=(x_lo + x_hi) / 2) if one else
                     tr(" The course settings were {lo:.1f}-{hi:.1f}x faster.", lo=x_lo, hi=x_hi))
        elif one:
            text += tr(" The course settings took {x:.1f}x as long: SLOWER, they did not speed training up here.",
                       x=2 / (x_lo + x_hi))
        else:
            text += tr(" The course settings took {lo:.1f}-{hi:.1f}x as long: SLOWER, they did not speed training up "
                       "here.", lo=1 / x_hi, hi=1 / x_lo)
        text += "\n" + estimate_table(lines)   # how, and how uncertain
        if noisy:
            text += "\n" + tr("The last row widens by part 1's noise floor because the naive step rate is one reading "
                              "in a fresh process, paired with nothing.")
    else:
        text = (tr("To {pct:.1f}% test accuracy the course settings ({spec}, {env}) needed {best_s:.1f} s of "
                   "training ({steps} steps) against {naive_s:.1f} s for the {naive} ({how}): ",
                   pct=last["target_pct"], spec=Spec.parse(p.best_spec).label, env=best_env_text(p),
                   best_s=last["best_s"],
                   steps=last["best_steps"], naive_s=last["naive_s"], naive=naive_label, how=tr(HOW[last["how"]][0]))
                + (tr("{x:.1f}x faster.", x=last["speedup"]) if last["speedup"] >= 1 else
                   tr("{x:.1f}x SLOWER: the course settings did not speed training up here.",
                      x=1 / last["speedup"])))
    metrics = {}
    for r in table:
        tag = f"{r['target_pct']:.1f}".replace(".", "_")
        metrics[f"time_to_{tag}_s"] = r["best_s"]
        if r["how"] == "estimated" and r["naive_s_high"] > 1.01 * r["naive_s"]:   # a range: its two ends
            metrics[f"naive_time_to_{tag}_s_low"] = r["naive_s"]
            metrics[f"naive_time_to_{tag}_s_high"] = r["naive_s_high"]
        elif r["how"] == "estimated":   # ends less than 1% apart: one figure
            metrics[f"naive_time_to_{tag}_s_estimate"] = (r["naive_s"] + r["naive_s_high"]) / 2
        else:
            metrics[f"naive_time_to_{tag}_s"] = r["naive_s"]
        w = widened(rows, r) if r["how"] == "estimated" else None
        if w is not None:   # the estimate with the step count's own uncertainty, and the speed-up it gives
            metrics[f"naive_time_to_{tag}_s_wide_low"] = w["low"]
            metrics[f"naive_time_to_{tag}_s_wide_high"] = w["high"]
            metrics[f"speedup_to_{tag}_wide_low"], metrics[f"speedup_to_{tag}_wide_high"] = w["x_lo"], w["x_hi"]
        n = noise_widened(rows, r, p.noise_pct)
        if n is not None:   # and with the noise floor: the range the lesson quotes
            metrics[f"naive_time_to_{tag}_s_noise_low"] = n["low"]
            metrics[f"naive_time_to_{tag}_s_noise_high"] = n["high"]
            metrics[f"speedup_to_{tag}_noise_low"], metrics[f"speedup_to_{tag}_noise_high"] = n["x_lo"], n["x_hi"]
    curves = {run: next((r["curve"] for r in rows if r["run"] == run), None) for run in ("best", "naive")}
    ranges = any(r["how"] == "estimated" for r in table)   # then each estimate's two ends, and both speed-ups
    def span(lo, hi, est):   # an estimate's two ends as "low-high", else one figure (their mean), or None
        return (tr("{lo:.1f}-{hi:.1f}", lo=lo, hi=hi) if est else None if lo is None else f"{(lo + hi) / 2:.1f}")

    for r in table:   # with an estimate, each range in one column: "low-high", the widest (as the sentence leads)
        est = r["how"] == "estimated" and r["naive_s_high"] > 1.01 * r["naive_s"]
        r["naive_s_range"] = span(r["naive_s"], r["naive_s_high"], est)
        r["speedup_range"] = span(r["speedup"], r["speedup_high"], est)
        if r["how"] == "estimated":
            lines = estimate_lines(rows, r, rate, best_rate, p.noise_pct)
            if len(lines) > 2:
                r["naive_s_range"], r["speedup_range"] = lines[-1][1:]
    columns = (["target_pct", "best_steps", "best_s", "naive_steps"]
               + (["naive_s_range", "naive_how", "speedup_range"] if ranges else ["naive_s", "naive_how", "speedup"]))
    return Result("time_to_accuracy", table, columns, text, metrics,
                  extra={"curves": curves, "naive_steps_per_s": rate, "best_steps_per_s": best_rate})
