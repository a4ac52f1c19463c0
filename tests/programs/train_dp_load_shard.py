"""Child program: what ``load_shard`` of notebooks/scripts/train_dp.py hands two ranks, as one JSON line.

With batches of 1000 a shard of MNIST's 60000 training images holds 30 batches, so 70 steps need three passes over
it. Run in its own process (runtime.setup before MindSpore loads); tests/unit/test_train_dp.py asserts on the facts.
"""

import argparse
import importlib.util
import json
import sys
from pathlib import Path

import numpy as np

from course_utils import runtime

runtime.setup(device="CPU", mode="graph", seed=42, verbose=False)

spec = importlib.util.spec_from_file_location("train_dp", Path("notebooks/scripts/train_dp.py"))
train_dp = importlib.util.module_from_spec(spec)
spec.loader.exec_module(train_dp)


def images(batches):
    """The set of images (as bytes) in some batches."""
    return {img.tobytes() for x, _ in batches for img in x.reshape(len(x), -1)}


steps, batch = int(sys.argv[1]), int(sys.argv[2])
args = argparse.Namespace(steps=steps, bench_steps=0, batch_size=batch, seed=42)
shards = [train_dp.load_shard(args, rank, 2) for rank in (0, 1)]
per_pass = 30000 // batch
facts = {"batches": [len(b) for b, _ in shards], "passes": [p for _, p in shards]}
passes = [[images(b[k * per_pass:(k + 1) * per_pass]) for k in range(-(-steps // per_pass))] for b, _ in shards]
facts["overlap_between_ranks_per_pass"] = [len(a & b) for a, b in zip(*passes)]
facts["images_per_pass"] = [len(p) for p in passes[0]]
first = shards[0][0]
facts["second_pass_same_order"] = bool(len(first) > per_pass and np.array_equal(first[0][0], first[per_pass][0]))
short, short_passes = train_dp.load_shard(argparse.Namespace(steps=5, bench_steps=0, batch_size=32, seed=42), 1, 2)
facts["short"] = [len(short), short_passes, list(short[0][0].shape)]
print(json.dumps(facts))
