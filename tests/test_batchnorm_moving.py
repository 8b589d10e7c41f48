"""BatchNorm's in-place moving statistics and BatchNorm_v1, against real MXNet
(scripts/fixture_writers/batchnorm_state.py)."""
import os

import numpy as np
import pytest

import mxcompat as mx
from scripts.fixture_writers.batchnorm_state import CONFIGS, V1_CONFIGS, inputs

from conftest import FIXTURES

PATH = os.path.join(FIXTURES, 'batchnorm_state', 'batchnorm_state.npz')


def _close(got, want, key, rtol=1e-4, atol=1e-5):
    np.testing.assert_allclose(got.asnumpy(), want[key], rtol=rtol, atol=atol, err_msg=key)


@pytest.mark.parametrize('name', sorted(CONFIGS))
def test_batchnorm_moving_statistics(name):
    want = np.load(PATH)
    cfg = CONFIGS[name]
    params = cfg['params']
    dtype = cfg.get('dtype', 'float32')
    data, heads, gamma, beta, mean, var = inputs(name, cfg['shape'], params.get('axis', 1),
                                                 dtype)
    g, b = mx.nd.array(gamma, dtype=dtype), mx.nd.array(beta, dtype=dtype)
    mm, mv = mx.nd.array(mean, dtype=dtype), mx.nd.array(var, dtype=dtype)
    g.attach_grad()
    b.attach_grad()
    for step in range(2):
        x = mx.nd.array(data[step], dtype=dtype)
        x.attach_grad()
        with mx.autograd.record():
            y = mx.nd.BatchNorm(x, g, b, mm, mv, **params)
        key = '%s/%d/' % (name, step)
        _close(y, want, key + 'out')
        # MXNet folds the batch statistics in during the backward pass, not the forward
        _close(mm, want, key + 'mean_after_forward')
        _close(mv, want, key + 'var_after_forward')
        y.backward(mx.nd.array(heads[step], dtype=dtype))
        for arr, what in ((x, 'data'), (g, 'gamma'), (b, 'beta')):
            _close(arr.grad, want, key + 'grad_' + what)
        _close(mm, want, key + 'mean', rtol=1e-5, atol=1e-6)
        _close(mv, want, key + 'var', rtol=1e-5, atol=1e-6)
    with mx.autograd.train_mode():
        y = mx.nd.BatchNorm(mx.nd.array(data[0], dtype=dtype), g, b, mm, mv, **params)
    _close(y, want, name + '/train_no_record/out')
    _close(mm, want, name + '/train_no_record/mean')
    _close(mv, want, name + '/train_no_record/var')
    y = mx.nd.BatchNorm(mx.nd.array(data[1], dtype=dtype), g, b, mm, mv, **params)
    _close(y, want, name + '/predict/out')


@pytest.mark.parametrize('name', sorted(V1_CONFIGS))
def test_batchnorm_v1(name):
    want = np.load(PATH)
    cfg = V1_CONFIGS[name]
    shape, params = cfg['shape'], cfg['params']
    data, heads, gamma, beta, mean, var = inputs(name, shape)
    g, b, mm, mv = (mx.nd.array(a) for a in (gamma, beta, mean, var))
    g.attach_grad()
    b.attach_grad()
    for step in range(2):
        x = mx.nd.array(data[step])
        x.attach_grad()
        with mx.autograd.record():
            outs = mx.nd.BatchNorm_v1(x, g, b, mm, mv, output_mean_var=True, **params)
        key = '%s/%d/' % (name, step)
        for i, o in enumerate(outs):
            _close(o, want, key + 'out%d' % i)
        outs[0].backward(mx.nd.array(heads[step]))
        for arr, what in ((x, 'data'), (g, 'gamma'), (b, 'beta')):
            _close(arr.grad, want, key + 'grad_' + what)
        _close(mm, want, key + 'mean', rtol=1e-5, atol=1e-6)
        _close(mv, want, key + 'var', rtol=1e-5, atol=1e-6)
    outs = mx.nd.BatchNorm_v1(mx.nd.array(data[1]), g, b, mm, mv, output_mean_var=True,
                              **params)
    for i, o in enumerate(outs):
        _close(o, want, '%s/predict/out%d' % (name, i))
