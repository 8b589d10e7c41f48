"""NumPy's dispatch protocols on mx.np arrays and mx.np's fallback to official NumPy against
real MXNet 1.9.1 (``mx.np.fallback``, split errors, assignment while recording). Expected values
were written by scripts/fixture_writers/numpy_dispatch.py under real MXNet."""
import os

import numpy as onp
import pytest

import mxcompat as mx
from scripts.fixture_writers import numpy_dispatch

from conftest import FIXTURES

WANT = dict(onp.load(os.path.join(FIXTURES, 'numpy_dispatch', 'numpy_dispatch.npz')))
_LISTS = ('fallback/all', 'fallback/linalg-all')
_GOT = []


def _results():
    if not _GOT:
        _GOT.append(numpy_dispatch.run(mx))
    return _GOT[0]


@pytest.mark.parametrize('key', sorted(k for k in WANT if k not in _LISTS))
def test_numpy_dispatch(key):
    got = _results()[key]
    want = WANT[key]
    assert got.shape == want.shape, (key, got.shape, want.shape)
    assert got.dtype == want.dtype, (key, got.dtype, want.dtype)
    if want.dtype.kind == 'f':
        onp.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6, err_msg=key)
    else:
        onp.testing.assert_array_equal(got, want, err_msg=key)


def _numpy_has(module, name):
    try:
        getattr(module, name)
    except AttributeError:
        return False
    return True


@pytest.mark.parametrize('key, module', [('fallback/all', onp), ('fallback/linalg-all', onp.linalg)])
def test_fallback_lists(key, module):
    # MXNet's lists, less the names the installed NumPy no longer has (NumPy 2 removed some)
    want = [n for n in WANT[key].tolist() if _numpy_has(module, n)]
    assert _results()[key].tolist() == want
