"""The Python-level functions of mx.nd.contrib (cond, foreach, while_loop, _flatten, _regroup,
_flatten_list, current_context, rand_zipfian) against real MXNet 1.9.1. Expected values were
written by scripts/fixture_writers/contrib_python.py under real MXNet."""
import json
import os

import numpy as np
import pytest

import mxcompat as mx
from scripts.fixture_writers import contrib_python

from conftest import FIXTURES

_DIR = os.path.join(FIXTURES, 'contrib_python')
with open(os.path.join(_DIR, 'contrib_python.json')) as _f:
    WANT = json.load(_f)
ARRAYS = dict(np.load(os.path.join(_DIR, 'contrib_python.npz')))

_GOT = []


def _results():
    if not _GOT:
        _GOT.append(contrib_python.run(mx))
    return _GOT[0]


@pytest.mark.parametrize('key', sorted(set(WANT['structure']) | set(WANT['errors'])))
def test_contrib_python(key):
    arrays, structure, errors, _ = _results()
    if key in WANT['errors']:
        assert errors.get(key) == WANT['errors'][key], \
            '%s: MXNet raised %s, mxcompat %s' % (key, WANT['errors'][key], errors.get(key))
        return
    assert key not in errors, '%s: mxcompat raised %s' % (key, errors[key])
    assert structure[key] == WANT['structure'][key], key
    for name, want in ARRAYS.items():
        if name == key or name.startswith(key + '/'):
            got = arrays[name]
            assert got.shape == want.shape and got.dtype == want.dtype, name
            np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7, err_msg=name)


def test_contrib_python_info():
    # current_context() is the default context: cpu(0) where MXNet ran
    assert WANT['info']['context'] == 'cpu(0)'
    assert _results()[3] == dict(WANT['info'], context=str(mx.current_context()))
