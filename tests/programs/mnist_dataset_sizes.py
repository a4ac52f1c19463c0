"""Child program: print {"train": n, "test": n} as MindSpore's MnistDataset counts the folder argv[1].

Run in its own process because MindSpore reads its environment once per process.
"""

import json
import sys

import mindspore.dataset as ds

sizes = {}
for usage in ("train", "test"):
    try:
        sizes[usage] = ds.MnistDataset(sys.argv[1], usage=usage, shuffle=False).get_dataset_size()
    except RuntimeError as err:
        sizes[usage] = str(err).strip().splitlines()[0]
print(json.dumps(sizes))
