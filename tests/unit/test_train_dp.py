"""notebooks/scripts/train_dp.py, lesson 09's worker: the data it trains on. (The whole job, launched with msrun,
is tested in test_distributed.py.)"""

import json

import pytest


@pytest.mark.slow   # the real MNIST through the pipeline, in its own MindSpore process
def test_load_shard_cycles_over_the_shard_reshuffled_and_disjoint_on_every_pass(real_mnist, python):
    # 70 steps of 1000 from a shard of 30000 images: three passes, as lesson 09's 1000-step commands for 8 or 16
    # workers need (234 or 117 batches of 32 per pass)
    out = python(["tests/programs/train_dp_load_shard.py", "70", "1000"], env={"COURSE_MNIST_DIR": str(real_mnist)})
    assert out.returncode == 0, out.stderr[-3000:]
    facts = json.loads(out.stdout.strip().splitlines()[-1])
    assert facts["batches"] == [70, 70] and facts["passes"] == [3, 3]        # every step has its batch
    assert facts["images_per_pass"] == [30000, 30000, 10000]                # a pass covers the whole shard once
    assert facts["overlap_between_ranks_per_pass"] == [0, 0, 0]             # the shards stay disjoint on every pass
    assert facts["second_pass_same_order"] is False                         # reshuffled, not replayed
    assert facts["short"] == [5, 1, [32, 1, 28, 28]]                       # a short run reads only what it needs


def test_no_trace_turns_the_trace_off_and_keeps_it_on_by_default():
    # lesson 09's Ascend command passes --no-trace: a 1000-step trace is hundreds of MB per rank
    import importlib.util

    from support import NOTEBOOKS

    spec = importlib.util.spec_from_file_location("train_dp", NOTEBOOKS / "scripts" / "train_dp.py")
    train_dp = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(train_dp)   # the module loads without MindSpore (main imports it)
    assert train_dp.parse_args(["--out", "x"]).trace is True
    args = train_dp.parse_args(["--out", "x", "--styles", "cell", "--no-trace"])
    assert args.trace is False and args.styles == ["cell"]
