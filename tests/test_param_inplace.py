"""In-place updates through slices of a Parameter's data (``w[:] += 1``, ``w[0:1] *= 2``,
``w[:] = x``) against real MXNet 1.9.1: outside ``autograd.record()`` they update the parameter
in place (seen by ``data()``, forward and backward); a failing update leaves it unchanged;
inside ``record()`` they raise MXNetError. Expected arrays were written by
scripts/fixture_writers/param_inplace.py under real MXNet."""
import json
import os

import numpy as np
import pytest

import mxcompat as mx
from scripts.fixture_writers import param_inplace

from conftest import FIXTURES

_DIR = os.path.join(FIXTURES, 'param_inplace')
with open(os.path.join(_DIR, 'errors.json')) as _f:
    ERRORS = json.load(_f)
WANT = dict(np.load(os.path.join(_DIR, 'param_inplace.npz')))

_GOT = []


def _results():
    if not _GOT:
        _GOT.append(param_inplace.run(mx))
    return _GOT[0]


@pytest.mark.parametrize('key', sorted(WANT))
def test_values(key):
    got, _ = _results()
    np.testing.assert_allclose(got[key], WANT[key], rtol=1e-6, atol=1e-6, err_msg=key)


@pytest.mark.parametrize('key', sorted(ERRORS))
def test_errors(key):
    _, errors = _results()
    assert errors[key] == ERRORS[key], key


def test_recorded_update_is_refused_before_writing():
    """MXNet raises after writing a contiguous slice; mxcompat raises before it, so the
    parameter is never left half-updated (the value is the one MXNet had before the write)."""
    net = param_inplace._net(mx)
    w = net[0].weight.data()
    with pytest.raises(mx.base.MXNetError, match='computational graph'):
        with mx.autograd.record():
            w[0:1] += 1
    np.testing.assert_array_equal(net[0].weight.data().asnumpy(), WANT['initial/weight'])
