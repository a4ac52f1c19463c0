"""Notebook 10's checks in Chinese: every typical wrong answer of ``test_exercises_nb10.py`` gets its message in
Chinese, and so do "not attempted", "correct", the hints and the solutions.

Most tests do not run a training script: they hand the check a made-up run (``fake_run``: a return code, what it
printed, and an output folder with the log and checkpoint a broken script would leave), so every message is
covered in seconds. Two ``slow`` tests run real broken scripts end to end, as the English tests do.
"""

import ast
import json
import re
import sys

import numpy as np
import pytest

import mindspore as ms

from course_utils.exercises import Outcome, nb10, nb10_parts
from course_utils.i18n.zh.core import MESSAGES as CORE
from course_utils.i18n.zh.nb10 import MESSAGES

REFERENCE = str(nb10.REFERENCE)   # passes every check on the file itself, so the made-up run decides the outcome
SCRIPT = "my_capstone.py"


def incorrect(result, *fragments):
    assert result.outcome is Outcome.INCORRECT, result.message
    for fragment in fragments:
        assert fragment in result.message, result.message


def shown(text, *fragments):
    """Each fragment appears in ``text``, in this order (the framework decides the separators)."""
    at = 0
    for fragment in fragments:
        found = text.find(fragment, at)
        assert found >= 0, (fragment, text)
        at = found + len(fragment)


TITLE1 = "能运行，为每轮记录日志，原子写入检查点"


def write_checkpoint(folder, weight=0.0, **position):
    """A checkpoint with one weight and the given position entries (epoch, step_in_epoch, global_step)."""
    entries = [{"name": "net.conv.weight", "data": ms.Tensor(np.full((2, 2), weight, np.float32))}]
    entries += [{"name": k, "data": ms.Tensor(np.array([v], np.int32))} for k, v in position.items()]
    ms.save_checkpoint(entries, str(folder / nb10.CHECKPOINT))


def write_log(folder, *epochs, accuracy=0.95):
    lines = [json.dumps({"epoch": e, "global_step": 8 * e, "train_loss": 0.5 / e, "test_accuracy": accuracy,
                         "seconds": 1.0}) for e in epochs]
    (folder / nb10.LOG).write_text("".join(line + "\n" for line in lines))


def fake_run(folder, args=nb10.TINY_RUN, returncode=0, stdout="epoch 1\nepoch 2\n", stderr=""):
    folder.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, f"/somewhere/{SCRIPT}", "--data-dir", "/data", "--out", str(folder), *args]
    return nb10.Run(command, returncode, stdout, stderr, folder, 1.0)


@pytest.fixture
def finished(tmp_path, monkeypatch):
    """A made-up tiny run that did everything right; a test breaks one thing, then checks."""
    run = fake_run(tmp_path / "out")
    write_log(run.out, 1, 2)
    write_checkpoint(run.out, epoch=2, step_in_epoch=0, global_step=16)
    monkeypatch.setattr(nb10, "cached_run", lambda path, source, args: run)
    return run


# ---- the catalogue ----------------------------------------------------------------------------------------------

def test_every_message_title_and_hint_of_nb09_has_a_chinese_entry_with_the_same_placeholders():
    texts = []
    for module in (nb10, nb10_parts):
        source = open(module.__file__, encoding="utf-8").read()
        texts += [node.args[0].value for node in ast.walk(ast.parse(source))
                  if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("tr", "N_")
                  and node.args and isinstance(node.args[0], ast.Constant)]
    assert len(texts) > 100
    texts += [t for q in (nb10.q0, nb10.q1, nb10.q2, nb10.q3, nb10.q4) for t in (q.title, q.hint_text)]
    assert [t for t in texts if t not in MESSAGES and t not in CORE] == []   # the framework's own: core

    def fields(text):
        return sorted(re.findall(r"(?<!\{)\{(\w+)", text))

    assert {k: v for k, v in MESSAGES.items() if fields(k) != fields(v)} == {}
    # Chinese characters or Chinese punctuation ("、" joins a list of TODO numbers: TODO(1)、(2)、(3))
    assert [v for v in MESSAGES.values() if not re.search(r"[\u3000-\u303f\u4e00-\u9fff]", v)] == []


# ---- the file itself: not attempted, or rejected before it runs --------------------------------------------------

def test_the_skeleton_is_not_attempted_in_chinese(zh):
    result = nb10.q1.check(str(nb10.SKELETON))
    assert result.outcome is Outcome.NOT_ATTEMPTED, result.message
    assert "仍有占位符 ____" in result.message
    assert "TODO(1)、(2)、(3)、(4)、(5)、(6)、(7)、(8)、(9)、(10)" in result.message
    shown(str(result), "练习 10.1", TITLE1, "尚未作答")


def test_a_missing_file_or_an_empty_path_in_chinese(zh, tmp_path):
    assert "还不存在" in nb10.q2.check(str(tmp_path / "nope.py")).message
    assert "请把 MY_SCRIPT 设为你的脚本的路径" in nb10.q3.check("").message


def test_course_utils_imports_syntax_errors_and_writes_in_place_in_chinese(zh, tmp_path):
    path = tmp_path / SCRIPT
    path.write_text(open(REFERENCE, encoding="utf-8").read().replace(
        "import numpy as np\n", "import numpy as np\n\nfrom course_utils import data\n", 1))
    incorrect(nb10.q1.check(str(path)), "导入了 course_utils", "独立运行")
    path.write_text("def main(:\n    pass\n")
    incorrect(nb10.q1.check(str(path)), "无法解析", "第 1 行")
    path.write_text(open(REFERENCE, encoding="utf-8").read().replace("os.replace(", "shutil.copy("))
    incorrect(nb10.q1.check(str(path)), "从不重命名文件")


# ---- exercise 10.1 ----------------------------------------------------------------------------------------------

def test_a_finished_run_is_correct_in_chinese(zh, finished):
    result = nb10.q1.check(REFERENCE)
    assert result.outcome is Outcome.CORRECT, result.message
    shown(str(result), "练习 10.1", TITLE1, "正确", "做得好。")


def test_a_crash_in_chinese(zh, finished):
    finished.returncode = 1
    finished.stderr = ('Traceback (most recent call last):\n  File "/somewhere/my_capstone.py", line 3, in main\n'
                       "RuntimeError: boom\n")
    incorrect(nb10.q1.check(REFERENCE), "失败，退出码 1", "RuntimeError: boom", "（在 my_capstone.py 第 3 行抛出）")


def test_no_log_wrong_epochs_and_no_epoch_lines_in_chinese(zh, finished):
    (finished.out / nb10.LOG).unlink()
    incorrect(nb10.q1.check(REFERENCE), "没有在 --out 中写入 log.jsonl")
    write_log(finished.out, 1, 1)
    incorrect(nb10.q1.check(REFERENCE), "记录的轮次是 [1, 1]，期望为 [1, 2]")
    write_log(finished.out, 1, 2)
    finished.stdout = "done\n"
    incorrect(nb10.q1.check(REFERENCE), "打印了 0 行提到 epoch 的内容", "它的输出：done")
    (finished.out / nb10.LOG).write_text("{not json\n")
    incorrect(nb10.q1.check(REFERENCE), "log.jsonl 的第 1 行不是 JSON")


def test_checkpoints_without_position_or_optimizer_state_in_chinese(zh, finished):
    write_checkpoint(finished.out, global_step=16)
    incorrect(nb10.q1.check(REFERENCE), "中没有 epoch 和 step_in_epoch 条目", "从 0 开始计数")
    write_checkpoint(finished.out, epoch=2, step_in_epoch=0)   # weights only: what the English test's mutant saves
    incorrect(nb10.q1.check(REFERENCE), "没有优化器状态", "优化器会从头开始")
    write_checkpoint(finished.out, epoch=1, step_in_epoch=0, global_step=16)
    incorrect(nb10.q1.check(REFERENCE), "epoch=1、step_in_epoch=0；期望为 epoch=2、step_in_epoch=0")
    write_checkpoint(finished.out, epoch=2, step_in_epoch=0, global_step=12)
    incorrect(nb10.q1.check(REFERENCE), "global_step 为 12，期望为 16")
    (finished.out / nb10.CHECKPOINT).unlink()
    incorrect(nb10.q1.check(REFERENCE), "输出文件夹中没有 checkpoint.ckpt")


def test_a_temporary_file_left_behind_in_chinese(zh, finished):
    (finished.out / "checkpoint.tmp.ckpt").write_bytes(b"")
    incorrect(nb10.q1.check(REFERENCE), "留下了 ['checkpoint.tmp.ckpt']", "临时文件应当被重命名或删除")


# ---- exercise 10.2 ----------------------------------------------------------------------------------------------

def resume_runs(monkeypatch, tmp_path, resumed_log, resumed_step, resumed_weight=1.0, stopped=(1, 4, 12)):
    """run_capstone: the stopped run (stopped = epoch, step_in_epoch, global_step), then the resume."""
    calls = []

    def run_capstone(path, args, out=None, timeout=nb10.TIMEOUT_S):
        calls.append(args)
        run = fake_run(out or tmp_path / "out", args)
        if len(calls) == 1:
            write_log(run.out, 1)
            write_checkpoint(run.out, 0.0, epoch=stopped[0], step_in_epoch=stopped[1], global_step=stopped[2])
        else:
            write_log(run.out, *resumed_log)
            write_checkpoint(run.out, resumed_weight, epoch=2, step_in_epoch=0, global_step=resumed_step)
        return run

    monkeypatch.setattr(nb10, "run_capstone", run_capstone)
    return calls


@pytest.mark.parametrize("resumed_log, resumed_step, weight, fragments", [
    ((1, 1, 2), 16, 1.0, ["又从第 1 轮开始（[1, 1, 2]）", "从头开始了"]),            # a resume that starts over
    ((1, 2), 4, 1.0, ["优化器状态", "没有从检查点恢复"]),                                 # the optimizer not restored
    ((1, 2), 20, 1.0, ["应当再训练 4 步", "续训后走了 8 步", "又训练了一遍"]),                # retrains trained batches
    ((1, 2), 16, 0.0, ["权重完全相同", "没有改变网络"]),                                    # the weights never moved
    ((1, 2, 2), 16, 1.0, ["日志中的轮次为 [1, 2, 2]，期望为 [1, 2]"]),
], ids=["starts over", "optimizer not restored", "retrains", "weights unchanged", "epoch logged twice"])
def test_resume_mistakes_in_chinese(zh, tmp_path, monkeypatch, resumed_log, resumed_step, weight, fragments):
    calls = resume_runs(monkeypatch, tmp_path, resumed_log, resumed_step, weight)
    incorrect(nb10.q2.check(REFERENCE), *fragments)
    assert "--resume" in calls[1]


def test_a_stop_in_the_wrong_place_and_a_failed_resume_in_chinese(zh, tmp_path, monkeypatch):
    resume_runs(monkeypatch, tmp_path, (1, 2), 16, stopped=(1, 0, 12))
    incorrect(nb10.q2.check(REFERENCE), "epoch=1、step_in_epoch=0；期望为 epoch=1（从 0 开始计数）、step_in_epoch=4")
    resume_runs(monkeypatch, tmp_path, (1, 2), 16, stopped=(1, 4, 16))
    incorrect(nb10.q2.check(REFERENCE), "应当在 12 步后停止", "优化器步数为 16")
    resume_runs(monkeypatch, tmp_path, (1, 2), 16)
    good = nb10.run_capstone

    def failing_resume(path, args, out=None, timeout=nb10.TIMEOUT_S):
        run = good(path, args, out, timeout)
        if "--resume" in args:
            run.returncode, run.stderr = 2, "SystemExit: bad resume"
        return run

    monkeypatch.setattr(nb10, "run_capstone", failing_resume)
    incorrect(nb10.q2.check(REFERENCE), "（断点续训） 失败，退出码 2", "bad resume")


# ---- exercises 10.3 and 10.4 --------------------------------------------------------------------------------------

def test_accuracy_below_the_target_or_in_percent_in_chinese(zh, finished):
    write_log(finished.out, 1, 2, accuracy=0.67)
    incorrect(nb10.q3.check(REFERENCE), "在全部 10,000 张测试图像上达到 67.00%", "目标是 92%", "每轮的训练损失")
    write_log(finished.out, 1, 2, accuracy=95.0)
    incorrect(nb10.q3.check(REFERENCE), "test_accuracy=95.0", "而不是百分数")


def test_no_export_in_chinese(zh, finished):
    incorrect(nb10.q4.check(REFERENCE), "运行结束，但没有在 --out 中留下 model.mindir")
    (finished.out / nb10.MODEL).write_bytes(b"not a model")
    incorrect(nb10.q4.check(REFERENCE), "model.mindir 无法用 mindspore.load + nn.GraphCell 加载")


def test_a_run_past_its_deadline_in_chinese(zh, tmp_path, monkeypatch):
    import subprocess

    def too_slow(*args, **kwargs):
        raise subprocess.TimeoutExpired(args[0], 1.0, output=b"epoch 1 ...")

    monkeypatch.setattr(nb10, "_CACHE", {})   # a real run of the reference may be cached by an earlier test
    monkeypatch.setattr(nb10.subprocess, "run", too_slow)
    incorrect(nb10.q1.check(REFERENCE), "未能在 900 秒内结束", "最后的输出：epoch 1 ...")


# ---- hints and solutions --------------------------------------------------------------------------------------

def test_hints_and_solutions_in_chinese(zh, capsys):
    nb10.q1.hint()
    out = capsys.readouterr().out
    shown(out, "练习 10.1", TITLE1, "提示", "先在终端里")
    assert "--test-subset 256。每轮结束后" in out
    nb10.q2.hint()
    assert "使用 --resume 时" in capsys.readouterr().out
    nb10.q3.hint()
    assert "评估时网络处于评估模式" in capsys.readouterr().out
    nb10.q4.hint()
    assert "批维度为 None" in capsys.readouterr().out
    nb10.q2.solution()
    out = capsys.readouterr().out
    shown(out, "练习 10.2", "中断后能断点续训", "参考答案")
    assert "# 摘自 notebooks/scripts/capstone_reference.py" in out and "# main() 中：" in out
    assert "def restore_checkpoint(" in out   # the code itself is the reference script's


def test_english_is_unchanged(finished, capsys):
    write_log(finished.out, 1, 2, accuracy=0.67)
    incorrect(nb10.q3.check(REFERENCE), "reached 67.00% on all 10,000 test images; the target is 92%")
    nb10.q2.solution()
    out = capsys.readouterr().out
    assert "# from notebooks/scripts/capstone_reference.py" in out and "# in main():" in out


# ---- real broken scripts, end to end (slow) ---------------------------------------------------------------------

def mutant(tmp_path, old, new):
    source = open(REFERENCE, encoding="utf-8").read()
    assert source.count(old) == 1, old
    path = tmp_path / SCRIPT
    path.write_text(source.replace(old, new), encoding="utf-8")
    return str(path)


@pytest.mark.slow
def test_a_script_whose_resume_starts_over_in_chinese(zh, tmp_path):
    path = mutant(tmp_path, "        start_epoch, skip, carried = restore_checkpoint(state, ckpt_path)\n",
                  "        start_epoch, skip, carried = 0, 0, 0.0\n")
    incorrect(nb10.q2.check(path), "又从第 1 轮开始")


@pytest.mark.slow
def test_a_script_that_exports_in_training_mode_in_chinese(zh, tmp_path):
    path = mutant(tmp_path, "    net.set_train(False)     # BatchNorm: stored statistics", "    # (removed)")
    incorrect(nb10.q4.check(path), "单独输入和放在 64 张的批中输入时给出不同的输出", "训练模式下导出")


# ---- exercise 10.0: each TODO on its own -------------------------------------------------------------------------

def test_the_parts_of_the_skeleton_and_the_reference_in_chinese(zh):
    result = nb10.q0.check(str(nb10.SKELETON))
    assert result.outcome is Outcome.NOT_ATTEMPTED, result.message
    shown(str(result), "练习 10.0", "逐个检查已填写的 TODO", "尚未作答", "10 个 TODO 中有 0 个正确。",
          "TODO(1) --resume 和 --stop-after 选项（位于 parse_args）：尚未作答——仍有占位符 ____")
    result = nb10.q0.check(REFERENCE)
    assert result.outcome is Outcome.CORRECT, result.message
    shown(result.message, "10 个 TODO 中有 10 个正确。", "TODO(10) 内层训练循环（位于 main）：正确",
          "接下来是端到端检查")


def test_a_restore_that_does_not_restore_in_chinese(zh, tmp_path):
    path = mutant(tmp_path, "        param.copy_(stored[param.name])\n", "        pass\n")
    result = nb10.q0.check(path)
    incorrect(result, "TODO(6) 恢复检查点（位于 restore_checkpoint）：不正确——恢复之后，", "的值与检查点不一致")


def test_a_training_step_left_in_eval_mode_in_chinese(zh, tmp_path):
    path = mutant(tmp_path, "    train_step.set_train()\n", "")
    incorrect(nb10.q0.check(path), "TODO(9) 损失函数", "BatchNorm 层仍处于评估模式", "train_step.set_train()")
