"""gluon.nn layers against real MXNet (scripts/fixture_writers/gluon_nn.py): reprs, parameter
names and shapes, outputs, input and parameter gradients in train and predict mode, imperative
and hybridized."""
import json
import os

import numpy as np
import pytest

import mxcompat as mx
from scripts.fixture_writers import gluon_nn as W
from scripts.fixture_writers._layer_cases import check_case, mode_name

from conftest import FIXTURES

DIR = os.path.join(FIXTURES, 'gluon_nn')
WANT = np.load(os.path.join(DIR, 'gluon_nn.npz'))
with open(os.path.join(DIR, 'facts.json')) as _f:
    FACTS = json.load(_f)

RUNS = [(n, t) for n, (_, _, modes) in sorted(W.CASES.items()) for t in modes]


@pytest.mark.parametrize('hybridize', [False, True], ids=['imperative', 'hybrid'])
@pytest.mark.parametrize('name,train', RUNS, ids=['%s-%s' % (n, mode_name(t))
                                                  for n, t in RUNS])
def test_layer(name, train, hybridize):
    check_case(mx, W.CASES, WANT, FACTS, name, train, hybridize)


@pytest.mark.parametrize('name', sorted(W.REPR_ONLY))
def test_repr_only(name):
    assert repr(W.REPR_ONLY[name](mx)) == FACTS['reprs'][name]


def test_catalog():
    public = sorted(n for n in dir(mx.gluon.nn) if n[0].isupper())
    assert len(public) == 42
    for n in ('Conv1DTranspose', 'GlobalAvgPool3D', 'ReflectionPad2D', 'BatchNormReLU',
              'InstanceNorm', 'LayerNorm', 'GroupNorm', 'PReLU', 'GELU', 'Swish', 'SymbolBlock'):
        assert n in public
    assert mx.gluon.nn.Activation is mx.gluon.nn.activations.Activation


def test_bad_input_names_layer_and_shapes():
    net = mx.gluon.nn.Conv2D(4, 3, in_channels=3)
    net.initialize()
    with pytest.raises(mx.base.MXNetError) as e:
        net(mx.nd.ones((1, 5, 6, 6)))
    msg = str(e.value)
    assert 'conv' in msg.lower() and '3' in msg and '5' in msg
