"""Custom operators (mx.operator, mx.nd.Custom) against the same scenarios run by real MXNet
1.9.1 (tests/fixtures/custom_op, made by scripts/fixture_writers/custom_op.py)."""
import json
import os

import numpy as np
import pytest

import mxcompat as mx
from mxcompat import operator
from mxcompat.base import MXNetError
from mxcompat.ops.custom import Custom, symbol_Custom, signature, infer
from scripts.fixture_writers.custom_op import run_scenarios, run_symbol_scenarios

from conftest import FIXTURES

FX = os.path.join(FIXTURES, 'custom_op')
with open(os.path.join(FX, 'records.json')) as _f:
    RECORDS = json.load(_f)
WANT = dict(np.load(os.path.join(FX, 'values.npz')))


@pytest.fixture(scope='module')
def ran():
    custom = getattr(mx.nd, 'Custom', Custom)
    arrays, records = run_scenarios(mx, operator, custom, prefix='t_')
    sym_custom = getattr(mx.sym, 'Custom', symbol_Custom)
    with pytest.warns(UserWarning):  # NumpyOp is deprecated, as in MXNet
        more_arrays, more_records = run_symbol_scenarios(mx, operator, sym_custom)
    arrays.update(more_arrays)
    records.update(more_records)
    # JSON round trip so tuples compare as the lists MXNet's records hold
    return arrays, json.loads(json.dumps(records))


@pytest.mark.parametrize('key', sorted(WANT))
def test_values_match_mxnet(ran, key):
    got = ran[0][key]
    want = WANT[key]
    assert got.dtype == want.dtype and got.shape == want.shape, key
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7, err_msg=key)


@pytest.mark.parametrize('key', sorted(RECORDS))
def test_calls_match_mxnet(ran, key):
    assert ran[1][key] == RECORDS[key]


def test_default_prop_and_signature():
    class Ident(operator.CustomOp):
        def forward(self, is_train, req, in_data, out_data, aux):
            self.assign(out_data[0], req[0], in_data[0])

    @operator.register('t_ident')
    class IdentProp(operator.CustomOpProp):
        def create_operator(self, ctx, shapes, dtypes):
            return Ident()

    assert signature('t_ident', {}) == (['data'], [], ['output'])
    shapes, types = infer('t_ident', {}, [(2, 3)], [np.float16])
    assert shapes == ([[2, 3]], [[2, 3]], [])
    assert types == ([np.float16], [np.float16], [])
    x = mx.nd.array([[1, 2]], dtype='float16')
    y = Custom(x, op_type='t_ident')
    assert y.dtype == np.float16
    np.testing.assert_array_equal(y.asnumpy(), [[1, 2]])
    out = mx.nd.zeros((1, 2), dtype='float16')
    assert Custom(x, op_type='t_ident', out=out) is out
    np.testing.assert_array_equal(out.asnumpy(), [[1, 2]])


def test_custom_op_registered_by_default():
    # MXNet registers the base CustomOpProp as "custom_op"
    assert signature('custom_op', {}) == (['data'], [], ['output'])


def test_errors():
    with pytest.raises(MXNetError):
        Custom(mx.nd.ones((2,)))  # no op_type
    with pytest.raises(MXNetError):
        Custom([1, 2], op_type='custom_op')
