"""Views and copies of legacy NDArray indexing and reshape against real MXNet 1.9.1: a result
shares memory with its source exactly where MXNet's does (a write through it changes the
source), with MXNet's values, shapes and errors. Expected arrays were written by
scripts/fixture_writers/nd_views.py under real MXNet."""
import json
import os

import numpy as np
import pytest

import mxcompat as mx
from scripts.fixture_writers import nd_views

from conftest import FIXTURES

_DIR = os.path.join(FIXTURES, 'nd_views')
with open(os.path.join(_DIR, 'errors.json')) as _f:
    ERRORS = json.load(_f)
WANT = dict(np.load(os.path.join(_DIR, 'nd_views.npz')))

_GOT = []


def _results():
    if not _GOT:
        _GOT.append(nd_views.run(mx))
    return _GOT[0]


@pytest.mark.parametrize('case', sorted(ERRORS))
def test_nd_views(case):
    got, errors = _results()
    if ERRORS[case]:
        # (mxcompat's error may also be an MXNetError, a subclass of the type MXNet raised)
        raised = [c.__name__ for c in errors[case].__mro__] if errors[case] else []
        assert ERRORS[case] in raised, '%s: MXNet raised %s, mxcompat %s' % (
            case, ERRORS[case], errors[case])
        return
    assert errors[case] is None, '%s: mxcompat raised %s' % (case, errors[case])
    for part in ('value', 'shape', 'source'):
        key = '%s/%s' % (case, part)
        assert got[key].dtype == WANT[key].dtype, key
        np.testing.assert_array_equal(got[key], WANT[key], err_msg=key)
