"""gluon.contrib blocks against real MXNet (scripts/fixture_writers/gluon_contrib.py):
parameter names and shapes, reprs, predict-mode outputs and gradients of the input and every
parameter, imperative and hybridized."""
import json
import os

import numpy as np
import pytest

import mxcompat as mx
from scripts.fixture_writers import gluon_contrib as W

from conftest import FIXTURES

DIR = os.path.join(FIXTURES, 'gluon_contrib')
WANT = np.load(os.path.join(DIR, 'gluon_contrib.npz'))
with open(os.path.join(DIR, 'facts.json')) as _f:
    FACTS = json.load(_f)

HYBRID = [n for n in sorted(W.MODELS) if n != 'concurrent']


@pytest.mark.parametrize('name', sorted(W.MODELS))
def test_names_shapes_repr(name):
    net = W.prepare(mx, name)[0]
    assert [[k, list(p.shape)] for k, p in net.collect_params().items()] == \
        FACTS[name]['params']
    assert repr(net) == FACTS[name]['repr']


def _check(name, hybridize):
    _, outs, grads = W.run(mx, name, hybridize)
    assert len(outs) == FACTS[name]['num_outputs']
    for i, o in enumerate(outs):
        np.testing.assert_allclose(o, WANT['%s/out%d' % (name, i)], rtol=1e-4, atol=1e-5,
                                   err_msg='out%d' % i)
    assert sorted(grads) == FACTS[name]['grads']
    for k, g in grads.items():
        np.testing.assert_allclose(g, WANT['%s/grad/%s' % (name, k)], rtol=1e-4, atol=1e-5,
                                   err_msg=k)


@pytest.mark.parametrize('name', sorted(W.MODELS))
def test_outputs_and_gradients(name):
    _check(name, False)


@pytest.mark.parametrize('name', HYBRID)
def test_outputs_and_gradients_hybridized(name):
    _check(name, True)


def test_sparse_embedding_not_supported():
    with pytest.raises(NotImplementedError, match='SparseEmbedding'):
        mx.gluon.contrib.nn.SparseEmbedding(10, 3)


def test_dynamic_unroll_matches_unroll():
    from mxcompat.gluon.contrib.rnn.rnn_cell import dynamic_unroll
    cell = mx.gluon.rnn.LSTMCell(3, prefix='c_')
    cell.initialize()
    x = mx.nd.array(W.seeded('dyn/x', (4, 2, 5), -1, 1))
    begin = [mx.nd.array(W.seeded('dyn/s%d' % i, (2, 3))) for i in range(2)]
    valid = mx.nd.array([2, 4])
    want, want_states = cell.unroll(4, x, begin_state=begin, layout='TNC', merge_outputs=True,
                                    valid_length=valid)
    got, got_states = dynamic_unroll(cell, x, begin, layout='TNC', valid_length=valid)
    np.testing.assert_allclose(got.asnumpy(), want.asnumpy(), rtol=1e-5, atol=1e-6)
    for g, w in zip(got_states, want_states):
        np.testing.assert_allclose(g.asnumpy(), w.asnumpy(), rtol=1e-5, atol=1e-6)
