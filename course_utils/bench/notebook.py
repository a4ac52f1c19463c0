"""What the two performance-lab lessons (07 and 08) share in their set-up cell: printing the code of an experiment
before it runs, running an experiment and keeping its result, launching a script in a fresh process without the
CPU settings, and the bar chart of medians with their min-max.

Plumbing, not measurement: the measuring code is each experiment's ``measure_<name>`` (the lessons print it with
:func:`show`) and the scripts in ``notebooks/scripts/``.
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
import time
from pathlib import Path
from typing import Dict, Mapping, Optional, Sequence

from course_utils.fmt import plain_figures
from course_utils.i18n import N_, tr
from course_utils.i18n.shown import source_of

from .experiments import best_measured, not_ruled_out_pct, run_experiment
from .experiments.common import short_reading, verdict_table
from .experiments.modes import PAIR_LABELS
from .isolation import env_without_cpu_fixes
from .report import METRIC_TITLES, Conditions, Measuring, Result, format_rows, header, metric_title, save_json
from .steps import set_mode

#: A paired ratio's name in a short headline's verdict table (``Lab.headline(short=True)``): part 2's pairs as its
#: own table names them, part 3's likewise.
SHORT_TITLES = {**PAIR_LABELS, "cell_vs_functional": N_("TrainOneStepCell / functional step, no @jit (GRAPH_MODE)"),
                "cell_vs_jit": N_("TrainOneStepCell / @jit functional step")}

__all__ = ["Lab", "rate_bars", "show"]


#: A paired ratio's verdict in the headline table, with the interval it was read from: one interval, or both paired
#: intervals together where the ratio was paired with two copies of its baseline (``<metric>_together``). Check 2's
#: rule, the lesson's one: above 1.00 faster, below 1.00 slower, holding 1.00 a tie. A medians' verdict stored beside
#: it (``<metric>_medians``) follows it, and the A/A' control's interval when it left out 1.00
#: (``<metric>_control_low``/``_high``, never a row of its own).
PAIRED_VERDICTS = {"above": N_("the two paired intervals together {lo:.2f}-{hi:.2f}, above 1.00: faster"),
                   "below": N_("the two paired intervals together {lo:.2f}-{hi:.2f}, below 1.00: slower"),
                   "inside": N_("1.00 inside the two paired intervals together, {lo:.2f}-{hi:.2f}: a tie")}
PAIRED_VERDICT = {"above": N_("95% paired interval {lo:.2f}-{hi:.2f}, above 1.00: faster"),
                  "below": N_("95% paired interval {lo:.2f}-{hi:.2f}, below 1.00: slower"),
                  "inside": N_("95% paired interval {lo:.2f}-{hi:.2f}, 1.00 inside: a tie")}
#: The same where the interval is just the lowest to the highest paired ratio (few rounds: ``<metric>_span``)
PAIRED_SPAN = {"above": N_("lowest-highest paired ratio {lo:.2f}-{hi:.2f}, above 1.00: faster"),
               "below": N_("lowest-highest paired ratio {lo:.2f}-{hi:.2f}, below 1.00: slower"),
               "inside": N_("lowest-highest paired ratio {lo:.2f}-{hi:.2f}, 1.00 inside: a tie")}
#: Lesson 07's reading of an interval that holds 1.00 (``headline(..., bound=True)``): not separated, and the largest
#: difference it does not rule out (``experiments.not_ruled_out_pct``).
PAIRED_NOT_SEPARATED = {
    "together": N_("the two paired intervals together {lo:.2f}-{hi:.2f}, 1.00 inside: not separated; differences up "
                   "to {pct:.0f}% not ruled out"),
    "one": N_("95% paired interval {lo:.2f}-{hi:.2f}, 1.00 inside: not separated; differences up to {pct:.0f}% not "
              "ruled out"),
    "span": N_("lowest-highest paired ratio {lo:.2f}-{hi:.2f}, 1.00 inside: not separated; differences up to "
               "{pct:.0f}% not ruled out")}
#: The medians' verdict (the lab's two rules) after a paired one.
MEDIANS_VERDICTS = {"tie": N_("medians: a tie"), "undecided": N_("medians: undecided"),
                    "faster": N_("medians: faster"), "slower": N_("medians: slower")}


def show(code, folded: bool = False) -> None:
    """Print the measuring code itself: a function's (or class's) source, its docstrings and comments in the
    course's language (``course_utils.i18n.shown``), or a script file's text (the Chinese edition's lessons pass
    their own ``scripts/``, already translated). ``folded``: in a notebook, a closed ``<details>`` block the reader
    opens on purpose (the same text as plain text for any other front end): for listings that back a measurement
    rather than teach it."""
    text = Path(code).read_text(encoding="utf-8") if isinstance(code, (str, Path)) else source_of(code)
    if folded:
        try:
            from IPython import get_ipython
            from IPython.display import display
        except ImportError:
            get_ipython = None
        if get_ipython is not None and get_ipython() is not None:
            import html

            name = getattr(code, "__qualname__", Path(str(code)).name)
            summary = tr("The code of {name} ({lines} lines): click to open", name=name,
                         lines=len(text.rstrip().splitlines()))
            display({"text/plain": text.rstrip("\n"), "text/html": f"<details><summary>{html.escape(summary)}"
                     f"</summary><pre>{html.escape(text.rstrip())}</pre></details>"}, raw=True)
            return
    print(text)


class Lab:
    """One lesson's lab run: where its files go (``run_dir``), the kernel's mode, and the results so far."""

    def __init__(self, run_dir, mode: str):
        self.run_dir = Path(run_dir)
        self.run_dir.mkdir(parents=True, exist_ok=True)
        self.mode = mode
        self.results: Dict[str, Result] = {}   # experiment name -> its Result
        self.blocks: Dict[str, Conditions] = {}   # a block timed in the kernel outside run() -> its conditions

    def run(self, name: str, params, in_kernel: bool = True, max_rows: Optional[int] = None,
            key: Optional[str] = None, table: bool = True, env: Optional[Mapping[str, str]] = None,
            label: Optional[str] = None) -> Result:
        """Measure (in this kernel, or in the processes the experiment launches), summarise, print the table and
        its conclusion. Every row goes to ``run_dir/<name>.json``; the screen shows ``max_rows`` of them (the largest
        ``key`` first), or none (``table=False``: a later cell shows them). The kernel's mode comes back afterwards
        (experiments switch modes).
        ``env``: measure in a fresh process with exactly these settings instead (nothing of the CPU settings but
        ``env``); the result is kept, and saved, under ``label`` (default ``name``)."""
        res = run_experiment(name, params, isolate=not in_kernel or env is not None, env=env)
        set_mode(self.mode)
        name = label or name
        self.results[name] = res
        saved = self.run_dir / f"{name}.json"
        save_json([res], saved)
        print(res.report(max_rows, key, saved, table=table))
        return res

    @contextlib.contextmanager
    def measuring(self, name: str):
        """``with lab.measuring(name) as m:``: ``Measuring`` around a block timed in this kernel outside ``run``, its
        conditions kept under ``name`` so that ``headline``'s busy-machine warning counts it as an experiment."""
        with Measuring() as m:
            yield m
        self.blocks[name] = m.conditions

    def launch(self, script, args: Sequence, env: Mapping[str, str], timeout: float = 1800) -> str:
        """Run ``script`` in a fresh process whose environment is this one's without the CPU settings, plus ``env``;
        return what it printed. A failure raises with the last lines of its error output."""
        proc = subprocess.run([sys.executable, str(script), *map(str, args)], env=env_without_cpu_fixes(env),
                              capture_output=True, text=True, timeout=timeout)
        if proc.returncode != 0:
            raise RuntimeError(tr("{script} failed (environment {env}):", script=script, env=dict(env)) + "\n"
                               + "\n".join(proc.stderr.strip().splitlines()[-10:]))
        return proc.stdout


    def headline(self, experiments: Sequence[str], noise_pct: Optional[float], started: float,
                 titles: Optional[Mapping[str, str]] = None, parts: Optional[Mapping[str, str]] = None,
                 best: bool = True, bound: bool = False, short: bool = False,
                 claims: Optional[Sequence[str]] = None, hide: Sequence[str] = ()) -> dict:
        """Print the lesson's headline figures: the highest step rate measured (a figure, not a winner), the numeric
        metrics of ``experiments``, the noise floor (``noise_pct``, if not None) and the lesson's run time (since
        ``started``, a ``time.perf_counter()``), with a warning if any experiment ran on a busy machine. Returns them
        as a dict (for ``record()``). ``titles``: a figure's label in this lesson's words, instead of its usual one;
        ``parts``: what the lesson calls an experiment ("part 2"), instead of its name. ``best=False``: without the
        highest step rate (a lesson whose experiments already name their fastest configuration, paired).
        ``bound=True``: an interval that holds 1.00 reads "not separated" with the largest difference it does not rule
        out (lesson 07's reading), instead of "a tie". ``short=True`` (lesson 07): the paired ratios as one verdict
        table (``verdict_table``: comparison | ratio | 95% interval | verdict, each named by its experiment's part and
        ``SHORT_TITLES``), the other figures as a figure | value table above it: narrow enough for a notebook.
        ``claims`` (with ``short``): the paired ratios (metric keys) the verdict table keeps, in their order here
        (lesson 07: the two claims' rows, already printed with the rest by their experiments), each row's note
        printed under the table; all of them, without notes, by default. ``hide``: prefixes of metric keys not printed
        (a lesson that already gives them, lesson 08's closing table), still returned for ``record()``."""
        part_names = dict(parts or {})   # (``parts`` is reused below)
        top, text = best_measured(self.results, parts) if best else ({}, "")
        figures, verdicts, medians, together, notes, spans = dict(top), {}, {}, set(), {}, set()
        for name in experiments:
            res = self.results.get(name)
            if res is not None and not res.skipped:
                # a medians' noise floor is no figure of this table: its verdicts are the paired intervals
                figures.update({k: v for k, v in res.metrics.items() if isinstance(v, (int, float))
                                and not isinstance(v, bool) and v is not None and not k.endswith("_noise_floor_pct")})
                together.update(k[:-len("_together")] for k, v in res.metrics.items() if k.endswith("_together") and v)
                spans.update(k[:-len("_span")] for k, v in res.metrics.items() if k.endswith("_span") and v is True)
                # a ratio's verdict (the lab's two rules, or where 1.00 lies against a paired interval), stored beside
                # it as "<metric>_verdict"
                verdicts.update({k[:-len("_verdict")]: v for k, v in res.metrics.items() if k.endswith("_verdict")})
                medians.update({k[:-len("_medians")]: v for k, v in res.metrics.items() if k.endswith("_medians")})
                # a sentence the verdict carries too (the "15%" ruling of part 3): "<metric>_note"
                notes.update({k[:-len("_note")]: v for k, v in res.metrics.items() if k.endswith("_note")})
        if noise_pct is not None:
            figures["noise_floor_pct"] = noise_pct
        figures["lab_seconds"] = time.perf_counter() - started
        said = {"tie": tr("tie (within the noise floor)"), "undecided": tr("undecided (repeats overlap)"),
                "faster": tr("faster (beyond the noise floor)"), "slower": tr("slower (beyond the noise floor)"),
                "above": tr("faster (paired, above 1.00)"), "below": tr("slower (paired, below 1.00)"),
                "inside": tr("a difference of zero not ruled out (1.00 inside)")}
        for k, word in verdicts.items():   # a paired ratio's verdict names its interval (kept as <metric>_low/_high)
            if f"{k}_low" in figures and word in ("above", "below", "inside"):
                named = PAIRED_VERDICTS if k in together else PAIRED_SPAN if k in spans else PAIRED_VERDICT
                lo, hi = figures[f"{k}_low"], figures[f"{k}_high"]
                if bound and word == "inside":
                    how = "together" if k in together else "span" if k in spans else "one"
                    parts = [tr(PAIRED_NOT_SEPARATED[how], lo=lo, hi=hi, pct=not_ruled_out_pct(lo, hi))]
                else:
                    parts = [tr(named[word], lo=lo, hi=hi)]
                if k in medians:
                    parts.append(tr(MEDIANS_VERDICTS[medians[k]]))
                if k in notes:
                    parts.append(notes[k][:1].lower() + notes[k][1:].rstrip(".。"))
                if f"{k}_control_low" in figures:
                    parts.append(tr("widened by the control (the copy against its original {lo:.2f}-{hi:.2f})",
                                    lo=figures[f"{k}_control_low"], hi=figures[f"{k}_control_high"]))
                said[(k, word)] = tr("; ").join(parts)
                verdicts[k] = (k, word)
        # an estimate given only as its two ends (<metric>_low/_high, no <metric>): one row, "low-high"
        shown = {}
        for k, v in figures.items():
            base = k[:-len("_low")] if k.endswith("_low") else None
            if base and base.endswith(("_control", "_copies")):   # the A/A' control: in its ratio's verdict, not a row
                continue
            root = base[:-len("_wide")] if base and base.endswith("_wide") else base
            if base and not base.endswith("_noise") and f"{root}_noise_low" in figures:
                continue   # an estimate widened by the noise floor too: only that widest range is quoted
            if base and base.endswith("_noise") and f"{base}_high" in figures:   # to two figures: no more is known
                shown[f"{base}_range"] = tr("{lo}-{hi}", lo=plain_figures(v), hi=plain_figures(figures[f"{base}_high"]))
            elif base and base not in figures and f"{base}_high" in figures:
                shown[f"{base}_range"] = tr("{lo:.1f}-{hi:.1f}", lo=v, hi=figures[f"{base}_high"])
            elif not k.endswith(("_low", "_high")):
                shown[k] = v
        shown = {k: v for k, v in shown.items() if not k.startswith(tuple(hide))}   # given elsewhere in the lesson
        print(header())
        if short:   # the figures, then the paired ratios as one verdict table
            owner = {k: name for name in experiments if self.results.get(name) is not None
                     for k in self.results[name].metrics}
            ratios = [k for k in shown if f"{k}_low" in figures and isinstance(verdicts.get(k), tuple)]
            paired = ratios if claims is None else [k for k in claims if k in ratios]
            print(format_rows([{"figure": (titles or {}).get(k) or metric_title(k), "value": v}
                               for k, v in shown.items() if k not in ratios], ["figure", "value"]))
            if paired:
                print()
                def row_title(k):
                    return tr("{part}: {title}", part=part_names.get(owner.get(k), owner.get(k, "")),
                              title=tr(SHORT_TITLES.get(k, METRIC_TITLES.get(k, k))))

                print(verdict_table([(row_title(k), shown[k], figures[f"{k}_low"], figures[f"{k}_high"],
                                      short_reading(figures[f"{k}_low"], figures[f"{k}_high"],
                                                    (figures[f"{k}_copies_low"], figures[f"{k}_copies_high"])
                                                    if f"{k}_copies_low" in figures else None) +
                                      (tr(", widened") if f"{k}_control_low" in figures else ""))
                                     for k in paired]))
                if claims is not None:   # a claim's own sentence (the "15%" ruling of part 3), under the table
                    for k in paired:
                        if k in notes:
                            print(tr("{title}: {note}", title=row_title(k), note=notes[k][:1].lower() + notes[k][1:]))
            if text:
                print("\n" + text)
            return figures
        # a ratio "(x)" with two decimals, as the sentences under the experiments print it (1.05, not 1.1)
        titles = titles or {}
        print(format_rows([{"figure": titles.get(k) or metric_title(k), "verdict": said.get(verdicts.get(k), ""),
                            "value": f"{v:.2f}" if METRIC_TITLES.get(k, "").endswith("(x)") else v}
                           for k, v in shown.items()],
                          ["figure", "value"] + (["verdict"] if any(said.get(verdicts.get(k)) for k in shown) else []),
                          left=["verdict"]))
        if text:
            print("\n" + text)
        conditions = {**{name: res.conditions for name, res in self.results.items()}, **self.blocks}
        busy = [name for name, c in conditions.items() if c is not None and c.busy]
        if busy:
            print("\n" + tr("WARNING: {n} of {total} experiments ran on a busy machine (their conditions above say "
                            "which): their absolute figures are not this machine's; re-run the lab on a quiet "
                            "machine before quoting them.", n=len(busy), total=len(conditions)))
        return figures


def rate_bars(ax, rows: Sequence[Mapping], key: str = "steps_per_s", lo: str = "min_steps_per_s",
              hi: str = "max_steps_per_s", label: str = "label") -> None:
    """Horizontal bars of the median (``key``) with the min-max over the repeats (``lo``, ``hi``) as error bars; a
    second copy (a ``config`` ending in " copy", or in ", again" as part 4 of lesson 08 names its A', which measures
    the noise and is no contestant) in grey."""
    import numpy as np

    med = np.array([r[key] for r in rows])
    err = np.array([[r[key] - r[lo] for r in rows], [r[hi] - r[key] for r in rows]])
    colors = ["tab:gray" if str(r.get("config", "")).endswith((" copy", ", again")) else "tab:blue" for r in rows]
    ax.barh(range(len(rows)), med, xerr=err, color=colors, alpha=0.8, capsize=3)
    ax.set_yticks(range(len(rows)), [r[label] for r in rows])
    ax.invert_yaxis()
    ax.grid(axis="x", alpha=0.3)
