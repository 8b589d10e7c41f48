"""mx.np.random, mx.npx.random and mx.np.linalg against real MXNet 1.9.1: linalg results and
gradients, the shapes and dtypes of samples (array-valued parameters, ``size``, hybridized
blocks), their moments and those of reparameterised gradients (MXNet's generator and torch's
give other numbers from the same distributions), and the exceptions bad arguments raise.
Expected values were written by scripts/fixture_writers/numpy_random_linalg.py under real
MXNet."""
import os

import numpy as onp
import pytest

import mxcompat as mx
from scripts.fixture_writers import numpy_random_linalg

from conftest import FIXTURES

WANT = dict(onp.load(os.path.join(FIXTURES, 'numpy_random_linalg', 'numpy_random_linalg.npz')))
_GOT = []


def _results():
    if not _GOT:
        _GOT.append(numpy_random_linalg.run(mx))
    return _GOT[0]


@pytest.mark.parametrize('key', sorted(WANT))
def test_numpy_random_linalg(key):
    got = _results()[key]
    want = WANT[key]
    assert got.shape == want.shape, (key, got.shape, want.shape)
    if key.startswith('stat/'):  # moments of 200000 draws
        onp.testing.assert_allclose(got, want, rtol=0.05, atol=0.03, err_msg=key)
        return
    assert got.dtype == want.dtype, (key, got.dtype, want.dtype)
    if want.dtype.kind == 'f':
        onp.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5, err_msg=key)
    else:
        onp.testing.assert_array_equal(got, want, err_msg=key)
