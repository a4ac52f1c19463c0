"""Child program: facts about course_utils.data.mnist_dataset on the real MNIST folder, as one JSON line.

Run in its own process (runtime.setup with PyNative, seed 3); tests/unit/test_data.py asserts on the facts.
"""

import json

import numpy as np

from course_utils import runtime

runtime.setup(device="CPU", mode="pynative", seed=3, verbose=False)

from course_utils.data import load_mnist_arrays, mnist_dataset, normalize_images


def batches(dataset):
    return list(dataset.create_dict_iterator(output_numpy=True, num_epochs=1))


facts = {}
train = mnist_dataset("train", batch_size=64, num_parallel_workers=999)
first = batches(train.take(1))[0]
facts["train"] = [train.get_dataset_size(), list(first["image"].shape), str(first["image"].dtype),
                  list(first["label"].shape), str(first["label"].dtype)]

test = batches(mnist_dataset("test", batch_size=3000))
images = np.concatenate([b["image"] for b in test])
labels = np.concatenate([b["label"] for b in test])
x, y = load_mnist_arrays("test")
expected = (x.astype(np.float32) / 255 - 0.1307) / 0.3081
facts["test"] = [len(test), list(test[-1]["image"].shape), float(np.abs(images[:, 0] - expected).max()),
                 bool((labels == y).all())]

sub = mnist_dataset("train", batch_size=10, subset=30)
firsts = (load_mnist_arrays("train")[0][:30].astype(np.float32) / 255 - 0.1307) / 0.3081
seen = np.concatenate([b["image"] for b in batches(sub)])
idx = sorted(int(np.abs(firsts.reshape(30, -1) - s.reshape(1, -1)).sum(1).argmin()) for s in seen)
facts["subset"] = [sub.get_dataset_size(), idx == list(range(30))]

facts["shard"] = mnist_dataset("test", batch_size=100, num_shards=2, shard_id=1).get_dataset_size()
facts["normalize_images"] = [list(normalize_images(x).shape), float(np.abs(images - normalize_images(x)).max())]
print(json.dumps(facts))
