"""The lowering of Symbol graphs (mxcompat/symbol/lowering.py) against real MXNet 1.9.1: a
graph of operators with hidden outputs, several visible outputs and an input that is also an
output gives MXNet's outputs through a bound Executor, ``mx.nd.CachedOp`` and a hybridized
SymbolBlock. Expected arrays were written by scripts/fixture_writers/lowering.py under real
MXNet."""
import os

import numpy as np
import pytest

import mxcompat as mx
from scripts.fixture_writers import lowering

from conftest import FIXTURES

WANT = dict(np.load(os.path.join(FIXTURES, 'lowering', 'lowering.npz')))
_GOT = []


def _results():
    if not _GOT:
        _GOT.append(lowering.run(mx))
    return _GOT[0]


@pytest.mark.parametrize('key', sorted(WANT))
def test_lowered_graph_outputs(key):
    got = _results()[key]
    want = WANT[key]
    assert got.shape == want.shape and got.dtype == want.dtype, key
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6, err_msg=key)


_CHUNKED = []


@pytest.mark.parametrize('key', sorted(WANT))
def test_lowered_graph_outputs_in_chunks(key, monkeypatch):
    """The same graphs lowered one operator per chunk (``lowering.CHUNK``, the size above
    which a graph's calls are split into submodules) give MXNet's outputs."""
    if not _CHUNKED:
        monkeypatch.setattr(mx.symbol.lowering, 'CHUNK', 1)
        _CHUNKED.append(lowering.run(mx))
    got = _CHUNKED[0][key]
    np.testing.assert_allclose(got, WANT[key], rtol=1e-5, atol=1e-6, err_msg=key)
