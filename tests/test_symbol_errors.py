"""Bad symbolic input: each of these is an error in MXNet 1.9.1 too; mxcompat's message names
what is wrong (every unknown operator at once, the operator and both shapes at bind)."""
import json

import pytest

import mxcompat as mx
from mxcompat.base import MXNetError


def _json_with_ops(*ops):
    nodes = [{'op': 'null', 'name': 'x', 'inputs': []}]
    for i, op in enumerate(ops):
        nodes.append({'op': op, 'name': 'n%d' % i, 'inputs': [[i, 0, 0]]})
    return json.dumps({'nodes': nodes, 'arg_nodes': [0], 'heads': [[len(ops), 0, 0]],
                       'attrs': {'mxnet_version': ['int', 10901]}})


def test_unknown_operators_are_all_named():
    with pytest.raises(MXNetError) as e:
        mx.sym.load_json(_json_with_ops('FooOp', 'relu', 'BarOp', 'FooOp'))
    msg = str(e.value)
    assert 'BarOp' in msg and 'FooOp' in msg and 'relu' not in msg


@pytest.mark.parametrize('text', ['{"nodes": [', '[]', '{"heads": [[0, 0, 0]]}', ''])
def test_malformed_json(text):
    with pytest.raises(MXNetError, match='(?i)symbol JSON'):
        mx.sym.load_json(text)


def _fc():
    return mx.sym.FullyConnected(mx.sym.var('data'), num_hidden=4, name='fc')


def test_bind_shape_error_names_operator_argument_and_shapes():
    args = {'data': mx.nd.ones((2, 3)), 'fc_weight': mx.nd.ones((4, 5)),
            'fc_bias': mx.nd.ones((4,))}
    with pytest.raises(MXNetError) as e:
        _fc().bind(mx.current_context(), args)  # where the arrays are
    msg = str(e.value)
    assert 'fc' in msg and 'weight' in msg and '(4, 5)' in msg and '(4, 3)' in msg


def test_simple_bind_shape_error():
    with pytest.raises(MXNetError) as e:
        _fc().simple_bind(mx.cpu(), data=(2, 3), fc_bias=(5,))
    msg = str(e.value)
    assert 'fc' in msg and 'bias' in msg and '(5,)' in msg and '(4,)' in msg
