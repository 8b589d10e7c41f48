"""Higher-order gradients (autograd.grad with create_graph=True, differentiated again) against
real MXNet 1.9.1: tests/fixtures/higher_order_grad, written by
scripts/fixture_writers/higher_order_grad.py, whose ``run(mx)`` runs here under mxcompat."""
import os

import numpy as np
import pytest

import mxcompat as mx
from scripts.fixture_writers import higher_order_grad

from conftest import FIXTURES

WANT = dict(np.load(os.path.join(FIXTURES, 'higher_order_grad', 'higher_order_grad.npz')))
_GOT = []


def _results():
    if not _GOT:
        _GOT.append(higher_order_grad.run(mx))
    return _GOT[0]


@pytest.mark.parametrize('key', sorted(WANT))
def test_higher_order_grad(key):
    got = _results()[key]
    want = WANT[key]
    assert got.shape == want.shape and got.dtype == want.dtype, key
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6, err_msg=key)
