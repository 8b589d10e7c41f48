"""DataLoader in NumPy mode against real MXNet 1.9.1 (tests/fixtures/numpy_dataloader): the
batches are ``mx.np.ndarray`` with MXNet's values and contexts (``cpu_shared(0)`` from worker
processes and threads), however they are loaded."""
import os

import numpy as np

import mxcompat as mx
from scripts.fixture_writers.numpy_dataloader import run

from conftest import FIXTURES


def test_batches():
    want = np.load(os.path.join(FIXTURES, 'numpy_dataloader', 'batches.npz'))
    got = run(mx)
    assert sorted(got) == sorted(want.files)
    for key in want.files:
        np.testing.assert_array_equal(got[key], want[key], err_msg=key)
