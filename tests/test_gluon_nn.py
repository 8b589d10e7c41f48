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


@pytest.mark.parametrize('make, bad_shape, error, expected', [
    (lambda: mx.gluon.nn.Conv2D(4, 3, in_channels=3), (1, 5, 6, 6), mx.base.MXNetError,
     ['(4, 3, 3, 3)', '(4, 5, 3, 3)']),
    (lambda: mx.gluon.nn.Conv2D(4, 3, in_channels=3), (5, 6, 6), mx.base.MXNetError,
     ['4D', '(5, 6, 6)']),
    (lambda: mx.gluon.nn.Conv2D(4, 3), (5, 6, 6), ValueError, ['4D', '(5, 6, 6)']),
    (lambda: mx.gluon.nn.Dense(8, in_units=4), (2, 3), mx.base.MXNetError, ['(8, 4)', '(8, 3)']),
    (lambda: mx.gluon.nn.BatchNorm(in_channels=4), (2, 3, 5, 5), mx.base.MXNetError,
     ['(4,)', '(3,)']),
])
def test_bad_input_names_layer_and_shapes(make, bad_shape, error, expected):
    """MXNet rejects these inputs too; our message also names the layer and both shapes."""
    net = make()
    net.initialize()
    with pytest.raises(error) as e:
        net(mx.nd.ones(bad_shape))
    msg = str(e.value)
    assert "layer '{}' ({})".format(net.name, type(net).__name__) in msg
    assert str(bad_shape) in msg
    for part in expected:
        assert part in msg


def test_bad_input_names_innermost_layer():
    net = mx.gluon.nn.HybridSequential()
    with net.name_scope():
        net.add(mx.gluon.nn.Dense(8, in_units=4), mx.gluon.nn.Dense(3))
    net.initialize()
    with pytest.raises(mx.base.MXNetError) as e:
        net(mx.nd.ones((2, 3)))
    assert str(e.value).startswith("layer '{}' (Dense)".format(net[0].name))
