"""Graphs wider than the lowering's limit of names per generated function (more variables
than ``mxcompat.symbol.lowering.CHUNK``: the graph takes its inputs as one tuple) against
real MXNet 1.9.1: shape inference, a bound Executor, ``mx.nd.CachedOp`` and an executor's
monitor callback on an ``add_n`` and a ``Concat`` of 1,500 variables, and those variables each
through a ``relu`` into an ``add_n``. Expected arrays were written by
scripts/fixture_writers/big_graph.py under real MXNet."""
import os

import numpy as np
import pytest

import mxcompat as mx
from mxcompat.symbol import lowering
from scripts.fixture_writers import big_graph

from conftest import FIXTURES

WANT = dict(np.load(os.path.join(FIXTURES, 'big_graph', 'big_graph.npz')))
_GOT = []


def _results():
    if not _GOT:
        assert big_graph.WIDE > lowering.CHUNK  # the cases exercise the tuple of inputs
        _GOT.append(big_graph.run(mx))
    return _GOT[0]


@pytest.mark.parametrize('key', sorted(WANT))
def test_wide_graph(key):
    got = _results()[key]
    want = WANT[key]
    if want.dtype.kind == 'U':
        assert list(got) == list(want)
        return
    assert got.shape == want.shape and got.dtype == want.dtype, key
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6, err_msg=key)
