"""fit and a real interrupt: Kernel > Interrupt in a live Jupyter kernel, and SIGINT/SIGTERM in this process.

MindSpore 2.10 answers a SIGINT that arrives during a step with a SIGTERM to its own process, which kills a
kernel whose fit only caught KeyboardInterrupt (lesson 06 once claimed otherwise). fit now turns both signals
into "stop after this step": these tests send real signals, not a KeyboardInterrupt raised from Python."""

import os
import queue
import signal
import time

import pytest

from course_utils import checkpoint
from course_utils.training import fit
from support.lenet_training import lenet_batches, lenet_training

KERNEL_CODE = """
import signal
from course_utils import runtime; runtime.setup(device="CPU", mode="graph", seed=0, lang="en")  # noqa: E702
from course_utils.training import fit
from support.lenet_training import lenet_batches, lenet_training
handler_before = signal.getsignal(signal.SIGINT)
net, _, step = lenet_training(seed=1)
batches = lenet_batches(n=50, batch=64, seed=2)
result = fit(step, lambda epoch: batches, 1000, checkpoint_path={path!r}, progress=False, update_every=10,
             on_update=lambda r: print("STEP", r.global_step, flush=True))
print("RESULT", result.interrupted, result.global_step, result.epoch, result.step_in_epoch,
      signal.getsignal(signal.SIGINT) is handler_before, flush=True)
"""


def _outputs_until_idle(kc, msg_id, deadline):
    """Yield the text the cell prints until it finishes (or the deadline passes)."""
    while time.monotonic() < deadline:
        try:
            msg = kc.get_iopub_msg(timeout=1)
        except queue.Empty:
            continue
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        if msg["msg_type"] == "stream":
            yield from msg["content"]["text"].splitlines()
        elif msg["msg_type"] == "error":
            yield "ERROR " + msg["content"]["ename"]
        elif msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
            return


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_kernel_interrupt_during_a_graph_mode_fit_saves_the_position_and_the_kernel_lives(tmp_path):
    from jupyter_client.manager import start_new_kernel

    tests_dir = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [tests_dir, os.environ.get("PYTHONPATH")])))
    km, kc = start_new_kernel(kernel_name="python3", cwd=str(tmp_path), env=env)
    try:
        target = tmp_path / "interrupted.ckpt"
        msg_id = kc.execute(KERNEL_CODE.format(path=str(target)))
        lines, interrupted_at = [], None
        for line in _outputs_until_idle(kc, msg_id, time.monotonic() + 240):
            lines.append(line)
            if interrupted_at is None and line.startswith("STEP") and int(line.split()[1]) >= 60:
                interrupted_at = int(line.split()[1])
                km.interrupt_kernel()          # a real SIGINT, sent while GRAPH_MODE steps run
        assert km.is_alive(), f"the kernel died; it printed {lines[-5:]}"
        result = [line.split() for line in lines if line.startswith("RESULT")]
        assert result, f"fit did not return; the cell printed {lines[-5:]}"
        _, was_interrupted, global_step, epoch, step_in_epoch, handler_restored = result[0]
        assert was_interrupted == "True" and handler_restored == "True"
        assert int(global_step) < 1000 * 50, "the run was not stopped"
        info = checkpoint.load(target, lenet_training(seed=9)[2])
        assert (info.extra["global_step"], info.epoch, info.step_in_epoch) == (int(global_step), int(epoch),
                                                                                int(step_in_epoch))
        assert int(global_step) >= interrupted_at
        # the kernel still trains
        msg_id = kc.execute("print('STILL', float(step(*batches[0]).asnumpy()) > 0)")
        assert "STILL True" in list(_outputs_until_idle(kc, msg_id, time.monotonic() + 60))
    finally:
        km.shutdown_kernel(now=True)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_during_fit_stops_it_after_the_step_and_restores_the_handlers(tmp_path, sig, pynative):
    net, _, step = lenet_training(seed=3)
    before = signal.getsignal(sig)
    sent = []

    def on_update(result):      # called after each step, and once more when fit ends: send one signal only
        if result.global_step == 3 and not sent:
            sent.append(sig)
            os.kill(os.getpid(), sig)

    part = fit(step, lambda epoch: lenet_batches(n=5, seed=epoch), 2, checkpoint_path=tmp_path / "sig.ckpt",
               progress=False, update_every=1, on_update=on_update)
    assert part.interrupted and part.global_step == 3 and (part.epoch, part.step_in_epoch) == (0, 3)
    assert signal.getsignal(sig) is before
    info = checkpoint.load(tmp_path / "sig.ckpt", lenet_training(seed=9)[2])
    assert (info.epoch, info.step_in_epoch, info.extra["global_step"]) == (0, 3, 3)
