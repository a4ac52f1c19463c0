"""course_utils.training.loop (fit) and .schedule: exact resume from a checkpoint, stop_at_step and stop_when,
the progress line, a dataset read through one iterator, and the warm-up cosine schedule."""

import numpy as np
import pytest

import mindspore as ms
from mindspore import nn

from course_utils import checkpoint
from course_utils.training import fit, make_train_step
from support.lenet_training import lenet_batches, lenet_training

#: No compile per LeNet step: what fit does between the steps (positions, stops, checkpoints, evaluations) does
#: not depend on the mode; the compiled step after a restore is test_checkpoint's.
pytestmark = pytest.mark.usefixtures("pynative")


# ---- exact resume and interruption -----------------------------------------------------------

def _epoch_data(epoch):
    return lenet_batches(n=5, seed=100 + epoch)     # the order depends on the epoch only


@pytest.mark.slow
def test_resumed_fit_matches_the_uninterrupted_run(tmp_path):
    net, _, step = lenet_training(seed=3)
    full = fit(step, _epoch_data, 2, checkpoint_path=tmp_path / "s{step:02d}.ckpt", checkpoint_every=3,
               progress=False)
    assert [p.name for p in full.checkpoints] == ["s03.ckpt", "s05.ckpt", "s06.ckpt", "s09.ckpt", "s10.ckpt"]
    assert (full.steps, full.global_step, full.epoch, full.step_in_epoch) == (10, 10, 2, 0)
    for name, position in [("s03.ckpt", (0, 3)), ("s06.ckpt", (1, 1))]:
        net2, _, step2 = lenet_training(seed=4)
        info = checkpoint.load(tmp_path / name, step2)
        assert (info.epoch, info.step_in_epoch) == position
        rest = fit(step2, _epoch_data, 2, resume=info, progress=False)
        assert rest.steps == 10 - int(name[1:3]) and rest.global_step == 10
        assert [s for s, _ in rest.step_loss] == list(range(int(name[1:3]) + 1, 11))
        for a, b in zip(net.get_parameters(), net2.get_parameters()):
            np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())


def test_stop_at_step_saves_the_position_and_resume_finishes(tmp_path):
    target = tmp_path / "last.ckpt"
    net, _, step = lenet_training(seed=3)
    part = fit(step, _epoch_data, 2, checkpoint_path=target, stop_at_step=7, progress=False)
    assert part.interrupted and part.global_step == 7 and (part.epoch, part.step_in_epoch) == (1, 2)
    info = checkpoint.load(target, lenet_training(seed=9)[2])
    assert (info.epoch, info.step_in_epoch, info.extra["global_step"]) == (1, 2, 7)
    with pytest.raises(ValueError, match="nothing left"):
        fit(step, _epoch_data, 1, resume=info, progress=False)
    # stopped on the last batch of an epoch: the position is the start of the next one
    edge = fit(lenet_training(seed=3)[2], _epoch_data, 2, checkpoint_path=target, stop_at_step=5, progress=False)
    assert edge.interrupted and (edge.epoch, edge.step_in_epoch) == (1, 0)
    assert checkpoint.load(target, lenet_training(seed=9)[2]).epoch == 1
    assert "stopped at the end of epoch 1" in repr(edge)


def test_a_real_interrupt_saves_the_position_like_stop_at_step(tmp_path):
    """Kernel > Interrupt raises KeyboardInterrupt wherever Python runs next; here while fit fetches the 7th batch.
    fit saves the position and returns, as lesson 06 says: the checkpoint is the one stop_at_step=6 writes."""
    net, _, step = lenet_training(seed=3)
    fetched = {"n": 0}

    def interrupted_data(epoch):
        for batch in _epoch_data(epoch):
            fetched["n"] += 1
            if fetched["n"] == 7:
                raise KeyboardInterrupt
            yield batch

    part = fit(step, interrupted_data, 2, checkpoint_path=tmp_path / "hit.ckpt", progress=False)
    assert part.interrupted and part.global_step == 6 and (part.epoch, part.step_in_epoch) == (1, 1)
    info = checkpoint.load(tmp_path / "hit.ckpt", lenet_training(seed=9)[2])
    assert (info.epoch, info.step_in_epoch, info.extra["global_step"]) == (1, 1, 6)


def test_stop_when_ends_fit_where_it_says_so_and_sees_each_evaluation(tmp_path):
    net, _, step = lenet_training(seed=3)
    seen = []

    def stop_when(result):
        seen.append((result.global_step, len(result.evals)))
        return result.global_step >= 6

    x, y = lenet_batches(n=1, batch=16, seed=7)[0]
    part = fit(step, _epoch_data, 2, network=net, eval_data=(x.asnumpy(), y.asnumpy()), eval_every=2,
               checkpoint_path=tmp_path / "last.ckpt", update_every=3, stop_when=stop_when, progress=False)
    # asked after each evaluation (steps 2, 4, 6) and every update_every steps that had none (3)
    assert seen == [(2, 1), (3, 1), (4, 2), (6, 3)]
    assert part.interrupted and part.global_step == 6 and (part.epoch, part.step_in_epoch) == (1, 1)
    assert checkpoint.load(tmp_path / "last.ckpt", lenet_training(seed=9)[2]).extra["global_step"] == 6


def test_fit_with_a_progress_bar_ends_with_a_plain_line(capsys):
    # a stored notebook shows the tqdm widget as "0%": the plain line is what a reader sees there
    result = fit(lenet_training(seed=3)[2], _epoch_data, 1, stop_at_step=3, description="demo")
    line = capsys.readouterr().out.strip().splitlines()[-1]
    assert line == result.summary("demo")
    assert line.startswith("demo: 3 steps trained in ") and "epoch 1, after its step 3 (interrupted)" in line
    fit(lenet_training(seed=3)[2], _epoch_data, 1, stop_at_step=3, progress=False)
    assert capsys.readouterr().out == ""


def test_the_chinese_progress_bar_takes_the_full_width_colon(capsys, monkeypatch):
    from course_utils import i18n

    monkeypatch.setattr(i18n, "_current", None)
    monkeypatch.setenv(i18n.ENV_VAR, "zh")
    fit(lenet_training(seed=3)[2], _epoch_data, 1, stop_at_step=3, description="demo")
    bar = capsys.readouterr().err
    assert "demo：" in bar and "demo:" not in bar


def test_fit_run_headless_shows_no_bar_only_the_plain_line(capsys, monkeypatch):
    # make notebooks stores the outputs: a bar there would be stored frozen at "0%"
    monkeypatch.setenv("COURSE_HEADLESS", "1")
    result = fit(lenet_training(seed=3)[2], _epoch_data, 1, stop_at_step=3, description="demo")
    captured = capsys.readouterr()
    assert captured.out.strip() == result.summary("demo") and "step/s" not in captured.err


# ---- fit's other inputs and the schedule ------------------------------------------------------------

def test_warmup_cosine_lr():
    from course_utils.training import warmup_cosine_lr

    lr = warmup_cosine_lr(0.1, 100, warmup_steps=10)
    assert len(lr) == 100 and lr[0] == 0.0 and lr[10] == pytest.approx(0.1)
    assert all(a >= b for a, b in zip(lr[10:], lr[11:])) and lr[-1] < 1e-3
    assert warmup_cosine_lr(0.1, 5)[0] == pytest.approx(0.1)
    with pytest.raises(ValueError, match="warmup_steps"):
        warmup_cosine_lr(0.1, 10, warmup_steps=10)
    with pytest.raises(ValueError, match="peak_lr"):
        warmup_cosine_lr(0.0, 10)


def test_fit_reads_a_dataset_through_one_iterator_and_reports_progress():
    import mindspore.dataset as ds

    rng = np.random.default_rng(0)
    images = rng.normal(size=(32, 1, 28, 28)).astype(np.float32)
    labels = rng.integers(0, 10, size=32).astype(np.int32)
    ms.dataset.config.set_seed(0)
    train = ds.NumpySlicesDataset({"image": images, "label": labels}, shuffle=True).batch(8)
    test = ds.NumpySlicesDataset({"image": images, "label": labels}, shuffle=False).batch(16)
    net, _, step = lenet_training(seed=0)
    updates = []
    result = fit(step, train, 2, network=net, eval_data=test, eval_every=3, on_update=lambda r: updates.append(r.steps),
                 update_every=2, progress=False)
    assert result.steps == 8 and [e["step"] for e in result.evals] == [3, 6, 8]
    assert all(0.0 <= e["accuracy"] <= 1.0 and e["train_seconds"] > 0 for e in result.evals)
    assert updates and updates[-1] == 8
    assert result.steps_per_s > 0 and "8 steps" in repr(result)
    with pytest.raises(ValueError, match="eval_every needs"):
        fit(step, train, 1, eval_every=2, progress=False)
    with pytest.raises(ValueError, match="checkpoint_every needs"):
        fit(step, train, 1, checkpoint_every=2, progress=False)


def test_stop_when_is_not_asked_at_the_final_evaluation():
    # The evaluation after the last step is the end anyway: a stop condition that holds there must not escape
    # fit as a KeyboardInterrupt (it did: the final evaluation asked stop_when outside the loop's handler).
    rng = np.random.default_rng(0)
    batches = [(ms.Tensor(rng.normal(size=(4, 6)).astype(np.float32)),
                ms.Tensor(rng.integers(0, 3, size=4).astype(np.int32))) for _ in range(3)]
    net = nn.Dense(6, 3)
    step = make_train_step(net, nn.CrossEntropyLoss(), nn.SGD(net.trainable_params(), 0.01), jit=False)
    asked, updates = [], []
    x, y = batches[0]
    result = fit(step, batches, 1, network=net, eval_data=(x.asnumpy(), y.asnumpy()), progress=False,
                 on_update=lambda r: updates.append(r.global_step),
                 stop_when=lambda r: asked.append(r.global_step) or True)
    assert result.steps == 3 and not result.interrupted and len(result.evals) == 1
    assert updates == [3] and asked == []


@pytest.mark.parametrize("lang, expected", [
    ("en", "40/100 [00:00<00:00, {rate}step/s, loss=0.1234, validation_acc=0.9870]"),
    ("zh", "40/100 [00:00<00:00，每秒 {rate} 步，损失 0.1234，验证准确率 0.9870]"),
])
def test_progress_bar_text_in_each_language(lang, expected):
    """fit's bar: tqdm's own text in English; in Chinese the unit, rate and postfix are Chinese too."""
    import io
    import re

    from tqdm import tqdm

    from course_utils.i18n import set_language
    from course_utils.training.loop import _Loop, _progress_bar

    previous = __import__("course_utils.i18n", fromlist=["language"]).language()
    set_language(lang)
    try:
        out = io.StringIO()
        bar = _progress_bar(tqdm, total=100, initial=0, desc="LeNet-5", dynamic_ncols=False, smoothing=0, file=out,
                            mininterval=0)
        loop = _Loop.__new__(_Loop)
        loop.bar, loop.result = bar, type("Result", (), {"eval_name": "validation"})()
        bar.update(40)
        loop.show_postfix(0.1234, 0.987)
        bar.refresh()
        bar.close()
    finally:
        set_language(previous)
    line = out.getvalue().split("\r")[-1].strip()
    rate = r"[\d.]+" if lang == "en" else r"\d+"
    assert re.search(re.escape(expected).replace(re.escape("{rate}"), rate), line), line
