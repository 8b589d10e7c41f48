"""Custom operators whose inputs are not all given (``<name>_label``, ``<name>_<aux>``
variables, a NumpyOp's label) and whose infer_shape feeds Gluon's deferred initialisation,
against real MXNet 1.9.1: tests/fixtures/custom_op_inputs, written by
scripts/fixture_writers/custom_op_inputs.py, whose ``run(mx)`` runs here under mxcompat."""
import os
import warnings

import numpy as np
import pytest

import mxcompat as mx
from scripts.fixture_writers import custom_op_inputs

from conftest import FIXTURES

WANT = dict(np.load(os.path.join(FIXTURES, 'custom_op_inputs', 'custom_op_inputs.npz')))
_GOT = []


def _results():
    if not _GOT:
        with warnings.catch_warnings():
            warnings.simplefilter('ignore', UserWarning)  # NumpyOp is deprecated, as in MXNet
            _GOT.append(custom_op_inputs.run(mx))
    return _GOT[0]


@pytest.mark.parametrize('key', sorted(WANT))
def test_custom_op_inputs(key):
    got = _results()[key]
    want = WANT[key]
    if want.dtype.kind == 'U':
        assert got.tolist() == want.tolist(), key
        return
    assert got.shape == want.shape and got.dtype == want.dtype, key
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6, err_msg=key)


def test_unknown_input_name():
    _results()  # registers the operators
    data = mx.sym.Variable('data')
    with pytest.raises(mx.base.MXNetError, match="Cannot find argument 'lable'"):
        mx.sym.Custom(data=data, lable=data, op_type='ci_softmax')
