"""Outputs of recorded calls through which no gradient flows are heads of ``backward``, as in
real MXNet 1.9.1: argmax and one_hot beside a loss, rrelu's mask, topk's indices, BatchNorm's
mean and variance, also after another backward freed its graph; a constant made inside
``record()`` is not. Expected arrays were written by scripts/fixture_writers/autograd_heads.py
under real MXNet."""
import os

import numpy as np
import pytest

import mxcompat as mx
from scripts.fixture_writers import autograd_heads

from conftest import FIXTURES

WANT = dict(np.load(os.path.join(FIXTURES, 'autograd_heads', 'autograd_heads.npz')))
_GOT = []


def _results():
    if not _GOT:
        _GOT.append(autograd_heads.run(mx))
    return _GOT[0]


@pytest.mark.parametrize('key', sorted(WANT))
def test_autograd_heads(key):
    got = _results()[key]
    want = WANT[key]
    assert got.shape == want.shape and got.dtype == want.dtype, key
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6, err_msg=key)
