"""mx.np joins of arrays that do not fit raise MXNet's exception class, imperative and
hybridized; linspace gives MXNet's samples and steps for every dtype; dsplit of a symbol
returns what MXNet's does. Expected values and error classes were written by
scripts/fixture_writers/numpy_join_linspace.py under real MXNet 1.9.1."""
import json
import os

import numpy as onp
import pytest

import mxcompat as mx
from scripts.fixture_writers import numpy_join_linspace

from conftest import FIXTURES, mxnet_error_class

DIR = os.path.join(FIXTURES, 'numpy_join_linspace')
WANT = dict(onp.load(os.path.join(DIR, 'numpy_join_linspace.npz')))
with open(os.path.join(DIR, 'errors.json')) as _f:
    WANT_ERRORS = json.load(_f)
_GOT = []


def _results():
    if not _GOT:
        _GOT.append(numpy_join_linspace.run(mx))
    return _GOT[0]


@pytest.mark.parametrize('key', sorted(WANT))
def test_values(key):
    got = _results()[0][key]
    want = WANT[key]
    assert got.shape == want.shape, (key, got.shape, want.shape)
    assert got.dtype == want.dtype, (key, got.dtype, want.dtype)
    onp.testing.assert_array_equal(got, want, err_msg=key)


@pytest.mark.parametrize('key', sorted(WANT_ERRORS))
def test_errors(key):
    got = _results()[1].get(key, 'no case')
    want = WANT_ERRORS[key]
    if want is None:
        assert got is None, (key, got)
        return
    assert got is not None, '%s: MXNet raises %s, mxcompat does not' % (key, want[0])
    # the class MXNet raised (all these cases raise MXNetError or a builtin exception)
    assert issubclass(mxnet_error_class(got[0]), mxnet_error_class(want[0])), (key, got, want)
