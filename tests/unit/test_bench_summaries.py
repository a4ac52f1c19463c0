"""Every experiment's ``summarise`` on made-up rows: the conclusion follows the numbers, including
where it flips (GRAPH_MODE slower than PyNative, the pipeline the bottleneck, a target missed), and
rows are picked by name, so their order does not matter."""

import re

import statistics

import pytest

from course_utils import bench
from course_utils.bench.experiments import accuracy, amp, findings, modes, pipeline, shapes, sink, traps
from support.bench_rows import (accuracy_rows, amp_rows, find_rows, pipeline_rows, rate, shape_rows, shuffled,
                                step_rates, trap_results, trap_rows)


def squeezed(line: str) -> str:
    """A table line with its runs of spaces as one: its words, whatever the column widths."""
    return " ".join(line.split())


SECONDARY = "Secondary"   # the medians' reading: kept in the metrics (best_config), never printed beside the pairs


def test_modes_judges_by_the_paired_interval_alone_and_keeps_the_medians_pick_in_its_metrics():
    p = bench.ModesParams(specs=("pynative/cell", "graph/cell", "pynative/jit:O1"))
    fast = [rate("pynative/cell", 20), rate("graph/cell", 80, first=3.0), rate("pynative/jit:O1", 60)]
    res = modes.summarise_modes(shuffled(fast), p)
    lines = res.conclusion.splitlines()
    # one verdict table (comparison | ratio | 95% interval | verdict), then the first call and the found line
    assert lines[0].split() == ["comparison", "ratio", "95%", "interval", "verdict"]
    assert lines[2].split() == ["GRAPH_MODE", "/", "PyNative,", "TrainOneStepCell", "4.00x", "4.00-4.00", "above",
                                "1.00:", "faster"]
    assert lines[-1] == "This run found: GRAPH_MODE faster than PyNative."
    assert max(len(line) for line in lines[:3]) <= 110   # narrow enough for a notebook
    assert SECONDARY not in res.conclusion and "noise floor" not in res.conclusion
    assert lines[-2].startswith("Biggest first call: 3.00 s (GRAPH_MODE, TrainOneStepCell)")
    assert res.metrics["best_config"] == "graph/cell"   # lesson 08's step off the CPU, by the medians' floor
    assert res.metrics["graph_vs_pynative"] == pytest.approx(4.0)
    assert res.metrics["graph_vs_pynative_verdict"] == "above"
    assert res.row(config="graph/cell")["vs_baseline"] == pytest.approx(4.0)   # baseline: the first spec asked for
    slow = [rate("pynative/cell", 50), rate("graph/cell", 30), rate("pynative/jit:O1", 40)]
    assert "0.60x     0.60-0.60  below 1.00: slower" in modes.summarise_modes(slow, p).conclusion
    # the medians 4% apart, but round by round graph is 10% faster or 10% slower: the paired interval holds 1.00
    same = [_timed("pynative/cell", 50, (0, 0.1, -0.1, 0.05, -0.05, 0.1, -0.1, 0), n=8),
            _timed("graph/cell", 52, (0, -0.1, 0.1, -0.05, 0.05, -0.1, 0.1, 0), n=8), rate("pynative/jit:O1", 40)]
    res = modes.summarise_modes(same, p)
    assert "1.04x     0.85-1.21  not separated (up to 21% not ruled out)" in res.conclusion
    assert res.conclusion.endswith("This run found: GRAPH_MODE not separated from PyNative.")
    assert res.metrics["graph_vs_pynative_verdict"] == "inside"
    # rows without their rounds (nothing to pair): the medians against the floor, as before
    bare = [{k: v for k, v in r.items() if k != "repeat_s"} for r in fast]
    text = modes.summarise_modes(bare, p).conclusion
    assert "GRAPH_MODE against PyNative, TrainOneStepCell: 4.00x, faster." in text and SECONDARY not in text


def _medians(rows, p):
    """The medians' reading of part 2 (the floor, the overlap rule): printed only where the rounds cannot be paired,
    so the rows go in without their rounds (``best_config`` comes from it either way)."""
    return modes.summarise_modes([{k: v for k, v in r.items() if k != "repeat_s"} for r in rows], p)


def test_modes_says_tie_within_the_noise_floor():
    p = bench.ModesParams(specs=("pynative/cell", "graph/cell", "pynative/jit:O1"), noise_pct=10)
    rows = [rate("pynative/cell", 20), rate("graph/cell", 76), rate("pynative/jit:O1", 80)]
    res = _medians(shuffled(rows), p)
    assert "Tied at the top, within the noise floor (76.0-80.0 steps/s): " in res.conclusion
    assert res.metrics["best_config"] == "graph/cell"        # of a tie, the first in the order asked for
    p.noise_pct = 4
    res = _medians(rows, p)
    assert "Fastest beyond the noise floor: PyNative, @jit functional step O1" in res.conclusion
    assert res.metrics["best_config"] == "pynative/jit:O1"
    # beyond the noise floor, but the repeats' ranges overlap: the lab's second rule, no winner named
    rows = [rate("pynative/cell", 20), rate("graph/cell", 76, spread=0.2), rate("pynative/jit:O1", 90, spread=0.2)]
    res = _medians(rows, p)
    assert ("PyNative, @jit functional step O1 has the highest median, 90.0 steps/s, 18% above GRAPH_MODE, "
            "TrainOneStepCell, but their repeats overlap: undecided." in res.conclusion)
    assert all(len(line.split()) <= 30 for line in res.conclusion.splitlines())   # one short sentence per line


def _pipeline_rows():
    """The styles experiment's three pipeline-fed rows: the functional loop, TrainOneStepCell and Model.train."""
    return [rate("graph/functional +pipeline", 80, input=modes.PIPELINE),
            rate("graph/cell +pipeline", 81, input=modes.PIPELINE), rate("Model.train", 40, input=modes.PIPELINE)]


def test_styles_claim_holds_or_not():
    rows = [rate("graph/functional", 100, input="in-memory batches"),
            rate("graph/cell", 101, input="in-memory batches"),
            *_pipeline_rows()]
    res = modes.summarise_styles(shuffled(rows), bench.StylesParams())
    # every row judged by the paired interval, the pipeline rows against the functional loop fed the same way
    table = {re.split(r"\s{2,}", line.strip())[0]: line.strip().split("  ", 1)[1].split()
             for line in res.conclusion.splitlines()[2:] if "  " in line.strip()}
    assert table["pipeline: Model.train / functional loop"] == ["0.50x", "0.50-0.50", "below", "1.00:", "slower"]
    assert "vs_functional" not in res.columns   # no ratio of medians beside the paired verdicts
    # the paired test: each round's ratio is 1.01, so 1.15 lies above its interval, and so does 1.00
    assert table["TrainOneStepCell / functional step, no @jit (GRAPH_MODE)"] == ["1.01x", "1.01-1.01", "above", "1.00:",
                                                                                 "faster"]
    assert ("The article's 1.15x: in memory, ruled out (above the interval); fed by the pipeline, ruled out (above the "
            "interval).") in res.conclusion
    assert "@jit functional step" not in res.conclusion   # rows stored before the compiled pair was timed: no such row
    rows.append(rate("pynative/jit:O0", 95, input=modes.IN_MEMORY))
    res = modes.summarise_styles(shuffled(rows), bench.StylesParams())
    assert re.search(r"TrainOneStepCell / @jit functional step +1.06x +1.06-1.06  above 1.00: faster", res.conclusion)
    assert res.conclusion.endswith("This run found: TrainOneStepCell faster than the functional step without @jit; "
                                   "TrainOneStepCell "
                                   "faster than the @jit functional step.")
    assert res.metrics["cell_vs_jit_verdict"] == "above"
    assert "Noise floor" not in res.conclusion and "tie within" not in res.conclusion   # one rule: the paired one


def test_styles_judges_the_claim_with_the_floor_of_its_own_copy():
    def timed(config, sps, wobble):   # 20 rounds, each repeat off the median by wobble[i % 4]
        return _timed(config, sps, wobble, n=20, input=modes.IN_MEMORY, claim_s=30.0)

    rows = [timed("graph/functional", 100, (0, 0.03, -0.03, 0.01)),
            timed("graph/cell", 112, (0, 0.03, -0.03, 0.01)),
            timed(modes.COPY, 101, (0.01, -0.02, 0.02, 0)),
            *_pipeline_rows()]
    res = modes.summarise_styles(shuffled(rows), bench.StylesParams(noise_pct=20))
    assert "claim_noise_floor_pct" not in res.metrics   # no floor: the paired interval is the one rule
    # TrainOneStepCell paired against each copy; the two intervals together decide; the copy's own interval holds 1.00
    assert "without 1.00 although" not in res.conclusion
    assert "The article's 1.15x: in memory, ruled out (above the interval)" in res.conclusion
    assert "control: functional step, A′ / A" in res.conclusion and "as it should be" in res.conclusion
    assert all(len(line.split()) <= 30 for line in res.conclusion.splitlines())   # one short sentence per line
    # the copy 5% slower in every round: the instances differ, so both intervals together (1.12-1.18), widened by
    # the copies' gap (x0.95 and x1.05), judge the claim
    rows[2] = dict(rows[2], repeat_s=[r * 1.05 for r in rows[0]["repeat_s"]])
    res = modes.summarise_styles(rows, bench.StylesParams(noise_pct=20))
    assert "1.12x     1.07-1.23" in res.conclusion
    assert "apart: the rows below widened by its gap" in res.conclusion
    assert "The article's 1.15x: in memory, not ruled out (inside)" in res.conclusion
    assert (res.metrics["cell_vs_functional_low"], res.metrics["cell_vs_functional_high"]) == (1.07, 1.23)


def test_batch_sizes():
    rows = [rate(f"batch {b}", sps, batch_size=b, samples_per_s=b * sps) for b, sps in ((32, 100), (64, 80), (128, 30))]
    res = modes.summarise_batch_sizes(shuffled(rows), bench.BatchSizesParams(batch_sizes=(32, 64, 128)))
    # every round at the same speed: no slow round; batch 64 the reference and the top size
    assert res.conclusion.startswith("Rounds: 0 of 3 ran more than 20% below the sizes' medians (the slowest, round 1, "
                                     "at 98%); in 0 more, only some sizes did.\n")
    assert ("Batch 64, the reference, ranks first: no other size's paired ratio to it is above 1.00.\n"
            "In the middle half of its rounds it ran ") in res.conclusion
    assert "Verdict, from the paired intervals: batch 64 is faster than batch 32, 128 (intervals above 1.00)." in \
        res.conclusion
    assert "overlap rule" not in res.conclusion and "two rules" not in res.conclusion   # one rule: the paired one
    assert res.metrics["top_batch_size"] == 64 and res.metrics["batch_sizes_slower"] == 2
    assert res.row(config="batch 32")["vs_reference"] == pytest.approx(3200 / 5120)
    assert res.columns[-2:] == ["middle_half", "vs_reference"] and "epoch_s" not in res.columns
    # one size 5% ahead of the reference in every round: ranked first, the epoch time from its quartiles
    rows += [rate("batch 256", 21, batch_size=256, samples_per_s=256 * 21)]
    res = modes.summarise_batch_sizes(rows, bench.BatchSizesParams(batch_sizes=(32, 64, 128, 256), noise_pct=10))
    assert "Batch 256 ranks first by the paired ratios: 1.05x batch 64" in res.conclusion
    assert "Verdict, from the paired intervals: batch 256 is faster than batch 32, 64, 128" in res.conclusion
    assert res.metrics["batch_sizes_slower"] == 3 and res.metrics["reference_batch_size"] == 64
    # the summary's line: the same ranking and verdict; one size in a group: "interval", not "intervals"
    assert modes.sweep_finding(res) == ("Batch size (part 4): batch 256 ranked first, at 1.05x batch 64's samples/s "
                                        "(1.05-1.05, paired); it is faster than batch 32, 64, 128 (intervals above "
                                        "1.00).")
    two = modes.summarise_batch_sizes(rows[1:3], bench.BatchSizesParams(batch_sizes=(64, 128)))
    assert modes.sweep_finding(two) == ("Batch size (part 4): batch 64, the reference, ranked first; it is faster than "
                                        "batch 128 (interval above 1.00).")
    assert "(interval above 1.00)." in two.conclusion
    # without per-round times nothing can be paired: the overlap rule decides alone, on the medians
    wide = [dict(r, min_steps_per_s=0.7 * r["steps_per_s"], max_steps_per_s=1.3 * r["steps_per_s"]) for r in rows]
    bare = [{k: v for k, v in r.items() if k != "repeat_s"} for r in wide]
    res = modes.summarise_batch_sizes(bare, bench.BatchSizesParams(batch_sizes=(32, 64, 128, 256), noise_pct=1))
    assert res.conclusion.startswith("Batch 256 has the highest median throughput: 5,376 samples/s")
    assert res.conclusion.splitlines()[-1] == ("This run cannot rank the sizes: each is within the noise floor of "
                                               "batch 256 or undecided against it.")
    assert "Paired" not in res.conclusion and res.metrics["batch_sizes_slower"] == 0
    assert modes.sweep_finding(res) == "" and modes.sweep_finding(None) == ""
    assert res.row(config="batch 32")["epoch_s"] == pytest.approx(1875 / 100)


def test_the_sweep_ranks_by_paired_rounds_when_the_machine_changes_speed_between_rounds():
    """Half the rounds at half speed, split unevenly between two copies of one size: their medians land far apart
    while every round's ratio agrees. The ranking, the verdicts and the epoch time come from the rounds; the line on
    the copies says the medians are not usable; the slow rounds are counted."""
    fast, slow = 1.0, 0.5
    speed = [fast] * 10 + [slow] * 10
    def row(config, bs, sps, order):
        rounds = [speed[i] for i in order]
        return dict(rate(config, sps, batch_size=bs), steps=10, repeats=20,
                    repeat_s=[10 / (sps * k) for k in rounds],
                    samples_per_s=bs * sps * statistics.median(rounds))
    same = list(range(20))
    rows = [row("batch 64", 64, 100, same), row("batch 128", 128, 55, same),   # 128: 1.10x 64 in every round
            row("batch 128 copy", 128, 55, same), row("batch 256", 256, 26, same)]
    # the copy's medians: its own rounds, the same speeds, but its median computed from a run with fewer fast rounds
    rows[2]["samples_per_s"] = 128 * 55 * 0.5
    res = modes.summarise_batch_sizes(rows, bench.BatchSizesParams(batch_sizes=(64, 128, 256)))
    lines = res.conclusion.splitlines()
    assert lines[0].startswith("Rounds: 10 of 20 ran more than 20% below the sizes' medians (the slowest, round 11, "
                               "at 67%)")   # a size's median lies between its two speeds: 0.5 / 0.75
    assert lines[1].startswith("The two copies of batch 128 have medians of 5,280 and 3,520 samples/s (0.67x), but "
                               "round by round they read 1.00-1.00") and "medians are not usable" in lines[1]
    assert lines[2].startswith("Batch 128 ranks first by the paired ratios: 1.10x batch 64 (1.10-1.10); the verdict")
    # its rounds at 3,520 and 7,040 samples/s: 937 steps of 128 in 8.5-17.0 s
    assert "ran 3,520-7,040 samples/s, for scale only: the training steps of one MNIST epoch in 8.5-17.0 s" in lines[3]
    assert res.metrics["top_batch_size"] == 128
    assert modes.round_shares(rows)[:2] == [pytest.approx(4 / 3), pytest.approx(4 / 3)]   # median of 0.5 and 1: 0.75
    # a quiet sweep: no line on the copies
    rows[2]["samples_per_s"] = 128 * 55 * 0.75
    assert "not usable" not in modes.summarise_batch_sizes(rows, bench.BatchSizesParams(batch_sizes=(64, 128, 256))
                                                           ).conclusion


def test_cpu_traps_states_what_was_measured():
    met, missed, fastest = trap_results()
    assert "ran at 10.0 steps/s" in met.conclusion
    assert "the same configuration ran at 90.0, 9.00x the naive rate." in met.conclusion
    assert "With both fixes GRAPH_MODE, TrainOneStepCell ran fastest (90.0 steps/s)" in met.conclusion
    # within the noise floor the highest median is a tie, named as one (the lab's first rule)
    tie = traps.summarise_cpu_traps(met.rows, bench.TrapsParams(noise_pct=60)).conclusion
    assert "the highest median was GRAPH_MODE, TrainOneStepCell's (90.0 steps/s), a tie within the noise floor of " \
        "60.0%" in tie
    # each fix on top of the other, one line per configuration, judged by the lab's two rules
    assert "- PyNative, TrainOneStepCell: the ISA cap" in met.conclusion
    assert "host blocking 15.0 -> 60.0 steps/s (4.00x), faster (beyond the floor, repeats apart)" in met.conclusion
    assert "), a tie" in tie
    assert not any("target" in r.conclusion for r in (met, missed, fastest))   # no maintainer's target
    # the fastest of all without the course's fixes is named
    assert "The highest median in the whole table, 120.0 steps/s, is GRAPH_MODE, TrainOneStepCell with " \
        "ONEDNN_MAX_CPU_ISA=AVX2 alone: against GRAPH_MODE, TrainOneStepCell with both fixes, " in fastest.conclusion
    assert "With neither fix, no configuration ran faster than" in fastest.conclusion
    assert traps.summarise_cpu_traps([], bench.TrapsParams(device="Ascend")).skipped
    # each fix alone and both against neither, per configuration, ratios of medians
    assert "- PyNative, TrainOneStepCell: the ISA cap alone 5.00x, host blocking alone 1.67x, both 20.00x" \
        in met.conclusion


def test_fixes_alone_and_both_skips_a_configuration_without_all_four_cases():
    rows = [r for r in trap_rows() if not (r["config"] == "pynative/cell" and r["case"] == "no fixes")]
    text = traps.fixes_alone_and_both(rows)
    assert "- GRAPH_MODE, TrainOneStepCell: the ISA cap alone 6.00x, host blocking alone 1.10x, both 9.00x" in text
    assert "PyNative" not in text
    assert traps.fixes_alone_and_both([r for r in rows if r["config"] == "pynative/cell"]) == ""


def test_find_trap_found_and_not():
    res = traps.summarise_find_trap(shuffled(find_rows(40.0, 4.0)), bench.FindTrapParams())
    assert "take 40.0 ms of 42.0 ms (95%)" in res.conclusion and "'brg:avx512_core'" in res.conclusion
    assert "4.0 ms ('brg:avx2'), 10.0x less" in res.conclusion
    assert {r["kind"] for r in res.rows} == {"layer"} and len(res.extra["onednn"]["no ISA cap"]) == 1
    res = traps.summarise_find_trap(find_rows(4.0, 4.0), bench.FindTrapParams())
    assert "the cap does not help on this CPU" in res.conclusion


def test_data_pipeline_judged_by_the_fed_step_against_the_in_memory_step():
    # fed 10% slower than in memory, beyond the noise floor: a cost, although the pipeline alone is 6x faster
    res = pipeline.summarise_data_pipeline(shuffled(pipeline_rows(600, 100, 90)), bench.PipelineParams(noise_pct=5))
    # the verdict, from the paired interval, is the only reading printed: no floor reading beside it
    lines = res.conclusion.splitlines()   # one verdict table (lesson 07's rule), one sentence under it
    assert lines[0].split() == ["comparison", "ratio", "range", "(lowest-highest", "round)", "verdict"]   # 5 rounds
    assert lines[2].startswith("fed by the pipeline / in-memory ") and squeezed(lines[2]).endswith(
        "0.90x 0.90-0.90 below 1.00: slower")
    # Model.train's loop fed by the same pipeline, paired with the same in-memory passes
    assert lines[3].startswith("Model.train, sink mode off / in-memory") and squeezed(lines[3]).endswith(
        "0.20x 0.20-0.20 below 1.00: slower")
    assert res.metrics["model_paired"]["median"] == pytest.approx(0.2)
    # on CPU sink mode runs the normal loop: its row is a second control, read as one
    assert lines[4].startswith("Model.train, sink mode on / off (one loop on CPU: a control)") and \
        lines[4].endswith("1.00 inside, as it should be")
    assert lines[5] == ("The pipeline alone delivered 600 batches/s (2 workers), 6.0x the in-memory step's rate: it "
                        "keeps up, so it is not the bottleneck.") and len(lines) == 8
    assert lines[6] == ("On CPU sink mode runs the normal loop, so 'sink mode on / off' is a second control, one loop "
                        "timed twice: it held 1.00.")   # both controls exact: nothing bounds the reading
    assert lines[7].startswith("The verdict in one word (exercise 2's): 'costs'. The pipeline keeps up, yet the step "
                               "it feeds ran 10% slower")   # the paired median, computed
    assert res.metrics["controls_bound_pct"] == 0 and not res.metrics["fed_within_bound"]
    assert res.metrics["pipeline_word"] == "costs"
    assert "noise floor of 5.0%" not in res.conclusion and "a tie" not in res.conclusion
    assert "Model.train with sink mode off against" not in res.conclusion   # two loops: not compared
    assert res.metrics["pipeline_costs_step"] and not res.metrics["pipeline_is_bottleneck"]
    # within the noise floor: a tie, not the bottleneck
    res = pipeline.summarise_data_pipeline(pipeline_rows(600, 100, 96), bench.PipelineParams(noise_pct=5))
    assert "a tie within the noise floor of 5.0%" not in res.conclusion   # the floor's reading: metrics only
    assert not res.metrics["pipeline_costs_step"] and res.metrics["pipeline_verdict"] == "tie"
    # faster fed than on in-memory batches, beyond the noise floor: the machine changed, not a tie
    res = pipeline.summarise_data_pipeline(pipeline_rows(600, 100, 150), bench.PipelineParams(noise_pct=5))
    assert res.conclusion.splitlines()[2].endswith("1.50-1.50  above 1.00: feeding cannot do that, the machine "
                                                   "changed (time again)")
    assert not res.metrics["pipeline_costs_step"]
    # slower alone than the step consumes, and the fed step slower: the bottleneck
    res = pipeline.summarise_data_pipeline(pipeline_rows(50, 100, 45), bench.PipelineParams())
    assert res.metrics["pipeline_is_bottleneck"]
    assert res.metrics["pipeline_verdict"] == "bottleneck"


def test_data_pipeline_reads_sink_mode_on_cpu_as_a_control_that_bounds_its_verdicts():
    # sink on runs 25% faster than off, one loop on CPU: a failed control; the fed step's 10% is within its gap
    res = pipeline.summarise_data_pipeline(shuffled(pipeline_rows(600, 100, 90, on=25.0, off=20.0)),
                                           bench.PipelineParams(noise_pct=5))
    lines = res.conclusion.splitlines()
    assert squeezed(lines[4]).endswith("1.25x 1.25-1.25 apart: a failed control")
    assert "slower" not in lines[4] and "faster" not in lines[4]
    assert lines[6] == ("On CPU sink mode runs the normal loop, so 'sink mode on / off' is a second control, one loop "
                        "timed twice, and it left out 1.00 (copies up to 25% apart): noise or drift, since nothing "
                        "differs between the two. Part 4 reads no "
                        "difference smaller than its controls' larger distance from 1.00: 25%.")
    assert lines[7] == ("The verdict in one word (exercise 2's): 'not separated'. The interval's near end lies "
                        "within the controls' 25%: this run cannot tell that difference from the gap between two runs "
                        "of one configuration.")   # the one word agrees with the table's row
    assert res.metrics["controls_bound_pct"] == 25 and res.metrics["fed_within_bound"]
    assert res.metrics["pipeline_word"] == "not separated"
    # a 5% gap between the sink runs: the fed step's 10% lies beyond it
    res = pipeline.summarise_data_pipeline(pipeline_rows(600, 100, 90, on=21.0, off=20.0),
                                           bench.PipelineParams(noise_pct=5))
    assert res.conclusion.splitlines()[7].endswith("The interval's near end lies beyond the controls' 5%.")
    assert not res.metrics["fed_within_bound"] and res.metrics["pipeline_word"] == "costs"
    # elsewhere sink mode is sink mode: its row is a comparison, not a control
    res = pipeline.summarise_data_pipeline(pipeline_rows(600, 100, 90, on=25.0, off=20.0),
                                           bench.PipelineParams(noise_pct=5, device="Ascend"))
    assert "second control" not in res.conclusion and "above 1.00: faster" in res.conclusion


def test_data_pipeline_takes_its_own_floor_from_the_in_memory_pass_timed_twice():
    # A and A' (the same pass) 1% apart: a 2% cost of feeding the step is within that floor against both, a tie
    res = pipeline.summarise_data_pipeline(shuffled(pipeline_rows(600, 100, 99, again=101)), bench.PipelineParams())
    assert res.conclusion.splitlines()[2].startswith("in-memory pass A' / A (control)")   # the control first
    assert res.metrics["noise_pct"] > 0 and "noise floor" not in res.conclusion   # the floor: metrics only
    assert res.metrics["pipeline_verdict"] == "tie" and "disagree" not in res.conclusion
    # A and A' 12% apart: an 8% cost is within the floor against A, beyond it against A': the copies disagree
    res = pipeline.summarise_data_pipeline(shuffled(pipeline_rows(600, 100, 92.6, again=112)), bench.PipelineParams())
    assert res.metrics["noise_pct"] >= 12 and res.metrics["pipeline_verdict"] == "undecided"
    assert "the two disagree" not in res.conclusion   # the medians' reading: not printed beside the paired one
    # A' over A, paired (lesson 07's control): 1.12 in every round, without 1.00 although one pass, so the fed
    # step's interval against A and A' (0.83-0.93, 3 rounds) is widened by the copies' gap before it is read
    lines = res.conclusion.splitlines()
    assert lines[2].endswith("1.12x     1.12-1.12  apart: the rows against A and A' widened by its gap")
    assert lines[3].endswith("0.93x     0.74-1.04  not separated (up to 35% not ruled out)")
    assert res.metrics["said"] == "not separated (up to 35% not ruled out)"
    pr = res.metrics["paired"]
    assert pr["reading"] == "inside" and pr["widened"] and not pr["span"] and pr["control"]["widened"]
    # the same rows with the floor given: no floor sentence, and 8% beyond a 5% floor with repeats apart costs
    res = pipeline.summarise_data_pipeline(pipeline_rows(600, 100, 92.6, again=112), bench.PipelineParams(noise_pct=5))
    assert res.metrics["pipeline_verdict"] == "costs"


def test_best_measured_is_the_highest_rate_over_every_experiment_and_names_no_winner():
    traps_res, _, _ = trap_results()                      # both fixes: 90 steps/s at best; ISA cap alone 60
    modes_res = modes.summarise_modes([rate("graph/cell", 80.0), rate("pynative/jit_cell:O1", 150.0)],
                                  bench.ModesParams(specs=("graph/cell", "pynative/jit_cell:O1")))
    metrics, text = bench.experiments.best_measured({"modes": modes_res, "cpu_traps": traps_res})
    assert metrics == {"best_steps_per_s": 150.0}   # no tie count and no ratio across experiments
    assert "150.0 steps/s, PyNative, jit(TrainOneStepCell) O1 (this kernel, CPU settings on), in [modes]" in text
    assert "A figure, not a winner" in text and "naive" not in text
    assert bench.experiments.best_measured({"x": bench.Result("x", [], [], "")}) == ({}, "")


def test_amp_slower_on_cpu_and_faster_elsewhere():
    res = amp.summarise_amp(shuffled(amp_rows(20, 0.90)), bench.AmpParams(levels=("O0", "O1", "O3")))
    assert "amp O3: accuracy 90.0% (5.0 points lower: check accuracy, not only speed)" in res.conclusion
    # one table row per level: its ratio and its verdict (the paired ratio), no floor reading; then the verdict's
    # sentence (no "Secondary" line: part 1's rule)
    lines = res.conclusion.splitlines()   # one verdict table (lesson 07's rule), then the accuracy drop
    assert lines[0].split() == ["comparison", "ratio", "range", "(lowest-highest", "round)", "verdict"]
    assert lines[2].split() == ["O1", "/", "O0", "and", "its", "copy", "0.90x", "0.90-0.90", "below", "1.00:", "slower"]
    assert lines[3].split()[:7] == ["O3", "/", "O0", "and", "its", "copy", "0.40x"]
    assert lines[4] == "amp O3: accuracy 90.0% (5.0 points lower: check accuracy, not only speed)."
    assert res.metrics["said"] == "O1 below 1.00: slower; O3 below 1.00: slower"
    # O3 faster by 2%, inside the +-2% repeat-to-repeat spread: undecided, not "the fastest level"
    res = amp.summarise_amp(amp_rows(51, 0.95), bench.AmpParams(levels=("O0", "O1", "O3")))
    assert res.row(config="O3")["verdict"] == "undecided" and "fastest level" not in res.conclusion
    # ...while pairing (these made-up rounds all move together) decides: only the paired reading is said
    assert squeezed(res.conclusion.splitlines()[3]).endswith("1.02x 1.02-1.02 above 1.00: faster")
    # with O0's second copy, each level is judged against both; one that differs from O0 by less than the two
    # copies do from each other has 1.00 inside its interval
    rows = amp_rows(51, 0.95) + [rate("O0 copy", 52, label="amp O0, second copy", accuracy=0.95, trained_steps=100,
                                      wrapper="LeNet5")]
    res = amp.summarise_amp(rows, bench.AmpParams(levels=("O0", "O1", "O3")))
    # ...and the copy landed beyond the floor, so O3 is judged against both: undecided against O0, a tie against the
    # copy: the two disagree, so undecided
    assert "its copy ran 52 steps/s" not in res.conclusion   # paired: the control line below says it
    o3 = next(line for line in res.conclusion.splitlines() if line.startswith("O3 /"))
    # the copy over O0 is 1.04 in every round: a failed control (lesson 07's rule), so every interval read with it is
    # widened by that gap (0.98-1.02 against both copies -> 0.94-1.06), and the control line says so
    assert o3.split()[6:] == ["1.02x", "0.94-1.06", "not", "separated", "(up", "to", "6%", "not", "ruled", "out)"]
    assert res.conclusion.splitlines()[2].endswith("1.04x     1.04-1.04  apart: the rows below widened by its gap")
    assert res.row(config="O3")["verdict"] == "undecided"
    assert "amp_O0 copy_steps_per_s" not in res.metrics and res.row(config="O0 copy")["vs_O0"] == 52 / 50
    res = amp.summarise_amp(amp_rows(150, 0.95), bench.AmpParams(levels=("O0", "O1", "O3"), device="Ascend"))
    assert next(line for line in res.conclusion.splitlines() if line.startswith("O3 /")).split()[6:] == \
        ["3.00x", "3.00-3.00", "above", "1.00:", "faster"]   # and no floor reading
    assert "points lower" not in res.conclusion and "The fastest level here was O3." not in res.conclusion
    assert "O3 above 1.00: faster" in res.metrics["said"]


def test_dynamic_shapes_recompiles_or_not():
    p = bench.ShapesParams(n_shapes=2)
    res = shapes.summarise_dynamic_shapes(shuffled(shape_rows(True)), p)
    assert res.conclusion.startswith("2 batch shapes (64, 57) cost 2 compilations: 4.00 s of 4.06 s over 8 calls.")
    assert "time(s)" not in res.conclusion
    assert "did not recompile" not in res.conclusion
    res = shapes.summarise_dynamic_shapes(shape_rows(False), p)
    assert "Changing shapes did not recompile here" in res.conclusion
    assert res.conclusion.splitlines()[1].endswith("(2.58 s and 2.07 s for all 8 calls).")
    # two totals that print alike are said once
    same = [dict(r, per_call_s=[2.0] + [0.01] * 7) if r["config"] == "dynamic" else r for r in shape_rows(False)]
    assert shapes.summarise_dynamic_shapes(same, p).conclusion.splitlines()[1] == (
        "Compilations with a dynamic batch dimension: 1; with one fixed shape: 1 (2.07 s for all 8 calls, either way).")


def test_compile_calls_ignores_a_slow_step():
    assert bench.compile_calls([1.0, 0.01, 0.9, 0.01, 0.05, 0.01]) == [0, 2]   # 0.05: busy, not compiling
    assert bench.compile_calls([]) == []


def test_time_to_accuracy_measured_estimated_and_missed():
    p = bench.TimeToAccuracyParams(targets=(0.985, 0.99))
    best, rows = accuracy_rows()
    res = accuracy.summarise_time_to_accuracy(shuffled(rows), p)
    assert "To 99.0% test accuracy the course settings" in res.conclusion and "8.0x faster" in res.conclusion
    assert "(measured)" in res.conclusion and res.metrics["time_to_99_0_s"] == 20.0
    slower = accuracy.summarise_time_to_accuracy(best + step_rates(200.0), p)
    assert "took 2.0x as long: SLOWER" in slower.conclusion   # two ends less than 1% apart: one figure
    slower = accuracy.summarise_time_to_accuracy(best + step_rates(200.0, 130.0), p)
    assert "took 1.5-2.0x as long: SLOWER" in slower.conclusion   # estimated: the range, inverted
    # the estimate scales the course-settings run's measured time (input pipeline included) by the rate ratio
    est = accuracy.summarise_time_to_accuracy(best + step_rates(25.0), p)
    assert "estimates them at about 80.0 s from the two step rates. The course settings were 4.0x faster." in \
        est.conclusion
    assert est.row(config="0.990")["naive_s"] == pytest.approx(80.0)
    assert est.metrics["naive_time_to_99_0_s_estimate"] == pytest.approx(80.0)
    assert "naive_time_to_99_0_s_low" not in est.metrics
    # two estimates bracket the naive run: its steps at the naive rate alone, the course-settings run's time scaled by
    # the rates
    est = accuracy.summarise_time_to_accuracy(best + step_rates(25.0, 130.0), p)
    assert "estimates them at 80.0-104.0 s from the two step rates. The course settings were 4.0-5.2x faster." in \
        est.conclusion
    assert est.metrics["naive_time_to_99_0_s_low"] == pytest.approx(80.0)
    assert est.metrics["naive_time_to_99_0_s_high"] == pytest.approx(104.0)
    # the two ends as a table, each with its arithmetic: 2000 / 25.0 = 80.0 s; 20.0 s x 130.0 / 25.0 = 104.0 s
    lines = est.conclusion.splitlines()
    assert lines[-4].split() == ["estimate", "naive", "s", "speed-up", "(x)"]
    assert lines[-1].split() == ["scaled:", "20.0", "s", "x", "130.0", "/", "25.0", "steps/s", "104.0", "5.2"]
    assert lines[-2].split() == ["direct:", "2000", "steps", "/", "25.0", "steps/s", "80.0", "4.0"]
    # the step count known to one evaluation interval: the widened range, and its speed-up, are headline figures
    curve = [{"step": 1500, "accuracy": 0.985}, {"step": 2000, "accuracy": 0.99}]
    est = accuracy.summarise_time_to_accuracy([dict(r, curve=curve) for r in best] + step_rates(25.0), p)
    assert (est.metrics["naive_time_to_99_0_s_wide_low"], est.metrics["naive_time_to_99_0_s_wide_high"]) == \
        pytest.approx((60.0, 100.0))
    assert (est.metrics["speedup_to_99_0_wide_low"], est.metrics["speedup_to_99_0_wide_high"]) == \
        pytest.approx((3.0, 5.0))
    assert est.conclusion.splitlines()[-1].split() == ["1500-2500", "steps", "(one", "evaluation", "either", "way)",
                                                       "60-100", "3.0-5.0"]
    assert "noise_low" not in str(est.metrics) and "noise floor" not in est.conclusion   # no floor given: not widened
    # the widened range leads, the sentence and the first table alike; the two methods' range follows, labelled
    assert ("estimates them at 60-100 s from the two step rates. The course settings were 3.0-5.0x faster (the last "
            "row of the table below, with the step count's uncertainty); by the two methods alone, about 80.0 s and "
            "4.0x.") in est.conclusion
    assert (est.row(config="0.990")["naive_s_range"], est.row(config="0.990")["speedup_range"]) == ("60-100", "3.0-5.0")
    # the naive rate is unpaired: with part 1's floor the widest range widens by it, printed to two figures
    noisy = accuracy.summarise_time_to_accuracy([dict(r, curve=curve) for r in best] + step_rates(25.0),
                                                bench.TimeToAccuracyParams(targets=(0.985, 0.99), noise_pct=50.0))
    assert (noisy.metrics["naive_time_to_99_0_s_noise_low"], noisy.metrics["naive_time_to_99_0_s_noise_high"]) == \
        pytest.approx((40.0, 150.0))
    assert (noisy.metrics["speedup_to_99_0_noise_low"], noisy.metrics["speedup_to_99_0_noise_high"]) == \
        pytest.approx((2.0, 7.5))
    assert noisy.conclusion.splitlines()[-2].split()[-2:] == ["40-150", "2.0-7.5"]   # two significant figures
    assert noisy.conclusion.splitlines()[-2].startswith("and part 1's noise floor (50%) either way")
    assert noisy.conclusion.splitlines()[-1].startswith("The last row widens by part 1's noise floor")
    assert "were 2.0-7.5x faster (the last row of the table below, with the step count's uncertainty and part 1's " \
           "noise floor); by the two methods alone" in noisy.conclusion
    missed = [dict(r, step=None, train_s=None) if r["target"] == 0.99 else r for r in best]
    res = accuracy.summarise_time_to_accuracy(missed + step_rates(25.0), p)
    assert "The 99.0% target was not reached within the 60 s limit" in res.conclusion


def test_train_to_accuracy_summary():
    rows = [{"target": 0.9, "step": 50, "train_s": 3.0}, {"target": 0.99, "step": None, "train_s": None}]
    assert accuracy.summarise_train_to_accuracy(rows, bench.TrainParams(targets=(0.9, 0.99))).conclusion \
        == "Reached 90.0% after 3 s."
    none = [dict(rows[1])]
    assert "No target reached" in accuracy.summarise_train_to_accuracy(none, bench.TrainParams(targets=(0.99,))
                                                                        ).conclusion


class FakeFit:
    def __init__(self):
        self.evals, self.global_step, self.train_seconds = [], 0, 0.0


def test_stop_when_stops_fit_at_the_targets_or_the_limit():
    stop = bench.StopWhen((0.99, 0.98), time_limit=100)
    r = FakeFit()
    for step, acc in ((100, 0.97), (200, 0.985)):
        r.global_step, r.train_seconds = step, step / 10
        r.evals.append({"step": step, "accuracy": acc, "train_seconds": step / 10})
        assert stop(r) is False
    assert list(stop.reached) == [0.98]
    r.global_step = 300
    r.evals.append({"step": 300, "accuracy": 0.991, "train_seconds": 30})
    assert stop(r) is True
    assert stop.reached[0.99]["step"] == 300
    late = bench.StopWhen((0.99,), time_limit=5)
    r = FakeFit()
    r.global_step, r.train_seconds = 10, 6.0
    assert late(r) is True
    assert late.reached == {}


def test_sink_mode_summary():
    rows = [rate("sink off", 100, key="batches_per_s"), rate("sink on, sink_size 10", 300, key="batches_per_s")]
    res = sink.summarise_sink_mode(shuffled(rows), bench.SinkParams(device="Ascend", sink_sizes=(10,)))
    assert "the fastest was sink on, sink_size 10 at 300 (3.0x, faster than sink off)" in res.conclusion
    rows[1] = rate("sink on, sink_size 10", 90, key="batches_per_s")
    assert "no sink size beat it" in sink.summarise_sink_mode(rows, bench.SinkParams(sink_sizes=(10,))).conclusion


def test_the_best_run_is_the_fastest_row_of_the_traps_or_of_its_tie():
    rows = [dict(rate(cfg, sps), case=case) for case, cfg, sps in (
        ("no fixes", "graph/cell", 12), ("ONEDNN_MAX_CPU_ISA=AVX2", "graph/cell", 96),
        ("MS_DEV_HOST_BLOCKING_RUN=1", "graph/cell", 13), ("both fixes", "graph/cell", 80),
        ("no fixes", "pynative/cell", 3), ("ONEDNN_MAX_CPU_ISA=AVX2", "pynative/cell", 7),
        ("MS_DEV_HOST_BLOCKING_RUN=1", "pynative/cell", 12), ("both fixes", "pynative/cell", 42))]
    traps_res = bench.Result("cpu_traps", rows, [], "")
    assert bench.experiments.eager("pynative/cell") and not bench.experiments.eager("pynative/jit_cell:O1")
    # lesson 08's best run: the fastest (configuration, environment); of a tie, the configuration asked for first
    fastest = bench.experiments.fastest_run
    assert fastest(traps_res, 10) == ("graph/cell", "ONEDNN_MAX_CPU_ISA=AVX2", {"ONEDNN_MAX_CPU_ISA": "AVX2"})
    rows[7]["steps_per_s"] = 200
    assert fastest(traps_res, 10)[:2] == ("pynative/cell", "both fixes")
    assert fastest(traps_res, 200)[0] == "graph/cell"   # everything ties: the first configuration


def test_pool_cap_judges_each_pooling_layer_with_the_cap_against_without():
    def layer(case, name, ms, process):
        return dict(rate(name, 1e3 / ms, spread=0.05), case=case, layer=name, kind="layer", process=process)

    rows = []
    for process, case in enumerate(("no ISA cap", "ONEDNN_MAX_CPU_ISA=AVX2", "ONEDNN_MAX_CPU_ISA=AVX2", "no ISA cap")):
        slow = case != "no ISA cap"
        rows += [layer(case, "relu+pool 1", 2.6 if slow else 1.3, process),
                 layer(case, "relu+pool 2", 0.5, process)]
    rows += [{"case": "no ISA cap", "kind": "onednn", "implementation": "jit:avx512_core"},
             {"case": "ONEDNN_MAX_CPU_ISA=AVX2", "kind": "onednn", "implementation": "simple_nchw:any"}]
    res = traps.summarise_pool_cap(shuffled(rows), bench.PoolCapParams(noise_pct=20))
    # the verdict is the paired interval's (the rate with the cap over without): below 1.00 slower, 1.00 inside a tie
    assert res.metrics["pool_cap_verdicts"] == {"relu+pool 1": "slower", "relu+pool 2": "tie"}
    assert res.metrics["pool_ms_avx2"] == pytest.approx(3.1) and res.metrics["pool_ms_uncapped"] == pytest.approx(1.8)
    table = res.conclusion.splitlines()   # a verdict table: one row per layer, the rate with the cap over without
    assert table[2].split()[:8] == ["relu+pool", "1:", "with", "the", "cap", "/", "without", "0.50x"]
    assert table[2].endswith("below 1.00: slower")
    assert table[3].split()[7] == "1.00x" and table[3].endswith("not separated (up to 0% not ruled out)")
    # where the medians would say "undecided" but the pairs lie above 1.00, the rule says slower
    wobbly = [dict(r, repeat_s=[s * (1.3 if i % 2 else 0.75) for i, s in enumerate(r["repeat_s"])])
              if r.get("config") == "relu+pool 2" else r for r in rows]
    for r in wobbly:
        if r.get("config") == "relu+pool 2" and r["case"] != "no ISA cap":
            r["repeat_s"] = [1.2 * s for s in r["repeat_s"]]
            r["steps_per_s"] /= 1.2
    got = traps.summarise_pool_cap(wobbly, bench.PoolCapParams(noise_pct=5))
    assert got.metrics["pool_cap_verdicts"]["relu+pool 2"] == "slower"
    assert bench.verdict(*(bench.Timing.from_row(traps.pick(traps.merge_rounds(
        [r for r in wobbly if r.get("kind") == "layer"]), case=c, config="relu+pool 2"))
        for c in ("ONEDNN_MAX_CPU_ISA=AVX2", "no ISA cap")), 5) != "slower"
    assert "'jit:avx512_core' without the cap, 'simple_nchw:any' with it." in res.conclusion
    assert [r["processes"] for r in res.rows] == [2, 2, 2, 2]


def test_a_rewrite_faster_than_pooling_s_share_allows_is_not_trusted_for_its_size(monkeypatch):
    """explain_pool_rewrites: the verdict is the paired interval; even free pooling kernels make a step at most
    1 / (1 - share) as fast, with pooling's share of operator time from the profile; a larger gain is flagged (the
    machine changed during the alternation) and the advice softened. The advice names the setting it was measured
    in."""
    monkeypatch.setenv("ONEDNN_MAX_CPU_ISA", "AVX2")
    said = {"tie": "a tie", "undecided": "undecided", "faster": "faster", "slower": "slower"}
    pools = {name: bench.Timing.from_row(rate(name, sps)) for name, sps in
             (("nn.MaxPool2d", 50.0), ("ops.max_pool2d", 20.0), ("reshape + max", 70.0))}
    # 1.40x, with pooling 20% of operator time: at most 1 / (1 - 0.20) = 1.25x
    text = traps.explain_pool_rewrites(pools, 10, said, pool_share=20.0)
    lines = text.splitlines()   # a verdict table: one row per rewrite
    assert lines[2].startswith("ops.max_pool2d / nn.MaxPool2d") and squeezed(lines[2]).endswith(
        "0.40x 0.40-0.40 below 1.00: slower")
    assert lines[3].startswith("reshape + max / nn.MaxPool2d") and lines[3].endswith("above 1.00: faster")
    assert "= 1.25x as fast; reshape + max's 1.40x is more: a rewrite also changes" in text
    where = "with ONEDNN_MAX_CPU_ISA=AVX2, on this CPU"
    assert f"Worth trying {where}: reshape + max" in text and "Worth switching" not in text
    text = traps.explain_pool_rewrites(pools, 10, said, pool_share=40.0)   # within the bound (1.67x): plain advice
    assert f"Faster here {where}: reshape + max, a candidate, not a default" in text \
        and "= 1.67x as fast; reshape + max's 1.40x stays under it." in text
    text = traps.explain_pool_rewrites(pools, 10, said, pool_share=29.0)   # 1 / (1 - 0.29) = 1.41x: reached
    assert "= 1.41x as fast; reshape + max's 1.40x stays under it." in text
    text = traps.explain_pool_rewrites(pools, 10, said, pool_share=28.6)   # printed 29%: the same bound as shown
    assert "reshape + max's 1.40x stays under it." in text
    assert f"Faster here {where}: reshape + max" in traps.explain_pool_rewrites(pools, 10, said)   # no profile
    monkeypatch.delenv("ONEDNN_MAX_CPU_ISA")
    assert "Faster here on this CPU: reshape + max" in traps.explain_pool_rewrites(pools, 10, said)


def test_a_pooling_rewrite_s_saving_is_compared_in_ms_with_all_of_pooling_and_read_against_a_copy(monkeypatch):
    monkeypatch.delenv("ONEDNN_MAX_CPU_ISA", raising=False)
    pools = {name: bench.Timing.from_row(rate(name, sps)) for name, sps in
             (("nn.MaxPool2d", 50.0), ("ops.max_pool2d", 20.0), ("reshape + max", 70.0),
              ("nn.MaxPool2d again", 50.0))}
    # 20 ms -> 14.3 ms: 5.7 ms saved, more than the 2.6 ms of pooling in the profile
    text = traps.explain_pool_rewrites(pools, 10, pool_ms=2.6, copy="nn.MaxPool2d again")
    lines = text.splitlines()
    assert lines[2].startswith("nn.MaxPool2d again / nn.MaxPool2d (control)") and \
        lines[2].endswith("1.00 inside, as it should be")   # the control first
    assert "reshape + max saves 5.7 ms per step here (20.0 -> 14.3 ms, the medians of this block). All pooling " \
        "(MaxPool and MaxPoolGrad) takes 2.6 ms per step in the profile with the cap, so the saving is larger than " \
        "all of pooling's kernel time. A rewrite" in text
    assert "Worth trying on this CPU: reshape + max" in text and "nn.MaxPool2d again /" not in lines[3:]
    assert "and the saving is within it." in traps.explain_pool_rewrites(pools, 10, pool_ms=6.0)
    # the copy 1.50x apart: the rewrite's 1.40x lies within the copies' gap, so it is no winner
    pools["nn.MaxPool2d again"] = bench.Timing.from_row(rate("nn.MaxPool2d again", 75.0))
    text = traps.explain_pool_rewrites(pools, 10, copy="nn.MaxPool2d again")
    assert "apart: a rewrite within this gap is not read" in text
    assert "Keep nn.MaxPool2d" in text
    # ...and with the profile's bound: no saving is set beside it, one line says none is read
    text = traps.explain_pool_rewrites(pools, 10, pool_ms=2.6, copy="nn.MaxPool2d again")
    assert "reshape + max: within the copies' gap (copies up to 50% apart), so no saving is read." in text
    assert "saves" not in text and "All pooling" not in text


def test_a_pooling_rewrite_s_ms_line_is_printed_only_where_the_medians_agree_with_the_paired_median(monkeypatch):
    monkeypatch.delenv("ONEDNN_MAX_CPU_ISA", raising=False)

    def timed(name, sps, rates):   # repeats of 10 steps at these rates, the median rate ``sps``
        return bench.Timing.from_row(dict(rate(name, sps), repeat_s=[10 / r for r in rates]))

    # paired round by round 1.20 in eight rounds and 0.99 in one: faster (1.20-1.20); the medians 100 -> 99 steps/s
    pools = {"nn.MaxPool2d": timed("nn.MaxPool2d", 100.0, (40, 40, 40, 40, 100, 100, 100, 100, 100)),
             "reshape + max": timed("reshape + max", 99.0, (48, 48, 48, 48, 99, 120, 120, 120, 120))}
    text = traps.explain_pool_rewrites(pools, 10, pool_ms=2.6)
    assert "above 1.00: faster" in text and "saves" not in text
    assert "reshape + max: the paired median (1.20x) and the medians (10.0 -> 10.1 ms per step) disagree in " \
        "direction: the block drifted" in text


def _timed(config, sps, wobble, n=5, **fields):
    """A made-up row of ``n`` repeats of 10 steps, each off ``sps`` by ``wobble[i % len(wobble)]``."""
    return dict(rate(config, sps, **fields), repeat_s=[10 / (sps * (1 + wobble[i % len(wobble)])) for i in range(n)])


def test_modes_prints_its_control_first_and_widens_its_intervals_when_the_copy_leaves_out_one():
    p = bench.ModesParams(specs=("pynative/cell", "graph/cell"))
    wobble = (0, 0.05, -0.05, 0.02, -0.02)
    base = [_timed("pynative/cell", 20, wobble), _timed("graph/cell", 80, wobble)]
    same = dict(_timed("graph/cell copy", 80, wobble[::-1]), label="GRAPH_MODE, TrainOneStepCell, second copy")
    lines = modes.summarise_modes(shuffled(base + [same]), p).conclusion.splitlines()
    assert lines[2].startswith("control: GRAPH_MODE, TrainOneStepCell, A′ / A") and "0.97-1.03" in lines[2]
    assert lines[2].endswith("1.00 inside, as it should be")
    assert lines[3].startswith("GRAPH_MODE / PyNative, TrainOneStepCell") and lines[3].endswith("above 1.00: faster")
    assert not any(line.startswith("Verdict") for line in lines)
    # the copy 15% faster in every round: the intervals are widened by the copies' gap (x1/1.15 at the low end,
    # x1.15 at the high end) and read as usual
    apart = dict(_timed("graph/cell copy", 92, wobble), label="GRAPH_MODE, TrainOneStepCell, second copy")
    res = modes.summarise_modes(shuffled(base + [apart]), p)
    lines = res.conclusion.splitlines()
    assert lines[2].endswith("apart: the rows below widened by its gap")
    # paired with both copies (their intervals together, 4.00-4.60), as [13] says, then widened: 3.48-5.29
    assert lines[3].split()[-5:] == ["4.00x", "3.48-5.29", "above", "1.00:", "faster"]
    assert not any(line.startswith("Verdict") for line in lines)
    assert res.metrics["graph_vs_pynative_control_low"] == pytest.approx(1.15)
    assert (res.metrics["graph_vs_pynative_low"], res.metrics["graph_vs_pynative_high"]) == (3.48, 5.29)
    # the copy 50% faster, as in a stored five-round run (1.02-1.54): widened by that gap, a 4x is still faster
    far = dict(_timed("graph/cell copy", 120, wobble), label="GRAPH_MODE, TrainOneStepCell, second copy")
    lines = modes.summarise_modes(shuffled(base + [far]), p).conclusion.splitlines()
    assert lines[2].endswith("apart: the rows below widened by its gap")
    assert lines[3].split()[-5:] == ["4.00x", "2.67-9.00", "above", "1.00:", "faster"]


def test_a_wide_control_holding_one_says_how_far_its_copies_came_apart_and_decides_each_row_by_the_gap_rule():
    # lesson 08's rule in lesson 07 too: no row is blanked by its control's width; a row beyond the copies' gap is
    # read, a row within it is not
    p = bench.ModesParams(specs=("pynative/cell", "graph/cell", "pynative/functional", "pynative/jit:O0"))
    wobble = (0, 0.05, -0.05, 0.02, -0.02)
    base = [_timed("pynative/cell", 20, wobble), _timed("graph/cell", 80, wobble),
            _timed("pynative/functional", 10, wobble), _timed("pynative/jit:O0", 11, wobble)]
    copy = dict(_timed("graph/cell copy", 80, (0.2, -0.15, 0.1, -0.1, 0.0)),
                label="GRAPH_MODE, TrainOneStepCell, second copy")
    res = modes.summarise_modes(shuffled(base + [copy]), p)
    lines = res.conclusion.splitlines()
    assert "0.81-1.20" in lines[2] and lines[2].endswith(
        "1.00 inside, but the copies came up to 23% apart: only a row beyond that gap is read")
    assert lines[3].startswith("GRAPH_MODE / PyNative") and lines[3].split()[-5:] == [
        "4.00x", "3.24-4.80", "above", "1.00:", "faster"]
    assert lines[4].startswith("@jit O0 / no jit") and lines[4].endswith(
        "1.10-1.10  within the copies' gap (copies up to 23% apart)")
    assert "too wide" not in res.conclusion and "undecided" not in res.conclusion
    assert lines[-1] == ("This run found: GRAPH_MODE faster than PyNative; @jit within the copies' gap of no jit; "
                         "TrainOneStepCell faster than @jit.")
    assert res.metrics["graph_vs_pynative_verdict"] == "above"
    assert modes.pair_reading(res.metrics, "graph_vs_pynative") == "above 1.00: faster"
    assert modes.pair_reading(res.metrics, "jit_vs_no_jit") == "within the copies' gap (copies up to 23% apart)"
    assert modes.advice_of(res.metrics) == "cell"   # TrainOneStepCell beyond the gap of @jit O0


def test_the_control_line_says_how_far_the_copies_came_apart():
    from course_utils.bench.experiments import common

    assert common.control_reading(0.95, 1.08) == "1.00 inside, as it should be"
    assert common.control_reading(0.91, 1.10) == "1.00 inside, as it should be"   # 1/0.91 = 1.099: within 10%
    assert common.control_reading(0.60, 1.31) == ("1.00 inside, but the copies came up to 67% apart: only a row beyond "
                                                  "that gap is read")
    assert common.control_reading(0.95, 1.12) == ("1.00 inside, but the copies came up to 12% apart: only a row beyond "
                                                  "that gap is read")
    assert common.control_reading(1.02, 1.54) == "apart: the rows below widened by its gap"
    assert common.control_reading(0.50, 0.98) == "apart: the rows below widened by its gap"
    # a lab that does something else with an apart control says what, through the same function
    assert common.control_reading(1.02, 1.54, apart=traps.REWRITE_APART) == ("apart: a rewrite within this gap is not "
                                                                             "read")
    assert common.control_reading(0.95, 1.08, apart=traps.REWRITE_APART) == "1.00 inside, as it should be"
    # cell 13's examples: copies up to 39% apart (0.72-1.11) blank no row
    assert common.short_reading(6.0, 14.0, (0.72, 1.11)) == "above 1.00: faster"
    assert common.short_reading(1.12, 5.25, (0.72, 1.11)) == "within the copies' gap (copies up to 39% apart)"
    # lesson 08's ops.max_pool2d: 0.16-0.24 against a control of 0.77-1.47 lies beyond the gap (1/0.24 = 4.2)
    assert common.short_reading(0.16, 0.24, (0.77, 1.47)) == "below 1.00: slower"


def test_modes_and_batch_sizes_judge_against_the_floor_of_their_own_copy():
    p = bench.ModesParams(specs=("pynative/cell", "graph/cell", "pynative/jit:O1"), noise_pct=40)
    assert p.copy == "graph/cell"
    rows = [_timed("pynative/cell", 20, (0, 0.02, -0.02)), _timed("graph/cell", 80, (0, 0.01, -0.01, 0.02)),
            _timed("pynative/jit:O1", 100, (0, 0.01, -0.01)),
            dict(_timed("graph/cell copy", 81, (0.01, -0.01, 0)), label="GRAPH_MODE, TrainOneStepCell, second copy")]
    res = modes.summarise_modes(shuffled(rows), p)
    floor = bench.noise_floor_pct(rows[1], rows[3])
    assert floor < 10 and res.metrics["modes_noise_floor_pct"] == floor
    assert "Noise floor" not in res.conclusion   # the paired verdicts are printed, the floor only picks best_config
    # +25% is beyond this grid's floor (part 1's 40% passed in would have called it a tie); the copy is no contestant
    assert len(res.rows) == 4 and res.metrics["best_config"] == "pynative/jit:O1"
    with pytest.raises(ValueError, match="copy must be one of the specs"):
        bench.ModesParams(specs=("graph/cell",), copy="pynative/cell")
    assert bench.ModesParams(specs=("pynative/cell",)).copy == "pynative/cell"

    bp = bench.BatchSizesParams(batch_sizes=(32, 64, 128), noise_pct=50)
    assert bp.copy_size == 64
    sizes = [_timed(f"batch {b}", s, (0, 0.01, -0.01), batch_size=b, samples_per_s=b * s)
             for b, s in ((32, 100), (64, 60), (128, 36))]
    sizes.append(dict(_timed("batch 64 copy", 61, (0.01, 0, -0.01)), batch_size=64, samples_per_s=64 * 61,
                      label="batch 64, second copy"))
    res = modes.summarise_batch_sizes(shuffled(sizes), bp)
    floor = bench.noise_floor_pct(sizes[1], sizes[3])
    assert "Noise floor" not in res.conclusion   # the rounds are paired: the floor decides nothing here
    assert "Batch 128 ranks first by the paired ratios" in res.conclusion   # 4,608 vs 3,840
    assert [r["config"] for r in res.rows] == ["batch 32", "batch 64", "batch 64 copy", "batch 128"]
    assert "batch_sizes_noise_floor_pct" not in res.metrics and floor < 50   # only the medians' rule used it


def _styles_rows(cell_rate, wobble):
    """The styles experiment's rows: the functional step at 100 steps/s, TrainOneStepCell at ``cell_rate`` and the
    functional step's copy, 20 rounds each with the same ``wobble``, then the three pipeline-fed rows."""
    in_memory = [("graph/functional", 100, {"claim_s": 30.0}), ("graph/cell", cell_rate, {}), (modes.COPY, 100, {})]
    return ([_timed(config, sps, wobble, n=20, input=modes.IN_MEMORY, **extra) for config, sps, extra in in_memory]
            + _pipeline_rows())


def test_styles_headline_verdict_comes_from_the_paired_interval():
    rows = _styles_rows(103, (0, 0.1, -0.1, 0.05))
    res = modes.summarise_styles(rows, bench.StylesParams(noise_pct=20))
    # every round 3% faster, though the rounds wobble by 10%: the paired interval sees it
    assert res.metrics["cell_vs_functional"] == pytest.approx(1.03)
    assert res.metrics["cell_vs_functional_low"] > 1 and res.metrics["cell_vs_functional_verdict"] == "above"
    # where the claim and 1.00 lie, one clause each (judged as printed, two decimals; 0.02 of an end is its edge)
    assert modes.claim_reading(1.001, 1.10) == ("The article's 1.15x lies above the interval, ruled out here; 1.00 "
                                                "(no difference) lies inside it, not ruled out.")
    assert modes.claim_reading(1.02, 1.14).startswith("The article's 1.15x lies at the interval's upper edge")
    assert modes.claim_reading(0.9, 0.98).endswith("1.00 lies above it: TrainOneStepCell was slower.")


def test_headline_names_a_paired_verdict(tmp_path, capsys):
    import time

    lab = bench.Lab(tmp_path, "graph")
    metrics = {"cell_vs_functional": 1.03, "cell_vs_functional_low": 0.98, "cell_vs_functional_high": 1.09,
               "cell_vs_functional_verdict": "inside", "cell_vs_functional_together": True}
    lab.results["styles"] = bench.Result("styles", [], [], "", metrics)
    figures = lab.headline(["styles"], 10.0, time.perf_counter())
    out = capsys.readouterr().out
    assert "1.00 inside the two paired intervals together, 0.98-1.09: a tie" in out
    assert out.splitlines()[3].endswith("0.98-1.09: a tie")   # a text column aligned left: no padding before it
    assert " 1.03 " in out   # a ratio with two decimals in the value column
    assert figures["cell_vs_functional_low"] == 0.98 and "cell_vs_functional_low" not in out
    # above 1.00: the medians' verdict beside it, and the A/A' control's caveat, which is no row of its own
    metrics.update(cell_vs_functional_low=1.02, cell_vs_functional_high=1.12, cell_vs_functional_verdict="above",
                   cell_vs_functional_medians="tie", cell_vs_functional_control_low=0.84,
                   cell_vs_functional_control_high=0.98)
    lab.headline(["styles"], 10.0, time.perf_counter())
    out = capsys.readouterr().out
    assert ("the two paired intervals together 1.02-1.12, above 1.00: faster; medians: a tie; widened by the control "
            "(the copy against its original 0.84-0.98)") in out
    assert "_control" not in out and "_range" not in out


def test_headline_reads_part_2s_ratios_by_their_paired_interval_and_shows_no_medians_floor(tmp_path, capsys):
    import time

    lab = bench.Lab(tmp_path, "graph")
    metrics = {"graph_vs_pynative": 2.39, "graph_vs_pynative_low": 1.83, "graph_vs_pynative_high": 2.76,
               "graph_vs_pynative_verdict": "above", "jit_vs_no_jit": 0.97, "jit_vs_no_jit_low": 0.9,
               "jit_vs_no_jit_high": 1.1, "jit_vs_no_jit_verdict": "inside", "modes_noise_floor_pct": 20.8}
    lab.results["modes"] = bench.Result("modes", [], [], "", metrics)
    figures = lab.headline(["modes"], None, time.perf_counter())
    out = capsys.readouterr().out
    assert "95% paired interval 1.83-2.76, above 1.00: faster" in out
    assert "95% paired interval 0.90-1.10, 1.00 inside: a tie" in out
    lab.headline(["modes"], None, time.perf_counter(), bound=True)   # lesson 07's reading
    assert "95% paired interval 0.90-1.10, 1.00 inside: not separated; differences up to 11% not ruled out" in \
        capsys.readouterr().out
    assert "noise floor" not in out and "beyond the noise floor" not in out and "modes_noise_floor_pct" not in figures


def test_headline_shows_an_estimated_naive_time_as_one_row_of_its_two_ends(tmp_path, capsys):
    """QUICK runs estimate the naive time as a range (only its two ends are metrics): the table still has its row."""
    import time

    lab = bench.Lab(tmp_path, "graph")
    metrics = {"time_to_98_5_s": 20.9, "naive_time_to_98_5_s_low": 172.2, "naive_time_to_98_5_s_high": 248.6}
    lab.results["time_to_accuracy"] = bench.Result("time_to_accuracy", [], [], "", metrics)
    figures = lab.headline(["time_to_accuracy"], 10.0, time.perf_counter())
    out = capsys.readouterr().out
    line = next(line for line in out.splitlines() if "naive defaults to 98.5%" in line)
    assert "estimated range" in line and line.rstrip().endswith("172.2-248.6")
    assert "low end" not in out and figures["naive_time_to_98_5_s_low"] == 172.2   # record() keeps both ends


def test_headline_quotes_only_the_noise_widened_range_to_two_figures(tmp_path, capsys):
    import time

    lab = bench.Lab(tmp_path, "graph")
    metrics = {"time_to_98_5_s": 29.6, "naive_time_to_98_5_s_low": 742.9, "naive_time_to_98_5_s_high": 755.2,
               "naive_time_to_98_5_s_wide_low": 685.8, "naive_time_to_98_5_s_wide_high": 813.3,
               "speedup_to_98_5_wide_low": 23.2, "speedup_to_98_5_wide_high": 27.5,
               "naive_time_to_98_5_s_noise_low": 466.5, "naive_time_to_98_5_s_noise_high": 1195.6,
               "speedup_to_98_5_noise_low": 15.8, "speedup_to_98_5_noise_high": 40.4}
    lab.results["time_to_accuracy"] = bench.Result("time_to_accuracy", [], [], "", metrics)
    lab.headline(["time_to_accuracy"], 47.0, time.perf_counter())
    out = capsys.readouterr().out
    assert "742.9" not in out and "685.8" not in out and "23.2" not in out   # the narrower ranges: not quoted
    assert next(line for line in out.splitlines() if "naive defaults to 98.5%" in line).rstrip().endswith("470-1200")
    assert next(line for line in out.splitlines() if "speed-up to 98.5%" in line).rstrip().endswith("16-40")


def test_verdicts_name_the_edge_the_undecided_and_never_the_copy():
    # the claim just above the interval (margin < 0.02): at its edge, not ruled out
    rows = _styles_rows(113.5, (0, 0.01, -0.01, 0.005))
    res = modes.summarise_styles(rows, bench.StylesParams(noise_pct=20))
    first = next(line for line in res.conclusion.splitlines() if line.startswith("The article's"))
    # in memory first, then the pipeline's pair, in one sentence
    assert first.startswith("The article's 1.15x: in memory, at the interval's edge; fed by the pipeline, ")
    # a configuration beyond the floor whose repeats overlap the leader's is named undecided
    p = bench.ModesParams(specs=("pynative/cell", "graph/cell", "pynative/jit:O1"), noise_pct=4)
    grid = [rate("pynative/cell", 70, spread=0.3), rate("graph/cell", 76, spread=0.01),
            rate("pynative/jit:O1", 90, spread=0.01)]
    res = _medians(grid, p)
    assert ("Undecided against the highest median (beyond the floor, repeats overlapping): PyNative, "
            "TrainOneStepCell.") in res.conclusion
    # the second copy is never the highest step rate named, even with the highest median
    copy = dict(rate("graph/cell copy", 200), label="GRAPH_MODE, TrainOneStepCell, second copy")
    _, text = modes.best_measured({"modes": bench.Result("modes", grid + [copy], [], "", {})})
    assert text.startswith("The highest step rate of experiment [modes]: 90.0 steps/s") and "second copies" in text


def test_batch_sizes_says_undecided_on_the_medians():
    rows = [rate("batch 32", 100, spread=0.7, batch_size=32, samples_per_s=3200),
            rate("batch 64", 80, spread=0.02, batch_size=64, samples_per_s=5120),
            rate("batch 128", 30, spread=0.02, batch_size=128, samples_per_s=3840)]
    bare = [{k: v for k, v in r.items() if k != "repeat_s"} for r in rows]   # no rounds: the overlap rule alone
    res = modes.summarise_batch_sizes(bare, bench.BatchSizesParams(batch_sizes=(32, 64, 128), noise_pct=5))
    assert "Undecided against it (beyond the floor, repeats overlapping): batch 32." in res.conclusion
    assert "Slower than it, beyond the noise floor with repeats apart: batch 128." in res.conclusion
    # with the rounds: batch 32's own rounds scatter by 70%, so pairing does not separate it either
    res = modes.summarise_batch_sizes(rows, bench.BatchSizesParams(batch_sizes=(32, 64, 128), noise_pct=5))
    assert ("Verdict, from the paired intervals: batch 64 is faster than batch 128 (interval above 1.00); it is not "
            "separated from batch 32 (interval containing 1.00).") in res.conclusion
    assert "overlap rule" not in res.conclusion and "two rules" not in res.conclusion   # one rule: the paired one


def test_batch_sizes_verdict_when_the_control_fails_or_a_size_wins_round_by_round():
    bp = bench.BatchSizesParams(batch_sizes=(32, 64, 128), noise_pct=50)
    sizes = [_timed(f"batch {b}", s, (0, 0.01, -0.01), batch_size=b, samples_per_s=b * s)
             for b, s in ((32, 100), (64, 60), (128, 36))]
    # the copy 10% slower in every round: one configuration, two instances apart, so every interval is widened by
    # their gap (x1/1.1 at the low end, x1.1 at the high end) before it is read
    apart = dict(sizes[1], config="batch 64 copy", label="batch 64, second copy",
                 repeat_s=[t * 1.1 for t in sizes[1]["repeat_s"]])
    res = modes.summarise_batch_sizes(sizes + [apart], bp)
    lines = res.conclusion.splitlines()
    lines = lines[next(i for i, line in enumerate(lines) if line.startswith("comparison")):]   # the verdict table
    # the control first, then the pairs, batch 64 against both of its copies (their intervals together)
    assert lines[2].startswith("control: batch 64, A′ / A") and "0.91-0.91" in lines[2]
    assert lines[2].endswith("apart: the rows below widened by its gap")
    assert lines[3].split()[-6:-3] == ["32", "1.44x", "1.31-1.58"] and lines[4].split()[-6:-3] == ["64", "1.20x",
                                                                                                  "1.09-1.45"]
    # what the verdicts read: widened too
    assert modes.sweep_intervals(sizes + [apart])[64] == pytest.approx((1.2, 1.2 / 1.1, 1.32 * 1.1))
    assert lines[5] == ("Verdict, from the paired intervals: batch 128 is faster than batch 32, 64 (intervals above "
                        "1.00).")
    assert res.metrics["batch_sizes_slower"] == 2
    # the highest median, yet behind another size in every round: ranked by the rounds, not by the medians
    top = dict(sizes[2], repeat_s=[10 / r for r in (36, 35, 40, 36, 37)])   # batch 128: 4,480-5,120 samples/s
    rival = dict(sizes[1], repeat_s=[10 / r for r in (80, 80, 85, 80, 82)])   # batch 64: 5,120-5,440 a round
    rival.update(steps_per_s=60, min_steps_per_s=58, max_steps_per_s=62)
    res = modes.summarise_batch_sizes([sizes[0], rival, top], bp)
    assert res.metrics["top_batch_size"] == 64
    assert "Verdict, from the paired intervals: batch 64 is faster than batch 32, 128" in res.conclusion


def test_forcing_compiled_pair_drift_and_dynamic_lines():
    # rule 2 in a fresh process: three lines, each paired round by round (check 2's rule): the control first
    rows = [_timed("each", 100, (0, 0.01, -0.01)), _timed("each copy", 101, (0.01, 0, -0.01)),
            _timed("end", 104, (0, 0.01, -0.01)), _timed("none", 300, (0, 0.01, -0.01))]
    rows = [dict(r, host_blocking="") for r in rows]
    res = modes.summarise_forcing(rows, bench.ForcingParams())
    lines = res.conclusion.splitlines()
    assert len(lines) == 5   # one verdict table: its head, the control, then the two pairs
    assert lines[2].startswith("control: forced every step, A′ / A") and lines[2].endswith(
        "1.00-1.02  1.00 inside, as it should be")
    assert lines[3].startswith("forced at the end of each repeat / every step")
    assert lines[4].startswith("not forced / forced every step") and lines[4].split()[-5:] == [
        "3.00x", "2.94-3.00", "above", "1.00:", "faster"]
    assert res.metrics["forced_each_steps_per_s"] == 100 and res.metrics["none_vs_each_side"] == "above"
    # not forced below forced every step in every round: skipping a wait cannot do that
    low = rows[:3] + [dict(_timed("none", 90, (0, 0.01, -0.01)), host_blocking="")]
    said = modes.summarise_forcing(low, bench.ForcingParams()).conclusion.splitlines()[4]
    assert "below 1.00: inconclusive" in said and "slower" not in said.replace("cannot make the same work slower", "")
    assert said.endswith("or the code around the step)")
    # part 3 quotes part 2's compiled pairs, judged against part 2's own floor
    grid = modes.summarise_modes([rate("graph/cell", 80.0), rate("pynative/jit:O0", 79.0)],
                                 bench.ModesParams(specs=("graph/cell", "pynative/jit:O0"), copy="", noise_pct=5))
    assert modes.compiled_pair(grid, 5.0) == ("Part 2, same alternation: GRAPH_MODE, TrainOneStepCell 80.0 vs "
                                              "PyNative, @jit functional step O0 79.0 steps/s, 1.01x, a tie within "
                                              "the noise floor of 5.0%.")
    both = modes.summarise_modes([rate("graph/cell", 80.0), rate("pynative/jit:O0", 79.0),
                                  rate("pynative/jit:O1", 60.0), rate("pynative/jit_cell:O1", 90.0)],
                                 bench.ModesParams(specs=("graph/cell", "pynative/jit:O0", "pynative/jit:O1",
                                                          "pynative/jit_cell:O1"), copy="", noise_pct=5))
    pairs = modes.compiled_pair(both, 5.0).splitlines()
    assert len(pairs) == 2 and pairs[1].startswith("Part 2, same alternation: PyNative, jit(TrainOneStepCell) O1 "
                                                   "90.0 vs PyNative, @jit functional step O1 60.0 steps/s, 1.50x")
    # the tie rule at the bottom: every configuration within the floor of the lowest median is listed
    assert "Tied at the bottom, within the noise floor (79.0-80.0 steps/s)" not in both.conclusion
    low = _medians([rate("pynative/cell", 69.8), rate("pynative/functional", 70.4),
                                 rate("graph/cell", 150.0)],
                                bench.ModesParams(specs=("pynative/functional", "pynative/cell", "graph/cell"),
                                                  copy="", noise_pct=5))
    assert ("Tied at the bottom, within the noise floor (69.8-70.4 steps/s): PyNative, TrainOneStepCell; "
            "PyNative, functional step.") in low.conclusion and "Slowest:" not in low.conclusion
    # the highest rate's configuration measured again in another experiment: another alternation, so the two figures
    # are said side by side and not compared (no floor, no second rule). The lesson names its parts.
    styles = bench.Result("styles", [dict(rate("graph/cell", 93.0), input=modes.IN_MEMORY)], [], "",
                          {"claim_noise_floor_pct": 7.5})
    grid.metrics["modes_noise_floor_pct"] = 20.3
    _, text = modes.best_measured({"modes": grid, "styles": styles}, {"modes": "part 2", "styles": "part 3"})
    assert text.startswith("The highest step rate: 93.0 steps/s, GRAPH_MODE, TrainOneStepCell (this kernel, CPU "
                           "settings on), in part 3.")
    assert ("GRAPH_MODE, TrainOneStepCell also ran at 80.0 steps/s in part 2, 16.3% apart: two separate alternations, "
            "so the two figures are not compared (the machine's speed moves between them).") in text
    assert "noise floor" not in text
    _, text = modes.best_measured({"modes": grid, "styles": styles})
    assert "in [modes], 16.3% apart: two separate alternations" in text
    # part 5 counts compilations and says nothing about the speed of single, unalternated calls
    res = shapes.summarise_dynamic_shapes(shape_rows(True), bench.ShapesParams(n_shapes=2))
    assert "time(s)" not in res.conclusion and "ms" not in res.conclusion


def test_pool_cap_pairs_the_repeats_of_each_round_and_time_to_accuracy_widens_by_one_evaluation():
    # pool_cap: the cap doubles the time of every repeat; paired within each round, 0.50x with a zero-width interval
    def layer(case, name, ms, process):
        return dict(rate(name, 1e3 / ms, spread=0.05), case=case, layer=name, kind="layer", process=process)

    rows = [layer(case, name, 2.0 if case != "no ISA cap" else 1.0, process) for process, case in
            enumerate(("no ISA cap", "ONEDNN_MAX_CPU_ISA=AVX2", "ONEDNN_MAX_CPU_ISA=AVX2", "no ISA cap"))
            for name in ("relu+pool 1", "relu+pool 2")]
    res = traps.summarise_pool_cap(shuffled(rows), bench.PoolCapParams(noise_pct=20))
    assert res.conclusion.splitlines()[3].split()[7:9] == ["0.50x", "0.50-0.50"]
    uncapped = [r for r in rows if r["case"] == "no ISA cap"]
    assert traps.round_pairs(uncapped, "no ISA cap", "ONEDNN_MAX_CPU_ISA=AVX2") is None   # one case only: no pairs
    # time to accuracy: the course-settings run was below the target at step 800 and crossed it at 1000
    p = bench.TimeToAccuracyParams(targets=(0.985,))
    best = [{"run": "best", "target": 0.985, "step": 1000, "train_s": 10.0,
             "curve": [{"step": 800, "accuracy": 0.983, "train_s": 8.0}, {"step": 1000, "accuracy": 0.986,
                                                                          "train_s": 10.0}]}]
    est = accuracy.summarise_time_to_accuracy(best + step_rates(25.0), p)
    assert est.row(config="0.985")["naive_steps"] == "1000 (assumed)"
    # the range widened by one evaluation either way: 800-1200 steps, 32-48 s (3.2-4.8x)
    assert est.conclusion.splitlines()[-1].split() == ["800-1200", "steps", "(one", "evaluation", "either", "way)",
                                                       "32-48", "3.2-4.8"]


def test_a_table_inside_a_chinese_conclusion_keeps_its_column_padding():
    """Result.report closes the spaces a template leaves between two Chinese words, but not the padding of a table
    the conclusion holds (format_verdicts' columns)."""
    from course_utils import i18n
    table = bench.format_verdicts([{"config": "训练步", "x": 1.0, "vs_a": "tie", "vs_copy": "tie"}], "A", "B")
    res = bench.Result("x", [], [], "第一句 话。\n" + table)
    i18n.set_language("zh")
    try:
        shown = res.report().splitlines()
    finally:
        i18n.set_language("en")
    assert "第一句话。" in shown and table.splitlines()[0] in shown and table.splitlines()[2] in shown


def test_part_2_names_its_paired_intervals_lowest_highest_when_few_pairs_make_them_the_range():
    """One round of processes with three repeats each: three pairs, so every interval in part 2's lines, in the
    summary's sentence and in the headline is the lowest to the highest ratio, and is named so (not "95%")."""
    rows = []
    for process, (case, g, pyn) in enumerate((("no fixes", 10.0, 3.0), ("ONEDNN_MAX_CPU_ISA=AVX2", 60.0, 15.0),
                                              ("MS_DEV_HOST_BLOCKING_RUN=1", 11.0, 5.0), ("both fixes", 90.0, 60.0))):
        for cfg, sps in (("graph/cell", g), ("pynative/cell", pyn)):
            row = rate(cfg, sps, case=case, process=process)
            row["repeat_s"] = [10 / (sps * f) for f in (0.9, 1.0, 1.05)[::1 if process % 2 else -1]]
            rows.append(row)
    res = traps.summarise_cpu_traps(rows, bench.TrapsParams(specs=("graph/cell", "pynative/cell"), noise_pct=10))
    lines = res.conclusion.splitlines()   # one verdict table: both fixes over none, then each fix over the other
    assert lines[2].startswith("both fixes / no fixes: GRAPH_MODE, TrainOneStepCell")
    assert [line.split(":")[0] for line in lines[3:7]] == ["+ ISA cap", "+ ISA cap", "+ host blocking",
                                                            "+ host blocking"]
    assert "a tie" not in res.conclusion
    assert "the lines below are ratios of medians, each configuration over itself" in res.conclusion   # which is which
    assert "vs_naive" not in res.columns   # no column dividing one configuration by another
    assert res.metrics["fixes_vs_naive_speedup_span"] is True
    assert "3 pairs, lowest-highest ratio" in findings.pynative_vs_graph(res)



def test_one_helper_finds_the_copy_its_original_and_the_gap_for_modes_styles_and_the_sweep():
    wobble = (0, 0.05, -0.05, 0.02, -0.02)
    base, copy = _timed("graph/cell", 80, wobble), _timed("graph/cell copy", 120, wobble)
    twin = modes.find_twin(shuffled([_timed("pynative/cell", 20, wobble), base, copy]))
    assert twin.config == "graph/cell" and twin.copy["config"] == "graph/cell copy"
    assert (twin.low, twin.high) == pytest.approx((1.5, 1.5)) and twin.gap == pytest.approx((1 / 1.5, 1.5))
    # paired with both copies where the original is one side, then widened by the gap; untouched otherwise
    other = _timed("pynative/cell", 20, wobble)
    assert modes.paired_with_twin(base, other, twin) == pytest.approx((4.0, 4.0 / 1.5, 6.0 * 1.5, True))
    assert modes.paired_with_twin(other, other, None) == pytest.approx((1.0, 1.0, 1.0, False))
    assert modes.find_twin([base]) is None and modes.find_twin([base, dict(copy, repeat_s=[0.1])]) is None
    # styles: its two copies by key, and the widening decided once (style_intervals, which summarise_styles reads)
    rows = _styles_rows(103, (0, 0.1, -0.1, 0.05))
    assert modes.find_twin(rows, modes.COPY).config == "graph/functional"
    assert modes.find_twin(rows, modes.PIPELINE_COPY) is None   # _pipeline_rows has no second functional loop


def test_part_1s_readings_say_how_long_the_warm_up_lasted_and_why_two_readings_of_one_step_differ():
    from course_utils.bench.experiments import common

    settled = [0.46] + [0.0034] * 29   # one compiling call, then one level
    assert common.warmup_reading(settled) == (
        "calls 1-29: median 3.4 ms, range 3.4-3.4 ms; more than twice that median: none; call 1 no more than 20% above "
        "the level of calls 10-29 (3.4 ms): the warm-up was the compiling call alone.")
    warming = [0.46, 0.006, 0.005] + [0.0034] * 26 + [0.009]   # two slow calls after it, a spike at the end
    said = common.warmup_reading(warming)
    assert "more than twice that median: 29;" in said
    assert said.endswith("calls 1-2 in a row ran more than 20% above the level of calls 10-29 (3.4 ms): here the "
                         "warm-up took 2 call(s) beyond the compiling one.")
    one_slow = common.warmup_reading([0.46, 0.006] + [0.0034] * 28)   # one slow call: said so, not "calls 1-1"
    assert one_slow.endswith("call 1 ran more than 20% above the level of calls 10-29 (3.4 ms): here the warm-up took "
                             "one call beyond the compiling one.")
    single = [3.0, 3.4, 3.8]   # median 3.4, slowest 3.8
    assert common.two_readings(3.5, single) == ("one step, two readings: the median repeat's time per step is 1.03x "
                                                "the single calls' median. Within 10% of each other.")
    beyond = common.two_readings(4.7, single)
    assert "1.38x" in beyond and "The median repeat was slower than even the slowest single call." in beyond
    assert beyond.endswith("(check 2's optional section).") and "rule 4" not in beyond
    # the fastest repeat at the single calls' pace: a slow stretch the single calls missed; pinned: no pinning study
    stretch = common.two_readings(4.7, single, fastest_ms=3.6, pinned=True)
    assert stretch.endswith("The fastest repeat (3.6 ms a step) kept the single calls' pace: the other repeats ran in "
                            "a slow stretch of the machine that the single calls missed.")
    every = common.two_readings(4.7, single, fastest_ms=4.2, pinned=True)
    assert every.endswith("Every repeat was: the machine ran slower for the seconds the repeats took.")
    slower = common.two_readings(3.9, [3.0, 3.4, 4.0])   # slower than the median, not than the slowest call
    assert "1.15x" in slower and "The repeats were slower. A repeat counts every step" in slower
    assert "check 2" not in common.two_readings(3.9, [3.0, 3.4, 4.0], pinned=True)
    faster = common.two_readings(3.0, single)
    assert "0.88x" in faster and "The repeats were faster" in faster and faster.endswith("steady pace.")


def test_forcing_reads_a_wide_interval_holding_one_as_not_separated_with_its_bound():
    wobble = (0, 0.3, -0.3, 0.2, -0.25)
    rows = [_timed("each", 100, wobble), _timed("each copy", 100, wobble), _timed("end", 105, wobble[1:]),
            _timed("none", 300, (0, 0.01, -0.01))]
    lines = modes.summarise_forcing(rows, bench.ForcingParams()).conclusion.splitlines()
    assert lines[3].startswith("forced at the end of each repeat / every step")
    assert "not separated (up to " in lines[3] and lines[3].endswith("% not ruled out)")
    assert lines[4].endswith("above 1.00: faster")   # not forced decided: 3x
    assert "too wide" not in "\n".join(lines) and "a tie" not in "\n".join(lines)
    # the copy's rounds in the reverse order: the control holds 1.00 but its copies came far apart; each row is still
    # read by itself, the 3x beyond that gap
    rows[1] = _timed("each copy", 100, wobble[::-1])
    lines = modes.summarise_forcing(rows, bench.ForcingParams()).conclusion.splitlines()
    assert "1.00 inside, but the copies came up to " in lines[2]
    assert "not separated (up to " in lines[3] and lines[4].endswith("above 1.00: faster")
    assert "undecided" not in "\n".join(lines)


def test_paired_reading_gives_the_largest_difference_an_interval_holding_one_cannot_rule_out():
    from course_utils.bench.experiments import common

    assert common.paired_reading(0.65, 1.44) == "1.00 inside: not separated; differences up to 54% not ruled out"
    assert common.paired_reading(0.79, 1.004) == "1.00 inside: not separated; differences up to 27% not ruled out"
    assert common.paired_reading(1.02, 1.21) == "above 1.00: faster"
    assert common.control_said(0.91, 1.03) == "1.00 inside, as it should be"



def test_verdict_table_prints_one_row_per_comparison_with_its_interval_and_short_reading():
    from course_utils.bench.experiments import common

    text = common.verdict_table([("B over A", 1.07, 0.89, 1.07), ("C over A", 2.24, 2.06, 2.36),
                                 ("D over A", None, 0.5, 0.8, "own words")])
    lines = text.splitlines()
    assert lines[0].split() == ["comparison", "ratio", "95%", "interval", "verdict"]
    assert set(lines[1].replace(" ", "")) == {"-"}
    assert lines[2].split(None, 5)[3:] == ["1.07x", "0.89-1.07", "not separated (up to 12% not ruled out)"]
    assert lines[3].split(None, 5)[3:] == ["2.24x", "2.06-2.36", "above 1.00: faster"]
    assert lines[4].split(None, 4)[3:] == ["0.50-0.80", "own words"]   # no median: an empty ratio cell
    assert common.short_reading(0.5, 0.8) == "below 1.00: slower"


def test_an_interval_beyond_one_but_within_the_copies_gap_reads_within_the_copies_gap():
    """Control 0.97-1.02: the copies came apart by up to 3%, so 0.98-0.99 or 1.01-1.03 is no verdict; 0.95-0.96 is.
    Without ``copies`` (lesson 08) the reading is unchanged."""
    from course_utils.bench.experiments import common

    copies = (0.97, 1.02)
    assert common.copies_gap_pct(*copies) == pytest.approx(100 / 0.97 - 100)   # 3.1: the ratio scale
    assert common.short_reading(0.98, 0.99, copies=copies) == "within the copies' gap (copies up to 3% apart)"
    assert common.short_reading(1.01, 1.06, copies=copies) == "within the copies' gap (copies up to 3% apart)"
    assert common.short_reading(1.03, 1.06, copies=copies) == "within the copies' gap (copies up to 3% apart)"   # 3%
    assert common.short_reading(1.04, 1.06, copies=copies) == "above 1.00: faster"
    assert common.short_reading(0.95, 0.96, copies=copies) == "below 1.00: slower"
    assert common.short_reading(0.99, 1.05, copies=copies) == "not separated (up to 5% not ruled out)"
    assert common.short_reading(0.98, 0.99) == "below 1.00: slower"   # no control: as before
    assert not common.within_copies(1.01, 1.06, None)
    # the ratio scale: a control that strayed to 2.38 (138%) does not swallow a slowdown to 0.33 (1/0.33 = 3.0x),
    # but does one to 0.45 (2.2x); 0.97-1.02's factor is 1/0.97
    assert common.copies_factor(0.97, 1.02) == pytest.approx(1 / 0.97)
    wild = (0.80, 2.38)
    assert common.short_reading(0.13, 0.33, copies=wild) == "below 1.00: slower"
    assert common.short_reading(0.40, 0.45, copies=wild) == "within the copies' gap (copies up to 138% apart)"
    assert common.short_reading(2.40, 2.60, copies=wild) == "above 1.00: faster"
    table = common.verdict_table([("B over A", 1.02, 1.01, 1.03)], copies=copies).splitlines()
    assert table[2].endswith("within the copies' gap (copies up to 3% apart)")
    assert common.verdict_table([("B over A", 1.02, 1.01, 1.03)]).splitlines()[2].endswith("above 1.00: faster")
    assert modes.found_line([("A {side} B", 1.01, 1.03, copies), ("C {side} D", 1.01, 1.03)]) == (
        "This run found: A within the copies' gap of B; C faster than D.")


def test_a_short_headline_prints_its_figures_then_its_paired_ratios_as_one_narrow_verdict_table(tmp_path, capsys):
    import time

    lab = bench.Lab(tmp_path, "graph")
    p = bench.ModesParams(specs=("pynative/functional", "pynative/cell", "graph/cell", "pynative/jit:O0"))
    lab.results["modes"] = modes.summarise_modes([rate("pynative/functional", 40), rate("pynative/cell", 20),
                                                  rate("graph/cell", 80), rate("pynative/jit:O0", 60)], p)
    figures = lab.headline(["modes"], None, time.perf_counter(), parts={"modes": "part 2"}, bound=True, short=True)
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert any(line.startswith("part 2: GRAPH_MODE / PyNative, TrainOneStepCell") and line.endswith(
        "4.00x     4.00-4.00  above 1.00: faster") for line in lines)
    assert "part 2: TrainOneStepCell (GRAPH_MODE) / @jit O0" in out
    assert max(len(line) for line in lines[1:] if not line.startswith(("The highest", "A figure"))) <= 110
    assert figures["graph_vs_pynative"] == pytest.approx(4.0) and figures["graph_vs_pynative_low"] == 4.0
    # claims=: only those paired rows, in that order, and no other ratio turns up among the figures
    lab.headline(["modes"], None, time.perf_counter(), parts={"modes": "part 2"}, bound=True, short=True,
                 claims=["jit_vs_no_jit", "no_such_metric"])
    out = capsys.readouterr().out
    assert "part 2: @jit O0 / no jit, functional step" in out
    assert "GRAPH_MODE / PyNative" not in out and "TrainOneStepCell (GRAPH_MODE) / @jit O0" not in out
    assert "graph_vs_pynative" not in out and "GRAPH_MODE / PyNative, TrainOneStepCell (x)" not in out
    lab.results["styles"] = modes.summarise_styles(_styles_rows(103, (0, 0.1, -0.1, 0.05)), bench.StylesParams())
    lab.headline(["modes", "styles"], None, time.perf_counter(), best=False, bound=True, short=True,
                 claims=["cell_vs_functional"])
    out = capsys.readouterr().out
    note = lab.results["styles"].metrics["cell_vs_functional_note"]   # the claim's sentence, named by its row
    named = "TrainOneStepCell / functional step, no @jit (GRAPH_MODE): "
    assert out.rstrip().endswith(named + note[0].lower() + note[1:])


def test_lesson_08_reads_o2_and_o3_together_and_times_by_the_same_rule():
    """Part 5: O2 and O3 are one network on LeNet-5, so their two paired intervals are read together, as lesson 07
    reads two copies (from the lower low end to the higher high end)."""
    from course_utils.bench.experiments import common

    rows = amp_rows(45, 0.95) + [rate("O2", 40, label="amp O2", accuracy=0.95, trained_steps=100,
                                      wrapper="_OutputTo32")]
    for r in rows:   # made-up rounds in which every configuration moves alike
        r["repeat_s"] = [s * f for s, f in zip(r["repeat_s"], (1.0, 1.1, 0.95))]
    res = amp.summarise_amp(rows, bench.AmpParams(levels=("O0", "O1", "O2", "O3")))
    twins = [r["paired"] for r in res.rows if r["config"] in ("O2", "O3")]
    lo, hi = min(t["low"] for t in twins), max(t["high"] for t in twins)
    assert res.conclusion.splitlines()[-1] == (
        "O2 and O3 are one network here (LeNet-5 has no normalisation layer for O2 to keep in float32; the next cell "
        f"checks it), so their rows are two measurements of one step, read together as lesson 07 reads two copies: "
        f"{lo:.2f}-{hi:.2f}, {common.short_reading(lo, hi)}.")


def test_exercise_word_speaks_exercise_2s_vocabulary_and_agrees_with_its_reference():
    from course_utils.bench.experiments import common
    from course_utils.exercises import nb08

    assert pipeline.exercise_word("inside", 600, 100) == "not separated"
    assert pipeline.exercise_word("above", 600, 100) == "recheck"
    assert pipeline.exercise_word("below", 600, 100) == "costs"
    assert pipeline.exercise_word("below", 50, 100) == "bottleneck"
    assert pipeline.exercise_word("below", 600, 100, within=True) == "not separated"   # within the copies' gap
    reference = nb08.q2.reference()[0]
    for ratios, mem, alone, copies, expected in nb08.PipelineVerdict.CASES:   # five rounds: lowest to highest ratio
        lo, hi = min(ratios), max(ratios)
        within = common.within_copies(lo, hi, (min(copies), max(copies)))   # the lab's rule on the same control
        side = bench.interval_side(lo, hi)
        assert pipeline.exercise_word(side, alone, mem, within) == expected == reference(ratios, mem, alone, copies)


def test_an_unnamed_reading_starts_with_its_ratio_in_both_languages():
    from course_utils.bench.experiments import findings
    from course_utils.i18n import set_language

    assert findings._one("", 1.5, 1.2, 1.8, span=True).startswith("1.50x (lowest-highest ratio 1.20-1.80)")
    assert findings._reading("", None, x=0.9, word="tie").startswith("0.90x, ")
    try:
        set_language("zh")
        assert findings._one("", 1.5, 1.2, 1.8, span=True).startswith("1.50 倍")
        assert findings._one("池化", 1.5, 1.2, 1.8, span=True).startswith("池化：1.50 倍")
    finally:
        set_language("en")


def test_the_summary_keeps_part_4s_recheck_when_the_fed_step_came_out_faster():
    from course_utils.bench.experiments import findings
    from course_utils.i18n import set_language

    faster = {"paired": {"median": 1.45, "low": 1.07, "high": 1.78, "span": True, "reading": "above"}}
    said = findings.part4_said(faster)
    assert "'recheck'" in said and "the machine changed" in said and ": faster" not in said
    tie = {"paired": {"median": 1.01, "low": 0.95, "high": 1.06, "span": True, "reading": "inside"}}
    assert "recheck" not in findings.part4_said(tie) and "not separated" in findings.part4_said(tie)
    assert findings.part4_said({"said": "a tie"}) == "a tie"   # no paired reading: the medians' sentence
    try:
        set_language("zh")
        zh = findings.part4_said(faster)
        assert "'recheck'" in zh and "需要重新计时" in zh and "更快" not in zh
    finally:
        set_language("en")


def test_part_6s_naive_rate_is_set_beside_part_2s_with_the_cause_unmeasured():
    from course_utils.bench.experiments import findings

    tta = bench.Result("time_to_accuracy", [], [], "", {}, extra={"naive_steps_per_s": 3.5, "best_steps_per_s": 89.3})
    traps = bench.Result("cpu_traps", [], [], "", {"naive_steps_per_s": 9.8, "fixes_steps_per_s": 92.6})
    said = findings.naive_rates(tta, traps)
    assert "the naive step ran at 0.36x its part 2 rate (9.8 -> 3.5 steps/s)" in said
    assert "the two CPU settings at 0.96x (92.6 -> 89.3)" in said
    assert said.startswith("Against part 2: part 6's step-rate ratio is 25.5x, part 2's ratio of medians 9.4x. ")
    assert "not measured" in said
    assert findings.naive_rates(tta, None) == ""   # off the CPU: no part 2


def test_sweep_against_parts_gives_the_rates_and_one_short_reminder_not_to_compare_them():
    from course_utils.bench.report import Result
    sweep = Result("batch_sizes", [dict(rate("batch 64", 130.0), batch_size=64, steps=32, warmup_s=[])], [], "")
    part = Result("modes", [dict(rate("graph/cell", 110.0, spread=0.1), batch_size=64, steps=15,
                                 warmup_s=[0.01, 0.01])], [], "")
    styles = Result("styles", [dict(rate("graph/cell", 112.0), batch_size=64, steps=30, warmup_s=[0.01])], [], "")
    line = modes.sweep_against_parts(sweep, [(part, "part 2"), (None, "part 3")])
    assert line == ("The same step, GRAPH_MODE, TrainOneStepCell at batch 64: 130.0 steps/s in the sweep, 110.0 in "
                    "part 2. The sweep's rounds are timed differently from those of part 2 (steps a round, batches "
                    "cycled, warm-up): compare rates only within the sweep.")
    both = modes.sweep_against_parts(sweep, [(part, "part 2"), (styles, "part 3")])
    assert "110.0 in part 2, 112.0 in part 3." in both and "from those of part 2, part 3 (" in both
    assert "\n" not in both
    assert modes.sweep_against_parts(sweep, [(None, "part 2")]) == ""


def test_copies_band_is_the_control_intervals_farther_end_from_one_on_both_sides():
    """On the ratio scale, as within_copies reads it: 1/factor to factor."""
    wobble = (0, 0.01, -0.01, 0.02, -0.02)
    rows = [_timed("batch 64", 100, wobble, batch_size=64), _timed("batch 64 copy", 100, wobble[::-1], batch_size=64)]
    twin = modes.find_twin(rows)
    factor = bench.experiments.common.copies_factor(twin.low, twin.high)
    assert factor > 1 and modes.copies_band(rows) == pytest.approx((1 / factor, factor))
    assert modes.copies_band(rows[:1]) is None                      # no control: nothing to shade
    assert modes.copies_band(rows, "graph/functional copy") is None   # a copy this experiment did not time


def test_the_difference_an_interval_does_not_rule_out_is_read_on_the_ratio_scale():
    """0.58-1.20 allows a slowdown to 0.58, which is 1/0.58 = 1.72x: 72%, not the linear 42%; the upper end counts
    as it is; an interval beyond 1.00 has its farther end read the same way."""
    from course_utils.bench.experiments import common

    assert common.not_ruled_out_pct(0.58, 1.20) == pytest.approx(100 / 0.58 - 100)
    assert common.not_ruled_out_pct(0.80, 1.44) == pytest.approx(44)
    assert common.not_ruled_out_pct(0.99, 1.01) == pytest.approx(100 / 0.99 - 100)
    assert common.short_reading(0.58, 1.20) == "not separated (up to 72% not ruled out)"


def _rounds(name, rates, **fields):
    """A made-up row whose five rounds ran at ``rates`` (10 steps each), its median the median rate."""
    ordered = sorted(rates)
    return dict(rate(name, ordered[len(ordered) // 2], **fields), repeat_s=[10 / r for r in rates])


def test_the_summary_reads_each_experiment_as_its_table_does_word_for_word(monkeypatch):
    """Lesson 08's closing list says what each part's verdict table says: part 3's rewrites and part 5's levels read
    against their A/A' control (within the copies' gap: not read), part 4's fed step against its controls' bound, and
    O2 and O3, one network that part 5 reads together, as that one reading."""
    monkeypatch.delenv("ONEDNN_MAX_CPU_ISA", raising=False)
    # part 3: the copy came up to 1.30x from A; the reshape's 1.15-1.40 lies within that gap
    pools = {name: bench.Timing.from_row(_rounds(name, rates)) for name, rates in (
        ("nn.MaxPool2d", (100, 100, 100, 100, 100)), ("reshape + max", (115, 120, 118, 125, 140)),
        ("nn.MaxPool2d (A′)", (130, 125, 90, 110, 112)))}
    table = traps.explain_pool_rewrites(pools, 10, copy="nn.MaxPool2d (A′)")
    row = next(line for line in table.splitlines() if line.startswith("reshape + max /"))
    words = "within the copies' gap (copies up to 30% apart)"
    assert row.endswith(words) and table.splitlines()[0].split()[2:5] == ["range", "(lowest-highest", "round)"]
    assert findings.part3_rows(pools) == [("part 3: reshape + max / nn.MaxPool2d ‡", pytest.approx(1.20),
                                           pytest.approx(1.15), pytest.approx(1.40), words)]
    # part 4: sink mode on / off 25% apart, a failed second control: the fed step's 10% cost is within its bound
    res = pipeline.summarise_data_pipeline(shuffled(pipeline_rows(600, 100, 90, on=25.0, off=20.0)),
                                           bench.PipelineParams(noise_pct=5))
    fed = next(line for line in res.conclusion.splitlines() if line.startswith("fed by the pipeline"))
    assert fed.endswith("within the copies' gap (copies up to 25% apart)")
    assert findings.part4_said(res.metrics) == "within the copies' gap (copies up to 25% apart)"
    # part 5: O0 and its copy up to 1.40x apart; every level below 1.00 with its near end within that gap
    rows = [_rounds(cfg, rates, label=label, accuracy=0.95, trained_steps=100, wrapper="LeNet5")
            for cfg, label, rates in (
        ("O0", "amp O0", (100, 100, 100, 100, 100)), ("O0 copy", "amp O0, second copy", (100, 140, 90, 110, 95)),
        ("O1", "amp O1", (80, 85, 82, 90, 78)), ("O2", "amp O2", (75, 80, 84, 72, 70)),
        ("O3", "amp O3", (74, 81, 83, 73, 71)))]
    res = amp.summarise_amp(rows, bench.AmpParams(levels=("O0", "O1", "O2", "O3")))
    lines = res.conclusion.splitlines()
    rows = findings.part5_rows(res)
    for level in ("O1", "O2", "O3"):
        r = res.row(config=level)
        assert r["said"].startswith("within the copies' gap")
        assert next(line for line in lines if line.startswith(f"{level} /")).endswith(r["said"])
    twins = res.metrics["amp_twins"]
    assert [row[0] for row in rows] == ["part 5: O1 / O0 ‡", "part 5: O2 and O3 / O0 (one network)"]   # one reading
    assert rows[0][4] == res.row(config="O1")["said"] and rows[1][1:] == (None, twins["low"], twins["high"],
                                                                          twins["said"])
    assert lines[-1].endswith(f"{twins['said']}.")


def test_part_6s_figure_draws_the_widened_range_the_text_quotes_and_names_both_bands():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from course_utils.fmt import plain_figures

    best, _ = accuracy_rows()
    curve = [{"step": 1500, "accuracy": 0.985, "train_s": 8.0}, {"step": 2000, "accuracy": 0.99, "train_s": 20.0}]
    noisy = accuracy.summarise_time_to_accuracy([dict(r, curve=curve) for r in best] + step_rates(25.0, 130.0),
                                                bench.TimeToAccuracyParams(targets=(0.99,), noise_pct=50.0))
    fig, ax = plt.subplots()
    try:
        findings.plot_time_to_accuracy(ax, noisy, best="course settings")
        labels = [h.get_label() for h in ax.get_legend().legend_handles]
        bands = [(round(p.get_x(), 1), round(p.get_x() + p.get_width(), 1)) for p in ax.patches]
    finally:
        plt.close(fig)
    low, high = (noisy.metrics[f"naive_time_to_99_0_s_noise_{end}"] for end in ("low", "high"))
    assert f"estimated: {plain_figures(low)}-{plain_figures(high)} s (widened by the noise floor)" in labels[1]
    quoted = noisy.conclusion.splitlines()[-2]   # the estimate table's last row: the range the text quotes
    assert quoted.split()[-2] == f"{plain_figures(low)}-{plain_figures(high)}"
    assert labels[2] == "the estimate before widening: 80-104 s"
    assert (round(low, 1), round(high, 1)) in bands and (80.0, 104.0) in bands


def test_a_full_run_gives_the_naive_run_a_time_limit_from_its_own_estimate():
    full = bench.TimeToAccuracyParams(quick=False, noise_pct=20.0)   # time_limit 180 s
    # 2600 steps at 10 steps/s: 260 s, 312 s with the floor; 1.5x that: 468 s, above the 180 s limit
    assert accuracy.naive_time_limit(2600, 10.0, full) == pytest.approx(468.0)
    assert accuracy.naive_time_limit(260, 10.0, full) == 180.0                  # never below time_limit
    assert accuracy.naive_time_limit(6500, 10.0, full) == accuracy.NAIVE_LIMIT_CAP   # 780 s: capped
    assert accuracy.naive_time_limit(8000, 10.0, full) is None                  # 960 s: estimated only
    assert accuracy.naive_time_limit(2600, 10.0, bench.TimeToAccuracyParams(quick=True)) is None   # QUICK: estimated


def test_a_rewrite_not_read_as_faster_sets_no_ms_beside_pooling_s_bound(monkeypatch):
    monkeypatch.delenv("ONEDNN_MAX_CPU_ISA", raising=False)
    pools = {name: bench.Timing.from_row(_rounds(name, rates)) for name, rates in (
        ("nn.MaxPool2d", (100, 100, 100, 100, 100)), ("reshape + max", (95, 104, 103, 110, 102)))}
    for text in (traps.explain_pool_rewrites(pools, 10, pool_ms=2.6),
                 traps.explain_pool_rewrites(pools, 10, pool_share=20.0)):
        assert "saves" not in text and "ms lower" not in text and "at most" not in text
        assert "reshape + max: not separated (up to 10% not ruled out), so no saving is read." in text
    assert "no saving is read" not in traps.explain_pool_rewrites(pools, 10)   # no bound given: nothing to say


def test_what_this_run_can_resolve_comes_from_part_1s_floor_and_its_copies():
    copies = [("B / A", 0.96, 0.89, 1.06), ("C / A", 0.95, 0.80, 1.26), ("D / A", 1.07, 0.75, 1.30)]
    said = findings.resolution(26.8, copies)
    assert "can land up to 27% apart by chance" in said and "differences below 27% cannot be resolved" in said
    assert "left up to 33% not ruled out" in said   # 0.75: 1 / 0.75 = 1.33 on the ratio scale


def test_the_closing_list_is_one_verdict_table_then_part_6s_estimate(monkeypatch):
    monkeypatch.delenv("ONEDNN_MAX_CPU_ISA", raising=False)
    traps_res = trap_results()[0]
    pools = {name: bench.Timing.from_row(_rounds(name, rates)) for name, rates in (
        ("nn.MaxPool2d", (100, 100, 100, 100, 100)), ("ops.max_pool2d", (20, 21, 19, 20, 22)),
        ("nn.MaxPool2d (A′)", (101, 99, 100, 102, 98)))}
    pipe = pipeline.summarise_data_pipeline(shuffled(pipeline_rows(600, 100, 90)), bench.PipelineParams(noise_pct=5))
    amp_res = amp.summarise_amp(amp_rows(45, 0.95), bench.AmpParams(levels=("O0", "O1", "O3")))
    best, _ = accuracy_rows()
    tta = accuracy.summarise_time_to_accuracy(best + step_rates(25.0), bench.TimeToAccuracyParams())
    text = findings.this_run_found(traps=traps_res, pool_cap=None, pools=pools, pipe=pipe, amp=amp_res, tta=tta,
                                   device="CPU")
    lines = text.splitlines()
    assert lines[0].split()[:2] == ["comparison", "ratio"]
    assert any(line.startswith("part 3: ops.max_pool2d / nn.MaxPool2d ‡") and line.endswith("below 1.00: slower")
               for line in lines)
    assert any(line.startswith("part 4: fed by the pipeline / in-memory") for line in lines)
    assert any(line.startswith("part 5: O1 / O0") for line in lines)
    assert lines[-1].startswith("Part 6: to 98.5% the naive defaults needed")
    assert "‡ five rounds or fewer" in text


def test_headline_hides_the_figures_a_lesson_already_gives_but_records_them(tmp_path, capsys):
    import time

    lab = bench.Lab(tmp_path, "graph")
    metrics = {"time_to_98_5_s": 20.9, "naive_time_to_98_5_s_low": 172.2, "naive_time_to_98_5_s_high": 248.6,
               "speedup_to_98_5_wide_low": 8.0, "speedup_to_98_5_wide_high": 12.0}
    lab.results["time_to_accuracy"] = bench.Result("time_to_accuracy", [], [], "", metrics)
    figures = lab.headline(["time_to_accuracy"], 10.0, time.perf_counter(), hide=("naive_time_to_", "speedup_to_"))
    out = capsys.readouterr().out
    assert "172.2" not in out and "12.0" not in out and "20.9" in out and "verdict" not in out   # no empty column
    assert figures["naive_time_to_98_5_s_low"] == 172.2 and figures["speedup_to_98_5_wide_high"] == 12.0


def test_the_summary_advice_reads_part_2s_verdicts_with_host_blocking_on_and_off():
    from course_utils.bench.report import Result

    def grid(**pairs):   # {key: (median, low, high, verdict)} as summarise_modes stores them
        out = {}
        for key, (med, lo, hi, side) in pairs.items():
            out.update({key: med, f"{key}_low": lo, f"{key}_high": hi, f"{key}_verdict": side})
        return Result("modes", [], [], "", out)

    on = grid(graph_cell_vs_jit=(0.99, 0.96, 1.03, "inside"), jit_cell_vs_jit=(1.0, 0.98, 1.03, "inside"))
    one = grid(graph_cell_vs_jit=(10.72, 9.41, 13.05, "above"), graph_cell_vs_jit_cell=(9.0, 8.0, 11.0, "above"))
    every = grid(graph_cell_vs_jit=(1.3, 1.1, 1.6, "above"))   # beyond 1.00, within its copies' gap (up to 30%)
    every.metrics.update(graph_cell_vs_jit_copies_low=0.77, graph_cell_vs_jit_copies_high=1.3)
    assert modes.pair_reading(every.metrics, "graph_cell_vs_jit") == "within the copies' gap (copies up to 30% apart)"
    assert [modes.advice_of(r.metrics) for r in (on, one, every)] == ["any", "cell", "undecided"]
    lines = modes.loop_advice(on, [("one CPU", one), ("every CPU", every)]).splitlines()
    assert lines[1] == "host blocking on: any form that compiles the whole step."
    # the run that decided gives the advice; the pairs it rests on follow in one table, each read as its run read it
    assert lines[2] == "host blocking off (MindSpore's default): prefer a GRAPH_MODE Cell such as TrainOneStepCell."
    assert lines[3].startswith("comparison") and len(lines) == 10   # head, rule, 2 + 2 + 1 rows
    assert lines[5].startswith("on: TrainOneStepCell (GRAPH_MODE) / @jit O0") and "0.96-1.03" in lines[5]
    assert lines[7].startswith("off, one CPU: TrainOneStepCell (GRAPH_MODE) / @jit O0") and "9.41-13.05" in lines[7]
    assert lines[9].startswith("off, every CPU: TrainOneStepCell (GRAPH_MODE) / @jit O0")
    assert lines[9].endswith("within the copies' gap (copies up to 30% apart)")
    assert "undecided in this run" in modes.loop_advice(on, [("every CPU", every)]).splitlines()[2]
    # two runs that disagree decide nothing; no run at all is said as such
    slower = grid(graph_cell_vs_jit=(0.5, 0.4, 0.6, "below"))
    assert "undecided in this run: its runs point different ways" in \
        modes.loop_advice(on, [("a", one), ("b", slower)]).splitlines()[2]
    assert modes.loop_advice(on, []).splitlines()[2] == ("host blocking off (MindSpore's default): not measured in "
                                                         "this run.")
    # faster than the @jit function, not separated from jit on the Cell: a Cell, either way
    cells = grid(graph_cell_vs_jit=(2.0, 1.8, 2.2, "above"), graph_cell_vs_jit_cell=(1.0, 0.9, 1.1, "inside"),
                 jit_cell_vs_jit=(2.0, 1.8, 2.2, "above"))
    assert modes.advice_of(cells.metrics) == "cells"


def test_a_wide_pipeline_control_reads_the_styles_pipeline_lines_by_its_gap_and_keeps_model_train_out_of_the_headline():
    rows = _styles_rows(103, (0, 0.01, -0.01, 0.005))
    fed = modes.pick(rows, config="graph/functional +pipeline")
    spread = (1.4, 0.75, 1.2, 0.85)   # the copy's rounds up to 40% off the original's: 1.00 inside, far apart
    rows.append(dict(fed, config=modes.PIPELINE_COPY,
                     repeat_s=[t / spread[i % len(spread)] for i, t in enumerate(fed["repeat_s"])]))
    res = modes.summarise_styles(rows, bench.StylesParams(noise_pct=20))
    lines = res.conclusion.splitlines()
    control = next(line for line in lines if line.startswith("control, pipeline"))
    assert control.endswith("0.75-1.40  1.00 inside, but the copies came up to 40% apart: only a row beyond that gap "
                            "is read")
    fed_lines = [line for line in lines if line.startswith("pipeline:")]
    assert fed_lines[0].endswith("not separated (up to 40% not ruled out)")   # the copies: 40%, its own end 39%
    assert fed_lines[1].endswith("0.36-0.67  below 1.00: slower")   # 1/0.67 = 1.49: beyond the copies' 1.40
    assert "too wide" not in res.conclusion and "undecided (control" not in res.conclusion
    assert res.metrics["cell_vs_functional_verdict"] == "above" and "model_train_steps_per_s" not in res.metrics


def test_the_sweep_counts_its_slow_rounds_and_its_quartiles_ignore_one():
    rows = [dict(_timed(f"batch {b}", s, (0, 0.01, -0.01, -0.5, 0.02), batch_size=b), steps=10)
            for b, s in ((32, 100), (64, 60))]
    q1, q2, q3 = modes.sweep_quartiles(rows)[0]
    assert q1 < q2 < q3 and q1 > 32 * 100 * 0.9   # the round at half speed stretches no quartile
    assert modes.slow_rounds(rows).startswith("Rounds: 1 of 5 ran more than 20% below the sizes' medians (the "
                                              "slowest, round 4, at 50%); in 0 more, only some sizes did. A slowdown "
                                              "that lasts a whole round")
    # one size of three alone at half speed in round 2: a slowdown within a round, counted apart
    third = dict(_timed("batch 128", 30, (0, 0.01, -0.01, -0.5, 0.02), batch_size=128), steps=10)
    alone = [rows[0], dict(rows[1], repeat_s=[t * (2 if i == 1 else 1) for i, t in enumerate(rows[1]["repeat_s"])]),
             third]
    assert "at 50%); in 1 more, only some sizes did." in modes.slow_rounds(alone)


def test_part_6_sets_the_cap_alone_beside_both_settings_only_where_part_2_read_host_blocking_as_slower():
    """Part 6 trains with runtime.setup()'s defaults (both settings); where part 2's paired verdict read host blocking
    as slower on that step, one sentence gives part 2's medians for the cap alone and both; otherwise nothing."""
    def rows_with(capped):
        rows = []
        for process, (case, g, pyn) in enumerate((("no fixes", 10.0, 3.0), ("ONEDNN_MAX_CPU_ISA=AVX2", capped, 15.0),
                                                  ("MS_DEV_HOST_BLOCKING_RUN=1", 11.0, 5.0),
                                                  ("both fixes", 90.0, 60.0))):
            for cfg, sps in (("graph/cell", g), ("pynative/cell", pyn)):
                row = rate(cfg, sps, case=case, process=process)
                row["repeat_s"] = [10 / (sps * f) for f in (0.9, 1.0, 1.05)[::1 if process % 2 else -1]]
                rows.append(row)
        return traps.summarise_cpu_traps(rows, bench.TrapsParams(specs=("graph/cell", "pynative/cell"), noise_pct=10))

    slower = rows_with(120.0)
    assert slower.metrics["host_blocking"]["graph/cell"]["paired"]["reading"] == "below"
    text = findings.part6_setting(slower)
    assert text.startswith("Part 2 read host blocking on this step as slower (0.75x")
    assert "the ISA cap alone ran 120.0 steps/s and both settings 90.0 (medians)" in text
    assert "runtime.setup()'s defaults" in text
    assert findings.part6_setting(rows_with(60.0)) == ""   # host blocking faster there: nothing to set beside it
    assert findings.part6_setting(None) == ""


def test_the_claim_is_not_decided_where_the_copies_came_as_far_apart_as_the_claim():
    # the pipeline's control 0.98-1.24 (copies up to 24% apart): 1.15 above 0.66-1.08 is not ruled out by it
    assert modes.claim_words(0.66, 1.08, copies=(0.98, 1.24)) == "not decided (the copies came up to 24% apart)"
    assert modes.claim_words(0.66, 1.08, copies=(0.97, 1.02)) == "ruled out (above the interval)"
    assert modes.claim_words(0.66, 1.20, copies=(0.98, 1.24)) == "not ruled out (inside)"   # inside: as before
    assert "not decided" in modes.claim_reading(0.90, 1.05, copies=(0.80, 1.10))   # 1/0.80 = 1.25 >= 1.15
    assert "ruled out here" in modes.claim_reading(0.90, 1.05)


def test_the_like_for_like_pair_is_widened_when_the_control_comes_apart():
    wobble = (0, 0.05, -0.05, 0.02, -0.02)
    rows = [_timed("graph/functional", 100, wobble, input=modes.IN_MEMORY, claim_s=30.0),
            _timed("graph/cell", 100, wobble, input=modes.IN_MEMORY),
            _timed(modes.JIT_SPEC, 100, wobble, input=modes.IN_MEMORY),
            dict(_timed(modes.COPY, 95, wobble, input=modes.IN_MEMORY)), *_pipeline_rows()]
    pairs, twin, _ = modes._style_readings(rows)
    assert twin.gap is not None   # the copy 5% slower in every round: apart
    assert pairs["cell_jit"][1] < 0.99 and pairs["cell_jit"][2] > 1.01   # 1.00-1.00 widened by the gap
    res = modes.summarise_styles(rows, bench.StylesParams())
    assert "cell_vs_jit_control_low" in res.metrics


def test_a_row_holding_one_under_a_wide_control_rules_out_nothing_within_the_copies_gap():
    from course_utils.bench.experiments.common import short_reading
    assert short_reading(0.90, 1.27) == "not separated (up to 27% not ruled out)"
    assert short_reading(0.90, 1.27, copies=(0.70, 1.48)) == "not separated (up to 48% not ruled out)"
    assert short_reading(0.90, 1.27, copies=(0.97, 1.02)) == "not separated (up to 27% not ruled out)"


def test_an_interval_too_wide_for_a_twofold_difference_says_so_instead_of_a_percentage():
    from course_utils.bench.experiments.common import short_reading
    assert short_reading(0.95, 16.48) == "not separated (too wide to rule out even a twofold difference)"
    assert short_reading(0.60, 1.90) == "not separated (up to 90% not ruled out)"


def test_two_runs_that_both_put_a_cell_before_the_jit_function_share_that_advice():
    from course_utils.bench.report import Result
    one = Result("modes", [], [], "", {"graph_cell_vs_jit": 7.5, "graph_cell_vs_jit_low": 6.6,
                                       "graph_cell_vs_jit_high": 10.7, "graph_cell_vs_jit_cell": 6.9,
                                       "graph_cell_vs_jit_cell_low": 6.6, "graph_cell_vs_jit_cell_high": 10.6})
    every = Result("modes", [], [], "", {"graph_cell_vs_jit": 13.7, "graph_cell_vs_jit_low": 8.6,
                                         "graph_cell_vs_jit_high": 15.9, "graph_cell_vs_jit_cell": 8.5,
                                         "graph_cell_vs_jit_cell_low": 0.95, "graph_cell_vs_jit_cell_high": 16.5})
    assert [modes.advice_of(r.metrics) for r in (one, every)] == ["cell", "cell_over_jit"]
    assert modes.loop_advice(None, [("one", one), ("every", every)]).splitlines()[2] == (
        "host blocking off (MindSpore's default): prefer a GRAPH_MODE Cell such as TrainOneStepCell to a @jit "
        "function.")   # not "or jit on the Cell": the first run found the GRAPH_MODE Cell faster than that too


def test_part_4_reads_model_train_against_the_same_controls_as_the_fed_step():
    """zh08.md (s21): Model.train's row at 0.64-0.85 read 'slower' under controls 30% apart, two lines above 'part 4
    reads no difference smaller than 30%'. Every row of the part is read against that bound."""
    fed = {"median": 0.9, "low": 0.8, "high": 1.02, "reading": "inside",
           "control": {"median": 1.0, "low": 0.95, "high": 1.05}}
    model = {"median": 0.75, "low": 0.64, "high": 0.85}
    sink = {"median": 1.0, "low": 0.77, "high": 1.10}   # one loop twice (CPU): its gap sets the bound
    rows = pipeline._verdict_rows(fed, sink, model, same_loop=True, bound=pipeline.controls_bound_pct(fed, sink))
    words = {row[0]: row[4] for row in rows}
    assert words["Model.train, sink mode off / in-memory (A and A')"] == ("within the copies' gap (copies up to 30% "
                                                                         "apart)")
    assert words["fed by the pipeline / in-memory (A and A')"] == "not separated (up to 30% not ruled out)"
    far = pipeline._verdict_rows(fed, sink, dict(model, low=0.5, high=0.7), same_loop=True, bound=30.0)
    assert far[2][4] == "below 1.00: slower"   # beyond the bound: read


@pytest.mark.parametrize("best_s, naive_rate, best_rate, noise", [
    (46.035918922345445, 6.43, 47.62, 10.4),   # lesson 08's stored run: 342.1-406.2 s, 290-480 s
    (53.46, 5.52, 49.94, 24.0),                 # a run where unrounded figures gave 8.9 beside 470 / 53.5 (8.8)
    (19.96, 24.96, 150.04, 37.0)])
def test_every_ratio_part_6_prints_is_the_ratio_of_the_figures_it_prints(best_s, naive_rate, best_rate, noise):
    """Part 6's one rule (``accuracy.printed``): a reader who divides two printed figures gets the printed ratio, in
    the estimate table, the sentence, the first table, the closing list and the line against part 2."""
    import re

    from course_utils.fmt import plain_figures

    curve = [{"step": 2400, "accuracy": 0.983, "train_s": best_s * 0.92}, {"step": 2600, "accuracy": 0.986,
                                                                           "train_s": best_s}]
    rows = [{"run": "best", "target": 0.985, "step": 2600, "train_s": best_s, "curve": curve},
            *step_rates(naive_rate, best_rate)]
    res = accuracy.summarise_time_to_accuracy(rows, bench.TimeToAccuracyParams(targets=(0.985,), noise_pct=noise))
    best = f"{best_s:.1f}"
    assert f"needed {best} s of training" in res.conclusion
    table = res.conclusion.splitlines()
    start = next(i for i, line in enumerate(table) if line.startswith("estimate"))
    shown = [line.rsplit(None, 2)[-2:] for line in table[start + 2:start + 6]]   # naive s, speed-up (x)
    for i, (seconds, x) in enumerate(shown):
        two = i == 3   # the noise row: two significant figures
        for s, r in zip(seconds.split("-"), x.split("-")):
            ratio = float(s) / float(best)
            assert r == (plain_figures(ratio) if two else f"{ratio:.1f}"), (seconds, x)
    row = res.row(config="0.985")
    assert (row["naive_s_range"], row["speedup_range"]) == tuple(shown[-1])   # the first table leads with it
    assert f"were {shown[-1][1]}x faster" in res.conclusion
    two_methods = sorted(shown[:2], key=lambda r: float(r[0]))
    assert (f"by the two methods alone, {two_methods[0][0]}-{two_methods[1][0]} s and "
            f"{two_methods[0][1]}-{two_methods[1][1]}x") in res.conclusion
    # the closing list quotes the same range
    pools = {name: bench.Timing.from_row(_rounds(name, (100, 100, 100, 100, 100)))
             for name in ("nn.MaxPool2d", "nn.MaxPool2d (A′)")}
    pipe = pipeline.summarise_data_pipeline(shuffled(pipeline_rows(600, 100, 90)), bench.PipelineParams(noise_pct=5))
    amp_res = amp.summarise_amp(amp_rows(45, 0.95), bench.AmpParams(levels=("O0", "O1", "O3")))
    found = findings.this_run_found(traps=None, pool_cap=None, pools=pools, pipe=pipe, amp=amp_res, tta=res,
                                    device="CPU")
    assert f"needed about {shown[-1][1]}x the course settings'" in found
    # against part 2: each ratio from the rates as printed
    traps_res = bench.Result("cpu_traps", [], [], "", {"naive_steps_per_s": 7.66, "fixes_steps_per_s": 77.64})
    line = findings.naive_rates(res, traps_res, noise)
    g6, g2, xn, n2, n6, xb, b2, b6 = map(float, re.findall(r"\d+\.\d+", line)[:8])
    assert g6 == round(b6 / n6, 1) and g2 == round(b2 / n2, 1)
    assert xn == round(n6 / n2, 2) and xb == round(b6 / b2, 2)
    assert f"{g6:.1f}" == shown[1][1] or f"{g6:.1f}" == shown[0][1]   # the scaled end: the step-rate ratio
    moved = max(max(x, 1 / x) for x in (n6 / n2, b6 / b2)) > 1 + noise / 100
    assert ("At least one rate moved by more than" in line) == moved


def test_a_block_timed_in_the_kernel_counts_in_the_busy_machine_warning(tmp_path, capsys, monkeypatch):
    import time

    from course_utils.bench import notebook

    busy = bench.Conditions(cpus=2, load_before=(3.0, 2, 2), load_after=(4.0, 3, 2), seconds=60, others_cores=1.4)

    class Busy:
        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.conditions = busy
            return False

    lab = bench.Lab(tmp_path, "graph")
    lab.results["x"] = bench.Result("x", [], [], "", {"m": 1.0})
    monkeypatch.setattr(notebook, "Measuring", Busy)
    with lab.measuring("pooling rewrites") as m:
        pass
    assert m.conditions is busy and lab.blocks == {"pooling rewrites": busy}
    lab.headline(["x"], None, time.perf_counter())
    assert "WARNING: 1 of 2 experiments ran on a busy machine" in capsys.readouterr().out
