"""Gluon recurrent layers and cells against real MXNet (scripts/fixture_writers/gluon_rnn.py):
parameter names and shapes, reprs, outputs, returned states and gradients of inputs, begin
states and parameters, imperative and hybridized."""
import json
import os

import numpy as np
import pytest

import mxcompat as mx
from scripts.fixture_writers import gluon_rnn as W

from conftest import FIXTURES

DIR = os.path.join(FIXTURES, 'gluon_rnn')
WANT = np.load(os.path.join(DIR, 'gluon_rnn.npz'))
with open(os.path.join(DIR, 'facts.json')) as _f:
    FACTS = json.load(_f)


def _model(name, hybridize=False):
    net, spec = W.build(mx, name)
    if hybridize:
        net.hybridize()
    W.set_params(mx, net, name, spec)
    return net, spec


@pytest.mark.parametrize('name', sorted(W.MODELS))
def test_names_shapes_repr(name):
    net, _ = _model(name)
    got = [[k, list(p.shape)] for k, p in net.collect_params().items()]
    assert got == FACTS[name]['params']
    assert repr(net) == FACTS[name]['repr']


@pytest.mark.parametrize('hybridize', [False, True])
@pytest.mark.parametrize('name', sorted(W.MODELS))
def test_outputs_and_gradients(name, hybridize):
    net, spec = _model(name, hybridize)
    outs, grads = W.run(mx, net, name, spec)
    assert len(outs) == FACTS[name]['num_outputs']
    for i, o in enumerate(outs):
        np.testing.assert_allclose(o, WANT['%s/out%d' % (name, i)], rtol=1e-4, atol=1e-5,
                                   err_msg='out%d' % i)
    want_grads = sorted(k[len(name) + 1:] for k in WANT.files if k.startswith(name + '/')
                        and not k[len(name) + 1:].startswith('out'))
    assert sorted(grads) == want_grads
    for k, g in grads.items():
        np.testing.assert_allclose(g, WANT['%s/%s' % (name, k)], rtol=1e-4, atol=1e-5,
                                   err_msg=k)


def test_layer_structural_names_and_state_check():
    layer = mx.gluon.rnn.LSTM(4, num_layers=2, bidirectional=True, input_size=3)
    keys = sorted(layer._collect_params_with_prefix().keys())
    assert keys[0] == '_unfused.0.l_cell.h2h_bias'
    layer.initialize()
    with pytest.raises(ValueError, match='Invalid recurrent state shape'):
        layer(mx.nd.ones((2, 3, 3)), layer.begin_state(5))


def test_begin_state_names_and_modifier_guard():
    cell = mx.gluon.rnn.LSTMCell(3, prefix='q_')
    states = cell.begin_state(batch_size=2, func=mx.sym.zeros)
    assert [s.name for s in states] == ['q_begin_state_0', 'q_begin_state_1']
    mx.gluon.rnn.ZoneoutCell(cell, 0.5)
    with pytest.raises(AssertionError):
        cell.begin_state(batch_size=2)
    with pytest.raises(NotImplementedError):
        mx.gluon.rnn.BidirectionalCell(mx.gluon.rnn.GRUCell(2), mx.gluon.rnn.GRUCell(2))(
            mx.nd.ones((1, 2)), [])
