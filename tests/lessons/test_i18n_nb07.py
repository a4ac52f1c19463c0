"""Notebook 07 in Chinese: every checker message (each typical wrong answer of tests/lessons/test_exercises_nb07.py,
plus correct and not attempted), the hints and the solution; and the performance lab's conclusions (course_utils.bench:
the conditions, the skipped notice and every experiment's summarise), produced in the language current at the
time they are computed. The English texts are tested, unchanged, in test_exercises_nb07.py and
test_bench_summaries.py."""

import re

from course_utils import bench, i18n
from course_utils.bench.experiments import accuracy, amp, modes, pipeline, shapes, sink, traps
from course_utils.bench.report import Conditions
from course_utils.exercises import Outcome, ____, nb07

from support.bench_rows import (accuracy_rows, amp_rows, find_rows, pipeline_rows, rate, shape_rows, shuffled,
                                step_rates, trap_results)
from test_exercises_nb07 import forced_every_step, no_warmup, not_forced

CJK = re.compile(r"[\u4e00-\u9fff]")


def english_words(text):
    """Runs of three or more English words in a row: prose the catalogue left in English."""
    return re.findall(r"\b[a-z]{3,}(?: [a-z]{2,}){2,}\b", text)


# ------------------------------------------------------------------ exercises
def test_q1_messages_in_chinese(zh):
    assert nb07.q1.check(*nb07.q1.reference()) == Outcome.CORRECT
    blank = nb07.q1.check(____)
    assert blank == Outcome.NOT_ATTEMPTED and "占位符" in blank.message
    cold = nb07.q1.check(no_warmup)
    assert cold == Outcome.INCORRECT and "首次调用" in cold.message and "计时区间" in cold.message
    lazy = nb07.q1.check(not_forced)
    assert lazy == Outcome.INCORRECT and "没有等待计算完成" in lazy.message and ".asnumpy()" in lazy.message
    pasted = nb07.q1.check(forced_every_step)
    assert pasted == Outcome.INCORRECT and "第 1 节的测法" in pasted.message and "时延" in pasted.message
    text = nb07.q1.check(lambda step, steps, repeats: "fast")
    assert text == Outcome.INCORRECT and "数值" in text.message and "'fast'" in text.message
    for result in (cold, lazy, pasted, text):
        assert not english_words(result.message), result.message


def test_q2_messages_in_chinese(zh):
    assert nb07.q2.check(*nb07.q2.reference()) == Outcome.CORRECT
    assert nb07.q2.check(____) == Outcome.NOT_ATTEMPTED
    count = nb07.q2.check(lambda times: sum(t > 0.1 for t in times))
    assert count == Outcome.INCORRECT and "调用索引列表" in count.message and "期望 [0, 3]" in count.message
    jumpy = nb07.q2.check(lambda times: [i for i, t in enumerate(times) if t > 3 * sorted(times)[len(times) // 2]])
    assert jumpy == Outcome.INCORRECT and "只是噪声，而不是编译" in jumpy.message
    assert "机器繁忙" in jumpy.message   # the trace's description is translated too
    no_first = nb07.q2.check(lambda times: [i for i, t in enumerate(times) if i and t > 0.3 * times[0]])
    assert no_first == Outcome.INCORRECT and "索引 0" in no_first.message and "索引 3 的调用" in no_first.message
    third = nb07.q2.check(lambda times: [i for i, t in enumerate(times) if t >= times[0] / 3])
    assert third == Outcome.INCORRECT and "噪声尖峰" in third.message
    spiky = nb07.q2.check(lambda times: [i for i, t in enumerate(times) if t > 5 * sorted(times)[len(times) // 2]])
    assert spiky == Outcome.INCORRECT and "较长的卡顿" in spiky.message and "二十分之一" in spiky.message
    not_a_function = nb07.q2.check(42)
    assert not_a_function == Outcome.INCORRECT and "函数" in not_a_function.message and "int" in not_a_function.message
    for result in (count, jumpy, no_first, third, spiky, not_a_function):
        assert not english_words(result.message), result.message


def test_q3_messages_in_chinese(zh):
    assert nb07.q3.check(*nb07.q3.reference()) == Outcome.CORRECT
    assert nb07.q3.check(____) == Outcome.NOT_ATTEMPTED
    greedy = nb07.q3.check(lambda a, b: a.name if a.steps_per_s > b.steps_per_s else b.name)
    assert greedy == Outcome.INCORRECT and "区间却包含 1.00：分不出快慢" in greedy.message
    assert "期望 None" in greedy.message
    shy = nb07.q3.check(lambda a, b: None)
    assert shy == Outcome.INCORRECT and "配对区间却高于 1.00" in shy.message and "期望 'a'，得到 None" in shy.message
    from course_utils import bench
    refused = nb07.q3.check(lambda a, b: bench.interval_side(*bench.paired_ratio(a, b)[1:]))
    assert refused == Outcome.INCORRECT and "请像检查 2 的 paired_interval 那样，自己逐轮配对" in refused.message
    for result in (greedy, shy, refused):
        assert not english_words(result.message), result.message


def test_the_outcomes_hints_and_solution_are_shown_in_chinese(zh, capsys):
    assert "正确" in str(nb07.q1.check(*nb07.q1.reference()))
    assert "尚未作答" in str(nb07.q2.check(____))
    nb07.q1.hint()
    nb07.q2.hint()
    nb07.q3.hint()
    nb07.q1.solution()
    out = capsys.readouterr().out
    assert "提示" in out and "开始计时之前先调用一次 step()" in out
    assert "首次调用总会编译" in out and "把两端舍入到两位小数再读" in out
    assert "参考答案" in out and "# 预热：首次调用会编译，不计时" in out
    assert "result.asnumpy()" in out and "warm-up" not in out
    assert "训练步相互重叠时的吞吐量" in out   # the title of q1, in the label


def test_the_english_messages_are_unchanged(lang):
    lazy = nb07.q1.check(not_forced)
    if lang == "en":
        assert "the work was not waited for" in lazy.message
    else:
        assert "没有等待计算完成" in lazy.message


# ------------------------------------------------------------------ the lab's conclusions
def test_conditions_and_skipped_in_chinese(zh):
    quiet = Conditions(2, (0.5, 0.4, 0.3), (0.6, 0.5, 0.4), 12.0, 0.1)
    assert quiet.describe() == ("测量条件：用时 12 秒，2 个 CPU；1 分钟平均负载：测量前 0.50，测量后 0.60；"
                                "期间其他进程平均占用 0.10 个 CPU")
    assert quiet.warning() == ""
    busy = Conditions(2, (3.0,), (4.0,), 12.0, 1.5)
    assert busy.warning().startswith("警告：机器繁忙（用时 12 秒，2 个 CPU") and "1.50 个 CPU" in busy.warning()
    assert "交替测量" in busy.warning()
    skipped = bench.run_experiment("sink_mode", bench.SinkParams(device="CPU"))
    assert str(skipped) == "[sink_mode] 已跳过：sink_mode 只在 Ascend 上测量，不在 CPU 上测量"


def test_the_conclusion_follows_the_language_at_the_time_it_is_computed():
    rows = [rate("pynative/cell", 20), rate("graph/cell", 80)]
    p = bench.ModesParams(specs=("pynative/cell", "graph/cell"))
    english = modes.summarise_modes(rows, p).conclusion
    i18n.set_language("zh")
    chinese = modes.summarise_modes(rows, p).conclusion
    assert english.startswith("comparison") and "GRAPH_MODE / PyNative, TrainOneStepCell" in english
    assert not CJK.search(english)
    # the rows' labels too: summarise names them in the language of the moment
    medians = modes.summarise_modes([{k: v for k, v in r.items() if k != "repeat_s"} for r in rows], p).conclusion
    assert "超出噪声水平、判定最快的是静态图模式下的 TrainOneStepCell，80.0 步/秒，是最慢者" in medians
    assert chinese.startswith("比较")
    assert "TrainOneStepCell，静态图模式 / 动态图模式  4.00 倍  4.00～4.00  高于 1.00：更快" in chinese
    assert chinese.endswith("本次运行的结论：与动态图模式相比，静态图模式更快。")
    assert "噪声水平" not in chinese   # with rounds to pair: the paired verdicts alone


def test_modes_styles_and_batch_sizes_in_chinese(zh):
    p = bench.ModesParams(specs=("pynative/cell", "graph/cell"))
    slow = modes.summarise_modes([rate("pynative/cell", 50), rate("graph/cell", 30)], p).conclusion
    assert "0.60 倍  0.60～0.60  低于 1.00：更慢" in slow and slow.endswith("与动态图模式相比，静态图模式更慢。")
    close = (rate("pynative/cell", 50, spread=0.1), rate("graph/cell", 52, spread=0.1))
    same = modes.summarise_modes([{k: v for k, v in r.items() if k != "repeat_s"} for r in close], p)
    assert "以下配置并列最快，彼此相差在噪声水平之内" in same.conclusion   # the medians' reading: rounds unpaired
    rows = [rate("graph/functional", 100, input="in-memory batches"),
            rate("graph/cell", 101, input="in-memory batches"),
            rate("graph/functional +pipeline", 80, input="data pipeline"),
            rate("graph/cell +pipeline", 81, input="data pipeline"), rate("Model.train", 40, input="data pipeline")]
    styles = modes.summarise_styles(shuffled(rows), bench.StylesParams()).conclusion
    assert ("文章所说的 1.15 倍：内存中的批，已排除（高于区间）；由数据处理流水线供数，已排除（高于区间）。"
            in styles)
    assert re.search(r"流水线供数：Model.train / 函数式训练循环 +0.50 倍  0.50～0.50  低于 1.00：更慢", styles)
    assert styles.endswith("本次运行的结论：与不加 @jit 的函数式训练步相比，TrainOneStepCell 更快。")
    copied = modes.summarise_styles(rows + [rate(modes.COPY, 101, input=modes.IN_MEMORY, claim_s=30.0)],
                                    bench.StylesParams(noise_pct=20)).conclusion
    # the copy 1% apart in every round: its control fails, so the interval is widened
    assert "对照：函数式训练步，A′ / A" in copied and "不含 1.00：下面各行已按两份副本的差距放宽" in copied
    assert not english_words(copied), copied
    sizes = [rate(f"batch {b}", sps, batch_size=b, samples_per_s=b * sps) for b, sps in ((32, 100), (64, 80))]
    text = modes.summarise_batch_sizes(sizes, bench.BatchSizesParams(batch_sizes=(32, 64))).conclusion
    assert text.startswith("各轮：3 轮里有 0 轮比各批大小的中位数慢 20% 以上（最慢的是第 1 轮，为中位数的 98%）；"
                           "另有 0 轮只有部分批大小慢了这么多。\n"
                           "排在第一的是基准批大小 64：其他批大小与它逐轮配对的比值都不高于 1.00。\n"
                           "在它中间一半的轮次里，速度为 ")
    assert "MNIST 一个 epoch 的训练步耗时" in text and "（批数据在内存中，不含数据处理流水线）。\n" in text
    assert ("批大小 64 / 批大小 32  1.60 倍  1.60～1.60  高于 1.00：更快\n"
            "按配对区间得出的结论：批大小 64 比批大小 32 快（区间高于 1.00）。") in text
    assert text.endswith("（区间高于 1.00）。") and "重叠准则" not in text   # one rule: the paired verdict
    bare = [{k: v for k, v in r.items() if k != "repeat_s"} for r in sizes]
    alone = modes.summarise_batch_sizes(bare, bench.BatchSizesParams(batch_sizes=(32, 64), noise_pct=70)).conclusion
    assert alone.splitlines()[-1] == ("本次运行无法给这几个批大小排出快慢：每个批大小与批大小 64 相比，"
                                      "要么在噪声水平之内，要么无法判定。")
    sizes.append(rate("batch 128", 38, batch_size=128, samples_per_s=128 * 38))
    mixed = modes.summarise_batch_sizes(sizes, bench.BatchSizesParams(batch_sizes=(32, 64, 128), noise_pct=15))
    assert "按配对区间得出的结论：批大小 64 比批大小 32、128 快（区间都高于 1.00）。" in mixed.conclusion
    assert modes.sweep_finding(mixed) == ("批大小（第 4 节）：逐轮配对比值最高的就是基准批大小 64 本身；"
                                          "它比批大小 32、128 快（区间都高于 1.00）。")
    wide = [dict(r, min_steps_per_s=0.7 * r["steps_per_s"], max_steps_per_s=1.3 * r["steps_per_s"]) for r in sizes]
    undecided = modes.summarise_batch_sizes(wide, bench.BatchSizesParams(batch_sizes=(32, 64, 128),
                                                                         noise_pct=1)).conclusion
    assert "按配对区间得出的结论" in undecided and "重叠准则" not in undecided
    assert not english_words(undecided), undecided
    for t in (alone, mixed.conclusion):
        assert not english_words(t), t
    for t in (slow, styles, text):
        assert not english_words(t), t


def test_cpu_traps_and_finding_them_in_chinese(zh):
    met, missed, fastest = trap_results()   # computed now, in Chinese
    assert "为 10.0 步/秒" in met.conclusion and "同一配置为 90.0 步/秒，是前者的 9.00 倍。" in met.conclusion
    assert "- 动态图模式下的 TrainOneStepCell：限制指令集使速率从" in met.conclusion
    assert "阻塞执行使速率从 15.0 变为 60.0 步/秒（4.00 倍），更快（超出噪声水平" in met.conclusion
    assert "目标" not in missed.conclusion
    fastest_text = ("整张表中最高的中位数是 120.0 步/秒，来自只加 ONEDNN_MAX_CPU_ISA=AVX2 的"
                    "静态图模式下的 TrainOneStepCell")
    assert fastest_text in fastest.conclusion and not english_words(fastest.conclusion), fastest.conclusion
    assert "与 Ascend 无关" in str(traps.summarise_cpu_traps([], bench.TrapsParams(device="Ascend")))
    found = traps.summarise_find_trap(shuffled(find_rows(40.0, 4.0)), bench.FindTrapParams()).conclusion
    assert "两个卷积层占 42.0 毫秒中的 40.0 毫秒（95%）" in found and "不限制时的耗时是限制后的 10.0 倍。" in found
    assert "无济于事" in traps.summarise_find_trap(find_rows(4.0, 4.0), bench.FindTrapParams()).conclusion


def test_pipeline_amp_shapes_and_sink_in_chinese(zh):
    fine = pipeline.summarise_data_pipeline(shuffled(pipeline_rows(600, 100, 90)), bench.PipelineParams()).conclusion
    lines = fine.splitlines()   # lesson 08's verdict table (the A/A' control first), then one sentence
    assert lines[0].split() == ["比较", "比值", "区间（各轮最低～最高）", "结论"]   # five rounds: their range
    assert lines[2].startswith("内存中的批 A′ / A（对照）") and lines[2].endswith("包含 1.00，符合预期")
    assert lines[3].startswith("流水线供数 / 内存中的批（A 与 A′）") and lines[3].endswith("低于 1.00：更慢")
    assert lines[4].startswith("Model.train，数据下沉关 / 内存中的批（A 与 A′）")   # Model.train's own loop, paired
    assert lines[5].startswith("Model.train，数据下沉开 / 关（CPU 上是同一个循环：对照）")
    assert lines[5].endswith("包含 1.00，符合预期")
    assert lines[6].startswith("流水线单独运行时每秒产出 600 个批") and len(lines) == 9
    assert lines[7] == ("CPU 上数据下沉运行的是普通循环，所以“数据下沉开 / 关”是第二个对照，"
                        "即同一个循环计时两次：区间包含 1.00。")
    assert lines[8].startswith("判定词（练习 08.2 要返回的词）：'costs'。流水线跟得上，"
                               "但由它供数的训练步比使用内存中的批时慢了 10%")
    cpu = amp.summarise_amp(shuffled(amp_rows(20, 0.90)), bench.AmpParams(levels=("O0", "O1", "O3"))).conclusion
    rows = cpu.splitlines()   # one verdict table row per level, then the accuracy that fell
    assert rows[2].split() == ["O1", "/", "O0", "及其副本", "0.90", "倍", "0.90～0.90", "低于", "1.00：更慢"]
    assert rows[3].split()[:5] == ["O3", "/", "O0", "及其副本", "0.40"]
    assert rows[4] == "amp O3：准确率 90.0%（低了 5.0 个百分点：不要只看速度，也要检查准确率）。"
    res = shapes.summarise_dynamic_shapes(shuffled(shape_rows(True)), bench.ShapesParams(n_shapes=2)).conclusion
    assert res.startswith("2 种批形状（64、57）导致 2 次编译，8 次调用共 4.06 秒，其中编译占 4.00 秒。")
    assert "没有引起重新编译" in shapes.summarise_dynamic_shapes(shape_rows(False),
                                                           bench.ShapesParams(n_shapes=2)).conclusion
    rows = [rate("sink off", 100, key="batches_per_s"), rate("sink on, sink_size 10", 300, key="batches_per_s")]
    text = sink.summarise_sink_mode(rows, bench.SinkParams(device="Ascend", sink_sizes=(10,))).conclusion
    assert text == ("在 Ascend 上，不使用数据下沉模式时 Model.train 为 100 批/秒；"
                    "最快的是 sink on, sink_size 10，为 300 批/秒，是关闭下沉时的 3.0 倍（更快）。")


def test_time_to_accuracy_in_chinese(zh):
    p = bench.TimeToAccuracyParams(targets=(0.985, 0.99))
    best, rows = accuracy_rows()
    res = accuracy.summarise_time_to_accuracy(shuffled(rows), p)
    assert res.conclusion.startswith("要达到 99.0% 的测试准确率，推荐配置（")
    assert "未调优的默认配置则需要 160.0 秒（实测）：速度是后者的 8.0 倍。" in res.conclusion
    assert res.row(config="0.990")["naive_how"] == "实测"   # the table and the plot's label speak Chinese too
    est = accuracy.summarise_time_to_accuracy(best + step_rates(25.0), p)
    assert "本次运行由两种单步速率估算其耗时约 80.0 秒。推荐配置的速度是它的 4.0 倍。" in est.conclusion   # one figure
    slower = accuracy.summarise_time_to_accuracy(best + step_rates(200.0), p)
    assert "推荐配置的耗时反而是它的 2.0 倍" in slower.conclusion
    missed = [dict(r, step=None, train_s=None) if r["target"] == 0.99 else r for r in best]
    res = accuracy.summarise_time_to_accuracy(missed + step_rates(25.0), p)
    assert "在 60 秒的时间限制内没有达到 99.0% 的目标" in res.conclusion
    reached = [{"target": 0.9, "step": 50, "train_s": 3.0}, {"target": 0.99, "step": None, "train_s": None}]
    assert accuracy.summarise_train_to_accuracy(reached, bench.TrainParams(targets=(0.9, 0.99))).conclusion \
        == "3 秒后达到 90.0%。"
    for t in (res.conclusion, est.conclusion, slower.conclusion):
        assert not english_words(t), t


def test_the_lab_tables_names_and_titles_in_chinese(zh):
    met, _, _ = trap_results()
    table = met.table()
    assert table.splitlines()[0].split()[:3] == ["情形", "配置", "首次调用（秒）"]
    assert "不加优化设置" in table and "两项 CPU 优化设置" in table and "静态图模式下的 TrainOneStepCell" in table
    assert "no fixes" not in table and "first_call_s" not in table
    found = traps.summarise_find_trap(find_rows(40.0, 4.0), bench.FindTrapParams()).table()
    assert "不限制指令集" in found and "ReLU+池化 1" in found
    styles = [rate("graph/functional", 100, input=modes.IN_MEMORY), rate("graph/cell", 101, input=modes.IN_MEMORY),
              rate("graph/functional +pipeline", 80, input=modes.PIPELINE),
              rate("graph/cell +pipeline", 81, input=modes.PIPELINE), rate("Model.train", 40, input=modes.PIPELINE)]
    res = modes.summarise_styles(styles, bench.StylesParams())
    assert "数据处理流水线" in res.table() and "内存中的批" in res.table()
    assert res.row(config="Model.train")["label_input"] == "Model.train，数据处理流水线"
    assert bench.Spec.parse("pynative/jit:O1").label == "动态图模式下的 @jit 函数式训练步（O1）"
    assert lab_title("data_pipeline") == "数据处理流水线：由它供数的训练步与使用内存中批的训练步对比；数据下沉模式"
    for text in (table, found, res.table()):
        assert not english_words(text), text
    with i18n.speaking("en"):   # the same rows, English again when shown in English
        assert met.table().splitlines()[0].split()[:2] == ["case", "configuration"] and "no fixes" in met.table()
        assert bench.Spec.parse("pynative/jit:O1").label == "PyNative, @jit functional step O1"


def lab_title(name):
    return bench.experiments.get(name).title


def test_own_floors_and_the_claims_floor_in_chinese(zh):
    def timed(config, sps, wobble, **fields):
        return dict(rate(config, sps, **fields), repeat_s=[10 / (sps * (1 + wobble[i % 3])) for i in range(5)])

    rows = [timed("pynative/cell", 20, (0, 0.02, -0.02)), timed("graph/cell", 80, (0, 0.01, -0.01)),
            dict(timed("graph/cell copy", 81, (0.01, -0.01, 0)), label="静态图模式下的 TrainOneStepCell（第二份副本）")]
    text = modes.summarise_modes(rows, bench.ModesParams(specs=("pynative/cell", "graph/cell"))).conclusion
    assert "噪声水平" not in text   # the floor picks best_config; only the paired verdicts are printed
    assert not english_words(text), text
    assert modes.claim_reading(1.0, 1.1) == ("文章所说的 1.15 倍高于区间，在这里可以排除；"
                                             "1.00（两者没有差别）落在区间之内，不能排除。")
    assert modes.claim_reading(1.02, 1.14).startswith("文章所说的 1.15 倍恰在区间上沿")
