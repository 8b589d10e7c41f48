"""Graphs wider than the lowering's limit of names per generated function (more variables
than ``mxcompat.symbol.lowering.CHUNK``: the graph takes its inputs as one tuple) against
real MXNet 1.9.1: shape inference, a bound Executor, ``mx.nd.CachedOp`` and an executor's
monitor callback on an ``add_n`` and a ``Concat`` of 1,500 variables, and those variables each
through a ``relu`` into an ``add_n``. Expected arrays were written by
scripts/fixture_writers/big_graph.py under real MXNet."""
import os

import numpy as np

import mxcompat as mx
from mxcompat.symbol import lowering
from scripts.fixture_writers import big_graph

from conftest import FIXTURES, assert_same_results


def test_wide_graphs():
    assert big_graph.WIDE > lowering.CHUNK  # the cases take their inputs as one tuple
    want = np.load(os.path.join(FIXTURES, 'big_graph', 'big_graph.npz'))
    assert_same_results(big_graph.run(mx), want, 'big_graph')
