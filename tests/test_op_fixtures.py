"""Every operator case of scripts/op_cases against the outputs real MXNet 1.9.1 wrote."""
import json
import os

import numpy as np
import pytest

import mxcompat as mx
from scripts.op_cases import load_modules
from scripts.op_cases._run import run_case

from conftest import FIXTURES, mxnet_error_class


def _cases():
    for modname, cases in load_modules().items():
        for c in cases:
            yield pytest.param(modname, c, id='%s::%s' % (modname, c['id']))


_LOADED = {}


def _fixture(modname):
    if modname not in _LOADED:
        base = os.path.join(FIXTURES, 'ops', modname)
        if not os.path.exists(base + '.json'):
            _LOADED[modname] = None
        else:
            with open(base + '.json') as f:
                manifest = json.load(f)
            _LOADED[modname] = (manifest, dict(np.load(base + '.npz')))
    return _LOADED[modname]


def _compare(name, got, want, rtol, atol):
    assert got.shape == want.shape, '%s: shape %s, MXNet %s' % (name, got.shape, want.shape)
    assert got.dtype == want.dtype, '%s: dtype %s, MXNet %s' % (name, got.dtype, want.dtype)
    if want.dtype.kind in 'fc':
        np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), rtol=rtol,
                                   atol=atol, err_msg=name, equal_nan=True)
    else:
        np.testing.assert_array_equal(got, want, err_msg=name)


def _on_default_context(want):
    """MXNet's output, a context reported as 'cpu(0)' (``NDArray.context`` of an array the case
    made on the default context, cpu(0) where MXNet ran) naming the current default context."""
    if want.dtype.kind == 'U' and str(want) == 'cpu(0)':
        return np.array(str(mx.current_context()))
    return want


@pytest.mark.parametrize('modname,c', list(_cases()))
def test_op_case(modname, c):
    fx = _fixture(modname)
    if fx is None or c['id'] not in fx[0]:
        pytest.fail('no MXNet fixture for %s::%s: run scripts/make_fixtures.py --only %s under '
                    'real MXNet' % (modname, c['id'], modname))
    manifest, arrays = fx
    entry = manifest[c['id']]
    mx.random.seed(0)
    np.random.seed(0)
    if c['check'] == 'error':
        assert entry['error'], 'MXNet did not raise for %s' % c['id']
        # the exception class MXNet raised (its name opens the stored 'Type: message')
        kind = entry['error'].split(':', 1)[0]
        with pytest.raises(mxnet_error_class(kind)):
            run_case(mx, dict(c, check='value'))
        return
    res = run_case(mx, c)
    assert len(res['outputs']) == entry['n_out'], \
        'number of outputs %d, MXNet %d' % (len(res['outputs']), entry['n_out'])
    for k, o in enumerate(res['outputs']):
        key = '%s/out%d' % (c['id'], k)
        if c['check'] == 'value':
            _compare(key, o, _on_default_context(arrays[key]), c['rtol'], c['atol'])
        else:
            assert o.shape == tuple(arrays[key + '/shape']), key
            if c['check'] == 'shape':
                assert o.dtype == arrays[key].dtype, key
            else:
                want_mean, want_std = arrays[key]
                np.testing.assert_allclose([o.mean(), o.std()], [want_mean, want_std],
                                           rtol=c['rtol'], atol=c['atol'], err_msg=key)
    assert sorted(res['grads']) == sorted(entry['grads'])
    for g, v in res['grads'].items():
        key = '%s/grad_%s' % (c['id'], g)
        _compare(key, v, arrays[key], c['rtol'], c['atol'])
