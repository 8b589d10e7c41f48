"""NumPy's dispatch protocols on mx.np arrays and mx.np's fallback to official NumPy against
real MXNet 1.9.1 (``mx.np.fallback``, split errors, assignment while recording). Expected values
were written by scripts/fixture_writers/numpy_dispatch.py under real MXNet."""
import os

import numpy as onp
import pytest

import mxcompat as mx
from scripts.fixture_writers import numpy_dispatch

from conftest import FIXTURES
from test_numpy_interface import assert_like_mxnet

WANT = dict(onp.load(os.path.join(FIXTURES, 'numpy_dispatch', 'numpy_dispatch.npz')))
_LISTS = ('fallback/all', 'fallback/linalg-all')
_GOT = []


def _results():
    if not _GOT:
        _GOT.append(numpy_dispatch.run(mx))
    return _GOT[0]


@pytest.mark.parametrize('key', sorted(k for k in WANT if k not in _LISTS))
def test_numpy_dispatch(key):
    assert_like_mxnet(key, _results()[key], WANT[key])


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
