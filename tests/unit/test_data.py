"""course_utils.data, the face the lessons use: MNIST as arrays and as a ``mindspore.dataset`` pipeline, normalised
alike, and the synthetic regression data of lessons 01-03.
"""

import json

import numpy as np
import pytest

from course_utils import data


def test_load_mnist_arrays(real_mnist):
    x, y = data.load_mnist_arrays("train")
    assert x.shape == (60000, 28, 28) and x.dtype == np.uint8
    assert y.shape == (60000,) and y.dtype == np.int64
    assert y[:10].tolist() == [5, 0, 4, 1, 9, 2, 1, 3, 1, 4]      # the famous first training labels
    assert np.bincount(y).tolist()[1] == 6742
    xt, yt = data.load_mnist_arrays("test", data_dir=real_mnist)
    assert xt.shape == (10000, 28, 28) and yt[:5].tolist() == [7, 2, 1, 0, 4]
    # the constants mnist_dataset normalises with, from exact integer sums in chunks (x.std() allocates 47M
    # float64s and takes seconds)
    chunks = x.reshape(100, -1)
    total = sum(int(c.sum(dtype=np.uint64)) for c in chunks)
    squares = sum(int(np.square(c, dtype=np.uint32).sum(dtype=np.uint64)) for c in chunks)
    mean = total / x.size / 255
    std = np.sqrt(squares / x.size / 255**2 - mean**2)
    assert abs(mean - data.MNIST_MEAN) < 1e-3 and abs(std - data.MNIST_STD) < 1e-3
    with pytest.raises(ValueError, match="'train' or 'test'"):
        data.load_mnist_arrays("valid")


@pytest.mark.slow   # the real MNIST through the pipeline, in its own MindSpore process: 60000 + 10000 images
def test_mnist_dataset_shapes_dtypes_and_normalisation(real_mnist, python):
    out = python(["tests/programs/mnist_pipeline_facts.py"], env={"COURSE_MNIST_DIR": str(real_mnist)})
    assert out.returncode == 0, out.stderr[-3000:]
    r = json.loads(out.stdout.strip().splitlines()[-1])
    assert r["train"] == [937, [64, 1, 28, 28], "float32", [64], "int32"]   # 60000 // 64, remainder dropped
    assert r["test"][:2] == [4, [1000, 1, 28, 28]]                          # test keeps the last partial batch
    assert r["test"][2] < 1e-5 and r["test"][3] is True                     # unshuffled, normalised as documented
    assert r["subset"] == [3, True]                                         # exactly the first 30, shuffled
    assert r["shard"] == 50
    assert r["normalize_images"][0] == [10000, 1, 28, 28] and r["normalize_images"][1] < 1e-5  # in-memory twin


def test_mnist_dataset_argument_errors():
    for kwargs, message in [({"split": "val"}, "'validation' or 'test'"), ({"batch_size": 0}, "batch_size"),
                            ({"subset": -1}, "subset"), ({"num_shards": 2}, "num_shards and shard_id")]:
        with pytest.raises(ValueError, match=message):
            data.mnist_dataset(**kwargs)


def test_pipeline_workers_follow_the_cpus_this_process_may_use(monkeypatch):
    # mnist_dataset's workers: capped by runtime.cpu_count() (affinity, cpuset), not os.cpu_count() (the machine)
    from course_utils import runtime
    monkeypatch.setattr(runtime, "cpu_count", lambda: 1)
    monkeypatch.setattr("os.cpu_count", lambda: 64)
    assert data.pipeline_workers() == 1 and data.pipeline_workers(8) == 1
    monkeypatch.setattr(runtime, "cpu_count", lambda: 4)
    assert data.pipeline_workers() == 2 and data.pipeline_workers(3) == 3 and data.pipeline_workers(99) == 4


# --------------------------------------------------------------------------------------------
# Synthetic regression
# --------------------------------------------------------------------------------------------

def test_synthetic_regression_is_deterministic_and_shaped():
    x, y = data.synthetic_regression()
    assert x.shape == (320, 10) and y.shape == (320, 1)
    assert x.dtype == np.float32 and y.dtype == np.float32
    x2, y2 = data.synthetic_regression()
    np.testing.assert_array_equal(x, x2)
    np.testing.assert_array_equal(y, y2)
    x3, y3 = data.synthetic_regression(seed=1)
    assert not np.allclose(x, x3)
    # The target is learnable: a least-squares line explains most of it, but not all (mild nonlinearity).
    design = np.hstack([x, np.ones((len(x), 1), np.float32)])
    resid = y - design @ np.linalg.lstsq(design, y, rcond=None)[0]
    assert 0.1 ** 2 < resid.var() < 0.25 * y.var()
    _, noiseless = data.synthetic_regression(noise=0.0)
    assert abs(float((y - noiseless).std()) - 0.1) < 0.02


def test_synthetic_regression_outliers():
    x, clean = data.synthetic_regression(n_samples=400, outlier_fraction=0.0, seed=5)
    x2, dirty = data.synthetic_regression(n_samples=400, outlier_fraction=0.1, seed=5)
    np.testing.assert_array_equal(x, x2)
    changed = np.flatnonzero(clean[:, 0] != dirty[:, 0])
    assert len(changed) == 40
    assert np.abs(dirty[changed] - clean[changed]).min() > 5 * clean.std()   # gross, not noise
    for kwargs in ({"outlier_fraction": 1.5}, {"noise": -1}, {"n_samples": 0}):
        with pytest.raises(ValueError):
            data.synthetic_regression(**kwargs)


def test_array_dataset_batches_the_arrays_in_order_or_shuffled():
    import mindspore.dataset as ds

    x, y = data.synthetic_regression(n_samples=50, seed=1)
    ordered = data.array_dataset(x, y, 16, shuffle=False)
    batches = list(ordered.create_tuple_iterator(num_epochs=1, output_numpy=True))
    assert [b[0].shape for b in batches] == [(16, 10)] * 3                    # drop_remainder: 50 -> 3 full batches
    assert np.array_equal(np.concatenate([b[0] for b in batches]), x[:48])
    assert np.array_equal(np.concatenate([b[1] for b in batches]), y[:48])
    assert data.array_dataset(x, y, 16, shuffle=False, drop_remainder=False).get_dataset_size() == 4
    ds.config.set_seed(3)
    shuffled = np.concatenate([b[1] for b in data.array_dataset(x, y, 10).create_tuple_iterator(
        num_epochs=1, output_numpy=True)])
    assert not np.array_equal(shuffled, y) and np.array_equal(np.sort(shuffled, axis=0), np.sort(y, axis=0))
    with pytest.raises(ValueError, match="batch_size"):
        data.array_dataset(x, y, 0)
