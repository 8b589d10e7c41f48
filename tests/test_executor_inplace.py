"""Executor outputs changed in place between forward and backward against real MXNet 1.9.1:
the backward of operators whose gradient uses their output reads the changed arrays.
Expected arrays were written by scripts/fixture_writers/executor_inplace.py under real
MXNet."""
import os

import numpy as np
import pytest

import mxcompat as mx
from scripts.fixture_writers import executor_inplace

from conftest import FIXTURES

WANT = dict(np.load(os.path.join(FIXTURES, 'executor_inplace', 'executor_inplace.npz')))
_GOT = []


def _results():
    if not _GOT:
        _GOT.append(executor_inplace.run(mx))
    return _GOT[0]


@pytest.mark.parametrize('key', sorted(WANT))
def test_executor_inplace(key):
    got = _results()[key]
    want = WANT[key]
    assert got.shape == want.shape and got.dtype == want.dtype, key
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-4, err_msg=key)
