"""What lesson 09's timing shows: the table of one process against the data-parallel workers, and a verdict for each
comparison, from ``time_alongside``'s timings and the workers' metrics (``scripts/train_dp.py --bench-steps``).

The trap it avoids: one noise floor for every comparison. The noisiest row (often the workers' rows, which share the
CPUs) would then turn a clear difference between two quiet rows into a "tie". Here every pair is judged by its own
rounds: the kernel's blocks and the workers' blocks of one round ran back to back under the same load, so
``paired_ratio`` takes the ratio round by round and gives a 95% interval; the verdict is "faster" or "slower" when the
interval, as printed (2 decimals), leaves 1 out, "a tie" when it holds 1 and stays within ``TIE_BAND``, and
"inconclusive" when it holds 1 but is wider: a median of 1.9 with an interval of 0.9-2.9 is not a tie, the rounds
just disagree too much to tell. The verdict reads the rounded bounds, so a printed "0.65-1.00" is never "slower".
Every comparison trains the same samples per step, so the steps/s ratio is the samples/s ratio.
"""

from __future__ import annotations

import dataclasses
from typing import Dict, List, Mapping, Sequence

from ..fmt import pad
from ..i18n import N_, tr
from .harness import interval_side, paired_ratio, rate_range

__all__ = ["DataParallelTiming", "summarise_data_parallel"]

#: The rows, in the table's order: this kernel's three setups, then the workers without and with the all-reduce.
ROWS = ("small", "global_1cpu", "global", "local", "dp")
#: A ratio and its verdict, for a paired interval above 1, below 1, or holding 1.
SAID = {"faster": N_("x{med:.2f}, faster (95% interval {lo:.2f}-{hi:.2f})"),
        "slower": N_("x{med:.2f}, slower (95% interval {lo:.2f}-{hi:.2f})"),
        "tie": N_("x{med:.2f}, a tie (95% interval {lo:.2f}-{hi:.2f})"),
        "inconclusive": N_("x{med:.2f}, inconclusive in this run ({rounds} rounds; 95% interval {lo:.2f}-{hi:.2f})")}
#: An interval that holds 1 is "a tie" only when it stays inside these bounds (a difference of 10% at most).
TIE_BAND = (0.90, 1.10)


def _word(lo: float, hi: float) -> str:
    """The verdict of an interval (``interval_side``, read from its bounds as printed), with one addition: an interval
    that holds 1 is "a tie" only inside ``TIE_BAND``, otherwise "inconclusive"."""
    side = interval_side(lo, hi)
    if side != "inside":
        return {"above": "faster", "below": "slower"}[side]
    return "tie" if TIE_BAND[0] <= round(lo, 2) and round(hi, 2) <= TIE_BAND[1] else "inconclusive"


@dataclasses.dataclass
class DataParallelTiming:
    """The rows (``ROWS``: label, processes, batch per process, threads per process, the row with its repeats) and
    the paired comparisons (``(a, b)`` -> (median ratio, low, high, verdict)), with the sentences that say them."""

    rows: Dict[str, dict]
    pairs: Dict[tuple, tuple]
    comm_ms: float
    comm_by_rank: List[float]
    n_params: int
    cpus: int

    @property
    def rounds(self) -> int:
        """How many rounds every paired comparison had."""
        return len(self.rows["dp"]["timing"]["repeat_s"])

    def samples_per_s(self, key: str) -> float:
        row = self.rows[key]
        return row["processes"] * row["batch"] * row["timing"]["steps_per_s"]

    def samples_range(self, key: str) -> tuple:
        """(slowest, fastest) block of a row, in samples/s (all its processes together)."""
        row = self.rows[key]
        return tuple(row["processes"] * row["batch"] * r for r in rate_range(row["timing"])[1:])

    @property
    def speedup(self) -> float:
        """The workers' samples/s over one process doing the same training (defaults), round by round."""
        return self.pairs[("dp", "global")][0]

    @property
    def comm_share(self) -> tuple:
        """The all-reduce's share of a data-parallel step, (median, low, high): 1 - (dp rate / local rate)."""
        med, lo, hi, _ = self.pairs[("dp", "local")]
        return 1 - med, 1 - hi, 1 - lo

    def table(self) -> str:
        """The rows as a table (padded to display columns: a Chinese character takes two)."""
        lines = [pad(tr("setup"), 46) + "".join(pad(tr(t), 10, ">") for t in
                                                 (N_("threads"), N_("steps/s"), N_("ms/step"), N_("samples/s")))]
        for key in ROWS:
            row = self.rows[key]
            rate = row["timing"]["steps_per_s"]
            lines.append(pad(row["label"], 46) + pad(f"{row['processes']} × {row['threads']}", 10, ">")
                         + f"{rate:>10.1f}{1e3 / rate:>10.1f}{self.samples_per_s(key):>10.0f}")
        return "\n".join(lines)

    def said(self, a: str, b: str) -> str:
        """``a`` against ``b``, with its verdict: "x0.70, slower (95% interval 0.62-0.78)"."""
        med, lo, hi, word = self.pairs[(a, b)]
        return tr(SAID[word], med=med, lo=lo, hi=hi, rounds=self.rounds)

    def sentences(self) -> List[str]:
        """What the run shows, one sentence per line; every number and verdict from this run."""
        threads = {self.rows[k]["threads"] for k in ROWS}
        share, share_lo, share_hi = self.comm_share
        setups = self.pairs[("global", "global_1cpu")][3]
        # Did the second worker put the idle CPU to work? Answered against each of one process's setups on its own,
        # so that a "faster" against one and an "inconclusive" against the other are not merged into one word.
        answer = {"faster": N_("yes, {said}"), "slower": N_("no, {said}"), "tie": N_("not measurably, {said}")}
        used = {}
        for k in ("global_1cpu", "global"):
            word = self.pairs[("local", k)][3]   # "inconclusive" already says that this run cannot tell
            used[k] = tr(answer[word], said=self.said("local", k)) if word in answer else self.said("local", k)
        return [
            tr("threads: processes × MindSpore runtime threads in each ({kernel} in this kernel, {worker} in each "
               "worker: {same})", kernel=self.rows["global"]["threads"], worker=self.rows["dp"]["threads"],
               same=tr("the same") if len(threads) == 1 else tr("different")),
            tr("Each ratio below is the median of the per-round ratios ({rounds} rounds), with its 95% interval: "
               "an interval above 1 is faster, below 1 slower; one that holds 1 is a tie when it stays within "
               "{tie_lo:.2f}-{tie_hi:.2f}, and inconclusive when it is wider.", rounds=self.rounds,
               tie_lo=TIE_BAND[0], tie_hi=TIE_BAND[1]),
            "",
            tr("{workers} workers in samples/s, against one process doing the same training: with MindSpore's "
               "defaults {dp_global}; pinned to 1 CPU {dp_1cpu}.", workers=self.rows["dp"]["processes"],
               dp_global=self.said("dp", "global"), dp_1cpu=self.said("dp", "global_1cpu")),
            tr("One process on all {cpus} CPUs against pinned to 1 CPU: {setups_said}; {note}", cpus=self.cpus,
               setups_said=self.said("global", "global_1cpu"),
               note=tr({"faster": N_("the second CPU made it faster."),
                        "slower": N_("it ran faster pinned to 1 CPU: here the second CPU cost more than it gave, "
                                     "which depends on the machine (threads that move between CPUs can lose their "
                                     "caches, and helper threads that spin while they wait take CPU time)."),
                        "tie": N_("the second CPU made no measurable difference."),
                        "inconclusive": N_("so whether the second CPU helps one process stays open.")
                        }[setups])),
            tr("Did the second worker put the idle CPU to work? Without the all-reduce, against one process pinned "
               "to 1 CPU: {vs_1cpu}; against one process with MindSpore's defaults, which may use both CPUs: "
               "{vs_global}.", vs_1cpu=used["global_1cpu"], vs_global=used["global"]),
            tr("The all-reduce took {share:.0f}% of each data-parallel step (95% interval {lo:.0f}-{hi:.0f}%; "
               "{ms:.1f} ms, per worker {by_rank} ms), for a gradient of {n:,} float32 numbers ({kib:.0f} KiB).",
               share=100 * share, lo=100 * share_lo, hi=100 * share_hi, ms=self.comm_ms,
               by_rank=" / ".join(f"{c:.1f}" for c in self.comm_by_rank), n=self.n_params,
               kib=4 * self.n_params / 1024),
        ]

    def finding(self) -> str:
        """The lesson's finding in one line: how the data-parallel workers compared with one process doing the
        same training, in both its setups, and what the all-reduce took."""
        words = [self.pairs[("dp", k)][3] for k in ("global", "global_1cpu")]
        meds = [self.pairs[("dp", k)][0] for k in ("global", "global_1cpu")]
        if words[0] == words[1] and words[0] in ("faster", "slower"):
            head = tr({"faster": N_("On this {cpus}-CPU machine data parallel was faster than one process doing "
                                    "the same training, in both comparisons (x{a:.2f} against MindSpore's defaults, "
                                    "x{b:.2f} pinned to 1 CPU)"),
                       "slower": N_("On this {cpus}-CPU machine data parallel was slower than one process doing "
                                    "the same training, in both comparisons (x{a:.2f} against MindSpore's defaults, "
                                    "x{b:.2f} pinned to 1 CPU)")}[words[0]], cpus=self.cpus, a=meds[0], b=meds[1])
        else:
            head = tr("On this {cpus}-CPU machine data parallel against one process doing the same training: "
                      "{a} with MindSpore's defaults, {b} pinned to 1 CPU", cpus=self.cpus,
                      a=self.said("dp", "global"), b=self.said("dp", "global_1cpu"))
        return tr("{head}; the all-reduce took {share:.0f}% of each data-parallel step.", head=head,
                  share=100 * self.comm_share[0])


def summarise_data_parallel(kernel: Mapping, kernel_threads: int, metrics: Sequence[Mapping], *, batch_size: int,
                            n_params: int, cpus: int) -> DataParallelTiming:
    """Lesson 09's rows and verdicts. ``kernel``: ``time_alongside``'s timings for "small", "global_1cpu" and
    "global" (``Timing`` objects); ``metrics``: each worker's ``metrics_rank<r>.json`` with its "cell" (data
    parallel) and "cell_local" (no all-reduce) rows. A synchronous job runs at the pace of its slowest worker, so the
    workers' rows are the slowest worker's."""
    workers = len(metrics)
    global_batch = batch_size * workers

    def slowest(style: str) -> dict:
        return min((m["bench"][style] for m in metrics), key=lambda row: row["steps_per_s"])

    worker_threads = max(m["bench"]["cell"].get("kernel_threads") or 0 for m in metrics)
    rows = {
        "small": (tr("1 process, batch {b}", b=batch_size), 1, batch_size, kernel_threads, kernel["small"]),
        "global_1cpu": (tr("1 process, batch {b}, 1 CPU (same training)", b=global_batch), 1, global_batch,
                        kernel_threads, kernel["global_1cpu"]),
        "global": (tr("1 process, batch {b} (same training)", b=global_batch), 1, global_batch, kernel_threads,
                   kernel["global"]),
        "local": (tr("{n} workers × {b}, no all-reduce", n=workers, b=batch_size), workers, batch_size,
                  worker_threads, slowest("cell_local")),
        "dp": (tr("{n} workers × {b}, data parallel", n=workers, b=batch_size), workers, batch_size,
               worker_threads, slowest("cell")),
    }
    rows = {key: {"label": label, "processes": n, "batch": b, "threads": t,
                  "timing": timing if isinstance(timing, Mapping) else timing.as_dict()}
            for key, (label, n, b, t, timing) in rows.items()}
    pairs = {}
    for a, b in (("dp", "global"), ("dp", "global_1cpu"), ("local", "global"), ("local", "global_1cpu"),
                 ("global", "global_1cpu"), ("dp", "local")):
        ra, rb = rows[a], rows[b]
        per_step = ra["processes"] * ra["batch"] / (rb["processes"] * rb["batch"])   # samples per step, a over b
        med, lo, hi = (per_step * v for v in paired_ratio(ra["timing"], rb["timing"]))
        pairs[(a, b)] = (med, lo, hi, _word(lo, hi))
    comm_ms = 1e3 / rows["dp"]["timing"]["steps_per_s"] - 1e3 / rows["local"]["timing"]["steps_per_s"]
    comm_by_rank = [1e3 / m["bench"]["cell"]["steps_per_s"] - 1e3 / m["bench"]["cell_local"]["steps_per_s"]
                    for m in metrics]
    return DataParallelTiming(rows, pairs, comm_ms, comm_by_rank, n_params, cpus)
