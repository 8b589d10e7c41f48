"""Out-of-range indices against real MXNet 1.9.1: operators and NDArray indexing raise the
error MXNet raises (type and message) before any torch kernel sees the index, and return
MXNet's values where MXNet accepts the index. The values and gradients of the operator cases
in scripts/op_cases/index_bounds.py are checked by tests/test_op_fixtures.py; the expected
errors and arrays here were written by scripts/fixture_writers/index_bounds.py under real
MXNet."""
import json
import os
import re

import numpy as np
import pytest

import mxcompat as mx
from scripts.fixture_writers import index_bounds

from conftest import FIXTURES

_DIR = os.path.join(FIXTURES, 'index_bounds')
with open(os.path.join(_DIR, 'errors.json')) as _f:
    ERRORS = json.load(_f)
WANT = dict(np.load(os.path.join(_DIR, 'index_bounds.npz')))

_GOT = []


def _results():
    if not _GOT:
        _GOT.append(index_bounds.run(mx))
    return _GOT[0]


def _core(message):
    """MXNet's message without its type prefix and 'Check failed: <cond>:' preamble."""
    return re.sub(r'^(\w+Error: )?(Check failed: [^:]*: )?', '', message)


@pytest.mark.parametrize('key', sorted(set(WANT) | set(ERRORS)))
def test_index_bounds(key):
    got, errors = _results()
    want_err = ERRORS.get(key)
    if want_err:
        assert errors.get(key), '%s: MXNet raised %s, mxcompat did not' % (key, want_err)
        assert errors[key][0] == want_err[0], (key, errors[key], want_err)
        assert _core(want_err[1]) in errors[key][1], (key, errors[key], want_err)
        return
    assert errors.get(key) is None, '%s: mxcompat raised %s' % (key, errors.get(key))
    np.testing.assert_array_equal(got[key], WANT[key], err_msg=key)
