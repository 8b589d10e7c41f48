"""mx.np operator behaviour that MXNet 1.9.1's own test_numpy_op.py leaves open (gradients of
integer arrays, imperative and hybridized), against real MXNet. Expected values were written by
scripts/fixture_writers/numpy_op_semantics.py under real MXNet."""
import os

import numpy as onp
import pytest

import mxcompat as mx
from scripts.fixture_writers import numpy_op_semantics

from conftest import FIXTURES

WANT = dict(onp.load(os.path.join(FIXTURES, 'numpy_op_semantics', 'numpy_op_semantics.npz')))
_GOT = []


def _results():
    if not _GOT:
        _GOT.append(numpy_op_semantics.run(mx))
    return _GOT[0]


@pytest.mark.parametrize('key', sorted(WANT))
def test_numpy_op_semantics(key):
    got = _results()[key]
    want = WANT[key]
    assert got.shape == want.shape, (key, got.shape, want.shape)
    assert got.dtype == want.dtype, (key, got.dtype, want.dtype)
    if want.dtype.kind == 'f':
        onp.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6, err_msg=key)
    else:
        onp.testing.assert_array_equal(got, want, err_msg=key)
