"""RNN options that MXNet honours only with cuDNN: use_sequence_length, LSTM state clipping and
training an LSTM with a projection. Expected numbers come from real MXNet (see
scripts/fixture_writers/rnn_gpu_semantics.py for how they are produced on CPU)."""
import os

import numpy as np
import pytest

import mxcompat as mx
from scripts.fixture_writers.rnn_gpu_semantics import (VARLEN, UNROLLED, LENGTHS, HID, inputs)

from conftest import FIXTURES

PATH = os.path.join(FIXTURES, 'rnn_gpu_semantics', 'rnn_gpu_semantics.npz')


@pytest.fixture(scope='module')
def want():
    return dict(np.load(PATH))


def _run(args, names, heads, **kw):
    nds = [mx.nd.array(a) for a in args]
    for a in nds:
        if a.dtype == np.float32:
            a.attach_grad()
    with mx.autograd.record():
        res = mx.nd.RNN(*nds, state_size=HID, state_outputs=True, **kw)
    mx.autograd.backward(res, [mx.nd.array(h) for h in heads])
    return res, {n: a.grad.asnumpy() for n, a in zip(names, nds) if n}


@pytest.mark.parametrize('name', sorted(VARLEN))
def test_sequence_length(want, name):
    cfg = VARLEN[name]
    data, params, state, cell, heads = inputs(name, cfg['mode'], cfg['layers'],
                                              cfg['bidirectional'])
    args = [data, params, state] + ([cell] if cell is not None else []) + [LENGTHS]
    names = ['data', 'parameters', 'state'] + (['state_cell'] if cell is not None else []) + \
        [None]
    res, grads = _run(args, names, heads, num_layers=cfg['layers'], mode=cfg['mode'],
                      bidirectional=cfg['bidirectional'], use_sequence_length=True)
    key = 'varlen/%s/' % name
    np.testing.assert_allclose(res[0].asnumpy(), want[key + 'out'], rtol=1e-5, atol=1e-6)
    for k, r in enumerate(res[1:]):
        np.testing.assert_allclose(r.asnumpy(), want[key + 'state%d' % k], rtol=1e-5, atol=1e-6)
    for n, g in grads.items():
        np.testing.assert_allclose(g, want[key + 'grad_' + n], rtol=1e-4, atol=1e-5, err_msg=n)


def test_sequence_length_positional_for_gru(want):
    cfg = VARLEN['gru-2layer']
    data, params, state, _, _ = inputs('gru-2layer', 'gru', 2, False)
    out = mx.nd.RNN(mx.nd.array(data), mx.nd.array(params), mx.nd.array(state),
                    mx.nd.array(LENGTHS), state_size=HID, num_layers=cfg['layers'], mode='gru',
                    use_sequence_length=True)
    np.testing.assert_allclose(out.asnumpy(), want['varlen/gru-2layer/out'], rtol=1e-5,
                               atol=1e-6)


@pytest.mark.parametrize('name', sorted(UNROLLED))
def test_clip_and_projection_training(want, name):
    cfg = UNROLLED[name]
    data, params, state, cell, heads = inputs(name, 'lstm', cfg['layers'], cfg['bidirectional'],
                                              cfg['proj'])
    kw = {}
    if cfg['clip']:
        kw = {'lstm_state_clip_min': cfg['clip'][0], 'lstm_state_clip_max': cfg['clip'][1]}
    res, grads = _run([data, params, state, cell], ['data', 'parameters', 'state', 'state_cell'],
                      heads, num_layers=cfg['layers'], mode='lstm',
                      bidirectional=cfg['bidirectional'], projection_size=cfg['proj'], **kw)
    key = 'unrolled/%s/' % name
    for k, r in enumerate(res):
        np.testing.assert_allclose(r.asnumpy(), want[key + 'out%d' % k], rtol=1e-5, atol=1e-6)
    for n, g in grads.items():
        np.testing.assert_allclose(g, want[key + 'grad_' + n], rtol=1e-4, atol=1e-5, err_msg=n)


def test_clip_bounds_cell_state():
    data, params, state, cell, _ = inputs('clip', 'lstm', 1, False)
    res = mx.nd.RNN(mx.nd.array(data * 50), mx.nd.array(params * 10), mx.nd.array(state),
                    mx.nd.array(cell), state_size=HID, num_layers=1, mode='lstm',
                    state_outputs=True, lstm_state_clip_min=-0.5, lstm_state_clip_max=0.5)
    cy = res[2].asnumpy()
    assert (cy >= -0.5).all() and (cy <= 0.5).all()
    assert np.abs(cy).max() == pytest.approx(0.5)
