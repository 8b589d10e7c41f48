"""mx.np.random.multinomial against real MXNet 1.9.1: outcome frequencies for pvals that sum
below 1, to 0 or hold negative values, empty pvals and sizes, zero experiments, pvals summing
above 1. Expected arrays were written by scripts/fixture_writers/numpy_multinomial.py under
real MXNet."""
import os

import numpy as np
import pytest

import mxcompat as mx
from scripts.fixture_writers import numpy_multinomial

from conftest import FIXTURES

WANT = dict(np.load(os.path.join(FIXTURES, 'numpy_multinomial', 'numpy_multinomial.npz')))
_GOT = []


def _results():
    if not _GOT:
        _GOT.append(numpy_multinomial.run(mx))
    return _GOT[0]


@pytest.mark.parametrize('key', sorted(WANT))
def test_numpy_multinomial(key):
    got = _results()[key]
    want = WANT[key]
    assert got.shape == want.shape and got.dtype == want.dtype, key
    if key.startswith('freq/'):
        # 20000 experiments: a frequency's standard deviation is at most 0.0036
        np.testing.assert_allclose(got, want, atol=0.02, err_msg=key)
    else:
        np.testing.assert_array_equal(got, want, err_msg=key)
