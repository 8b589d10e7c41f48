"""DataLoader in NumPy mode against real MXNet 1.9.1 (tests/fixtures/numpy_dataloader): the
batches are ``mx.np.ndarray`` with MXNet's values and contexts (``cpu_shared(0)`` from worker
processes and threads), however they are loaded."""
import os

import numpy as np

import mxcompat as mx
from scripts.fixture_writers.numpy_dataloader import run

from conftest import FIXTURES


def test_batches():
    want = dict(np.load(os.path.join(FIXTURES, 'numpy_dataloader', 'batches.npz')))
    # MXNet's contexts with cpu(0) the default context ('kind') and with cpu(1) ('kind1'),
    # which stands for any other
    current = mx.current_context()
    for key in [k for k in want if k.endswith('/kind')]:
        kind1 = want.pop(key + '1')
        if current != mx.cpu(0):
            want[key] = np.char.replace(kind1, 'cpu(1)', str(current))
    got = run(mx)
    assert sorted(got) == sorted(want)
    for key in want:
        np.testing.assert_array_equal(got[key], want[key], err_msg=key)
