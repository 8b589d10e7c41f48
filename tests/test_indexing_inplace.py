"""In-place indexing against real MXNet 1.9.1: NDArray.__setitem__, NDArray.slice_assign /
slice_assign_scalar (write into self, return self) and _scatter_set_nd(out=lhs). Expected
arrays were written by scripts/fixture_writers/indexing_inplace.py under real MXNet."""
import json
import os

import numpy as np
import pytest

import mxcompat as mx
from scripts.fixture_writers import indexing_inplace

from conftest import FIXTURES

_DIR = os.path.join(FIXTURES, 'indexing_inplace')
with open(os.path.join(_DIR, 'errors.json')) as _f:
    ERRORS = json.load(_f)
WANT = dict(np.load(os.path.join(_DIR, 'indexing_inplace.npz')))

_GOT = []


def _results():
    if not _GOT:
        _GOT.append(indexing_inplace.run(mx))
    return _GOT[0]


@pytest.mark.parametrize('key', sorted(set(WANT) | set(ERRORS)))
def test_indexing_inplace(key):
    got, errors = _results()
    if ERRORS.get(key):
        assert errors.get(key), '%s: MXNet raised %s, mxcompat did not' % (key, ERRORS[key])
        return
    assert errors.get(key) is None, '%s: mxcompat raised %s' % (key, errors.get(key))
    want = WANT[key]
    assert got[key].shape == want.shape and got[key].dtype == want.dtype, key
    np.testing.assert_array_equal(got[key], want, err_msg=key)
