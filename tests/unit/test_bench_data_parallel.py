"""course_utils.bench.data_parallel: lesson 09's table and verdicts, each pair judged by its own rounds."""

from course_utils.bench import Timing, summarise_data_parallel


def timing(name, rates, steps=50, batch=None):
    """A Timing whose blocks ran at these steps/s, one block per round."""
    return Timing(name, 0.0, [], [steps / r for r in rates], steps, batch)


def worker(cell, local):
    return {"bench": {"cell": dict(timing("cell", cell, batch=32).as_dict(), kernel_threads=2),
                      "cell_local": dict(timing("cell_local", local, batch=32).as_dict(), kernel_threads=2)}}


def summary(kernel_1cpu, kernel_global, local):
    kernel = {"small": timing("small", [190, 195, 200, 192, 198], batch=32),
              "global_1cpu": timing("global_1cpu", kernel_1cpu, batch=64),
              "global": timing("global", kernel_global, batch=64)}
    # the noisy rows: the workers' (spread ~33%)
    metrics = [worker([80, 87, 120, 60, 90], local), worker([82, 88, 118, 62, 91], local)]
    return summarise_data_parallel(kernel, 2, metrics, batch_size=32, n_params=44404, cpus=2)


def test_two_quiet_rows_apart_are_not_a_tie_because_another_row_is_noisy():
    # pinned to 1 CPU steadily ~9% faster than the defaults, round by round: "slower" for the defaults
    s = summary([134, 136, 135, 133, 137], [123, 124, 124, 122, 125], [140, 150, 190, 110, 145])
    assert s.pairs[("global", "global_1cpu")][3] == "slower"
    text = "\n".join(s.sentences())
    assert "x0.92, slower" in text and "it ran faster pinned to 1 CPU" in text


def test_every_ratio_carries_its_verdict_word():
    s = summary([134, 136, 135, 133, 137], [123, 124, 124, 122, 125], [140, 150, 190, 110, 145])
    text = "\n".join(s.sentences())
    for a, b in (("dp", "global"), ("dp", "global_1cpu"), ("local", "global"), ("local", "global_1cpu")):
        med, lo, hi, word = s.pairs[(a, b)]
        assert word in ("faster", "slower", "tie", "inconclusive") and lo <= med <= hi
        assert s.said(a, b) in text
    assert s.pairs[("dp", "global")][3] == "slower"   # x0.70 says what it is


def test_an_interval_holding_one_is_a_tie_and_the_table_lists_five_rows():
    s = summary([124, 120, 126, 121, 125], [123, 124, 124, 122, 125], [140, 150, 190, 110, 145])
    assert s.pairs[("global", "global_1cpu")][3] == "tie"
    assert "no measurable difference" in "\n".join(s.sentences())
    assert len(s.table().splitlines()) == 6 and "2 workers × 32, data parallel" in s.table()
    assert abs(s.samples_per_s("dp") - 64 * 87) < 64 and s.samples_range("dp")[0] <= s.samples_per_s("dp")


def test_the_verdict_reads_the_bounds_as_printed():
    from course_utils.bench.data_parallel import _word
    assert _word(0.65, 0.9996) != "slower"            # printed "0.65-1.00": it holds 1
    assert _word(0.65, 0.994) == "slower"             # printed "0.65-0.99"
    assert _word(1.004, 1.3) != "faster" and _word(1.006, 1.3) == "faster"


def test_a_wide_interval_holding_one_is_inconclusive_not_a_tie():
    from course_utils.bench.data_parallel import _word
    assert _word(0.86, 2.88) == "inconclusive" and _word(0.95, 1.06) == "tie"
    s = summary([134, 136, 135, 133, 137], [123, 124, 124, 122, 125], [140, 150, 190, 110, 145])
    s.pairs[("local", "global")] = (1.92, 0.86, 2.88, "inconclusive")
    text = "\n".join(s.sentences())
    assert "x1.92, inconclusive in this run (5 rounds; 95% interval 0.86-2.88)" in text
    # the question is answered against each setup of one process on its own, with that comparison's own verdict
    answer = next(line for line in text.splitlines() if line.startswith("Did the second worker"))
    assert s.said("local", "global") in answer and s.said("local", "global_1cpu") in answer
    assert "yes, x" not in answer and "no, x" not in answer   # neither of these two intervals leaves 1 out


def test_the_finding_names_both_comparisons_and_the_all_reduce_share():
    s = summary([134, 136, 135, 133, 137], [123, 124, 124, 122, 125], [140, 150, 190, 110, 145])
    line = s.finding()
    assert line.startswith("On this 2-CPU machine data parallel was slower") and "in both comparisons" in line
    assert f"{100 * s.comm_share[0]:.0f}% of each data-parallel step" in line
